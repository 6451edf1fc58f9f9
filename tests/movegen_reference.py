"""A small, obviously correct reference for move generation: plain Python over a
word set, no graph, no numba. The fast generators are tested against it.

Conventions (docs/FORMATS.md sections 1, 5, 7 and the oracle README, "How moves are
counted"):

* a board is a numpy uint8 array [N, N]: 0 empty, ``t`` a natural tile,
  ``0x80 | t`` a blank standing for ``t`` (worth 0);
* a rack is a sequence of tile codes, 0 the blank;
* a move is ``(row, col, down, tiles, through)``: the first square of the whole
  main word, its direction, the codes of the whole main word (0x80 on blanks, new
  or already on the board), and True where the square already held a tile;
* every distinct placement is one move (a blank played as E and a natural E are
  two moves; two E's on the rack are not); a one-tile play is listed once, in the
  direction of its main word of two or more letters, across when both directions
  make words; on an empty board only across plays are listed unless
  ``across_only_when_empty`` is False.

`reference_moves` enumerates spans of a line and the words that fit them.
`legal` and `score_move` check one move from scratch in a different way (place
the tiles, look at every run of tiles they touch), and `moves_by_legal` finds
every move of a tiny position by trying every way to fill every span with every
letter; the tests check the three against each other.

Helpers for property tests: `random_lexicon`, `random_position`, `premiums`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations, product
from typing import Any

import numpy as np

BLANK_FLAG = 0x80
Move = tuple[int, int, bool, tuple[int, ...], tuple[bool, ...]]
Square = tuple[int, int]
Words = set[tuple[int, ...]] | frozenset[tuple[int, ...]]

#: English tile points by code (0 the blank, A=1 .. Z=26).
ENGLISH_POINTS: tuple[int, ...] = (
    0, 1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 5, 1, 3, 1, 1, 3, 10, 1, 1, 1, 1, 4, 4, 8, 4, 10)
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

#: The standard 15x15 layout (spec/boards.json ``standard15``): ``=`` TWS, ``-`` DWS,
#: ``"`` TLS, ``'`` DLS; the start square (7, 7) is a DWS.
STANDARD15 = (
    "=  '   =   '  =",
    " -   \"   \"   - ",
    "  -   ' '   -  ",
    "'  -   '   -  '",
    "    -     -    ",
    " \"   \"   \"   \" ",
    "  '   ' '   '  ",
    "=  '   -   '  =",
    "  '   ' '   '  ",
    " \"   \"   \"   \" ",
    "    -     -    ",
    "'  -   '   -  '",
    "  -   ' '   -  ",
    " -   \"   \"   - ",
    "=  '   =   '  =",
)


# ---------------------------------------------------------------------------
# text <-> codes (English, single-letter tiles)


def word_codes(text: str) -> tuple[int, ...]:
    """``"CAt"`` -> (3, 1, 0x80 | 20): upper case natural, lower case a blank."""
    return tuple(LETTERS.index(ch) + 1 if ch.isupper() else BLANK_FLAG | (LETTERS.index(
        ch.upper()) + 1) for ch in text)


def word_text(tiles: Sequence[int]) -> str:
    """Inverse of `word_codes`."""
    return "".join(LETTERS[(t & 0x7F) - 1].lower() if t & BLANK_FLAG else LETTERS[t - 1]
                   for t in tiles)


def rack_codes(text: str) -> list[int]:
    """``"AE?"`` -> [1, 5, 0]."""
    return [0 if ch == "?" else LETTERS.index(ch.upper()) + 1 for ch in text]


def layout_premiums(rows: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """(letter_mult, word_mult) from rows of legend characters."""
    n = len(rows)
    letter_mult = np.ones((n, n), dtype=np.int64)
    word_mult = np.ones((n, n), dtype=np.int64)
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            letter_mult[r, c] = {"'": 2, '"': 3}.get(ch, 1)
            word_mult[r, c] = {"-": 2, "=": 3}.get(ch, 1)
    return letter_mult, word_mult


# ---------------------------------------------------------------------------
# the reference


def _value(tile: int, points: Sequence[int]) -> int:
    return 0 if tile & BLANK_FLAG else int(points[tile])


def reference_moves(grid: np.ndarray, rack: Sequence[int], words: Words,
                    points: Sequence[int], letter_mult: np.ndarray, word_mult: np.ndarray,
                    start: Square, bingo_bonus: int, rack_size: int,
                    across_only_when_empty: bool = True) -> dict[Move, int]:
    """Every legal tile placement and its score, by brute force over spans and words."""
    n = grid.shape[0]
    rows = grid.tolist()  # rows of plain ints: faster to index than the array
    rack = [int(t) for t in rack]
    naturals = Counter(t for t in rack if t != 0)
    blanks = rack.count(0)
    board_empty = not grid.any()
    start = (int(start[0]), int(start[1]))
    moves: dict[Move, int] = {}
    word_list = sorted(words)
    letter_counts = _letter_counts(word_list)
    longest = max(map(len, word_list), default=0)
    # the words a line's tiles and the rack could supply, by the line's letters
    # (most lines hold none or the same few): made once a set of letters
    by_line_letters: dict[tuple[int, ...], dict[int, list[tuple[int, ...]]]] = {}

    def tile(sq: Square) -> int:
        return rows[sq[0]][sq[1]]

    for down in (False, True):
        if down and board_empty and across_only_when_empty:
            continue
        cross_step = (0, 1) if down else (1, 0)
        # the board tiles just before and after each empty square, across the
        # line: made once a square, not once a span
        cross_at = {(r, c): cross_squares(rows, (r, c), cross_step)
                    for r in range(n) for c in range(n) if not rows[r][c]}
        for line in range(n):
            squares = [(j, line) if down else (line, j) for j in range(n)]
            line_tiles = [tile(sq) for sq in squares]
            if not board_empty and not any(line_tiles) and all(
                    cross_at[sq] == ([], []) for sq in squares):
                continue  # no tile on the line or beside it: no span touches one
            letters = tuple(sorted(t & 0x7F for t in line_tiles if t))
            if letters not in by_line_letters:
                by_line_letters[letters] = _words_for_line(word_list, letter_counts, naturals,
                                                           blanks, letters)
            line_words = by_line_letters[letters]
            for a in range(n):
                if a > 0 and line_tiles[a - 1]:
                    continue  # the main word would start further back
                empties: list[int] = []  # the span's empty squares, by their index in it
                for b in range(a, n):
                    if not line_tiles[b]:
                        empties.append(b - a)
                    if len(empties) > len(rack):
                        break  # a longer span has these empty squares and more
                    if b - a + 1 > longest:
                        break  # no word is this long
                    if b == a or (b + 1 < n and line_tiles[b + 1]):
                        continue  # one square; the main word would go on further
                    span = squares[a:b + 1]
                    cells = line_tiles[a:b + 1]
                    if not empties or len(span) not in line_words:
                        continue  # no tile placed; no word of this length fits the line
                    # the board tiles just before and after each empty square,
                    # across the line: a cross word where there are any
                    crosses = {i: cross_at[span[i]] for i in empties
                               if cross_at[span[i]] != ([], [])}
                    if board_empty:
                        if start not in span:
                            continue
                    elif len(empties) == len(span) and not crosses:
                        continue  # touches no board tile
                    if down and len(empties) == 1 and crosses:
                        continue  # a one-tile play is listed across
                    for word in line_words[len(span)]:
                        if any(t and t & 0x7F != word[i] for i, t in enumerate(cells)):
                            continue  # disagrees with the board
                        if any(tuple(tile(s) & 0x7F for s in before) + (word[i],)
                               + tuple(tile(s) & 0x7F for s in after) not in words
                               for i, (before, after) in crosses.items()):
                            continue  # a cross word is not a word
                        for blank_at in _blank_choices(word, empties, naturals, blanks):
                            tiles = tuple(
                                t if t else (BLANK_FLAG | word[i] if i in blank_at else word[i])
                                for i, t in enumerate(cells))
                            through = tuple(bool(t) for t in cells)
                            score = _score(rows, span, tiles, empties, crosses, points,
                                           letter_mult, word_mult)
                            if len(empties) == rack_size:
                                score += bingo_bonus
                            key = (span[0][0], span[0][1], down, tiles, through)
                            assert key not in moves, key
                            moves[key] = score
    return moves


def _words_for_line(word_list: list[tuple[int, ...]], letter_counts: np.ndarray,
                    naturals: Counter, blanks: int,
                    line: Sequence[int]) -> dict[int, list[tuple[int, ...]]]:
    """The words whose letters the rack and a line's tiles could supply, by length
    (a main word is made of rack tiles and tiles of its line, nothing else):
    ``line`` the letters of the line's tiles. ``letter_counts[k, c]`` is how
    many c's ``word_list[k]`` has."""
    have = np.zeros(64, dtype=np.int8)
    for c, k in (naturals + Counter(line)).items():
        have[c] = k
    short = np.maximum(letter_counts - have, 0).sum(axis=1)  # letters left for blanks
    out: dict[int, list[tuple[int, ...]]] = {}
    for k in np.flatnonzero(short <= blanks):
        w = word_list[k]
        out.setdefault(len(w), []).append(w)
    return out


