"""Puzzles (`rackety.study.puzzles`, `rackety puzzles`; issue 39 point 1):
each puzzle cut from self-play checked against the position's own move list
(its answers, its lead, its tags), the phony of a record, grading a reply,
the file's round trip, and the terminal fed on stdin."""

from __future__ import annotations

import io
import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from rackety import Board, Lexicon
from rackety.errors import RacketyError
from rackety.frontends.cli import main
from rackety.frontends.web.store import Store
from rackety.game.gcg import read_gcg
from rackety.study.puzzles import (
    CHALLENGE,
    MARGIN,
    TOLERANCE,
    Puzzle,
    attempt,
    from_record,
    from_selfplay,
)
from rackety.study.puzzles import cut as cut_one
from rackety.study.ratings import Rating, update
from rackety.study.ratings import attempt as rate_attempt

DATA = Path(__file__).parent / "data" / "gcg"


@pytest.fixture(scope="module")
def twl06() -> Lexicon:
    return Lexicon.load("TWL06")


#: positions of self-play (`from_selfplay(twl06, 20, seed=5)`) that are an
#: EQUITY and an ENDGAME puzzle: their tags checked below, not assumed
EQUITY_CGP = ("7NOCTuRNE/7O7/7V2FAB2/7AR1AWA2/8O1C1A2/8BET4/7DOM5/6JUTES4/7D1RE4/9YA4/"
              "3MUG2Q1T4/VINO1EELIEST3/2UPEND8/6STEWPAN2/11HaLF OSZEGUG/ 303/272 0")
ENDGAME_CGP = ("T13V/I12KA/E12OR/Id11SI/NU12E/GO11ER/1D9C1v1/1E5ROILY1EF/1NE3OUD1OM1NE/"
               "1AA2ZIP1JAB1E1/2UT3T2MAPS1/3W1TOUT2LAT1/1WEIGHER4C2/AH1NOO1E1BINAL1/"
               "DAVY3S4SIX IEQGFN/ 428/326 0")


@pytest.fixture(scope="module")
def cut(twl06: Lexicon) -> list[Puzzle]:
    return list(from_selfplay(twl06, 3, seed=2))


def test_an_equity_and_an_endgame_puzzle(twl06: Lexicon) -> None:
    """The best by equity is not the top score; the exact endgame's winner is
    not the move that scores most, and the best move that is no answer wins
    by at least the margin less, or not at all."""
    board = Board.from_cgp(EQUITY_CGP)
    puzzle = cut_one(board, twl06, source="s")
    assert puzzle is not None and "EQUITY" in puzzle.tags
    assert not {board.notation(m) for m in board.moves(twl06).top_scoring()} & \
        set(puzzle.answers)
    board = Board.from_cgp(ENDGAME_CGP)
    puzzle = cut_one(board, twl06, source="s")
    assert puzzle is not None and puzzle.tags == ("ENDGAME",) and puzzle.unit == "spread"
    spread = 428 - 326
    assert spread + puzzle.value > 0 and puzzle.lead >= MARGIN
    top = {board.notation(m) for m in board.moves(twl06).top_scoring()}
    assert not top & set(puzzle.answers)
    assert attempt(puzzle, puzzle.answers[0], twl06).correct


