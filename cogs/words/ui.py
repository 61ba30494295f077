"""Fighting Words as screens: the public table and each player's private hand.

Drawn only from engine views. The public table never shows a hand; the private screen
offers the seat's actions as two-step menus (pick a letter, then where it goes) because a
select sends one action and letters × positions can exceed Discord's 25 options.

This module only wires the parts (imports flow from here to them): `table.py` (the table's
words and public buttons), `panel.py` (the private hand's prompt and controls), `events.py`
(the log) and `commands.py` (typed shortcuts).
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import partial
from typing import Any

from cogs.table.ui import Card, GameUI, Screen, TableInfo
from cogs.words import render
from cogs.words.commands import SHORTCUTS
from cogs.words.events import EVENT_WORDS
from cogs.words.panel import private_controls, private_prompt
from cogs.words.table import awaited, player_lines, public_controls, spaced_word
from cogs.words.wording import and_join, points, reason_text
from games.words.cards import label
from games.words.schema import PublicView, SeatView

RULES = """\
**Fighting Words** — build one shared word, a letter at a time. Finish a real word of \
**4+ letters** and you may take it: 1 point, +1 for each letter beyond six.

**Your turn:** you draw a card automatically, then do one thing:
• **Play a letter** anywhere in the word (front, back or between letters).
• **Backspace** (event card): remove one letter of the word.
• **Editor** (event card): move one letter somewhere else.
• **Skip**: discard any card. If every player skips in a row, the word is thrown away; \
three throw-aways in a row end the game.

**Bluffing and challenges:** you may play a letter that can't lead to any word. Play goes \
on at once: nobody has to answer anything. Until the word changes again (and for at least \
5 s), anyone else may press ⚔️ **Challenge** on the table. If no dictionary word contains \
the letters, the change is undone and its player loses their next turn; otherwise the \
challenger loses their next turn.

**Claiming:** when your letter makes a word you choose **Claim** or **Keep building** \
(STAR may become START). After a claim, until the word changes again (at least 8 s), a \
player holding **Tip of My Tongue** may press 💡 **Use Tip** to steal it (two Tips on one \
word: rock-paper-scissors).

**Cards played the moment you draw them:** Reversal (lose this turn), How Do You Say…? \
(take a letter you name from the pile, or steal it), Trash Talk (take a letter from the \
discard pile), That'll Work (collect the word as it stands), Spelling Bee Sting (wipe the word).

**The end:** when the last card is drawn (that turn is still played) or after three \
throw-aways. Most points wins; then most letters won; then the longest words. A full tie: \
Coin toss or Wordblitz (first 3-letter word wins).

Use **🃏 My hand** or `/hand` to see your cards. The dictionary is SCOWL-70 (English, \
American and British spellings); no names, hyphens or apostrophes.
"""


class WordsUI(GameUI[PublicView, SeatView]):
    name = "words"
    rules = RULES
    colour = 0xE67E22
    shortcuts = SHORTCUTS

    def table(self, view: PublicView, info: TableInfo) -> Screen:
        blitz = view.get("blitz")
        word = blitz["wip"] if blitz else view["wip"]
        description = ("**Wordblitz!** " if blitz else "") + spaced_word(word) + "\n" + awaited(view, info)
        discard = view["discard"]
        events = ", ".join(label(e) for e in discard["events"])
        pile = f"{view['draw_size']} to draw · {discard['size']} discarded"
        if view["boxed_size"]:  # the runtime writes its own footer, so this goes here
            pile += f" · {view['boxed_size']} boxed"
        if discard["letters"]:
            pile += f"\nLetters: {discard['letters'][-40:]}"
        if events:
            pile += f"\nEvents: {events}"
        fields: list[tuple[str, str, bool]] = [
            ("Players", player_lines(view, info)[:1024], False),
            ("Piles", pile[:1024], True),
            ("Stuck words", f"{view['stalemates']} of 3 thrown away in a row", True),
        ]
        if view["last_card_drawn"] and not view["over"]:
            fields.append(("Last card", "The last card was drawn: this is the final turn.", False))
        if blitz:
            fields.append(("Wordblitz", f"Turn {blitz['turns']} of 30 · {blitz['draw_size']} to draw", True))
        shown = render.word_inputs(view, [info.name_of(s) for s in range(view["players"])])
        return Screen(
            card=Card(title="Fighting Words", description=description[:4096], fields=fields,
                      colour=self.colour),
            image=partial(render.draw_word, shown),
            image_name="word.png",
            image_key=shown,
            controls=public_controls(view),
        )

    def private(self, view: SeatView, seat: int, info: TableInfo) -> Screen | None:
        if seat in view["left"]:
            return None
        hand = sorted(view["hand"].values(), key=lambda f: (len(f) > 1, f))
        shown = " ".join(f"`{label(f)}`" for f in hand) or "*(empty)*"
        prompt = private_prompt(view, seat)
        card = Card(title="Fighting Words — your hand", description=f"{shown}\n\n{prompt}".strip(),
                    colour=self.colour)
        faces = render.hand_faces(view)
        return Screen(card=card, image=partial(render.draw_hand, faces), image_name="hand.png",
                      controls=private_controls(view, seat), image_key=faces)

    def private_key(self, view: SeatView, seat: int) -> Hashable | None:
        """A seat that only waits (not its step, no pick to make, no last Tip to use) sees its
        hand and nothing to press: its message is drawn from its cards alone, whatever the
        word, the scores or the turn do meanwhile."""
        phase = view["phase"]
        if (seat in view["left"] or phase.get("seat") == seat or view.get("rps") is not None
                or phase["name"] in ("tiebreak", "closing")):
            return None
        return "waiting", render.hand_faces(view)

    def event_line(self, event: dict[str, Any], info: TableInfo) -> str | None:
        data = event.get("data") or {}
        wording = EVENT_WORDS.get(event.get("type", ""))
        if wording is None:
            return super().event_line(event, info)
        return wording(data, info)

    def result_reason(self, outcome: dict[str, Any], info: TableInfo) -> str:
        reason = str(outcome.get("reason") or "")
        if reason == "forfeit":
            return super().result_reason(outcome, info)
        detail = outcome.get("detail") or {}
        why = reason_text(reason)
        winner = detail.get("winner")
        if winner is None:
            return f"{why}."
        who = info.name_of(winner)
        tied = and_join([info.name_of(s) for s in detail.get("tied", [])])
        how = detail.get("tiebreak")
        if how == "letters":
            return f"{why}. {who} wins on letters, {'-'.join(str(n) for n in detail['letters'])}."
        if how == "lengths":
            shown = " against ".join("/".join(str(n) for n in lengths) for lengths in detail["lengths"])
            return f"{why}. {who} wins on the longest words, {shown}."
        if how == "coin" and detail.get("after_blitz"):
            return (f"{why}. {tied} were tied; Wordblitz found no word in 30 turns, "
                    f"and {who} won the coin toss.")
        if how == "coin":
            return f"{why}. {tied} were tied on points, letters and word lengths; {who} won the coin toss."
        if how == "wordblitz":
            return f"{why}. {tied} were tied; {who} won the Wordblitz with {detail.get('word', 'a word')}."
        if how == "walkover":
            return f"{why}. {tied} were tied; {who} won the tie-break when the others left."
        scores = outcome.get("scores") or []
        if reason == "everyone_left" or winner >= len(scores):
            return f"{why}: {who} wins."
        return f"{why}. {who} wins with {points(int(scores[winner]))}."

