"""What players see, drawn from views: nothing hidden reaches a channel message or
another player's message. (Discord's limits, legal controls and event lines of every game:
tests/test_ui_contract.py.)"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import discord
import pytest

from cogs.table.present import Rendered, fit, render_private, render_table
from cogs.table.registry import UIS, load_builtin_uis
from games.core import Secret
from games.registry import get_engine
from runtime.deadlines import schedule
from storage import GameRecord, SeatRecord, Status
from tests.playout import random_playout
from tests.secrecy import RNG_SECRETS, alternatives, get, put

load_builtin_uis()
KINDS = sorted(UIS)
#: States per playout and secrets per state tried (picked with a fixed seed), to stay quick.
STATES, SECRETS = 8, 6


def record_for(kind: str, state: dict[str, Any], version: int) -> GameRecord:
    players = state["players"]
    seats = [SeatRecord(s, 100 + s, f"Player {s + 1}") for s in range(players)]
    return GameRecord(
        id=7, guild_id=1, channel_id=2, thread_id=None, kind=kind, host_id=100, options={},
        status=Status.ACTIVE, version=version, seed=0, state=state, deadlines=[], log=["The game begins."],
        table_message_id=99, table_message_at=0.0, created_at=0.0, updated_at=0.0, seats=seats,
    )


def shown(rendered: Rendered | None) -> str:
    """Everything a message shows: the embed, the components (custom_ids and option values
    carry actions) and the picture's bytes."""
    if rendered is None:
        return "no message"
    image = hashlib.sha256(rendered.file.fp.getvalue()).hexdigest() if rendered.file is not None else None
    return json.dumps({"embed": rendered.embed.to_dict(), "image": image,
                       "components": rendered.view.to_components() if rendered.view is not None else []},
                      sort_keys=True, default=str)


async def messages(kind: str, state: dict[str, Any], version: int, viewers: list[int | None]) -> dict[int | None, str]:
    """The table (None) and each seat's private message, as the runtime would send them for
    this state: its waits' deadlines in the "Now" field, the picture drawn."""
    engine, ui = get_engine(kind), UIS[kind]
    game = record_for(kind, state, version)
    game.deadlines = schedule([], engine.to_act(state), 1_000.0, version=version)
    out: dict[int | None, str] = {}
    for viewer in viewers:
        if viewer is None:
            out[viewer] = shown(await render_table(game, engine, ui, now=1_000.0))
        else:
            out[viewer] = shown(await render_private(game, engine, ui, viewer, jump_url="https://discord.com/channels/1/2/99"))
    return out


def other_values(engine: Any, state: dict[str, Any], secret: Secret, found: dict[str, list[Any]]) -> list[Any]:
    """tests/secrecy.py's alternatives, and a float moved too (Race's hidden delay before GO!)."""
    out = alternatives(engine, state, secret, found)
    current = get(state, secret.path)
    if not out and isinstance(current, float):
        out.append(current + 1.5)
    return out


def seat_counts(kind: str) -> list[int]:
    engine = get_engine(kind)
    return sorted({engine.min_players, engine.max_players})


