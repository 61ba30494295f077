"""Replays (`/game replay`, runtime/replays.py): every frame of a seeded game of each kind is the
public view of that step, rebuilt from the seed and the actions alone; no hidden card is in any
frame before the end; only public events become lines; the last frame is the recorded end; and
the viewer's buttons carry the step they show."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest

from cogs.table import codec
from cogs.table.present import IMAGES
from cogs.table.registry import load_builtin_uis
from cogs.table.replays import CHAPTERS, MAX_OPTIONS, ReplayDesk, pager
from games.core import Event
from games.registry import get_engine, load_builtin
from runtime.replays import CHECKPOINT, FIRST_LINE, ReplayBroken, build
from storage import GameRecord, SeatRecord, Status
from storage.records import ActionRecord
from tests.playout import Playout, random_playout

load_builtin()
load_builtin_uis()
KINDS = [("hallway", 5), ("words", 6), ("tarot", 7), ("fencing", 8), ("kniggits", 9)]


def stored(run: Playout, kind: str) -> tuple[GameRecord, list[ActionRecord]]:
    """The game as the bot stores it at its end, and its action log."""
    game = GameRecord(id=7, guild_id=1, channel_id=2, thread_id=None, kind=kind, host_id=1,
                      options=dict(run.options), status=Status.FINISHED, version=len(run.log) + 1,
                      seed=run.seed, state=run.final, deadlines=[], log=[], table_message_id=None,
                      table_message_at=None, created_at=0.0, updated_at=0.0)
    game.seats = [SeatRecord(seat=s, user_id=100 + s, name=f"p{s}") for s in range(run.players)]
    actions = [ActionRecord(seq, seat, action, at) for seq, (seat, action, at) in enumerate(run.log, start=1)]
    return game, actions


def playout(kind: str, seed: int) -> Playout:
    engine = get_engine(kind)
    return random_playout(engine, engine.min_players, seed)


@pytest.mark.parametrize(("kind", "seed"), KINDS, ids=[k for k, _ in KINDS])
def test_every_frame_is_the_public_view_of_its_step(kind: str, seed: int) -> None:
    run = playout(kind, seed)
    engine = get_engine(kind)
    game, actions = stored(run, kind)
    seen: list[Event] = []

    def describe(event: Event) -> str:
        seen.append(event)
        return f"{event.type}"

    replay = build(engine, game, actions, describe=describe, chapter=CHAPTERS.get(kind))
    assert replay.last == len(run.log) and replay.matches
    assert replay.steps[0].lines == (FIRST_LINE,)
    for step, state in enumerate(run.states):
        assert replay.view_at(step) == json.loads(json.dumps(engine.view(state, None))), step
    assert all(e.to is None for e in seen), "a private event became a log line"
    assert set(replay.checkpoints) == set(range(0, replay.last + 1, CHECKPOINT))


def test_no_hidden_card_is_in_any_tarot_frame_before_the_end() -> None:
    run = playout("tarot", 11)
    engine = get_engine("tarot")
    game, actions = stored(run, "tarot")
    replay = build(engine, game, actions, describe=lambda e: e.type, chapter=CHAPTERS["tarot"])
    for step in range(replay.last):
        state = run.states[step]
        hidden = {_at(state, s.path) for s in engine.secrets(state) if isinstance(_at(state, s.path), str)}
        # (the hands played before are history: the same cards are dealt again in this one)
        shown = json.dumps({k: v for k, v in replay.view_at(step).items() if k != "history"})
        assert not [card for card in hidden if f'"{card}"' in shown], step
    assert [label for _, label in replay.chapters()] == ["Hand 1", "Hand 2", "Hand 3", "Hand 4"]


def _at(state: Any, path: tuple[str | int, ...]) -> Any:
    for key in path:
        state = state[key]
    return state


def test_a_replay_that_ends_elsewhere_says_so_and_a_refused_action_breaks_it() -> None:
    run = playout("hallway", 3)
    engine = get_engine("hallway")
    game, actions = stored(run, "hallway")
    game.state = run.states[-2]  # the stored end is not where the actions lead
    assert not build(engine, game, actions, describe=lambda e: None).matches
    actions[0] = ActionRecord(1, 0, {"type": "offer", "payer": "me", "amount": 5}, actions[0].at)
    with pytest.raises(ReplayBroken, match="step 1 does not replay"):
        build(engine, game, actions, describe=lambda e: None)


def test_recent_lines_run_up_to_the_step_shown() -> None:
    run = playout("words", 4)
    game, actions = stored(run, "words")
    replay = build(get_engine("words"), game, actions, describe=lambda e: f"{e.type}")
    for step in (0, 1, replay.last // 2, replay.last):
        lines = [line for s in replay.steps[:step + 1] for line in s.lines]
        assert replay.recent(step) == lines[-6:]


async def test_the_pager_carries_each_step_and_jumps_to_chapters() -> None:
    run = playout("tarot", 7)
    game, actions = stored(run, "tarot")
    replay = build(get_engine("tarot"), game, actions, describe=lambda e: None, chapter=CHAPTERS["tarot"])
    middle = replay.chapters()[1][0] + 3
    view = pager(game.id, replay, middle)
    buttons = [c for c in view.children if getattr(c, "custom_id", "").startswith("rp:v:")]
    routes = [codec.parse(str(b.custom_id)) for b in buttons]
    assert [(r.kind, r.step, r.verb) for r in routes if r is not None] == [
        ("replay", 0, "first"), ("replay", middle - 1, "prev"), ("replay", middle + 1, "next"),
        ("replay", replay.last, "last")]
    assert not any(b.disabled for b in buttons)  # type: ignore[attr-defined]
    [jump] = [c for c in view.children if isinstance(c, discord.ui.Select)]
    assert codec.parse(str(jump.custom_id)) == codec.Route("jump", game.id)
    assert [o.label for o in jump.options] == ["Hand 1", "Hand 2", "Hand 3", "Hand 4"]
    assert [o.default for o in jump.options] == [False, True, False, False]
    ends = pager(game.id, replay, replay.last)
    assert [b.disabled for b in ends.children if isinstance(b, discord.ui.Button)] == [
        False, False, True, True]
    assert len(jump.options) <= MAX_OPTIONS


async def test_a_step_seen_again_is_not_drawn_again() -> None:
    run = playout("tarot", 7)
    game, actions = stored(run, "tarot")
    replay = build(get_engine("tarot"), game, actions, describe=lambda e: e.type, chapter=CHAPTERS["tarot"])
    desk = ReplayDesk(None, None)  # type: ignore[arg-type]  # drawing a frame needs neither
    first = await desk.frame(game, replay, 40)
    drawn = IMAGES.misses
    again = await desk.frame(game, replay, 40, edit=True)
    assert IMAGES.misses == drawn, "the picture of a step seen before was drawn again"
    assert first["embed"].to_dict() == again["embed"].to_dict() and len(again["attachments"]) == 1
    assert first["embed"].author.name == f"⏪ Replay of game #{game.id} · step 40 of {replay.last}"
    end = (await desk.frame(game, replay, replay.last))["embed"]
    assert any(f.name == "The end" and "Game over." in (f.value or "") for f in end.fields)
