"""Rooms by job (issue 22 item 3): no module of the shipped code over 400 lines, so a newcomer
finds one job per file. The few not split yet are listed here by name with the reason; the list
may only shrink: a listed module that is split (or gone) must leave the list, so it cannot hide
a new big module later."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The shipped layers the limit covers (tests and bench are outside it), and bot.py, which ships beside them.
LAYERS = ("cogs", "games", "runtime", "storage")
MODULES = ("bot.py",)
LIMIT = 400
PENDING = "split pending (issue 22)"
#: Modules allowed over the limit for now, each with why.
EXCEPTIONS: dict[str, str] = {
}


def sizes() -> dict[str, int]:
    """Every shipped module's line count, by its path from the repository root."""
    paths = [*(ROOT / name for name in MODULES), *(path for layer in LAYERS for path in sorted((ROOT / layer).rglob("*.py")))]
    return {path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines()) for path in paths}


def test_every_shipped_module_is_counted() -> None:
    """What pyproject ships (`py-modules` and the packages' folders) is what `sizes` counts."""
    import tomllib

    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert {f"{name}.py" for name in setuptools["py-modules"]} <= set(MODULES)
    folders = {name.split(".")[0] for name in setuptools["packages"]["find"]["include"]}
    assert folders <= set(LAYERS)
    assert "bot.py" in sizes()


def test_no_module_is_over_the_limit_unless_listed() -> None:
    big = {name: lines for name, lines in sizes().items() if lines > LIMIT and name not in EXCEPTIONS}
    assert not big, f"modules over {LIMIT} lines: {big}; split each by job (or list it with a reason)"


def test_the_exceptions_only_shrink() -> None:
    found = sizes()
    stale = [name for name in EXCEPTIONS if found.get(name, 0) <= LIMIT]
    assert not stale, f"{stale} are within {LIMIT} lines now (or gone): take them off EXCEPTIONS"


def test_every_exception_says_why() -> None:
    assert all(reason.strip() for reason in EXCEPTIONS.values())
