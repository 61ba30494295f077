"""What a picture reads from the view: `facts` (the battlefield's, the base of every private
picture) and `ground` (the deployment strip's), copied key by key into the pictures' own types
(shown.py). Pillow-free: a screen names its picture (`Screen.image_key`) from them without
drawing it; the field itself is drawn by field.py."""

from __future__ import annotations

from collections.abc import Iterable

from cogs.kniggits.shown import KNIGGIT_FIELDS as KNIGGIT_FIELDS
from cogs.kniggits.shown import Ground, KniggitLook, PairLook, Shown
from games.kniggits.schema import ExchangeResult, Kniggit, OpenExchange, PublicView


# -- what a picture reads from the view ----------------------------------------------------------------
def look_of(k: Kniggit) -> KniggitLook:
    """The fields of a kniggit its disc, marks and roster line show."""
    return {"id": k["id"], "army": k["army"], "kind": k["kind"], "two_swords": k["two_swords"], "pos": k["pos"],
            "facing": k["facing"], "heading": k["heading"], "M": k["M"], "A": k["A"], "D": k["D"],
            "status": k["status"], "mounted": k["mounted"], "magic_sword": k["magic_sword"],
            "carrying": k["carrying"], "hand": k["hand"]}


def pair_of(exchange: ExchangeResult | OpenExchange | None) -> PairLook | None:
    if exchange is None:
        return None
    return {"attacker": exchange["attacker"], "target": exchange["target"], "mode": exchange["mode"]}


def ground(view: PublicView) -> Ground:
    """The field and its items: all the deployment strip shows of the board besides the
    placements (another seat's lock or a new phase leaves it alone)."""
    bf = view["battlefield"]
    return {
        "field": {"width": bf["width"], "height": bf["height"], "zones": bf["zones"], "obstacles": bf["obstacles"]},
        "potions": [{"id": p["id"], "pos": p["pos"], "kind": p["kind"]} for p in bf["potions"]],
        "flags": [{"army": f["army"], "home": f["home"], "pos": f["pos"], "carrier": f["carrier"]}
                  for f in bf["flags"]],
    }


def facts(view: PublicView) -> Shown:
    """The public view's fields the battlefield shows (and nothing else: they key the cache),
    read key by key from the schema's `PublicView`."""
    last_move = view["last_move"]
    base = ground(view)
    return {
        "field": base["field"],
        "potions": base["potions"],
        "flags": base["flags"],
        "kniggits": [look_of(k) for k in view["kniggits"]],
        "engaged": [list(p) for p in view["engaged"]],
        "headline": headline(view),
        "last_move": last_move["path"] if last_move else None,
        "last_exchange": pair_of(view["last_exchange"]),
        "exchange": pair_of(view["exchange"]),
    }


BATTLE = ("move", "facing", "turning", "fight", "exchange")


def headline(view: PublicView) -> str:
    """The battlefield's title: the map before the battle, the round and the army whose turn
    it is during it, the result after. Not the phase: the table's title over the picture says
    it, and a picture naming it was drawn and uploaded again at every step of a turn (move,
    facings, turning, fight) with nothing else changed (docs/kniggits.md, Pictures)."""
    turn, result, bf = view["turn"], view["result"], view["battlefield"]
    size = f"{bf['width']}×{bf['height']}"
    if result is not None:
        winner = result["winner"]
        reason = result["reason"].replace("_", " ")
        return (f"Army {winner} wins" if winner else "A draw") + (f" · {reason}" if reason else "")
    if turn is not None and view["phase"] in BATTLE:
        return f"Round {turn['round']} of {turn['rounds']} · Army {turn['army']}'s turn"
    preset = view["options"]["preset"]
    words = {"map": f"Battlefield {size}" + (f" · {preset}" if preset else ""),
             "build": f"Battlefield {size} · armies being built", "deploy": f"Battlefield {size} · deployment",
             "rps": f"Battlefield {size} · rock-paper-scissors"}
    return words.get(view["phase"], f"Battlefield {size}")


# -- reading a picture's kniggits ----------------------------------------------------------------------
def _by_id(kniggits: Iterable[KniggitLook]) -> dict[str, KniggitLook]:
    return {k["id"]: k for k in kniggits}


def on_field(kniggits: Iterable[KniggitLook]) -> list[KniggitLook]:
    return [k for k in kniggits if k["status"] in ("active", "fled")]
