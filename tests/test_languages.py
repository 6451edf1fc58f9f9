"""Built-in lexicons of other languages (`rackety.lexicon.languages`): the one
filter on small hand-made lists, the sources (missing, cached, expanded by a
stand-in unmunch), ``rackety lexicon list`` and the rules that differ by
language. No test needs a system package; the real Catalan build runs only
where Debian's wcatalan is installed."""

from __future__ import annotations

import dataclasses
import json
import lzma
import os
import runpy
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rackety import Alphabet, Game, Lexicon, RacketyError
from rackety.frontends.cli import main
from rackety.game.rules import Rules
from rackety.lexicon import languages
from rackety.lexicon.cache import cache_key

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"


def kept(words, alphabet, **options):
    """The words the filter keeps, in Python's order (the filter gives tile order)."""
    return sorted(languages.filter_words(words, alphabet, **options))


# ------------------------------------------------------------------ the filter
def test_catalan_reads_l_l_ny_qu_as_tiles_and_folds_accents():
    words = ["col·legi", "coŀlegi", "any", "quatre", "àvia", "caçar", "pingüí", "Barcelona",
             "l'home", "ben-estar", "yogurt", "qatar", "para·lel", "·la", "a", "etc.",
             "mp3", "col·legis"]
    assert kept(words, "catalan") == ["AVIA", "A[NY]", "CAÇAR", "CO[L·L]EGI", "CO[L·L]EGIS",
                                      "PINGUI", "[QU]ATRE"]
    # L·L is one tile: COL·LEGI has six
    assert Alphabet.load("catalan").word("COL·LEGI") == languages.filter_text(
        "col·legi", Alphabet.load("catalan")).tiles[0].tolist()[:6]


def test_spanish_ch_ll_rr_are_always_the_digraph_tiles():
    words = ["chico", "llama", "perro", "niño", "acción", "pingüino", "kilo", "wifi", "Madrid",
             "coche", "calle", "carro", "ch"]
    out = kept(words, "spanish")
    assert sorted(out) == ["ACCION", "CA[LL]E", "CA[RR]O", "CO[CH]E", "NIÑO", "PE[RR]O",
                           "PINGUINO", "[CH]ICO", "[LL]AMA"]
    spanish = Alphabet.load("spanish")
    # in plain text elsewhere CH is C + H: the filter's brackets keep the tiles
    assert len(spanish.tokenize("CHICO", blanks=False)) == 5
    assert len(spanish.tokenize("[CH]ICO", blanks=False)) == 4
    # a single tile is no word: CH alone is dropped
    assert "[CH]" not in out


def test_french_folds_every_accent_and_ligature():
    words = ["être", "cœur", "garçon", "naïve", "aujourd'hui", "Paris", "peut-être", "ecole",
             "école", "zèbre"]
    assert kept(words, "french") == ["COEUR", "ECOLE", "ETRE", "GARCON", "NAIVE", "ZEBRE"]


def test_german_keeps_umlauts_spells_sharp_s_and_keeps_capital_nouns():
    german = Alphabet.load("german")
    assert german.fold("ß") == "SS" and german.fold("ẞ") == "SS"
    words = ["Straße", "Äpfel", "groß", "ABC", "ACLs", "laufen", "Café", "GmbH"]
    assert kept(words, german, capital_nouns=True) == ["GROSS", "LAUFEN", "STRASSE", "ÄPFEL"]
    assert languages.filter_words(["Äpfel", "Apfel"], german, capital_nouns=True) == [
        "APFEL", "ÄPFEL"]  # tile order: Ä follows A
    # without the language's rule a capital drops the word
    assert kept(words, german) == ["GROSS", "LAUFEN"]


def test_nordic_and_polish_sets_keep_their_letters():
    assert kept(["blåbær", "søt", "öl"], "norwegian") == ["BLÅBÆR", "SØT", "ÖL"]
    assert kept(["smörgås", "älg", "façad"], "swedish") == ["SMÖRGÅS", "ÄLG"]  # no Ç
    # Swedish has Æ only for a blank: it is a letter of the set, so BLÅBÆR is not dropped
    assert kept(["blåbær"], "swedish") == ["BLÅBÆR"]
    assert kept(["źdźbło", "quiz", "żółw", "video"], "polish") == ["ŹDŹBŁO", "ŻÓŁW"]


