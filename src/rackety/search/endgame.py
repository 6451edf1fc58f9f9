"""The exact endgame solver: bag empty, both racks known.

The value of a position is the change in spread for the player to move, from
here to the end of the game under best play by both sides (the oracle's
``value``, tests/data/endgame_*.jsonl): every score, plus the
end-of-game adjustments, by the game's rules (`rackety.game.rules.Rules`, the
kernels' `rackety.kernels.rules.out_spread` and `pass_ends`): a player who
goes out moves the spread by twice the face value of the opponent's rack
(blanks 0) under either play-out rule, and the game ends; a pass is always
legal, and a pass that reaches the rules' scoreless turns, or the second pass
in a row (the position then only repeats), ends the game, each player losing
the face value of their own rack.

The search is the one of MAGPIE's ``endgame.c``, Macondo's ``negamax`` and
wolges' ``endgame.rs`` (docs/MOVEGEN.md section 6), over flat arrays in one
self-recursive numba function (docs/NUMBA.md trap 2):

- negamax with alpha-beta and principal variation search (null windows after
  the first move, Marsland and Campbell 1982), iterative deepening in plies;
- a transposition table keyed by Zobrist hashes (per square x tile code,
  blank flag included; per rack x tile x count; side to move; whether the
  last move was a pass), one always-replaced slot per index, as MAGPIE's, of
  at most ``2^tt_bits`` entries (it starts small and grows between iterations
  with the nodes searched). Two arrays: the 64-bit keys, and per entry the
  value + 2^31 (bits 0-31), the depth searched (32-39, `D_INF` when
  complete), the bound (40-41: exact, lower, upper) and the best move (42-62:
  its index in the node's move list, or `MV_PASS`). A node's value depends
  only on the position, never on the scores, so an entry serves every path
  to it;
- move ordering: going out and the game-ending pass first (their values need
  no search, and only the best-scoring way out matters), then the table's
  move, then by score plus twenty times the face value of the tiles played:
  the tiles that would cost the most if the opponent went out are tried
  first. On the oracle's endgames that searched 3 times fewer nodes than a
  weight of 2 and 12 times fewer than MAGPIE's score minus face value;
  killer moves are left out (docs/MOVEGEN.md section 6: they barely pay);
- moves generated per node by the move generator's kernels
  (`rackety.kernels.generate`, every placement, no leaves; under the rules'
  WordSmog, `rackety.kernels.wordsmog` over the lexicon's alphagrams) into
  one stack-like arena (MAGPIE's ``small_move_arena``), the board and its
  cross sets copied per ply and updated lane by lane
  (`crosssets.update_after_move`);
- exactness: a node is *complete* when no line under it was cut at the depth
  horizon. Complete results go in the table with an unbounded depth, and a
  node whose depth covers the longest possible rest of the game (``2 x tiles
  left``, a pass at most between two placements) is searched to the end. An
  iteration that cuts nothing is exact.

Anytime: with a time limit, the result is the one of the last iteration that
finished (its depth and ``exact=False`` unless it was exact). numba has no
clock, so each iteration gets a node budget from the measured node rate. With
a stop signal (a `rackety.search.control.Control`), the budgets are of about
`SLICE` seconds: an iteration that spends one is taken up again, unless
stopped, from the root with the table as it left it (what it searched in full
is found there), so a stop is seen within a slice.

The kernels call the move generator's (`movegen.kernels`, `movegen.crosssets`):
numba's cache watches only this file (docs/NUMBA.md trap 5), so the folder of
compiled kernels is keyed by the whole package's content (`rackety.jitcache`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numba import types

from rackety.alphabet import BLANK_FLAG
from rackety.errors import RacketyError
from rackety.game.move import Move
from rackety.game.movegen import MoveGenerator, variant_lexicon
from rackety.game.state import board_consts, move_of_row, state_of
from rackety.kernels.crosssets import root_nodes
from rackety.kernels.fields import (
    F_HEAP,
    G_FULL_MASK,
    G_N,
    G_VARIANT,
    GS_BAG,
    GS_EMPTY,
    GS_PLAYERS,
    GS_RACK,
    GS_TURN,
    GS_ZERO,
    M_DIR,
    M_FIRST,
    M_LANE,
    M_LEN,
    M_PLACED,
    M_SCORE,
    M_THROUGH,
    META,
    MODE_ALL,
    S_COUNT,
    S_OVERFLOW,
    ST_SIZE,
    VARIANT_WORDSMOG,
    X_ROWS,
    Consts,
    GameState,
    Output,
    Scratch,
)
from rackety.kernels.generate import generate_gaddag, load_rack, scratch
from rackety.kernels.jit import njit
from rackety.kernels.rules import out_spread, pass_ends, place, recross
from rackety.kernels.wordsmog import generate as generate_wordsmog
from rackety.search.control import SLICE, clock

if TYPE_CHECKING:
    from rackety.alphabet import Alphabet
    from rackety.game.board import Board
    from rackety.lexicon import Lexicon
    from rackety.search.control import Control

# ctl: int64 control and statistics of a solve
C_NODES = 0  # nodes searched (all iterations)
C_CUTS = 1  # lines cut at the depth horizon (or by an incomplete table entry)
C_BUDGET = 2  # stop when C_NODES passes this
C_ABORT = 3  # 1: node budget spent, 2: move arena full
C_N = 4  # board size
C_CAP = 12  # rows in the move arena
C_TTMASK = 13
C_EMPTY = 14  # the root board is empty
C_TTHITS = 15
C_GENS = 16  # move generations
C_GRAPH = 17  # what the graph holds (`rackety.kernels.bits`: the words, or their alphagrams)
CTL_SIZE = 32

# racks[p]: copies of each code 0..63, then these
R_N = 64  # tiles on the rack
R_FACE = 65  # their face value (blanks 0)
RACK_WIDTH = 66

D_INF = 250  # depth of a complete search (to the end of the game on every line)
BIG = 1 << 30  # beyond any value
EXACT, LOWER, UPPER = 0, 1, 2
MV_NONE = (1 << 21) - 1  # no move in a table entry
MV_PASS = (1 << 21) - 2
MAX_COUNT = 15  # copies of one tile on a rack the hash keys cover
FACE_WEIGHT = 20  # move ordering: score + this x face value of the tiles played
_TT_START_BITS = 16
_ARENA_ROWS = 1 << 16  # rows of the move arena at first (it grows when full)

class Arrays(NamedTuple):
    """The arrays of one solve, which `_negamax` reads and writes, by name:
    the graph, the board and its cross sets per slot (one per ply), the
    board's constants (`rackety.game.state.board_consts`), the generator's
    state, the move arena (its rows, their estimates and order), the
    generator's scratch (`rackety.kernels.generate.scratch`), the rules, the
    racks, the control (``C_*``), the Zobrist keys, the table, the principal
    variation's triangle, the moves whose cross sets are still to update, and
    the graph's root table (`rackety.kernels.crosssets.root_nodes`, made once a
    solve: an update allocates nothing). WordSmog's generator works in the
    scratch's small arrays."""

    kwg: np.ndarray
    tiles_s: np.ndarray
    xs_s: np.ndarray
    lm2: np.ndarray
    wm2: np.ndarray
    points: np.ndarray
    ln_all: np.ndarray
    st: np.ndarray
    fs: np.ndarray
    meta: np.ndarray
    otiles: np.ndarray
    oeq: np.ndarray
    est: np.ndarray
    order: np.ndarray
    anc: np.ndarray
    bnd: np.ndarray
    small: np.ndarray
    bestl: np.ndarray
    rules: np.ndarray
    racks: np.ndarray
    ctl: np.ndarray
    zsq: np.ndarray
    zrack: np.ndarray
    zmisc: np.ndarray
    tt_key: np.ndarray
    tt_data: np.ndarray
    pv_len: np.ndarray
    pv_meta: np.ndarray
    pv_tiles: np.ndarray
    dirty: np.ndarray
    roots: np.ndarray


