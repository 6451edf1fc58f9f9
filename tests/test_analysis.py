"""Analysis of game records (`rackety.frontends.analysis`, ``rackety analyze``): on games
the project plays and writes, and on hand-written records with challenges,
exchanges, passes, missed bingos and phonies."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from rackety.frontends.analysis import analyze_record, summarize
from rackety.frontends.cli import main
from rackety.game.gcg import gcg_of, read_gcg, replay
from rackety.game.movegen import generate

DATA = Path(__file__).parent / "data" / "gcg"


def run(capsys: Any, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def played(twl06: Any, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Three games of greedy against H3, written as GCG by the referee."""
    from rackety.experiments.autoplay import play_game
    from rackety.players import make_player

    folder = tmp_path_factory.mktemp("games")
    players = [make_player("greedy", twl06), make_player("h3", twl06)]
    paths = []
    for seed in (3, 4, 5):
        game, _stats = play_game(twl06, players, seed=seed, names=["greedy", "h3"])
        path = folder / f"game{seed}.gcg"
        path.write_text(gcg_of(game), encoding="utf-8")
        paths.append(path)
    return paths


def _check_turns(analysis: Any, lexicon: Any, record: Any, *, full: bool,
                 leave: str = "static") -> None:
    """What every assessed turn must satisfy; with ``full``, against the move
    list generated here by the leave model ``leave`` (the played move's equity,
    the bingos)."""
    rep = replay(record)
    for t in analysis.turns:
        if not t.assessed:
            continue
        assert t.equity_lost >= 0
        assert t.equity_lost == pytest.approx(max(0.0, t.best_equity - t.played_equity))
        if not t.phonies:
            assert t.best_equity >= t.played_equity - 1e-9
            assert t.equity_lost == pytest.approx(t.best_equity - t.played_equity)
        assert t.missed_bingo == (bool(t.bingo_available) and not t.bingo)
        if full and t.valued_by == "static":
            board = rep.positions[t.index]
            moves = list(generate(board, lexicon, leave=_model(leave, lexicon)))
            assert t.best_equity == pytest.approx(moves[0].equity)
            if not t.phonies:
                listed = next(m for m in moves if m == t.played)
                assert t.played_equity == pytest.approx(listed.equity)
            bingo_there = any(m.kind == "place" and m.n_placed == 7 for m in moves)
            assert t.bingo_available == bingo_there
            assert t.missed_bingo == (bingo_there and not (
                t.played.kind == "place" and t.played.n_placed == 7))


def _model(spec: str, lexicon: Any) -> Any:
    from rackety.players import leave_model

    return leave_model(spec, lexicon)


# ------------------------------------------------------- games we write
def test_greedy_loses_equity_and_h3_none(twl06: Any, played: list[Path]) -> None:
    lost = {"greedy": 0.0, "h3": 0.0}
    for n, path in enumerate(played):
        record = read_gcg(path)
        analysis = analyze_record(record, twl06, leave="h3", plies=1)
        assert analysis.leave == "H3"
        _check_turns(analysis, twl06, record, full=n == 0, leave="h3")
        turns = analysis.listed()
        assert turns and all(t.assessed for t in turns)  # every rack is in the record
        for t in turns:
            if t.valued_by != "static":
                continue  # an endgame or pre-endgame: h3 is not the judge there
            lost[t.player] += t.equity_lost
            if t.player == "h3":  # its own choice, the best by H3
                assert t.equity_lost == pytest.approx(0.0, abs=1e-9)
        assert {s.player for s in analysis.summary()} == {"greedy", "h3"}
    assert lost["greedy"] > 0 and lost["h3"] == pytest.approx(0.0, abs=1e-9)


