"""The secret-choice block (games/choices.py): who still chooses, hidden picks, one resolution."""

from __future__ import annotations

import json

import pytest

from games import choices
from games.core import IllegalAction, Rng


def fresh(commit: bool = False) -> dict:
    return json.loads(json.dumps(choices.open_round("rps-1", [0, 2], 3, actions=("rps",), commit=commit)))


def test_a_round_waits_for_every_seat_in_it_and_only_them() -> None:
    box = fresh()
    assert choices.pending(box) == [0, 2] and choices.chosen(box) == []
    waits = choices.waits(box, "throw", 20.0, lambda seat: {"type": "rps", "timeout": True})
    assert [(w.seat, w.key, w.independent) for w in waits] == [(0, "rps-1", True), (2, "rps-1", True)]
    assert not choices.choose(box, 2, "rock")
    assert choices.pending(box) == [0] and choices.chosen(box) == [2]
    assert [w.seat for w in choices.waits(box, "throw", 20.0, None)] == [0]


def test_picks_stay_hidden_until_the_round_is_complete() -> None:
    box = fresh()
    choices.choose(box, 0, "paper")
    shown = choices.public(box)
    assert shown == {"key": "rps-1", "seats": [0, 2], "chosen": [0]}
    assert "paper" not in json.dumps(shown)
    assert choices.private(box, 0) == "paper" and choices.private(box, 2) is None
    with pytest.raises(ValueError):
        choices.reveal(box)
    assert choices.choose(box, 2, "rock")
    assert choices.reveal(box) == {0: "paper", 2: "rock"}
    assert choices.public(box, revealed=True)["picks"] == {"0": "paper", "2": "rock"}


def test_a_second_pick_and_an_outsiders_pick_are_refused() -> None:
    box = fresh()
    choices.choose(box, 0, "paper")
    with pytest.raises(IllegalAction, match="already chose"):
        choices.choose(box, 0, "rock")
    with pytest.raises(IllegalAction, match="not part"):
        choices.choose(box, 1, "rock")
    assert choices.private(box, 0) == "paper"


def test_a_leaver_is_no_longer_awaited_and_may_complete_the_round() -> None:
    box = fresh()
    choices.choose(box, 0, "paper")
    assert choices.leave(box, 2)
    assert choices.reveal(box) == {0: "paper"}


def test_committed_picks_publish_a_checkable_hash_and_reveal_the_nonce_after() -> None:
    state = {"rng": Rng.initial(7)}
    box = fresh(commit=True)
    choices.choose(box, 0, "scissors", Rng(state))
    commitment = choices.public(box)["commitments"]["0"]
    choices.choose(box, 2, "rock", Rng(state))
    revealed = choices.public(box, revealed=True)
    assert choices.commitment(revealed["picks"]["0"], revealed["nonces"]["0"]) == commitment
    assert len(revealed["nonces"]["0"]) == 32  # 128 bits from the game's own RNG


def test_the_nonce_comes_from_the_games_rng_so_a_replay_reproduces_it() -> None:
    runs = []
    for _ in range(2):
        state = {"rng": Rng.initial(99)}
        box = fresh(commit=True)
        choices.choose(box, 0, "rock", Rng(state))
        runs.append(box["nonces"][0])
    assert runs[0] == runs[1]


def test_secrets_cover_each_pick_made_and_end_with_the_round() -> None:
    box = fresh(commit=True)
    state = {"rng": Rng.initial(1)}
    choices.choose(box, 2, "rock", Rng(state))
    assert [(s.owner, s.path) for s in choices.secrets(box, ("phase", "box"), "shape")] == [
        (2, ("phase", "box", "picks", 2)), (2, ("phase", "box", "nonces", 2))]
    choices.choose(box, 0, "rock", Rng(state))
    assert choices.secrets(box, ("phase", "box"), "shape") == []