def test_each_puzzle_against_its_move_list(twl06: Lexicon, cut: list[Puzzle]) -> None:
    """A middle-game puzzle's answers are the moves of the position within
    the tolerance of the best by static equity, the best that is not one is
    at least the margin behind, and each tag holds of the move list: every
    placement generated, counted here."""
    assert cut
    for puzzle in cut:
        board = Board.from_cgp(puzzle.cgp)
        rack = board.alphabet.rack_size
        assert puzzle.lead >= MARGIN and puzzle.source.startswith("self-play seed ")
        moves = board.moves(twl06, mode="all")
        placements = moves.placements()
        best = board.parse_move(puzzle.answers[0])
        if "ENDGAME" not in puzzle.tags:
            ranked = sorted(((float(e), m) for e, m in zip(moves.equity, placements,
                                                            strict=True)),
                            key=lambda x: -x[0])
            top = ranked[0][0]
            near = {board.notation(m) for e, m in ranked if e >= top - TOLERANCE}
            assert set(puzzle.answers) <= near | {board.notation(best)}
            behind = [e for e, m in ranked if board.notation(m) not in puzzle.answers]
            assert not behind or top - behind[0] >= MARGIN - 1e-6
        bingos = [m for m in placements if m.n_placed == rack]
        assert ("BINGO" in puzzle.tags) == (best.n_placed == rack)
        if "BINGO" in puzzle.tags:
            assert ("ONLY_BINGO" in puzzle.tags) == (len(bingos) == 1)
            assert ("BINGO_NINE_OR_MORE" in puzzle.tags) == (len(best.tiles) >= 9)
        if "EQUITY" in puzzle.tags:
            assert not {board.notation(m) for m in moves.top_scoring()} & set(puzzle.answers)
        assert attempt(puzzle, puzzle.answers[0], twl06).correct
        for style in ("dots", "bare"):  # however the tiles on the board are written
            assert attempt(puzzle, board.notation(best, through=style), twl06).correct
        if puzzle.alternatives:
            wrong = attempt(puzzle, puzzle.alternatives[0][0], twl06)
            assert not wrong.correct and wrong.value == puzzle.alternatives[0][1]
        assert Puzzle.from_dict(json.loads(json.dumps(puzzle.as_dict()))) == puzzle
    assert len({p.cgp for p in cut}) == len(cut)  # each game a bag of its own


def test_a_phony_to_challenge(twl06: Lexicon) -> None:
    """RETZ stood in the record: the position after it, the next player to
    move, is a puzzle whose answer is to challenge."""
    record = read_gcg((DATA / "phony_stood.gcg").read_bytes(), source="phony_stood.gcg")
    found = [p for p in from_record(record, twl06, name="g") if "PHONY_CHALLENGE" in p.tags]
    assert len(found) == 1
    puzzle = found[0]
    assert puzzle.answers == (CHALLENGE,) and "RETZ" in puzzle.why
    board = Board.from_cgp(puzzle.cgp)
    assert "".join(board.alphabet.format([int(t)]) for t in board.grid[5:9, 7] if t) == "RETZ"
    assert attempt(puzzle, "challenge", twl06).correct
    assert not attempt(puzzle, "pass", twl06).correct


def test_replies_that_are_not_moves(twl06: Lexicon, cut: list[Puzzle]) -> None:
    puzzle = cut[0]
    for reply in ("", "   ", "8Z QQQ", "h8 " + "A" * 30, "challenge"):
        graded = attempt(puzzle, reply, twl06)
        assert not graded.correct
        assert graded.move is None or graded.move == CHALLENGE
        assert "\n" not in graded.error
    for bad in ({}, {"cgp": "x"}, [], "text", {**puzzle.as_dict(), "tags": ["NOPE"]},
                {**puzzle.as_dict(), "answers": []}):
        with pytest.raises(RacketyError) as info:
            Puzzle.from_dict(bad, "f:3")
        assert str(info.value).startswith("f:3: not a puzzle")


