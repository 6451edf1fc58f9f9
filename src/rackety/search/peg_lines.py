"""A pre-endgame candidate's line: the worlds it leads to, the endgames
that settle each world, and how their values make the candidate's.

A *world* is what the mover cannot see: which unseen tiles the opponent holds
and in which order the bag's tiles come out. Each world is played with full
information after the candidate (`rackety.search.preendgame` says why and what
that assumes). Values are spread changes for the mover, from the position
before the candidate to the end of the game.

- `EmptyingLine`: the candidate empties the bag (the mover draws every bag
  tile); a world is the multiset drawn, settled by one endgame, the opponent
  to move.
- `ReplyLine`: two tiles in the bag and the candidate draws one: the mover
  draws ``a`` and ``t`` stays in the bag, the opponent to move with its rack
  ``R`` (the unseen tiles less ``a`` and ``t``). The opponent either places
  tiles ``m`` (from ``R``) and draws ``t``, after which the endgame (the mover
  to move) depends on ``a`` and ``m`` only, both racks being then known; or
  passes, and the mover either passes back (the game ends: each player loses
  their rack's face value) or places ``m'`` and draws ``t``, an endgame with
  the opponent to move. The opponent takes the least of these for the mover,
  the mover after a pass the most.

A line lists its endgames as *tasks* (hashable keys), says what a task plays
(`spec`: the bag, the opponent's rack, the moves from the root position), and
makes its worlds' values from the values found (`worlds`). The endgames after
an opponent's pass are asked for only where the pass could be the opponent's
best (`needed`), one at a time per world, best-scoring first, until one of the
mover's answers is at least as good for the mover as the opponent's best
placement (the opponent would not pass then).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from rackety.game.state import plain_rows, points_of
from rackety.kernels.fields import M_DIR, M_FIRST, M_LANE, M_SCORE, META
from rackety.search.peg_draws import sequences, shuffled

if TYPE_CHECKING:
    from rackety.game.board import Board
    from rackety.game.move import Move
    from rackety.lexicon import Lexicon

#: a row of the generator: (meta [1, META] int32, word [1, n] uint8)
Row = tuple[np.ndarray, np.ndarray]
#: what a worker plays and solves: the bag (drawn from the end), the opponent's
#: rack, the moves from the root (a row, or None for a pass)
Spec = tuple[tuple[int, ...], tuple[int, ...], tuple[Row | None, ...]]
#: an endgame to search, by its key: (kind, the line's index, the tiles drawn, ...)
Task = tuple[Any, ...]
#: a found endgame: (value for the side to move, exact, depth searched)
Found = tuple[int, bool, int]
#: one world of a candidate: (tiles drawn, ways, spread change or None when not
#: searched yet, exact)
World = tuple[tuple[int, ...], int, int | None, bool]


def _row(meta: np.ndarray, word: np.ndarray, i: int) -> Row:
    return meta[i:i + 1], word[i:i + 1]


class Line:
    """One candidate's worlds and the endgames that settle them."""

    method = ""
    index: int
    move: Move

    def tasks(self) -> list[Task]:
        """The endgames known from the start, most useful first."""
        raise NotImplementedError

    def needed(self, found: dict[Task, Found]) -> list[Task]:
        """Endgames the values found so far call for (none by default)."""
        return []

    def record(self, key: Task) -> None:
        """A value for ``key`` was found (or replaced by a deeper one)."""

    def spec(self, key: Task) -> Spec:
        raise NotImplementedError

    def worlds(self, found: dict[Task, Found]) -> list[World]:
        raise NotImplementedError

    @property
    def count(self) -> int:
        """How many worlds the line has."""
        raise NotImplementedError


class EmptyingLine(Line):
    """A candidate that empties the bag: one endgame per draw (the multiset the
    mover draws), the opponent to move. ``draws``: (multiset, ways); a sample
    when ``method`` is ``"sampled"`` (ways: how often it came up)."""

    def __init__(self, index: int, move: Move, row: Row, draws: list[tuple[tuple[int, ...], int]],
                 opponent: Callable[[tuple[int, ...]], tuple[int, ...]], *,
                 sampled: bool = False, seed: int = 0) -> None:
        self.index, self.move, self.row = index, move, row
        self.draws = draws
        self.opponent = opponent
        self.method = "sampled" if sampled else "endgames"
        self.order = shuffled([d for d, _ in draws], seed + index)

    def tasks(self) -> list[Task]:
        return [("out", self.index, d) for d in self.order]

    def spec(self, key: Task) -> Spec:
        drawn = key[2]
        return tuple(drawn), self.opponent(drawn), (self.row,)

    def worlds(self, found: dict[Task, Found]) -> list[World]:
        out: list[World] = []
        score = self.move.score or 0
        for drawn, ways in self.draws:
            hit = found.get(("out", self.index, drawn))
            if hit is None:
                out.append((drawn, ways, None, False))
            else:
                out.append((drawn, ways, score - hit[0], hit[1]))
        return out

    @property
    def count(self) -> int:
        return len(self.draws)