def _letter_counts(word_list: list[tuple[int, ...]]) -> np.ndarray:
    """``counts[k, c]``: how many c's ``word_list[k]`` has (one count of every
    (word, letter) pair of the list)."""
    which = np.repeat(np.arange(len(word_list)), [len(w) for w in word_list])
    letters = np.fromiter((c for w in word_list for c in w), np.int64, len(which))
    assert letters.max(initial=0) < 64  # a column a code (bincount refuses negatives)
    counts = np.bincount(which * 64 + letters, minlength=len(word_list) * 64)
    return counts.reshape(len(word_list), 64).astype(np.int8)


def cross_squares(grid: Sequence[Sequence[int]], sq: Square,
                   step: tuple[int, int]) -> tuple[list[Square], list[Square]]:
    """The board squares with tiles running just before and just after ``sq`` along
    ``step``, in order (``grid`` a list of rows)."""
    n = len(grid)
    before: list[Square] = []
    r, c = sq[0] - step[0], sq[1] - step[1]
    while 0 <= r < n and 0 <= c < n and grid[r][c]:
        before.insert(0, (r, c))
        r, c = r - step[0], c - step[1]
    after: list[Square] = []
    r, c = sq[0] + step[0], sq[1] + step[1]
    while 0 <= r < n and 0 <= c < n and grid[r][c]:
        after.append((r, c))
        r, c = r + step[0], c + step[1]
    return before, after


