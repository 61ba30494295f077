"""Kniggits screens from real engine states: no hidden item on the table or in another seat's
panel, only legal controls, every action a control carries survives its trip through a
custom_id into the engine, names instead of seats, words for every event and result."""

from __future__ import annotations

import functools
import json
import re
from typing import Any

import discord
import pytest

from cogs.kniggits import ui as kui
from cogs.kniggits.wording import HEIGHT_WORD
from cogs.table import codec
from cogs.table.panels import bound
from cogs.table.present import LASTING, Rendered, build_view
from cogs.table.ui import Button, FormButton, Screen, Select, TableInfo
from cogs.table.ui import Seat as SeatInfo
from games import choices
from games.core import IllegalAction, Outcome
from games.kniggits.engine import KniggitsEngine
from tests.playout import random_playout
from tests.secrecy import alternatives, get, put

ENGINE = KniggitsEngine()
UI = kui.KniggitsUI()
NAMES = ("Alice the Bold 🛡️", "Bob", "Carol", "Dmitri")
NOW = 5_000.0
BASIC = {"size": 24}
ADVANCED = {"size": 24, "horses": True, "magic_swords": True, "double_defence": True, "two_swords": True,
            "archers": True, "potions": 4, "scenario": "flag", "budget": 60}
HEX = re.compile(r"[0-9a-f]{64}")


def info_for(players: int) -> TableInfo:
    return TableInfo(7, [SeatInfo(i, 100 + i, NAMES[i]) for i in range(players)])


@functools.cache
def playout(players: int, seed: int, advanced: bool) -> Any:
    options = dict(ADVANCED if advanced else BASIC)
    if players == 3:
        options["team_sizes"] = [1, 2]
    return random_playout(ENGINE, players, seed, options)


RUNS = [(2, 3, False), (2, 11, True), (3, 5, True), (4, 6, False), (2, 4, True)]


def shown(screen: Screen | None) -> str:
    """Everything a screen shows or sends, commitments aside (they change with any pick)."""
    if screen is None:
        return "None"
    card = screen.card
    parts: list[Any] = [card.title, card.description, list(card.fields), card.footer, screen.hand_label,
                        screen.image is not None, screen.image_name]
    for control in screen.controls:
        if isinstance(control, Select):
            parts.append([control.placeholder, [(c.label, c.action) for c in control.choices]])
        else:
            parts.append([control.label, control.action])
    return HEX.sub("#", json.dumps(parts, sort_keys=True, default=str))


def legal(state: dict[str, Any], seat: int, action: dict[str, Any]) -> str | None:
    try:
        ENGINE.apply(state, seat, action, NOW)
        return None
    except IllegalAction as exc:
        return exc.message


def form_values(control: FormButton, view: dict[str, Any]) -> list[dict[str, Any]]:
    """What a sensible player types into each form of ours."""
    me = view.get("me") or {}
    if control.action["type"] == "army":
        return [{"lines": "Lance 2 2 2\nBow 1 1 1"}]
    if control.action["type"] == "deploy":
        deploy = me.get("deploy") or {}
        low = deploy.get("zone", [1, 6])[0]
        return [{"lines": f"{kid} {x},{low}"} for kid in deploy.get("mine", [])[:1]
                for x in range(1, view["battlefield"]["width"] + 1)][:24]
    if control.action["type"] == "plan":
        return [{"to": f"{d['cell'][0]},{d['cell'][1]}", "via": ""} for d in me.get("destinations") or []
                if d["tag"] != "hold"][:3]
    raise AssertionError(f"unknown form {control.action}")


