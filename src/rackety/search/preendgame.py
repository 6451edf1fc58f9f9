"""The pre-endgame: one to six tiles in the bag, solved by endgames.

The mover sees the unseen tiles (the bag and the opponent's rack, unless the
CGP gives that rack) but not where each is. A *world* is one way they lie:
the opponent's rack and the bag's order. Each candidate (the best
``candidates`` tile placements by static equity) is judged over its worlds,
each weighted by the number of ways the unseen tiles' copies give it
(`rackety.search.peg_draws`); a world's value is the final change in spread
for the mover, which gives the candidate's win probability (ties half) and
expected spread change.

**The model: after the candidate, each world is played with full
information.** Once the candidate is chosen, the rest of the game in a world
is a game of perfect information between both players (minimax on the spread:
in a game without chance, the sign of the minimax spread is also the minimax
win, tie or loss, so one search gives both). This is the standard convention
of Macondo's pre-endgame solver ("we should always be pessimistic": a world is
a loss if the opponent *can* win it). Where the bag empties at once, nothing is
hidden any more and the value is exact. Where it does not (two tiles in the
bag and a one-tile play), it assumes:

- the opponent's reply is chosen knowing the tile left in the bag and the
  mover's rack (pessimistic for the mover: a real opponent sees eight unseen
  tiles);
- after an opponent's pass with a tile still in the bag, the mover's answer is
  chosen knowing that tile too (optimistic for the mover; only these lines).

Passes and exchanges are not candidates (an exchange needs a fuller bag; a
pass would need the opponent's whole pre-endgame solved behind it). Passes do
occur *inside* the lines: as in the endgame solver
(`rackety.search.endgame`), a pass right after a pass ends the game, each
player losing the face value of their rack; from a position after a
placement this gives the same value as the rules' six scoreless turns.

What each candidate gets, by the tiles in the bag (k) and how many it draws:

- **it empties the bag** (it draws all k): every multiset the mover could
  draw, the opponent holding the rest; each world one endgame (the opponent to
  move, `rackety.search.endgame.solve_state`). Exact. With one tile in the bag
  that is every candidate (8 worlds at most); with two, 36 at most. When there
  are more than ``draws`` multisets (from four tiles in the bag: up to 330,
  792 and 1,716 for 4, 5 and 6), a random sample of ``draws`` draws instead,
  each weighted by how often it came up (``method`` "sampled", not exact);
- **two in the bag, a one-tile play** (``method`` "replies"): every ordered
  draw (the mover draws ``a``, ``t`` stays: up to 9 x 8 = 72 worlds); in each,
  every placement of the opponent's rack, then the endgame (the mover to move;
  it depends on ``a`` and the reply only, so it is shared by the worlds the
  reply is legal in), and the opponent's pass, then the mover's pass (the game
  ends) or each of the mover's placements and the endgame after it, searched
  only where the pass could be the opponent's best (`rackety.search.peg_lines`).
  Exact under the model above; it can take hundreds of endgames of six or
  seven tiles a side per candidate, so it is the slow part;
- **three or more in the bag, a play that leaves tiles in it** (``method``
  "rollouts"): not searched. A quick estimate instead, `simulate`'s rollouts
  played to the end of the game by the static players (``rollouts`` of them,
  a quarter of the time budget at most): win % and spread change of those
  games. Macondo's solver goes on recursively to six tiles and MAGPIE's to
  four, at a cost that grows with every tile; here the cap is two.

Where the time goes: the endgames. Each is an independent search, run in
``jobs`` processes (a `ProcessPoolExecutor`, as the simulation's rollouts),
each process taking the next as soon as one ends. The candidates' endgames are
taken in turn (a first one of each, then a second ...; shorter plays, larger
racks, first; a candidate's draws in a shuffled order, its replies
best-scoring first). With ``seconds`` (a time budget for the searches), every
endgame is first searched for an even share of `FIRST_PASS` of it (at least
`MIN_SOLVE_SECONDS`); then those not solved exactly are searched again from the
start, each for at least `DEEPER` times as long as before, those given the
least time first (then the best candidate's, as they stand), while the time
left allows. An endgame stopped by its time limit gives the value of the
deepest search that finished and says so (``exact`` False per world); when the
budget ends before every endgame was searched once, a candidate is valued over
the worlds searched (every candidate has one at least: its first endgame is
searched whatever the clock says). Without ``seconds`` every endgame is solved
exactly, and the result does not depend on ``jobs``.

Under a `rackety.search.control.Control` (the UCGI engine's ``movetime`` and
``stop``), no endgame is started once it is stopped or past its deadline (the
first of each line included), an endgame searched in this process is stopped
within a slice with the rest (`rackety.search.endgame`), and one in a worker
process gets at most the time to the deadline; a candidate with no world
searched then is left out of the result (``stopped``).
"""

