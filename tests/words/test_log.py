"""The engine gives facts, the table gives words: every event of random games gets a line
with the players' names, every ending a reason, every refusal a rule of the spec; How Do
You Say…? tells the table nothing about who holds a letter; the rule modules form no
import cycle."""

from __future__ import annotations

import ast
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, get_args

import pytest

from cogs.table.ui import Seat, TableInfo
from cogs.words.ui import EVENT_WORDS, WordsUI
from games.core import Event, IllegalAction, State
from games.words import ENGINE, schema
from games.words.cards import HOW_DO_YOU_SAY, face, word_value
from games.words.ending import finish
from games.words.engine import HANDLERS
from tests.playout import random_playout
from tests.words.support import A, B, C, act, begin, build, public_events

UI = WordsUI()
INFO = TableInfo(game_id=1, seats=[Seat(i, 100 + i, f"Player{i + 1}") for i in range(6)])
PACKAGE = Path(__file__).resolve().parents[2] / "games" / "words"
RULES_TEXT = Path(__file__).resolve().parents[2] / "games" / "words" / "rules.md"
#: What must never stand in a sentence for people: seat numbers, unfilled placeholders.
NOT_WORDS = re.compile(r"Seat |seat \d|\{|\}|\bNone\b")
#: Public events that need not name their player (the line before names them).
UNNAMED = {"fizzle", "sting", "blitz_bust"}
GAMES = [(players, seed) for players in range(2, 7) for seed in range(8)]


def rule_numbers() -> set[str]:
    """The numbered rules of §3 ("Rules as enforced") of the spec."""
    if not RULES_TEXT.exists():
        pytest.skip(f"the rules text is not at {RULES_TEXT}")
    section = RULES_TEXT.read_text(encoding="utf-8").split("## 3.", 1)[1].split("## 4.", 1)[0]
    return set(re.findall(r"^(\d+)\. ", section, re.M))


def replayed(players: int, seed: int) -> tuple[list[State], list[Event]]:
    """A random game's states and every event it made (timeouts included)."""
    run = random_playout(ENGINE, players, seed)
    state = ENGINE.new_game(players, seed)
    states, events = [state], []
    for seat, action, now in run.log:
        state, made = ENGINE.apply(state, seat, action, now)
        states.append(state)
        events += made
    return states, events


PLAYED = [replayed(players, seed) for players, seed in GAMES]


def emitted_types() -> set[str]:
    """Every event type the engine's source can emit (`Event("type", …)`)."""
    found = set()
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Event"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                found.add(node.args[0].value)
    return found


def test_every_event_the_engine_can_emit_is_worded() -> None:
    assert emitted_types() == set(EVENT_WORDS) == set(schema.EVENTS)


def test_every_action_kind_of_the_schema_has_its_rule() -> None:
    assert set(HANDLERS) == set(get_args(schema.Kind))


