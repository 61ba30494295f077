"""What each seat may see (DESIGN "Hidden stays inside").

The public view shows faces of face-up cards only (WIP, discard pile, won words) and never a
card id, a hand letter, the draw order or the rng. A seat's view adds its own hand, its
pending letter pick, its own rock-paper-scissors or tie-break pick and, on How Do You
Say…?, the letter it asked for and whether anyone holds it.
"""

from __future__ import annotations

from typing import Any, Literal

from games import choices
from games.core import Secret, State
from games.words import schema
from games.words.cards import ALL_FACES, LETTERS, face, word_value
from games.words.ending import TIEBREAK_PICKS
from games.words.state import board, hand_faces, in_blitz, phase, seats_in_play, spell
from games.words.tips import SHAPES
from games.words.windows import undo_place

#: Phase fields, beyond its name and number, that are safe to show everyone.
PUBLIC_PHASE_KEYS: tuple[Literal["seat", "step", "word", "tied", "reason"], ...] = (
    "seat", "step", "word", "tied", "reason")


def public_phase(state: State) -> schema.Phase:
    stored, at = state["phase"], phase(state)
    out: schema.Phase = {"name": at.name, "n": stored["n"]}
    for key in PUBLIC_PHASE_KEYS:
        if key in stored:
            out[key] = stored[key]
    if at.step == "steal":
        out["step"] = "ask"  # whether anyone holds the letter is the asker's business
    if "box" in stored:  # a secret-choice round: who is in it and who has chosen, no picks
        out["box"] = public_box(stored["box"])
    return out


def public_box(box: choices.Box) -> schema.Box:
    """A secret-choice round as the table sees it (`choices.public`)."""
    shown = choices.public(box)
    out: schema.Box = {"key": shown["key"], "seats": shown["seats"], "chosen": shown["chosen"]}
    if "commitments" in shown:
        out["commitments"] = shown["commitments"]
    return out


def public_windows(state: State) -> schema.Windows:
    """The windows open while play goes on: the changes open to a challenge (the last one
    marked `last`; `undoable` says whether it can still be undone; a played letter's `index`
    in the word now, for the picture's highlight), the Tip window on the
    last completed word, and its rock-paper-scissors (who has chosen, never what)."""
    area = board(state)
    tip = state["tip"]
    game = state["rps"]
    return {
        "changes": [{"n": c["n"], "seat": c["seat"], "kind": c["kind"], "word": c["word"], "last": c["last"],
                     "undoable": undo_place(area, c) is not None,
                     "index": area["wip"].index(c["card"]) if c["kind"] == "letter" and c["card"] in area["wip"]
                     else None} for c in state["changes"]],
        "tip": None if tip is None else {
            "n": tip["n"], "seat": tip["seat"], "holder": tip["holder"], "word": tip["word"],
            "changed": tip["changed"], "users": tip["users"]},
        "rps": None if game is None else {
            "n": game["n"], "players": list(game["players"]), "word": game["word"], "holder": game["holder"],
            "round": game["rounds"] + 1, "box": public_box(game["box"])},
    }


def discard_summary(cards: list[str]) -> schema.Discard:
    """The face-up discard pile: its letters in order (one string) and its event cards."""
    faces = [ALL_FACES[c] for c in cards]
    return {
        "size": len(cards),
        "letters": "".join(f for f in faces if len(f) == 1),
        "events": [f for f in faces if len(f) > 1],
    }


def public_tiebreak(tiebreak: dict[str, Any] | None) -> schema.Tiebreak | None:
    """How the tie was broken, once it is (`ending.declare`)."""
    if not tiebreak:
        return None
    out: schema.Tiebreak = {"winner": tiebreak["winner"], "tied": list(tiebreak["tied"]),
                            "how": tiebreak["how"]}
    if "word" in tiebreak:
        out["word"] = tiebreak["word"]
    if "after_blitz" in tiebreak:
        out["after_blitz"] = tiebreak["after_blitz"]
    return out


