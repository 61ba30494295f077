"""The Table Fencing screens from real engine states: a control only for what the engine
allows and only for the seats it names, menus that are exactly the legal moves, a card and
message inside Discord's limits, names instead of seats, and nothing of the RNG's future
(deck order, a catch's opens_at, a duel's S) on the table."""

from __future__ import annotations

import asyncio
import functools
import random
import re
from typing import Any

from cogs.fencing.commands import hose_command, hose_hints, map_card, map_screen, move_command, via_hints
from cogs.fencing.ui import FencingUI
from cogs.table.present import render_table
from cogs.table.ui import Button, Control, FormButton, Screen, Select, TableInfo
from cogs.table.ui import Seat as SeatInfo
from games.core import IllegalAction, copy_state
from games.fencing import ENGINE
from games.fencing.samples import samples
from runtime.deadlines import schedule
from storage import GameRecord, SeatRecord, Status
from tests.test_ui_contract import card_problems, control_problems, message_problems

UI = FencingUI()
NAMES = ("Alice the Magnificent 🎉", "Bob", "Bartholomew the Long-Named")
INFO = TableInfo(7, [SeatInfo(i, 100 + i, name) for i, name in enumerate(NAMES)])
#: Seeds whose driven games visit every prompt (seed 2 has a hat race) at two difficulties.
GAMES = ((2, {}), (3, {"difficulty": "state"}), (5, {"difficulty": "backroads", "duel_mode": "dice"}))
PROMPTS = {"game", "gun", "stamp", "first_attack", "thrust", "hat", "golf", "catch", "handout", "duel",
           "move", "attack", "anthem", "over"}


@functools.cache
def driven(seed: int, options: tuple[tuple[str, Any], ...]) -> tuple[list[dict[str, Any]], list[float], list[Any]]:
    """A whole game of random legal presses (a timeout now and then): each state with the
    `now` of the step that made it, and every event."""
    chooser = random.Random(seed)
    state = ENGINE.new_game(3, seed, dict(options))
    states, times, events, now = [state], [1000.0], [], 1000.0
    while ENGINE.outcome(state) is None and len(states) < 3000:
        waits = ENGINE.to_act(state)
        seated = [w for w in waits if w.seat is not None and ENGINE.legal_actions(state, w.seat)]
        if seated and chooser.random() < 0.97:
            wait = chooser.choice(seated)
            seat, action = wait.seat, chooser.choice(ENGINE.legal_actions(state, wait.seat))
            if action["type"] == "insult" and chooser.random() < 0.5:
                action = {"type": "insult", "text": "You fight like a dairy farmer!"}
        else:
            wait = min((w for w in waits if w.default is not None), key=lambda w: w.timeout or 0)
            seat, action = wait.seat, wait.default
            now += wait.timeout or 0
        now += 0.3
        state, step = ENGINE.apply(state, seat, action, now)
        states.append(state)
        times.append(now)
        events += step
    return states, times, events


def every_state() -> list[tuple[dict[str, Any], float]]:
    out = []
    for seed, options in GAMES:
        states, times, _ = driven(seed, tuple(sorted(options.items())))
        out += list(zip(states, times, strict=True))
    for state in samples(7).values():  # the engine's hand-made moments (hat with a hat on, a catch…)
        out.append((state, max(state["step"]["opened_at"], 1_000_000) / 1000))
    return out


def presses(control: Control) -> list[dict[str, Any]]:
    if isinstance(control, Button):
        return [control.action]
    if isinstance(control, Select):
        return [c.action for c in control.choices]
    assert isinstance(control, FormButton)
    return [{**control.action, **{f.name: "You fight like a dairy farmer!" for f in control.fields}}]


def accepting(state: dict[str, Any], action: dict[str, Any], now: float) -> set[int]:
    """The seats whose press of `action` the engine takes."""
    out = set()
    for seat in range(3):
        try:
            ENGINE.apply(state, seat, action, now)
        except IllegalAction:
            continue
        out.add(seat)
    return out


