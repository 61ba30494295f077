"""Where a game is, read the same way in every engine (issue 22 item 2).

Each engine keeps its phase where its stored state always had it (Two Fat Dudes: `phase`, a
name; Fighting Words: `phase["name"]` and `phase["step"]`; Conference / League: the hand's
`phase`, the game's `over` and the AFK `vote`; Table Fencing: `step["kind"]`; Kniggits: `phase`
and `exchange`), so a game saved before this module loads unchanged; what differs is only
where to look, and one accessor per engine, `phase(state) -> Phase[Name, Step]`, typed with
its schema's Literals, is the one place that looks.
"""

from __future__ import annotations

from typing import Generic, NamedTuple, TypeVar

NameT = TypeVar("NameT", bound=str)
StepT = TypeVar("StepT", bound=str | None)


class Phase(NamedTuple, Generic[NameT, StepT]):
    """The phase's `name` and its `step` within it (None where the game has no steps there)."""

    name: NameT
    step: StepT
