"""Built-in lexicons for other languages, made from the free word lists a
system installs (Debian's ``w*`` word lists and Hunspell dictionaries).

Each language is data, a `Language`: its name (``CATALAN``), its tile set (the
alphabet), where its words come from (a Debian package and the path it
installs, and whether that is a plain list or a Hunspell dictionary to expand),
the licence its Debian copyright file gives, the number of words it makes and
the one command that installs it. rackety never copies a list: it reads it
where the package installed it, on first use, and caches the compiled graph
like any word list (`rackety.lexicon.cache`, keyed by the source's bytes, the
filter's version and the alphabet).

One filter serves every language (`filter_text`), driven by the alphabet's
data, never by code per language. In order:

1. drop a line with an upper-case letter (proper nouns, abbreviations), an
   apostrophe, a hyphen, a dot, a digit or a bracket; in German, which writes
   its common nouns with a capital, only a capital after the first letter drops
   a word (``capital_nouns``: the lists do not mark proper nouns, so German
   keeps names such as BERLIN);
2. compose (NFC: a decomposed list reads as a composed one), upper-case and
   fold the accents the tile set ignores (the alphabet's ``fold``: French and
   Catalan fold their accents, Spanish keeps Ñ, German spells ß as SS, the
   Nordic sets keep Å Ä Ö Æ Ø as tiles);
3. split the word into tiles by longest match over every tile label, so that
   Catalan reads L·L, NY and QU, and Spanish CH, LL and RR, as single tiles;
4. drop the word if any character is not a tile (Catalan: a Y outside NY, a Q
   without U, a stray ·; Spanish: K, W) or if it has fewer than 2 or more than
   15 tiles (the standard board's side; Polish keeps 13 at most, since its
   longer words would not fit a KWG's 2^22 nodes);
5. remove duplicates.

Spanish: C+H, L+L and R+R are always the CH, LL and RR tiles. That is the rule of
the Spanish federation (FISE): the digraphs are single tiles, and a word cannot
spell one of them with two single tiles (CHICO is [CH]ICO, never C+H+ICO, and
PERRO is PE[RR]O). Plain text elsewhere in rackety reads ``CH`` as C + H (the
tokenizer reads an ambiguous label only in brackets, ``[CH]``); the filter reads
word lists of the language, where the rule holds.

Where a Hunspell dictionary gives more forms than the plain list (Spanish: the
``wspanish`` list has no verb conjugations; Swedish), the dictionary is expanded
with ``unmunch`` from hunspell-tools (maintained in Debian), run as a subprocess
with a timeout and a bound on its output. ``unmunch`` mishandles dictionaries
with two-character flags (``FLAG long``: Catalan, French and Dutch, whose
expansions come out garbled), and the Italian and Portuguese expansions run into
tens of millions of invented forms: those languages use the plain lists. Each
entry's ``note`` says why it uses its source.
"""

from __future__ import annotations

import codecs
import re
import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rackety.alphabet import ERR_NONE, Alphabet, tokenize_lines
from rackety.errors import RacketyError, clip
from rackety.files import read_bytes
from rackety.lexicon.wordlist import WordList, from_tiles

#: the filter's version: part of the cache key, so a changed filter rebuilds
#: (2: words read composed, NFC)
FILTER_VERSION = "2"
MIN_TILES = 2
MAX_TILES = 15  # the standard board's side: every language's set plays on it
MAX_SOURCE = 1 << 28  # bytes of a word list, a dictionary or unmunch's output
UNMUNCH_TIMEOUT = 300.0  # seconds (Spanish takes about half a second)
#: characters whose presence drops a line before anything else (step 1)
_DROPPED = re.compile(r"[0-9'’ʼ`´.\-‐‑–\[\]?/\\]")
COMPILED_ABOVE = 100_000  # code points: larger inputs use the compiled tokenizer
_tokenize_jit = None


