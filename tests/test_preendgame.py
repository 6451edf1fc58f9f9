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
        assert (drawn, weight, exact) == ((tile,), 1, True)
        assert outcome.method == "endgames" and outcome.worlds == 1 and outcome.exact
        after = board.play(outcome.move)
        after.racks = [after.racks[0], tuple(after.racks[1]) + (tile,)]
        expected = outcome.move.score - solve(after, twl06).value
        assert change == expected == outcome.spread
        final = board.scores[0] - board.scores[1] + change
        assert outcome.win_pct == (100.0 if final > 0 else 50.0 if final == 0 else 0.0)
    keys = [(-o.win_pct, -o.spread) for o in result.outcomes]
    assert keys == sorted(keys)


def test_a_bag_that_is_not_one_to_six_tiles_is_refused(twl06: Lexicon) -> None:
    board = Board.from_cgp(_small_endgames()[0]["cgp"])  # the bag is empty
    with pytest.raises(RacketyError, match="1 to 6 tiles in the bag, not 0"):
        preendgame(board, twl06)
    board.racks[1] = ()  # the opponent's rack unknown: one tile unseen
    with pytest.raises(RacketyError, match="1 tiles are unseen, where .* 8 to 13"):
        preendgame(board, twl06)


def test_preendgame_command(capsys, twl06: Lexicon) -> None:
    from rackety.frontends.cli import main

    case = next(c for c in _small_endgames() if c["n_opp"] >= 2)
    cgp = _with_one_in_the_bag(case).cgp()
    code = main(["preendgame", "--cgp", cgp, "--candidates", "2", "--jobs", "1", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    assert result["best"] == result["candidates"][0]
    assert result["endgames"] == result["exact_endgames"] == 2 and result["bag"] == 1
    for row in result["candidates"]:
        assert set(row) == {"move", "score", "leave", "equity", "kind", "squares", "tiles",
                            "win_pct", "spread_change", "method", "draws", "exact_draws",
                            "worlds", "rollouts", "exact"}
        assert row["exact_draws"] == row["draws"]
        assert row["exact"] and row["draws"] == row["worlds"] == 1
        assert row["method"] == "endgames" and row["rollouts"] == 0


def test_the_command_labels_the_spread_change(capsys, twl06: Lexicon) -> None:
    from rackety.frontends.cli import main

    case = next(c for c in _small_endgames() if c["n_opp"] >= 2)
    board = _with_one_in_the_bag(case)
    code = main(["preendgame", "--cgp", board.cgp(), "--candidates", "2", "--exact",
                 "--jobs", "1"])
    out, err = capsys.readouterr()
    assert code == 0, err
    header = next(line for line in out.splitlines() if "move" in line)
    assert header.split()[:6] == ["move", "win", "%", "spread", "change", "draws"]
    assert "spread " not in header.replace("spread change", "")  # no bare "spread" column
    assert "all 2 endgames solved exactly" in out
    best = preendgame(board, twl06, candidates=2).best
    assert f"{best.spread:+.2f}" in out
    code = main(["preendgame", "--cgp", board.cgp(), "--exact", "--seconds", "5"])
    assert code == 2 and "--exact and --seconds" in capsys.readouterr().err


def test_processes_give_the_serial_result(twl06: Lexicon, monkeypatch) -> None:
    import rackety.search.preendgame as module

    pools = []

    class Recorded(module.ProcessPoolExecutor):
        def __init__(self, jobs: int) -> None:
            pools.append(jobs)
            super().__init__(jobs)

    monkeypatch.setattr(module, "ProcessPoolExecutor", Recorded)
    for case in [c for c in _small_endgames() if c["n_opp"] >= 2][:3]:
        board = _with_one_in_the_bag(case)
        serial = preendgame(board, twl06, candidates=4, jobs=1)
        parallel = preendgame(board, twl06, candidates=4, jobs=2)
        assert [(o.move, o.win_pct, o.spread, o.draws) for o in parallel.outcomes] == \
            [(o.move, o.win_pct, o.spread, o.draws) for o in serial.outcomes]
        assert parallel.exact and parallel.endgames == len(parallel.outcomes) > 1
    assert pools == [2, 2, 2]  # the serial runs make no pool
    # a worker that was not forked from the caller loads the lexicon and the position
    board = _with_one_in_the_bag(_small_endgames()[-1])
    (tile,) = Counter(board.unseen().nonzero()[0].tolist())
    move = preendgame(board, twl06, candidates=1).best.move
    meta, word = module.rows_of([move], board.size)
    key = ("TWL06", board.alphabet.name, board.layout.name, board.cgp())
    module._worker.clear()
    try:
        value, exact, _ = module._solve_task((key, ((tile,), tuple(board.racks[1]),
                                                    ((meta, word),)), None, None))
    finally:
        module._worker.clear()
    after = board.play(move)
    after.racks = [after.racks[0], tuple(after.racks[1]) + (tile,)]
    assert exact and value == solve(after, twl06).value


def test_a_time_budget_marks_what_is_not_exact(twl06: Lexicon, monkeypatch) -> None:
    import rackety.search.preendgame as module

    case = max(_small_endgames(), key=lambda c: c["search_cpu_s"])
    board = _with_one_in_the_bag(case)
    exact = preendgame(board, twl06, candidates=6)
    ample = preendgame(board, twl06, candidates=6, seconds=60, jobs=1)
    assert ample.exact and ample.budget == 60
    assert [(o.move, o.draws) for o in ample.outcomes] == \
        [(o.move, o.draws) for o in exact.outcomes]
    # a budget too short for anything but the first depth of each search
    monkeypatch.setattr(module, "MIN_SOLVE_SECONDS", 1e-9)
    timed = preendgame(board, twl06, candidates=6, seconds=1e-6, jobs=1)
    assert timed.endgames == len(exact.outcomes) == 6
    assert timed.exact_endgames == sum(o.draws[0][3] for o in timed.outcomes) < 6
    assert not timed.exact and not all(o.exact for o in timed.outcomes)
    truth = {o.move: o.draws for o in exact.outcomes}
    for outcome in timed.outcomes:
        if outcome.exact:  # an endgame said to be exact has the exact value
            assert outcome.draws == truth[outcome.move]
    with pytest.raises(RacketyError, match="seconds"):
        preendgame(board, twl06, seconds=0)


def _with_two_in_the_bag(case: dict) -> Board:
    """The endgame of ``case`` with two of the opponent's tiles put back in the
    bag (the rest of the opponent's rack known)."""
    board = Board.from_cgp(case["cgp"])
    board.racks[1] = tuple(board.racks[1][:-2])
    return board


def test_two_in_the_bag_on_the_command_line(capsys, twl06: Lexicon) -> None:
    from rackety.frontends.cli import main

    case = next(c for c in _small_endgames() if c["n_opp"] >= 3)
    board = _with_two_in_the_bag(case)
    assert len(board.rack) < 6  # a short rack: every play draws both tiles
    code = main(["preendgame", "--cgp", board.cgp(), "--candidates", "2", "--jobs", "1",
                 "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    assert result["bag"] == 2 and result["endgames"] == result["exact_endgames"] == 2
    for row in result["candidates"]:
        assert row["method"] == "endgames" and row["exact"] and row["draws"] == 1
    bag = tuple(c for c, n in enumerate(board.unseen().tolist()) for _ in range(n))
    for outcome in preendgame(board, twl06, candidates=2).outcomes:
        ((drawn, ways, change, exact),) = outcome.draws  # the mover draws both: one world
        assert (drawn, ways, exact) == (bag, 1, True)
        after = board.play(outcome.move)
        after.racks = [after.racks[0], after.racks[1] + drawn]
        assert change == outcome.move.score - solve(after, twl06).value
    code = main(["preendgame", "--cgp", board.cgp(), "--candidates", "2", "--jobs", "1"])
    out, _ = capsys.readouterr()
    assert "(2 in the bag)" in out and "endgames" in out
