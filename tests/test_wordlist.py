from __future__ import annotations

import pytest

from rackety import Alphabet, Lexicon, RacketyError
from rackety.lexicon.wordlist import MAX_WORD_LENGTH, read_wordlist

EN = Alphabet.load("english")


def write(tmp_path, data: bytes | str, name: str = "list.txt"):
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def rows(wl):
    return [EN.format(row[:n]) for row, n in zip(wl.tiles, wl.lengths)]


def test_any_case_crlf_bom_blank_lines_and_spaces(tmp_path):
    path = write(tmp_path, "\ufeffzoo\r\n  Aa \r\n\r\nqi\tx\nQI\nab")
    with pytest.raises(RacketyError) as err:
        read_wordlist(path, EN)
    assert "list.txt:4: word 'qi\\tx' has letter '\\t'" in str(err.value)
    path = write(tmp_path, "\ufeffzoo\r\n  Aa \r\n\r\nqi\nQI\nab")  # no newline at the end
    wl = read_wordlist(path, EN)
    assert rows(wl) == ["AA", "AB", "QI", "ZOO"]
    assert wl.duplicates == 1


@pytest.mark.parametrize(("content", "message"), [
    ("AA\nB\nCC\n", "list.txt:2: word 'B' is shorter than 2 tiles"),
    ("AA\n" + "A" * (MAX_WORD_LENGTH + 1) + "\n",
     f"list.txt:2: word '{'A' * (MAX_WORD_LENGTH + 1)}' is longer than {MAX_WORD_LENGTH} tiles"),
    ("AA\nCAFÉ\n", "list.txt:2: word 'CAFÉ' has letter 'É', which is not in alphabet english"),
    ("AA\n\nA1\n", "list.txt:3: word 'A1' has letter '1'"),
    ("", "list.txt: no words (the list is empty)"),
    ("\n \r\n", "list.txt: no words (the list is empty)"),
])
def test_bad_lists_are_refused_with_file_and_line(tmp_path, content, message):
    path = write(tmp_path, content)
    with pytest.raises(RacketyError) as err:
        read_wordlist(path, EN)
    assert str(err.value).endswith(message) or message in str(err.value)
    assert "\n" not in str(err.value)


def test_not_utf8_names_the_line(tmp_path):
    path = write(tmp_path, b"AA\nCAF\xe9\n")
    with pytest.raises(RacketyError, match=r"list.txt:2: not UTF-8"):
        read_wordlist(path, EN)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(RacketyError, match="no such file"):
        read_wordlist(tmp_path / "nope.txt", EN)
    with pytest.raises(RacketyError, match="is a directory"):
        read_wordlist(tmp_path, EN)


def test_skip_invalid_drops_and_counts(tmp_path):
    path = write(tmp_path, "AA\nB\nCAFÉ\nZZZ\nzzz\n")
    wl = read_wordlist(path, EN, skip_invalid=True)
    assert rows(wl) == ["AA", "ZZZ"]
    assert wl.skipped == 2 and wl.duplicates == 1
    assert wl.first_problem.startswith(f"{path}:2: word 'B'")
    with pytest.raises(RacketyError, match="no valid words"):
        read_wordlist(write(tmp_path, "A\nB\n"), EN, skip_invalid=True)


def test_accents_fold_where_the_alphabet_says(tmp_path):
    fr = Alphabet.load("french")
    wl = read_wordlist(write(tmp_path, "Œuvré\nça\n"), fr)
    assert sorted(fr.format(r[:n]) for r, n in zip(wl.tiles, wl.lengths)) == ["CA", "OEUVRE"]


def test_catalan_plain_spelling_reads_as_its_tiles(tmp_path):
    ca = Alphabet.load("catalan")
    lex = Lexicon.load(write(tmp_path, "COL·LEGI\nANY\nQUE\nçà\n"), "catalan")
    assert lex.words() == ["ANY", "COL·LEGI", "ÇA", "QUE"]  # tile-code order: C, Ç
    assert [len(ca.word(w)) for w in lex.words()] == [2, 6, 2, 2]
    with pytest.raises(RacketyError, match="'QATAR' has letter 'Q'"):
        Lexicon.load(write(tmp_path, "QATAR\n", "q.txt"), "catalan")


