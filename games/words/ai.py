"""The Fighting Words computer player: an honest speller with a sharp ear for bluffs.

It knows the game's dictionary the way a good player knows their vocabulary (the same index
the engine uses, `games.words.dictionary`), and sees only its own seat's view: its hand,
the word in progress, the face-up discard pile and won words.

- **Challenges** only a change whose word no dictionary word contains (a sure win: the
  change is undone and its maker loses a turn), on its own turn, before it plays.
- **Tip of My Tongue:** takes the last completed word whenever its window is open to it.
- **Plays** the letter and place that completes the longest claimable word; otherwise one
  that keeps a word possible, preferring fragments many words contain, getting rid of
  awkward letters, leaving a word it could finish itself and not one the next player is
  likely to finish. It never bluffs. With nothing honest to play it uses Backspace or
  Editor when that leaves a fragment that can still grow, and otherwise skips, discarding
  its least useful card.
- **Claims** every word it completes (a longer word has already been preferred).
- **How Do You Say…? / Trash Talk:** names (takes) the letter that gives its best play; it
  steals when someone holds the letter.
- **Rock-paper-scissors** at random (its random source), the tie-break: Wordblitz, where it
  spells three-letter words the same way.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left
from collections import Counter

from games.computer import Asked, Policy
from games.core import Action
from games.words import schema
from games.words.cards import BACKSPACE, EDITOR, LETTER_COUNTS, LETTERS, TIP, word_value
from games.words.dictionary import Lexicon, lexicon
from games.words.schema import SeatView
from games.words.tips import SHAPES

#: How much a letter is worth keeping in hand: the common ones combine with anything.
KEEP_VALUE = {letter: math.log(1 + count) for letter, count in LETTER_COUNTS.items()}
#: Fragments whose finishing moves are looked for (the best few by the cheap score).
LOOKAHEAD = 6
CLAIM_SCORE = 1000.0
#: Wordblitz: a fourth letter throws the word away.
BLITZ_BUST = 4


def richness(lex: Lexicon, fragment: str) -> int:
    """How many (maximal) dictionary suffixes begin with `fragment`: a rough count of the
    words it could still grow into. Two bisects on the engine's own fragment index."""
    suffixes = lex._suffixes  # the index `Lexicon.fragment` bisects; read-only here
    return bisect_left(suffixes, fragment + "[") - bisect_left(suffixes, fragment)


def insertions(word: str, letter: str) -> list[tuple[int, str]]:
    """Every place `letter` can go, with the word it makes (duplicate words once)."""
    seen: set[str] = set()
    out = []
    for at in range(len(word) + 1):
        made = word[:at] + letter + word[at:]
        if made not in seen:
            seen.add(made)
            out.append((at, made))
    return out


