"""Numbered schema migrations, applied in order, each in one transaction with its version bump.

SQLite tracks the version in PRAGMA user_version, PostgreSQL in a one-row schema_version
table. Each step is written once, in SQLite's words; `postgres_script` translates the few
types that differ (see there). A step may also have a backfill (`BACKFILLS`): a transaction
body (storage.sql) run after its script, in the same transaction, for data that portable SQL
cannot compute (JSON).

Append new steps; never edit a step that has shipped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from storage.records import earliest_deadline
from storage.sql import Tx, count, rows

MIGRATIONS: list[str] = [
    # 1: the first schema
    """
    CREATE TABLE games (
        id               INTEGER PRIMARY KEY,
        guild_id         INTEGER NOT NULL,
        channel_id       INTEGER NOT NULL,
        thread_id        INTEGER,
        kind             TEXT    NOT NULL,
        host_id          INTEGER NOT NULL,
        options          TEXT    NOT NULL DEFAULT '{}',
        status           TEXT    NOT NULL DEFAULT 'lobby',
        version          INTEGER NOT NULL DEFAULT 0,
        seed             INTEGER NOT NULL,
        state            TEXT,
        deadlines        TEXT    NOT NULL DEFAULT '[]',
        log              TEXT    NOT NULL DEFAULT '[]',
        table_message_id INTEGER,
        table_message_at REAL,
        created_at       REAL    NOT NULL,
        updated_at       REAL    NOT NULL
    );
    CREATE INDEX games_live_by_channel ON games (channel_id, status);
    CREATE INDEX games_live_by_thread ON games (thread_id, status);
    CREATE INDEX games_by_status ON games (status);

    CREATE TABLE seats (
        game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat           INTEGER NOT NULL,
        user_id        INTEGER NOT NULL,
        name           TEXT    NOT NULL,
        dm_ok          INTEGER NOT NULL DEFAULT 1,
        dm_channel_id  INTEGER,
        dm_message_id  INTEGER,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, user_id)
    );
    CREATE INDEX seats_by_user ON seats (user_id);

    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq     INTEGER NOT NULL,
        seat    INTEGER NOT NULL,
        action  TEXT    NOT NULL,
        at      REAL    NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;

    CREATE TABLE results (
        game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id     INTEGER NOT NULL,
        seat        INTEGER NOT NULL,
        rank        INTEGER NOT NULL,
        score       REAL,
        team        INTEGER,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX results_by_user ON results (user_id);

    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        kind     TEXT    NOT NULL,
        user_id  INTEGER NOT NULL,
        mu       REAL    NOT NULL,
        sigma    REAL    NOT NULL,
        games    INTEGER NOT NULL DEFAULT 0,
        wins     INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, kind, user_id)
    ) WITHOUT ROWID;
    """,
    # 2: when each seat's private message was sent (messages over ~50 minutes old are
    #    re-sent instead of edited, as Discord throttles edits of old messages)
    """
    ALTER TABLE seats ADD COLUMN dm_message_at REAL;
    """,
    # 3: when the last step was pressed (the floor for the next press time); the salt of the
    #    seed's published commitment; the state version the table message shows (a table
    #    left behind by a crash is redrawn at start-up); the lobby message in the parent
    #    channel (it mirrors the result at the end)
    """
    ALTER TABLE games ADD COLUMN last_at REAL;
    ALTER TABLE games ADD COLUMN nonce TEXT NOT NULL DEFAULT '';
    ALTER TABLE games ADD COLUMN table_version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN lobby_message_id INTEGER;
    ALTER TABLE games ADD COLUMN log_total INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN ping_message_id INTEGER;
    ALTER TABLE seats ADD COLUMN seen_log INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE players (
        user_id INTEGER PRIMARY KEY,
        notify  TEXT    NOT NULL DEFAULT 'auto'
    ) WITHOUT ROWID;
    """,
    # 4: partnerships — the team each seat joined in a team lobby (its index in the engine's
    #    lobby_teams), and each team's private thread where partners confer
    """
    ALTER TABLE seats ADD COLUMN team INTEGER;
    CREATE TABLE team_threads (
        game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        team      INTEGER NOT NULL,
        thread_id INTEGER NOT NULL,
        PRIMARY KEY (game_id, team)
    ) WITHOUT ROWID;
    """,
    # 5: several processes and computer players —
    #    computer seats, and results of games that had one (kept apart in /stats);
    #    the earliest deadline of each game, so a process finds due games with an index scan;
    #    one live game per channel without a thread, enforced by the database (processes race);
    #    live processes (heartbeats) and the identify slots of Discord's max_concurrency buckets
    """
    ALTER TABLE seats ADD COLUMN computer INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE results ADD COLUMN versus_computer INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN next_deadline REAL;
    CREATE INDEX games_due ON games (status, next_deadline);
    UPDATE games SET status = 'cancelled'
        WHERE status IN ('lobby', 'active') AND thread_id IS NULL AND id NOT IN (
            SELECT MAX(id) FROM games WHERE status IN ('lobby', 'active') AND thread_id IS NULL
            GROUP BY channel_id);
    CREATE UNIQUE INDEX games_one_live_per_channel ON games (channel_id)
        WHERE status IN ('lobby', 'active') AND thread_id IS NULL;
    CREATE TABLE processes (
        id         TEXT PRIMARY KEY,
        shards     TEXT NOT NULL DEFAULT '[]',
        started_at REAL NOT NULL,
        seen_at    REAL NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE identify_slots (
        bucket  INTEGER PRIMARY KEY,
        next_at REAL NOT NULL
    );
    """,
    # 6: game nights — which finished game a lobby is the rematch of (one rematch per game, and
    #    a second press answered with the first); a channel's night of games (its scoreboard is
    #    read from the games finished in the channel since it started), one open at a time
    """
    CREATE TABLE rematches (
        game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        of_game INTEGER NOT NULL
    );
    CREATE INDEX rematches_by_original ON rematches (of_game);
    CREATE TABLE nights (
        id         INTEGER PRIMARY KEY,
        guild_id   INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        started_by INTEGER NOT NULL,
        started_at REAL    NOT NULL,
        ended_at   REAL,
        ended_by   INTEGER
    );
    CREATE UNIQUE INDEX nights_one_open_per_channel ON nights (channel_id) WHERE ended_at IS NULL;
    """,
    # 7: practice tables (`/<game> learn`): a game played to learn, unrated and without results,
    #    where the learner's prompts offer a hint
    """
    ALTER TABLE games ADD COLUMN practice INTEGER NOT NULL DEFAULT 0;
    """,
]

LATEST = len(MIGRATIONS)


def _backfill_next_deadline() -> Tx[None]:
    games = yield rows("SELECT id, deadlines FROM games WHERE status = 'active'")
    for game_id, deadlines in games:
        yield count("UPDATE games SET next_deadline = ? WHERE id = ?",
                    earliest_deadline(json.loads(deadlines)), game_id)


#: Step number → a transaction body run after that step's script, in its transaction.
BACKFILLS: dict[int, Callable[[], Tx[None]]] = {5: _backfill_next_deadline}

_POSTGRES_TYPES = [
    # the rowid alias → an identity column
    (re.compile(r"\bid(\s+)INTEGER PRIMARY KEY\b"), r"id\1BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
    # Discord ids are 64-bit; every integer column is BIGINT (one type to bind)
    (re.compile(r"\bINTEGER\b"), "BIGINT"),
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
    (re.compile(r"\)\s*WITHOUT ROWID;"), ");"),
]


def postgres_script(script: str) -> str:
    """A step's SQL for PostgreSQL: INTEGER → BIGINT (the games.id rowid alias → an identity
    column), REAL → DOUBLE PRECISION, no WITHOUT ROWID. JSON stays TEXT, as in SQLite."""
    for pattern, replacement in _POSTGRES_TYPES:
        script = pattern.sub(replacement, script)
    return script
