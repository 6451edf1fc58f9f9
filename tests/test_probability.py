"""Word study's probability order (`rackety.lexicon.probability`, issue 39):
the draws that hold a word, against Zyzzyva's published count and against a
reference that enumerates every draw of a small bag; the alphagrams of a
length ranked by them, each word in exactly its alphagram; multi-letter
tiles; the command line."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rackety import Lexicon
from rackety.alphabet import Alphabet
from rackety.errors import RacketyError
from rackety.frontends.cli import main
from rackety.lexicon.probability import draw_ways, draws, ranked

LETTERS = "ABCDE"


def tiny(counts: tuple[int, ...], blanks: int) -> Alphabet:
    return Alphabet({
        "name": "tiny", "board": "standard15", "rack_size": 4,
        "tiles": [{"label": "?", "blank_label": "?", "count": blanks, "points": 0,
                   "vowel": False}]
        + [{"label": c, "blank_label": c.lower(), "count": n, "points": 1, "vowel": c in "AE"}
           for c, n in zip(LETTERS, counts, strict=True)]})


def reference_ways(alphabet: Alphabet, word: str, blanks: int) -> int:
    """Every draw of the word's length from the bag (each tile a distinct
    object: a draw holding m of a letter's n copies is C(n, m) draws), counted
    when its letters, the blanks standing for any that are missing, spell the
    word: no formula of the module's."""
    need = Counter(word)
    kinds = [(t.label, t.count) for t in alphabet.tiles[1:]] + [("?", blanks)]
    total = 0
    for taken in itertools.product(*[range(n + 1) for _, n in kinds]):
        if sum(taken) != len(word):
            continue
        drawn = dict(zip([k for k, _ in kinds], taken, strict=True))
        missing = sum(max(0, k - drawn.get(c, 0)) for c, k in need.items())
        if missing <= drawn["?"]:
            ways = 1
            for (_, n), m in zip(kinds, taken, strict=True):
                ways *= comb(n, m)
            total += ways
    return total


def test_zyzzyvas_count_of_otarine() -> None:
    """Zyzzyva counts 5,423,112 draws of seven tiles that hold OTARINE in the
    100-tile English bag with two blanks, of 16,007,560,800 draws in all."""
    english = Alphabet.load("english")
    assert draw_ways(english, "OTARINE") == 5_423_112
    assert draws(english, 7) == 16_007_560_800
    # without blanks: the product of the letters' copies
    assert draw_ways(english, "OTARINE", blanks=0) == 8 * 6 * 9 * 6 * 9 * 6 * 12


@settings(max_examples=60, deadline=None)
@given(counts=st.tuples(*[st.integers(0, 4)] * len(LETTERS)), blanks=st.integers(0, 2),
       use=st.integers(0, 2), word=st.text(LETTERS, min_size=2, max_size=5))
def test_draws_that_hold_a_word_against_every_draw(counts: tuple[int, ...], blanks: int,
                                                   use: int, word: str) -> None:
    """The module's count, in Python (`draw_ways`) and compiled (`ranked`),
    equals the count of every draw of a small bag that holds the word, for
    any copies, any blanks in the bag and any blanks used."""
    alphabet = tiny(counts, blanks)
    use = min(use, blanks)
    expected = reference_ways(alphabet, word, use)
    assert draw_ways(alphabet, word, blanks=use) == expected
    listed = ranked(Lexicon.from_words([word], alphabet), len(word), blanks=use)
    assert len(listed) == 1 and listed[0].ways == expected
    assert listed[0].alphagram == "".join(sorted(word))
    every = comb(sum(counts) + blanks, len(word))  # 0 when the bag is shorter than the word
    assert listed[0].probability == pytest.approx(expected / every if every else 0.0)


@settings(max_examples=50, deadline=None)
@given(words=st.lists(st.text(LETTERS, min_size=3, max_size=3), min_size=1, max_size=40,
                      unique=True),
       counts=st.tuples(*[st.integers(1, 4)] * len(LETTERS)), blanks=st.integers(0, 2))
