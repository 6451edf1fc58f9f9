"""`GreedyPlayer` (Appel and Jacobson 1988): the highest-scoring placement."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rackety import reprs
from rackety.game.movegen import Generator, generate
from rackety.players.base import Decision, PlayerBase, whole_rack_or_pass

if TYPE_CHECKING:
    from rackety.game.board import Board
    from rackety.lexicon import Lexicon
    from rackety.search.control import Control


class GreedyPlayer(PlayerBase):
    """Appel and Jacobson's program: the highest-scoring placement. With none,
    it exchanges its whole rack if the bag allows, else passes."""

    def __init__(self, name: str = "greedy", *, generator: Generator = "gaddag") -> None:
        self.name = name
        self.generator = generator

    def _call(self) -> str | None:
        return reprs.call("GreedyPlayer", self.name, generator=self.generator)

    controlled = True  # one move generation: done before any deadline matters

    def decide(self, board: Board, lexicon: Lexicon, *, control: Control | None = None
               ) -> Decision:
        """The top-scoring placement (ties: the first in move-list order), with
        the top score as ``best_score``. A ``control`` changes nothing: the
        answer comes at once."""
        moves = generate(board, lexicon, mode="best", exchanges=False,
                         generator=self.generator)
        best = moves.best()
        move = best if best is not None and best.kind == "place" else whole_rack_or_pass(board)
        return Decision(move, best_score=moves.best_score)
