"""`BestPlayer`: the championship player, the judge's best move
(`rackety.search.judge.Judge`, which every part of the engine answers to by
the phase of the game) within a time budget per move (``best:SECONDS``), as
Quackle's Championship Player and Macondo's BestBot do:

- **bag empty**: the exact endgame, iterative deepening within the budget;
- **one or two tiles in the bag** (`rackety.search.judge.PEG_TILES`): the
  pre-endgame, every draw solved by endgames within the budget, the move
  best by win probability, then spread;
- **otherwise**: Monte Carlo simulation of the best candidates by full static
  equity with the trained leave table, ranked by win %, for the budget, the
  opponent's rack drawn from what their last play says they kept
  (`rackety.search.inference`) when that is cheap to work out;
- whatever fails or finds nothing falls back to the static player's move.

It keeps to a `rackety.search.control.Control` (``controlled``): the budget
ends at the control's deadline if that comes first, and a stop ends whichever
search runs within a slice (each looks at the control between slices of its
work), the move then the best found so far, or the static player's.

The player follows the game from what it sees: the tiles the opponent added
to the board since its own last move are their play, and the position
before it is the board without them, with this player's rack (which it held
then, already refilled) and the opponent's unknown.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from rackety import reprs
from rackety.errors import RacketyError
from rackety.game.heuristics import leave_model
from rackety.game.move import Move
from rackety.players.base import Decision, PlayerBase
from rackety.players.static import static_decision
from rackety.search.control import Control, clock

if TYPE_CHECKING:
    from rackety.game.board import Board
    from rackety.game.rules import Variant
    from rackety.lexicon import Lexicon
    from rackety.search.simulation import Plies, Sampling

#: inference only when the opponent kept at most this many tiles (fewer racks
#: to weigh: a play of three or more tiles from a full rack)
INFER_KEPT = 4
#: the share of the budget the inference may take before the simulation
INFER_SHARE = 0.25


class BestPlayer(PlayerBase):
    """The championship player (module docstring): ``seconds`` a move, or on a
    game clock of ``clock`` seconds (a game's, split over its turns by
    `rackety.search.judge.clock_seconds`; a control's ``game_clock``, when the
    caller keeps the clock, wins over the player's own count); ``leave`` the
    static evaluation's leave model (``static``: the lexicon's trained table),
    ``candidates`` simulated for ``plies`` plies (``"auto"``, the default: as
    many, 2 to 4, as the turn's time allows,
    `rackety.search.simulation.choose_plies`; it beat 2 plies in paired
    self-play, docs/SEARCH.md)."""

    controlled = True

    def __init__(self, seconds: float = 2.0, *, clock: float | None = None,
                 leave: str = "static", candidates: int = 10, plies: Plies = "auto", seed: int = 0,
                 infer: bool = True, sampling: Sampling = "racing",
                 name: str | None = None) -> None:
        if not seconds > 0:
            raise RacketyError(f"best: seconds {seconds}: expected more than 0")
        if clock is not None and not clock > 0:
            raise RacketyError(f"best: clock {clock}: expected more than 0 seconds")
        self.seconds = float(seconds)
        self.clock = None if clock is None else float(clock)
        self.clock_left = self.clock  # the game clock as this player counts it
        self._budget = self.seconds  # this move's seconds
        self.leave = leave
        self.candidates = candidates
        from rackety.search.simulation import checked_plies

        self.plies: Plies = checked_plies(plies, "best")
        self.seed = seed
        self.infer = infer
        self.sampling: Sampling = sampling
        self.name = name or (f"best:{seconds:g}" if clock is None else f"best:clock={clock:g}")
        self._after: Board | None = None  # the board after this player's last move
        self._turn = 0
        self._control: Control | None = None  # the control of the decision under way
        self.last_phase = ""  # what decided the last move (for reports and tests)
        self.last_verdict: Any = None  # the judge's verdict on the last move
        self.last_move: Move | None = None  # the last move this player chose

    def _call(self) -> str | None:
        timing: dict[str, object] = {} if self.clock is None else {"clock": self.clock}
        return reprs.call("BestPlayer", self.seconds, **timing, leave=self.leave,
                          candidates=self.candidates, plies=self.plies, seed=self.seed,
                          infer=self.infer, sampling=self.sampling, name=self.name)

    def decide(self, board: Board, lexicon: Lexicon, *, control: Control | None = None
               ) -> Decision:
        """The move of the phase the position is in (module docstring), within
        the budget and ``control``."""
        started = clock()
        self._turn += 1
        self.last_verdict = None
        if self.clock is not None and self._new_game(board):
            self.clock_left = self.clock
        self._budget = self.move_seconds(board, control)
        if self.clock_left is not None or (control is not None
                                           and control.game_clock is not None):
            # on a game clock the turn's share is a deadline, which the inference and
            # every search look at, not only a budget they plan by
            hard = started + self._budget
            if control is None:
                control = Control(hard)
            elif control.deadline is None or control.deadline > hard:
                control = replace(control, deadline=hard)
        self._control = control
        model = leave_model(self.leave, lexicon)
        static = static_decision(board, lexicon, model)
        decision = static
        self.last_phase = "static"
        try:
            decision = self._decide(board, lexicon, static, started)
        except RacketyError:
            decision = static  # a search that cannot run here: the static move
        if decision.move.kind == "place":
            self._after = board.play(decision.move)
        else:
            self._after = board.copy()
        if self.clock_left is not None:
            self.clock_left -= clock() - started
        self.last_move = decision.move
        return decision

    def explain(self, board: Board) -> str:
        """Why the last move, in one line, for ``board``, the position it was
        chosen in: what valued it (the phase, the rollouts of a simulation and
        whether the opponent's leave was inferred), its win % and the next best
        move's (`rackety.search.judge.Verdict.summary`). The web app shows it
        under a computer's move."""
        verdict = self.last_verdict
        if verdict is None or self.last_move is None:
            return f"{self.name} chose by static equity"
        if self.last_phase == "static" and verdict.phase != "static":
            return (f"{self.name} chose by static equity ({verdict.valued_by} found no "
                    "better move)")
        line = f"{self.name} chose by {verdict.summary(board, self.last_move)}"
        if self.last_phase.endswith("inferred"):
            line += ", the opponent's leave inferred from their last play"
        return line

    def move_seconds(self, board: Board, control: Control | None = None) -> float:
        """The seconds this player gives the turn of ``board``: its ``seconds``,
        or on a game clock the share `clock_seconds` gives of the time left
        (the control's ``game_clock`` when it has one, else the player's count)."""
        from rackety.search.judge import clock_seconds

        if control is not None and control.game_clock is not None:
            return clock_seconds(board, control.game_clock, increment=control.increment)
        if self.clock_left is not None:
            return clock_seconds(board, self.clock_left)
        return self.seconds

    def _new_game(self, board: Board) -> bool:
        """Whether ``board`` is not the game this player last moved in: a tile
        it left on the board is gone (a new game, whoever starts it)."""
        if self._after is None:
            return False
        old, grid = np.asarray(self._after.grid), np.asarray(board.grid)
        return old.shape != grid.shape or bool(np.any((old != 0) & (old != grid)))

    def _decide(self, board: Board, lexicon: Lexicon, static: Decision,
                started: float) -> Decision:
        from rackety.search.judge import Budget, Judge, phase_of

        if len(board.racks) != 2 or not board.rack:
            return static
        budget = Budget.clock(self._left(started))
        kept: list[tuple[tuple[int, ...], float]] = []
        if phase_of(board, budget) == "simulation":
            if self.infer:
                kept = self._inferred(board, lexicon, started)
            # a tenth of the time left to spare: the last batch of rollouts, the move made
            budget = Budget.clock(0.9 * self._left(started))
        judge = Judge(lexicon, leave=self.leave, candidates=self.candidates, plies=self.plies,
                      seed=self.seed * 7919 + self._turn, jobs=1, sampling=self.sampling)
        verdict = judge.verdict(board, budget, control=self._control, opponent_leaves=kept)
        self.last_verdict = verdict
        best = verdict.best
        if verdict.phase == "static" or best is None:
            return static
        if verdict.phase == "endgame":
            self.last_phase = "endgame"
            return Decision(best.move, endgame=verdict.result)
        if verdict.phase == "pre-endgame":
            self.last_phase = "preendgame"
            return Decision(best.move, best_score=static.best_score)
        if best.move.kind == "pass" and static.move.kind != "pass":
            return static  # never a pass the static player would not make
        self.last_phase = "simulation, inferred" if kept else "simulation"
        return Decision(best.move, best_score=static.best_score, simulation=verdict.result)

    def _left(self, started: float) -> float:
        """What is left of the move's budget, and of the control's time (a
        sliver at least)."""
        left = self._budget - (clock() - started)
        if self._control is not None:
            left = self._control.left(left) or 0.0
        return max(0.05, left)

    # ------------------------------------------------------------ inference
    def opponent_play(self, board: Board) -> tuple[Board, Move] | None:
        """The opponent's last play, as this player sees it, and the position
        before it (the opponent to move, their rack unknown, this player's rack
        the one it holds now): None when it was not a placement or cannot be
        told from the board."""
        before = self._after
        grid = np.asarray(board.grid)
        if before is None:
            if board.tiles_on_board == 0:
                return None
            old = np.zeros_like(grid)
        else:
            if self._new_game(board):
                return None  # not the game this player last saw
            old = np.asarray(before.grid)
        new = np.argwhere((grid != 0) & (old == 0))
        if len(new) == 0 or len(new) > board.alphabet.rack_size:
            return None
        rows, cols = set(new[:, 0].tolist()), set(new[:, 1].tolist())
        if len(rows) > 1 and len(cols) > 1:
            return None
        down = len(rows) > 1 or (len(new) == 1 and _runs_down(grid, *new[0]))
        r, c = (int(x) for x in new[0])
        # the whole word along the line, the board's tiles marked as played through
        if down:
            first = min(int(x) for x in new[:, 0])
            while first > 0 and grid[first - 1, c]:
                first -= 1
            last = first
            while last + 1 < grid.shape[0] and grid[last + 1, c]:
                last += 1
            squares = [(i, c) for i in range(first, last + 1)]
        else:
            first = min(int(x) for x in new[:, 1])
            while first > 0 and grid[r, first - 1]:
                first -= 1
            last = first
            while last + 1 < grid.shape[1] and grid[r, last + 1]:
                last += 1
            squares = [(r, i) for i in range(first, last + 1)]
        tiles = tuple(int(grid[s]) for s in squares)
        through = tuple(bool(old[s]) for s in squares)
        if sum(not t for t in through) != len(new):
            return None  # a gap: not one play
        r0, c0 = squares[0]
        move = Move("place", r0, c0, down, tiles, through, alphabet=board.alphabet)
        position = board.copy()  # its own derived data: the grid changes below
        position.racks = [(), board.rack]
        position.grid[...] = old
        if len(board.scores) == 2:
            try:
                scored = position.score(move)
            except RacketyError:
                return None  # not a play of this lexicon's rules: nothing to infer
            position.scores = [max(0, board.scores[1] - scored), board.scores[0]]
        return position, move

    def _inferred(self, board: Board, lexicon: Lexicon, started: float
                  ) -> list[tuple[tuple[int, ...], float]]:
        """What the opponent kept, by inference from their last play, when it
        kept few enough tiles to weigh in a share of the budget."""
        found = self.opponent_play(board)
        if found is None:
            return []
        position, move = found
        placed = sum(not t for t in move.through)
        if board.alphabet.rack_size - placed > INFER_KEPT:
            return []
        from rackety.search.inference import infer

        control = self._control
        if control is not None and control.stopped():
            return []  # stopped before it began: no time to weigh racks
        check = None if control is None else (lambda _done, _total: control.check())
        try:
            result = infer(position, lexicon, move, leave=self.leave, jobs=1,
                           max_racks=_max_racks(INFER_SHARE * (
                               self._budget if control is None else self._left(started)),
                               board.rules.variant),
                           progress=check)
        except RacketyError:  # too many racks, or stopped (`Control.check`)
            return []
        if clock() - started > self._budget * 0.5:
            return []
        return list(result.kept)


def _runs_down(grid: Any, r: int, c: int) -> bool:
    """Whether a single tile's play is written down: only when it forms no
    word across (the generator's convention for one-tile plays)."""
    n = grid.shape[0]

    def run(dr: int, dc: int) -> int:
        k = 0
        i, j = r + dr, c + dc
        while 0 <= i < n and 0 <= j < n and grid[i, j]:
            k += 1
            i, j = i + dr, j + dc
        return k

    return run(0, -1) + run(0, 1) == 0


#: racks an inference weighs a second with one job, by the rules' variant (each
#: rack one decision of the static player: WordSmog's generator finds every
#: placement, a hundred times the work)
RACKS_PER_SECOND = {"classic": 20_000, "wordsmog": 100}


def _max_racks(seconds: float, variant: Variant = "classic") -> int:
    """How many racks an inference may weigh in ``seconds`` under ``variant``
    (`RACKS_PER_SECOND`), and those of a twentieth of a second at least."""
    rate = RACKS_PER_SECOND.get(variant, RACKS_PER_SECOND["wordsmog"])
    return max(rate // 20, int(rate * seconds))
