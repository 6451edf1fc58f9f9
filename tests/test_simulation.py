"""Simulation: a known answer (a play that opens a triple-word hook for a big
reply loses to a slightly lower-scoring safe play), early dropping, and results
that do not depend on the number of processes."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rackety import Board, Lexicon
from rackety.errors import RacketyError
from rackety.frontends.cli import main
from rackety.search.simulation import (
    AUTO_PLIES,
    TOP_TWO_FIRST,
    Candidate,
    deepest_plies,
    drop_behind,
    simulate,
)

# Column A holds A (row 3) and B (row 4). D above them makes DAB (6 points) and
# lets the opponent, who holds the Q, play QDAB on the triple-word square A1
# (48 points); S below makes ABS (5 points) and opens nothing.
WORDS = ["AB", "DAB", "ABS", "QDAB"]
CGP = ("15/15/A14/B14/15/15/15/15/15/15/15/15/15/15/15 DSVVWWX/QKJZFFY 0/0 0")


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> tuple[Lexicon, str]:
    lexicon = Lexicon.from_words(WORDS)
    path = tmp_path_factory.mktemp("sim") / "small.kwg"
    lexicon.save(path)
    return lexicon, str(path)


def test_the_open_lane_loses_to_the_safe_play(small: tuple[Lexicon, str]) -> None:
    lexicon, _ = small
    board = Board.from_cgp(CGP)
    risky, safe = board.parse_move("A2 D(AB)"), board.parse_move("A3 (AB)S")
    assert board.score(risky) == 6 and board.score(safe) == 5
    result = simulate(board, lexicon, moves=[risky, safe, board.parse_move("pass")],
                      iterations=400, seed=3)
    by_move = {c.move: c for c in result.candidates}
    assert by_move[risky].equity < by_move[safe].equity - 30  # QDAB: 48 on the TWS
    assert result.candidates[-1].move == risky  # it scores most, and simulates worst
    # clearly worst: dropped at the first check, long before the 400 asked for
    assert by_move[risky].dropped and by_move[risky].iterations < 100
    assert not result.best.dropped


def _totals(c: Candidate, dropped: bool | None = None) -> tuple:
    """What a candidate's rollouts came to (exactly, floats and all)."""
    return (c.move, c.iterations, c.mean, c.m2, c.win_mean, c.win_m2,
            c.dropped if dropped is None else dropped)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.tuples(st.floats(-300, 300), st.sampled_from([0.0, 0.5, 1.0])),
                         max_size=20), max_size=8),
       st.integers(0, 7))
def test_running_totals_are_the_rollouts_statistics(batches, cut) -> None:
    """Batches folded into a candidate (`add`), or into two that are then
    merged, give the mean, standard error and win share of all the rollouts
    together (numpy's, the reference), whatever the batches' sizes."""
    import math

    import numpy as np

    move = Board.from_cgp(CGP).parse_move("pass")
    one, first, second = (Candidate(move, 7.0) for _ in range(3))
    for k, batch in enumerate(batches):
        values = np.array([v for v, _ in batch], dtype=float)
        wins = np.array([w for _, w in batch], dtype=float)
        one.add(values, wins)
        (first if k < cut else second).add(values, wins)
    first.merge(second)
    rollouts = [r for batch in batches for r in batch]
    values = np.array([v for v, _ in rollouts], dtype=float)
    for c in (one, first):
        assert c.iterations == len(rollouts)
        if not rollouts:
            assert (c.equity, c.win_pct, c.stderr) == (7.0, 50.0, math.inf)
            continue
        assert math.isclose(c.equity, float(np.mean(values)), rel_tol=1e-9, abs_tol=1e-9)
        assert math.isclose(c.win_pct, 100 * sum(w for _, w in rollouts) / len(rollouts))
        if len(rollouts) > 1:
            reference = float(np.std(values, ddof=1) / math.sqrt(len(values)))
            assert math.isclose(c.stderr, reference, rel_tol=1e-6, abs_tol=1e-9)
            wins = np.array([w for _, w in rollouts], dtype=float)
            reference = 100 * float(np.std(wins, ddof=1) / math.sqrt(len(wins)))
            assert math.isclose(c.win_pct_stderr, reference, rel_tol=1e-6, abs_tol=1e-9)


def test_candidates_by_static_equity_and_reproducible(small: tuple[Lexicon, str]) -> None:
    lexicon, source = small
    board = Board.from_cgp(CGP)
    one = simulate(board, lexicon, candidates=5, iterations=128, seed=11)
    again = simulate(board, lexicon, candidates=5, iterations=128, seed=11)
    two = simulate(board, lexicon, candidates=5, iterations=128, seed=11, jobs=2,
                   source=source)
    key = [_totals(c) for c in one.candidates]
    assert key == [_totals(c) for c in again.candidates]
    assert key == [_totals(c) for c in two.candidates]
    assert all(0.0 <= c.win_pct <= 100.0 for c in one.candidates)


