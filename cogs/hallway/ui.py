"""Two Fat Dudes in a Narrow Hallway as one public screen (everything is open information).

Drawn only from the public view. Controls follow the phase: a Roll button, the offer
forms and No deal at an encounter, Accept / Decline / Counter for an offer, and the two
Edge choices; the engine refuses presses by the wrong dude with a sentence. The log's
words are in `events.py`, the dudes' names and dice in `wording.py` (imports flow from here).
"""

from __future__ import annotations

from typing import Any, cast

from cogs.hallway import render
from cogs.hallway.events import EVENT_WORDS, TIMED, afk_line, left_line, verdict
from cogs.hallway.wording import COLOURS, DOTS, dice, num, other, who
from cogs.table.ui import (
    Button,
    Card,
    Control,
    Field,
    FormButton,
    GameUI,
    Param,
    Screen,
    Shortcut,
    TableInfo,
    press,
)
from games.hallway import schema
from games.hallway.board import START, label
from games.hallway.schema import PublicView, SeatView

RULES = """\
**Two Fat Dudes in a Narrow Hallway** — two players, 🔴 Red (the host) and 🔵 Blue, start at \
opposite ends of a narrow hallway and waddle toward each other.

**Start:** both press 🎲 Roll; once both have, the two d4 are rolled together. The higher roll \
starts (★), the other holds **the Edge**; a tie means both roll again.

**Turns:** roll 🎲 (1-4) and move toward the far end. Score the space you land on: your colour \
adds its number, the other colour subtracts it, the green 10 gives +10 to anyone.

**Encounters:** nobody can pass or share a space. If your roll would reach or pass the other dude, \
you stop right beside them (maybe without moving), score that space, and the encounter is on \
(up to 4 of them):
• **Haggle:** either dude may offer “I pay you N” or “You pay me N” (0-999). Every offer or counter \
costs its maker **1 point**, deal or not. The other side may ✅ Accept, ❌ Decline or counter. \
After 10 offers only Accept or Decline remain. Scores may go below zero.
• **Deal:** the points change hands, the dudes swap spaces and both score their new spaces. \
They have passed: the race is on!
• **No deal** (declined, both pressed No deal, or 45 s with no offer): the Edge holder sends \
someone back to their start — *I go back* or *You go back* — and that dude pays **5** points \
(encounters 1-2) or **10** (encounters 3-4). Then the Edge passes to the other player.

**Fifth meeting:** after 4 encounters the dudes are sweaty and slippery: a roll that would pass \
lands exactly one space beyond the other dude, no haggling.

**The race:** once past, keep rolling toward your exit (the other dude's start); no exact roll \
needed. If the start player gets out first, the other gets one last turn; if the second player \
gets out first, the game ends at once.

**Scoring:** a dude still inside loses **5 points per step** left to the exit. Most points is the \
**Honorary Skinny Dude**. Equal points: the dude who got out wins; both out and equal: shared victory.

**Timers:** 45 s to roll (the bot rolls for you), 60 s to answer an offer (declined) or to use the \
Edge (“You go back”). Five timeouts in a row forfeit the game.
"""

AMOUNT = Field("amount", "Points (0–999)", placeholder="a whole number, e.g. 5", integer=True, max_length=6)
BOXES = 5


def track_line(view: PublicView) -> str:
    """`[R]·R3·**🔴R5**·B2 … G10 … **🔵B3**·[B]`: the hallway with both dudes on it."""
    cells = []
    for pos in range(21):
        text = label(pos)
        here = [seat for seat in (0, 1) if view["pos"][seat] == pos]
        if here:
            text = "**" + "".join(DOTS[s] for s in here) + text + "**"
        cells.append(text)
    return "·".join(cells)


def encounter_boxes(view: PublicView) -> str:
    """☑☑☐☐☐ and what the boxes mean now: this encounter's fee, the next one's, or how they passed."""
    done = view["encounters"]
    boxes = "".join("☑" if n < done else "☐" for n in range(BOXES))
    if done >= BOXES:
        return f"{boxes} — passed at the fifth meeting"
    if view["passed"]:
        return f"{boxes} — passed by a deal at encounter {done}"
    if view["phase"] in ("negotiate", "edge"):
        return f"{boxes} — encounter {done}: going back costs {view['fee']}"
    if done >= BOXES - 1:
        return f"{boxes} — next meeting: they slip past"
    return f"{boxes} — next one: going back costs {5 if done < 2 else 10}"


