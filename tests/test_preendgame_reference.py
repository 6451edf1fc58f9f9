"""The pre-endgame (`rackety.search.preendgame`) against a plain
expectimax-over-minimax on tiny positions (tests/peg_reference.py): one to
three tiles in the bag, the opponent's rack unknown or known, every candidate's
win % and spread change exactly; the draws' combinatorics
(`rackety.search.peg_draws`); the time budget and processes at two in the bag."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from endgame_reference import LETTERS, TINY7, random_plays, tiny_alphabet, tiny_lexicon
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from peg_reference import Placements, candidate, with_unseen

from rackety import Board
from rackety.search import peg_draws
from rackety.search.preendgame import preendgame


@pytest.fixture(scope="module")
def tiny():
    return tiny_lexicon()


@st.composite
def tiny_preendgames(draw, lexicon, bags=(1, 2, 2, 3)):
    """A 7x7 position after zero to three random plays, the mover's full rack
    (three tiles, a blank now and then), ``k`` tiles in the bag and the
    opponent's rack unknown (or known), the tiles counted so that just these
    are unseen; no scoreless turn before."""
    big = tiny_alphabet()
    board = Board(alphabet=big, layout=TINY7)
    board = random_plays(draw, lexicon, board, 3)
    k = draw(st.sampled_from(bags))
    known = draw(st.booleans()) if k <= 2 else False
    rack = draw(st.text(LETTERS, min_size=3, max_size=3))
    if draw(st.integers(0, 4)) == 0:  # a blank now and then (more moves, slower)
        rack = "?" + rack[1:]
    pool = tuple(big.tokenize(draw(st.text(LETTERS, min_size=3 + k, max_size=3 + k))))
    board.racks = [tuple(big.tokenize(rack)), pool[:3] if known else ()]
    board.scores = [draw(st.integers(0, 40)), draw(st.integers(0, 40))]
    return with_unseen(board, pool[3:] if known else pool), k


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_matches_plain_expectimax(tiny, data):
    board, k = data.draw(tiny_preendgames(tiny))
    assume(board.moves(tiny, exchanges=False).placements())
    result = preendgame(board, tiny, candidates=4, leave="h1", rollouts=4)
    assert result.bag == k
    unseen = Counter({c: int(n) for c, n in enumerate(board.unseen().tolist()) if n})
    n = sum(unseen.values())
    memo: dict = {}
    for outcome in result.outcomes:
        event(f"{k} in the bag: {outcome.method}")
        if outcome.method == "rollouts":
            assert k == 3 and outcome.move.n_placed < 3 and outcome.rollouts == 4
            continue
        win, spread, _ = candidate(board, tiny, outcome.move, k, memo)
        assert outcome.exact and outcome.win_pct == pytest.approx(win, abs=1e-9)
        assert outcome.spread == pytest.approx(spread, abs=1e-9)
        ways = sum(d[1] for d in outcome.draws)
        if outcome.method == "replies":  # ordered: the mover's tile, then the bag's
            assert k == 2 and outcome.move.n_placed == 1
            assert ways == n * (n - 1)
            assert all(len(d[0]) == 2 for d in outcome.draws)
        else:  # the multisets the mover draws
            assert ways == (1 if board.racks[1] else math.comb(n, k))
            assert len(outcome.draws) == outcome.worlds
    keys = [(-o.win_pct, -o.spread) for o in result.outcomes]
    assert keys == sorted(keys)


@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_the_references_placements_of_a_rack_among_a_pools(tiny, data):
    # the reference finds a rack's placements among those of a pool of up to
    # nine tiles holding it (`peg_reference.Placements`): they are the rack's
    # own (`Board.moves` with the rack, each played by `Board.play`)
    big = tiny_alphabet()
    board = random_plays(data.draw, tiny, Board(alphabet=big, layout=TINY7), 3)
    rack = tuple(sorted(big.tokenize(data.draw(st.text(LETTERS + "?", min_size=1, max_size=3)))))
    more = tuple(big.tokenize(data.draw(st.text(LETTERS + "?", max_size=6))))
    found = Placements(board, tiny)(board.grid.tobytes(), rack, more + rack)
    board.racks = [rack, ()]
    played = [(move.score, board.play(move)) for move in
              board.moves(tiny, exchanges=False).placements()]
    assert sorted(found) == sorted((score, after.grid.tobytes(), tuple(sorted(after.racks[-1])))
                                   for score, after in played)
    event("the rack has placements" if found else "the rack has none")


def _snit(pool: str = "NTSAS") -> Board:
    """A 7x7 position, the mover's rack EIS, ``pool`` unseen (two in the bag)."""
    big = tiny_alphabet()
    return with_unseen(Board.from_cgp("7/7/7/SNIT3/7/7/7 EIS/ 0/30 0", alphabet=big,
                                      layout=TINY7), tuple(big.tokenize(pool)))


#: a one-tile play (every reply searched), two plays that empty the bag
SNIT_MOVES = ("A3 I(S)", "B2 SI(N)", "B2 SI(N)E")