_I = types.int64
_U = types.uint64
_ARRAYS = types.NamedTuple((
    types.Array(types.uint32, 1, "C", readonly=True),  # kwg
    types.uint8[:, :, :, ::1],  # tiles per slot [slot, 2, n, n]
    types.int64[:, :, :, :, ::1],  # cross sets per slot [slot, X_ROWS, 2, n, n]
    types.Array(types.int64, 3, "C", readonly=True),  # letter multipliers [2, n, n]
    types.Array(types.int64, 3, "C", readonly=True),  # word multipliers
    types.Array(types.int64, 1, "C", readonly=True),  # points of every code
    types.int64[:, :, :, ::1],  # per-lane arrays [2, n, ROWS, n]
    types.int64[::1], types.float64[::1],  # generator state
    types.int32[:, ::1], types.uint8[:, ::1], types.float64[::1],  # the move arena
    types.int64[::1], types.int64[::1],  # estimates, order
    types.int64[:, ::1],  # anchors scratch [6, 2 n n + 2] (`kernels.generate.scratch`)
    types.float64[:, ::1], types.int64[:, ::1], types.float64[::1],  # the rest of it
    types.Array(types.int64, 1, "C", readonly=True),  # the rules (`kernels.fields`, G_*)
    types.int64[:, ::1],  # racks [2, RACK_WIDTH]
    types.int64[::1],  # ctl
    types.uint64[:, ::1], types.uint64[:, :, ::1], types.uint64[::1],  # Zobrist keys
    types.uint64[::1], types.int64[::1],  # the table: keys, data
    types.int64[::1], types.int32[:, :, ::1], types.uint8[:, :, ::1],  # the PV triangle
    types.int64[::1],  # per slot: the move whose cross sets are still to update (-1: none)
    types.int64[::1],  # the graph's root table (`kernels.crosssets.root_nodes`)
), Arrays)
_SIG = types.int64(_I, _I, _I, _I, _I, _I, _I, _I, _U, _ARRAYS)