@dataclass(frozen=True)
class Language:
    """A built-in lexicon of another language: where its words come from and
    what they make. ``kind`` is ``list`` (a word list, one word a line, in
    ``encoding``) or ``hunspell`` (``path`` is a ``.dic``, the ``.aff`` beside it
    and its ``SET`` give the rest, expanded by ``unmunch``)."""

    name: str
    language: str
    alphabet: str
    package: str  # the Debian package that installs the source
    path: str
    licence: str  # as the package's /usr/share/doc/<package>/copyright says
    words: int  # as built here (Debian 12)
    kind: str = "list"
    encoding: str = "utf-8"
    #: whether the language writes its common nouns with a capital (German):
    #: then only a capital after the first letter drops a word
    capital_nouns: bool = False
    #: the longest word kept, in tiles (a KWG addresses at most 2^22 nodes)
    max_tiles: int = MAX_TILES
    note: str = ""

    @property
    def install(self) -> str:
        """The one command that installs the source."""
        tools = " hunspell-tools" if self.kind == "hunspell" else ""
        return f"sudo apt-get install {self.package}{tools}"

    @property
    def source(self) -> str:
        """The source in words: the package and path, and how it is read."""
        if self.kind == "hunspell":
            return f"Debian {self.package}: {self.path}, expanded by unmunch"
        return f"Debian {self.package}: {self.path}"


LANGUAGES = {
    entry.name: entry
    for entry in (
        Language("CATALAN", "Catalan", "catalan", "wcatalan", "/usr/share/dict/catalan",
                 "GPL-2+", 541_008,
                 note="the list of the Catalan move-generation tests; hunspell-ca's "
                      "dictionary uses two-character flags, which unmunch cannot read"),
        Language("SPANISH", "Spanish", "spanish", "hunspell-es", "/usr/share/hunspell/es_ES.dic",
                 "GPL-3+ or LGPL-3+ or MPL-1.1+", 869_433, kind="hunspell",
                 note="wspanish has no verb conjugations (85,156 words); the expansion has "
                      "them, and verbs with enclitic pronouns too (DAME), which FISE's rules "
                      "do not admit"),
        Language("FRENCH", "French", "french", "wfrench", "/usr/share/dict/french",
                 "GPL-2+", 317_783,
                 note="hunspell-fr uses two-character flags, which unmunch cannot read"),
        Language("GERMAN", "German", "german", "wngerman", "/usr/share/dict/ngerman",
                 "GPL-2+", 300_219, capital_nouns=True,
                 note="German writes its nouns with a capital, so proper nouns cannot be "
                      "told apart and stay in; hunspell-de-de expands to fewer words"),
        Language("ITALIAN", "Italian", "italian", "witalian", "/usr/share/dict/italian",
                 "GPL-3+", 105_833,
                 note="the list has the verb forms; hunspell-it expands to 36 million lines, "
                      "mostly verbs with chains of enclitic pronouns, past the limits"),
        Language("DUTCH", "Dutch", "dutch", "wdutch", "/usr/share/dict/dutch",
                 "BSD (revised) or CC-BY-3.0", 299_555,
                 note="hunspell-nl uses two-character flags, which unmunch cannot read"),
        Language("POLISH", "Polish", "polish", "wpolish", "/usr/share/dict/polish",
                 "GPL-2 or LGPL-2.1 or MPL-1.1 or Apache-2.0 or CC-BY-4.0", 2_544_126,
                 max_tiles=13,
                 note="words of 2 to 13 tiles: all 3,276,062 words of 2 to 15 tiles need "
                      "4,731,148 nodes, more than a KWG's 4,194,304; hunspell-pl expands to "
                      "fewer words"),
        Language("PORTUGUESE", "Portuguese (Portugal)", "portuguese", "wportuguese",
                 "/usr/share/dict/portuguese", "GPL-2+ or LGPL-2.1+ or MPL-1.1", 372_737,
                 note="hunspell-pt-pt's expansion stacks prefixes into words no one writes"),
        Language("BRAZILIAN", "Portuguese (Brazil)", "portuguese", "wbrazilian",
                 "/usr/share/dict/brazilian", "GPL-2", 250_443,
                 note="hunspell-pt-br's expansion stacks prefixes into words no one writes"),
        Language("NORWEGIAN", "Norwegian (Bokmål)", "norwegian", "wnorwegian",
                 "/usr/share/dict/bokmaal", "GPL-2+", 681_188, encoding="iso-8859-1",
                 note="hunspell-no's expansion gives as many words (680,638)"),
        Language("SWEDISH", "Swedish", "swedish", "hunspell-sv", "/usr/share/hunspell/sv_SE.dic",
                 "LGPL-3", 670_870, kind="hunspell",
                 note="wswedish makes 111,048 words; the expansion six times as many"),
    )
}