def test_every_event_of_random_games_gets_a_line_with_names() -> None:
    events = [e for _, made in PLAYED for e in made]
    for players, seed in GAMES[::5]:  # leavers and the AFK drop, mid-game
        states, _ = PLAYED[GAMES.index((players, seed))]
        for state in states[len(states) // 3::max(1, len(states) // 4)]:
            if ENGINE.outcome(state) is None:
                events += ENGINE.forfeit(state, random.Random(seed).randrange(players), 1.0)[1]
    seen: set[str] = set()
    for event in events:
        line = UI.event_line(event.to_json(), INFO)
        assert line and not NOT_WORDS.search(line), f"{event}: {line!r}"
        if event.to is None and "seat" in event.data and event.type not in UNNAMED:
            assert INFO.name_of(event.data["seat"]) in line, f"{event}: {line!r}"
        if event.to is not None:  # a private note speaks to its reader
            assert "You" in line or "you" in line, line
        seen.add(event.type)
    assert seen >= {"play", "challenge", "skip", "draw", "drew", "immediate", "claim", "stalemate",
                    "forced_skip", "ask", "asked", "game_over", "tiebreak", "left", "picked"}, seen


def test_every_ending_is_worded_with_the_winners_name() -> None:
    hows = set()
    for states, _ in PLAYED:
        outcome = ENGINE.outcome(states[-1])
        assert outcome is not None
        reason = UI.result_reason(outcome.to_json(), INFO)
        assert reason and not NOT_WORDS.search(reason), reason
        winner = outcome.ranks.index(0)
        assert outcome.detail["winner"] == winner and INFO.name_of(winner) in reason, reason
        hows.add(outcome.detail["tiebreak"])
    assert {None, "coin"} <= hows


def test_a_win_on_letters_says_so_with_the_counts() -> None:
    state = build(players=3)
    for seat, lengths in ((A, (5, 5)), (B, (4, 4)), (C, (7,))):  # 2 points each
        for n in lengths:
            cards = state["boxed"][:n]
            del state["boxed"][:n]
            state["stacks"][seat].append(cards)
            state["score"][seat] += word_value(n)
    finish(state, "last_card", [])
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.ranks == (0, 1, 2)
    assert outcome.detail == {"winner": A, "tiebreak": "letters", "tied": [A, B, C], "letters": [10, 8, 7]}
    assert UI.result_reason(outcome.to_json(), INFO) == "The last card was drawn. Player1 wins on letters, 10-8-7."


def test_point_counts_are_singular_and_plural() -> None:
    line = UI.event_line({"type": "claim", "data": {"seat": 0, "word": "STAR", "points": 1}, "to": None}, INFO)
    assert line == "Player1 takes STAR for 1 point."
    line = UI.event_line({"type": "claim", "data": {"seat": 1, "word": "FAMISHED", "points": 3}, "to": None}, INFO)
    assert line == "Player2 takes FAMISHED for 3 points."


# ----- refusals ----------------------------------------------------------------------

GARBAGE: list[dict[str, Any]] = [
    {"type": "nonsense"}, {"type": "play"}, {"type": "play", "card": "S"}, {"type": "play", "card": 5, "at": 0},
    {"type": "play", "card": "S", "at": 99}, {"type": "backspace", "index": 50}, {"type": "editor", "from": 0},
    {"type": "skip", "card": None}, {"type": "ask", "letter": "?"}, {"type": "trash", "letter": "Q"},
    {"type": "steal"}, {"type": "rps", "shape": "lizard"}, {"type": "tip"}, {"type": "claim"},
    {"type": "pick", "card": {}}, {"type": "coin"}, {"type": "challenge"}, {"type": "stand"},
]


def test_every_refusal_cites_a_rule_of_the_spec_and_names_no_seat() -> None:
    rules = rule_numbers()
    chooser = random.Random(3)
    cited: set[str] = set()
    for states, _ in PLAYED[::4]:
        players = states[0]["players"]
        listed = {json.dumps(a, sort_keys=True) for state in states[::7] for seat in range(players)
                  for a in ENGINE.legal_actions(state, seat)}
        pool = [json.loads(a) for a in sorted(listed)] + GARBAGE
        for state in states[:: max(1, len(states) // 30)]:
            if ENGINE.outcome(state) is not None:
                continue
            for seat in range(players):
                for action in chooser.sample(pool, min(25, len(pool))):
                    try:
                        ENGINE.apply(state, seat, action, 1.0)
                    except IllegalAction as exc:
                        assert exc.rule in rules, f"{action}: {exc.message!r} cites rule {exc.rule!r}"
                        text = exc.render(INFO.name_of)
                        assert not NOT_WORDS.search(text), text
                        cited.add(exc.rule)
    assert {"4", "8", "9"} <= cited, cited


def test_every_refusal_in_the_source_names_its_rule() -> None:
    rules = rule_numbers()
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction":
                rule = next((k.value for k in node.keywords if k.arg == "rule"), None)
                assert rule is not None, f"{path.name}:{node.lineno} refuses without a rule"
                if isinstance(rule, ast.Constant):
                    assert rule.value in rules, f"{path.name}:{node.lineno} cites {rule.value!r}"


def test_not_your_turn_says_whose_turn_it_is() -> None:
    state = build(wip="TAR", hands={B: ["S"]})
    try:
        ENGINE.apply(state, B, {"type": "play", "card": "S", "at": 0}, 1.0)
    except IllegalAction as exc:
        assert (exc.rule, exc.seats) == ("4", {"turn": A})
        assert exc.render(INFO.name_of) == "It is not your turn: it is Player1's."
    else:  # pragma: no cover - the assertion explains
        raise AssertionError("B played out of turn")


# ----- How Do You Say…? tells the table nothing about who holds a letter --------------

def asking(holder: bool) -> State:
    """A draws How Do You Say…? and will ask for Z, which is not in the pile; B holds one or
    not (the rest of every hand is the same either way)."""
    state = build(hands={B: ["Z"] if holder else ["E"]}, draw=["E", HOW_DO_YOU_SAY], turn=C)
    state, _ = begin(state, A)
    assert state["phase"]["step"] == "ask"
    return state


def public_side(state: State) -> tuple[Any, ...]:
    waits = [(w.seat, w.key, w.timeout, w.default) for w in ENGINE.to_act(state)]
    table = UI.table(ENGINE.view(state, None), INFO)
    return ENGINE.view(state, None), waits, table.card.description, table.card.fields


def test_how_do_you_say_looks_the_same_to_the_table_with_or_without_a_holder() -> None:
    held, nobody = asking(True), asking(False)
    assert public_side(held) == public_side(nobody)
    held, held_events = act(held, A, {"type": "ask", "letter": "Z"})
    nobody, nobody_events = act(nobody, A, {"type": "ask", "letter": "Z"})
    assert public_events(held_events) == public_events(nobody_events) == [("ask", {"seat": A, "in_pile": False})]
    assert public_side(held) == public_side(nobody)
    # only the asker learns the difference
    assert [UI.event_line(e.to_json(), INFO) for e in held_events if e.to == (A,)] == \
        ["You asked for Z: it is not in the draw pile, but a player holds one. Steal it?"]
    assert [UI.event_line(e.to_json(), INFO) for e in nobody_events if e.to == (A,)] == \
        ["You asked for Z: it is not in the draw pile, and nobody holds one."]
    assert ENGINE.view(held, A)["steal_held"] is True and ENGINE.view(nobody, A)["steal_held"] is False
    held, held_events = act(held, A, {"type": "no_steal"})
    nobody, nobody_events = act(nobody, A, {"type": "no_steal"})
    assert public_events(held_events) == public_events(nobody_events) == []
    assert public_side(held) == public_side(nobody)
    assert held["phase"]["step"] == "act" and "Z" not in [face(c) for c in held["hands"][A]]


def test_a_steal_is_public_and_names_the_letter() -> None:
    state, _ = act(asking(True), A, {"type": "ask", "letter": "Z"})
    state, events = act(state, A, {"type": "steal"})
    assert public_events(events) == [("steal", {"seat": A, "victim": B, "letter": "Z"})]
    assert UI.event_line(events[0].to_json(), INFO) == "Player1 stole Z from Player2."


# ----- one module owns the turn order ------------------------------------------------

def imports_of(path: Path) -> set[str]:
    """The games.words modules a module imports (`from games.words import x` included)."""
    found = set()
    modules = {p.stem for p in PACKAGE.glob("*.py")}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == "games.words":
            found |= {a.name for a in node.names if a.name in modules}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("games.words."):
            found.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[2] for a in node.names if a.name.startswith("games.words.")}
    return found


def test_the_rule_modules_import_no_cycle() -> None:
    graph = {p.stem: imports_of(p) for p in PACKAGE.glob("*.py")}
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            raise AssertionError("import cycle: " + " -> ".join([*path[path.index(module):], module]))
        if module in done:
            return
        for imported in sorted(graph.get(module, ())):
            visit(imported, [*path, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
    assert "turns" not in graph["windows"] | graph["ending"] | graph["actions"]


@pytest.mark.parametrize("module", sorted(p.stem for p in PACKAGE.glob("*.py")))
def test_each_module_imports_first_on_its_own(module: str) -> None:
    name = "games.words" if module == "__init__" else f"games.words.{module}"
    done = subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True, text=True,
                          cwd=PACKAGE.parents[1], check=False)
    assert done.returncode == 0, done.stderr
