"""Fighting Words as screens: the public table and each player's private hand.

Drawn only from engine views. The public table never shows a hand; the private screen
offers the seat's actions as two-step menus (pick a letter, then where it goes) because a
select sends one action and letters × positions can exceed Discord's 25 options.
"""

from __future__ import annotations

from typing import Any

from cogs.table.ui import (
    Button,
    Card,
    Choice,
    Control,
    Field,
    FormButton,
    GameUI,
    Param,
    Screen,
    Select,
    Shortcut,
    TableInfo,
    press,
)
from cogs.table.wording import plural
from cogs.words import render
from cogs.words.events import EVENT_LINES, TIEBREAK_NAMES, and_join, points, reason_text
from games.words import schema
from games.words.cards import LETTERS, label
from games.words.schema import PublicView, SeatView

MAX_OPTIONS = 25

RULES = """\
**Fighting Words** — build one shared word, a letter at a time. Finish a real word of \
**4+ letters** and you may take it: 1 point, +1 for each letter beyond six.

**Your turn:** you draw a card automatically, then do one thing:
• **Play a letter** anywhere in the word (front, back or between letters).
• **Backspace** (event card): remove one letter of the word.
• **Editor** (event card): move one letter somewhere else.
• **Skip**: discard any card. If every player skips in a row, the word is thrown away; \
three throw-aways in a row end the game.

**Bluffing and challenges:** you may play a letter that can't lead to any word. Play goes \
on at once: nobody has to answer anything. Until the word changes again (and for at least \
5 s), anyone else may press ⚔️ **Challenge** on the table. If no dictionary word contains \
the letters, the change is undone and its player loses their next turn; otherwise the \
challenger loses their next turn.

**Claiming:** when your letter makes a word you choose **Claim** or **Keep building** \
(STAR may become START). After a claim, until the word changes again (at least 8 s), a \
player holding **Tip of My Tongue** may press 💡 **Use Tip** to steal it (two Tips on one \
word: rock-paper-scissors).

**Cards played the moment you draw them:** Reversal (lose this turn), How Do You Say…? \
(take a letter you name from the pile, or steal it), Trash Talk (take a letter from the \
discard pile), That'll Work (collect the word as it stands), Spelling Bee Sting (wipe the word).

**The end:** when the last card is drawn (that turn is still played) or after three \
throw-aways. Most points wins; then most letters won; then the longest words. A full tie: \
Coin toss or Wordblitz (first 3-letter word wins).

Use **🃏 My hand** or `/hand` to see your cards. The dictionary is SCOWL-70 (English, \
American and British spellings); no names, hyphens or apostrophes.
"""

PHASE_TEXT = {
    "claim": "{who} may claim **{word}** or keep building.",
    "tiebreak": "Tied! Coin toss or Wordblitz: {chosen}.",
}

def chosen_line(box: schema.Box | None, info: TableInfo) -> str:
    """Who is in a secret-choice round and who has chosen (never what)."""
    if box is None:
        return "nobody"
    done = set(box["chosen"])
    return " · ".join(f"{info.name_of(s)} {'✔ chosen' if s in done else '… choosing'}"
                      for s in box["seats"]) or "nobody"


def spaced_word(word: str) -> str:
    """`S·T·A·R` with position numbers under it (a code block keeps the columns)."""
    if not word:
        return "*(no word yet — the next letter starts one)*"
    letters = "".join(f"{ch:^3}" for ch in word)
    numbers = "".join(f"{i:^3}" for i in range(1, len(word) + 1))
    return f"```\n{letters}\n{numbers}\n```"


#: What a challengeable change was, for the challenge window's line.
CHANGES = {"letter": "played a letter", "backspace": "used Backspace", "editor": "used Editor"}
#: Phases during which someone's turn is running (the ▶ marks them).
TURN_PHASES = frozenset({"main", "claim"})


def names(info: TableInfo, seats: list[int]) -> str:
    return ", ".join(info.name_of(s) for s in seats) or "nobody"