def language(name: str) -> Language | None:
    """The built-in language lexicon called ``name`` (any case), if there is one."""
    return LANGUAGES.get(name.strip().upper())


def missing(entry: Language) -> str | None:
    """Why the source of ``entry`` cannot be read here (one line naming the
    command that installs it), or None when it can."""
    paths = [entry.path]
    if entry.kind == "hunspell":
        paths.append(str(Path(entry.path).with_suffix(".aff")))
    for path in paths:
        if not Path(path).is_file():
            return (f"lexicon {entry.name} needs {path} from the Debian package "
                    f"{entry.package}, which is not installed: {entry.install}")
    if entry.kind == "hunspell" and shutil.which("unmunch") is None:
        return (f"lexicon {entry.name} expands {entry.path} with unmunch from the Debian "
                f"package hunspell-tools, which is not installed: {entry.install}")
    return None


def installed(entry: Language) -> bool:
    """Whether the source of ``entry`` is on this machine."""
    return missing(entry) is None


def source_bytes(entry: Language) -> bytes:
    """The bytes the lexicon is made from (a Hunspell dictionary's ``.dic`` then
    its ``.aff``): what the cache key covers. Raises the one-line error naming
    the install command when the source is missing."""
    problem = missing(entry)
    if problem:
        raise RacketyError(problem)
    data = read_bytes(entry.path, "word list", MAX_SOURCE)
    if entry.kind == "hunspell":
        data += b"\0" + read_bytes(Path(entry.path).with_suffix(".aff"), "Hunspell affix file",
                                   MAX_SOURCE)
    return data


def cache_identity(entry: Language, alphabet: Alphabet) -> str:
    """What the cache key adds to the source's bytes: the entry, how it is read,
    the filter's version and the alphabet."""
    return (f"language {entry.name} {entry.kind} {entry.encoding} filter {FILTER_VERSION} "
            f"capital nouns {int(entry.capital_nouns)} tiles {MIN_TILES}-{entry.max_tiles} "
            f"{alphabet.identity}")


def _affix_encoding(aff: bytes) -> str:
    """The encoding a Hunspell affix file's ``SET`` names (ISO-8859-1 without one)."""
    found = re.search(rb"^SET\s+(\S+)", aff, re.MULTILINE)
    name = found.group(1).decode("ascii", "replace") if found else "ISO8859-1"
    try:
        return codecs.lookup(name).name
    except LookupError:
        raise RacketyError(f"Hunspell affix file: unknown encoding {clip(name)!r}") from None


