"""A commander's private panel, phase by phase, built from its own view (`me`) alone."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from cogs.kniggits.drafts import (
    ARMY_FIELD,
    OPTIONS_PER_SELECT,
    ROUTE_EMOJI,
    TO_FIELD,
    VIA_FIELD,
    action_fits,
    deploy_example,
    deploy_field,
    destination_action,
    destination_label,
    draft_text,
    mover_label,
    numbered_routes,
    plan_words,
    preset_lines,
)
from cogs.kniggits.gestures import attack_label, gesture_controls, handed_button, left_handed, missing_hands
from cogs.kniggits.images import deployment_png, preview_png, reach_png, sight_png, sight_targets
from cogs.kniggits.shown import Target
from cogs.kniggits.wording import (
    COLOUR,
    ICON,
    SHAPE_EMOJI,
    exchange_head,
    gesture_words,
    id_number,
    kniggit_line,
    own_commitment,
    seats_of,
    xy,
)
from cogs.table.ui import Button, Card, Choice, Control, FormButton, Screen, Select, TableInfo
from cogs.table.wording import plural
from games.kniggits.schema import SeatItems, SeatView

FACINGS_PER_MESSAGE = 4


class Panel:
    """What one seat sees and may do now, built from its view (`me`) alone."""

    def __init__(self, view: SeatView, me: SeatItems, seat: int, info: TableInfo) -> None:
        self.view, self.me, self.seat, self.info = view, me, seat, info
        self.lines: list[str] = []
        self.fields: list[tuple[str, str, bool]] = []
        self.controls: list[Control] = []
        self.image: Callable[[], bytes] | None = None
        self.image_name = "panel.png"

    def build(self) -> None:
        phase = self.view["phase"]
        step = getattr(self, f"_{phase}", None)
        if step is not None:
            step()
        if self.me["can_claim"]:
            self.lines.append("💤 The other army sat out three turns: you may claim the forfeit.")
            self.controls.append(Button("Claim forfeit", {"type": "claim_forfeit"}, "danger", "🏳️"))
        if not self.lines:
            self.lines.append("Nothing for you to do right now.")

    @property
    def awaited(self) -> bool:
        return self.seat in self.view["awaited"]

    # -- before the battle --
    def _map(self) -> None:
        if self.me["captain"]:
            accepted = self.view["map"]["accepted"].get(self.me["army"])
            self.lines.append("✅ Your army accepted this map." if accepted else
                              "🗺️ You are captain: accept the map on the table, or re-roll it.")
        else:
            self.lines.append("🗺️ Your captain accepts the map on the table.")

    def _build(self) -> None:
        me, options = self.me, self.view["options"]
        self.lines.append(f"🛒 **Buy your kniggits** — {me.get('build_cost', 0)} of {me['share']} points "
                          "spent (a kniggit 5, a token 1).")
        self.fields.append(("Your list", draft_text(me.get("draft") or [], options)[:1024], False))
        for mate, lines in sorted((me.get("team_drafts") or {}).items()):
            self.fields.append((f"{self.info.name_of(int(mate))}'s list", draft_text(lines, options)[:1024], False))
        self.controls.append(handed_button(left_handed(self.view, self.seat)))
        if me.get("locked"):
            self.lines.append("🔒 Locked. The armies are revealed once everyone has locked.")
            return
        self.lines.append("Write the list (one kniggit a line: `name M A D`, add `archer` for a bow), "
                          "or take a quick list; then **Lock**.")
        self.controls.append(FormButton("Write my army", "Your army: name M A D [archer]", [ARMY_FIELD],
                                        {"type": "army"}, "primary", "📝"))
        for label, text in preset_lines(me["share"], options):
            action = {"type": "army", "lines": text}
            if action_fits(action):
                self.controls.append(Button(label, action, "secondary", "⚡"))
        if me.get("draft"):
            self.controls.append(Button("Lock my army", {"type": "lock"}, "success", "🔒"))

    def _deploy(self) -> None:
        me = self.me
        deploy: Mapping[str, Any] = me.get("deploy") or {}
        placements = deploy.get("placements") or {}
        mine = deploy.get("mine") or []
        zone = deploy.get("zone") or ["?", "?"]
        self.lines.append(f"📍 **Deploy in secret** in rows {zone[0]}–{zone[1]}. Your kniggits: "
                          + (", ".join(f"{kid} → {xy(placements.get(kid))}" for kid in mine) or "none"))
        others = {k: v for k, v in placements.items() if k not in mine}
        if others:
            self.lines.append("Teammates: " + ", ".join(f"{k} → {xy(v)}" for k, v in sorted(others.items())))
        self.image, self.image_name = partial(deployment_png, self.view, me["army"], placements), "deployment.png"
        if me.get("locked"):
            self.lines.append("🔒 Locked. Both deployments are revealed together.")
            return
        if mine:
            example = deploy_example(mine, zone).splitlines()[0]
            self.lines.append(f"Pick a preset (back rows or front rows) or place each: `{example}`. Then **Lock**.")
            self.controls += [
                Button("Back rows", {"type": "deploy", "preset": "back"}, "secondary", "⬇️"),
                Button("Front rows", {"type": "deploy", "preset": "front"}, "secondary", "⬆️"),
                FormButton("Place kniggits…", "Deployment: id x,y", [deploy_field(mine, zone)], {"type": "deploy"},
                           "primary", "📝"),
            ]
        self.controls.append(Button("Lock deployment", {"type": "lock"}, "success", "🔒"))

    def _rps(self) -> None:
        me = self.me
        if not me["captain"]:
            self.lines.append("✊ Your captain throws rock-paper-scissors for the first turn.")
            return
        if me.get("locked"):
            pick = me.get("rps_pick")
            self.lines.append(f"🔒 You threw {pick}. Waiting for the other captain." if pick else "🔒 Thrown.")
            rps = self.view["rps"]
            sealed = own_commitment(rps["open"] if rps else None, self.seat)
            if sealed:
                self.lines.append(sealed)
            return
        self.lines.append("✊✋✌️ **Throw** for the first turn (best of three):")
        self.controls += [Button(shape.capitalize(), {"type": "throw", "shape": shape}, "primary", emoji)
                          for shape, emoji in SHAPE_EMOJI.items()]

    # -- the battle --
    def _turn_header(self) -> None:
        turn = self.view["turn"]
        mine = [k for k in self.view["kniggits"] if k["owner"] == self.seat]
        if mine:
            self.fields.append(("Your kniggits", "\n".join(kniggit_line(k) for k in mine)[:1024], False))
        if turn:
            self.lines.append(f"Round {turn['round']} of {turn['rounds']} · Army {turn['army']}'s turn.")

    def _move(self) -> None:
        self._turn_header()
        me = self.me
        if "movers" not in me:
            turn = self.view["turn"]
            assert turn is not None  # the move phase is a turn's
            self.lines.append("🏃 The other army is moving." if turn["army"] != me["army"]
                              else "✅ You are done moving; waiting for your teammate.")
            return
        movers = me.get("movers") or []
        cursor, plan = me.get("cursor"), me.get("plan")
        self.lines.append("🔔 **Your move.** Pick a kniggit, then where it goes: it moves at once, along the "
                          "route the picture draws (⏪ **Undo** takes it back). **Done moving** when finished "
                          "(unmoved kniggits hold).")
        if movers:
            choices = [Choice(mover_label(m)[:100], {"type": "select", "id": m["id"]},
                              emoji="▶️" if m["id"] == cursor else None, default=m["id"] == cursor)
                       for m in movers[:OPTIONS_PER_SELECT]]
            self.controls.append(Select("Kniggit to move", choices))
        finished = all(m["held"] for m in movers)  # the last panel used offers the turn's Done
        if finished:
            self.lines.append("✅ Every kniggit of yours has moved or holds: press **Done moving** below.")
        if plan:
            self.lines.append("🔍 Preview: " + plan_words(plan))
            self.image, self.image_name = partial(preview_png, self.view, plan), "preview.png"
            self.controls.append(Button("Confirm move", {"type": "confirm"}, "success", "✅"))
            self.controls.append(Button("Change", {"type": "cancel"}, "secondary", "↩️"))
            if plan["flag"] and plan["hand"]:
                other = "shield" if plan["hand"] == "sword" else "sword"
                self.controls.append(Button(f"Hold flag in {other} hand", {"type": "hand", "hand": other},
                                            "secondary", "⚑"))
        elif cursor:
            dests = me.get("destinations") or []
            routes = numbered_routes(dests)
            self._reach_picture(cursor, routes)
            choices = []
            for n, d in enumerate(dests[:OPTIONS_PER_SELECT]):
                choices.append(Choice(destination_label(d)[:100], destination_action(cursor, d),
                                      emoji=ROUTE_EMOJI[routes[n]] if n in routes else None))
            if choices:
                self.controls.append(Select(f"Where does {cursor} go?", choices))
            if any(d["tag"] != "hold" for d in dests):  # a pinned kniggit has nowhere to type
                self.controls.append(FormButton("Other cell…", f"Move {cursor}: destination", [TO_FIELD, VIA_FIELD],
                                                {"type": "plan", "id": cursor}, "secondary", "🎯"))
        if me.get("can_undo"):
            self.controls.append(Button("Undo last move", {"type": "undo"}, "secondary", "⏪"))
        self.controls.append(Button("Done moving", {"type": "done"}, "success" if finished else "primary", "🏁"))

    def _reach_picture(self, cursor: str, routes: dict[int, int]) -> None:
        """The selected kniggit's reach (the engine's cells) as the panel's picture, with the
        numbered routes of the named destinations (a pick moves at once, so the route is shown
        first), and an archer's targets from where it stands (shooting needs it to stay put)."""
        cells = self.me.get("reach")
        if cells is None:
            return
        if cells:
            dests = self.me.get("destinations") or []
            drawn = [(number, dests[n]["path"]) for n, number in sorted(routes.items())]
            self.lines.append(f"🟩 The picture tints the {plural(len(cells), 'cell')} **{cursor}** can reach "
                              "this turn" + (" and draws the numbered routes (1️⃣ … in the list)." if drawn else "."))
            self.image, self.image_name = partial(reach_png, self.view, cursor, cells, drawn), "reach.png"
        else:
            self.lines.append(f"**{cursor}** cannot move this turn: it may only hold.")
        sight = self.me.get("sight")
        if sight is not None:
            can = [t["id"] for t in sight if t["clear"] and t["in_range"]]
            self.lines.append(f"🏹 If it stays, {cursor} can shoot " + (", ".join(can) if can else "nobody")
                              + " in the fight (`/kniggits los`).")

    def _facing_selects(self, verb: str) -> None:
        facings = sorted(self.me.get("facings") or [],
                         key=lambda f: (f["current"] in f["enemies"], id_number(f["id"])))
        shown = facings[:FACINGS_PER_MESSAGE]
        for f in shown:
            choices = [Choice(f"{f['id']} faces {e}" + (" (now)" if e == f["current"] else "")
                              + (" · default" if e == f["default"] else ""),
                              {"type": "face", "id": f["id"], "target": e}) for e in f["enemies"][:OPTIONS_PER_SELECT]]
            current = f["current"] if f["current"] in f["enemies"] else None
            self.controls.append(Select(f"{f['id']} {verb}" + (f" (now {current})" if current else ""), choices))
        if len(facings) > len(shown):
            self.lines.append(f"{len(facings) - len(shown)} more after these (or `/kniggits face`).")

    def _facing(self) -> None:
        self._turn_header()
        if not self.me.get("facings"):
            self.lines.append("🧭 The attacking army chooses its facings.")
            return
        self.lines.append("🔔 **Choose which enemy each engaged kniggit faces** (it attacks only that one), "
                          "then **Done turning**.")
        self._facing_selects("faces…")
        if self.awaited:
            self.controls.append(Button("Done turning", {"type": "done"}, "success", "✅"))

    def _turning(self) -> None:
        self._turn_header()
        if not self.me.get("facings") or not self.awaited:
            self.lines.append("🔄 The defending army may turn its kniggits to face their attackers.")
            return
        self.lines.append("🔔 **Turn to face**: your engaged kniggits may face any engaged enemy "
                          "(facing an attacker lets you strike back). Then **Done turning**.")
        self._facing_selects("turns to…")
        self.controls.append(Button("Done turning", {"type": "done"}, "success", "✅"))

    def _fight(self) -> None:
        self._turn_header()
        attacks = self.me.get("attacks") or []
        if not self.awaited:
            turn = self.view["turn"]
            assert turn is not None  # the fight phase is a turn's
            self.lines.append("🗡️ The other army is fighting." if turn["army"] != self.me["army"]
                              else "✅ You ended your turn.")
            return
        self.lines.append("🔔 **Fight!** Pick an attack (→ melee, ⇢ arrow), or **End turn**.")
        pages = [attacks[i:i + OPTIONS_PER_SELECT] for i in range(0, len(attacks), OPTIONS_PER_SELECT)][:4]
        shots = [o for o in attacks if o["mode"] == "shot"]
        if shots:  # an archer's sight: who it can hit from where it stands
            archer = shots[0]["attacker"]
            targets: Sequence[Target | str] = sight_targets((self.me.get("sights") or {}).get(archer))
            if not targets:
                targets = [o["target"] for o in shots if o["attacker"] == archer]
            self.image, self.image_name = partial(sight_png, self.view, archer, targets), "sight.png"
        for n, page in enumerate(pages, 1):
            choices = [Choice(attack_label(o), dict(o["action"])) for o in page]
            name = "Attack" + (f" ({n}/{len(pages)})" if len(pages) > 1 else "")
            self.controls.append(Select(name, choices))
        if not attacks:
            self.lines.append("No kniggit of yours can attack now.")
        self.controls.append(Button("End turn", {"type": "end_turn"}, "danger", "🛑"))

    def _exchange(self) -> None:
        self._turn_header()
        ex = self.view["exchange"]
        assert ex is not None  # the exchange phase is an open exchange's
        self.lines.append(exchange_head(self.view, ex, self.info))
        g = self.me.get("gesture")
        if not g:
            self.lines.append("🙅 **Not your fight** — only the two kniggits' commanders pick gestures. "
                              "Wait for the reveal.")
            return
        draft = g["draft"]
        role = "attacks" if g["role"] == "attacker" else "is attacked"
        self.lines.append(f"Your **{g['id']}** {role}. Your pick so far: {gesture_words(draft)}.")
        if g["locked"]:
            self.lines.append("🔒 Locked. Waiting for the other side; both are revealed together.")
            sealed = own_commitment(ex["round"], self.seat)
            if sealed:
                self.lines.append(sealed)
            return
        self.lines.append("Pick in secret (you may change it until you lock; a missing hand fumbles).")
        missing = missing_hands(g)
        if missing and draft.get("asked"):
            hands = " and no ".join(missing)
            self.lines.append(f"⚠️ **Lock with no {hands}?** That hand does nothing this exchange: pick it "
                              f"above, or press **Lock with no {hands}**.")
        self.controls += gesture_controls(g, left=left_handed(self.view, self.seat))

    def _over(self) -> None:
        self.lines.append("🏁 The battle is over.")


def private_screen(view: SeatView, seat: int, info: TableInfo) -> Screen | None:
    """The seat's own panel under its army's head line; nothing for a seat the view has no `me` for."""
    me = view.get("me")
    if not me:
        return None
    army = me["army"]
    mates = [info.name_of(s) for s in seats_of(view, army) if s != seat]
    head = f"{ICON.get(army, '')} **Army {army}**" + (" · captain" if me["captain"] else "") + \
        (f" · with {' & '.join(mates)}" if mates else "")
    panel = Panel(view, me, seat, info)
    panel.build()
    lines = [head, "", *panel.lines]
    title = f"⚔️ Kniggits — {info.name_of(seat)}'s panel"
    card = Card(title=title[:256], description="\n".join(lines)[:4096], fields=panel.fields, colour=COLOUR)
    return Screen(card, image=panel.image, image_name=panel.image_name, controls=panel.controls)
