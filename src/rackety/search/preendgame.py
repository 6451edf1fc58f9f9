"""The pre-endgame with one tile in the bag, solved by endgames.

With one tile in the bag the mover sees eight unseen tiles: one of them is in
the bag, the other seven on the opponent's rack. A play of at least one tile
empties the bag (the mover draws the last tile), and the rest of the game is
an endgame with both racks known. So each candidate is judged over every
possible bag tile (weighted by how many of the unseen tiles it stands for):
the play and the draw are made by the rules' kernels
(`rackety.kernels.rules`) and the game state after them is solved
(`rackety.search.endgame.solve_state`, the opponent to move), which gives the
final spread change of every draw, hence the candidate's win probability and
expected spread change. Passes and exchanges (an exchange needs a fuller bag)
are not candidates. When the opponent's rack is known (two racks in the CGP)
there is one draw.

Where the time goes: the endgames. After a play of one or two tiles both
racks hold six or seven tiles, and such an endgame can take a minute to solve
exactly while most take a tenth of a second (the README gives figures). So:

- the endgames (candidate x draw) are independent searches, run in ``jobs``
  processes (a `ProcessPoolExecutor`, as the simulation's rollouts), each
  process taking the next as soon as one ends, the ones after the shortest
  plays (the largest racks) first (`_Schedule`);
- with ``seconds`` (a time budget for the searches), every endgame is first
  searched for an even share of `FIRST_PASS` of it; then the ones not solved
  exactly are searched again from the start, each for at least `DEEPER` times
  as long as before, those given the least time first (then the best
  candidate's, as they stand), while the time left allows. An endgame stopped
  by its time limit gives the value of the deepest search that finished and
  says so (``exact`` False per draw); without ``seconds`` every endgame is
  solved exactly and the result does not depend on ``jobs``.
"""

from __future__ import annotations

import math
import os
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from rackety.errors import RacketyError
from rackety.game.board import Board
from rackety.game.heuristics import leave_model
from rackety.game.state import board_consts, rows_of, set_bag, set_rack, state_of
from rackety.kernels.rules import end_turn, play
from rackety.lexicon import Lexicon
from rackety.search.endgame import solve_state

if TYPE_CHECKING:
    from rackety.game.move import Move

#: with a time budget, the share of it the first pass over every endgame gets
FIRST_PASS = 0.5
#: the shortest time limit of one endgame's search (the first depth always finishes)
MIN_SOLVE_SECONDS = 0.05
#: a pass again over the unfinished endgames only when each would get this many
#: times the time it had in the pass before (less would not search deeper)
DEEPER = 2.0


@dataclass
class Outcome:
    """One candidate over every draw."""

    move: Move
    win_pct: float
    spread: float  # the expected change in spread for the mover, to the end of the game
    draws: list[tuple[int, int, int, bool]] = field(default_factory=list, repr=False)
    # (bag tile, how many unseen tiles it stands for, final spread change, exact)

    @property
    def exact(self) -> bool:
        """Whether every draw's endgame was solved exactly."""
        return all(d[3] for d in self.draws)


@dataclass
class PreEndgameResult:
    outcomes: list[Outcome]  # best first: win %, then expected spread change
    endgames: int = 0  # endgames searched (candidates x distinct draws)
    exact_endgames: int = 0  # of which solved exactly
    seconds: float = 0.0  # wall time
    budget: float | None = None  # the time budget given (None: every endgame exact)

    @property
    def best(self) -> Outcome:
        return self.outcomes[0]

    @property
    def exact(self) -> bool:
        """Whether every endgame was solved exactly."""
        return self.exact_endgames == self.endgames


class _Setup:
    """One position's state and constants, from which each (candidate, draw)
    endgame is made and solved."""

    def __init__(self, board: Board, lexicon: Lexicon) -> None:
        self.alphabet = board.alphabet
        self.lexicon = lexicon
        self.consts = board_consts(board)
        self.root = state_of(board, lexicon)

    def solve(self, meta: np.ndarray, word: np.ndarray, tile: int, opponent: list[int],
              seconds: float | None, max_depth: int | None = None) -> tuple[int, bool, int]:
        """Play the candidate (one generator row), the mover drawing ``tile``,
        give the opponent ``opponent``, solve the endgame (the opponent to
        move): (its value for the opponent, exact, depth searched)."""
        gs = self.root.copy()
        set_rack(gs, 1, opponent)
        set_bag(gs, [tile])
        play(self.lexicon.nodes, self.lexicon.has_gaddag, self.consts, gs, meta, word, 0, True)
        end_turn(self.consts, gs, True, True)
        result = solve_state(gs, self.consts, self.alphabet, self.lexicon, seconds=seconds,
                             max_depth=max_depth)
        return result.value, bool(result.exact), result.depth