def test_no_drop_keeps_every_candidate_to_the_end(small: tuple[Lexicon, str]) -> None:
    lexicon, _ = small
    board = Board.from_cgp(CGP)
    moves = [board.parse_move("A2 D(AB)"), board.parse_move("A3 (AB)S"),
             board.parse_move("pass")]
    pruned = simulate(board, lexicon, moves=moves, iterations=400, seed=3)
    kept = simulate(board, lexicon, moves=moves, iterations=400, seed=3, drop=False)
    assert kept.stopped == "iterations" and kept.iterations == 400
    assert all(c.iterations == 400 and not c.dropped for c in kept.candidates)
    assert kept.rollouts == 1200
    # the same numbered rollouts: a dropped candidate's are the first of its full
    # run, the same as a run of that many rollouts without dropping
    for c in pruned.candidates:
        short = simulate(board, lexicon, moves=moves, iterations=c.iterations, seed=3,
                         drop=False)
        same = next(d for d in short.candidates if d.move == c.move)
        assert _totals(c, dropped=False) == _totals(same)
    alive = [c for c in pruned.candidates if not c.dropped]
    if pruned.stopped == "one candidate left":
        assert len(alive) == 1
    else:
        assert pruned.stopped == "iterations" and all(c.iterations == 400 for c in alive)
    assert pruned.rollouts == sum(c.iterations for c in pruned.candidates) < 1200


def test_top_two_sampling_runs_the_leader_and_its_challenger(twl06: Lexicon) -> None:
    """Issue 38: after a first batch each, only the two closest candidates
    run; each candidate's k-th rollout is rollout k, whichever round ran it,
    so its totals are those of a plain run of as many rollouts."""
    board = Board.from_cgp(POSITION)
    result = simulate(board, twl06, candidates=8, iterations=400, seed=5, drop=False,
                      sampling="top-two")
    counts = sorted((c.iterations for c in result.candidates), reverse=True)
    assert counts[0] == 400 and all(n >= TOP_TWO_FIRST for n in counts)
    assert counts[1] > 2 * counts[-1]  # the rounds went to the leaders
    assert result.best.move == min(result.candidates, key=Candidate.rank).move
    for c in result.candidates:
        plain = simulate(board, twl06, moves=[c.move], iterations=c.iterations, seed=5,
                         drop=False).candidates[0]
        assert plain.iterations == c.iterations
        assert plain.mean == pytest.approx(c.mean) and plain.win_mean == pytest.approx(
            c.win_mean)
    timed = simulate(board, twl06, candidates=8, seconds=0.3, seed=5, sampling="top-two")
    assert timed.stopped in ("seconds", "one candidate left") and timed.seconds < 0.3 + 0.25


POSITION = ("15/15/15/15/15/11P2D/6CEE2I2I/7FROCK2R/10OI2G/7ThROSTLE/10E4/1ALMA1QAT1E3Z/"
            "2AUREI1WIDTH1O/BOX5OF2APO/4RAJAS5N EILLRTY/ 206/275 0 lex TWL06;")


