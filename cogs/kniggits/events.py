"""The Kniggits log: one line per engine event, with the commanders' names. Each event of the
catalogue (`games/kniggits/schema_events.py`) is worded by a function taking its own payload
type, so mypy checks every key it reads against the catalogue."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cogs.kniggits.wording import ARMIES, POOL_WORD, gesture_words, hits_words, xy
from cogs.table.ui import TableInfo
from cogs.table.wording import plural
from games.kniggits import schema_events as ev
from games.kniggits.schema import EventKind


def _kid(info: TableInfo, owner: int | None, kid: str) -> str:
    """`Alice's A1`: the kniggit with its commander's name (the id alone when no seat owns it)."""
    return f"{info.name_of(owner)}'s {kid}" if isinstance(owner, int) and not isinstance(owner, bool) else kid


def _owned(data: ev.Exchanged, info: TableInfo, kid: str) -> str:
    """A kniggit named in an exchange, with its commander from the event's `owners` map."""
    return _kid(info, data["owners"].get(kid), kid)


def _tokens(tokens: list[int]) -> str:
    return "/".join(str(n) for n in tokens)


def _map(d: ev.MapRolled, info: TableInfo) -> str:
    return f"🎲 {info.name_of(d['seat'])} re-rolls the map (re-roll {d['rolls']})."


def _map_accepted(d: ev.MapAccepted, info: TableInfo) -> str:
    return f"✅ {info.name_of(d['seat'])} accepts the map for Army {d['army']}."


def _phase(d: ev.Phase, info: TableInfo) -> str:
    phase, army = d["phase"], d.get("army")
    words = {"build": "🛒 Buy your armies in secret.", "deploy": "📍 Deploy in secret.",
             "rps": "✊ Rock-paper-scissors for the first turn.",
             "facing": f"🧭 Army {army} chooses facings.", "turning": f"🔄 Army {army} may turn to face attackers.",
             "fight": f"🗡️ Army {army} fights."}
    return words.get(phase, f"Phase: {phase}.")


def _locked_army(d: ev.Seat, info: TableInfo) -> str:
    return f"🔒 {info.name_of(d['seat'])} locked their army."


def _revealed(d: ev.Revealed, info: TableInfo) -> str:
    parts = []
    for army in ARMIES:
        bought = d["A"] if army == "A" else d["B"]
        valid = [p for p in bought if p["valid"]]
        ran = len(bought) - len(valid)
        parts.append(f"Army {army}: {plural(len(valid), 'kniggit')}" + (f" ({ran} ran away)" if ran else ""))
    return "🛡️ The armies are revealed — " + "; ".join(parts) + "."


def _locked_deployment(d: ev.Seat, info: TableInfo) -> str:
    return f"🔒 {info.name_of(d['seat'])} locked their deployment."


def _deployed(d: ev.Deployed, info: TableInfo) -> str:
    return f"📍 Both deployments are revealed: {plural(len(d['kniggits']), 'kniggit')} take the field."


def _thrown(d: ev.Seat, info: TableInfo) -> str:
    return f"🔒 {info.name_of(d['seat'])} has thrown."


def _rps(d: ev.RpsThrown, info: TableInfo) -> str:
    score = d["score"]
    won = f"Army {d['winner']} takes it" if d["winner"] else "no winner, throw again"
    return (f"✊ Rock-paper-scissors: A {d['A']} vs B {d['B']} — {won} "
            f"(A {score.get('A', 0)} – B {score.get('B', 0)}).")


def _rps_won(d: ev.RpsWon, info: TableInfo) -> str:
    return f"🎉 Army {d['army']} moves first" + (" (decided by lot after three double misses)." if d["by_lot"] else ".")


def _turn(d: ev.Turn, info: TableInfo) -> str:
    return f"— Round {d['round']}: Army {d['army']}'s turn —"


def _turn_end(d: ev.Turn, info: TableInfo) -> str:
    return f"Army {d['army']}'s turn ends."


def _moved(d: ev.Moved, info: TableInfo) -> str:
    path = d["path"]
    line = f"🏃 {_kid(info, d['owner'], d['id'])} moves {d['cost']} in to {xy(path[-1] if path else None)}"
    if d["engaged"]:
        line += f" and engages {', '.join(d['engaged'])}"
    return line + "."


def _held(d: ev.Held, info: TableInfo) -> str:
    return f"{_kid(info, d['owner'], d['id'])} holds its ground."


def _undone(d: ev.Undone, info: TableInfo) -> str:
    return f"⏪ {_kid(info, d['owner'], d['id'])} goes back to {xy(d['pos'])} (move undone)."


def _done(d: ev.Done, info: TableInfo) -> str:
    what = {"move": "is done moving", "turning": "is done turning", "fight": "ends the turn"}
    return f"{info.name_of(d['seat'])} {what.get(d['phase'], 'is done')}."