def screen_text(screen: Screen) -> str:
    card = screen.card
    parts = [card.title, card.description, card.footer, *(f"{n}\n{v}" for n, v, _ in card.fields)]
    for control in screen.controls:
        if isinstance(control, Select):
            parts.append(control.placeholder)
            parts += [f"{c.label} {c.description or ''}" for c in control.choices]
        else:
            parts.append(control.label)
    return "\n".join(parts)


def test_every_control_is_taken_from_exactly_the_seats_the_prompt_names() -> None:
    seen: set[str] = set()
    for state, now in every_state():
        view = ENGINE.view(state, None)
        kind = view["prompt"]["kind"]
        seen.add(kind)
        screen = UI.table(view, INFO)
        acting = set(view["prompt"]["seats"])
        payers = {p["seat"] for p in view["penalties"]}
        for control in screen.controls:
            for action in presses(control):
                takers = accepting(state, action, now + 0.1)
                assert takers, f"{kind}: nobody may press {action}"
                if action["type"] == "pay":
                    assert takers <= payers, (action, takers, payers)
                elif kind != "anthem":  # a part may still be sung after the hail
                    assert takers <= acting, f"{kind}: {action} is taken from {takers}, not only {acting}"
        if kind == "over":
            assert not screen.controls
    assert seen >= PROMPTS, PROMPTS - seen


def test_each_prompt_shows_a_control_for_every_legal_action_of_its_seats() -> None:
    """Nothing legal is missing from the table (the golf window's hoses, every attack, the
    handout both ways, pay both ways); the move selects hold exactly the legal moves."""
    for state, _now in every_state()[::3]:
        view = ENGINE.view(state, None)
        screen = UI.table(view, INFO)
        offered = [a for c in screen.controls for a in presses(c)]
        for wait in ENGINE.to_act(state):
            if wait.seat is None:
                continue
            for action in ENGINE.legal_actions(state, wait.seat):
                if action["type"] == "insult":
                    continue  # the insult is the form's text
                if action["type"] == "move" and len(view["moves"]["destinations"]) > 25:
                    continue
                assert action in offered, (view["prompt"]["kind"], action)


def test_the_move_menu_is_the_destinations_then_every_other_route() -> None:
    checked = 0
    for state, _now in every_state():
        view = ENGINE.view(state, None)
        if view["prompt"]["kind"] != "move":
            continue
        selects = [c for c in UI.table(view, INFO).controls if isinstance(c, Select)]
        destinations = selects[0].choices
        assert destinations[0].action == {"type": "stay"}
        legal = [a for a in ENGINE.legal_actions(state, view["control"]) if a["type"] == "move"]
        listed = [c.action for s in selects for c in s.choices if c.action["type"] == "move"]
        assert sorted(map(repr, listed)) == sorted(map(repr, legal))
        assert [c.action["to"] for c in destinations[1:]] == [e["to"] for e in view["moves"]["destinations"][1:]]
        checked += 1
    assert checked > 20


async def test_tables_fit_discord_and_name_the_players() -> None:
    states = every_state()
    for index, (state, _now) in enumerate(states[::7]):
        view = ENGINE.view(state, None)
        screen = UI.table(view, INFO)
        assert not list(card_problems(screen.card))
        assert not [p for c in screen.controls for p in control_problems(c)]
        rendered = await render_table(record(state, index), ENGINE, UI, 1_700_000_000.0, with_image=False)
        assert not list(message_problems(rendered))
        text = screen_text(screen)
        assert not re.search(r"\b[Ss]eat \d\b|\{|\}", text), text
        for name in NAMES:
            assert name in text  # the score sheet names everyone