@njit(cache=True, nogil=True)
def _generate(arrays: Arrays, tiles: np.ndarray, cross: np.ndarray, rack: np.ndarray, off: int,
              empty: bool) -> int:
    """Every placement of ``rack`` into the arena from row ``off`` (the one
    generator entry in its all mode, without leaves; WordSmog's under the
    rules' ``G_VARIANT``); returns the end row."""
    a = arrays
    kwg, lm2, wm2, points, rules, st, fs, ctl = a.kwg, a.lm2, a.wm2, a.points, a.rules, a.st, \
        a.fs, a.ctl
    # all mode, no leaves: the leave values' place is not needed; a row is kept
    # free for the pass
    load_rack(st, fs, rules, points, rack[:64], MODE_ALL, 1, ctl[C_CAP] - 1, off, empty,
              False)
    consts = Consts(lm2, wm2, points, rules)
    out = Output(a.meta, a.otiles, a.oeq)
    if rules[G_VARIANT] == VARIANT_WORDSMOG:
        generate_wordsmog(kwg, consts, (tiles, cross), st, fs, out, a.small)
    else:
        generate_gaddag(kwg, consts, (tiles, cross), st, fs, out,
                        Scratch(a.ln_all, a.anc, a.bnd, a.small, a.bestl))
    ctl[C_GENS] += 1
    return int(st[S_COUNT])


@njit(cache=True, nogil=True)
def _placed_face(meta: np.ndarray, otiles: np.ndarray, i: int, points: np.ndarray) -> int:
    """Face value of the tiles move ``i`` takes from the rack (blanks 0)."""
    through = meta[i, M_THROUGH]
    face = 0
    for j in range(meta[i, M_LEN]):
        if not (through >> j) & 1:
            face += points[otiles[i, j]]
    return face


@njit(cache=True, nogil=True)
def _play(arrays: Arrays, i: int, slot: int, full: int, side: int, h: np.uint64) -> np.uint64:
    """Move ``i`` into slot ``slot + 1`` (a copy of ``slot``) by the rules'
    `place`, off the rack of ``side``; returns the hash with the tiles and the
    rack changed. The slot's cross sets are left to update (``dirty``) until a
    search generates moves there (`_recross`): a table hit or the horizon
    never pays for them."""
    a = arrays
    meta, otiles, tiles_s, xs_s, kwg, points, racks, zsq, zrack, dirty = \
        a.meta, a.otiles, a.tiles_s, a.xs_s, a.kwg, a.points, a.racks, a.zsq, a.zrack, a.dirty
    n = a.ctl[C_N]
    tiles_s[slot + 1] = tiles_s[slot]
    place(kwg, a.ctl[C_GRAPH], points, full, tiles_s[slot + 1], xs_s[slot + 1], meta, otiles, i,
          False)
    dirty[slot + 1] = i
    d = meta[i, M_DIR]
    lane = meta[i, M_LANE]
    first = meta[i, M_FIRST]
    through = meta[i, M_THROUGH]
    for j in range(meta[i, M_LEN]):
        if (through >> j) & 1:
            continue
        code = np.int64(otiles[i, j])
        pos = first + j
        square = lane * n + pos if d == 0 else pos * n + lane
        h ^= zsq[square, code]
        t = 0 if code & BLANK_FLAG else code
        k = racks[side, t]
        h ^= zrack[side, t, k] ^ zrack[side, t, k - 1]
        racks[side, t] = k - 1
        racks[side, R_N] -= 1
        racks[side, R_FACE] -= points[t]
    return h


@njit(cache=True, nogil=True)
def _recross(kwg: np.ndarray, graph: int, tiles_s: np.ndarray, xs_s: np.ndarray, slot: int,
             points: np.ndarray, full: int, meta: np.ndarray, dirty: np.ndarray,
             roots: np.ndarray) -> None:
    """Bring the cross sets of slot ``slot`` up to date: its parent's, updated
    for the move that made it (`rackety.kernels.rules.recross`)."""
    if slot > 0 and dirty[slot] >= 0:
        xs_s[slot] = xs_s[slot - 1]
        recross(kwg, graph, points, full, tiles_s[slot], xs_s[slot], meta, dirty[slot], roots)
        dirty[slot] = -1


@njit(cache=True, nogil=True)
def _unplay(meta: np.ndarray, otiles: np.ndarray, i: int, points: np.ndarray, racks: np.ndarray,
            side: int) -> None:
    """Put the tiles of move ``i`` back on the rack of ``side``."""
    through = meta[i, M_THROUGH]
    for j in range(meta[i, M_LEN]):
        if (through >> j) & 1:
            continue
        code = np.int64(otiles[i, j])
        t = 0 if code & BLANK_FLAG else code
        racks[side, t] += 1
        racks[side, R_N] += 1
        racks[side, R_FACE] += points[t]


