"""What may be done (issue 22 item 2, as in Two Fat Dudes): `VERIFY`, each action kind's rule
check, which the handlers (`handlers.HANDLERS`) run before they act and `legal_actions` runs
over the candidates the open prompt offers (`candidates`); and what a command sent while
another prompt is open is told (`when`).

A kind answers one prompt (`WHEN`; the attack call two), except `pay` and `hat`, which run
beside every prompt; the game's own kinds (`expire`, `catch_open`, `resume`) no seat sends.
"""

from __future__ import annotations

from collections.abc import Callable

from games.core import Action, IllegalAction, State
from games.fencing import anthem, controller, duel, golf_moves, penalties, trick
from games.fencing.moves import menu
from games.fencing.region import PIECES
from games.fencing.schema import Kind, PromptKind
from games.fencing.state import phase

#: A rule check: returns when `seat` may take `action` now, else raises IllegalAction.
Check = Callable[[State, int, Action], None]

#: The prompts each kind answers (none: only the game sends it; `pay` and `hat`: any).
WHEN: dict[Kind, tuple[PromptKind, ...]] = {
    "game": ("game",), "fire": ("gun",), "stamp": ("stamp",), "attack": ("first_attack", "attack"),
    "thrust": ("thrust",), "don": ("hat",), "quickswitch": ("golf",), "hose": ("golf",), "done": ("golf",),
    "catch": ("catch",), "handout": ("handout",), "insult": ("duel",), "applaud": ("duel",),
    "count": ("duel",), "snap": ("duel",), "move": ("move",), "stay": ("move",), "anthem": ("anthem",),
    "expire": (), "catch_open": (), "resume": (),
}

#: Commands refused at another prompt with words of their own: (the rule cited, what they do).
OUT_OF_STEP: dict[Kind, tuple[str, str]] = {
    "quickswitch": ("11", "call a quick-switch"),
    "hose": ("12", "hose anyone"),
    "done": ("10", "close the golf window"),
    "move": ("17", "move a piece"),
    "stay": ("17", "stay"),
    "thrust": ("5", "call Thrust"),
    "attack": ("20", "call the attack"),
    "catch": ("15", "catch"),
    "handout": ("13", "hand out the golf balls"),
    "don": ("9", "don your hat for a race"),
}

_NOTHING = ("24", "That is not something you can do now.")
#: What each prompt asks for, said to any other command sent while it is open: (rule, words).
#: The tally, the bumper's end, the cards being drawn and the end of the game ask nothing.
ASKS: dict[PromptKind, tuple[str, str]] = {
    "game": ("24", "Press GAME! now."), "gun": ("24", "Fire the starting gun now."),
    "stamp": ("24", "Stamp the score sheet now."), "first_attack": ("24", "Call the attacked piece now."),
    "attack": ("24", "Call the attacked piece now."), "thrust": ("24", "Call Thrust now."),
    "hat": ("24", "Don your hat now."), "golf": ("10", "The golf window is open: quick-switch, hose or done."),
    "catch": ("24", "Catch now."), "handout": ("24", "Hand out both golf balls now."),
    "duel": ("duel", "A yo-yo duel is on: insult, applaud, count or snap back."),
    "move": ("17", "Move the attacked piece or stay."),
    "anthem": ("24", "The anthem is on: noise, lyrics, hat or hail."),
    "tally": _NOTHING, "end": _NOTHING, "drawing": _NOTHING, "over": _NOTHING,
}


def not_now(state: State) -> IllegalAction:
    """The refusal of a command the open prompt does not take: what it asks for instead."""
    rule, words = ASKS[phase(state).name]
    return IllegalAction(words, rule=rule)


def when(state: State, kind: Kind) -> None:
    """`kind` answers the prompt open now, or IllegalAction (its own words, else the prompt's)."""
    if phase(state).name in WHEN.get(kind, ()):
        return
    said = OUT_OF_STEP.get(kind)
    if said is not None:
        raise IllegalAction(f"You cannot {said[1]} now.", rule=said[0])
    raise not_now(state)


# ----- the simple prompts' checks ---------------------------------------------------------
def verify_game(state: State, seat: int, action: Action) -> None:
    if state["step"]["pressed"][seat]:
        raise IllegalAction("You already pressed GAME!.", rule="1")


def verify_fire(state: State, seat: int, action: Action) -> None:
    if seat == state["start"]:
        raise IllegalAction("The Start never fires the starting gun.", rule="1")


def verify_stamp(state: State, seat: int, action: Action) -> None:
    if state["seats"][seat]["stamps"][-1][state["step"]["which"]] is not None:
        raise IllegalAction("You have already stamped.", rule="25")


