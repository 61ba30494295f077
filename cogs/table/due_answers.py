"""Presses on a seat's own DM that are committed and about to be answered by redrawing that DM
in place. A publish in between (another seat's step, drawn from the newest state, which already
holds the press) leaves the DM to that answer instead of writing the same picture twice; the
answer shows the lines of the steps left to it."""

from __future__ import annotations


class DueAnswers:
    def __init__(self) -> None:
        #: (game, seat) -> (the lines of the steps left to the answer, whether one was)
        self._due: dict[tuple[int, int], tuple[list[str], bool]] = {}

    def expect(self, game_id: int, seat: int) -> None:
        """The seat's press on its DM is committed; its answer will redraw that DM in place."""
        self._due[(game_id, seat)] = ([], False)

    def leave(self, game_id: int, seat: int, notes: list[str]) -> bool:
        """Leave the DM to the answer due (with this step's lines); False when none is due."""
        due = self._due.get((game_id, seat))
        if due is None:
            return False
        self._due[(game_id, seat)] = ([*due[0], *notes], True)
        return True

    def left(self, game_id: int, seat: int) -> list[str]:
        """The lines of the steps whose publish left the DM to the answer (drawn there)."""
        due = self._due.get((game_id, seat))
        return list(due[0]) if due is not None else []

    def answered(self, game_id: int, seat: int) -> bool:
        """No answer is due any more; whether a publish left it the DM (owed if not drawn)."""
        due = self._due.pop((game_id, seat), None)
        return due is not None and due[1]