def _blank_choices(word: tuple[int, ...], empties: list[int], naturals: Counter,
                   blanks: int) -> Iterator[set[int]]:
    """Every set of the empty squares that can be filled by blanks, the others by
    natural tiles from the rack (each set is a different move)."""
    for k in range(min(blanks, len(empties)) + 1):
        for blank_at in combinations(empties, k):
            need = Counter(word[i] for i in empties if i not in blank_at)
            if all(naturals[c] >= m for c, m in need.items()):
                yield set(blank_at)


def _score(grid: Sequence[Sequence[int]], span: list[Square], tiles: tuple[int, ...],
           empties: list[int], crosses: dict[int, tuple[list[Square], list[Square]]],
           points: Sequence[int], letter_mult: np.ndarray, word_mult: np.ndarray) -> int:
    """Main word plus cross words; premiums only under the new tiles (``grid`` a
    list of rows)."""
    main = 0
    mult = 1
    for i, sq in enumerate(span):
        if i in empties:
            main += _value(tiles[i], points) * int(letter_mult[sq])
            mult *= int(word_mult[sq])
        else:
            main += _value(tiles[i], points)
    total = main * mult
    for i, (before, after) in crosses.items():
        sq = span[i]
        cross = sum(_value(grid[r][c], points) for r, c in before + after)
        cross += _value(tiles[i], points) * int(letter_mult[sq])
        total += cross * int(word_mult[sq])
    return total


# ---------------------------------------------------------------------------
# an independent check of one move


def _runs_through(grid: Sequence[Sequence[int]], sq: Square) -> list[list[Square]]:
    """The maximal runs of tiles through ``sq`` across and down, of length >= 2
    (``grid`` a list of rows, as ``ndarray.tolist`` makes: plain indexing is
    several times faster than a numpy array's, and the references call this
    for every move they check)."""
    n = len(grid)
    runs = []
    for dr, dc in ((0, 1), (1, 0)):
        r, c = sq
        while r - dr >= 0 and c - dc >= 0 and grid[r - dr][c - dc]:
            r, c = r - dr, c - dc
        run = []
        while r < n and c < n and grid[r][c]:
            run.append((r, c))
            r, c = r + dr, c + dc
        if len(run) >= 2:
            runs.append(run)
    return runs


def _move_squares(move: Move) -> list[Square]:
    row, col, down, tiles, _ = move
    return [(row + k, col) if down else (row, col + k) for k in range(len(tiles))]


