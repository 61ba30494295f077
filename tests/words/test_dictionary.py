"""The dictionary answers like the spec's reference implementation."""

from __future__ import annotations

import random

import pytest

from games.words.dictionary import Lexicon, lexicon, load_words, maximal_suffixes


@pytest.fixture(scope="module")
def reference() -> str:
    return "\n" + "\n".join(w.lower() for w in load_words() if len(w) >= 4) + "\n"


@pytest.mark.parametrize("fragment", ["str", "astr", "stra", "famishe", "qu", "", "x"])
def test_valid_fragments(fragment: str) -> None:
    assert lexicon().fragment(fragment)
    assert lexicon().fragment(fragment.upper())


@pytest.mark.parametrize("fragment", ["strt", "qit", "qx", "zzzz", "aaaa"])
def test_invalid_fragments(fragment: str) -> None:
    assert not lexicon().fragment(fragment)


@pytest.mark.parametrize("word", ["star", "start", "quit", "plane", "planet", "famish", "famished"])
def test_known_words(word: str) -> None:
    assert lexicon().is_word(word) and lexicon().claimable(word.upper())


def test_short_words_are_not_claimable() -> None:
    assert not lexicon().claimable("tar") and lexicon().is_word3("tar")
    assert lexicon().fragment3("ta") and not lexicon().fragment3("qx")


def test_blocklisted_words_cannot_be_claimed_but_stay_fragments() -> None:
    lex = lexicon()
    assert lex.blocked and all(lex.is_word(w) for w in lex.blocked)
    for word in lex.blocked:
        assert not lex.claimable(word)
        assert lex.fragment(word) and lex.fragment(word[:-1])


def test_fragments_agree_with_the_reference(reference: str) -> None:
    rng = random.Random(7)
    words = [w.lower() for w in load_words() if len(w) >= 4]
    samples = []
    for _ in range(1500):
        w = rng.choice(words)
        i = rng.randrange(len(w))
        samples.append(w[i: i + rng.randint(1, 6)])  # real fragments
        samples.append("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 5))))
    for s in samples:
        assert lexicon().fragment(s) == (s in reference), s


def test_maximal_suffixes_drop_prefixes_only() -> None:
    kept = maximal_suffixes(["star", "start"])
    assert "star" not in kept and "start" in kept and "tart" in kept
    assert Lexicon(["Star"]).fragment("sta") and Lexicon(["star"]).fragment("STA")
    small = Lexicon(["star", "start", "cat"], {"start"})
    assert small.fragment("tar") and not small.fragment("cat") and small.fragment3("ca")
    assert small.claimable("star") and not small.claimable("start")


def test_the_lexicon_is_built_once() -> None:
    assert lexicon() is lexicon()
