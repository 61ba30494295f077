"""Kniggits invariants over random legal games with random option mixes (hypothesis, the
derandomized "ci" profile): the board stays sound after every action, games end within the
turn limit, and (seed, actions) replays to the same state."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import IllegalAction
from games.kniggits import board
from games.kniggits.samples import ENGINE
from tests.playout import choose

OPTIONS = st.fixed_dictionaries({
    "size": st.sampled_from([24, 36]),
    "preset": st.sampled_from(["open", "woods", "ruins"]),
    "budget": st.integers(25, 80),
    "rounds": st.integers(3, 12),
    "horses": st.booleans(),
    "magic_swords": st.booleans(),
    "double_defence": st.booleans(),
    "two_swords": st.booleans(),
    "archers": st.booleans(),
    "potions": st.sampled_from([0, 2, 4, 6]),
    "scenario": st.sampled_from(["annihilation", "flag"]),
})
GAMES = settings(max_examples=120, deadline=None)


def sound(state: dict) -> list[str]:
    """What is wrong with the board, if anything."""
    problems = []
    blocked = board.obstacles(state)
    seen: dict[tuple[int, int], str] = {}
    for k in state["kniggits"]:
        if min(k["M"], k["A"], k["D"]) < 0:
            problems.append(f"{k['id']} has negative tokens")
        if k["status"] == "active" and board.flees(k):
            problems.append(f"{k['id']} should have fled (K14)")
        if k["status"] == "fled" and not board.flees(k):
            problems.append(f"{k['id']} fled with two pools")
        if k["status"] == "gone":
            if k["pos"][1] != board.home_row(state, k["army"]):
                problems.append(f"{k['id']} is gone off its home row")
            continue
        here = (k["pos"][0], k["pos"][1])
        if not (1 <= here[0] <= state["width"] and 1 <= here[1] <= state["height"]):
            problems.append(f"{k['id']} is off the map")
        if here in blocked:
            problems.append(f"{k['id']} stands in an obstacle")
        if here in seen:
            problems.append(f"{k['id']} shares {here} with {seen[here]}")
        seen[here] = k["id"]
        if k["carrying"] is not None and k["status"] != "active":
            problems.append(f"{k['id']} carries a flag while fled")
    for flag in state["map"]["flags"]:
        if (flag["pos"] is None) == (flag["carrier"] is None):
            problems.append("a flag is both carried and lying (or neither)")
    return problems


def extra(state: dict, seat: int, chooser: random.Random) -> dict | None:
    """Now and then something random play leaves out: undo, hold, or a partial gesture."""
    if state["exchange"] is not None:
        return {"type": "gesture", "sword": chooser.choice(["high", "mid", "low"])}
    if state["phase"] == "move":
        return chooser.choice([{"type": "undo"}, {"type": "cancel"}])
    return None


@GAMES
@given(options=OPTIONS, players=st.integers(2, 4), seed=st.integers(0, 2**31))
def test_random_games_keep_the_board_sound_end_in_time_and_replay(options: dict, players: int, seed: int) -> None:
    chooser = random.Random(seed)
    state = ENGINE.new_game(players, seed, options)
    log = []
    now = 1_000.0
    for _ in range(5_000):
        if ENGINE.outcome(state) is not None:
            break
        seat, action = choose(ENGINE, state, chooser)
        if seat is not None and chooser.random() < 0.1 and (more := extra(state, seat, chooser)) is not None:
            try:
                state, _ = ENGINE.apply(state, seat, more, now)
                log.append((seat, more, now))
            except IllegalAction:
                pass
            continue
        now += 1.0
        state, _ = ENGINE.apply(state, seat, action, now)
        log.append((seat, action, now))
        assert sound(state) == [], (action, sound(state))
        assert json.loads(json.dumps(state)) == state
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    if state["turn"] is not None:
        assert state["turn"]["round"] <= options["rounds"]
    replayed = ENGINE.new_game(players, seed, options)
    for seat, action, at in log:
        replayed, _ = ENGINE.apply(replayed, seat, action, at)
    assert replayed == state
