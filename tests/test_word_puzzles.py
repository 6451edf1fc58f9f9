"""Code breaking, the acrostic assistant and blanks marked in the word tools'
output, against brute force over small word lists."""

from __future__ import annotations

import json
import time
from collections import Counter
from itertools import product

import pytest
import reference
from hypothesis import given, settings
from hypothesis import strategies as st

from rackety import Lexicon, RacketyError
from rackety.frontends.cli import main
from rackety.lexicon import query

#: short words with repeated letters and shared shapes (AREA, TACT, THAT; TEN, NET)
POOL = ["AREA", "ALPHA", "ABBA", "BOOB", "DREED", "SELLS", "TWEET", "TEETH", "THAT", "THIS",
        "TACT", "CHAT", "CAT", "ACT", "SCAT", "AT", "TA", "TO", "BE", "OR", "IT", "IS", "NOT",
        "TEN", "NET", "TOE", "ONE", "EON", "NOTE", "TONE", "SEEN", "SEES", "TEES", "DEED", "NOON",
        "ERA", "EAR", "ARE", "RATE", "TEAR", "TARE", "SEAT", "EAST", "EATS", "TEAS", "ATE", "TEA",
        "EAT", "ETA", "LOOT", "TOOL", "POOL", "LOOP", "PEEP", "BOB", "DAD", "MOM", "QUOTE",
        "QUEST", "TOAST"]
pool_lists = st.lists(st.sampled_from(POOL), min_size=1, max_size=30, unique=True)


