"""WordSmog: the alphagram lexicon and its word check against sorted letters,
the brute-force reference (tests/wordsmog_reference.py) against trying every
letter on every square, and the compiled generator against the reference on
random small lexicons and positions, blanks included: the same moves, each
once, with the same scores (and `Board.score`'s)."""

from __future__ import annotations

import random

import movegen_reference as ref
import numpy as np
import pytest
import wordsmog_reference as wref
from hypothesis import given, note, settings
from hypothesis import strategies as st

from rackety import Board, Lexicon

BINGO = 50
RACK_SIZE = 7
seeds = st.integers(0, 2**32 - 1)


def lexicon_of(words) -> Lexicon:
    return Lexicon.from_words([ref.word_text(w) for w in sorted(words)])


def alphagram_set(words) -> set[tuple[int, ...]]:
    return {tuple(sorted(w)) for w in words}


# ------------------------------------------------------------ the word check
@settings(max_examples=60, deadline=None)
@given(seed=seeds)
def test_word_check_is_sorted_letters_membership(seed):
    from rackety.kernels.wordsmog import is_anagram

    rng = random.Random(seed)
    words = ref.random_lexicon(rng)
    lexicon = lexicon_of(words)
    alphagrams = alphagram_set(words)
    kwg = lexicon.alphagrams().nodes
    assert len(lexicon.alphagrams()) == len(alphagrams)
    assert {tuple(lexicon.alphabet.word(w)) for w in lexicon.alphagrams().words()} == alphagrams
    buf = np.zeros(64, np.int64)
    letters = sorted({t for w in words for t in w}) + [9, 10]
    probes = [list(w) for w in rng.sample(sorted(words), min(20, len(words)))]
    probes += [rng.sample(p, len(p)) for p in probes]  # shuffled words
    probes += [[rng.choice(letters) for _ in range(rng.randint(1, 6))] for _ in range(60)]
    for tiles in probes:
        flagged = [t | (0x80 if rng.random() < 0.3 else 0) for t in tiles]
        expected = tuple(sorted(tiles)) in alphagrams
        assert lexicon.has_anagram(flagged) == expected, tiles
        assert is_anagram(kwg, np.array(flagged, np.uint8), len(flagged), buf) == expected
        assert lexicon.has_anagram(ref.word_text(tiles)) == expected


def test_alphagrams_sort_multi_letter_tiles_by_code():
    # Spanish CH, LL and RR are one tile each (written [CH] ... where letters
    # alone would read otherwise): an alphagram sorts codes, not letters
    lexicon = Lexicon.from_words(["[CH]AL", "[LL]AMA", "CA[RR]O", "AL"], alphabet="spanish")
    alphabet = lexicon.alphabet
    alphagrams = lexicon.alphagrams()
    assert len(alphagrams) == 4 and not alphagrams.has_gaddag
    for word in ("[CH]AL", "[LL]AMA", "CA[RR]O"):
        codes = alphabet.word(word)
        assert sorted(codes) in alphagrams and max(codes) > 3
        assert lexicon.has_anagram(codes[::-1])
    assert lexicon.has_anagram("LA[CH]") and lexicon.has_anagram("O[RR]AC")
    assert not lexicon.has_anagram("LACH") and not lexicon.has_anagram("CLAH")  # C and H
    assert not lexicon.has_anagram("LAMAL") and not lexicon.has_anagram("ORRAC")
    assert not lexicon.has_anagram("LAX") and not lexicon.has_anagram("")


# ------------------------------------------------------------ the reference
def test_reference_hand_case():
    # words CAT, AT; board: T A across at (2,2)-(2,3): TA is an anagram of AT
    #     0 1 2 3 4
    #  2  . . T A .
    A, C, T = 1, 3, 20
    grid = np.zeros((5, 5), np.uint8)
    grid[2, 2], grid[2, 3] = T, A
    words = {(C, A, T), (A, T)}
    one = np.ones((5, 5), np.int64)
    moves = wref.reference_moves(grid, [C], words, ref.ENGLISH_POINTS, one, one, (2, 2),
                                 BINGO, RACK_SIZE)
    # C before or after TA (CTA, TAC: anagrams of CAT); C above or below A makes
    # CA/AC (no word) and above or below T makes CT/TC (no word)
    assert set(moves) == {(2, 1, False, (C, T, A), (False, True, True)),
                          (2, 2, False, (T, A, C), (True, True, False))}
    assert set(moves.values()) == {3 + 1 + 1}
    # classic rules would find nothing: CTA and TAC are no words
    assert not ref.reference_moves(grid, [C], words, ref.ENGLISH_POINTS, one, one, (2, 2),
                                   BINGO, RACK_SIZE)


