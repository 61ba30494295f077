"""Buying an army (spec 2.5, K1, K2): budget shares, list validation, which kniggits run away,
ids, and a few ready-made lists for random play.

A list line is `{"name": str, "M": int, "A": int, "D": int, "kind": "normal"|"archer"}`;
whether a kniggit fights with two swords is not chosen but follows from its tokens (V4: no
Defense and at least 5 Attack at the start, with the option on).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from games.core import IllegalAction

KNIGGIT_COST = 5
ARMIES = ("A", "B")
NAME_LIMIT = 24
TOKEN_LIMIT = 200
#: Lines an army list may have (the budget buys at most 40 kniggits; a form holds 4,000 characters).
LINE_LIMIT = 200
#: The most of a typed line a refusal repeats.
QUOTE_LIMIT = 40
WHOLE = re.compile(r"[0-9]{1,6}")
KINDS = {"archer": "archer", "twoswords": "normal", "two_swords": "normal", "normal": "normal"}


def shares(budget: int, seats: list[int]) -> dict[int, int]:
    """K1: the army's budget split evenly between its players, the remainder to the captain."""
    base, extra = divmod(budget, len(seats))
    return {seat: base + (extra if i == 0 else 0) for i, seat in enumerate(seats)}


def cost(kniggits: list[dict[str, Any]]) -> int:
    """2.5: 5 per kniggit and 1 per token."""
    return sum(KNIGGIT_COST + k["M"] + k["A"] + k["D"] for k in kniggits)


def whole(word: str) -> int | None:
    """A typed number as a count or coordinate: ASCII digits only, at most six of them.
    (`str.isdigit` also takes "²" and "٣", which `int` refuses or reads, and `int` refuses
    numbers past 4,300 digits: both would end as a crash instead of a refusal.)"""
    return int(word) if WHOLE.fullmatch(word) else None


def quoted(line: str) -> str:
    """A line the player typed, fit to be repeated in a refusal: in backticks, one line,
    at most QUOTE_LIMIT characters."""
    text = " ".join(line.replace("`", "'").split())
    return f"`{text if len(text) <= QUOTE_LIMIT else text[:QUOTE_LIMIT - 1] + '…'}`"


def parse_lines(text: str) -> list[dict[str, Any]]:
    """The `/kniggits army` modal: one kniggit a line, `name M A D [archer|twoswords]`."""
    out = []
    lines = str(text).splitlines()
    if len(lines) > LINE_LIMIT:
        raise IllegalAction(f"An army list has at most {LINE_LIMIT} lines.", rule="K2")
    for number, raw in enumerate(lines, 1):
        words = raw.replace("/", " ").replace(",", " ").split()
        if not words:
            continue
        kind = KINDS.get(words[-1].lower())
        if kind is not None:
            words.pop()
        tokens = [whole(w) for w in words[-3:]]
        if len(words) < 3 or None in tokens:
            raise IllegalAction(f"I could not read line {number}, {quoted(raw)}: write `name M A D [archer]` "
                                "with whole numbers, like `Lance 2 2 2`.", rule="K2")
        if any(t > TOKEN_LIMIT for t in tokens if t is not None):
            raise IllegalAction(f"Line {number}, {quoted(raw)}: tokens are whole numbers from 0 to "
                                f"{TOKEN_LIMIT}.", rule="K2")
        out.append({"name": " ".join(words[:-3])[:NAME_LIMIT], "M": tokens[0], "A": tokens[1],
                    "D": tokens[2], "kind": kind or "normal"})
    return out


