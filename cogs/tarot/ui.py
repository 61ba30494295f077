"""Conference / League as screens: the trick on the table, each player's hand by DM.

Drawn only from engine views. The table shows the cards as they are played (a picture with
the players' names), who won the last trick and the tricks per team; a hand is never on it.
The private screen is the sorted hand as a picture with the legal cards raised, a select of
exactly the legal cards, and the dealer's discard (a two-pick select) and nomination.
"""

from __future__ import annotations

from functools import lru_cache, partial
from typing import Any, TypedDict

from cogs.table.ui import (
    Button,
    Card,
    Choice,
    Control,
    GameUI,
    Lookup,
    Param,
    Screen,
    Select,
    Shortcut,
    TableInfo,
    press,
)
from cogs.table.wording import plural
from cogs.tarot import render
from cogs.tarot.card_names import card_label, card_short
from cogs.tarot.events import EVENT_WORDS
from cogs.tarot.wording import TEAM, pair_name, plays_text, short, signed, team_names
from games.tarot import ENGINE, schema
from games.tarot.cards import DECK, PAIR_OF, SUIT_NAMES, SUITS, hand_key, suit
from games.tarot.engine import conference_on
from games.tarot.schema import Played, PublicView, SeatView, unpack

COLOUR = 0x8E44AD
SUIT_ICON = {"CU": "🍷", "CO": "🪙", "SW": "⚔️", "BA": "🪄", "T": "👑", "FOOL": "🃏"}

RULES = """\
**Conference / League** — four players in two partnerships (Team A: the first two seats, \
Team B: the last two; partners sit side by side). A 78-card tarot pack: four suits \
(Cups, Coins, Swords, Batons; K Q C V 10…2 A), 21 trumps and the Fool. Four hands.

**The deal:** 19 cards each, the dealer 21; the dealer discards 2 (never a King or an \
honour; a trump only if nothing else can go). The discard scores for the dealer's team.

**Play:** follow suit; if you can't, you must trump; if you can't, play anything. The \
highest trump wins, else the highest card of the suit led. The winner leads next.

**The Fool** may be played any time instead. It never wins; it returns to its owner's \
team (5 points), which pays the trick's winners a cheap card at the end of the hand.

**Scoring:** card points (honours and Kings 5, Queens 4, Cavaliers 3, Valets 2, others 1) \
plus 1 per trick: 149 in all. The side with 75 or more wins the difference.

**Options:** *Conference* (partners get a private thread to confer; `/tarot confer`), \
*Allegiances* (an Ace played opens a 15 s window: the holder of the matching Ace on that \
team may call **ours** or **yours**, changing which suits score), *League* (the dealer's \
side attacks with trumps 21 and 20; the Catcher's wins give the lead back to the Driver; \
play runs away from the Catcher), *Gallowglass* (the dealer names a suit whose cards may \
stand in for a led suit you hold only court cards of — they and their tricks score 0).

Your hand arrives by DM (or **🃏 My hand**): pick your card from the menu under it.
"""

REASONS = {
    "afk": "{who} was away and the table voted to abandon: {team} loses",
    "forfeit": "{who} left the game: {team} loses",
}


class Waiting(TypedDict):
    """The table's picture before a trick's first card: who leads, if anyone yet."""

    leader: int | None
    plays: list[Played]
    winner: None


def send(action: schema.Action) -> dict[str, Any]:
    """An action checked against the schema, as the plain JSON a control carries."""
    return dict(action)


def header(view: PublicView, info: TableInfo) -> list[str]:
    dealer = view["dealer"]
    way = "left" if view["direction"] == 1 else "right"
    if view["mode"] == "league":
        lines = [f"🚗 Driver **{info.name_of(dealer)}** · 🧤 Catcher **{info.name_of(dealer ^ 1)}** "
                 f"· play goes {way}"]
    else:
        lines = [f"🂠 Dealer **{info.name_of(dealer)}** · play goes {way}"]
    lines.append(f"🅰️ Team A: {team_names(0, info)} · 🅱️ Team B: {team_names(1, info)}")
    extras = []
    if view["g_suit"]:
        extras.append(f"⚔️ Gallowglass suit: **{SUIT_NAMES[view['g_suit']]}**")
    for call in view["calls"]:
        pairs = call["mapping"]
        extras.append(f"🤝 {info.name_of(call['seat'])} showed {short(call['shown'])} and called "
                      f"**{call['call']}**: A scores {pair_name(pairs[0])}, B scores {pair_name(pairs[1])}")
    if view["fool"]:
        extras.append(f"🃏 The Fool of {info.name_of(view['fool']['owner'])} lies face up.")
    return lines + extras


