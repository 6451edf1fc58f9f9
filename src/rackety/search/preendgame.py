"""The pre-endgame with one tile in the bag, solved exactly.

With one tile in the bag the mover sees eight unseen tiles: one of them is in
the bag, the other seven on the opponent's rack. A play of at least one tile
empties the bag (the mover draws the last tile), and the rest of the game is
an endgame with both racks known. So each candidate is judged over every
possible bag tile (weighted by how many of the unseen tiles it stands for):
the play and the draw are made by the rules' kernels
(`rackety.kernels.rules`) and the game state after them is solved exactly
(`rackety.search.endgame.solve_state`, the opponent to move), which gives the final spread
of every draw, hence the candidate's win probability and expected spread.
Passes and exchanges (an exchange needs a fuller bag) are not candidates.
When the opponent's rack is known (two racks in the CGP) there is one draw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rackety.errors import RacketyError
from rackety.game.heuristics import leave_model
from rackety.game.state import board_consts, rows_of, set_bag, set_rack, state_of
from rackety.kernels.rules import end_turn, play
from rackety.search.endgame import solve_state

if TYPE_CHECKING:
    from rackety.game.board import Board
    from rackety.game.move import Move
    from rackety.lexicon import Lexicon


@dataclass
class Outcome:
    """One candidate over every draw."""

    move: Move
    win_pct: float
    spread: float  # expected final spread change for the mover, from this position
    draws: list[tuple[int, int, int, bool]] = field(default_factory=list, repr=False)
    # (bag tile, how many unseen tiles it stands for, final spread change, exact)


@dataclass
class PreEndgameResult:
    outcomes: list[Outcome]  # best first: win %, then expected spread

    @property
    def best(self) -> Outcome:
        return self.outcomes[0]


def preendgame(board: Board, lexicon: Lexicon, *, candidates: int = 10, leave: str = "h3",
               seconds: float | None = None,
               progress: Callable[[int, int], None] | None = None) -> PreEndgameResult:
    """Solve the position (one tile in the bag) for its best ``candidates``
    tile placements by static equity. ``seconds``: the time limit of each
    endgame solve (None: exact)."""
    if len(board.racks) != 2:
        raise RacketyError("a pre-endgame is between two players")
    unseen = Counter({c: int(k) for c, k in enumerate(board.unseen().tolist()) if k})
    opponent = tuple(board.racks[1])
    if opponent:
        bag = unseen  # the known rack is not unseen: what is left is the bag
        if sum(bag.values()) != 1:
            raise RacketyError(f"a pre-endgame has one tile in the bag, not {sum(bag.values())}")
    else:
        if sum(unseen.values()) != board.alphabet.rack_size + 1:
            raise RacketyError(f"a pre-endgame has one tile in the bag: {sum(unseen.values())} "
                               f"tiles are unseen, not {board.alphabet.rack_size + 1}")
        bag = unseen
    model = leave_model(leave, lexicon)
    moves = [m for m in board.moves(lexicon, mode="top", top=4 * candidates, leave=model)
             if m.kind == "place"][:candidates]
    if not moves:
        raise RacketyError("no tile placement to solve")
    consts = board_consts(board)
    root = state_of(board, lexicon)
    meta, words = rows_of(moves, board.size)
    outcomes = []
    total = sum(bag.values())
    for done, move in enumerate(moves):
        draws = []
        wins = 0.0
        spread = 0.0
        for tile, weight in sorted(bag.items()):
            # the play by the rules: the mover draws the bag's last tile, the opponent moves
            gs = root.copy()
            set_rack(gs, 1, opponent or list((unseen - Counter({tile: 1})).elements()))
            set_bag(gs, [tile])
            play(lexicon.nodes, lexicon.has_gaddag, consts, gs, meta, words, done, True)
            end_turn(consts, gs, True, True)
            result = solve_state(gs, consts, board.alphabet, lexicon, seconds=seconds)
            change = (move.score or 0) - result.value
            final = board.scores[0] - board.scores[1] + change
            wins += weight * (1.0 if final > 0 else 0.5 if final == 0 else 0.0)
            spread += weight * change
            draws.append((tile, weight, change, bool(result.exact)))
        outcomes.append(Outcome(move, 100.0 * wins / total, spread / total, draws))
        if progress is not None:
            progress(done + 1, len(moves))
    outcomes.sort(key=lambda o: (-o.win_pct, -o.spread))
    return PreEndgameResult(outcomes)
