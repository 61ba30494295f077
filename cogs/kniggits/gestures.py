"""The exchange's secret gesture panel: only the heights this side may pick, the sword +
shield pair, two swords, the double guard and Lock (asking first when a hand is left empty)."""

from __future__ import annotations

from cogs.kniggits.wording import HEIGHT_EMOJI, HEIGHT_WORD, HEIGHTS
from cogs.table.ui import Button, Choice, Control, Select
from games.kniggits.schema import AttackOption, GesturePanel, PublicView


def attack_label(o: AttackOption) -> str:
    if o["mode"] == "shot":
        return f"{o['attacker']} ⇢ {o['target']} · shot"
    return f"{o['attacker']} → {o['target']} · {'mutual' if o['mode'] == 'mutual' else 'one-sided'}"


def left_handed(view: PublicView, seat: int) -> bool:
    hands = view["left_handed"]
    return bool(hands[seat]) if 0 <= seat < len(hands) else False


def handed_button(left: bool) -> Button:
    """§4: the player says which hand holds the sword; it only relabels the gesture panel.
    Lasting: the action names the hand, good in any phase, so a panel showing it is not stale
    (and not redrawn) when the game moves on without changing it."""
    if left:
        return Button("I'm right-handed", {"type": "handed", "left": False}, "secondary", "✋", lasting=True)
    return Button("I'm left-handed", {"type": "handed", "left": True}, "secondary", "✋", lasting=True)


def missing_hands(g: GesturePanel) -> list[str]:
    """The hands the seat's draft leaves empty (K16: they fumble): "sword", "shield"."""
    draft = g["draft"]
    if draft.get("double"):
        return [hand for hand, key in (("guard", "sword"), ("shield", "shield")) if draft.get(key) is None]
    out = []
    if (g["swords"] == 2 and not all(draft.get("swords") or [None, None])) or (g["swords"] == 1 and draft.get("sword") is None):
        out.append("sword")
    if g["shield"] and draft.get("shield") is None:
        out.append("shield")
    return out


def lock_button(g: GesturePanel, row: int | None) -> Button:
    """Lock; with a hand left empty the first press only asks ("Lock with no shield?", a note
    in the seat's draft) and the button then locks as it is."""
    missing = missing_hands(g)
    if not missing:
        return Button("Lock gesture", {"type": "lock"}, "success", "🔒", row=row)
    if not g["draft"].get("asked"):
        return Button("Lock gesture", {"type": "gesture", "asked": True}, "success", "🔒", row=row)
    return Button(f"Lock with no {' and no '.join(missing)}", {"type": "lock"}, "danger", "🔒", row=row)


def pair_select(g: GesturePanel, sword_word: str, shield_word: str) -> Select:
    """A side with one sword and a shield picks both at once (then Lock: two presses)."""
    draft = g["draft"]
    choices = [Choice(f"{sword_word} {HEIGHT_WORD[s]} + {shield_word.lower()} {HEIGHT_WORD[h]}",
                      {"type": "gesture", "sword": s, "shield": h}, emoji=HEIGHT_EMOJI[s],
                      default=draft.get("sword") == s and draft.get("shield") == h)
               for s in g["sword_heights"] for h in HEIGHTS]
    now = (f" (now {HEIGHT_WORD[draft['sword']]} + {HEIGHT_WORD[draft['shield']]})"
           if draft.get("sword") and draft.get("shield") else "")
    return Select(f"Sword + shield…{now}", choices, row=0)


def swords_select(g: GesturePanel) -> Select:
    """Two swords (V4) pick both heights at once; the order of the two makes no difference."""
    allowed = [h for h in HEIGHTS if h in g["sword_heights"]]
    current = [h for h in g["draft"].get("swords") or [] if h]
    choices = [Choice(f"Swords {HEIGHT_WORD[a]} + {HEIGHT_WORD[b]}", {"type": "gesture", "swords": [a, b]},
                      emoji=HEIGHT_EMOJI[a], default=sorted(current) == sorted([a, b]))
               for i, a in enumerate(allowed) for b in allowed[i:]]
    now = f" (now {' + '.join(HEIGHT_WORD[h] for h in current)})" if len(current) == 2 else ""
    return Select(f"Swords…{now}", choices)


def gesture_controls(g: GesturePanel, *, left: bool = False) -> list[Control]:
    """Only the heights this side may pick now (the engine lists them): one select of the
    sword + shield pair (or of both swords), the sword and shield rows to change one hand,
    the double-guard toggle, Lock. A left-handed player's read "Left hand — sword High" and
    "Right hand — shield High" (§4: named controls, so no rule changes)."""
    sword_word, shield_word = ("Left hand — sword", "Right hand — shield") if left else ("Sword", "Shield")
    draft = g["draft"]
    double = bool(draft.get("double"))
    out: list[Control] = []
    two = g["swords"] == 2 and not double
    pair = g["swords"] == 1 and g["shield"] and not double
    rows: tuple[int | None, ...] = (None, None, None) if two else ((1, 2, 3) if pair else (0, 1, 2))
    if pair:
        out.append(pair_select(g, sword_word, shield_word))
    if two:
        out.append(swords_select(g))
    elif g["swords"] == 1 or double:
        allowed = list(HEIGHTS) if double else list(g["sword_heights"])
        label = "Guard 2" if double else sword_word
        for h in allowed:
            if double and draft.get("shield") == h:
                continue
            chosen = draft.get("sword") == h
            out.append(Button(f"{label} {HEIGHT_WORD[h]}", {"type": "gesture", "sword": h},
                              "success" if chosen else "primary", HEIGHT_EMOJI[h], row=rows[0]))
    if g["shield"]:
        for h in HEIGHTS:
            if double and draft.get("sword") == h:
                continue
            chosen = draft.get("shield") == h
            out.append(Button(f"{shield_word} {HEIGHT_WORD[h]}", {"type": "gesture", "shield": h},
                              "success" if chosen else "secondary", "🛡️", row=rows[1]))
    if g["double"]:
        sword = draft.get("sword")
        if double:
            # back to one hand: only when the sword pick is still a legal strike
            if g["swords"] == 0 or sword is None or sword in g["sword_heights"]:
                out.append(Button("Guard with both: ON", {"type": "gesture", "double": False}, "success", "🛡️",
                                  row=rows[2]))
        elif sword is None or sword != draft.get("shield"):
            out.append(Button("Guard with both: off", {"type": "gesture", "double": True}, "secondary", "🛡️",
                              row=rows[2]))
    out.append(lock_button(g, rows[2]))
    return out

