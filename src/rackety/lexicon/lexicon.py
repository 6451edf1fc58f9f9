"""`Lexicon`: a word graph (DAWG + GADDAG in one KWG array) and the word tools.

>>> lexicon = Lexicon.from_words(["CARE", "CARED", "CARES", "SCARE", "ACRE", "RACE"])
>>> "care" in lexicon, "CAR" in lexicon
(True, False)
>>> lexicon.anagrams("ACER")
['ACRE', 'CARE', 'RACE']
>>> lexicon.hooks("CARE")
Hooks(word='CARE', valid=True, front=('S',), back=('D', 'S'))
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from rackety import reprs
from rackety.alphabet import BLANK_FLAG, Alphabet
from rackety.errors import RacketyError, clip
from rackety.files import exists, read_bytes
from rackety.kernels.bits import GRAPH_ALPHAGRAMS, GRAPH_DAWG, GRAPH_GADDAG, arc_of
from rackety.lexicon import cache as _cache
from rackety.lexicon import kwg as _kwg
from rackety.lexicon import languages as _languages
from rackety.lexicon.sources import DEFAULT_LEXICON, builtin, builtin_names, builtin_path

if TYPE_CHECKING:
    from rackety.lexicon.probability import ProbabilityList
    from rackety.lexicon.query import Acrostic, Decoding

Progress = Callable[[str], AbstractContextManager[Any]]

_PHRASE_SEPARATORS = re.compile(r"[\s\-'’,.!]+")
MAX_WORD_LIST = 1 << 30  # bytes of a word list file (CSW19 has 3 MB)
MAX_MULTI = 500_000  # multi-word anagrams listed at once, without a limit
MULTI_BUDGET = 50_000_000  # steps of one multi-word anagram search (about 2.5 s)
#: names that say a file is text, never read as a KWG whatever its first bytes
TEXT_SUFFIXES = frozenset({".txt", ".text", ".lst", ".list", ".dic", ".dict", ".words",
                           ".wordlist", ".csv", ".tsv"})


def _sniffs_kwg(content: bytes) -> bool:
    """Whether the bytes start as a KWG does: node 0 is a root pointer (tile 0,
    last of its run, not accepting), in whole 4-byte nodes; text starts so only
    if it is not UTF-8 (UTF-16 and UTF-32 have byte-order marks, refused here)."""
    if len(content) < 4 or len(content) % 4 or content.startswith(
            (b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf")):
        return False
    return content[3] == 0 and content[2] & 0xC0 == 0x40


@dataclass(frozen=True)
class Hooks:
    """The tiles that can go before (``front``) and after (``back``) a word."""

    word: str
    valid: bool
    front: tuple[str, ...]
    back: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"word": self.word, "valid": self.valid, "front": list(self.front),
                "back": list(self.back)}


@dataclass
class BuildReport:
    """What building from a word list found: words kept, skipped and repeated."""

    words: int
    skipped: int = 0
    duplicates: int = 0
    first_problem: str = ""
    seconds: float = 0.0
    phases: dict[str, float] = field(default_factory=dict)


def _as_alphabet(alphabet: Alphabet | str | None) -> Alphabet:
    if isinstance(alphabet, Alphabet):
        return alphabet
    return Alphabet.load(alphabet or "english")


class Lexicon:
    """A lexicon: its KWG nodes (read-only uint32), alphabet and name.

    Make one with `Lexicon.load` (a built-in name, a word list file or a .kwg
    file) or `Lexicon.from_words`.
    """

    def __init__(self, nodes: np.ndarray, alphabet: Alphabet, name: str, *,
                 source: str = "", word_count: int | None = None,
                 report: BuildReport | None = None, checked: bool = False) -> None:
        """Wrap KWG nodes. They are validated (`rackety.lexicon.kwg.validate`)
        unless ``checked`` says they were already: rackety's own build, or a
        cache entry whose checksum matches."""
        if not isinstance(nodes, np.ndarray) or nodes.dtype != np.uint32 or nodes.ndim != 1:
            nodes = np.ascontiguousarray(np.asarray(nodes).ravel(), dtype=np.uint32)
        if nodes.flags.writeable or not nodes.flags.c_contiguous:
            nodes = nodes.copy()
            nodes.flags.writeable = False  # one numba type for every lexicon
        if not checked:
            counts = _kwg.validate(nodes, source or name, alphabet.size)
            word_count = int(counts[arc_of(int(nodes[_kwg.DAWG_ROOT]))])
        self.nodes = nodes
        self.alphabet = alphabet
        self.name = name
        self.source = source or name
        self.report = report
        self._word_count = word_count
        self.has_gaddag = _kwg.has_gaddag(nodes)
        #: what the graph holds, for the kernels that keep cross sets
        #: (`rackety.kernels.bits`: ``GRAPH_DAWG``, ``GRAPH_GADDAG``, or
        #: ``GRAPH_ALPHAGRAMS`` for `alphagrams`)
        self.graph = GRAPH_GADDAG if self.has_gaddag else GRAPH_DAWG
        self._multisets: tuple[np.ndarray, np.ndarray] | None = None
        self._alphagrams: Lexicon | None = None
        self._loaded: tuple[str, str | None, bool] | None = None  # `load`'s arguments

    # ------------------------------------------------------------------ making
    @classmethod
    def load(cls, source: str | Path = DEFAULT_LEXICON, alphabet: Alphabet | str | None = None,
             *, skip_invalid: bool = False, cache: bool = True,
             progress: Progress | None = None) -> Lexicon:
        """A lexicon by built-in name (``TWL06``, ``SOWPODS``, ``CSW19``, or another
        language's: ``CATALAN``, ``SPANISH`` ..., see `rackety.lexicon.languages`),
        word list path or KWG path. A word list is compiled once and cached on
        disk (keyed by its content and alphabet); later loads read the cached
        graph. Another language's lexicon is in its own alphabet (the default;
        another one is refused).

        A file is a KWG when it is called ``*.kwg``, or when its first node is a
        KWG's root pointer and its name does not say it is text (``*.txt``,
        ``*.lst``, ``*.dic`` ...); anything else is a word list."""
        lexicon = cls._load(source, alphabet, skip_invalid=skip_invalid, cache=cache,
                            progress=progress)
        given = None if alphabet is None else (alphabet if isinstance(alphabet, str)
                                               else alphabet.name)
        lexicon._loaded = (str(source), given, skip_invalid)
        return lexicon

    @classmethod
    def _load(cls, source: str | Path, alphabet: Alphabet | str | None, *,
              skip_invalid: bool, cache: bool, progress: Progress | None) -> Lexicon:
        entry = builtin(str(source))
        other = _languages.language(str(source)) if entry is None else None
        if other is not None:
            return cls._load_language(other, alphabet, cache=cache, progress=progress)
        alpha = _as_alphabet(alphabet)
        if entry is not None:
            path, name = builtin_path(entry), entry.name
        else:
            path, name = Path(source), Path(source).stem
            if not exists(path):
                raise RacketyError(f"unknown lexicon {clip(source)!r}: neither a built-in name "
                                   f"({', '.join(builtin_names())}) nor an existing file")
        kwg_named = path.suffix.lower() == ".kwg"
        content = read_bytes(path, "KWG file" if kwg_named else "word list or KWG file",
                             MAX_WORD_LIST if not kwg_named else 4 * _kwg.MAX_NODES)
        if kwg_named or (path.suffix.lower() not in TEXT_SUFFIXES and _sniffs_kwg(content)):
            return cls(_kwg.nodes_from_bytes(content, str(path)), alpha, path.stem,
                       source=str(path))

        key = _cache.cache_key(content, alpha.identity, skip_invalid)
        hit = cls._cached(key, alpha, name, str(path)) if cache else None
        if hit is not None:
            return hit

        status = progress(f"compiling lexicon {name} (first use)") if progress else nullcontext()
        with status:
            from rackety.lexicon.wordlist import parse_bytes

            lexicon = cls._build(parse_bytes(content, alpha, source=str(path),
                                             skip_invalid=skip_invalid),
                                 alpha, name, source=str(path))
        if cache:
            lexicon._store(key)
        return lexicon

    @classmethod
    def _load_language(cls, entry: _languages.Language, alphabet: Alphabet | str | None, *,
                       cache: bool, progress: Progress | None) -> Lexicon:
        """Another language's built-in lexicon (`rackety.lexicon.languages`):
        built from its installed source by the language filter on first use,
        then read from the cache (keyed by the source's bytes, the filter's
        version and the alphabet)."""
        alpha = Alphabet.load(entry.alphabet)
        if alphabet is not None:
            given = _as_alphabet(alphabet)
            if given.identity != alpha.identity:
                raise RacketyError(f"lexicon {entry.name} is in alphabet {entry.alphabet}, "
                                   f"not {given.name}")
            alpha = given
        content = _languages.source_bytes(entry)  # the one-line install error if missing
        key = _cache.cache_key(content, _languages.cache_identity(entry, alpha), False)
        hit = cls._cached(key, alpha, entry.name, entry.path) if cache else None
        if hit is not None:
            return hit
        how = ", expanded by unmunch" if entry.kind == "hunspell" else ""
        status = (progress(f"building lexicon {entry.name} from {entry.path}{how} (first use)")
                  if progress else nullcontext())
        with status:
            words = _languages.filter_text(_languages.source_text(entry, content), alpha,
                                           capital_nouns=entry.capital_nouns,
                                           max_tiles=entry.max_tiles)
            if not len(words):
                raise RacketyError(f"lexicon {entry.name}: {entry.path} has no word the tiles "
                                   f"of {alpha.name} spell")
            words.skipped = 0  # lines the filter drops by design are not problems
            lexicon = cls._build(words, alpha, entry.name, source=entry.path)
        if cache:
            lexicon._store(key)
        return lexicon

    @classmethod
    def _cached(cls, key: str, alphabet: Alphabet, name: str, source: str) -> Lexicon | None:
        """The lexicon the cache holds under ``key``, if its entry is sound."""
        hit = _cache.lookup(key)
        if hit is None:
            return None
        report = BuildReport(hit.words, hit.skipped, hit.duplicates, hit.first_problem)
        return cls(_kwg.nodes_from_bytes(hit.data, str(hit.path)), alphabet, name,
                   source=source, word_count=hit.words, report=report, checked=True)

    def _store(self, key: str) -> None:
        """Keep this freshly built lexicon in the cache under ``key``."""
        if self.report is None:
            return
        meta = {"name": self.name, "source": self.source, "alphabet": self.alphabet.name,
                "words": self.report.words, "skipped": self.report.skipped,
                "duplicates": self.report.duplicates,
                "first_problem": self.report.first_problem, "nodes": len(self.nodes)}
        _cache.store(key, self.nodes.tobytes(), meta)

    @classmethod
    def from_words(cls, words: Iterable[str], alphabet: Alphabet | str | None = None, *,
                   name: str = "words", gaddag: bool = True,
                   skip_invalid: bool = False) -> Lexicon:
        """A lexicon built in memory from strings (no cache)."""
        from rackety.lexicon.wordlist import words_from_strings

        alpha = _as_alphabet(alphabet)
        return cls._build(words_from_strings(list(words), alpha, source=name,
                                             skip_invalid=skip_invalid),
                          alpha, name, source=name, gaddag=gaddag)

    @classmethod
    def from_tiles(cls, flat: np.ndarray, lengths: np.ndarray,
                   alphabet: Alphabet | str | None = None, *, name: str = "words",
                   gaddag: bool = True) -> Lexicon:
        """A lexicon built in memory from tile strings stored one after another
        (``flat``, tile codes of the alphabet, no blank), each 2 to
        `MAX_WORD_LENGTH` tiles long (``lengths``)."""
        from rackety.lexicon.wordlist import MAX_WORD_LENGTH, MIN_WORD_LENGTH, from_tiles

        alpha = _as_alphabet(alphabet)
        flat, lengths = np.asarray(flat), np.asarray(lengths)
        if (flat.ndim != 1 or lengths.ndim != 1 or not len(lengths)
                or not np.issubdtype(flat.dtype, np.integer)
                or not np.issubdtype(lengths.dtype, np.integer)
                or int(lengths.min()) < MIN_WORD_LENGTH or int(lengths.max()) > MAX_WORD_LENGTH
                or int(lengths.sum()) != len(flat)
                or (len(flat) and not 0 < int(flat.min()) <= int(flat.max()) < alpha.size)):
            raise RacketyError(f"{name}: tile strings are codes 1 to {alpha.size - 1} of "
                               f"{alpha.name}, each {MIN_WORD_LENGTH} to {MAX_WORD_LENGTH} long, "
                               "one after another (lengths summing to their count)")
        return cls._build(from_tiles(flat, lengths), alpha, name, source=name, gaddag=gaddag)

    @classmethod
    def _build(cls, words: Any, alphabet: Alphabet, name: str, *, source: str,
               gaddag: bool = True) -> Lexicon:
        from rackety.lexicon.build import build_kwg

        phases: dict[str, float] = {}
        start = time.process_time()
        nodes = build_kwg(words, gaddag=gaddag, timings=phases)
        report = BuildReport(len(words), words.skipped, words.duplicates, words.first_problem,
                             time.process_time() - start, phases)
        # built here from words of 2 to MAX_WORD_LENGTH tiles: valid by construction
        return cls(nodes, alphabet, name, source=source, word_count=len(words), report=report,
                   checked=True)

    @classmethod
    def from_kwg(cls, path: str | Path, alphabet: Alphabet | str | None = None) -> Lexicon:
        """A lexicon from a KWG file (wolges, MAGPIE, Macondo or rackety),
        validated before anything walks it."""
        alpha = _as_alphabet(alphabet)
        nodes = _kwg.read_kwg(path, alpha.size, check=False)
        return cls(nodes, alpha, Path(path).stem, source=str(path))

    def save(self, path: str | Path) -> None:
        """Write the graph as a KWG file (atomically)."""
        _kwg.write_kwg(path, self.nodes)

    # ------------------------------------------------------------- properties
    def __repr__(self) -> str:
        """``Lexicon.load('TWL06')`` for a lexicon `load` read (evaluating back
        to an equal lexicon); one built in memory is ``Lexicon.from_words`` of
        its words, up to 1,000 of them (`rackety.reprs.LITERAL_LIMIT`), else a
        summary in angle brackets."""
        loaded = self._loaded
        if loaded is None:
            if len(self) > reprs.LITERAL_LIMIT:  # numpy's limit for writing out an array
                return f"<Lexicon {self.name}: {len(self):,} words, {self.node_count:,} nodes>"
            made: dict[str, object] = {} if self.alphabet.name == "english" else \
                {"alphabet": self.alphabet.name}
            if self.name != "words":
                made["name"] = self.name
            if not self.has_gaddag:
                made["gaddag"] = False
            return reprs.call("Lexicon.from_words", self.words(), **made) or \
                f"<Lexicon {self.name}: {len(self):,} words>"
        source, alphabet, skip = loaded
        extra = ("" if alphabet is None else f", {alphabet!r}") + \
            (", skip_invalid=True" if skip else "")
        return f"Lexicon.load({source!r}{extra})"

    def __eq__(self, other: object) -> bool:
        """The same words (the same graph) in the same tile set."""
        if not isinstance(other, Lexicon):
            return NotImplemented
        return self is other or (self.alphabet.identity == other.alphabet.identity
                                 and np.array_equal(self.nodes, other.nodes))

    def __hash__(self) -> int:
        return hash((self.alphabet.identity, len(self.nodes)))

    @property
    def node_count(self) -> int:
        return len(self.nodes)

    @property
    def nbytes(self) -> int:
        return 4 * len(self.nodes)

    def __len__(self) -> int:
        if self._word_count is None:
            counts = _kwg.validate(self.nodes, self.source, self.alphabet.size)
            self._word_count = int(counts[self.root(_kwg.DAWG_ROOT)])
        return self._word_count

    def info(self) -> dict[str, Any]:
        """Name, source, alphabet, words, nodes, bytes and whether there is a GADDAG."""
        return {"name": self.name, "source": self.source, "alphabet": self.alphabet.name,
                "words": len(self), "nodes": self.node_count, "bytes": self.nbytes,
                "gaddag": self.has_gaddag}

    def word_multisets(self) -> tuple[np.ndarray, np.ndarray]:
        """The words as letter multisets, for the move generator's bounds
        (`rackety.kernels.multisets`): (the bitmap of their hashes, the
        letters' keys). Made on first use (a walk of the DAWG, a few tens of
        milliseconds) and kept with the lexicon (2 MiB)."""
        if self._multisets is None:
            from rackety.kernels import multisets  # numba when moves are asked for

            keys = multisets.letter_keys()
            bitmap = multisets.word_bitmap(self.nodes, keys).view(np.int64)
            keys.flags.writeable = False
            bitmap.flags.writeable = False
            self._multisets = (bitmap, keys)
        return self._multisets

    def alphagrams(self) -> Lexicon:
        """The words' alphagrams as a lexicon of their own, for WordSmog (a
        play is valid when every word it forms is an anagram of a word,
        `rackety.game.wordsmog`): each word's tiles sorted by code (so a tile
        of several letters, Spanish CH, sorts as its one code), each
        alphagram once, in a DAWG-only KWG. Made on first use (one sort and
        one build, under a second for the largest lists) and kept with the
        lexicon. A tile string is an anagram of a word exactly when its
        codes, sorted, are in it. Its `graph` says so to the kernels, which
        then keep WordSmog's cross sets (`rackety.kernels.crosssets`)."""
        if self._alphagrams is None:
            from rackety.lexicon.build import build_kwg
            from rackety.lexicon.wordlist import from_tiles

            flat, lengths = self.word_tiles()
            owner = np.repeat(np.arange(len(lengths)), lengths)
            alphagrams = from_tiles(flat[np.lexsort((flat, owner))], lengths)
            made = Lexicon(build_kwg(alphagrams, gaddag=False), self.alphabet,
                           f"{self.name} alphagrams", source=self.source,
                           word_count=len(alphagrams), checked=True)
            made.graph = GRAPH_ALPHAGRAMS
            self._alphagrams = made
        return self._alphagrams

    def has_anagram(self, word: str | Iterable[int]) -> bool:
        """Whether ``word`` (text, or tile codes with blank flags ignored) is an
        anagram of a word: its codes, sorted, are one of `alphagrams`. The
        word check of WordSmog (`rackety.kernels.wordsmog.is_anagram` is the
        kernels' own)."""
        tiles = self._word_tiles(word)
        if not tiles:
            return False
        return sorted(tiles) in self.alphagrams()

    def root(self, pseudo: int) -> int:
        """The first node of the DAWG (``pseudo`` = `kwg.DAWG_ROOT`) or the GADDAG
        (`kwg.GADDAG_ROOT`): the arc index its pseudo-node points to."""
        return int(arc_of(int(self.nodes[pseudo])))

    # ------------------------------------------------------------- words
    def _word_tiles(self, word: str | Iterable[int]) -> list[int] | None:
        if isinstance(word, str):
            try:
                return self.alphabet.word(word)
            except RacketyError:
                return None
        return [int(t) & ~BLANK_FLAG for t in word]

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str | list | tuple | np.ndarray):
            return False
        tiles = self._word_tiles(word)
        if not tiles:
            return False
        index = _kwg.follow(self.nodes, _kwg.DAWG_ROOT, tiles)
        return index >= 0 and _kwg.accepts(int(self.nodes[index]))

    def __iter__(self) -> Iterator[str]:
        return iter(self.words())

    def words(self) -> list[str]:
        """Every word, in tile-code order (alphabetical for English)."""
        return self.alphabet.decode_many(*self.word_tiles())

    def word_tiles(self) -> tuple[np.ndarray, np.ndarray]:
        """Every word's tile codes, one word after another, and each word's length."""
        from rackety.lexicon.query import enumerate_strings

        flat: np.ndarray
        lens: np.ndarray
        flat, lens = enumerate_strings(self.nodes, self.root(_kwg.DAWG_ROOT), 1024)
        return flat, lens

    def _rack(self, rack: str, what: str = "rack") -> np.ndarray:
        codes = self.alphabet.tokenize(rack.upper().replace(" ", ""), blanks=True, what=what)
        counts = np.zeros(64, np.int64)
        for c in codes:
            counts[c & ~BLANK_FLAG] += 1
        return counts

    def _decode(self, flat: np.ndarray, lens: np.ndarray) -> list[str]:
        return self.alphabet.decode_many(flat & np.uint8(0x7F), lens)

    def anagrams(self, rack: str, *, subsets: bool = False, min_length: int = 2,
                 mark_blanks: bool = False, brackets: bool = False) -> list[str]:
        """Words that use every tile of ``rack`` (``?`` is a blank); with ``subsets``,
        every word of at least ``min_length`` tiles the rack can spell, longest
        first. Each group is in alphabetical (tile) order. With ``mark_blanks`` the
        letters the blanks stand for are in lower case, as in moves (``CAT?``:
        ``ChAT``): the rack's own tiles are used first, so the blanks are the last
        letters it is short of. With ``brackets`` a tile of several letters is
        written in brackets (``[CH]E``)."""
        from rackety.lexicon.query import anagram_walk

        counts = self._rack(rack)
        flat, lens = anagram_walk(self.nodes, self.root(_kwg.DAWG_ROOT), counts,
                                  max(min_length, 1), not subsets)
        words = self.alphabet.decode_many(flat if mark_blanks else flat & np.uint8(0x7F), lens,
                                          brackets=brackets)
        if subsets:
            order = sorted(range(len(words)), key=lambda i: (-int(lens[i]), i))
            words = [words[i] for i in order]
        return words

    def pattern(self, pattern: str, *, rack: str | None = None,
                mark_blanks: bool = False, brackets: bool = False) -> list[str]:
        """Words matching ``pattern``: a letter matches itself, ``?`` exactly one tile,
        ``*`` any run of zero or more tiles (``C?T*``). With ``rack``, the tiles that
        fill ``?`` and ``*`` must come from it (``?`` in the rack is a blank); the
        pattern's own letters are taken as already on the board. With
        ``mark_blanks`` the letters the rack's blanks stand for are in lower case
        (as few as can be, as late in the word as they can be). With ``brackets``
        a tile of several letters is written in brackets (``[CH]E``)."""
        from rackety.lexicon.query import WILD_ANY, fewest_blanks, pattern_set_walk, pattern_walk
        from rackety.lexicon.wordlist import MAX_WORD_LENGTH

        elems = self._parse_pattern(pattern)
        counts = self._rack(rack) if rack is not None else np.zeros(64, np.int64)
        if sum(1 for e in elems if e != WILD_ANY) > MAX_WORD_LENGTH:
            return []  # longer than any word
        max_len = MAX_WORD_LENGTH
        if WILD_ANY not in elems:
            max_len = len(elems)
        elif rack is not None:
            max_len = min(sum(1 for e in elems if e > 0) + int(counts.sum()), max_len)
        pat = np.asarray(elems, np.int64)
        root = self.root(_kwg.DAWG_ROOT)
        if rack is None:
            flat, lens = pattern_set_walk(self.nodes, root, pat, max(max_len, 1))
        else:  # what the wildcards take comes from the rack: each way is walked
            flat, lens = pattern_walk(self.nodes, root, pat, counts, True, max(max_len, 1))
            if mark_blanks:
                return self.alphabet.decode_many(*fewest_blanks(flat, lens), brackets=brackets)
        return self._unique_sorted(flat, lens, brackets)

    def _parse_pattern(self, pattern: str) -> list[int]:
        from rackety.lexicon.query import WILD_ANY, WILD_ONE

        text = pattern.strip()
        if not text:
            raise RacketyError("pattern is empty")
        elems: list[int] = []
        chunk = ""
        i = 0
        while i < len(text):
            ch = text[i]
            if ch in "?*":
                elems += self.alphabet.tokenize(chunk, blanks=False, what="pattern") if chunk \
                    else []
                chunk = ""
                if ch == "?":
                    elems.append(WILD_ONE)
                elif not elems or elems[-1] != WILD_ANY:
                    elems.append(WILD_ANY)
            elif ch == "[":
                close = text.find("]", i)
                if close < 0:
                    raise RacketyError(f"pattern {clip(text)!r}: '[' without a closing ']'")
                chunk += text[i:close + 1]
                i = close
            else:
                chunk += ch
            i += 1
        if chunk:
            elems += self.alphabet.tokenize(chunk, blanks=False, what="pattern")
        # a run of wildcards with a star in it is its '?'s then one '*' ("*?*?" is
        # "??*"): the same words, and a walk that cannot split them a hundred ways
        out: list[int] = []
        run: list[int] = []
        for e in [*elems, 0]:
            if e in (WILD_ONE, WILD_ANY):
                run.append(e)
                continue
            out += [WILD_ONE] * run.count(WILD_ONE) + ([WILD_ANY] if WILD_ANY in run else [])
            run = []
            out.append(e)
        return out[:-1]

    def _unique_sorted(self, flat: np.ndarray, lens: np.ndarray, brackets: bool = False
                       ) -> list[str]:
        from rackety.lexicon.wordlist import from_tiles

        if len(lens) == 0:
            return []
        words = from_tiles(flat & np.uint8(0x7F), lens)
        return self.alphabet.decode_many(words.flat(), words.lengths, brackets=brackets)

    def probability_order(self, length: int, *, blanks: int | None = None
                          ) -> ProbabilityList:
        """The alphagrams of the words of ``length`` tiles in probability order,
        as Zyzzyva ranks them for word study: by the draws of ``length`` tiles
        from a full bag that hold them, ``blanks`` blanks (the tile set's, by
        default) standing for any letter (`rackety.lexicon.probability`).

        >>> top = Lexicon.load("TWL06").probability_order(7)
        >>> top[0].rank, top[0].alphagram, top[0].words
        (1, 'ADEINOR', ('ANEROID',))
        """
        from rackety.lexicon.probability import ranked

        return ranked(self, length, blanks=blanks)

    def hooks(self, word: str) -> Hooks:
        """Front and back hooks of ``word`` (read from the GADDAG and the DAWG)."""
        tiles = self.alphabet.word(word)
        labels = self.alphabet.tiles
        text = self.alphabet.format(tiles)
        back: list[str] = []
        index = _kwg.follow(self.nodes, _kwg.DAWG_ROOT, tiles)
        valid = index >= 0 and _kwg.accepts(int(self.nodes[index]))
        if index >= 0:
            back = [labels[t].label for t, acc in _kwg.children(self.nodes, index) if acc]
        front: list[str] = []
        if self.has_gaddag:
            index = _kwg.follow(self.nodes, _kwg.GADDAG_ROOT, tiles[::-1])
            if index >= 0:
                front = [labels[t].label for t, acc in _kwg.children(self.nodes, index)
                         if acc and t != 0]
        else:
            front = [labels[t].label for t in range(1, self.alphabet.size)
                     if [t, *tiles] in self]
        return Hooks(text, valid, tuple(front), tuple(back))

    def multi_anagrams(self, phrase: str, *, min_length: int = 2, max_words: int | None = None,
                       limit: int | None = None, budget: int = MULTI_BUDGET,
                       mark_blanks: bool = False) -> list[str]:
        """Every way to spell all the tiles of ``phrase`` (spaces ignored, ``?`` a
        blank) as words of at least ``min_length`` tiles, at most ``max_words`` of
        them, each way once with its words in order: ``['DIRTY ROOM', ...]``,
        fewest words first. ``limit`` stops after that many. Without a limit, a
        phrase with more than `MAX_MULTI` ways, or whose search passes
        ``budget`` (candidate words examined: 5 x 10^7 take about 2.5 s), is refused
        (a long phrase can have billions). With ``mark_blanks`` the letters the
        blanks stand for are in lower case (the last ones the phrase is short of,
        `rackety.lexicon.query.with_blanks_marked`); the order is that of the words
        without marks."""
        from rackety.lexicon.query import anagram_walk, multi_search, with_blanks_marked

        counts = self._rack(_PHRASE_SEPARATORS.sub("", phrase), what="phrase")
        rack = counts.copy()
        total = int(counts.sum())
        # the candidates: every word of at least min_length tiles the phrase spells
        flat, lens = anagram_walk(self.nodes, self.root(_kwg.DAWG_ROOT), counts.copy(),
                                  max(min_length, 1), False)
        picks, per_result, stopped = multi_search(flat, lens, counts,
                                                  max_words or max(total, 1),
                                                  limit or MAX_MULTI + 1, budget)
        if limit is None and stopped:
            what = f"more than {MAX_MULTI:,} ways" if stopped == 1 else \
                f"more ways than a search of {budget:,} steps finds ({len(per_result):,} so far)"
            raise RacketyError(f"phrase {clip(phrase)!r} has {what}: give a limit, fewer "
                               "words or longer ones")
        words = self._decode(flat, lens)
        starts = np.cumsum(lens) - lens
        results, at = [], 0
        for n in per_result.tolist():
            chosen = sorted(picks[at:at + n].tolist(), key=words.__getitem__)
            plain = " ".join(words[i] for i in chosen)
            text = plain
            if mark_blanks and rack[0]:
                text = " ".join(self.alphabet.format(w) for w in with_blanks_marked(
                    [flat[starts[i]:starts[i] + lens[i]] for i in chosen], rack))
            results.append((plain.count(" "), plain, text))
            at += n
        return [text for *_, text in sorted(results)]

    def decode(self, ciphers: str | Iterable[str], *, limit: int = 1000,
               budget: int | None = None) -> Decoding:
        """Break a substitution cipher: the words each cipher word (``XQZZX``, or a
        letter-equality pattern such as ``ABCA``) can stand for, where a cipher
        tile stands for one plain tile throughout and two cipher tiles never for
        the same one. Several cipher words (a string is split at spaces) share
        one key: each answer is a tuple of words, one per cipher word, with the
        key. Cipher words are read as tiles by the alphabet. The graph is walked
        with the key as it fills (`rackety.lexicon.query.decode_walk`); at most
        ``limit`` answers (up to `rackety.lexicon.query.MAX_DECODE`) and
        ``budget`` nodes tried (default `rackety.lexicon.query.DECODE_BUDGET`,
        0 for none): a search stopped by either says so
        (`rackety.lexicon.query.Decoding`)."""
        from rackety.lexicon import query

        return query.decode(self, ciphers, limit=limit,
                            budget=query.DECODE_BUDGET if budget is None else budget)

    def acrostic(self, quotation: str, *, used: Iterable[str] = ()) -> Acrostic:
        """The letter pool of an acrostic on ``quotation`` (its letters, spaces and
        punctuation left out, accents folded as the alphabet reads text), less the
        letters of the answers ``used`` (one the pool cannot supply is refused):
        ``lexicon.acrostic(quotation).words(5, "T")`` lists the five-letter words
        starting with T the pool can spell; `rackety.lexicon.query.Acrostic.use`
        takes an answer's letters as it is chosen."""
        from rackety.lexicon.query import Acrostic

        return Acrostic(self, quotation, used)

    def suggest(self, word: str, *, distance: int = 2) -> list[tuple[str, int]]:
        """Words within ``distance`` edits (insert, delete or change one tile) of
        ``word``, the word itself excluded, nearest first: ``[(word, edits), ...]``."""
        from rackety.lexicon.query import suggest_walk

        if distance < 0:
            raise RacketyError(f"distance {distance}: must be 0 or more")
        tiles = np.asarray(self.alphabet.word(word), np.int64)
        if len(tiles) == 0:
            raise RacketyError("word is empty")
        flat, lens, dist = suggest_walk(self.nodes, self.root(_kwg.DAWG_ROOT), tiles, distance)
        words = self._decode(flat, lens)
        return sorted(zip(words, dist.tolist(), strict=True), key=lambda wd: (wd[1], wd[0]))
