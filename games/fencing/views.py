"""What the table sees (spec §4): Table Fencing has no private information, so every seat's
view is the public view plus `"seat"`. Only the RNG's future stays out: deck order, a
catch's `opens_at` before the catch opens, a duel's S before the snaps are judged.

The shape below is a contract with the renderer and the UI: fields are only ever added.
Seats are ints 0-2, towns are region ids ("COL"), pieces "BK" "WR" "BN" "WN" "WB", cards
strings like "7H" "10S" "AD" "KC" (value = `card_value`), times integer ms on the game clock
(the `now` of actions, x1000).
"""

from __future__ import annotations

from typing import Any, TypedDict

from games.core import copy_state


class StampsView(TypedDict):
    open: str | None     # "self" (the player pressed), "bot" (stamped at the timeout) or None
    close: str | None


class PlayerView(TypedDict):
    seat: int
    score: int                  # the current bumper (may be negative)
    bumpers_won: int
    bumper_scores: list[int]    # each finished bumper's final score
    chocolate: int
    hat_on: bool
    hat_keep: bool
    stamps: list[StampsView]    # index = bumper_no - 1
    afk_misses: int
    miscues: int
    butt_kicks: int
    choc_eaten: int
    themes: int
    builds: int                 # points built over the game (dice and yellow)
    hats: int                   # times a hat was donned
    applause: int               # applause received for insults
    deck_left: int              # cards left in the deck (the order is secret)
    deck_colour: str            # "red" for the Start, else "blue" (cosmetic)


class PieceView(TypedDict):
    town: str
    colour: str                 # "B" or "W"
    offroad: bool               # stands on a town with no road allowed at this difficulty


class YellowView(TypedDict):
    holder: int | None
    boxed_until: int | None     # BOX(release_after_trick): released after that trick's control step


class StepView(TypedDict, total=False):
    """One drawing of cards: the Thrust (all three) or a war step (warriors + parrier)."""
    kind: str                   # "thrust" | "war"
    cards: list[str | None]     # by seat; None = did not draw in this step
    warriors: list[int]         # war steps: the two warriors; the third seat parries
    parrier: int
    level: int                  # trump_level after this step
    result: str                 # "high" | "trump" | "triple" | "parry" | "war_win" | "double"...
    winner: int | None


class TrickView(TypedDict, total=False):
    no: int
    attacked: str | None
    level: int                  # trump_level
    steps: list[StepView]
    winner: int | None
    build: dict[str, Any] | None  # {"dice": [..], "mult": n, "total": n}
    qs_used: bool
    hose_used: bool


class RouteView(TypedDict):
    via: list[str]              # towns between origin and destination, in order
    route: list[str]            # every town entered (via + destination)
    km: int
    offroad: bool               # the straight line (rule 18)
    penalty: int                # 1 when leaving the road costs a penalty
    default: bool               # rule 19's default for this destination


class DestinationView(TypedDict):
    to: str | None              # None = Stay (always first)
    km: int                     # cheapest cost
    penalty: int                # cheapest penalty among the cheapest routes
    routes: list[RouteView]


class MoveMenuView(TypedDict):
    piece: str
    origin: str
    controller: int
    destinations: list[DestinationView]


class PromptView(TypedDict, total=False):
    """The main prompt open now. `kind` is one of: game, gun, stamp, first_attack, thrust, hat,
    golf, catch, handout, duel, tally (waiting for penalties), move, attack, end (waiting for
    penalties), anthem, over. `seats` are the seats it waits on; `deadline` is None when the
    moment is hidden (a catch before it opens) or there is none."""
    kind: str
    seats: list[int]
    opened_at: int
    deadline: int | None
    # kind-specific public facts (present only for that kind):
    pressed: list[bool]         # game, anthem (hail pressed), hat (donned within this race)
    which: str                  # stamp: "open" | "close"
    stamped: list[str | None]   # stamp: per seat
    presses: dict[str, int]     # hat: seat (as str) -> press ms
    bare: list[int]             # hat: the seats that must don
    holder: int                 # golf window / handout: the holder
    qs_available: bool          # golf: a quick-switch may be called now
    hose_targets: list[int]     # golf: who may be hosed now
    ball: str                   # catch: "purple" | "yellow" | "pinkie"
    thrower: int                # catch
    receiver: int               # catch
    open: bool                  # catch: the Catch button is enabled
    purpose: str                # catch: "qs1" | "qs2" | "pinkie"; duel: "golf_top" | "golf_low" | "hose"
    duel: dict[str, Any]        # duel: {"seats": [a, b], "third": c, "stage": "insult"|"count"|"snap",
                                #        "insults": [text|None, text|None], "skipped": [bool, bool],
                                #        "applauded": [bool, bool], "t0": ms|None, "snapped": [bool, bool]}
    piece: str                  # move: the attacked piece
    parts: list[list[str]]      # anthem: per seat, the parts pressed ("noise", "lyrics", "hat", "hail")
    reader: int | None          # anthem: the champion who reads the lyrics (None: the bot)