def unmunch(dic: str | Path, aff: str | Path, *, timeout: float = UNMUNCH_TIMEOUT,
            limit: int = MAX_SOURCE) -> bytes:
    """Every word form of a Hunspell dictionary, one a line, as ``unmunch``
    (hunspell-tools) writes them, in the affix file's encoding: at most
    ``limit`` bytes in ``timeout`` seconds, else a one-line `RacketyError`."""
    program = shutil.which("unmunch")
    if program is None:
        raise RacketyError("unmunch is not installed: sudo apt-get install hunspell-tools")
    try:
        proc = subprocess.Popen([program, str(dic), str(aff)], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except OSError as exc:
        raise RacketyError(f"unmunch {clip(dic)}: cannot run it ({exc.strerror})") from None
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    chunks, size, too_big = [], 0, False
    try:
        assert proc.stdout is not None
        while chunk := proc.stdout.read(1 << 20):
            size += len(chunk)
            if size > limit:
                too_big = True
                proc.kill()
                break
            chunks.append(chunk)
        code = proc.wait()
    finally:
        timer.cancel()
        if proc.stdout is not None:
            proc.stdout.close()
    if too_big:
        raise RacketyError(f"unmunch {clip(dic)}: more than {limit:,} bytes of words")
    if code != 0:
        why = f"stopped after {timeout:g} s" if code < 0 else f"failed (exit status {code})"
        raise RacketyError(f"unmunch {clip(dic)}: {why}")
    return b"".join(chunks)


def source_text(entry: Language, data: bytes | None = None) -> str:
    """The words of ``entry``'s source as text, one a line: the list decoded,
    or the Hunspell dictionary expanded (``data``: its `source_bytes`, read
    again when not given)."""
    data = source_bytes(entry) if data is None else data
    if entry.kind == "hunspell":
        aff = data.partition(b"\0")[2]
        raw = unmunch(entry.path, Path(entry.path).with_suffix(".aff"))
        encoding = _affix_encoding(aff)
    else:
        raw, encoding = data, entry.encoding
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise RacketyError(f"{entry.path}:{line}: not {encoding} text") from None


def _tokenizer(points: int) -> Any:
    """`rackety.alphabet.tokenize_lines`, compiled by numba for a large input."""
    global _tokenize_jit
    if points <= COMPILED_ABOVE:
        return tokenize_lines
    if _tokenize_jit is None:
        from rackety.kernels.jit import njit

        _tokenize_jit = njit(cache=True)(tokenize_lines)
    return _tokenize_jit


def clean_lines(text: str, *, capital_nouns: bool = False) -> list[str]:
    """Step 1 of the filter: the lines (trimmed) that have no upper-case letter
    (with ``capital_nouns``, none after the first), apostrophe, hyphen, dot,
    digit or bracket."""
    lines = (line.strip() for line in text.split("\n"))
    if capital_nouns:
        return [w for w in lines
                if w and w[1:] == w[1:].lower() and not _DROPPED.search(w)]
    return [w for w in lines if w and w == w.lower() and not _DROPPED.search(w)]


def filter_text(text: str, alphabet: Alphabet, *, max_tiles: int = MAX_TILES,
                capital_nouns: bool = False) -> WordList:
    """Words of ``text`` (one a line) as tiles of ``alphabet`` by the module's
    filter (clean lines, fold, longest-match tiles, 2 to ``max_tiles`` tiles),
    sorted by tile codes and unique; ``skipped`` counts the lines dropped.
    ``capital_nouns``: see `Language`."""
    kept = clean_lines(text, capital_nouns=capital_nouns)
    n_lines = sum(1 for line in text.split("\n") if line.strip())
    folded = alphabet.fold("\n".join(kept))  # composed (NFC), upper case, folded
    cps = np.frombuffer(folded.encode("utf-32-le", "surrogatepass"), dtype="<u4").astype(
        np.int64)
    n = len(kept)
    codes = np.empty(len(cps), np.uint8)
    start, length, line, err, kind = (np.empty(n, np.int64) for _ in range(5))
    chars, first, nxt, _plain, anyc = alphabet.trie_arrays()
    # every label read by longest match, the ambiguous ones too (Spanish CH, LL,
    # RR): aliases are not labels, so the plain codes are the bracketed ones
    count = _tokenizer(len(cps))(cps, np.zeros(0, np.uint8), False, chars, first, nxt, anyc,
                                 anyc, codes, start, length, line, err, kind) if n else 0
    start, length, kind = start[:count], length[:count], kind[:count]
    good = (kind == ERR_NONE) & (length >= MIN_TILES) & (length <= max_tiles)
    start, length = start[good], length[good]
    if not len(length):
        return WordList(np.zeros((0, 1), np.uint8), np.zeros(0, np.int64), n_lines)
    offsets = np.repeat(start - (np.cumsum(length) - length), length)
    flat = codes[np.arange(int(length.sum())) + offsets]
    words = from_tiles(flat, length)
    words.skipped = n_lines - len(length)
    return words


def filter_words(words: list[str] | tuple[str, ...], alphabet: Alphabet | str, *,
                 max_tiles: int = MAX_TILES, capital_nouns: bool = False) -> list[str]:
    """`filter_text` on strings: the words kept, in tile order, each written as
    the alphabet writes tiles in moves (multi-letter tiles in brackets,
    ``[CH]ICO``), so that each reads back as the same tiles."""
    alpha = alphabet if isinstance(alphabet, Alphabet) else Alphabet.load(alphabet)
    for i, word in enumerate(words):
        if "\n" in word:
            raise RacketyError(f"word {i + 1} ({clip(word)!r}) contains a line break")
    result = filter_text("\n".join(words), alpha, max_tiles=max_tiles,
                         capital_nouns=capital_nouns)
    return [alpha.format(row[:n].tolist(), brackets=True)
            for row, n in zip(result.tiles, result.lengths.tolist(), strict=True)]


def status(entry: Language) -> dict[str, Any]:
    """What ``rackety lexicon list`` shows of ``entry``."""
    problem = missing(entry)
    return {"name": entry.name, "language": entry.language, "alphabet": entry.alphabet,
            "source": entry.source, "licence": entry.licence, "words": entry.words,
            "installed": problem is None, "install": entry.install, "note": entry.note}

