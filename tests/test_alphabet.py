from __future__ import annotations

import functools
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


# ------------------------------------------------ Unicode as people type it
def _data(name: str) -> dict:
    from importlib import resources

    path = resources.files("rackety") / "data" / "alphabets" / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def _look_alikes(name: str) -> dict[str, list[str]]:
    """The characters the alphabet reads as a punctuation mark of its labels
    (Catalan: the look-alikes of the middle dot), by the mark; U+0387 is the
    middle dot by NFC."""
    a = Alphabet.load(name)
    marks = {ch for t in a.letters for ch in t.label if not ch.isalnum()}
    out: dict[str, list[str]] = {m: [] for m in marks}
    for key, value in _data(name).get("fold", {}).items():
        if value in marks:
            out[value].append(key)
    if "\u00b7" in out:
        out["\u00b7"].append("\u0387")
    return out


def _accented(name: str) -> dict[str, list[str]]:
    """The accented letters the alphabet folds to each one-letter tile."""
    out: dict[str, list[str]] = {}
    for key, value in _data(name).get("fold", {}).items():
        if len(value) == 1 and value.isalpha():
            out.setdefault(value, []).append(key)
    return out


@pytest.mark.parametrize("name", Alphabet.names())
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_text_reads_the_same_composed_decomposed_and_with_look_alikes(name, data):
    """Any word of the alphabet's tiles, written composed (NFC: the reference),
    decomposed (NFD), each character either way, with the accents the alphabet
    folds (É for E in French), and with look-alikes of a label's punctuation
    (Catalan L•L): the same tiles, blanks (lower case) included."""
    import unicodedata

    a = Alphabet.load(name)
    codes = data.draw(_tile_strings(name))
    nfc = a.format(codes, brackets=True)
    assert unicodedata.is_normalized("NFC", nfc)
    reference = a.tokenize(nfc)
    assert reference == codes
    accented, look = _accented(name), _look_alikes(name)
    pieces = []
    for c in codes:
        tile = a.tiles[c & ~BLANK_FLAG]
        text = tile.label if c else "?"
        if c and tile.label in accented:
            text = data.draw(st.sampled_from([text, *accented[tile.label]]))
        for mark, others in look.items():
            if mark in text and others:
                text = text.replace(mark, data.draw(st.sampled_from(others)))
        text = text.lower() if c & BLANK_FLAG else text
        pieces.append(f"[{text}]" if len(tile.label) > 1 else text)
    typed = "".join(pieces)
    forms = [unicodedata.normalize("NFD", nfc), unicodedata.normalize("NFD", typed),
             "".join(unicodedata.normalize(data.draw(st.sampled_from(["NFC", "NFD"])), ch)
                     for ch in typed)]
    for text in [typed, *forms]:
        assert a.tokenize(text) == reference, ascii(text)
    word = [c & ~BLANK_FLAG for c in codes if c]
    if word:
        plain = a.format(word, brackets=True)
        assert a.word(unicodedata.normalize("NFD", plain.lower())) == word


def test_every_alphabet_label_is_composed():
    """Tiles are matched against composed text: a label must be NFC (a file
    written decomposed is composed when loaded)."""
    import unicodedata

    for name in Alphabet.names():
        for t in Alphabet.load(name).tiles:
            assert unicodedata.is_normalized("NFC", t.label + t.blank_label), (name, t)
    data = _data("polish")
    for t in data["tiles"]:
        t["label"] = unicodedata.normalize("NFD", t["label"])
        t["blank_label"] = unicodedata.normalize("NFD", t["blank_label"])
    decomposed = Alphabet(data, source="polish-nfd.json")
    polish = Alphabet.load("polish")
    assert [t.label for t in decomposed.tiles] == [t.label for t in polish.tiles]
    assert decomposed.identity == polish.identity
    assert decomposed.word("ŻÓŁĆ") == polish.word(unicodedata.normalize("NFD", "żółć"))


