"""Word quizzes (`rackety.study.quiz`, `rackety quiz`; issue 39): the
questions' answers against the lexicon's other word tools, the grading of
replies, the word judge's phonies, multi-letter tiles, and the terminal quiz
fed on stdin."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rackety import Lexicon
from rackety.errors import RacketyError
from rackety.frontends.cli import main
from rackety.study.quiz import (
    PHONY,
    VALID,
    Question,
    anagram_questions,
    hook_questions,
    judge_questions,
)


@pytest.fixture(scope="module")
def twl06() -> Lexicon:
    return Lexicon.load("TWL06")


def test_anagram_questions_by_rank(twl06: Lexicon) -> None:
    """The alphagrams of a length in probability order, each answered by
    every word of its tiles (the lexicon's own anagram search says which)."""
    questions = anagram_questions(twl06, length=7, ranks=(1, 40))
    assert [q.rank for q in questions] == list(range(1, 41))
    plist = twl06.probability_order(7)
    for q in questions:
        assert q.kind == "anagrams" and q.prompt == "".join(sorted(q.prompt))
        assert list(q.answers) == twl06.anagrams(q.prompt)
        assert plist[q.rank - 1].alphagram == q.prompt
    assert [q.rank for q in anagram_questions(twl06, length=7, ranks=(20_000, None))] == \
        list(range(20_000, len(plist) + 1))


def test_anagram_questions_from_a_pattern_and_from_words(twl06: Lexicon) -> None:
    matching = twl06.pattern("QU*Z*")
    questions = anagram_questions(twl06, pattern="QU*Z*")
    alphas = {"".join(sorted(w)) for w in matching}
    assert {q.prompt for q in questions} == alphas
    keys = [(len(q.prompt), q.rank) for q in questions]
    assert keys == sorted(keys)  # by length, then probability
    assert {w for q in questions for w in q.answers} >= set(matching)
    mine = anagram_questions(twl06, words=["RETINAS", "NASTIER", "AEINST?", "ZZZZZZZ"])
    assert [q.prompt for q in mine] == ["AEINRST", "ZZZZZZZ", "AEINST?"]
    assert mine[0].answers == tuple(twl06.anagrams("AEINRST")) and mine[0].rank is not None
    assert mine[1].answers == () and mine[1].rank is None  # no word has those tiles
    assert mine[2].answers == tuple(twl06.anagrams("AEINST?")) and len(mine[2].answers) > 50
    with pytest.raises(RacketyError, match="a length"):
        anagram_questions(twl06)
    with pytest.raises(RacketyError, match="word 2"):
        anagram_questions(twl06, words=["AB", "A1B"])


def test_hook_questions(twl06: Lexicon) -> None:
    """Every word one tile before or after: the lexicon's hooks (read from
    its GADDAG), as words."""
    for q in hook_questions(twl06, ["QI", "able", "XYST", "QI"]):
        hooks = twl06.hooks(q.prompt)
        assert q.answers == tuple([h + q.prompt for h in hooks.front]
                                  + [q.prompt + h for h in hooks.back])
        assert all(w in twl06 for w in q.answers)
        # and every tile tried before and after, by membership alone (the reference)
        letters = [t.label for t in twl06.alphabet.tiles[1:]]
        assert q.answers == tuple([t + q.prompt for t in letters if t + q.prompt in twl06]
                                  + [q.prompt + t for t in letters if q.prompt + t in twl06])
    assert [q.prompt for q in hook_questions(twl06, ["QI", "able", "QI"])] == ["QI", "ABLE"]


def test_the_word_judge(twl06: Lexicon) -> None:
    questions = judge_questions(twl06, 7, 200, seed=5, ranks=(1, 500))
    assert questions == judge_questions(twl06, 7, 200, seed=5, ranks=(1, 500))
    assert questions != judge_questions(twl06, 7, 200, seed=6, ranks=(1, 500))
    top = {w for q in anagram_questions(twl06, length=7, ranks=(1, 500)) for w in q.answers}
    valid = [q.prompt for q in questions if q.answers == (VALID,)]
    phony = [q.prompt for q in questions if q.answers == (PHONY,)]
    assert len(valid) + len(phony) == 200 and 60 <= len(phony) <= 140
    assert all(w in top for w in valid)
    assert all(w not in twl06 and len(w) == 7 for w in phony)
    # a phony is one tile away from a word of the ranks
    assert all(any(sum(a != b for a, b in zip(p, w, strict=True)) == 1 for w in top)
               for p in phony)
    with pytest.raises(RacketyError, match="count"):
        judge_questions(twl06, 7, 0)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_grading_a_reply(twl06: Lexicon, data: st.DataObject) -> None:
    """A reply's words, in any case and order, repeated or not, are split
    into the answers found and missed and the words given that are no
    answer; anything not of the alphabet is unreadable. Right only when it
    is exactly the answers."""
    q = data.draw(st.sampled_from(anagram_questions(twl06, length=6, ranks=(1, 300))))
    found = data.draw(st.lists(st.sampled_from(q.answers), unique=True))
    extra = data.draw(st.lists(st.sampled_from(["QI", "ZZZ", "ANEROID", "CAT"]), unique=True))
    junk = data.draw(st.lists(st.sampled_from(["4x", "ÉTÉ!", "a-b"]), unique=True))
    parts = [w.lower() if data.draw(st.booleans()) else w for w in found + extra] + junk
    parts += data.draw(st.lists(st.sampled_from(parts), max_size=2)) if parts else []
    reply = data.draw(st.sampled_from([" ", ", "])).join(data.draw(st.permutations(parts)))
    grade = q.grade(reply, twl06)
    assert set(grade.found) == set(found)
    assert set(grade.missed) == set(q.answers) - set(found)
    assert set(grade.wrong) == set(extra)
    assert set(grade.unreadable) == set(junk)
    assert grade.correct == (set(found) == set(q.answers) and not extra and not junk)


def test_judge_replies() -> None:
    lexicon = Lexicon.from_words(["AB"])
    valid, phony = Question("judge", "AB", (VALID,)), Question("judge", "BB", (PHONY,))
    assert valid.grade("y", lexicon).correct and valid.grade(" Valid\n", lexicon).correct
    assert not valid.grade("n", lexicon).correct and phony.grade("no", lexicon).correct
    assert not phony.grade("maybe", lexicon).correct
    assert phony.grade("maybe", lexicon).unreadable == ("maybe",)


def test_a_tile_of_several_letters(tmp_path: Path) -> None:
    """Catalan's L·L is one tile: the question writes it in brackets, and a
    reply may write it either way."""
    lexicon = Lexicon.from_words(["COL·LEGI", "A[NY]", "[NY]A"], "catalan")
    [question] = anagram_questions(lexicon, words=["COL·LEGI"])
    assert question.answers == ("CO[L·L]EGI",)
    assert len(lexicon.alphabet.word(question.prompt)) == 6  # C O L·L E G I
    assert question.grade("col·legi", lexicon).correct
    assert question.grade("CO[L·L]EGI", lexicon).correct
    hooks = hook_questions(lexicon, ["[ny]"])
    assert hooks[0].prompt == "[NY]" and set(hooks[0].answers) == {"A[NY]", "[NY]A"}
    # Spanish C and H are tiles, and so is CH: a pattern's words keep them apart
    spanish = Lexicon.from_words(["[CH]E", "CHE", "HEC"], "spanish")
    by_prompt = {q.prompt: q.answers for q in anagram_questions(spanish, pattern="*E")}
    assert by_prompt == {"[CH]E": ("[CH]E",), "CEH": ("CHE", "HEC")}


def _quiz(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
          replies: str, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(replies))
    code = main(["quiz", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_terminal_quiz(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                           twl06: Lexicon) -> None:
    """One question a line, the answer on the next; what was missed said;
    a summary; exit 1 when anything was wrong; the end of input stops it;
    every line fits 80 columns."""
    first = anagram_questions(twl06, length=7, ranks=(1, 3))
    replies = [" ".join(first[0].answers).lower(), "", " ".join(first[2].answers) + " QI"]
    code, out, _ = _quiz(monkeypatch, capsys, "\n".join(replies) + "\n", "anagrams",
                         "--lexicon", "TWL06", "--length", "7", "--ranks", "1-3")
    lines = out.splitlines()
    assert code == 1 and all(len(line) <= 80 for line in lines)
    assert lines[0].startswith(f"[1/3] #1 {first[0].prompt}")
    assert lines[1].startswith("  right")
    assert "the answer: " + " ".join(first[1].answers) in lines[3]
    assert "not answers: QI" in lines[5]
    assert lines[-1].startswith("1 of 3 right (33 %)")
    code, out, _ = _quiz(monkeypatch, capsys, " ".join(first[0].answers) + "\n", "anagrams",
                         "--lexicon", "TWL06", "--length", "7", "--ranks", "1-3")
    assert code == 0 and out.splitlines()[-1].startswith("1 of 1 right")  # then the input ended
    code, out, _ = _quiz(monkeypatch, capsys, "", "judge", "--lexicon", "TWL06", "--length",
                         "5", "--count", "4", "--seed", "2", "--json")
    shown = json.loads(out)
    assert code == 0 and [q["prompt"] for q in shown] == [
        q.prompt for q in judge_questions(twl06, 5, 4, seed=2)]
    answers = "\n".join("y" if q["answers"] == [VALID] else "n" for q in shown) + "\n"
    code, out, _ = _quiz(monkeypatch, capsys, answers, "judge", "--lexicon", "TWL06",
                         "--length", "5", "--count", "4", "--seed", "2")
    assert code == 0 and out.splitlines()[-1].startswith("4 of 4 right (100 %)")


def test_quiz_lists_from_a_file(monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                twl06: Lexicon) -> None:
    listed = tmp_path / "mine.txt"
    listed.write_text("retains\nqi\nAEINRST\n")
    code, out, _ = _quiz(monkeypatch, capsys, "", "hooks", "--lexicon", "TWL06", "--file",
                         str(listed), "--json")
    assert code == 0 and [q["prompt"] for q in json.loads(out)] == ["AEINRST", "QI", "RETAINS"]
    code, out, _ = _quiz(monkeypatch, capsys, "", "anagrams", "--lexicon", "TWL06", "--file",
                         str(listed), "--json")
    assert [q["prompt"] for q in json.loads(out)] == ["IQ", "AEINRST"]
    bad = tmp_path / "bad.txt"
    bad.write_text("QI\nQ1\n")
    for args, message in ((["--file", str(bad)], f"{bad}:2"),
                          (["--file", str(tmp_path / "none.txt")], "none.txt"),
                          (["--length", "7", "--ranks", "9-2"], "--ranks"),
                          ([], "give a length"),
                          (["--pattern", "Q*", "--file", str(listed)], "give a length")):
        code, out, err = _quiz(monkeypatch, capsys, "", "anagrams", "--lexicon", "TWL06", *args)
        assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_a_reply_of_bytes_that_are_not_text(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A reply that is not UTF-8 is read as text that spells no tile: the
    quiz says so and goes on."""
    raw = io.TextIOWrapper(io.BytesIO(b"\xff\xfe QI\n\x80\n"), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", raw)
    code = main(["quiz", "hooks", "--lexicon", "TWL06", "--length", "2", "--ranks", "1-2"])
    out = capsys.readouterr().out
    assert code == 1 and "not of the alphabet" in out
    assert out.splitlines()[-1].startswith("0 of 2 right")


def test_the_word_judge_on_a_time_limit(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str],
                                        twl06: Lexicon) -> None:
    """``--seconds``: a right answer past the limit counts as wrong."""
    [question] = judge_questions(twl06, 5, 1, seed=3)
    reply = "y\n" if question.answers == (VALID,) else "n\n"
    clock = iter([0.0, 10.0])  # the question shown at 0 s, answered at 10 s
    monkeypatch.setattr("rackety.frontends.cli.study.answer_clock", lambda: next(clock))
    code, out, _ = _quiz(monkeypatch, capsys, reply, "judge", "--lexicon", "TWL06",
                         "--length", "5", "--count", "1", "--seed", "3", "--seconds", "5")
    assert code == 1 and "too slow: 10.0 s of 5" in out
    clock = iter([0.0, 2.0])
    monkeypatch.setattr("rackety.frontends.cli.study.answer_clock", lambda: next(clock))
    code, out, _ = _quiz(monkeypatch, capsys, reply, "judge", "--lexicon", "TWL06",
                         "--length", "5", "--count", "1", "--seed", "3", "--seconds", "5")
    assert code == 0 and "  right" in out