def record(state: dict[str, Any], index: int) -> GameRecord:
    """The game as the runtime holds it, with a long log (the "Recent" field) and its waits."""
    seats = [SeatRecord(s, 110_000_000_000_000_000 + s, NAMES[s]) for s in range(3)]
    over = ENGINE.outcome(state) is not None
    game = GameRecord(
        id=987_654, guild_id=1, channel_id=2, thread_id=3, kind="fencing", host_id=seats[0].user_id,
        options={}, status=Status.FINISHED if over else Status.ACTIVE, version=1000 + index, seed=1,
        state=state, deadlines=[], log=["🥾 " + "x" * 300] * 8, table_message_id=4,
        table_message_at=1.0, created_at=1.0, updated_at=1.0, seats=seats)
    game.deadlines = schedule([], ENGINE.to_act(state), 1_700_000_000.0, version=game.version)
    return game


def test_nothing_of_the_rngs_future_reaches_the_table() -> None:
    """Change the secrets (every deck's order at once; opens_at before a catch opens; a
    duel's S) and the table reads the same, picture facts included."""
    changed = set()
    for state, _now in every_state()[::3]:
        before = ENGINE.view(state, None)
        text = screen_text(UI.table(before, INFO))
        paths = [s.path for s in ENGINE.secrets(state) if s.path[0] != "decks"]
        for altered in [reordered_decks(state), *(shifted(state, path) for path in paths)]:
            after = ENGINE.view(altered, None)
            assert after == before
            assert screen_text(UI.table(after, INFO)) == text
        changed |= {path[-1] for path in paths} | {"decks"}
    assert changed >= {"decks", "opens_at", "S"}


def reordered_decks(state: dict[str, Any]) -> dict[str, Any]:
    out = copy_state(state)
    out["decks"] = [list(reversed(deck)) for deck in out["decks"]]
    return out


def shifted(state: dict[str, Any], path: tuple[str | int, ...]) -> dict[str, Any]:
    out = copy_state(state)
    box: Any = out
    for key in path[:-1]:
        box = box[key]
    box[path[-1]] += 777
    return out