@njit(cache=True, nogil=True)
def _sort_desc(order: np.ndarray, lo: int, hi: int, est: np.ndarray) -> None:
    """Shell sort of ``order[lo:hi]`` by ``est`` of each entry, highest first."""
    k = hi - lo
    gap = 1
    while gap < k // 3:
        gap = 3 * gap + 1
    while gap >= 1:
        for a in range(lo + gap, hi):
            item = order[a]
            key = est[item]
            b = a
            while b - gap >= lo and est[order[b - gap]] < key:
                order[b] = order[b - gap]
                b -= gap
            order[b] = item
        gap //= 3


@njit(cache=True, nogil=True)
def _pv_set(pv_len: np.ndarray, pv_meta: np.ndarray, pv_tiles: np.ndarray, ply: int,
            meta: np.ndarray, otiles: np.ndarray, i: int, child: bool) -> None:
    """The principal variation at ``ply``: move ``i`` (-1: the pass), then, if
    ``child``, the line found below it."""
    if i < 0:
        for j in range(pv_meta.shape[2]):
            pv_meta[ply, 0, j] = 0
    else:
        for j in range(pv_meta.shape[2]):
            pv_meta[ply, 0, j] = meta[i, j]
        for j in range(meta[i, M_LEN]):
            pv_tiles[ply, 0, j] = otiles[i, j]
    length = 1
    if child:
        for t in range(pv_len[ply + 1]):
            if 1 + t >= pv_meta.shape[1]:
                break
            for j in range(pv_meta.shape[2]):
                pv_meta[ply, 1 + t, j] = pv_meta[ply + 1, t, j]
            for j in range(pv_meta[ply + 1, t, M_LEN]):
                pv_tiles[ply, 1 + t, j] = pv_tiles[ply + 1, t, j]
            length += 1
    pv_len[ply] = length