def dude_field(view: PublicView, seat: int, info: TableInfo) -> tuple[str, str, bool]:
    """Score, place and the left-behind penalty of one dude (final total once over)."""
    star = " ★" if view["start"] == seat else ""
    name = f"{DOTS[seat]} {COLOURS[seat]} — {info.name_of(seat)}{star}"
    final = view.get("final")
    lines = [f"**{num(view['score'][seat])}** points"]
    pos = view["pos"][seat]
    if seat in view["exited"]:
        lines.append("🚪 out of the hallway")
    else:
        lines.append("at the start" if pos == START[seat] else f"on {pos} ({label(pos)})")
        penalty = view["penalty"][seat]
        lines.append(f"left behind: −{penalty}" if final else f"if it ended now: −{penalty}")
    if final:
        lines.append(f"final: **{num(final['totals'][seat])}**")
    return (name[:256], "\n".join(lines), True)


def status(view: PublicView, info: TableInfo) -> str:
    """What the game is waiting for, in the game's words (the runtime adds the clock)."""
    phase = view["phase"]
    leaver = view.get("forfeit")
    if leaver is not None:
        if view.get("afk"):
            return (f"💤 {who(leaver, info)} let {view['timeouts'][leaver]} turns pass in a row and forfeits: "
                    f"{who(1 - leaver, info)} wins.")
        return f"{who(leaver, info)} left the hallway: {who(1 - leaver, info)} wins."
    if phase == "rolloff":
        box = view["rolloff"]
        text = "🎲 Roll-off for the start player: both roll, the higher starts."
        if box["past"]:
            text = f"🎲 Roll-off tied: {dice(box['past'][-1], info)}. Roll again: both roll, the higher starts."
        rolled = [f"{who(s, info)} ✔ rolled" for s in box["chosen"]]
        return " ".join([text, " · ".join(rolled)]).strip()
    if phase == "turn":
        last = " (last turn!)" if view["start"] in view["exited"] else ""
        return f"🎲 {who(view['turn'], info)}'s turn to roll{last}."
    nego = view["negotiation"]
    if phase == "negotiate" and nego is not None:
        offer = nego["pending"]
        if offer is None:
            text = (f"💥 Encounter {view['encounters']}! Either dude may make an offer to squeeze past "
                    "(1 point per offer), or press No deal.")
            if nego["nodeal"]:
                text += f" {who(nego['nodeal'][0], info)} said no deal."
            return text
        maker, taker = offer["maker"], 1 - offer["maker"]
        words = "I pay you" if offer["payer"] == maker else "You pay me"
        more = "Accept, Decline or Counter" if nego["offers"] < nego["limit"] else "Accept or Decline"
        return (f"🤝 {who(maker, info)} offers: “{words} {offer['amount']}” — {who(taker, info)} may {more}"
                f" (offer {nego['offers']} of {nego['limit']}).")
    if phase == "edge":
        holder = view["edge"]
        return (f"🚫 No deal. {who(holder, info)} has the Edge: go back to the start, or send "
                f"{who(other(holder), info)} back (−{view['fee']}).")
    final = view.get("final")
    if final:
        ranks, totals = final["ranks"], final["totals"]
        score = f"{info.name_of(0)} {num(totals[0])} · {info.name_of(1)} {num(totals[1])}"
        if ranks[0] == ranks[1]:
            return f"🏆 Shared victory — two Honorary Skinny Dudes! ({score})"
        return f"🏆 {who(ranks.index(0), info)} is the **Honorary Skinny Dude**! ({score})"
    return ""


def send(action: schema.Action | schema.OfferForm) -> dict[str, Any]:
    """An action checked against the schema, as the plain JSON a control carries."""
    return dict(action)


def controls(view: PublicView, info: TableInfo) -> list[Control]:
    phase = view["phase"]
    if view.get("forfeit") is not None or phase == "over":
        return []
    if phase in ("rolloff", "turn"):
        return [Button("Roll", send({"type": "roll"}), "primary", "🎲")]
    if phase == "edge":
        holder, fee = view["edge"], view["fee"]
        return [Button(f"I go back (−{fee})", send({"type": "edge", "back": "me"}), "secondary", "🔙"),
                Button(f"Send {info.name_of(other(holder))} back (−{fee})"[:80],
                       send({"type": "edge", "back": "you"}), "danger", "👉")]
    nego = view["negotiation"]
    assert nego is not None, "an encounter is being negotiated"
    if nego["pending"] is None:
        return [*offer_forms("Offer"), Button("No deal", send({"type": "nodeal"}), "danger", "🚫")]
    answers: list[Control] = [Button("Accept", send({"type": "accept"}), "success", "✅"),
                              Button("Decline", send({"type": "decline"}), "danger", "❌")]
    if nego["offers"] < nego["limit"]:
        return [*answers, *offer_forms("Counter")]
    # disabled, never sent: it only says why there is no Counter
    return [*answers, Button(f"Counter (all {nego['limit']} offers made)", {"type": "offer"}, disabled=True)]


