"""Table Fencing as one public screen (spec §4): nobody holds a secret, so the score sheet, the
map and every prompt's controls are on the table message.

Drawn only from the public view; every option comes from the engine (the move menu, the
attack choices, the golf window's targets). Controls are shared by the whole table and the
engine judges who pressed: anyone but the acting player gets its short "not your call".
The Move prompt is two selects on one message, so it needs no state of its own: a
destination (with Stay) moves along that town's default route (rule 19), and the route
select lists every other way (the longer road paths and the off-road line).

This module only wires the parts, each a room with one job (imports flow from here to them):
`wording.py` (cards, pieces, towns, the status line), `table.py` (the score sheet and the table
screen), `table_controls.py` (each prompt's controls), `events.py` (the log and how a game ended; the
golf balls' and duels' lines in `events_balls.py`) and `commands.py` (typed commands and the map lookup).
Each reads the schema's types (`games/fencing/schema.py`), checked by mypy in lint.
"""

from __future__ import annotations

from typing import Any

from cogs.fencing.commands import LOOKUPS, SHORTCUTS
from cogs.fencing.events import EVENT_WORDS, REASONS
from cogs.fencing.table import table_screen
from cogs.fencing.wording import COLOUR, num
from cogs.table.ui import GameUI, Screen, TableInfo
from cogs.table.wording import plural
from games.fencing.schema import PublicView, SeatView

RULES = """\
**Table Fencing** — three players; two bumpers (rounds) win the game. A bumper goes to the \
first to **build 50** points, or at once to whoever makes a **theme**.

**Start:** everyone presses **GAME!**, a non-Start player fires the 🔫 gun and everyone \
stamps the score sheet. Chocolate is handed out (2 each, plus at most 1 carried over) and \
the golf balls go by green die (highest 🟡 yellow, next 🟣 purple). The Start picks the \
first piece to attack.

**The trick:** the Start presses **Thrust**: everyone turns their top card (A low … K). \
The high card wins control and builds 1 die. A pair is a **trump**: the pair draw again in \
a war and the third player **parries** (an ace, or more than both war cards together, wins \
for the parrier). Another pair deepens the trump (×2, ×3…). Warriors roll 2 dice × level, \
a parry 3 dice × level.

**Three alike:** 🎩 **Don hat!** The last bare head to press pays a penalty (a hat already \
on pays at once; missing the 10 s pays too). Then the step is redrawn.

**Golf balls:** after the cards, the purple holder may **Quick-switch** (the balls fly \
between purple and yellow: **Catch** them!) or **Hose** someone (green dice; lose and you \
pay). On a trump trick yellow builds 2 and purple slides 2. Whoever holds both hands them out.

**Control:** the trick winner takes control (the pinkie ball); the old controller takes \
the mitt. If the new controller held the mitt they must **Catch** the pinkie. The \
controller **moves** the attacked piece (or stays) along the roads of the difficulty, at \
most 69 km (the thread, Columbus–Springfield), onto an empty town; **off-road** (a \
straight line) costs a penalty unless the piece is already off-road. Then they **call** \
the next piece to attack.

**Theme:** two moves in a row by the same controller, a black and a white piece, whose \
routes share a town: the bumper is won.

**Penalty:** eat a 🍫 chocolate or slide ⬇️ 1 point (no chocolate: slide). A typed \
command that breaks a rule is a **miscue**: a penalty, and a second one in a trick earns \
a 🥾.

**Yo-yo duel** (dice ties): insults, the third player counts, both **Snap back**: the \
longest sleeper that still comes back wins.

**End of a bumper:** the anthem (📯 📖 🎩 🐟 *Hail to the fish!*), the closing stamps, and \
the Start moves on. Two bumpers win the game and the region's championship.

**Commands:** `/fencing move`, `/fencing hose`, `/fencing quickswitch`, `/fencing hat`, \
`/fencing map`; `/fencing board` shows the table with its map.
"""


class FencingUI(GameUI[PublicView, SeatView]):
    name = "fencing"
    rules = RULES
    colour = COLOUR

    def table(self, view: PublicView, info: TableInfo) -> Screen:
        return table_screen(view, info)


    def event_line(self, event: dict[str, Any], info: TableInfo) -> str | None:
        words = EVENT_WORDS.get(event.get("type", ""))
        if words is None:
            return super().event_line(event, info)
        return words(event.get("data") or {}, info)

    def result_reason(self, outcome: dict[str, Any], info: TableInfo) -> str:
        detail = outcome.get("detail") or {}
        reason = outcome.get("reason") or ""
        text = REASONS.get(reason)
        if text is None:
            return super().result_reason(outcome, info)
        line = text.format(winner=info.name_of(detail.get("winner")), seat=info.name_of(detail.get("seat")))
        sums = detail.get("score_sums")
        if sums:
            line += " (score sums: " + ", ".join(f"{info.name_of(s)} {num(x)}" for s, x in enumerate(sums)) + ")"
        champion = detail.get("champion")
        if reason != "bumpers" and champion is not None:
            line += f"; {info.name_of(champion)} is the champion"
        return line + "."

    def result_score(self, score: float) -> str:
        """Fencing's result counts bumpers won, not the points of a bumper."""
        return plural(int(score), "bumper") + " won"

    lookups = LOOKUPS
    shortcuts = SHORTCUTS
