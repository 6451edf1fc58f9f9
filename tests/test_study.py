"""The study deck (issue 39): FSRS scheduling of reviews
(`rackety.study.schedule`), the store's deck (`Store.study_*`) and
``rackety study add|review|stats`` fed on stdin."""

from __future__ import annotations

import io
import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rackety import Lexicon
from rackety.errors import RacketyError
from rackety.frontends.cli import main
from rackety.frontends.web.store import Store
from rackety.study.quiz import PHONY, VALID, anagram_questions, question_for
from rackety.study.schedule import QUICK_SECONDS, SLOW_SECONDS, rating_of, review

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def test_a_reviews_rating() -> None:
    assert rating_of(False, 1.0) == "again" and rating_of(False, None) == "again"
    assert rating_of(True, QUICK_SECONDS) == "easy"
    assert rating_of(True, (QUICK_SECONDS + SLOW_SECONDS) / 2) == "good"
    assert rating_of(True, SLOW_SECONDS + 1) == "hard" and rating_of(True, None) == "good"


@settings(max_examples=50, deadline=None)
@given(ratings=st.lists(st.sampled_from(["again", "hard", "good", "easy"]), min_size=1,
                        max_size=12))
def test_fsrs_schedules_after_the_review(ratings: list[str]) -> None:
    """Every review puts the item due after it, soon after a miss (within
    the hour: a relearning step) and, after a run of right answers, later
    each time; the same reviews, the same dates."""
    card, when = None, T0
    last_gap = timedelta(0)
    for i, rating in enumerate(ratings):
        after = review(card, rating, when)
        gap = after.due - when
        assert gap > timedelta(0)
        if rating == "again":
            assert gap <= timedelta(hours=1)
            last_gap = timedelta(0)
        elif i >= 2 and ratings[i - 1] == ratings[i - 2] == "good" == rating:
            assert gap >= last_gap
        if rating != "again":
            last_gap = gap
        assert review(card, rating, when) == after  # no fuzzing
        card, when = after.card, after.due
    good = None
    when = T0
    for _ in range(5):
        after = review(good, "good", when)
        good, when = after.card, after.due
    assert after.due - T0 > timedelta(days=30) and after.state == "review"


def test_bad_cards_and_times_are_one_line() -> None:
    for card, rating, when in (("{not json", "good", T0), (None, "great", T0),
                               (None, "good", datetime(2026, 3, 1))):
        with pytest.raises(RacketyError) as info:
            review(card, rating, when)
        assert "\n" not in str(info.value)


