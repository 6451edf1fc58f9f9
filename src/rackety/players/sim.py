"""`SimPlayer`: Monte Carlo simulation (`rackety.search.simulation`) as a player."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rackety import reprs
from rackety.game.heuristics import leave_model
from rackety.players.base import Decision, PlayerBase
from rackety.players.static import static_decision

if TYPE_CHECKING:
    from rackety.game.board import Board
    from rackety.lexicon import Lexicon
    from rackety.search.control import Control


class SimPlayer(PlayerBase):
    """A player that simulates its best static candidates
    (`rackety.search.simulation.simulate`, by the leave model of ``leave``:
    ``static``, ``h1``, ``h2``, ``h3`` or ``leaves:FILE.klv2``) and plays the best by simulated
    win %, then equity (`SimResult.best`); with an empty bag it plays its static move. Each turn's
    simulation is seeded from ``seed`` and the turn's number. It keeps to a
    control (``controlled``): the simulation ends at its deadline or stop."""

    controlled = True

    def __init__(self, leave: str = "static", *, candidates: int = 10, plies: int = 2,
                 iterations: int = 100, seconds: float | None = None, seed: int = 0,
                 name: str = "sim") -> None:
        self.leave = leave
        self.candidates = candidates
        self.plies = plies
        self.iterations = iterations
        self.seconds = seconds
        self.seed = seed
        self.name = name
        self._turn = 0

    def _call(self) -> str | None:
        return reprs.call("SimPlayer", self.leave, candidates=self.candidates,
                          plies=self.plies, iterations=self.iterations,
                          seconds=self.seconds, seed=self.seed, name=self.name)

    def decide(self, board: Board, lexicon: Lexicon, *, control: Control | None = None
               ) -> Decision:
        """The best candidate by simulated win %, then equity (``simulation`` the result),
        with the static player's ``best_score``; never a pass the static player
        would not make. Under ``control``, the best of the rollouts run by its
        deadline or stop (`rackety.search.simulation.simulate`)."""
        from rackety.search.simulation import simulate

        static = static_decision(board, lexicon, leave_model(self.leave, lexicon))
        if board.bag_count == 0:
            return static
        self._turn += 1
        result = simulate(board, lexicon, leave=self.leave, candidates=self.candidates,
                          plies=self.plies, iterations=self.iterations, seconds=self.seconds,
                          seed=self.seed * 7919 + self._turn, jobs=1, control=control)
        best = result.best.move
        move = best if best.kind != "pass" or static.move.kind == "pass" else static.move
        return Decision(move, best_score=static.best_score, simulation=result)
