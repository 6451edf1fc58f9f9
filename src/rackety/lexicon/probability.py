"""How likely a word's tiles are to be drawn, for word study: the lexicon's
alphagrams of one length in probability order, as Zyzzyva and Aerolith list
them (docs/STUDY.md).

A word's *ways* are the number of distinct draws of exactly its length from
a full bag that hold its tiles, a blank standing for any letter: the sum,
over the ways of letting ``b`` blanks stand for ``b`` of its tiles (``b`` up
to the blanks in the bag, or ``blanks`` when asked), of C(blanks, b) times
the product, over the word's tiles, of C(copies in the bag, copies needed
that no blank stands for). This is Zyzzyva's count: 5,423,112 draws of seven
tiles hold OTARINE in a 100-tile English bag with two blanks. A word's
probability is its ways over all draws of its length, C(tiles in the bag,
length). Anagrams share their tiles, so an alphagram (a word's tiles in the
alphabet's order) has its words' ways; the alphagrams of a length are ranked
by ways, most first, ties in the alphabet's order. A tile of several letters
(Spanish CH, Catalan L·L) is one tile here as in the bag.

The counts of a whole length are one compiled pass (`alphagram_ways`) over
the lexicon's words as tile codes; each count is the sum of products of
binomials in float64, exact while it stays below 2**53 (every word of a
100-tile bag's racks) and its order right beyond.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from rackety.errors import RacketyError
from rackety.kernels.jit import njit
from rackety.lexicon.wordlist import MAX_WORD_LENGTH, MIN_WORD_LENGTH

if TYPE_CHECKING:
    from rackety.alphabet import Alphabet


class WordTiles(Protocol):
    """What the ranking reads of a lexicon (`rackety.lexicon.Lexicon` is one;
    this module does not import it, which imports this one)."""

    alphabet: Alphabet

    def word_tiles(self) -> tuple[np.ndarray, np.ndarray]: ...


@njit(cache=True)
def alphagram_ways(tiles: np.ndarray, counts: np.ndarray, blanks: int, binom: np.ndarray,
                   out: np.ndarray) -> None:
    """``out[i]``: the draws of ``tiles[i]``'s length from a full bag (``counts``
    of each tile code, the blank's ignored) that hold row i's tiles (codes of
    letters), with ``blanks`` blanks in the bag standing for any of them
    (module docstring); ``binom[n, k]`` is C(n, k), 0 where k > n."""
    n, length = tiles.shape
    need = np.zeros(counts.shape[0], np.int64)
    poly = np.zeros(blanks + 1)
    nxt = np.zeros(blanks + 1)
    for i in range(n):
        for j in range(length):
            need[tiles[i, j]] += 1
        # the product over letters of sum_j C(copies, need - j) x**j, up to x**blanks:
        # the coefficient of x**b counts the draws in which blanks stand for b tiles
        poly[:] = 0.0
        poly[0] = 1.0
        for j in range(length):
            t = tiles[i, j]
            k = need[t]
            if k == 0:
                continue  # this letter done (a repeated tile)
            have = counts[t]
            for d in range(blanks + 1):
                s = 0.0
                for b in range(min(k, d) + 1):
                    if k - b <= have:
                        s += poly[d - b] * binom[have, k - b]
                nxt[d] = s
            poly[:] = nxt
            need[t] = 0
        total = 0.0
        for b in range(blanks + 1):
            total += binom[blanks, b] * poly[b]
        out[i] = total


def _binomials(most: int, length: int) -> np.ndarray:
    table = np.zeros((most + 1, length + 1))
    for n in range(most + 1):
        for k in range(min(n, length) + 1):
            table[n, k] = float(comb(n, k))
    return table


def _blanks(alphabet: Alphabet, blanks: int | None) -> int:
    bag = alphabet.tiles[0].count
    if blanks is None:
        return bag
    if isinstance(blanks, bool) or not isinstance(blanks, int) or not 0 <= blanks <= bag:
        raise RacketyError(f"blanks {blanks!r}: expected a whole number from 0 to the "
                           f"{bag} blanks of the {alphabet.name} bag")
    return blanks


def checked_length(length: int) -> int:
    """``length``, a word's length in tiles (2 to `MAX_WORD_LENGTH`); else a
    `RacketyError`."""
    if isinstance(length, bool) or not isinstance(length, int) \
            or not MIN_WORD_LENGTH <= length <= MAX_WORD_LENGTH:
        raise RacketyError(f"length {length!r}: expected a whole number from "
                           f"{MIN_WORD_LENGTH} to {MAX_WORD_LENGTH}")
    return length


def checked_ranks(first: int, last: int | None) -> tuple[int, int | None]:
    """A range of ranks, 1-based, both included (``last`` None: to the end);
    else a `RacketyError`."""
    if first < 1 or (last is not None and last < first):
        raise RacketyError(f"ranks {first}-{'' if last is None else last}: expected "
                           "1 <= first <= last")
    return first, last


def draws(alphabet: Alphabet, length: int) -> int:
    """The distinct draws of ``length`` tiles from a full bag of ``alphabet``."""
    return comb(sum(t.count for t in alphabet.tiles), length)


def draw_ways(alphabet: Alphabet, word: str | Sequence[int], *, blanks: int | None = None
              ) -> int:
    """The draws of ``word``'s length from a full bag that hold its tiles,
    ``blanks`` (the bag's, by default) standing for any of them: the module
    docstring's count, exactly. ``word``: text in ``alphabet`` or tile codes."""
    b = _blanks(alphabet, blanks)
    codes = alphabet.word(word) if isinstance(word, str) else [int(c) for c in word]
    if not codes or any(not 0 < c < alphabet.size for c in codes):
        raise RacketyError(f"word {word!r}: expected letters of the {alphabet.name} tiles")
    need: dict[int, int] = {}
    for c in codes:
        need[c] = need.get(c, 0) + 1
    poly = [1] + [0] * b  # as `alphagram_ways`, in Python's exact integers
    for code, k in need.items():
        have = alphabet.tiles[code].count
        poly = [sum(poly[d - j] * comb(have, k - j) for j in range(min(k, d) + 1))
                for d in range(b + 1)]
    return sum(comb(b, d) * poly[d] for d in range(b + 1))


@dataclass(frozen=True)
class Alphagram:
    """One alphagram of a probability list: its ``rank`` (1 the likeliest), its
    tiles in the alphabet's order, the ``words`` they make (a tile of several
    letters in brackets, as ``[CH]E``), the ``ways`` to draw them (module
    docstring) and that over all draws of the length, ``probability``."""

    rank: int
    alphagram: str
    words: tuple[str, ...]
    ways: int
    probability: float

    def as_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "alphagram": self.alphagram, "words": list(self.words),
                "ways": self.ways, "probability": self.probability}