@pytest.mark.parametrize("seed", range(6))
def test_reference_agrees_with_trying_every_letter(seed):
    rng = random.Random(seed)
    words = ref.random_lexicon(rng, letters=4, max_words=30, max_length=4)
    grid, rack = ref.random_position(rng, words, size=5, moves=rng.randint(0, 3), rack_size=3)
    one = np.ones((5, 5), np.int64)
    letters = sorted({t for w in words for t in w})
    found = wref.reference_moves(grid, rack, words, ref.ENGLISH_POINTS, one, one, (2, 2),
                                 BINGO, 3)
    assert set(found) == wref.moves_by_legal(grid, rack, words, letters, (2, 2))


# ------------------------------------------------------------ the generator
def generate_from_arrays(grid, rack, lexicon, *, letter_mult, word_mult, start):
    """Every WordSmog placement of a bare position (premiums as arrays) as
    {(row, col, down, tiles, through): score}, through the kernel's entry."""
    from rackety.game.state import full_mask, points_of
    from rackety.kernels import crosssets, wordsmog
    from rackety.kernels import fields as f
    from rackety.kernels.bits import GRAPH_ALPHAGRAMS

    grid = np.ascontiguousarray(grid, np.uint8)
    n = grid.shape[0]
    lm = np.asarray(letter_mult, np.int64)
    wm = np.asarray(word_mult, np.int64)
    rules = np.zeros(f.G_SIZE, np.int64)
    rules[[f.G_N, f.G_RACK_SIZE, f.G_BINGO, f.G_START_ROW, f.G_START_COL, f.G_BOTH_DIRS,
           f.G_FULL_MASK]] = (n, RACK_SIZE, BINGO, start[0], start[1], 0,
                              full_mask(lexicon.alphabet))
    consts = f.Consts(np.ascontiguousarray(np.stack([lm, lm.T])),
                      np.ascontiguousarray(np.stack([wm, wm.T])), points_of(lexicon.alphabet),
                      rules)
    cap = 1 << 17
    out = f.Output(np.empty((cap, f.META), np.int32), np.empty((cap, n), np.uint8),
                   np.empty(cap, np.float64))
    st_ = np.zeros(f.ST_SIZE, np.int64)
    fs = np.zeros(f.F_HEAP + 1 + 256, np.float64)
    nothing = np.zeros(0, np.float64)
    table = (np.zeros(1, np.uint32), np.zeros(1, np.int64), np.zeros(1, np.float32))
    request = f.Request(np.array(rack, np.int64), table, wordsmog.LEAVES_NONE, nothing, -1, 0,
                        f.MODE_ALL, 1, cap, 0, False)
    alphagrams = lexicon.alphagrams()
    position = crosssets.of_grid(alphagrams.nodes, GRAPH_ALPHAGRAMS, grid,
                                 points_of(lexicon.alphabet), full_mask(lexicon.alphabet))
    _cut, count, *_ = wordsmog.moves_of(alphagrams.nodes, consts, position, request, st_, fs,
                                        out, wordsmog.room(n))
    assert not st_[f.S_OVERFLOW]
    moves: dict = {}
    # rows of plain ints (`tolist`): faster to read than the arrays' scalars
    for row, word in zip(out[0][:count].tolist(), out[1][:count].tolist(), strict=True):
        d, lane, first, length, placed, score, through, _lidx = row
        r, c = (first, lane) if d else (lane, first)
        key = (r, c, bool(d), tuple(word[:length]),
               tuple(bool(through >> j & 1) for j in range(length)))
        assert key not in moves, f"listed twice: {key}"
        assert placed == key[4].count(False)
        moves[key] = score
    assert count == int(st_[f.S_TOTAL])
    return moves


def show(grid: np.ndarray) -> str:
    return "\n".join(" ".join(ref.word_text([t]) if t else "." for t in row.tolist())
                     for row in grid)


def check(grid, rack, words, letter_mult, word_mult, start, lexicon=None) -> None:
    """The generator's moves and scores are the reference's; ``lexicon``: the
    words in another alphabet (English by default, points from it)."""
    from rackety.game.state import points_of

    lexicon = lexicon or lexicon_of(words)
    text = lexicon.alphabet.format
    note(f"words: {sorted(text(w) for w in words)}")
    note(f"board:\n{show(grid)}")
    note(f"rack: {text([t for t in rack if t])}{'?' * rack.count(0)}")
    expected = wref.reference_moves(grid, rack, words, points_of(lexicon.alphabet),
                                    letter_mult, word_mult, start, BINGO, RACK_SIZE)
    got = generate_from_arrays(grid, rack, lexicon, letter_mult=letter_mult,
                               word_mult=word_mult, start=start)
    missing = {text(m[3]): m for m in expected if m not in got}
    extra = {text(m[3]): m for m in got if m not in expected}
    wrong = {m: (got[m], s) for m, s in expected.items() if m in got and got[m] != s}
    assert (missing, extra, wrong) == ({}, {}, {})


@settings(max_examples=80, deadline=None)
@given(seed=seeds)
def test_generator_matches_reference_on_random_positions(seed):
    rng = random.Random(seed)
    words = ref.random_lexicon(rng, max_words=rng.randint(20, 80))
    grid, rack = ref.random_position(rng, words, size=rng.randint(5, 9),
                                     rack_size=rng.randint(3, 5),
                                     rack_blanks=rng.choice([None, None, 1, 1, 2]))
    letter_mult, word_mult, start = ref.premiums(grid.shape[0], rng)
    check(grid, rack, words, letter_mult, word_mult, start)