from __future__ import annotations

import math
import os
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from rackety.errors import RacketyError
from rackety.game.board import Board
from rackety.game.heuristics import leave_model
from rackety.game.movegen import MoveGenerator, variant_lexicon
from rackety.game.state import board_consts, rows_of, set_bag, set_rack, state_of
from rackety.kernels.rules import end_turn, pass_turn, play
from rackety.lexicon import Lexicon
from rackety.search.control import SLICE, clock
from rackety.search.endgame import solve_state
from rackety.search.peg_draws import count_submultisets, sample, submultisets
from rackety.search.peg_lines import EmptyingLine, Found, Line, Spec, Task, reply_line

if TYPE_CHECKING:
    from rackety.game.move import Move
    from rackety.search.control import Control

#: the most tiles in the bag a pre-endgame may have (the least is one)
MAX_BAG = 6
#: with a time budget, the share of it the first pass over every endgame gets
FIRST_PASS = 0.5
#: the shortest time limit of one endgame's search (the first depth always finishes)
MIN_SOLVE_SECONDS = 0.05
#: a pass again over the unfinished endgames only when each would get this many
#: times the time it had in the pass before (less would not search deeper)
DEEPER = 2.0
#: the most draws of a bag-emptying candidate solved one by one; past it, a sample
MAX_DRAWS = 120
#: rollouts of a candidate that leaves tiles in a bag of three or more
ROLLOUTS = 500
#: the share of a time budget the rollouts may take
ROLLOUT_SHARE = 0.25
#: plies of a rollout: enough to reach the end of the game from six in the bag
ROLLOUT_PLIES = 60


@dataclass
class Outcome:
    """One candidate over its worlds."""

    move: Move
    win_pct: float
    spread: float  # the expected change in spread for the mover, to the end of the game
    draws: list[tuple[tuple[int, ...], int, int, bool]] = field(default_factory=list,
                                                              repr=False)
    # the worlds searched: (tiles drawn, ways, final spread change, exact); the tiles
    # are the multiset the mover draws, or (a, t) for a "replies" line: the mover
    # draws a and t stays in the bag
    method: str = "endgames"  # "endgames", "replies", "sampled" or "rollouts"
    worlds: int = 0  # the worlds (draws) of the candidate in all (the sample's for "sampled")
    rollouts: int = 0  # for "rollouts": how many

    @property
    def exact(self) -> bool:
        """Whether every world was searched and its endgames solved exactly."""
        return self.method in ("endgames", "replies") and len(self.draws) == self.worlds \
            and all(d[3] for d in self.draws)


@dataclass
class PreEndgameResult:
    outcomes: list[Outcome]  # best first: win %, then expected spread change
    endgames: int = 0  # endgames searched (distinct: a candidate, its draw, the replies)
    exact_endgames: int = 0  # of which solved exactly
    seconds: float = 0.0  # wall time
    budget: float | None = None  # the time budget given (None: every endgame exact)
    bag: int = 1  # tiles in the bag
    stopped: bool = False  # cut short by its control (the candidates searched only)

    @property
    def best(self) -> Outcome:
        return self.outcomes[0]

    @property
    def exact(self) -> bool:
        """Whether every candidate was solved exactly."""
        return all(o.exact for o in self.outcomes)


