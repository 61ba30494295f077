"""Words that fit (issue 20 item 6): the table's "Now" line in the third person, one plural
helper, one minus sign, places."""

from __future__ import annotations

from typing import Any

from cogs.table.present import render_table, table_info
from cogs.table.registry import UIS, load_builtin_uis
from cogs.table.wording import for_the_player, for_the_table, ordinal, plural, signed
from games.fencing.samples import samples as fencing_samples
from games.kniggits.samples import sample_states as kniggits_samples
from games.registry import get_engine
from runtime.deadlines import schedule
from tests.runtime.test_presentation import record_for

load_builtin_uis()


async def now_line(kind: str, state: dict[str, Any]) -> str:
    engine = get_engine(kind)
    game = record_for(kind, state, 1)
    game.deadlines = schedule([], engine.to_act(state), 100.0)
    table = await render_table(game, engine, UIS[kind], now=100.0, with_image=False)
    return next(f["value"] for f in table.embed.to_dict()["fields"] if f["name"] == "Now")


async def test_the_now_line_is_written_for_the_table() -> None:
    build = await now_line("kniggits", kniggits_samples()["build"])
    assert "Waiting for <@100> to build their army in secret" in build and "your" not in build
    golf = await now_line("fencing", fencing_samples()["golf"])
    assert "> in the golf window: quick-switch, hose or done" in golf and "to golf" not in golf
    anthem = await now_line("fencing", fencing_samples()["anthem"])
    assert "> to hail the anthem" in anthem and "to the anthem" not in anthem
    insults = await now_line("fencing", duel_at_insults())
    assert "> to insult their opponent (or skip)" in insults and "your" not in insults


def duel_at_insults() -> dict[str, Any]:
    from games.fencing.samples import _Driver
    driver = _Driver(7)
    driver.open_bumper([5, 5, 2])
    assert driver.state["step"]["kind"] == "duel" and driver.state["step"]["stage"] == "insult"
    return driver.done()


def test_a_prompt_reads_right_to_the_player_and_to_the_table() -> None:
    assert for_the_player("insult your opponent (or skip)") == "to insult your opponent (or skip)"
    assert for_the_table("insult your opponent (or skip)") == "to insult their opponent (or skip)"
    assert for_the_table("don your hat!") == "to don their hat!"
    assert for_the_player("in the golf window: quick-switch, hose or done").startswith("in the golf")
    assert for_the_table("play a card") == "to play a card"


def test_every_prompt_of_every_game_reads_as_a_verb_or_a_place() -> None:
    """A prompt follows "your turn" and "Waiting for @bob": "to <verb>" or "in <place>"."""
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / "games"
    prompts = []
    for path in root.rglob("*.py"):
        text = path.read_text()
        prompts += re.findall(r"Wait\([^,]+, [^,]+, f?\"([^\"]+)\"", text)
        prompts += re.findall(r"choices\.waits\([^,]+, f?\"([^\"]+)\"", text)
    assert len(prompts) > 20
    nouns = [p for p in prompts if p.split()[0].lower() in ("the", "a", "an", "golf", "gesture:", "rock,", "coin")]
    # the game itself waiting (seat None) may name a thing: "⏳ The starting gun"
    allowed = {"the game moves on to the new rules", "the starting gun", "the anthem", "a throw is in the air", "the sleepers spin",
               "the Tip of My Tongue window closes, then the game ends", "an Ace of Allegiance: calls are open"}
    assert [p for p in nouns if p not in allowed] == []


def test_plurals_minus_and_places() -> None:
    assert plural(1, "card") == "1 card" and plural(2, "card") == "2 cards" and plural(0, "game") == "0 games"
    assert plural(1, "army", "armies") == "1 army" and plural(3, "army", "armies") == "3 armies"
    assert plural(-1, "point") == "−1 point" and signed(-2) == "−2" and signed(3) == "+3" and signed(0) == "0"
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]


def result_text(kind: str, state: dict[str, Any]) -> str:
    from cogs.table.result_screen import result_embed
    engine, ui = get_engine(kind), UIS[kind]
    outcome = engine.outcome(state)
    assert outcome is not None
    game = record_for(kind, state, 1)
    embed = result_embed(game, engine, list(outcome.ranks), ui.result_reason(outcome.to_json(), table_info(game)),
                         [], outcome.scores, ui.result_score)
    return str(embed.to_dict().get("description"))


def test_results_name_their_unit() -> None:
    from games.kniggits.samples import act
    conceded = act(kniggits_samples()["move"], 0, {"type": "concede"})
    text = result_text("kniggits", conceded)
    assert "army strength" in text and "point" not in text
    fenced = fencing_samples()["over"]
    text = result_text("fencing", fenced)
    assert "bumper" in text and "point" not in text
    assert "1 bumper won" in text or "2 bumpers won" in text


def test_fencing_score_sheet_labels_earlier_bumpers() -> None:
    from cogs.fencing.table import player_field
    view = get_engine("fencing").view(fencing_samples()["move"], None)
    view["players"][0]["bumper_scores"] = [16, -1]
    view["players"][0]["bumpers_won"] = 1
    _, value, _ = player_field(view, 0, table_info(record_for("fencing", fencing_samples()["move"], 1)))
    assert "earlier bumpers: 16 points, −1 point" in value and "🏆 1 bumper won" in value


def lobby_text(kind: str, options: dict[str, Any]) -> str:
    from cogs.table.lobby_screen import render_lobby
    from storage import GameRecord, SeatRecord, Status
    game = GameRecord(id=5, guild_id=1, channel_id=2, thread_id=None, kind=kind, host_id=100, options=options,
                      status=Status.LOBBY, version=1, seed=0, state=None, deadlines=[], log=[],
                      table_message_id=None, table_message_at=0.0, created_at=0.0, updated_at=0.0,
                      seats=[SeatRecord(0, 100, "P0", team=0 if kind == "tarot" else None)])
    return render_lobby(game, get_engine(kind)).embed.description or ""


def test_the_tarot_lobby_explains_the_conference_option() -> None:
    on = lobby_text("tarot", {})
    assert "Conference on" in on and "private thread" in on and "other team cannot read it" in on
    assert "`conference: off`" in on
    off = lobby_text("tarot", {"mode": "league"})
    assert "Conference off" in off and "`conference: on`" in off
    assert "Conference" not in lobby_text("words", {})