def last_change(view: PublicView) -> schema.Change | None:
    """The last change of the word while it is open to a challenge (and can be undone)."""
    return next((c for c in view.get("changes") or [] if c["last"] and c["undoable"]), None)


def challenge_button_shown(view: PublicView) -> bool:
    """The ⚔️ button is on the table while the player in turn may press it (it is not their
    own change); when it is, `/words challenge` still works for the others."""
    change = last_change(view)
    phase = view["phase"]
    return change is not None and phase["name"] == "main" and phase.get("seat") != change["seat"]


def window_lines(view: PublicView, info: TableInfo) -> list[str]:
    """The windows open while play goes on: nobody has to answer them."""
    lines = []
    change = last_change(view)
    if change is not None:
        how = "⚔️ Challenge" if challenge_button_shown(view) else "`/words challenge`"
        lines.append(f"⚔️ {info.name_of(change['seat'])} {CHANGES.get(change['kind'], 'changed the word')} → "
                     f"**{change['word'] or '(empty)'}**: anyone else may {how} it until the word changes again.")
    tip = view.get("tip")
    if tip is not None and view["phase"]["name"] != "closing" and view.get("rps") is None:
        lines.append(f"💡 **{tip['word']}** was just completed: Tip of My Tongue may take it "
                     "until the word changes again.")
    game = view.get("rps")
    if game is not None:
        lines.append(f"🪨📄✂️ Rock, paper, scissors for **{game['word']}**: {chosen_line(game['box'], info)}.")
    return lines


def awaited(view: PublicView, info: TableInfo) -> str:
    phase = view["phase"]
    name = phase["name"]
    who = info.name_of(phase.get("seat"))
    if name == "main":
        step = {"ask": "is naming a letter (How Do You Say…?)",
                "trash": "is picking from the discard pile (Trash Talk)"}.get(phase.get("step", ""), "")
        text = f"{who} {step}." if step else f"{who}'s turn: play a letter, use an event card or skip."
    elif name in PHASE_TEXT:
        text = PHASE_TEXT[name].format(who=who, word=phase.get("word", ""),
                                       chosen=chosen_line(phase.get("box"), info))
    elif name == "closing":
        tip = view.get("tip")
        text = (f"The last turn is over. The game ends once the Tip of My Tongue window on **{tip['word']}** "
                "closes (a Tip holder can still use it from their hand)." if tip is not None
                else "The last turn is over. The game ends once rock, paper, scissors is settled.")
    elif name == "over":
        return f"Game over: {reason_text(view['over'] or '').lower()}."
    else:
        return ""
    return "\n".join([text, *window_lines(view, info)])


def player_lines(view: PublicView, info: TableInfo) -> str:
    lines = []
    blitz = view.get("blitz")
    for seat in range(view["players"]):
        words = ", ".join(view["words"][seat]) or "no words yet"
        bits = [f"**{info.name_of(seat)}**", f"{view['scores'][seat]} pt",
                plural(view['hand_sizes'][seat], "card"), words]
        if view["forced_skip"][seat]:
            bits.append(f"⏭️ loses {view['forced_skip'][seat]} turn(s)")
        if seat in view["skip_streak"]:
            bits.append("skipped")
        if view["afk"][seat]:
            bits.append("away")
        if seat in view["left"]:
            bits = [f"~~{info.name_of(seat)}~~ left", f"{view['scores'][seat]} pt"]
        if blitz and seat in blitz["seats"]:
            bits.append(f"Wordblitz hand {blitz['hand_sizes'][seat]}")
        marker = "▶ " if seat == view["turn"] and view["phase"]["name"] in TURN_PHASES else ""
        lines.append(marker + " · ".join(bits))
    return "\n".join(lines)


def hand_letters(view: SeatView, seat: int) -> list[tuple[str, str]]:
    return [(f, f) for f in dict.fromkeys(view.get("hand_faces") or []) if len(f) == 1]


