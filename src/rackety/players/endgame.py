"""`EndgamePlayer`: another player, except that with the bag empty it solves
the endgame exactly (`rackety.search.endgame`)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rackety.players.base import Decision, Player, PlayerBase, decide_under, is_controlled

if TYPE_CHECKING:
    from rackety.game.board import Board
    from rackety.lexicon import Lexicon
    from rackety.search.control import Control

ENDGAME_SUFFIX = "+endgame"  # a computer player that solves endgames exactly


class EndgamePlayer(PlayerBase):
    """``inner``, except when the bag is empty: then the endgame is solved
    exactly (`rackety.search.endgame.solve`, iterative deepening for at most
    ``seconds``; None: to the end) and the first move of its principal
    variation is played. With the bag empty the opponent's rack is exactly
    the tiles the player has not seen (`Board.unseen`), so the player's view,
    which hides it, gives it too. Three or more players: always ``inner``.
    It keeps to a control (``controlled``) when ``inner`` does: the solve ends
    at the control's deadline or stop, with the line of its last depth."""

    def __init__(self, inner: Player, seconds: float | None = 1.0, *,
                 name: str | None = None) -> None:
        self.inner = inner
        self.seconds = seconds
        self.name = name or f"{inner.name}{ENDGAME_SUFFIX}"

    @property
    def controlled(self) -> bool:  # type: ignore[override]
        """Whether the inner player keeps to a control (the solver does)."""
        return is_controlled(self.inner)

    @staticmethod
    def endgame_position(board: Board) -> Board | None:
        """``board`` with both racks known, if it is a two-player endgame (the bag
        empty, the player's own rack known: `rackety.search.endgame.known_racks`);
        else None."""
        from rackety.errors import RacketyError
        from rackety.search.endgame import known_racks

        try:
            return known_racks(board)
        except RacketyError:
            return None

    def decide(self, board: Board, lexicon: Lexicon, *, control: Control | None = None
               ) -> Decision:
        """The endgame solver's move with the bag empty (``endgame`` the
        solver's result; no ``best_score``: an endgame move is never counted a
        sacrifice), else the inner player's decision (each under ``control``)."""
        position = self.endgame_position(board)
        if position is None:
            return self._inner(board, lexicon, control)
        from rackety.search.endgame import solve

        result = solve(position, lexicon, seconds=self.seconds, control=control)
        if result.pv:
            return Decision(result.pv[0], endgame=result)
        return replace(self._inner(board, lexicon, control), endgame=result)

    def _inner(self, board: Board, lexicon: Lexicon, control: Control | None) -> Decision:
        if control is None:
            return self.inner.decide(board, lexicon)
        return decide_under(self.inner, board, lexicon, control)
