"""The Kniggits log: one line per engine event, with the commanders' names."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cogs.kniggits.wording import ARMIES, POOL_WORD, gesture_words, hits_words, xy
from cogs.table.ui import TableInfo
from cogs.table.wording import plural
from games.kniggits.schema import EventKind


def _name(info: TableInfo, seat: Any) -> str:
    return info.name_of(seat if isinstance(seat, int) else None)


def _kid(data: dict[str, Any], info: TableInfo, key: str = "id", owner: str = "owner") -> str:
    """`Alice's A1`: the kniggit's commander (its `owner` field; the acting seat when the
    event names no owner), or the id alone."""
    seat = data.get(owner, data.get("seat") if key == "id" else None)
    kid = str(data.get(key, "?"))
    return f"{_name(info, seat)}'s {kid}" if isinstance(seat, int) and not isinstance(seat, bool) else kid


def _owned(data: dict[str, Any], info: TableInfo, kid: Any) -> str:
    """A kniggit named in an exchange, with its commander from the event's `owners` map."""
    seat = (data.get("owners") or {}).get(str(kid))
    return f"{_name(info, seat)}'s {kid}" if isinstance(seat, int) else str(kid)


def _moved(d: dict[str, Any], info: TableInfo) -> str:
    path = d.get("path") or []
    line = f"🏃 {_kid(d, info)} moves {d.get('cost', '?')} in to {xy(path[-1] if path else None)}"
    if d.get("engaged"):
        line += f" and engages {', '.join(d['engaged'])}"
    return line + "."


def _rps(d: dict[str, Any], info: TableInfo) -> str:
    score = d.get("score") or {}
    won = f"Army {d['winner']} takes it" if d.get("winner") else "no winner, throw again"
    return (f"✊ Rock-paper-scissors: A {d.get('A')} vs B {d.get('B')} — {won} "
            f"(A {score.get('A', 0)} – B {score.get('B', 0)}).")


def _revealed(d: dict[str, Any], info: TableInfo) -> str:
    parts = []
    for army in ARMIES:
        bought = d.get(army) or []
        valid = [p for p in bought if p.get("valid", True)]
        ran = len(bought) - len(valid)
        parts.append(f"Army {army}: {plural(len(valid), 'kniggit')}" + (f" ({ran} ran away)" if ran else ""))
    return "🛡️ The armies are revealed — " + "; ".join(parts) + "."


def _exchange(d: dict[str, Any], info: TableInfo) -> str:
    a, t = d.get("attacker"), d.get("target")
    g = d.get("gestures") or {}
    return (f"🔓 Reveal #{d.get('number')}: {_owned(d, info, a)} {gesture_words(g.get(a))}; "
            f"{_owned(d, info, t)} {gesture_words(g.get(t))}. {hits_words(d)}")


def _attack(d: dict[str, Any], info: TableInfo) -> str:
    seats = d.get("seats") or []
    t = d.get("target")
    d = {"attacker_owner": seats[0] if seats else None, "target_owner": seats[1] if len(seats) > 1 else None, **d}
    who_a, who_t = _kid(d, info, "attacker", "attacker_owner"), _kid(d, info, "target", "target_owner")
    if d.get("mode") == "shot":
        return f"🏹 {who_a} shoots at {who_t} — {t} may only guard."
    tail = f"{t} may strike back" if d.get("mode") == "mutual" else f"{t} may only guard"
    return f"⚔️ {who_a} attacks {who_t} — {tail}."


def _phase(d: dict[str, Any], info: TableInfo) -> str:
    phase: str | None = d.get("phase")
    army = d.get("army")
    words = {"build": "🛒 Buy your armies in secret.", "deploy": "📍 Deploy in secret.",
             "rps": "✊ Rock-paper-scissors for the first turn.",
             "facing": f"🧭 Army {army} chooses facings.", "turning": f"🔄 Army {army} may turn to face attackers.",
             "fight": f"🗡️ Army {army} fights."}
    return words.get(phase or "", f"Phase: {phase}.")


def _done(d: dict[str, Any], info: TableInfo) -> str:
    what = {"move": "is done moving", "turning": "is done turning", "fight": "ends the turn"}
    return f"{_name(info, d.get('seat'))} {what.get(d.get('phase', ''), 'is done')}."


