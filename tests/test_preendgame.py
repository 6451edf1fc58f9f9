"""The one-tile pre-endgame: every candidate over every draw, each solved as an
endgame."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from rackety import Board, Lexicon, RacketyError
from rackety.search.endgame import solve
from rackety.search.preendgame import preendgame

DATA = Path(__file__).parent / "data"


def _small_endgames() -> list[dict]:
    lines = (DATA / "endgame_twl06_small.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _with_one_in_the_bag(case: dict) -> Board:
    """The endgame of ``case`` with one of the opponent's tiles put back in the
    bag (the opponent's rack stays known)."""
    board = Board.from_cgp(case["cgp"])
    opp = list(board.racks[1])
    opp.pop()
    board.racks[1] = tuple(opp)
    return board


def test_each_draw_is_solved_as_an_endgame(twl06: Lexicon) -> None:
    case = next(c for c in _small_endgames() if c["n_opp"] >= 2)
    board = _with_one_in_the_bag(case)
    (tile,) = Counter(board.unseen().nonzero()[0].tolist())
    result = preendgame(board, twl06, candidates=3)
    assert result.outcomes and result.best == result.outcomes[0]
    for outcome in result.outcomes:
        ((drawn, weight, change, exact),) = outcome.draws  # the opponent's rack is known
        assert (drawn, weight, exact) == (tile, 1, True)
        after = board.play(outcome.move)
        after.racks = [after.racks[0], tuple(after.racks[1]) + (tile,)]
        expected = outcome.move.score - solve(after, twl06).value
        assert change == expected == outcome.spread
        final = board.scores[0] - board.scores[1] + change
        assert outcome.win_pct == (100.0 if final > 0 else 50.0 if final == 0 else 0.0)
    keys = [(-o.win_pct, -o.spread) for o in result.outcomes]
    assert keys == sorted(keys)


def test_a_bag_that_is_not_one_tile_is_refused(twl06: Lexicon) -> None:
    board = Board.from_cgp(_small_endgames()[0]["cgp"])  # the bag is empty
    with pytest.raises(RacketyError, match="one tile in the bag"):
        preendgame(board, twl06)


def test_preendgame_command(capsys, twl06: Lexicon) -> None:
    from rackety.frontends.cli import main

    case = next(c for c in _small_endgames() if c["n_opp"] >= 2)
    cgp = _with_one_in_the_bag(case).cgp()
    code = main(["preendgame", "--cgp", cgp, "--candidates", "2", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    assert result["best"] == result["candidates"][0]["move"]
    for row in result["candidates"]:
        assert set(row) == {"move", "win_pct", "spread", "draws", "exact"}
        assert row["exact"] and row["draws"] == 1