def test_sim_command_json(capsys, twl06: Lexicon) -> None:
    code = main(["sim", "--cgp", POSITION, "--candidates", "4", "--iterations", "40",
                 "--jobs", "1", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    assert set(result) == {"moves", "iterations", "stopped", "seconds"}
    assert len(result["moves"]) == 4
    for c in result["moves"]:
        assert set(c) == {"move", "score", "leave", "equity", "kind", "squares", "tiles",
                          "win_pct", "win_pct_stderr", "iterations", "stderr",
                          "static_equity", "dropped"}
    ranks = [(c["dropped"], -c["win_pct"]) for c in result["moves"]]
    assert ranks == sorted(ranks)  # by win % (then equity, which rounding may hide)
    assert result["iterations"] == sum(c["iterations"] for c in result["moves"])
    assert result["stopped"] in ("iterations", "one candidate left")
    assert result["seconds"] > 0


def test_sim_command_says_what_it_ran(capsys, twl06: Lexicon) -> None:
    code = main(["sim", "--cgp", POSITION, "--candidates", "3", "--iterations", "40",
                 "--jobs", "1", "--no-drop"])
    out, err = capsys.readouterr()
    assert code == 0, err
    header = " ".join(out.split())
    assert "40 rollouts per candidate (120 in all" in header
    assert "stopped: 40 rollouts done" in header
    assert "(dropped)" not in out


# 92 points behind early (turn 4 of quackle_test_positions_short_game_with_bad_moves.gcg
# in the corpus)
BEHIND = "15/15/15/15/15/15/7QI6/6SI7/6I8/6P8/MACACOs8/15/15/15/15 ?DJOOOT/ 10/102 0"


def test_candidates_rank_by_win_pct_not_equity(twl06: Lexicon) -> None:
    """92 points behind, the play of the best mean spread is not the one
    that wins most often: the simulation ranks by win % (then equity), so
    its best is not the equity leader here, and its order not the equity
    order."""
    board = Board.from_cgp(BEHIND)
    result = simulate(board, twl06, candidates=5, iterations=200, plies=2, seed=1, drop=False)
    ranks = [(-c.win_pct, -c.equity) for c in result.candidates]
    assert ranks == sorted(ranks)
    equities = [c.equity for c in result.candidates]
    assert equities != sorted(equities, reverse=True)
    by_equity = max(result.candidates, key=lambda c: c.equity)
    assert result.best is result.candidates[0] is not by_equity
    assert result.best.win_pct > by_equity.win_pct + 2
    assert all(0 < c.win_pct_stderr < 5 for c in result.candidates)


def _candidate(values: list[float], wins: list[float]) -> Candidate:
    c = Candidate(Board.from_cgp(CGP).parse_move("pass"), 0.0)
    c.add(np.array(values, dtype=float), np.array(wins, dtype=float))
    return c


def test_candidates_are_dropped_by_win_pct_then_equity_where_it_cannot_tell() -> None:
    rng = np.random.default_rng(0)
    # the better mean spread and the fewer wins: dropped by win %
    safe = _candidate(list(rng.normal(20, 5, 200)), list(rng.uniform(0.0, 0.2, 200)))
    bold = _candidate(list(rng.normal(5, 5, 200)), list(rng.uniform(0.4, 0.6, 200)))
    drop_behind([safe, bold], 2.576)
    assert safe.dropped and not bold.dropped
    # every candidate loses whatever it plays (win % ~0): equity decides
    low = _candidate(list(rng.normal(-60, 5, 200)), [0.0] * 199 + [0.5])
    high = _candidate(list(rng.normal(-10, 5, 200)), [0.0] * 200)
    drop_behind([low, high], 2.576)
    assert low.dropped and not high.dropped
    # not saturated and not separated: both kept
    a = _candidate(list(rng.normal(-60, 5, 200)), list(rng.uniform(0.3, 0.7, 200)))
    b = _candidate(list(rng.normal(-10, 5, 200)), list(rng.uniform(0.3, 0.7, 200)))
    drop_behind([a, b], 2.576)
    assert not a.dropped and not b.dropped


@given(fits=st.floats(0, 1e6), wanted=st.integers(1, 5000))
def test_auto_plies_the_deepest_that_fits(fits: float, wanted: int) -> None:
    """Issue 38: ``plies="auto"`` goes deeper only while the time still
    allows each candidate ``wanted`` rollouts at that depth (a ply costing
    about as much as another), and never deeper than it may."""
    chosen = deepest_plies(fits, wanted)
    low = AUTO_PLIES[0]
    fitting = [p for p in AUTO_PLIES if fits * low / p >= wanted]  # the rule, spelled out
    assert chosen == (fitting[-1] if fitting else low)
    assert deepest_plies(2 * fits, wanted) >= chosen  # more time, never shallower


def test_auto_plies_in_a_simulation(twl06: Lexicon) -> None:
    """With time to spare the rollouts go deepest, and are those of a plain
    simulation at that depth (the probe that timed them is not counted); with
    a sliver of time, the shallowest; a bad depth is one line."""
    board = Board.from_cgp(POSITION)
    deep = simulate(board, twl06, candidates=4, iterations=30, seconds=60, seed=3,
                    drop=False, plies="auto")
    assert deep.plies == AUTO_PLIES[-1] and deep.iterations == 30
    plain = simulate(board, twl06, candidates=4, iterations=30, seed=3, drop=False,
                     plies=AUTO_PLIES[-1])
    assert [c.move for c in deep.candidates] == [c.move for c in plain.candidates]
    for d, p in zip(deep.candidates, plain.candidates, strict=True):
        assert d.iterations == p.iterations == 30
        assert d.mean == pytest.approx(p.mean) and d.win_mean == pytest.approx(p.win_mean)
    quick = simulate(board, twl06, candidates=4, seconds=0.02, seed=3, plies="auto")
    assert quick.plies == AUTO_PLIES[0]
    untimed = simulate(board, twl06, candidates=4, iterations=10, seed=3, plies="auto")
    assert untimed.plies == AUTO_PLIES[0]  # nothing to size the depth by
    for bad in (-1, "deep", True, 2.5, np.array([2, 4])):
        with pytest.raises(RacketyError, match="plies") as caught:
            simulate(board, twl06, candidates=4, iterations=10, plies=bad)
        assert "\n" not in str(caught.value)
