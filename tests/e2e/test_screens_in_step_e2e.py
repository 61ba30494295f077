"""No screen falls out of step with the game (issue 20, item 1), for every game.

A seeded game of each kind is played to its end through the fake Discord by people who press
wherever a person might: their DM, the table, or a hand they open with the table's ✋ button
(an ephemeral), sometimes one opened a turn ago; one of them has DMs closed. Moves are chosen
as the game's computer would choose them (so games end), now and then a random legal one;
a move no control sends by itself (an army list, a multi-step menu) goes through the action
loop, as a typed command would. After every step, with the bot idle, every live message is
compared with a fresh render of what it should show now:

- the table message (`render_table` of the stored game);
- each seat's DM panel and its newest ephemeral panel (`render_private` of that seat's view);

embed, controls and picture alike. Left out of the comparison: the "Just now" notes a step
adds for its seat, the seconds counting down in "Now", and the table's move number, which a
step that changed nothing public leaves as it was (delivery.still_shows: no edit at all).
Once the game is over, every one of those messages, and the newest ephemeral panel each
player had, says so and offers no control; and no ping asking for a move is left in the
thread (DM pings stay: the DM is the player's own, each ping a notification of one turn, and
the hand they reply to says the game is over).
"""

from __future__ import annotations

import hashlib
import random
import re
from pathlib import Path
from typing import Any

import pytest

from cogs.table import codec
from cogs.table.edge import TableEdge
from cogs.table.intake import ALREADY_DONE, EARLIER_TURN
from cogs.table.present import Rendered, render_private, render_table
from cogs.table.registry import ui_for
from games.computer import Asked, decision_rng
from games.registry import get_engine, get_policy
from runtime.access import check_current
from runtime.clock import ManualClock
from runtime.errors import Refusal
from storage import GameRecord, Status
from tests.e2e.conftest import RumpusHarness, running_bot
from tests.fakediscord import FakeDiscord, FakeUser, Message

OVER = "This game is over"
#: case -> (game, players' lobby buttons after the host's, /new options, seed); the last player's
#: DMs are closed. Two seeds for the quicker games; Kniggits with two and with four commanders.
TABLES: dict[str, tuple[str, list[str], dict[str, Any], int]] = {
    "words-3": ("words", ["Join", "Join"], {}, 1),
    "words-4": ("words", ["Join", "Join", "Join"], {}, 2),
    "hallway-1": ("hallway", ["Join"], {}, 1),
    "hallway-2": ("hallway", ["Join"], {}, 2),
    "fencing": ("fencing", ["Join", "Join"], {}, 1),
    "tarot": ("tarot", ["Join A", "Join B", "Join B"], {"conference": "off"}, 1),
    "kniggits-2": ("kniggits", ["Join B"], {"size": 24, "rounds": 3}, 1),
    "kniggits-4": ("kniggits", ["Join A", "Join B", "Join B"], {"size": 24, "rounds": 2}, 2),
}
MAX_STEPS = 700


# -- what a message shows ----------------------------------------------------------------------------
def countdown_free(text: str) -> str:
    return re.sub(r" — [^\n(]*? left \(<t:", " — left (<t:", text)


def embed_shown(embed: dict[str, Any]) -> dict[str, Any]:
    fields = [(f.get("name", ""), countdown_free(f.get("value", ""))) for f in embed.get("fields", [])
              if f.get("name") != "Just now"]
    footer = re.sub(r" · move \d+", " · move N", (embed.get("footer") or {}).get("text", ""))
    return {"title": embed.get("title"), "description": embed.get("description"), "fields": fields,
            "footer": footer, "image": bool(embed.get("image"))}


def still_good(game: GameRecord, seat: int | None, custom_id: str) -> str:
    """A control's id with its state version as "V" while a press of it would still count: a
    seat's controls drawn during its current wait stay good while others move (rock-paper-
    scissors), so a panel whose view did not change is not redrawn for a new version."""
    route = codec.parse(custom_id)
    if route is None or not route.version or route.version == game.version:
        return re.sub(r"^(rp:[asfm]:\d+:)\d+", r"\1V", custom_id) if route is not None and route.version else custom_id
    if seat is not None:
        try:
            check_current(game, seat, route.version)
        except Refusal:
            return custom_id
        return re.sub(r"^(rp:[asfm]:\d+:)\d+", r"\1V", custom_id)
    return custom_id