@st.composite
def puzzles(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """A word list and one to three cipher words: words of the list under a
    random key (so that there is an answer), or random cipher words."""
    words = draw(pool_lists)
    count = draw(st.integers(1, 3))
    if draw(st.booleans()):
        plain = [draw(st.sampled_from(words)) for _ in range(count)]
        letters = sorted(set("".join(plain)))
        images = draw(st.permutations("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))[:len(letters)]
        key = dict(zip(letters, images, strict=True))
        return words, ["".join(key[c] for c in w) for w in plain]
    return words, draw(st.lists(st.text("ABCXYZ", min_size=1, max_size=5), min_size=1,
                                max_size=count))


def brute_decode(words: list[str], ciphers: list[str]) -> list[tuple[str, ...]]:
    """Every tuple of words, one per cipher word, under one key: a cipher letter
    always the same plain letter, two cipher letters never the same one."""
    found = []
    for combo in product(*([w for w in set(words) if len(w) == len(c)] for c in ciphers)):
        key: dict[str, str] = {}
        for cipher, plain in zip(ciphers, combo, strict=True):
            for c, p in zip(cipher, plain, strict=True):
                key.setdefault(c, p)
        if all(key[c] == p for cipher, plain in zip(ciphers, combo, strict=True)
               for c, p in zip(cipher, plain, strict=True)) \
                and len(set(key.values())) == len(key):
            found.append(combo)
    return sorted(found)


@settings(max_examples=80, deadline=None)
@given(puzzle=puzzles())
def test_decode_agrees_with_brute_force(puzzle):
    words, ciphers = puzzle
    lex = Lexicon.from_words(words)
    expected = brute_decode(words, ciphers)
    got = lex.decode(ciphers)
    assert got.complete and got.stopped == ""
    assert list(got.answers) == expected
    assert got.ciphers == tuple(ciphers)
    for answer, key in zip(got.answers, got.keys, strict=True):
        assert "".join(key[c] for c in "".join(ciphers)) == "".join(answer)
        assert len(set(key.values())) == len(key)
    assert lex.decode(" ".join(ciphers)).answers == got.answers  # a string splits at spaces


@settings(max_examples=40, deadline=None)
@given(puzzle=puzzles(), limit=st.integers(1, 5), budget=st.integers(1, 60))
def test_decode_stops_at_its_limit_or_budget_with_answers_it_found(puzzle, limit, budget):
    words, ciphers = puzzle
    lex = Lexicon.from_words(words)
    expected = brute_decode(words, ciphers)
    got = lex.decode(ciphers, limit=limit)
    assert set(got.answers) <= set(expected)
    if len(expected) >= limit:
        assert (len(got.answers), got.stopped, got.complete) == (limit, "limit", False)
    else:
        assert list(got.answers) == expected and got.complete
    tight = lex.decode(ciphers, budget=budget)
    assert set(tight.answers) <= set(expected)
    assert tight.stopped in ("", "budget")
    if tight.complete:
        assert list(tight.answers) == expected


def test_decode_examples():
    lex = Lexicon.from_words(["AREA", "ALPHA", "BOOB", "DREED", "SELLS", "TWEET", "ABBA",
                              "TO", "BE", "OR", "NOT", "IT", "IS"])
    assert lex.decode("ABCA").answers == (("AREA",),)
    assert lex.decode("xqzzx").answers == (("DREED",), ("SELLS",), ("TWEET",))
    assert lex.decode("ABBA").answers == (("ABBA",), ("BOOB",))
    assert lex.decode(["XQZZX", "QZ"]).answers == ()  # R-E and E-L are no words here
    got = lex.decode("AB CD")  # four different letters: TO BE, BE TO, OR IT ...
    assert ("TO", "BE") in got.answers and ("TO", "OR") not in got.answers
    assert got.as_dict()["answers"][0] == list(got.answers[0])
    assert lex.decode("A" * 22).answers == ()  # longer than any word
    assert lex.decode("Q").answers == ()


def test_decode_reads_multi_letter_tiles_as_one():
    lex = Lexicon.from_words(["COL·LA", "COLLA", "ANYS", "PANY"], "catalan")
    assert lex.decode("ABCD").answers == (("COL·LA",),)  # C O L·L A
    assert lex.decode("ABC").answers == (("ANYS",), ("PANY",))  # A NY S, P A NY
    assert lex.decode("ABCCD").answers == (("COLLA",),)
    assert lex.decode("ZX[NY]V").answers == (("COL·LA",),)  # NY as a cipher tile
    assert lex.decode("ABCD").keys[0] == {"A": "C", "B": "O", "C": "L·L", "D": "A"}


def test_decode_refuses_bad_input_in_one_line():
    lex = Lexicon.from_words(["AB", "CD"])
    for ciphers, message in [("", "no cipher word"), ([], "no cipher word"),
                             ("A1B", "has letter '1'"), ("A?B", "has letter '?'"),
                             (["AB"] * 65, "65 cipher words, more than 64"),
                             ("X" * 1_000_000, "longer than any word")]:
        with pytest.raises(RacketyError, match=message) as caught:
            lex.decode(ciphers)
        assert "\n" not in str(caught.value)
    for limit in (0, query.MAX_DECODE + 1):
        with pytest.raises(RacketyError, match="limit"):
            lex.decode("AB", limit=limit)
    with pytest.raises(RacketyError, match="budget"):
        lex.decode("AB", budget=-1)


def test_a_hostile_decoding_stops_at_its_budget():
    letters = "ABCDEFGHIJ"  # 90 two-letter words, but 24 cipher letters and 10 to give them
    lex = Lexicon.from_words([a + b for a in letters for b in letters if a != b])
    ciphers = ["AB", "CD", "EF", "GH", "IJ", "KL", "MN", "OP", "QR", "ST", "UV", "WX"]
    start = time.perf_counter()
    got = lex.decode(ciphers, budget=200_000)
    assert (got.answers, got.stopped) == ((), "budget")
    assert time.perf_counter() - start < 2
    assert lex.decode(ciphers[:5], limit=7).stopped == "limit"


# ------------------------------------------------------------------ acrostics
def pool_of(text: str) -> Counter[str]:
    return Counter(c.upper() for c in text if c.isalpha())


@st.composite
def acrostics(draw: st.DrawFn) -> tuple[list[str], str, list[str], int, str]:
    """A word list, a quotation (words of the list with some noise), answers
    used (words of the list, which the pool may not supply), a length and a
    first letter (often those of a word of the list)."""
    words = draw(pool_lists)
    spoken = draw(st.lists(st.sampled_from(words), max_size=6))
    noise = draw(st.lists(st.sampled_from([" ", ", ", "! ", " - ", "'", " x ", "1"]),
                          min_size=len(spoken), max_size=len(spoken)))
    cased = [w.lower() if k % 2 else w for k, w in enumerate(spoken)]
    quotation = "".join(a + b for a, b in zip(cased, noise, strict=True)) if spoken else \
        draw(st.text("ABCDEabcde ,.'!-", max_size=30))
    used = draw(st.lists(st.sampled_from(words), max_size=3))
    target = draw(st.sampled_from(words))
    if draw(st.booleans()):  # the target, perhaps one of its first letter short
        quotation = target.replace(target[0], "", draw(st.integers(0, 1)))
        return words, quotation + draw(st.text("XYZ ,", max_size=5)), [], len(target), \
            target[0]
    length = draw(st.sampled_from([len(target), 2, 3, 4, 5]))
    first = draw(st.sampled_from([target[0], *"ABCDEST"]))
    return words, quotation, used, length, first


@settings(max_examples=80, deadline=None)
@given(puzzle=acrostics())
def test_acrostic_words_agree_with_brute_force(puzzle):
    words, quotation, used, length, first = puzzle
    lex = Lexicon.from_words(words)
    pool = pool_of(quotation)
    if not pool:
        with pytest.raises(RacketyError, match="has no letters"):
            lex.acrostic(quotation)
        return
    left = pool.copy()
    for answer in used:
        if not Counter(answer) <= left:
            with pytest.raises(RacketyError, match=f"answer '{answer}' needs"):
                lex.acrostic(quotation, used=used)
            return
        left -= Counter(answer)
    acrostic = lex.acrostic(quotation, used=used)
    assert acrostic.words(length, first.lower()) == sorted(
        w for w in set(words) if len(w) == length and w[0] == first and Counter(w) <= left)
    assert acrostic.remaining == "".join(sorted(left.elements()))


def test_acrostic_pool_follows_the_answers_chosen():
    lex = Lexicon.from_words(["TOBE", "THAT", "THIS", "NOTE", "TOTE", "QUEST"])
    acrostic = lex.acrostic("To be, or not to be: that is the question.")
    assert acrostic.words(4, "T") == ["THAT", "THIS", "TOBE", "TOTE"]
    acrostic.use("that")
    assert acrostic.words(4, "T") == ["THIS", "TOBE", "TOTE"]
    before = acrostic.remaining
    with pytest.raises(RacketyError, match="answer 'THAT' needs 1 'A', and the quotation "
                                           "has 0 left"):
        acrostic.use("THAT")
    assert acrostic.remaining == before and acrostic.used == ["that"]
    acrostic.release("THAT")
    assert acrostic.remaining == "".join(sorted(pool_of("Tobeornottobethatisthequestion")
                                                .elements()))
    with pytest.raises(RacketyError, match="not among the answers used"):
        acrostic.release("THIS")
    assert acrostic.words(4, "Q") == []  # QUEST is five letters
    # the first letter comes from the pool too: one T left, and THAT needs two
    assert lex.acrostic("that is", used=["IT"]).words(4, "T") == []
    assert lex.acrostic("that is", used=["IS"]).words(4, "T") == ["THAT"]
    assert acrostic.words(5, "Q") == ["QUEST"]


def test_acrostic_reads_text_as_the_alphabet_does():
    catalan = Lexicon.from_words(["COL·LA", "COLLA", "CAL", "ANY", "NYAS"], "catalan")
    # '·' inside a tile stays, the rest of the punctuation goes; NY is one tile
    acrostic = catalan.acrostic("Col·la, any!")
    alphabet = catalan.alphabet
    assert acrostic.remaining == alphabet.format(
        sorted(alphabet.word("COL·LA") + alphabet.word("ANY")), brackets=True)
    assert acrostic.words(4, "C") == ["COL·LA"]  # C O L·L A: four tiles
    assert acrostic.words(3, "C") == []  # CAL needs an L, and the pool has L·L
    assert acrostic.words(2, "a") == ["ANY"]
    assert catalan.acrostic("coŀla").words(4, "C") == ["COL·LA"]  # ŀ folds to L·
    english = Lexicon.from_words(["CAFE", "FACE", "CAPE"])
    assert english.acrostic("Café!").words(4, "c") == ["CAFE"]  # É without its accent is E
    assert english.acrostic("Café!").words(4, "F") == ["FACE"]


def test_acrostic_refuses_bad_input_in_one_line():
    lex = Lexicon.from_words(["CAT", "ACT"])
    cases = [(lambda: lex.acrostic("1984 ... !"), "quotation '1984 ... !' has no letters"),
             (lambda: lex.acrostic("Cafø"), "word 'CAFØ' has letter 'Ø'"),
             (lambda: lex.acrostic("x" * (query.MAX_QUOTATION + 1)), "more than 10,000"),
             (lambda: lex.acrostic("cat", used=["!!"]), "answer '!!' has no letters"),
             (lambda: lex.acrostic("cat", used=["CAT", "A"]), "needs 1 'A', and the quotation "
                                                              "has 0 left"),
             (lambda: lex.acrostic("cat").words(1, "C"), "length 1: words are 2 to 21"),
             (lambda: lex.acrostic("cat").words(99, "C"), "length 99"),
             (lambda: lex.acrostic("cat").words(3, "CA"), "first letter 'CA': one tile"),
             (lambda: lex.acrostic("cat").words(3, ""), "first letter '': one tile"),
             (lambda: lex.acrostic("cat").words(3, "?"), "has letter '\\?'"),
             (lambda: lex.acrostic("cat").words(3, "C" * 10_000), "one tile")]
    for call, message in cases:
        with pytest.raises(RacketyError, match=message) as caught:
            call()
        assert "\n" not in str(caught.value)


# ----------------------------------------------------------------- blanks marked
def natural_first(letters: str, rack: str) -> str:
    """``letters`` spelled from ``rack`` left to right, the rack's own tile when it
    has one, else a blank (lower case)."""
    have = Counter(rack.replace("?", ""))
    out = []
    for c in letters:
        if have[c] > 0:
            have[c] -= 1
            out.append(c)
        else:
            out.append(c.lower())
    return "".join(out)


def alignments(word: str, pattern: str, i: int = 0, j: int = 0,
               filled: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """The positions of ``word`` that the wildcards fill, for every way it
    matches ``pattern``."""
    if j == len(pattern):
        return [filled] if i == len(word) else []
    p = pattern[j]
    if p == "*":
        rest = alignments(word, pattern, i, j + 1, filled)
        return rest + (alignments(word, pattern, i + 1, j, (*filled, i)) if i < len(word) else [])
    if i < len(word) and p in ("?", word[i]):
        return alignments(word, pattern, i + 1, j + 1, (*filled, i) if p == "?" else filled)
    return []


def pattern_marked(word: str, pattern: str, rack: str) -> str | None:
    """The word with the fewest blanks (then the latest) over every way it matches."""
    best = None
    for filled in alignments(word, pattern):
        taken = natural_first("".join(word[i] for i in filled), rack)
        if sum(c.islower() for c in taken) > rack.count("?"):
            continue
        text = list(word)
        for i, c in zip(filled, taken, strict=True):
            text[i] = c
        flags = tuple(c.islower() for c in text)
        if best is None or (sum(flags), flags) < best[0]:
            best = ((sum(flags), flags), "".join(text))
    return None if best is None else best[1]


abc_lists = st.lists(st.text("ABC", min_size=2, max_size=5), min_size=1, max_size=25)


@st.composite
def racks_for(draw: st.DrawFn, most_words: int) -> tuple[list[str], str]:
    """A word list over few letters (so words repeat letters) and a rack: the
    tiles of one to ``most_words`` of its words and up to two more, up to two
    of them turned into blanks, shuffled."""
    words = draw(abc_lists)
    count = draw(st.integers(1, most_words))
    tiles = list("".join(draw(st.sampled_from(words)) for _ in range(count)))
    tiles += draw(st.text("ABC", max_size=2))
    for k in draw(st.lists(st.integers(0, len(tiles) - 1), max_size=2)):
        tiles[k] = "?"
    return words, "".join(draw(st.permutations(tiles)))


@settings(max_examples=50, deadline=None)
@given(puzzle=racks_for(1), subsets=st.booleans())
def test_anagrams_mark_the_letters_blanks_stand_for(puzzle, subsets):
    words, rack = puzzle
    lex = Lexicon.from_words(words)
    plain = lex.anagrams(rack, subsets=subsets)
    marked = lex.anagrams(rack, subsets=subsets, mark_blanks=True)
    assert [w.upper() for w in marked] == plain
    assert set(plain) == reference.anagrams(list(set(words)), rack, subsets=subsets)
    assert marked == [natural_first(w, rack) for w in plain]


@st.composite
def patterns_for(draw: st.DrawFn) -> tuple[list[str], str, str]:
    """A word list over two letters, a pattern one of its words matches (each
    letter kept, or left to a '?' or a '*'), and a rack with the tiles the
    wildcards take, one or two of them blanks, and up to two more."""
    words = draw(st.lists(st.text("AB", min_size=2, max_size=5), min_size=1, max_size=20))
    pattern, taken = "*" if draw(st.booleans()) else "", []
    for c in draw(st.sampled_from(words)):
        how = draw(st.sampled_from(["letter", "?", "*", "*"]))
        if how == "letter":
            pattern += c
        else:
            taken.append(c)
            pattern += "?" if how == "?" else "" if pattern.endswith("*") else "*"
    for k in draw(st.lists(st.integers(0, max(len(taken) - 1, 0)), min_size=1, max_size=2)):
        if taken:
            taken[k] = "?"
    taken += draw(st.text("AB?", max_size=2))
    return words, pattern, "".join(draw(st.permutations(taken)))


@settings(max_examples=100, deadline=None)
@given(puzzle=patterns_for())
def test_patterns_with_a_rack_mark_the_letters_blanks_stand_for(puzzle):
    words, pattern, rack = puzzle
    lex = Lexicon.from_words(words)
    plain = lex.pattern(pattern, rack=rack)
    marked = lex.pattern(pattern, rack=rack, mark_blanks=True)
    assert [w.upper() for w in marked] == plain
    assert marked == [pattern_marked(w, pattern, rack) for w in plain]
    assert lex.pattern(pattern, mark_blanks=True) == lex.pattern(pattern)  # no rack, no marks


@settings(max_examples=40, deadline=None)
@given(puzzle=racks_for(2))
def test_multi_word_anagrams_mark_the_letters_blanks_stand_for(puzzle):
    words, phrase = puzzle
    lex = Lexicon.from_words(words)
    plain = lex.multi_anagrams(phrase, max_words=3, limit=300)
    marked = lex.multi_anagrams(phrase, max_words=3, limit=300, mark_blanks=True)
    assert [m.upper() for m in marked] == plain
    for text in marked:  # blanks for the last letters the phrase is short of
        joined = natural_first(text.upper().replace(" ", ""), phrase)
        assert text.replace(" ", "") == joined
    if "?" not in phrase:
        assert set(plain) == reference.multi_anagrams(list(set(words)), phrase, max_words=3)


def test_blank_marks_examples():
    lex = Lexicon.from_words(["CHAT", "TACT", "CAT", "ACT", "SCAT", "TA", "AT"])
    assert lex.anagrams("CAT?") == ["CHAT", "SCAT", "TACT"]
    assert lex.anagrams("CAT?", mark_blanks=True) == ["ChAT", "sCAT", "TACt"]
    assert lex.anagrams("CAT?", subsets=True, mark_blanks=True) == [
        "ChAT", "sCAT", "TACt", "ACT", "CAT", "AT", "TA"]
    assert lex.pattern("?A*", rack="C??", mark_blanks=True) == ["CAt", "tA", "tACt"]
    # ABA matches *A* two ways, each with a blank: the later one is marked
    assert Lexicon.from_words(["ABA"]).pattern("*A*", rack="B?", mark_blanks=True) == ["ABa"]
    assert Lexicon.from_words(["ABBA"]).pattern("*B*", rack="AB?", mark_blanks=True) == [
        "ABBa"]
    assert lex.multi_anagrams("AT?AT", mark_blanks=True) == ["AcT AT", "AcT TA", "AT cAT",
                                                             "cAT TA"]


# -------------------------------------------------------------- command line
def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture()
def word_file(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("\n".join(["CHAT", "TACT", "CAT", "ACT", "SCAT", "TA", "AT", "AREA",
                               "DREED", "SELLS", "TWEET", "TO", "BE", "OR", "IT", "THAT",
                               "THIS"]) + "\n")
    return str(path)


def test_cli_anagram_pattern_and_multi_mark_blanks_but_not_in_json(capsys, word_file):
    lex = Lexicon.load(word_file)
    code, out, _ = run(capsys, "words", "anagram", "--lexicon", word_file, "CAT?")
    assert (code, out.split()) == (0, lex.anagrams("CAT?", mark_blanks=True))
    assert "ChAT" in out.split()
    _, out, _ = run(capsys, "words", "anagram", "--lexicon", word_file, "CAT?", "--json")
    assert json.loads(out) == lex.anagrams("CAT?")
    _, out, _ = run(capsys, "words", "pattern", "--lexicon", word_file, "?A*", "--rack", "C??")
    assert out.split() == lex.pattern("?A*", rack="C??", mark_blanks=True)
    _, out, _ = run(capsys, "words", "multi", "--lexicon", word_file, "TACT?A")
    assert out.splitlines() == lex.multi_anagrams("TACT?A", mark_blanks=True)
    assert any(c.islower() for c in out)


def test_cli_decode(capsys, word_file):
    lex = Lexicon.load(word_file)
    code, out, err = run(capsys, "words", "decode", "--lexicon", word_file, "XQZZX", "AB")
    assert code == 0 and err == ""
    assert out.splitlines() == [" ".join(a) for a in lex.decode(["XQZZX", "AB"]).answers]
    code, out, err = run(capsys, "words", "decode", "--lexicon", word_file, "XQZZX",
                         "--limit", "1")
    assert (code, len(out.splitlines())) == (0, 1)
    assert err == "rackety: stopped at --limit 1: there may be more answers\n"
    _, out, _ = run(capsys, "words", "decode", "--lexicon", word_file, "ABCA", "--json")
    assert json.loads(out) == {"ciphers": ["ABCA"], "answers": [["AREA"], ["TACT"], ["THAT"]],
                               "keys": [{"A": "A", "B": "R", "C": "E"},
                                        {"A": "T", "B": "A", "C": "C"},
                                        {"A": "T", "B": "H", "C": "A"}],
                               "complete": True, "stopped": None}
    code, out, err = run(capsys, "words", "decode", "--lexicon", word_file, "A1")
    assert (code, out) == (2, "") and err.count("\n") == 1 and "has letter '1'" in err
    code, _, err = run(capsys, "words", "decode", "--lexicon", word_file, "AB", "--limit", "0")
    assert code == 2 and "--limit" in err


def test_cli_acrostic(capsys, word_file):
    quotation = "To be, or not to be: that is the question."
    code, out, _ = run(capsys, "words", "acrostic", "--lexicon", word_file, quotation,
                       "--length", "4", "--first", "t")
    assert (code, out.split()) == (0, ["THAT", "THIS"])
    code, out, _ = run(capsys, "words", "acrostic", "--lexicon", word_file, quotation,
                       "--length", "4", "--first", "T", "--used", "THAT", "--json")
    assert (code, json.loads(out)) == (0, ["THIS"])
    code, out, err = run(capsys, "words", "acrostic", "--lexicon", word_file, quotation,
                         "--length", "4", "--first", "T", "--used", "THAT", "--used", "THAT")
    assert (code, out) == (2, "")
    assert err == "rackety: error: answer 'THAT' needs 1 'A', and the quotation has 0 left\n"
    code, _, err = run(capsys, "words", "acrostic", "--lexicon", word_file, quotation,
                       "--first", "T")
    assert code == 2 and "--length" in err


def test_cli_help_lists_every_option(capsys):
    for command, options in [("decode", ["--limit", "--json", "--lexicon"]),
                             ("acrostic", ["--length", "--first", "--used", "--json"])]:
        code, out, _ = run(capsys, "words", command, "--help")
        assert code == 0 and all(option in out for option in options)