class _Setup:
    """One position's state and constants, from which each endgame is made
    (the candidate and what follows it in a world) and solved."""

    def __init__(self, board: Board, lexicon: Lexicon) -> None:
        self.alphabet = board.alphabet
        self.lexicon = lexicon
        self.consts = board_consts(board)
        # the graph of the rules' variant: the words, or under WordSmog their alphagrams
        self.graph = variant_lexicon(lexicon, board.rules.variant)
        self.root = state_of(board, MoveGenerator.of(self.graph).cross_sets(board))

    def solve(self, spec: Spec, seconds: float | None, max_depth: int | None = None,
              control: Control | None = None) -> tuple[int, bool, int]:
        """Give the opponent its rack and the bag its tiles (drawn from the end),
        play the moves (a row each, None a pass) by the rules' kernels, and solve
        the endgame that follows: (its value for the side then to move, exact,
        depth searched)."""
        bag, opponent, actions = spec
        gs = self.root.copy()
        set_rack(gs, 1, opponent)
        set_bag(gs, bag)
        nodes, graph = self.graph.nodes, self.graph.graph
        for action in actions:
            if action is None:
                pass_turn(gs)
                end_turn(self.consts, gs, False)
            else:
                play(nodes, graph, self.consts, gs, action[0], action[1], 0, True)
                end_turn(self.consts, gs, True)
        result = solve_state(gs, self.consts, self.alphabet, self.lexicon, seconds=seconds,
                             max_depth=max_depth, control=control)
        return result.value, bool(result.exact), result.depth


#: the position a process solves for: set by `preendgame` before its workers
#: start (a forked worker finds it here), else made once per worker from the task
_worker: dict[str, Any] = {}


def _solve_task(task: tuple[Any, ...], control: Control | None = None
                ) -> tuple[int, bool, int]:
    """One endgame, in this process (under ``control``) or a worker: (position
    key, spec, seconds, the most plies)."""
    key, spec, seconds, max_depth = task
    if _worker.get("key") != key:
        source, alphabet, layout, cgp = key
        lexicon = Lexicon.load(source, alphabet)
        board = Board.from_cgp(cgp, alphabet=alphabet, layout=layout)
        _worker.update(key=key, setup=_Setup(board, lexicon))
    found: tuple[int, bool, int] = _worker["setup"].solve(spec, seconds, max_depth,
                                                          control=control)
    return found


def check_position(board: Board) -> int:
    """The tiles in the bag of a position the pre-endgame takes (two players,
    1 to `MAX_BAG` tiles in the bag, the opponent's rack given or not);
    refuses any other in one line."""
    if len(board.racks) != 2:
        raise RacketyError("a pre-endgame is between two players")
    if not board.rack:
        raise RacketyError("a pre-endgame needs the rack of the player to move")
    rack_size = board.alphabet.rack_size
    unseen = int(board.unseen().sum())
    k = unseen - (0 if board.racks[1] else rack_size)
    if not 1 <= k <= MAX_BAG:
        if board.racks[1]:
            raise RacketyError(f"a pre-endgame has 1 to {MAX_BAG} tiles in the bag, not {k}")
        raise RacketyError(f"a pre-endgame has 1 to {MAX_BAG} tiles in the bag: "
                           f"{unseen} tiles are unseen, where the opponent's "
                           f"full rack and the bag would be {rack_size + 1} to "
                           f"{rack_size + MAX_BAG}")
    return k