def status(view: PublicView, info: TableInfo) -> str:
    if view["abandoned"] is not None or view["over"]:
        return ""
    vote = view["afk"]["vote"]
    if vote is not None:
        votes = ", ".join(f"{info.name_of(int(s))}: {v}" for s, v in sorted(vote["votes"].items()))
        return (f"⏸️ **{info.name_of(vote['seat'])}** let three turns pass. Wait for them (Continue) or "
                f"end the game (Abandon, 2 votes)?" + (f" Votes so far — {votes}." if votes else ""))
    phase = view["phase"]
    dealer = info.name_of(view["dealer"])
    if phase == "discard":
        return f"🂠 **{dealer}** is discarding two cards face down."
    if phase == "nominate":
        return f"⚔️ **{dealer}** may name a gallowglass suit."
    window = view["window"]
    if phase == "window" and window is not None:
        return (f"✋ **Ace of Allegiance!** {info.name_of(window['seat'])} played {short(window['ace'])}. "
                "Calls are open: everyone presses **✋ Respond** to see whether they can answer.")
    if view["turn"] is not None:
        return f"🃏 **{info.name_of(view['turn'])}** to play."
    return ""


def breakdown_lines(entry: schema.Breakdown, info: TableInfo) -> str:
    """One finished hand: totals (cards + tricks), the Fool's payment, the swing."""
    t, c, k, s = entry["totals"], entry["card_points"], entry["tricks"], entry["swing"]
    lines = [f"A {t[0]} ({c[0]} + {plural(k[0], 'trick')}) · B {t[1]} ({c[1]} + {plural(k[1], 'trick')}) → "
             f"A {signed(s[0])}, B {signed(s[1])}"]
    if entry["discard"]:
        lines.append(f"Discard ({TEAM[entry['declarer']]}): {', '.join(short(x) for x in entry['discard'])}")
    payment = entry.get("payment")
    if payment:
        what = "gave up the Fool" if payment["card"] == "FOOL" else f"paid {short(payment['card'])} for the Fool"
        lines.append(f"Team {TEAM[payment['from']]} {what}.")
    if entry["voided"]:
        lines.append(f"Worth nothing: {len(entry['voided'])} card(s)")
    return "\n".join(lines)