class PenaltyView(TypedDict):
    seat: int
    reason: str                 # the rule label or cause ("9", "11", "12", "15", "18", "24")
    deadline: int | None        # the open prompt's deadline (the head of this seat's queue)
    queued: int                 # further penalties waiting behind it


class StreakView(TypedDict):
    owner: int | None
    last_move: dict[str, Any] | None  # {"piece", "from", "to", "route", "km", "offroad"}


class ThemeView(TypedDict):
    """The theme that won the bumper (rule 22): its two moves (M1, M2) and the towns both passed."""
    seat: int
    moves: list[dict[str, Any]]  # [M1, M2], each {"piece", "from", "to", "route", "km", "offroad"}
    through: list[str]           # the shared towns


class FencingView(TypedDict):
    seat: int | None            # whose view (None: the table)
    region: str
    difficulty: str
    direction: str              # "cw" | "ccw"
    options: dict[str, Any]
    bumper_no: int
    trick_no: int
    start: int
    champion: int | None        # the seated region champion, if any
    clock_started_at: int | None
    players: list[PlayerView]
    pieces: dict[str, PieceView]
    control: int | None         # also the pinkie holder
    mitt: int | None
    yellow: YellowView
    purple: int | None
    attacked: str | None
    choc_supply: int
    trick: TrickView | None
    last_trick: TrickView | None
    streak: StreakView
    last_move: dict[str, Any] | None  # the latest move of the bumper, kept across changes of control
    theme: ThemeView | None     # the theme that just won the bumper (until the next bumper opens)
    prompt: PromptView
    penalties: list[PenaltyView]
    moves: MoveMenuView | None  # the controller's menu while the move prompt is open
    attack_choices: list[str]   # pieces the controller may call (attack / first_attack prompts)
    winner: int | None          # the game's winner once over
    over: bool


# ----- building the view ----------------------------------------------------------------
PLAYER_KEYS = ("score", "bumpers_won", "bumper_scores", "chocolate", "hat_on", "hat_keep", "afk_misses",
               "miscues", "butt_kicks", "choc_eaten", "themes", "builds", "hats", "applause")


def public_view(state: dict[str, Any]) -> dict[str, Any]:
    """The table's view: everything but the RNG's future (see the module docstring)."""
    from games.fencing import flow, moves  # the engine modules import this one for the shape
    from games.fencing.region import COLOUR

    options = state["options"]
    step = state["step"]
    players = []
    for seat, p in enumerate(state["seats"]):
        entry: dict[str, Any] = {"seat": seat, **{k: p[k] for k in PLAYER_KEYS},
                                 "stamps": [dict(s) for s in p["stamps"]],
                                 "deck_left": len(state["decks"][seat]),
                                 "deck_colour": "red" if seat == state["start"] else "blue"}
        players.append(entry)
    pieces = {piece: {"town": town, "colour": COLOUR[piece], "offroad": moves.is_offroad(state, town)}
              for piece, town in state["pieces"].items()}
    menu = None
    if step["kind"] == "move":
        menu = {"piece": step["piece"], "origin": state["pieces"][step["piece"]], "controller": state["control"],
                "destinations": moves.menu(state, step["piece"])}
    chooser_kinds = ("first_attack", "attack")
    # Built from references into the state, then copied once (one orjson round trip is far
    # cheaper than copying field by field, and random playouts draw many views).
    return copy_state({
        "seat": None,
        "region": options["region"],
        "difficulty": options["difficulty"],
        "direction": options["direction"],
        "options": dict(options),
        "bumper_no": state["bumper_no"],
        "trick_no": state["trick_no"],
        "start": state["start"],
        "champion": state["champion"],
        "clock_started_at": state["clock_started_at"],
        "players": players,
        "pieces": pieces,
        "control": state["control"],
        "mitt": state["mitt"],
        "yellow": {"holder": state["yellow"], "boxed_until": state["yellow_box"]},
        "purple": state["purple"],
        "attacked": state["attacked"],
        "choc_supply": state["choc_supply"],
        "trick": _trick(state["trick"]),
        "last_trick": _trick(state["last_trick"]),
        "streak": state["streak"],
        "last_move": state.get("last_move"),
        "theme": state.get("theme"),
        "prompt": _prompt(state, flow),
        "penalties": [{"seat": s, "reason": q[0]["reason"], "deadline": q[0]["deadline"], "queued": len(q) - 1}
                      for s, q in enumerate(state["penalties"]) if q],
        "moves": menu,
        "attack_choices": ["BK", "WR", "BN", "WN", "WB"] if step["kind"] in chooser_kinds else [],
        "winner": state["winner"],
        "over": bool(state["over"]),
    })