def test_the_store_keeps_each_players_deck(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as store:
        ann, bob = store.player("ann").id, store.player("bob").id
        items = [("anagrams", "TWL06", p, "length 7") for p in ("AEINRST", "ADEINOR", "EORST")]
        assert store.study_add(ann, items) == 3
        # those already there kept as they were
        assert store.study_add(ann, items + [("hooks", "TWL06", "QI", "")]) == 1
        assert store.study_add(bob, items[:1]) == 1
        with pytest.raises(RacketyError):
            store.study_add(9999, items)
        fresh = store.study_due(ann, T0, new=2)
        assert [i.prompt for i in fresh] == ["AEINRST", "ADEINOR"]  # new, in the order added
        assert all(i.due is None and i.card is None and i.reviews == 0 for i in fresh)
        # reviewed: due later, ordered by how overdue
        first, second = fresh
        for item, due in ((first, T0 + timedelta(days=2)), (second, T0 + timedelta(days=1))):
            after = review(None, "good", T0)
            store.study_review(item.id, card=after.card, due=due, rating="good", correct=True,
                               seconds=3.5, when=T0)
        assert store.study_due(ann, T0, new=0) == []
        later = T0 + timedelta(days=3)
        due = store.study_due(ann, later, new=1)
        assert [i.prompt for i in due] == ["ADEINOR", "AEINRST", "EORST"]
        assert [i.reviews for i in due] == [1, 1, 0]
        assert [i.prompt for i in store.study_due(ann, later, new=5, kind="hooks")] == ["QI"]
        assert store.study_due(ann, later, limit=1, new=0)[0].prompt == "ADEINOR"
        counts = store.study_counts(ann, T0)
        assert (counts.due, counts.learned, counts.new) == (0, 2, 2)
        assert counts.forecast[:3] == [0, 1, 1] and len(counts.forecast) == 7
        at_later = store.study_counts(ann, later)
        assert (at_later.due, at_later.learned, at_later.new) == (2, 0, 2)
        assert store.study_counts(bob, T0).new == 1
        with pytest.raises(RacketyError):
            store.study_review(9999, card="{}", due=T0, rating="good", correct=True,
                               seconds=None, when=T0)
        assert store.integrity_ok()


def test_an_items_question_is_the_lexicons() -> None:
    lexicon = Lexicon.from_words(["AB", "BA", "ABA"])
    assert question_for(lexicon, "anagrams", "AB").answers == ("AB", "BA")
    assert question_for(lexicon, "hooks", "AB").answers == ("ABA",)
    assert question_for(lexicon, "judge", "BA").answers == (VALID,)
    assert question_for(lexicon, "judge", "BB").answers == (PHONY,)
    with pytest.raises(RacketyError):
        question_for(lexicon, "riddles", "AB")


def _study(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], replies: str,
           *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(replies))
    code = main(["study", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_study_from_the_command_line(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Add a list, review it (one right, one wrong, then the input ends),
    and the counts say what happened; adding it again adds nothing."""
    db = str(tmp_path / "deck.sqlite")
    who = ["--db", db, "--player", "ann"]
    code, out, _ = _study(monkeypatch, capsys, "", "add", *who, "--lexicon", "TWL06",
                          "--length", "7", "--ranks", "1-3")
    assert code == 0 and out.startswith("3 new items (anagrams) for ann")
    code, out, _ = _study(monkeypatch, capsys, "", "add", *who, "--lexicon", "TWL06",
                          "--length", "7", "--ranks", "1-3")
    assert out.startswith("0 new items (anagrams)") and "3 already" in out
    code, out, _ = _study(monkeypatch, capsys, "", "stats", *who, "--json")
    stats = json.loads(out)
    assert {k: stats[k] for k in ("due", "learned", "new", "forecast")} == {
        "due": 0, "learned": 0, "new": 3, "forecast": [0] * 7}
    assert stats["progress"] == {"games": [], "quiz": {
        label: {"reviews": 0, "right": None} for label in ("all", "30 days", "7 days")},
        "puzzles": {"rating": None, "rd": None, "attempts": 0, "solved": 0}}
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["study", "review", *who, "--new", "0"]) == 0
    assert "nothing due for ann" in capsys.readouterr().out
    # the i-th reply is the answers of the i-th likeliest: right where the deck
    # asked that one i-th (new items come in a mixed order)
    top = anagram_questions(Lexicon.load("TWL06"), length=7, ranks=(1, 3))
    replies = "".join(" ".join(q.answers) + "\n" for q in top)
    code, out, _ = _study(monkeypatch, capsys, replies, "review", *who, "--new", "3")
    shown = [line.split()[2] for line in out.splitlines() if line.startswith("[")]
    assert sorted(shown) == sorted(q.prompt for q in top)
    right = [prompt == q.prompt for prompt, q in zip(shown, top, strict=True)]
    assert out.splitlines()[-1].startswith(f"{sum(right)} of 3 right")
    assert code == (0 if all(right) else 1)
    db_rows = sqlite3.connect(db).execute(
        "SELECT i.prompt, r.correct, r.rating FROM study_reviews r JOIN study_items i"
        " ON i.id = r.item_id ORDER BY r.rowid").fetchall()
    assert [(p, bool(c)) for p, c, _ in db_rows] == list(zip(shown, right, strict=True))
    assert all((rating == "again") == (not c) for _, c, rating in db_rows)
    code, out, _ = _study(monkeypatch, capsys, "", "stats", *who, "--json")
    counts = json.loads(out)
    assert (counts["due"], counts["learned"], counts["new"]) == (0, 3, 0)
    assert counts["progress"]["quiz"]["all"] == {"reviews": 3,
                                                 "right": round(100 * sum(right) / 3, 1)}
    assert sum(counts["forecast"][:2]) == 3  # due again within minutes
    code, out, _ = _study(monkeypatch, capsys, "", "stats", *who)
    assert out.startswith("ann: ") and "next days:" in out
    for args, message in ((["stats", "--db", str(tmp_path), "--player", "ann"], "--db"),
                          (["add", *who, "--length", "7", "--ranks", "5-1"], "--ranks")):
        code, out, err = _study(monkeypatch, capsys, "", *args)
        assert code == 2 and message in err and err.count("\n") == 1


def test_a_puzzle_item_reviewed_in_the_terminal(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    """A worst turn's puzzle in the deck: its board drawn, the move graded."""
    from rackety.game.gcg import read_gcg
    from rackety.study.puzzles import from_record

    gcg = (Path(__file__).parent / "data" / "gcg" / "phony_stood.gcg").read_text()
    puzzle = next(p for p in from_record(read_gcg(gcg, source="g"), Lexicon.load("TWL06"),
                                         name="g") if "BINGO" in p.tags)
    db = tmp_path / "d.sqlite"
    with Store(db) as store:
        store.study_add(store.player("ann").id, [("puzzle", "TWL06", puzzle.cgp, "g")])
    code, out, _ = _study(monkeypatch, capsys, puzzle.answers[0] + "\n", "review", "--db",
                          str(db), "--player", "ann")
    assert code == 0 and "a position of yours: your move?" in out
    assert " 15 " in out or "15 " in out  # the board's last row
    assert "  right" in out and out.splitlines()[-1].startswith("1 of 1 right")