def preendgame(board: Board, lexicon: Lexicon, *, candidates: int = 10,
               leave: str = "static", seconds: float | None = None, jobs: int | None = 1,
               source: str | None = None, draws: int = MAX_DRAWS, rollouts: int = ROLLOUTS,
               seed: int = 0, moves: list[Move] | None = None,
               progress: Callable[[int, int, str], None] | None = None,
               control: Control | None = None,
               max_depth: int | None = None) -> PreEndgameResult:
    """Solve the position (1 to `MAX_BAG` tiles in the bag) for its best
    ``candidates`` tile placements by static equity (``leave``: as `simulate`'s),
    as the module docstring says.

    ``seconds``: a time budget for the searches (counted once the solver's
    kernels are loaded); what is not solved exactly within it is marked so
    (None: solve every endgame exactly, however long it takes). ``jobs``
    processes (None: every core) solve the endgames; they load the lexicon
    from ``source`` (default ``lexicon.source``) unless they are forked from
    this one. ``draws``: the most draws of a bag-emptying candidate searched
    one by one (past it, a sample of that many, from ``seed``); ``rollouts``:
    those of a candidate that leaves tiles in a bag of three or more.
    ``moves``: the candidates (legal placements) instead of the best static ones.
    ``progress(done, total, what)`` is called as endgames finish, ``what``
    saying what is being waited for. ``control``: the module docstring.
    ``max_depth``: the most plies each endgame looks ahead (one deeper is not
    exact; None: as deep as exactness or the budget takes)."""
    started = clock()
    if seconds is not None and not seconds > 0:
        raise RacketyError(f"seconds {seconds}: expected more than 0")
    if draws < 1 or rollouts < 1:
        raise RacketyError("draws and rollouts: 1 or more")
    k = check_position(board)
    rack_size = board.alphabet.rack_size
    unseen = Counter({c: int(n) for c, n in enumerate(board.unseen().tolist()) if n})
    opponent = tuple(board.racks[1])
    if moves is None:
        model = leave_model(leave, lexicon)
        moves = [m for m in board.moves(lexicon, mode="top", top=4 * candidates, leave=model)
                 if m.kind == "place"][:candidates]
    else:
        legal = {m: m for m in board.moves(lexicon, exchanges=False, leave=None).placements()}
        for move in moves:
            if move not in legal:
                raise RacketyError(f"{board.notation(move)}: not a legal placement here")
        moves = [legal[m] for m in dict.fromkeys(moves)]  # scored, each once
    if not moves:
        raise RacketyError("no tile placement to solve")
    meta, words = rows_of(moves, board.size)
    lines: list[Line] = []
    estimated: list[int] = []
    for i, move in enumerate(moves):
        row = (meta[i:i + 1], words[i:i + 1])
        drawn = min(k, rack_size - (len(board.rack) - move.n_placed))
        if drawn >= k:
            lines.append(_emptying(i, move, row, unseen, opponent, k, draws, seed))
        elif k == 2:
            lines.append(reply_line(i, move, row, board, lexicon, unseen, opponent))
        else:
            estimated.append(i)
    budget = seconds
    simulated: list[Outcome] = []
    if estimated:
        share = None if seconds is None else (ROLLOUT_SHARE if lines else 1.0) * seconds
        simulated = _rollouts(board, lexicon, [moves[i] for i in estimated], leave, rollouts,
                              share, seed, jobs, source, progress, control)
        if budget is not None:
            budget = max(MIN_SOLVE_SECONDS, budget - (clock() - started))
    found: dict[Task, Found] = {}
    stopped = False
    if lines and control is not None and control.stopped():
        lines, stopped = [], True
    if lines:
        key = (source or lexicon.source, board.alphabet.name, board.layout.name, board.cgp())
        jobs = jobs or os.cpu_count() or 1
        setup = _Setup(board, lexicon)
        if progress is not None:
            progress(0, sum(len(line.tasks()) for line in lines),
                     "loading the endgame solver (the first run compiles it)")
        # the kernels loaded here, once: forked workers start with them, and the position
        first = next((line for line in lines if line.tasks()), None)
        if first is not None:
            setup.solve(first.spec(first.tasks()[0]), None, max_depth=1)
        _worker.update(key=key, setup=setup)
        try:
            by_index = {line.index: line for line in lines}
            schedule = _Schedule(lines, found, board, budget, jobs, progress, k, len(moves))
            schedule.run(lambda task, limit: (key, by_index[task[1]].spec(task), limit,
                                              max_depth), control)
            stopped = control is not None and control.stopped()
            if stopped:  # the candidates with a world searched
                lines = [line for line in lines if line.index in schedule.valued]
        finally:
            _worker.clear()
    outcomes = _outcomes(lines, found, board) + simulated
    outcomes.sort(key=lambda o: (-o.win_pct, -o.spread))
    exact = sum(1 for value in found.values() if value[1])
    return PreEndgameResult(outcomes, len(found), exact, clock() - started,
                            seconds, k, stopped)


def _emptying(index: int, move: Move, row: tuple[np.ndarray, np.ndarray],
              unseen: Counter[int], opponent: tuple[int, ...], k: int, most: int,
              seed: int) -> EmptyingLine:
    """The line of a candidate that empties the bag: every multiset of k tiles
    it could draw (a sample past ``most``)."""
    if opponent:  # the bag is what is unseen: one draw
        bag = tuple(sorted(unseen.elements()))
        return EmptyingLine(index, move, row, [(bag, 1)], lambda drawn: opponent)

    def rest(drawn: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted((unseen - Counter(drawn)).elements()))

    if count_submultisets(unseen, k) <= most:
        return EmptyingLine(index, move, row, submultisets(unseen, k), rest, seed=seed)
    return EmptyingLine(index, move, row, sample(unseen, k, most, seed + index), rest,
                        sampled=True, seed=seed)