def test_alphagrams_ranked_by_their_draws(words: list[str], counts: tuple[int, ...],
                                          blanks: int) -> None:
    """Every word of the length is in exactly one entry, its alphagram's,
    with its anagrams; the entries go by draws, most first, ties in the
    alphabet's order; ranks count from 1."""
    alphabet = tiny(counts, blanks)
    listed = ranked(Lexicon.from_words(words, alphabet), 3)
    entries = list(listed)
    assert [e.rank for e in entries] == list(range(1, len(entries) + 1))
    assert sorted(w for e in entries for w in e.words) == sorted(words)
    groups: dict[str, list[str]] = {}
    for w in words:
        groups.setdefault("".join(sorted(w)), []).append(w)
    assert {e.alphagram: sorted(e.words) for e in entries} == \
        {a: sorted(ws) for a, ws in groups.items()}
    for e in entries:
        assert e.ways == draw_ways(alphabet, e.alphagram)
    keys = [(-e.ways, e.alphagram) for e in entries]
    assert keys == sorted(keys)
    assert [e.alphagram for e in listed.ranks(2, 3)] == [e.alphagram for e in entries[1:3]]
    for e in entries:
        assert listed.rank_of(e.words[-1]) == e.rank
    assert listed.rank_of("EEE" if "EEE" not in groups else "AAAA") is None


def test_a_tile_of_several_letters_is_one_tile() -> None:
    """Spanish CH is one tile of the bag (one copy), written [CH] where it
    could be read as C and H: a word with it is counted by that tile's
    copies, not by C's and H's."""
    spanish = Alphabet.load("spanish")
    counts = {t.label: t.count for t in spanish.tiles}
    word = spanish.word("[CH]E")
    assert len(word) == 2
    assert draw_ways(spanish, word, blanks=0) == counts["CH"] * counts["E"]
    assert draw_ways(spanish, "CHE", blanks=0) == counts["C"] * counts["H"] * counts["E"]
    listed = ranked(Lexicon.from_words(["[CH]E", "ECHO"], spanish), 2, blanks=0)
    assert [(e.alphagram, e.words, e.ways) for e in listed] == [
        ("[CH]E", ("[CH]E",), counts["CH"] * counts["E"])]


def test_bad_requests_are_one_line() -> None:
    english = Alphabet.load("english")
    lexicon = Lexicon.from_words(["AB", "BA"], english)
    for call in (lambda: ranked(lexicon, 1), lambda: ranked(lexicon, 2, blanks=3),
                 lambda: ranked(lexicon, 2, blanks=-1), lambda: draw_ways(english, ""),
                 lambda: ranked(lexicon, 2).ranks(3, 2), lambda: ranked(lexicon, 2).ranks(0)):
        with pytest.raises(RacketyError) as info:
            call()
        assert "\n" not in str(info.value)
    assert len(ranked(lexicon, 5)) == 0 and list(ranked(lexicon, 5)) == []


def test_the_command_lists_a_range(capsys: pytest.CaptureFixture[str]) -> None:
    """``rackety words alphagrams``: the ranks asked for, each with its
    draws and words, in the order of the whole list; a bad range one line."""
    assert main(["words", "alphagrams", "--lexicon", "TWL06", "--length", "7", "--ranks", "1-5",
                 "--json"]) == 0
    top = json.loads(capsys.readouterr().out)
    english = Alphabet.load("english")
    assert [t["rank"] for t in top] == [1, 2, 3, 4, 5]
    assert [t["ways"] for t in top] == sorted((t["ways"] for t in top), reverse=True)
    lexicon = Lexicon.load("TWL06")
    for t in top:
        assert t["ways"] == draw_ways(english, t["alphagram"])
        assert t["words"] and all(sorted(w) == sorted(t["alphagram"]) and w in lexicon
                                  for w in t["words"])
    assert main(["words", "alphagrams", "--lexicon", "TWL06", "--length", "7", "--ranks", "3"]) == 0
    line = capsys.readouterr().out.split()
    assert line[0] == "3" and line[1] == top[2]["alphagram"]
    for bad in ("0-3", "5-2", "x", "1-y"):
        assert main(["words", "alphagrams", "--length", "7", "--ranks", bad]) == 2
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and "--ranks" in err