def clean_list(raw: Any, share: int) -> list[dict[str, Any]]:
    """A draft as the engine keeps it, or a refusal: whole non-negative tokens, a known kind,
    and a total within the seat's share (2.5: "the total may not exceed B")."""
    if isinstance(raw, str):
        raw = parse_lines(raw)
    if not isinstance(raw, list):
        raise IllegalAction("Send the army as a list of kniggits.", rule="K2")
    out = []
    for line in raw:
        if not isinstance(line, dict):
            raise IllegalAction("Each kniggit needs M, A and D.", rule="K2")
        tokens = [line.get(pool) for pool in ("M", "A", "D")]
        if not all(isinstance(t, int) and not isinstance(t, bool) and 0 <= t <= TOKEN_LIMIT for t in tokens):
            raise IllegalAction(f"Tokens are whole numbers from 0 to {TOKEN_LIMIT}.", rule="K2")
        kind = line.get("kind", "normal")
        if kind in ("twoswords", "two_swords"):
            kind = "normal"  # two swords follow from the tokens (V4)
        if kind not in ("normal", "archer"):
            raise IllegalAction("A kniggit is `normal` or an `archer`.", rule="K2")
        name = line.get("name") or ""
        if not isinstance(name, str) or len(name) > NAME_LIMIT:
            raise IllegalAction(f"A name has at most {NAME_LIMIT} characters.", rule="K2")
        out.append({"name": name.strip(), "M": tokens[0], "A": tokens[1], "D": tokens[2], "kind": kind})
    spent = cost(out)
    if spent > share:
        raise IllegalAction(f"That army costs {spent} points; your share of the budget is {share}.", rule="K2")
    return out


def judge(line: Mapping[str, Any], options: dict[str, Any]) -> tuple[bool, bool, str]:
    """(valid, two_swords, reason it runs away) for one bought kniggit (2.5, V4, V5)."""
    m, a, d = line["M"], line["A"], line["D"]
    if line["kind"] == "archer":
        if not options["archers"]:
            return False, False, "archers_off"
        return (True, False, "") if min(m, a, d) >= 1 else (False, False, "missing_token")
    if min(m, a, d) >= 1:
        return True, False, ""
    if d == 0 and m >= 1 and a >= 5:
        return (True, True, "") if options["two_swords"] else (False, False, "two_swords_off")
    return False, False, "missing_token"


def reveal(army: int, lists: list[tuple[int, list[dict[str, Any]]]], options: dict[str, Any]) -> list[dict[str, Any]]:
    """K2: the army's purchases in list order (the captain's first), each with its id and
    whether it deploys."""
    out: list[dict[str, Any]] = []
    for seat, kniggits in lists:
        for line in kniggits:
            valid, two_swords, reason = judge(line, options)
            out.append({"id": f"{ARMIES[army]}{len(out) + 1}", "owner": seat, "name": line["name"],
                        "M": line["M"], "A": line["A"], "D": line["D"], "kind": line["kind"],
                        "two_swords": two_swords, "valid": valid, "reason": reason})
    return out


def presets(share: int, options: dict[str, Any], *, varied: bool = True) -> list[list[dict[str, Any]]]:
    """A few sensible lists within `share`, for random play and quick starts.

    `varied=False` (random play) leaves out the few big kniggits unless a variant makes
    5+ tokens matter (V1-V3): without one they are only slow to rout."""
    out = []
    balanced, count = [], max(1, share // 11)
    spare = share - count * 11
    for i in range(count):
        extra = 1 if i < spare else 0
        balanced.append({"name": "", "M": 2 + extra, "A": 2, "D": 2, "kind": "normal"})
    out.append(balanced)
    few = max(1, share // 20)
    if varied or any(options.get(v) for v in ("horses", "magic_swords", "double_defence")):
        out.append([{"name": "", "M": 4, "A": 6 if i % 2 == 0 else 5, "D": 5, "kind": "normal"}
                    for i in range(few) if (i + 1) * 20 <= share]
                   or [{"name": "", "M": 1, "A": 1, "D": 1, "kind": "normal"}])
    if options["archers"] and share >= 17:
        out.append([{"name": "", "M": 3, "A": 2, "D": 4, "kind": "archer"},
                    *[{"name": "", "M": 2, "A": 2, "D": 2, "kind": "normal"} for _ in range((share - 14) // 11)]])
    if options["two_swords"] and share >= 13:
        out.append([{"name": "", "M": 2, "A": 6, "D": 0, "kind": "normal"},
                    *[{"name": "", "M": 2, "A": 2, "D": 2, "kind": "normal"} for _ in range((share - 13) // 11)]])
    return [p for p in out if cost(p) <= share]
