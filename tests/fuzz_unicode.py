"""The fuzz reader ``unicode`` (issue 33, points 6 and 7): text as people type
it, in every Unicode form, wherever text becomes tiles.

A payload is ``{"alphabet": NAME, "target": WHERE, "text": TEXT}``, where WHERE
is one of `TARGETS`:

* ``word``: `Alphabet.word` and ``text in lexicon`` (a small lexicon of the
  alphabet, `WORDS`);
* ``list``: the text as a word list file's bytes (`parse_bytes`; ``"skip":
  true`` drops bad words instead);
* ``move``: `parse_move` on an empty board of the alphabet;
* ``rack``: a CGP whose rack is the text;
* ``anagram``, ``pattern``, ``hooks``: the word tools of the small lexicon.

The text is hostile on purpose: decomposed (NFD, NFKD) or half so, combining
marks alone or stacked, look-alikes of a label's punctuation (Catalan's middle
dot), zero-width joiners, direction marks, byte-order marks, fullwidth and
compatibility letters, lone surrogates (escaped in the corpus's JSON).

`run` checks the contract (accepted, or refused in one line of at most 300
characters) and the invariant of point 6: the text, its NFC form and its NFD
form are canonically equal, so they give the same outcome and, when accepted,
the same tiles (or the same answer of a word tool); otherwise a `ContractError`
"readback". A payload with ``"valid": true`` must be accepted (a word: in the
lexicon; a tool: with an answer): else "expectation".
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Any

import fuzzing

SANDBOXED = False  # text only: the kernels see tile codes the tokenizer made

TARGETS = ("word", "list", "move", "rack", "anagram", "pattern", "hooks")

#: a few words of each language as people write them (accents, Catalan L·L,
#: Spanish digraphs in brackets): the small lexicon of each alphabet
WORDS: dict[str, tuple[str, ...]] = {
    "english": ("cat", "act", "tea", "eat", "ate", "eta", "sat", "quiz", "ox", "ax"),
    "french": ("été", "café", "élève", "noël", "garçon", "cœur", "maïs", "île", "où", "âge",
               "œuf", "ça"),
    "german": ("straße", "über", "äpfel", "öl", "größe", "mädchen", "ja", "ße"),
    "spanish": ("año", "niño", "camión", "pingüino", "acción", "[ch]ico", "ca[ll]e",
                "pe[rr]o", "él", "ñu"),
    "catalan": ("col·legi", "plaça", "això", "paral·lel", "cèl·lula", "pinyó", "què", "any",
                "qui", "il·lusió", "ça"),
    "italian": ("città", "perché", "più", "caffè", "sì"),
    "dutch": ("ĳs", "café", "één", "ja", "zee", "ruïne"),
    "polish": ("żółć", "gęś", "źdźbło", "łąka", "ćma", "pączek", "koń", "ósmy", "ja"),
    "norwegian": ("blåbær", "øl", "ære", "går", "ja"),
    "swedish": ("åka", "öl", "äta", "ja", "får"),
    "portuguese": ("ação", "pão", "avó", "até", "já", "maçã"),
    "slovene": ("čaj", "šola", "žaba", "ja", "ježek"),
}
_LANGUAGE = {"english_super": "english", "english_hong_kong": "english",
             "english_wwf": "english", "english_lexulous": "english",
             "catalan_super": "catalan"}

COMBINING = ("\u0301", "\u0300", "\u0302", "\u0308", "\u0327", "\u0328", "\u0307", "\u030c",
             "\u0303", "\u030a", "\u0338", "\u0345", "\u0344", "\u20dd", "\u0323")
INVISIBLE = ("\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u202e", "\u2066", "\ufeff",
             "\u00ad", "\u2060", "\u034f", "\u00a0", "\u3000", "\u2028", "\u180e")
LOOK_ALIKES = ("\u00b7", "\u0387", "\u2022", "\u2027", "\u2219", "\u22c5", "\u2e31", "\u30fb",
               "\uff65", "\u16eb", "\u1427", "\ua78f", "\U00010101", ".", "-", "\u0140",
               "\u013f", "\u2024", "\u00b8")
COMPATIBILITY = ("\uff21", "\uff45", "\uff4c", "\ufb01", "\ufb00", "\u01c4", "\u01c5", "\u0132",
                 "\u017f", "\u212b", "\u212a", "\u2126", "\u0130", "\u0131", "\u1e9e",
                 "\u00b2", "\uff11", "\u0663", "\u2460", "\U0001d400", "\ud55c", "\u1100")
SURROGATES = ("\ud800", "\udfff", "\udc80", "\udcff")
HOSTILE_CHARS = COMBINING + INVISIBLE + LOOK_ALIKES + COMPATIBILITY + SURROGATES
FORMS = ("NFC", "NFD", "NFKC", "NFKD", "mixed", "as typed")


def language(name: str) -> str:
    """The `WORDS` of alphabet ``name``."""
    return _LANGUAGE.get(name, name)


@functools.cache
def _alphabet(name: str) -> Any:
    from rackety import Alphabet

    return Alphabet.load(name, files=False)


@functools.cache
def small_lexicon(name: str) -> Any:
    """The lexicon of `WORDS` in alphabet ``name`` (built in memory, once)."""
    from rackety import Lexicon

    return Lexicon.from_words(WORDS[language(name)], _alphabet(name), name=f"small-{name}")


@functools.cache
def _empty_board(name: str) -> Any:
    from rackety import Board

    return Board.empty(_alphabet(name))


def _center(name: str) -> str:
    size = _empty_board(name).layout.size
    return f"{size // 2 + 1}{chr(65 + size // 2)}"


def _empty_cgp(name: str) -> str:
    size = _empty_board(name).layout.size
    return "/".join([str(size)] * size)


# ----------------------------------------------------------------- running
def _call(name: str, target: str, text: str, skip: bool) -> Any:
    """What reading ``text`` at ``target`` gives, as a comparable value (raises
    `RacketyError` on a refusal)."""
    alphabet = _alphabet(name)
    if target == "word":
        tiles = tuple(alphabet.word(text))
        return tiles, text in small_lexicon(name)
    if target == "list":
        from rackety.lexicon.wordlist import parse_bytes

        words = parse_bytes(text.encode("utf-8", "surrogatepass"), alphabet,
                            source="list.txt", skip_invalid=skip)
        return (words.tiles.tobytes(), tuple(words.lengths.tolist()), words.skipped,
                words.duplicates)
    if target == "move":
        from rackety.game.move import parse_move

        move = parse_move(text, _empty_board(name))
        return str(move), tuple(move.tiles), tuple(move.through)
    if target == "rack":
        from rackety import Board

        board = Board.from_cgp(f"{_empty_cgp(name)} {text}/ 0/0 0 ld {name};", files=False)
        return tuple(board.racks[0])
    lexicon = small_lexicon(name)
    if target == "anagram":
        return tuple(lexicon.anagrams(text, subsets=True))
    if target == "pattern":
        return tuple(lexicon.pattern(text))
    if target == "hooks":
        hooks = lexicon.hooks(text)
        return hooks.word, hooks.valid, hooks.front, hooks.back
    raise ValueError(target)


def _found(target: str, value: Any) -> bool:
    """Whether an accepted ``value`` says what a valid payload promises."""
    if target == "word":
        return bool(value[1])
    if target == "list":
        return value[2] == 0
    if target == "hooks":
        return bool(value[1])
    if target in ("anagram", "pattern"):
        return bool(value)
    return True


def run(payload: dict[str, Any], ctx: fuzzing.Context) -> str:
    """Read the payload's text where it says, then its NFC and NFD forms: the
    contract on each, and the same outcome and value for all three."""
    name, target, text = payload["alphabet"], payload["target"], payload["text"]
    skip = bool(payload.get("skip"))
    if language(name) not in WORDS or target not in TARGETS or not isinstance(text, str):
        raise ValueError(f"not a unicode payload: {fuzzing.describe_input(payload)}")
    where = f"unicode {target} in {name}"
    outcome, value = fuzzing.attempt(lambda: _call(name, target, text, skip), where)
    if payload.get("valid") and (outcome != "accepted" or not _found(target, value)):
        raise fuzzing.ContractError("expectation", f"{where}: {fuzzing.clip(repr(text))} gave "
                                                   f"{outcome} {fuzzing.clip(repr(value))}; it "
                                                   "reads as a valid word")
    for form in ("NFC", "NFD"):
        other = unicodedata.normalize(form, text)
        if other == text:
            continue
        got = fuzzing.attempt(lambda o=other: _call(name, target, o, skip), f"{where} ({form})")
        if got != (outcome, value):
            raise fuzzing.ContractError(
                "readback", f"{where}: {fuzzing.clip(repr(text))} is {outcome} "
                            f"{fuzzing.clip(repr(value), 80)}, its {form} form "
                            f"{fuzzing.clip(repr(other))} is {got[0]} "
                            f"{fuzzing.clip(repr(got[1]), 80)}")
    return outcome


# ------------------------------------------------------------ the inputs
def _p(name: str, target: str, text: str, **extra: Any) -> dict[str, Any]:
    return {"alphabet": name, "target": target, "text": text, **extra}


def _nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def hostile() -> tuple[tuple[str, dict[str, Any], str | None], ...]:
    """The named inputs: decomposed words that must read (``valid``), and
    hostile characters that must be refused."""
    refused = "refused"
    ok: list[tuple[str, dict[str, Any], str | None]] = [
        ("french-ete-nfd-word", _p("french", "word", _nfd("ÉTÉ"), valid=True), None),
        ("french-ete-nfd-lower", _p("french", "word", _nfd("été"), valid=True), None),
        ("french-list-nfd", _p("french", "list", _nfd("\n".join(WORDS["french"])),
                               valid=True), None),
        ("polish-list-nfd", _p("polish", "list", _nfd("\r\n".join(WORDS["polish"])),
                               valid=True), None),
        ("spanish-list-nfd", _p("spanish", "list", _nfd("\n".join(WORDS["spanish"])),
                                valid=True), None),
        ("catalan-list-nfd", _p("catalan", "list", _nfd("\n".join(WORDS["catalan"])),
                                valid=True), None),
        ("catalan-list-nfkd", _p("catalan", "list", unicodedata.normalize(
            "NFKD", "col\u0140legi\nparal\u2022lel\nc\u00e8l\u2219lula\n"), valid=True), None),
        ("catalan-bullet", _p("catalan", "word", "COL\u2022LEGI", valid=True), None),
        ("catalan-hyphenation-point", _p("catalan", "word", "col\u2027legi", valid=True), None),
        ("catalan-bullet-operator", _p("catalan", "word", "COL\u2219LEGI", valid=True), None),
        ("catalan-dot-operator", _p("catalan", "word", "COL\u22c5LEGI", valid=True), None),
        ("catalan-greek-ano-teleia", _p("catalan", "word", "COL\u0387LEGI", valid=True), None),
        ("catalan-katakana-middle-dot", _p("catalan", "word", "COL\u30fbLEGI", valid=True),
         None),
        ("catalan-l-with-middle-dot", _p("catalan", "word", "CO\u013fLEGI", valid=True), None),
        ("catalan-super-bullet-rack", _p("catalan_super", "rack", "A[L\u2022L]\u0043\u0327?"),
         None),
        ("french-move-nfd-blanks", _p("french", "move", _nfd("8H e\u0301TE\u0301")), None),
        ("polish-move-nfd", _p("polish", "move", _nfd("H8 ŻÓŁĆ")), None),
        ("catalan-move-lookalike", _p("catalan", "move", "8D COL\u2022LEGI"), None),
        ("polish-rack-nfd", _p("polish", "rack", _nfd("ŻÓŚĆĘ?Ą")), None),
        ("spanish-rack-nfd", _p("spanish", "rack", _nfd("AÑ[LL]1?")), None),
        ("french-anagram-nfd", _p("french", "anagram", _nfd("ÉTÉ"), valid=True), None),
        ("french-pattern-nfd", _p("french", "pattern", _nfd("É?É"), valid=True), None),
        ("french-hooks-nfd", _p("french", "hooks", _nfd("élève"), valid=True), None),
        ("german-capital-sharp-s", _p("german", "word", "STRA\u1e9eE", valid=True), None),
        ("dutch-ij-ligature", _p("dutch", "word", "\u0132S", valid=True), None),
        ("swedish-angstrom-sign", _p("swedish", "word", "\u212bKA", valid=True), None),
        ("norwegian-nfd-ring", _p("norwegian", "word", _nfd("blåbær"), valid=True), None),
        ("english-ligature-fi-upper-cases", _p("english", "word", "\ufb01x"), None),
        ("list-bom-first", _p("french", "list", "\ufeff" + _nfd("été\ncafé")), None),
    ]
    bad = [
        ("combining-mark-alone", _p("french", "word", "\u0301")),
        ("combining-marks-stacked", _p("french", "word", "E\u0301\u0301\u0301\u0301")),
        ("combining-grapheme-joiner", _p("french", "word", "E\u034f\u0301TE")),
        ("zero-width-joiner", _p("english", "word", "C\u200dAT")),
        ("zero-width-space", _p("catalan", "list", "col\u200b\u00b7legi\n")),
        ("right-to-left-mark", _p("polish", "rack", "\u200fŻÓŁ")),
        ("right-to-left-override", _p("english", "move", "8H \u202eTAC")),
        ("bom-in-the-middle", _p("french", "word", "ÉT\ufeffÉ")),
        ("soft-hyphen", _p("german", "word", "STRA\u00adSSE")),
        ("fullwidth-letters", _p("english", "word", "\uff23\uff21\uff34")),
        ("fullwidth-digit-spanish-alias", _p("spanish", "word", "\uff11ICO")),
        ("arabic-indic-digit-spanish-alias", _p("spanish", "rack", "\u0663A")),
        ("superscript-two", _p("spanish", "word", "CA\u00b2E")),
        ("catalan-full-stop", _p("catalan", "word", "COL.LEGI")),
        ("catalan-hyphen", _p("catalan", "word", "COL-LEGI")),
        ("catalan-one-dot-leader", _p("catalan", "word", "COL\u2024LEGI")),
        ("lone-surrogate-word", _p("french", "word", "\u00c9T\ud800")),
        ("lone-surrogate-list", _p("polish", "list", "ŻÓŁĆ\n\udcff\n")),
        ("lone-surrogate-move", _p("english", "move", "8H CA\udfff")),
        ("lone-surrogate-pattern", _p("english", "pattern", "C?\ud800")),
        ("hangul-nfd", _p("english", "word", _nfd("\ud55c\uad6d"))),
        ("mark-after-bracket", _p("catalan", "rack", "[\u0301NY]A")),
        ("mark-after-blank", _p("french", "rack", "?\u0301AB")),
        ("no-break-space-in-word", _p("english", "word", "C\u00a0AT")),
        ("line-separator", _p("english", "anagram", "CAT\u2028")),
    ]
    return tuple(ok) + tuple((n, p, refused) for n, p in bad)


def _spelled(name: str, ch: fuzzing.RandomChooser) -> str:
    """A word of the small lexicon, or tiles drawn at random, in some case."""
    alphabet = _alphabet(name)
    if ch.chance(70):
        word = ch.choice(WORDS[language(name)])
    else:
        letters = [t.label for t in alphabet.letters]
        tiles = [ch.choice(letters) for _ in range(1 + ch.below(8))]
        word = "".join(f"[{t}]" if len(t) > 1 and t in alphabet.ambiguous else t for t in tiles)
    case = ch.below(4)
    return word.upper() if case == 0 else word.lower() if case == 1 else \
        word.title() if case == 2 else word


def _base(name: str, target: str, ch: fuzzing.RandomChooser) -> str:
    """A text of the kind ``target`` reads, before any hostile change."""
    alphabet = _alphabet(name)
    if target in ("word", "hooks"):
        return _spelled(name, ch)
    if target == "list":
        sep = ch.choice(("\n", "\r\n", "\n\n"))
        return sep.join(_spelled(name, ch) for _ in range(1 + ch.below(6))) + \
            ("\n" if ch.chance(50) else "")
    if target == "move":
        if ch.chance(15):
            return "exch " + _rack(name, ch)
        word = _spelled(name, ch)
        square = _center(name)
        return f"{square} {word}" if ch.chance(60) else f"{square[-1]}{square[:-1]} {word}"
    if target in ("rack", "anagram"):
        return _rack(name, ch)
    word = _spelled(name, ch)  # a pattern: some tiles of a word as wildcards
    out = []
    for c in word:
        out.append(ch.choice(("?", "*")) if c.isalpha() and ch.chance(25) else c)
    return "".join(out) or alphabet.letters[0].label


def _rack(name: str, ch: fuzzing.RandomChooser) -> str:
    alphabet = _alphabet(name)
    tiles = []
    for _ in range(1 + ch.below(alphabet.rack_size)):
        tile = ch.choice(alphabet.tiles)
        tiles.append(f"[{tile.label}]" if len(tile.label) > 1 else tile.label)
    return "".join(tiles)


def _form(text: str, ch: fuzzing.RandomChooser) -> str:
    """``text`` in one of `FORMS` ("mixed": each character composed or not)."""
    form = ch.choice(FORMS)
    if form == "as typed":
        return text
    if form == "mixed":
        return "".join(unicodedata.normalize(ch.choice(("NFC", "NFD")), c) for c in text)
    return unicodedata.normalize(form, text)


def _hostile_change(text: str, ch: fuzzing.RandomChooser) -> str:
    """Hostile characters put in, a label's punctuation swapped for a
    look-alike, or one of `fuzzing.mutate`'s changes."""
    roll = ch.below(100)
    if roll < 30 and "\u00b7" in text:
        return text.replace("\u00b7", ch.choice(LOOK_ALIKES))
    if roll < 80:
        for _ in range(1 + ch.below(3)):
            pos = ch.below(len(text) + 1)
            text = text[:pos] + ch.choice(HOSTILE_CHARS) * (1 + ch.below(3)) + text[pos:]
        return text
    return fuzzing.mutate(text, ch)


def generate(ch: fuzzing.RandomChooser) -> tuple[dict[str, Any], str | None]:
    """One input: a named one as made (12 in 100), else a text of an alphabet
    for a target, in some Unicode form, with hostile changes most of the time."""
    if ch.chance(12):
        _, payload, expect = ch.choice(hostile())
        return payload, expect
    name = ch.choice(sorted([*WORDS, *_LANGUAGE]))
    target = ch.choice(TARGETS)
    text = _form(_base(name, target, ch), ch)
    if ch.chance(75):
        text = _hostile_change(text, ch)
    payload = _p(name, target, text)
    if target == "list" and ch.chance(30):
        payload["skip"] = True
    return payload, None