def test_puzzles_from_the_command_line(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                       cut: list[Puzzle]) -> None:
    out = tmp_path / "p.jsonl"
    assert main(["puzzles", "make", "--lexicon", "TWL06", "--selfplay", "3", "--seed", "2",
                 "-o", str(out)]) == 0
    assert f"{len(cut)} puzzles" in capsys.readouterr().err
    made = [Puzzle.from_dict(json.loads(line)) for line in out.read_text().splitlines()]
    assert made == cut
    replies = cut[0].answers[0] + "\n" + "pass\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(replies))
    code = main(["puzzles", "solve", str(out), "--no-color"])
    text = capsys.readouterr().out
    assert code == (0 if len(cut) == 1 else 1)
    assert "right: " in text and cut[0].why in text
    # a puzzle's screen fits 80x24: the board and the rack to the prompt, and the reply's row
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines)
    first_prompt = next(i for i, line in enumerate(lines) if line.startswith("[1/"))
    assert first_prompt + 1 + 1 <= 24
    if len(cut) > 1:
        assert "the answer: " in text and text.splitlines()[-1].startswith("1 of 2 right")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(cut[0].as_dict()) + "\n{\n")
    for args, message in ((["solve", str(bad)], f"{bad}:2: not JSON"),
                          (["solve", str(out), "--tag", "nope"], "--tag"),
                          (["make", str(DATA / "phony_stood.gcg"), "--selfplay", "1"],
                           "one of them")):
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        code = main(["puzzles", *args])
        err = capsys.readouterr().err
        assert code == 2 and message in err and err.count("\n") == 1


def test_glickmans_example() -> None:
    """Glickman's worked example of Glicko-2: a 1500 player (RD 200, volatility
    0.06) who beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD
    300) ends at 1464.06, RD 151.52, volatility 0.05999."""
    after = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
                                            (Rating(1700, 300), 0.0)])
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.vol == pytest.approx(0.05999, abs=1e-5)


@pytest.mark.parametrize("solved", [True, False])
def test_an_attempt_moves_both_ratings(solved: bool) -> None:
    solver, puzzle = Rating(1600, 80, 0.06), Rating(1500, 200, 0.06)
    s, p = rate_attempt(solver, puzzle, solved)
    assert (s.rating > solver.rating) == solved and (p.rating < puzzle.rating) == solved
    assert s.rd < solver.rd and p.rd < puzzle.rd


def test_rated_attempts_in_the_store(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                     cut: list[Puzzle]) -> None:
    """``puzzles solve --player``: each attempt is kept, and rates the solver
    and the puzzle as one Glicko-2 game, the store holding both ratings."""
    out = tmp_path / "p.jsonl"
    out.write_text("".join(json.dumps(p.as_dict()) + "\n" for p in cut[:2]))
    db = tmp_path / "s.sqlite"
    monkeypatch.setattr("sys.stdin", io.StringIO(cut[0].answers[0] + "\n"))
    main(["puzzles", "solve", str(out), "--no-color", "--player", "ann", "--db", str(db)])
    text = capsys.readouterr().out
    assert "your rating 1500 -> " in text
    with Store(db) as store:
        ann = store.player("ann").id
        pid = store.puzzle(cut[0].lexicon, cut[0].cgp, cut[0].as_dict())
        solver, puzzle = store.ratings(ann, pid)
    assert solver.rating > 1500 > puzzle.rating
    with Store(db) as store:  # the puzzle met is in ann's deck, scheduled by the attempt
        [item] = store.study_due(ann, datetime(2100, 1, 1, tzinfo=UTC), new=0)
    assert (item.kind, item.prompt, item.reviews) == ("puzzle", cut[0].cgp, 1)
    assert f"your rating 1500 -> {solver.rating:.0f}" in text
    rows = sqlite3.connect(db).execute(
        "SELECT correct, rating_before, rating_after FROM puzzle_attempts").fetchall()
    assert rows == [(1, 1500.0, pytest.approx(solver.rating))]


def test_a_puzzle_judged_by_simulation(twl06: Lexicon, cut: list[Puzzle]) -> None:
    """``seconds``: the middle game judged by simulation: a bingo far ahead
    is still clearly best, its lead in equity and in win % stated."""
    bingo = max((p for p in cut if "BINGO" in p.tags), key=lambda p: p.lead)
    board = Board.from_cgp(bingo.cgp)
    puzzle = cut_one(board, twl06, source="s", seconds=0.4)
    assert puzzle is not None and "BINGO" in puzzle.tags
    assert puzzle.answers[0] == bingo.answers[0] and "simulation" in puzzle.why
    assert puzzle.lead >= MARGIN and "% of wins" in puzzle.why
