"""The championship player (`rackety.players.best`): it reads the opponent's
play off the board, takes each phase's search, keeps to its budget, and is
made from its spec."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rackety import Game, Lexicon, RacketyError
from rackety.players import BestPlayer, make_player
from rackety.search.judge import CLOCK_RESERVE, ENDGAME_SHARE, TURN_SHARE, clock_seconds


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_the_opponents_play_is_read_off_the_board(twl06: Lexicon, seed: int) -> None:
    """After each of its moves the player remembers the board; the opponent's
    next placement is then found on the board it sees, and the position before
    it is the board it left, the opponent to move with an unknown rack."""
    game = Game(twl06, ["best", "other"], seed=seed)
    static = make_player("static", twl06)
    best = BestPlayer(0.1)
    checked = 0
    while not game.over:
        view = game.view()
        move = static.choose(view, twl06)
        if game.turn == 0:
            best._after = view.play(move) if move.kind == "place" else view.copy()
        else:
            mine = game.view(0)  # what the player sees before its next turn
            scores = list(game.scores)
            game.play(move)
            found = best.opponent_play(game.view(0))
            if move.kind == "place":
                assert found is not None
                position, play = found
                assert game.position.notation(play) == game.position.notation(move)
                assert (position.grid == mine.grid).all()
                assert position.racks[0] == () and position.racks[1] == game.view(0).rack
                if not game.over:  # (the end of the game moves the scores again)
                    assert position.scores == [scores[1], scores[0]]
                checked += 1
            else:
                assert found is None  # an exchange or a pass adds nothing to see
            continue
        game.play(move)
    assert checked > 3


def test_each_phase_takes_its_search(twl06: Lexicon) -> None:
    static = make_player("static", twl06)
    best = BestPlayer(0.3, candidates=4)
    phases: set[str] = set()
    spent: list[float] = []
    # games until the player has had an endgame (the opponent may go out first)
    for seed in range(5, 11):
        game = Game(twl06, ["a", "b"], seed=seed)
        while not game.over:
            view = game.view()
            if game.turn == 0 and (view.bag_count == 0 or view.bag_count > 20):
                started = time.perf_counter()
                decision = best.decide(view, twl06)
                phases.add(best.last_phase.split(",")[0])
                if best.last_phase.startswith("simulation"):
                    assert decision.simulation is not None
                    spent.append(time.perf_counter() - started)
                if best.last_phase == "endgame":
                    assert decision.endgame is not None
                game.play(decision.move)  # the referee checks it
            else:
                game.play(static.choose(view, twl06))
        if "endgame" in phases:
            break
    assert {"simulation", "endgame"} <= phases
    # the budget, once the rollouts and the inference are compiled (the first moves)
    assert sorted(spent)[len(spent) // 2] < 0.3 + 0.5


def test_the_spec(twl06: Lexicon) -> None:
    player = make_player("best:0.5", twl06)
    assert isinstance(player, BestPlayer) and player.seconds == 0.5 and player.name == "best:0.5"
    assert make_player("best", twl06).seconds == 2.0
    for bad in ("best:abc", "best:-1", "best:0", "best:1e9"):
        with pytest.raises(RacketyError, match="best"):
            make_player(bad, twl06)
    clocked = make_player("best:clock=30", twl06)
    assert isinstance(clocked, BestPlayer) and clocked.clock == 30.0
    assert clocked.name == "best:clock=30" and clocked.clock_left == 30.0
    for bad in ("best:clock=", "best:clock=0", "best:clock=x", "best:clock=-5"):
        with pytest.raises(RacketyError, match="best"):
            make_player(bad, twl06)
    auto = BestPlayer(1.0)  # by default the depth the time allows (issue 38)
    assert auto.plies == "auto" and eval(repr(auto), {"BestPlayer": BestPlayer}) == auto
    two = BestPlayer(1.0, plies=2)
    assert two.plies == 2 and eval(repr(two), {"BestPlayer": BestPlayer}) == two != auto
    for plies in (-1, "four", 2.0):
        with pytest.raises(RacketyError, match="best: plies"):
            BestPlayer(1.0, plies=plies)  # type: ignore[arg-type]


# ------------------------------------------------------------ a game clock
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), turns=st.integers(0, 40),
       left=st.floats(0.0, 3600.0), increment=st.floats(0.0, 5.0))
def test_a_turn_takes_a_share_of_the_clock(twl06: Lexicon, seed: int, turns: int,
                                           left: float, increment: float) -> None:
    game = Game(twl06, ["a", "b"], seed=seed)
    static = make_player("static", twl06)
    for _ in range(turns):
        if game.over:
            break
        game.play(static.choose(game.view(), twl06), check=False)
    view = game.view()
    seconds = clock_seconds(view, left)
    # a reserve kept: never the whole clock, and never more than its share
    assert 0.0 <= seconds <= max(0.0, left - min(0.5 * left, CLOCK_RESERVE[0]))
    assert seconds <= max(TURN_SHARE, ENDGAME_SHARE) * left
    # more time, not less; and the increment adds to it
    assert clock_seconds(view, left + 10.0) >= seconds
    assert clock_seconds(view, left, increment=increment) >= seconds


def test_the_clock_goes_further_where_the_game_is_decided(twl06: Lexicon) -> None:
    from rackety import Board

    close = Board.from_cgp("15/15/15/15/15/15/7CAT5/15/15/15/15/15/15/15/15 AEINRST/ 200/190 0")
    far = close.copy()
    far.scores = [400, 100]
    assert clock_seconds(far, 20.0) < clock_seconds(close, 20.0)


def test_a_clocked_player_keeps_inside_its_clock(twl06: Lexicon) -> None:
    """Issue 38: ``best:clock=SECONDS`` splits one clock over the game and
    never runs out; its count starts again with a new game."""
    players = [make_player("best:clock=4", twl06), make_player("best:clock=4", twl06)]
    for seed in (3, 4):
        game = Game(twl06, ["a", "b"], seed=seed)
        used = [0.0, 0.0]
        while not game.over:
            seat = game.turn
            started = time.perf_counter()
            move = players[seat].choose(game.view(), twl06)
            used[seat] += time.perf_counter() - started
            game.play(move)
        assert max(used) < 4.0, used
        for player, spent in zip(players, used, strict=True):
            assert isinstance(player, BestPlayer) and player.clock_left is not None
            assert abs((4.0 - player.clock_left) - spent) < 0.5  # its own count