# ------------------------------------------------ Unicode as people type it
LISTS = {
    "french": "été\ncafé\nÉLÈVE\nnoël\ngarçon\ncœur\nmaïs\nÎLE\noù\nâge\nœuf\nça\n",
    "polish": "żółć\ngęś\nŹDŹBŁO\nłąka\nćma\npączek\nkoń\nósmy\nja\n",
    "spanish": "año\nniño\nCAMIÓN\npingüino\nacción\n[ch]ico\nca[ll]e\npe[rr]o\nÑU\n",
    "catalan": "col·legi\nplaça\naixò\nPARAL·LEL\ncèl·lula\npinyó\nquè\nany\nil·lusió\n",
}


def _accented_words(name: str):
    """Words of the alphabet's tiles and of the accented letters it folds, as
    people write them (composed)."""
    from hypothesis import strategies as st

    a = Alphabet.load(name)
    import json
    from importlib import resources

    data = json.loads((resources.files("rackety") / "data" / "alphabets" / f"{name}.json")
                      .read_text(encoding="utf-8"))
    letters = [f"[{t.label}]" if t.label in a.ambiguous else t.label for t in a.letters]
    letters += [k for k, v in data.get("fold", {}).items() if k.isalpha() and v.isalpha()]
    word = st.lists(st.sampled_from(letters), min_size=2, max_size=8).map("".join)
    return st.lists(st.one_of(word, word.map(str.lower)), min_size=1, max_size=12)


@pytest.mark.parametrize("name", sorted(LISTS))
def test_a_decomposed_list_builds_the_same_lexicon(tmp_path, name):
    """A list saved decomposed (NFD: É as E + U+0301, as some systems write
    files) compiles to the same graph, byte for byte, as the composed list."""
    import unicodedata

    composed = Lexicon.load(write(tmp_path, LISTS[name], "nfc.txt"), name, cache=False)
    text = unicodedata.normalize("NFD", LISTS[name])
    assert text != LISTS[name]
    decomposed = Lexicon.load(write(tmp_path, text, "nfd.txt"), name, cache=False)
    assert decomposed.nodes.tobytes() == composed.nodes.tobytes()
    assert decomposed.report.skipped == 0 and len(decomposed) == len(composed) == \
        len(LISTS[name].split())


@pytest.mark.parametrize("name", sorted({*LISTS, "german", "dutch", "italian", "portuguese"}))
def test_any_decomposed_list_reads_as_the_composed_one(name):
    """A property: words of the alphabet's tiles and of the accented letters it
    folds, any case, read the same from the NFD text as from the NFC text, and
    each word as the single-word reader reads it."""
    import unicodedata

    from hypothesis import given, settings

    from rackety.lexicon.wordlist import parse_bytes

    a = Alphabet.load(name)

    @settings(max_examples=25, deadline=None)
    @given(words=_accented_words(name))
    def check(words):
        text = "\n".join(words)
        composed = parse_bytes(text.encode(), a)
        decomposed = parse_bytes(unicodedata.normalize("NFD", text).encode(), a)
        assert decomposed.tiles.tobytes() == composed.tiles.tobytes()
        assert decomposed.lengths.tolist() == composed.lengths.tolist()
        expected = sorted({tuple(a.word(unicodedata.normalize("NFD", w))) for w in words})
        assert [tuple(int(x) for x in r[:n]) for r, n in
                zip(composed.tiles, composed.lengths)] == expected

    check()


def test_catalan_look_alikes_of_the_middle_dot_read_as_it(tmp_path):
    ca = Alphabet.load("catalan")
    typed = "col•legi\nCOL∙LEGI\ncol⋅legi\ncol‧legi\ncol・legi\nCOL·LEGI\ncoŀlegi\n"
    wl = read_wordlist(write(tmp_path, typed), ca)
    assert [ca.format(r[:n]) for r, n in zip(wl.tiles, wl.lengths)] == ["COL·LEGI"]
    assert wl.duplicates == 6
    with pytest.raises(RacketyError, match=r"list.txt:1: word 'COL.LEGI' has letter '\.'.*"
                                           r"its tile L·L is written with '·'"):
        read_wordlist(write(tmp_path, "COL.LEGI\n"), ca)


def test_a_lone_surrogate_in_strings_is_refused_in_one_line():
    with pytest.raises(RacketyError, match=r"'\\ud800', which is not in alphabet english"):
        Lexicon.from_words(["AB", "A\ud800"])