@pytest.mark.parametrize(("name", "text", "message"), [
    ("english", "C\u200dAT", r"has letter '\u200d', which is not in alphabet english "
                             "(U+200D ZERO WIDTH JOINER)"),
    ("french", "E\u0301\u0301TE", "has letter '\u0301', which is not in alphabet french "
                                  "(U+0301 COMBINING ACUTE ACCENT)"),
    ("polish", "\u200fŻÓŁ", "(U+200F RIGHT-TO-LEFT MARK)"),
    ("catalan", "COL.LEGI", "has letter '.', which is not in alphabet catalan; its tile L·L "
                            "is written with '·' (U+00B7 MIDDLE DOT)"),
    ("catalan", "COL-LEGI", "its tile L·L is written with '·'"),
    ("english", "\uff23\uff21\uff34", "has letter 'Ｃ', which is not in alphabet english"),
    ("spanish", "\uff11ICO", "has letter '１'"),
    ("spanish", "CA\u00b2E", "has letter '²'"),
    ("english", "A\ud800", r"has letter '\ud800', which is not in alphabet english (U+D800)"),
])
def test_what_is_not_canonically_a_word_is_refused_and_named(name, text, message):
    """Compatibility forms are not folded (no NFKC: a fullwidth letter, a
    superscript or a fullwidth digit is no tile and no Spanish alias), nor are
    invisible characters dropped or a full stop or hyphen read as Catalan's
    middle dot; the message names what cannot be seen."""
    with pytest.raises(RacketyError) as err:
        Alphabet.load(name).word(text)
    assert message in str(err.value), str(err.value)
    assert "\n" not in str(err.value) and len(str(err.value)) <= 300


def test_moves_and_cgp_racks_and_rows_read_decomposed_as_composed():
    """The readers that split text before it becomes tiles (move notation, CGP
    racks and board rows) give the same position whatever the form."""
    import unicodedata

    from rackety import Board, Move
    from rackety.game.move import parse_move

    nfd = functools.partial(unicodedata.normalize, "NFD")
    empty = "/".join(["15"] * 15)
    for name, move, rack, row in [
        ("polish", "8H ŻÓŁć", "ŚĘ?ĄAE", "5ŻÓŁĆ6"),
        ("french", "H8 ÉTé", "ÉÈ?ÇŒ", "5ÉTÉ7"),
        ("spanish", "8D AÑ[ch]O", "A[LL]1?E", "4AÑO8"),
        ("catalan", "8D COL\u2022LEGI", "[L∙L]E?", "3PLAÇA7"),
        ("norwegian", "8H BLÅBÆR", "ÅØÆ?", "6ÅR7"),
    ]:
        board = Board.empty(name)
        assert parse_move(nfd(move), board) == parse_move(move, board)
        assert Move(nfd(move), alphabet=name) == Move(move, alphabet=name)
        rows = [empty.split("/")[0]] * 15
        rows[7] = row
        cgp = f"{'/'.join(rows)} {rack}/ 0/0 0 ld {name};"
        composed, decomposed = Board.from_cgp(cgp), Board.from_cgp(nfd(cgp))
        assert decomposed.racks == composed.racks
        assert (decomposed.grid == composed.grid).all()
        assert decomposed.cgp() == composed.cgp()


def test_moves_and_cgp_are_composed_whole_before_they_are_split():
    """Canonical singletons of ASCII marks: U+212A KELVIN SIGN is K (a column),
    U+037E GREEK QUESTION MARK is ';' (the end of a CGP operation)."""
    from rackety import Board
    from rackety.game.move import parse_move

    board = Board.empty("english")
    assert parse_move("8\u212a CAT", board) == parse_move("8K CAT", board)
    empty = "/".join(["15"] * 15)
    assert Board.from_cgp(f"{empty} ŻÓŁ/ 0/0 0 ld polish\u037e").alphabet.name == "polish"
