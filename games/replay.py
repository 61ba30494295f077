"""Replay a game record and check it: `python -m games.replay FILE`.

    python -m games.replay rumpus-game-12.json
    python -m games.replay record.json --engine-module tests.engines.race   # an engine outside games/

A record comes from `/game record` (see games/record.py and docs/records.md). The replay
checks that

1. SHA-256("seed:nonce") is the commitment the table showed from the first move;
2. the engine named in the record, replaying every recorded action from that seed and the
   recorded options, accepts each one;
3. the replayed game ends with the recorded outcome, in a state whose canonical JSON has
   the recorded SHA-256 digest.

It prints the outcome and the digest and exits 0 when everything matches, 1 (saying what
does not) otherwise. Pure: no clock, no network; the only I/O is reading FILE.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games import registry
from games.core import IllegalAction, State
from games.record import FORFEIT, FORMAT, FORMAT_VERSION, HANDOFF, outcome_json, seed_commitment, state_digest
from games.registry import AnyEngine


class RecordError(Exception):
    """The record cannot be checked at all (unreadable, not a game record, unknown game)."""


@dataclass
class Verdict:
    """What checking a record found. `problems` empty: everything matches."""

    record: Mapping[str, Any]
    problems: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    #: The replayed game's outcome (JSON) and final-state digest, when the replay got that far.
    outcome: dict[str, Any] | None = None
    digest: str | None = None
    replayed: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems

    def report(self) -> str:
        return "\n".join(self.lines)


def load_record(path: str | Path) -> dict[str, Any]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read {path}: {exc}") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not JSON: {exc}") from None
    if not isinstance(record, dict):
        raise RecordError(f"{path} is not a game record (expected a JSON object).")
    return record


def import_engines(modules: Iterable[str]) -> list[AnyEngine]:
    """Load the engine each module exports as ENGINE, as every game is found (`registry.load_game`)."""
    found = []
    for name in modules:
        try:
            found.append(registry.load_game(name))
        except ImportError as exc:
            raise RecordError(f"cannot import engine module {name}: {exc}") from None
        except LookupError as exc:
            raise RecordError(f"{exc} (an engine module exports its engine as ENGINE)") from None
    return found


def find_engine(name: str) -> AnyEngine:
    """The registered engine called `name`; the built-in games are loaded only when needed,
    so a record of an engine registered by hand replays even while a built-in is broken."""
    engine = registry.ENGINES.get(name)
    if engine is None:
        try:
            registry.load_builtin()
        except Exception as exc:  # a built-in game that does not import must not hide the reason
            raise RecordError(f"no engine {name!r} is registered (pass --engine-module for an engine "
                              "outside games/), and loading the built-in games failed: "
                              f"{type(exc).__name__}: {exc}") from None
        engine = registry.ENGINES.get(name)
    if engine is None:
        known = ", ".join(sorted(registry.ENGINES)) or "none"
        raise RecordError(f"no engine called {name!r} (registered: {known}); "
                          "pass --engine-module for an engine outside games/.")
    return engine


def _require(record: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = record.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise RecordError(f"the record's {key!r} is missing or malformed.")
    return value


def check_shape(record: Mapping[str, Any]) -> None:
    """Refuse what is not a game record of a format this code reads."""
    if record.get("format") != FORMAT:
        raise RecordError(f"not a Rumpus game record (format {record.get('format')!r}, expected {FORMAT!r}).")
    version = record.get("format_version")
    if not isinstance(version, int) or not 1 <= version <= FORMAT_VERSION:
        raise RecordError(f"record format version {version!r} is not one this replay reads "
                          f"(1 to {FORMAT_VERSION}).")
    engine = _require(record, "engine", dict)
    if not isinstance(engine.get("name"), str):
        raise RecordError("the record does not name its engine.")
    _require(record, "options", dict)
    seats = _require(record, "seats", list)
    if [s.get("seat") if isinstance(s, dict) else None for s in seats] != list(range(len(seats))):
        raise RecordError("the record's seats are not numbered 0, 1, 2, …")
    _require(record, "seed", int)
    _require(record, "nonce", str)
    _require(record, "commitment", str)
    _require(record, "final_state_sha256", str)
    for index, entry in enumerate(_require(record, "actions", list), start=1):
        if not (isinstance(entry, dict) and isinstance(entry.get("action"), dict)
                and (entry.get("seat") is None or _is_int(entry.get("seat")))
                and isinstance(entry.get("at"), int | float) and not isinstance(entry.get("at"), bool)):
            raise RecordError(f"action #{index} of the record is malformed.")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def replay(record: Mapping[str, Any], engine: AnyEngine,
           on_step: Callable[[int, State], None] | None = None) -> State:
    """The final state of the recorded game, replayed from its seed, options and actions.
    Raises IllegalAction (with `args[0]` naming the action) when the rules refuse one."""
    players = len(record["seats"])
    state = engine.new_game(players, record["seed"], dict(record["options"]))
    for index, entry in enumerate(record["actions"], start=1):
        seat, action, at = entry["seat"], entry["action"], entry["at"]
        try:
            if action.get("type") == FORFEIT:
                if seat is None or not 0 <= seat < players:
                    raise IllegalAction("A forfeit needs a seat of the game.")
                state, _ = engine.forfeit(state, seat, at)
            elif action.get("type") == HANDOFF:
                pass  # a computer took the seat; the rules saw nothing
            else:
                if seat is not None and not 0 <= seat < players:
                    raise IllegalAction(f"There is no seat {seat} in this game.")
                state, _ = engine.apply(state, seat, action, at)
        except Exception as exc:  # IllegalAction, or a tampered action breaking an engine's assumptions
            raise ReplayRefused(index, entry, exc, _names(record)) from None
        if on_step is not None:
            on_step(index, state)
    return state


class ReplayRefused(Exception):
    """The engine would not replay one recorded action."""

    def __init__(self, index: int, entry: Mapping[str, Any], exc: Exception, names: Mapping[int, str]) -> None:
        who = "the game itself" if entry.get("seat") is None else names.get(entry["seat"], f"seat {entry['seat']}")
        if isinstance(exc, IllegalAction):
            why = exc.render(lambda seat: names.get(seat, f"seat {seat}"))
        else:
            why = f"the engine failed on it ({type(exc).__name__}: {exc})"
        action = json.dumps(entry.get("action"), sort_keys=True)
        super().__init__(f"action #{index} (seq {entry.get('seq')}, {who}: {action}) does not replay: {why}")
        self.index = index


def _names(record: Mapping[str, Any]) -> dict[int, str]:
    return {s["seat"]: str(s.get("name") or f"seat {s['seat']}") for s in record.get("seats", [])}


def describe_outcome(outcome: Mapping[str, Any] | None, names: Mapping[int, str]) -> str:
    """"1. alice — 12 points; 2. bob — 7 points (points)" from an outcome's JSON."""
    if outcome is None:
        return "not finished"
    ranks = outcome.get("ranks") or []
    scores = outcome.get("scores")
    parts = []
    for seat in sorted(range(len(ranks)), key=lambda s: ranks[s]):
        text = f"{ranks[seat] + 1}. {names.get(seat, f'seat {seat}')}"
        if scores is not None:
            text += f" — {scores[seat]:g} point{'' if scores[seat] == 1 else 's'}"
        parts.append(text)
    reason = f" ({outcome['reason']})" if outcome.get("reason") else ""
    return "; ".join(parts) + reason


