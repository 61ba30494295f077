"""Team threads introduce themselves (issue 20 item 7): the first line of each private team
thread says who is in it, what it is for, and that the other team cannot read it."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_teams_e2e import started, team_threads
from tests.fakediscord import FakeDiscord


async def test_each_team_thread_opens_with_who_what_for_and_who_cannot_read_it(
        fake_discord: FakeDiscord, bot: Any) -> None:
    alice = (await started(fake_discord))[0]
    threads = await fake_discord.wait_for(
        lambda: len(team_threads(fake_discord)) == 2 and all(t.history() for t in team_threads(fake_discord))
        and team_threads(fake_discord), what="two introduced team threads")
    by_name = {t.name: t for t in threads}
    first_a = by_name["Pairs #1 · Team A"].history()[0]
    first_b = by_name["Pairs #1 · Team B"].history()[0]
    text_a, text_b = first_a.text(), first_b.text()
    assert "Team A's private thread" in text_a and "alice" in text_a and "bob" in text_a
    assert "carol" not in text_a and "dave" not in text_a
    assert "Team B cannot read this thread" in text_a and "`/pairs confer`" in text_a
    assert "Team A cannot read this thread" in text_b and "carol" in text_b and "dave" in text_b
    assert alice.mention not in first_a.content  # names, not pings: everyone in it was just added
