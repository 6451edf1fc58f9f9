"""Monte Carlo simulation: the best static candidates, each played out a few
plies against random opponent racks, ranked by their chance of winning, then
by the spread they lead to.

Appel and Jacobson (section 7.3) proposed a "sampled" search over random
opponent racks to see which plays leave the board too open; Gordon found such
probabilistic search too slow on a VAX. With a compiled generator it is cheap:
each rollout here is one call into numba (`rollouts`) that, for every
candidate, plays the candidate, then ``plies`` more moves (the opponent's best
static move, then ours, ...) drawn from the same random bag for every candidate
(common random numbers: the candidates are compared on the same draws).
The candidates and the rollouts' moves are those of the position's rules:
WordSmog's under WordSmog (`rackety.game.movegen.generate`,
`rackety.kernels.selfplay.decide`).

A candidate's value per rollout is the spread change over the rollout (our
points minus the opponent's) plus the value of the tiles the last mover kept
(ours counts for us, theirs against), or the end-of-game adjustment when a
rollout reaches the end. Its equity is the mean, with a standard error. The win
probability of a rollout is the win-% table's (`rackety.game.winpct`,
measured on rackety's own self-play) at its final spread and the tiles
unseen to the player who made its last move (`rackety.kernels.rollouts`), 1,
0.5 or 0 once the game has ended; a candidate's win % is the mean, with a
standard error too. `SimResult.candidates` are ranked by win % (compared
exactly), equity breaking ties, as Woogles, Macondo and MAGPIE rank them: a
player far behind is told the play that wins most often, not the one that
loses by least.

Stopping (as Macondo's auto-stopper): after every batch of rollouts, a
candidate whose upper confidence bound on win % is below the leader's lower
bound is dropped; where win % cannot tell them apart (the leader's win % is
within `SATURATED` of 0 or 100: every candidate loses, or wins, whatever it
plays), the candidates on that side are dropped by their equity's bounds
instead (unless ``drop=False``: every candidate then runs every rollout); the
simulation stops when one candidate is left, or at the iteration or time
limit, and says which (`SimResult.stopped`). Rollout i of a simulation with
seed S draws from the bag shuffled by splitmix64 from ``S`` and ``i`` only, and
the batches are fixed by iteration counts, so the result does not depend on
the number of processes (a time limit, of course, does). That is racing,
every candidate left running every batch; top-two sampling (``sampling="top-two"``,
`_top_two`) runs only the leader and its closest challenger after a first
batch each, so the rollouts go where the choice is decided. Under a time limit
the batches of a simulation in this process are paced (`_paced`): a first
rollout measures how long one takes (a WordSmog rollout costs about a
hundred classic ones), and no batch is longer than the time left holds.
"""

from __future__ import annotations

import itertools
import math
import os
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from statistics import NormalDist
from typing import TYPE_CHECKING, Any, Literal, get_args

import numpy as np

from rackety.backends import run_tasks
from rackety.errors import RacketyError, clip
from rackety.game.board import Board
from rackety.game.heuristics import leave_model
from rackety.game.leaves import Bank, as_table
from rackety.game.move import format_leave
from rackety.game.movegen import MoveGenerator, Work, variant_lexicon
from rackety.game.state import board_consts, rows_of, state_of
from rackety.game.winpct import WinTable
from rackety.kernels.fields import META
from rackety.kernels.rollouts import Setup, rollouts
from rackety.kernels.selfplay import EV_EXCHANGE, EV_PASS, EV_PLAY
from rackety.lexicon import Lexicon
from rackety.search.control import clock

if TYPE_CHECKING:
    from rackety.game.move import Move
    from rackety.search.control import Control

#: win % within this of 0 or 100 cannot tell candidates apart: `drop_behind` takes equity there
SATURATED = 1.0
#: how a simulation spends its rollouts (`simulate`)
Sampling = Literal["racing", "top-two"]
SAMPLINGS: tuple[Sampling, ...] = get_args(Sampling)
#: top-two sampling: every candidate's first rollouts, then a round's for each of the two
TOP_TWO_FIRST = 16
TOP_TWO_BATCH = 16
#: ``plies="auto"``: the depths it chooses among, shallowest first
AUTO_PLIES = (2, 3, 4)
#: ``plies="auto"``: a deeper rollout is chosen only if the time allows each
#: candidate this many rollouts at that depth
AUTO_ROLLOUTS = 400
#: the plies of each rollout, or "auto": chosen by the time (`choose_plies`)
Plies = int | Literal["auto"]

