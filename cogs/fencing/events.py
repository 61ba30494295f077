"""The Table Fencing log: one line per engine event, and the words for how a game ended."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from cogs.fencing.wording import (
    ANTHEM_PARTS,
    BALL_WORDS,
    DUEL_PURPOSES,
    PROMPT_NAMES,
    cards_line,
    names,
    num,
    piece_long,
    piece_text,
    seconds,
)
from cogs.table.mentions import neutral
from cogs.table.ui import TableInfo


# ----- the log: one line per engine event ------------------------------------------------------
def refused_line(d: dict[str, Any], info: TableInfo) -> str:
    reason = str(d.get("reason") or "That is not allowed.")
    seats = d.get("seats") or {}
    with contextlib.suppress(KeyError, IndexError, ValueError):  # a reason naming no one
        reason = reason.format_map({k: info.name_of(v) for k, v in seats.items()})
    rule = f" (rule {d['rule']})" if d.get("rule") else ""
    return f"🚫 Refused: {info.name_of(d['seat'])}'s command — {reason}{rule}"


def thrust_line(d: dict[str, Any], info: TableInfo) -> str:
    result = d["result"]
    line = f"Thrust! {cards_line(d['cards'], info)}"
    if result == "trump":
        return f"{line} — a trump! {names(d['warriors'], info)} go to war, {info.name_of(d['parrier'])} parries."
    if result == "triple":
        return f"{line} — three alike!"
    return f"{line} — high card."


def war_line(d: dict[str, Any], info: TableInfo) -> str:
    result = d["result"]
    line = f"⚔️ War: {cards_line(d['cards'], info)}"
    if result == "trump":
        return (f"{line} — another trump! Level {d['level']}: {names(d['warriors'], info)} fight on, "
                f"{info.name_of(d['parrier'])} parries.")
    if result == "triple":
        return f"{line} — three alike!"
    return f"{line}."


def trick_won_line(d: dict[str, Any], info: TableInfo) -> str:
    how = {"high": "with the high card", "war_win": "the war", "parry": "with a parry"}.get(d["how"], "the trick")
    dice = " ".join(f"🎲{x}" for x in d["dice"])
    mult = f" × {d['mult']}" if d["mult"] != 1 else ""
    return f"{info.name_of(d['seat'])} wins {how} and will build {dice}{mult} = {d['total']}."


def move_line(d: dict[str, Any], info: TableInfo) -> str:
    way = "off-road" if d.get("offroad") else ("via " + ", ".join(d["route"][:-1]) if len(d["route"]) > 1 else "by road")
    return (f"🚗 {info.name_of(d['seat'])} moves {piece_text(d['piece'])} {d['from']} → {d['to']} "
            f"({way}, {d['km']} km).")


def hat_race_line(d: dict[str, Any], info: TableInfo) -> str:
    presses = d.get("presses") or {}
    timed = ", ".join(f"{info.name_of(int(s))} {seconds(t)}" for s, t in sorted(presses.items(), key=lambda kv: kv[1]))
    payers = d.get("payers") or []
    if d.get("missed"):
        verdict = f"{names(d['missed'], info)} never donned and pay{'s' if len(d['missed']) == 1 else ''}"
    elif payers:
        verdict = f"last on: {names(payers, info)} pay{'s' if len(payers) == 1 else ''}"
    else:
        verdict = "nobody pays"
    return f"🎩 Hat race{': ' + timed if timed else ''} — {verdict}. Redraw!"


def snaps_line(d: dict[str, Any], info: TableInfo) -> str:
    parts = []
    for seat, t, ok in zip(d["seats"], d["times"], d["ok"], strict=False):
        shown = "no snap" if t is None else seconds(t)
        parts.append(f"{info.name_of(seat)} {shown} {'✔' if ok else '✘'}")
    return f"🪀 The sleepers spun {seconds(d.get('S'))}: " + " · ".join(parts)


def timeout_tag(d: dict[str, Any]) -> str:
    return " (time ran out)" if d.get("timeout") else ""


EVENT_WORDS: dict[str, Callable[[dict[str, Any], TableInfo], str]] = {
    "game": lambda d, i: f"{i.name_of(d['seat'])} yells GAME!",
    "cancelled": lambda d, i: f"Not everyone yelled GAME! ({names(d.get('missing') or [], i)} missing): no game.",
    "gun": lambda d, i: ("🔫 BANG! The bot fires the starting gun." if d.get("seat") is None
                         else f"🔫 BANG! {i.name_of(d['seat'])} fires the starting gun. The clock is running."),
    "bumper": lambda d, i: f"📣 Bumper {d['no']} begins; {i.name_of(d['start'])} is the Start (red deck).",
    "stamp": lambda d, i: (f"📝 {i.name_of(d['seat'])} stamps the score sheet"
                           f"{' (the bot stamps for them)' if d.get('by_bot') else ''}."),
    "chocolate_dealt": lambda d, i: f"🍫 {i.name_of(d['seat'])} has {d['chocolate']} chocolate.",
    "golf_roll": lambda d, i: "⛳ Green dice for the golf balls: " + " · ".join(
        f"{i.name_of(s)} 🎲{r}" for s, r in enumerate(d["rolls"])),
    "golf_ball": lambda d, i: f"{i.name_of(d['seat'])} takes the {BALL_WORDS.get(d['ball'], d['ball'])}.",
    "duel_start": lambda d, i: (f"🪀 Yo-yo duel ({'dice' if d.get('mode') == 'dice' else 'sleepers'}): "
                                f"{names(d['seats'], i)} for {DUEL_PURPOSES.get(d.get('purpose', ''), 'the tie')}."),
    "duel_dice": lambda d, i: "🎲 Duel dice: " + " · ".join(
        f"{i.name_of(s)} {r}" for s, r in zip(d["seats"], d["rolls"], strict=False)),
    "duel_insult": lambda d, i: (f"🤐 {i.name_of(d['seat'])} says nothing." if d.get("skipped")
                                 else f"🗯️ {i.name_of(d['seat'])}: “{neutral(d['text'])}”"),
    "duel_applause": lambda d, i: f"👏 {i.name_of(d['seat'])} applauds {i.name_of(d['for'])}.",
    "duel_count_prompt": lambda d, i: f"{i.name_of(d['seat'])} will count to three.",
    "duel_count": lambda d, i: (f"📣 {'The bot' if d.get('seat') is None else i.name_of(d['seat'])}: "
                                "1, 2, 3 — THROW!"),
    "duel_snap": lambda d, i: f"🪀 {i.name_of(d['seat'])} snaps back!",
    "duel_snaps": snaps_line,
    "duel_won": lambda d, i: f"🏅 {i.name_of(d['seat'])} wins the duel over {i.name_of(d['loser'])}.",
    "thrust_called": lambda d, i: (f"🤺 Trick {d['trick']}: "
                                   f"{'the bot' if d.get('seat') is None else i.name_of(d['seat'])} calls Thrust!"),
    "thrust": thrust_line,
    "war_step": war_line,
    "triple": lambda d, i: "🎩 Three alike! Don your hats!",
    "hat": lambda d, i: f"🎩 {i.name_of(d['seat'])} dons a hat ({seconds(d.get('at'))}).",
    "hat_race": hat_race_line,
    "hat_keep": lambda d, i: (f"🎩 {i.name_of(d['seat'])} will keep the hat on." if d.get("keep")
                              else f"🎩 {i.name_of(d['seat'])} will take the hat off at the trick's end."),
    "hats_off": lambda d, i: f"Hats off: {names(d['seats'], i)}.",
    "trick_won": trick_won_line,
    "golf_closed": lambda d, i: f"⛳ {i.name_of(d['seat'])} closes the golf window{timeout_tag(d)}.",
    "quick_switch": lambda d, i: f"🔄 {i.name_of(d['seat'])} yells QUICK-SWITCH!",
    "throw": lambda d, i: (f"🏐 {i.name_of(d['seat'])} throws the {BALL_WORDS.get(d['ball'], d['ball'])} to "
                           f"{i.name_of(d['to'])}" + (" — wild! It counts as caught; the thrower pays." if d.get("wild")
                                                      else ".")),
    "catch_open": lambda d, i: f"🫴 {i.name_of(d['seat'])}, CATCH!",
    "catch": lambda d, i: f"🫴 {i.name_of(d['seat'])} catches the {BALL_WORDS.get(d['ball'], d['ball'])}.",
    "drop": lambda d, i: f"💥 {i.name_of(d['seat'])} drops the {BALL_WORDS.get(d['ball'], d['ball'])}!",
    "box": lambda d, i: f"🟡 The yellow ball goes to the penalty box until trick {d['release_after_trick']}.",
    "unbox": lambda d, i: f"🟡 The yellow ball leaves the penalty box for {i.name_of(d['seat'])}.",
    "hose": lambda d, i: (f"🌊 {i.name_of(d['seat'])} dunks the purple ball in Lake Erie: HOSE "
                          f"{i.name_of(d['target']).upper()}! Green dice {d['rolls'][0]} v {d['rolls'][1]}."),
    "hose_result": lambda d, i: (f"🌊 The hose works: {i.name_of(d['target'])} takes the purple ball."
                                 if d.get("hoser_won") else f"🌊 The hose fails: {i.name_of(d['seat'])} keeps purple and pays."),
    "both_balls": lambda d, i: f"🟡🟣 {i.name_of(d['seat'])} holds both balls and must hand them out.",
    "handout": lambda d, i: (f"{i.name_of(d['seat'])} hands 🟡 yellow to {i.name_of(d['yellow'])} and 🟣 purple to "
                             f"{i.name_of(d['purple'])}{timeout_tag(d)}."),
    "build": lambda d, i: (f"📈 {i.name_of(d['seat'])} builds {d['points']}"
                           f"{' (yellow ball)' if d.get('why') == 'yellow' else ''} → {num(d['score'])}."),
    "slide": lambda d, i: (f"⬇️ {i.name_of(d['seat'])} slides {d['points']}"
                           f"{' (purple ball)' if d.get('reason') == '14' else ''} → {num(d['score'])}."),
    "control": lambda d, i: (f"🩷 {i.name_of(d['seat'])} keeps control." if d.get("from") == d["seat"]
                             else f"🩷 {i.name_of(d['seat'])} takes control and the pinkie ball."),
    "catch_call": lambda d, i: f"🩷 {i.name_of(d['seat'])} yells CATCH! at {i.name_of(d['to'])}, who holds the mitt.",
    "mitt": lambda d, i: f"🧤 {i.name_of(d['seat'])} takes the baseball mitt.",
    "move": move_line,
    "offroad": lambda d, i: (f"🌾 {piece_text(d['piece'])} goes off-road"
                             + (f": {i.name_of(d['seat'])} pays a penalty." if d.get("penalty") else " (already off-road).")),
    "stay": lambda d, i: f"🛑 {i.name_of(d['seat'])} leaves {piece_text(d.get('piece'))} where it is{timeout_tag(d)}.",
    "theme": lambda d, i: (f"🎼 THEME! {i.name_of(d['seat'])} moved "
                           f"{' and '.join(piece_text(m['piece']) for m in d['moves'])} through "
                           f"{', '.join(d['through'])}."),
    "attack_call": lambda d, i: (f"🎯 {i.name_of(d['seat'])} "
                                 f"{'opens the attack on' if d.get('first') else 'calls the attack on'} "
                                 f"{piece_long(d['piece'])}."),
    "penalty": lambda d, i: f"⚠️ Penalty for {i.name_of(d['seat'])} (rule {d['reason']}).",
    "penalty_prompt": lambda d, i: f"{i.name_of(d['seat'])}: 🍫 eat or ⬇️ slide?",
    "chocolate": lambda d, i: (f"🍫 {i.name_of(d['seat'])} eats a chocolate ({d['left']} left){timeout_tag(d)}."),
    "refused": refused_line,
    "miscue": lambda d, i: f"❗ Miscue by {i.name_of(d['seat'])}: one penalty.",
    "butt_kick": lambda d, i: f"🥾 {i.name_of(d['seat'])} miscued twice since the last Thrust: a kick in the butt!",
    "too_late": lambda d, i: (f"⏱️ Too late, {i.name_of(d['seat'])}: "
                              f"{PROMPT_NAMES.get(d.get('prompt', ''), 'that prompt')} had closed."),
    "missed": lambda d, i: f"💤 {i.name_of(d['seat'])} let a prompt pass ({d['misses']} in a row).",
    "afk_forfeit": lambda d, i: f"💤 {i.name_of(d['seat'])} was away for five prompts in a row and forfeits.",
    "resumed": lambda d, i: "🔁 The bot is back: every clock restarts with time to spare.",
    "bumper_won": lambda d, i: (f"🏆 {i.name_of(d['seat'])} wins bumper {d['bumper']} "
                                f"{'with a THEME' if d.get('how') == 'theme' else 'by building 50'}! Scores: "
                                + " · ".join(f"{i.name_of(s)} {num(x)}" for s, x in enumerate(d["scores"]))),
    "anthem_start": lambda d, i: "🎺 Noise makers out for the anthem!",
    "anthem": lambda d, i: f"{ANTHEM_PARTS.get(d['part'], ('🎵', ''))[0]} {i.name_of(d['seat'])}: "
                           + {"noise": "makes noise!", "lyrics": "reads the lyrics from the good paperback.",
                              "hat": "dons a silly hat.", "hail": "HAIL TO THE FISH!"}.get(d["part"], "sings."),
    "anthem_end": lambda d, i: "🐟 All together: HAIL TO THE FISH!",
    "surplus": lambda d, i: (f"🍫 {i.name_of(d['seat'])}'s {d['count']} surplus chocolate "
                             f"{'is eaten (the carpet is blue)' if d.get('fate') == 'eaten' else 'goes to the audience'}."),
    "champion": lambda d, i: champion_line(d, i),
}


def champion_line(d: dict[str, Any], info: TableInfo) -> str:
    old, new = d.get("old"), d["new"]
    decried = (f"{info.name_of(old)} is decried! " if old is not None and old != new
               else "The old champion is decried! " if old is None else "")
    return (f"👑 {decried}{info.name_of(new)} is declared champion of the region, and the folded map "
            "is delivered with great force.")


REASONS = {
    "bumpers": "{winner} wins two bumpers and is the new champion of the region",
    "forfeit": "{seat} left the game",
    "afk": "{seat} was away for five prompts in a row and forfeits",
    "cancelled": "Not everyone yelled GAME!: no game",
}