def hand_cards(view: SeatView, seat: int) -> list[tuple[str, str]]:
    return [(label(f), f) for f in dict.fromkeys(view.get("hand_faces") or [])]


def discard_letters(view: SeatView, seat: int) -> list[tuple[str, str]]:
    return [(x, x) for x in sorted(set(view["discard"]["letters"]))]


def position(name: str, what: str) -> Param:
    return Param(name, what, integer=True, minimum=1, maximum=99)


YES_NO = {"yes": "yes", "no": "no"}
SHORTCUTS = (
    Shortcut("play", "Play a letter from your hand into the word", lambda o: {
        "type": "play", "card": o["letter"].strip().upper(), "at": o["position"] - 1}, (
        Param("letter", "The letter to play", suggest=hand_letters),
        position("position", "Where it lands: 1 = the front, word length + 1 = the end"),
    )),
    Shortcut("backspace", "Backspace: remove one letter of the word", lambda o: {
        "type": "backspace", "index": o["index"] - 1}, (position("index", "Which letter (1 = the first)"),)),
    Shortcut("editor", "Editor: move one letter of the word", lambda o: {
        "type": "editor", "from": o["from"] - 1, "to": o["to"] - 1}, (
        position("from", "Which letter to move (1 = the first)"), position("to", "Its new position"))),
    Shortcut("skip", "Skip your turn by discarding a card", lambda o: {"type": "skip", "card": o["card"]},
             (Param("card", "The card to discard", suggest=hand_cards),)),
    Shortcut("challenge", "Challenge the last change: no word contains this", press("challenge")),
    Shortcut("claim", "Claim the word you just made", press("claim")),
    Shortcut("keep", "Keep building instead of claiming", press("keep")),
    Shortcut("tip", "Use Tip of My Tongue: take the word just completed", press("tip")),
    Shortcut("rps", "Rock, paper or scissors", press("rps"), (Param("shape", "Your choice", choices={
        "rock": "🪨 rock", "paper": "📄 paper", "scissors": "✂️ scissors"}),)),
    Shortcut("tiebreak", "Break the tie", lambda o: {"type": o["how"]}, (
        Param("how", "How to break it", choices={"coin": "🪙 coin toss", "wordblitz": "⚡ Wordblitz"}),)),
    Shortcut("ask", "How Do You Say…?: name the letter you want", lambda o: {
        "type": "ask", "letter": o["letter"].strip().upper()}, (Param("letter", "Any letter A-Z"),)),
    Shortcut("steal", "Steal the letter you asked for from a player?", lambda o: {
        "type": "steal" if o["answer"] == "yes" else "no_steal"}, (Param("answer", "Steal it?", choices=YES_NO),)),
    Shortcut("trash", "Trash Talk: take a letter from the discard pile", lambda o: {
        "type": "trash", "letter": o["letter"].strip().upper()}, (
        Param("letter", "A letter in the discard pile", suggest=discard_letters),)),
)


