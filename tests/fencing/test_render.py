"""Table Fencing's map: legible where Discord shows it (`tests/test_pictures_legible.check`: decodes,
at most 1000 px wide, smallest text at least 11 px tall when shown 500 px wide; the chess glyphs'
ink too), no label overlapping another label, a town's piece place, a road length, the title or
the legend (Ohio's northeast is crowded), the worst boards drawn (all five pieces in the
northeast, a long route, an off-road move, the attacked piece), and one picture per board,
cached."""

from __future__ import annotations

import io
import itertools
import json
import math
import random
from functools import cache
from typing import Any

import pytest
from PIL import Image

from cogs.fencing import render
from cogs.fencing.geography import BORDER, project
from cogs.fencing.labels import (
    GAPS,
    ZONE,
    box_distance,
    inside,
    label_text,
    lake_label_boxes,
    overlaps,
    segment_hits_box,
    segments_cross,
)
from cogs.fencing.look import BLACK_PIECE, WHITE_PIECE
from cogs.fencing.piece_sprites import glyph
from cogs.fencing.render import FONT_SIZES, ohio_map
from cogs.fencing.static_map import offroad_towns
from games.fencing import ENGINE
from games.fencing.region import load
from games.fencing.samples import samples
from games.fencing.schema import PieceView, PublicView, StreakView, ThemeView
from tests.test_pictures_legible import MIN_SHOWN, SHOWN, check

#: A bit more than the other games' pictures: a whole state's map with 46 labels and 74 roads.
MAX_BYTES = 90_000
REGION = load("ohio")
NORTHEAST = ("CLE", "AKR", "KEN", "MED", "WAR")


def view(pieces: dict[str, str] | None = None, attacked: str | None = "WB", last: dict[str, Any] | None = None,
         difficulty: str = "interstate", bumper: int = 1, trick: int = 5) -> dict[str, Any]:
    """The map's fields of a public view (`games.fencing.schema.PublicView`)."""
    towns = dict(pieces or REGION.start)
    return {"region": "ohio", "difficulty": difficulty, "bumper_no": bumper, "trick_no": trick, "attacked": attacked,
            "pieces": {p: {"town": t, "colour": p[0], "offroad": False} for p, t in towns.items()},
            "streak": {"owner": 0 if last else None, "last_move": last}}


def worst_views() -> list[dict[str, Any]]:
    """All five pieces in the crowded northeast, long and off-road routes, each piece attacked."""
    crowded = dict(zip(render.PIECES, NORTHEAST, strict=True))
    long_route = {"piece": "WB", "from": "MAN", "route": ["ASH", "MED", "AKR"], "offroad": False}
    offroad = {"piece": "BN", "from": "YNG", "route": ["WAR"], "offroad": True}
    across = {"piece": "BK", "from": "DAY", "route": ["SPR", "COL"], "offroad": False}
    views = []
    for n, piece in enumerate(render.PIECES):
        for difficulty in ("interstate", "state", "backroads"):
            views.append(view(crowded, piece, (long_route, offroad, across, None)[n % 4], difficulty, 2, 17))
    views.append(view(attacked=None, trick=0))
    views.append(view({"BK": "YNG", "WR": "WAR", "BN": "KEN", "WN": "PAI", "WB": "ASB"}, "WR", offroad))
    return views


def played(seed: int, difficulty: str, offroad: str = "on") -> list[dict[str, Any]]:
    """The table's views (seat None) after every action of a whole seeded game, the seated
    waits answered with random legal actions (the game's own timers only when nobody else
    is awaited)."""
    chooser = random.Random(seed)
    state = ENGINE.new_game(3, seed, {"difficulty": difficulty, "offroad": offroad})
    now, views = 1_000.0, []
    while ENGINE.outcome(state) is None and len(views) < 3_000:
        waits = ENGINE.to_act(state)
        seated = [w for w in waits if w.seat is not None]
        if seated:
            wait = chooser.choice(seated)
            actions = ENGINE.legal_actions(state, wait.seat)
            use_default = not actions or (wait.default is not None and chooser.random() < 0.03)
            seat, action = wait.seat, wait.default if use_default else chooser.choice(actions)
        else:
            seat, action = None, waits[0].default
        now += chooser.choice((0.5, 2.0, 5.0))
        state, _ = ENGINE.apply(state, seat, action, now)
        views.append(ENGINE.view(state, None))
    return views