def test_lengths_duplicates_and_blank_lines():
    alphabet = Alphabet.load("english")
    text = "a\n\n  cat  \ncat\r\nCat\nabcdefghijklmnop\nabcdefghijklmno\n"
    words = languages.filter_text(text, alphabet)
    assert alphabet.decode_many(words.flat(), words.lengths) == ["ABCDEFGHIJKLMNO", "CAT"]
    assert words.duplicates == 1 and words.skipped == 3  # a, Cat, the 16 letters
    assert languages.filter_text("cat\ncats\n", alphabet, max_tiles=3).lengths.tolist() == [3]
    assert len(languages.filter_text("", alphabet)) == 0
    assert len(languages.filter_text("Paris\nl'eau\n", alphabet)) == 0


def test_a_large_input_takes_the_compiled_tokenizer_and_agrees():
    alphabet = Alphabet.load("spanish")
    words = [f"{a}{b}{c}o" for a in ("ch", "ll", "rr", "c", "l") for b in "aeiou"
             for c in ("ch", "ll", "rr", "n", "ñ")] * 700
    text = "\n".join(words)
    assert len(text) > languages.COMPILED_ABOVE
    big = languages.filter_text(text, alphabet)
    small = languages.filter_text("\n".join(words[:125]), alphabet)
    assert big.tiles.tolist() == small.tiles.tolist() and len(big) == 125


_PIECES = ["a", "e", "i", "o", "u", "c", "h", "l", "r", "n", "y", "q", "s", "t", "ç", "ñ",
           "à", "é", "ï", "ü", "ß", "ŀ", "·", "ch", "ll", "rr", "ny", "qu", "l·l", "'", "-",
           "A", "Q", "1", ".", "[", "?", " ", "k", "w", "å", "ø", "ö"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=10).map("".join),
                min_size=1, max_size=20),
       st.sampled_from(["catalan", "spanish", "french", "german", "norwegian", "english"]))
def test_what_the_filter_keeps_tokenizes_back_to_the_same_tiles(words, name):
    alphabet = Alphabet.load(name)
    result = languages.filter_text("\n".join(words), alphabet)
    texts = languages.filter_words(words, alphabet)
    assert len(texts) == len(result)
    for row, n, text in zip(result.tiles, result.lengths.tolist(), texts, strict=True):
        tiles = row[:n].tolist()
        assert 2 <= n <= languages.MAX_TILES and all(t > 0 for t in tiles)
        assert alphabet.tokenize(text, blanks=False) == tiles
        assert text == text.upper()
    assert texts == sorted(set(texts), key=texts.index)  # unique


# ------------------------------------------------------------------ sources
@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RACKETY_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def use_list(monkeypatch, name, path, **changes):
    entry = dataclasses.replace(languages.LANGUAGES[name], path=str(path), **changes)
    monkeypatch.setitem(languages.LANGUAGES, name, entry)
    return entry


def test_every_required_language_is_data():
    required = {"CATALAN", "SPANISH", "FRENCH", "GERMAN", "ITALIAN", "DUTCH", "POLISH",
                "PORTUGUESE", "NORWEGIAN", "SWEDISH"}
    assert required <= set(languages.LANGUAGES)
    for entry in languages.LANGUAGES.values():
        assert Alphabet.load(entry.alphabet).name == entry.alphabet
        assert entry.kind in ("list", "hunspell") and entry.words > 0 and entry.licence
        assert entry.install.startswith("sudo apt-get install ") and entry.package in entry.install
        assert languages.language(entry.name.lower()) is entry
    assert languages.LANGUAGES["SPANISH"].kind == "hunspell"
    assert languages.LANGUAGES["CATALAN"].words == 541_008


def test_a_missing_source_names_the_one_command_that_installs_it(tmp_path, monkeypatch):
    use_list(monkeypatch, "CATALAN", tmp_path / "nowhere")
    with pytest.raises(RacketyError) as info:
        Lexicon.load("catalan")
    message = str(info.value)
    assert "\n" not in message and message.endswith(": sudo apt-get install wcatalan")
    assert "CATALAN" in message and "nowhere" in message
    # a Hunspell dictionary needs unmunch as well
    dic = tmp_path / "es.dic"
    dic.write_text("1\nchico\n", encoding="utf-8")
    dic.with_suffix(".aff").write_text("SET UTF-8\n", encoding="utf-8")
    use_list(monkeypatch, "SPANISH", dic)
    monkeypatch.setattr(languages.shutil, "which", lambda _name: None)
    with pytest.raises(RacketyError, match=r"unmunch .*: sudo apt-get install hunspell-es "
                                           r"hunspell-tools$"):
        Lexicon.load("SPANISH")
    assert not languages.installed(languages.LANGUAGES["SPANISH"])


