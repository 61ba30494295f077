"""Kniggits on Discord: the battlefield on the table, each commander's panel in private.

Drawn only from engine views; the cog decides no rule. The table (public view) shows the
battlefield picture, both armies with their players' names and rosters, the last move and
the last exchange in words, and the phase's buttons (map accept / re-roll, rock-paper-
scissors, Done, End turn). Its hand button is relabelled after what every commander should
look at now ("My army", "Move", "Attack", "Choose gesture"), so pressing it reveals nothing.

A seat's private screen (DM, or the ephemeral panel behind that button) holds what only it
may do: the army list (a multi-line form), the deployment draft with its preview picture,
the move panel (kniggit select, destination select from the engine's list, "Other cell…"
form, preview picture, Confirm / Change), facing selects (four a message), the attack
select (every legal pair, in pages of 25) and the gesture panel (only the legal heights).

This module only wires the parts, each a room with one job (imports flow from here to them):
`wording.py` (names, kniggit and roster lines, status), `table.py` (the table screen),
`panel.py` (a commander's panel) with `drafts.py` (army, deployment and move drafts) and
`gestures.py` (the exchange's gesture controls), `events.py` (the log), `commands.py`
(typed shortcuts and lookups) and `images.py` (the lazy doors to render.py's pictures).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, cast

from cogs.kniggits.commands import LOOKUPS, SHORTCUTS
from cogs.kniggits.events import EVENT_WORDS
from cogs.kniggits.panel import private_screen
from cogs.kniggits.table import table_screen
from cogs.kniggits.wording import ARMIES, COLOUR
from cogs.table.ui import GameUI, Lookup, Screen, Shortcut, TableInfo
from cogs.table.wording import number as shown_number
from games.kniggits.schema import EventKind, PublicView, SeatView

RULES = """\
**Kniggits** — rock-paper-scissors meets sword and shield. Two armies (A and B, one or two \
players each) of toy knights fight on a grid battlefield (1 cell = 1 inch; A's home row is at \
the bottom, B's at the top).

**Setup:** the captains accept the map (or re-roll it). Each player buys kniggits in secret \
from their share of the budget: a kniggit costs 5, each token 1 — **M**ovement, **A**ttack, \
**D**efense; every kniggit needs at least one of each or it runs away. Armies are revealed \
together, then deployed in secret within 6 inches of your edge. The captains throw \
rock-paper-scissors (best of three) for the first turn.

**A turn:** (1) **move** each kniggit up to 2 inches per M token (max 12; a crawl of 2 at M=0). \
Coming within 2 inches of an enemy engages it and ends that move; a kniggit that starts \
engaged may only step away. (2) The other army **turns** its engaged kniggits to face attackers. \
(3) **Fight:** each engaged kniggit facing an enemy may attack it.

**An exchange** is a secret, simultaneous gesture: the attacker picks a sword height and, if \
the target faces it and strikes back, a shield height too; the target picks a shield (and a \
sword when it strikes back). A sword at a height the other side does not guard removes a token: \
**High** an Attack token, **Mid** Defense, **Low** Movement. A missing pick is a fumble. A \
kniggit left with one kind of token flees and runs home. Win when every enemy is fleeing or \
gone; after the turn limit, the stronger army (5+M+A+D of active kniggits) wins.

**Advanced options:** horses (M≥5: faster; foot soldiers cannot strike High at riders), magic \
swords (A≥5: two attacks), double defence (D≥5: guard two heights), two swords (D=0, A≥5), \
archers (shoot at 2 inches per D token, clear sight, not after moving), potions (+5 tokens), \
capture the flag.

**How:** the battlefield picture is on the table. Your own panel comes by DM (or the table's \
button: **My army**, **Move**, **Attack**, **Choose gesture**…). Typed shortcuts: \
`/kniggits army`, `deploy`, `move`, `undo`, `face`, `done`, `attack`, `shoot`, `concede`; \
to look: `board`, `roster`, and (only to you) `reach id` and `los id`. Left-handed? Say so in your army \
panel: the gesture panel then reads "Left hand — sword".
"""


class KniggitsUI(GameUI[PublicView, SeatView]):
    name = "kniggits"
    rules = RULES
    colour = COLOUR
    private_noun = "commander's panel"  # an army, a deployment, moves and gestures: no hand of cards
    hand_button = "✋"

    # ----- the table ----------------------------------------------------------------
    def table(self, view: PublicView, info: TableInfo) -> Screen:
        return table_screen(view, info)

    def private(self, view: SeatView, seat: int, info: TableInfo) -> Screen | None:
        return private_screen(view, seat, info)

    # ----- words --------------------------------------------------------------------
    def event_line(self, event: dict[str, Any], info: TableInfo) -> str | None:
        kind = event.get("type") or ""
        data = event.get("data") or {}
        words = EVENT_WORDS.get(cast(EventKind, kind))  # an unknown kind finds no words: the shared line
        if words is None:
            return super().event_line(event, info)
        line = words(data, info)
        if data.get("timeout"):
            line = f"⏰ {line}"
        return line

    def result_score(self, score: float) -> str:
        """Kniggits scores an army's strength, Σ(5+M+A+D) over its active kniggits (K17), not points."""
        return f"army strength {shown_number(score)}"

    def result_reason(self, outcome: dict[str, Any], info: TableInfo) -> str:
        detail = outcome.get("detail") or {}
        reason = outcome.get("reason") or ""
        teams = outcome.get("teams") or []

        def army_named(letter: str | None) -> str:
            if letter not in ARMIES:
                return "nobody"
            index = ARMIES.index(letter)
            seats = teams[index] if index < len(teams) else []
            names = " & ".join(info.name_of(s) for s in seats)
            return f"Army {letter}" + (f" ({names})" if names else "")

        winner = detail.get("winner")
        loser = None if winner is None else ("B" if winner == "A" else "A")
        strength = detail.get("strength") or {}
        if reason == "forfeit":
            return f"{info.name_of(detail.get('seat'))} left the battle: their army loses."
        if reason == "concede":
            return f"{info.name_of(detail.get('seat'))} conceded: {army_named(winner)} wins."
        if reason == "forfeit_claim":
            return (f"Army {detail.get('idle', loser)} sat out three turns and {info.name_of(detail.get('seat'))} "
                    f"claimed the forfeit: {army_named(winner)} wins.")
        if reason == "no_army":
            if winner is None:
                return "Neither army had a single valid kniggit: a draw."
            return f"{army_named(loser)} had no valid kniggit at the reveal: {army_named(winner)} wins."
        if reason == "flag":
            return f"{army_named(winner)} carried the enemy flag home with {detail.get('carrier', 'a kniggit')} and wins."
        if reason == "on_points":
            score = f"strength A {strength.get('A', '?')} – B {strength.get('B', '?')}"
            if winner is None:
                return f"The turn limit ended the battle level: a draw ({score})."
            return f"{army_named(winner)} wins on strength after the turn limit ({score})."
        if reason == "annihilation":
            if winner is None:
                return "Both armies' last kniggits fled in the same exchange: a draw."
            return f"Every kniggit of {army_named(loser)} fled or left the field: {army_named(winner)} wins."
        return super().result_reason(outcome, info)

    lookups: ClassVar[Sequence[Lookup]] = LOOKUPS
    shortcuts: ClassVar[Sequence[Shortcut]] = SHORTCUTS
