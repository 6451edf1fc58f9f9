"""What every player shares: the `Player` protocol, the `Decision` a player
returns, and `PlayerBase`, which gives a player ``choose`` from its ``decide``.

A player that keeps to a `rackety.search.control.Control` (a deadline and a
stop signal) says so with ``controlled``: its ``decide`` then takes
``control=`` and ends by the deadline, and soon after the stop, with the best
move it found so far (the static best at least). `decide_under` asks a player
for its move under a control, and refuses a player that does not keep to one
(a person, another engine): the UCGI engine plays by controlled players only."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from rackety.errors import RacketyError, clip
from rackety.game.move import Move

if TYPE_CHECKING:
    from rackety.game.board import Board
    from rackety.lexicon import Lexicon
    from rackety.search.control import Control
    from rackety.search.endgame import EndgameResult
    from rackety.search.simulation import SimResult


@dataclass(frozen=True)
class Decision:
    """A player's decision on one turn: the ``move``, and what the player found
    deciding it.

    ``best_score`` is the top placement score of the position when the player
    looked at every placement (None if it did not, or in a solved endgame); a
    placement scoring less is a sacrifice, in Gordon's tables. ``endgame`` is
    the `rackety.search.endgame.EndgameResult` of the solve that chose the
    move, ``simulation`` the `rackety.search.simulation.SimResult` of the
    simulation.

    >>> move = Move("8H PANDY", score=30, equity=28.0)
    >>> decision = Decision(move, best_score=32)
    >>> decision.sacrifice, Decision(move, best_score=30).sacrifice, Decision(move).sacrifice
    (True, False, False)
    """

    move: Move
    best_score: int | None = None
    endgame: EndgameResult | None = None
    simulation: SimResult | None = None

    @property
    def sacrifice(self) -> bool:
        """Whether the move is a placement scoring less than ``best_score``."""
        return (self.move.kind == "place" and self.best_score is not None
                and self.move.score is not None and self.move.score < self.best_score)


@runtime_checkable
class Player(Protocol):
    """Anything that decides on a move. ``board`` is the position from the
    player's view: ``board.rack`` is its own rack, the other racks may be
    unknown, and ``board.bag_count`` says whether an exchange is allowed.
    ``choose`` is ``decide(board, lexicon).move``."""

    name: str

    def decide(self, board: Board, lexicon: Lexicon) -> Decision: ...

    def choose(self, board: Board, lexicon: Lexicon) -> Move: ...


class PlayerBase(ABC):
    """A player from its ``decide``: ``choose`` is the decision's move.
    ``controlled``: whether ``decide`` takes ``control=`` and keeps to it (the
    module docstring)."""

    name: str
    controlled: bool = False
    # the `make_player` call that made the player (it sets it), else None
    made: str | None = None

    @abstractmethod
    def decide(self, board: Board, lexicon: Lexicon) -> Decision:
        """The player's decision for ``board`` (its view of the position)."""

    def choose(self, board: Board, lexicon: Lexicon) -> Move:
        """The move of `decide`."""
        return self.decide(board, lexicon).move

    def _call(self) -> str | None:
        """The constructor call that makes an equal player (None: none does)."""
        return None

    def __repr__(self) -> str:
        """The call that made the player: ``make_player('static',
        Lexicon.load('TWL06'))``, or its constructor's
        (``GreedyPlayer('greedy')``); evaluated, it makes an equal player. One
        whose parts have no expression (a leave function, a lexicon made in
        memory) shows its name in angle brackets."""
        text = self.made or self._call()
        return text if text is not None else f"<{type(self).__name__} {self.name}>"

    def __eq__(self, other: object) -> bool:
        """Made by the same call (the same repr), as no state of a game in
        progress takes part; one without an expression is equal to itself only."""
        if not isinstance(other, PlayerBase):
            return NotImplemented
        if self is other:
            return True
        mine = repr(self)
        return type(self) is type(other) and not mine.startswith("<") and mine == repr(other)

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.name))


def is_controlled(player: Player) -> bool:
    """Whether ``player`` keeps to a `Control` given to its ``decide``."""
    return getattr(player, "controlled", False) is True


def decide_under(player: Player, board: Board, lexicon: Lexicon, control: Control
                 ) -> Decision:
    """``player``'s decision under ``control``; a `RacketyError` for a player
    that does not keep to one."""
    if not is_controlled(player):
        raise RacketyError(f"player {clip(player.name)!r} cannot be stopped or given a "
                           "deadline")
    return player.decide(board, lexicon, control=control)  # type: ignore[call-arg]


def decide_on_clock(player: Player, board: Board, lexicon: Lexicon, left: float | None
                    ) -> Decision:
    """``player``'s decision with ``left`` seconds on its game clock (None: no
    clock): a player that keeps to a control is told the time left
    (`Control.game_clock`), another decides as it always does."""
    if left is not None and is_controlled(player):
        from rackety.search.control import Control

        return decide_under(player, board, lexicon, Control(game_clock=left))
    return player.decide(board, lexicon)


def whole_rack_or_pass(board: Board) -> Move:
    """Exchange every tile if the bag allows it, else pass."""
    if board.rack and board.rules.may_exchange(board.bag_count, len(board.rack)):
        return Move("exchange", tiles=tuple(board.rack), score=0, alphabet=board.alphabet)
    return Move("pass", score=0, alphabet=board.alphabet)