#: what the opponent kept: (tile codes, weight) pairs
OpponentLeaves = Sequence[tuple[Sequence[int], float]]


# ------------------------------------------------------------------ Python side
@dataclass
class Candidate:
    """One simulated move: its static equity and what the rollouts said, kept as
    running totals (so a simulation of any length holds a few numbers a
    candidate, never its rollouts): ``iterations`` rollouts, their ``mean``
    value and ``m2``, the sum of their squared deviations from it, and the
    same of their win probabilities (a finished game's 1, 0.5 or 0),
    ``win_mean`` and ``win_m2``."""

    move: Move
    static_equity: float
    iterations: int = 0
    mean: float = 0.0
    m2: float = field(default=0.0, repr=False)
    win_mean: float = 0.0
    win_m2: float = field(default=0.0, repr=False)
    dropped: bool = False

    def add(self, values: np.ndarray, wins: np.ndarray) -> None:
        """Fold a batch of rollouts (their values and wins) into the totals:
        the batch's own mean and squared deviations, combined with the totals'
        by Chan, Golub and LeVeque's pairwise update (1979), exact for any
        batch sizes and the same whatever the batches were computed on."""
        n = len(values)
        if n == 0:
            return
        mean = float(np.mean(values))
        m2 = float(np.sum(np.square(values - mean)))
        win_mean = float(np.mean(wins))
        win_m2 = float(np.sum(np.square(wins - win_mean)))
        self._fold(n, mean, m2, win_mean, win_m2)

    def _fold(self, n: int, mean: float, m2: float, win_mean: float, win_m2: float) -> None:
        total = self.iterations + n
        delta = mean - self.mean
        self.mean += delta * n / total
        self.m2 += m2 + delta * delta * self.iterations * n / total
        delta = win_mean - self.win_mean
        self.win_mean += delta * n / total
        self.win_m2 += win_m2 + delta * delta * self.iterations * n / total
        self.iterations = total

    def merge(self, other: Candidate) -> None:
        """Fold another simulation's rollouts of the same move into these."""
        if other.iterations == 0:
            return
        self._fold(other.iterations, other.mean, other.m2, other.win_mean, other.win_m2)

    @property
    def equity(self) -> float:
        return self.mean if self.iterations else self.static_equity

    @property
    def stderr(self) -> float:
        n = self.iterations
        return math.sqrt(max(0.0, self.m2) / (n - 1) / n) if n > 1 else math.inf

    @property
    def win_pct(self) -> float:
        """The mean of the rollouts' win probabilities, in % (50 before any)."""
        return 100.0 * self.win_mean if self.iterations else 50.0

    @property
    def win_pct_stderr(self) -> float:
        """The standard error of `win_pct`, in %."""
        n = self.iterations
        return 100.0 * math.sqrt(max(0.0, self.win_m2) / (n - 1) / n) if n > 1 else math.inf

    def rank(self) -> tuple[bool, float, float]:
        """The key `SimResult.candidates` are sorted by: the dropped last, then
        `rank_key` (win %, highest first, then equity)."""
        return (self.dropped, *rank_key(self.win_pct, self.equity))


def rank_key(win_pct: float, value: float) -> tuple[float, float]:
    """The one order of searched moves, best first when sorted: win % first,
    the value (equity, or spread to the end of the game) breaking ties, as
    Macondo and MAGPIE rank (the judge's, `rackety.search.judge`, and UCGI's)."""
    return (-win_pct, -value)


@dataclass
class SimResult:
    candidates: list[Candidate]  # best first: by win %, then equity (`Candidate.rank`)
    iterations: int  # rollouts run by the candidates that ran longest
    seconds: float
    stopped: str = "iterations"  # why: "iterations", "seconds", "one candidate left" or "stopped"
    plies: int = 2  # of each rollout (what ``plies="auto"`` chose)

    @property
    def rollouts(self) -> int:
        """Rollouts run in all (each of one candidate, all its plies)."""
        return sum(c.iterations for c in self.candidates)

    @property
    def best(self) -> Candidate:
        """The candidate of the highest win % (then equity) not dropped."""
        return self.candidates[0]

    @property
    def iterations_per_second(self) -> float:
        """Rollouts (one candidate, all its plies) per second."""
        return self.rollouts / self.seconds if self.seconds else 0.0


