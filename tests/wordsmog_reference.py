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
squares, keeping what `legal` accepts. It passes over, unasked, only what
`legal` would refuse whatever the order (a span off the start square of an
empty board or touching no tile of another board; a down play on an empty
board where only across plays are listed) and the orders that put on a
square a letter its cross word refuses (the board tiles just before and
after it across the line, with that letter, are no anagram of a word): so
`legal` is asked about the moves, not about thousands of orders of each.
`moves_by_legal` (of movegen_reference) tries every letter on every empty
square instead: the tests check the two against each other on tiny
positions.
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


def _arrangements(tiles: Counter) -> list[tuple[int, ...]]:
    """Every distinct order of a multiset of tiles."""
    return sorted(set(permutations(sorted(tiles.elements()))))


def _cross_letters(grid: list[list[int]], sq: Square, step: tuple[int, int],
                   letters: Sequence[int], anagrams: Anagrams) -> set[int] | None:
    """The letters a tile on the empty square ``sq`` may have: those that make
    its cross word (the board tiles running just before and after it along
    ``step``) an anagram of a word; None where there are no such tiles."""
    before, after = ref.cross_squares(grid, sq, step)
    if not before and not after:
        return None
    cross = [grid[r][c] for r, c in before + after]
    return {c for c in letters if tuple(cross + [c]) in anagrams}


def reference_moves(grid: np.ndarray, rack: Sequence[int], words: Iterable[Sequence[int]],
                    points: Sequence[int], letter_mult: np.ndarray, word_mult: np.ndarray,
                    start: Square, bingo_bonus: int, rack_size: int,
                    across_only_when_empty: bool = True) -> dict[Move, int]:
    """Every legal WordSmog tile placement and its score."""
    words = list(words)
    anagrams = Anagrams(words)
    letters = sorted({t for w in words for t in w})
    n = grid.shape[0]
    rows = grid.tolist()  # rows of plain ints: faster to index than the array
    board_empty = not any(map(any, rows))
    start = (int(start[0]), int(start[1]))
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
    longest = max(by_length, default=0)
    # the letters the placed tiles must have, by the span's length and board
    # letters (sorted): made once a pair, not once a span
    wanted_of: dict[tuple[int, tuple[int, ...]], set[tuple[int, ...]]] = {}
    # the orders of each multiset of placed tiles, made once a multiset
    orders_of: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for down in (False, True):
        if down and board_empty and across_only_when_empty:
            continue  # `legal` lists only across plays on an empty board
        cross_step = (0, 1) if down else (1, 0)
        # what each empty square may take, made once a square, not once a span
        allowed_at = {(r, c): _cross_letters(rows, (r, c), cross_step, letters, anagrams)
                      for r in range(n) for c in range(n) if not rows[r][c]}
        for line in range(n):
            squares = [(j, line) if down else (line, j) for j in range(n)]
            line_tiles = [rows[r][c] for r, c in squares]
            if not board_empty and not any(line_tiles) and all(
                    allowed_at[sq] is None for sq in squares):
                continue  # no tile on the line or beside it: no span touches one
            for a in range(n):
                if a > 0 and line_tiles[a - 1]:
                    continue  # the main word would start further back
                for b in range(a + 1, min(n, a + longest)):  # no word is longer
                    if b + 1 < n and line_tiles[b + 1]:
                        continue  # the main word would go on further
                    span = squares[a:b + 1]
                    empties = [sq for sq, t in zip(span, line_tiles[a:b + 1]) if not t]
                    board = [t & 0x7F for t in line_tiles[a:b + 1] if t]
                    if len(empties) > len(rack):
                        break  # a longer span has these empty squares and more
                    if not empties:
                        continue
                    allowed = [allowed_at[sq] for sq in empties]
                    # spans whose every order `legal` refuses: off the start
                    # square on an empty board, touching no tile on another
                    if board_empty and start not in span:
                        continue
                    if not board_empty and not board and all(x is None for x in allowed):
                        continue
                    # the placed tiles' letters are a word's, less the span's board
                    # letters: each alphagram of the span's length names one set
                    have = Counter(board)
                    pair = (len(span), tuple(sorted(board)))
                    if pair not in wanted_of:
                        wanted_of[pair] = {tuple(sorted((a - have).elements()))
                                           for a in by_length.get(len(span), ()) if not have - a}
                    wanted = wanted_of[pair]
                    for placed in (p for key in wanted for p in by_size[len(empties)]
                                   .get(key, ())):
                        assert tuple(board + [t & 0x7F for t in placed.elements()]) in anagrams
                        multiset = tuple(sorted(placed.elements()))
                        if multiset not in orders_of:
                            orders_of[multiset] = _arrangements(placed)
                        for order in orders_of[multiset]:
                            if any(x is not None and t & 0x7F not in x
                                   for t, x in zip(order, allowed, strict=True)):
                                continue  # a cross word `legal` would refuse
                            fill = dict(zip(empties, order, strict=True))
                            tiles = tuple(fill.get(sq, rows[sq[0]][sq[1]]) for sq in span)
                            through = tuple(bool(rows[r][c]) for r, c in span)
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