@njit(_SIG, cache=True, nogil=True)
def _negamax(ply: int, depth: int, alpha: int, beta: int, passes: int, side: int, slot: int,
             off: int, h: np.uint64, arrays: Arrays) -> int:
    """The value of the position for ``side`` to move, searched ``depth`` plies
    (`D_INF`: to the end), fail-soft within (``alpha``, ``beta``). The board is
    slot ``slot``; this node's moves go in the arena from row ``off``; the
    solve's arrays are ``arrays`` (`Arrays`)."""
    a = arrays
    kwg, tiles_s, xs_s, points, st, meta, otiles, est, order, rules, racks, ctl = \
        a.kwg, a.tiles_s, a.xs_s, a.points, a.st, a.meta, a.otiles, a.est, a.order, a.rules, \
        a.racks, a.ctl
    zmisc, tt_key, tt_data, pv_len, pv_meta, pv_tiles, dirty = \
        a.zmisc, a.tt_key, a.tt_data, a.pv_len, a.pv_meta, a.pv_tiles, a.dirty
    ctl[C_NODES] += 1
    if ctl[C_NODES] > ctl[C_BUDGET]:
        ctl[C_ABORT] = 1
        return 0
    pv_len[ply] = 0
    if off + 2 >= ctl[C_CAP]:
        ctl[C_ABORT] = 2
        return 0
    opp = 1 - side
    own_face = racks[side, R_FACE]
    opp_face = racks[opp, R_FACE]
    nleft = racks[side, R_N]
    # the longest possible rest of the game: at most one pass between placements
    if depth != D_INF and depth >= 2 * (nleft + racks[opp, R_N]) - passes:
        depth = D_INF
    pvnode = beta - alpha > 1
    alpha0 = alpha
    cuts0 = ctl[C_CUTS]
    index = np.int64(h & np.uint64(ctl[C_TTMASK]))
    tt_mv = MV_NONE
    if tt_key[index] == h:
        data = tt_data[index]
        v = (data & 0xFFFFFFFF) - (1 << 31)
        tdepth = (data >> 32) & 0xFF
        flag = (data >> 40) & 3
        tt_mv = data >> 42
        if tdepth >= depth and not pvnode and (
                flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha)):
            ctl[C_TTHITS] += 1
            if tdepth != D_INF:
                ctl[C_CUTS] += 1
            return int(v)
    _recross(kwg, ctl[C_GRAPH], tiles_s, xs_s, slot, points, rules[G_FULL_MASK], meta, dirty,
             arrays.roots)
    end = _generate(arrays, tiles_s[slot], xs_s[slot], racks[side], off,
                    slot == 0 and ctl[C_EMPTY] != 0)
    if st[S_OVERFLOW] != 0:
        ctl[C_ABORT] = 2
        return 0
    base = end + 1  # the children's moves go after this node's and the pass
    child_depth = D_INF if depth == D_INF else depth - 1
    best = -BIG
    best_mv = MV_NONE
    done = False
    # going out ends the game: only the best score of it matters
    out = -1
    for i in range(off, end):
        if meta[i, M_PLACED] == nleft and (out < 0 or meta[i, M_SCORE] >
                                              meta[out, M_SCORE]):
            out = i
    if out >= 0:
        v = meta[out, M_SCORE] + out_spread(opp_face)
        best = v
        best_mv = out - off
        if v > alpha:
            alpha = v
            if pvnode:
                _pv_set(pv_len, pv_meta, pv_tiles, ply, meta, otiles, out, False)
        done = alpha >= beta
    if not done and pass_ends(rules, passes):  # a pass that ends the game
        v = opp_face - own_face
        if v > best:
            best = v
            best_mv = MV_PASS
            if v > alpha:
                alpha = v
                if pvnode:
                    _pv_set(pv_len, pv_meta, pv_tiles, ply, meta, otiles, -1, False)
        done = alpha >= beta
    k = 0
    if not done:
        for i in range(off, end):
            if meta[i, M_PLACED] == nleft:
                continue
            if i - off == tt_mv:
                est[i] = BIG
            else:
                est[i] = meta[i, M_SCORE] + FACE_WEIGHT * _placed_face(meta, otiles, i,
                                                                          points)
            order[off + k] = i
            k += 1
        if not pass_ends(rules, passes):
            est[end] = BIG if tt_mv == MV_PASS else -BIG
            order[off + k] = end
            k += 1
        _sort_desc(order, off, off + k, est)
    first = True
    for j in range(k):
        i = order[off + j]
        is_pass = i == end
        if is_pass:
            score = np.int64(0)
            face = 0
        else:
            score = np.int64(meta[i, M_SCORE])
            face = _placed_face(meta, otiles, i, points)
        if child_depth == 0:
            # the horizon: as if the game ended now by passes, racks counted
            ctl[C_CUTS] += 1
            v = score - ((own_face - face) - opp_face)
            searched = False
        else:
            if is_pass:
                child_slot = slot
                ch = h ^ zmisc[0] ^ zmisc[1]
                child_passes = np.int64(1)
            else:
                child_slot = slot + 1
                ch = _play(arrays, i, slot, rules[G_FULL_MASK], side, h) ^ zmisc[0]
                if passes == 1:
                    ch ^= zmisc[1]
                child_passes = np.int64(0)
            if first:
                v = score - _negamax(ply + 1, child_depth, score - beta, score - alpha,
                                     child_passes, opp, child_slot, base, ch, arrays)
            else:
                v = score - _negamax(ply + 1, child_depth, score - alpha - 1, score - alpha,
                                     child_passes, opp, child_slot, base, ch, arrays)
                if alpha < v < beta and ctl[C_ABORT] == 0:
                    v = score - _negamax(ply + 1, child_depth, score - beta, score - alpha,
                                         child_passes, opp, child_slot, base, ch, arrays)
            first = False
            if not is_pass:
                _unplay(meta, otiles, i, points, racks, side)
            if ctl[C_ABORT] != 0:
                return 0
            searched = True
        if v > best:
            best = v
            best_mv = MV_PASS if is_pass else i - off
            if v > alpha:
                alpha = v
                if pvnode and v < beta:
                    _pv_set(pv_len, pv_meta, pv_tiles, ply, meta, otiles, -1 if is_pass else i,
                            searched)
                if alpha >= beta:
                    break
    # the table: a bound or the exact value, complete if nothing below was cut
    if best <= alpha0:
        flag = UPPER
    elif best >= beta:
        flag = LOWER
    else:
        flag = EXACT
    stored_depth = D_INF if ctl[C_CUTS] == cuts0 else depth
    tt_key[index] = h
    tt_data[index] = ((best + (1 << 31)) | (stored_depth << 32) | (flag << 40)
                      | (np.int64(best_mv) << 42))
    return best


@njit(cache=True, nogil=True)
def _search(depth: int, passes: int, h: np.uint64, arrays: Arrays) -> int:
    """One iteration of the deepening: the root searched ``depth`` plies."""
    zero = np.int64(0)
    return int(_negamax(zero, np.int64(depth), np.int64(-BIG), np.int64(BIG), np.int64(passes),
                        zero, zero, zero, h, arrays))


@njit(cache=True, nogil=True)
def _rehash(old_key: np.ndarray, old_data: np.ndarray, new_key: np.ndarray,
            new_data: np.ndarray) -> None:
    """Move the entries of a table into a bigger one (on a collision, the one
    searched deeper stays)."""
    mask = np.uint64(new_key.shape[0] - 1)
    for i in range(old_key.shape[0]):
        key = old_key[i]
        if key == 0:
            continue
        j = np.int64(key & mask)
        if new_key[j] != 0 and (new_data[j] >> 32) & 0xFF > (old_data[i] >> 32) & 0xFF:
            continue
        new_key[j] = key
        new_data[j] = old_data[i]


