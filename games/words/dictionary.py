"""The Fighting Words dictionary: is this a word, and could it still grow into one?

Built once per process from the vendored SCOWL-70 list (see data/COPYRIGHT-SCOWL) and
shared by every game. A fragment is valid when it is a contiguous substring of some word of
4+ letters, i.e. a prefix of one of those words' suffixes. We keep only the *maximal*
suffixes (those that are not a prefix of another suffix), sorted, and answer with one
`bisect`: about 240k strings, 21 MiB with the word set, ~1 µs a query (see bench/dictionary.py, which also
measures the alternatives we rejected).
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from importlib import resources

WORD_LIST = "scowl-70-en.txt"
BLOCKLIST = "blocklist.txt"


def _read(name: str) -> str:
    """The one file read the engine does: a static file vendored beside this module."""
    return resources.files("games.words").joinpath("data", name).read_text(encoding="utf-8")


def maximal_suffixes(words: list[str]) -> list[str]:
    """Sorted suffixes of `words`, minus any suffix that is a prefix of another one."""
    suffixes = set(words)  # whole words first, so the kept strings share their objects
    suffixes.update([w[i:] for w in words for i in range(1, len(w))])
    ordered = sorted(suffixes)
    kept = [a for a, b in itertools.pairwise(ordered) if not b.startswith(a)]
    if ordered:
        kept.append(ordered[-1])
    return kept


class Lexicon:
    """Word and fragment lookups over one word list.

    Everything is stored in UPPERCASE, the way the WIP is spelled, so the hot path does
    no case conversion; lowercase input is converted first.
    """

    def __init__(self, words: list[str], blocked: set[str] | frozenset[str] = frozenset()) -> None:
        words = [w.upper() for w in words]
        blocked = {w.upper() for w in blocked}
        long_words = [w for w in words if len(w) >= 4]
        # The suffixes are re-made in sorted order so neighbours in the list are neighbours
        # in memory (a bisect's last steps then stay in cache); words reuse those objects.
        self._suffixes = [(s + ".")[:-1] for s in maximal_suffixes(long_words)]
        same = {s: s for s in self._suffixes}
        self.words4: frozenset[str] = frozenset(same.get(w, w) for w in long_words)
        del same
        self.words3: frozenset[str] = frozenset(w for w in words if len(w) == 3)
        self.blocked: frozenset[str] = frozenset(blocked)
        self._fragments3 = frozenset(
            w[i:j] for w in self.words3 for i in range(3) for j in range(i, 4)
        )

    def fragment(self, text: str) -> bool:
        """valid4: could `text` still become (part of) a word of 4+ letters?"""
        if not text.isupper():
            text = text.upper()
        suffixes = self._suffixes
        i = bisect_left(suffixes, text)
        return i < len(suffixes) and suffixes[i].startswith(text)

    def is_word(self, text: str) -> bool:
        """Is `text` a dictionary word of 4+ letters (blocked or not)?"""
        return text.upper() in self.words4

    def claimable(self, text: str) -> bool:
        """A word a player may take: in the dictionary and not on the blocklist."""
        up = text if text.isupper() else text.upper()
        return up in self.words4 and up not in self.blocked

    def fragment3(self, text: str) -> bool:
        """valid3 (Wordblitz): is `text` part of some 3-letter word?"""
        return text.upper() in self._fragments3

    def is_word3(self, text: str) -> bool:
        up = text.upper()
        return up in self.words3 and up not in self.blocked


_SHARED: list[Lexicon] = []


def load_words() -> list[str]:
    """The word list in UPPERCASE (one conversion of the whole text is the cheap way)."""
    return _read(WORD_LIST).upper().split()


def load_blocklist() -> set[str]:
    lines = (line.strip().lower() for line in _read(BLOCKLIST).splitlines())
    return {line for line in lines if line and not line.startswith("#")}


def lexicon() -> Lexicon:
    """The process-wide lexicon, built on first use (about half a second)."""
    if not _SHARED:
        _SHARED.append(Lexicon(load_words(), load_blocklist()))
    return _SHARED[0]