@pytest.mark.parametrize("players,seed,advanced", RUNS)
def test_every_control_is_legal_and_round_trips(players: int, seed: int, advanced: bool) -> None:
    run = playout(players, seed, advanced)
    info = info_for(players)
    pressed = 0
    for state in run.states[::3]:
        if ENGINE.outcome(state) is not None:
            continue
        awaited = {w.seat for w in ENGINE.to_act(state) if w.seat is not None}
        table = UI.table(ENGINE.view(state, None), info)
        for control in table.controls:
            assert isinstance(control, Button)
            assert codec.parse(codec.action_id(1, 1, control.action)).action == control.action
            assert any(legal(state, s, control.action) is None for s in awaited), (control.label, state["phase"])
        for seat in range(players):
            view = ENGINE.view(state, seat)
            screen = UI.private(view, seat, info)
            assert screen is not None
            for control in screen.controls:
                if isinstance(control, Select):
                    actions = [c.action for c in control.choices]
                    for action in actions:  # a select's value carries the action itself
                        assert codec.action_of(codec.select_value(action)) == action
                elif isinstance(control, FormButton):
                    assert codec.parse(codec.form_id(1, 1, control.action)).action == control.action
                    tries = [{**control.action, **values} for values in form_values(control, view)]
                    assert any(legal(state, seat, a) is None for a in tries), (control.label, tries[:2])
                    continue
                else:
                    assert codec.parse(codec.action_id(1, 1, control.action)).action == control.action
                    actions = [control.action]
                for action in actions:
                    why = legal(state, seat, action)
                    assert why is None, f"{NAMES[seat]}'s {action} refused in {state['phase']}: {why}"
                    pressed += 1
    assert pressed > (0 if ENGINE.outcome(run.final).reason == "no_army" else 50)


@pytest.mark.parametrize("players,seed,advanced", RUNS)
def test_no_secret_reaches_the_table_or_another_panel(players: int, seed: int, advanced: bool) -> None:
    run = playout(players, seed, advanced)
    info = info_for(players)
    checked = 0
    for state in run.states[::2]:
        declared = ENGINE.secrets(state)
        if not declared:
            continue
        found: dict[str, list[Any]] = {}
        for secret in declared:
            value = get(state, secret.path)
            if value is not None and not isinstance(value, dict | list):
                found.setdefault(secret.pool, []).append(value)
        before = {None: shown(UI.table(ENGINE.view(state, None), info))}
        before.update({s: shown(UI.private(ENGINE.view(state, s), s, info)) for s in range(players)})
        for secret in declared:
            for other in alternatives(ENGINE, state, secret, found)[:2]:
                changed = json.loads(json.dumps(state))
                put(changed, secret.path, other)
                for viewer, was in before.items():
                    if viewer == secret.owner or viewer in secret.shared:
                        continue
                    screen = (UI.table(ENGINE.view(changed, None), info) if viewer is None
                              else UI.private(ENGINE.view(changed, viewer), viewer, info))
                    assert shown(screen) == was, f"{secret.path} shows on {viewer!r}'s screen"
                    checked += 1
    assert checked > 0


def test_the_table_names_players_and_says_who_must_act() -> None:
    for players, seed, advanced in RUNS:
        run = playout(players, seed, advanced)
        info = info_for(players)
        for state in run.states[::7]:
            view = ENGINE.view(state, None)
            screen = UI.table(view, info)
            text = screen.card.title + screen.card.description + "".join(v for _n, v, _i in screen.card.fields)
            assert not re.search(r"\b[Ss]eat \d", text)
            for army in ("A", "B"):
                for seat in view["armies"][army]["seats"]:
                    assert NAMES[seat] in text
            if view["phase"] not in ("over", "build", "deploy") and view["awaited"]:
                assert any(NAMES[s] in screen.card.description for s in view["awaited"])
            assert screen.hand_label


def test_every_event_and_result_reads_with_names() -> None:
    kinds: set[str] = set()
    reasons: set[str] = set()
    for players, seed, advanced in [*RUNS, (2, 8, True), (2, 9, False)]:
        run = playout(players, seed, advanced)
        info = info_for(players)
        for state, (seat, action, now) in zip(run.states, run.log, strict=False):
            for event in ENGINE.apply(state, seat, action, now)[1]:
                line = UI.event_line(event.to_json(), info)
                assert line and "{" not in line and "Seat " not in line, (event, line)
                kinds.add(event.type)
        outcome = ENGINE.outcome(run.final)
        assert outcome is not None
        reasons.add(outcome.reason)
        assert UI.result_reason(outcome.to_json(), info)
    assert {"moved", "attack", "exchange", "locked", "victory", "reveal_armies", "deployed", "rps"} <= kinds
    info = info_for(2)
    teams = [[0], [1]]
    for reason, detail in [("annihilation", {"winner": "A"}), ("annihilation", {"winner": None}),
                           ("flag", {"winner": "B", "carrier": "B2"}), ("on_points", {"winner": "A", "strength": {"A": 20, "B": 11}}),
                           ("on_points", {"winner": None, "strength": {"A": 9, "B": 9}}), ("concede", {"winner": "B", "seat": 0}),
                           ("forfeit_claim", {"winner": "A", "seat": 0, "idle": "B"}), ("no_army", {"winner": "A"}),
                           ("no_army", {"winner": None}), ("forfeit", {"seat": 1})]:
        text = UI.result_reason(Outcome((0, 1), teams=tuple(map(tuple, teams)), reason=reason,
                                        detail=detail).to_json(), info)
        assert text and "{" not in text and "Seat" not in text, (reason, text)
        if detail.get("winner"):
            assert NAMES[0 if detail["winner"] == "A" else 1] in text


