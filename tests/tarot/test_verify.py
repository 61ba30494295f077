"""One rule check per action kind (issue 22 item 2): every kind of the schema has its check in
VERIFY and its rule in HANDLERS, and on seeded games — every variant, AFK votes included —
what `legal_actions` lists is what those checks accept among every action a seat could send,
but for a call once the holder passed (see `unlisted_by_design`)."""

from __future__ import annotations

import copy
import itertools
import json
import random
from typing import get_args

from games.core import Action, IllegalAction, State
from games.tarot import ENGINE, schema
from games.tarot.cards import SUITS
from games.tarot.engine import HANDLERS, VERIFY, phase
from tests.playout import random_playout

#: (seed, options): classic, League, Allegiances (its windows and calls), gallowglass.
GAMES = [(seed, options) for seed, options in enumerate([
    {}, {"mode": "league"}, {"allegiances": True}, {"gallowglass": True},
    {"allegiances": True, "gallowglass": True, "mode": "league"}, {"allegiances": True},
])]
#: Every n-th state of a game is checked, and every state of the dealer's steps and the windows.
EVERY = 4
RARE = ("discard", "nominate", "window")


def test_every_action_kind_has_its_check_and_its_rule() -> None:
    assert set(VERIFY) == set(HANDLERS) == set(get_args(schema.Kind))


def every_action(state: State, seat: int) -> list[Action]:
    """What a seat could send: any two of its cards, any card, suit, call or vote, a close."""
    held = state["hand"]["hands"][seat]
    out: list[Action] = [{"type": "discard", "cards": list(pair)} for pair in itertools.combinations(held, 2)]
    out += [{"type": "nominate", "suit": suit} for suit in (*SUITS, "none")]
    out += [{"type": "play", "card": card} for card in held]
    out += [{"type": "call", "call": call} for call in ("ours", "yours", "pass")]
    out += [{"type": "vote", "vote": vote} for vote in ("continue", "abandon")]
    return [*out, {"type": "close"}]


def unlisted_by_design(state: State, action: Action) -> bool:
    """A holder who passed is offered no call any more, though the rule would still take one
    until the window closes (its length tells nothing, R14a)."""
    window = state["hand"]["window"]
    return action["type"] == "call" and window is not None and window["passed"]


def accepted(state: State, seat: int, action: Action) -> bool:
    try:
        ENGINE.verify(state, seat, action)
    except IllegalAction:
        return False
    return True


def key(action: Action) -> str:
    """Discards compare as sets of two cards."""
    return json.dumps({**action, "cards": sorted(action["cards"])} if "cards" in action else action, sort_keys=True)


def voting(state: State, seat: int) -> State:
    """`state` with `seat` flagged away and the table voting (its third timeout in a row)."""
    paused = copy.deepcopy(state)
    paused["afk"]["flagged"][seat] = True
    paused["vote"] = {"seat": seat, "votes": {str((seat + 1) % 4): "continue"}}
    return paused


def passed(state: State) -> State:
    """`state` with its window's holder (if any) having passed."""
    after = copy.deepcopy(state)
    after["hand"]["window"]["passed"] = True
    return after


def sampled_states() -> list[State]:
    states: list[State] = []
    for seed, options in GAMES:
        run = random_playout(ENGINE, 4, seed, options)
        sample = [state for i, state in enumerate(run.states) if i % EVERY == 0 or phase(state).name in RARE]
        states += sample + [voting(state, seed % 4) for state in sample[::10] if ENGINE.outcome(state) is None]
        states += [passed(state) for state in sample if phase(state).name == "window"]
    return states


def test_legal_actions_are_what_the_checks_accept_on_seeded_games() -> None:
    seen: set[str] = set()
    chooser = random.Random(22)
    for state in sampled_states():
        before = json.dumps(state, sort_keys=True)
        for seat in range(4):
            listed = ENGINE.legal_actions(state, seat)
            assert all(accepted(state, seat, a) for a in listed)
            passing = [a for a in every_action(state, seat) if accepted(state, seat, a)]
            assert {key(a) for a in passing if not unlisted_by_design(state, a)} == {key(a) for a in listed}
            seen |= {a["type"] for a in listed}
            for action in chooser.sample(listed, min(2, len(listed))):  # and the rule takes it
                ENGINE.apply(state, seat, action, 0.0)
        assert json.dumps(state, sort_keys=True) == before  # checking never changes the state
    assert seen == {"discard", "nominate", "play", "call", "vote"}


def test_a_refused_action_gets_the_checks_words_from_play() -> None:
    """`play` runs the kind's check first: the same sentence, whatever the kind or the seat."""
    state = random_playout(ENGINE, 4, 1, {"gallowglass": True}).states[3]
    for seat, action in itertools.product((0, 2, None, 9), ({"type": "discard", "cards": []}, {"type": "close"},
                                                           {"type": "vote", "vote": "continue"}, {"type": "dance"},
                                                           {"type": "play", "card": "T21"})):
        refusals: list[str] = []
        for attempt in (ENGINE.verify, lambda s, seat, a: ENGINE.apply(s, seat, a, 0.0)):
            try:
                attempt(state, seat, action)
            except IllegalAction as exc:
                refusals.append(exc.message)
        assert len(refusals) == 2 and refusals[0] == refusals[1], (seat, action)