def test_every_event_is_worded_with_names_and_every_end_has_a_reason() -> None:
    kinds: set[str] = set()
    for seed, options in GAMES:
        states, _, events = driven(seed, tuple(sorted(options.items())))
        for event in events:
            line = UI.event_line(event.to_json(), INFO)
            assert line and line.strip(), event
            assert not re.search(r"\b[Ss]eat \d\b|\{|\}", line), line
            kinds.add(event.type)
        outcome = ENGINE.outcome(states[-1])
        assert outcome is not None
        reason = UI.result_reason(outcome.to_json(), INFO)
        assert any(name in reason for name in NAMES), reason
    assert {"thrust", "war_step", "trick_won", "move", "attack_call", "throw", "catch_open", "bumper_won",
            "champion", "anthem", "duel_start", "hat_race", "penalty", "chocolate"} <= kinds
    left = ENGINE.forfeit(states[len(states) // 2], 1, 5000.0)[0]
    outcome = ENGINE.outcome(left)
    assert outcome is not None and "Bob left the game" in UI.result_reason(outcome.to_json(), INFO)


def test_a_refusal_line_names_the_player_and_the_rule() -> None:
    line = UI.event_line({"type": "refused", "data": {
        "seat": 1, "reason": "{who} has control and moves.", "rule": "15", "seats": {"who": 0}}}, INFO)
    assert line == f"🚫 Refused: Bob's command — {NAMES[0]} has control and moves. (rule 15)"
    kick = UI.event_line({"type": "butt_kick", "data": {"seat": 2, "kicks": 1}}, INFO)
    assert kick is not None and kick.startswith("🥾") and NAMES[2] in kick


def test_the_typed_move_reads_via_and_offroad() -> None:
    assert move_command({"piece": "BK", "to": "hEb"}) == {
        "type": "move", "piece": "BK", "to": "HEB", "offroad": False}  # the default road path
    assert move_command({"piece": "BK", "to": "DEL", "offroad": "true"})["offroad"] is True
    assert move_command({"piece": "BK", "to": "DEL", "offroad": "false"})["offroad"] is False
    assert move_command({"piece": "WB", "to": "COL", "via": "HEB, COL"})["via"] == ["HEB"]
    assert move_command({"piece": "WB", "to": "COL", "via": "heb,new"})["via"] == ["HEB", "NEW"]
    junk = move_command({"piece": "WB", "to": "nowhere", "via": "🦆🦆"})
    assert junk["via"] == ["🦆🦆"]  # the engine refuses it (and rule 24 penalises the typist)


def test_the_hose_target_is_offered_by_name_and_sent_as_a_seat() -> None:
    state, _ = every_state()[40]
    view = ENGINE.view(state, 1)
    hints = hose_hints(view, 1, INFO)
    assert [value for _label, value in hints] == ["1", "3"]
    assert NAMES[0] in hints[0][0] and NAMES[2] in hints[1][0]
    assert hose_command({"target": "3"}) == {"type": "hose", "target": 2}
    assert hose_command({"target": "Bob"}) == {"type": "hose", "target": None}  # refused by rule 12


def test_every_hinted_route_is_a_legal_typed_move() -> None:
    checked = 0
    for state, now in every_state()[::2]:
        view = ENGINE.view(state, None)
        if view["prompt"]["kind"] != "move":
            continue
        menu = view["moves"]
        values = {value for _label, value in via_hints(view)}
        for entry in menu["destinations"][1:]:
            for route in entry["routes"]:
                options: dict[str, Any] = {"piece": menu["piece"], "to": entry["to"]}
                if route["offroad"]:
                    options["offroad"] = "true"
                elif not route["default"]:
                    assert ",".join(route["via"]) in values or not route["via"]
                    options["via"] = ",".join(route["via"]) or entry["to"]
                action = move_command(options)
                _, events = ENGINE.apply(state, view["control"], {**action, "typed": True}, now + 0.1)
                assert not [e for e in events if e.type == "refused"], (options, events)
                checked += 1
        if checked > 40:
            return
    assert checked, "no move prompt"


def test_the_map_lookup_lists_the_pieces_and_the_menu() -> None:
    for state, _now in every_state():
        view = ENGINE.view(state, None)
        if view["prompt"]["kind"] == "move":
            card = map_card(view, INFO)
            assert "may go to" in card.description and "♚BK" in card.description
            return
    raise AssertionError("no move prompt")


def test_the_map_lookup_answers_with_the_map_picture() -> None:
    state, _ = every_state()[40]
    [lookup] = UI.lookups
    screen = lookup.show(ENGINE.view(state, None), INFO)
    assert isinstance(screen, Screen) and screen.image is not None and screen.image_name == "ohio.png"
    assert screen.card == map_screen(ENGINE.view(state, None), INFO).card and "Ohio" in screen.card.title
    assert asyncio.run(asyncio.to_thread(screen.image)).startswith(b"\x89PNG")


def test_the_table_picture_is_the_map_png() -> None:
    state, _ = every_state()[40]
    screen = UI.table(ENGINE.view(state, None), INFO)
    assert screen.image is not None and screen.image_name == "ohio.png"
    assert asyncio.run(asyncio.to_thread(screen.image)).startswith(b"\x89PNG")


def test_the_applause_button_shows_for_the_third_once_an_insult_is_posted() -> None:
    from tests.fencing.support import A, B, C, opened

    t = opened(greens=(5, 5, 2))
    claps = lambda: [c for c in UI.table(ENGINE.view(t.state, None), INFO).controls  # noqa: E731
                     if isinstance(c, Button) and c.action["type"] == "applaud"]
    assert claps() == []
    t.act(A, {"type": "insult", "text": "Your yo-yo is a Yomega."}, 2.0)
    [clap] = claps()
    assert clap.action == {"type": "applaud", "who": A} and clap.emoji == "👏" and NAMES[A] in clap.label
    assert ENGINE.legal_actions(t.state, C) == [clap.action] and B != C
    t.act(C, clap.action, 3.0)
    assert claps() == []