def test_summary_adds_up(twl06: Any, played: list[Path]) -> None:
    record = read_gcg(played[0])
    analysis = analyze_record(record, twl06, plies=1)
    for s in analysis.summary():
        mine = [t for t in analysis.turns if t.player == s.player]
        assessed = [t for t in mine if t.assessed]
        assert s.turns == len(assessed)
        assert s.equity_lost == pytest.approx(sum(t.equity_lost for t in assessed))
        assert s.average_lost == pytest.approx(s.equity_lost / s.turns)
        assert s.bingos == sum(t.kind == "play" and t.move.n_placed == 7 for t in mine)
        assert s.bingos_missed == sum(t.missed_bingo for t in assessed)
        assert s.phonies == 0  # the referee refused every phony


def test_leave_none_is_score(twl06: Any, played: list[Path]) -> None:
    record = read_gcg(played[1])
    for t in analyze_record(record, twl06, leave="none", plies=1).listed():
        if t.assessed and t.valued_by == "static":
            assert t.best_equity == t.best.score and t.played_equity == t.played.score
            if t.player == "greedy" and t.kind == "play":
                assert t.equity_lost == 0  # greedy plays the top score


# ------------------------------------------------ hand-written records
def test_missed_bingo_exchange_pass_and_a_phony_that_stood(twl06: Any) -> None:
    record = read_gcg(DATA / "phony_stood.gcg")
    analysis = analyze_record(record, twl06)
    assert analysis.leave == "TWL06's shipped table"  # the default: equity with leaves
    _check_turns(analysis, twl06, record, full=True)
    turns = analysis.listed()
    assert [t.kind for t in turns] == ["play", "exchange", "play", "play", "pass", "play"]
    first, exchange, phony, _oxygen, passed, bingo = turns
    # AEINRST: RETSINA and its anagrams at 8B for 66; STAIN played
    assert first.missed_bingo and first.best_bingo_text.startswith("8B ")
    assert first.best.score == 66 and first.played_text == "8G STAIN"
    assert first.equity_lost == pytest.approx(first.best_equity - first.played_equity)
    assert exchange.played.kind == "exchange" and exchange.played_text == "exch FQV"
    assert exchange.assessed and not exchange.phonies
    assert phony.phonies == ("RETZ",) and phony.phony_fate == "stood"
    assert not phony.challenged_off and phony.assessed  # valued off the list
    assert phony.played.score == 13
    assert passed.played.kind == "pass" and passed.missed_bingo
    assert passed.best_bingo_text == "6A VAULTIE(R)"
    assert bingo.bingo and not bingo.missed_bingo and bingo.equity_lost == 0
    summary = {s.player: s for s in analysis.summary()}
    ann, bob = summary["ann"], summary["bob"]
    assert (ann.turns, ann.bingos, ann.bingos_missed) == (3, 0, 2)
    assert (ann.phonies, ann.phonies_challenged, ann.phonies_stood) == (1, 0, 1)
    assert (bob.turns, bob.bingos, bob.bingos_missed, bob.phonies) == (3, 1, 0, 0)


def test_a_phony_challenged_off(twl06: Any) -> None:
    record = read_gcg(DATA / "double_challenge.gcg")
    analysis = analyze_record(record, twl06)
    _check_turns(analysis, twl06, record, full=False)
    goxe = analysis.turns[3]
    assert goxe.played_text == "H5 GOX(E)" and goxe.phonies == ("GOXE",)
    assert goxe.challenged_off and goxe.phony_fate == "challenged off" and goxe.assessed
    withdrawn = analysis.turns[4]
    assert withdrawn.kind == "withdrawn" and withdrawn not in analysis.listed()
    assert analysis.turns[1].kind == "exchange" and analysis.turns[1].assessed
    assert analysis.turns[5].kind == "pass" and analysis.turns[5].missed_bingo
    bob = next(s for s in analysis.summary() if s.player == "bob")
    assert bob.phonies_challenged == 1
    # a good play challenged (five points to its player) is no phony
    five = analyze_record(read_gcg(DATA / "five_point.gcg"), twl06)
    ox = five.turns[2]
    assert ox.played_text == "9I OX" and ox.phonies == () and not ox.challenged_off


