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
