"""Each game's declared contract (`games/<game>/schema.py`, issue 22) against what its engine
really does, and the type check that makes the contract bind.

mypy checks the engine's `view` and everything reading it (policy, UI, pictures) against the
schema at lint time; what mypy cannot see — the payload of each `Event`, the actions listed
by `legal_actions` — is checked here on seeded games, field by field, nested TypedDicts,
Literals and lists included. A game joins by having a `schema.py` (see docs/engines.md).
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import shutil
import types
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from games.core import Engine
from games.registry import ENGINES, load_builtin
from tests.playout import choose

ROOT = Path(__file__).resolve().parents[1]
load_builtin()


def schema_module(name: str) -> str | None:
    """`games.<game>.schema`, where the game's package declares one."""
    package = type(ENGINES[name]).__module__.rpartition(".")[0]
    found = package.count(".") >= 1 and importlib.util.find_spec(f"{package}.schema")
    return f"{package}.schema" if found else None


#: The games that declare a schema; the others are still to do (docs/engines.md).
DECLARED = sorted(name for name in ENGINES if schema_module(name))
SEEDS = range(12)
#: Options the seeded games take in turn, where the defaults leave parts of the schema unplayed
#: (Tarot's League, gallowglass suit and Aces of Allegiance).
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "tarot": [{}, {"mode": "league", "gallowglass": True}, {"allegiances": True},
              {"allegiances": True, "gallowglass": True, "allegiance_trumps_score": True}],
    # every variant at once (V1-V7: horses, magic swords, double defence, two swords, archers,
    # potions, capture the flag) every other seed
    "kniggits": [{}, {"horses": True, "magic_swords": True, "double_defence": True, "two_swords": True,
                      "archers": True, "potions": 4, "scenario": "flag"}],
}


@cache
def fields(typed: Any) -> dict[str, Any]:
    return get_type_hints(typed)


def mismatches(value: Any, hint: Any, path: str) -> Iterator[str]:
    """Where `value` (JSON) differs from the type `hint`: missing or undeclared keys, a value
    of the wrong kind, a string outside its Literal."""
    origin = get_origin(hint)
    if hint is Any:
        return
    if is_typeddict(hint):
        if not isinstance(value, dict):
            yield f"{path}: {value!r} is not an object"
            return
        hints = fields(hint)
        yield from (f"{path}.{key}: missing" for key in sorted(hint.__required_keys__ - value.keys()))
        yield from (f"{path}.{key}: not declared" for key in sorted(value.keys() - hints.keys()))
        for key in sorted(value.keys() & hints.keys()):
            yield from mismatches(value[key], hints[key], f"{path}.{key}")
    elif origin in (Union, types.UnionType):
        options = [option for option in get_args(hint) if (value is None) == (option is type(None))]
        found = [list(mismatches(value, option, path)) for option in options]
        if all(found):  # none fits: say how the closest one differs
            yield from min(found, key=len, default=[f"{path}: {value!r} is not {hint}"])
    elif origin is Literal:
        if value not in get_args(hint):
            yield f"{path}: {value!r} is not one of {get_args(hint)}"
    elif origin is list:
        if not isinstance(value, list):
            yield f"{path}: {value!r} is not a list"
            return
        for i, item in enumerate(value):
            yield from mismatches(item, get_args(hint)[0], f"{path}[{i}]")
    elif origin is dict:
        if not isinstance(value, dict):
            yield f"{path}: {value!r} is not an object"
            return
        key_type, value_type = get_args(hint)
        for key, item in value.items():
            yield from mismatches(key, key_type, f"{path} key")
            yield from mismatches(item, value_type, f"{path}[{key!r}]")
    elif hint is type(None):
        if value is not None:
            yield f"{path}: {value!r} is not null"
    elif hint in (int, float):
        if isinstance(value, bool) or not isinstance(value, (int, float) if hint is float else int):
            yield f"{path}: {value!r} is not {hint.__name__}"
    elif not isinstance(value, hint):
        yield f"{path}: {value!r} is not {hint.__name__}"


def played(engine: Engine, seed: int) -> Iterator[tuple[dict[str, Any], list[Any]]]:
    """Each state of a seeded random game (timeouts included) with the events that made it."""
    chooser = random.Random(seed)
    players = chooser.randint(engine.min_players, engine.max_players)
    variants = VARIANTS.get(engine.name, [{}])
    state = engine.new_game(players, seed, variants[seed % len(variants)])
    events: list[Any] = []
    now = 1_000.0
    while True:
        yield state, events
        if engine.outcome(state) is not None:
            return
        seat, action = choose(engine, state, chooser)
        now += chooser.choice((0.5, 2.0, 30.0))
        state, events = engine.apply(state, seat, action, now)


