"""`Position`: what the modules below the board read of a position.

`rackety.game.board.Board` is the position; notation (`rackety.game.move`),
the pictures (`rackety.game.render`), the kernels' data (`rackety.game.state`)
and the move generator (`rackety.game.movegen`) take any object of this shape,
so none of them imports the board, and the board imports them: the game layer
has no import circle (a test in tests/test_architecture.py holds it). Nothing
here is derived from a lexicon: the generator keeps what it derives
(`rackety.game.movegen.MoveGenerator`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import numpy as np

    from rackety.alphabet import Alphabet
    from rackety.game.layout import Layout
    from rackety.game.rules import Rules


class Position(Protocol):
    """A position: its tiles (``grid``, codes with the blank flag), layout,
    alphabet, racks and scores (the player to move first), scoreless turns,
    CGP operations and rules."""

    alphabet: Alphabet
    layout: Layout
    grid: np.ndarray
    racks: list[tuple[int, ...]]
    scores: list[int]
    zero_turns: int
    options: dict[str, str]

    @property
    def rules(self) -> Rules: ...

    @property
    def rack(self) -> tuple[int, ...]: ...

    @property
    def size(self) -> int: ...

    @property
    def is_empty(self) -> bool: ...

    @property
    def bag_count(self) -> int: ...

    @property
    def unseen_count(self) -> int: ...

    def distribution(self) -> np.ndarray: ...

    def unseen(self) -> np.ndarray: ...


__all__ = ["Position"]