class Table:
    """What the view says that the choices need, read once per decision."""

    def __init__(self, view: SeatView, seat: int) -> None:
        self.view = view
        self.seat = seat
        blitz = view.get("blitz")
        self.blitz = bool(blitz)
        self.wip: str = blitz["wip"] if blitz else view["wip"]
        self.hand: list[str] = sorted(view["hand"].values())
        self.letters = Counter(f for f in self.hand if len(f) == 1)
        self.lex = lexicon()
        self.unseen = self.unseen_letters()

    def unseen_letters(self) -> Counter[str]:
        """Letters this seat has not seen anywhere: in the others' hands or still to draw."""
        blitz = self.view["blitz"]
        if blitz is not None:
            seen = Counter(blitz["discard"]["letters"] + self.wip)
        else:
            words = "".join(w for stack in self.view["words"] for w in stack)
            seen = Counter(self.view["discard"]["letters"] + self.wip + words)
        seen.update(self.letters)
        return Counter({x: max(0, LETTER_COUNTS[x] - seen[x]) for x in LETTERS})

    # ----- the dictionary, main game or Wordblitz ---------------------------------------
    def valid(self, text: str) -> bool:
        if not text:
            return True
        return self.lex.fragment3(text) if self.blitz else self.lex.fragment(text)

    def wins(self, text: str) -> bool:
        return self.lex.is_word3(text) if self.blitz else self.lex.claimable(text)

    # ----- scoring a word in progress -----------------------------------------------------
    def finishers(self, fragment: str) -> set[str]:
        """The letters that would turn `fragment` into a word someone could take."""
        if self.blitz and len(fragment) >= BLITZ_BUST - 1:
            return set()
        return {x for x in LETTERS for _, made in insertions(fragment, x) if self.wins(made)}

    def odds_someone_holds(self, letter: str) -> float:
        """Roughly: does the next player hold `letter`? From the unseen copies."""
        unseen_total = sum(self.unseen.values()) or 1
        hand = max(1, min(self.view["hand_sizes"][s] for s in self.view["in_play"] if s != self.seat)
                   if len(self.view["in_play"]) > 1 else 7)
        share = self.unseen[letter] / unseen_total
        return 1 - (1 - share) ** hand

    def fragment_score(self, fragment: str, played: str) -> float:
        """A valid fragment left on the table: room to grow, minus an awkward letter's
        keep-value (so Q, X, Z go first), and the first finishing chances."""
        grow = 1.0 if self.blitz else math.log(1 + richness(self.lex, fragment))
        return grow - 0.5 * KEEP_VALUE[played]

    def lookahead(self, fragment: str, left_in_hand: Counter[str]) -> float:
        """A finishable fragment is good when this seat holds a finishing letter (once the
        next player has had their go) and bad when the next player likely does."""
        finish = self.finishers(fragment)
        if not finish:
            return 0.0
        danger = 1 - math.prod(1 - self.odds_someone_holds(x) for x in finish)
        mine = 1.0 if any(left_in_hand[x] for x in finish) else 0.0
        return 1.5 * mine - 3.0 * danger

    # ----- the candidate moves ------------------------------------------------------------
    def letter_plays(self, letters: list[str] | None = None) -> list[tuple[float, str, int, str]]:
        """(score, letter, at, word) for every honest letter play; a finishing one scores
        CLAIM_SCORE plus its word's value and length."""
        out = []
        for letter in letters if letters is not None else sorted(self.letters):
            for at, made in insertions(self.wip, letter):
                if self.blitz and len(made) >= BLITZ_BUST:
                    continue
                if self.wins(made):
                    out.append((CLAIM_SCORE + 10 * word_value(len(made)) + len(made), letter, at, made))
                elif self.valid(made):
                    out.append((self.fragment_score(made, letter), letter, at, made))
        out.sort(key=lambda c: (-c[0], c[1], c[2]))
        return out

    def best_play(self) -> tuple[float, str, int] | None:
        plays = self.letter_plays()
        if not plays:
            return None
        if plays[0][0] >= CLAIM_SCORE:
            return plays[0][0], plays[0][1], plays[0][2]
        best = None
        for score, letter, at, made in plays[:LOOKAHEAD]:
            left = self.letters.copy()
            left[letter] -= 1
            total = score + self.lookahead(made, left)
            if best is None or total > best[0]:
                best = (total, letter, at)
        return best

    def repair(self) -> schema.Backspace | schema.EditorMove | None:
        """Backspace or Editor, when that leaves a fragment that can still grow (or clears
        a word nobody can finish)."""
        wip = self.wip
        if self.blitz or not wip:
            return None
        options: list[tuple[float, schema.Backspace | schema.EditorMove]] = []
        if self.letters_of(BACKSPACE):
            for i in range(len(wip)):
                made = wip[:i] + wip[i + 1:]
                if self.valid(made):
                    options.append((self.room(made), {"type": "backspace", "index": i}))
        if self.letters_of(EDITOR) and len(wip) >= 2:
            for i in range(len(wip)):
                rest = wip[:i] + wip[i + 1:]
                for j in range(len(wip)):
                    made = rest[:j] + wip[i] + rest[j:]
                    if j != i and made != wip and self.valid(made) and not self.wins(made):
                        options.append((self.room(made), {"type": "editor", "from": i, "to": j}))
        if not options:
            return None
        options.sort(key=lambda o: -o[0])
        return options[0][1]

    def room(self, fragment: str) -> float:
        return math.log(1 + richness(self.lex, fragment)) if fragment else 0.0

    def letters_of(self, face: str) -> bool:
        return face in self.hand

    def discard_choice(self) -> str | None:
        """The least useful card: a letter (its keep-value shared among its copies, and
        nothing honest to do with it now), never an event card while a letter is left."""
        if not self.letters:
            return next((f for f in (EDITOR, BACKSPACE, TIP) if f in self.hand), self.hand[0] if self.hand else None)
        return min(self.letters, key=lambda x: (KEEP_VALUE[x] / self.letters[x], x))