@pytest.mark.parametrize("name", DECLARED)
def test_events_views_and_listed_actions_keep_the_schema(name: str) -> None:
    engine = ENGINES[name]
    schema = importlib.import_module(str(schema_module(name)))
    assert set(schema.EVENTS) == set(get_args(schema.EventKind)), "the catalogue lists every event kind"
    assert set(schema.ACTIONS) == set(get_args(schema.Kind)), "every action kind has its payload"
    wrong: set[str] = set()
    seen: set[str] = set()
    for seed in SEEDS:
        for state, events in played(engine, seed):
            for event in events:
                seen.add(event.type)
                payload = schema.EVENTS.get(event.type)
                if payload is None:
                    wrong.add(f"event {event.type!r} is not in the catalogue")
                else:
                    wrong.update(mismatches(event.data, payload, f"event {event.type}"))
            wrong.update(mismatches(engine.view(state, None), schema.PublicView, "public view"))
            for seat in range(state["players"]):
                wrong.update(mismatches(engine.view(state, seat), schema.SeatView, f"seat {seat}'s view"))
                for action in engine.legal_actions(state, seat):
                    payload = schema.ACTIONS.get(action["type"])
                    if payload is None:
                        wrong.add(f"action {action['type']!r} is not a kind of the schema")
                    else:
                        wrong.update(mismatches(action, payload, f"action {action['type']}"))
    assert sorted(wrong) == []
    assert seen, "the games emitted events"


def test_the_shape_check_sees_a_renamed_key() -> None:
    from games.hallway import schema
    offer = {"maker": 0, "payer": 1, "amount": 5}
    assert list(mismatches(offer, schema.PendingOffer, "offer")) == []
    renamed = {"maker": 0, "payer": 1, "sum": 5}
    assert list(mismatches(renamed, schema.PendingOffer, "offer")) == ["offer.amount: missing",
                                                                       "offer.sum: not declared"]
    assert list(mismatches({"seat": 0, "roll": "4"}, schema.LastRoll, "last")) == ["last.roll: '4' is not int"]
    assert list(mismatches({"how": "squeeze"}, schema.Passed, "passed")) == [
        "passed.how: 'squeeze' is not one of ('final', 'deal')"]


#: (game, a key of its PublicView, the modules that build or read it: each must fail).
RENAMED = [
    ("hallway", "pos: list[int]", {"games/hallway/views.py", "games/hallway/ai.py", "cogs/hallway/ui.py",
                                   "cogs/hallway/render.py"}),
    ("words", "scores: list[int]", {"games/words/views.py", "cogs/words/table.py", "cogs/words/render.py"}),
    ("tarot", "trick: Trick | None", {"games/tarot/views.py", "cogs/tarot/ui.py"}),
    # a private SeatView apart from the table's (`SeatView.` names it): its builder and readers fail
    ("tarot", "SeatView.legal: list[str]", {"games/tarot/views.py", "games/tarot/ai.py", "cogs/tarot/ui.py"}),
    # a nested key (a call, in the view's calls and in each finished hand of its history): views.py
    # builds the nested parts key by key, so it fails though no screen reads the key
    ("tarot", "CallMade.period: int", {"games/tarot/views.py"}),
    ("fencing", "pieces: dict[str, PieceView]", {"games/fencing/views.py", "games/fencing/ai_plan.py",
                                                 "cogs/fencing/table.py", "cogs/fencing/wording.py",
                                                 "cogs/fencing/render.py"}),
    # a nested key (a player's stamps of a bumper), built key by key in views.py
    ("fencing", 'Stamps.open: Literal["self", "bot"] | None', {"games/fencing/views.py"}),
    # a PublicView key the computer reads through SeatView (PublicView plus `me`), so mypy names SeatView
    ("kniggits", "SeatView.kniggits: list[Kniggit]", {"games/kniggits/views.py", "games/kniggits/ai_read.py",
                                                      "games/kniggits/ai_tactics.py", "cogs/kniggits/wording.py"}),
    # `me` of a seat's view: built in views.py, read by the computer
    ("kniggits", "SeatItems.gesture: NotRequired[GesturePanel | None]", {"games/kniggits/views.py",
                                                                         "games/kniggits/ai.py",
                                                                         "games/kniggits/ai_gestures.py"}),
    # the pictures read the view in one place, board.facts (look_of for a kniggit), into their own
    # types (cogs/kniggits/shown.py): a key renamed there fails the picture modules' lint
    ("kniggits", "last_move: LastMove | None", {"games/kniggits/views.py", "cogs/kniggits/board.py",
                                                "cogs/kniggits/table.py"}),
    ("kniggits", "Kniggit.mounted: bool  # V1", {"games/kniggits/views.py", "cogs/kniggits/board.py"}),
    # a NotRequired key the panel reads with `.get` only: once it is renamed, mypy alone types
    # `me.get("locked")` as `object` in silence; tools/mypy_typeddict_get.py (pyproject's `plugins`) fails it
    ("kniggits", "SeatItems.locked: NotRequired[bool]  # this seat locked the open secret round",
     {"games/kniggits/views.py", "cogs/kniggits/panel.py"}),
    # a table option: built in views.options_view, read by the computer and the /kniggits commands
    ("kniggits", "Options.archers: bool", {"games/kniggits/views.py", "games/kniggits/ai_tactics.py",
                                           "cogs/kniggits/commands.py"}),
    # the sixth game, written by docs/engines.md's checklist alone (tests/engines/sticks)
    ("sticks", "sticks: int", {"tests/engines/sticks/views.py", "tests/engines/sticks/ai.py",
                               "tests/engines/sticks_ui/ui.py"}),
]