def test_an_unfinished_record_and_one_players_turns(twl06: Any) -> None:
    record = read_gcg(DATA / "incomplete.gcg")
    analysis = analyze_record(record, twl06, seats=[1])
    assert [t.assessed for t in analysis.turns] == [False, True, False, True]
    assert [s.player for s in analysis.summary(["fay"])] == ["fay"]
    assert summarize(analysis.turns, ["fay"])[0].turns == 2


def test_simulation_values_the_best_and_the_move_played(twl06: Any) -> None:
    record = read_gcg(DATA / "phony_stood.gcg")
    analysis = analyze_record(record, twl06, sim_seconds=0.05, seats=[0])
    turns = [t for t in analysis.turns if t.assessed]
    assert turns and all(t.valued_by.startswith("simulation, ") for t in turns)
    for t in turns:
        assert t.equity_lost == pytest.approx(max(0.0, t.best_equity - t.played_equity))


# ---------------------------------------------------------------- command
def test_json_and_csv_agree(capsys: Any, tmp_path: Path, played: list[Path]) -> None:
    files = [str(DATA / "double_challenge.gcg"), str(DATA / "phony_stood.gcg"),
             str(played[0])]
    code, out, _ = run(capsys, "analyze", *files, "--json", "--jobs", "1", "--plies", "1")
    assert code == 0
    body = json.loads(out)
    assert [g["file"] for g in body["games"]] == files
    out_csv = tmp_path / "turns.csv"
    code, out, _ = run(capsys, "analyze", *files, "--csv", str(out_csv), "--jobs", "1",
                       "--plies", "1")
    assert code == 0 and str(out_csv) in out
    rows = list(csv.DictReader(out_csv.open(encoding="utf-8")))
    assessed = [(g["file"], t) for g in body["games"] for t in g["turns"] if t["assessed"]]
    assert len(rows) == len(assessed)
    for row, (file, turn) in zip(rows, assessed, strict=True):
        assert row["file"] == file and int(row["event"]) == turn["event"]
        assert row["player"] == turn["player"] and row["played"] == turn["played"]["move"]
        assert row["best"] == turn["best"]["move"]
        assert float(row["equity_lost"]) == turn["equity_lost"]
        assert float(row["played_equity"]) == turn["played"]["value"]
        assert int(row["best_score"]) == turn["best"]["score"]
        assert row["missed_bingo"] == str(int(turn["missed_bingo"]))
        assert row["phonies"] == " ".join(turn["phonies"])
    # the summary is the turns added up, over the games
    for s in body["summary"]:
        mine = [t for _, t in assessed if t["player"] == s["player"]]
        assert s["turns"] == len(mine)
        assert s["equity_lost"] == pytest.approx(sum(t["equity_lost"] for t in mine),
                                                 abs=0.01)
    ann = next(s for s in body["summary"] if s["player"] == "ann")
    assert (ann["bingos_missed"], ann["phonies_stood"]) == (4, 1)


def test_same_results_with_one_and_two_processes(capsys: Any, played: list[Path]) -> None:
    files = [*map(str, played), str(DATA / "double_challenge.gcg")]
    _, one, _ = run(capsys, "analyze", *files, "--json", "--jobs", "1", "--plies", "1")
    code, two, _ = run(capsys, "analyze", *files, "--json", "--jobs", "2", "--plies", "1")
    assert code == 0 and json.loads(one) == json.loads(two)


def test_player_and_table(capsys: Any) -> None:
    files = [str(DATA / "double_challenge.gcg"), str(DATA / "phony_stood.gcg")]
    code, out, _ = run(capsys, "analyze", *files, "--player", "BOB", "--json", "--jobs", "1")
    body = json.loads(out)
    assert code == 0 and [s["player"] for s in body["summary"]] == ["bob"]
    assert all(t["player"] == "bob" for g in body["games"] for t in g["turns"])
    assert body["summary"][0]["bingos"] == 1 and body["summary"][0]["phonies"] == 3
    code, out, _ = run(capsys, "analyze", files[1], "--jobs", "1")
    assert code == 0
    assert "missed bingo 6A VAULTIE(R)" in out and "phony RETZ (stood)" in out
    assert "summary" in out and "exch FQV" in out


