"""What each seat may see (DESIGN "Hidden stays inside").

The public view shows faces of face-up cards only (WIP, discard pile, won words) and never a
card id, a hand letter, the draw order or the rng. A seat's view adds its own hand, its
pending letter pick and its own rock-paper-scissors choice.
"""

from __future__ import annotations

from typing import Any

from games.core import State
from games.words.cards import ALL_FACES, face, word_value
from games.words.state import board, hand_faces, in_blitz, seats_in_play, spell

#: Phase fields that are safe to show everyone.
PUBLIC_PHASE_KEYS = ("name", "n", "seat", "step", "kind", "word", "waiting", "users", "players",
                     "tied", "then")


def public_phase(state: State) -> dict[str, Any]:
    phase = state["phase"]
    out = {k: phase[k] for k in PUBLIC_PHASE_KEYS if k in phase}
    if out.get("step") == "steal":
        out["step"] = "ask"  # whether anyone holds the letter is the asker's business
    if phase["name"] == "rps":
        out["committed"] = [s for s in phase["players"] if phase["choices"][s] is not None]
    if phase["name"] == "tiebreak":
        out["choices"] = list(phase["choices"])
    return out


def discard_summary(cards: list[str]) -> dict[str, Any]:
    """The face-up discard pile: its letters in order (one string) and its event cards."""
    faces = [ALL_FACES[c] for c in cards]
    return {
        "size": len(cards),
        "letters": "".join(f for f in faces if len(f) == 1),
        "events": [f for f in faces if len(f) > 1],
    }


def public_view(state: State) -> dict[str, Any]:
    area = board(state)
    players = state["players"]
    out: dict[str, Any] = {
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
        "tiebreak": dict(state["tiebreak"]) if state["tiebreak"] else None,
        "blitz": None,
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


def seat_view(state: State, seat: int) -> dict[str, Any]:
    out = public_view(state)
    hand = board(state)["hands"][seat]
    out["seat"] = seat
    out["hand"] = {c: face(c) for c in hand}
    out["hand_faces"] = hand_faces(hand)
    out["picked"] = state["picks"][seat]
    phase = state["phase"]
    if phase["name"] == "rps" and seat in phase["players"]:
        out["my_shape"] = phase["choices"][seat]
    if phase["name"] == "main" and phase["seat"] == seat and phase["step"] == "steal":
        out["phase"]["step"] = "steal"
        out["steal_letter"] = phase["letter"]
    return out


def secrets(state: State) -> dict[int, list[Any]]:
    """Card ids in each hand (main game and Wordblitz) and uncommitted RPS choices."""
    out: dict[int, list[Any]] = {s: list(h) for s, h in enumerate(state["hands"])}
    if state.get("blitz"):
        for s, hand in enumerate(state["blitz"]["hands"]):
            out[s].extend(hand)
    phase = state["phase"]
    if phase["name"] == "rps":
        for s in phase["players"]:
            if phase["choices"][s] is not None:
                out[s].append(f"rps:{s}:{phase['choices'][s]}")
    return out
