"""A small, obviously correct reference for WordSmog move generation: plain
Python over a word set, no graph, no numba. A play is valid when every word
it forms (the main word and each cross word) has the letters of a word of
the lexicon, in any order; scoring is classic.

The conventions are those of tests/movegen_reference.py (boards, racks,
moves, one-tile plays listed once, across on an empty board): its `legal`
checks a move from scratch and its `score_move` scores it; here they are
given `Anagrams`, a word set that holds every reordering of its words, so
they judge WordSmog.

`reference_moves` tries, in every span of every line, every sub-multiset of
the rack (a blank as every letter) whose letters with the span's board tiles
are an anagram of a word, then every distinct order of it on the empty
squares, keeping what `legal` accepts. `moves_by_legal` (of
movegen_reference) tries every letter on every empty square instead: the
tests check the two against each other on tiny positions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations_with_replacement, permutations

import movegen_reference as ref
import numpy as np

BLANK_FLAG = ref.BLANK_FLAG
Move = ref.Move
Square = ref.Square


class Anagrams:
    """A word set that holds every anagram of its words: ``tiles in words``
    when the codes (blank flags dropped), sorted, are some word's, sorted."""

    def __init__(self, words: Iterable[Sequence[int]]) -> None:
        self.alphagrams = frozenset(tuple(sorted(w)) for w in words)

    def __contains__(self, tiles: object) -> bool:
        if not isinstance(tiles, tuple | list):
            return False
        return tuple(sorted(int(t) & 0x7F for t in tiles)) in self.alphagrams


def _sub_multisets(rack: Sequence[int], k: int, letters: Sequence[int]) -> Iterator[Counter]:
    """Every multiset of ``k`` placed tiles the rack can give: naturals as
    themselves, each blank as any of ``letters`` (``0x80 | letter``)."""
    naturals = Counter(t for t in rack if t != 0)
    blanks = sum(1 for t in rack if t == 0)
    pool = sorted(naturals)
    for nb in range(min(blanks, k) + 1):
        for nat in combinations_with_replacement(pool, k - nb):
            if Counter(nat) - naturals:
                continue
            for bl in combinations_with_replacement(letters, nb):
                yield Counter(list(nat) + [BLANK_FLAG | c for c in bl])


def _arrangements(tiles: Counter) -> Iterator[tuple[int, ...]]:
    """Every distinct order of a multiset of tiles."""
    yield from sorted(set(permutations(sorted(tiles.elements()))))


def reference_moves(grid: np.ndarray, rack: Sequence[int], words: Iterable[Sequence[int]],
                    points: Sequence[int], letter_mult: np.ndarray, word_mult: np.ndarray,
                    start: Square, bingo_bonus: int, rack_size: int,
                    across_only_when_empty: bool = True) -> dict[Move, int]:
    """Every legal WordSmog tile placement and its score."""
    words = list(words)
    anagrams = Anagrams(words)
    letters = sorted({t for w in words for t in w})
    n = grid.shape[0]
    rack = [int(t) for t in rack]
    moves: dict[Move, int] = {}
    # the rack's sub-multisets of each size, by their letters (blank flags
    # dropped, sorted): made once, not once a span
    by_size: dict[int, dict[tuple[int, ...], list[Counter]]] = {}
    for k in range(1, len(rack) + 1):
        by_size[k] = {}
        for placed in _sub_multisets(rack, k, letters):
            key = tuple(sorted(t & 0x7F for t in placed.elements()))
            by_size[k].setdefault(key, []).append(placed)
    by_length: dict[int, list[Counter]] = {}
    for a in anagrams.alphagrams:
        by_length.setdefault(len(a), []).append(Counter(a))
    for down in (False, True):
        for line in range(n):
            squares = [(j, line) if down else (line, j) for j in range(n)]
            for a in range(n):
                if a > 0 and grid[squares[a - 1]]:
                    continue
                for b in range(a + 1, n):
                    if b + 1 < n and grid[squares[b + 1]]:
                        continue
                    span = squares[a:b + 1]
                    empties = [sq for sq in span if not grid[sq]]
                    board = [int(grid[sq]) & 0x7F for sq in span if grid[sq]]
                    if not 1 <= len(empties) <= len(rack):
                        continue
                    # the placed tiles' letters are a word's, less the span's board
                    # letters: each alphagram of the span's length names one set
                    have = Counter(board)
                    wanted = {tuple(sorted((a - have).elements()))
                              for a in by_length.get(len(span), ()) if not have - a}
                    for placed in (p for key in wanted for p in by_size[len(empties)]
                                   .get(key, ())):
                        assert tuple(board + [t & 0x7F for t in placed.elements()]) in anagrams
                        for order in _arrangements(placed):
                            fill = dict(zip(empties, order, strict=True))
                            tiles = tuple(fill.get(sq, int(grid[sq])) for sq in span)
                            through = tuple(bool(grid[sq]) for sq in span)
                            move = (span[0][0], span[0][1], down, tiles, through)
                            if ref.legal(grid, move, rack, anagrams, start,
                                         across_only_when_empty):
                                moves[move] = ref.score_move(grid, move, points, letter_mult,
                                                             word_mult, bingo_bonus, rack_size)
    return moves


def moves_by_legal(grid: np.ndarray, rack: Sequence[int], words: Iterable[Sequence[int]],
                   alphabet: Sequence[int], start: Square) -> set[Move]:
    """Every legal WordSmog move of a tiny position, by trying every letter of
    ``alphabet`` (natural or blank) on every empty square of every span."""
    return ref.moves_by_legal(grid, rack, Anagrams(words), alphabet, start)  # type: ignore[arg-type]
