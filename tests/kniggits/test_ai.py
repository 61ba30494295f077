"""The Kniggits computer player (games/kniggits/ai.py): it sees only its seat's view (a
hidden item changed leaves its view and its choice alone), it always acts legally over
seeded games with every option mix, it plays sensibly (gangs up, declines bad odds, mixes
its gestures), and it beats a random legal player (a fixed-seed floor against regressions).
"""

from __future__ import annotations

import collections
import json
import random
from typing import Any

from games.computer import Asked, decision_rng
from games.kniggits import ai_gestures
from games.kniggits.ai import POLICY
from games.kniggits.samples import ENGINE, battle, kniggit
from tests.computers import Decision, assert_beats_random, versus_random
from tests.kniggits.support import k, play, to_fight
from tests.secrecy import RNG_SECRETS, alternatives, get, put, without_commitments

NOW = 2_000.0


def ask(state: dict[str, Any], seat: int, rng_seed: int = 1) -> dict[str, Any]:
    keys = tuple(w.key for w in ENGINE.to_act(state) if w.seat == seat)
    view = ENGINE.view(state, seat)
    return POLICY.choose(view, Asked(seat, keys, NOW), random.Random(rng_seed))


def drive(state: dict[str, Any], seat: int, until: Any, limit: int = 40) -> dict[str, Any]:
    """Let the computer act for `seat` until `until(state)` holds (or it is not awaited)."""
    for n in range(limit):
        if until(state) or seat not in {w.seat for w in ENGINE.to_act(state)}:
            return state
        state, _ = ENGINE.apply(state, seat, ask(state, seat, n), NOW)
    raise AssertionError("the computer did not finish")


# ----- (1) it sees only its view ----------------------------------------------------------------
def decision_states(games: int = 6) -> list[Decision]:
    """States where seat 0 (the computer) is awaited, from seeded games of the shared
    computer-vs-random playout (tests/computers.py): map, armies, deployment, throws, moves,
    attacks, exchanges (every build, deployment, throw and exchange; a quarter of the rest)."""
    found: list[Decision] = []
    for seed in range(games):
        options = {"archers": seed % 2 == 0, "magic_swords": seed % 3 == 0, "potions": 2 * (seed % 3),
                   "scenario": "flag" if seed % 4 == 1 else "annihilation", "rounds": 6}
        found += versus_random(
            ENGINE, POLICY, seed, 2, {0}, options, salt=0, pace=2.0, keep=3_000,
            sample=lambda state, _wait, chooser: chooser.random() < 0.25 or state["phase"] in ("build", "deploy", "rps")
            or state["exchange"] is not None).samples
    return found


def test_the_choice_depends_on_the_view_alone_and_no_hidden_item_changes_it() -> None:
    seat = 0
    checked: collections.Counter[str] = collections.Counter()
    for sample in decision_states():
        state, version = sample.state, sample.version
        keys = tuple(w.key for w in ENGINE.to_act(state) if w.seat == seat)
        view = ENGINE.view(state, seat)
        asked = Asked(seat, keys, NOW)
        action = POLICY.choose(json.loads(json.dumps(view)), asked, decision_rng(5, version, seat))
        declared = [*RNG_SECRETS, *ENGINE.secrets(state)]
        found: dict[str, list[Any]] = {}
        for secret in declared:
            value = get(state, secret.path)
            if value is not None and not isinstance(value, dict | list):
                found.setdefault(secret.pool, []).append(value)
        for secret in declared:
            if secret.owner == seat or seat in secret.shared or get(state, secret.path) is None:
                continue
            for value in alternatives(ENGINE, state, secret, found)[:2]:
                changed = json.loads(json.dumps(state))
                put(changed, secret.path, value)
                other = ENGINE.view(changed, seat)
                assert without_commitments(other) == without_commitments(view), secret.path
                again = POLICY.choose(other, asked, decision_rng(5, version, seat))
                assert again == action, (secret.path, action, again)
                checked[secret.pool] += 1
    # The enemy's secret army, sealed deployment, throw and gesture were all among them.
    assert {"army", "placements", "rps", "gesture", "rng"} <= set(checked), checked


# ----- (2) always legal -----------------------------------------------------------------------
def random_options(r: random.Random) -> dict[str, Any]:
    return {"size": r.choice([24, 36, 48]), "preset": r.choice(["open", "woods", "ruins"]),
            "budget": r.randint(20, 120), "rounds": r.randint(2, 5), "horses": r.random() < 0.5,
            "magic_swords": r.random() < 0.5, "double_defence": r.random() < 0.5,
            "two_swords": r.random() < 0.5, "archers": r.random() < 0.5,
            "potions": r.choice([0, 2, 4, 6]), "scenario": r.choice(["annihilation", "flag"])}


def test_every_choice_is_legal_over_seeded_games_with_every_option_mix() -> None:
    for seed in range(24):
        r = random.Random(seed)
        players = r.choice([2, 3, 4])
        options = random_options(r)
        computers = set(range(players)) if seed % 3 == 0 else set(r.sample(range(players), r.randint(1, players)))
        run = versus_random(ENGINE, POLICY, seed, players, computers, options, salt=0, pace=2.0, limit=4_000)
        assert ENGINE.outcome(run.final) is not None


