"""The Discord edge's shape, checked on the source: small modules with one job each, no import
of bot.py (the edge knows the bot only as a Host), and one place that says who may press."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "cogs" / "table"
#: The edge's modules and the job each has.
EDGE = ("edge.py", "lobby.py", "intake.py", "delivery.py", "results.py", "answers.py", "components.py", "cog.py",
        "controls.py", "codec.py", "options.py", "kept_pictures.py", "pings.py", "deferral.py", "warmup.py",
        "game_groups.py", "computers.py", "host.py", "lines.py", "registry.py", "quiet.py")


def imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


@pytest.mark.parametrize("name", EDGE)
def test_the_edge_never_imports_the_bot(name: str) -> None:
    assert "bot" not in imports(TABLE / name)


@pytest.mark.parametrize("name", EDGE)
def test_each_edge_module_stays_small(name: str) -> None:
    lines = len((TABLE / name).read_text(encoding="utf-8").splitlines())
    assert lines <= 400, f"{name} has {lines} lines: split it by job"


def test_only_one_place_refuses_a_non_player() -> None:
    """`runtime.access.may_press` answers "may this user press this?" for every way in."""
    sentence = "You are not playing in this game"
    holders = [str(path.relative_to(ROOT)) for folder in ("cogs", "runtime") for path in (ROOT / folder).rglob("*.py")
               if sentence in path.read_text(encoding="utf-8")]
    assert holders == ["runtime/access.py"]


#: The edge's modules by layer, lowest first: a module imports only modules of its own layer or
#: below, never one above, and never in a cycle, so `cogs/table` reads from the bottom up and
#: any module can be imported alone. A new module is placed here.
LAYERS: tuple[tuple[str, ...], ...] = (
    # words and ids: what everything else says and draws with
    ("codec", "wording", "mentions", "deferral", "rules", "pictures", "host", "quiet", "due_answers", "presence", "palette_png",
     "one_write", "rate_buckets", "pressed"),
    # the contract a game's UI fills in, and where the UIs are found
    ("ui", "options", "registry", "rows"),
    # drawing: components, tables, hands, lobbies, log lines, the pictures drawn ahead
    ("components", "kept_screens", "picture_cache", "present", "lobby_screen", "result_screen", "kept_pictures", "controls", "lines", "warmup",
     "newcomers", "night"),
    # answering and posting: short answers, panels, pings, threads, results, delivery
    ("answers", "panels", "pings", "teams", "rematch", "results", "delivery"),
    # taking in: presses, forms, the lobby, computers, practice tables, replays, records
    ("intake", "lobby", "computers", "learn", "replays", "records"),
    # the front every interaction goes through
    ("edge",),
    # the commands and the cog that holds them
    ("game_groups", "cog", "__init__"),
)


def edge_imports(path: Path) -> tuple[set[str], list[str]]:
    """The cogs/table modules `path` imports anywhere (type-checking imports too: a cycle there
    is still a cycle), and the functions that import anything inside their body."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = "cogs.table." + (node.module or "") if node.level else node.module or ""
            if module in ("cogs.table", "cogs.table."):
                found |= {alias.name for alias in node.names}
            elif module.startswith("cogs.table."):
                found.add(module.split(".")[2])
        elif isinstance(node, ast.Import):
            found |= {alias.name.split(".")[2] for alias in node.names if alias.name.startswith("cogs.table.")}
    inside = [node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
              and any(isinstance(n, ast.Import | ast.ImportFrom) for n in ast.walk(node))]
    return found, inside


def import_graph() -> dict[str, set[str]]:
    return {path.stem: edge_imports(path)[0] for path in sorted(TABLE.glob("*.py"))}


def cycle_in(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of `graph` (module -> modules it imports), or None."""
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str] | None:
        if name in path:
            return [*path[path.index(name):], name]
        if name in done:
            return None
        for imported in sorted(graph.get(name, ())):
            found = visit(imported, [*path, name])
            if found:
                return found
        done.add(name)
        return None

    return next((found for name in sorted(graph) if (found := visit(name, []))), None)


def test_the_edge_imports_without_a_cycle() -> None:
    cycle = cycle_in(import_graph())
    assert cycle is None, "an import cycle in cogs/table: " + " -> ".join(cycle or ())


def test_the_cycle_finder_finds_one() -> None:
    assert cycle_in({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle_in({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_every_edge_module_has_a_layer() -> None:
    placed = [name for layer in LAYERS for name in layer]
    assert len(placed) == len(set(placed))
    assert sorted(placed) == sorted(import_graph()), "place each cogs/table module in LAYERS"


def test_imports_go_down_the_layers() -> None:
    rank = {name: i for i, layer in enumerate(LAYERS) for name in layer}
    upward = [f"{name} (layer {rank[name]}) imports {imported} (layer {rank[imported]})"
              for name, imported_ in import_graph().items() for imported in sorted(imported_)
              if name in rank and imported in rank and rank[imported] > rank[name]]
    assert not upward, upward


def test_no_module_imports_inside_a_function_to_dodge_a_cycle() -> None:
    """Not even a lazy import of something else: every dependency shows at the top."""
    lazy = [f"{path.name}: {name}" for path in sorted(TABLE.glob("*.py")) for name in edge_imports(path)[1]]
    assert not lazy, f"imports inside a function: {lazy}"


def defined(path: Path) -> set[str]:
    return {node.name for node in ast.parse(path.read_text(encoding="utf-8")).body
            if isinstance(node, ast.FunctionDef | ast.ClassDef)}


def test_computer_seat_rules_are_written_once() -> None:
    """Who is a computer, how one is named, which games offer one: `runtime/computers.py` alone."""
    rules = defined(ROOT / "runtime" / "computers.py")
    again = {str(path.relative_to(ROOT)): both for path in sorted((ROOT / "cogs").rglob("*.py"))
             if (both := rules & defined(path))}
    assert not again, again


def patched(path: Path) -> list[str]:
    """Assignments to an attribute of a collaborator (`service.describe = …`, `x.service.y = …`)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AnnAssign | ast.AugAssign) else []
        for target in targets:
            if not isinstance(target, ast.Attribute):
                continue
            chain, value = [], target.value
            while isinstance(value, ast.Attribute):
                chain.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name):
                chain.append(value.id)
            if {"service", "edge", "delivery", "tables", "timers"} & set(chain):
                found.append(f"{path.name}:{node.lineno}")
    return found


def test_nothing_is_patched_into_a_collaborator() -> None:
    """Collaborators are passed in (`TableService(describe=…)`) or registered through a call the
    owner offers (`watch_deadlines`, `Delivery.observe`), never assigned from outside."""
    files = [ROOT / "bot.py", *sorted((ROOT / "cogs").rglob("*.py")), *sorted((ROOT / "runtime").rglob("*.py"))]
    assert not [where for path in files for where in patched(path)]