def legal(grid: np.ndarray, move: Move, rack: Sequence[int], words: Words, start: Square,
          across_only_when_empty: bool = True) -> bool:
    """Whether ``move`` is a legal placement listed under the oracle's conventions,
    checked from scratch: place the tiles, then look at every run they touch."""
    row, col, down, tiles, through = move
    n = grid.shape[0]
    if len(tiles) != len(through) or len(tiles) < 2:
        return False
    squares = _move_squares(move)
    if not all(0 <= r < n and 0 <= c < n for r, c in squares):
        return False
    before = grid.tolist()  # rows of plain ints: faster to index than the array
    new: list[Square] = []
    used: Counter = Counter()
    for sq, t, th in zip(squares, tiles, through, strict=True):
        if not 1 <= (t & 0x7F) < 64 or t & 0x40 or t & ~0xFF:
            return False
        if th:
            if before[sq[0]][sq[1]] != t:
                return False
        else:
            if before[sq[0]][sq[1]]:
                return False
            new.append(sq)
            used[0 if t & BLANK_FLAG else t] += 1
    if not new or used - Counter(int(t) for t in rack):
        return False
    after = [list(r) for r in before]
    for (r, c), t in zip(squares, tiles, strict=True):
        after[r][c] = t
    # the move's squares are exactly the main word: nothing just before or after
    dr, dc = (1, 0) if down else (0, 1)
    for r, c in ((row - dr, col - dc), (squares[-1][0] + dr, squares[-1][1] + dc)):
        if 0 <= r < n and 0 <= c < n and after[r][c]:
            return False
    # every word made (every run of two or more tiles through a new tile, each
    # run once) is a word
    for run in {tuple(run) for sq in new for run in _runs_through(after, sq)}:
        if tuple(after[r][c] & 0x7F for r, c in run) not in words:
            return False
    if not any(map(any, before)):
        if down and across_only_when_empty:
            return False
        if tuple(start) not in new:
            return False
    else:
        def occupied(r: int, c: int) -> bool:
            return 0 <= r < n and 0 <= c < n and bool(before[r][c])
        if not any(occupied(r + a, c + b) for r, c in new
                   for a, b in ((0, 1), (0, -1), (1, 0), (-1, 0))):
            return False
    if len(new) == 1 and down:
        r, c = new[0]
        if (c > 0 and after[r][c - 1]) or (c + 1 < n and after[r][c + 1]):
            return False  # listed across
    return True


def score_move(grid: np.ndarray, move: Move, points: Sequence[int], letter_mult: np.ndarray,
               word_mult: np.ndarray, bingo_bonus: int, rack_size: int) -> int:
    """The score of a legal move, from every run of tiles that contains a new tile."""
    squares = _move_squares(move)
    _, _, _, tiles, through = move
    after = grid.tolist()
    new = set()
    for (r, c), t, th in zip(squares, tiles, through, strict=True):
        after[r][c] = t
        if not th:
            new.add((r, c))
    runs = {tuple(run) for sq in new for run in _runs_through(after, sq)}
    total = 0
    for run in runs:
        word = 0
        mult = 1
        for sq in run:
            value = _value(after[sq[0]][sq[1]], points)
            if sq in new:
                word += value * int(letter_mult[sq])
                mult *= int(word_mult[sq])
            else:
                word += value
        total += word * mult
    return total + (bingo_bonus if len(new) == rack_size else 0)


def moves_by_legal(grid: np.ndarray, rack: Sequence[int], words: Words, alphabet: Sequence[int],
                   start: Square, across_only_when_empty: bool = True) -> set[Move]:
    """Every legal move of a tiny position: every span in every line, every way to
    fill its empty squares with letters of ``alphabet`` (natural or blank), kept when
    `legal` says so. Exponential: boards of 5x5 or so, racks of 3 or 4."""
    n = grid.shape[0]
    out = set()
    choices = [t for t in alphabet] + [BLANK_FLAG | t for t in alphabet]
    for down, row, col in product((False, True), range(n), range(n)):
        for length in range(2, n + 1):
            squares = [(row + k, col) if down else (row, col + k) for k in range(length)]
            if not all(r < n and c < n for r, c in squares):
                break
            empty = [sq for sq in squares if not grid[sq]]
            if not 1 <= len(empty) <= len(rack):
                continue
            for fill in product(choices, repeat=len(empty)):
                filled = dict(zip(empty, fill, strict=True))
                tiles = tuple(filled.get(sq, int(grid[sq])) for sq in squares)
                through = tuple(bool(grid[sq]) for sq in squares)
                move = (row, col, down, tiles, through)
                if legal(grid, move, rack, words, start, across_only_when_empty):
                    out.add(move)
    return out


# ---------------------------------------------------------------------------
# helpers for property tests


def _as_random(draw_or_random: random.Random | int | Callable[..., Any]) -> random.Random:
    """A random.Random from a seed, a Random, or a hypothesis ``draw`` function."""
    if isinstance(draw_or_random, random.Random):
        return draw_or_random
    if isinstance(draw_or_random, int):
        return random.Random(draw_or_random)
    from hypothesis import strategies as st

    return random.Random(draw_or_random(st.integers(0, 2**32 - 1)))