class WordsUI(GameUI[PublicView, SeatView]):
    name = "words"
    rules = RULES
    colour = 0xE67E22
    shortcuts = SHORTCUTS

    def table(self, view: PublicView, info: TableInfo) -> Screen:
        blitz = view.get("blitz")
        word = blitz["wip"] if blitz else view["wip"]
        description = ("**Wordblitz!** " if blitz else "") + spaced_word(word) + "\n" + awaited(view, info)
        discard = view["discard"]
        events = ", ".join(label(e) for e in discard["events"])
        pile = f"{view['draw_size']} to draw · {discard['size']} discarded"
        if view["boxed_size"]:  # the runtime writes its own footer, so this goes here
            pile += f" · {view['boxed_size']} boxed"
        if discard["letters"]:
            pile += f"\nLetters: {discard['letters'][-40:]}"
        if events:
            pile += f"\nEvents: {events}"
        fields: list[tuple[str, str, bool]] = [
            ("Players", player_lines(view, info)[:1024], False),
            ("Piles", pile[:1024], True),
            ("Stuck words", f"{view['stalemates']} of 3 thrown away in a row", True),
        ]
        if view["last_card_drawn"] and not view["over"]:
            fields.append(("Last card", "The last card was drawn: this is the final turn.", False))
        if blitz:
            fields.append(("Wordblitz", f"Turn {blitz['turns']} of 30 · {blitz['draw_size']} to draw", True))
        return Screen(
            card=Card(title="Fighting Words", description=description[:4096], fields=fields,
                      colour=self.colour),
            image=lambda: render.render_word(view, [info.name_of(s) for s in range(view["players"])]),
            image_name="word.png",
            controls=public_controls(view),
        )

    def private(self, view: SeatView, seat: int, info: TableInfo) -> Screen | None:
        if seat in view["left"]:
            return None
        hand = sorted(view["hand"].values(), key=lambda f: (len(f) > 1, f))
        shown = " ".join(f"`{label(f)}`" for f in hand) or "*(empty)*"
        prompt = private_prompt(view, seat)
        card = Card(title="Fighting Words — your hand", description=f"{shown}\n\n{prompt}".strip(),
                    colour=self.colour)
        return Screen(card=card, image=lambda: render.render_hand(view), image_name="hand.png",
                      controls=private_controls(view, seat))

    def event_line(self, event: dict[str, Any], info: TableInfo) -> str | None:
        data = event.get("data") or {}
        wording = EVENT_LINES.get(event.get("type", ""))
        if wording is None:
            return super().event_line(event, info)
        return wording(data, info)

    def result_reason(self, outcome: dict[str, Any], info: TableInfo) -> str:
        reason = str(outcome.get("reason") or "")
        if reason == "forfeit":
            return super().result_reason(outcome, info)
        detail = outcome.get("detail") or {}
        why = reason_text(reason)
        winner = detail.get("winner")
        if winner is None:
            return f"{why}."
        who = info.name_of(winner)
        tied = and_join([info.name_of(s) for s in detail.get("tied", [])])
        how = detail.get("tiebreak")
        if how == "letters":
            return f"{why}. {who} wins on letters, {'-'.join(str(n) for n in detail['letters'])}."
        if how == "lengths":
            shown = " against ".join("/".join(str(n) for n in lengths) for lengths in detail["lengths"])
            return f"{why}. {who} wins on the longest words, {shown}."
        if how == "coin" and detail.get("after_blitz"):
            return (f"{why}. {tied} were tied; Wordblitz found no word in 30 turns, "
                    f"and {who} won the coin toss.")
        if how == "coin":
            return f"{why}. {tied} were tied on points, letters and word lengths; {who} won the coin toss."
        if how == "wordblitz":
            return f"{why}. {tied} were tied; {who} won the Wordblitz with {detail.get('word', 'a word')}."
        if how == "walkover":
            return f"{why}. {tied} were tied; {who} won the tie-break when the others left."
        scores = outcome.get("scores") or []
        if reason == "everyone_left" or winner >= len(scores):
            return f"{why}: {who} wins."
        return f"{why}. {who} wins with {points(int(scores[winner]))}."


def public_controls(view: PublicView) -> list[Control]:
    """The table's buttons. Nothing here has to be pressed for play to go on: ⚔️ Challenge
    (the last change, while the player in turn may press it), 💡 Use Tip (shown to everyone
    while the window is open, so it tells nobody who holds the card), and the buttons of a
    secret choice (rock-paper-scissors, the tie-break) for the players in it."""
    phase = view["phase"]
    name = phase["name"]
    if name == "tiebreak":
        return [Button("Coin toss", send({"type": "coin"}), "secondary", "🪙"),
                Button("Wordblitz", send({"type": "wordblitz"}), "primary", "⚡")]
    out: list[Control] = []
    change = last_change(view)
    if change is not None and challenge_button_shown(view):
        out.append(Button("Challenge", send({"type": "challenge", "change": change["n"]}), "danger", "⚔️",
                          lasting=True))  # names its change: the engine judges it, never stale
    if view.get("tip") is not None and view.get("rps") is None and name in TURN_PHASES:
        out.append(Button("Use Tip", send({"type": "tip"}), "primary", "💡"))
    if view.get("rps") is not None:
        out += [Button(s.title(), send({"type": "rps", "shape": s}), "secondary", e)
                for s, e in SHAPE_BUTTONS]
    return out


