"""The Table Fencing log: one line per engine event (the golf balls' and the duels' in `events_balls.py`),
each a function reading its payload type from the schema's catalogue, and the words for how a
game ended."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from cogs.fencing import events_balls
from cogs.fencing.wording import (
    ANTHEM_PARTS,
    PROMPT_NAMES,
    cards_line,
    names,
    num,
    piece_long,
    piece_text,
    seconds,
    timeout_tag,
)
from cogs.table.ui import TableInfo
from games.fencing import schema_events
from games.fencing.schema import EventKind


# ----- the log: one line per engine event ------------------------------------------------------
def refused_line(d: schema_events.Refused, info: TableInfo) -> str:
    reason = str(d.get("reason") or "That is not allowed.")
    seats = d.get("seats") or {}
    with contextlib.suppress(KeyError, IndexError, ValueError):  # a reason naming no one
        reason = reason.format_map({k: info.name_of(v) for k, v in seats.items()})
    rule = f" (rule {d['rule']})" if d.get("rule") else ""
    return f"🚫 Refused: {info.name_of(d['seat'])}'s command — {reason}{rule}"


def thrust_line(d: schema_events.Drawn, info: TableInfo) -> str:
    result = d["result"]
    line = f"Thrust! {cards_line(d['cards'], info)}"
    if result == "trump":
        return (f"{line} — a trump! {names(d['warriors'] or [], info)} go to war, "
                f"{info.name_of(d['parrier'])} parries.")
    if result == "triple":
        return f"{line} — three alike!"
    return f"{line} — high card."


def war_line(d: schema_events.Drawn, info: TableInfo) -> str:
    result = d["result"]
    line = f"⚔️ War: {cards_line(d['cards'], info)}"
    if result == "trump":
        return (f"{line} — another trump! Level {d['level']}: {names(d['warriors'] or [], info)} fight on, "
                f"{info.name_of(d['parrier'])} parries.")
    if result == "triple":
        return f"{line} — three alike!"
    return f"{line}."


def trick_won_line(d: schema_events.TrickWon, info: TableInfo) -> str:
    how = {"high": "with the high card", "war_win": "the war", "parry": "with a parry"}.get(d["how"], "the trick")
    dice = " ".join(f"🎲{x}" for x in d["dice"])
    mult = f" × {d['mult']}" if d["mult"] != 1 else ""
    return f"{info.name_of(d['seat'])} wins {how} and will build {dice}{mult} = {d['total']}."


def move_line(d: schema_events.Moved, info: TableInfo) -> str:
    way = "off-road" if d.get("offroad") else ("via " + ", ".join(d["route"][:-1]) if len(d["route"]) > 1 else "by road")
    return (f"🚗 {info.name_of(d['seat'])} moves {piece_text(d['piece'])} {d['from']} → {d['to']} "
            f"({way}, {d['km']} km).")


def hat_race_line(d: schema_events.HatRace, info: TableInfo) -> str:
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


def game_line(d: schema_events.Seat, i: TableInfo) -> str:
    return f"{i.name_of(d['seat'])} yells GAME!"


def cancelled_line(d: schema_events.Cancelled, i: TableInfo) -> str:
    return f"Not everyone yelled GAME! ({names(d.get('missing') or [], i)} missing): no game."


def gun_line(d: schema_events.MaybeSeat, i: TableInfo) -> str:
    return ("🔫 BANG! The bot fires the starting gun." if d.get("seat") is None
            else f"🔫 BANG! {i.name_of(d['seat'])} fires the starting gun. The clock is running.")


def bumper_line(d: schema_events.Bumper, i: TableInfo) -> str:
    return f"📣 Bumper {d['no']} begins; {i.name_of(d['start'])} is the Start (red deck)."


def stamp_line(d: schema_events.Stamped, i: TableInfo) -> str:
    return (f"📝 {i.name_of(d['seat'])} stamps the score sheet"
            f"{' (the bot stamps for them)' if d.get('by_bot') else ''}.")


def chocolate_dealt_line(d: schema_events.ChocolateDealt, i: TableInfo) -> str:
    return f"🍫 {i.name_of(d['seat'])} has {d['chocolate']} chocolate."


def thrust_called_line(d: schema_events.ThrustCalled, i: TableInfo) -> str:
    return (f"🤺 Trick {d['trick']}: "
            f"{'the bot' if d.get('seat') is None else i.name_of(d['seat'])} calls Thrust!")


def triple_line(d: schema_events.Trick, i: TableInfo) -> str:
    return "🎩 Three alike! Don your hats!"


def hat_line(d: schema_events.HatDonned, i: TableInfo) -> str:
    return f"🎩 {i.name_of(d['seat'])} dons a hat ({seconds(d.get('at'))})."


def hat_keep_line(d: schema_events.HatKept, i: TableInfo) -> str:
    return (f"🎩 {i.name_of(d['seat'])} will keep the hat on." if d.get("keep")
            else f"🎩 {i.name_of(d['seat'])} will take the hat off at the trick's end.")


def hats_off_line(d: schema_events.Seats, i: TableInfo) -> str:
    return f"Hats off: {names(d['seats'], i)}."


def build_line(d: schema_events.Built, i: TableInfo) -> str:
    return (f"📈 {i.name_of(d['seat'])} builds {d['points']}"
            f"{' (yellow ball)' if d.get('why') == 'yellow' else ''} → {num(d['score'])}.")


def slide_line(d: schema_events.Slide, i: TableInfo) -> str:
    return (f"⬇️ {i.name_of(d['seat'])} slides {d['points']}"
            f"{' (purple ball)' if d.get('reason') == '14' else ''} → {num(d['score'])}.")


def control_line(d: schema_events.Control, i: TableInfo) -> str:
    return (f"🩷 {i.name_of(d['seat'])} keeps control." if d.get("from") == d["seat"]
            else f"🩷 {i.name_of(d['seat'])} takes control and the pinkie ball.")


def offroad_line(d: schema_events.Offroad, i: TableInfo) -> str:
    return (f"🌾 {piece_text(d['piece'])} goes off-road"
            + (f": {i.name_of(d['seat'])} pays a penalty." if d.get("penalty") else " (already off-road)."))


def stay_line(d: schema_events.Stayed, i: TableInfo) -> str:
    return f"🛑 {i.name_of(d['seat'])} leaves {piece_text(d.get('piece'))} where it is{timeout_tag(d)}."


def theme_line(d: schema_events.ThemeView, i: TableInfo) -> str:
    return (f"🎼 THEME! {i.name_of(d['seat'])} moved "
            f"{' and '.join(piece_text(m['piece']) for m in d['moves'])} through "
            f"{', '.join(d['through'])}.")


def attack_call_line(d: schema_events.AttackCall, i: TableInfo) -> str:
    return (f"🎯 {i.name_of(d['seat'])} "
            f"{'opens the attack on' if d.get('first') else 'calls the attack on'} "
            f"{piece_long(d['piece'])}.")


def penalty_line(d: schema_events.PenaltyOwed, i: TableInfo) -> str:
    return f"⚠️ Penalty for {i.name_of(d['seat'])} (rule {d['reason']})."


def penalty_prompt_line(d: schema_events.PenaltyPrompt, i: TableInfo) -> str:
    return f"{i.name_of(d['seat'])}: 🍫 eat or ⬇️ slide?"


def chocolate_line(d: schema_events.ChocolateEaten, i: TableInfo) -> str:
    return f"🍫 {i.name_of(d['seat'])} eats a chocolate ({d['left']} left){timeout_tag(d)}."


def miscue_line(d: schema_events.Miscue, i: TableInfo) -> str:
    return f"❗ Miscue by {i.name_of(d['seat'])}: one penalty."


def butt_kick_line(d: schema_events.ButtKick, i: TableInfo) -> str:
    return f"🥾 {i.name_of(d['seat'])} miscued twice since the last Thrust: a kick in the butt!"


def too_late_line(d: schema_events.TooLate, i: TableInfo) -> str:
    return (f"⏱️ Too late, {i.name_of(d['seat'])}: "
            f"{PROMPT_NAMES.get(d.get('prompt', ''), 'that prompt')} had closed.")


def missed_line(d: schema_events.Missed, i: TableInfo) -> str:
    return f"💤 {i.name_of(d['seat'])} let a prompt pass ({d['misses']} in a row)."


def afk_forfeit_line(d: schema_events.Seat, i: TableInfo) -> str:
    return f"💤 {i.name_of(d['seat'])} was away for five prompts in a row and forfeits."


def resumed_line(d: schema_events.Resumed, i: TableInfo) -> str:
    return "🔁 The bot is back: every clock restarts with time to spare."


def bumper_won_line(d: schema_events.BumperWon, i: TableInfo) -> str:
    return (f"🏆 {i.name_of(d['seat'])} wins bumper {d['bumper']} "
            f"{'with a THEME' if d.get('how') == 'theme' else 'by building 50'}! Scores: "
            + " · ".join(f"{i.name_of(s)} {num(x)}" for s, x in enumerate(d["scores"])))


def anthem_start_line(d: schema_events.AnthemStart, i: TableInfo) -> str:
    return "🎺 Noise makers out for the anthem!"


def anthem_line(d: schema_events.AnthemSung, i: TableInfo) -> str:
    return (f"{ANTHEM_PARTS.get(d['part'], ('🎵', ''))[0]} {i.name_of(d['seat'])}: "
            + {"noise": "makes noise!", "lyrics": "reads the lyrics from the good paperback.",
               "hat": "dons a silly hat.", "hail": "HAIL TO THE FISH!"}.get(d["part"], "sings."))


def anthem_end_line(d: schema_events.AnthemEnd, i: TableInfo) -> str:
    return "🐟 All together: HAIL TO THE FISH!"


def surplus_line(d: schema_events.Surplus, i: TableInfo) -> str:
    return (f"🍫 {i.name_of(d['seat'])}'s {d['count']} surplus chocolate "
            f"{'is eaten (the carpet is blue)' if d.get('fate') == 'eaten' else 'goes to the audience'}.")


def champion_line(d: schema_events.Champion, info: TableInfo) -> str:
    old, new = d.get("old"), d["new"]
    decried = (f"{info.name_of(old)} is decried! " if old is not None and old != new
               else "The old champion is decried! " if old is None else "")
    return (f"👑 {decried}{info.name_of(new)} is declared champion of the region, and the folded map "
            "is delivered with great force.")


#: The words of every event of the schema's catalogue (`schema.EVENTS`; a forfeit is worded by
#: the table), each function reading its own payload type; `event_line` looks the type up here.
EVENT_WORDS: dict[EventKind, Callable[[Any, TableInfo], str]] = {
    "game": game_line,
    "cancelled": cancelled_line,
    "gun": gun_line,
    "bumper": bumper_line,
    "stamp": stamp_line,
    "chocolate_dealt": chocolate_dealt_line,
    "golf_roll": events_balls.golf_roll_line,
    "golf_ball": events_balls.golf_ball_line,
    "duel_start": events_balls.duel_start_line,
    "duel_dice": events_balls.duel_dice_line,
    "duel_insult": events_balls.duel_insult_line,
    "duel_applause": events_balls.duel_applause_line,
    "duel_count_prompt": events_balls.duel_count_prompt_line,
    "duel_count": events_balls.duel_count_line,
    "duel_snap": events_balls.duel_snap_line,
    "duel_snaps": events_balls.snaps_line,
    "duel_won": events_balls.duel_won_line,
    "thrust_called": thrust_called_line,
    "thrust": thrust_line,
    "war_step": war_line,
    "triple": triple_line,
    "hat": hat_line,
    "hat_race": hat_race_line,
    "hat_keep": hat_keep_line,
    "hats_off": hats_off_line,
    "trick_won": trick_won_line,
    "golf_closed": events_balls.golf_closed_line,
    "quick_switch": events_balls.quick_switch_line,
    "throw": events_balls.throw_line,
    "catch_open": events_balls.catch_open_line,
    "catch": events_balls.catch_line,
    "drop": events_balls.drop_line,
    "box": events_balls.box_line,
    "unbox": events_balls.unbox_line,
    "hose": events_balls.hose_line,
    "hose_result": events_balls.hose_result_line,
    "both_balls": events_balls.both_balls_line,
    "handout": events_balls.handout_line,
    "build": build_line,
    "slide": slide_line,
    "control": control_line,
    "catch_call": events_balls.catch_call_line,
    "mitt": events_balls.mitt_line,
    "move": move_line,
    "offroad": offroad_line,
    "stay": stay_line,
    "theme": theme_line,
    "attack_call": attack_call_line,
    "penalty": penalty_line,
    "penalty_prompt": penalty_prompt_line,
    "chocolate": chocolate_line,
    "refused": refused_line,
    "miscue": miscue_line,
    "butt_kick": butt_kick_line,
    "too_late": too_late_line,
    "missed": missed_line,
    "afk_forfeit": afk_forfeit_line,
    "resumed": resumed_line,
    "bumper_won": bumper_won_line,
    "anthem_start": anthem_start_line,
    "anthem": anthem_line,
    "anthem_end": anthem_end_line,
    "surplus": surplus_line,
    "champion": champion_line,
}


REASONS = {
    "bumpers": "{winner} wins two bumpers and is the new champion of the region",
    "forfeit": "{seat} left the game",
    "afk": "{seat} was away for five prompts in a row and forfeits",
    "cancelled": "Not everyone yelled GAME!: no game",
}