def test_timeouts_and_every_wait_key_are_answered() -> None:
    """Whatever it is awaited for, the answer is an action the engine takes (checked by
    the legality sweep); here the pieces the sweep meets seldom: a claimable forfeit."""
    state = battle([kniggit("A1", (10, 10), (3, 2, 2)), kniggit("B1", (10, 30), (3, 2, 2))])
    state["idle"] = [0, 3]
    assert ask(state, 0) == {"type": "claim_forfeit"}


# ----- (3) sensible play ----------------------------------------------------------------------
def test_it_gangs_up_on_an_enemy_already_fighting_one_of_its_kniggits() -> None:
    state = battle([kniggit("A1", (10, 10), (3, 2, 2), facing="B1"), kniggit("A2", (14, 8), (3, 2, 2)),
                    kniggit("B1", (10, 12), (3, 2, 2), facing="A1"), kniggit("B2", (30, 34), (3, 2, 2))])
    state = drive(state, 0, lambda s: s["phase"] != "move")
    engaged = [pair for pair in ENGINE.view(state, 0)["engaged"] if pair[1] == "B1"]
    assert len(engaged) == 2, engaged
    # ... and attacks from the flank (one-way) before the mutual exchange.
    state = to_fight(state)
    attack = ask(state, 0)
    assert attack["type"] == "attack" and attack["target"] == "B1"
    assert k(state, "B1")["facing"] != attack["id"]


def test_it_does_not_charge_into_a_group_that_outnumbers_it() -> None:
    state = battle([kniggit("A1", (18, 10), (3, 2, 2)),
                    kniggit("B1", (17, 16), (3, 2, 2)), kniggit("B2", (18, 16), (3, 2, 2)),
                    kniggit("B3", (19, 16), (3, 2, 2))])
    state = drive(state, 0, lambda s: s["phase"] != "move")
    assert ENGINE.view(state, 0)["engaged"] == []


def test_it_engages_a_lone_weak_enemy_it_can_reach() -> None:
    state = battle([kniggit("A1", (18, 10), (3, 3, 3)), kniggit("A2", (20, 10), (3, 3, 3)),
                    kniggit("B1", (19, 15), (1, 1, 2))])
    state = drive(state, 0, lambda s: s["phase"] != "move")
    assert any(pair[1] == "B1" for pair in ENGINE.view(state, 0)["engaged"])


def test_it_declines_a_mutual_exchange_it_would_likely_lose_and_takes_a_good_one() -> None:
    weak = battle([kniggit("A1", (10, 10), (1, 1, 1), facing="B1"), kniggit("B1", (10, 12), (4, 4, 4), facing="A1")])
    weak = to_fight(weak)
    assert weak["phase"] == "fight"
    assert ask(weak, 0) == {"type": "end_turn"}
    strong = battle([kniggit("A1", (10, 10), (4, 4, 4), facing="B1"), kniggit("B1", (10, 12), (1, 1, 1), facing="A1")])
    strong = to_fight(strong)
    assert ask(strong, 0) == {"type": "attack", "id": "A1", "target": "B1"}


def test_in_the_turning_phase_it_faces_the_attacker_its_strike_back_hurts_most() -> None:
    state = battle([kniggit("A1", (10, 10), (3, 2, 2), facing="B2"),
                    kniggit("B1", (10, 12), (1, 1, 2)), kniggit("B2", (11, 11), (3, 3, 3))], first="B")
    state, _ = play(state, 1, type="done")  # B holds: both B kniggits face A1, A turns
    assert state["phase"] == "turning"
    assert ask(state, 0) == {"type": "face", "id": "A1", "target": "B1"}
    state, _ = play(state, 0, type="face", id="A1", target="B1")
    assert ask(state, 0) == {"type": "done"}


def gesture_state() -> dict[str, Any]:
    state = battle([kniggit("A1", (10, 10), (3, 2, 2), facing="B1"), kniggit("B1", (10, 12), (2, 0, 3), facing="A1")])
    state = to_fight(state)
    state, _ = play(state, 0, type="attack", id="A1", target="B1")
    assert state["exchange"] is not None
    return state


def test_gestures_are_mixed_never_a_fixed_pattern_and_never_wasted() -> None:
    state = gesture_state()
    picks = [ask(state, 0, seed) for seed in range(300)]
    swords = collections.Counter(p["sword"] for p in picks)
    # B1 has no Attack token left: a High blow would take nothing, so it is never swung.
    assert swords["high"] == 0
    assert len(swords) == 2 and max(swords.values()) < 0.85 * len(picks), swords
    shields = collections.Counter(p.get("shield") for p in picks if "shield" in p)
    assert all(p["lock"] for p in picks)
    if shields:  # B1 (A=0) cannot strike back, so A1 may not be asked for a shield
        assert len(shields) >= 2
    # Consecutive decisions of one game do not repeat a pattern either.
    state_b = battle([kniggit("A1", (10, 10), (3, 3, 3), facing="B1"), kniggit("B1", (10, 12), (3, 3, 3), facing="A1")])
    state_b = to_fight(state_b)
    state_b, _ = play(state_b, 0, type="attack", id="A1", target="B1")
    mutual = [ask(state_b, 0, seed) for seed in range(300)]
    assert len({p["sword"] for p in mutual}) == 3 and len({p["shield"] for p in mutual}) == 3
    for pick in mutual[:20]:
        ENGINE.apply(state_b, 0, pick, NOW)  # each is legal


