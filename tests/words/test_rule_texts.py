"""The rule texts the 📖 button quotes under a refusal describe the game as it is built.

Every refusal in `games/words/` cites a rule of §3 of `games/words/rules.md`; the table's
"📖 Rule n" button quotes that rule's text (`cogs.table.rules.rule_text`). These tests read every
refusal of the source with its cited rule and check that the quoted text

- exists and is about what the refusal is about (a refusal mentioning a challenge cites a rule
  that speaks of challenges, one about Tip a rule about Tip, …);
- names no control that was retired (engine version 3: nobody presses "Let it stand" or "No
  Tip", no window waits for everyone or lasts a fixed 10 s);
- names only controls and slash commands that exist: every bold button name in it is a button
  the Words screens draw, every `/words x` a shortcut that is synced.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from cogs.table.rules import rule_text
from cogs.words.ui import SHORTCUTS

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "games" / "words"
#: The screens' modules (ui.py wires the table, the panel and the commands from their own files).
UI_SOURCES = sorted((ROOT / "cogs" / "words").glob("*.py"))
#: Calls that refuse with a message and a rule: (index of the message, index of the rule)
#: among positional arguments; `IllegalAction` passes the rule by keyword.
REFUSERS = {"IllegalAction": (0, None), "verify_pick": (2, 3), "need_int": (2, 3), "need_str": (2, 3)}
#: Tables of (message, rule) the engine refuses with (`actions.NOT_NOW`, `actions.STEP_FIRST`).
RULE_TABLES = {"NOT_NOW", "STEP_FIRST"}

#: What the game no longer has (engine version 3, docs/words.md decision 20). No quoted rule
#: text may describe it.
RETIRED = {
    r"let it stand|\bstand\b": "“Let it stand” is gone: nobody answers a change",
    r"no tip\b": "“No Tip” is gone: nobody answers the Tip window",
    r"everyone has pressed|every other player may challenge once|first click": "no window waits for everyone",
    r"\b10 s\b": "the challenge window has no fixed 10 s any more",
    r"have 8 s\b": "the Tip window lasts until the word changes (8 s at least), not a fixed 8 s",
    r"challenge window|inside its window|open windows are closed": "there is no challenge window to wait out",
}

#: A refusal about <topic> (regex on the message) cites a rule whose text is about it too.
TOPICS = {
    r"challeng": r"challeng",
    r"\bTip\b": r"\bTip\b",
    r"rock|paper|scissors": r"rock-paper-scissors|\bRPS\b",
    r"\bclaim": r"\bclaim",
    r"Backspace": r"Backspace",
    r"Editor": r"Editor",
    r"How Do You Say|steal": r"How Do You Say|steal",
    r"discard pile": r"discard pile",
    r"Wordblitz": r"Wordblitz",
    r"\btie\b|tied": r"\btied?\b",
    r"not your turn|not playing": r"players|seat order",
    r"game is (already )?over": r"game ends|tied",
}


def constant_text(node: ast.AST) -> str | None:
    """A message's words: a string, or an f-string's constant parts ("…" for the rest)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "…" for v in node.values)
    return None


def refusals() -> list[tuple[str, str, str]]:
    """Every (where, message, rule) the engine's source can refuse with."""
    found: list[tuple[str, str, str]] = []
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            where = f"{path.name}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name not in REFUSERS:
                    continue
                at_message, at_rule = REFUSERS[name]
                args = node.args
                message = constant_text(args[at_message]) if len(args) > at_message else None
                rule_node = (args[at_rule] if at_rule is not None and len(args) > at_rule
                             else next((k.value for k in node.keywords if k.arg == "rule"), None))
                rule = constant_text(rule_node) if rule_node is not None else None
                if message is not None and rule is not None:
                    found.append((where, message, rule))
            elif isinstance(node, ast.AnnAssign | ast.Assign):
                targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
                if not any(getattr(t, "id", None) in RULE_TABLES for t in targets):
                    continue
                assert isinstance(node.value, ast.Dict), where
                for value in node.value.values:
                    assert isinstance(value, ast.Tuple), where
                    message, rule = (constant_text(v) for v in value.elts)
                    assert message is not None and rule is not None, where
                    found.append((where, message, rule))
    return found


REFUSALS = refusals()
CITED = sorted({rule for _, _, rule in REFUSALS}, key=int)


def test_the_source_is_read_whole() -> None:
    """The reader finds the refusals it is meant to (a rename would make the tests vacuous)."""
    assert len(REFUSALS) >= 60, len(REFUSALS)
    assert {"4", "8", "9", "10", "12", "13", "16", "17", "20", "22"} <= set(CITED), CITED
    messages = " ".join(m for _, m, _ in REFUSALS)
    for expected in ("It is not your turn", "You can't challenge your own play", "You have no Tip",
                     "Wait: {player} is deciding", "decide whether to steal first", "Say which"):
        assert expected in messages, expected


@pytest.mark.parametrize("rule", CITED)
def test_a_cited_rule_names_no_retired_control(rule: str) -> None:
    text = rule_text("words", rule)
    assert text, f"rule {rule} is cited but the 📖 button finds no text for it"
    for pattern, why in RETIRED.items():
        hit = re.search(pattern, text, re.I)
        assert hit is None, f"rule {rule} says {hit.group(0)!r}: {why}\n\n{text}"


@pytest.mark.parametrize(("where", "message", "rule"), REFUSALS, ids=[f"{w}" for w, _, _ in REFUSALS])
def test_a_refusal_cites_a_rule_about_the_same_thing(where: str, message: str, rule: str) -> None:
    text = rule_text("words", rule) or ""
    for about, needed in TOPICS.items():
        if re.search(about, message, re.I) and not re.search(needed, text, re.I):
            raise AssertionError(f"{where}: {message!r} is about {about!r}, but rule {rule} never "
                                 f"mentions {needed!r}:\n\n{text}")


def button_labels() -> set[str]:
    """Every label a Words button is drawn with (`Button("Label", …)` in the screens)."""
    labels: set[str] = set()
    for node in (n for source in UI_SOURCES for n in ast.walk(ast.parse(source.read_text(encoding="utf-8")))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Button" and node.args:
            label = constant_text(node.args[0])
            if label:
                labels.add(label)
    return labels


def test_the_controls_a_quoted_rule_names_exist() -> None:
    labels = button_labels()
    shortcuts = {s.name for s in SHORTCUTS}
    assert {"Challenge", "Use Tip", "Claim", "Keep building"} <= labels, labels
    for rule in CITED:
        text = rule_text("words", rule) or ""
        for emoji_label in re.findall(r"[⚔💡🏆🪙⚡]\S*\s+\*\*([^*]+)\*\*", text):
            assert emoji_label in labels, f"rule {rule} names a button {emoji_label!r} the table never draws"
        for command in re.findall(r"`/words (\w+)", text):
            assert command in shortcuts, f"rule {rule} names `/words {command}`, which does not exist"
    assert "⚔️ **Challenge**" in (rule_text("words", "9") or "")
    assert "💡 **Use Tip**" in (rule_text("words", "13") or "")
