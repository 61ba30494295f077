"""Screens → discord objects: embeds, image files and views of stateless components.

Everything every game shares is added here once: who we are waiting for and how long is
left, the recent log, the game number, and the "My hand" button for games with hands.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from typing import Any

import discord
import orjson

from cogs.table import codec, rows
from cogs.table.components import BuiltView, version_bound
from cogs.table.kept_screens import KEPT_SCREENS, Basis, Kept
from cogs.table.mentions import neutral
from cogs.table.picture_cache import IMAGES, picture_digest
from cogs.table.picture_cache import view_digest as view_digest
from cogs.table.registry import AnyUI
from cogs.table.rows import RowLayout
from cogs.table.ui import Button, Card, FormButton, GameUI, Screen, Seat, Select, TableInfo
from cogs.table.wording import for_the_table
from games.registry import AnyEngine
from runtime.computers import is_computer
from runtime.deadlines import format_left
from runtime.hints import awaited
from runtime.views import view_of
from storage import GameRecord, Status

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
MAX_ROWS = 5
HAND_ROW = 4  # the hand button's row, and a hint's when it has room
#: What every message of a finished game says (its controls are gone): the table, each hand.
GAME_OVER_TABLE = "🏁 **This game is over** — the result is posted below."
GAME_OVER_PRIVATE = "🏁 **This game is over** — nothing more to play; the result is posted at the table."
#: The version drawn on a lasting button: none (the engine judges it alone).
LASTING = 0


@dataclass
class Rendered:
    """A message ready to send or edit."""

    embed: discord.Embed
    view: discord.ui.View | None
    file: discord.File | None = None
    image_digest: str | None = None
    #: The state version drawn (None for lobbies): buttons carry it, and the edge remembers it.
    version: int | None = None

    #: The fingerprint, once taken (a DM asks for it up to three times).
    _fingerprint: str | None = field(default=None, init=False, repr=False, compare=False)

    def fingerprint(self) -> str:
        """What the message will show (embed, components, image), to skip edits that change
        nothing. Taken once: a Rendered is not changed after it is delivered."""
        if self._fingerprint is None:
            shown = {
                "embed": self.embed.to_dict(),
                "components": self.view.to_components() if self.view is not None else [],
                "image": self.image_digest if self.file is not None else None,
            }
            self._fingerprint = hashlib.blake2b(
                orjson.dumps(shown, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=str),
                digest_size=16).hexdigest()
        return self._fingerprint

    def send_kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"embed": self.embed}
        if self.view is not None:
            out["view"] = self.view
        if self.file is not None:
            out["file"] = self.file
        return out

    def edit_kwargs(self) -> dict[str, Any]:
        return {
            "embed": self.embed,
            "view": self.view,
            "attachments": [self.file] if self.file is not None else [],
        }


@dataclass(frozen=True)
class ComputerSeat(Seat):
    """A computer's seat: it has no Discord user, so every place that would mention it shows
    its name ("🤖 Ada") instead."""

    @property
    def mention(self) -> str:
        return f"**{self.name}**"


#: game id -> (what its TableInfo was made from, the TableInfo): made once while its seats stay
_INFOS: dict[int, tuple[tuple[Any, ...], TableInfo]] = {}


def table_info(game: GameRecord) -> TableInfo:
    """The seats and names a UI prints (player text defused). Every step asks for it for the
    table and each changed hand, and a game's seats rarely change: made once per seating."""
    finished = game.status is not Status.ACTIVE
    basis = (finished, *[(s.seat, s.user_id, s.name, s.computer) for s in game.seats])
    kept = _INFOS.get(game.id)
    if kept is not None and kept[0] == basis:
        return kept[1]
    info = TableInfo(
        game_id=game.id,
        seats=tuple((ComputerSeat if is_computer(s) else Seat)(s.seat, s.user_id, neutral(s.name))
                    for s in game.seats),
        finished=finished,
    )
    if len(_INFOS) > 20_000:
        _INFOS.clear()
    _INFOS[game.id] = (basis, info)
    return info


def named(game: GameRecord, seat: int) -> str:
    """A seat as a result names it: the player's mention, or the computer's name."""
    record = game.seats[seat]
    return f"**{record.name}**" if is_computer(record) else f"<@{record.user_id}>"