# ------------------------------------------------------------------ Python side
@dataclass
class EndgameResult:
    """What `solve` found. ``value``: the change in spread for the player to
    move, to the end of the game under best play (exact when ``exact``);
    ``pv``: a principal variation, moves with their scores (passes
    included); ``depth``: plies of the last iteration that finished; ``nodes``
    searched in all; ``seconds`` of wall time."""

    value: int
    pv: list[Move]
    depth: int
    exact: bool
    nodes: int
    seconds: float
    stats: dict[str, int] = field(default_factory=dict)

    @property
    def best(self) -> Move:
        """The first move of the principal variation."""
        return self.pv[0]

    @property
    def nodes_per_second(self) -> float:
        """Nodes searched per second of the solve."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def notation(self, board: Board) -> list[str]:
        """The principal variation in players' notation, with the scores
        (``"8D WORD 12"``, ``"pass 0"``)."""
        return [f"{board.notation(m)} {m.score}" for m in self.pv]


def check_position(board: Board) -> None:
    """Refuse what the solver cannot solve, in one line: other than two
    players, an unknown rack, tiles still in the bag."""
    if len(board.racks) != 2:
        count = len(board.racks)
        raise RacketyError(f"endgame: {count} player{'' if count == 1 else 's'}; the solver "
                           "handles two")
    if board.racks[0] and not board.racks[1] and board.bag_count:
        raise RacketyError(f"endgame: the opponent's rack is unknown and {board.bag_count} "
                           "tiles are in the bag; the solver needs an empty bag (the "
                           "opponent's rack is then the unseen tiles)")
    for who, rack in (("player to move", board.racks[0]), ("opponent", board.racks[1])):
        if not rack:
            raise RacketyError(f"endgame: the {who}'s rack is unknown (empty); the CGP must "
                               "give both racks, as ABC/DEF")
    unseen = int(board.unseen_count)
    if unseen:
        raise RacketyError(f"endgame: {unseen} tiles are still in the bag; the solver needs "
                           "an empty bag")


def known_racks(board: Board) -> Board:
    """``board`` with both racks known: with the bag empty, an opponent's rack
    the position leaves unknown (empty) is exactly the tiles the player to
    move has not seen (`Board.unseen`). Raises the one-line `RacketyError` of
    `check_position` for what the solver cannot take (more than two players,
    the mover's rack unknown, tiles left in the bag)."""
    if len(board.racks) == 2 and board.rack and not board.racks[1] and not board.bag_count:
        unseen = board.unseen()
        rack = tuple(int(c) for c in range(len(unseen)) for _ in range(int(unseen[c])))
        if rack:
            board = board.copy(racks=[board.racks[0], rack])
    check_position(board)
    return board


def solve(board: Board, lexicon: Lexicon, *, seconds: float | None = None,
          tt_bits: int = 22, max_depth: int | None = None,
          control: Control | None = None) -> EndgameResult:
    """Solve the endgame of ``board`` (two players, both racks known, the bag
    empty; ``racks[0]`` is the player to move; ``zero_turns`` > 0 means the
    last move was a pass, so passing now ends the game): iterative deepening
    until the search is exact, or until ``seconds`` have passed (then the best
    line of the last iteration that finished), or to ``max_depth`` plies. The
    transposition table has at most ``2 ** tt_bits`` entries of 16 bytes (it
    starts at 2^16 and grows with the nodes searched) and is freed after the
    solve. The first iteration always finishes. ``control`` (a
    `rackety.search.control.Control`): its deadline bounds ``seconds``, and a
    stop ends the solve within a slice (the module docstring)."""
    check_position(board)
    if lexicon.alphabet.identity != board.alphabet.identity:
        raise RacketyError(f"lexicon {lexicon.name} is in alphabet {lexicon.alphabet.name}, "
                           f"the position in {board.alphabet.name}")
    graph = variant_lexicon(lexicon, board.rules.variant)  # WordSmog's: the alphagrams
    gs = state_of(board, MoveGenerator.of(graph).cross_sets(board))
    return solve_state(gs, board_consts(board), board.alphabet, lexicon,
                       seconds=seconds, tt_bits=tt_bits, max_depth=max_depth, control=control)


def solve_state(gs: GameState, consts: tuple[np.ndarray, ...], alphabet: Alphabet,
                lexicon: Lexicon, *, seconds: float | None = None, tt_bits: int = 22,
                max_depth: int | None = None, control: Control | None = None
                ) -> EndgameResult:
    """`solve` on a game state of the rules' kernels (two seats, the bag empty,
    the seat to move ``ints[GS_TURN]``; ``consts`` its `kernel_consts`, whose
    variant says which moves are searched; its cross sets those of the
    variant's graph, `rackety.game.movegen.variant_lexicon`), as the
    pre-endgame hands it over after a play."""
    wordsmog = int(consts[3][G_VARIANT]) == VARIANT_WORDSMOG
    if not lexicon.has_gaddag and not wordsmog:
        raise RacketyError(f"lexicon {lexicon.name} has no GADDAG; the solver needs one")
    if alphabet.size > 63:
        raise RacketyError(f"alphabet {alphabet.name} has {alphabet.size} tile "
                           "codes; the solver handles at most 63")
    if not 10 <= tt_bits <= 30:
        raise RacketyError(f"tt_bits {tt_bits}: expected 10 to 30")
    if int(gs.ints[GS_PLAYERS]) != 2 or int(gs.ints[GS_BAG]) != 0:
        raise RacketyError("endgame: two players and an empty bag expected")
    for seat in range(2):
        rack = gs.racks[seat, :int(gs.ints[GS_RACK + seat])]
        if len(rack) and np.bincount(rack).max() > MAX_COUNT:
            raise RacketyError(f"endgame: more than {MAX_COUNT} copies of a tile on a rack")
    graph = lexicon.alphagrams() if wordsmog else lexicon
    return _Solver(gs, consts, alphabet, graph, tt_bits).run(seconds, max_depth, control)


@lru_cache(maxsize=4)
def _zobrist(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The Zobrist keys of an ``n`` x ``n`` board (per square and code, per rack,
    tile and count, and the side and pass bits), from a fixed seed so a solve is
    reproducible; made once per board size (the kernels only read them)."""
    rng = np.random.default_rng(0x5EED)
    zsq = rng.integers(1, 2**63, size=(n * n, 256), dtype=np.uint64)
    zrack = rng.integers(1, 2**63, size=(2, 64, MAX_COUNT + 1), dtype=np.uint64)
    zrack[:, :, 0] = 0
    zmisc = rng.integers(1, 2**63, size=4, dtype=np.uint64)
    return zsq, zrack, zmisc


class _Solver:
    """The arrays of one solve, allocated once (``lexicon``: the graph of the
    rules' variant, the words or their alphagrams)."""

    def __init__(self, gs: GameState, consts: tuple[np.ndarray, ...], alphabet: Alphabet,
                 lexicon: Lexicon, tt_bits: int) -> None:
        self.alphabet = alphabet
        self.lexicon = lexicon
        self.lm2, self.wm2, self.points, self.rules = consts
        n = int(self.rules[G_N])
        self.n = n
        mover = int(gs.ints[GS_TURN])
        seats = (mover, 1 - mover)  # the solver's sides: 0 the player to move
        racks = [gs.racks[s, :int(gs.ints[GS_RACK + s])].tolist() for s in seats]
        self.passes = 1 if gs.ints[GS_ZERO] > 0 else 0
        self.bound = 2 * (len(racks[0]) + len(racks[1])) - self.passes  # the longest game
        plies = self.bound + 2
        self.tiles_s = np.zeros((plies + 1, 2, n, n), np.uint8)
        self.tiles_s[0] = gs.tiles
        self.xs_s = np.zeros((plies + 1, X_ROWS, 2, n, n), np.int64)
        self.xs_s[0] = gs.cross
        self.ln_all, self.anc, self.bnd, self.small, self.bestl = scratch(
            n, alphabet.rack_size)
        self.st = np.zeros(ST_SIZE, np.int64)
        self.fs = np.zeros(F_HEAP + 1 + (1 << alphabet.rack_size), np.float64)
        self._arena(_ARENA_ROWS)
        self.racks0 = np.zeros((2, RACK_WIDTH), np.int64)
        for p in range(2):
            for c in racks[p]:
                self.racks0[p, c] += 1
            self.racks0[p, R_N] = len(racks[p])
            self.racks0[p, R_FACE] = sum(int(self.points[c]) for c in racks[p])
        ctl = np.zeros(CTL_SIZE, np.int64)
        ctl[C_N] = n
        ctl[C_TTMASK] = (1 << min(tt_bits, _TT_START_BITS)) - 1
        ctl[C_EMPTY] = int(gs.ints[GS_EMPTY])
        ctl[C_GRAPH] = lexicon.graph
        self.ctl = ctl
        self.zsq, self.zrack, self.zmisc = _zobrist(n)
        h = np.uint64(0)
        grid = gs.tiles[0]
        for r, c in zip(*np.nonzero(grid), strict=True):
            h ^= self.zsq[r * n + c, int(grid[r, c])]
        for p in range(2):
            for c in range(64):
                h ^= self.zrack[p, c, self.racks0[p, c]]
        if self.passes:
            h ^= self.zmisc[1]
        self.hash = h
        # The table starts small and grows between iterations with the nodes
        # searched, up to 2^tt_bits entries: a big table costs its zeroing (tens of
        # milliseconds for 2^22), more than a small endgame's whole search.
        self.tt_bits = tt_bits
        bits = min(tt_bits, _TT_START_BITS)
        self.tt_key = np.zeros(1 << bits, np.uint64)
        self.tt_data = np.zeros(1 << bits, np.int64)
        self.pv_len = np.zeros(plies + 1, np.int64)
        self.pv_meta = np.zeros((plies + 1, plies + 1, META), np.int32)
        self.pv_tiles = np.zeros((plies + 1, plies + 1, n), np.uint8)
        self.dirty = np.full(plies + 1, -1, np.int64)
        self.roots = root_nodes(lexicon.nodes, lexicon.graph)

    def _arena(self, cap: int) -> None:
        self.cap = cap
        self.meta = np.empty((cap, META), np.int32)
        self.otiles = np.empty((cap, self.n), np.uint8)
        self.oeq = np.empty(cap, np.float64)
        self.est = np.empty(cap, np.int64)
        self.order = np.empty(cap, np.int64)

    def _grow_table(self, nodes: int) -> None:
        """A table of about sixteen entries per node of the last iteration, up to
        2^tt_bits."""
        size = len(self.tt_key)
        want = size
        while want < 16 * nodes and want < 1 << self.tt_bits:
            want *= 2
        if want == size:
            return
        key = np.zeros(want, np.uint64)
        data = np.zeros(want, np.int64)
        _rehash(self.tt_key, self.tt_data, key, data)
        self.tt_key, self.tt_data = key, data
        self.ctl[C_TTMASK] = want - 1

    def iteration(self, depth: int, budget: int) -> tuple[int, bool] | None:
        """Search the root ``depth`` plies; (value, exact), or None when the
        node budget ran out."""
        ctl = self.ctl
        while True:
            ctl[C_ABORT] = 0
            ctl[C_CUTS] = 0
            ctl[C_CAP] = self.cap
            ctl[C_BUDGET] = budget
            racks = self.racks0.copy()
            arrays = Arrays(self.lexicon.nodes, self.tiles_s, self.xs_s, self.lm2, self.wm2,
                            self.points, self.ln_all, self.st, self.fs, self.meta, self.otiles,
                            self.oeq, self.est, self.order, self.anc, self.bnd, self.small,
                            self.bestl, self.rules, racks, ctl, self.zsq, self.zrack, self.zmisc,
                            self.tt_key, self.tt_data, self.pv_len, self.pv_meta, self.pv_tiles,
                            self.dirty, self.roots)
            value = _search(depth, self.passes, self.hash, arrays)
            if ctl[C_ABORT] == 2:  # the move arena is full: a bigger one, same iteration
                self._arena(self.cap * 4)
                continue
            if ctl[C_ABORT] == 1:
                return None
            return int(value), bool(ctl[C_CUTS] == 0)

    def _deepen(self, depth: int, start: float, deadline: float | None,
                stop: Control | None) -> tuple[int, bool] | None:
        """One iteration, within the deadline: a node budget from the node rate
        so far (none for the first). With ``stop``, budgets of about `SLICE`
        seconds, the iteration taken up again after each (its table grown for
        the nodes searched) until it ends, is stopped, or the deadline passes."""
        if depth == 1 or (deadline is None and stop is None):
            return self.iteration(depth, 1 << 62)
        first = int(self.ctl[C_NODES])
        while True:
            now = clock()
            if deadline is not None and now >= deadline:
                return None
            nodes = int(self.ctl[C_NODES])
            rate = nodes / max(now - start, 1e-6)
            span = math.inf if deadline is None else deadline - now
            if stop is not None:
                span = min(span, SLICE)
            found = self.iteration(depth, nodes + max(1, int(rate * span)))
            if found is not None or stop is None or stop.stopped():
                return found
            self._grow_table(int(self.ctl[C_NODES]) - first)

    def pv(self) -> list[Move]:
        return [move_of_row(self.pv_meta[0, t], self.pv_tiles[0, t], self.alphabet)
                for t in range(int(self.pv_len[0]))]

    def run(self, seconds: float | None, max_depth: int | None,
            control: Control | None = None) -> EndgameResult:
        # a call that stops at once loads (or compiles) the kernels before the clock starts
        self.iteration(1, 0)
        self.ctl[C_NODES] = self.ctl[C_GENS] = self.ctl[C_TTHITS] = 0
        start = clock()
        deadline = None if seconds is None else start + seconds
        stop = None
        if control is not None:
            if control.deadline is not None:
                deadline = min(deadline or control.deadline, control.deadline)
            stop = control if control.stoppable else None
        last = max(1, self.bound)
        if max_depth is not None:
            last = max(1, min(last, max_depth))
        value, pv, reached, exact = 0, [], 0, False
        for depth in range(1, last + 1):
            nodes = int(self.ctl[C_NODES])
            if depth > 1 and stop is not None and stop.stopped():
                break
            found = self._deepen(depth, start, deadline, stop)
            if found is None:
                break
            self._grow_table(int(self.ctl[C_NODES]) - nodes)
            value, exact = found
            pv = self.pv()
            reached = depth
            if exact:
                break
        elapsed = clock() - start
        stats = {"tt_hits": int(self.ctl[C_TTHITS]), "generations": int(self.ctl[C_GENS])}
        return EndgameResult(value, pv, reached, exact, int(self.ctl[C_NODES]), elapsed, stats)


__all__ = ["EndgameResult", "check_position", "known_racks", "solve", "solve_state"]