class TarotUI(GameUI[PublicView, SeatView]):
    name = "tarot"
    rules = RULES
    colour = COLOUR
    nudges = frozenset({"may_call"})

    def team_chat(self, options: dict[str, Any]) -> bool:
        return conference_on(ENGINE.resolve_options(options))  # the lobby keeps only what was given

    def lobby_notes(self, options: dict[str, Any]) -> list[str]:
        """The `conference` option in words: whether partners get a private thread, and how to
        change it (auto: on in classic, off in league or with Allegiances)."""
        if self.team_chat(options):
            return ["🤝 **Conference on**: each team gets a private thread to plan in (or `/tarot confer`); "
                    "the other team cannot read it. `conference: off` on `/tarot new` plays in silence."]
        return ["🤐 **Conference off**: partners play without talking. `conference: on` on `/tarot new` "
                "gives each team a private thread (classic mode without Allegiances has it by default)."]

    # ----- the table ----------------------------------------------------------------------
    def table(self, view: PublicView, info: TableInfo) -> Screen:
        mode = "League" if view["mode"] == "league" else "Conference"
        title = f"{mode} — hand {view['hand_no']} of {view['hands']}"
        if view["phase"] in ("play", "window"):
            title += f" · trick {min(view['trick_no'], 19)} of 19"
        lines = header(view, info)
        tricks = view["tricks_won"]
        lines.append(f"Tricks this hand: **A {tricks[0]} · B {tricks[1]}** · "
                     f"Game points: **A {signed(view['points'][0])} · B {signed(view['points'][1])}**")
        last = view["last_trick"]
        if last is not None:
            lines.append(f"Last trick → **{info.name_of(last['winner'])}**: {plays_text(last['plays'], info)}")
        line = status(view, info)
        if line:
            lines += ["", line]
        fields = []
        if view["history"]:
            entry = view["history"][-1]
            fields.append((f"Hand {entry['hand']}", breakdown_lines(entry, info), False))
        card = Card(title=title, description="\n".join(lines), fields=fields, colour=COLOUR,
                    footer="Cards: K Q C(avalier) V(alet) 10…A · trumps 21…1 · the Fool excuses")
        over = bool(view["over"]) or view["abandoned"] is not None or info.finished
        trick = view["trick"] or (last if over or view["phase"] in ("discard", "nominate", "play") else None)
        shown: schema.Trick | Waiting = (trick if trick is not None else
                                         {"plays": [], "leader": view["turn"], "winner": None})
        caption = (f"Trick {view['trick_no']}" if view["trick"] is not None else
                   ("Last trick" if last is not None and trick is last else "Waiting for the lead"))
        if over:
            caption = "Game over" + (f" · {caption.lower()}" if trick is not None else "")
        drawn = self._trick_picture(shown, info, caption, "Game over" if over else None)
        respond = "Respond" if view["phase"] == "window" else None
        return Screen(card, image=partial(render.draw_trick, *drawn), image_name="trick.png",
                      controls=self._table_controls(view), hand_label=respond, image_key=drawn)

    @staticmethod
    def _trick_picture(trick: schema.Trick | Waiting, info: TableInfo, caption: str, idle: str | None = None,
                       ) -> tuple[list[tuple[str, str, bool]], str, str | None, str, str | None]:
        """`render.draw_trick`'s arguments: the picture is drawn from them alone (its key)."""
        plays = [(info.name_of(seat), card, bool(as_led)) for seat, card, as_led in map(unpack, trick["plays"])]
        winner = info.name_of(trick["winner"]) if trick.get("winner") is not None else None
        leader = info.name_of(trick["leader"]) if trick.get("leader") is not None else ""
        return plays, leader, winner, caption, idle

    @staticmethod
    def _table_controls(view: PublicView) -> list[Control]:
        if view["afk"]["vote"] is not None:
            return [Button("Continue", send({"type": "vote", "vote": "continue"}), "success", "⏳"),
                    Button("Abandon", send({"type": "vote", "vote": "abandon"}), "danger", "🛑")]
        return []

    # ----- a hand -------------------------------------------------------------------------
    def private(self, view: SeatView, seat: int, info: TableInfo) -> Screen | None:
        if "hand" not in view:
            return None
        held: list[str] = view["hand"]
        legal: list[str] = view["legal"]
        lines = [f"Team {TEAM[seat // 2]} with **{info.name_of(seat ^ 1)}** · "
                 f"hand {view['hand_no']} of {view['hands']}"]
        controls: list[Control] = []
        if legal:
            led = view.get("led")
            lines.append("🔔 **Your turn** — the raised cards are the ones you may play.")
            controls.append(Select("Play a card", [
                Choice(self.card_choice(c, led if c in view["as_led"] else None), send({"type": "play", "card": c}))
                for c in legal]))
        if "discard_options" in view:
            need = view["discard_trumps"]
            lines.append("🂠 **Discard two cards** face down (they score for your team). Never a King or an "
                         "honour" + (", nor an Ace" if view["allegiances"] else "")
                         + (f"; you must discard {need} trump(s)." if need else "; no trumps."))
            controls.append(Select("Discard two cards", [
                Choice(self.card_choice(c), send({"type": "discard", "cards": [c]}))
                for c in view["discard_options"]],
                pick=2, gather="cards"))
        if view["nominate"]:
            lines.append("⚔️ **Name a gallowglass suit**, or none.")
            controls += [Button(SUIT_NAMES[s], send({"type": "nominate", "suit": s}), "secondary", SUIT_ICON[s])
                         for s in SUITS]
            controls.append(Button("None", send({"type": "nominate", "suit": "none"}), "secondary", "🚫"))
        can_call = view.get("can_call")
        if can_call:
            if can_call["passed"]:
                lines.append("✋ You passed on this Ace of Allegiance.")
            else:
                lines.append(f"✋ **You may call an allegiance**: show your {short(can_call['shown'])}. "
                             f"*Ours*: your team scores {pair_name(PAIR_OF[suit(can_call['ace'])])}, theirs the "
                             "other pair. *Yours*: the reverse.")
                controls += [Button("Ours", send({"type": "call", "call": "ours"}), "success", "🤝"),
                             Button("Yours", send({"type": "call", "call": "yours"}), "primary", "🎁"),
                             Button("Pass", send({"type": "call", "call": "pass"}), "secondary")]
        elif view["window"]:
            lines.append("✋ An Ace of Allegiance is out: nothing for you to do.")
        if view.get("discard") and "discard_options" not in view:
            lines.append(f"Your discard: {', '.join(short(c) for c in view['discard'])}")
        lines.append("")
        lines.append(hand_text(held))
        card = Card(title=f"Your hand — {plural(len(held), 'card')}", description="\n".join(lines), colour=COLOUR)
        title = f"{info.name_of(seat)}'s hand"
        discard = "discard_options" in view  # the dealer's discard: what may go is raised, the rest dimmed
        raised = sorted(view["discard_options"] if discard else legal) if discard or legal else None
        return Screen(card, image=partial(render.draw_hand, list(held), set(raised) if raised is not None else None,
                                          title, discard=discard),
                      image_name="hand.png", controls=controls, image_key=(held, raised, title, discard))

    @staticmethod
    def card_choice(card: str, as_led: str | None = None) -> str:
        label = card_label(card)
        return f"{label} as {SUIT_NAMES[as_led]}" if as_led else label

    # ----- words --------------------------------------------------------------------------
    def event_line(self, event: dict[str, Any], info: TableInfo) -> str | None:
        """The log line of an engine event, with the players' names (`cogs/tarot/events.py`)."""
        wording = EVENT_WORDS.get(event.get("type", ""))
        if wording is None:
            return super().event_line(event, info)
        return wording(event.get("data") or {}, info)

    def result_reason(self, outcome: dict[str, Any], info: TableInfo) -> str:
        detail = outcome.get("detail") or {}
        reason = outcome.get("reason")
        if reason in REASONS:
            seat = int(detail.get("seat", 0))
            return REASONS[reason].format(who=info.name_of(seat), team=f"Team {TEAM[seat // 2]}")
        points = detail.get("points") or [0, 0]
        if reason == "draw":
            return f"A draw after four hands, {signed(points[0])} each side"
        winner = 0 if points[0] > points[1] else 1
        return (f"Team {TEAM[winner]} ({team_names(winner, info)}) wins after four hands, "
                f"{signed(points[winner])} to {signed(points[1 - winner])}")

    lookups = (
        Lookup("lasttrick", "Show the last completed trick (only to you)", lambda view, info: last_trick_card(view, info)),
        Lookup("score", "Show the game points and this hand's tricks (only to you)",
               lambda view, info: score_card(view, info)),
    )

    shortcuts = (
        Shortcut("play", "Play a card from your hand", press("play"),
                 (Param("card", "The card (start typing)", suggest=lambda view, seat: [
                     (card_label(c), c) for c in view.get("legal", [])]),)),
        Shortcut("discard", "Dealer: discard two cards", lambda o: {
            "type": "discard", "cards": [o["first"], o["second"]]},
                 (Param("first", "First card", suggest=lambda view, seat: [
                     (card_label(c), c) for c in view.get("discard_options", [])]),
                  Param("second", "Second card", suggest=lambda view, seat: [
                      (card_label(c), c) for c in view.get("discard_options", [])]))),
        Shortcut("call", "Answer an Ace of Allegiance", press("call"),
                 (Param("call", "ours, yours or pass", choices={"ours": "Ours", "yours": "Yours", "pass": "Pass"}),)),
        Shortcut("nominate", "Dealer: name the gallowglass suit", press("nominate"),
                 (Param("suit", "The suit", choices={**{s: SUIT_NAMES[s] for s in SUITS}, "none": "None"}),)),
    )