#: the position a process solves for: set by `preendgame` before its workers
#: start (a forked worker finds it here), else made once per worker from the task
_worker: dict[str, Any] = {}


def _solve_task(task: tuple[Any, ...]) -> tuple[int, bool, int]:
    """One endgame, in this process or a worker."""
    key, meta, word, tile, opponent, seconds = task
    if _worker.get("key") != key:
        source, alphabet, layout, cgp = key
        lexicon = Lexicon.load(source, alphabet)
        board = Board.from_cgp(cgp, alphabet=alphabet, layout=layout)
        _worker.update(key=key, setup=_Setup(board, lexicon))
    return _worker["setup"].solve(meta, word, tile, opponent, seconds)


def preendgame(board: Board, lexicon: Lexicon, *, candidates: int = 10,
               leave: str = "static", seconds: float | None = None, jobs: int | None = 1,
               source: str | None = None,
               progress: Callable[[int, int, str], None] | None = None) -> PreEndgameResult:
    """Solve the position (one tile in the bag) for its best ``candidates``
    tile placements by static equity (``leave``: as `simulate`'s).

    ``seconds``: a time budget for the searches (counted once the solver's
    kernels are loaded); the endgames not solved exactly within it are marked
    so (None: solve every endgame exactly, however long it takes). ``jobs``
    processes (None: every core) solve the endgames; they load the lexicon
    from ``source`` (default ``lexicon.source``) unless they are forked from
    this one. ``progress(done, total, what)`` is called as endgames finish,
    ``what`` saying what is being waited for."""
    started = time.perf_counter()
    if len(board.racks) != 2:
        raise RacketyError("a pre-endgame is between two players")
    if seconds is not None and not seconds > 0:
        raise RacketyError(f"seconds {seconds}: expected more than 0")
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
    meta, words = rows_of(moves, board.size)
    draws = sorted(bag.items())
    rest = {tile: list(opponent) or sorted((unseen - Counter({tile: 1})).elements())
            for tile, _ in draws}
    key = (source or lexicon.source, board.alphabet.name, board.layout.name, board.cgp())
    jobs = jobs or os.cpu_count() or 1
    # the endgames after the shortest plays (the largest racks, the longest searches) first
    endgames = sorted(((i, tile) for i in range(len(moves)) for tile, _ in draws),
                      key=lambda e: (moves[e[0]].n_placed, e))
    found: dict[tuple[int, int], tuple[int, bool, int]] = {}
    setup = _Setup(board, lexicon)
    if progress is not None:
        progress(0, len(endgames), "loading the endgame solver (the first run compiles it)")
    # the kernels loaded here, once: forked workers start with them, and with the position
    first, tile = endgames[0]
    setup.solve(meta[first:first + 1], words[first:first + 1], tile, rest[tile], None,
                max_depth=1)
    _worker.update(key=key, setup=setup)
    try:
        _Schedule(moves, draws, endgames, board, found, seconds, jobs, progress).run(
            lambda e, limit: (key, meta[e[0]:e[0] + 1], words[e[0]:e[0] + 1], e[1],
                              rest[e[1]], limit))
    finally:
        _worker.clear()
    outcomes = _outcomes(moves, draws, found, board)
    exact = sum(1 for e in endgames if found[e][1])
    return PreEndgameResult(outcomes, len(endgames), exact, time.perf_counter() - started,
                            seconds)


