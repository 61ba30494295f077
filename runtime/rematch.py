"""🔁 Rematch: a finished game's players, in one press, at a new lobby of the same game.

Decisions (docs in README, "Rematch"):

* Any former player (a person, not a computer) may press; they host the rematch (they asked
  for it, so they press Start). Anyone else is told to open a table with `/<game> new`.
* Every seat is taken again, in the finished game's order: the people who played, and the
  computers under their names. A seat a computer took over from a player who left is a
  plain computer now (a fresh name, not "Bob's stand-in"). Anyone may Leave before Start;
  a leaver's place is free for anyone to Join.
* Partnership games keep their teams (the same partners on the same side); a player may
  switch with the other team's Join button before Start, as in any lobby.
* The same options, as the lobby chose them (what a start adds — team sizes, the champion —
  is worked out again at the new start).
* One rematch per game: a second press is told where the first one is (unless it was
  cancelled). The rematch opens in the channel the game was opened in; when that channel
  already has a lobby or a game without a thread, the press is refused and says which.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from games.registry import AnyEngine, get_engine
from runtime import computers
from runtime.errors import NotAllowed, Refusal
from runtime.service import TableService
from storage import ChannelBusy, GameRecord, SeatRecord, Status
from storage.gamenight import GameNights, PlannedSeat

#: How a computer that took over a leaver's seat is named (`computers.stand_in_name`).
STAND_IN = "'s stand-in"


def rematch_seats(game: GameRecord) -> list[PlannedSeat]:
    """The finished game's seats, in order, for its rematch (teams kept; computers kept; a
    leaver's stand-in a plain computer)."""
    taken: list[SeatRecord] = list(game.seats)
    planned = []
    for seat in game.seats:
        name = seat.name
        if seat.computer and STAND_IN in name:  # "🤖 Bob's stand-in"
            name = computers.computer_name(None, taken)
            taken.append(SeatRecord(seat=-1, user_id=0, name=name))
        planned.append(PlannedSeat(seat.user_id, name, seat.team, seat.computer))
    return planned


def rematch_options(game: GameRecord, engine: AnyEngine) -> dict[str, object]:
    """The options the finished game's lobby chose: without what its start added."""
    added = {"team_sizes", engine.champion_option}
    return engine.resolve_options({k: v for k, v in game.options.items() if k not in added})


def status_words(game: GameRecord) -> str:
    return {Status.LOBBY: "its lobby is open", Status.ACTIVE: "it is being played",
            Status.FINISHED: "it is over"}.get(game.status, "it was cancelled")


@dataclass
class Opened:
    """A rematch lobby, and the game it replays."""

    game: GameRecord
    of: GameRecord


class Rematches:
    """Opens rematches through the table service (its lobby rules, its cache)."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.nights = GameNights(service.storage)
        #: One check-and-open at a time in this process (the database's one-live-game-per-
        #: channel index decides between processes).
        self._opening = asyncio.Lock()

    async def open(self, game_id: int, user_id: int) -> Opened:
        """Open the rematch of `game_id` for `user_id` (its host), or refuse saying why."""
        old = await self.service.game(game_id)
        if old.status is not Status.FINISHED:
            raise Refusal("Only a finished game can be played again.")
        if old.practice:
            raise Refusal(f"A practice table is played again with `/{old.kind} learn`.")
        engine = get_engine(old.kind)
        seat = old.seat_of(user_id)
        if seat is None or old.seats[seat].computer:
            raise NotAllowed(f"Only the players of game #{old.id} can call its rematch. "
                             f"Open a new table with `/{old.kind} new`.")
        async with self._opening:
            rematched = await self.nights.rematches_of(old.id)
            if rematched:
                earlier = await self.service.game(rematched[-1])
                raise Refusal(f"Game #{old.id} already has its rematch: game #{earlier.id} "
                              f"({status_words(earlier)}).")
            busy = await self.service.storage.live_game_in(old.channel_id)
            if busy is not None:
                raise Refusal(self.busy(busy))
            try:
                new_id = await self.nights.open_rematch(
                    of_game=old.id, guild_id=old.guild_id, channel_id=old.channel_id, kind=old.kind,
                    host_id=user_id, options=rematch_options(old, engine),
                    seed=self.service.rng.getrandbits(63), nonce=f"{self.service.rng.getrandbits(128):032x}",
                    now=self.service.clock.now(), seats=rematch_seats(old),
                )
            except ChannelBusy:
                busy = await self.service.storage.live_game_in(old.channel_id)
                raise Refusal(self.busy(busy) if busy is not None else
                              "A game was opened in this channel a moment ago; try again when it is over.") from None
        return Opened(await self.service.game(new_id), old)

    @staticmethod
    def busy(live: GameRecord) -> str:
        title = get_engine(live.kind).title
        what = "lobby" if live.status is Status.LOBBY else "game"
        return (f"This channel already has a {title} {what} (game #{live.id}). Finish or cancel it, "
                "then press 🔁 Rematch again.")
