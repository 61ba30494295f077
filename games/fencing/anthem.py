"""The anthem at a bumper's end (rule 25): the seated champion reads the lyrics, the others
make noise, anyone may don a hat, and everyone hails the fish; then the close stamps."""

from __future__ import annotations

from games.core import Action, Event, IllegalAction, State
from games.fencing.state import set_step


def anthem_reader(state: State) -> int | None:
    champion = state["champion"]
    return champion if champion in (0, 1, 2) else None


def open_anthem(state: State, now_ms: int, events: list[Event]) -> None:
    events.append(Event("anthem_start", {"reader": anthem_reader(state)}))
    set_step(state, "anthem", now_ms, "anthem", parts=[[], [], []])


def verify_anthem(state: State, seat: int, action: Action) -> None:
    """📯 noise (non-champions), 📖 lyrics (the seated champion), 🎩 hat, 🐟 hail; each once."""
    part = action.get("part")
    allowed = {"hat", "hail", "lyrics" if seat == anthem_reader(state) else "noise"}
    if part not in allowed or part in state["step"]["parts"][seat]:
        raise IllegalAction("That is not your part of the anthem now.", rule="25")


def anthem_part(state: State, seat: int, part: str, events: list[Event]) -> bool:
    """`seat` sings `part` (`verify_anthem` passed); True when all have hailed."""
    step = state["step"]
    step["parts"][seat].append(part)
    if part == "hat":
        state["seats"][seat]["hat_on"] = True
    events.append(Event("anthem", {"seat": seat, "part": part}))
    return all("hail" in p for p in step["parts"])


def anthem_done(state: State, now_ms: int, events: list[Event], *, auto: bool) -> None:
    missing = [s for s in range(3) if "hail" not in state["step"]["parts"][s]]
    events.append(Event("anthem_end", {"auto": missing if auto else [], "words": "Hail to the fish!"}))
    set_step(state, "stamp", now_ms, "stamp", which="close")