def embed_of(card: Card) -> discord.Embed:
    embed = discord.Embed(title=card.title[:256], description=card.description[:4096] or None,
                          colour=card.colour)
    for name, value, inline in list(card.fields)[:22]:
        embed.add_field(name=name[:256] or "\u200b", value=value[:1024] or "\u200b", inline=inline)
    if card.footer:
        embed.set_footer(text=card.footer[:2048])
    return embed


EMBED_TOTAL, EMBED_DESCRIPTION = 6000, 4096


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:max(limit - 1, 0)] + "…"


def fit(embed: discord.Embed) -> discord.Embed:
    """Keep an embed inside Discord's limits whatever a game put in it: 4,096 characters of
    description and 6,000 in all. The longest field gives way first (ending in "…"), then the
    description from its start, so a link at its end survives."""
    if embed.description and len(embed.description) > EMBED_DESCRIPTION:
        embed.description = clip(embed.description, EMBED_DESCRIPTION)
    while (over := len(embed) - EMBED_TOTAL) > 0:
        fields = [(len(f.value or ""), i) for i, f in enumerate(embed.fields)]
        longest, index = max(fields, default=(0, -1))
        if longest > 1:
            field = embed.fields[index]
            embed.set_field_at(index, name=field.name, value=clip(field.value or "", max(longest - over, 1)),
                               inline=bool(field.inline))
        elif embed.description:
            description = embed.description
            embed.description = "…" + description[over + 1:]
        else:
            break
    return embed


def waiting_lines(game: GameRecord, info: TableInfo, now: float) -> list[str]:
    lines = []
    for deadline in game.deadlines:
        if deadline["seat"] is None:  # the game itself waits (a delay before GO!)
            text = f"⏳ {deadline['prompt'][:1].upper()}{deadline['prompt'][1:]}"
        elif deadline.get("computer"):  # a computer's "delay" is its thinking, not a timer
            thinking = f"{info.name_of(deadline['seat'])} is thinking…"
            if thinking not in lines:
                lines.append(thinking)
            continue
        else:
            text = f"⏳ Waiting for {info.mention_of(deadline['seat'])} {for_the_table(deadline['prompt'])}"
        if (at := deadline.get("at")) is not None and deadline.get("countdown", True):
            text += f" — {format_left(at - now)} left (<t:{int(at)}:R>)"
        lines.append(text)
    return lines


async def image_file(screen: Screen, key: str | None = None) -> discord.File | None:
    """Draw the screen's image, on the event loop.

    Not in a thread: a picture is mostly Python calling Pillow's small drawing operations, so
    it holds the GIL nearly all the time it runs (py-spy, sampling only the thread holding the
    GIL: the drawing thread held it for 22% of a Hallway run, the share of the CPU the pictures
    cost) and a thread ran nothing in parallel; handing each picture to it and taking the PNG
    back cost 0.11-0.13 ms more CPU per picture than drawing it in place (675 Hallway pictures,
    alternating 4 times: 0.47-0.48 against 0.59-0.61 ms), more when the loop was busy."""
    drawn = await _draw(screen, key)
    return drawn[0] if drawn else None


async def _draw(screen: Screen, key: str | None = None) -> tuple[discord.File, str] | None:
    """The screen's picture as a file and its digest; drawn only when `key` (the view's
    digest) has not been drawn before."""
    if screen.image is None:
        return None
    png = IMAGES.get(key) if key is not None else None
    if png is None:
        png = screen.image()
        if key is not None:
            IMAGES.put(key, png)
    return Picture(io.BytesIO(png), filename=screen.image_name), hashlib.blake2b(png, digest_size=16).hexdigest()


class Picture(discord.File):
    """A drawn PNG to upload. discord.py's `File.close` sets the buffer's own bound `close` on
    the buffer: a reference cycle per picture sent, holding the PNG until the collector finds
    it. This close takes its stub away instead, and frees the buffer with the last reference."""

    __slots__ = ()

    def close(self) -> None:
        vars(self.fp).pop("close", None)
        if self._owner:
            self.fp.close()