@cache
def real_views() -> list[dict[str, Any]]:
    """Public views from whole games at each difficulty: the start, boards after moves (road
    and off-road), the end."""
    out = []
    for seed, difficulty in ((1, "interstate"), (2, "state"), (3, "backroads"), (4, "interstate")):
        views = played(seed, difficulty)
        moved = [v for v in views if v["streak"]["last_move"]]
        out += [views[0], *moved[:: max(1, len(moved) // 12)], views[-1]]
    return out


def drawn(board: dict[str, Any]) -> tuple[bytes, tuple[int, int]]:
    FONT_SIZES.clear()
    png = ohio_map(board)
    size = check(png, set(FONT_SIZES))
    assert len(png) < MAX_BYTES, f"{len(png)} bytes"
    return png, size


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def count(image: Image.Image, colour: tuple[int, int, int]) -> int:
    """How many pixels of the picture are exactly `colour`."""
    return {c: n for n, c in image.getcolors(1 << 24)}.get(colour, 0)


# -- legibility ---------------------------------------------------------------------------------------
def test_worst_boards_are_legible_and_keep_one_size() -> None:
    sizes = {drawn(board)[1] for board in worst_views()}
    assert sizes == {(render.WIDTH, render.HEIGHT)}


def test_real_game_views_are_legible_and_keep_one_size() -> None:
    views = real_views()
    assert any(v["streak"]["last_move"] and v["streak"]["last_move"]["offroad"] for v in views)
    assert any(v["streak"]["last_move"] and len(v["streak"]["last_move"]["route"]) > 1 for v in views)
    assert {v["difficulty"] for v in views} == {"interstate", "state", "backroads"}
    sizes = {drawn(board)[1] for board in views}
    assert sizes == {(render.WIDTH, render.HEIGHT)}


@pytest.mark.parametrize("name", ["move", "hat", "golf", "catch", "duel", "anthem", "over"])
def test_sample_views_draw(name: str) -> None:
    """The engine's realistic samples (games/fencing/samples.py), as the table sees them."""
    board = ENGINE.view(samples(7)[name], None)
    png, size = drawn(board)
    assert size == (render.WIDTH, render.HEIGHT)
    if name == "move":  # BK went off-road to DEL, WR by road to MID; another player took control since
        assert colour_at(png, "DEL", -render.PIECE_R + 5) == BLACK_PIECE
        assert colour_at(png, "MID", -render.PIECE_R + 5) == WHITE_PIECE
        last = board.get("last_move") or board["streak"]["last_move"]
        assert (count(pixels(png), render.ROUTE) > 100) == bool(last)


class Reading(dict):
    """A view that notes every key read from it, nested dicts included."""

    def __init__(self, data: dict[str, Any], path: str, seen: set[str]) -> None:
        super().__init__({k: Reading(v, f"{path}.{k}", seen) if isinstance(v, dict) else v for k, v in data.items()})
        self.path, self.seen = path, seen

    def __getitem__(self, key: str) -> Any:
        self.seen.add(f"{self.path}.{key}")
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.seen.add(f"{self.path}.{key}")
        return super().get(key, default)


def test_the_map_reads_only_public_view_fields() -> None:
    """Every field the map reads is in the public view's declared shape (`PublicView`)."""
    allowed = {f"view.{k}" for k in PublicView.__annotations__}
    allowed |= {f"view.pieces.{p}.{k}" for p in render.PIECES for k in PieceView.__annotations__}
    allowed |= {f"view.pieces.{p}" for p in render.PIECES}
    allowed |= {f"view.streak.{k}" for k in StreakView.__annotations__}
    allowed |= {f"view.{move}.{k}" for move in ("streak.last_move", "last_move")
                for k in ("piece", "from", "to", "route", "km", "offroad")}
    allowed |= {f"view.theme.{k}" for k in ThemeView.__annotations__}
    for board in real_views():
        seen: set[str] = set()
        render.facts(Reading(board, "view", seen))
        assert seen <= allowed, seen - allowed


def test_piece_glyphs_read_at_500_px() -> None:
    """The glyph's ink, not just its font size, stays 11 px tall on a 500 px column."""
    face = render.font(render.GLYPH_FONT)
    for piece in render.PIECES:
        ink_height = face.getmask(glyph(piece)).size[1]
        assert ink_height * SHOWN / render.WIDTH >= MIN_SHOWN, (piece, ink_height)


# -- labels -------------------------------------------------------------------------------------------
def boxes() -> tuple[dict[str, Any], list[render.Box]]:
    plan = render.layout()
    return plan, [box for box, _ in plan["labels"].values()]


def test_every_town_has_one_label_inside_the_picture() -> None:
    plan, labels = boxes()
    assert set(plan["labels"]) == set(REGION.towns)
    for box in labels:
        assert inside(box), box
    named = {town for town, (box, _) in plan["labels"].items() if REGION.towns[town]["name"] in label_text(town)}
    assert {"COL", "CIN", "CLE", "TOL", "DAY"} <= named


def test_labels_overlap_nothing() -> None:
    plan, labels = boxes()
    fixed = [render.TITLE_BOX, render.LEGEND_BOX, *lake_label_boxes()]
    chips = list(plan["lengths"].values())
    for a, b in itertools.combinations(labels + chips + fixed, 2):
        assert not overlaps(a, b, 0), (a, b)
    spots = render.spots()
    for town, (box, leader) in plan["labels"].items():
        for other, (x, y) in spots.items():  # nor any town's piece place (its own included)
            assert box_distance(box, x, y) >= ZONE - 0.01, (town, other)
        if leader is not None:
            for other_box in labels + chips + fixed:
                if other_box is not box:
                    assert not segment_hits_box(*leader, other_box), (town, other_box)
    leaders = [leader for _, leader in plan["labels"].values() if leader is not None]
    for p, q in itertools.combinations(leaders, 2):
        assert not segments_cross(*p, *q)


def test_northeast_labels_sit_near_their_towns() -> None:
    """Crowded towns still get their label close by (a leader line for the far ones)."""
    plan, _ = boxes()
    spots = render.spots()
    for town in ("CLE", "AKR", "KEN", "MED", "LOR", "YNG", "WAR", "CAN", "PAI", "ASB", "WOO"):
        box, _ = plan["labels"][town]
        assert box_distance(box, *spots[town]) <= ZONE + GAPS[-1] + 1, town


def test_road_lengths_sit_on_their_own_road() -> None:
    plan = render.layout()
    spots = render.spots()
    roads = render.region()["roads"]
    assert len(plan["lengths"]) >= 40, "most roads show their length"
    for i, box in plan["lengths"].items():
        a, b, _, _ = roads[i]
        assert segment_hits_box(spots[a], spots[b], box)
        for j, (c, d, _, _) in enumerate(roads):
            if j != i:
                assert not segment_hits_box(spots[c], spots[d], box), (roads[i], roads[j])


def test_projection_keeps_ohio_in_the_picture() -> None:
    for lat, lon in BORDER:
        x, y = project(lat, lon)
        assert 0 <= x <= render.WIDTH and 0 <= y <= render.HEIGHT, (lat, lon)
    # north is up, east is right, and a km is as long east-west as north-south
    cle, col, cin = (render.spots()[t] for t in ("CLE", "COL", "CIN"))
    assert cle[1] < col[1] < cin[1] and cin[0] < col[0] < cle[0]
    km_x = project(40, -82)[0] - project(40, -82 + 1 / 111.32 / math.cos(math.radians(40)))[0]
    km_y = project(40, -82)[1] - project(40 + 1 / 111.32, -82)[1]
    assert abs(abs(km_x) - km_y) / km_y < 0.01


# -- what the picture shows ---------------------------------------------------------------------------
def colour_at(png: bytes, town: str, dx: float = 0, dy: float = 0) -> tuple[int, int, int]:
    x, y = render.spots()[town]
    return pixels(png).getpixel((round(x + dx), round(y + dy)))


def test_pieces_stand_on_their_towns_in_their_colours() -> None:
    board = view({"BK": "LIM", "WR": "POR", "BN": "ZAN", "WN": "SPR", "WB": "ASB"}, attacked="WN")
    png = ohio_map(board)
    edge = render.PIECE_R - 4
    for piece, town in ((p, board["pieces"][p]["town"]) for p in board["pieces"]):
        disc = BLACK_PIECE if piece[0] == "B" else WHITE_PIECE
        assert colour_at(png, town, -edge + 1, 0) == disc, (piece, town)
    assert colour_at(png, "SPR", render.PIECE_R + 2, 0) == render.GOLD  # the attacked piece's ring
    assert colour_at(png, "LIM", render.PIECE_R + 2, 0) != render.GOLD


def test_the_route_is_drawn_and_offroad_differs() -> None:
    on_road = {"piece": "WR", "from": "CIN", "route": ["LEB", "WIL"], "offroad": False}
    off_road = {"piece": "WR", "from": "CIN", "route": ["WIL"], "offroad": True}
    plain = pixels(ohio_map(view()))
    road = pixels(ohio_map(view(last=on_road)))
    line = pixels(ohio_map(view(last=off_road)))
    route, dashes = count(road, render.ROUTE), count(line, render.ROUTE)
    assert count(plain, render.ROUTE) == 0
    assert route > 300 and dashes > 150
    assert road.tobytes() != line.tobytes()


def test_difficulty_changes_the_roads() -> None:
    pngs = {d: ohio_map(view(difficulty=d)) for d in ("interstate", "state", "backroads")}
    assert len(set(pngs.values())) == 3
    assert offroad_towns("interstate") == {"ATH", "CHI", "DEL", "HAM", "LAN", "MAR", "MTA", "MTV", "NEW",
                                                  "POR", "STE", "WAR", "WOO", "XEN"}
    assert offroad_towns("state") == offroad_towns("backroads") == frozenset()


def test_same_board_same_picture_from_the_cache() -> None:
    board = worst_views()[3]
    first = ohio_map(board)
    hits = render._map.cache_info().hits
    again = ohio_map({**board, "unrelated": "ignored"})
    assert again is first and render._map.cache_info().hits == hits + 1
    moved = ohio_map({**board, "pieces": {**board["pieces"], "BK": {"town": "POR", "colour": "B", "offroad": True}}})
    assert moved != first


@pytest.mark.parametrize("attacked", [None, *render.PIECES])
def test_title_names_the_attacked_piece(attacked: str | None) -> None:
    png = ohio_map(view(attacked=attacked))
    title = pixels(png).crop(tuple(round(v) for v in render.TITLE_BOX))
    golden = count(title, render.GOLD)
    assert (golden > 0) == (attacked is not None)


# -- a bumper won by a theme (issue 20 item 8) ----------------------------------------------------------
def themed_state() -> dict[str, Any]:
    """Rule 22's theme: BK COL→HEB, then WB NEW→HEB→COL (shared: HEB); the anthem is next."""
    from tests.fencing.support import opened, play_trick
    t = opened(difficulty="state")
    t.state["pieces"]["WB"] = "NEW"
    t.state["trick_no"] = 4
    play_trick(t, ([13], [2], [3]), [1], 10.0, move={"type": "move", "piece": "BK", "to": "HEB", "via": []},
               attack="WB")
    play_trick(t, ([13], [2], [3]), [1], 20.0, move={"type": "move", "piece": "WB", "to": "COL", "via": ["HEB"]})
    return t.state


def test_a_bumper_won_by_a_theme_marks_the_shared_town_and_names_the_theme(tmp_path: Any) -> None:
    board = dict(ENGINE.view(themed_state(), None))
    assert board["theme"]["through"] == ["HEB"]
    png, _ = drawn(board)
    without = ohio_map({**board, "theme": None})
    (tmp_path / "theme.png").write_bytes(png)  # looked at 500 px wide while making it
    ring = render.PIECE_R + render.RING + 9 - 2  # inside the gold ring's stroke
    assert colour_at(png, "HEB", ring, 0) == render.GOLD and colour_at(png, "HEB", -ring, 0) == render.GOLD
    assert colour_at(without, "HEB", ring, 0) != render.GOLD
    banner = tuple(round(v) for v in render.THEME_BOX)
    assert count(pixels(png).crop(banner), render.GOLD) > 200  # "THEME through HEB Hebron"
    assert count(pixels(png).crop(banner), render.TEXT) > 200  # "BK Black King, then WB White Bishop"
    assert count(pixels(without).crop(banner), render.GOLD) == 0
    assert render.facts(board)["theme"] == {"through": ["HEB"], "moves": [
        {"piece": "BK", "from": "COL", "route": ["HEB"], "offroad": False},
        {"piece": "WB", "from": "NEW", "route": ["HEB", "COL"], "offroad": False}]}


def test_the_theme_is_shown_until_the_next_bumper_opens() -> None:
    from games.fencing import flow
    state = json.loads(json.dumps(themed_state()))
    assert state["theme"] is not None and state["step"]["kind"] == "anthem"
    flow.start_bumper(state, 100_000, [])
    assert state["theme"] is None and ENGINE.view(state, None)["theme"] is None


def test_labels_go_back_over_the_route_as_the_whole_label_layer_would() -> None:
    """A picture starts from the map with its labels and pastes back only the labels of its
    routes' box: the same pixels as pasting the whole label layer over the drawn routes."""
    boards = [*real_views()[::7], *worst_views(), dict(ENGINE.view(themed_state(), None))]
    assert any(render.facts(b)["last"] for b in boards) and any(b.get("theme") for b in boards)
    render.clear_caches()
    boxed = [pixels(ohio_map(board)).tobytes() for board in boards]
    whole = render.route_box
    try:
        render.route_box = lambda moves: (0, 0, render.WIDTH, render.HEIGHT)
        render._map.cache_clear()  # only the pictures: the static layers know nothing of the box
        for board, pasted in zip(boards, boxed, strict=True):
            assert pixels(ohio_map(board)).tobytes() == pasted
    finally:
        render.route_box = whole
        render._map.cache_clear()
