"""A game's numbered rules, read from its own rules text (`games/<game>/rules.md`, shipped
with the package), for the "📖 Rule 7" button under a refusal."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

#: A rule token as engines cite them ("7", "3.9", "R4").
RULE_TOKEN = re.compile(r"[0-9A-Za-z.]{1,12}")


@cache
def rules_text(kind: str) -> str:
    """The game's rules text ("" when it has none)."""
    try:
        return (resources.files(f"games.{kind}") / "rules.md").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        return ""


def rule_text(kind: str, rule: str) -> str | None:
    """The text of rule `rule` in section 3 ("Rules as enforced") of the game's rules, up to
    the next numbered rule or heading; None when there is no such rule."""
    if not RULE_TOKEN.fullmatch(rule):
        return None
    text = rules_text(kind)
    section = text.split("## 3.", 1)[1].split("\n## ", 1)[0] if "## 3." in text else text
    lines = section.splitlines()
    start = next((i for i, line in enumerate(lines) if re.match(rf"(\*\*)?{re.escape(rule)}\.\s", line)), None)
    if start is None:
        return None
    out = [lines[start]]
    for line in lines[start + 1:]:
        if re.match(r"(\*\*)?[0-9A-Za-z.]{1,12}\.\s", line) or (line.startswith(("#", "**")) and line.endswith("**")):
            break
        out.append(line)
    return "\n".join(out).strip()