def last_trick_card(view: PublicView, info: TableInfo) -> Card:
    last = view["last_trick"]
    if last is None:
        return Card("Last trick", "No trick has been completed in this hand yet.", colour=COLOUR)
    lines = [f"{info.name_of(seat)}: **{card_label(card)}**{' (as led)' if as_led else ''}"
             for seat, card, as_led in map(unpack, last["plays"])]
    return Card(f"Last trick — won by {info.name_of(last['winner'])}", "\n".join(lines), colour=COLOUR)


def score_card(view: PublicView, info: TableInfo) -> Card:
    points, tricks = view["points"], view["tricks_won"]
    lines = [f"Game points: **A {signed(points[0])} · B {signed(points[1])}** "
             f"(A: {team_names(0, info)}; B: {team_names(1, info)})",
             f"Hand {view['hand_no']} of {view['hands']}: tricks A {tricks[0]} · B {tricks[1]} "
             "(card points stay face down until the hand ends)"]
    fields = [(f"Hand {e['hand']}", breakdown_lines(e, info), False) for e in view["history"][-4:]]
    return Card("Score", "\n".join(lines), fields=fields, colour=COLOUR)


def hand_text(held: list[str]) -> str:
    """The hand as text, a line per suit (a picture's alternative)."""
    return _hand_text(tuple(held))


@lru_cache(maxsize=1024)  # a hand is shown again when its turn comes, as it was left
def _hand_text(held: tuple[str, ...]) -> str:
    rows: dict[str, list[str]] = {}
    for card in sorted(held, key=hand_key):
        group, word = _HAND_WORD.get(card) or _hand_word(card)
        rows.setdefault(group, []).append(word)
    return "\n".join(f"{SUIT_ICON[g]} **{_ROW_NAMES[g]}**: {' '.join(v)}" for g, v in rows.items())


def _hand_word(card: str) -> tuple[str, str]:
    """A card's row in `hand_text` and its word there ("K", "7", "21", "Fool")."""
    group = "T" if suit(card) in ("T", "FOOL") else suit(card)
    return group, (card_short(card).split(" ")[0] if group != "T" else ("Fool" if card == "FOOL" else str(int(card[1:]))))


_HAND_WORD = {card: _hand_word(card) for card in DECK}
_ROW_NAMES = {"T": "Trumps", **SUIT_NAMES}
