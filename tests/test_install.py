"""The project installs as a real package: built with pip (not editable) from a copy of the
repository into a fresh virtual environment, then imported from outside the repository.

Catches what an editable install and the test suite's own sys.path hide: a folder of modules
without its `__init__.py`, package discovery that leaves a package behind, package data (the
dictionary and its licence notice) that does not ship, code that only works from the repo.

To stay quick and offline the dependencies are not installed again: the fresh venv reaches the
ones already installed for the tests through a `.pth` file (that path is only appended to
`sys.path`, so its own `.pth` files, the editable install's included, are not run). pip builds
the project with `--no-build-isolation` against that same setuptools, and `--ignore-installed`
keeps it from touching the editable install it can see there.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "cogs", "runtime", "storage")
#: Package data that must ship: the word list (SCOWL's licence requires its notice in every
#: copy), each game's rules text (the "📖 Rule" button quotes it) and the fencing regions.
DATA = ("games/words/data/*.txt", "games/words/data/COPYRIGHT-SCOWL", "games/*/rules.md",
        "games/fencing/regions/*.json")
NOT_COPIED = (".venv", ".git", "*.egg-info", "__pycache__", ".hypothesis", ".pytest_cache", ".ruff_cache",
              "build", "dist", "*.db", "*.db-wal", "*.db-shm", ".env", "out")
TIMEOUT = 180

#: Runs inside the fresh venv, from a folder outside the repository: imports everything and
#: says where each module came from.
CHECK = r"""
import hashlib, importlib, importlib.resources, json, sys, traceback

modules, data = json.loads(sys.argv[1]), json.loads(sys.argv[2])
found, failed = {}, {}
for name in modules:
    try:
        found[name] = importlib.import_module(name).__file__
    except BaseException:
        failed[name] = traceback.format_exc(limit=-3)

from games.registry import BUILTIN_GAMES, load_builtin
from cogs.table.registry import load_builtin_uis

engines = {name: type(engine).__module__ for name, engine in load_builtin().items()}
uis = {name: type(ui).__module__ for name, ui in load_builtin_uis().items()}
files = {}
for rel in data:
    top, game, *inside = rel.split("/")
    resource = importlib.resources.files(f"{top}.{game}").joinpath(*inside)
    files[rel] = (str(resource), hashlib.sha256(resource.read_bytes()).hexdigest() if resource.is_file() else None)
print(json.dumps({"prefix": sys.prefix, "path": sys.path, "found": found, "failed": failed,
                  "builtin": list(BUILTIN_GAMES), "engines": engines, "uis": uis, "files": files}))
"""


def package_dirs() -> list[Path]:
    """Every folder of modules under the four top-level packages."""
    out = []
    for top in PACKAGES:
        for folder in sorted([ROOT / top, *(ROOT / top).rglob("*")]):
            if folder.is_dir() and "__pycache__" not in folder.parts and any(folder.glob("*.py")):
                out.append(folder)
    return out


def module_names() -> list[str]:
    names = ["bot"]
    for folder in package_dirs():
        package = ".".join(folder.relative_to(ROOT).parts)
        names.append(package)
        names += [f"{package}.{py.stem}" for py in sorted(folder.glob("*.py")) if py.stem != "__init__"]
    return names


def data_files() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for pattern in DATA for p in ROOT.glob(pattern))


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, f"{' '.join(args[:4])}… failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def test_every_folder_of_modules_is_a_regular_package() -> None:
    missing = [str(d.relative_to(ROOT)) for d in package_dirs() if not (d / "__init__.py").exists()]
    assert not missing, f"no __init__.py (it would not be installed): {missing}"


def test_a_real_install_imports_every_game_ui_and_package_from_the_venv(tmp_path: Path) -> None:
    import setuptools

    major = int(setuptools.__version__.split(".")[0])
    assert major >= 77, (f"setuptools {setuptools.__version__} cannot build this project without build "
                         "isolation; `python3 tasks.py test` installs the dev extras (setuptools>=77)")
    source, venv, outside = tmp_path / "source", tmp_path / "venv", tmp_path / "elsewhere"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*NOT_COPIED))
    outside.mkdir()
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp_path)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                       outside).stdout.strip())
    (purelib / "_rumpus_test_deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    run([str(python), "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--ignore-installed",
         "--no-index", "--no-cache-dir", "--disable-pip-version-check", "-q", str(source)], outside)

    modules, data = module_names(), data_files()
    assert len(data) >= 2, f"no package data found in the repo: {data}"
    (outside / "check.py").write_text(CHECK)
    report = json.loads(run([str(python), "-I", "check.py", json.dumps(modules), json.dumps(data)],
                            outside).stdout.splitlines()[-1])

    assert Path(report["prefix"]).resolve() == venv.resolve()
    assert not report["failed"], "not importable from the install:\n" + "\n".join(
        f"{name}: {error}" for name, error in report["failed"].items())
    where = {name: Path(file).resolve() for name, file in report["found"].items()}
    strays = {name: str(path) for name, path in where.items() if not path.is_relative_to(purelib.resolve())}
    assert not strays, f"imported from outside the fresh venv: {strays}"
    assert str(ROOT) not in [str(Path(p or ".").resolve()) for p in report["path"]], report["path"]

    assert set(report["engines"]) >= set(report["builtin"]), report["engines"]
    assert set(report["uis"]) >= set(report["builtin"]), f"games without an interface: {report['uis']}"
    for rel in data:
        shipped, content = report["files"][rel]
        assert content is not None, f"{rel} did not ship"
        assert Path(shipped).resolve().is_relative_to(purelib.resolve()), shipped
        assert content == hashlib.sha256((ROOT / rel).read_bytes()).hexdigest(), f"{rel} shipped changed"

