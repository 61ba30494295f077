"""A window of the field drawn (`Board`): kniggits, facings, engagements, the last move and
exchange, items, arrows to those outside the window. What it draws is read from the view by
`board.facts` (Pillow-free, so a screen names its picture without loading Pillow)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from PIL import Image, ImageDraw

from cogs.kniggits.board import _by_id, on_field
from cogs.kniggits.look import (
    ARMY,
    AXIS_W,
    BLACK,
    BURST,
    BURST_EDGE,
    ENGAGED,
    FLED_FILL,
    MIN_FONT,
    PATH,
    POOL,
    WHITE,
    ink,
    text,
)
from cogs.kniggits.marks import HEADINGS, arrowhead, burst, flag_shape, kniggit_mark
from cogs.kniggits.shown import Ground, KniggitLook, PairLook
from cogs.kniggits.window import Window, centre, inside, paste_field
from cogs.table.pictures import RGB, dashed


class Board:
    """A window of the field pasted on a picture at (0, top), with helpers to draw in it."""

    def __init__(self, image: Image.Image, shown: Ground, win: Window, left: int, top: int) -> None:
        self.image, self.win, self.left, self.top = image, win, left, top
        self.draw = ImageDraw.Draw(image)
        self.cell = win.cell
        paste_field(image, shown["field"], win, left, top)
        self.shown = shown

    def at(self, xy: Sequence[int]) -> tuple[float, float]:
        return centre(self.win, xy, self.left + AXIS_W, self.top)

    def visible(self, xy: Sequence[int]) -> bool:
        return inside(self.win, xy)

    def tint(self, cells: Iterable[Sequence[int]], colour: RGB, edge: RGB) -> None:
        """Each cell filled and outlined, by the two calls to Pillow's core that
        `ImageDraw.rectangle` makes (a reach tints a hundred cells; its checks cost more)."""
        c, core = self.cell, self.draw.draw
        fill, outline = ink(colour), ink(edge)
        for xy in cells:
            if self.visible(xy):
                x, y = self.at(xy)
                box = (x - c / 2 + 1, y - c / 2 + 1, x + c / 2 - 1, y + c / 2 - 1)
                core.draw_rectangle(box, fill, 1)
                core.draw_rectangle(box, outline, 0, 1)

    def items(self) -> None:
        """Potions (a flask in its colour, the letter when it fits) and flags (a pennant where it
        lies; a dashed square on an empty home cell)."""
        c, draw = self.cell, self.draw
        for potion in self.shown["potions"]:
            if not self.visible(potion["pos"]):
                continue
            x, y = self.at(potion["pos"])
            colour = POOL[potion["kind"]]
            r = c * 0.36
            draw.rectangle((x - r * 0.32, y - r * 1.25, x + r * 0.32, y - r * 0.5), fill=ink(colour),
                           outline=ink(BLACK))
            draw.ellipse((x - r, y - r * 0.75, x + r, y + r * 1.1), fill=ink(colour), outline=ink(BLACK), width=2)
            if c >= 40:
                text(self.image, (x, y + r * 0.2), potion["kind"], WHITE, MIN_FONT, "mm", colour)
        for flag in self.shown["flags"]:
            home = flag["home"]
            if self.visible(home) and flag["pos"] != home:
                x, y = self.at(home)
                h = c * 0.42
                dashed(draw, (x - h, y - h), (x + h, y - h), ink(ARMY[flag["army"]]), 2, 4, 3)
                dashed(draw, (x - h, y + h), (x + h, y + h), ink(ARMY[flag["army"]]), 2, 4, 3)
                dashed(draw, (x - h, y - h), (x - h, y + h), ink(ARMY[flag["army"]]), 2, 4, 3)
                dashed(draw, (x + h, y - h), (x + h, y + h), ink(ARMY[flag["army"]]), 2, 4, 3)
            if flag["pos"] is not None and self.visible(flag["pos"]):
                x, y = self.at(flag["pos"])
                flag_shape(draw, x - c * 0.22, y + c * 0.38, c * 0.78, ARMY[flag["army"]])

    def path(self, cells: Sequence[Sequence[int]], colour: RGB = PATH) -> None:
        """A move's path: a hollow ring on its start, a line through its cells, an arrowhead."""
        if len(cells) < 2:
            return
        c, draw = self.cell, self.draw
        points = [self.at(xy) for xy in cells]
        width = max(3, round(c / 9))
        draw.line(points, fill=ink(colour), width=width, joint="curve")
        sx, sy = points[0]
        r = c * 0.3
        draw.ellipse((sx - r, sy - r, sx + r, sy + r), outline=ink(colour), width=width)
        for px, py in points[1:-1]:
            d = width * 0.9
            draw.ellipse((px - d, py - d, px + d, py + d), fill=ink(colour))
        arrowhead(draw, points[-2], points[-1], c * 0.42, ink(colour))

    def route(self, cells: Sequence[Sequence[int]], colour: RGB = PATH) -> None:
        """A destination's route on the reach picture: a plain line (the badge marks its end)."""
        points = [self.at(xy) for xy in cells if self.visible(xy)]
        if len(points) >= 2:
            self.draw.line(points, fill=ink(colour), width=max(3, round(self.cell / 10)), joint="curve")

    def badge(self, xy: Sequence[int], words: str, colour: RGB = PATH) -> None:
        """A route's number on its end cell: a white disc ringed in the route's colour."""
        if not self.visible(xy):
            return
        x, y = self.at(xy)
        r = max(self.cell * 0.42, 15)
        self.draw.ellipse((x - r, y - r, x + r, y + r), fill=ink(WHITE), outline=ink(colour),
                          width=max(3, round(self.cell / 12)))
        text(self.image, (x, y + 1), words, BLACK, MIN_FONT, "mm", WHITE)

    def engaged(self, pairs: Iterable[Sequence[str]], kniggits: dict[str, KniggitLook],
                colour: RGB = ENGAGED) -> None:
        c = self.cell
        for a, b in pairs:
            if a in kniggits and b in kniggits:
                dashed(self.draw, self.at(kniggits[a]["pos"]), self.at(kniggits[b]["pos"]), ink(colour),
                       max(2, round(c / 12)), max(4, c / 6), max(3, c / 9))

    def kniggits(self, kniggits: list[KniggitLook], pairs: list[list[str]], skip: str | None = None,
                 *, arrows: bool = True) -> None:
        """Every kniggit in the window; the others as arrows at the window's edge."""
        everyone = _by_id(kniggits)
        engaged_with = {(a, b) for a, b in pairs} | {(b, a) for a, b in pairs}
        if arrows:
            self.edge_arrows([k for k in on_field(kniggits) if k["id"] != skip and not self.visible(k["pos"])],
                             self.taken(kniggits))
        for k in on_field(kniggits):
            if k["id"] == skip or not self.visible(k["pos"]):
                continue
            x, y = self.at(k["pos"])
            target = everyone.get(k["facing"] or "")
            facing = target is not None and (k["id"], target["id"]) in engaged_with
            toward: tuple[float, float]
            if target is not None and facing:
                tx, ty = self.at(target["pos"])
                toward = (tx - x, ty - y)
            else:
                dx, dy = HEADINGS.get(k["heading"], (0, 1 if k["army"] == "A" else -1))
                toward = (dx, -dy)
            kniggit_mark(self.image, self.draw, k, x, y, self.cell, toward, facing)

    def taken(self, kniggits: list[KniggitLook]) -> set[tuple[int, int]]:
        """The cells in the window holding a kniggit, a potion or a lying flag: no edge arrow there."""
        cells = [k["pos"] for k in on_field(kniggits)] + [p["pos"] for p in self.shown["potions"]]
        cells += [f["pos"] for f in self.shown["flags"] if f["pos"] is not None]
        return {(xy[0], xy[1]) for xy in cells if self.visible(xy)}

    def arrow_cell(self, pos: Sequence[int], taken: set[tuple[int, int]]) -> tuple[int, int]:
        """The edge cell of an arrow to `pos` (outside the window): the nearest to it, slid along the
        edge to the nearest cell with nothing drawn in it, so the arrow covers no disc."""
        x0, x1, y0, y1 = self.win.x0, self.win.x1, self.win.y0, self.win.y1
        px, py = min(max(pos[0], x0), x1), min(max(pos[1], y0), y1)
        along_x = pos[1] < y0 or pos[1] > y1  # on the top or bottom edge: slide in x
        lo, hi, at = (x0, x1, px) if along_x else (y0, y1, py)
        for step in range(hi - lo + 1):
            for n in (at - step, at + step):
                cell = (n, py) if along_x else (px, n)
                if lo <= n <= hi and cell not in taken and self.visible(cell):
                    return cell
        return px, py

    def arrow_cells(self, outside: list[KniggitLook], taken: set[tuple[int, int]]) -> list[tuple[int, int]]:
        """Each arrow's cell: the edge cell nearest its kniggit, or when a disc, potion or flag is
        drawn there, the nearest free one along the edge that no other arrow has (arrows to one
        edge cell stay together, as they were)."""
        natural = [self.arrow_cell(k["pos"], set()) for k in outside]
        used = {cell for cell in natural if cell not in taken}
        moved: dict[tuple[int, int], tuple[int, int]] = {}
        for k, cell in zip(outside, natural, strict=True):
            if cell in taken and cell not in moved:
                moved[cell] = self.arrow_cell(k["pos"], taken | used)
                used.add(moved[cell])
        return [moved.get(cell, cell) for cell in natural]

    def edge_arrows(self, outside: list[KniggitLook], taken: set[tuple[int, int]]) -> None:
        for k, cell in zip(outside, self.arrow_cells(outside, taken), strict=True):
            self.edge_arrow(k, cell)

    def edge_arrow(self, k: KniggitLook, cell: tuple[int, int]) -> None:
        """A kniggit outside the window: a triangle in its army's colour on `cell` of the edge
        nearest it."""
        x0, x1, y0, y1, c = self.win.x0, self.win.x1, self.win.y0, self.win.y1, self.win.cell
        x, y = self.at(cell)
        dx = (k["pos"][0] > x1) - (k["pos"][0] < x0)
        dy = (k["pos"][1] < y0) - (k["pos"][1] > y1)  # screen y grows downward
        x += dx * c * 0.3
        y += dy * c * 0.3
        s = c * 0.22
        norm = math.hypot(dx, dy) or 1
        ux, uy = dx / norm, dy / norm
        tip = (x + ux * s, y + uy * s)
        self.draw.polygon([tip, (x - ux * s - uy * s, y - uy * s + ux * s), (x - ux * s + uy * s, y - uy * s - ux * s)],
                          fill=ink(FLED_FILL if k["status"] == "fled" else ARMY[k["army"]]), outline=ink(BLACK))

    def exchange(self, pair: PairLook | None, kniggits: dict[str, KniggitLook], *, open_: bool) -> None:
        """The last exchange (a burst between the pair; a shot: a line from the archer, the burst
        at its target) or the open one (a white burst)."""
        if not pair or pair["attacker"] not in kniggits or pair["target"] not in kniggits:
            return
        a, t = kniggits[pair["attacker"]]["pos"], kniggits[pair["target"]]["pos"]
        if not (self.visible(a) or self.visible(t)):
            return
        (ax, ay), (tx, ty) = self.at(a), self.at(t)
        c = self.cell
        fill, edge = (WHITE, BLACK) if open_ else (BURST, BURST_EDGE)
        if pair["mode"] == "shot":
            norm = math.hypot(tx - ax, ty - ay) or 1
            ux, uy = (tx - ax) / norm, (ty - ay) / norm
            end = (tx - ux * c * 0.5, ty - uy * c * 0.5)
            self.draw.line((ax + ux * c * 0.5, ay + uy * c * 0.5, *end), fill=ink(edge), width=max(2, c // 14))
            arrowhead(self.draw, (ax, ay), end, c * 0.3, ink(edge))
            bx, by = end
        else:
            bx, by = (ax + tx) / 2, (ay + ty) / 2
        burst(self.draw, bx, by, c * 0.24, fill, edge)