class _Schedule:
    """Which endgame is searched next, for how long, and where: ``jobs``
    searches at a time, each started as soon as one ends. First every endgame
    once (for an even share of `FIRST_PASS` of the budget, or exactly without
    one); then, with a budget, the endgames not solved exactly, those given the
    least time first (then the best candidate's, as they stand), each for
    `DEEPER` times as long as before or its share of the time left if more,
    while the time left allows that."""

    def __init__(self, moves: list[Move], draws: list[tuple[int, int]],
                 endgames: list[tuple[int, int]], board: Board,
                 found: dict[tuple[int, int], tuple[int, bool, int]], seconds: float | None,
                 jobs: int, progress: Callable[[int, int, str], None] | None) -> None:
        self.moves, self.draws, self.board, self.found = moves, draws, board, found
        self.endgames = endgames
        self.seconds, self.jobs, self.progress = seconds, jobs, progress
        self.first = list(reversed(endgames))  # popped from the end: in order
        self.limit = None if seconds is None else max(
            MIN_SOLVE_SECONDS, FIRST_PASS * seconds * jobs / len(endgames))
        self.given: dict[tuple[int, int], float] = {}  # the time each had last
        self.busy: set[tuple[int, int]] = set()
        self.deadline = math.inf
        self.what = f"endgames solved ({len(moves)} candidates x {len(draws)} draws)"
        if self.limit is not None:
            self.what += f", at most {self.limit:.2g} s each at first"

    def next(self) -> tuple[tuple[int, int], float | None] | None:
        """The next endgame to search and its time limit; None: none for now."""
        if self.first:
            return self.first.pop(), self.limit
        if self.seconds is None:
            return None
        left = self.deadline - time.perf_counter()
        todo = [e for e, (_, exact, _) in self.found.items() if not exact and e not in self.busy
                and DEEPER * self.given[e] <= left]
        if not todo:
            return None
        rank = list(range(len(self.moves)))  # by static equity until all are searched
        if len(self.found) == len(self.endgames):
            ranked = _outcomes(self.moves, self.draws, self.found, self.board)
            order = {id(o.move): r for r, o in enumerate(ranked)}
            rank = [order[id(m)] for m in self.moves]
        endgame = min(todo, key=lambda e: (self.given[e], rank[e[0]], e))
        share = left * self.jobs / max(len(todo), self.jobs)
        return endgame, min(left, max(DEEPER * self.given[endgame], share))

    def report(self, searched: int) -> None:
        if self.progress is None:
            return
        if searched <= len(self.endgames):
            self.progress(searched, len(self.endgames), self.what)
        else:
            exact = sum(1 for _, done, _ in self.found.values() if done)
            self.progress(exact, len(self.endgames),
                          f"endgames solved exactly; the other {len(self.endgames) - exact} "
                          f"searched again, longer, until the {self.seconds:g} s budget ends")

    def run(self, task: Callable[[tuple[int, int], float | None], tuple[Any, ...]]) -> None:
        """Search until nothing is left to search; ``task`` makes the worker's
        task of an endgame and a time limit."""
        if self.seconds is not None:
            self.deadline = time.perf_counter() + self.seconds
        self.report(0)
        searched = 0
        pool = ProcessPoolExecutor(self.jobs) if self.jobs > 1 and len(self.endgames) > 1 \
            else None
        running: dict[Future[tuple[int, bool, int]], tuple[tuple[int, int], float | None]] = {}
        try:
            while True:
                while len(running) < (self.jobs if pool is not None else 1):
                    picked = self.next()
                    if picked is None:
                        break
                    endgame, limit = picked
                    self.busy.add(endgame)
                    if limit is not None:
                        self.given[endgame] = limit
                    if pool is not None:
                        future = pool.submit(_solve_task, task(endgame, limit))
                    else:
                        future = Future()
                        future.set_result(_solve_task(task(endgame, limit)))
                    running[future] = picked
                if not running:
                    break
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    endgame, _ = running.pop(future)
                    value, exact, depth = future.result()
                    self.busy.discard(endgame)
                    old = self.found.get(endgame)
                    if old is None or exact or depth > old[2]:
                        self.found[endgame] = (value, exact, depth)
                    searched += 1
                    self.report(searched)
        finally:
            if pool is not None:
                pool.shutdown(cancel_futures=True)


def _outcomes(moves: list[Move], draws: list[tuple[int, int]],
              found: dict[tuple[int, int], tuple[int, bool, int]],
              board: Board) -> list[Outcome]:
    """Every candidate over its draws, best first (win %, then expected spread
    change)."""
    total = sum(weight for _, weight in draws)
    outcomes = []
    for i, move in enumerate(moves):
        rows = []
        wins = 0.0
        spread = 0.0
        for tile, weight in draws:
            value, exact, _ = found[(i, tile)]
            change = (move.score or 0) - value
            final = board.scores[0] - board.scores[1] + change
            wins += weight * (1.0 if final > 0 else 0.5 if final == 0 else 0.0)
            spread += weight * change
            rows.append((tile, weight, change, exact))
        outcomes.append(Outcome(move, 100.0 * wins / total, spread / total, rows))
    outcomes.sort(key=lambda o: (-o.win_pct, -o.spread))
    return outcomes
