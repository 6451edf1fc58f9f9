"""Word tools against brute force over the word list."""

from __future__ import annotations

import functools

import pytest
import reference
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

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
    assert got == sorted(reference.matching(twl06_words, pattern))


@settings(max_examples=40, deadline=None)
@given(pattern=patterns, rack=st.text("AEIRST?", min_size=0, max_size=5))
def test_patterns_with_a_rack_agree_with_brute_force(twl06, twl06_words, pattern, rack):
    candidates = reference.matching(twl06_words, pattern)
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


@pytest.fixture(scope="module")
def twl06_set(twl06_words: list[str]) -> set[str]:
    return set(twl06_words)


@settings(max_examples=30, deadline=None)
@given(word=st.text(LETTERS, min_size=1, max_size=8))
def test_hooks_agree_with_brute_force(twl06, twl06_set, word):
    words = twl06_set
    hooks = twl06.hooks(word)
    front, back = reference.hooks(words, word, LETTERS)
    assert list(hooks.front) == front and list(hooks.back) == back
    assert hooks.valid == (word in words)


def test_hooks_of_real_words(twl06_words, twl06_set):
    words = twl06_set
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


@pytest.fixture(scope="module")
def twl06_by_length(twl06_words: list[str]) -> dict[int, list[str]]:
    """TWL06's words by their length."""
    out: dict[int, list[str]] = {}
    for w in twl06_words:
        out.setdefault(len(w), []).append(w)
    return out


@settings(max_examples=25, deadline=None)
@given(word=st.text(LETTERS, min_size=2, max_size=7), distance=st.integers(1, 2))
def test_suggestions_agree_with_brute_force(twl06, twl06_by_length, word, distance):
    """Against rapidfuzz's Levenshtein distance (an independent implementation,
    held to `reference.levenshtein` below), over every word whose length is
    within ``distance`` of the word's (no other can be that close)."""
    got = twl06.suggest(word, distance=distance)
    near = [w for length in range(len(word) - distance, len(word) + distance + 1)
            for w in twl06_by_length.get(length, ())]
    expected = sorted(((w, d) for w in near
                       if 0 < (d := Levenshtein.distance(w, word, score_cutoff=distance))
                       <= distance),
                      key=lambda wd: (wd[1], wd[0]))
    assert got == expected


@given(a=st.text("ABC", max_size=7), b=st.text("ABC", max_size=7))
def test_rapidfuzz_s_levenshtein_is_the_reference_s(a, b):
    assert Levenshtein.distance(a, b) == reference.levenshtein(a, b)


def test_iteration_and_count(twl06, twl06_words):
    assert list(twl06) == twl06_words
    assert len(twl06) == len(twl06_words)
    assert "QI" in twl06 and "qi" in twl06 and "Q1" not in twl06 and 5 not in twl06


# ------------------------------------------------ Unicode as people type it
def test_word_tools_read_decomposed_text_as_composed():
    """`"été" in lexicon`, hooks, anagrams, patterns, suggestions, decoding and
    multi-word anagrams: the NFD form of a word (É as E + U+0301) is the word."""
    import unicodedata

    nfd = functools.partial(unicodedata.normalize, "NFD")
    french = Lexicon.from_words(["été", "étés", "tête", "têtes", "élève", "café"], "french")
    for word in ("ÉTÉ", "été", "Été", "ÉLÈVE", "tête"):
        assert nfd(word) != word
        assert word in french and nfd(word) in french
    assert "ÉTÉS\u0301" not in french  # a stray mark is no letter: not a word
    assert french.hooks(nfd("été")) == french.hooks("été") == french.hooks("ETE")
    assert french.hooks(nfd("été")).valid and french.hooks(nfd("été")).back == ("S",)
    assert french.anagrams(nfd("ÉTÉS")) == french.anagrams("ETES") == ["ETES"]
    assert french.pattern(nfd("É?É*")) == french.pattern("E?E*") == ["ELEVE", "ETE", "ETES"]
    assert french.suggest(nfd("ÉTÈ")) == french.suggest("ETE")
    assert french.decode(nfd("ÉTÉ")).as_dict() == french.decode("ETE").as_dict()
    assert french.multi_anagrams(nfd("étéS")) == french.multi_anagrams("ETES")
    polish = Lexicon.from_words(["żółć", "gęś", "łąka"], "polish")
    assert nfd("ŻÓŁĆ") in polish and nfd("gęś") in polish
    assert polish.anagrams(nfd("ĆŁÓŻ")) == polish.anagrams("ĆŁÓŻ") == ["ŻÓŁĆ"]
    with pytest.raises(RacketyError, match="COMBINING"):
        polish.anagrams("\u0301ŁĄKA")


def test_catalan_word_tools_read_look_alikes_of_the_middle_dot():
    catalan = Lexicon.from_words(["col·legi", "cel·la"], "catalan")
    for typed in ("col•legi", "COL∙LEGI", "col⋅legi", "COL‧LEGI", "col・legi", "co\u0140legi",
                  "COL\u0387LEGI"):
        assert typed in catalan
    assert "COL.LEGI" not in catalan and "COL-LEGI" not in catalan
    assert catalan.pattern("CE[L•L]?") == ["CEL·LA"]