@dataclass
class _Draw:
    """What follows the mover's draw ``a`` in a `ReplyLine`."""

    worlds: list[tuple[int, int, tuple[int, ...]]]  # (bag tile t, ways, opponent's rack)
    replies: list[tuple[int, frozenset[int]]]  # (score, the bag tiles t it is legal with)
    reply_rows: tuple[np.ndarray, np.ndarray]
    answers: list[int]  # the mover's placements after a pass: scores, best first
    answer_rows: tuple[np.ndarray, np.ndarray]
    rack: tuple[int, ...]  # the mover's rack after the draw


class ReplyLine(Line):
    """A candidate that draws one of two bag tiles: every draw, every reply of
    the opponent, the pass and what follows it (module docstring)."""

    method = "replies"

    def __init__(self, index: int, move: Move, row: Row, draws: dict[int, _Draw],
                 points: np.ndarray) -> None:
        self.index, self.move, self.row = index, move, row
        self.draws = draws
        self.points = points
        self.missing = {a: {("reply", index, a, j) for j in range(len(d.replies))}
                        for a, d in draws.items()}
        self._place: dict[tuple[int, int], tuple[int | None, bool, bool]] = {}

    def tasks(self) -> list[Task]:
        # every draw's replies, best-scoring first, taken in turn
        out = []
        longest = max((len(d.replies) for d in self.draws.values()), default=0)
        for j in range(longest):
            for a, d in self.draws.items():
                if j < len(d.replies):
                    out.append(("reply", self.index, a, j))
        return out

    def record(self, key: Task) -> None:
        kind, _, a = key[:3]
        if kind == "reply":
            self.missing[a].discard(key)
            for t, _, _ in self.draws[a].worlds:
                self._place.pop((a, t), None)

    def spec(self, key: Task) -> Spec:
        kind, _, a = key[:3]
        d = self.draws[a]
        if kind == "reply":
            j = key[3]
            t = min(d.replies[j][1])  # any world the reply is legal in: the same endgame
            rack = next(r for tt, _, r in d.worlds if tt == t)
            return (t, a), rack, (self.row, _row(*d.reply_rows, j))
        t, j = key[3], key[4]
        rack = next(r for tt, _, r in d.worlds if tt == t)
        return (t, a), rack, (self.row, None, _row(*d.answer_rows, j))

    def _placements(self, found: dict[Task, Found], a: int, t: int
                    ) -> tuple[int | None, bool, bool]:
        """The opponent's best placement in world (a, t), for the mover: (value
        or None when it has none found, exact, complete)."""
        hit = self._place.get((a, t))
        if hit is not None:
            return hit
        best: int | None = None
        exact = complete = True
        for j, (score, legal) in enumerate(self.draws[a].replies):
            if t not in legal:
                continue
            f = found.get(("reply", self.index, a, j))
            if f is None:
                complete = exact = False
                continue
            value = f[0] - score
            best = value if best is None else min(best, value)
            exact = exact and f[1]
        self._place[(a, t)] = (best, exact, complete)
        return best, exact, complete

    def _pass(self, found: dict[Task, Found], a: int, t: int, place: int | None,
              rack: tuple[int, ...]) -> tuple[int | None, bool, Task | None]:
        """The opponent's pass in world (a, t) for the mover: (its value, or None
        when the opponent's best placement is no worse for it than passing; exact;
        the next endgame it needs, None when settled)."""
        d = self.draws[a]
        passed = sum(int(self.points[c]) for c in rack) - \
            sum(int(self.points[c]) for c in d.rack)
        if place is not None and place <= passed:
            return None, True, None  # the pass is worth at least this to the mover
        best, exact = passed, True
        for j, score in enumerate(d.answers):
            key = ("pass", self.index, a, t, j)
            f = found.get(key)
            if f is None:
                return best, False, key
            best = max(best, score - f[0])
            exact = exact and f[1]
            if place is not None and best >= place:
                break
        return best, exact, None

    def needed(self, found: dict[Task, Found]) -> list[Task]:
        out = []
        for a, d in self.draws.items():
            if self.missing[a]:
                continue
            for t, _, rack in d.worlds:
                place, _, _ = self._placements(found, a, t)
                _, _, key = self._pass(found, a, t, place, rack)
                if key is not None:
                    out.append(key)
        return out

    def worlds(self, found: dict[Task, Found]) -> list[World]:
        out: list[World] = []
        score = self.move.score or 0
        for a, d in self.draws.items():
            for t, ways, rack in d.worlds:
                place, exact, complete = self._placements(found, a, t)
                value: int | None = place
                if complete:
                    passed, pass_exact, key = self._pass(found, a, t, place, rack)
                    if passed is not None:
                        if key is None or place is None:  # unsettled: its lower bound
                            value = passed if place is None else min(place, passed)
                        exact = exact and pass_exact and key is None
                else:
                    exact = False
                out.append(((a, t), ways, None if value is None else score + value, exact))
        return out

    @property
    def count(self) -> int:
        return sum(len(d.worlds) for d in self.draws.values())


