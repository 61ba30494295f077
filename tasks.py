#!/usr/bin/env python3
"""The project's two commands, runnable with nothing but Python 3.11+ and pip.

    python tasks.py run     # set up .venv if needed, then start the bot
    python tasks.py test    # set up .venv if needed, then run the whole test suite
    RUMPUS_TEST_DATABASE=postgresql python tasks.py test   # the same, every storage on PostgreSQL
    python tasks.py lint    # ruff, then mypy on what pyproject's [tool.mypy] lists

The virtual environment is rebuilt only when pyproject.toml changes (a hash stamp). The
PostgreSQL tests start their own server from the machine's PostgreSQL binaries (tests/pg.py;
Debian: `apt-get install postgresql`) and are skipped where there are none.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".rumpus-installed"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")


def ensure_environment() -> None:
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted and PYTHON.exists():
        return
    if not PYTHON.exists():
        print("Creating .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("Installing dependencies ...", flush=True)
    pip = [str(PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "-e", f"{ROOT}[dev]"], check=True)
    STAMP.write_text(wanted)


def main(argv: list[str]) -> int:
    command, rest = (argv[0], argv[1:]) if argv else ("help", [])
    if command not in {"run", "test", "lint"}:
        print(__doc__)
        return 0 if command == "help" else 2
    ensure_environment()
    if command == "run":
        args = [str(PYTHON), str(ROOT / "bot.py"), *rest]
    elif command == "test":
        # One worker per core; a test that needs its own run says so with `-n 0` after.
        args = [str(PYTHON), "-m", "pytest", "-n", "auto", "--dist", "worksteal", *rest]
    else:
        ruff = subprocess.run([str(PYTHON), "-m", "ruff", "check", ".", *rest], cwd=ROOT).returncode
        # Both run, so one report shows every complaint; mypy's cache (.mypy_cache) keeps a rerun quick.
        mypy = subprocess.run([str(PYTHON), "-m", "mypy"], cwd=ROOT).returncode
        return ruff or mypy
    return subprocess.run(args, cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