class _Setup:
    """The arrays `rollouts` needs for one position and its candidates."""

    def __init__(self, board: Board, lexicon: Lexicon, model: Any,
                 candidates: list[Move], opponent_leaves: OpponentLeaves = ()) -> None:
        self.lexicon = lexicon
        # the graph of the rules' variant: the words, or under WordSmog their alphagrams
        self.graph = variant_lexicon(lexicon, board.rules.variant)
        # the position for the rollouts: the mover's rack in seat 0, the other's drawn
        self.root = state_of(board.copy(racks=[board.rack, ()]),
                             MoveGenerator.of(self.graph).cross_sets(board))
        self.state = self.root.copy()
        self.consts = board_consts(board)
        self.work = Work(board.size, board.alphabet.rack_size, lexicon=lexicon)
        unseen = board.unseen()
        opponent = board.racks[1] if len(board.racks) > 1 else ()
        pool = [c for c, k in enumerate(unseen.tolist()) for _ in range(int(k))]
        self.known_opp = len(opponent)
        pool += list(opponent)  # the known rack goes last (drawn from the end)
        self.pool = np.array(pool, np.int64)
        self.opponent = _opponent_leaves(board, opponent_leaves, Counter(pool))
        self.spread0 = board.scores[0] - max(board.scores[1:], default=0)
        k = len(candidates)
        self.kind = np.array([EV_PLAY if m.kind == "place" else EV_EXCHANGE
                              if m.kind == "exchange" else EV_PASS for m in candidates], np.int64)
        places = [i for i, m in enumerate(candidates) if m.kind == "place"]
        self.meta = np.zeros((k, META), np.int32)
        self.tiles = np.zeros((k, board.size), np.uint8)
        self.meta[places], self.tiles[places] = rows_of([candidates[i] for i in places],
                                                        board.size)
        self.traded = np.zeros((k, 64), np.int64)
        self.ntraded = np.zeros(k, np.int64)
        for i, move in enumerate(candidates):
            if move.kind == "exchange":
                self.ntraded[i] = len(move.tiles)
                self.traded[i, :len(move.tiles)] = move.tiles
        bank = Bank([as_table(model, board.alphabet)])
        self.bank = (bank.nodes, bank.counts, bank.values)
        self.setup = Setup(self.root, self.state, self.pool, self.known_opp, self.opponent,
                           self.spread0, self.bank, 0, 0,
                           WinTable.for_alphabet(board.alphabet).array)

    def run(self, plies: int, seed: int, first: int, last: int,
            active: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        k = int(active.sum())
        values = np.zeros((k, last - first))
        wins = np.zeros((k, last - first))
        idx = np.flatnonzero(active)
        candidates = (self.kind[idx], self.meta[idx], self.tiles[idx], self.traded[idx],
                      self.ntraded[idx])
        rollouts(self.graph.nodes, self.graph.graph, self.consts, self.setup, candidates, plies,
                 seed, first, last, self.work.arrays, values, wins)
        return values, wins


_worker: dict[str, Any] = {}


def _task(source: str, board: Board, leave: str, moves: list[Move], plies: int, seed: int,
          first: int, last: int, active: list[bool], opponent_leaves: OpponentLeaves
          ) -> tuple[Any, ...]:
    """What `_batch` takes: rollouts ``first`` to ``last`` of the active
    candidates, in plain values for another process."""
    return (source, board.alphabet.name, board.layout.name, board.cgp(), leave,
            [m.notation(board.alphabet) for m in moves], plies, seed, first, last, active,
            opponent_leaves)


def _batch(args: tuple[str, str, str, str, str, list[str], int, int, int, int, list[bool],
                       OpponentLeaves]) -> tuple[np.ndarray, np.ndarray]:
    """A batch of rollouts in a worker process."""

    source, alphabet, layout, cgp, spec, moves, plies, seed, first, last, active, opp = args
    key = (source, alphabet, layout, cgp, spec, tuple(moves), opp)
    if _worker.get("key") != key:
        lexicon = Lexicon.load(source, alphabet)
        board = Board.from_cgp(cgp, alphabet=alphabet, layout=layout)
        model = leave_model(spec, lexicon)
        candidates = [_scored(board, board.parse_move(m)) for m in moves]
        _worker.update(key=key, setup=_Setup(board, lexicon, model, candidates, opp))
    sums: tuple[np.ndarray, np.ndarray] = _worker["setup"].run(plies, seed, first, last,
                                                               np.array(active))
    return sums


def _opponent_leaves(board: Board, leaves: OpponentLeaves, pool: Counter[int]
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rollouts' form of the opponent's leaves (`simulate`): the tiles of
    each (int64 [k, rack size]), their number, and the cumulative
    probabilities (the weights normalised); k = 0 for none. A leave must be
    among the unseen tiles (``pool``) and no longer than a rack."""
    rack_size = board.alphabet.rack_size
    tiles = np.zeros((len(leaves), max(1, rack_size)), np.int64)
    lengths = np.zeros(len(leaves), np.int64)
    weights = np.zeros(len(leaves))
    if leaves and len(board.racks) > 1 and board.racks[1]:
        raise RacketyError("the opponent's rack is known: there are no leaves to draw it from")
    for i, (codes, weight) in enumerate(leaves):
        codes = tuple(int(c) for c in codes)
        if len(codes) > rack_size or Counter(codes) - pool:
            what = "among the unseen tiles" if len(codes) <= rack_size else "a leave"
            raise RacketyError(f"opponent leave {format_leave(board.alphabet, codes)!r}: not "
                               f"{what}")
        if not (math.isfinite(weight) and weight >= 0):
            raise RacketyError(f"opponent leave weight {weight!r}: a number 0 or more")
        tiles[i, :len(codes)] = codes
        lengths[i] = len(codes)
        weights[i] = weight
    total = weights.sum()
    if leaves and not total > 0:
        raise RacketyError("opponent leaves: their weights sum to 0")
    cumulative = np.cumsum(weights) / total if leaves else weights
    return tiles, lengths, cumulative


def _scored(board: Board, move: Move) -> Move:
    return replace(move, score=board.score(move)) if move.kind == "place" else move


def simulate(board: Board, lexicon: Lexicon, *, leave: str = "static", candidates: int = 15,
             plies: Plies = 2, iterations: int | None = None, seconds: float | None = None,
             seed: int = 0, jobs: int | None = 1, confidence: float = 0.99,
             drop: bool = True, batch: int = 64, moves: list[Move] | None = None,
             progress: Callable[[int, int], None] | None = None,
             source: str | None = None, backend: str = "local",
             address: str | None = None, opponent_leaves: OpponentLeaves = (),
             control: Control | None = None, sampling: Sampling = "racing") -> SimResult:
    """Simulate the position's best ``candidates`` static moves (by ``leave``:
    ``static``, the lexicon's shipped table or H3 where there is none, ``h1``,
    ``h2``, ``h3`` or ``leaves:FILE.klv2``, also the players' policy in
    the rollouts) for ``plies`` plies each, until ``iterations`` rollouts per
    candidate (default 1,000 when there is no time limit), ``seconds``, or one
    candidate left (a candidate is dropped when it falls behind the leader at
    ``confidence``; ``drop=False`` keeps every candidate to the end). ``jobs``
    processes (None: every core; needs ``source``, the lexicon's name or path,
    to load it there); ``backend="ray"`` runs the
    batches as Ray tasks (``jobs`` of them a batch, default 8) on the cluster at
    ``address``. The rollouts are numbered and seeded by number, so the result
    is the same whatever runs them. ``opponent_leaves``: (tiles kept, weight)
    pairs, what the opponent kept of their last rack (an inference,
    `rackety.search.inference.Inference.kept`); each rollout then draws one by
    weight and fills the opponent's rack from the unseen tiles, instead of
    drawing the whole rack at random. ``control`` (a
    `rackety.search.control.Control`): its deadline bounds ``seconds``, and the
    simulation ends between two batches once it is stopped (``stopped``:
    "stopped"; before any rollout, the candidates keep their static order).
    ``sampling``: ``racing``, every candidate left runs every batch (the
    module docstring), or ``top-two``, after a first batch each, only the
    leader and its closest challenger run (`_top_two`; in this process only).
    ``plies="auto"``: the depth the time allows (`choose_plies`)."""

    plies = checked_plies(plies, "simulate")
    if sampling not in SAMPLINGS:
        raise RacketyError(f"sampling {clip(str(sampling))!r}: {' or '.join(SAMPLINGS)}")
    if not board.rack:
        raise RacketyError("the player to move has no rack to simulate (the CGP leaves it "
                           "unknown): give it first among the racks")
    model = leave_model(leave, lexicon)
    if moves is None:
        moves = list(board.moves(lexicon, mode="top", top=candidates, leave=model))
    if not moves:
        raise RacketyError("no move to simulate")
    cands = [Candidate(m, float(m.equity or 0.0)) for m in moves]
    if control is not None:
        seconds = control.left(seconds)
    limit = iterations if iterations is not None else (None if seconds else 1000)
    ray = backend == "ray"
    jobs = jobs or (8 if ray else os.cpu_count() or 1)
    opponent_leaves = tuple((tuple(int(c) for c in codes), float(weight))
                            for codes, weight in opponent_leaves)
    if opponent_leaves:  # refused here, not in a worker
        unseen = Counter({c: int(k) for c, k in enumerate(board.unseen().tolist()) if k})
        _opponent_leaves(board, opponent_leaves, unseen)
    setup = _Setup(board, lexicon, model, [_scored(board, m) for m in moves], opponent_leaves) \
        if jobs == 1 and not ray else None
    z = _z(confidence)
    t0 = clock()
    if plies == "auto":
        plies = choose_plies(setup, len(cands), seed, seconds, iterations)
        if seconds is not None:
            seconds = max(0.0, seconds - (clock() - t0))
        t0 = clock()
    pool = ProcessPoolExecutor(jobs) if jobs > 1 and not ray else None
    done = 0
    stopped = "iterations"
    if sampling == "top-two" and setup is not None:
        done, stopped = _top_two(setup, cands, plies, seed, limit, seconds, control, z,
                                 drop, progress)
        ranked = sorted(cands, key=Candidate.rank)
        return SimResult(ranked, done, clock() - t0, stopped, plies)
    try:
        if pool is not None and source is not None:
            # each process loads the lexicon and its kernels (a compilation if
            # they were not compiled ahead) before the clock starts: one rollout
            # each, not counted (the rollouts are seeded by number)
            warm = _task(source, board, leave, moves, plies, seed, 0, 1, [True] * len(moves),
                         opponent_leaves)
            list(pool.map(_batch, [warm] * jobs))
            t0 = clock()
        while True:
            active = np.array([not c.dropped for c in cands])
            step = batch - done % batch  # the batches end at multiples of ``batch``
            if limit is not None:
                step = min(step, limit - done)
            if step <= 0 or active.sum() == 0:
                break
            if seconds is not None and setup is not None:
                step = _paced(step, done, seconds, clock() - t0)
            if control is not None and control.stopped():
                stopped = "seconds" if control.deadline is not None and \
                    clock() >= control.deadline else "stopped"
                break
            if setup is not None:
                values, wins = setup.run(plies, seed, done, done + step, active)
            else:
                if source is None:
                    raise RacketyError("simulate with jobs > 1 needs the lexicon's source")
                cuts = np.linspace(done, done + step, jobs + 1).astype(int)
                tasks = [_task(source, board, leave, moves, plies, seed, int(a), int(b),
                               active.tolist(), opponent_leaves)
                         for a, b in itertools.pairwise(cuts) if b > a]
                if pool is not None:
                    parts = list(pool.map(_batch, tasks))
                else:
                    parts = run_tasks(_batch, tasks, backend=backend, address=address)
                values = np.concatenate([p[0] for p in parts], axis=1)
                wins = np.concatenate([p[1] for p in parts], axis=1)
            for row, i in enumerate(np.flatnonzero(active)):
                cands[i].add(values[row], wins[row])
            done += step
            if progress is not None:
                progress(done, int(active.sum()))
            if drop:
                drop_behind(cands, z)
                if sum(not c.dropped for c in cands) <= 1:
                    stopped = "one candidate left"
                    break
            if seconds is not None and clock() - t0 >= seconds:
                stopped = "seconds"
                break
    finally:
        if pool is not None:
            pool.shutdown()
    elapsed = clock() - t0
    ranked = sorted(cands, key=Candidate.rank)
    return SimResult(ranked, done, elapsed, stopped, plies)


def checked_plies(plies: Any, where: str) -> Plies:
    """``plies`` if it is a depth (0 or more) or ``"auto"``, else a one-line error."""
    if isinstance(plies, str) and plies == "auto":
        return "auto"
    if isinstance(plies, int | np.integer) and not isinstance(plies, bool) and plies >= 0:
        return int(plies)
    raise RacketyError(f"{where}: plies {clip(str(plies))!r}: expected 0 or more, or auto")


def choose_plies(setup: _Setup | None, candidates: int, seed: int, seconds: float | None,
                 iterations: int | None) -> int:
    """The plies of ``plies="auto"``: the deepest of `AUTO_PLIES` at which
    ``seconds`` still allow every candidate `AUTO_ROLLOUTS` rollouts, as one
    timed rollout of each at the shallowest depth foretells (a ply costs about
    as much as another: a rollout of p plies, p/2 of one of 2), or all
    ``iterations`` if fewer. Without a time limit, or out of this
    process, the shallowest. The probe's rollout is not counted (rollout 0
    runs again at the depth chosen, on the same draws)."""
    low = AUTO_PLIES[0]
    if setup is None or not seconds or candidates < 1:
        return low
    started = clock()
    setup.run(low, seed, 0, 1, np.ones(candidates, dtype=np.bool_))
    one = max(clock() - started, 1e-9)  # a rollout of every candidate at ``low`` plies
    fits = (seconds - one) / one  # rollouts a candidate at ``low`` plies
    return deepest_plies(fits, AUTO_ROLLOUTS if iterations is None
                         else min(AUTO_ROLLOUTS, iterations))


def deepest_plies(fits: float, wanted: int) -> int:
    """The deepest of `AUTO_PLIES` at which ``wanted`` rollouts a candidate
    still fit, ``fits`` of them fitting at the shallowest (the shallowest if
    none does)."""
    low = AUTO_PLIES[0]
    return max((p for p in AUTO_PLIES if fits * low / p >= wanted), default=low)


def _top_two(setup: _Setup, cands: list[Candidate], plies: int, seed: int,
             limit: int | None, seconds: float | None, control: Control | None, z: float,
             drop: bool, progress: Callable[[int, int], None] | None) -> tuple[int, str]:
    """Best-arm identification by top-two sampling: every candidate runs a
    first batch of `TOP_TWO_FIRST` rollouts, then each round only two do,
    `TOP_TWO_BATCH` more each: the leader (the best by `Candidate.rank`) and
    the challenger closest to it in standard errors of the difference (win
    %, or equity where win % is saturated), as in the Top-Two Transportation
    Cost rule (Shang, de Heide, Kaufmann et al., 2020). Candidate c's k-th
    rollout draws from rollout k's bag whichever round it runs in, so two
    candidates' rollouts stay paired on the same draws. The stops are the
    racing ones: a time or iteration limit, the control, one candidate left
    (`drop_behind`). The most rollouts of a candidate, and why it stopped."""
    t0 = clock()
    spent_rollouts = 0

    def run(group: list[Candidate], count: int) -> None:
        nonlocal spent_rollouts
        first = group[0].iterations
        mask = np.array([any(c is g for g in group) for c in cands])
        values, wins = setup.run(plies, seed, first, first + count, mask)
        for row, c in enumerate(c for c, m in zip(cands, mask, strict=True) if m):
            c.add(values[row], wins[row])
        spent_rollouts += count * len(group)

    def pace(count: int, width: int) -> int:
        """``count`` rollouts for ``width`` candidates, or what the time left holds."""
        if seconds is None or spent_rollouts == 0:
            return count
        spent = clock() - t0
        rate = spent_rollouts / max(spent, 1e-6)
        return max(1, min(count, int((seconds - spent) * rate / width)))

    stopped = "iterations"
    # the first batch: one rollout to measure the pace, then the rest, every candidate
    first = TOP_TWO_FIRST if limit is None else min(TOP_TWO_FIRST, limit)
    run(cands, 1)
    if first > 1 and not (control is not None and control.stopped()):
        run(cands, pace(first - 1, len(cands)))
    while True:
        alive = [c for c in cands if not c.dropped]
        most = max(c.iterations for c in cands)
        if progress is not None:
            progress(most, len(alive))
        if drop:
            drop_behind(cands, z)
            alive = [c for c in cands if not c.dropped]
            if len(alive) <= 1:
                stopped = "one candidate left"
                break
        if limit is not None and most >= limit:
            break
        if control is not None and control.stopped():
            stopped = "seconds" if control.deadline is not None and \
                clock() >= control.deadline else "stopped"
            break
        if seconds is not None and clock() - t0 >= seconds:
            stopped = "seconds"
            break
        leader = min(alive, key=Candidate.rank)
        others = [c for c in alive if c is not leader]
        gaps = [_closeness(leader, c) for c in others]
        challenger = others[gaps.index(min(gaps))]
        count = pace(TOP_TWO_BATCH, 2)
        if limit is not None:
            count = min(count, limit - max(leader.iterations, challenger.iterations))
        if count <= 0:
            break
        for c in (leader, challenger):  # each on its own next rollouts
            run([c], count)
    return max(c.iterations for c in cands), stopped


def _closeness(leader: Candidate, other: Candidate) -> float:
    """How many standard errors of their difference ``other`` is behind
    ``leader``: in win %, or in equity where the leader's win % is saturated
    (`SATURATED`); 0 while either has one rollout or none."""
    if leader.win_pct <= SATURATED or leader.win_pct >= 100.0 - SATURATED:
        gap, spread = leader.equity - other.equity, leader.stderr ** 2 + other.stderr ** 2
    else:
        gap = leader.win_pct - other.win_pct
        spread = leader.win_pct_stderr ** 2 + other.win_pct_stderr ** 2
    return gap / math.sqrt(spread) if spread > 0 else math.inf


def _paced(step: int, done: int, seconds: float, spent: float) -> int:
    """The rollouts of the next batch (``step`` at most, one at least) under
    a time limit of ``seconds``, ``done`` of them in ``spent`` seconds so
    far: the first alone, to measure the pace, then what the pace fits in the
    time left. A classic simulation's batches come out as before (the first
    one's rest follows it; no candidate is dropped after one rollout), but
    for the last before the limit."""
    if done == 0:
        return 1
    if spent <= 0:
        return step
    return max(1, min(step, int(done * (seconds - spent) / spent)))


def _z(confidence: float) -> float:
    """The two-sided normal quantile for ``confidence`` (0.99 -> 2.576)."""

    return NormalDist().inv_cdf(0.5 + confidence / 2)


def drop_behind(cands: list[Candidate], z: float) -> None:
    """Drop every candidate whose upper bound on win % is below the leader's
    lower bound (the leader: the best by `Candidate.rank`). Where the
    leader's win % is within `SATURATED` of 0 or 100, win % cannot tell
    the candidates apart: those on the same side are then dropped by the
    same test on equity, against the best equity among them."""
    alive = [c for c in cands if not c.dropped and c.iterations > 1]
    if len(alive) < 2:
        return
    leader = min(alive, key=Candidate.rank)
    floor = leader.win_pct - z * leader.win_pct_stderr
    for c in alive:
        if c is not leader and c.win_pct + z * c.win_pct_stderr < floor:
            c.dropped = True
    low = leader.win_pct <= SATURATED
    if not (low or leader.win_pct >= 100.0 - SATURATED):
        return
    side = [c for c in alive if not c.dropped
            and (c.win_pct <= SATURATED if low else c.win_pct >= 100.0 - SATURATED)]
    if len(side) < 2:
        return
    top = max(side, key=lambda c: c.equity)
    floor = top.equity - z * top.stderr
    for c in side:
        if c is not top and c.equity + z * c.stderr < floor:
            c.dropped = True
