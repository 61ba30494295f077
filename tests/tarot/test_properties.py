"""Conference / League invariants over random legal games (hypothesis): every card is
somewhere exactly once, every player plays 19 cards a hand, the mover always has a legal
card, a standard hand settles to 149, game points always sum to zero, and a replay of the
same seed and actions gives the same game."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.tarot import ENGINE
from games.tarot.cards import DECK, FOOL
from games.tarot.hand import TRICKS_PER_HAND
from games.tarot.scoring import FULL_HAND

#: A whole game is ~310 steps: a quarter of the profile's examples (37 in CI, 750 thorough).
GAMES = max(10, settings.default.max_examples // 4)

OPTIONS = st.fixed_dictionaries({
    "mode": st.sampled_from(["classic", "league"]),
    "allegiances": st.booleans(),
    "gallowglass": st.booleans(),
    "allegiance_trumps_score": st.booleans(),
})


def cards_in_play(state: dict[str, Any]) -> Counter[str]:
    hand = state["hand"]
    held = [c for h in hand["hands"] for c in h]
    played = [card for trick in hand["tricks"] for _s, card, _a in trick["plays"]]
    return Counter(held + played + hand["discard"])


def check_hand(state: dict[str, Any]) -> None:
    hand = state["hand"]
    assert cards_in_play(state) == Counter(DECK), "a card is lost or doubled"
    per_seat = Counter(seat for trick in hand["tricks"] for seat, _c, _a in trick["plays"])
    sizes = [len(h) for h in hand["hands"]]
    if hand["phase"] != "discard":
        assert all(per_seat[s] + sizes[s] == TRICKS_PER_HAND for s in range(4))
    for trick in hand["tricks"]:
        assert len({seat for seat, _c, _a in trick["plays"]}) == len(trick["plays"]) <= 4


@settings(max_examples=GAMES, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), options=OPTIONS, chooser_seed=st.integers(0, 2**32))
def test_random_games_keep_the_invariants(seed: int, options: dict[str, Any], chooser_seed: int) -> None:
    chooser = random.Random(chooser_seed)
    state = ENGINE.new_game(4, seed, options)
    log: list[tuple[int | None, dict[str, Any]]] = []
    hands_seen = 0
    while (waits := ENGINE.to_act(state)):
        wait = chooser.choice(waits)
        if wait.seat is None or chooser.random() < 0.02:  # the game's own timer, or a timeout
            action = dict(wait.default or {})
        else:
            legal = ENGINE.legal_actions(state, wait.seat)
            assert legal, f"seat {wait.seat} is awaited with nothing legal to do"
            action = chooser.choice(legal)
        state, _events = ENGINE.apply(state, wait.seat, action, 0.0)  # type: ignore[arg-type]
        log.append((wait.seat, action))
        if not state["over"] and state["abandoned"] is None:
            check_hand(state)
        if len(state["history"]) > hands_seen:
            entry = state["history"][-1]
            hands_seen += 1
            assert sum(entry["swing"]) == 0
            assert sum(entry["tricks"]) == TRICKS_PER_HAND
            if not options["allegiances"] and not entry["g_suit"]:
                assert sum(entry["totals"]) == FULL_HAND
            payment = entry["payment"]
            if payment is not None and payment["card"] == FOOL:  # surrendered: that team captured nothing
                assert entry["card_points"][payment["from"]] == 0
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert sum(state["points"]) == 0
    if state["abandoned"] is None:
        assert len(state["history"]) == 4
        assert (outcome.ranks[0] == 0) == (state["points"][0] >= state["points"][1])
    # the same seed and actions replay to the same game
    replay = ENGINE.new_game(4, seed, options)
    for seat, action in log:
        replay, _ = ENGINE.apply(replay, seat, action, 0.0)  # type: ignore[arg-type]
    assert replay == state
