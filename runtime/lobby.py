"""Lobby and seating: open a lobby, join or switch team, seat or remove computers, leave,
cancel, and start — the lobby becomes a running game with its first state in one step under
the game's lock, so a Cancel pressed at the same moment is either first or refused.
"""

from __future__ import annotations

from typing import Any

from games.registry import AnyEngine, get_engine, get_policy
from runtime import computers
from runtime import deadlines as deadline_rules
from runtime.errors import NotAllowed, NotSeated, Refusal
from runtime.loop import ActionLoop, Applied
from storage import ChannelBusy, GameRecord, SeatRecord, StaleVersion, Status


class Lobby(ActionLoop):
    """The lobby's steps, before the action loop takes a game over."""

    async def open_lobby(
        self, *, guild_id: int, channel_id: int, kind: str, host_id: int, host_name: str,
        options: dict[str, Any],
    ) -> GameRecord:
        engine = get_engine(kind)
        resolved = engine.resolve_options({k: v for k, v in options.items() if v is not None})
        busy = "A game is already running here. Finish it, or start one in another channel."
        # Two `/x new` at once in one channel make one lobby: the lock within this process, the
        # database's one-live-game-per-channel index across processes.
        async with self._opening:
            if await self.storage.live_game_in(channel_id) is not None:
                raise Refusal(busy)
            try:
                game_id = await self.storage.create_game(
                guild_id=guild_id, channel_id=channel_id, kind=kind, host_id=host_id,
                host_name=host_name, options=resolved, seed=self.rng.getrandbits(63),
                nonce=f"{self.rng.getrandbits(128):032x}", now=self.clock.now(),
                host_team=0 if engine.lobby_teams else None,
                )
            except ChannelBusy:
                raise Refusal(busy) from None
        return await self._reload(game_id)

    async def join(self, game_id: int, user_id: int, name: str, *, team: int | None = None,
                   pressed_at: float | None = None) -> GameRecord:
        """Take a seat. In a team lobby `team` says which team (None: the one with most room);
        a seated player asking for another team switches to it."""
        async with self.held(game_id, self._pressed(pressed_at)):
            game = await self._lobby(game_id)
            engine = get_engine(game.kind)
            seated = next((s for s in game.seats if s.user_id == user_id), None)
            if not engine.lobby_teams:
                if seated is not None:
                    raise Refusal("You are already in this game.")
                if len(game.seats) >= engine.max_players:
                    raise Refusal(f"This table is full ({engine.max_players} players).")
                await self.storage.add_seat(game_id, user_id, name)
                return await self._reload(game_id)
            team = self._team_for(game, engine, team)
            if seated is not None and seated.team == team:
                raise Refusal(f"You are already in {engine.team_name(team)}.")
            if len(members(game, team)) >= engine.team_size():
                raise Refusal(f"{engine.team_name(team)} is full ({engine.team_size()} players).")
            if seated is not None:
                await self.storage.set_seat_team(game_id, user_id, team)
            else:
                await self.storage.add_seat(game_id, user_id, name, team)
            return await self._reload(game_id)

    async def add_computer(self, game_id: int, user_id: int, *, name: str | None = None,
                           team: int | None = None, pressed_at: float | None = None) -> GameRecord:
        """The host seats a computer player (🤖) in a free seat, on `team` in a team lobby."""
        async with self.held(game_id, self._pressed(pressed_at)):
            game = await self._lobby(game_id)
            engine = get_engine(game.kind)
            if user_id != game.host_id:
                raise NotAllowed("Only the host can add computer players.")
            if get_policy(game.kind) is None:
                raise Refusal(f"{engine.title} has no computer player yet.")
            if engine.lobby_teams:
                team = self._team_for(game, engine, team)
                if len(members(game, team)) >= engine.team_size():
                    raise Refusal(f"{engine.team_name(team)} is full ({engine.team_size()} players).")
            elif len(game.seats) >= engine.max_players:
                raise Refusal(f"This table is full ({engine.max_players} players).")
            else:
                team = None
            await self.storage.add_seat(game_id, computers.synthetic_id(game.seats),
                                        computers.computer_name(name, game.seats), team, computer=True)
            return await self._reload(game_id)

    async def remove_computer(self, game_id: int, user_id: int, seat: int, *,
                              pressed_at: float | None = None) -> GameRecord:
        """The host takes a computer player out of the lobby."""
        async with self.held(game_id, self._pressed(pressed_at)):
            game = await self._lobby(game_id)
            if user_id != game.host_id:
                raise NotAllowed("Only the host can remove computer players.")
            record = next((s for s in game.seats if s.seat == seat), None)
            if record is None or not record.computer:
                raise Refusal("There is no computer player in that seat.")
            await self.storage.remove_seat(game_id, record.user_id)
            return await self._reload(game_id)

    @staticmethod
    def _team_for(game: GameRecord, engine: AnyEngine, team: int | None) -> int:
        if team is None:  # the team with the most room; the first of equals
            return min(range(len(engine.lobby_teams)), key=lambda t: (len(members(game, t)), t))
        if not 0 <= team < len(engine.lobby_teams):
            raise Refusal(f"{engine.title} has teams {', '.join(engine.lobby_teams)}.")
        return team

    async def leave_lobby(self, game_id: int, user_id: int, *, pressed_at: float | None = None) -> GameRecord:
        async with self.held(game_id, self._pressed(pressed_at)):
            game = await self._lobby(game_id)
            if game.seat_of(user_id) is None:
                raise NotSeated("You are not in this lobby.")
            if user_id == game.host_id:
                raise NotAllowed("The host cannot leave; use Cancel to close the lobby.")
            await self.storage.remove_seat(game_id, user_id)
            return await self._reload(game_id)

    async def cancel(self, game_id: int, user_id: int, *, manager: bool = False,
                     pressed_at: float | None = None) -> GameRecord:
        async with self.held(game_id, self._pressed(pressed_at)):
            game = await self._lobby(game_id)
            if user_id != game.host_id and not manager:
                raise NotAllowed("Only the host can cancel this lobby.")
            await self.storage.set_status(game_id, Status.CANCELLED, self.clock.now())
            self.forget(game_id)
            return await self._reload(game_id)

    async def start(self, game_id: int, user_id: int, *, thread_id: int | None = None,
                    pressed_at: float | None = None) -> Applied:
        """Lobby → running game: the check and the claim in one step under the game's lock, so
        a Cancel pressed at the same moment either comes first (and this is refused) or is
        refused itself. The thread, if any, may be set afterwards (`set_thread`)."""
        async with self.held(game_id, self._pressed(pressed_at)):
            game = await self._lobby(game_id)
            engine = get_engine(game.kind)
            if user_id != game.host_id:
                raise NotAllowed("Only the host can start the game.")
            players = len(game.seats)
            options = dict(game.options)
            if engine.lobby_teams:
                game = await self._seat_by_team(game, engine)
                if engine.team_sizes is not None:
                    options["team_sizes"] = [len(members(game, t)) for t in range(len(engine.lobby_teams))]
            if engine.champion_option is not None:
                champion = await self.storage.last_champion(game.guild_id, game.kind)
                options[engine.champion_option] = next(
                    (s.seat for s in game.seats if s.user_id == champion), -1)
            if not engine.min_players <= players <= engine.max_players:
                raise Refusal(f"{engine.title} needs {engine.player_range()} players; {players} joined.")
            state = engine.new_game(players, game.seed, options)
            now = self.clock.now()
            deadlines = self._schedule(game, engine, [], state, now, version=1)
            try:
                await self.storage.start_game(
                    game_id, state=state, deadlines=deadlines, log=["The game begins."],
                    thread_id=thread_id, now=now, options=options if options != game.options else None,
                )
            except StaleVersion:  # cancelled or started by another process a moment ago
                await self._reload_cached(game_id)
                raise Refusal("This lobby is closed.") from None
            game = await self._reload(game_id)
            self.on_deadlines(game_id, deadline_rules.earliest(deadlines))
            people = [s.seat for s in game.seats if not s.computer]
            asked = deadline_rules.newly_asked([], deadlines, people)
            return Applied(game, engine, [], people, newly_awaited=deadline_rules.awaited_seats(asked),
                           asked=asked)

    async def _seat_by_team(self, game: GameRecord, engine: AnyEngine) -> GameRecord:
        """Refuse a start with a team short of players; else renumber the seats so each team's
        members, in join order, sit together in team order (partners side by side)."""
        fewest = engine.team_bounds()[0]
        for team in range(len(engine.lobby_teams)):
            missing = fewest - len(members(game, team))
            if missing > 0:
                raise Refusal(f"{engine.team_name(team)} needs {missing} more player{'s' if missing > 1 else ''}.")
        order = [s.user_id for team in range(len(engine.lobby_teams)) for s in members(game, team)]
        if order != [s.user_id for s in game.seats]:
            await self.storage.reseat(game.id, order)
            game = await self._reload(game.id)
        return game

    async def set_thread(self, game_id: int, thread_id: int) -> GameRecord:
        """Move a started game's table to its new thread (the record others hold sees it too)."""
        await self.storage.set_thread(game_id, thread_id)
        game = await self.game(game_id)
        game.thread_id = thread_id
        return game

    async def _lobby(self, game_id: int) -> GameRecord:
        game = await self.game(game_id)
        if game.status is not Status.LOBBY:
            raise Refusal("This lobby is closed.")
        return game


def members(game: GameRecord, team: int) -> list[SeatRecord]:
    """A lobby team's seats, in join order."""
    return [s for s in game.seats if s.team == team]