def test_the_opponents_pass_is_searched(tiny):
    # two in the bag; after A3 I(S) (one tile) the opponent's best in some worlds
    # is to pass with a tile in the bag: forbidding that pass changes the value
    board = _snit()
    move = board.parse_move("A3 I(S)")
    (outcome,) = preendgame(board, tiny, moves=[move]).outcomes
    assert outcome.method == "replies" and outcome.exact and outcome.worlds == 13
    win, spread, rows = candidate(board, tiny, outcome.move, 2, {})
    assert (outcome.win_pct, outcome.spread) == (pytest.approx(win), pytest.approx(spread))
    _, no_pass, _ = candidate(board, tiny, outcome.move, 2, {}, reply_passes=False)
    assert no_pass > spread  # the pass was the opponent's best somewhere
    # each world's change is the reference's, worlds of the same tiles summed
    mine = {d[0]: d[2] for d in outcome.draws}
    theirs = {r[0]: r[2] for r in rows}
    assert mine == theirs


def test_a_budget_at_two_in_the_bag(tiny, monkeypatch):
    import rackety.search.preendgame as module

    board = _snit()
    moves = [board.parse_move(m) for m in SNIT_MOVES]
    exact = preendgame(board, tiny, moves=moves)
    assert sorted(o.method for o in exact.outcomes) == ["endgames", "endgames", "replies"]
    ample = preendgame(board, tiny, moves=moves, seconds=60)
    assert ample.exact and [(o.move, o.draws) for o in ample.outcomes] == \
        [(o.move, o.draws) for o in exact.outcomes]
    # a budget spent at once: each candidate still gets its first endgame
    monkeypatch.setattr(module, "MIN_SOLVE_SECONDS", 1e-9)
    timed = preendgame(board, tiny, moves=moves, seconds=1e-9)
    assert {o.move for o in timed.outcomes} == {o.move for o in exact.outcomes}
    assert not timed.exact and 3 <= timed.endgames < exact.endgames
    for outcome in timed.outcomes:
        assert outcome.draws and not outcome.exact
        assert len(outcome.draws) <= outcome.worlds


def test_processes_give_the_serial_result_at_two_in_the_bag(tiny):
    # the workers are forked from this process: they find the tiny lexicon here
    board = _snit()
    moves = [board.parse_move(m) for m in SNIT_MOVES]
    serial = preendgame(board, tiny, moves=moves, jobs=1)
    parallel = preendgame(board, tiny, moves=moves, jobs=2)
    assert [(o.move, o.win_pct, o.spread, o.draws) for o in parallel.outcomes] == \
        [(o.move, o.win_pct, o.spread, o.draws) for o in serial.outcomes]
    assert parallel.endgames == serial.endgames and parallel.exact


# ------------------------------------------------------------------ the draws
pools = st.dictionaries(st.integers(0, 6), st.integers(1, 4), min_size=1, max_size=5).map(
    Counter)


@settings(max_examples=60, deadline=None)
@given(pool=pools, k=st.integers(1, 4))
def test_draw_weights(pool, k):
    n = sum(pool.values())
    assume(k <= n)
    multisets = peg_draws.submultisets(pool, k)
    assert sum(w for _, w in multisets) == math.comb(n, k)
    assert len(multisets) == len({d for d, _ in multisets}) == \
        peg_draws.count_submultisets(pool, k)
    assert all(len(d) == k and not Counter(d) - pool for d, _ in multisets)
    sequences = list(peg_draws.sequences(pool, k))
    assert sum(w for _, w in sequences) == math.perm(n, k)
    # a multiset's ways are its orders' ways over k!
    by_set = Counter()
    for order, ways in sequences:
        by_set[tuple(sorted(order))] += ways
    assert {d: w * math.factorial(k) for d, w in multisets} == dict(by_set)


@settings(max_examples=30, deadline=None)
@given(pool=pools, k=st.integers(1, 4), n=st.integers(1, 50), seed=st.integers(0, 99))
def test_samples_are_draws(pool, k, n, seed):
    assume(k <= sum(pool.values()))
    drawn = peg_draws.sample(pool, k, n, seed)
    assert sum(c for _, c in drawn) == n
    assert all(len(d) == k and not Counter(d) - pool for d, _ in drawn)
    assert drawn == peg_draws.sample(pool, k, n, seed)


def test_three_in_the_bag(tiny):
    # a play of three tiles empties the bag: every draw solved; one of two leaves
    # a tile in it: estimated by rollouts; progress says what is waited for
    board = _snit("NTSASE")
    out = [board.parse_move(m) for m in ("B2 SI(N)E", "B2 SI(N)")]
    seen: list[str] = []
    result = preendgame(board, tiny, moves=out, rollouts=8,
                        progress=lambda done, total, what: seen.append(what))
    assert result.bag == 3
    by = {board.notation(o.move): o for o in result.outcomes}
    full, short = by["B2 SI(N)E"], by["B2 SI(N)"]
    unseen = Counter({c: int(n) for c, n in enumerate(board.unseen().tolist()) if n})
    assert full.method == "endgames" and full.exact
    assert full.worlds == len(full.draws) == peg_draws.count_submultisets(unseen, 3)
    win, spread, _ = candidate(board, tiny, full.move, 3, {})
    assert (full.win_pct, full.spread) == (pytest.approx(win), pytest.approx(spread))
    assert short.method == "rollouts" and short.rollouts == 8 and not short.exact
    assert not short.draws and 0 <= short.win_pct <= 100
    assert any("rollouts" in what for what in seen)
    assert any(what.startswith("loading the endgame solver") for what in seen)
    assert any(what.startswith("endgames") for what in seen)
    # a sample of the draws past ``draws``
    sampled = preendgame(board, tiny, moves=out[:1], draws=5, seed=3).best
    assert sampled.method == "sampled" and not sampled.exact
    assert sum(d[1] for d in sampled.draws) == 5 and len(sampled.draws) == sampled.worlds