def build_view(game_id: int, version: int, screen: Screen, *, hand_button: bool) -> BuiltView | None:
    """The controls of a screen drawn from the state at `version` (taken before any await,
    since the game record moves on while the picture is drawn), laid out as Discord's payload."""
    layout = RowLayout()
    slot = 0
    for control in screen.controls:
        if isinstance(control, Button):
            custom_id = codec.action_id(game_id, LASTING if control.lasting else version, control.action)
            layout.add(rows.button(custom_id, control.label[:80], STYLES[control.style], emoji_text=control.emoji,
                                   disabled=control.disabled), row=control.row, bound=not control.lasting and bool(version))
        elif isinstance(control, Select):
            multi = control.pick > 1 and control.gather is not None
            custom_id = codec.select_id(game_id, version, slot, control.gather if multi else None)
            layout.add(rows.menu(custom_id, control.placeholder[:150], list(control.choices)[:25],
                                 pick=control.pick if multi else 1), row=control.row, bound=bool(version))
            slot += 1
        elif isinstance(control, FormButton):
            layout.add(rows.button(codec.form_id(game_id, version, control.action), control.label[:80],
                                   STYLES[control.style], emoji_text=control.emoji), row=control.row, bound=bool(version))
    if hand_button:
        if screen.hand_label is not None:
            layout.add(rows.button(codec.hand_id(game_id), screen.hand_label[:80], discord.ButtonStyle.primary,
                                   emoji_text="✋"), row=HAND_ROW)
        else:
            layout.add(rows.button(codec.hand_id(game_id), "My hand", discord.ButtonStyle.secondary,
                                   emoji_text="🃏"), row=HAND_ROW)
    return BuiltView.laid_out(layout) if layout else None


#: (game id, seat; None: the table) -> (the state drawn, how, its controls): the controls of a
#: seat's newest drawing, made once. A step's hand is drawn for its DM, its ephemeral panel,
#: the press that redrew it…: each reuses them while the game's state is the same object.
_CONTROLS: dict[tuple[int, int | None], tuple[object, tuple[int, bool, bool], discord.ui.View | None]] = {}


def controls_for(game: GameRecord, seat: int | None, screen: Screen, *, hand_button: bool,
                 hinted: bool) -> discord.ui.View | None:
    """`build_view` (and `with_hint`) of the seat's screen of the game's current state, made
    once per (game, version, seat): the state object itself is the key's witness (a game
    reloaded, or another database's game of the same id, is another object)."""
    how = (game.version, hand_button, hinted)
    kept = _CONTROLS.get((game.id, seat))
    if kept is not None and kept[0] is game.state and kept[1] == how:
        return kept[2]
    controls = build_view(game.id, game.version, screen, hand_button=hand_button)
    if hinted:
        controls = with_hint(controls, game.id)
    if len(_CONTROLS) > 50_000:
        _CONTROLS.clear()
    _CONTROLS[(game.id, seat)] = (game.state, how, controls)
    return controls


async def render_table(
    game: GameRecord, engine: AnyEngine, ui: AnyUI, now: float, *, with_image: bool = True,
) -> Rendered:
    """The public table message, from the public view only."""
    info = table_info(game)
    assert game.state is not None
    version, live = game.version, game.status is Status.ACTIVE  # before the picture's await
    # A practice table whose prompts are on the table (no private screen) offers its learner a hint.
    hinted = (live and game.practice and type(ui).private is GameUI.private
              and any(awaited(game, s.seat) for s in game.seats if not is_computer(s)))
    view = view_of(engine, game.state, None)
    screen = ui.table(view, info)
    embed = embed_of(screen.card)
    extra = waiting_lines(game, info, now) if live else [GAME_OVER_TABLE]
    if extra:
        embed.add_field(name="Now", value="\n".join(extra)[:1024], inline=False)
    if game.log:
        embed.add_field(name="Recent", value="\n".join(f"• {line}" for line in game.log[-6:])[:1024],
                        inline=False)
    embed.set_footer(text=footer_of(screen.card, f"{engine.title} · game #{game.id} · move {version}",
                                    keep=commitment_line(game)))
    has_private = type(ui).private is not GameUI.private
    controls = (controls_for(game, None, screen, hand_button=has_private, hinted=hinted) if live
                else None)
    drawn = (await _draw(screen, picture_digest(ui, screen, view, info, None))
             if with_image and screen.image is not None else None)
    file, digest = drawn if drawn else (None, None)
    if file is not None:
        embed.set_image(url=f"attachment://{screen.image_name}")
    return Rendered(fit(embed), controls, file, digest, version=version)


