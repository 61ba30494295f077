"""A night's scoreboard, shown: under each result of the channel's night, by `/night`, and
at `/night end` with the night's winner and a picture of the evening (its games and their
winners, then the standings as bars). Counting is runtime/night.py's; storage reads the
night back from the finished games, so nothing here is kept between presses or restarts.
"""

from __future__ import annotations

import io

import discord
from PIL import Image, ImageDraw

from cogs.table import pictures
from cogs.table.mentions import neutral
from cogs.table.wording import plural
from games.registry import ENGINES
from runtime.night import PLACE_POINTS, NightTable, Standing, night_table
from storage import GameRecord, Storage
from storage.gamenight import GameNights, NightRecord

COLOUR = 0x9B59B6
MEDALS = ("🥇", "🥈", "🥉")
#: Lines of standings and games an embed lists (the picture lists as many).
SHOWN = 10


def title_of(kind: str) -> str:
    return ENGINES[kind].title if kind in ENGINES else kind


def mark_of(place: int) -> str:
    """🥇 🥈 🥉 for the first three places (0-based), then "`4.`"."""
    return MEDALS[place] if place < 3 else f"`{place + 1}.`"


def scoring_line() -> str:
    first, second = PLACE_POINTS
    return (f"1st {plural(first, 'point')}, 2nd {plural(second, 'point')}; partners and ties share a place "
            "(each scores it)")


def standing_line(standing: Standing) -> str:
    return (f"{mark_of(standing.place)} <@{standing.user_id}> — **{plural(standing.points, 'pt')}** · "
            f"{plural(standing.wins, 'win')} · {plural(standing.games, 'game')}")


def game_line(number: int, game_kind: str, game_id: int, winners: list[str]) -> str:
    won = " & ".join(neutral(w) for w in winners) or "nobody"
    return f"`{number}.` {title_of(game_kind)} #{game_id} — 🏆 {won}"


def standings_text(table: NightTable) -> str:
    if not table.standings:
        return "No game has finished yet tonight."
    lines = [standing_line(s) for s in table.standings[:SHOWN]]
    if len(table.standings) > SHOWN:
        lines.append(f"… and {plural(len(table.standings) - SHOWN, 'more player')}")
    return "\n".join(lines)[:1024]


def games_text(table: NightTable) -> str:
    lines = [game_line(n + 1, g.kind, g.game_id, g.winners) for n, g in enumerate(table.games)]
    if len(lines) > SHOWN:
        lines = [*lines[:1], f"… {plural(len(lines) - SHOWN, 'game')} …", *lines[-(SHOWN - 1):]]
    return "\n".join(lines)[:1024] or "—"


def night_embed(night: NightRecord, table: NightTable, *, heading: str | None = None) -> discord.Embed:
    """The night so far: standings, then the games."""
    embed = discord.Embed(title=heading or f"🌙 Tonight — after {plural(len(table.games), 'game')}",
                          colour=COLOUR)
    embed.description = (f"Night in <#{night.channel_id}>, started by <@{night.started_by}> "
                         f"<t:{int(night.started_at)}:R>. {scoring_line()}.")
    embed.add_field(name="Standings", value=standings_text(table), inline=False)
    if table.games:
        embed.add_field(name="Games", value=games_text(table), inline=False)
    return embed


async def night_under_result(storage: Storage, game: GameRecord) -> list[discord.Embed]:
    """The channel's night table, shown under a result when a night is going there."""
    nights = GameNights(storage)
    night = await nights.night_in(game.channel_id)
    if night is None:
        return []
    table = night_table(await nights.night_seats(night))
    if game.id not in {g.game_id for g in table.games}:
        return []  # finished before the night began (a result posted late)
    return [night_embed(night, table)]


def winner_line(table: NightTable) -> str:
    winners = table.winners
    if not winners:
        return "The night is over: no game finished, so nobody won."
    names = " and ".join(f"<@{s.user_id}>" for s in winners)
    best = winners[0]
    tie = " (tied)" if len(winners) > 1 else ""
    return (f"🏆 {names} {'win' if len(winners) > 1 else 'wins'} the night{tie} with "
            f"{plural(best.points, 'point')} and {plural(best.wins, 'win')} from "
            f"{plural(len(table.games), 'game')}!")


