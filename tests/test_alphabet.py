from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rackety import Alphabet, RacketyError
from rackety.alphabet import BLANK_FLAG
from rackety.lexicon.wordlist import parse_words

REQUIRED = ["english", "french", "german", "spanish", "catalan", "italian", "dutch", "polish",
            "norwegian", "swedish", "portuguese", "english_super"]


@pytest.mark.parametrize("name", Alphabet.names())
def test_every_alphabet_loads_with_its_facts(name):
    a = Alphabet.load(name)
    assert a.tiles[0].label == "?" and a.tiles[0].points == 0
    assert 2 <= a.size <= 64
    assert [t.code for t in a.tiles] == list(range(a.size))
    assert a.rack_size >= 7 and a.bingo_bonus > 0
    for t in a.letters:
        assert t.label.isupper() or not t.label.isalpha()
        assert t.blank_label == t.label.lower()
        # every label reads back as its own tile, plain or in brackets
        assert a.tokenize(f"[{t.label}]", blanks=False) == [t.code]
        assert a.tokenize(f"[{t.blank_label}]") == [BLANK_FLAG | t.code]


def test_the_required_alphabets_are_there():
    assert set(REQUIRED) <= set(Alphabet.names())


def test_alphabets_agree_with_the_shared_spec():
    from pathlib import Path

    # a copy of ../shared/spec/letter_distributions.json, the source of the data files
    spec = Path(__file__).parent / "data" / "letter_distributions.json"
    data = json.loads(spec.read_text(encoding="utf-8"))
    for name, entry in {**data["languages"], **data["variants"]}.items():
        a = Alphabet.load(name)
        real = {t.label: (t.count, t.points, t.vowel) for t in a.letters if t.count}
        assert real == {t["tile"]: (t["count"], t["points"], t["vowel"])
                        for t in entry["tiles"]}, name
        assert a.tiles[0].count == entry["blanks"]
        assert {t.label for t in a.letters if not t.count} == set(
            entry.get("zero_count_letters_blank_only", []))


def test_tile_codes_follow_wolges_order():
    nor = Alphabet.load("norwegian")
    assert "".join(t.label for t in nor.letters) == "ABCDEFGHIJKLMNOPQRSTUVWXYÜZÆÄØÖÅ"
    cat = Alphabet.load("catalan")
    assert [t.label for t in cat.letters][11:16] == ["L", "L·L", "M", "N", "NY"]


def test_catalan_multi_letter_tiles_read_greedily_and_in_brackets():
    cat = Alphabet.load("catalan")
    ll, ny, qu = (cat.word(x)[0] for x in ("[L·L]", "[NY]", "[QU]"))
    assert cat.word("COL·LEGI") == [cat.word(c)[0] for c in "CO"] + [ll] + cat.word("EGI")
    assert cat.word("ANY") == [1, ny]
    assert cat.word("quan") == [qu, 1, cat.word("N")[0]]
    assert cat.tokenize("[ny]A?a") == [BLANK_FLAG | ny, 1, 0, BLANK_FLAG | 1]
    assert cat.word("ŀl")[0] == ll  # the precomposed L with middle dot folds to L·L
    assert cat.format(cat.tokenize("CA[ny]OT"), brackets=True) == "CA[ny]OT"
    assert cat.format(cat.tokenize("CA[ny]OT")) == "CAnyOT"


def test_spanish_digraphs_need_brackets_because_plain_text_is_ambiguous():
    es = Alphabet.load("spanish")
    ch = es.word("[CH]")[0]
    assert es.word("CHE") == es.word("C") + es.word("H") + es.word("E")
    assert es.word("[CH]E") == [ch, *es.word("E")] == es.word("1E")
    assert es.format([ch, BLANK_FLAG | ch], brackets=True) == "[CH][ch]"
    assert es.ambiguous == {"CH", "LL", "RR"}


def test_blanks_and_case():
    en = Alphabet.load("english")
    assert en.tokenize("Ab?") == [1, BLANK_FLAG | 2, 0]
    assert en.word("Ab") == [1, 2]
    assert en.format([1, BLANK_FLAG | 2, 0]) == "Ab?"


@pytest.mark.parametrize(("text", "message"), [
    ("QAT1", "word 'QAT1' has letter '1', which is not in alphabet english"),
    ("A[B", "'[' without a closing ']'"),
    ("A[XY]", "[XY] is not a tile of alphabet english"),
])
def test_errors_name_the_word_and_the_letter(text, message):
    with pytest.raises(RacketyError, match=message.replace("[", r"\[").replace("]", r"\]")):
        Alphabet.load("english").word(text)


def test_a_word_with_a_letter_the_alphabet_lacks():
    with pytest.raises(RacketyError) as err:
        Alphabet.load("catalan").word("KIWI")
    assert "'KIWI'" in str(err.value) and "'K'" in str(err.value)
    assert "\n" not in str(err.value)


def test_unknown_alphabet_lists_the_known_ones():
    with pytest.raises(RacketyError, match="unknown alphabet 'klingon'.*english"):
        Alphabet.load("klingon")


def _tile_strings(name: str):
    a = Alphabet.load(name)
    tile = st.integers(1, a.size - 1).flatmap(
        lambda c: st.sampled_from([c, c | BLANK_FLAG]))
    return st.lists(st.one_of(tile, st.just(0)), min_size=1, max_size=12)


@pytest.mark.parametrize("name", ["english", "catalan", "spanish", "german", "polish",
                                  "norwegian"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_format_then_tokenize_is_the_identity(name, data):
    a = Alphabet.load(name)
    codes = data.draw(_tile_strings(name))
    assert a.tokenize(a.format(codes, brackets=True)) == codes
    if not a.ambiguous:
        assert a.tokenize(a.format(codes)) == codes


@pytest.mark.parametrize("name", ["english", "catalan", "spanish", "french"])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_compiled_word_list_tokenizer_agrees_with_the_single_word_one(name, data):
    a = Alphabet.load(name)
    labels = [t.label for t in a.letters] + [t.label.lower() for t in a.letters]
    pieces = st.lists(st.sampled_from(labels + ["[" + t.label + "]" for t in a.letters]),
                      min_size=2, max_size=8).map("".join)
    words = data.draw(st.lists(pieces, min_size=1, max_size=20))
    parsed = parse_words("\r\n".join(words), a)
    expected = sorted({tuple(a.word(w)) for w in words})
    got = [tuple(int(x) for x in row[:n]) for row, n in zip(parsed.tiles, parsed.lengths)]
    assert got == expected
    assert parsed.duplicates == len(words) - len(expected)
    assert isinstance(parsed.tiles, np.ndarray)
