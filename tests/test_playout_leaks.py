"""`tests.playout.leaks` itself: it must still find a seat's secret wherever it shows up in
another seat's view or the public view (it is what the contract suite relies on)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.playout import leaks, scalars


class Planted:
    """A two-seat engine stand-in whose views show whatever the test plants."""

    def __init__(self, secrets: dict[int, list[Any]], public: Any, seat_extra: Any = None) -> None:
        self._secrets, self.public, self.seat_extra = secrets, public, seat_extra

    def secrets(self, state: dict[str, Any]) -> dict[int, list[Any]]:
        return self._secrets

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        out = {"table": self.public}
        if seat is not None:
            out["mine"] = self._secrets.get(seat, [])
            if seat == 1:
                out["extra"] = self.seat_extra
        return out


STATE = {"players": 2}
SECRETS = {0: ["c17", 4], 1: ["c3"]}


def test_clean_views_have_no_leaks() -> None:
    assert leaks(Planted(SECRETS, {"wip": "STAR", "sizes": [7, 7]}), STATE) == []  # type: ignore[arg-type]


@pytest.mark.parametrize("public", [
    "c17", ["x", ["y", ("c17",)]], {"deep": {"er": [{"c17": 1}]}}, {"nested": [[[4]]]},
])
def test_a_secret_anywhere_in_the_public_view_is_found(public: Any) -> None:
    problems = leaks(Planted(SECRETS, public), STATE)  # type: ignore[arg-type]
    assert any("view of None shows seat 0's secret" in p for p in problems)
    assert any("view of 1 shows seat 0's secret" in p for p in problems)  # seat 1 sees the table too


def test_a_secret_in_one_other_seats_view_is_found() -> None:
    problems = leaks(Planted(SECRETS, "clean", seat_extra={"peek": ["c17"]}), STATE)  # type: ignore[arg-type]
    assert problems == ["view of 1 shows seat 0's secret 'c17'"]


def test_own_secrets_and_the_rng_state() -> None:
    assert leaks(Planted(SECRETS, "clean"), STATE) == []  # type: ignore[arg-type]
    problems = leaks(Planted(SECRETS, {"rng": {"s": 1}}), STATE)  # type: ignore[arg-type]
    assert "view of None contains the rng state" in problems


def test_list_and_dict_secrets_are_compared_whole() -> None:
    secrets = {0: [["A", 1]], 1: [{"shape": "rock"}]}
    assert leaks(Planted(secrets, {"a": ["A", 1, "rock"]}), STATE) == []  # type: ignore[arg-type]
    problems = leaks(Planted(secrets, {"a": [("A", 1)], "b": {"shape": "rock"}}), STATE)  # type: ignore[arg-type]
    assert "view of None shows seat 0's secret ['A', 1]" in problems
    assert "view of None shows seat 1's secret {'shape': 'rock'}" in problems


def test_scalars_reads_like_a_json_round_trip() -> None:
    assert scalars({"a": [1, (2.5, None)], 3: {True: "x"}}) == {"a", 1, 2.5, None, "3", "true", "x"}
    with pytest.raises(TypeError):
        scalars({"a": {1, 2}})
