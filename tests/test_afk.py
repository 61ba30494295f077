"""The one AFK count every engine uses (games/afk.py)."""

from __future__ import annotations

from pathlib import Path

from games import afk

ROOT = Path(__file__).resolve().parents[1]


def test_misses_count_in_a_row_and_a_move_of_ones_own_starts_again() -> None:
    counts = [0, 0]
    assert [afk.tally(counts, 1, True) for _ in range(3)] == [1, 2, 3]
    assert counts == [0, 3]
    assert afk.tally(counts, 1, False) == 0
    assert afk.tally(counts, 1, True) == 1


def test_a_counter_may_be_a_key_of_a_seats_record() -> None:
    seat = {"afk_misses": 4, "score": 7}
    assert afk.tally(seat, "afk_misses", True) == 5
    assert afk.tally(seat, "afk_misses", False) == 0
    assert seat == {"afk_misses": 0, "score": 7}


def test_every_engine_counts_through_it() -> None:
    """No engine keeps a count of its own: each game's AFK count goes through `afk.tally`."""
    users = {path.parent.name for path in (ROOT / "games").glob("*/*.py")
             if "afk.tally(" in path.read_text(encoding="utf-8")}
    assert users == {"hallway", "tarot", "words", "fencing", "kniggits"}
    sixth = ROOT / "tests" / "engines" / "sticks"  # the sixth game, built by the checklist
    assert any("afk.tally(" in path.read_text(encoding="utf-8") for path in sixth.glob("*.py"))