def verify_thrust(state: State, seat: int, action: Action) -> None:
    if seat != state["start"]:
        raise IllegalAction("Only the Start, {start}, calls Thrust.", rule="5", seats={"start": state["start"]})


def verify_catch(state: State, seat: int, action: Action) -> None:
    step = state["step"]
    if seat != step["receiver"]:
        raise IllegalAction("The ball is not coming to you.", rule="15" if step["purpose"] == "pinkie" else "11")
    if not step["open"]:
        raise IllegalAction("The ball is still in the air.", rule="11")


def verify_hat_keep(state: State, seat: int, action: Action) -> None:
    if not isinstance(action.get("keep"), bool):
        raise IllegalAction("Say hat keep or hat off.", rule="9")


def _at(kind: Kind, check: Check | None = None) -> Check:
    """`kind`'s check: its prompt is open (`when`), then the rule's own `check`."""
    def verify(state: State, seat: int, action: Action) -> None:
        when(state, kind)
        if check is not None:
            check(state, seat, action)
    return verify


#: Every action kind of the schema and its rule check, shared by `legal_actions` and the handlers.
VERIFY: dict[Kind, Check] = {
    "game": _at("game", verify_game),
    "fire": _at("fire", verify_fire),
    "stamp": _at("stamp", verify_stamp),
    "attack": _at("attack", controller.verify_attack),
    "thrust": _at("thrust", verify_thrust),
    "don": _at("don", trick.verify_don),
    "quickswitch": _at("quickswitch", golf_moves.verify_quickswitch),
    "hose": _at("hose", golf_moves.verify_hose),
    "done": _at("done", golf_moves.verify_done),
    "catch": _at("catch", verify_catch),
    "handout": _at("handout", golf_moves.verify_handout),
    "insult": _at("insult", duel.verify_insult),
    "applaud": _at("applaud", duel.verify_applaud),
    "count": _at("count", duel.verify_count),
    "snap": _at("snap", duel.verify_snap),
    "move": _at("move", controller.verify_move),
    "stay": _at("stay", controller.verify_stay),
    "anthem": _at("anthem", anthem.verify_anthem),
    "pay": penalties.verify_pay,
    "hat": verify_hat_keep,
    # the game's own: refused from any seat, with the open prompt's words
    "expire": _at("expire"),
    "catch_open": _at("catch_open"),
    "resume": _at("resume"),
}


def allowed(state: State, seat: int, action: Action) -> bool:
    """Whether `action`'s rule check passes for `seat` now."""
    check = VERIFY.get(action["type"])
    if check is None:
        return False
    try:
        check(state, seat, action)
    except IllegalAction:
        return False
    return True


# ----- the candidates legal_actions checks -----------------------------------------------
def candidates(state: State, seat: int) -> list[Action]:
    """What the open prompt (and a penalty owed) could take, in the order the screens list it;
    `legal_actions` keeps those `VERIFY` passes for `seat`."""
    out: list[Action] = [{"type": "pay", "how": "chocolate"}, {"type": "pay", "how": "slide"}]
    step = state["step"]
    at = phase(state)
    others = [t for t in range(3) if t != seat]
    if at.name in ("game", "stamp", "thrust", "catch"):
        out.append({"type": at.name})
    elif at.name == "gun":
        out.append({"type": "fire"})
    elif at.name in ("first_attack", "attack"):
        out += [{"type": "attack", "piece": p} for p in PIECES]
    elif at.name == "hat":
        out.append({"type": "don"})
    elif at.name == "golf":
        out += [{"type": "quickswitch"}, *({"type": "hose", "target": t} for t in others), {"type": "done"}]
    elif at.name == "handout":
        out += [{"type": "handout", "yellow": t} for t in others]
    elif at.step == "insult":
        out += [{"type": "insult", "text": ""}, *({"type": "applaud", "who": s} for s in step["seats"])]
    elif at.step in ("count", "snap"):
        out.append({"type": at.step})
    elif at.name == "move":
        out.append({"type": "stay"})
        if not allowed(state, seat, {"type": "stay"}):  # only the seat in control moves: skip its menu
            return out
        out += [{"type": "move", "piece": step["piece"], "to": entry["to"], "via": list(r["via"]),
                 "offroad": r["offroad"]} for entry in menu(state, step["piece"]) for r in entry["routes"]]
    elif at.name == "anthem" and "hail" not in step["parts"][seat]:
        # a seat that has hailed has sung its part: nothing more is listed (a late part is still taken)
        out += [{"type": "anthem", "part": p} for p in ("noise", "lyrics", "hail")]
    return out
