"""Move generation: every legal tile placement of a position with its exact
score, the exchanges and the pass, by Gordon's GADDAG algorithm (default) or
Appel and Jacobson's DAWG algorithm.

>>> from rackety import Board, Lexicon
>>> lexicon = Lexicon.from_words(["PANDY", "PAY", "AY", "YA", "DAY"])
>>> board = Board.from_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AADNPUY/ 0/0 0")
>>> moves = board.moves(lexicon)
>>> moves.count, moves.best_score
(15, 30)
>>> board.notation(moves.best())
'8H PANDY'

The kernels (`kernels.py`, `crosssets.py`) write into preallocated numpy arrays;
`Move` objects are only made when a `MoveList` is indexed.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, Protocol, get_args, overload, runtime_checkable

import numpy as np

from rackety import reprs
from rackety.alphabet import BLANK_FLAG, Alphabet
from rackety.errors import RacketyError
from rackety.game.move import Move, format_leave
from rackety.game.rules import VARIANTS, Variant
from rackety.game.state import CrossSets, board_consts, full_mask, move_of_row, points_of
from rackety.kernels import crosssets as _cs
from rackety.kernels import fields as _f
from rackety.kernels import generate as _k
from rackety.kernels import wordsmog as _ws
from rackety.lexicon.klv import Klv

if TYPE_CHECKING:
    from rackety.game.position import Position
    from rackety.lexicon import Lexicon

#: the graph the classic generator walks: the GADDAG, or the DAWG alone (slower)
Generator = Literal["gaddag", "dawg"]
GENERATORS: tuple[str, ...] = get_args(Generator)
#: what `generate` lists: every move, the top N, the best, or only the count
Mode = Literal["all", "top", "best", "count"]
MODES: tuple[str, ...] = get_args(Mode)
_INITIAL_CAP = 1 << 16
_MAX_LEAVES = 1 << 16  # leave indices of a rack: the product of (copies + 1) over its codes


# ----------------------------------------------------------------- derived data
def variant_lexicon(lexicon: Lexicon, variant: Variant) -> Lexicon:
    """The lexicon whose graph the kernels walk under the rules' ``variant``:
    ``lexicon`` itself (classic), or its alphagrams (WordSmog,
    `Lexicon.alphagrams`: its `Lexicon.graph` makes the cross sets
    WordSmog's). The compiled players and searches take its ``nodes`` and
    ``graph``, and its generator's cross sets (`MoveGenerator.of`)."""
    return lexicon.alphagrams() if variant == "wordsmog" else lexicon


def cross_sets(grid: np.ndarray, lexicon: Lexicon) -> CrossSets:
    """Cross sets of a board from scratch (WordSmog's for a lexicon of
    alphagrams, `variant_lexicon`)."""
    tiles, cross = _cs.of_grid(lexicon.nodes, lexicon.graph, np.asarray(grid, np.uint8),
                               points_of(lexicon.alphabet), full_mask(lexicon.alphabet))
    return CrossSets(tiles, cross)


def update_cross_sets(parent: CrossSets, move: Move, lexicon: Lexicon) -> CrossSets:
    """The cross sets after ``move``: a copy of ``parent`` where only the lanes
    the move touched are recomputed."""
    child = parent.copy()
    if move.kind != "place":
        return child
    d = 1 if move.down else 0
    lane, first = (move.col, move.row) if move.down else (move.row, move.col)
    for i, (code, through) in enumerate(zip(move.tiles, move.through, strict=True)):
        if not through:
            child.tiles[d, lane, first + i] = code
            child.tiles[1 - d, first + i, lane] = code
    _cs.update_after_move(lexicon.nodes, lexicon.graph, child.tiles, d, lane, first,
                          first + len(move.tiles) - 1, points_of(lexicon.alphabet),
                          full_mask(lexicon.alphabet), child.cross,
                          _cs.root_nodes(lexicon.nodes, lexicon.graph))
    return child


class MoveGenerator:
    """The move generator of one lexicon (`of`), as wolges keeps one
    ``KurniaMoveGenerator`` per lexicon: it owns what it derives from a
    position, the cross sets of the boards it saw (by their tiles, the
    `CACHED` made last, some 19 KB each on 15x15), so a position
    (`rackety.game.board.Board`) holds nothing of a lexicon, and the buffers
    its kernels work in (``buffers``: each thread's own, made once and grown
    as needed). `moves` is `generate`; the referee hands it the cross sets its
    compiled game keeps (`adopt`), and a position played from one it knows
    gets them updated lane by lane (`after`). Thread-safe."""

    CACHED = 256
    _made_lock = threading.Lock()

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        self._cross: OrderedDict[bytes, CrossSets] = OrderedDict()  # the oldest first
        self._lock = threading.Lock()
        self.buffers = _Buffers()  # the kernels' state, scratch and output, per thread

    @classmethod
    def of(cls, lexicon: Lexicon) -> MoveGenerator:
        """The generator of ``lexicon`` (one per lexicon object, made on first use
        and kept with it)."""
        made = getattr(lexicon, "_move_generator", None)
        if made is None:
            with cls._made_lock:
                made = getattr(lexicon, "_move_generator", None)
                if made is None:
                    made = cls(lexicon)
                    lexicon._move_generator = made  # type: ignore[attr-defined]
        return made

    @staticmethod
    def _key(position: Position) -> bytes:
        # the tiles, a byte a square (their number says the board's size)
        return position.grid.tobytes()

    def _keep(self, key: bytes, xs: CrossSets) -> None:
        with self._lock:
            self._cross[key] = xs
            self._cross.move_to_end(key)
            while len(self._cross) > self.CACHED:
                self._cross.popitem(last=False)  # the oldest kept

    def cross_sets(self, position: Position) -> CrossSets:
        """The cross sets of ``position``'s tiles for the lexicon, computed once
        per board (shared: copy them to change them)."""
        key = self._key(position)
        hit = self._cross.get(key)  # a dict read is atomic: no lock to find one
        if hit is not None:
            return hit
        xs = cross_sets(position.grid, self.lexicon)
        self._keep(key, xs)
        return xs

    def adopt(self, position: Position, xs: CrossSets) -> None:
        """Take ``xs`` as the cross sets of ``position``'s tiles (the referee's,
        copied from its compiled game; the generator keeps them)."""
        self._keep(self._key(position), xs)

    def after(self, position: Position, move: Move, child: Position) -> None:
        """``child`` is ``position`` after ``move``: if the generator knows the
        cross sets of ``position``, it derives the child's from them (only the
        lanes the move touched recomputed)."""
        if move.kind != "place":
            return
        with self._lock:
            parent = self._cross.get(self._key(position))
        if parent is not None:
            xs = update_cross_sets(parent, move, self.lexicon)
            self._keep(self._key(child), xs)

    def forget(self) -> None:
        """Drop every cross set kept (a benchmark's cold start)."""
        with self._lock:
            self._cross.clear()

    def moves(self, position: Position, **options: Any) -> MoveList:
        """The moves of the player to move (`generate`, its options)."""
        return generate(position, self.lexicon, **options)


# ------------------------------------------------------------------- leaves
@runtime_checkable
class LeaveModel(Protocol):
    """Leave values for every subset of a rack at once, the fast way to give
    `generate` a leave evaluation (a KLV table, Gordon's heuristics, ...).

    ``rack_values(alphabet, rack)`` returns a float64 array indexed by the
    rack's *leave index*: the distinct codes of the rack in ascending order are
    the digits of a mixed-radix number, code c with radix (copies of c) + 1, and
    the index of a leave is the sum over c of (copies of c kept) x (product of
    the radices of the codes before c). `leave_subsets` lists the kept counts in
    that order."""

    def rack_values(self, alphabet: Alphabet, rack: Sequence[int]) -> np.ndarray: ...


def _radices(rack: Sequence[int]) -> list[tuple[int, int, int]]:
    """The digits of the rack's leave index (`rackety.kernels.leaves.places`):
    (code, place value, radix: copies + 1) per distinct code, ascending."""
    counts = Counter(int(c) for c in rack)
    out = []
    place = 1
    for c in sorted(counts):
        out.append((c, place, counts[c] + 1))
        place *= counts[c] + 1
    return out


def leave_subsets(rack: Sequence[int]) -> tuple[list[int], np.ndarray]:
    """The distinct codes of ``rack`` (ascending) and, for every leave index,
    how many copies of each are kept: an int64 array ``[indices, codes]``."""
    digits = _radices(rack)
    size = 1
    for _c, _place, radix in digits:
        size *= radix
    index = np.arange(size)
    kept = np.zeros((size, len(digits)), np.int64)
    for j, (_c, place, radix) in enumerate(digits):
        kept[:, j] = (index // place) % radix
    return [c for c, _place, _radix in digits], kept


@runtime_checkable
class LeaveTable(Protocol):
    """A leave model held as a table (a `rackety.lexicon.klv.Klv`, so any
    `rackety.game.leaves.Leaves`): it writes a rack's leave values straight into
    the generator's array, by the kernels' one leave walk."""

    def values_into(self, alphabet: Alphabet, counts: np.ndarray, out: np.ndarray) -> int: ...


LeaveFunction = Callable[[str], float] | Mapping[str, float] | LeaveModel


class _Leaves:
    """A rack's leaves in the kernels' one leave index (`rackety.kernels.leaves`):
    the digits of the mixed-radix number are the rack's distinct codes."""

    __slots__ = ("_digits", "rack", "values")

    def __init__(self, rack: Sequence[int], values: np.ndarray) -> None:
        self.rack = rack
        self.values = values  # leave value per index
        self._digits: list[tuple[int, int, int]] | None = None

    def leave_of(self, index: int) -> tuple[int, ...]:
        """The tiles kept at a leave index."""
        if self._digits is None:
            self._digits = _radices(self.rack)
        out: list[int] = []
        for c, place, radix in self._digits:
            out += [c] * ((index // place) % radix)
        return tuple(out)


def _given_values(alphabet: Alphabet, rack: Sequence[int], leave: LeaveFunction) -> np.ndarray:
    """The leave values of a rack by leave index, from a leave model that is not a
    table (a `LeaveModel`, a function of the leave's text, a mapping)."""
    leaves = _Leaves(rack, np.zeros(0))
    size = 1
    for _c, _place, radix in _radices(rack):
        size *= radix
    if isinstance(leave, LeaveModel):
        values = np.asarray(leave.rack_values(alphabet, rack), np.float64)
        if values.shape != (size,):
            raise RacketyError(f"leave model gave {values.shape} values for a rack with {size} "
                               "leaves")
        return values
    leaves.values = np.zeros(size)
    lookup = leave.get if isinstance(leave, Mapping) else leave
    for index in range(1, size):
        kept = leaves.leave_of(index)
        leaves.values[index] = float(lookup(format_leave(alphabet, kept)) or 0.0)
    return leaves.values


# ------------------------------------------------------------------- buffers
#: what `_Buffers.of` hands: state, floats, scratch and output (meta, tiles, equity)
_Set = tuple[np.ndarray, np.ndarray, tuple[np.ndarray, ...],
             tuple[np.ndarray, np.ndarray, np.ndarray]]


class _Buffers(threading.local):
    """A generator's buffers in each thread, made once and kept (a
    `MoveGenerator` owns one): the state (`kernels.fields`)
    per top N, the scratch per board side (`kernels.generate.scratch`), and the
    output rows, grown as needed and shared. `of` hands the scratch and the
    output as plain tuples, as the kernels take them (`kernels.generate.moves_of`)."""

    def __init__(self) -> None:
        self.sets: dict[tuple[int, int], _Set] = {}
        self.states: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.scratches: dict[int, tuple[np.ndarray, ...]] = {}
        self.out: tuple[np.ndarray, np.ndarray, np.ndarray] = (
            np.empty((0, _f.META), np.int32), np.empty((0, 0), np.uint8), np.empty(0, np.float64))

    def of(self, topn: int, n: int, cap: int) -> _Set:
        """(state, floats, scratch, out) for a top-``topn`` search on an ``n`` x
        ``n`` board, with room for at least ``cap`` moves."""
        hit = self.sets.get((topn, n))
        if hit is not None and len(hit[3][0]) >= cap:
            return hit
        meta, tiles, _eq = self.out
        if cap > len(meta) or n > tiles.shape[1]:
            cap, width = max(cap, len(meta)), max(n, tiles.shape[1])
            self.out = (np.empty((cap, _f.META), np.int32), np.empty((cap, width), np.uint8),
                        np.empty(cap, np.float64))
            self.sets.clear()
        if topn not in self.states:
            self.states[topn] = (np.zeros(_f.ST_SIZE, np.int64),
                                 np.zeros(_f.F_HEAP + topn + _MAX_LEAVES, np.float64))
        if n not in self.scratches:
            self.scratches[n] = tuple(_k.scratch(n))
        hit = self.sets[(topn, n)] = (*self.states[topn], self.scratches[n], self.out)
        return hit


# ------------------------------------------------------------------ results
#: `Board.moves`'s keyword arguments and their defaults, in order (`MoveList.made`)
MOVES_ARGUMENTS = (("mode", "all"), ("top", 10), ("leave", "static"), ("generator", "gaddag"),
                   ("exchanges", True), ("exact_best_score", False), ("static", True),
                   ("variant", None))


class MoveList(Sequence[Move]):
    """The moves of a position, best first (equity, then score), tile placements
    followed in equal equity by exchanges and the pass; in the top and best
    modes, the first ``top`` of them (one in the best mode). Indexing makes
    `Move` objects. `count` and `best_score` are those of every legal tile
    placement of the position, whatever the mode (found again, once, when the
    mode's search did not need them).

    Arrays (one row per placement the search kept, ties at the top mode's cut
    included, sorted): ``meta`` (int32: direction, lane, first square, length,
    tiles placed, score, played-through mask, leave index), ``tiles`` (uint8,
    the main word) and ``equity``."""

    def __init__(self, board: Position, meta: np.ndarray, tiles: np.ndarray,
                 equity: np.ndarray, leaves: _Leaves, others: int, cut: float, count: int,
                 best_score: int | None, stats: Sequence[int], *, limit: int | None = None,
                 recount: Callable[[], tuple[int, int | None]] | None = None,
                 best_exact: bool = True) -> None:
        """``count`` and ``best_score`` are the search's; ``recount``, when the
        count is not the position's (the top and best modes), finds it and the
        best score, which ``best_exact`` says whether the search found."""
        self.board = board
        self._meta, self._tiles, self._equity = meta, tiles, equity
        self._sorted = False
        self._leaves = leaves
        self._other_kinds = others  # 0: none, 1: the pass, 2: the pass and the exchanges
        self._cut = cut  # the top mode's cut: exchanges and the pass below it are not listed
        self._others_list: list[_Other] | None = None
        self._count, self._best_score = count, best_score
        self._recount = recount
        self._best_exact = best_exact or recount is None
        self._limit = limit
        self._stats = stats
        self._merged: list[tuple[int, int]] | None = None
        # the call that made the list (`Board.moves` sets it: the board, the
        # lexicon and its arguments, in `MOVES_ARGUMENTS` order), for `repr`; else None
        self.made: tuple[Position, Lexicon, tuple[Any, ...]] | None = None

    @property
    def count(self) -> int:  # type: ignore[override]  # a count, not `Sequence.count`
        """How many legal tile placements the position has (exchanges and the
        pass aside)."""
        if self._recount is not None:
            self._count, best = self._recount()
            if not self._best_exact:
                self._best_score = best
            self._recount = None
            self._best_exact = True
        return self._count

    @property
    def best_score(self) -> int | None:
        """The best score of a legal tile placement of the position (None when
        there is none)."""
        if not self._best_exact:
            self.count  # noqa: B018  (found with the count)
        return self._best_score

    @property
    def stats(self) -> dict[str, int]:
        """The search's counts: anchors searched, anchors in all, moves found
        above a bound (0 unless a bound is wrong), and the tile placements the
        search kept (the rows of the arrays)."""
        out = dict(zip(("anchors", "anchors_total", "over_bound"), self._stats, strict=True))
        out["kept"] = len(self._meta)
        return out

    @property
    def _others(self) -> list[_Other]:
        """The exchanges and the pass, made on first use: each leave index but the
        whole rack's is one exchange (each multiset once), its equity the value
        of the tiles kept; the pass keeps them all."""
        if self._others_list is None:
            values = self._leaves.values.tolist()
            full = len(values) - 1
            out: list[_Other] = []
            if self._other_kinds:
                out.append((values[full], False, full))
            if self._other_kinds == 2:
                allowed = self._exchangeable()
                out.extend((values[i], True, i) for i in range(full) if allowed[i])
            self._others_list = [o for o in out if o[0] >= self._cut]
        return self._others_list

    def _exchangeable(self) -> np.ndarray:
        """Which leave indices (but the whole rack's) an exchange may keep: it
        trades no more tiles than the bag holds (`kernels.generate.may_exchange`)."""
        rack = self._leaves.rack
        full = len(self._leaves.values) - 1
        bag = self.board.bag_count
        if bag >= len(rack):
            return np.ones(full, bool)
        return np.array([len(rack) - len(self._leaves.leave_of(i)) <= bag for i in range(full)],
                        bool)

    def _sort(self) -> None:
        """Sort the placements, best first, on first use: generation itself
        leaves them in the order found."""
        if not self._sorted:
            meta, equity = self._meta, self._equity
            order = np.lexsort((meta[:, _f.M_FIRST], meta[:, _f.M_LANE], meta[:, _f.M_DIR],
                                -meta[:, _f.M_SCORE], -equity))
            self._meta, self._tiles, self._equity = meta[order], self._tiles[order], \
                equity[order]
            self._sorted = True

    @property
    def meta(self) -> np.ndarray:
        self._sort()
        return self._meta

    @property
    def tiles(self) -> np.ndarray:
        self._sort()
        return self._tiles

    @property
    def equity(self) -> np.ndarray:
        self._sort()
        return self._equity

    def _order(self) -> list[tuple[int, int]]:
        if self._merged is None:
            self._others.sort(key=lambda o: -o[0])
            merged: list[tuple[int, int]] = []
            i = j = 0
            while i < len(self.meta) or j < len(self._others):
                if j == len(self._others) or (
                        i < len(self.meta) and self.equity[i] >= self._others[j][0]):
                    merged.append((0, i))
                    i += 1
                else:
                    merged.append((1, j))
                    j += 1
            self._merged = merged
        return self._merged

    def __len__(self) -> int:
        size = len(self._meta) + len(self._others)
        return size if self._limit is None else min(size, self._limit)

    @property
    def exchange_count(self) -> int:
        """How many exchanges the list holds (each multiset of tiles once)."""
        if self._other_kinds != 2:
            return 0
        return int(np.count_nonzero((self._leaves.values[:-1] >= self._cut)
                                    & self._exchangeable()))

    def placement(self, i: int) -> Move:
        """The ``i``-th tile placement (best first)."""
        row = self.meta[i]
        return move_of_row(row, self.tiles[i], self.board.alphabet,
                           equity=float(self.equity[i]),
                           leave=self._leaves.leave_of(int(row[_f.M_LIDX])))

    def _other(self, j: int) -> Move:
        return self._other_move(self._others[j])

    def _other_move(self, other: _Other) -> Move:
        equity, is_exchange, index = other
        kept = self._leaves.leave_of(index)
        traded: tuple[int, ...] = ()
        if is_exchange:
            rest = Counter(int(c) for c in self.board.rack) - Counter(kept)
            traded = tuple(sorted(rest.elements()))
        return Move("exchange" if is_exchange else "pass", tiles=traded, score=0,
                    equity=equity, leave=kept, alphabet=self.board.alphabet)

    @overload
    def __getitem__(self, i: int) -> Move: ...

    @overload
    def __getitem__(self, i: slice) -> list[Move]: ...

    def __getitem__(self, i: int | slice) -> Move | list[Move]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError("move index out of range")
        kind, j = self._order()[i]
        return self.placement(j) if kind == 0 else self._other(j)

    def __iter__(self) -> Iterator[Move]:
        for i in range(len(self)):
            yield self[i]

    def best(self) -> Move | None:
        """The move of highest equity (a placement when one ties an exchange): the
        first of the list, found without ordering the rest."""
        if self._merged is not None or self._sorted:
            return self[0] if len(self) else None
        equity = self._equity
        other = None
        if self._other_kinds:
            values = self._leaves.values
            full = len(values) - 1
            if self._other_kinds == 2 and full > 0:
                trades = values[:-1]
                if self.board.bag_count < len(self._leaves.rack):  # not every trade fits
                    trades = np.where(self._exchangeable(), trades, -np.inf)
                j = int(np.argmax(trades))  # the first exchange of the best value
                if trades[j] > -np.inf:
                    other = (float(values[j]), True, j)
            if other is None or values[full] >= other[0]:  # the pass comes first in a tie
                other = (float(values[full]), False, full)
            if other[0] < self._cut:
                other = None
        if len(equity):
            top = equity.max()
            if other is None or top >= other[0]:
                ties = np.flatnonzero(equity == top)
                if len(ties) > 1:  # as `_sort` orders them: score, direction, lane, square
                    meta = self._meta[ties]
                    order = np.lexsort((meta[:, _f.M_FIRST], meta[:, _f.M_LANE],
                                        meta[:, _f.M_DIR], -meta[:, _f.M_SCORE]))
                    ties = ties[order]
                i = int(ties[0])
                return move_of_row(self._meta[i], self._tiles[i], self.board.alphabet,
                                   equity=float(equity[i]),
                                   leave=self._leaves.leave_of(int(self._meta[i, _f.M_LIDX])))
        if other is None:
            return None
        return self._other_move(other)

    def find(self, move: Move) -> Move | None:
        """``move`` as the list holds it (with its score, equity and leave), or
        None when it does not; a placement is looked up in the rows by its
        lane and square, the others among the exchanges and the pass, so no
        other move of the list is made."""
        if move.kind == "place":
            meta = self.meta
            if not len(meta):
                return None
            lane, first = (move.col, move.row) if move.down else (move.row, move.col)
            hits = np.flatnonzero((meta[:, _f.M_DIR] == int(move.down))
                                  & (meta[:, _f.M_LANE] == lane)
                                  & (meta[:, _f.M_FIRST] == first)
                                  & (meta[:, _f.M_LEN] == len(move.tiles)))
            for i in hits:
                found = self.placement(int(i))
                if found == move:
                    return found
            return None
        traded = sorted(move.tiles)
        for other in self._others:
            if other[1] == (move.kind == "exchange"):
                found = self._other_move(other)
                if found.kind == "pass" or sorted(found.tiles) == traded:
                    return found
        return None

    def placements(self) -> list[Move]:
        """Every tile placement in the list, best first."""
        if self._limit is None:
            return [self.placement(i) for i in range(len(self.meta))]
        return [self.placement(j) for kind, j in self._order()[:len(self)] if kind == 0]

    def top_scoring(self) -> list[Move]:
        """Every tile placement with the best score."""
        if self.best_score is None:
            return []
        hits = np.flatnonzero(self.meta[:, _f.M_SCORE] == self.best_score)
        return [self.placement(int(i)) for i in hits]

    def __eq__(self, other: object) -> bool:
        """The same moves (with their scores and equities) of the same position,
        and the same count of placements."""
        if not isinstance(other, MoveList):
            return NotImplemented
        if self is other:
            return True
        if self.board != other.board or len(self) != len(other) or self.count != other.count:
            return False
        mine, theirs = list(self), list(other)
        return mine == theirs and [m.equity for m in mine] == [m.equity for m in theirs]

    __hash__ = None  # type: ignore[assignment]  # equal lists need not be one list

    def __repr__(self) -> str:
        """The `Board.moves` call that makes the list again (it evaluates back to
        an equal list), else a summary in angle brackets: a list from
        `generate`, or of a leave function that has no expression."""
        if self.made is not None:
            board, lexicon, values = self.made
            given = {name: value for (name, default), value
                     in zip(MOVES_ARGUMENTS, values, strict=True)
                     if value is not default and value != default
                     and (name != "top" or values[0] == "top")}
            head = reprs.pasteable(board)
            text = None if head is None else reprs.call(f"{head}.moves", lexicon, **given)
            if text is not None:
                return text
        return f"<MoveList of {self}>"

    def __str__(self) -> str:
        """How many moves, and the first three: ``5284 moves: J5 TRE(N)DIlY, 9G
        YID, 9G DEY, ... 5281 more``."""
        shown = ", ".join(m.notation(self.board.alphabet) for m in self[:3])
        more = f", ... {len(self) - 3} more" if len(self) > 3 else ""
        return f"{len(self)} moves: {shown}{more}"


# --------------------------------------------------------------- generation
def generate(board: Position, lexicon: Lexicon, *, mode: Mode = "all", top: int = 10,
             leave: LeaveFunction | None = None, generator: Generator = "gaddag",
             exchanges: bool = True, exact_best_score: bool = False,
             static: bool = True, variant: Variant | None = None) -> MoveList:
    """The moves of the player to move.

    ``mode``: ``all`` every move; ``top`` the ``top`` best by equity (the
    arrays keep the ties at the cut, the list shows ``top``), skipping anchors
    whose upper bound cannot reach them; ``best`` the same with one; ``count``
    only the count and best score. ``leave``: the value of a rack leave, a
    function of its text (``"AEU?"``) or a mapping; zero by default (the
    public `Board.moves` defaults to the lexicon's table). Equity = score +
    leave value, and with ``static`` (the default; it needs a leave) full
    static equity, as the static players
    count it (`rackety.kernels.generate.static_equity`): once the bag is empty
    the leave's value is what the endgame makes of it (the play-out's spread
    for going out, `rackety.kernels.rules.out_spread` of the other racks'
    points; that of the points kept, and 10 more, otherwise), and an
    opening pays for its vowels beside premium squares. ``exact_best_score``
    makes the search find ``best_score`` in the top and best modes too (else it
    is found on first use by a second, counting pass; it always is in
    the others), at the price of searching the anchors that might hold it.
    ``variant`` (default: the position's rules', `Board.rules`): ``classic``,
    or ``wordsmog``, where every word a play forms
    need only be an anagram of a word (`rackety.kernels.wordsmog`, over the
    lexicon's alphagrams; ``generator`` is then not used, any lexicon
    serves, and ``best_score`` is always exact)."""
    alphabet = board.alphabet
    kernel_mode = _KERNEL_MODES.get(mode)
    which = _WHICH.get(generator)
    rules = board.rules
    if variant is None:
        variant = rules.variant
    wordsmog = variant == "wordsmog"
    if kernel_mode is None or which is None or alphabet.size > 63 or \
            lexicon.alphabet.identity != alphabet.identity or variant not in VARIANTS or \
            (which == _k.GADDAG and not lexicon.has_gaddag and not wordsmog):
        _refuse(board, lexicon, mode, generator, variant)
    rack = board.rack
    if leave is None:
        kind, tables, given = _k.LEAVES_NONE, _NO_TABLE, _NONE
    elif isinstance(leave, Klv):
        if leave.alphabet.identity != alphabet.identity:
            raise RacketyError(f"{leave.source}: leave values are in alphabet "
                               f"{leave.alphabet.name}, the rack in {alphabet.name}")
        kind, tables, given = _k.LEAVES_TABLE, (leave.nodes, leave.counts, leave.values), _NONE
    else:
        kind, tables, given = _k.LEAVES_GIVEN, _NO_TABLE, _given_values(alphabet, rack, leave)
    if static and leave is not None:
        bag, other = static_terms(board)
        in_bag = bag
    else:
        bag, other = -1, 0
        in_bag = board.bag_count
    can_exchange = exchanges and len(rack) > 0 and kernel_mode != _f.MODE_COUNT and \
        rules.may_exchange(in_bag)
    exchange_bag = in_bag if can_exchange else 0  # no trade of more tiles
    topn = 1 if mode == "best" else max(1, top)
    n = board.size
    made = MoveGenerator.of(lexicon)
    buffers = made.buffers
    st, fs, scratch, out = buffers.of(topn, n, _INITIAL_CAP)
    codes = np.array(rack, np.int64)
    if wordsmog:
        graph = lexicon.alphagrams()
        xs = MoveGenerator.of(graph).cross_sets(board)
        smog = (graph.nodes, board_consts(board, rules), (xs.tiles, xs.cross))
    else:
        xs = made.cross_sets(board)
        args = (lexicon.nodes, lexicon.word_multisets(), board_consts(board, rules),
                (xs.tiles, xs.cross))
    while True:
        # the buffers grow and stay grown: use all of them; the request is a
        # `Request`'s fields as a plain tuple, as the kernels take it
        request = (codes, tables, kind, given, bag, other, kernel_mode, topn, len(out[0]),
                   exchange_bag, exact_best_score)
        if wordsmog:
            cut, c, lv, size, total, best, *stats = _ws.moves_of(
                *smog, request, st, fs, out, scratch[3])
        else:
            cut, c, lv, size, total, best, *stats = _k.moves_of(
                *args, request, which, st, fs, out, scratch)
        if not st[_f.S_OVERFLOW]:
            break
        st, fs, scratch, out = buffers.of(topn, n, 4 * len(out[0]))
    meta, tiles, eq = out
    searched = mode in ("all", "count")
    recount = None
    if not searched:
        def recount() -> tuple[int, int | None]:
            counted = generate(board, lexicon, mode="count", generator=generator,
                               variant=variant)
            return counted.count, counted.best_score
    return MoveList(board, meta[:c].copy(), tiles[:c].copy(), eq[:c].copy(),
                    _Leaves(rack, fs[lv:lv + size].copy()),
                    0 if kernel_mode == _f.MODE_COUNT else (2 if can_exchange else 1),
                    cut, total, best if total else None, stats,
                    limit=None if searched else topn, recount=recount,
                    best_exact=exact_best_score or leave is None or wordsmog)


def static_terms(board: Position) -> tuple[int, int]:
    """What full static equity needs of a position beyond the rack: the tiles
    in the bag (`Board.bag_count`) and the points the other players hold once
    it is empty (every tile neither on the board nor on the rack to move),
    counted only then (0 while the bag holds tiles: static equity reads it
    only once the bag is empty, and counting it cost a best-move search some
    8 µs, docs/BENCHMARKS.md)."""
    bag = board.bag_count
    if bag > 0:
        return bag, 0
    points = _faces(board.alphabet)
    unseen = board.unseen()
    other = int(points[:len(unseen)] @ np.maximum(unseen, 0))
    for rack in board.racks[1:]:
        for code in rack:
            other += int(points[code])
    return bag, other


@cache
def _faces(alphabet: Alphabet) -> np.ndarray:
    """`points_of` an alphabet, made once (read-only)."""
    return points_of(alphabet)


def static_note(board: Position) -> str | None:
    """What full static equity adds on this position beyond score and leave,
    in words (None: nothing)."""
    if board.is_empty:
        return "on the opening a vowel beside a premium square costs 0.35 a step"
    if board.bag_count == 0:
        return "the bag is empty: out earns 2x the other rack, tiles kept cost 2x + 10"
    return None


_KERNEL_MODES = {"all": _f.MODE_ALL, "top": _f.MODE_TOP, "best": _f.MODE_TOP,
                 "count": _f.MODE_COUNT}
_WHICH = {"gaddag": _k.GADDAG, "dawg": _k.DAWG}


def _refuse(board: Position, lexicon: Lexicon, mode: str, generator: str, variant: str) -> None:
    """Raise the error of a request `generate` cannot serve."""
    if mode not in MODES:
        raise RacketyError(f"mode {mode!r}: expected one of {', '.join(MODES)}")
    if variant not in VARIANTS:
        raise RacketyError(f"variant {variant!r}: expected one of {', '.join(VARIANTS)}")
    if generator not in GENERATORS:
        raise RacketyError(f"generator {generator!r}: expected gaddag or dawg")
    if lexicon.alphabet.identity != board.alphabet.identity:
        raise RacketyError(f"lexicon {lexicon.name} is in alphabet {lexicon.alphabet.name}, "
                           f"the position in {board.alphabet.name}")
    if board.alphabet.size > 63:
        raise RacketyError(f"alphabet {board.alphabet.name} has {board.alphabet.size} tile "
                           "codes; move generation handles at most 63")
    raise RacketyError(f"lexicon {lexicon.name} has no GADDAG; use generator='dawg'")


# an exchange or the pass, before it is asked for as a `Move`:
# (equity, whether an exchange (else the pass), leave index of the tiles kept)
_Other = tuple[float, bool, int]
_NONE = np.zeros(0, np.float64)
_NO_TABLE = (np.zeros(1, np.uint32), np.zeros(1, np.int64), np.zeros(1, np.float32))
for _array in (_NONE, _NO_TABLE[0], _NO_TABLE[2]):  # typed as a `Klv`'s, one compilation
    _array.flags.writeable = False


__all__ = [
    "BLANK_FLAG",
    "CrossSets",
    "LeaveModel",
    "MoveGenerator",
    "MoveList",
    "cross_sets",
    "generate",
    "leave_subsets",
    "update_cross_sets",
    "variant_lexicon",
]


class Work:
    """The buffers one compiled game (or rollout) works in, allocated once: the
    generator's state, its output and scratch (`rackety.kernels.generate`,
    whose small arrays WordSmog's generator works in), and the decision's
    (`rackety.kernels.selfplay.decide`)."""

    def __init__(self, size: int, rack_size: int, cap: int = 4096, *,
                 lexicon: Lexicon | None = None) -> None:
        self.arrays = _f.Buffers(np.zeros(_f.ST_SIZE, np.int64),
                                 np.zeros(_f.F_HEAP + 1 + (1 << rack_size), np.float64),
                                 _f.Output(np.empty((cap, _f.META), np.int32),
                                           np.empty((cap, size), np.uint8),
                                           np.empty(cap, np.float64)),
                                 _k.scratch(size, rack_size), np.zeros(64, np.int64),
                                 np.zeros(4, np.int64), np.zeros(2, np.float64))
        # the shadow bounds check whole-rack plays against the lexicon's words
        self.words = lexicon.word_multisets() if lexicon is not None else None
        if self.words is not None:
            _k.use_words(self.arrays.st, *self.words)