@pytest.mark.parametrize(("game", "key", "failing"), RENAMED, ids=[game for game, _, _ in RENAMED])
def test_a_key_renamed_in_a_view_fails_lint(game: str, key: str, failing: set[str], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The proof that a schema binds: rename one key of a game's `PublicView` (or of the view
    `key` names, `SeatView.legal: …`) and the type check of `tasks.py lint` fails in the engine
    code that builds the view and in the policy, UI and picture code that read it. mypy runs on
    a shadow copy of schema.py (the tree is not touched), from a copy of lint's cache, so only
    that game's modules are checked again."""
    from mypy import api

    view, dot, field = key.partition(".")
    if not dot or not view.isidentifier():
        view, field = "PublicView", key
    source = ROOT / f"{str(schema_module(game)).replace('.', '/')}.py"
    text = source.read_text(encoding="utf-8")
    line = f"    {field}\n"
    assert text.count(line) == 1
    name = field.split(":")[0]
    shadow = tmp_path / "schema.py"
    shadow.write_text(text.replace(line, line.replace(name, f"{name}_renamed", 1)), encoding="utf-8")
    cache = tmp_path / "cache"
    if (ROOT / ".mypy_cache").is_dir():
        shutil.copytree(ROOT / ".mypy_cache", cache)
    monkeypatch.chdir(ROOT)  # [tool.mypy] files are relative to the project
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(cache),
                                "--shadow-file", str(source), str(shadow)])
    assert status == 1, out + err
    assert {row.split(":")[0] for row in out.splitlines() if ": error:" in row} >= failing, out
    # a read names the key as missing; a view built key by key, as one the literal does not declare
    named = (f'TypedDict "{view}" has no key "{name}"', f'Extra key "{name}" for TypedDict "{view}"')
    assert any(message in out for message in named), out


def test_lint_checks_every_module_strictly() -> None:
    """A module added under games/, cogs/, runtime/ or storage/ (or bot.py) is in the type check
    of `tasks.py lint`, with the strict flags, without anyone listing it in pyproject."""
    import io

    from mypy.config_parser import parse_config_file
    from mypy.options import Options

    options = Options()
    parse_config_file(options, lambda: None, str(ROOT / "pyproject.toml"), io.StringIO(), io.StringIO())
    checked = [ROOT / entry for entry in options.files or []]
    unchecked, lax = [], []
    for path in sorted([ROOT / "bot.py", *(p for top in ("games", "cogs", "runtime", "storage")
                                           for p in (ROOT / top).rglob("*.py"))]):
        if not any(path == entry or entry in path.parents for entry in checked):
            unchecked.append(str(path.relative_to(ROOT)))
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        strict = options.clone_for_module(module)
        if not (strict.disallow_untyped_defs and strict.disallow_any_generics and strict.warn_return_any):
            lax.append(module)
    assert unchecked == [] and lax == []
    # a new module (not yet written) is strict too: the overrides name packages, not files
    assert options.clone_for_module("games.newgame.engine").disallow_untyped_defs