def _rollouts(board: Board, lexicon: Lexicon, moves: list[Move], leave: str, rollouts: int,
              seconds: float | None, seed: int, jobs: int | None, source: str | None,
              progress: Callable[[int, int, str], None] | None,
              control: Control | None = None) -> list[Outcome]:
    """The candidates that leave tiles in a bag of three or more, estimated by
    rollouts to the end of the game (`simulate`, no candidate dropped)."""
    from rackety.search.simulation import simulate

    what = (f"rollouts to the end of the game of the {len(moves)} candidates that leave "
            "tiles in the bag")
    report = None if progress is None else (lambda done, _active: progress(done, rollouts, what))
    if progress is not None:
        progress(0, rollouts, "loading the simulator (the first run compiles it)")
    # the kernels loaded here, before the clock: forked workers start with them
    simulate(board, lexicon, leave=leave, plies=ROLLOUT_PLIES, iterations=1, jobs=1,
             drop=False, moves=moves[:1])
    if progress is not None:
        progress(0, rollouts, what)
    result = simulate(board, lexicon, leave=leave, plies=ROLLOUT_PLIES, iterations=rollouts,
                      seconds=seconds, seed=seed, jobs=jobs, drop=False, moves=moves,
                      source=source or lexicon.source, progress=report, control=control)
    by_move = {c.move: c for c in result.candidates}
    return [Outcome(move, by_move[move].win_pct, by_move[move].equity, [], "rollouts", 0,
                    by_move[move].iterations) for move in moves]