# -- the picture of the evening ----------------------------------------------------------------------
WIDTH = 800
MARGIN = 28
BACKGROUND = (30, 33, 48)
PANEL = (44, 48, 68)
INK = (236, 238, 245)
MUTED = (160, 166, 190)
GOLD = (241, 196, 15)
BAR = (155, 89, 182)
MEDAL_COLOURS = ((241, 196, 15), (189, 195, 199), (205, 127, 50))
#: Rows the picture draws of each list (a longer night is cut, as the embed is).
PICTURE_ROWS = 12


def evening_picture(table: NightTable, channel_name: str) -> bytes:
    """The night as one picture, legible at 500 px wide: the games in order with their
    winners, then the standings as bars."""
    games = table.games[-PICTURE_ROWS:]
    standings = table.standings[:PICTURE_ROWS]
    row = 40
    height = MARGIN * 2 + 96 + 44 + row * max(1, len(games)) + 30 + 44 + row * max(1, len(standings))
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    head = pictures.drawable(f"Game night in #{channel_name}") or "Game night"
    pictures.text(draw, (MARGIN, MARGIN), pictures.fit(head, 34, WIDTH - 2 * MARGIN), INK, pictures.font(34))
    crowned = " & ".join(pictures.drawable(s.name) or "player" for s in table.winners)
    said = (f"Winner: {crowned} with {plural(table.winners[0].points, 'point')}" if table.winners
            else "No winner tonight")
    pictures.text(draw, (MARGIN, MARGIN + 50), pictures.fit(said, 24, WIDTH - 2 * MARGIN), GOLD, pictures.font(24))
    y = MARGIN + 96
    pictures.text(draw, (MARGIN, y), f"Games ({len(table.games)})", GOLD, pictures.font(26))
    y += 44
    first = len(table.games) - len(games)
    for n, game in enumerate(games):
        draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + row - 6), radius=8, fill=PANEL)
        label = f"{first + n + 1}. {title_of(game.kind)}"
        pictures.text(draw, (MARGIN + 12, y + 7), pictures.fit(label, 22, 400), INK, pictures.font(22))
        won = " & ".join(pictures.drawable(w) for w in game.winners) or "nobody"
        pictures.text(draw, (WIDTH - MARGIN - 12, y + 7), pictures.fit(f"won by {won}", 22, 300), GOLD,
                      pictures.font(22), anchor="ra")
        y += row
    if not games:
        pictures.text(draw, (MARGIN + 12, y + 7), "No game finished.", MUTED, pictures.font(22))
        y += row
    y += 30
    pictures.text(draw, (MARGIN, y), "Standings", GOLD, pictures.font(26))
    y += 44
    best = max([s.points for s in standings] + [1])
    for standing in standings:
        colour = MEDAL_COLOURS[standing.place] if standing.place < 3 else MUTED
        draw.ellipse((MARGIN, y + 2, MARGIN + 30, y + 32), fill=colour)
        pictures.text(draw, (MARGIN + 15, y + 17), str(standing.place + 1), BACKGROUND, pictures.font(20),
                      anchor="mm")
        name = pictures.drawable(standing.name) or "player"
        pictures.text(draw, (MARGIN + 42, y + 5), pictures.fit(name, 22, 220), INK, pictures.font(22))
        left, right = MARGIN + 270, WIDTH - MARGIN - 200
        draw.rounded_rectangle((left, y + 6, right, y + 28), radius=6, fill=PANEL)
        filled = left + round((right - left) * standing.points / best)
        if standing.points:
            draw.rounded_rectangle((left, y + 6, max(filled, left + 12), y + 28), radius=6, fill=BAR)
        said = f"{plural(standing.points, 'pt')} · {plural(standing.wins, 'win')}"
        pictures.text(draw, (WIDTH - MARGIN, y + 5), said, INK, pictures.font(20), anchor="ra")
        y += row
    if not standings:
        pictures.text(draw, (MARGIN + 12, y + 7), "Nobody scored.", MUTED, pictures.font(22))
    return pictures.png(image)


def evening_file(table: NightTable, channel_name: str) -> discord.File:
    return discord.File(io.BytesIO(evening_picture(table, channel_name)), filename="night.png")