def exchange_states(advanced: bool = True) -> list[dict[str, Any]]:
    out = []
    for players, seed, adv in RUNS:
        if adv == advanced:
            out += [s for s in playout(players, seed, adv).states if s["exchange"] is not None]
    return out


def test_the_gesture_panel_offers_only_the_listed_heights_and_refuses_outsiders() -> None:
    seen_outsider = seen_panel = 0
    for state in exchange_states() + exchange_states(False):
        players = state["players"]
        info = info_for(players)
        sides = {s["seat"]: s for s in state["exchange"]["sides"]}
        for seat in range(players):
            view = ENGINE.view(state, seat)
            screen = UI.private(view, seat, info)
            assert screen is not None
            labels = [c.label for c in screen.controls if not isinstance(c, Select)]
            if seat not in sides:
                assert "Not your fight" in screen.card.description
                assert not any(label.startswith(("Sword", "Shield", "Lock")) for label in labels)
                seen_outsider += 1
                continue
            panel = view["me"]["gesture"]
            if panel["locked"]:
                continue
            seen_panel += 1
            if not panel["draft"].get("double"):
                for h in ("high", "mid", "low"):
                    if h not in panel["sword_heights"]:
                        assert f"Sword {HEIGHT_WORD[h]}" not in labels
            assert ("Shield High" in labels) == bool(panel["shield"]) or panel["draft"].get("double")
            assert "Lock gesture" in labels
    assert seen_outsider and seen_panel


def test_the_exchange_post_shows_locks_not_picks_and_each_side_its_own_commitment() -> None:
    """The table changes only with who has locked (a commitment changes with the pick, so it
    stays in its maker's panel until the reveal)."""
    for state in exchange_states():
        box = state["exchange"]["box"]
        if not choices.chosen(box):
            continue
        view = ENGINE.view(state, None)
        info = info_for(state["players"])
        screen = UI.table(view, info)
        assert screen.hand_label == "Choose gesture"
        assert "🔒" in screen.card.description and not HEX.search(screen.card.description)
        for seat, commitment in view["exchange"]["round"]["commitments"].items():
            assert commitment not in screen.card.description
            assert commitment in UI.private(ENGINE.view(state, int(seat)), int(seat), info).card.description
            for other in box["seats"]:
                if other != int(seat):
                    assert commitment not in UI.private(ENGINE.view(state, other), other, info).card.description
        return
    pytest.fail("no exchange with a lock in the sample games")


def test_shortcuts_build_the_engines_actions() -> None:
    by_name = {s.name: s for s in UI.shortcuts}
    assert by_name["move"].build({"id": "a1", "to": "12,9 via 10,5 11,7"}) == {
        "type": "move", "id": "A1", "to": "12,9", "via": "10,5 11,7"}
    assert by_name["army"].build({"lines": "Lance 2 2 2; Bow 3 2 4 archer"}) == {
        "type": "army", "lines": "Lance 2 2 2\n Bow 3 2 4 archer"}
    assert by_name["deploy"].build({"lines": "front"}) == {"type": "deploy", "preset": "front"}
    assert by_name["attack"].build({"id": "a1", "target": "b2"}) == {"type": "attack", "id": "A1", "target": "B2"}
    assert {"army", "deploy", "move", "undo", "face", "done", "attack", "shoot", "concede"} <= set(by_name)
    lookups = {lookup.name: lookup for lookup in UI.lookups}
    assert lookups["reach"].private and lookups["los"].private and not set(by_name) & set(lookups)


