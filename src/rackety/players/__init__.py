"""Computer (and human) players: each chooses a move for the position it sees.

- `GreedyPlayer` (Appel and Jacobson 1988): the highest-scoring placement.
- `StaticPlayer` (Gordon 1993): the best placement by equity, score plus the
  value of the leave under a `rackety.game.movegen.LeaveModel` (Gordon's heuristics
  `H1`/`H2`/`H3` of `rackety.game.heuristics`, or a KLV2 file), and Gordon's
  exchange rule.
- `HumanPlayer`: reads moves in players' notation.
- `EndgamePlayer`: another player, except that with the bag empty it solves
  the endgame exactly (`rackety.search.endgame`).

`make_player` makes one from a short spec (``static``, ``greedy``, ``h1``,
``h2``, ``h3``, ``leaves:FILE.klv2``, ``sim``, ``human``; a computer player with
``+endgame``), the words the command line uses. ``static`` is the default
computer opponent: a `StaticPlayer` with the leave table shipped for the
lexicon (``rackety/data/leaves/<lexicon name>.klv2``, trained by
``rackety leaves train``; see `shipped_leaves`), or H3 when none is shipped.

>>> from rackety import Board, Lexicon
>>> lexicon = Lexicon.from_words(["PANDY", "PAY", "AY", "YA", "DAY", "PA"])
>>> board = Board.from_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AADNPUY/ 0/0 0")
>>> make_player("greedy", lexicon).choose(board, lexicon)
Move('8H PANDY', score=30, equity=30.0)
>>> make_player("h2", lexicon).choose(board, lexicon)
Move('8H PANDY', score=30, equity=28.0)
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from rackety.errors import RacketyError, clip, parse_int
from rackety.game.heuristics import H1, H2, H3, HEURISTICS, Balance, RackHeuristic
from rackety.game.move import Move
from rackety.game.movegen import LeaveModel, generate

if TYPE_CHECKING:
    from rackety.game.board import Board
    from rackety.lexicon import Lexicon

PLAYER_SPECS = ("static", "greedy", "h1", "h2", "h3", "leaves:FILE.klv2", "sim", "sim:N",
                "human", "PLAYER+endgame")
ENDGAME_SUFFIX = "+endgame"  # a computer player that solves endgames exactly


@runtime_checkable
class Player(Protocol):
    """Anything that chooses a move. ``board`` is the position from the
    player's view: ``board.rack`` is its own rack, the other racks may be
    unknown, and ``board.bag_count`` says whether an exchange is allowed."""

    name: str

    def choose(self, board: Board, lexicon: Lexicon) -> Move: ...


def _whole_rack_or_pass(board: Board) -> Move:
    """Exchange every tile if the bag allows it, else pass."""
    if board.rack and board.bag_count >= board.alphabet.exchange_min_bag:
        return Move("exchange", tiles=tuple(board.rack), score=0,
                    alphabet=board.alphabet)
    return Move("pass", score=0, alphabet=board.alphabet)


class GreedyPlayer:
    """Appel and Jacobson's program: the highest-scoring placement. With none,
    it exchanges its whole rack if the bag allows, else passes."""

    def __init__(self, name: str = "greedy", *, generator: str = "gaddag") -> None:
        self.name = name
        self.generator = generator
        self.last_best_score: int | None = None  # the best placement score of the last turn

    def __repr__(self) -> str:
        return f"<GreedyPlayer {self.name}>"

    def choose(self, board: Board, lexicon: Lexicon) -> Move:
        """The top-scoring placement (ties: the first in move-list order)."""
        moves = generate(board, lexicon, mode="best", exchanges=False,
                         generator=self.generator)
        best = moves.best()
        self.last_best_score = moves.best_score
        if best is not None and best.kind == "place":
            return best
        return _whole_rack_or_pass(board)


def static_choice(board: Board, lexicon: Lexicon, leave: LeaveModel, *,
                  generator: str = "gaddag") -> Move:
    """The move of highest equity (score + leave value) among the placements
    and, when the bag allows, the exchanges, a placement winning a tie: Gordon's
    rule, "trade in a subset of your tiles if the resulting rack leave has a
    higher utility than the sum of the score and rack evaluation of any other
    play". The pass is chosen only when there is nothing else."""
    return _static_search(board, lexicon, leave, generator)[0]