def controls_shown(rows: list[dict[str, Any]], game: GameRecord, seat: int | None) -> list[tuple[Any, ...]]:
    shown: list[tuple[Any, ...]] = []
    for row in rows:
        for item in row.get("components", []):
            custom_id = still_good(game, seat, str(item.get("custom_id", "")))
            if item.get("type") == 2:
                shown.append(("button", custom_id, item.get("label"), bool(item.get("disabled"))))
            else:
                shown.append(("select", custom_id, tuple(o["value"] for o in item.get("options", []))))
    return shown


def message_shows(message: Message, game: GameRecord, seat: int | None) -> dict[str, Any]:
    pictures = [hashlib.blake2b(a.data, digest_size=16).hexdigest() for a in message.attachments
                if a.filename.endswith(".png")]
    return {"embed": embed_shown(message.embeds[0]) if message.embeds else None,
            "controls": controls_shown(message.components, game, seat), "picture": pictures[0] if pictures else None}


def rendered_shows(rendered: Rendered, game: GameRecord, seat: int | None) -> dict[str, Any]:
    rows = rendered.view.to_components() if rendered.view is not None else []
    return {"embed": embed_shown(rendered.embed.to_dict()), "controls": controls_shown(rows, game, seat),
            "picture": rendered.image_digest if rendered.file is not None else None}