async def render_private(
    game: GameRecord, engine: AnyEngine, ui: AnyUI, seat: int, *, jump_url: str | None,
    notes: list[str] | None = None,
) -> Rendered | None:
    """A seat's private message (DM or ephemeral), from that seat's view only."""
    if type(ui).private is GameUI.private:
        return None  # a game with nothing private (Hallway): no seat's view to compute
    assert game.state is not None
    version, live = game.version, game.status is Status.ACTIVE  # before the picture's await
    hinted = live and game.practice and awaited(game, seat)  # a practice table's prompt: 💡 Hint
    info = table_info(game)
    seat_view = view_of(engine, game.state, seat)
    key = ui.private_key(seat_view, seat)
    basis = Basis(key, tuple(notes or ()), live, hinted, jump_url, info) if key is not None else None
    if basis is not None and (kept := KEPT_SCREENS.get(game.id, seat, basis, version)) is not None:
        return _again(kept, version)
    screen = ui.private(seat_view, seat, info)
    if screen is None:
        return None
    embed = embed_of(screen.card)
    if notes:
        embed.add_field(name="Just now", value="\n".join(notes)[:1024], inline=False)
    if not live:
        embed.add_field(name="Now", value=GAME_OVER_PRIVATE, inline=False)
    embed.set_footer(text=footer_of(screen.card, f"{engine.title} · game #{game.id} · only you can see this"))
    if jump_url:
        link = f"\n[Go to the table]({jump_url})"
        embed.description = clip(embed.description or "", EMBED_DESCRIPTION - len(link)) + link
    controls = controls_for(game, seat, screen, hand_button=False, hinted=hinted) if live else None
    drawn = (await _draw(screen, picture_digest(ui, screen, seat_view, info, seat))
             if screen.image is not None else None)
    file, digest = drawn if drawn else (None, None)
    if file is not None:
        embed.set_image(url=f"attachment://{screen.image_name}")
    rendered = Rendered(fit(embed), controls, file, digest, version)
    if basis is not None:
        png = file.fp.getvalue() if file is not None and isinstance(file.fp, io.BytesIO) else None
        KEPT_SCREENS.put(game.id, seat, Kept(basis, version, version_bound(controls), rendered.embed, controls, png,
                                             screen.image_name if png is not None else None, digest,
                                             rendered.fingerprint()))
    return rendered


def _again(kept: Kept, version: int) -> Rendered:
    """The kept private message as a new one to send (its picture a new file of the same PNG)."""
    file = Picture(io.BytesIO(kept.png), filename=kept.image_name) if kept.png is not None else None
    rendered = Rendered(kept.embed, kept.controls, file, kept.image_digest if file is not None else None, version)
    rendered._fingerprint = kept.fingerprint
    return rendered


def with_hint(view: BuiltView | None, game_id: int) -> BuiltView:
    """A practice table's prompt gets 💡 Hint (runtime/hints.py), on the last row if it has room."""
    layout = view.layout.copy() if view is not None and view.layout is not None else RowLayout()
    hint = rows.button(codec.hint_id(game_id), "Hint", discord.ButtonStyle.success, emoji_text="💡")
    for row in (HAND_ROW, None):
        try:
            layout.add(hint, row=row)
            break
        except ValueError:  # that row (or every row) is full: the prompt goes without
            continue
    return BuiltView.laid_out(layout)


def footer_of(card: Card, runtime: str, *, keep: str = "") -> str:
    """The game's own footer (if any) first, then what the runtime says of every table; `keep`
    (the seed commitment) goes on a line of its own that no long game footer can cut off."""
    head = " · ".join(part for part in (card.footer, runtime) if part)
    if not keep:
        return head[:2048]
    return head[:2048 - len(keep) - 1] + "\n" + keep


def commitment_line(game: GameRecord) -> str:
    """The seed's commitment, shown on the table from the first move (docs/records.md): the
    whole SHA-256, so nobody can later match a shortened one with another seed."""
    return f"🔒 Seed commitment (SHA-256): {game.commitment} · the seed is revealed when the game ends"