SHAPE_BUTTONS: tuple[tuple[schema.Shape, str], ...] = (("rock", "🪨"), ("paper", "📄"), ("scissors", "✂️"))


def send(action: schema.Action) -> dict[str, Any]:
    """An action checked against the schema, as the plain JSON a control carries. (The letter
    and position menus complete theirs per choice: `letter_choices`, `positions`.)"""
    return dict(action)


def private_prompt(view: SeatView, seat: int) -> str:
    game = view.get("rps")
    if game is None or seat not in game["box"]["seats"]:
        return phase_prompt(view, seat)
    pick = view.get("my_pick")
    rps = (f"You chose {pick}: waiting for the others." if pick
           else f"Choose rock, paper or scissors on the table for **{game['word']}**.")
    return "\n".join(p for p in (phase_prompt(view, seat), rps) if p)


def phase_prompt(view: SeatView, seat: int) -> str:
    phase = view["phase"]
    mine = phase.get("seat") == seat
    if phase["name"] == "main" and mine:
        step = phase.get("step")
        if step == "ask":
            return "**How Do You Say…?** Name the letter you want."
        if step == "steal" and view.get("steal_held"):
            return f"**{view['steal_letter']}** isn't in the draw pile, but a player holds one. Steal it?"
        if step == "steal":
            return f"**{view['steal_letter']}** isn't in the draw pile, and nobody holds one."
        if step == "trash":
            return "**Trash Talk:** take a letter from the discard pile."
        picked = view.get("picked") or ""
        if picked.startswith("editor:"):
            return f"Editor: where should letter {int(picked.split(':')[1]) + 1} go?"
        word = (view.get("blitz") or view)["wip"]
        if picked and word:
            return f"Where does **{picked}** go?"
        if not word:
            return "**Your turn.** Pick a letter to start the word, or skip."
        return "**Your turn.** Pick a letter to play, use an event card, or skip."
    if phase["name"] == "claim" and mine:
        return f"**{phase['word']}** is a word! Claim it now, or keep building?"
    tip = view["tip"]
    if tip is not None and last_tip_chance(view, seat):
        return f"💡 The game is about to end: you may still use Tip of My Tongue on **{tip['word']}**."
    box = phase.get("box")
    if phase["name"] == "tiebreak" and box is not None and seat in box["seats"]:
        pick = view.get("my_pick")
        if pick:
            return f"You chose {TIEBREAK_NAMES.get(pick, pick)}: waiting for the others."
        return "You are tied for first: choose Coin toss or Wordblitz on the table."
    return ""


def letter_choices(letters: list[str], action: dict[str, Any], key: str) -> list[Select]:
    """One select, or two (A–M, N–Z) when more than 25 letters are possible."""
    groups = [letters] if len(letters) <= MAX_OPTIONS else [
        [x for x in letters if x <= "M"], [x for x in letters if x > "M"]]
    return [Select(f"Letter ({g[0]}–{g[-1]})", [Choice(x, {**action, key: x}) for x in g])
            for g in groups if g]


def positions(size: int, action: dict[str, Any], key: str, placeholder: str,
              label_of: Any, *, exclude: int | None = None) -> Control:
    """A select of positions (without `exclude`), or a number form past 25 (counted from 0,
    like the engine)."""
    if size - (exclude is not None) <= MAX_OPTIONS:
        return Select(placeholder, [Choice(label_of(i), {**action, key: i}) for i in range(size) if i != exclude])
    return FormButton(placeholder[:80], placeholder[:45],
                      [Field(key, "Position (0 = the front)", integer=True)], action)


