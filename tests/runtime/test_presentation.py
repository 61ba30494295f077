"""What players see, drawn from views: nothing hidden reaches a channel message or
another player's message, and every message fits Discord's limits."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest

from cogs.table import codec
from cogs.table.present import Rendered, fit, render_private, render_table
from cogs.table.registry import UIS, load_builtin_uis
from games.registry import get_engine
from storage import GameRecord, SeatRecord, Status
from tests.playout import leaves, random_playout

load_builtin_uis()
KINDS = sorted(UIS)


def record_for(kind: str, state: dict[str, Any], version: int) -> GameRecord:
    players = state["players"]
    seats = [SeatRecord(s, 100 + s, f"Player {s + 1}") for s in range(players)]
    return GameRecord(
        id=7, guild_id=1, channel_id=2, thread_id=None, kind=kind, host_id=100, options={},
        status=Status.ACTIVE, version=version, seed=0, state=state, deadlines=[], log=["The game begins."],
        table_message_id=99, table_message_at=0.0, created_at=0.0, updated_at=0.0, seats=seats,
    )


def visible_values(rendered: Rendered) -> list[Any]:
    """Every value a viewer could read: the embed, and what each component carries."""
    message: dict[str, Any] = {"embed": rendered.embed.to_dict()}
    if rendered.view is not None:
        message["components"] = rendered.view.to_components()
    found = leaves(json.loads(json.dumps(message)))
    for value in list(found):
        if isinstance(value, str) and value.startswith("rp:"):
            found.extend(leaves(codec.unpack(value.split(":", 4)[-1])))
        elif isinstance(value, str) and value.startswith("{"):
            found.extend(leaves(codec.unpack(value)))
    return found


def check_limits(rendered: Rendered) -> None:
    embed = rendered.embed.to_dict()
    assert len(embed.get("title", "")) <= 256
    assert len(embed.get("description", "")) <= 4096
    assert len(embed.get("fields", [])) <= 25
    total = len(embed.get("title", "")) + len(embed.get("description", "")) + sum(
        len(f["name"]) + len(f["value"]) for f in embed.get("fields", []))
    assert total <= 6000
    if rendered.view is not None:
        rows = rendered.view.to_components()
        assert len(rows) <= 5
        for row in rows:
            assert len(row["components"]) <= 5
            for item in row["components"]:
                assert len(item["custom_id"]) <= 100
                assert len(item.get("options", [])) <= 25


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(3))
async def test_no_message_shows_another_seats_secrets(kind: str, seed: int) -> None:
    engine, ui = get_engine(kind), UIS[kind]
    run = random_playout(engine, engine.max_players, seed)
    for version, state in enumerate(run.states[:: max(1, len(run.states) // 12)], start=1):
        secrets = engine.secrets(state)
        game = record_for(kind, state, version)
        table = await render_table(game, engine, ui, now=0.0, with_image=False)
        check_limits(table)
        seen = visible_values(table)
        for owner, items in secrets.items():
            assert not [i for i in items if i in seen], f"table shows seat {owner}'s secrets"
        for viewer in range(state["players"]):
            private = await render_private(game, engine, ui, viewer, jump_url=None)
            if private is None:
                continue
            check_limits(private)
            seen = visible_values(private)
            for owner, items in secrets.items():
                if owner != viewer:
                    assert not [i for i in items if i in seen], f"seat {viewer} sees seat {owner}'s secrets"


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
    from cogs.table.present import result_embed

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
