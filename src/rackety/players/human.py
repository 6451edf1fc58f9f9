"""`HumanPlayer`: a person typing moves in players' notation."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rackety.errors import RacketyError
from rackety.players.base import Decision, PlayerBase

if TYPE_CHECKING:
    from rackety.game.board import Board
    from rackety.lexicon import Lexicon


class HumanPlayer(PlayerBase):
    """A person at a terminal (or any source of lines): shows the board, asks
    for a move in players' notation (``8D WORD``, ``exchange ABC``, ``pass``) and
    asks again, with the error, until the text is a well-formed move. The
    referee checks legality. ``read_line`` should raise `EOFError` at the end of
    its input, as `input` does."""

    def __init__(self, read_line: Callable[[], str], write: Callable[[str], None], *,
                 name: str = "human", show_board: bool = True) -> None:
        self.read_line = read_line
        self.write = write
        self.name = name
        self.show_board = show_board

    def decide(self, board: Board, lexicon: Lexicon) -> Decision:
        """Read moves until one parses on ``board``."""
        if self.show_board:
            self.write(f"{board}\n")
        rack = board.alphabet.format(board.rack, brackets=True)
        prompt = f"{self.name}, rack {rack}: your move (8D WORD, exchange ABC, pass)? "
        while True:
            self.write(prompt)
            line = self.read_line()
            try:
                return Decision(board.parse_move(line))
            except RacketyError as exc:
                self.write(f"{exc}\n")
