"""The log's words for the golf balls (who holds yellow and purple, quick-switches, catches and
drops, the hose, the handout, the pinkie and the mitt) and the yo-yo duels that settle their
ties: a function per event, each reading its payload type from the schema's catalogue
(`events.EVENT_WORDS` files them by event kind)."""

from __future__ import annotations

from cogs.fencing.wording import BALL_WORDS, DUEL_PURPOSES, names, seconds, timeout_tag
from cogs.table.mentions import neutral
from cogs.table.ui import TableInfo
from games.fencing import schema_events


def golf_roll_line(d: schema_events.Rolls, i: TableInfo) -> str:
    return ("⛳ Green dice for the golf balls: " + " · ".join(
            f"{i.name_of(s)} 🎲{r}" for s, r in enumerate(d["rolls"])))


def golf_ball_line(d: schema_events.GolfBall, i: TableInfo) -> str:
    return f"{i.name_of(d['seat'])} takes the {BALL_WORDS.get(d['ball'], d['ball'])}."


def duel_start_line(d: schema_events.DuelStart, i: TableInfo) -> str:
    return (f"🪀 Yo-yo duel ({'dice' if d.get('mode') == 'dice' else 'sleepers'}): "
            f"{names(d['seats'], i)} for {DUEL_PURPOSES.get(d.get('purpose', ''), 'the tie')}.")


def duel_dice_line(d: schema_events.DuelDice, i: TableInfo) -> str:
    return ("🎲 Duel dice: " + " · ".join(
            f"{i.name_of(s)} {r}" for s, r in zip(d["seats"], d["rolls"], strict=False)))


def duel_insult_line(d: schema_events.DuelInsult, i: TableInfo) -> str:
    return (f"🤐 {i.name_of(d['seat'])} says nothing." if d.get("skipped")
            else f"🗯️ {i.name_of(d['seat'])}: “{neutral(d['text'])}”")


def duel_applause_line(d: schema_events.DuelApplause, i: TableInfo) -> str:
    return f"👏 {i.name_of(d['seat'])} applauds {i.name_of(d['for'])}."


def duel_count_prompt_line(d: schema_events.Seat, i: TableInfo) -> str:
    return f"{i.name_of(d['seat'])} will count to three."


def duel_count_line(d: schema_events.MaybeSeat, i: TableInfo) -> str:
    return (f"📣 {'The bot' if d.get('seat') is None else i.name_of(d['seat'])}: "
            "1, 2, 3 — THROW!")


def duel_snap_line(d: schema_events.Seat, i: TableInfo) -> str:
    return f"🪀 {i.name_of(d['seat'])} snaps back!"


def snaps_line(d: schema_events.DuelSnaps, info: TableInfo) -> str:
    parts = []
    for seat, t, ok in zip(d["seats"], d["times"], d["ok"], strict=False):
        shown = "no snap" if t is None else seconds(t)
        parts.append(f"{info.name_of(seat)} {shown} {'✔' if ok else '✘'}")
    return f"🪀 The sleepers spun {seconds(d.get('S'))}: " + " · ".join(parts)


def duel_won_line(d: schema_events.DuelWon, i: TableInfo) -> str:
    return f"🏅 {i.name_of(d['seat'])} wins the duel over {i.name_of(d['loser'])}."


def golf_closed_line(d: schema_events.GolfClosed, i: TableInfo) -> str:
    return f"⛳ {i.name_of(d['seat'])} closes the golf window{timeout_tag(d)}."


def quick_switch_line(d: schema_events.QuickSwitch, i: TableInfo) -> str:
    return f"🔄 {i.name_of(d['seat'])} yells QUICK-SWITCH!"


def throw_line(d: schema_events.Throw, i: TableInfo) -> str:
    return (f"🏐 {i.name_of(d['seat'])} throws the {BALL_WORDS.get(d['ball'], d['ball'])} to "
            f"{i.name_of(d['to'])}" + (" — wild! It counts as caught; the thrower pays." if d.get("wild")
                                       else "."))


def catch_open_line(d: schema_events.CatchOpen, i: TableInfo) -> str:
    return f"🫴 {i.name_of(d['seat'])}, CATCH!"


def catch_line(d: schema_events.Caught, i: TableInfo) -> str:
    return f"🫴 {i.name_of(d['seat'])} catches the {BALL_WORDS.get(d['ball'], d['ball'])}."


def drop_line(d: schema_events.Caught, i: TableInfo) -> str:
    return f"💥 {i.name_of(d['seat'])} drops the {BALL_WORDS.get(d['ball'], d['ball'])}!"


def box_line(d: schema_events.Boxed, i: TableInfo) -> str:
    return f"🟡 The yellow ball goes to the penalty box until trick {d['release_after_trick']}."


def unbox_line(d: schema_events.Unboxed, i: TableInfo) -> str:
    return f"🟡 The yellow ball leaves the penalty box for {i.name_of(d['seat'])}."


def hose_line(d: schema_events.Hosed, i: TableInfo) -> str:
    return (f"🌊 {i.name_of(d['seat'])} dunks the purple ball in Lake Erie: HOSE "
            f"{i.name_of(d['target']).upper()}! Green dice {d['rolls'][0]} v {d['rolls'][1]}.")


def hose_result_line(d: schema_events.HoseResult, i: TableInfo) -> str:
    return (f"🌊 The hose works: {i.name_of(d['target'])} takes the purple ball."
            if d.get("hoser_won") else f"🌊 The hose fails: {i.name_of(d['seat'])} keeps purple and pays.")


def both_balls_line(d: schema_events.Seat, i: TableInfo) -> str:
    return f"🟡🟣 {i.name_of(d['seat'])} holds both balls and must hand them out."


def handout_line(d: schema_events.HandedOut, i: TableInfo) -> str:
    return (f"{i.name_of(d['seat'])} hands 🟡 yellow to {i.name_of(d['yellow'])} and 🟣 purple to "
            f"{i.name_of(d['purple'])}{timeout_tag(d)}.")


def catch_call_line(d: schema_events.CatchCall, i: TableInfo) -> str:
    return f"🩷 {i.name_of(d['seat'])} yells CATCH! at {i.name_of(d['to'])}, who holds the mitt."


def mitt_line(d: schema_events.Seat, i: TableInfo) -> str:
    return f"🧤 {i.name_of(d['seat'])} takes the baseball mitt."