def reply_line(index: int, move: Move, row: Row, board: Board, lexicon: Lexicon,
               unseen: Counter[int], opponent: Sequence[int]) -> ReplyLine:
    """The `ReplyLine` of ``move`` (a placement drawing one of the two bag tiles)
    on ``board``: ``unseen`` the tiles the mover does not see (the bag, and
    the opponent's rack unless ``opponent`` gives it). The replies are the
    generator's rows, never `Move` objects: a world has thousands of them."""
    after = board.play(move)
    leave = list(after.racks[-1])  # the mover's rack after the move, before the draw
    # the mover's draw a, then the tile t left in the bag, of the unseen tiles (with the
    # opponent's rack known, the unseen tiles are the bag's two)
    orders = sequences(unseen, 2)
    worlds: dict[int, list[tuple[int, int, tuple[int, ...]]]] = {}
    for (a, t), ways in orders:
        rack = tuple(opponent) if opponent else \
            tuple(sorted((unseen - Counter((a, t))).elements()))
        worlds.setdefault(a, []).append((t, ways, rack))
    draws = {}
    for a, ws in worlds.items():
        mine = tuple(leave + [a])
        # the opponent's placements in each world, each placement once, with the
        # bag tiles t it is legal with
        found = [(t, _plain_rows(after.copy(racks=[rack, mine]), lexicon)) for t, _, rack in ws]
        metas = np.concatenate([m for _, (m, _w) in found])
        words = np.concatenate([w for _, (_m, w) in found])
        tiles_left = np.concatenate([np.full(len(m), t, np.int64) for t, (m, _w) in found])
        key = np.ascontiguousarray(np.concatenate(
            [metas.view(np.uint8).reshape(len(metas), 4 * META), words], axis=1))
        _, first, inverse = np.unique(key.view(np.dtype((np.void, key.shape[1]))).ravel(),
                                      return_index=True, return_inverse=True)
        legal: list[set[int]] = [set() for _ in first]
        for u, tile in zip(inverse.ravel().tolist(), tiles_left.tolist(), strict=True):
            legal[u].add(tile)
        order = np.lexsort((np.arange(len(first)), -metas[first, M_SCORE]))
        reply_meta, reply_words = metas[first[order]], words[first[order]]
        replies = [(int(s), frozenset(legal[u]))
                   for u, s in zip(order.tolist(), reply_meta[:, M_SCORE].tolist(), strict=True)]
        answer_meta, answer_words = _plain_rows(after.copy(racks=[mine, ws[0][2]]), lexicon)
        draws[a] = _Draw(ws, replies, (reply_meta, reply_words),
                         answer_meta[:, M_SCORE].tolist(), (answer_meta, answer_words), mine)
    return ReplyLine(index, move, row, draws, points_of(board.alphabet))


def _plain_rows(board: Board, lexicon: Lexicon) -> tuple[np.ndarray, np.ndarray]:
    """The placements of ``board``'s player to move as plain rows (the
    columns `rows_of` writes, the words' squares past their length 0), the
    best score first, in a fixed order among equal scores."""
    moves = board.moves(lexicon, mode="all", exchanges=False, leave=None)
    meta, words = plain_rows(moves.meta, moves.tiles)
    order = np.lexsort((meta[:, M_FIRST], meta[:, M_LANE], meta[:, M_DIR], -meta[:, M_SCORE]))
    return meta[order], words[order]


__all__ = ["EmptyingLine", "Line", "ReplyLine", "reply_line"]
