"""A real PostgreSQL server for tests, started by the tests themselves.

One server per test session (pytest process), started on first use: `initdb` into a temp
folder, `pg_ctl start` on a free 127.0.0.1 port and a unix socket in that folder, with
durability off (fsync, synchronous_commit, full_page_writes: a test database is thrown away).
Each test gets a fresh database, copied from a template that is migrated once (one copy is kept
ready ahead, by a housekeeping thread).

    async def test_x(postgres_url): ...            # the fixture (tests/conftest.py)
    url = await fresh_postgres_url()                # anywhere else (two-process e2e tests)
    await drop_postgres_database(url)               # when done (the fixture does it itself)

RUMPUS_TEST_DATABASE=postgresql puts every storage the tests open on PostgreSQL
(`database_for_test`, used by tests/runtime/conftest.py and tests/e2e/conftest.py).

The server binaries come from PATH, Debian's /usr/lib/postgresql/<version>/bin, or else the
`pgserver` wheel (a dev dependency that carries a PostgreSQL build), so a fresh machine runs
these tests with nothing installed by hand. As root the server runs as the `postgres` user
(PostgreSQL refuses to run as root), made when missing. It is stopped at the session's end and at
interpreter exit; a server left by a killed run is stopped by the next run.
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import concurrent.futures
import contextlib
import glob
import itertools
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TEMPLATE = "rumpus_template"
PREFIX = "rumpus-pg-"


class NoPostgres(RuntimeError):
    """No PostgreSQL server binaries on this machine (or no way to run them)."""


def find_bin_dir() -> Path | None:
    """The folder holding initdb, pg_ctl and postgres: PATH first, then Debian's newest, then
    the server that the `pgserver` wheel carries (a dev dependency: so `tasks.py test` runs the
    PostgreSQL tests on a fresh machine with nothing installed by hand)."""
    found = shutil.which("initdb")
    if found:
        folder = Path(os.path.realpath(found)).parent
        if (folder / "pg_ctl").exists():
            return folder
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if candidates:
        return Path(candidates[-1]).parent
    return wheel_bin_dir()


def wheel_bin_dir() -> Path | None:
    """The `pgserver` wheel's PostgreSQL (bin/, lib/, share/ under its `pginstall`). As root the
    server runs as another user, who may not traverse the folders above site-packages (a venv
    under /root): the install is then copied once into a world-readable temp folder."""
    import importlib.util

    spec = importlib.util.find_spec("pgserver")
    if spec is None or not spec.submodule_search_locations:
        return None
    install = Path(next(iter(spec.submodule_search_locations))) / "pginstall"
    if not (install / "bin" / "initdb").exists():
        return None
    if os.geteuid() != 0:
        return install / "bin"
    # the binaries find their libraries at $ORIGIN/../../../pgserver.libs: copy both, in place
    site = install.parent.parent
    copy = Path(tempfile.gettempdir()) / f"rumpus-pginstall-{os.stat(install / 'bin' / 'postgres').st_size}"
    if not (copy / "pgserver" / "pginstall" / "bin" / "pg_ctl").exists():
        staging = Path(tempfile.mkdtemp(prefix="rumpus-pginstall-staging-"))
        shutil.copytree(install, staging / "pgserver" / "pginstall", symlinks=True)
        if (site / "pgserver.libs").is_dir():
            shutil.copytree(site / "pgserver.libs", staging / "pgserver.libs", symlinks=True)
        for folder, _, _ in os.walk(staging):
            os.chmod(folder, 0o755)
        with contextlib.suppress(OSError):  # another test process copied it first
            os.rename(staging, copy)
        shutil.rmtree(staging, ignore_errors=True)
    return copy / "pgserver" / "pginstall" / "bin"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_server_user(argv: list[str]) -> list[str]:
    """PostgreSQL will not run as root: as root, run it as `postgres`."""
    if os.geteuid() != 0:
        return argv
    runner = shutil.which("runuser")
    if runner:
        return [runner, "-u", "postgres", "--", *argv]
    su = shutil.which("su")
    if su:
        return [su, "postgres", "-s", "/bin/sh", "-c", " ".join(_quote(a) for a in argv)]
    raise NoPostgres("running as root without runuser or su to start PostgreSQL as `postgres`")


def _quote(arg: str) -> str:
    return "'" + arg.replace("'", "'\"'\"'") + "'"


def _server_uid() -> tuple[int, int] | None:
    if os.geteuid() != 0:
        return None
    import pwd

    try:
        entry = pwd.getpwnam("postgres")
    except KeyError:
        # a fresh machine without Debian's package has no such user: make it (we are root)
        useradd = shutil.which("useradd")
        if useradd is None:
            raise NoPostgres("running as root, no `postgres` user to run the server, no useradd") from None
        subprocess.run([useradd, "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"],
                       capture_output=True)
        try:
            entry = pwd.getpwnam("postgres")
        except KeyError as missing:
            raise NoPostgres("running as root and the `postgres` user could not be made") from missing
    return entry.pw_uid, entry.pw_gid


@dataclass
class PostgresServer:
    folder: Path
    port: int
    bin_dir: Path

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def socket_dir(self) -> Path:
        return self.folder

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    @classmethod
    def start(cls) -> PostgresServer:
        bin_dir = find_bin_dir()
        if bin_dir is None:
            raise NoPostgres("no PostgreSQL server binaries (initdb, pg_ctl) on PATH or in "
                             "/usr/lib/postgresql/*/bin; install Debian's `postgresql` package")
        _stop_orphans(bin_dir)
        owner = _server_uid()
        folder = Path(tempfile.mkdtemp(prefix=PREFIX))
        (folder / "owner.pid").write_text(str(os.getpid()))
        if owner:
            os.chown(folder, *owner)
        server = cls(folder, _free_port(), bin_dir)
        initdb = [str(bin_dir / "initdb"), "-D", str(server.data), "-U", "postgres",
                  "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"]
        done = subprocess.run(_as_server_user(initdb), capture_output=True, text=True)
        if done.returncode != 0:
            shutil.rmtree(folder, ignore_errors=True)
            raise RuntimeError(f"initdb failed: {done.stderr or done.stdout}")
        options = (f"-p {server.port} -k {server.socket_dir} -c listen_addresses=127.0.0.1"
                   " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
                   " -c max_connections=200 -c shared_buffers=64MB")
        start = [str(bin_dir / "pg_ctl"), "-D", str(server.data), "-l", str(folder / "server.log"),
                 "-o", options, "-w", "-t", "60", "start"]
        done = subprocess.run(_as_server_user(start), capture_output=True, text=True)
        if done.returncode != 0:
            log = (folder / "server.log").read_text() if (folder / "server.log").exists() else ""
            shutil.rmtree(folder, ignore_errors=True)
            raise RuntimeError(f"pg_ctl start failed: {done.stderr or done.stdout}\n{log}")
        return server

    def stop(self) -> None:
        subprocess.run(_as_server_user([str(self.bin_dir / "pg_ctl"), "-D", str(self.data),
                                        "-m", "immediate", "-w", "stop"]),
                       capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)


def _stop_orphans(bin_dir: Path) -> None:
    """Stop servers left behind by earlier test runs whose process is gone (a SIGKILLed run)."""
    for owner_file in glob.glob(os.path.join(tempfile.gettempdir(), PREFIX + "*", "owner.pid")):
        folder = Path(owner_file).parent
        try:
            pid = int(Path(owner_file).read_text())
            os.kill(pid, 0)
            continue  # that run is still going
        except (ValueError, ProcessLookupError):
            pass
        except PermissionError:
            continue
        with contextlib.suppress(Exception):
            subprocess.run(_as_server_user([str(bin_dir / "pg_ctl"), "-D", str(folder / "data"),
                                            "-m", "immediate", "-w", "stop"]),
                           capture_output=True, timeout=30)
        shutil.rmtree(folder, ignore_errors=True)


_server: PostgresServer | None = None
_server_error: NoPostgres | None = None
_admin: _Admin | None = None
_lock = threading.Lock()


class _Admin:
    """The server's housekeeper, on a thread and event loop of its own (tests each run their
    own loop): builds the migrated template once, then keeps one database copied ahead, so a
    test that asks for a database usually finds it ready, and drops used ones in the background."""

    def __init__(self, server: PostgresServer) -> None:
        self.server = server
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="test-postgres-admin", daemon=True)
        self.thread.start()
        self.names = itertools.count(1)
        self.spares: collections.deque[concurrent.futures.Future[str]] = collections.deque()
        self.connection: Any = None
        self.busy: asyncio.Lock | None = None
        self.call(self._make_template()).result()

    def call(self, coroutine: Any) -> concurrent.futures.Future[Any]:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    async def _execute(self, sql: str) -> None:
        import asyncpg

        if self.busy is None:
            self.busy = asyncio.Lock()
        async with self.busy:
            if self.connection is None:
                self.connection = await asyncpg.connect(self.server.url())
            await self.connection.execute(sql)

    async def _make_template(self) -> None:
        from storage import open_storage

        await self._execute(f"CREATE DATABASE {TEMPLATE}")
        store = await open_storage(self.server.url(TEMPLATE))
        await store.close()

    async def _copy(self, name: str) -> str:
        # FILE_COPY: ~0.1 s for this small template, against ~0.3 s for the WAL_LOG default
        await self._execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE} STRATEGY FILE_COPY")
        return self.server.url(name)

    def take(self) -> concurrent.futures.Future[str]:
        """A database being (or already) copied; the next one starts copying now."""
        ready = self.spares.popleft() if self.spares else self._start_copy()
        self.spares.append(self._start_copy())
        return ready

    def _start_copy(self) -> concurrent.futures.Future[str]:
        return self.call(self._copy(f"rumpus_{os.getpid()}_{next(self.names)}"))

    def drop(self, name: str) -> concurrent.futures.Future[None]:
        return self.call(self._execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))

    def close(self) -> None:
        async def disconnect() -> None:
            if self.connection is not None:
                await self.connection.close()

        with contextlib.suppress(Exception):
            self.call(disconnect()).result(timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


def server() -> PostgresServer:
    """The session's server, started on first use (raises NoPostgres where none can run)."""
    return _admin_of_server().server