def _trick(trick: dict[str, Any] | None) -> dict[str, Any] | None:
    if trick is None:
        return None
    keys = ("no", "attacked", "level", "steps", "winner", "how", "build", "qs_used", "hose_used",
            "warriors", "parrier")
    return {k: trick[k] for k in keys}


def _prompt(state: dict[str, Any], flow: Any) -> dict[str, Any]:
    from games.fencing import duel as duels  # imports this module's shapes, like flow
    step = state["step"]
    kind = step["kind"]
    out: dict[str, Any] = {"kind": kind, "seats": [], "opened_at": step["opened_at"], "deadline": step["deadline"]}
    if kind == "game":
        out.update(seats=[s for s in range(3) if not step["pressed"][s]], pressed=list(step["pressed"]))
    elif kind == "gun":
        out["seats"] = [s for s in range(3) if s != state["start"]]
    elif kind == "stamp":
        stamped = [p["stamps"][-1][step["which"]] for p in state["seats"]]
        out.update(seats=[s for s in range(3) if stamped[s] is None], which=step["which"], stamped=stamped)
    elif kind in ("first_attack", "thrust"):
        out["seats"] = [state["start"]]
    elif kind in ("attack", "move"):
        out["seats"] = [state["control"]]
        if kind == "move":
            out["piece"] = step["piece"]
    elif kind == "hat":
        out.update(seats=[s for s in step["bare"] if str(s) not in step["presses"]], bare=list(step["bare"]),
                   presses={s: t - step["opened_at"] for s, t in step["presses"].items()},
                   pressed=[str(s) in step["presses"] for s in range(3)])
    elif kind == "golf":
        trick = state["trick"]
        out.update(seats=[step["holder"]], holder=step["holder"], qs_available=flow.qs_available(state),
                   hose_targets=[] if trick["hose_used"] else [t for t in range(3) if t != step["holder"]])
    elif kind == "catch":
        out.update(seats=[step["receiver"]] if step["open"] else [], ball=step["ball"], thrower=step["thrower"],
                   receiver=step["receiver"], open=step["open"], purpose=step["purpose"])
        if not step["open"]:
            out.update(opened_at=None, deadline=None)  # derived from the hidden opens_at
    elif kind == "handout":
        out.update(seats=[step["holder"]], holder=step["holder"])
    elif kind == "duel":
        stage = step["stage"]
        waiting = ([s for i, s in enumerate(step["seats"]) if step["insults"][i] is None]
                   + ([step["third"]] if duels.applause_open(step) else []) if stage == "insult"
                   else [step["third"]] if stage == "count"
                   else [s for i, s in enumerate(step["seats"]) if step["snaps"][i] is None])
        out.update(seats=waiting, purpose=step["purpose"], duel={
            "seats": list(step["seats"]), "third": step["third"], "stage": stage,
            "insults": [t if t else None for t in step["insults"]],
            "skipped": [t == "" for t in step["insults"]], "applauded": list(step["applauded"]),
            "t0": step["t0"], "snapped": [t is not None for t in step["snaps"]]})
    elif kind == "anthem":
        out.update(seats=[s for s in range(3) if "hail" not in step["parts"][s]],
                   parts=[list(p) for p in step["parts"]], reader=flow.anthem_reader(state),
                   pressed=["hail" in p for p in step["parts"]])
    return out