def verify(record: Mapping[str, Any], engine: AnyEngine | None = None, *, shown: str | None = None) -> Verdict:
    """Check a record: its commitment, that every action replays, and that the replay ends
    with the recorded outcome and final-state digest. `shown`: the commitment the table
    showed (as a player noted it), which the record's must equal. Raises RecordError when
    the record cannot be checked at all."""
    check_shape(record)
    verdict = Verdict(record)
    say, problem = verdict.lines.append, verdict.problems.append
    info = record["engine"]
    engine = engine or find_engine(info["name"])
    names = _names(record)
    game = record.get("game") or {}
    say(f"Game #{game.get('id', '?')}: {engine.title} (engine {engine.name!r}, version {info.get('version')}), "
        f"{len(record['seats'])} players, {len(record['actions'])} actions.")
    if info["name"] != engine.name:
        problem(f"the record is of {info['name']!r}, not of {engine.name!r}.")
    if info.get("version") != engine.version:
        problem(f"the record was made with version {info.get('version')} of {engine.name!r}, and this is "
                f"version {engine.version}: the rules may have changed since.")

    seed, nonce, claimed = record["seed"], record["nonce"], record["commitment"]
    computed = seed_commitment(seed, nonce)
    if computed == claimed.lower():
        say(f"commitment: ok — sha256(\"{seed}:{nonce}\") = {computed}")
    else:
        problem(f"wrong commitment: sha256(\"{seed}:{nonce}\") = {computed}, but the record says {claimed}; "
                "the seed or the nonce is not the one committed to at the start.")
    if shown is not None:
        if shown.strip().lower() == claimed.lower():
            say("commitment: ok — it is the one the table showed")
        else:
            problem(f"the record's commitment {claimed} is not the one the table showed ({shown.strip()}).")

    try:
        state = replay(record, engine)
    except ReplayRefused as exc:
        problem(str(exc))
        return _finish(verdict)
    except IllegalAction as exc:  # new_game refused the options or the seat count
        problem(f"the game does not set up from the record: {exc.message}")
        return _finish(verdict)
    verdict.replayed = len(record["actions"])
    say(f"replay: ok — {verdict.replayed} actions accepted by the rules")

    verdict.outcome = outcome_json(engine.outcome(state))
    verdict.digest = state_digest(state)
    recorded = record.get("outcome")
    if verdict.outcome is None:
        problem("the replayed game is not finished, but the record says it ended.")
    elif verdict.outcome != recorded:
        problem(f"outcome differs: the replay gives {describe_outcome(verdict.outcome, names)}, "
                f"the record says {describe_outcome(recorded, names) if isinstance(recorded, dict) else recorded!r}.")
    else:
        say(f"outcome: ok — {describe_outcome(verdict.outcome, names)}")
    if verdict.digest == record["final_state_sha256"].lower():
        say(f"final state SHA-256: ok — {verdict.digest}")
    else:
        problem(f"final state differs: the replay's SHA-256 is {verdict.digest}, "
                f"the record says {record['final_state_sha256']}.")
    return _finish(verdict)


