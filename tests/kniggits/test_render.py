"""Kniggits pictures: legible where Discord shows them (`tests/test_pictures_legible.check`:
decodes, at most 1000 px wide, smallest text at least 11 px tall when shown 500 px wide) for
every picture and map size with the worst content (ten kniggits a side packed and engaged, 12+
tokens in a pool, potions, flags, fled and mounted kniggits, armies spread over a 48-inch
field), windows that keep labels legible, marks that show, one picture per view (cached), and
nothing read that the public view does not have."""

from __future__ import annotations

import io
from typing import Any, get_type_hints

import pytest
from PIL import Image, ImageChops

from cogs.kniggits import render
from cogs.kniggits.board import KNIGGIT_FIELDS
from cogs.kniggits.look import CELL_MIN, MIN_SPAN, ROWS_MAX, condensed
from cogs.kniggits.marks import label_for, rim
from cogs.kniggits.render import FONT_SIZES
from cogs.kniggits.roster_column import draw_roster_line
from cogs.kniggits.window import inside
from games.kniggits import views as shapes
from tests.test_pictures_legible import check

#: A tall 1000 px picture of flat art with a 1-inch grid.
MAX_BYTES = 120_000
SIZES = (24, 36, 48)


def kniggit(kid: str, pos: tuple[int, int], M: int = 2, A: int = 2, D: int = 2, **changes: Any) -> dict[str, Any]:
    """A kniggit as the public view has it (`games.kniggits.views.Kniggit`)."""
    k = {"id": kid, "army": kid[0], "owner": 0 if kid[0] == "A" else 1, "name": "", "kind": "normal",
         "two_swords": False, "pos": list(pos), "facing": None, "heading": "N" if kid[0] == "A" else "S",
         "M": M, "A": A, "D": D, "status": "active", "mounted": False, "horse_lost": False, "magic_sword": False,
         "double_guard": False, "moved": False, "attacks_made": [], "guarded_double": False, "carrying": None,
         "hand": None}
    k.update(changes)
    return k


def public(size: int, kniggits: list[dict[str, Any]] = (), *, engaged: list[list[str]] = (), obstacles=(),
           potions=(), flags=(), last_move=None, last_exchange=None, exchange=None, phase: str = "move",
           result=None) -> dict[str, Any]:
    """A public view (`games.kniggits.views.PublicView`) with the given board."""
    return {"phase": phase, "options": {"preset": "woods", "size": size}, "armies": {},
            "battlefield": {"width": size, "height": size, "zones": {"A": [1, 6], "B": [size - 5, size]},
                            "obstacles": [list(o) for o in obstacles], "potions": list(potions),
                            "flags": list(flags)},
            "map": {"rolls": 0, "accepted": {"A": True, "B": True}}, "build": None, "revealed": None, "deploy": None,
            "rps": None, "kniggits": list(kniggits), "engaged": [list(p) for p in engaged],
            "turn": {"round": 7, "rounds": 30, "army": "A", "first": "A", "done": [], "exchanges": 1},
            "awaited": [0], "last_move": last_move, "last_exchange": last_exchange, "exchange": exchange,
            "idle": {"A": 0, "B": 0}, "claimable": None, "result": result}


def exchange(attacker: str, target: str, mode: str = "mutual") -> dict[str, Any]:
    return {"number": 4, "attacker": attacker, "target": target, "mode": mode, "gestures": {}, "fumbled": {},
            "hits": [{"id": target, "pool": "A", "lost": 1}], "tokens": {}, "fled": [], "dismounted": [], "round": {}}


def move(kid: str, path: list[tuple[int, int]]) -> dict[str, Any]:
    return {"id": kid, "seat": 0, "path": [list(p) for p in path], "cost": "4.83", "engaged": [], "potions": [],
            "flag": None}


def items(size: int) -> dict[str, Any]:
    mid = (size + 1) // 2
    return {"obstacles": [(mid - 6, mid), (mid - 6, mid + 1), (mid - 5, mid), (mid + 7, mid - 2), (mid + 7, mid - 1)],
            "potions": [{"id": f"P{n + 1}", "pos": [mid - 4 + 3 * n, mid + (n % 2) * 3 - 1], "kind": "MAD"[n % 3]}
                        for n in range(6)],
            "flags": [{"army": "A", "home": [mid, 3], "pos": None, "carrier": "B3", "hand": "shield"},
                      {"army": "B", "home": [size + 1 - mid, size - 2], "pos": [mid + 2, mid + 2], "carrier": None,
                       "hand": None}]}


