"""The same file names for the same jobs in every game (issue 22 item 2): each game's engine
package, interface package and tests folder hold the modules the tables in docs/engines.md
require, and none holds a module under another name for a job that has its name there (a
phase accessor in `common.py`, a private panel in `prompts.py`, builders in `helpers.py`).
The games are the built-in ones and Last Stick, the test-only sixth game built by the
checklist; the one-module test engines (tokens, shapes, race, pairs) are not packages, so
they have no rooms to name. A few modules still wait for their name; they are listed in
`LEFT` with why, and the list may only shrink."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from games.registry import BUILTIN_GAMES

ROOT = Path(__file__).resolve().parents[1]


def places(game: str) -> tuple[Path, Path, Path]:
    """A game's engine package, interface package and tests folder."""
    if game == "sticks":
        return ROOT / "tests/engines/sticks", ROOT / "tests/engines/sticks_ui", ROOT / "tests/sticks"
    return ROOT / "games" / game, ROOT / "cogs" / game, ROOT / "tests" / game


GAMES = (*BUILTIN_GAMES, "sticks")

#: The engine package's rooms every game has (docs/engines.md, "A game's files").
ENGINE_FILES = {
    "__init__.py": "exports ENGINE",
    "engine.py": "the Engine: setup, waits, legal_actions, play, view, result, secrets",
    "schema.py": "the declared contract: action kinds, the event catalogue, the views",
    "views.py": "what `view` returns, built key by key",
    "state.py": "the stored state: the opening state and the phase accessor `phase`",
    "rules.md": "the rules text the Rule button quotes",
}
#: The interface package's rooms every game has.
UI_FILES = {
    "__init__.py": "exports UI",
    "ui.py": "the GameUI: table, private, event_line, result_reason",
    "events.py": "the log: every event kind in words, and how a game ended",
    "render.py": "the pictures",
}
#: The tests every game has; the built-in ones have `BUILTIN_TESTS` too.
TEST_FILES = {
    "test_engine.py": "rules beyond the scenarios",
    "test_render.py": "the pictures",
}
BUILTIN_TESTS = {
    "test_scenarios.py": "the spec's acceptance scenarios",
    "test_properties.py": "invariants over random legal games",
    "test_ui.py": "the screens",
    "test_log.py": "the event wording",
    "test_verify.py": "each action kind's rule check and handler (VERIFY, HANDLERS)",
}

#: Names a job has had, or might be given, and the one name it has (file name -> its name).
ENGINE_ALIASES = {
    **dict.fromkeys(("common.py", "helpers.py", "util.py", "utils.py", "shared.py", "phase.py",
                     "phases.py", "setup.py"), "state.py"),
    **dict.fromkeys(("verify.py", "validate.py", "validation.py", "legal.py"), "checks.py"),
    **dict.fromkeys(("dispatch.py", "dispatcher.py"), "handlers.py"),
    **dict.fromkeys(("view.py", "public.py", "private.py"), "views.py"),
    **dict.fromkeys(("policy.py", "computer.py", "bot.py", "player.py"), "ai.py"),
    **dict.fromkeys(("hints.py", "hint.py", "why.py", "reasons.py"), "explain.py"),
    **dict.fromkeys(("contract.py", "types.py"), "schema.py"),
    **dict.fromkeys(("catalogue.py", "events.py"), "schema_events.py (or schema.py)"),
    **dict.fromkeys(("fixtures.py", "examples.py", "sample.py"), "samples.py"),
}
UI_ALIASES = {
    **dict.fromkeys(("screens.py", "interface.py", "cog.py"), "ui.py"),
    **dict.fromkeys(("log.py", "lines.py", "event_words.py", "log_lines.py"), "events.py"),
    **dict.fromkeys(("words.py", "text.py", "texts.py", "strings.py", "names.py"), "wording.py"),
    **dict.fromkeys(("pictures.py", "picture.py", "draw.py", "drawing.py"), "render.py"),
    **dict.fromkeys(("public.py", "screen.py", "table_screen.py"), "table.py"),
    **dict.fromkeys(("private.py", "hand.py", "dm.py", "prompts.py"),
                    "panel.py (a seat's private screen) or table_controls.py (the table's controls)"),
    **dict.fromkeys(("slash.py", "shortcuts.py"), "commands.py"),
    **dict.fromkeys(("colours.py", "colors.py", "palette.py", "style.py", "theme.py"), "look.py"),
}
TEST_ALIASES = {
    **dict.fromkeys(("helpers.py", "util.py", "utils.py", "common.py", "builders.py"), "support.py"),
    **dict.fromkeys(("test_invariants.py", "test_random.py"), "test_properties.py"),
    **dict.fromkeys(("test_rules.py",), "test_engine.py"),
    **dict.fromkeys(("test_pictures.py", "test_images.py", "test_picture.py"), "test_render.py"),
    **dict.fromkeys(("test_screens.py", "test_screen.py"), "test_ui.py"),
    **dict.fromkeys(("test_events.py", "test_wording.py", "test_lines.py"), "test_log.py"),
    **dict.fromkeys(("test_dispatch.py", "test_checks.py", "test_handlers.py", "test_schema.py"),
                    "test_verify.py"),
    **dict.fromkeys(("test_policy.py", "test_computer.py", "test_computers.py"), "test_ai.py"),
    **dict.fromkeys(("test_acceptance.py", "test_spec.py"), "test_scenarios.py"),
}