def test_a_language_loads_in_its_alphabet_and_is_cached(tmp_path, monkeypatch, cache):
    source = tmp_path / "catalan"
    source.write_text("col·legi\nany\nquatre\nBarcelona\nàvia\n", encoding="utf-8")
    use_list(monkeypatch, "CATALAN", source)
    messages = []

    def progress(message):
        messages.append(message)
        from contextlib import nullcontext

        return nullcontext()

    lexicon = Lexicon.load("Catalan", progress=progress)
    assert messages == [f"building lexicon CATALAN from {source} (first use)"]
    assert lexicon.alphabet.name == "catalan" and lexicon.name == "CATALAN"
    assert lexicon.words() == ["ANY", "AVIA", "COL·LEGI", "QUATRE"]
    assert lexicon.report.skipped == 0  # the filter's drops are by design
    again = Lexicon.load("CATALAN", "catalan", progress=progress)
    assert len(messages) == 1 and again.words() == lexicon.words()  # from the cache
    with pytest.raises(RacketyError, match="^lexicon CATALAN is in alphabet catalan, not "
                                           "english$"):
        Lexicon.load("CATALAN", "english")
    # a changed source is built again
    source.write_text("col·legi\n", encoding="utf-8")
    assert Lexicon.load("CATALAN", progress=progress).words() == ["COL·LEGI"]
    assert len(messages) == 2


def test_the_cache_key_covers_the_source_the_filter_and_the_alphabet(monkeypatch):
    entry = languages.LANGUAGES["CATALAN"]
    catalan, super_catalan = Alphabet.load("catalan"), Alphabet.load("catalan_super")
    english = Alphabet.load("english")
    ident = languages.cache_identity(entry, catalan)
    key = cache_key(b"any\n", ident, False)
    assert cache_key(b"any\nquatre\n", ident, False) != key
    assert languages.FILTER_VERSION in ident and catalan.identity in ident
    assert languages.cache_identity(entry, english) != ident
    assert languages.cache_identity(languages.LANGUAGES["SPANISH"], catalan) != ident
    # the same tiles under another set's name share the graph; another filter does not
    assert catalan.identity == super_catalan.identity
    monkeypatch.setattr(languages, "FILTER_VERSION", "test")
    assert cache_key(b"any\n", languages.cache_identity(entry, catalan), False) != key
    assert languages.cache_identity(dataclasses.replace(entry, max_tiles=9), catalan) != ident


def fake_unmunch(folder, body):
    """A stand-in for hunspell-tools' unmunch on the PATH: a shell script."""
    script = folder / "unmunch"
    script.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script


@pytest.mark.skipif(os.name != "posix", reason="the stand-in unmunch is a shell script")
def test_a_hunspell_source_is_expanded_by_unmunch(tmp_path, monkeypatch, cache):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    # the stand-in writes the dictionary's words, then each with an S, in ISO-8859-1
    fake_unmunch(bin_dir, "tail -n +2 \"$1\" | sed 's,/.*,,' | while read w; do "
                          "echo \"$w\"; echo \"${w}s\"; done")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    dic = tmp_path / "es_ES.dic"
    dic.write_bytes("3\nchico/S\nniño\nMadrid\n".encode("iso-8859-1"))
    dic.with_suffix(".aff").write_bytes(b"SET ISO8859-1\nFLAG UTF-8\n")
    use_list(monkeypatch, "SPANISH", dic)
    lexicon = Lexicon.load("SPANISH")
    assert lexicon.alphabet.name == "spanish"
    assert lexicon.words() == ["CHICO", "CHICOS", "NIÑO", "NIÑOS"]  # the CH tile: [CH]ICO
    assert "[CH]ICO" in [lexicon.alphabet.format(w, brackets=True)
                         for w in [lexicon.alphabet.word("[CH]ICO")]]
    assert lexicon.alphabet.word("[CH]ICOS") in lexicon


