"""`StaticPlayer` (Gordon 1993): the best move by equity, score plus the value
of the leave under a `rackety.game.movegen.LeaveModel`, with Gordon's exchange
rule (`static_choice`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rackety import reprs
from rackety.errors import RacketyError
from rackety.game.move import Move
from rackety.game.movegen import Generator, LeaveModel, generate
from rackety.players.base import Decision, PlayerBase

if TYPE_CHECKING:
    from rackety.game.board import Board
    from rackety.lexicon import Lexicon
    from rackety.search.control import Control


def static_choice(board: Board, lexicon: Lexicon, leave: LeaveModel, *,
                  generator: Generator = "gaddag") -> Move:
    """The move of highest equity (score + leave value) among the placements
    and, when the bag allows, the exchanges, a placement winning a tie: Gordon's
    rule, "trade in a subset of your tiles if the resulting rack leave has a
    higher utility than the sum of the score and rack evaluation of any other
    play". The pass is chosen only when there is nothing else."""
    return static_decision(board, lexicon, leave, generator=generator).move


def static_decision(board: Board, lexicon: Lexicon, leave: LeaveModel, *,
                    generator: Generator = "gaddag") -> Decision:
    """`static_choice`, with the best placement score of the position.

    `generate` lists the pass too (its equity is the value of the whole rack),
    which Gordon's rule leaves out; when the pass comes out on top, the search
    is rerun for enough moves to hold the best of the others."""
    moves = generate(board, lexicon, mode="best", leave=leave, generator=generator,
                     exact_best_score=True)
    best = moves.best()
    if best is not None and best.kind != "pass":
        return Decision(best, best_score=moves.best_score)
    others = 1  # the sub-multisets of the rack: the pass and every exchange
    for c in set(board.rack):
        others *= board.rack.count(c) + 1
    moves = generate(board, lexicon, mode="top", top=others + 1, leave=leave,
                     generator=generator, exact_best_score=True)
    for move in moves:
        if move.kind != "pass":
            return Decision(move, best_score=moves.best_score)
    pass_ = best if best is not None else Move("pass", score=0, alphabet=board.alphabet)
    return Decision(pass_, best_score=moves.best_score)


class StaticPlayer(PlayerBase):
    """Gordon's static evaluation: the best move by equity under ``leave_model``,
    with his exchange rule (`static_choice`)."""

    def __init__(self, leave_model: LeaveModel, name: str = "static", *,
                 generator: Generator = "gaddag") -> None:
        if not isinstance(leave_model, LeaveModel):
            raise RacketyError(f"{leave_model!r} is not a leave model (it needs "
                               "rack_values(alphabet, rack))")
        self.leave_model = leave_model
        self.name = name
        self.generator = generator

    def _call(self) -> str | None:
        return reprs.call("StaticPlayer", self.leave_model, self.name,
                          generator=self.generator)

    controlled = True  # one move generation: done before any deadline matters

    def decide(self, board: Board, lexicon: Lexicon, *, control: Control | None = None
               ) -> Decision:
        """The best move by equity (see `static_choice`), with the top placement
        score as ``best_score`` (a play scoring less is a sacrifice, in Gordon's
        tables). A ``control`` changes nothing: the answer comes at once."""
        return static_decision(board, lexicon, self.leave_model, generator=self.generator)
