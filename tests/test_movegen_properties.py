"""The fast move generators against the brute-force reference
(tests/movegen_reference.py): random small lexicons, positions reached by random
legal play on boards of 7x7 to 15x15, racks with blanks often. Both generators
must list exactly the reference's moves, each once, with the reference's score."""

from __future__ import annotations

import random

import movegen_reference as ref
import numpy as np
from hypothesis import given, note, settings
from hypothesis import strategies as st

from rackety import Lexicon

BINGO = 50
RACK_SIZE = 7
seeds = st.integers(0, 2**32 - 1)


def as_dict(found: list) -> dict:
    """The generator's list of (row, col, down, tiles, through, score) as the
    reference's dict; a move listed twice is an error."""
    out: dict = {}
    for row, col, down, tiles, through, score in found:
        key = (int(row), int(col), bool(down), tuple(int(t) for t in tiles),
               tuple(bool(x) for x in through))
        assert key not in out, f"listed twice: {key}"
        out[key] = int(score)
    return out


def show(grid: np.ndarray) -> str:
    return "\n".join(" ".join(ref.word_text([t]) if t else "." for t in row.tolist())
                     for row in grid)


def check(grid: np.ndarray, rack: list[int], words: set[tuple[int, ...]],
          letter_mult: np.ndarray, word_mult: np.ndarray, start: tuple[int, int]) -> None:

    note(f"words: {sorted(ref.word_text(w) for w in words)}")
    note(f"board:\n{show(grid)}")
    note(f"rack: {ref.word_text([t for t in rack if t])}{'?' * rack.count(0)}")
    expected = ref.reference_moves(grid, rack, words, ref.ENGLISH_POINTS, letter_mult,
                                   word_mult, start, BINGO, RACK_SIZE)
    full = Lexicon.from_words([ref.word_text(w) for w in sorted(words)])
    # a DAWG-only lexicon too: its cross sets come from the DAWG alone
    dawg_only = Lexicon.from_words([ref.word_text(w) for w in sorted(words)], gaddag=False)
    for generator, lexicon in (("gaddag", full), ("dawg", full), ("dawg", dawg_only)):
        got = as_dict(generate_from_arrays(
            grid.copy(), [int(t) for t in rack], lexicon, letter_mult=letter_mult,
            word_mult=word_mult, start=start, bingo_bonus=BINGO, generator=generator))
        missing = {ref.word_text(m[3]): m for m in expected if m not in got}
        extra = {ref.word_text(m[3]): m for m in got if m not in expected}
        wrong = {m: (got[m], s) for m, s in expected.items() if m in got and got[m] != s}
        assert (generator, missing, extra, wrong) == (generator, {}, {}, {})


def generate_from_arrays(grid, rack, lexicon, *, letter_mult, word_mult, start, bingo_bonus,
                         generator):
    """Every tile placement of a bare position (no `Board`, no `Layout`: the
    premiums are random arrays) as (row, col, down, tiles, through, score),
    through the kernels' public entry."""
    from rackety.game.movegen import cross_sets
    from rackety.game.state import full_mask, points_of
    from rackety.kernels import fields as f
    from rackety.kernels import generate as k

    grid = np.ascontiguousarray(grid, np.uint8)
    n = grid.shape[0]
    xs = cross_sets(grid, lexicon)
    lm = np.asarray(letter_mult, np.int64)
    wm = np.asarray(word_mult, np.int64)
    rules = np.zeros(f.G_SIZE, np.int64)
    rules[[f.G_N, f.G_RACK_SIZE, f.G_BINGO, f.G_START_ROW, f.G_START_COL, f.G_BOTH_DIRS,
           f.G_FULL_MASK]] = (n, RACK_SIZE, bingo_bonus, start[0], start[1], 0,
                              full_mask(lexicon.alphabet))
    consts = (np.ascontiguousarray(np.stack([lm, lm.T])),
              np.ascontiguousarray(np.stack([wm, wm.T])), points_of(lexicon.alphabet), rules)
    counts = np.bincount(np.array(rack, np.int64), minlength=64).astype(np.int64)
    st = np.zeros(f.ST_SIZE, np.int64)
    fs = np.zeros(f.F_HEAP + 1 + 256, np.float64)
    cap = 1 << 16
    k.load_rack(st, fs, rules, consts[2], counts, f.MODE_ALL, 1, cap, 0, not grid.any(), False)
    out = (np.empty((cap, f.META), np.int32), np.empty((cap, n), np.uint8),
           np.empty(cap, np.float64))
    k.generate(lexicon.nodes, consts, (xs.tiles, xs.cross), st, fs, out, k.scratch(n),
               k.GADDAG if generator == "gaddag" else k.DAWG)
    assert not st[f.S_OVERFLOW]
    moves = []
    count = int(st[f.S_COUNT])
    # rows of plain ints (`tolist`): faster to read than the arrays' scalars
    for row, word in zip(out[0][:count].tolist(), out[1][:count].tolist(), strict=True):
        d, lane, first, length, _placed, score, through, _lidx = row
        r, c = (first, lane) if d else (lane, first)
        moves.append((r, c, bool(d), tuple(word[:length]),
                      tuple(bool(through >> j & 1) for j in range(length)), score))
    return moves


@settings(max_examples=120, deadline=None)
@given(seed=seeds)
def test_generators_match_reference_on_random_positions(seed):
    rng = random.Random(seed)
    words = ref.random_lexicon(rng)
    rack_blanks = rng.choice([None, None, 1, 1, 2])
    grid, rack = ref.random_position(rng, words, rack_blanks=rack_blanks)
    letter_mult, word_mult, start = ref.premiums(grid.shape[0], rng)
    check(grid, rack, words, letter_mult, word_mult, start)


@settings(max_examples=40, deadline=None)
@given(seed=seeds)
def test_generators_match_reference_on_the_standard_board(seed):
    rng = random.Random(seed)
    words = ref.random_lexicon(rng, max_words=rng.randint(20, 150))
    grid, rack = ref.random_position(rng, words, size=15, moves=rng.randint(1, 16),
                                     rack_blanks=rng.choice([None, 0, 1, 2]))
    letter_mult, word_mult, start = ref.premiums(15)
    check(grid, rack, words, letter_mult, word_mult, start)


@settings(max_examples=30, deadline=None)
@given(seed=seeds)
def test_generators_match_reference_on_the_empty_board(seed):
    # the opening: across plays only, covering the start square; bingos likely
    rng = random.Random(seed)
    words = ref.random_lexicon(rng, letters=rng.randint(3, 8), max_length=7)
    size = rng.randint(7, 15)
    grid = np.zeros((size, size), dtype=np.uint8)
    alphabet = sorted({t for w in words for t in w})
    blanks = rng.randint(0, 2)
    rack = [rng.choice(alphabet) for _ in range(RACK_SIZE - blanks)]
    letter_mult, word_mult, start = ref.premiums(size, rng)
    check(grid, rack + [0] * blanks, words, letter_mult, word_mult, start)