def last_tip_chance(view: SeatView, seat: int) -> bool:
    """At the very end (no turn, so no table button) a Tip holder gets Use Tip in their hand."""
    tip = view.get("tip")
    return (view["phase"]["name"] == "closing" and tip is not None and view.get("rps") is None
            and "tip" in (view.get("hand_faces") or []) and seat != tip["seat"] and seat not in tip["users"])


def private_controls(view: SeatView, seat: int) -> list[Control]:
    phase = view["phase"]
    if last_tip_chance(view, seat):
        return [Button("Use Tip", send({"type": "tip"}), "primary", "💡")]
    if phase.get("seat") != seat:
        return []
    if phase["name"] == "claim":
        return [Button("Claim", send({"type": "claim"}), "success", "🏆"),
                Button("Keep building", send({"type": "keep"}), "secondary")]
    if phase["name"] != "main":
        return []
    step = phase.get("step")
    if step == "ask":
        return list(letter_choices(list(LETTERS), {"type": "ask"}, "letter"))
    if step == "steal" and view.get("steal_held"):
        return [Button("Steal it", send({"type": "steal"}), "danger"),
                Button("Don't steal", send({"type": "no_steal"}), "secondary")]
    if step == "steal":
        return [Button("Go on", send({"type": "no_steal"}), "secondary")]
    if step == "trash":
        letters = sorted(set(view["discard"]["letters"]))
        if not letters:  # a challenge put the last one back into the word
            return [Button("Go on", send({"type": "trash"}), "secondary")]
        return list(letter_choices(letters, {"type": "trash"}, "letter"))
    return turn_controls(view)


def turn_controls(view: SeatView) -> list[Control]:
    blitz = view.get("blitz")
    word = blitz["wip"] if blitz else view["wip"]
    size = len(word)
    faces = view["hand_faces"]
    letters = [f for f in faces if len(f) == 1]
    picked = view.get("picked") or ""
    out: list[Control] = []
    if letters and not size:  # one place only: picking the letter plays it
        out.append(Select("Play a letter…",
                          [Choice(x, send({"type": "play", "card": x, "at": 0})) for x in letters]))
    elif letters:
        out.append(Select("Play a letter…", [Choice(x, send({"type": "pick", "card": x})) for x in letters]))
    if picked and size and not picked.startswith("editor:"):
        out.append(positions(size + 1, {"type": "play", "card": picked}, "at", f"Where does {picked} go?",
                             lambda i: where(word, i)))
    if "backspace" in faces and size:
        out.append(positions(size, {"type": "backspace"}, "index", "Backspace: remove which letter?",
                             lambda i: f"{i + 1}: {word[i]}"))
    if "editor" in faces and size >= 2:
        if picked.startswith("editor:"):
            start = int(picked.split(":")[1])
            out.append(positions(size, {"type": "editor", "from": start}, "to",  # not where it is
                                 f"Editor: move {word[start]} to…", lambda i: f"position {i + 1}",
                                 exclude=start))
        else:
            out.append(positions(size, {"type": "pick", "card": "editor"}, "from",
                                 "Editor: move which letter?", lambda i: f"{i + 1}: {word[i]}"))
    if faces:
        out.append(Select("Skip: discard a card…",
                          [Choice(label(f), send({"type": "skip", "card": f})) for f in faces][:MAX_OPTIONS]))
    else:  # a hand emptied by events and Tips: a select needs at least one option
        out.append(Button("Skip (no cards)", send({"type": "skip"}), "secondary", "⏭️"))
    return out[:5]


def where(word: str, i: int) -> str:
    if not word:
        return "start the word"
    if i == 0:
        return "at the front"
    if i == len(word):
        return "at the end"
    return f"between {word[i - 1]} and {word[i]} ({i + 1})"