def _admin_of_server() -> _Admin:
    global _server, _server_error, _admin
    with _lock:
        if _server_error is not None:
            raise _server_error
        if _admin is None:
            try:
                _server = PostgresServer.start()
            except NoPostgres as error:
                _server_error = error
                raise
            atexit.register(stop_server)
            with contextlib.suppress(ValueError):  # not the main thread: atexit alone
                signal.signal(signal.SIGTERM, _on_signal)
            _admin = _Admin(_server)
        return _admin


def stop_server() -> None:
    global _server, _admin
    with _lock:
        if _admin is not None:
            _admin.close()
            _admin = None
        if _server is not None:
            _server.stop()
            _server = None


async def fresh_postgres_url() -> str:
    """A new, migrated, empty database on the session's server; its URL."""
    admin = await asyncio.to_thread(_admin_of_server)
    return await asyncio.wrap_future(admin.take())


async def drop_postgres_database(url: str) -> None:
    """Drop a database made by `fresh_postgres_url` (its connections are ended first); the drop
    finishes in the background."""
    if _admin is not None:
        _admin.drop(url.rsplit("/", 1)[1])


def postgres_selected() -> bool:
    """RUMPUS_TEST_DATABASE=postgresql: every storage the tests open is a fresh PostgreSQL database."""
    return os.environ.get("RUMPUS_TEST_DATABASE", "sqlite").strip().lower() in {"postgresql", "postgres", "pg"}


async def database_for_test(folder: Path, name: str = "rumpus.db") -> Path | str:
    """Where a test's storage lives: `folder / name` (SQLite), or with RUMPUS_TEST_DATABASE=postgresql
    a fresh PostgreSQL database's URL (release it with `release_database_for_test`)."""
    return await fresh_postgres_url() if postgres_selected() else folder / name


async def release_database_for_test(target: Path | str) -> None:
    if isinstance(target, str) and target.startswith("postgresql://"):
        await drop_postgres_database(target)


def _on_signal(signum: int, frame: object) -> None:  # pragma: no cover - a signal while testing
    stop_server()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)
