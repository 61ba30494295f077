"""The fake Discord against a small, real discord.py bot: every feature the e2e tests rely on."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from discord.http import Route

from tests.fakediscord import ClientRunner, FakeDiscord, InteractionFailed


class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"count:(?P<n>\d+)"):
    """A stateless button whose custom_id carries its state (survives restarts)."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"count:{n}",
                                           style=discord.ButtonStyle.primary))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"count is {self.n + 1}", view=view)


class Panel(discord.ui.View):
    """A persistent view: fixed custom_ids, no timeout."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="panel:join", style=discord.ButtonStyle.success)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message(f"{interaction.user.name} joined", ephemeral=True)

    @discord.ui.button(label="Ask", custom_id="panel:ask")
    async def ask(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_modal(Question())

    @discord.ui.select(custom_id="panel:pick", placeholder="Pick a colour",
                       options=[discord.SelectOption(label=c.title(), value=c) for c in ("red", "green", "blue")])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"picked {select.values[0]}")


class Question(discord.ui.Modal, title="A question"):
    name = discord.ui.TextInput(label="Your name", max_length=20)
    note = discord.ui.TextInput(label="A note", style=discord.TextStyle.paragraph, required=False)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value} ({self.note.value or '-'})")


class MiniBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.guild_id = guild_id
        self.errors: list[BaseException] = []
        game = app_commands.Group(name="game", description="Game things")
        admin = app_commands.Group(name="admin", description="Admin things", parent=game)

        @game.command(name="start", description="Start a game")
        @app_commands.describe(players="How many")
        async def start(interaction: discord.Interaction, players: app_commands.Range[int, 2, 4],
                        mode: str = "normal") -> None:
            await interaction.response.send_message(f"starting {players} {mode}")

        @admin.command(name="reset", description="Reset everything")
        async def reset(interaction: discord.Interaction, who: discord.Member) -> None:
            await interaction.response.send_message(f"reset {who.name}", ephemeral=True)

        @app_commands.command(name="panel", description="Post the panel")
        async def panel(interaction: discord.Interaction) -> None:
            view = Panel()
            view.add_item(Counter(0))
            await interaction.response.send_message("the panel", view=view)

        @app_commands.command(name="dm", description="DM someone")
        async def dm(interaction: discord.Interaction, who: discord.User) -> None:
            try:
                await who.send("psst")
            except discord.Forbidden as exc:
                await interaction.response.send_message(f"cannot DM {who.name} ({exc.code})")
            else:
                await interaction.response.send_message(f"sent to {who.name}")

        @app_commands.command(name="thread", description="Open a thread")
        async def thread(interaction: discord.Interaction, name: str) -> None:
            await interaction.response.defer(thinking=True)
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            t = await channel.create_thread(name=name, type=discord.ChannelType.private_thread)
            await t.add_user(interaction.user)
            view = Panel()
            await t.send("welcome", view=view)
            await interaction.followup.send(f"opened {t.mention}")

        @app_commands.command(name="edit", description="Send then edit")
        async def edit(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("ok", ephemeral=True)
            channel = interaction.channel
            assert channel is not None
            msg = await channel.send("draft")  # type: ignore[union-attr]
            await msg.edit(content="final", embed=discord.Embed(title="T", description="D"))

        @app_commands.command(name="secret", description="Ephemeral + followup")
        async def secret(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("only you", ephemeral=True)
            await interaction.followup.send("also only you", ephemeral=True)
            await interaction.edit_original_response(content="only you (edited)")

        @app_commands.command(name="slow", description="Answers too late")
        async def slow(interaction: discord.Interaction, seconds: float) -> None:
            await asyncio.sleep(seconds)
            try:
                await interaction.response.send_message("late")
            except discord.NotFound as exc:
                self.errors.append(exc)

        @app_commands.command(name="big", description="Oversized message")
        async def big(interaction: discord.Interaction) -> None:
            try:
                await interaction.response.send_message("x" * 2001)
            except discord.HTTPException as exc:
                self.errors.append(exc)
                await interaction.response.send_message("too big")

        @app_commands.command(name="weird", description="Calls an endpoint the fake does not model")
        async def weird(interaction: discord.Interaction) -> None:
            with __import__("contextlib").suppress(discord.HTTPException):
                await self.http.request(Route("GET", "/sticker-packs"))
            await interaction.response.send_message("done")

        for cmd in (game, panel, dm, thread, edit, secret, slow, big, weird):
            self.tree.add_command(cmd)

    async def setup_hook(self) -> None:
        self.add_view(Panel())
        self.add_dynamic_items(Counter)
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


@pytest.fixture
async def mini(fake_discord: FakeDiscord) -> AsyncIterator[MiniBot]:
    bot = MiniBot(fake_discord.guild.id)
    runner = ClientRunner(fake_discord, bot)
    await runner.start()
    yield bot
    await runner.close()


async def test_ready_and_commands_synced(fake_discord: FakeDiscord, mini: MiniBot) -> None:
    assert mini.is_ready()
    guild = mini.get_guild(fake_discord.guild.id)
    assert guild is not None and {c.name for c in guild.text_channels} == {"general", "games"}
    names = {c["name"] for c in fake_discord.world.guild_commands[fake_discord.guild.id]}
    assert {"game", "panel", "dm", "thread"} <= names
    assert fake_discord.gateway.identifies == 1


async def test_slash_with_options_and_groups(fake_discord: FakeDiscord, mini: MiniBot) -> None:
    alice = fake_discord.user("alice")
    result = await alice.slash("game start players:3")
    assert result.content == "starting 3 normal"
    assert fake_discord.general.last_message() is result.message
    bob = fake_discord.user("bob")
    result = await alice.slash("game admin reset", who=bob)
    assert result.ephemeral and result.content == "reset bob"
    assert result.message in alice.ephemerals() and not bob.ephemerals()
    assert fake_discord.general.last_message(bob).content == "starting 3 normal"


async def test_driver_checks_options_against_schema(fake_discord: FakeDiscord, mini: MiniBot) -> None:
    alice = fake_discord.user("alice")
    with pytest.raises(AssertionError, match="no options"):
        await alice.slash("game start", players=2, colour="red")
    with pytest.raises(AssertionError, match="required option 'players'"):
        await alice.slash("game start")
    with pytest.raises(AssertionError, match="must be <= 4"):
        await alice.slash("game start", players=9)
    with pytest.raises(AssertionError, match="needs a subcommand"):
        await alice.slash("game admin")
    with pytest.raises(AssertionError, match="no /nope"):
        await alice.slash("nope")


async def test_persistent_view_dynamic_item_select_modal(fake_discord: FakeDiscord, mini: MiniBot) -> None:
    alice = fake_discord.user("alice")
    await alice.slash("panel")
    msg = fake_discord.general.last_message()
    assert msg is not None and msg.button_labels() == ["Join", "Ask", "Count 0"]
    joined = await alice.click(msg, "Join")
    assert joined.ephemeral and joined.content == "alice joined"
    counted = await alice.click(msg, "Count 0")
    assert counted.response_type == 7 and msg.content == "count is 1" and msg.button_labels() == ["Count 1"]
    await alice.click(msg, "count:1")
    assert msg.content == "count is 2"

    await alice.slash("panel")
    panel = fake_discord.general.last_message()
    assert panel is not None
    picked = await alice.select(panel, "Green")
    assert picked.response_type == 6
    await fake_discord.wait_for(lambda: panel.content == "picked green")

    asked = await alice.click(panel, "Ask")
    assert asked.modal is not None and asked.modal["title"] == "A question"
    with pytest.raises(AssertionError, match="is required"):
        await alice.submit({"A note": "hi"})
    asked = await alice.click(panel, "Ask")
    answer = await alice.submit({"Your name": "Alice"})
    assert answer.content == "hello Alice (-)"


async def test_dm_and_refused_dm(fake_discord: FakeDiscord, mini: MiniBot) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    result = await alice.slash("dm", who=bob)
    assert result.content == "sent to bob"
    assert [m.content for m in bob.dms()] == ["psst"] and not alice.dms()
    bob.accepts_dms = False
    fake_discord.allow_errors(50007)
    result = await alice.slash("dm", who=bob)
    assert result.content == "cannot DM bob (50007)"
    assert len(bob.dms()) == 1


async def test_private_thread_with_members(fake_discord: FakeDiscord, mini: MiniBot) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    result = await alice.slash("thread", name="table 1")
    await result.done()
    assert result.message is not None and result.content.startswith("opened <#")
    [thread] = fake_discord.general.threads()
    assert thread.name == "table 1" and alice.id in thread.thread_members
    assert alice.can_see(thread) and not bob.can_see(thread)
    welcome = thread.last_message()
    assert welcome is not None and welcome.content == "welcome"
    clicked = await alice.click(welcome, "Join")
    assert clicked.message is not None and clicked.message.channel is thread
    with pytest.raises(AssertionError, match="cannot see"):
        await bob.click(welcome, "Join")


async def test_message_edit_ephemeral_followup(fake_discord: FakeDiscord, mini: MiniBot) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await alice.slash("edit")
    msg = await fake_discord.wait_for(lambda: (m := fake_discord.general.last_message()) and m.edits and m)
    assert msg.content == "final" and msg.embeds[0]["title"] == "T" and "D" in msg.text()

    result = await alice.slash("secret")
    await result.followup()
    await fake_discord.wait_for(lambda: result.content == "only you (edited)")
    assert [m.content for m in alice.ephemerals()][-2:] == ["only you (edited)", "also only you"]
    assert not bob.ephemerals()
    assert all(m.visible_to is None for m in fake_discord.general.history())


async def test_late_callback_is_unknown_interaction(fake_discord: FakeDiscord, mini: MiniBot) -> None:
    fake_discord.interaction_timeout = 0.2
    fake_discord.allow_errors(10062)
    alice = fake_discord.user("alice")
    with pytest.raises(InteractionFailed, match="did not respond"):
        await alice.slash("slow", seconds=0.4)
    result = await alice.slash("slow", seconds=0.4, check=False)
    assert not result.acknowledged
    await fake_discord.wait_for(lambda: len(mini.errors) == 2)
    assert all(isinstance(e, discord.NotFound) and e.code == 10062 for e in mini.errors)
    fake_discord.interaction_timeout = 3.0
    ok = await alice.slash("game start", players=2)
    assert ok.latency is not None and ok.latency < 3.0


async def test_validation_rejects_oversized_content(fake_discord: FakeDiscord, mini: MiniBot) -> None:
    fake_discord.allow_errors(50035)
    alice = fake_discord.user("alice")
    result = await alice.slash("big")
    assert result.content == "too big"
    [exc] = mini.errors
    assert isinstance(exc, discord.HTTPException) and exc.code == 50035 and "2000" in str(exc)


async def test_unknown_route_fails_the_test(fake_discord: FakeDiscord, mini: MiniBot) -> None:
    alice = fake_discord.user("alice")
    await alice.slash("weird")
    with pytest.raises(AssertionError, match="unknown route: GET /api/v10/sticker-packs"):
        fake_discord.check()
    fake_discord.failures.clear()


@pytest.mark.parametrize("how", ["reconnect", "close"])
async def test_gateway_resume(fake_discord: FakeDiscord, mini: MiniBot, how: str) -> None:
    alice = fake_discord.user("alice")
    await fake_discord.gateway.force_reconnect(how)
    await fake_discord.wait_for(lambda: fake_discord.gateway.resumes == 1 and fake_discord.gateway.connected)
    assert fake_discord.gateway.identifies == 1
    assert fake_discord.gateway.urls[-1].startswith("/resume-gateway?")
    result = await alice.slash("game start", players=2)
    assert result.content == "starting 2 normal"


async def test_events_during_disconnect_are_replayed(fake_discord: FakeDiscord, mini: MiniBot) -> None:
    alice = fake_discord.user("alice")
    await alice.slash("panel")
    panel = fake_discord.general.last_message()
    assert panel is not None
    await fake_discord.gateway.force_reconnect("close")
    joined = await alice.click(panel, "Join")  # buffered while the bot is away, replayed on RESUME
    assert joined.content == "alice joined"


async def test_invalid_session_reidentifies(fake_discord: FakeDiscord, mini: MiniBot) -> None:
    await fake_discord.gateway.force_reconnect("invalidate")
    # discord.py waits 5 s before any IDENTIFY that is not its first one.
    await fake_discord.wait_for(lambda: fake_discord.gateway.identifies == 2 and mini.is_ready(), timeout=10)
    result = await fake_discord.user("alice").slash("game start", players=4)
    assert result.content == "starting 4 normal"


async def test_call_log_counts_calls_per_action(fake_discord: FakeDiscord, mini: MiniBot) -> None:
    alice = fake_discord.user("alice")
    await alice.slash("panel")
    panel = fake_discord.general.last_message()
    assert panel is not None
    await fake_discord.idle()
    mark = fake_discord.mark()
    result = await alice.click(panel, "Count 0")
    await fake_discord.idle()
    calls = fake_discord.calls_since(mark)
    assert [c.route for c in calls] == ["POST /interactions/{interaction_id}/{token}/callback"]
    assert calls[0].interaction_id == result.interaction.id and calls[0].user_id == alice.id
