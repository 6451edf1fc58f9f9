"""Word study in every tile set rackety ships (issue 39 point 2: blanks and
multi-letter tiles work in every language): for each alphabet, words of its
tiles (multi-letter ones included) ranked by their draws against the exact
count, asked as anagram questions, answered in the questions' own spelling
and graded right, and asked again as a rack with a blank."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rackety import Lexicon
from rackety.alphabet import Alphabet
from rackety.lexicon.probability import draw_ways, ranked
from rackety.study.quiz import anagram_questions, hook_questions


@pytest.mark.parametrize("name", Alphabet.names())
def test_study_in_every_tile_set(name: str) -> None:
    alphabet = Alphabet.load(name)
    rng = random.Random(name)
    multi = [t.code for t in alphabet.tiles[1:] if len(t.label) > 1]
    codes = list(range(1, alphabet.size))
    words = []
    for i in range(30):  # words of 4 tiles, a multi-letter tile in some where the set has one
        word = [rng.choice(codes) for _ in range(4)]
        if multi and i % 3 == 0:
            word[rng.randrange(4)] = rng.choice(multi)
        words.append(word)
    lexicon = Lexicon.from_tiles(np.array([c for w in words for c in w], np.uint8),
                                 np.array([4] * len(words), np.int64), alphabet)
    plist = ranked(lexicon, 4)
    entries = list(plist)
    assert sum(len(e.words) for e in entries) == len({tuple(w) for w in words})
    for entry in entries:
        tiles = alphabet.word(entry.alphagram)
        assert len(tiles) == 4 and tiles == sorted(tiles)  # read back as the same tiles
        assert entry.ways == draw_ways(alphabet, tiles)
        assert all(sorted(alphabet.word(w)) == tiles for w in entry.words)
    questions = anagram_questions(lexicon, words=[alphabet.format(w, brackets=True)
                                                  for w in words[:6]])
    for q in questions:
        assert q.answers and q.grade(" ".join(q.answers), lexicon).correct
        assert q.grade(" ".join(a.lower() for a in q.answers), lexicon).correct
    # a rack with a blank for one of a word's tiles asks for every word it makes
    word = alphabet.format(words[0][1:], brackets=True) + "?"
    [rack] = anagram_questions(lexicon, words=[word])
    assert rack.prompt.endswith("?") and alphabet.format(words[0], brackets=True) in rack.answers
    assert hook_questions(lexicon, [alphabet.format(words[0][:3], brackets=True)])