class ProbabilityList:
    """The alphagrams of one length of a lexicon in probability order (`ranked`):
    ``tiles[i]`` the tile codes of rank i + 1, ``ways[i]`` its draws, its words
    ``words[start[i]:start[i + 1]]`` as rows of tile codes. Indexing gives an
    `Alphagram` (``plist[0]`` the likeliest), slicing a list of them."""

    def __init__(self, alphabet: Alphabet, length: int, blanks: int, tiles: np.ndarray,
                 ways: np.ndarray, words: np.ndarray, start: np.ndarray) -> None:
        self.alphabet = alphabet
        self.length = length
        self.blanks = blanks
        self.tiles = tiles
        self.ways = ways
        self.words = words
        self.start = start
        self.draws = draws(alphabet, length)

    def __len__(self) -> int:
        return int(self.tiles.shape[0])

    def __repr__(self) -> str:
        return (f"<ProbabilityList of {len(self)} alphagrams of {self.length} tiles, "
                f"{self.alphabet.name}, {self.blanks} blanks>")

    def _item(self, i: int) -> Alphagram:
        def fmt(codes: list[int]) -> str:  # a tile of several letters in brackets: [CH]E
            return self.alphabet.format(codes, brackets=True)

        words = tuple(fmt(w) for w in self.words[self.start[i]:self.start[i + 1]].tolist())
        ways = round(float(self.ways[i]))
        return Alphagram(i + 1, fmt(self.tiles[i].tolist()), words, ways,
                         float(self.ways[i]) / self.draws if self.draws else 0.0)

    def __getitem__(self, index: int) -> Alphagram:
        n = len(self)
        if not -n <= index < n:
            raise IndexError(f"rank {index + 1} of {n}")
        return self._item(index % n)

    def __iter__(self) -> Iterator[Alphagram]:
        return (self._item(i) for i in range(len(self)))

    def ranks(self, first: int = 1, last: int | None = None) -> list[Alphagram]:
        """The alphagrams ranked ``first`` to ``last`` (1-based, both included;
        ``last`` None: to the end): a probability range as Zyzzyva takes it."""
        n = len(self)
        first, last = checked_ranks(first, last)
        return [self._item(i) for i in range(first - 1, n if last is None else min(last, n))]

    def rank_of(self, alphagram: str) -> int | None:
        """The rank of the alphagram of ``alphagram`` (any order of its tiles),
        or None when no word of the list has those tiles."""
        codes = sorted(self.alphabet.word(alphagram))
        if len(codes) != self.length:
            return None
        hit = np.flatnonzero((self.tiles == np.array(codes, self.tiles.dtype)).all(axis=1))
        return int(hit[0]) + 1 if hit.size else None


def ranked(lexicon: WordTiles, length: int, *, blanks: int | None = None) -> ProbabilityList:
    """The alphagrams of ``lexicon``'s words of ``length`` tiles in probability
    order (module docstring), with ``blanks`` blanks in the bag (the tile
    set's, by default; Zyzzyva lets a player choose 0, 1 or 2)."""
    alphabet = lexicon.alphabet
    length = checked_length(length)
    b = _blanks(alphabet, blanks)
    flat, lens = lexicon.word_tiles()
    ends = np.cumsum(lens)
    starts = ends - lens
    mine = starts[lens == length]
    words = flat[mine[:, None] + np.arange(length)].astype(np.uint8)  # in the lexicon's order
    if not len(words):
        empty = np.zeros((0, length), np.uint8)
        return ProbabilityList(alphabet, length, b, empty, np.zeros(0), empty,
                               np.zeros(1, np.int64))
    sorted_tiles = np.sort(words, axis=1)
    alphas, which = np.unique(sorted_tiles, axis=0, return_inverse=True)
    which = which.reshape(-1)
    counts = np.array([t.count for t in alphabet.tiles], np.int64)
    ways = np.empty(len(alphas))
    alphagram_ways(alphas, counts, b, _binomials(max(int(counts.max()), b), length), ways)
    order = np.argsort(-ways, kind="stable")  # ties keep the alphabet's order
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    by_rank = np.argsort(rank[which], kind="stable")  # words grouped by rank, in order
    start = np.zeros(len(alphas) + 1, np.int64)
    np.cumsum(np.bincount(rank[which], minlength=len(alphas)), out=start[1:])
    return ProbabilityList(alphabet, length, b, alphas[order], ways[order], words[by_rank],
                           start)