def test_one_line_errors(capsys: Any, tmp_path: Path) -> None:
    bad = tmp_path / "bad.gcg"
    bad.write_text("#player1 a A\n#player2 b B\n>a: ABC 8H\n", encoding="utf-8")
    code, out, err = run(capsys, "analyze", str(DATA / "five_point.gcg"), str(bad),
                         "--lexicon", "CSW19")
    assert code == 2 and not out and err.count("\n") == 1
    assert err.startswith(f"rackety: error: {bad}:3: ")
    code, _, err = run(capsys, "analyze", str(DATA / "five_point.gcg"), "--player", "zed",
                       "--lexicon", "CSW19")
    assert code == 2 and err == ("rackety: error: --player zed: no such player in the "
                                 "record; players: cy, di\n")
    code, _, err = run(capsys, "analyze", str(tmp_path / "none.gcg"))
    assert code == 2 and err == f"rackety: error: {tmp_path / 'none.gcg'}: no such file\n"
    code, _, err = run(capsys, "analyze", str(DATA / "five_point.gcg"), "--leave", "h9",
                       "--lexicon", "CSW19")
    assert code == 2 and err.count("\n") == 1 and "h9" in err
    code, _, err = run(capsys, "analyze", str(DATA / "five_point.gcg"), "--json", "--csv",
                       str(tmp_path / "x.csv"), "--lexicon", "CSW19")
    assert code == 2 and err.count("\n") == 1 and not (tmp_path / "x.csv").exists()


def test_many_records_are_read_as_workers_take_them(capsys: Any, played: list[Path],
                                                   monkeypatch: Any) -> None:
    """``rackety analyze`` of many records: every record is checked before any
    work, then each is read again as a worker takes it, so the records are
    never all held at once (the tasks are a generator, drawn one at a time);
    the analyses are those of the records given."""
    import rackety.backends as backends

    real = backends.imap_tasks
    drawn: list[str] = []
    held: list[int] = []

    def counting(func, tasks, **kwargs):
        assert not hasattr(tasks, "__len__")  # not a list of every record's bytes

        def each():
            for task in tasks:
                drawn.append(task[1])
                yield task
        for index, result in real(func, each(), **kwargs):
            held.append(len(drawn) - index)  # drawn ahead of the one finishing
            yield index, result

    monkeypatch.setattr(backends, "imap_tasks", counting)
    files = [str(p) for p in played] * 2
    code, out, _ = run(capsys, "analyze", *files, "--json", "--jobs", "1", "--plies", "1")
    assert code == 0 and drawn == files and max(held) == 1
    games = json.loads(out)["games"]
    assert [g["file"] for g in games] == files
    assert games[0] == games[3] and games[1] == games[4]


# ------------------------------------------- what the judge changed (issue 36)
def _variant(tmp_path: Path, name: str, edit: Any) -> Path:
    path = tmp_path / name
    path.write_text(edit((DATA / "phony_stood.gcg").read_text(encoding="utf-8")),
                    encoding="utf-8")
    return path