def _static_search(board: Board, lexicon: Lexicon, leave: LeaveModel, generator: str
                   ) -> tuple[Move, int | None]:
    """`static_choice`, and the best placement score of the position.

    `generate` lists the pass too (its equity is the value of the whole rack),
    which Gordon's rule leaves out; when the pass comes out on top, the search
    is rerun for enough moves to hold the best of the others."""
    moves = generate(board, lexicon, mode="best", leave=leave, generator=generator,
                     exact_best_score=True)
    best = moves.best()
    if best is not None and best.kind != "pass":
        return best, moves.best_score
    others = 1  # the sub-multisets of the rack: the pass and every exchange
    for c in set(board.rack):
        others *= board.rack.count(c) + 1
    moves = generate(board, lexicon, mode="top", top=others + 1, leave=leave,
                     generator=generator, exact_best_score=True)
    for move in moves:
        if move.kind != "pass":
            return move, moves.best_score
    pass_ = best if best is not None else Move("pass", score=0, alphabet=board.alphabet)
    return pass_, moves.best_score


class StaticPlayer:
    """Gordon's static evaluation: the best move by equity under ``leave_model``,
    with his exchange rule (`static_choice`)."""

    def __init__(self, leave_model: LeaveModel, name: str = "static", *,
                 generator: str = "gaddag") -> None:
        if not isinstance(leave_model, LeaveModel):
            raise RacketyError(f"{leave_model!r} is not a leave model (it needs "
                               "rack_values(alphabet, rack))")
        self.leave_model = leave_model
        self.name = name
        self.generator = generator
        self.last_best_score: int | None = None  # the best placement score of the last turn

    def __repr__(self) -> str:
        return f"<StaticPlayer {self.name}>"

    def choose(self, board: Board, lexicon: Lexicon) -> Move:
        """The best move by equity (see `static_choice`). Sets `last_best_score`
        (a play scoring less is a sacrifice, in Gordon's tables)."""
        move, self.last_best_score = _static_search(board, lexicon, self.leave_model,
                                                    self.generator)
        return move


class HumanPlayer:
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

    def __repr__(self) -> str:
        return f"<HumanPlayer {self.name}>"

    def choose(self, board: Board, lexicon: Lexicon) -> Move:
        """Read moves until one parses on ``board``."""
        if self.show_board:
            self.write(f"{board}\n")
        rack = board.alphabet.format(board.rack, brackets=True)
        prompt = f"{self.name}, rack {rack}: your move (8D WORD, exchange ABC, pass)? "
        while True:
            self.write(prompt)
            line = self.read_line()
            try:
                return board.parse_move(line)
            except RacketyError as exc:
                self.write(f"{exc}\n")


class EndgamePlayer:
    """``inner``, except when the bag is empty: then the endgame is solved
    exactly (`rackety.search.endgame.solve`, iterative deepening for at most
    ``seconds``; None: to the end) and the first move of its principal
    variation is played. With the bag empty the opponent's rack is exactly
    the tiles the player has not seen (`Board.unseen`), so the player's view,
    which hides it, gives it too. Three or more players: always ``inner``."""

    def __init__(self, inner: Player, seconds: float | None = 1.0, *,
                 name: str | None = None) -> None:
        self.inner = inner
        self.seconds = seconds
        self.name = name or f"{inner.name}{ENDGAME_SUFFIX}"
        self.last_best_score: int | None = None  # as the inner player's, outside endgames
        self.last_result: Any = None  # the `EndgameResult` of the last solve

    def __repr__(self) -> str:
        return f"<EndgamePlayer {self.name}>"

    @staticmethod
    def endgame_position(board: Board) -> Board | None:
        """``board`` with both racks known, if it is a two-player endgame (the bag
        empty, the player's own rack known); else None."""
        if len(board.racks) != 2 or not board.rack or board.bag_count != 0:
            return None
        if board.racks[1]:
            return board if board.unseen_count == 0 else None
        unseen = board.unseen()
        rack = tuple(int(c) for c in range(len(unseen)) for _ in range(int(unseen[c])))
        if not rack or len(rack) > board.alphabet.rack_size:
            return None
        two = board.copy()
        two.racks = [board.racks[0], rack]
        return two

    def choose(self, board: Board, lexicon: Lexicon) -> Move:
        """The endgame solver's move with the bag empty, else the inner player's."""
        position = self.endgame_position(board)
        if position is not None:
            from rackety.search.endgame import solve

            result = solve(position, lexicon, seconds=self.seconds)
            self.last_result = result
            self.last_best_score = None  # an endgame move is never counted a sacrifice
            if result.pv:
                return result.pv[0]
        move = self.inner.choose(board, lexicon)
        self.last_best_score = getattr(self.inner, "last_best_score", None)
        return move


