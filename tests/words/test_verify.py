"""One rule check per action kind (issue 22 item 2): every kind of the schema has its check in
VERIFY and its rule in HANDLERS, and on seeded games what `legal_actions` lists is what those
checks accept, among every action a seat could send, but for the few kept off the list by
design (see `unlisted_by_design`)."""

from __future__ import annotations

import json
import random
from typing import Any, get_args

from games.core import Action, IllegalAction, State
from games.words import ENGINE, schema
from games.words.ai import POLICY
from games.words.cards import ALL_FACES, LETTERS
from games.words.engine import HANDLERS, VERIFY
from games.words.state import board, letters_in
from games.words.tips import SHAPES
from tests.computers import versus_random
from tests.playout import random_playout

#: (players, seed) of the random games and of the computers' games the states come from.
RANDOM_GAMES = [(2 + seed % 5, seed) for seed in range(10)]
COMPUTER_GAMES = [(2 + seed % 3, seed) for seed in range(3)]
#: Every n-th state of a game is checked.
EVERY = 3


def test_every_action_kind_has_its_check_and_its_rule() -> None:
    assert set(VERIFY) == set(HANDLERS) == set(get_args(schema.Kind))


def every_action(state: State) -> list[Action]:
    """What a seat could send, whatever its hand and the phase (payloads from the whole deck and
    every place in the word); `pick`, the hand menu's first half of a move, is never listed."""
    size = len(board(state)["wip"])
    out: list[Action] = [{"type": "play", "card": letter, "at": at} for letter in LETTERS for at in range(size + 1)]
    out += [{"type": "backspace", "index": i} for i in range(size)]
    out += [{"type": "editor", "from": i, "to": j} for i in range(size) for j in range(size)]
    out += [{"type": "skip"}] + [{"type": "skip", "card": f} for f in sorted(set(ALL_FACES.values()))]
    out += [{"type": "ask", "letter": letter} for letter in LETTERS]
    out += [{"type": "trash"}] + [{"type": "trash", "letter": letter} for letter in LETTERS]
    numbers = sorted({c["n"] for c in state["changes"]} | {c["n"] for c in state["closed"]})
    out += [{"type": "challenge", "change": n} for n in numbers]
    out += [{"type": "rps", "shape": s} for s in SHAPES]
    kinds = ("steal", "no_steal", "stand", "claim", "keep", "tip", "no_tip", "close", "coin", "wordblitz")
    return out + [{"type": kind} for kind in kinds]


def unlisted_by_design(state: State, action: Action) -> bool:
    """Accepted by the checks but not listed: `legal_actions` knows no time, so it lists a
    challenge of the last change only and Tip only while its word is unchanged (earlier changes
    and a changed word stay open for their minimum seconds); with no letter in the discard pile
    Trash Talk fizzles whatever letter is named, and only the bare action is listed."""
    if action["type"] == "challenge":
        return not any(c["n"] == action["change"] and c["last"] for c in state["changes"])
    if action["type"] == "tip":
        return bool(state["tip"] and state["tip"]["changed"])
    return action["type"] == "trash" and "letter" in action and not letters_in(state["discard"])


def accepted(state: State, seat: int, action: Action) -> bool:
    try:
        ENGINE.verify(state, seat, action)
    except IllegalAction:
        return False
    return True


def key(action: Action) -> str:
    return json.dumps(action, sort_keys=True)


def sampled_states() -> list[State]:
    states: list[State] = []
    for players, seed in RANDOM_GAMES:
        states += random_playout(ENGINE, players, seed).states[::EVERY]
    for players, seed in COMPUTER_GAMES:
        run = versus_random(ENGINE, POLICY, seed, players, set(range(players)), keep=10_000,
                            sample=lambda _state, _wait, _chooser: True)
        states += [sample.state for sample in run.samples[::EVERY]]
    return states


def test_legal_actions_are_what_the_checks_accept_on_seeded_games() -> None:
    seen: set[str] = set()
    chooser = random.Random(22)
    for state in sampled_states():
        before = json.dumps(state, sort_keys=True)
        for seat in range(state["players"]):
            listed = ENGINE.legal_actions(state, seat)
            assert all(accepted(state, seat, a) for a in listed)
            passing = [a for a in every_action(state) if accepted(state, seat, a)]
            assert {key(a) for a in passing if not unlisted_by_design(state, a)} == {key(a) for a in listed}
            seen |= {a["type"] for a in listed}
            for action in chooser.sample(listed, min(2, len(listed))):  # and the rule takes it
                ENGINE.apply(state, seat, action, state["clock"])
        assert json.dumps(state, sort_keys=True) == before  # checking never changes the state
    assert seen >= {"play", "backspace", "editor", "skip", "ask", "no_steal", "trash", "challenge", "claim",
                    "keep", "tip", "coin", "wordblitz"}


def test_a_check_refuses_what_its_rule_refuses_with_the_same_words() -> None:
    """The rule runs its check first: a refused action gets the check's sentence and rule."""
    state = random_playout(ENGINE, 3, 4).states[5]
    seat = (state["phase"]["seat"] + 1) % 3
    for action in ({"type": "play", "card": "E", "at": 0}, {"type": "claim"}, {"type": "coin"},
                   {"type": "stand"}, {"type": "rps", "shape": "rock"}, {"type": "dance"}):
        refusals: list[tuple[str, Any]] = []
        for attempt in (ENGINE.verify, lambda s, seat, a: ENGINE.apply(s, seat, a, s["clock"])):
            try:
                attempt(state, seat, action)
            except IllegalAction as exc:
                refusals.append((exc.message, exc.rule))
        assert len(refusals) == 2 and refusals[0] == refusals[1], action