def test_a_partial_rack_is_not_assessed(twl06: Any, tmp_path: Path) -> None:
    """bob's second rack given as the tiles he played (OXYGE of EGNOOXY), the
    bag full: his turn is listed, not assessed, and counted apart; with the
    whole rack it is assessed."""
    path = _variant(tmp_path, "partial.gcg",
                    lambda text: text.replace(">bob: EGNOOXY K3", ">bob: OXYGE K3"))
    partial = analyze_record(read_gcg(path), twl06)
    whole = analyze_record(read_gcg(DATA / "phony_stood.gcg"), twl06)
    index = next(t.index for t in whole.turns if t.played_text == "K3 OXYGE(N)")
    turn, full = partial.turns[index], whole.turns[index]
    assert turn.played_text == full.played_text == "K3 OXYGE(N)"
    assert full.assessed and not turn.assessed
    assert turn.why_not is not None and "partial" in turn.why_not
    assert turn.mistake is None and turn.equity_lost is None
    bob = {s.player: s for s in partial.summary()}["bob"]
    assert (bob.turns, bob.not_assessed) == (2, 1)
    assert {s.player: s for s in whole.summary()}["bob"].not_assessed == 0
    # the other turns are assessed as before
    for a, b in zip(partial.turns, whole.turns, strict=True):
        if a.index != index:
            assert a.equity_lost == b.equity_lost


@pytest.mark.parametrize("lexicon", ["NWL23", "NWL18"])
def test_a_lexicon_rackety_does_not_have_is_refused(capsys: Any, tmp_path: Path,
                                                    lexicon: str) -> None:
    path = _variant(tmp_path, "nwl.gcg",
                    lambda text: text.replace("#lexicon TWL06", f"#lexicon {lexicon}"))
    code, out, err = run(capsys, "analyze", str(path), "--json", "--jobs", "1")
    assert code == 2 and not out and err.count("\n") == 1
    assert lexicon in err and "--lexicon" in err
    code, out, err = run(capsys, "analyze", str(path), "--json", "--jobs", "1",
                         "--lexicon", "TWL06")
    assert code == 0 and json.loads(out)["games"][0]["lexicon"] == "TWL06"


def test_mistakes_and_the_mistake_index_add_up(capsys: Any, played: list[Path]) -> None:
    from rackety.search.judge import MISTAKE_WEIGHTS, MISTAKE_WIN_PCT

    code, out, _ = run(capsys, "analyze", str(played[0]), "--json", "--jobs", "1",
                       "--plies", "1")
    assert code == 0
    body = json.loads(out)
    turns = [t for t in body["games"][0]["turns"] if t["assessed"]]
    for t in turns:
        if t["unit"] == "equity":
            lost = t["win_pct_lost"]
            want = "large" if lost >= MISTAKE_WIN_PCT[2] else "medium" if \
                lost >= MISTAKE_WIN_PCT[1] else "small" if lost >= MISTAKE_WIN_PCT[0] else \
                "none"
            assert t["mistake"] == want
            assert t["win_pct_lost"] == pytest.approx(
                max(0.0, t["best"]["win_pct"] - t["played"]["win_pct"]), abs=0.02)
    for s in body["summary"]:
        mine = [t for t in turns if t["player"] == s["player"]]
        assert s["mistake_index"] == pytest.approx(
            sum(MISTAKE_WEIGHTS[t["mistake"]] for t in mine), abs=0.01)
        assert sum(s["mistakes"].values()) == sum(t["mistake"] != "none" for t in mine)
    greedy = next(s for s in body["summary"] if s["player"] == "greedy")
    assert greedy["mistake_index"] > 0


def test_a_record_in_another_alphabet_without_a_lexicon(capsys: Any, tmp_path: Path) -> None:
    """A Polish record naming no lexicon: the default (TWL06) is not in its
    alphabet, and the refusal says so in one line and how to name one."""
    path = tmp_path / "polish.gcg"
    path.write_text("#character-encoding UTF-8\n#player1 a A\n#player2 b B\n"
                    ">a: AHIJOUY 8F HUJA +20 20\n>a: AHIJOUY --  -20 0\n"
                    ">b: ĆĘIKPST 8G STĘPIĆ +46 46\n",
                    encoding="utf-8")
    code, out, err = run(capsys, "analyze", str(path), "--jobs", "1")
    assert code == 2 and not out and err.count("\n") == 1
    assert "alphabet polish" in err and "--lexicon" in err and "aardvark" not in err