def test_the_equilibrium_mix_leaves_a_knowing_opponent_nothing_to_exploit() -> None:
    values = {"high": 6.0, "mid": 3.0, "low": 1.5}
    strike, guard = ai_gestures.equilibrium_strike(values)
    gains = [values[h] * (1 - guard[h]) for h in values if strike[h] > 0]
    assert max(gains) - min(gains) < 1e-9  # the striker is indifferent: no height is a sure thing
    losses = [sum(strike[h] * values[h] for h in values if h != g) for g in values if guard[g] > 0]
    assert max(losses) - min(losses) < 1e-9  # the guard is indifferent too
    assert abs(sum(strike.values()) - 1) < 1e-9 and abs(sum(guard.values()) - 1) < 1e-9


def test_rock_paper_scissors_is_thrown_at_random() -> None:
    shapes = collections.Counter(ai_gestures.throw(random.Random(seed)) for seed in range(300))
    assert set(shapes) == {"rock", "paper", "scissors"} and max(shapes.values()) < 140


def test_an_archer_with_a_clear_shot_holds_and_shoots() -> None:
    state = battle([kniggit("A1", (10, 10), (2, 2, 5), kind="archer"), kniggit("B1", (10, 17), (3, 2, 2))],
                   archers=True)
    state = drive(state, 0, lambda s: s["phase"] != "move")
    assert k(state, "A1")["pos"] == [10, 10]
    state = to_fight(state)
    assert ask(state, 0) == {"type": "shoot", "id": "A1", "target": "B1"}


def test_it_builds_a_valid_army_within_its_share_and_deploys_in_its_zone() -> None:
    for options in ({}, {"archers": True, "magic_swords": True, "budget": 80}, {"budget": 20}):
        state = ENGINE.new_game(2, 3, options)
        for seat in (0, 1):
            state = drive(state, seat, lambda s: s["phase"] != "map")
        state = drive(state, 0, lambda s: s["build"]["box"]["picks"][0] is not None)
        state = drive(state, 1, lambda s: s["phase"] != "build")
        assert state["phase"] == "deploy", state.get("over")
        assert all(p["valid"] for p in state["revealed"][0]) and all(p["valid"] for p in state["revealed"][1])
        state = drive(state, 0, lambda s: s["phase"] != "deploy" and True)
        state = drive(state, 1, lambda s: s["phase"] != "deploy")
        assert state["phase"] == "rps"
        for x in state["kniggits"]:
            low, high = (1, 6) if x["army"] == 0 else (state["height"] - 5, state["height"])
            assert low <= x["pos"][1] <= high


# ----- (4) strength ---------------------------------------------------------------------------
def test_it_beats_a_random_legal_player_on_fixed_seeds() -> None:
    assert_beats_random(ENGINE, POLICY, games=24, first_seed=500, floor=0.7)


def test_a_battered_kniggit_backs_away_from_a_fresh_enemy() -> None:
    state = battle([kniggit("A1", (18, 10), (3, 1, 1), facing="B1"), kniggit("B1", (18, 12), (4, 4, 4), facing="A1")])
    state = drive(state, 0, lambda s: s["phase"] != "move")
    assert ENGINE.view(state, 0)["engaged"] == []  # K8: every step took it further from B1


def test_a_flag_carrier_heads_for_home() -> None:
    state = battle([kniggit("A1", (18, 20), (3, 2, 2)), kniggit("B1", (30, 34), (3, 2, 2))], flags=True)
    state["kniggits"][0].update({"carrying": 1, "hand": "sword"})
    flag = next(f for f in state["map"]["flags"] if f["army"] == 1)
    flag.update({"carrier": "A1", "pos": None, "hand": "sword"})
    state = drive(state, 0, lambda s: s["phase"] != "move")
    assert k(state, "A1")["pos"][1] == 14  # six inches straight home


def test_with_flags_its_nearest_kniggit_goes_for_the_enemy_flag() -> None:
    state = battle([kniggit("A1", (18, 14), (3, 2, 2)), kniggit("A2", (10, 4), (3, 2, 2)),
                    kniggit("B1", (2, 34), (3, 2, 2))], flags=True)
    home = next(f["home"] for f in state["map"]["flags"] if f["army"] == 1)
    before = (k(state, "A1")["pos"][0] - home[0]) ** 2 + (k(state, "A1")["pos"][1] - home[1]) ** 2
    state = drive(state, 0, lambda s: s["phase"] != "move")
    after = (k(state, "A1")["pos"][0] - home[0]) ** 2 + (k(state, "A1")["pos"][1] - home[1]) ** 2
    assert after < before
