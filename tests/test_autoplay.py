"""Autoplay: the same games whatever the number of processes, every game checked,
Gordon's table with honest intervals, the command line's exact JSON form."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from task_counting import EnoughError, counting

from rackety import Lexicon
from rackety.experiments.autoplay import (
    PAIRED_MIN,
    paired_interval,
    paired_interval_of_counts,
    play_game,
    tournament,
    wilson,
)
from rackety.frontends.cli import main
from rackety.game.gcg import game_of, gcg_of, read_gcg
from rackety.game.heuristics import H1
from rackety.lexicon.klv import Klv
from rackety.players import Decision, GreedyPlayer, PlayerBase, StaticPlayer, make_player


def test_results_do_not_depend_on_the_number_of_processes(twl06: Lexicon) -> None:
    one = tournament("TWL06", ["h3", "greedy"], 8, seed=5, jobs=1)
    two = tournament("TWL06", ["h3", "greedy"], 8, seed=5, jobs=2)
    assert [(r.index, r.seed, r.order, [s.score for s in r.seats]) for r in one.results] == \
        [(r.index, r.seed, r.order, [s.score for s in r.seats]) for r in two.results]
    assert [p.as_json()["wins"] for p in one.players] == [p.as_json()["wins"]
                                                          for p in two.players]


def test_pairs_share_the_bag_with_seats_swapped(twl06: Lexicon) -> None:
    result = tournament("TWL06", ["greedy", "greedy"], 4, seed=9, jobs=1)
    first, second = result.results[:2]
    assert first.seed == second.seed and first.order == second.order[::-1]
    # the same player on the same bag in the same seat plays the same game
    assert [s.score for s in first.seats] == [s.score for s in second.seats]
    table = {p.name: p for p in result.players}
    assert table["greedy-1"].wins + table["greedy-2"].wins == 4
    assert table["greedy-1"].sacrifices == 0  # greedy always plays a top score


class _Random(PlayerBase):
    """A player that plays a random legal move (exchanges and passes too)."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def decide(self, board, lexicon):
        return Decision(self.rng.choice(list(board.moves(lexicon))))


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**31), kinds=st.lists(
    st.sampled_from(["greedy", "h1", "h2", "h3", "klv", "random"]), min_size=2, max_size=4))
def test_every_player_kind_keeps_the_invariants(twl06: Lexicon, seed: int,
                                                kinds: list[str]) -> None:
    klv = Klv.from_values("english", {"S": 8.0, "?": 25.0, "Q": -7.0, "ER": 4.0, "V": -5})
    players = []
    for i, kind in enumerate(kinds):
        if kind == "random":
            players.append(_Random(seed + i))
        elif kind == "klv":
            players.append(StaticPlayer(klv, "klv"))
        else:
            players.append(make_player(kind, twl06))
    game, stats = play_game(twl06, players, seed=seed, check=True)  # raises on a problem
    assert game.over and game.problems() == []
    assert sum(s.won for s in stats) == 1.0
    assert [s.score for s in stats] == game.scores
    turns = sum(1 for e in game.events if e.kind in ("play", "exchange", "pass"))
    assert sum(s.moves for s in stats) == turns


def test_sacrifices_count_plays_below_the_top_score(twl06: Lexicon) -> None:
    players = [StaticPlayer(H1, "h1"), GreedyPlayer()]
    _game, stats = play_game(twl06, players, seed=3)
    assert stats[1].sacrifices == 0 and 0 < stats[0].sacrifices < stats[0].plays


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert round(lo, 1) == 40.4 and round(hi, 1) == 59.6
    assert wilson(0, 0) == (0.0, 100.0)


@given(st.lists(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0]), min_size=2, max_size=300))
def test_paired_interval_is_the_normal_interval_of_the_pair_means(pairs: list[float]) -> None:
    import statistics
    mean = statistics.fmean(pairs) / 2
    half = 1.959964 * statistics.stdev(p / 2 for p in pairs) / len(pairs) ** 0.5
    lo, hi = paired_interval(pairs)
    assert abs(lo - 100 * max(0.0, mean - half)) < 1e-9
    assert abs(hi - 100 * min(1.0, mean + half)) < 1e-9


