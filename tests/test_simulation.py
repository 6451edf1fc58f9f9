"""Simulation: a known answer (a play that opens a triple-word hook for a big
reply loses to a slightly lower-scoring safe play), early dropping, and results
that do not depend on the number of processes."""

from __future__ import annotations

import json

import pytest

from rackety import Board, Lexicon
from rackety.frontends.cli import main
from rackety.search.simulation import simulate

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


def test_candidates_by_static_equity_and_reproducible(small: tuple[Lexicon, str]) -> None:
    lexicon, source = small
    board = Board.from_cgp(CGP)
    one = simulate(board, lexicon, candidates=5, iterations=128, seed=11)
    again = simulate(board, lexicon, candidates=5, iterations=128, seed=11)
    two = simulate(board, lexicon, candidates=5, iterations=128, seed=11, jobs=2,
                   source=source)
    key = [(c.move, c.values, c.dropped) for c in one.candidates]
    assert key == [(c.move, c.values, c.dropped) for c in again.candidates]
    assert key == [(c.move, c.values, c.dropped) for c in two.candidates]
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
    # the same numbered rollouts: a dropped candidate's values begin its full run
    full = {c.move: c.values for c in kept.candidates}
    for c in pruned.candidates:
        assert c.values == full[c.move][:c.iterations]
    alive = [c for c in pruned.candidates if not c.dropped]
    if pruned.stopped == "one candidate left":
        assert len(alive) == 1
    else:
        assert pruned.stopped == "iterations" and all(c.iterations == 400 for c in alive)
    assert pruned.rollouts == sum(c.iterations for c in pruned.candidates) < 1200


POSITION = ("15/15/15/15/15/11P2D/6CEE2I2I/7FROCK2R/10OI2G/7ThROSTLE/10E4/1ALMA1QAT1E3Z/"
            "2AUREI1WIDTH1O/BOX5OF2APO/4RAJAS5N EILLRTY/ 206/275 0 lex TWL06;")


def test_sim_command_json(capsys, twl06: Lexicon) -> None:
    code = main(["sim", "--cgp", POSITION, "--candidates", "4", "--iterations", "40",
                 "--jobs", "1", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    assert set(result) == {"candidates", "rollouts", "stopped", "seconds",
                           "rollouts_per_second"}
    assert len(result["candidates"]) == 4
    for c in result["candidates"]:
        assert set(c) == {"move", "equity", "win_pct", "rollouts", "stderr", "static_equity",
                          "dropped"}
    assert result["rollouts"] == sum(c["rollouts"] for c in result["candidates"])
    assert result["stopped"] in ("iterations", "one candidate left")
    assert result["rollouts_per_second"] > 0


def test_sim_command_says_what_it_ran(capsys, twl06: Lexicon) -> None:
    code = main(["sim", "--cgp", POSITION, "--candidates", "3", "--iterations", "40",
                 "--jobs", "1", "--no-drop"])
    out, err = capsys.readouterr()
    assert code == 0, err
    header = " ".join(out.split())
    assert "40 rollouts per candidate (120 in all" in header
    assert "stopped: 40 rollouts done" in header
    assert "(dropped)" not in out