def random_lexicon(draw_or_random: random.Random | int | Callable[..., Any],
                   letters: int = 8, min_words: int = 20, max_words: int = 150,
                   max_length: int = 5) -> set[tuple[int, ...]]:
    """A small random word list over codes 1..``letters`` (A-H by default): every
    two-letter word over a random subset of 2-4 letters (so boards fill up), then
    random words of 2..``max_length`` letters (half their letters from that subset),
    some of them another word with a letter hooked on."""
    rng = _as_random(draw_or_random)
    alphabet = list(range(1, letters + 1))
    core = rng.sample(alphabet, rng.randint(2, min(4, letters)))
    words = {(a, b) for a in core for b in core}
    target = rng.randint(min_words, max_words)
    while len(words) < target:
        if words and rng.random() < 0.3:
            base = rng.choice(sorted(words))
            if len(base) < max_length:
                hook = rng.choice(alphabet)
                words.add((hook, *base) if rng.random() < 0.5 else (*base, hook))
            continue
        length = rng.randint(2, max_length)
        words.add(tuple(rng.choice(core if rng.random() < 0.5 else alphabet)
                        for _ in range(length)))
    return words


def premiums(size: int, rng: random.Random | None = None) -> tuple[np.ndarray, np.ndarray,
                                                                  Square]:
    """(letter_mult, word_mult, start) for a ``size`` x ``size`` board: the standard
    layout for 15, else premiums mirrored in both axes (random when ``rng`` is given),
    the centre a double word, the start the centre."""
    if size == 15:
        letter_mult, word_mult = layout_premiums(STANDARD15)
        return letter_mult, word_mult, (7, 7)
    rng = rng or random.Random(size)
    letter_mult = np.ones((size, size), dtype=np.int64)
    word_mult = np.ones((size, size), dtype=np.int64)
    half = (size + 1) // 2
    for r, c in product(range(half), range(half)):
        kind = rng.choice("....''\"-=")
        for rr, cc in ((r, c), (size - 1 - r, c), (r, size - 1 - c),
                       (size - 1 - r, size - 1 - c)):
            letter_mult[rr, cc] = {"'": 2, '"': 3}.get(kind, 1)
            word_mult[rr, cc] = {"-": 2, "=": 3}.get(kind, 1)
    centre = size // 2
    letter_mult[centre, centre] = 1
    word_mult[centre, centre] = 2
    return letter_mult, word_mult, (centre, centre)


def random_position(draw_or_random: random.Random | int | Callable[..., Any], words: Words,
                    size: int | None = None, moves: int | None = None,
                    bag_blanks: int | None = None, rack_blanks: int | None = None,
                    rack_size: int = 7, copies: int = 4,
                    points: Sequence[int] = ENGLISH_POINTS) -> tuple[np.ndarray, list[int]]:
    """A position reached by random legal play: an empty ``size`` x ``size`` board
    (7..15, start at the centre), racks drawn from a bag (``copies`` of every letter
    of the lexicon, 0..2 blanks), a random move of `reference_moves` each turn
    (an exchange when there is none), ``moves`` turns (random, up to 12). Returns
    (grid, rack to move). ``rack_blanks`` forces that many blanks on that rack."""
    rng = _as_random(draw_or_random)
    size = size if size is not None else rng.randint(7, 15)
    moves = moves if moves is not None else rng.randint(0, 12)
    bag_blanks = bag_blanks if bag_blanks is not None else rng.randint(0, 2)
    letter_mult, word_mult, start = premiums(size, rng)
    alphabet = sorted({t for w in words for t in w})
    bag = [t for t in alphabet for _ in range(copies)] + [0] * bag_blanks
    rng.shuffle(bag)
    grid = np.zeros((size, size), dtype=np.uint8)
    rack: list[int] = []

    def refill() -> None:
        while len(rack) < rack_size and bag:
            rack.append(bag.pop())

    refill()
    for _ in range(moves):
        found = reference_moves(grid, rack, words, points, letter_mult, word_mult, start,
                                50, rack_size)
        if not found:
            if not bag:
                break
            bag.extend(rack)
            rack.clear()
            rng.shuffle(bag)
            refill()
            continue
        row, col, down, tiles, through = rng.choice(sorted(found))
        for k, (t, th) in enumerate(zip(tiles, through, strict=True)):
            if not th:
                grid[(row + k, col) if down else (row, col + k)] = t
                rack.remove(0 if t & BLANK_FLAG else t)
        refill()
        if not rack:
            break
    if rack_blanks is not None:
        rack = [t for t in rack if t != 0][:rack_size - rack_blanks] + [0] * rack_blanks
    return grid, rack
