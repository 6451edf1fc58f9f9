"""Lessons from a player's own games (`rackety.frontends.lessons`, issue 39
point 4): missed bingos as alphagrams, phonies played or let stand, hooks
missed; and ``rackety study add FILE.gcg``."""

from __future__ import annotations

import json
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from rackety import Board, Lexicon
from rackety.frontends.analysis import analyze_record, summarize
from rackety.frontends.cli import main
from rackety.frontends.lessons import hooked_words, lessons
from rackety.game.gcg import read_gcg, replay
from rackety.study.puzzles import cut
from rackety.study.quiz import question_for

DATA = Path(__file__).parent / "data" / "gcg"
T_FAR = datetime(2100, 1, 1, tzinfo=UTC)
EMPTY = "/".join(["15"] * 15)


def _board(row: str) -> Board:
    rows = ["15"] * 15
    rows[7] = row  # row 8
    return Board.from_cgp(f"{'/'.join(rows)} ABSRTEO/ 0/0 0")


@pytest.mark.parametrize(("row", "move", "hooked"), [
    ("6AB7", "8G (AB)S", {"AB"}),  # a tile after AB: ABS
    ("6AB7", "8F S(AB)", {"AB"}),  # before it: SAB
    ("6AB7", "8G (AB)BA", set()),  # two tiles on AB's line: ABBA is no hook
    ("6AB7", "I7 RAT", {"AB"}),  # down through the square after AB: ABA, a hook across
    ("6AB7", "F8 ST", {"AB"}),  # down from the square before it: SAB across
    ("6AB7", "I9 SO", set()),  # beside nothing
    ("6QI7", "8G (QI)S", {"QI"}),
])
def test_the_words_a_move_hooks(row: str, move: str, hooked: set[str]) -> None:
    board = _board(row)
    assert hooked_words(board, board.parse_move(move)) == hooked


@pytest.fixture(scope="module")
def twl06() -> Lexicon:
    return Lexicon.load("TWL06")


def test_the_lessons_of_a_game(twl06: Lexicon) -> None:
    """ann missed two bingos and played a phony that stood: three lessons,
    each an alphagram of the analysis's best bingo (its board tile included)
    or the phony; bob let the phony stand: one lesson."""
    record = read_gcg((DATA / "phony_stood.gcg").read_bytes(), source="phony_stood.gcg")
    rep = replay(record)
    analysis = analyze_record(record, twl06, replayed=rep, budget=2.0)
    ann = lessons(analysis, rep, [0], twl06, "g")
    missed = [t for t in analysis.turns if t.seat == 0 and t.missed_bingo]
    assert len(missed) == 2
    expected = {("anagrams", "".join(sorted(
        t.best_bingo_text.split()[1].replace("(", "").replace(")", "").upper())))
        for t in missed if t.best_bingo_text}
    phony = [p for t in analysis.turns if t.seat == 0 for p in t.phonies]
    assert phony and all(p not in twl06 for p in phony)
    expected |= {("judge", p) for p in phony}
    worst = [t for t in analysis.turns if t.seat == 0 and t.mistake == "large"]
    puzzles = [cut(rep.positions[t.index], twl06, source="t") for t in worst]
    expected |= {("puzzle", p.cgp) for p in puzzles if p is not None}
    assert any(k == "puzzle" for k, _ in expected)  # VAULTIER's turn is one
    assert {(x.kind, x.prompt) for x in ann} == expected
    assert all(x.source.startswith("g turn ") for x in ann)
    for x in ann:
        if x.kind == "anagrams":
            assert twl06.anagrams(x.prompt)  # a word of those tiles
        if x.kind == "puzzle":  # asked again: the judge's answers, a move graded by them
            question = question_for(twl06, "puzzle", x.prompt)
            assert question.grade(question.answers[0], twl06).correct
            assert not question.grade("pass", twl06).correct
    bob = lessons(analysis, rep, [1], twl06, "g")
    assert [(x.kind, x.prompt) for x in bob] == [("judge", p) for p in phony]
    assert "let stand" in bob[0].source