def test_split_pairs_give_a_narrower_interval_than_wilson() -> None:
    """Pairs that mostly split (each seat won once) are less noisy than as many
    independent games: the paired interval is the narrower one."""
    pairs = [1.0] * 180 + [2.0] * 12 + [0.0] * 8
    lo, hi = paired_interval(pairs)
    wlo, whi = wilson(sum(pairs), 2 * len(pairs))
    assert wlo < lo < 100 * sum(pairs) / 400 < hi < whi
    assert paired_interval([1.0] * 50) == (50.0, 50.0)


@given(st.lists(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0]), max_size=300))
def test_the_interval_of_pair_counts_is_the_interval_of_the_pairs(pairs: list[float]) -> None:
    counts = [pairs.count(k / 2) for k in range(5)]
    lo, hi = paired_interval_of_counts(counts)
    plo, phi = paired_interval(pairs)
    assert abs(lo - plo) < 1e-9 and abs(hi - phi) < 1e-9


def _pair_wins(result, p: int) -> list[float]:
    """Player ``p``'s wins in each pair of games, from the games kept."""
    won = {r.index: r.seats[r.order.index(p)].won for r in result.results}
    return [won[2 * k] + won[2 * k + 1] for k in range(len(won) // 2)]


def test_two_player_tournaments_take_the_interval_from_their_pairs(twl06: Lexicon) -> None:
    result = tournament("TWL06", ["h1", "greedy"], 2 * PAIRED_MIN, seed=4, jobs=1)
    for i, p in enumerate(result.players):
        pairs = _pair_wins(result, i)
        assert p.pairs == len(pairs) == PAIRED_MIN and sum(pairs) == p.wins
        assert p.pair_counts == [pairs.count(k / 2) for k in range(5)]
        assert p.as_json()["interval"] == "pairs"
        lo, hi = p.win_ci95
        plo, phi = paired_interval(pairs)
        assert abs(lo - plo) < 1e-9 and abs(hi - phi) < 1e-9
    few = tournament("TWL06", ["h1", "greedy"], 20, seed=4, jobs=1)
    assert few.players[0].as_json()["interval"] == "wilson"
    assert few.players[0].win_ci95 == wilson(few.players[0].wins, 20)


def test_autoplay_command_json(capsys, tmp_path, twl06: Lexicon) -> None:
    code = main(["autoplay", "--lexicon", "TWL06", "--players", "h2,greedy", "--games", "4",
                 "--seed", "2", "--jobs", "1", "--json", "--gcg-dir", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    assert set(result) == {"games", "players", "games_per_second"} and result["games"] == 4
    for p in result["players"]:
        assert {"name", "wins", "win_pct", "win_ci95", "avg_score", "moves", "sacrifices",
                "exchanges"} <= set(p)
        lo, hi = p["win_ci95"]
        assert lo <= p["win_pct"] <= hi
    assert sum(p["wins"] for p in result["players"]) == 4
    files = sorted(tmp_path.glob("*.gcg"))
    assert len(files) == 4
    code = main(["gcg", "check", str(files[0])])
    assert code == 0


def test_autoplay_in_catalan_from_a_word_list(capsys, tmp_path) -> None:
    """--lexicon FILE:catalan: a word list in Catalan, its bag and its tiles of
    several letters; every game written checks out."""
    words = tmp_path / "ca.txt"
    words.write_bytes((Path(__file__).parent / "data" / "words_catalan_small.txt").read_bytes())
    games = tmp_path / "games"
    code = main(["autoplay", "--lexicon", f"{words}:catalan", "--players", "h3,greedy",
                 "--games", "2", "--seed", "3", "--jobs", "1", "--json", "--gcg-dir",
                 str(games)])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    assert result["games"] == 2 and [p["name"] for p in result["players"]] == ["h3", "greedy"]
    assert sum(p["wins"] for p in result["players"]) == 2
    records = sorted(games.glob("*.gcg"))
    assert len(records) == 2
    lexicon = Lexicon.load(str(words), "catalan")
    for record in records:
        game = game_of(read_gcg(record), lexicon)
        assert game.alphabet.name == "catalan" and game.problems() == []
        assert sum(1 for _ in game.events) > 2
    # the alphabet given twice must agree, and a spec that names none is a file
    code = main(["autoplay", "--lexicon", f"{words}:catalan", "--alphabet", "spanish",
                 "--games", "2"])
    _, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1 and "is in catalan, not in spanish" in err
    code = main(["autoplay", "--lexicon", f"{words}:klingon", "--games", "2"])
    _, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1 and "klingon" in err


def test_autoplay_bad_player_is_one_line(capsys) -> None:
    code = main(["autoplay", "--players", "h3,wizard", "--games", "2"])
    _, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1 and "wizard" in err


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31), kinds=st.lists(
    st.sampled_from(["greedy", "h1", "h2", "h3", "klv"]), min_size=2, max_size=3))
def test_compiled_games_are_the_python_games(twl06: Lexicon, seed: int,
                                             kinds: list[str]) -> None:
    """`rackety.experiments.selfplay` plays the very games `play_game` plays: same moves,
    same draws, same end; and its check passes on them."""
    from rackety.experiments.selfplay import Compiled

    klv = Klv.from_values("english", {"S": 8.0, "?": 25.0, "Q": -7.0, "ER": 4.0, "V": -5})
    players = [StaticPlayer(klv, "klv") if k == "klv" else make_player(k, twl06)
               for k in kinds]
    compiled = Compiled(twl06, players)
    for game_seed_ in (seed, seed + 1):
        fast = compiled.play(game_seed_)
        game, _stats = play_game(twl06, players, seed=game_seed_)
        names = ["play", "exchange", "pass", "end_points", "end_penalty"]
        assert [(int(s), names[k], int(v)) for s, k, v in
                zip(fast.seat, fast.kind, fast.score, strict=True)] == \
            [(e.seat, e.kind, e.score) for e in game.events]
        assert compiled.check(fast) is None
        replayed = fast.game(twl06, game.players, seed=game_seed_)
        assert gcg_of(replayed) == gcg_of(game)


def test_the_compiled_check_catches_what_is_wrong(twl06: Lexicon) -> None:
    from rackety.experiments.selfplay import Compiled

    compiled = Compiled(twl06, [make_player("h3", twl06), make_player("greedy", twl06)])
    fast = compiled.play(11)
    first_play = int((fast.kind == 0).nonzero()[0][1])
    fast.score[first_play] += 1
    assert "scored differently" in compiled.check(fast)
    fast = compiled.play(11)
    fast.tiles[first_play, 0] = 26 if fast.tiles[first_play, 0] != 26 else 25
    assert compiled.check(fast) is not None


def test_compiled_and_python_tournaments_agree(twl06: Lexicon) -> None:
    fast = tournament("TWL06", ["h2", "greedy"], 6, seed=8, jobs=1)
    slow = tournament("TWL06", ["h2", "greedy"], 6, seed=8, jobs=1, compiled=False)
    assert [[s.score for s in r.seats] for r in fast.results] == \
        [[s.score for s in r.seats] for r in slow.results]
    assert [(p.wins, p.sacrifices, p.exchanges, p.bingos, p.moves) for p in fast.players] == \
        [(p.wins, p.sacrifices, p.exchanges, p.bingos, p.moves) for p in slow.players]


def test_a_long_tournament_makes_its_batches_as_they_are_played(twl06: Lexicon,
                                                                monkeypatch) -> None:
    """A million games, stopped after the first batch: only the batches a
    worker was given were ever made (never the list of every batch), and
    without ``keep_results`` no game is kept."""
    from rackety.backends import WINDOW_PER_WORKER
    from rackety.experiments import autoplay

    made: list[int] = []

    monkeypatch.setattr(autoplay, "imap_tasks", counting(autoplay.imap_tasks, made))
    games: list[int] = []

    def progress(k: int) -> None:
        games.append(k)
        raise EnoughError

    with pytest.raises(EnoughError):
        tournament("TWL06", ["greedy", "greedy"], 10**6, seed=3, jobs=1, progress=progress,
                   keep_results=False)
    assert games and 1 <= len(made) <= 1 + WINDOW_PER_WORKER
    short = tournament("TWL06", ["greedy", "greedy"], 4, seed=3, jobs=1, keep_results=False)
    kept = tournament("TWL06", ["greedy", "greedy"], 4, seed=3, jobs=1)
    assert short.results == [] and len(kept.results) == short.games == 4
    assert [p.as_json() | {"seconds_per_move": 0} for p in short.players] == \
        [p.as_json() | {"seconds_per_move": 0} for p in kept.players]