@settings(max_examples=40, deadline=None)
@given(seed=seeds)
def test_generator_matches_reference_with_seven_tiles(seed):
    rng = random.Random(seed)
    words = ref.random_lexicon(rng, letters=6, max_words=rng.randint(20, 60), max_length=7)
    grid, rack = ref.random_position(rng, words, size=rng.randint(7, 11),
                                     moves=rng.randint(0, 6), rack_size=7,
                                     rack_blanks=rng.choice([None, 0, 1]))
    letter_mult, word_mult, start = ref.premiums(grid.shape[0], rng)
    check(grid, rack, words, letter_mult, word_mult, start)


@settings(max_examples=25, deadline=None)
@given(seed=seeds)
def test_generator_matches_reference_with_multi_letter_tiles(seed):
    """Spanish: the words' codes include CH, LL and RR, one tile each."""
    rng = random.Random(seed)
    codes = [1, 4, 6, 13, 17, 21, 3, 12]  # A CH E LL O RR C L
    words = {tuple(codes[c - 1] for c in w)
             for w in ref.random_lexicon(rng, max_words=rng.randint(20, 80))}
    flat = np.array([c for w in sorted(words) for c in w], np.uint8)
    lexicon = Lexicon.from_tiles(flat, np.array([len(w) for w in sorted(words)]), "spanish")
    from rackety.game.state import points_of

    grid, rack = ref.random_position(rng, words, size=rng.randint(5, 9),
                                     rack_size=rng.randint(3, 5),
                                     rack_blanks=rng.choice([None, 1]),
                                     points=points_of(lexicon.alphabet))
    letter_mult, word_mult, start = ref.premiums(grid.shape[0], rng)
    check(grid, rack, words, letter_mult, word_mult, start, lexicon)


@settings(max_examples=25, deadline=None)
@given(seed=seeds)
def test_board_moves_on_the_standard_board(seed):
    """Through the public entry: the move list of `Board.moves(variant='wordsmog')`
    is the reference's, every score is `Board.score`'s, and the equity is the
    score plus the given leave's value."""
    rng = random.Random(seed)
    words = ref.random_lexicon(rng, max_words=rng.randint(20, 100))
    grid, rack = ref.random_position(rng, words, size=15, moves=rng.randint(0, 10),
                                     rack_size=rng.randint(4, 6), copies=2, bag_blanks=2)
    rows = ["".join(ref.word_text([t]) if t else "." for t in row.tolist()) for row in grid]
    cgp = "/".join(_cgp_row(r) for r in rows)
    rack_text = "".join(ref.word_text([t]) if t else "?" for t in rack)
    board = Board.from_cgp(f"{cgp} {rack_text}/ 0/0 0")
    note(board.cgp())
    letter_mult, word_mult, start = ref.premiums(15)
    expected = wref.reference_moves(grid, rack, words, ref.ENGLISH_POINTS, letter_mult,
                                    word_mult, start, board.rules.bingo_bonus, RACK_SIZE)
    lexicon = lexicon_of(words)
    moves = board.moves(lexicon, variant="wordsmog", leave=lambda kept: len(kept) / 4,
                        static=False, exchanges=False)
    assert moves.count == len(expected)
    got = {}
    for move in moves.placements():
        key = (move.row, move.col, move.down, move.tiles, move.through)
        got[key] = move.score
        assert board.score(move) == move.score
        kept = len(rack) - move.n_placed
        assert move.equity == pytest.approx(move.score + kept / 4)
    assert got == expected
    best = board.moves(lexicon, variant="wordsmog", mode="best", leave=None)  # by score
    assert best.best_score == (max(expected.values()) if expected else None)
    if expected:
        assert best.best().score == max(expected.values())
    top = board.moves(lexicon, variant="wordsmog", mode="top", top=5, exchanges=False,
                      leave=None)
    scores = sorted(expected.values(), reverse=True)
    assert [m.score for m in top.placements()][:5] == scores[:5]


def _cgp_row(row: str) -> str:
    out, gap = "", 0
    for ch in row:
        if ch == ".":
            gap += 1
            continue
        if gap:
            out += str(gap)
            gap = 0
        out += ch
    return out + (str(gap) if gap else "")


def test_wordsmog_refused_variant_and_classic_unchanged():
    from rackety.errors import RacketyError

    lexicon = Lexicon.from_words(["CAT", "AT"])
    board = Board.from_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ACT/ 0/0 0")
    with pytest.raises(RacketyError, match="variant"):
        board.moves(lexicon, variant="jumbled")
    classic = {board.notation(m) for m in board.moves(lexicon).placements()}
    smog = {board.notation(m) for m in board.moves(lexicon, variant="wordsmog").placements()}
    assert classic < smog and "8G TCA" in smog and "8G TCA" not in classic