def _finish(verdict: Verdict) -> Verdict:
    if verdict.ok:
        verdict.lines.append("VERIFIED: the record replays exactly to its result.")
    else:
        verdict.lines.extend(f"MISMATCH: {p}" for p in verdict.problems)
        verdict.lines.append(f"FAILED: {len(verdict.problems)} problem(s); this record does not check out.")
    return verdict


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.replay",
        description="Replay a Rumpus game record (from /game record) and check its commitment, "
                    "outcome and final-state digest. Exit 0: everything matches; 1: it does not.")
    parser.add_argument("file", help="the record's JSON file")
    parser.add_argument("--commitment", metavar="HEX",
                        help="the seed commitment the table showed at the start; the record's must equal it")
    parser.add_argument("--engine-module", action="append", default=[], metavar="MODULE",
                        help="import MODULE and register the engine it exports as ENGINE (repeatable), "
                             "for games outside games/ (e.g. tests.engines.race)")
    args = parser.parse_args(argv)
    try:
        import_engines(args.engine_module)
        verdict = verify(load_record(args.file), shown=args.commitment)
    except RecordError as exc:
        print(f"FAILED: {exc}", file=sys.stderr)
        return 1
    out = sys.stdout if verdict.ok else sys.stderr
    print(verdict.report(), file=out)
    return 0 if verdict.ok else 1


if __name__ == "__main__":
    sys.exit(main())