#: Modules whose job has its name but which keep another for now, each with why (only shrinks).
LEFT: dict[str, str] = {
    "cogs/tarot/sprites.py": "look.py's job (sizes, colours, the palette) with the card sprites; "
                             "renaming it edits render.py's imports, which another change holds",
}


def names(folder: Path) -> set[str]:
    return {path.name for path in folder.iterdir() if path.is_file() and not path.name.endswith(".pyc")}


def misnamed(folder: Path, aliases: dict[str, str]) -> dict[str, str]:
    """The folder's modules named as another job's alias (those listed in LEFT aside)."""
    left = {ROOT / name for name in LEFT}
    return {name: aliases[name] for name in names(folder) & set(aliases) if folder / name not in left}


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_package_has_every_room_under_its_name(game: str) -> None:
    folder = places(game)[0]
    assert set(ENGINE_FILES) <= names(folder), f"{folder} lacks {set(ENGINE_FILES) - names(folder)}"
    assert not misnamed(folder, ENGINE_ALIASES), f"{folder}: rename {misnamed(folder, ENGINE_ALIASES)}"
    if (folder / "explain.py").exists():
        assert (folder / "ai.py").exists(), "explain.py explains the computer player of ai.py"


@pytest.mark.parametrize("game", GAMES)
def test_the_interface_package_has_every_room_under_its_name(game: str) -> None:
    folder = places(game)[1]
    assert set(UI_FILES) <= names(folder), f"{folder} lacks {set(UI_FILES) - names(folder)}"
    assert not misnamed(folder, UI_ALIASES), f"{folder}: rename {misnamed(folder, UI_ALIASES)}"


@pytest.mark.parametrize("game", GAMES)
def test_the_tests_folder_has_every_file_under_its_name(game: str) -> None:
    engine, _, folder = places(game)
    wanted = set(TEST_FILES) | (set(BUILTIN_TESTS) if game in BUILTIN_GAMES else set())
    if (engine / "ai.py").exists():
        wanted.add("test_ai.py")
    assert wanted <= names(folder), f"{folder} lacks {wanted - names(folder)}"
    assert not misnamed(folder, TEST_ALIASES), f"{folder}: rename {misnamed(folder, TEST_ALIASES)}"


def package(folder: Path) -> str:
    return folder.relative_to(ROOT).as_posix().replace("/", ".")


@pytest.mark.parametrize("game", GAMES)
def test_each_shared_table_lives_in_the_room_named_for_it(game: str) -> None:
    """Where the rooms are split, each job's table is defined in its room: the phase accessor in
    `state.py` (the engine re-exports it), `VERIFY` in the engine or `checks.py`, `HANDLERS` in
    the engine or `handlers.py`, the event catalogue in `schema.py` or `schema_events.py`."""
    where = package(places(game)[0])
    engine = importlib.import_module(f"{where}.engine")
    schema = importlib.import_module(f"{where}.schema")
    accessor = importlib.import_module(f"{where}.state").phase
    assert getattr(engine, "phase", accessor) is accessor, "the engine's phase is state.py's, re-exported"
    homes = {"phase": (accessor.__module__, {f"{where}.state"})}
    verify = getattr(engine, "VERIFY", None) or importlib.import_module(f"{where}.checks").VERIFY
    handlers = getattr(engine, "HANDLERS", None) or importlib.import_module(f"{where}.handlers").HANDLERS
    homes["VERIFY"] = (defined_in(verify, where, "VERIFY"), {f"{where}.engine", f"{where}.checks"})
    homes["HANDLERS"] = (defined_in(handlers, where, "HANDLERS"), {f"{where}.engine", f"{where}.handlers"})
    homes["EVENTS"] = (defined_in(schema.EVENTS, where, "EVENTS"), {f"{where}.schema", f"{where}.schema_events"})
    wrong = {job: found for job, (found, allowed) in homes.items() if found not in allowed}
    assert not wrong, f"{game}: move {wrong} to its room (docs/engines.md, 'A game's files')"


def defined_in(table: object, where: str, name: str) -> str:
    """The module of the engine package that assigns `table` to its own `name` (not an import)."""
    for path in sorted((ROOT / where.replace(".", "/")).glob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        if any(line.startswith((f"{name}:", f"{name} =")) for line in lines):
            module = importlib.import_module(f"{where}.{path.stem}")
            if getattr(module, name, None) is table:
                return module.__name__
    return "nowhere"


def test_the_left_modules_still_wait() -> None:
    """A module in LEFT that was renamed (or is gone) leaves the list, so it hides nothing later."""
    stale = [name for name in LEFT if not (ROOT / name).exists()]
    assert not stale, f"{stale} are renamed or gone: take them off LEFT"


def test_a_missing_room_or_a_room_under_another_name_is_found(tmp_path: Path) -> None:
    """The checks above fail where they should: Fencing's engine package as it was (its state
    in `common.py`), a table's controls in `prompts.py`, builders in `helpers.py`."""
    for name in {*ENGINE_FILES, "common.py"} - {"state.py"}:
        (tmp_path / name).write_text("")
    assert "state.py" in set(ENGINE_FILES) - names(tmp_path)
    assert misnamed(tmp_path, ENGINE_ALIASES) == {"common.py": "state.py"}
    (tmp_path / "prompts.py").write_text("")
    assert "prompts.py" in misnamed(tmp_path, UI_ALIASES)
    (tmp_path / "helpers.py").write_text("")
    assert misnamed(tmp_path, TEST_ALIASES) == {"helpers.py": "support.py", "common.py": "support.py"}