def test_the_engines_sample_states_draw_legibly_and_keep_their_screens_honest() -> None:
    from cogs.table import pictures
    from games.kniggits.samples import sample_states
    from tests.test_pictures_legible import check

    drawn = set()
    for name, state in sample_states().items():
        players = state["players"]
        info = info_for(players)
        screens = [UI.table(ENGINE.view(state, None), info)]
        screens += [UI.private(ENGINE.view(state, s), s, info) for s in range(players)]
        for screen in screens:
            assert screen is not None
            if screen.image is not None and screen.image_name not in drawn:
                pictures.FONT_SIZES.clear()
                check(screen.image(), set(pictures.FONT_SIZES))
                drawn.add(screen.image_name)
        if name == "plan":
            owner = next(s for s, p in enumerate(state["plans"]) if p is not None)
            panel = screens[1 + owner]
            assert panel.image_name == "preview.png" and "Preview" in panel.card.description
            assert " of " in panel.card.description  # "4.83 of 6"
            assert {c.label for c in panel.controls if isinstance(c, Button)} >= {"Confirm move", "Change"}
            for seat in range(players):
                if seat != owner:
                    assert "Preview" not in screens[1 + seat].card.description
    assert {"battlefield.png", "preview.png"} <= drawn


@functools.cache
def move_states() -> list[tuple[dict[str, Any], int]]:
    """(state, seat) where the seat's move panel has a kniggit selected."""
    out = []
    for players, seed, adv in RUNS:
        for state in playout(players, seed, adv).states:
            if state["phase"] == "move" and state["turn"] is not None:
                for seat in range(players):
                    me = ENGINE.view(state, seat)["me"]
                    if me.get("cursor") and len(me.get("movers") or []) > 1 and not me.get("plan"):
                        out.append((state, seat))
    return out


def lookup(name: str) -> Any:
    return next(item for item in UI.lookups if item.name == name)


def test_the_move_panel_preselects_the_selected_kniggit_and_draws_its_reach() -> None:
    state, seat = move_states()[0]
    view = ENGINE.view(state, seat)
    me = view["me"]
    screen = UI.private(view, seat, info_for(state["players"]))
    kniggits = next(c for c in screen.controls if isinstance(c, Select) and c.placeholder == "Kniggit to move")
    assert [c.action["id"] for c in kniggits.choices if c.default] == [me["cursor"]]
    assert screen.image_name == "reach.png" and screen.image().startswith(b"\x89PNG")
    assert f"{len(me['reach'])} cells **{me['cursor']}** can reach" in screen.card.description


def test_reach_and_los_are_private_pictures_of_ones_own_kniggits_only() -> None:
    state, seat = move_states()[0]
    view, info = ENGINE.view(state, seat), info_for(state["players"])
    me = view["me"]
    reach, los = lookup("reach"), lookup("los")
    shown_reach = reach.show(view, info, {"id": me["cursor"].lower()})
    assert isinstance(shown_reach, Screen) and shown_reach.image_name == "reach.png"
    assert f"can reach {len(me['reach'])} cells" in shown_reach.card.description
    assert shown_reach.image().startswith(b"\x89PNG")
    other = next(m["id"] for m in me["movers"] if m["id"] != me["cursor"])
    ask = reach.show(view, info, {"id": other})
    assert not isinstance(ask, Screen) and f"pick **{other}**" in ask.description
    enemy = next(k["id"] for k in view["kniggits"] if k["owner"] != seat)
    for item in (reach, los):
        refused = item.show(view, info, {"id": enemy})
        assert not isinstance(refused, Screen) and "not yours" in refused.description
        assert "no kniggit" in item.show(view, info, {"id": "Z9"}).description
    suggested = [value for _label, value in reach.params[0].suggest(view, seat)]
    assert suggested[0] == me["cursor"] and set(suggested) == {m["id"] for m in me["movers"]}
    archers = [(s, k) for s in [*(st for st, _ in move_states())] for k in s["kniggits"]
               if k["kind"] == "archer" and k["status"] == "active"
               and k["id"] in (ENGINE.view(s, k["owner"])["me"].get("sights") or {})]
    state, archer = archers[0]
    view = ENGINE.view(state, archer["owner"])
    sight = los.show(view, info_for(state["players"]), {"id": archer["id"]})
    assert isinstance(sight, Screen) and sight.image_name == "sight.png" and "Can shoot" in sight.card.description
    assert sight.image().startswith(b"\x89PNG")
    assert [v for _l, v in los.params[0].suggest(view, archer["owner"])]
    melee = next(k["id"] for k in view["kniggits"] if k["owner"] == archer["owner"] and k["kind"] != "archer"
                 and k["status"] == "active")
    assert "no archer" in los.show(view, info_for(state["players"]), {"id": melee}).description


