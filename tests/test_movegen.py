"""The move generator's API: incremental cross sets, the modes (all, top N,
best with pruning, count) against each other, leaves, exchanges and the pass."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from static_reference import static_equity

from rackety import Board, Lexicon, RacketyError
from rackety.game import movegen
from rackety.game.move import format_leave
from rackety.game.movegen import MoveGenerator, cross_sets, generate

EMPTY = "/".join(["15"] * 15)
BAG = ("AAAAAAAAABBCCDDDDEEEEEEEEEEEEFFGGGHHIIIIIIIIIJKLLLLMMNNNNNNOOOOOOOOPPQRRRRRRSSSSTTTTTT"
       "UUUUVVWWXYYZ??")


def _random_game(lexicon: Lexicon, rng: random.Random, turns: int) -> list[Board]:
    """Boards along a game of random legal moves (each player gets a fresh random
    rack drawn from what is unseen), each made by `Board.play` from the last, the
    generator told so (`MoveGenerator.after`: it derives the child's cross sets
    from the parent's, lane by lane)."""
    board = Board.from_cgp(f"{EMPTY} {''.join(rng.sample(BAG, 7))}/ 0/0 0")
    boards = [board]
    tries = 0
    while len(boards) <= turns and tries < 4 * turns:
        tries += 1
        placements = board.moves(lexicon).placements()
        if not placements:  # a rack with nothing to play (no vowel): draw another
            unseen = [c for c, k in enumerate(board.unseen()) for _ in range(int(k))]
            unseen += list(board.racks[0])
            board.racks[0] = tuple(rng.sample(unseen, min(7, len(unseen))))
            continue
        move = rng.choice(placements)
        child = board.play(move)
        MoveGenerator.of(lexicon).after(board, move, child)  # the child's sets from these
        board = child
        unseen = [c for c, k in enumerate(board.unseen()) for _ in range(int(k))]
        board.racks[0] = tuple(rng.sample(unseen, min(7, len(unseen))))
        boards.append(board)
    return boards


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_cross_sets_updated_incrementally_equal_a_fresh_computation(twl06: Lexicon,
                                                                    seed: int) -> None:
    rng = random.Random(seed)
    boards = _random_game(twl06, rng, 14)
    assert len(boards) > 3
    generator = MoveGenerator.of(twl06)
    made = []
    real = movegen.cross_sets
    movegen.cross_sets = lambda grid, lexicon: made.append(grid) or real(grid, lexicon)
    try:
        kept_all = [generator.cross_sets(board) for board in boards[1:]]
    finally:
        movegen.cross_sets = real
    assert made == []  # every one derived from its parent's, none computed afresh
    for board, kept in zip(boards[1:], kept_all, strict=True):
        fresh = cross_sets(board.grid, twl06)
        for name in ("tiles", "xset", "xscore", "xhas", "extension"):
            assert np.array_equal(getattr(kept, name), getattr(fresh, name)), name


def _leave_function(seed: int):
    rng = random.Random(seed)
    weights = {ch: rng.uniform(-6, 6) for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ?"}

    def value(leave: str) -> float:
        return round(sum(weights[ch] for ch in leave) + 0.5 * len(set(leave)), 3)
    return value


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(1, 15))
def test_top_and_best_modes_agree_with_all_moves(twl06: Lexicon, seed: int, n: int) -> None:
    rng = random.Random(seed)
    board = _random_game(twl06, rng, rng.randint(0, 10))[-1]
    leave = _leave_function(seed)
    everything = list(board.moves(twl06, leave=leave))
    equities = sorted((m.equity for m in everything), reverse=True)
    all_moves = board.moves(twl06, leave=leave)
    top = board.moves(twl06, mode="top", top=n, leave=leave)
    # the N best, in the order of the whole list (ties broken the same way)
    assert [m.equity for m in top] == equities[:n]
    assert list(top) == everything[:n] and len(top) == min(n, len(everything))
    # the counts are the position's, whatever the mode
    assert (top.count, top.best_score) == (all_moves.count, all_moves.best_score)
    best = board.moves(twl06, mode="best", leave=leave)
    assert best.best().equity == equities[0]
    assert top.stats["over_bound"] == best.stats["over_bound"] == 0
    exact = board.moves(twl06, mode="best", leave=leave, exact_best_score=True)
    assert exact.best().equity == equities[0]
    assert exact.best_score == max((m.score for m in everything if m.kind == "place"),
                                   default=None)
    assert set(top) <= set(everything)
    for m in everything:
        if m.kind == "place":
            # score + leave, and on an opening its vowels' placement (full static
            # equity; the bag is never empty this early)
            assert m.equity == pytest.approx(static_equity(
                board, m, m.leave_codes, lambda kept: leave(format_leave(board.alphabet, kept))))
            assert Counter(m.leave_codes) + Counter(0 if t & 0x80 else t for t in m.placed) == \
                Counter(board.rack)


def test_no_move_beats_its_anchors_bound(twl06: Lexicon) -> None:
    """The pruned search is only right if every anchor's upper bound holds
    (MAGPIE and wolges assert the same after each anchor)."""
    lines = (Path(__file__).parent.parent / "bench" / "data" / "midgame400_twl06.cgp"
             ).read_text().splitlines()
    leave = _leave_function(3)
    skipped = 0
    for line in lines[:80]:
        board = Board.from_cgp(line)
        for kw in ({}, {"leave": leave}):
            moves = board.moves(twl06, mode="best", **kw)
            assert moves.stats["over_bound"] == 0
            skipped += moves.stats["anchors_total"] - moves.stats["anchors"]
            everything = board.moves(twl06, **kw)
            assert moves.best().equity == everything.best().equity
    assert skipped > 0  # the bounds do prune


def test_count_mode_and_generators_agree(twl06: Lexicon) -> None:
    rng = random.Random(5)
    board = _random_game(twl06, rng, 8)[-1]
    full = board.moves(twl06)
    for generator in ("gaddag", "dawg"):
        counted = board.moves(twl06, mode="count", generator=generator)
        assert (counted.count, counted.best_score) == (full.count, full.best_score)
        assert set(board.moves(twl06, generator=generator)) == set(full)
    assert full.count == sum(1 for m in full if m.kind == "place")


def test_exchanges_are_every_distinct_multiset_when_the_bag_allows(twl06: Lexicon) -> None:
    board = Board.from_cgp(f"{EMPTY} AAB?/ 0/0 0")
    moves = board.moves(twl06)
    exchanges = [tuple(sorted(m.tiles)) for m in moves if m.kind == "exchange"]
    assert len(exchanges) == len(set(exchanges)) == 3 * 2 * 2 - 1  # A:0-2, B:0-1, ?:0-1
    assert [m.kind for m in moves].count("pass") == 1
    # 80 tiles on the board, 7 on the rack: 13 unseen, of which an unknown rack
    # holds 7, so 6 are in the bag: no exchange
    late = Board.from_cgp("AAAAAAAAABBCCDD/DDEEEEEEEEEEEEF/FGGGHHIIIIIIIII/JKLLLLMMNNNNNNO/"
                          "OOOOOOOPPQRRRRR/TTTTU10/15/15/15/15/15/15/15/15/15 RSSSSTT/ 0/0 0")
    assert late.tiles_on_board == 80 and late.bag_count == 6
    assert not [m for m in late.moves(twl06) if m.kind == "exchange"]


def test_moves_are_made_on_demand_and_read_back(twl06: Lexicon) -> None:
    board = Board.from_cgp(f"{EMPTY} AADNPUY/ 0/0 0 lex TWL06;")
    moves = board.moves(twl06, leave=None)  # by score
    assert (moves.count, moves.best_score) == (116, 30)
    best = moves.best()
    assert board.notation(best) == "8H PANDY" and best.score == 30
    assert best.leave == "AU"
    assert board.parse_move("8H PANDY") == best
    assert board.score(best) == best.score
    assert moves.meta.shape == (len(moves.tiles), 8)  # the arrays behind the list
    assert [m.score for m in moves[:3]] == [30, 28, 22]
    after = board.play(best)
    assert after.grid[7, 7:12].tolist() == list(board.alphabet.word("PANDY"))


def test_blank_leaves_are_written_last() -> None:
    board = Board.from_cgp(f"{EMPTY} ?EA/ 0/0 0")
    assert format_leave(board.alphabet, (0, 5, 1)) == "AE?"


def test_wrong_lexicon_or_mode_is_a_clear_error(twl06: Lexicon) -> None:
    catalan_board = Board.from_cgp(f"{EMPTY} AEIOU/ 0/0 0", alphabet="catalan")
    with pytest.raises(RacketyError, match="alphabet"):
        catalan_board.moves(twl06)
    board = Board.from_cgp(f"{EMPTY} AEIOU/ 0/0 0")
    with pytest.raises(RacketyError, match="mode"):
        generate(board, twl06, mode="fastest")
    dawg_only = Lexicon.from_words(["AE", "EA"], gaddag=False)
    with pytest.raises(RacketyError, match="GADDAG"):
        board.moves(dawg_only)
    assert board.moves(dawg_only, generator="dawg").count == 2 * 2  # AE, EA at 8G and 8H


def test_a_leave_model_gives_every_subset_at_once(twl06: Lexicon) -> None:
    from rackety.game.movegen import leave_subsets

    weights = _leave_function(11)

    class PerTile:
        def rack_values(self, alphabet, rack):
            distinct, kept = leave_subsets(rack)
            labels = [alphabet.format([c]) for c in distinct]
            return np.array([weights("".join(lab * int(k) for lab, k in zip(labels, row)))
                             if row.any() else 0.0 for row in kept])

    board = _random_game(twl06, random.Random(2), 6)[-1]
    by_model = board.moves(twl06, leave=PerTile())
    by_function = board.moves(twl06, leave=weights)
    assert [(m, m.equity) for m in by_model] == [(m, m.equity) for m in by_function]
    assert board.moves(twl06, mode="best", leave=PerTile()).best().equity == \
        by_function.best().equity


_UNCOMPILED = """
import json, sys
from rackety import Board, Leaves, Lexicon
lexicon = Lexicon.load(sys.argv[1])
board = Board.from_cgp(sys.argv[2])
leave = Leaves.load(sys.argv[3], lexicon.alphabet)
out = {mode: [(board.notation(m), m.score, round(m.equity, 6)) for m in
              board.moves(lexicon, mode=mode, leave=leave, top=5)]
       for mode in ("all", "top", "best")}
print(json.dumps(out))
"""


def test_the_kernels_run_uncompiled_and_agree(tmp_path: Path) -> None:
    """With NUMBA_DISABLE_JIT=1 the kernels run as Python (the raw loads and
    stores through ctypes) and list the same moves as compiled."""
    import json
    import os
    import subprocess
    import sys

    from rackety import Leaves

    words = ["AB", "BA", "CAB", "ABA", "BAD", "DAB", "ABED", "BEAD", "BREAD", "BEARD",
             "READ", "DARE", "DEAR", "RED", "BED", "BAR", "BRA", "ARE", "ERA", "EAR"]
    lexicon = Lexicon.from_words(words, name="uncompiled")
    path = tmp_path / "small.kwg"
    lexicon.save(path)
    rows = ["15"] * 15
    rows[7] = "6BREAD4"
    cgp = f"{'/'.join(rows)} ABDER?E/ 0/0 0"
    board = Board.from_cgp(cgp)
    values = {"?": 25.0, "E": 3.5, "B": -2.0, "ER": 4.0, "DE": 1.5, "AB": -1.0, "E?": 27.0}
    Leaves.from_values(lexicon.alphabet, values).save(tmp_path / "small.klv2")
    leave = Leaves.load(tmp_path / "small.klv2", lexicon.alphabet)
    lexicon = Lexicon.load(str(path))
    expected = {mode: [[board.notation(m), m.score, round(m.equity, 6)] for m in
                       board.moves(lexicon, mode=mode, leave=leave, top=5)]
                for mode in ("all", "top", "best")}
    assert len(expected["all"]) > 50 and expected["best"]
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    proc = subprocess.run([sys.executable, "-c", _UNCOMPILED, str(path), cgp,
                           str(tmp_path / "small.klv2")], env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout) == expected


def test_find_gives_each_move_as_the_list_holds_it(twl06) -> None:
    """`MoveList.find`: every move of a list (placements, exchanges, the pass)
    is found with its own equity and leave; a move the list does not hold
    (a phony, a placement elsewhere) is not."""
    from rackety import Board, Move

    board = Board()
    board.racks = [tuple(board.alphabet.tokenize("AEINRS?")), ()]
    moves = board.moves(twl06)
    listed = list(moves)
    assert {m.kind for m in listed} == {"place", "exchange", "pass"}
    for m in listed[::7] + [m for m in listed if m.kind != "place"]:
        found = moves.find(Move(m.kind, m.row, m.col, m.down, m.tiles, m.through,
                                alphabet=board.alphabet))
        assert found == m and found.equity == m.equity and found.leave == m.leave
    assert moves.find(board.parse_move("8D AEINRSX")) is None
    assert moves.find(board.parse_move("1A AS")) is None