def _faced(d: ev.Faced, info: TableInfo) -> str:
    return (f"🧭 {_kid(info, d['owner'], d['id'])} faces {_kid(info, d['target_owner'], d['target'])}"
            + (" (by default)." if d.get("default") else "."))


def _attack(d: ev.Attacked, info: TableInfo) -> str:
    t = d["target"]
    who_a, who_t = _kid(info, d["attacker_owner"], d["attacker"]), _kid(info, d["target_owner"], t)
    if d["mode"] == "shot":
        return f"🏹 {who_a} shoots at {who_t} — {t} may only guard."
    tail = f"{t} may strike back" if d["mode"] == "mutual" else f"{t} may only guard"
    return f"⚔️ {who_a} attacks {who_t} — {tail}."


def _locked(d: ev.Locked, info: TableInfo) -> str:
    return f"🔒 {info.name_of(d['seat'])} locked their gesture."


def _exchange(d: ev.Exchanged, info: TableInfo) -> str:
    a, t = d["attacker"], d["target"]
    g = d["gestures"]
    return (f"🔓 Reveal #{d['number']}: {_owned(d, info, a)} {gesture_words(g.get(a))}; "
            f"{_owned(d, info, t)} {gesture_words(g.get(t))}. {hits_words(d)}")


def _dismounted(d: ev.Owned, info: TableInfo) -> str:
    return f"🐎 {_kid(info, d['owner'], d['id'])} loses its horse and fights on foot."


def _fled(d: ev.Fled, info: TableInfo) -> str:
    return f"⚑ {_kid(info, d['owner'], d['id'])} flees ({_tokens(d['tokens'])} left)!"


def _run(d: ev.Run, info: TableInfo) -> str:
    return f"🏃 {_kid(info, d['owner'], d['id'])} runs for home" + (" and leaves the field." if d["gone"] else ".")


def _gone(d: ev.Owned, info: TableInfo) -> str:
    return f"{_kid(info, d['owner'], d['id'])} has left the battlefield."


def _potion(d: ev.Potion, info: TableInfo) -> str:
    return (f"🧪 {_kid(info, d['owner'], d['id'])} drinks potion {d['potion']}: +5 {POOL_WORD[d['kind']]} "
            f"({_tokens(d['tokens'])}).")


def _flag_taken(d: ev.FlagTaken, info: TableInfo) -> str:
    return f"⚑ {_kid(info, d['owner'], d['id'])} takes flag {d['flag']} in its {d['hand']} hand!"


def _flag_home(d: ev.FlagHome, info: TableInfo) -> str:
    return f"⚑ {_kid(info, d['owner'], d['id'])} sends flag {d['flag']} home."


def _flag_dropped(d: ev.FlagDropped, info: TableInfo) -> str:
    return f"⚑ {_kid(info, d['owner'], d['id'])} drops flag {d['flag']} at {xy(d['pos'])}."


def _handed(d: ev.Handed, info: TableInfo) -> str:
    return f"✋ {info.name_of(d['seat'])} plays {'left' if d['left'] else 'right'}-handed."


def _afk(d: ev.Afk, info: TableInfo) -> str:
    return (f"💤 {info.name_of(d['seat'])} sat out {d['turns']} of Army {d['army']}'s "
            "turns in a row: the other army may claim a forfeit.")


def _concede(d: ev.Conceded, info: TableInfo) -> str:
    return f"🏳️ {info.name_of(d['seat'])} concedes for Army {d['army']}."


def _victory(d: ev.Victory, info: TableInfo) -> str:
    winner = d["winner"]
    reason = d["reason"].replace("_", " ")
    return f"🏁 Army {winner} wins ({reason})." if winner else f"🏁 The battle ends in a draw ({reason})."


#: Each event of the catalogue (games/kniggits/schema_events.py) in words, each function reading its
#: own payload type (`schema_events.EVENTS` names it); tests/kniggits/test_log.py checks the keys are
#: exactly its kinds but the runtime's forfeit (worded by the shared table).
EVENT_WORDS: dict[EventKind, Callable[[Any, TableInfo], str]] = {
    "map": _map,
    "map_accepted": _map_accepted,
    "phase": _phase,
    "army_locked": _locked_army,
    "reveal_armies": _revealed,
    "deploy_locked": _locked_deployment,
    "deployed": _deployed,
    "thrown": _thrown,
    "rps": _rps,
    "rps_won": _rps_won,
    "turn": _turn,
    "turn_end": _turn_end,
    "moved": _moved,
    "held": _held,
    "undone": _undone,
    "done": _done,
    "faced": _faced,
    "attack": _attack,
    "locked": _locked,
    "exchange": _exchange,
    "dismounted": _dismounted,
    "fled": _fled,
    "run": _run,
    "gone": _gone,
    "potion": _potion,
    "flag_taken": _flag_taken,
    "flag_home": _flag_home,
    "flag_dropped": _flag_dropped,
    "handed": _handed,
    "afk": _afk,
    "concede": _concede,
    "victory": _victory,
}
