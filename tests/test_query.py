"""Word tools against brute force over the word list."""

from __future__ import annotations

import pytest
import reference
from hypothesis import given, settings
from hypothesis import strategies as st

from rackety import Lexicon, RacketyError

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
racks = st.text(LETTERS + "??", min_size=1, max_size=8)
small_words = st.lists(st.text("ABCDE", min_size=2, max_size=6), min_size=1, max_size=30)


@settings(max_examples=40, deadline=None)
@given(rack=racks)
def test_anagrams_agree_with_brute_force(twl06, twl06_words, rack):
    assert set(twl06.anagrams(rack)) == reference.anagrams(twl06_words, rack)
    sub = twl06.anagrams(rack, subsets=True)
    assert set(sub) == reference.anagrams(twl06_words, rack, subsets=True)
    assert len(sub) == len(set(sub))
    assert [len(w) for w in sub] == sorted((len(w) for w in sub), reverse=True)


def test_anagrams_examples(twl06):
    assert twl06.anagrams("RETAINS") == sorted(twl06.anagrams("RETAINS"))
    assert "STAINER" in twl06.anagrams("retains")
    assert twl06.anagrams("QI??", subsets=True)[0:1] and "QI" in twl06.anagrams(
        "QI??", subsets=True)
    with pytest.raises(RacketyError, match="rack '1AB' has letter '1'"):
        twl06.anagrams("1AB")


patterns = st.lists(st.sampled_from(list("AEST") + ["?", "*"]), min_size=1, max_size=6).map(
    "".join)


@settings(max_examples=40, deadline=None)
@given(pattern=patterns)
def test_patterns_agree_with_brute_force(twl06, twl06_words, pattern):
    got = twl06.pattern(pattern)
    assert got == sorted(w for w in twl06_words if reference.matches(w, pattern))


@settings(max_examples=40, deadline=None)
@given(pattern=patterns, rack=st.text("AEIRST?", min_size=0, max_size=5))
def test_patterns_with_a_rack_agree_with_brute_force(twl06, twl06_words, pattern, rack):
    candidates = [w for w in twl06_words if reference.matches(w, pattern)]
    expected = sorted(w for w in candidates if reference.pattern_with_rack(w, pattern, rack))
    assert twl06.pattern(pattern, rack=rack) == expected


def test_patterns_with_many_stars_read_each_word_once(twl06, twl06_words):
    # "*?*?*?*?*?*?*?*?" once made the walk try every split of every word
    assert twl06.pattern("*?*?*?*?*?*?*?*?") == sorted(w for w in twl06_words if len(w) >= 8)
    assert twl06.pattern("*A*E*I*O*U*") == sorted(
        w for w in twl06_words if reference.matches(w, "*A*E*I*O*U*"))
    assert twl06.pattern("?" * 22 + "*") == []  # longer than any word


def test_multi_word_anagrams_beyond_what_can_be_listed_are_refused(twl06, monkeypatch):
    phrase = "dirtyroom" * 3  # billions of ways
    with pytest.raises(RacketyError, match="more ways than a search of 10,000 steps finds"):
        twl06.multi_anagrams(phrase, budget=10_000)
    assert len(twl06.multi_anagrams(phrase, limit=20)) == 20
    from rackety.lexicon import lexicon

    monkeypatch.setattr(lexicon, "MAX_MULTI", 100)
    with pytest.raises(RacketyError, match="has more than 100 ways"):
        twl06.multi_anagrams("dirtyroomdirtyroom")


def test_pattern_errors(twl06):
    with pytest.raises(RacketyError, match="pattern is empty"):
        twl06.pattern("  ")
    with pytest.raises(RacketyError, match="has letter '1'"):
        twl06.pattern("A1?")


@settings(max_examples=30, deadline=None)
@given(word=st.text(LETTERS, min_size=1, max_size=8))
def test_hooks_agree_with_brute_force(twl06, twl06_words, word):
    words = set(twl06_words)
    hooks = twl06.hooks(word)
    front, back = reference.hooks(words, word, LETTERS)
    assert list(hooks.front) == front and list(hooks.back) == back
    assert hooks.valid == (word in words)


def test_hooks_of_real_words(twl06_words):
    words = set(twl06_words)
    lex = Lexicon.load("TWL06")
    for word in twl06_words[::997]:
        front, back = reference.hooks(words, word, LETTERS)
        assert lex.hooks(word).front == tuple(front) and lex.hooks(word).back == tuple(back)


@settings(max_examples=80, deadline=None)
@given(words=small_words, phrase=st.text("ABCDE?", min_size=2, max_size=8),
       min_length=st.integers(1, 3), max_words=st.sampled_from([None, 1, 2, 3]))
def test_multi_word_anagrams_agree_with_brute_force(words, phrase, min_length, max_words):
    lex = Lexicon.from_words(words)
    words = lex.words()
    got = lex.multi_anagrams(phrase, min_length=min_length, max_words=max_words)
    # a blank may be any letter: the union over the letters it can stand for
    expected: set[str] = set()
    stack = [phrase]
    while stack:
        p = stack.pop()
        if "?" in p:
            stack += [p.replace("?", c, 1) for c in "ABCDE"]
        else:
            expected |= reference.multi_anagrams(words, p, min_length, max_words)
    assert set(got) == expected and len(got) == len(expected)


def test_multi_word_anagrams_of_a_phrase(twl06):
    found = twl06.multi_anagrams("Dirty room", max_words=2)
    assert "DIRTY ROOM" in found and "DORMITORY" in found
    assert found[0] == "DORMITORY"  # fewest words first
    assert all(len(a.split()) <= 2 for a in found)
    assert len(twl06.multi_anagrams("dormitory", limit=5)) == 5


@settings(max_examples=25, deadline=None)
@given(word=st.text(LETTERS, min_size=2, max_size=7), distance=st.integers(1, 2))
def test_suggestions_agree_with_brute_force(twl06, twl06_words, word, distance):
    got = twl06.suggest(word, distance=distance)
    expected = sorted(((w, d) for w in twl06_words
                       if abs(len(w) - len(word)) <= distance
                       and 0 < (d := reference.levenshtein(w, word)) <= distance),
                      key=lambda wd: (wd[1], wd[0]))
    assert got == expected


def test_iteration_and_count(twl06, twl06_words):
    assert list(twl06) == twl06_words
    assert len(twl06) == len(twl06_words)
    assert "QI" in twl06 and "qi" in twl06 and "Q1" not in twl06 and 5 not in twl06