def _victory(d: dict[str, Any], info: TableInfo) -> str:
    winner = d.get("winner")
    reason = str(d.get("reason", "")).replace("_", " ")
    return f"🏁 Army {winner} wins ({reason})." if winner else f"🏁 The battle ends in a draw ({reason})."


#: Each event of the catalogue (games/kniggits/schema_events.py) in words; tests/kniggits/test_log.py checks
#: the keys are exactly its kinds.
EVENT_WORDS: dict[EventKind, Callable[[dict[str, Any], TableInfo], str]] = {
    "map": lambda d, info: f"🎲 {_name(info, d.get('seat'))} re-rolls the map (re-roll {d.get('rolls')}).",
    "map_accepted": lambda d, info: f"✅ {_name(info, d.get('seat'))} accepts the map for Army {d.get('army')}.",
    "phase": _phase,
    "army_locked": lambda d, info: f"🔒 {_name(info, d.get('seat'))} locked their army.",
    "reveal_armies": _revealed,
    "deploy_locked": lambda d, info: f"🔒 {_name(info, d.get('seat'))} locked their deployment.",
    "deployed": lambda d, info: f"📍 Both deployments are revealed: {plural(len(d.get('kniggits') or {}), 'kniggit')} "
                                "take the field.",
    "thrown": lambda d, info: f"🔒 {_name(info, d.get('seat'))} has thrown.",
    "rps": _rps,
    "rps_won": lambda d, info: (f"🎉 Army {d.get('army')} moves first"
                                + (" (decided by lot after three double misses)." if d.get("by_lot") else ".")),
    "turn": lambda d, info: f"— Round {d.get('round')}: Army {d.get('army')}'s turn —",
    "turn_end": lambda d, info: f"Army {d.get('army')}'s turn ends.",
    "moved": _moved,
    "held": lambda d, info: f"{_kid(d, info)} holds its ground.",
    "undone": lambda d, info: f"⏪ {_kid(d, info)} goes back to {xy(d.get('pos'))} (move undone).",
    "done": _done,
    "faced": lambda d, info: (f"🧭 {_kid(d, info)} faces {_kid(d, info, 'target', 'target_owner')}"
                              + (" (by default)." if d.get("default") else ".")),
    "attack": _attack,
    "locked": lambda d, info: f"🔒 {_name(info, d.get('seat'))} locked their gesture.",
    "exchange": _exchange,
    "dismounted": lambda d, info: f"🐎 {_kid(d, info)} loses its horse and fights on foot.",
    "fled": lambda d, info: f"⚑ {_kid(d, info)} flees ({'/'.join(str(n) for n in d.get('tokens') or [])} left)!",
    "run": lambda d, info: (f"🏃 {_kid(d, info)} runs for home" + (" and leaves the field." if d.get("gone") else ".")),
    "gone": lambda d, info: f"{_kid(d, info)} has left the battlefield.",
    "potion": lambda d, info: f"🧪 {_kid(d, info)} drinks potion {d.get('potion')}: +5 {POOL_WORD.get(d.get('kind', ''), '')} "
                              f"({'/'.join(str(n) for n in d.get('tokens') or [])}).",
    "flag_taken": lambda d, info: f"⚑ {_kid(d, info)} takes flag {d.get('flag')} in its {d.get('hand')} hand!",
    "flag_home": lambda d, info: f"⚑ {_kid(d, info)} sends flag {d.get('flag')} home.",
    "flag_dropped": lambda d, info: f"⚑ {_kid(d, info)} drops flag {d.get('flag')} at {xy(d.get('pos'))}.",
    "handed": lambda d, info: (f"✋ {_name(info, d.get('seat'))} plays "
                               f"{'left' if d.get('left') else 'right'}-handed."),
    "afk": lambda d, info: (f"💤 {_name(info, d.get('seat'))} sat out {d.get('turns')} of Army {d.get('army')}'s "
                            "turns in a row: the other army may claim a forfeit."),
    "concede": lambda d, info: f"🏳️ {_name(info, d.get('seat'))} concedes for Army {d.get('army')}.",
    "victory": _victory,
}

