"""The win-% table measured on rackety's own self-play (`rackety.game.winpct`
reads what this writes; ``docs/WINPCT.md`` says how the shipped one was made).

`measure` plays games of compiled self-play (`rackety.experiments.selfplay`,
the static player of ``leave`` on both sides) and, for every turn but the
last of a game (the one that ends it: nothing is left to estimate), counts
where the mover stands once it has moved and drawn: its spread (its score
less the opponent's), the tiles unseen to it (the bag and the opponent's
rack) and the game's result for it (1 a win, 0.5 a tie, 0 a loss). `Counts`
holds the sums by (unseen, spread), spread clamped to ``+-max_spread``.

`smooth` makes the table of those sums: the spreads taken in pairs (s and
-s, so the table is symmetric and 50 % at 0), each cell the mean of the
smallest window of neighbouring spreads and unseen counts (`_windows`; the
unseen counts from 9 up only: never across the bag emptying) that holds
`TARGET` turns, each row then made non-decreasing in spread (pool adjacent
violators weighted by the windows' turns). Unseen 0 never happens with the
opponent to move (its rack would be empty, the game over): that row is the
end of a game, the sign of the spread.

Game ``i`` of a measurement with seed S is played from the bag of
`game_seed` (S, i) only, and the counts are integer sums, so the table does
not depend on how many processes played the games.
"""

from __future__ import annotations

import hashlib
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from rackety.backends import imap_tasks
from rackety.experiments.selfplay import EV_EXCHANGE, EV_PASS, EV_PLAY, Compiled
from rackety.game.winpct import MAX_SPREAD, WinTable
from rackety.lexicon import Lexicon
from rackety.players import make_player

if TYPE_CHECKING:
    from rackety.alphabet import Alphabet

#: turns a cell's window gathers before its mean is taken (`smooth`)
TARGET = 4000
#: half-widths tried for a window, in spread points
WIDTHS = (0, 1, 2, 3, 4, 6, 8, 10, 13, 16, 20, 25, 30, 40, 50, 65, 80, 100, 130, 160, 200, 300)
#: half-spans tried for a window, in unseen tiles
SPANS = (0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 96)
GAMES_PER_TASK = 500


@dataclass
class Counts:
    """Turns by (unseen, spread + max_spread): ``turns`` of them, ``wins`` the
    sum of their results (a tie half), over ``games`` games."""

    turns: np.ndarray  # int64 [unseen_max + 1, 2 * max_spread + 1]
    wins: np.ndarray  # int64, twice the results (a tie 1): whole numbers
    games: int = 0

    @classmethod
    def empty(cls, unseen_max: int, max_spread: int = MAX_SPREAD) -> Counts:
        shape = (unseen_max + 1, 2 * max_spread + 1)
        return cls(np.zeros(shape, np.int64), np.zeros(shape, np.int64))

    def add(self, other: Counts) -> None:
        self.turns += other.turns
        self.wins += other.wins
        self.games += other.games


def unseen_max(alphabet: Alphabet) -> int:
    """The most tiles unseen to a player: the tile set's less a rack."""
    return sum(tile.count for tile in alphabet.tiles) - alphabet.rack_size