def offer_forms(verb: str) -> list[Control]:
    """The two ways to haggle; each opens a modal asking for the amount."""
    return [
        FormButton(f"{verb}: I pay you…", f"{verb}: I pay you… (costs 1 point)", [AMOUNT],
                   send({"type": "offer", "payer": "me"}), "primary", "💰"),
        FormButton(f"{verb}: you pay me…", f"{verb}: you pay me… (costs 1 point)", [AMOUNT],
                   send({"type": "offer", "payer": "you"}), "secondary", "🫴"),
    ]


OFFER_KINDS = {"pay": "pay: I pay my opponent", "ask": "ask: my opponent pays me"}
SHORTCUTS = (
    Shortcut("roll", "Roll the die (your turn, or the roll-off)", press("roll")),
    Shortcut("offer", "Make an offer or a counter-offer (costs you 1 point)", lambda o: send({
        "type": "offer", "payer": "me" if o["kind"] == "pay" else "you", "amount": o["amount"]}), (
        Param("kind", "pay (I pay you) or ask (you pay me)", choices=OFFER_KINDS),
        Param("amount", "How many points change hands (0-999)", integer=True, minimum=0, maximum=999),
    )),
    Shortcut("accept", "Accept the offer on the table", press("accept")),
    Shortcut("decline", "Decline the offer on the table", press("decline")),
    Shortcut("nodeal", "Refuse to negotiate: no deal, the Edge decides", press("nodeal")),
    Shortcut("edge", "Holder of the Edge: choose who goes back", press("edge"), (
        Param("back", "Who goes back to their start", choices={"me": "I go back", "you": "my opponent goes back"}),
    )),
)


class HallwayUI(GameUI[PublicView, SeatView]):
    name = "hallway"
    rules = RULES
    colour = 0xC0392B
    shortcuts = SHORTCUTS

    def table(self, view: PublicView, info: TableInfo) -> Screen:
        names = (info.name_of(0), info.name_of(1))
        description = f"{track_line(view)}\n\n{status(view, info)}"
        fields: list[tuple[str, str, bool]] = [dude_field(view, 0, info), dude_field(view, 1, info)]
        edge = view["edge"]
        fields.append(("🗡️ The Edge", who(edge, info) if edge is not None else "after the roll-off", True))
        fields.append(("💥 Encounters", encounter_boxes(view), True))
        if view["round"]:
            state = "game over" if view["phase"] == "over" else (
                "🏁 racing to the exits" if view["passed"] else "approaching")
            fields.append(("Round", f"{view['round']} · {state}", True))
        last = view.get("last_roll")
        if last and view["phase"] != "rolloff":
            fields.append(("Last roll", f"{who(last['seat'], info)} 🎲 {last['roll']}", True))
        elif view["phase"] != "rolloff" and view["rolloff"]["past"]:
            fields.append(("Roll-off", dice(view["rolloff"]["past"][-1], info), True))
        return Screen(
            card=Card(title="🚪 Two Fat Dudes in a Narrow Hallway", description=description[:4096],
                      fields=fields, colour=self.colour),
            image=lambda: render.render_hallway(view, names),
            image_name="hallway.png",
            image_key=render.picture_key(view, names),
            controls=controls(view, info),
        )

    def event_line(self, event: dict[str, Any], info: TableInfo) -> str | None:
        """The log line of an engine event, with the players' names (`🔴 alice`)."""
        words = EVENT_WORDS.get(event.get("type", ""))
        if words is None:
            return super().event_line(event, info)
        data = event.get("data") or {}
        line = words(data, info)
        return f"⏰ time ran out — {line}" if data.get("timeout") and event["type"] in TIMED else line

    def result_reason(self, outcome: dict[str, Any], info: TableInfo) -> str:
        detail = outcome.get("detail") or {}
        reason = outcome.get("reason")
        if reason == "afk":
            return afk_line(cast(schema.Afk, detail), info)  # the detail holds the keys it reads
        if reason == "forfeit":
            return left_line(cast(schema.Forfeit, detail), info)
        if reason in ("points", "exit", "shared"):
            return verdict(reason, detail.get("winner"), detail.get("totals") or [0, 0], info)
        return super().result_reason(outcome, info)