# -- the players ----------------------------------------------------------------------------------------
class Table:
    def __init__(self, server: FakeDiscord, harness: RumpusHarness, clock: ManualClock, kind: str,
                 players: list[FakeUser], rng: random.Random) -> None:
        self.server, self.harness, self.clock, self.kind = server, harness, clock, kind
        self.players, self.rng = players, rng
        self.engine, self.ui = get_engine(kind), ui_for(kind)
        self.game_id = 0
        #: seat -> the newest ephemeral panel each player had (checked when the game ends).
        self.latest_panel: dict[int, int] = {}
        self.checked = 0
        self.ways: dict[str, int] = {}

    @property
    def edge(self) -> TableEdge:
        return self.harness.bot.tables

    async def game(self) -> GameRecord:
        return await self.harness.bot.service.game(self.game_id)

    def player(self, game: GameRecord, seat: int) -> FakeUser:
        return next(p for p in self.players if p.id == game.seats[seat].user_id)

    def find(self, message_id: int | None, among: list[Message]) -> Message | None:
        return next((m for m in among if m.id == message_id), None)

    def public(self) -> list[Message]:
        return [m for c in [self.server.general, *self.server.general.threads()] for m in c.history()]

    async def settle(self) -> None:
        """Wait until the bot has shown the last step: the answer to a press goes out before
        the step is published (under the game's publish lock), and a picture is drawn off the
        event loop, when no request is in flight."""
        for _ in range(2):
            await self.server.idle()
            async with self.edge.delivery.lock(self.game_id):
                pass
        await self.server.idle()

    # -- the check -----------------------------------------------------------------------------------
    async def check(self, step: str) -> None:
        """Every live message shows what a fresh render shows now; a finished game's say so."""
        await self.settle()
        game = await self.game()
        over = game.status is not Status.ACTIVE
        delivery = self.edge.delivery
        table = self.find(game.table_message_id, self.public())
        assert table is not None, f"{step}: no table message"
        fresh = await render_table(game, self.engine, self.ui, self.clock.now())
        assert message_shows(table, game, None) == rendered_shows(fresh, game, None), f"{step}: the table is out of step"
        looked: list[tuple[str, Message]] = [("table", table)]
        for record in game.seats:
            seat, player = record.seat, self.player(game, record.seat)
            expected = await render_private(game, self.engine, self.ui, seat, jump_url=delivery.table_url(game))
            if expected is None:
                continue
            shows = rendered_shows(expected, game, seat)
            if record.dm_ok and record.dm_message_id is not None:
                dm = self.find(record.dm_message_id, player.dms())
                assert dm is not None, f"{step}: {player.name}'s DM panel is gone"
                assert message_shows(dm, game, seat) == shows, f"{step}: {player.name}'s DM panel is out of step"
                looked.append((f"{player.name}'s DM", dm))
            panel_id = delivery.panels.message_of(game.id, seat)
            if panel_id is not None:
                self.latest_panel[seat] = panel_id
                panel = self.find(panel_id, player.ephemerals())
                assert panel is not None, f"{step}: {player.name}'s ephemeral panel is gone"
                assert message_shows(panel, game, seat) == shows, f"{step}: {player.name}'s ephemeral panel is out of step"
                looked.append((f"{player.name}'s ephemeral", panel))
            elif over and seat in self.latest_panel:  # the newest panel is redrawn as over too (then let go)
                last = self.find(self.latest_panel[seat], player.ephemerals())
                assert last is not None
                looked.append((f"{player.name}'s last ephemeral", last))
        if over:
            for what, message in looked:
                assert OVER in message.text() and not message.components, f"{what} does not say the game is over"
            pings = [m.content for m in self.public() if m.visible_for(None) and "your turn" in m.content.lower()]
            assert not pings, f"pings for moves of a finished game are still there: {pings}"
        self.checked += 1

    # -- a move --------------------------------------------------------------------------------------
    def wanted(self, game: GameRecord, seat: int) -> dict[str, Any]:
        assert game.state is not None
        legal = self.engine.legal_actions(game.state, seat)
        policy = get_policy(self.kind)
        if policy is not None and (not legal or self.rng.random() < 0.85):
            keys = tuple(d["key"] for d in game.deadlines if d["seat"] == seat)
            view = self.engine.view(game.state, seat)
            return policy.choose(view, Asked(seat, keys, self.clock.now()),
                                 decision_rng(game.seed, game.version, seat))
        return self.rng.choice(legal)

    def presses(self, message: Message, action: dict[str, Any]) -> list[tuple[str, Message, str, list[str]]]:
        """The ways `message` offers to send `action`: a button, or a menu's option(s)."""
        found: list[tuple[str, Message, str, list[str]]] = []
        for button in message.buttons():
            route = codec.parse(str(button.get("custom_id", "")))
            if route is not None and route.kind == "action" and route.action == action and not button.get("disabled"):
                found.append(("button", message, button["custom_id"], []))
        for menu in message.selects():
            route = codec.parse(str(menu.get("custom_id", "")))
            if route is None or route.kind != "select" or menu.get("disabled"):
                continue
            values = [o["value"] for o in menu.get("options", [])]
            if route.gather is None:
                picked = [v for v in values if codec.action_of(v) == action]
            else:
                picked = [v for v in values if (a := codec.action_of(v)) is not None
                          and isinstance(action.get(route.gather), list)
                          and {k: x for k, x in a.items() if k != route.gather}
                          == {k: x for k, x in action.items() if k != route.gather}
                          and len(a.get(route.gather) or []) == 1 and a[route.gather][0] in action[route.gather]]
                if len(picked) != len(action.get(route.gather) or []) or \
                        codec.gathered(picked, values, route.gather, pick=(menu.get("min_values", 1),
                                                                            menu.get("max_values", 1))) != action:
                    picked = []
            if picked and (route.gather is not None or len(picked) == 1):
                found.append(("select", message, menu["custom_id"], picked[:1] if route.gather is None else picked))
        return found

    async def move(self, game: GameRecord, seat: int) -> None:
        player = self.player(game, seat)
        action = self.wanted(game, seat)
        record = game.seats[seat]
        surfaces: list[tuple[str, Message]] = []
        table = self.find(game.table_message_id, self.public())
        if record.dm_ok and record.dm_message_id is not None:
            dm = self.find(record.dm_message_id, player.dms())
            if dm is not None:
                surfaces.append(("dm", dm))
        panel_id = self.edge.delivery.panels.message_of(game.id, seat)
        older = [m for m in player.ephemerals() if m.id != panel_id and m.components]
        panel = self.find(panel_id, player.ephemerals())
        if panel is not None:
            surfaces.append(("ephemeral", panel))
        if older and self.rng.random() < 0.15:  # a hand opened a while ago
            surfaces.append(("older ephemeral", self.rng.choice(older)))
        hand_button = next((b["custom_id"] for b in (table.buttons() if table else [])
                            if str(b.get("custom_id", "")).startswith("rp:h:")), None)
        if hand_button is not None and table is not None and self.rng.random() < (0.6 if not record.dm_ok else 0.2):
            opened = await player.click(table, hand_button)
            if opened.message is not None and opened.ephemeral and opened.message.components:
                surfaces.append(("new ephemeral", opened.message))
                self.latest_panel[seat] = opened.message.id
        if table is not None:
            surfaces.append(("table", table))
        version = game.version
        options = [(where, press) for where, message in surfaces for press in self.presses(message, action)]
        if options:
            where, (kind, message, custom_id, values) = self.rng.choice(options)
            if "ephemeral" in where:  # the one pressed becomes the player's newest panel
                self.latest_panel[seat] = message.id
            if kind == "button":
                result = await player.click(message, custom_id)
            else:
                result = await player.select(message, values, menu=custom_id)
            assert not (result.ephemeral and result.content and not result.modal), \
                f"{player.name} {action} on the {where}: {result.content}"
            await self.server.idle()
            if where == "older ephemeral" and game.version == version:
                # a button from an earlier turn: answered with the hand as it is now, in place
                assert EARLIER_TURN in message.text() or ALREADY_DONE in message.text(), message.text()
                self.ways["earlier turn"] = self.ways.get("earlier turn", 0) + 1
                return
        else:
            where = "typed"
            applied = await self.harness.bot.service.act(self.game_id, player.id, action)
            await self.edge.publish(applied)
        self.ways[where] = self.ways.get(where, 0) + 1
        await self.server.wait_for(lambda: game.version > version or game.status is not Status.ACTIVE,
                                   what=f"{player.name}'s {action} from the {where}")

    async def timer(self, game: GameRecord) -> bool:
        """The game's own wait (a delay, a window): time moves to it and it fires."""
        due = [d["at"] for d in game.deadlines if d.get("at") is not None and d["seat"] is None]
        # while players are awaited they usually act first (Fencing ends when nobody says GAME! in time)
        if not due or (any(d["seat"] is not None for d in game.deadlines) and self.rng.random() < 0.995):
            return False
        self.clock.advance(max(0.0, min(due) - self.clock.now()))
        await self.harness.bot.timers.fire_due()
        self.ways["timer"] = self.ways.get("timer", 0) + 1
        return True

    async def play(self) -> None:
        for step in range(MAX_STEPS):
            game = await self.game()
            await self.check(f"{self.kind} step {step} (move {game.version})")
            if game.status is not Status.ACTIVE:
                return
            if await self.timer(game):
                continue
            seats = sorted({d["seat"] for d in game.deadlines if d["seat"] is not None})
            if not seats:
                at = min(d["at"] for d in game.deadlines if d.get("at") is not None)
                self.clock.advance(max(0.0, at - self.clock.now()))
                await self.harness.bot.timers.fire_due()
                continue
            await self.move(game, self.rng.choice(seats))
        raise AssertionError(f"{self.kind}: the game did not end in {MAX_STEPS} steps")