async def test_the_handedness_toggle_is_lasting_so_a_panel_showing_it_is_not_stale() -> None:
    """It names the hand and is good in any phase: drawn without a state version, it does not
    make a seat's unchanged panel count as stale (a DM edit on every step while it shows)."""
    build = next(s for s in playout(2, 11, True).states if s["phase"] == "build")
    panel = UI.private(ENGINE.view(build, 0), 0, info_for(2))
    toggle = next(c for c in panel.controls if c.label == "I'm left-handed")
    assert isinstance(toggle, Button) and toggle.lasting
    view = build_view(7, 12, Screen(panel.card, controls=[toggle]), hand_button=False)
    assert view is not None
    [route] = [codec.parse(item["custom_id"]) for row in view.to_components() for item in row["components"]]
    assert route is not None and route.action == toggle.action and route.version == LASTING
    assert not bound(Rendered(discord.Embed(), view, version=12))


def test_left_handed_players_get_their_own_gesture_labels_and_a_toggle_to_say_so() -> None:
    build = next(s for s in playout(2, 11, True).states if s["phase"] == "build")
    panel = UI.private(ENGINE.view(build, 0), 0, info_for(2))
    toggle = next(c for c in panel.controls if c.label == "I'm left-handed")
    lefty, _ = ENGINE.apply(build, 0, toggle.action, NOW)
    again = UI.private(ENGINE.view(lefty, 0), 0, info_for(2))
    assert any(c.label == "I'm right-handed" and c.action == {"type": "handed", "left": False} for c in again.controls)
    assert UI.event_line({"type": "handed", "data": {"seat": 0, "left": True}}, info_for(2)).endswith("left-handed.")
    for state in exchange_states():
        g = next((s for s in state["exchange"]["sides"] if s["swords"] == 1 and s["shield"]
                  and not choices.has_chosen(state["exchange"]["box"], s["seat"])), None)
        if g is None:
            continue
        seat = g["seat"]
        state = json.loads(json.dumps(state))
        state["left_handed"][seat] = True
        controls = UI.private(ENGINE.view(state, seat), seat, info_for(state["players"])).controls
        labels = [c.label for c in controls if isinstance(c, Button)]
        assert any(label.startswith("Left hand — sword") for label in labels)
        pair = next(c for c in controls if isinstance(c, Select) and c.placeholder.startswith("Sword + shield"))
        assert pair.choices[0].label.startswith("Left hand — sword") and "right hand — shield" in pair.choices[0].label
        assert "Right hand — shield High" in labels and "Shield High" not in labels
        return
    pytest.fail("no open one-sword exchange in the sample games")


def test_event_lines_name_each_kniggits_commander() -> None:
    info = info_for(2)
    line = UI.event_line({"type": "fled", "data": {"id": "A1", "owner": 0, "pos": [3, 3], "tokens": [0, 2, 0]}}, info)
    assert line.startswith(f"⚑ {NAMES[0]}'s A1 flees")
    faced = UI.event_line({"type": "faced", "data": {"id": "B2", "target": "A1", "owner": 1, "target_owner": 0}}, info)
    assert faced == f"🧭 Bob's B2 faces {NAMES[0]}'s A1."
    reveal = UI.event_line({"type": "exchange", "data": {"number": 1, "attacker": "A1", "target": "B2",
                                                         "owners": {"A1": 0, "B2": 1}, "gestures": {}}}, info)
    assert f"{NAMES[0]}'s A1" in reveal and "Bob's B2" in reveal