def test_study_add_from_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "d.sqlite")
    code = main(["study", "add", str(DATA / "phony_stood.gcg"), str(DATA / "double_challenge.gcg"),
                 "--player", "ann", "--db", db])
    out = capsys.readouterr().out
    rows = sqlite3.connect(db).execute("SELECT kind, prompt, source FROM study_items").fetchall()
    assert code == 0 and out.startswith(f"{len(rows)} new items")
    assert {k for k, _, _ in rows} <= {"anagrams", "judge", "hooks", "puzzle"} and len(rows) >= 4
    assert {s.split(" turn ")[0] for _, _, s in rows} == {"phony_stood.gcg",
                                                         "double_challenge.gcg"}
    code = main(["study", "add", str(DATA / "phony_stood.gcg"), "--player", "ann", "--db", db])
    assert code == 0 and "0 new items" in capsys.readouterr().out
    assert main(["study", "stats", "--player", "ann", "--db", db, "--json"]) == 0
    games = json.loads(capsys.readouterr().out)["progress"]["games"]
    assert sorted(g["source"] for g in games) == ["double_challenge.gcg", "phony_stood.gcg"]
    assert main(["study", "stats", "--player", "ann", "--db", db]) == 0
    assert "Mistake Index by game, oldest first: " in capsys.readouterr().out
    for args, message in (([str(DATA / "five_point.gcg")], "no player 'ann'"),
                          ([str(DATA / "phony_stood.gcg"), "--length", "7"], "not both")):
        code = main(["study", "add", *args, "--player", "ann", "--db", db])
        err = capsys.readouterr().err
        assert code == 2 and message in err and err.count("\n") == 1


def test_the_web_app_adds_a_records_lessons(tmp_path: Path) -> None:
    """Issue 39 point 4: a record imported in the web app adds each of its
    people's lessons to their deck, in the background."""
    from fastapi.testclient import TestClient

    from rackety.frontends.web.app import create_app
    from rackety.frontends.web.store import Store

    db = tmp_path / "web.sqlite"
    app = create_app(db, warm=False)
    with TestClient(app) as client:
        gcg = (DATA / "phony_stood.gcg").read_text()
        assert client.post("/api/gcg/import", json={"gcg": gcg}).status_code == 201
        assert app.state.service.wait_for_lessons(120)
    with Store(db) as store:
        # the web app keeps a record's people by their names in it
        ann, bob = store.player("Ann Able").id, store.player("Bob Baker").id
        mine = {(i.kind, i.prompt) for i in store.study_due(ann, T_FAR, new=100)}
        theirs = {(i.kind, i.prompt) for i in store.study_due(bob, T_FAR, new=100)}
    record = read_gcg(gcg.encode(), source="g")
    twl06 = Lexicon.load("TWL06")
    analysis = analyze_record(record, twl06, budget=3.0)
    expected = lessons(analysis, replay(record), [0], twl06, "g")
    assert mine == {(x.kind, x.prompt) for x in expected} and ("judge", "RETZ") in mine
    assert theirs == {("judge", "RETZ")}
    # the progress: the record's Mistake Index of each, as the analysis sums it
    with TestClient(app) as client:
        progress = client.get("/api/study/progress", params={"player": "Ann Able"}).json()
    summary = {s.player: s for s in summarize(analysis.turns)}
    [game] = progress["games"]
    assert game["mistake_index"] == pytest.approx(summary["ann"].mistake_index, abs=1e-3)
    assert game["turns"] == summary["ann"].turns
    assert progress["quiz"]["all"] == {"reviews": 0, "right": None}
    assert progress["puzzles"]["attempts"] == 0


def test_the_lessons_worker_stops_with_the_app(tmp_path: Path) -> None:
    """The app's end stops the worker at once: a game queued after it is not
    studied, and the worker is gone (no search left running in the process)."""
    from fastapi.testclient import TestClient

    from rackety.frontends.web.app import create_app

    app = create_app(tmp_path / "w.sqlite", warm=False)
    service = app.state.service
    with TestClient(app):
        [worker] = [t for t in threading.enumerate() if t.name == "lessons"]
        assert worker.is_alive()
    assert not worker.is_alive()
    service.study_later((DATA / "phony_stood.gcg").read_text(), "TWL06", [(0, "Ann Able")],
                        "late")
    assert not service.wait_for_lessons(0.5)  # queued, and nobody to study it
