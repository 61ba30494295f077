"""A real PostgreSQL server for tests, started by the tests themselves.

One server per test session (pytest process), started on first use: `initdb` into a temp
folder, `pg_ctl start` on a free 127.0.0.1 port and a unix socket in that folder, with
durability off (fsync, synchronous_commit, full_page_writes: a test database is thrown away).
Each test gets a fresh database, copied from a template that is migrated once.

    async def test_x(postgres_url): ...            # the fixture (tests/conftest.py)
    url = await fresh_postgres_url()                # anywhere else (two-process e2e tests)
    await drop_postgres_database(url)               # when done (the fixture does it itself)

The server binaries come from PATH or Debian's /usr/lib/postgresql/<version>/bin (`.ci/run`
installs Debian's `postgresql` package where none is found). As root the server runs as the
`postgres` user (PostgreSQL refuses to run as root). It is stopped at the session's end and at
interpreter exit; a server left by a killed run is stopped by the next run.
"""

from __future__ import annotations

import atexit
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

TEMPLATE = "rumpus_template"
PREFIX = "rumpus-pg-"


class NoPostgres(RuntimeError):
    """No PostgreSQL server binaries on this machine (or no way to run them)."""


def find_bin_dir() -> Path | None:
    """The folder holding initdb, pg_ctl and postgres: PATH first, then Debian's newest."""
    found = shutil.which("initdb")
    if found:
        folder = Path(os.path.realpath(found)).parent
        if (folder / "pg_ctl").exists():
            return folder
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    return Path(candidates[-1]).parent if candidates else None


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
    except KeyError as missing:
        raise NoPostgres("running as root and there is no `postgres` user to run the server") from missing
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
_lock = threading.Lock()
_names = itertools.count(1)


def server() -> PostgresServer:
    """The session's server, started on first use (raises NoPostgres where none can run)."""
    global _server, _server_error
    with _lock:
        if _server_error is not None:
            raise _server_error
        if _server is None:
            try:
                _server = PostgresServer.start()
            except NoPostgres as error:
                _server_error = error
                raise
            atexit.register(stop_server)
            with contextlib.suppress(ValueError):  # not the main thread: atexit alone
                signal.signal(signal.SIGTERM, _on_signal)
            _make_template(_server)
        return _server


def stop_server() -> None:
    global _server
    with _lock:
        if _server is not None:
            _server.stop()
            _server = None


def _make_template(server: PostgresServer) -> None:
    """Create and migrate the template every test database is copied from (in a thread of its
    own: callers may be inside a running event loop)."""
    import asyncio

    async def build() -> None:
        import asyncpg

        from storage import open_storage

        admin = await asyncpg.connect(server.url())
        try:
            await admin.execute(f"CREATE DATABASE {TEMPLATE}")
        finally:
            await admin.close()
        store = await open_storage(server.url(TEMPLATE))
        await store.close()

    errors: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(build())
        except BaseException as error:  # re-raised in the caller's thread
            errors.append(error)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if errors:
        raise errors[0]


async def fresh_postgres_url() -> str:
    """A new, migrated, empty database on the session's server; its URL."""
    import asyncio

    import asyncpg

    the_server = await asyncio.to_thread(server)
    name = f"rumpus_{os.getpid()}_{next(_names)}"
    admin = await asyncpg.connect(the_server.url())
    try:
        await admin.execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
    finally:
        await admin.close()
    return the_server.url(name)


async def drop_postgres_database(url: str) -> None:
    """Drop a database made by `fresh_postgres_url` (its connections are ended first)."""
    import asyncpg

    if _server is None:
        return
    name = url.rsplit("/", 1)[1]
    admin = await asyncpg.connect(_server.url())
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        await admin.close()


def _on_signal(signum: int, frame: object) -> None:  # pragma: no cover - a signal while testing
    stop_server()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)