class WordsPolicy(Policy[SeatView]):
    summary = "spells honestly, challenges only sure bluffs, claims the longest word it can"

    def choose(self, view: SeatView, asked: Asked, rng: random.Random) -> Action:
        return dict(self.decide(view, asked, rng))

    def decide(self, view: SeatView, asked: Asked, rng: random.Random) -> schema.Action:
        seat = asked.seat
        phase = view["phase"]
        name = phase["name"]
        game = view.get("rps")
        if game is not None and game["box"]["key"] in asked.keys:
            return {"type": "rps", "shape": rng.choice(SHAPES)}
        if name == "claim" and phase.get("seat") == seat:
            return {"type": "claim"}
        if name == "tiebreak":
            return {"type": "wordblitz"}
        if name != "main" or phase.get("seat") != seat:
            raise ValueError(f"nothing to decide for seat {seat} in phase {name}")
        table = Table(view, seat)
        step = phase.get("step")
        if step == "ask":
            return {"type": "ask", "letter": self.wanted_letter(table, LETTERS)}
        if step == "steal":
            return {"type": "steal"} if view.get("steal_held") else {"type": "no_steal"}
        if step == "trash":
            letters = sorted(set(view["discard"]["letters"]))
            return {"type": "trash", "letter": self.wanted_letter(table, letters)} if letters else {"type": "trash"}
        return self.turn(view, table)

    # ----- the turn ------------------------------------------------------------------------
    def turn(self, view: SeatView, table: Table) -> schema.Action:
        challenge = self.sure_challenge(view, table)
        if challenge is not None:
            return challenge
        if self.can_tip(view, table):
            return {"type": "tip"}
        best = table.best_play()
        wip_dead = bool(table.wip) and not table.valid(table.wip)
        if best is not None and not wip_dead:
            _, letter, at = best
            return {"type": "play", "card": letter, "at": at}
        repair = table.repair()
        if repair is not None:
            return repair
        card = table.discard_choice()
        return {"type": "skip", "card": card} if card is not None else {"type": "skip"}

    @staticmethod
    def sure_challenge(view: SeatView, table: Table) -> schema.Challenge | None:
        """The last change, if it is someone else's, can still be undone and left a
        fragment no word contains."""
        for change in view.get("changes", []):
            if (change["last"] and change["seat"] != table.seat and change["undoable"]
                    and not table.valid(change["word"])):
                return {"type": "challenge", "change": change["n"]}
        return None

    @staticmethod
    def can_tip(view: SeatView, table: Table) -> bool:
        tip = view.get("tip")
        return (tip is not None and not table.blitz and TIP in table.hand and view.get("rps") is None
                and not tip["changed"] and tip["seat"] != table.seat and table.seat not in tip["users"])

    @staticmethod
    def wanted_letter(table: Table, letters: tuple[str, ...] | list[str]) -> str:
        """The letter whose best play is best (How Do You Say…?, Trash Talk); ties go to
        the letter most worth keeping."""
        best_letter, best_score = letters[0], -math.inf
        for letter in letters:
            plays = table.letter_plays([letter])
            score = plays[0][0] if plays else -10.0
            score += 0.1 * KEEP_VALUE[letter]
            if score > best_score:
                best_letter, best_score = letter, score
        return best_letter


def warm() -> None:
    """Build the dictionary index now (about half a second, once per process), not during
    the first decision."""
    lexicon()


warm()
POLICY = WordsPolicy()