def public_view(state: State) -> schema.PublicView:
    area = board(state)
    players = state["players"]
    out: schema.PublicView = {
        "players": players,
        "turn": area["turn"],
        "phase": public_phase(state),
        "wip": spell(state["wip"]),
        "draw_size": len(state["draw"]),
        "boxed_size": len(state["boxed"]),
        "discard": discard_summary(state["discard"]),
        "hand_sizes": [len(h) for h in state["hands"]],
        "scores": list(state["score"]),
        "words": [[spell(w) for w in stack] for stack in state["stacks"]],
        "word_values": [[word_value(len(w)) for w in stack] for stack in state["stacks"]],
        "forced_skip": list(state["forced_skip"]),
        "skip_streak": list(state["skip_streak"]),
        "stalemates": state["stalemates"],
        "last_card_drawn": state["last_card_drawn"],
        "in_play": seats_in_play(state),
        "left": list(state["left"]),
        "afk": list(state["afk"]),
        "over": state["over"],
        "tiebreak": public_tiebreak(state["tiebreak"]),
        "blitz": None,
        **public_windows(state),
    }
    if in_blitz(state):
        blitz = state["blitz"]
        out["blitz"] = {
            "seats": list(blitz["seats"]), "turn": blitz["turn"], "turns": blitz["turns"],
            "wip": spell(blitz["wip"]), "draw_size": len(blitz["draw"]),
            "discard": discard_summary(blitz["discard"]),
            "hand_sizes": [len(h) for h in blitz["hands"]],
            "forced_skip": list(blitz["forced_skip"]),
        }
    return out


def seat_view(state: State, seat: int, public: schema.PublicView | None = None) -> schema.SeatView:
    """The public view (`public`, when already made for this state: it is read, never changed)
    and what only `seat` knows."""
    public = public_view(state) if public is None else public
    hand = board(state)["hands"][seat]
    own: schema.Own = {"seat": seat, "hand": {c: face(c) for c in hand}, "hand_faces": hand_faces(hand),
                       "picked": state["picks"][seat]}
    stored, at = state["phase"], phase(state)
    if "box" in stored:
        own["my_pick"] = choices.private(stored["box"], seat)
    if state["rps"] is not None:
        own["my_pick"] = choices.private(state["rps"]["box"], seat)
    mine: schema.SeatView = {**public, **own}
    if at.name == "main" and stored["seat"] == seat and at.step == "steal":
        mine["phase"] = {**public["phase"], "step": "steal"}
        mine["steal_letter"] = stored["letter"]
        mine["steal_held"] = stored["held"]
    return mine


#: Values a secret of each pool may take (`Engine.secret_pools`), for the contract suite.
SECRET_POOLS: dict[str, tuple[Any, ...]] = {
    "shape": SHAPES, "tiebreak": TIEBREAK_PICKS, "letter": LETTERS, "pick": LETTERS,
    "held": (True, False),
}


def secrets(state: State) -> list[Secret]:
    """Every hidden item: each hand card (main game and Wordblitz) is its holder's; the draw
    piles' order, the boxed cards and the timeout fallbacks are nobody's; a letter pick, the
    card just drawn, the How Do You Say…? letter (and whether anyone holds it) and a pending
    rock-paper-scissors or tie-break pick are their player's."""
    out: list[Secret] = []
    areas: list[tuple[tuple[str, ...], dict[str, Any]]] = [((), state)]
    if state.get("blitz"):
        areas.append((("blitz",), state["blitz"]))
    for prefix, area in areas:
        for s, hand in enumerate(area["hands"]):
            out += [Secret(s, (*prefix, "hands", s, i), "card") for i in range(len(hand))]
        out += [Secret(None, (*prefix, "draw", i), "card") for i in range(len(area["draw"]))]
    out += [Secret(None, ("boxed", i), "card") for i in range(len(state["boxed"]))]
    out += [Secret(s, ("picks", s), "pick") for s, p in enumerate(state["picks"]) if p is not None]
    if state["drawn"] is not None:
        out.append(Secret(board(state)["turn"], ("drawn",), "card"))
    stored, at = state["phase"], phase(state)
    if stored.get("fallback") is not None:
        out.append(Secret(None, ("phase", "fallback"), "letter"))
    if at.name == "main" and at.step == "steal":
        out += [Secret(stored["seat"], ("phase", "letter"), "letter"),
                Secret(stored["seat"], ("phase", "held"), "held")]
    game = state["rps"]
    if game is not None:
        out += [Secret(None, ("rps", "fallback", s), "shape") for s in game["box"]["seats"]]
        out += choices.secrets(game["box"], ("rps", "box"), "shape")
    if at.name == "tiebreak":
        out += choices.secrets(stored["box"], ("phase", "box"), "tiebreak")
    return out