async def open_table(server: FakeDiscord, case: str, players: list[FakeUser], harness: RumpusHarness) -> int:
    kind, joins, options, _ = TABLES[case]
    lobby = (await players[0].slash(f"{kind} new", **options)).message
    assert lobby is not None
    for player, join in zip(players[1:], joins, strict=True):
        joined = await player.click(lobby, join)
        assert not (joined.ephemeral and "full" in joined.content.lower()), joined.content
    started = await players[0].click(lobby, "Start")
    assert not (started.ephemeral and started.content and "Only" in started.content), started.content
    game = await harness.bot.service.game_for(players[0].id, None)
    assert game.status is Status.ACTIVE
    await server.wait_for(lambda: any(m.id == game.table_message_id for t in server.general.threads()
                                      for m in t.history()), what="the table in its thread")
    await server.idle()
    return game.id


@pytest.mark.parametrize("case", sorted(TABLES))
async def test_every_screen_keeps_up_with_random_games(fake_discord: FakeDiscord, tmp_path: Path, case: str) -> None:
    server = fake_discord
    server.allow_errors(50007)
    kind, joins, _, seed = TABLES[case]
    names = ["alice", "bob", "carol", "dan"][:len(joins) + 1]
    players = [server.user(n, accepts_dms=n != names[-1]) for n in names]
    clock = ManualClock()
    async with running_bot(server, tmp_path, seed=20 + seed, clock=clock) as harness:
        table = Table(server, harness, clock, kind, players, random.Random(f"screens-{case}"))
        table.game_id = await open_table(server, case, players, harness)
        await table.play()
    assert table.checked > 20, table.ways
    if kind != "hallway" and kind != "fencing":  # games with hands: pressed from the DM and from ephemerals
        assert table.ways.get("dm", 0) and table.ways.get("ephemeral", 0) + table.ways.get("new ephemeral", 0), \
            table.ways