@pytest.mark.skipif(os.name != "posix", reason="the stand-in unmunch is a shell script")
def test_unmunch_is_bounded_in_time_and_size(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    fake_unmunch(bin_dir, "sleep 5")
    with pytest.raises(RacketyError, match=r"stopped after 0.2 s$"):
        languages.unmunch("x.dic", "x.aff", timeout=0.2)
    fake_unmunch(bin_dir, "yes word")
    with pytest.raises(RacketyError, match="more than 100,000 bytes"):
        languages.unmunch("x.dic", "x.aff", limit=100_000)
    fake_unmunch(bin_dir, "exit 3")
    with pytest.raises(RacketyError, match=r"failed \(exit status 3\)$"):
        languages.unmunch("x.dic", "x.aff")


# ------------------------------------------------------------------ the command line
def test_lexicon_list_text_and_json(capsys, tmp_path, monkeypatch):
    use_list(monkeypatch, "CATALAN", tmp_path / "absent")
    assert main(["lexicon", "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    names = [r["name"] for r in rows]
    assert names[:3] == ["TWL06", "SOWPODS", "CSW19"] and set(languages.LANGUAGES) <= set(names)
    catalan = rows[names.index("CATALAN")]
    assert catalan == {"name": "CATALAN", "language": "Catalan", "alphabet": "catalan",
                       "source": f"Debian wcatalan: {tmp_path / 'absent'}",
                       "licence": "GPL-2+", "words": 541_008, "installed": False,
                       "install": "sudo apt-get install wcatalan",
                       "note": languages.LANGUAGES["CATALAN"].note}
    assert all(set(r) == set(catalan) for r in rows)
    assert rows[0]["language"] == "English" and rows[0]["words"] == 178_691
    assert main(["lexicon", "list"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("CATALAN"))
    assert "541,008 words" in line and line.endswith("not installed: sudo apt-get install "
                                                     "wcatalan")
    assert "licence GPL-2+" in out and "SPANISH" in out and "TWL06" in out


# ------------------------------------------------------------------ rules by language
def test_rules_that_differ_by_language_are_data_with_sources():
    for name in Alphabet.names():
        alphabet = Alphabet.load(name)
        assert set(alphabet.rules_sources) == {"rack_size", "bingo_bonus", "exchange_min_bag",
                                               "max_scoreless"}, name
        assert alphabet.max_scoreless >= 6
    spanish, english = Alphabet.load("spanish"), Alphabet.load("english")
    assert (spanish.exchange_min_bag, spanish.max_scoreless) == (1, 12)
    assert "FISE" in spanish.rules_sources["exchange_min_bag"]
    assert (english.exchange_min_bag, english.max_scoreless, english.bingo_bonus) == (7, 6, 50)
    assert Alphabet.load("english_hong_kong").rack_size == 9


def test_the_data_files_are_what_the_tool_writes():
    tool = runpy.run_path(str(ROOT / "tools" / "make_alphabets.py"))
    spec = json.loads((DATA / "letter_distributions.json").read_text(encoding="utf-8"))
    folder = ROOT / "src" / "rackety" / "data" / "alphabets"
    for name, entry in {**spec["languages"], **spec["variants"]}.items():
        written = (folder / f"{name}.json").read_text(encoding="utf-8")
        assert tool["dump"](tool["convert"](name, entry)) == written, name


def test_the_referee_takes_the_scoreless_limit_from_the_alphabet():
    spanish = Lexicon.from_words(["chico", "[ch]a"], "spanish", skip_invalid=True)
    game = Game(spanish, ["a", "b"], seed=1)
    assert game.rules.max_scoreless == 12
    assert Game(spanish, ["a", "b"], seed=1, rules=Rules(max_scoreless=4)).rules.max_scoreless == 4
    for _ in range(11):
        game.play("pass")
    assert not game.over and game.zero_turns == 11
    game.play("pass")
    assert game.over
    english = Game(Lexicon.from_words(["cat"]), ["a", "b"], seed=1)
    assert english.rules.max_scoreless == 6
    with pytest.raises(RacketyError):
        Rules(max_scoreless=0)


# ------------------------------------------------------------------ the real list
@pytest.mark.skipif(not Path("/usr/share/dict/catalan").is_file(),
                    reason="Debian's wcatalan is not installed (sudo apt-get install wcatalan)")
def test_catalan_from_wcatalan_is_the_oracle_list(cache):
    """Slow but real (about 10 s): the whole of /usr/share/dict/catalan."""
    lexicon = Lexicon.load("CATALAN")
    with lzma.open(DATA / "catalan_wcat.txt.xz", "rt", encoding="utf-8") as handle:
        expected = handle.read().split()
    assert len(lexicon) == 541_008 == len(expected)
    assert sorted(lexicon.words()) == sorted(expected)


# ------------------------------------------------------------------ positions in another language
def test_a_cgp_naming_another_languages_lexicon_is_read_in_its_tile_set():
    """Without ``ld``, a CGP's ``lex`` naming a built-in lexicon of another
    language names its tile set (no word list needed to read the position);
    ``ld`` and a given alphabet still win."""
    from rackety import Board

    empty = "15/" * 14 + "15"
    board = Board.from_cgp(f"{empty} AEN[NY]RS?/ 0/0 0 lex CATALAN;")
    assert board.alphabet.name == "catalan"
    assert "NY" in board.alphabet.format(board.racks[0], brackets=True)
    assert Board.from_cgp(f"{empty} A[CH]/ 0/0 0 lex spanish;").alphabet.name == "spanish"
    assert Board.from_cgp(f"{empty} AB/ 0/0 0 lex TWL06;").alphabet.name == "english"
    with pytest.raises(RacketyError, match="NY"):
        Board.from_cgp(f"{empty} AEN[NY]RS?/ 0/0 0 lex CATALAN; ld english;")


def test_moves_reads_the_position_in_the_lexicons_tile_set(tmp_path, capsys):
    """``rackety moves --lexicon FILE:catalan`` reads a CGP without ``ld`` in
    Catalan tiles, so its rack may hold [NY]."""
    words = tmp_path / "mots.txt"
    words.write_text("ANY\nANYS\nCANYA\nCANYES\n", encoding="utf-8")
    cgp = "15/" * 14 + "15 ACN[NY]ES/ 0/0 0"
    assert main(["moves", "--lexicon", f"{words}:catalan", "--cgp", cgp, "--json",
                 "--leaves", "none"]) == 0
    result = json.loads(capsys.readouterr().out)
    words_played = {m["move"].split()[1] for m in result["moves"]}
    assert {"CA[NY]ES", "CA[NY]A", "A[NY]S", "A[NY]"} >= words_played >= {"CA[NY]ES"}
    assert result["count"] > 0


# ------------------------------------------------------------------ shipped leave tables
@pytest.mark.parametrize("name, alphabet", [("CATALAN", "catalan"), ("SPANISH", "spanish")])
def test_static_plays_the_table_shipped_for_the_language(name, alphabet):
    """Catalan and Spanish ship trained tables: every leave of 1 to 6 tiles
    the tile counts allow, valued sensibly (the blank the best single tile,
    a duplicated heavy letter far below it); the ``static`` player of a
    lexicon of that name plays them (not H3), in that alphabet only."""
    from rackety.game.heuristics import STATIC, leave_label, leave_model
    from rackety.game.leaves import Leaves, leave_set

    alpha = Alphabet.load(alphabet)
    lexicon = Lexicon.from_words(["CASA", "CASES"], alpha, name=name)
    table = Leaves.builtin(lexicon)
    assert table is not None and len(table) == len(leave_set(alpha))
    singles = {t.label: table.value([t.code]) for t in alpha.tiles}
    assert max(singles, key=singles.get) == "?"
    heavy = max((t for t in alpha.letters if t.count >= 2), key=lambda t: t.points)
    assert table.value([heavy.code, heavy.code]) < singles["?"] - 10
    assert leave_model(STATIC, lexicon) is table
    assert leave_label(table, lexicon) == f"{name}'s shipped table"
    english = Lexicon.from_words(["CASA"], "english", name=name)
    assert Leaves.builtin(english) is None  # a lexicon of that name in another set


# ------------------------------------------------ Unicode as people type it
@pytest.mark.parametrize("name, words", [
    ("french", ["être", "cœur", "garçon", "naïve", "école", "zèbre"]),
    ("polish", ["żółć", "gęś", "źdźbło", "łąka", "ćma"]),
    ("spanish", ["niño", "acción", "pingüino", "chico", "año"]),
    ("catalan", ["col·legi", "àvia", "caçar", "pingüí", "paral·lel", "això"]),
    ("german", ["über", "straße", "größe", "äpfel"]),
])
def test_a_decomposed_source_is_filtered_as_the_composed_one(name, words):
    """Debian's lists are composed; one saved decomposed (NFD) makes the same
    words: the filter reads text composed."""
    import unicodedata

    decomposed = [unicodedata.normalize("NFD", w) for w in words]
    assert decomposed != words
    assert kept(decomposed, name) == kept(words, name)
    assert len(kept(words, name)) == len(words)


def test_catalan_look_alikes_of_the_middle_dot_are_filtered_as_it():
    words = ["col•legi", "col∙legi", "col⋅legi", "col‧legi", "col・legi", "col\u0387legi",
             "col.legi", "col-legi"]
    assert kept(words, "catalan") == ["CO[L·L]EGI"]  # . and - drop a line (step 1)