@pytest.mark.parametrize("kind", KINDS)
async def test_no_message_shows_another_seats_secrets(kind: str) -> None:
    """Change one declared secret (or the RNG): the table message and every other seat's
    message stay identical, byte for byte (the path-based check of tests/secrecy.py, one
    layer up: through the game's screens, the runtime's fields and the pictures)."""
    engine = get_engine(kind)
    chooser = random.Random(5)
    problems: list[str] = []
    tried = 0
    for players in seat_counts(kind):
        run = random_playout(engine, players, 3)
        for version, state in enumerate(run.states[:: max(1, len(run.states) // STATES)], start=1):
            declared: list[Secret] = [*RNG_SECRETS, *engine.secrets(state)]
            found: dict[str, list[Any]] = {}
            for secret in declared:
                value = get(state, secret.path)
                if value is not None and not isinstance(value, dict | list):
                    found.setdefault(secret.pool, []).append(value)
            candidates = [s for s in declared if get(state, s.path) is not None]
            viewers: list[int | None] = [None, *range(players)]
            before = await messages(kind, state, version, viewers)
            for secret in chooser.sample(candidates, min(SECRETS, len(candidates))):
                for value in other_values(engine, state, secret, found)[:1]:
                    changed = json.loads(json.dumps(state))
                    put(changed, secret.path, value)
                    others = [v for v in viewers if v is None or (v != secret.owner and v not in secret.shared)]
                    after = await messages(kind, changed, version, others)
                    tried += 1
                    for viewer in others:
                        if after[viewer] != before[viewer]:
                            whose = "nobody's" if secret.owner is None else f"seat {secret.owner}'s"
                            seen = "the table" if viewer is None else f"seat {viewer}'s message"
                            problems.append(f"{players}p: {seen} changes with {whose} secret at "
                                            f"{'/'.join(map(str, secret.path))}")
    assert tried > 0
    assert not problems, "\n".join(sorted(set(problems))[:20])


async def test_the_waiting_line_names_who_and_how_long() -> None:
    engine, ui = get_engine("tokens"), UIS["tokens"]
    state = engine.new_game(2, 1)
    game = record_for("tokens", state, 1)
    game.deadlines = [{"seat": 1, "key": "play", "prompt": "play a token", "at": 190.0, "default": {}}]
    table = await render_table(game, engine, ui, now=100.0, with_image=False)
    now_field = next(f for f in table.embed.to_dict()["fields"] if f["name"] == "Now")
    assert "Waiting for <@101> to play a token — 1:30 left" in now_field["value"]


def test_a_games_footer_is_kept_before_the_runtimes() -> None:
    from cogs.table.present import footer_of
    from cogs.table.ui import Card

    assert footer_of(Card("t", footer="3 boxed"), "Words · game #7") == "3 boxed · Words · game #7"
    assert footer_of(Card("t"), "Words · game #7") == "Words · game #7"


def test_the_result_lists_places_with_points() -> None:
    from cogs.table.result_screen import result_embed

    engine = get_engine(KINDS[0])
    game = record_for(KINDS[0], {"players": 3}, 1)
    embed = result_embed(game, engine, [1, 0, 1], "", [], scores=(-4, 12, -4)).to_dict()
    lines = embed["description"].splitlines()
    assert lines[0] == "🥇 <@101> — 12 points"
    assert lines[1:] == ["🥈 <@100> — −4 points", "🥈 <@102> — −4 points"]
    without = result_embed(game, engine, [0, 1, 2], "", []).to_dict()
    assert "points" not in without["description"]


def test_an_oversized_embed_is_fitted_to_discords_limits() -> None:
    link = "\n[Go to the table](https://discord.com/channels/1/2/3)"
    embed = discord.Embed(title="t" * 256, description="d" * 3000 + link)
    for n in range(22):
        embed.add_field(name=f"field {n}", value="v" * 1024)
    embed.set_footer(text="f" * 100)
    fitted = fit(embed)
    assert len(fitted) <= 6000 and len(fitted.description or "") <= 4096
    assert fitted.description.endswith(link) and len(fitted.fields) == 22
    assert all(f.value.endswith("…") for f in fitted.fields if len(f.value) < 1024)
    huge = fit(discord.Embed(description="x" * 5000 + link))
    assert len(huge.description) == 4096 and huge.description.endswith("…")
    small = discord.Embed(title="fine", description="short")
    assert fit(small).to_dict() == discord.Embed(title="fine", description="short").to_dict()


def test_the_table_info_is_made_once_per_seating() -> None:
    """Every step asks for the table's seats and names (the table and each changed hand): made
    once while the seats stay as they are, anew when a name, a player or the game's end changes."""
    from cogs.table.present import table_info

    game = record_for("tokens", {"players": 2}, 1)
    first = table_info(game)
    assert table_info(game) is first
    game.seats[1].name = "@everyone"
    renamed = table_info(game)
    assert renamed is not first and renamed.seats[1].name == "@\u200beveryone"
    game.status = Status.FINISHED
    assert table_info(game).finished and not renamed.finished