class _Schedule:
    """Which endgame is searched next, for how long, and where: ``jobs``
    searches at a time, each started as soon as one ends. First every endgame
    the lines list from the start, in turns (a first of each line, a second
    ...), then those the values call for (`Line.needed`), each for an even
    share of `FIRST_PASS` of the budget (or exactly without one); then, with a
    budget, the endgames not solved exactly, those given the least time first
    (then the best candidate's, as they stand), each for `DEEPER` times as
    long as before or its share of the time left if more, while the time left
    allows that. Past the budget, only a line not yet valued at all gets a
    search (its first)."""

    def __init__(self, lines: list[Line], found: dict[Task, Found], board: Board,
                 seconds: float | None, jobs: int,
                 progress: Callable[[int, int, str], None] | None, bag: int,
                 candidates: int) -> None:
        self.lines, self.found, self.board = lines, found, board
        self.by_index = {line.index: line for line in lines}
        self.seconds, self.jobs, self.progress = seconds, jobs, progress
        self.initial = {line.index: line.tasks() for line in lines}
        order = sorted(lines, key=lambda line: (line.move.n_placed, line.index))
        first: list[Task] = []
        longest = max((len(t) for t in self.initial.values()), default=0)
        for r in range(longest):
            first += [self.initial[line.index][r] for line in order
                      if r < len(self.initial[line.index])]
        self.first = deque(first)
        self.known = len(first)  # endgames known so far (the first pass's and those asked)
        self.asked: set[Task] = set()
        self.limit = None if seconds is None else max(
            MIN_SOLVE_SECONDS, FIRST_PASS * seconds * jobs / max(1, len(first)))
        self.given: dict[Task, float] = {}  # the time each had last
        self.busy: set[Task] = set()
        self.valued: set[int] = set()  # the lines with a value found
        self.deadline = math.inf
        self.control: Control | None = None
        if bag == 1:
            draws = max((line.count for line in lines), default=0)
            self.what = f"endgames solved ({len(lines)} candidates x {draws} draws)"
        else:
            self.what = (f"endgames searched ({len(lines)} of {candidates} candidates, "
                         f"{bag} tiles in the bag)")
        if self.limit is not None:
            self.what += f", at most {self.limit:.2g} s each at first"

    def _line(self, task: Task) -> Line:
        return self.by_index[task[1]]

    def _late(self) -> tuple[Task, float | None] | None:
        """Past the budget: the first endgame of a line that has no value yet."""
        for line in self.lines:
            if line.index in self.valued or any(self._line(b) is line for b in self.busy):
                continue
            for task in self.initial[line.index] + line.needed(self.found):
                if task not in self.found and task not in self.busy:
                    return task, self.limit
        return None

    def next(self) -> tuple[Task, float | None] | None:
        """The next endgame to search and its time limit; None: none for now."""
        if self.control is not None and self.control.stopped():
            return None
        now = clock()
        if now >= self.deadline:
            return self._late()
        while self.first:
            task = self.first.popleft()
            if task not in self.found and task not in self.busy:
                return task, self.limit
        for line in self.lines:
            for task in line.needed(self.found):
                if task not in self.busy and task not in self.found:
                    if task not in self.asked:
                        self.asked.add(task)
                        self.known += 1
                    return task, self.limit
        if self.seconds is None:
            return None
        left = self.deadline - now
        todo = [e for e, (_, exact, _) in self.found.items() if not exact and e not in self.busy
                and DEEPER * self.given[e] <= left]
        if not todo:
            return None
        ranked = _outcomes(self.lines, self.found, self.board)
        rank = {o.move: r for r, o in enumerate(ranked)}
        task = min(todo, key=lambda e: (self.given[e], rank[self._line(e).move], repr(e)))
        share = left * self.jobs / max(len(todo), self.jobs)
        return task, min(left, max(DEEPER * self.given[task], share))

    def report(self) -> None:
        if self.progress is None:
            return
        if clock() >= self.deadline:
            self.progress(len(self.found), self.known,
                          "the budget is spent: only a candidate with no endgame searched yet "
                          "gets one")
        elif self.first or len(self.found) < self.known:
            self.progress(len(self.found), self.known, self.what)
        else:
            exact = sum(1 for _, done, _ in self.found.values() if done)
            budget = "" if self.seconds is None else f", until the {self.seconds:g} s budget ends"
            self.progress(exact, len(self.found),
                          f"endgames solved exactly; the other {len(self.found) - exact} "
                          f"searched again, longer{budget}")

    def run(self, task: Callable[[Task, float | None], tuple[Any, ...]],
            control: Control | None = None) -> None:
        """Search until nothing is left to search, or ``control`` says stop;
        ``task`` makes the worker's task of an endgame and a time limit."""
        if self.seconds is not None:
            self.deadline = clock() + self.seconds
        self.control = control
        if control is not None and control.deadline is not None:
            self.deadline = min(self.deadline, control.deadline)
        self.report()
        pool = ProcessPoolExecutor(self.jobs) if self.jobs > 1 and self.known > 1 else None
        running: dict[Future[tuple[int, bool, int]], tuple[Task, float | None]] = {}
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
                        if control is not None:
                            limit = control.left(limit)
                        future = pool.submit(_solve_task, task(endgame, limit))
                    else:
                        future = Future()
                        future.set_result(_solve_task(task(endgame, limit), control))
                    running[future] = picked
                if not running:
                    break
                done, _ = wait(running, timeout=None if control is None else SLICE,
                               return_when=FIRST_COMPLETED)
                if not done and control is not None and control.stopped():
                    break
                for future in done:
                    endgame, _ = running.pop(future)
                    value, exact, depth = future.result()
                    self.busy.discard(endgame)
                    old = self.found.get(endgame)
                    if old is None or exact or depth > old[2]:
                        self.found[endgame] = (value, exact, depth)
                        self._line(endgame).record(endgame)
                    self.valued.add(endgame[1])
                    self.report()
        finally:
            if pool is not None:
                pool.shutdown(cancel_futures=True)


def _outcomes(lines: list[Line], found: dict[Task, Found], board: Board) -> list[Outcome]:
    """Every searched candidate over the worlds searched, best first (win %,
    then expected spread change)."""
    spread0 = board.scores[0] - board.scores[1]
    outcomes = []
    for line in lines:
        rows = [(tiles, ways, change, exact) for tiles, ways, change, exact in line.worlds(found)
                if change is not None]
        total = sum(ways for _, ways, _, _ in rows)
        wins = spread = 0.0
        for _, ways, change, _ in rows:
            final = spread0 + change
            wins += ways * (1.0 if final > 0 else 0.5 if final == 0 else 0.0)
            spread += ways * change
        if total:
            wins, spread = 100.0 * wins / total, spread / total
        else:  # nothing searched (a budget spent before the line's first endgame)
            wins, spread = 50.0, float(line.move.score or 0)
        outcomes.append(Outcome(line.move, wins, spread, rows, line.method, line.count))
    outcomes.sort(key=lambda o: (-o.win_pct, -o.spread))
    return outcomes


__all__ = ["MAX_BAG", "Outcome", "PreEndgameResult", "check_position", "preendgame"]
