"""Game records (games/record.py) and their replay check (games/replay.py): every engine's
record replays to its outcome and digest; a changed action, seed, nonce, commitment or
outcome is caught; the command line exits 0 or 1 accordingly."""

from __future__ import annotations

import copy
import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.core import Engine
from games.record import FORMAT, build_record, canonical_json, record_bytes, seed_commitment, state_digest
from games.registry import ENGINES, get_engine
from games.replay import RecordError, load_record, main, verify
from tests.playout import random_playout

ROOT = Path(__file__).resolve().parents[1]
NONCE = "0123456789abcdef0123456789abcdef"
#: Engines outside games/ (registered by tests/conftest.py), for the command line.
TEST_ENGINE_MODULES = {"tokens": "tests.engines.tokens", "shapes": "tests.engines.shapes",
                       "race": "tests.engines.race"}


def record_of_playout(engine: Engine, *, players: int = 2, seed: int = 7,
                      options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The record of a random legal game, as the bot would write it."""
    run = random_playout(engine, players, seed, options)
    return build_record(
        engine, game_id=42, guild_id=10**18 + 1, options=engine.resolve_options(options or {}),
        seats=[(s, 100 + s, f"player{s}") for s in range(players)], seed=seed, nonce=NONCE,
        actions=[(n + 2, seat, action, at) for n, (seat, action, at) in enumerate(run.log)],
        final_state=run.final, created_at=1.0, finished_at=2.0,
    )


def tokens_record(hand: int = 2) -> dict[str, Any]:
    """A two-player Tokens game in which seat 0 plays its tokens in hand order."""
    engine = get_engine("tokens")
    state = engine.new_game(2, 99, {"hand": hand})
    log, now = [], 1_000.0
    while engine.outcome(state) is None:
        seat = state["turn"]
        action = {"type": "play", "token": state["hands"][seat][0]["id"]}
        now += 1.5
        state, _ = engine.apply(state, seat, action, now)
        log.append((len(log) + 2, seat, action, now))
    return build_record(engine, game_id=5, guild_id=1, options=engine.resolve_options({"hand": hand}),
                        seats=[(0, 11, "ana"), (1, 12, "ben")], seed=99, nonce=NONCE, actions=log,
                        final_state=state)


# -- the record ----------------------------------------------------------------------------------------
def test_a_record_holds_what_a_replay_needs() -> None:
    record = tokens_record()
    assert record["format"] == FORMAT and record["format_version"] == 1
    assert record["engine"] == {"name": "tokens", "title": "Tokens", "version": 1}
    assert record["options"] == {"hand": 2, "teams": False}
    assert record["seats"] == [{"seat": 0, "user_id": "11", "name": "ana"},
                               {"seat": 1, "user_id": "12", "name": "ben"}]
    assert record["seed"] == 99 and record["nonce"] == NONCE
    assert record["commitment"] == hashlib.sha256(f"99:{NONCE}".encode()).hexdigest()
    assert [a["seat"] for a in record["actions"]] == [0, 1, 0, 1]
    assert all(set(a) == {"seq", "seat", "action", "at"} for a in record["actions"])
    assert record["outcome"]["ranks"] is not None
    assert json.loads(record_bytes(record)) == record


def test_the_digest_is_sha256_of_the_states_canonical_json() -> None:
    state = {"b": [1, 2.5, None], "a": {"z": "é", "y": True}}
    spelled = json.dumps(state, sort_keys=True, separators=(",", ":"))
    assert canonical_json(state) == spelled
    assert state_digest(state) == hashlib.sha256(spelled.encode()).hexdigest()
    assert state_digest({"t": (1, 2)}) == state_digest({"t": [1, 2]})  # as stored


def test_the_commitment_is_the_one_storage_shows() -> None:
    from storage.records import seed_commitment as stored

    assert seed_commitment(123456789, NONCE) == stored(123456789, NONCE)


@pytest.mark.parametrize("kind", sorted(ENGINES))
@pytest.mark.parametrize("seed", range(3))
def test_every_engines_record_replays_to_its_outcome_and_digest(kind: str, seed: int) -> None:
    engine = get_engine(kind)
    record = record_of_playout(engine, players=engine.min_players, seed=seed)
    verdict = verify(json.loads(record_bytes(record)))  # as read back from the file
    assert verdict.ok, verdict.report()
    assert verdict.digest == record["final_state_sha256"]
    assert verdict.outcome == record["outcome"] is not None
    assert verdict.replayed == len(record["actions"])


# -- tampering -----------------------------------------------------------------------------------------
def tampered(record: dict[str, Any], change: Any) -> dict[str, Any]:
    copied = copy.deepcopy(record)
    change(copied)
    return copied


def test_the_untouched_record_verifies() -> None:
    verdict = verify(tokens_record())
    assert verdict.ok, verdict.report()
    assert "VERIFIED" in verdict.report()


def test_an_action_changed_to_another_legal_one_is_caught_by_the_digest() -> None:
    record = tokens_record()

    def swap_seat_0s_plays(r: dict[str, Any]) -> None:
        first, second = r["actions"][0]["action"], r["actions"][2]["action"]
        first["token"], second["token"] = second["token"], first["token"]

    verdict = verify(tampered(record, swap_seat_0s_plays))
    assert not verdict.ok
    assert verdict.replayed == 4  # every action is legal: only the result shows the change
    assert any("final state differs" in p for p in verdict.problems)


def test_an_action_the_rules_refuse_is_named() -> None:
    verdict = verify(tampered(tokens_record(), lambda r: r["actions"][1]["action"].update(token="s0t0")))
    assert not verdict.ok
    [problem] = verdict.problems
    assert "action #2" in problem and "ben" in problem and "You do not hold that token" in problem


def test_a_changed_seed_no_longer_matches_the_commitment() -> None:
    verdict = verify(tampered(tokens_record(), lambda r: r.update(seed=r["seed"] + 1)))
    assert not verdict.ok
    assert any(p.startswith("wrong commitment") for p in verdict.problems)


def test_a_changed_nonce_or_commitment_is_caught() -> None:
    for change in (lambda r: r.update(nonce="f" * 32), lambda r: r.update(commitment="0" * 64)):
        verdict = verify(tampered(tokens_record(), change))
        assert [p for p in verdict.problems if p.startswith("wrong commitment")], verdict.report()


def test_a_new_seed_with_its_own_commitment_fails_against_the_commitment_the_table_showed() -> None:
    record = tokens_record()
    shown = record["commitment"]

    def forge(r: dict[str, Any]) -> None:
        r["seed"] = 1234
        r["commitment"] = seed_commitment(1234, r["nonce"])

    forged = tampered(record, forge)
    assert verify(record, shown=shown).ok
    verdict = verify(forged, shown=shown)
    assert any("not the one the table showed" in p for p in verdict.problems)


def test_a_changed_outcome_or_a_missing_last_action_is_caught() -> None:
    record = tokens_record()
    swapped = tampered(record, lambda r: r["outcome"].update(ranks=[1 - x for x in r["outcome"]["ranks"]]))
    if record["outcome"]["ranks"][0] != record["outcome"]["ranks"][1]:
        assert any(p.startswith("outcome differs") for p in verify(swapped).problems)
    cut = verify(tampered(record, lambda r: r["actions"].pop()))
    assert any("not finished" in p for p in cut.problems)
    extra = verify(tampered(record, lambda r: r["actions"].append(dict(r["actions"][-1]))))
    assert any("already over" in p for p in extra.problems)


def test_another_engine_version_is_reported() -> None:
    verdict = verify(tampered(tokens_record(), lambda r: r["engine"].update(version=99)))
    assert any("version 99" in p for p in verdict.problems)


def test_what_is_not_a_record_is_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="not a Rumpus game record"):
        verify({"hello": 1})
    with pytest.raises(RecordError, match="seed"):
        verify(tampered(tokens_record(), lambda r: r.update(seed="99")))
    with pytest.raises(RecordError, match="action #1"):
        verify(tampered(tokens_record(), lambda r: r["actions"][0].update(action="play")))
    with pytest.raises(RecordError, match="no engine called 'chess'"):
        verify(tampered(tokens_record(), lambda r: r["engine"].update(name="chess")))
    junk = tmp_path / "junk.json"
    junk.write_text("{not json", encoding="utf-8")
    with pytest.raises(RecordError, match="not JSON"):
        load_record(junk)


# -- the command line ----------------------------------------------------------------------------------
def write(tmp_path: Path, record: dict[str, Any], name: str = "record.json") -> Path:
    path = tmp_path / name
    path.write_bytes(record_bytes(record))
    return path


def test_main_exits_0_when_everything_matches_and_1_when_not(tmp_path: Path, capsys: Any) -> None:
    record = tokens_record()
    assert main([str(write(tmp_path, record))]) == 0
    out = capsys.readouterr().out
    assert record["final_state_sha256"] in out and "outcome: ok" in out
    bad = tampered(record, lambda r: r.update(seed=1))
    assert main([str(write(tmp_path, bad, "bad.json"))]) == 1
    assert "MISMATCH: wrong commitment" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.json")]) == 1
    assert "cannot read" in capsys.readouterr().err


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "games.replay", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, encoding="utf-8")


def test_the_command_line_replays_a_record_in_a_fresh_process(tmp_path: Path) -> None:
    engine = get_engine("race")  # a game with seat-less actions (the game says GO!) and timed presses
    record = record_of_playout(engine, players=3, seed=11)
    path = write(tmp_path, record)
    done = run_cli(str(path), "--engine-module", TEST_ENGINE_MODULES["race"],
                   "--commitment", record["commitment"])
    assert done.returncode == 0, done.stderr
    assert "VERIFIED" in done.stdout and record["final_state_sha256"] in done.stdout
    assert "outcome: ok — 1. " in done.stdout
    missing = run_cli(str(path))  # the test engine is not registered in a fresh process
    assert missing.returncode == 1 and "--engine-module" in missing.stderr


def test_the_command_line_fails_a_tampered_action_and_a_wrong_seed(tmp_path: Path) -> None:
    record = tokens_record()
    module = TEST_ENGINE_MODULES["tokens"]
    changed = tampered(record, lambda r: r["actions"][0]["action"].update(token="s0t1"))
    done = run_cli(str(write(tmp_path, changed, "action.json")), "--engine-module", module)
    assert done.returncode == 1 and "MISMATCH" in done.stderr and "FAILED" in done.stderr
    reseeded = tampered(record, lambda r: r.update(seed=r["seed"] + 1))
    done = run_cli(str(write(tmp_path, reseeded, "seed.json")), "--engine-module", module)
    assert done.returncode == 1 and "wrong commitment" in done.stderr
    done = run_cli(str(write(tmp_path, record)), "--engine-module", module)
    assert done.returncode == 0 and "VERIFIED" in done.stdout
