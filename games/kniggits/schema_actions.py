"""Kniggits' action kinds and their payloads (re-exported by `schema.py`): what a panel, a
command or the computer player sends. Actions still arrive as untrusted JSON, so the engine
checks every field itself; these types say what the senders build.
"""

# No `from __future__ import annotations`: NotRequired keys are read by the shape test.
from typing import Literal, NotRequired, TypedDict

Kind = Literal["accept", "reroll", "army", "lock", "deploy", "throw", "gesture", "select", "plan", "move",
               "hand", "confirm", "cancel", "hold", "undo", "done", "face", "attack", "shoot", "end_turn",
               "claim_forfeit", "concede", "handed"]
Xy = list[int]
Height = Literal["high", "mid", "low"]
HandName = Literal["sword", "shield"]
Shape = Literal["rock", "paper", "scissors"]


class ArmyLine(TypedDict):
    """One kniggit of an army list being built (K2)."""

    name: str
    M: int
    A: int
    D: int
    kind: Literal["normal", "archer"]


class Accept(TypedDict):
    """Accept the map (K1)."""

    type: Literal["accept"]
    timeout: NotRequired[bool]  # runtime-only: the timer accepted for the captain


class Reroll(TypedDict):
    type: Literal["reroll"]


class ArmyDraft(TypedDict):
    """The seat's army list: `kniggits` from a panel, `lines` as typed ("3 2 2 Bob")."""

    type: Literal["army"]
    kniggits: NotRequired[list[ArmyLine]]
    lines: NotRequired[str]


class Lock(TypedDict):
    """Lock the open secret round: army, deployment or gesture."""

    type: Literal["lock"]
    timeout: NotRequired[bool]


class Deploy(TypedDict):
    """The army's deployment draft: a preset, cells by kniggit id, or typed lines."""

    type: Literal["deploy"]
    preset: NotRequired[Literal["back", "front"]]
    placements: NotRequired[dict[str, Xy]]
    lines: NotRequired[str]


class Throw(TypedDict):
    type: Literal["throw"]
    shape: NotRequired[Shape]
    timeout: NotRequired[bool]


class Gesture(TypedDict):
    """The seat's gesture draft in the open exchange; `lock` locks it at once."""

    type: Literal["gesture"]
    sword: NotRequired[Height]
    swords: NotRequired[list[Height]]
    shield: NotRequired[Height]
    double: NotRequired[bool]
    lock: NotRequired[bool]
    asked: NotRequired[bool]  # the panel asked "Lock with no shield?" once


class Select(TypedDict):
    type: Literal["select"]
    id: str


class Plan(TypedDict):
    """Preview a move (`plan`, then Confirm) to `to`, through up to 8 waypoints."""

    type: Literal["plan"]
    id: str
    to: Xy
    via: NotRequired[list[Xy] | str]
    hand: NotRequired[HandName]


class Move(TypedDict):
    """Plan and confirm at once (the slash command, the computer)."""

    type: Literal["move"]
    id: str
    to: Xy
    via: NotRequired[list[Xy] | str]
    hand: NotRequired[HandName]


class Hand(TypedDict):
    type: Literal["hand"]
    hand: HandName


class Confirm(TypedDict):
    type: Literal["confirm"]


class Cancel(TypedDict):
    type: Literal["cancel"]


class Hold(TypedDict):
    type: Literal["hold"]
    id: str


class Undo(TypedDict):
    type: Literal["undo"]


class Done(TypedDict):
    type: Literal["done"]
    timeout: NotRequired[bool]


class Face(TypedDict):
    type: Literal["face"]
    id: str
    target: str


class Attack(TypedDict):
    type: Literal["attack"]
    id: str
    target: str


class Shoot(TypedDict):
    type: Literal["shoot"]
    id: str
    target: str


class EndTurn(TypedDict):
    type: Literal["end_turn"]
    timeout: NotRequired[bool]


class ClaimForfeit(TypedDict):
    type: Literal["claim_forfeit"]


class Concede(TypedDict):
    type: Literal["concede"]


class Handed(TypedDict):
    """§4: left-handed art and panel labels for this seat."""

    type: Literal["handed"]
    left: NotRequired[bool]


Action = (Accept | Reroll | ArmyDraft | Lock | Deploy | Throw | Gesture | Select | Plan | Move | Hand | Confirm
          | Cancel | Hold | Undo | Done | Face | Attack | Shoot | EndTurn | ClaimForfeit | Concede | Handed)
#: Each kind's payload, for the shape check of listed actions.
ACTIONS: dict[Kind, type] = {
    "accept": Accept, "reroll": Reroll, "army": ArmyDraft, "lock": Lock, "deploy": Deploy, "throw": Throw,
    "gesture": Gesture, "select": Select, "plan": Plan, "move": Move, "hand": Hand, "confirm": Confirm,
    "cancel": Cancel, "hold": Hold, "undo": Undo, "done": Done, "face": Face, "attack": Attack, "shoot": Shoot,
    "end_turn": EndTurn, "claim_forfeit": ClaimForfeit, "concede": Concede, "handed": Handed,
}