def _write_stdout(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def leave_model(spec: str, lexicon: Lexicon) -> LeaveModel:
    """The leave model of a static player's spec: ``h1``, ``h2``, ``h3`` or
    ``leaves:FILE.klv2`` (a KLV2 or KLV file in the lexicon's alphabet)."""
    key = spec.strip()
    if key.lower() in HEURISTICS:
        model = HEURISTICS[key.lower()]
        model.tables(lexicon.alphabet)  # refuses an alphabet that is not A-Z now
        return model
    if key.lower().startswith("leaves:"):
        from rackety.lexicon.klv import Klv

        path = key[len("leaves:"):].strip()
        if not path:
            raise RacketyError("player 'leaves:': give the leave file, as leaves:FILE.klv2")
        return Klv.load(path, lexicon.alphabet)
    raise RacketyError(f"{clip(spec)!r} is not a leave model: expected h1, h2, h3 or "
                       "leaves:FILE.klv2")


_shipped: dict[tuple[str, str], Any] = {}


def shipped_leaves(lexicon: Lexicon) -> Any:
    """The leave table shipped for ``lexicon`` (by its name: ``TWL06`` reads
    ``rackety/data/leaves/TWL06.klv2``) as a `Klv`, or None if there is none
    (or its alphabet is not the lexicon's). Loaded once per process, so every
    seat shares one table (and plays compiled)."""
    from importlib import resources

    key = (lexicon.name, lexicon.alphabet.identity)
    if key not in _shipped:
        from rackety.lexicon.klv import Klv

        path = resources.files("rackety") / "data" / "leaves" / f"{lexicon.name}.klv2"
        klv = None
        if path.is_file():
            try:
                klv = Klv.from_bytes(path.read_bytes(), lexicon.alphabet, source=str(path))
            except RacketyError:  # a lexicon of that name in another alphabet
                klv = None
        _shipped[key] = klv
    return _shipped[key]


def make_player(spec: str, lexicon: Lexicon, *, name: str | None = None) -> Player:
    """A player from its spec: ``static`` (the shipped leave table of the
    lexicon, `shipped_leaves`, else H3), ``greedy``, ``h1``, ``h2``, ``h3`` (Gordon's
    heuristics), ``leaves:FILE.klv2`` (static with a KLV2 file) or ``human``
    (standard input and output). The name defaults to the spec (the file's
    stem for ``leaves:``). A ``+endgame`` suffix wraps the player in an
    `EndgamePlayer` (``h3+endgame``)."""
    key = spec.strip().lower()
    if key.endswith(ENDGAME_SUFFIX):
        base = spec.strip()[:-len(ENDGAME_SUFFIX)]
        if base.strip().lower() in ("human", "") or \
                base.strip().lower().endswith(ENDGAME_SUFFIX):
            raise RacketyError(f"player {clip(spec)!r}: +endgame goes once, after a computer "
                               "player (static, greedy, h1, h2, h3, leaves:FILE.klv2, sim)")
        inner = make_player(base, lexicon)
        return EndgamePlayer(inner, name=name or f"{inner.name}{ENDGAME_SUFFIX}")
    if key == "static":
        table = shipped_leaves(lexicon)
        return StaticPlayer(table if table is not None else leave_model("h3", lexicon),
                            name or "static")
    if key == "greedy":
        return GreedyPlayer(name or "greedy")
    if key == "human":
        return HumanPlayer(input, _write_stdout, name=name or "human")
    if key == "sim" or key.startswith("sim:"):
        # Monte Carlo simulation over H3 (`rackety.search.simulation`); sim:N rollouts a candidate
        from rackety.search.simulation import SimPlayer

        rollouts = parse_int(key[4:] or "100", f"player {clip(spec.strip())!r}: rollouts", 1,
                             1_000_000_000)
        return SimPlayer("h3", iterations=rollouts, name=name or "sim")
    if key in HEURISTICS or key.startswith("leaves:"):
        model = leave_model(spec, lexicon)
        if name is None:
            name = key if key in HEURISTICS else f"leaves:{Path(spec.strip()[7:]).stem}"
        return StaticPlayer(model, name)
    raise RacketyError(f"unknown player {clip(spec)!r}; players: {', '.join(PLAYER_SPECS)}")


__all__ = [
    "H1",
    "H2",
    "H3",
    "PLAYER_SPECS",
    "Balance",
    "EndgamePlayer",
    "GreedyPlayer",
    "HumanPlayer",
    "Player",
    "RackHeuristic",
    "StaticPlayer",
    "leave_model",
    "make_player",
    "shipped_leaves",
    "static_choice",
]