def packed(size: int) -> dict[str, Any]:
    """Ten kniggits a side in a tight melee at the middle: every mark, pools of 12+, engaged
    pairs, a fled kniggit, the last move and exchange."""
    mid = (size + 1) // 2
    marks = [dict(mounted=True, M=6), dict(magic_sword=True, A=12), dict(kind="archer", D=13),
             dict(two_swords=True, A=6, D=0), dict(status="fled", M=1, A=0, D=0), dict(M=10, A=10, D=10),
             dict(carrying="B", hand="sword"), dict(M=0, A=1, D=5), dict(M=15, A=15, D=15), {}]
    ks = []
    for n in range(10):
        ks.append(kniggit(f"A{n + 1}", (mid - 2 + n % 5, mid - 1 - n // 5), **marks[n]))
        ks.append(kniggit(f"B{n + 1}", (mid - 2 + n % 5, mid + 1 + n // 5), **marks[(n + 3) % 10]))
    ks[0]["facing"], ks[1]["facing"] = "B1", "A1"
    pairs = [[f"A{n + 1}", f"B{n + 1}"] for n in range(5) if n != 4]
    return public(size, ks, engaged=pairs, last_move=move("A2", [(mid - 1, mid - 5), (mid - 1, mid - 3),
                                                                  (mid - 1, mid - 1)]),
                  last_exchange=exchange("A1", "B1"), exchange=exchange("A3", "B3"), **items(size))


def spread(size: int) -> dict[str, Any]:
    """Kniggits in all four corners and the middle: wider than a legible window."""
    corners = [(1, 1), (size, 1), (1, size), (size, size), (size // 2, size // 2), (2, 2), (size - 1, size - 1)]
    ks = [kniggit(f"{'AB'[n % 2]}{n // 2 + 1}", xy) for n, xy in enumerate(corners)]
    return public(size, ks, last_exchange=exchange("A3", "B3", "shot"), **items(size))


def start(size: int) -> dict[str, Any]:
    """Both armies on their home rows, ten each, as the deployment timeout places them."""
    mid = (size + 1) // 2
    ks = [kniggit(f"A{n + 1}", (mid - 5 + n, 1)) for n in range(10)]
    ks += [kniggit(f"B{n + 1}", (mid - 5 + n, size)) for n in range(10)]
    return public(size, ks, phase="move", **items(size))


def bare(size: int) -> dict[str, Any]:
    return public(size, [], phase="map", **items(size))


def over(size: int) -> dict[str, Any]:
    view = packed(size)
    for k in view["kniggits"]:
        if k["army"] == "B":
            k["status"] = "gone"
    view.update(phase="over", engaged=[], exchange=None, result={"winner": "A", "reason": "annihilation"})
    return view


BOARDS = {"packed": packed, "spread": spread, "start": start, "bare": bare, "over": over}


def drawn(png_of, *args: Any) -> tuple[bytes, tuple[int, int]]:
    render.clear_caches()
    FONT_SIZES.clear()
    png = png_of(*args)
    size = check(png, set(FONT_SIZES))
    assert len(png) < MAX_BYTES, f"{len(png)} bytes"
    return png, size


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


# -- legible everywhere -----------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("board", sorted(BOARDS))
def test_battlefield_is_legible(size: int, board: str) -> None:
    _, (width, _) = drawn(render.battlefield, BOARDS[board](size))
    assert width == render.WIDTH


@pytest.mark.parametrize("size", SIZES)
def test_private_pictures_are_legible(size: int) -> None:
    view = packed(size)
    mid = (size + 1) // 2
    plan = {"id": "A6", "path": [[mid + 1, mid - 2], [mid + 2, mid - 1], [mid + 3, mid]], "cost": "2.83",
            "allowance": 12, "engages": ["B5", "B6"], "potions": ["P3"], "flag": "B", "hand": "shield"}
    drawn(render.preview, view, plan)
    drawn(render.preview, view, dict(plan, path=[[mid + 1, mid - 2]], cost="0", engages=[]))
    cells = [[x, y] for x in range(1, size + 1) for y in range(1, size + 1) if (x - mid) ** 2 + (y - mid) ** 2 <= 144]
    drawn(render.reach, view, "A6", cells)
    drawn(render.reach, view, "A6", [])
    drawn(render.sight, view, "A3", [{"id": "B3", "clear": True}, {"id": "B8", "clear": False}, "B9"])
    far = spread(size)
    drawn(render.sight, far, "A1", ["B1", {"id": "B4", "clear": False}])
    drawn(render.reach, far, "A1", [[1, 1], [size, size]])


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("army", ["A", "B"])
def test_deployment_is_legible(size: int, army: str) -> None:
    lo, hi = (1, 6) if army == "A" else (size - 5, size)
    placements = {f"{army}{n + 1}": [1 + (n * 7) % size, lo + n % (hi - lo + 1)] for n in range(10)}
    view = public(size, [], phase="deploy", **items(size))
    view["revealed"] = {army: [{"id": kid, "owner": 0, "name": "", "M": 3, "A": 12, "D": 2, "kind": "normal",
                                "two_swords": False, "valid": True, "reason": ""} for kid in placements]}
    _, (_, height) = drawn(render.deployment, view, army, placements)
    assert height < render.WIDTH
    drawn(render.deployment, view, army, {})
    assert render.deployment(view, None, placements) == render.deployment(view, army, placements)


def test_a_deployment_strip_is_not_drawn_again_for_what_it_does_not_show() -> None:
    """The strip shows the ground, its items and the army's placements: the other army's lock,
    a new phase or turn (what the battlefield's headline reads) leaves the same picture."""
    render.clear_caches()
    placements = {"A1": [3, 2], "A2": [8, 4]}
    view = public(36, [], phase="deploy", **items(36))
    first = render.deployment(view, "A", placements)
    later = {**view, "phase": "rps", "turn": None, "awaited": [1], "result": {"winner": "A"}}
    assert render.deployment(later, "A", placements) is first
    rock = {**view["battlefield"], "obstacles": [*view["battlefield"]["obstacles"], [5, 3]]}
    assert render.deployment({**view, "battlefield": rock}, "A", placements) != first  # the ground is read


# -- scale and crop -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("board", ["packed", "spread", "start", "over"])
def test_windows_keep_labels_legible(size: int, board: str) -> None:
    """Whenever kniggits are drawn, a cell holds a two-digit label at 22 px (11 px at 500 wide)."""
    view = BOARDS[board](size)
    cells = [k["pos"] for k in render.on_field(view["kniggits"])]
    win = render.window(size, size, cells)
    assert win.cell >= CELL_MIN
    assert condensed(render.ID_FONT).getlength("10") <= 2 * (win.cell * 0.45 - rim(win.cell)) + 4
    assert (win.x1 - win.x0 + 1) * win.cell <= render.BOARD_W
    assert win.rows() <= ROWS_MAX


def test_a_tall_battle_leaves_out_an_empty_band() -> None:
    """Both armies on their home rows of a 48-inch field: the empty middle is left out, both
    armies stay in the picture."""
    view = start(48)
    win = render.window(48, 48, [k["pos"] for k in view["kniggits"]])
    assert win.gap is not None and win.y0 == 1 and win.y1 == 48
    assert all(inside(win, k["pos"]) for k in view["kniggits"])
    assert not any(inside(win, (24, y)) for y in range(win.gap[0], win.gap[1] + 1))


def test_a_small_field_is_drawn_whole_and_the_window_snaps_to_grid_blocks() -> None:
    assert render.window(24, 24, [])[:4] == (1, 24, 1, 24)
    assert render.window(24, 24, [[3, 3], [22, 22]])[:4] == (1, 24, 1, 24)
    x0, x1, y0, y1, *_ = render.window(36, 36, [[16, 16], [18, 17]])
    assert (x0 - 1) % 6 == 0 and x1 % 6 == 0 and (y0 - 1) % 6 == 0 and y1 % 6 == 0
    assert x1 - x0 + 1 >= MIN_SPAN and y1 - y0 + 1 >= MIN_SPAN


def test_a_spread_out_battle_keeps_the_last_exchange_in_view() -> None:
    cells = [[1, 1], [48, 1], [1, 48], [48, 48], [24, 24]]
    win = render.window(48, 48, cells, focus=[[48, 48], [47, 46]])
    assert inside(win, (48, 48)) and inside(win, (47, 46))
    assert win.cell >= CELL_MIN


# -- marks --------------------------------------------------------------------------------------------------
def test_marks_change_the_picture() -> None:
    base = public(24, [kniggit("A1", (10, 10)), kniggit("B1", (10, 12))])
    plain = pixels(render.battlefield(base))
    for change in (dict(status="fled"), dict(mounted=True), dict(magic_sword=True), dict(kind="archer"),
                   dict(two_swords=True), dict(carrying="B"), dict(M=7), dict(heading="E")):
        marked = public(24, [kniggit("A1", (10, 10), **change), kniggit("B1", (10, 12))])
        assert ImageChops.difference(plain, pixels(render.battlefield(marked))).getbbox(), change
    engaged = public(24, [kniggit("A1", (10, 10), facing="B1"), kniggit("B1", (10, 12), facing="A1")],
                     engaged=[["A1", "B1"]])
    fought = dict(engaged, last_exchange=exchange("A1", "B1"))
    moved = dict(engaged, last_move=move("A1", [(10, 7), (10, 8), (10, 9), (10, 10)]))
    pictures = [render.battlefield(v) for v in (base, engaged, fought, moved)]
    assert len(set(pictures)) == 4


def test_kniggits_outside_the_window_are_marked_at_its_edge() -> None:
    near = [kniggit(f"A{n + 1}", (2 + n, 2)) for n in range(10)] + [kniggit("B1", (5, 5))]
    alone = public(48, near)
    far = public(48, [*near, kniggit("B2", (48, 48))])
    win = render.window(48, 48, [k["pos"] for k in far["kniggits"]])
    assert not inside(win, (48, 48))
    assert render.battlefield(alone) != render.battlefield(far)


# -- cache and inputs -------------------------------------------------------------------------------------
def test_the_same_board_is_drawn_once() -> None:
    render.clear_caches()
    first = render.battlefield(packed(36))
    again = render.battlefield(packed(36))  # an equal view, another dict
    # the very same picture object comes back: nothing was drawn again (no wall-clock
    # comparison, which a loaded machine makes flaky)
    assert again is first
    render.clear_caches()
    assert render.battlefield(packed(36)) is not first  # and a cleared cache draws anew


def test_a_step_of_the_same_turn_draws_no_new_battlefield() -> None:
    """Move, facings, turning and fight of one army's turn show the same field under the same
    title (the table's title names the phase): the picture is not drawn (or uploaded) again; a
    new army's turn, a new round and the result are."""
    render.clear_caches()
    view = packed(36)
    first = render.battlefield(view)
    for phase in ("facing", "turning", "fight"):
        assert render.battlefield({**view, "phase": phase}) is first
    assert render.facts(view)["headline"] == "Round 7 of 30 · Army A's turn"
    for turn in ({**view["turn"], "army": "B"}, {**view["turn"], "round": 8}):
        assert render.battlefield({**view, "turn": turn}) != first
    over = {**view, "phase": "over", "result": {"winner": "A", "reason": "annihilation", "strength": {}}}
    assert render.facts(over)["headline"] == "Army A wins · annihilation"


def test_only_public_view_fields_are_read() -> None:
    """The pictures read the public view's documented keys only: a seat's `me`, unknown keys
    and changes to fields they do not show leave them unchanged."""
    hints = get_type_hints(shapes.Kniggit)
    assert set(KNIGGIT_FIELDS) <= set(hints)
    for key in ("battlefield", "kniggits", "engaged", "phase", "options", "turn", "last_move", "last_exchange",
                "exchange", "result"):
        assert key in get_type_hints(shapes.PublicView)
    view = packed(36)
    seat_view = dict(view, me={"seat": 0, "plan": {"id": "A1"}, "destinations": []}, secret="x")
    assert render.facts(seat_view) == render.facts(view)
    assert render.battlefield(seat_view) == render.battlefield(view)
    for k in view["kniggits"]:
        k["name"], k["owner"], k["moved"], k["attacks_made"] = "Lancelot", 7, True, ["B1"]
    view["awaited"], view["idle"] = [1], {"A": 2, "B": 0}
    assert render.facts(view) == render.facts(packed(36))


def test_pictures_are_palette_pngs_of_fixed_width() -> None:
    for board in BOARDS.values():
        image = Image.open(io.BytesIO(render.battlefield(board(36))))
        assert image.mode == "P" and image.width == render.WIDTH


# -- real views from the engine -----------------------------------------------------------------------------
def played(seed: int, players: int = 2, **options: Any) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """The public view and every seat's view after each action of a whole seeded game, the
    waits answered with random legal actions (sometimes their timeout defaults)."""
    import random

    from games.kniggits.samples import ENGINE

    chooser = random.Random(seed)
    state = ENGINE.new_game(players, seed, options)
    now, out = 1_000.0, []
    while ENGINE.outcome(state) is None and len(out) < 1_500:
        waits = ENGINE.to_act(state)
        seated = [w for w in waits if w.seat is not None]
        if seated:
            wait = chooser.choice(seated)
            actions = ENGINE.legal_actions(state, wait.seat)
            use_default = not actions or (wait.default is not None and chooser.random() < 0.05)
            seat, action = wait.seat, wait.default if use_default else chooser.choice(actions)
        else:
            seat, action = None, waits[0].default
        now += 2.0
        seats = []
        if action.get("type") == "move" and seat is not None:  # the preview the panel shows first
            planned, _ = ENGINE.apply(state, seat, dict(action, type="plan"), now)
            seats.append(ENGINE.view(planned, seat))
        state, _ = ENGINE.apply(state, seat, action, now)
        if state["phase"] == "deploy":  # the deployment drafts
            seats += [ENGINE.view(state, s) for s in range(players)]
        out.append((ENGINE.view(state, None), seats))
    return out


GAMES = [(24, 1, 2, {"archers": True, "horses": True, "potions": 4, "scenario": "flag"}),
         (36, 2, 4, {"team_sizes": [2, 2], "magic_swords": True, "two_swords": True, "budget": 120}),
         (48, 3, 2, {"preset": "ruins", "potions": 6, "double_defence": True})]


@pytest.mark.parametrize(("size", "seed", "players", "options"), GAMES)
def test_real_games_are_legible(size: int, seed: int, players: int, options: dict[str, Any]) -> None:
    """Every picture of a whole random game, from the engine's own views: the table's
    battlefield, each move preview and each deployment draft."""
    views = played(seed, players, size=size, **options)
    public_views = [v for v, _ in views]
    for view in public_views[:: max(1, len(public_views) // 25)] + public_views[-1:]:
        drawn(render.battlefield, view)
        for k in view["kniggits"]:
            assert set(KNIGGIT_FIELDS) <= set(k)
    plans = [(s, s["me"]["plan"]) for _, seats in views for s in seats if s["me"].get("plan")]
    drafts = [s for _, seats in views for s in seats if s["me"].get("deploy")]
    assert plans and drafts
    for seat_view, plan in plans[:: max(1, len(plans) // 8)]:
        drawn(render.preview, seat_view, plan)
    for seat_view in drafts[:: max(1, len(drafts) // 4)]:
        me = seat_view["me"]
        drawn(render.deployment, seat_view, me["army"], me["deploy"]["placements"])


def test_sample_states_draw() -> None:
    from games.kniggits import samples

    for state in samples.sample_states().values():
        view = samples.ENGINE.view(state, None)
        drawn(render.battlefield, view)
        for seat in range(state["players"]):
            me = samples.ENGINE.view(state, seat)["me"]
            if me.get("plan"):
                drawn(render.preview, samples.ENGINE.view(state, seat), me["plan"])


def drawn_in_place(image: Image.Image, k: dict[str, Any], x: float, y: float, cell: int, *,
                   ghost: bool = False) -> None:
    """A disc drawn on a sprite as big as the picture, pasted at (0, 0): no translation at all."""
    sprite, mask = render._disc.__wrapped__(
        k["army"], k["status"] != "active" or ghost, ghost, bool(k.get("mounted")),
        (0, 0, 0) if ghost else tuple(int(k.get(p, 0)) for p in "MAD"), label_for(k["id"], cell), cell, x, y)
    image.paste(sprite, (0, 0), mask)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("board", ["packed", "spread", "over"])
def test_sprites_paste_the_pixels_drawing_in_place_gives(size: int, board: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Discs and roster lines are drawn once and pasted (at even coordinates, with the place
    within a pixel in the key): every pixel as when each is drawn where it stands."""
    view = BOARDS[board](size)
    mid = (size + 1) // 2
    plan = {"id": "A6", "path": [[mid + 1, mid - 2], [mid + 2, mid - 1]], "cost": "1.41", "allowance": 12,
            "engages": [], "potions": [], "flag": None, "hand": None}
    pasted = [drawn(render.battlefield, view)[0], drawn(render.preview, view, plan)[0]]
    monkeypatch.setattr("cogs.kniggits.marks.disc", drawn_in_place)
    monkeypatch.setattr("cogs.kniggits.roster_column.roster_line", draw_roster_line)
    in_place = [drawn(render.battlefield, view)[0], drawn(render.preview, view, plan)[0]]
    for a, b in zip(pasted, in_place, strict=True):
        assert pixels(a).tobytes() == pixels(b).tobytes()


# -- the roster: no part over another -----------------------------------------------------------------------
def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def roster_cases() -> list[list[dict[str, Any]]]:
    """Rosters of seeded games with every variant on (archers, horses, potions, the flag, magic
    swords, two swords; a 2v2 game and a long one), the packed boards' (every mark, pools of
    12+), and a kniggit with every mark at once, one gone with a bow."""
    every = {"archers": True, "horses": True, "potions": 4, "scenario": "flag", "magic_swords": True,
             "two_swords": True, "double_defence": True}
    cases = [packed(size)["kniggits"] for size in SIZES] + [over(48)["kniggits"]]
    for seed, players, options in ((1, 2, dict(size=24, budget=60)), (3, 4, dict(size=36, team_sizes=[2, 2], budget=120)),
                                   (4, 2, dict(size=48, budget=150))):
        views = [v for v, _ in played(seed, players, **options, **every) if v["kniggits"]]
        cases += [v["kniggits"] for v in views[:: max(1, len(views) // 12)]]
    worst = kniggit("A10", (48, 48), M=15, A=15, D=15, mounted=True, magic_sword=True, kind="archer",
                    carrying="B", status="fled")
    cases.append([worst, kniggit("A9", (12, 22), kind="archer", status="gone"),
                  kniggit("B10", (12, 22), carrying="A", mounted=True, magic_sword=True, two_swords=True)])
    return cases


def test_no_roster_part_overlaps_another() -> None:
    """Every id, chip, mark and position in the roster's narrow column beside the field and in its
    two columns under it has a box of its own, inside the panel; and those are the boxes drawn
    (no pixel inked outside them), so the layout cannot hide an overlap."""
    from cogs.kniggits.look import BACKGROUND, PANEL, ROSTER_W, blank, ink
    from cogs.kniggits.roster_column import roster, roster_height, roster_parts

    cases = roster_cases()
    assert any(k["mounted"] for ks in cases for k in ks) and any(k["carrying"] for ks in cases for k in ks)
    assert any(k["kind"] == "archer" and k["status"] == "gone" for ks in cases for k in ks)
    for kniggits in cases:
        for columns, width in ((1, ROSTER_W), (2, render.WIDTH - 2 * render.PAD)):
            box = (0, 0, width, roster_height(kniggits, columns, width))
            parts = roster_parts(kniggits, box, columns)
            for n, a in enumerate(parts):
                assert box[0] <= a.box[0] and a.box[2] <= box[2] and box[1] <= a.box[1] and a.box[3] <= box[3], a
                for b in parts[n + 1:]:
                    assert not overlap(a.box, b.box), (columns, a, b)
            image = blank((width, box[3]), BACKGROUND)
            roster(image, kniggits, box, columns)
            inked = image.point([0 if v in (ink(PANEL), ink(BACKGROUND)) else 255 for v in range(256)], "L")
            covered = Image.new("L", image.size, 255)
            for part in parts:
                covered.paste(0, tuple(round(v) for v in part.box))
            assert ImageChops.multiply(inked, covered).getbbox() is None, (columns, [k["id"] for k in kniggits])


def test_an_edge_arrow_covers_no_disc() -> None:
    """An arrow to a kniggit outside the window goes on the edge cell nearest it, or when a disc
    (or potion or flag) is drawn there, the nearest free cell along the edge that no other arrow
    has; arrows to one cell stay together."""
    from cogs.kniggits.board import facts
    from cogs.kniggits.window import Window

    ks = [kniggit("A1", (5, 12)), kniggit("B1", (5, 30)), kniggit("B2", (6, 30)), kniggit("B3", (5, 40)),
          kniggit("B4", (30, 3))]
    shown = facts(public(48, ks, potions=[{"id": "P1", "pos": [12, 4], "kind": "M"}]))
    board = render.framed(shown, Window(1, 12, 1, 12, 50), ["edge arrows"])
    outside = [k for k in shown["kniggits"] if not board.visible(k["pos"])]
    taken = board.taken(shown["kniggits"])
    assert taken == {(5, 12), (12, 4)}
    cells = dict(zip([k["id"] for k in outside], board.arrow_cells(outside, taken), strict=True))
    assert cells == {"B1": (4, 12), "B2": (6, 12), "B3": (4, 12), "B4": (12, 3)}
