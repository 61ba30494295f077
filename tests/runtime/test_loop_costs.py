"""What one step of the action loop costs: each state's views computed once, and with several
processes on PostgreSQL no version read before a step (the commit's compare-and-set decides;
a refusal is confirmed against the stored version first)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from runtime.clock import ManualClock
from runtime.errors import Refusal
from runtime.service import TableService
from storage import GameRecord, Status, Storage
from tests.engines.tokens import ENGINE
from tests.runtime.conftest import ALICE, BOB, CAROL, started_game
from tests.runtime.test_multiprocess import Process, process, started


async def test_each_state_s_views_are_computed_once(service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = await started_game(service, [ALICE, BOB, CAROL])
    seen: list[tuple[int, int | None]] = []
    view = type(ENGINE).view

    def counted(self: Any, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        seen.append((id(state), seat))
        return view(self, state, seat)

    monkeypatch.setattr(type(ENGINE), "view", counted)
    await service.act(game_id, ALICE, {"type": "play", "token": "s0t0"})
    await service.act(game_id, BOB, {"type": "play", "token": "s1t0"})
    seen.clear()
    applied = await service.act(game_id, CAROL, {"type": "play", "token": "s2t0"})
    # the state before was the previous step's: its views were kept; only the new state's are
    # made, each once (the public one only when the log did not already say the table changed)
    assert {state for state, _ in seen} == {id(applied.game.state)} and len(set(seen)) == len(seen)
    assert sorted(seat for _, seat in seen if seat is not None) == [0, 1, 2]
    assert sorted(applied.changed_seats) == [0, 1, 2] and applied.public_changed


async def test_a_steps_messages_are_drawn_from_the_views_its_commit_computed(
        service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table and each changed hand are drawn right after the commit from the very views it
    compared (`runtime.views.view_of`), not computed a second time; a state it did not commit
    (reloaded, another process's) computes its own."""
    from cogs.table.present import render_private, render_table
    from cogs.table.registry import ui_for

    game_id = await started_game(service, [ALICE, BOB, CAROL])
    applied = await service.act(game_id, ALICE, {"type": "play", "token": "s0t0"})
    seen: list[int | None] = []
    view = type(ENGINE).view

    def counted(self: Any, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        seen.append(seat)
        return view(self, state, seat)

    monkeypatch.setattr(type(ENGINE), "view", counted)
    game, ui = applied.game, ui_for("tokens")
    await render_table(game, ENGINE, ui, 0.0, with_image=False)
    for seat in range(3):
        await render_private(game, ENGINE, ui, seat, jump_url=None)
    await render_table(game, ENGINE, ui, 1.0, with_image=False)
    # every view drawn is the commit's: it made the people's and the table's together
    assert seen == []
    seen.clear()
    game.state = dict(game.state or {})  # the same state as another object: computed
    await render_private(game, ENGINE, ui, 0, jump_url=None)
    assert seen == [0]


async def test_a_press_s_key_is_computed_once(service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    """A component's press key (a JSON dump and a hash) is made once per press: the staleness
    check and the commit's spent-press record share it (and a current press needs it only once)."""
    from runtime import deadlines

    game_id = await started_game(service, [ALICE, BOB, CAROL])
    keys: list[str] = []
    press_key = deadlines.press_key

    def counted(version: int, action: dict[str, Any]) -> str:
        keys.append(press_key(version, action))
        return keys[-1]

    monkeypatch.setattr(deadlines, "press_key", counted)
    await service.act(game_id, ALICE, {"type": "play", "token": "s0t0"}, version=1)
    assert len(keys) == 1
    with pytest.raises(Refusal):  # a press from an earlier turn: still one key
        await service.act(game_id, BOB, {"type": "play", "token": "s1t0"}, version=1)
    assert len(keys) == 2


@pytest.fixture
async def pair(postgres_url: str, clock: ManualClock) -> AsyncIterator[tuple[Process, Process]]:
    one, two = await process(postgres_url, clock, "p0"), await process(postgres_url, clock, "p1")
    yield one, two
    for p in (one, two):
        p.timers.close()
        await p.storage.close()


def count_version_reads(storage: Storage, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    reads: list[int] = []
    version = storage.game_version

    async def counted(game_id: int) -> int | None:
        reads.append(game_id)
        return await version(game_id)

    monkeypatch.setattr(storage, "game_version", counted)
    return reads


async def test_a_step_on_a_current_copy_reads_no_version(
        pair: tuple[Process, Process], monkeypatch: pytest.MonkeyPatch) -> None:
    one, _ = pair
    game_id = await started(one, [ALICE, BOB])
    await one.service.game(game_id)
    reads = count_version_reads(one.storage, monkeypatch)
    await one.service.act(game_id, ALICE, {"type": "play", "token": "s0t0"}, version=1)
    await one.service.act(game_id, BOB, {"type": "play", "token": "s1t0"}, version=2)
    assert reads == [] and (await one.storage.game_version(game_id)) == 3


async def test_a_refusal_on_an_older_copy_is_checked_and_the_newer_state_judges(
        pair: tuple[Process, Process], monkeypatch: pytest.MonkeyPatch) -> None:
    one, two = pair
    game_id = await started(one, [ALICE, BOB])
    stale = await two.service.game(game_id)  # process two holds version 1: Alice's turn
    await one.service.act(game_id, ALICE, {"type": "play", "token": "s0t0"})
    reads = count_version_reads(two.storage, monkeypatch)
    # Bob's press reaches process two, whose copy says it is Alice's turn: before refusing, the
    # stored version is read, the game reloaded, and Bob's step judged on version 2.
    applied = await two.service.act(game_id, BOB, {"type": "play", "token": "s1t0"})
    assert applied.game.version == 3 and stale.version == 3 and reads == [game_id]
    # A button drawn for a state newer than the copy is good too.
    await two.service.act(game_id, ALICE, {"type": "play", "token": "s0t1"}, version=3)
    await one.service.act(game_id, BOB, {"type": "play", "token": "s1t1"}, version=4)
    assert (await two.service.game(game_id)).version == 5
    with pytest.raises(Exception, match="turn"):  # a real refusal stays one, after one read
        await two.service.act(game_id, BOB, {"type": "play", "token": "s1t2"})


async def hearing(pair: tuple[Process, Process]) -> tuple[Process, Process]:
    """Both processes hear the database's commits, as each bot's timers make them on start."""
    for p in pair:
        assert await p.service.hear_commits()
    return pair


async def heard(p: Process, record: GameRecord) -> None:
    """Wait until process `p` heard that its copy of the game is no longer the stored one."""
    for _ in range(200):
        if not p.service.current(record):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the other process's commit was never heard")


async def test_a_process_hearing_every_commit_reads_no_version_for_a_current_copy(
        pair: tuple[Process, Process], monkeypatch: pytest.MonkeyPatch) -> None:
    one, _ = await hearing(pair)
    game_id = await started(one, [ALICE, BOB])
    record = await one.service.game(game_id)
    await one.service.act(game_id, ALICE, {"type": "play", "token": "s0t0"}, version=1)
    await asyncio.sleep(0.1)  # its own commit's notification comes back: still current
    reads = count_version_reads(one.storage, monkeypatch)
    assert one.service.current(record) and (await one.service.game(game_id)) is record
    with pytest.raises(Refusal, match="turn"):  # a refusal on a copy known current: no read
        await one.service.act(game_id, ALICE, {"type": "play", "token": "s0t1"})
    assert reads == []


async def test_a_step_another_process_committed_is_heard_and_the_copy_reloaded(
        pair: tuple[Process, Process], monkeypatch: pytest.MonkeyPatch) -> None:
    one, two = await hearing(pair)
    game_id = await started(one, [ALICE, BOB])
    stale = await two.service.game(game_id)  # process two holds version 1: Alice's turn
    assert two.service.current(stale)
    await one.service.act(game_id, ALICE, {"type": "play", "token": "s0t0"})
    await heard(two, stale)
    # Alice's second press reaches process two: its copy is known stale, so it is reloaded and
    # the press judged on version 2 (Bob's turn): refused, and the copy is current again.
    with pytest.raises(Refusal, match="turn"):
        await two.service.act(game_id, ALICE, {"type": "play", "token": "s0t1"})
    assert stale.version == 2 and two.service.current(stale)
    # A status change alone (a cancel by the first process) is heard too: the copy is dropped.
    await one.storage.set_status(game_id, Status.CANCELLED, 0.0)
    await heard(two, stale)
    with pytest.raises(Exception, match=r"over|no longer"):
        await two.service.act(game_id, BOB, {"type": "play", "token": "s1t0"})


async def test_a_process_that_stops_hearing_reads_versions_again(
        pair: tuple[Process, Process], monkeypatch: pytest.MonkeyPatch) -> None:
    one, two = await hearing(pair)
    game_id = await started(one, [ALICE, BOB])
    stale = await two.service.game(game_id)
    listener = two.storage.backend._listener  # type: ignore[attr-defined]
    listener.terminate()  # the connection is gone: whatever moves now is not heard
    await one.service.act(game_id, ALICE, {"type": "play", "token": "s0t0"})
    assert not two.service.hearing and not two.service.current(stale)
    assert (await two.service.game(game_id)).version == 2


async def test_an_engine_with_one_view_computes_it_once_per_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hallway hides nothing (`one_view`): each state's view is computed once, not once per
    dude and once more for the table, and every seat compares and draws that one."""
    from games.hallway import ENGINE as HALLWAY
    from runtime.views import ViewMemo, view_of

    assert HALLWAY.one_view and not ENGINE.one_view
    calls: list[int | None] = []
    view = type(HALLWAY).view

    def counted(self: Any, state: dict[str, Any], seat: int | None) -> Any:
        calls.append(seat)
        return view(self, state, seat)

    monkeypatch.setattr(type(HALLWAY), "view", counted)
    state = HALLWAY.setup(2, {"seed": 5}, {})
    digests = ViewMemo().put(HALLWAY, state, 1)
    assert digests(0) == digests(1) == digests(None)
    assert view_of(HALLWAY, state, 1) is view_of(HALLWAY, state, 0)
    assert calls == [None]


def test_a_commits_seats_views_are_made_together(monkeypatch: pytest.MonkeyPatch) -> None:
    """A commit asks for every person's view and the table's: Fighting Words makes its public
    part once for all of them (`Engine.views`), not once per seat and again for the table."""
    from games.words import ENGINE as WORDS
    from games.words import views as words_views
    from runtime.views import ViewMemo, view_of
    from tests.playout import random_playout

    state = random_playout(WORDS, 3, 2).states[12]
    made: list[int] = []
    public_view = words_views.public_view
    monkeypatch.setattr(words_views, "public_view", lambda s: made.append(1) or public_view(s))
    digests = ViewMemo().put(WORDS, state, 1, seats=[0, 1, 2, None])
    assert len({digests(seat) for seat in (0, 1, 2, None)}) == 4 and len(made) == 1
    assert view_of(WORDS, state, 2) == WORDS.view(state, 2)  # drawn from what the commit made