def game_seed(seed: int, index: int) -> int:
    """The bag seed of game ``index``: from the two numbers only."""
    digest = hashlib.blake2b(f"winpct/{seed}/{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def turns_of(seat: np.ndarray, kind: np.ndarray, score: np.ndarray, rack: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A two-player game's turns from its events (`rackety.kernels.selfplay.play_game`):
    for every turn followed by another, the mover's spread after it, the tiles
    unseen to the mover then (the next turn's bag and rack before it: the
    opponent's), and the mover's result twice (2 a win, 1 a tie, 0 a loss)."""
    n = len(kind)
    totals = np.zeros(2, np.int64)
    for s, v in zip(seat.tolist(), score.tolist(), strict=True):
        totals[s] += v
    final = int(totals[0] - totals[1])
    turn_rows = [i for i in range(n) if kind[i] in (EV_PLAY, EV_EXCHANGE, EV_PASS)]
    spreads, unseens, results = [], [], []
    running = np.zeros(2, np.int64)
    for a, b in itertools.pairwise(turn_rows):
        mover = int(seat[a])
        running[mover] += int(score[a])
        spread = int(running[mover] - running[1 - mover])
        spreads.append(spread)
        unseens.append(int(rack[b, 0] + rack[b, 1]))
        sign = final if mover == 0 else -final
        results.append(2 if sign > 0 else 1 if sign == 0 else 0)
    return (np.array(spreads, np.int64), np.array(unseens, np.int64),
            np.array(results, np.int64))


_worker: dict[str, Any] = {}


@dataclass(frozen=True)
class _Task:
    source: str
    leave: str
    seed: int
    start: int
    stop: int
    max_spread: int


def play_task(task: _Task) -> Counts:
    """Games ``start`` to ``stop - 1``, counted (a top-level function for
    `rackety.backends.imap_tasks`)."""
    key = (task.source, task.leave)
    if _worker.get("key") != key:
        lexicon = Lexicon.load(task.source)
        players = [make_player(task.leave, lexicon), make_player(task.leave, lexicon)]
        _worker.update(key=key, compiled=Compiled(lexicon, players, best_scores=False))
    compiled = _worker["compiled"]
    alphabet = compiled.alphabet
    counts = Counts.empty(unseen_max(alphabet), task.max_spread)
    top = counts.turns.shape[0] - 1
    for index in range(task.start, task.stop):
        game = compiled.play(game_seed(task.seed, index))
        spread, unseen, result = turns_of(game.seat, game.kind, game.score, game.rack)
        col = np.clip(spread, -task.max_spread, task.max_spread) + task.max_spread
        row = np.minimum(unseen, top)
        np.add.at(counts.turns, (row, col), 1)
        np.add.at(counts.wins, (row, col), result)
        counts.games += 1
    return counts


def measure(source: str = "TWL06", games: int = 100_000, *, leave: str = "static",
            seed: int = 1, jobs: int | None = 1, max_spread: int = MAX_SPREAD,
            progress: Callable[[int, float], None] | None = None) -> tuple[Counts, float]:
    """Play ``games`` games of the static player ``leave`` against itself on
    ``jobs`` processes; returns the counts and the seconds it took."""
    lexicon = Lexicon.load(source)
    total = Counts.empty(unseen_max(lexicon.alphabet), max_spread)
    tasks = (_Task(source, leave, seed, a, min(a + GAMES_PER_TASK, games), max_spread)
             for a in range(0, games, GAMES_PER_TASK))
    t0 = time.perf_counter()
    for _index, counts in imap_tasks(play_task, tasks, jobs=jobs):
        total.add(counts)
        if progress is not None:
            progress(total.games, time.perf_counter() - t0)
    return total, time.perf_counter() - t0


def _windows(turns: np.ndarray, wins: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For spreads 0 to max of the symmetric counts ``turns``/``wins`` [unseen,
    spread >= 0]: each cell's window mean and the turns behind it (`smooth`).
    A window is the cell's spread +- h (h in `WIDTHS`) and unseen +- k (k in
    `SPANS`, 0 only at 8 unseen or fewer, never below 9 from above): the
    first of them, by max(h, 2 k) then h, that holds `TARGET` turns, else
    the widest."""
    rows, cols = turns.shape
    mean = np.full((rows, cols), 0.5)
    weight = np.zeros((rows, cols))
    centre = np.arange(1, cols) + cols - 1  # spreads 1 .. max in the mirrored row
    for u in range(rows):
        spans = [0] if u <= 8 else list(SPANS)
        sums = {}
        for k in spans:
            lo_u, hi_u = (u, u) if k == 0 else (max(9, u - k), min(rows - 1, u + k))
            t_col = turns[lo_u:hi_u + 1].sum(axis=0)
            w_col = wins[lo_u:hi_u + 1].sum(axis=0)
            # the spreads mirrored below 0 (s and -s are one pair already)
            t_full = np.concatenate([t_col[:0:-1], t_col])
            w_full = np.concatenate([t_col[:0:-1] - w_col[:0:-1], w_col])
            sums[k] = (np.concatenate([[0], np.cumsum(t_full)]),
                       np.concatenate([[0.0], np.cumsum(w_full)]))
        size = 2 * cols - 1
        done = np.zeros(cols - 1, bool)
        order = sorted(((h, k) for h in WIDTHS for k in spans),
                       key=lambda hk: (max(hk[0], 2 * hk[1]), hk[0]))
        for n_tried, (h, k) in enumerate(order):
            ct, cw = sums[k]
            lo, hi = np.maximum(0, centre - h), np.minimum(size, centre + h + 1)
            n, w = ct[hi] - ct[lo], cw[hi] - cw[lo]
            take = ~done & ((n >= TARGET) | (n_tried == len(order) - 1))
            take &= n > 0
            mean[u, 1:][take] = w[take] / n[take]
            weight[u, 1:][take] = n[take]
            done |= take
            if done.all():
                break
    return mean, weight


def isotonic(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The non-decreasing sequence nearest ``values`` in weighted least
    squares (pool adjacent violators)."""
    means: list[float] = []
    sizes: list[float] = []
    lengths: list[int] = []
    for v, w in zip(values.tolist(), weights.tolist(), strict=True):
        means.append(v)
        sizes.append(w)
        lengths.append(1)
        while len(means) > 1 and means[-2] > means[-1]:
            w2 = sizes[-2] + sizes[-1]
            m = (means[-2] * sizes[-2] + means[-1] * sizes[-1]) / w2 if w2 > 0 else \
                (means[-2] + means[-1]) / 2
            length = lengths[-2] + lengths[-1]
            del means[-1], sizes[-1], lengths[-1]
            means[-1], sizes[-1], lengths[-1] = m, w2, length
    return np.repeat(np.array(means), lengths)


def smooth(counts: Counts) -> np.ndarray:
    """The win-% table (float64 [unseen, 2 * max + 1], in %) from ``counts``:
    see the module's docstring."""
    rows, width = counts.turns.shape
    m = (width - 1) // 2
    pos_t = counts.turns[:, m:]
    neg_t = counts.turns[:, m::-1]
    pos_w = counts.wins[:, m:].astype(np.float64) / 2
    neg_w = counts.wins[:, m::-1].astype(np.float64) / 2
    turns = pos_t + neg_t  # s and -s together: a loss at -s is a win at s
    wins = pos_w + (neg_t - neg_w)
    turns[:, 0] = pos_t[:, 0]
    wins[:, 0] = pos_t[:, 0] / 2
    mean, weight = _windows(turns, wins)
    half = np.empty((rows, m + 1))
    for u in range(rows):
        w = weight[u].copy()
        w[0] = 1e12  # 50 % at 0, held
        w = np.maximum(w, 1e-9)
        col = isotonic(np.concatenate([[0.5], mean[u, 1:]]), w)
        half[u] = np.maximum(col, 0.5)
        half[u, 0] = 0.5
    half[0, 1:] = 1.0  # no tiles left to the opponent: the game is over
    half = np.round(100.0 * half, 2)
    return np.concatenate([np.round(100.0 - half[:, :0:-1], 2), half], axis=1)


def table_of(counts: Counts) -> WinTable:
    """`smooth`, as a `rackety.game.winpct.WinTable`."""
    return WinTable.from_array(smooth(counts), name="<measured>")
