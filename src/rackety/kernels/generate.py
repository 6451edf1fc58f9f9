"""The move generators: numba kernels over flat arrays.

Two generators with identical output:

- `_gaddag`: Gordon's GADDAG generator (Gen and GoOn merged into one
  self-recursive function). From an anchor it places tiles leftwards reading
  rev(prefix), then crosses the separator and places rightwards.
- `_dawg_left` / `_dawg_right`: Appel and Jacobson's LeftPart and ExtendRight
  (1988, section 3.3) over the DAWG.

Both work on one lane at a time (a row, or a column of the transposed board),
reading a small per-lane array ``ln[ROWS, N]`` (int64; rows named below), so a
down move is an across move on the transposed board. Scores are carried down
the recursion (main-word sum, word multiplier, cross-word sum) so nothing is
undone; the rack leave is a mixed-radix index into the rack's leave table
(wolges' MultiLeaves, docs/MOVEGEN.md section 4.2).

Moves are written into preallocated buffers, one row per move:
``meta[i] = (dir, lane, first, length, tiles placed, score, through mask, leave
index)`` (int32), ``otiles[i, :length]`` the main word's codes (uint8, 0x80 on
blanks) and ``oeq[i]`` the equity. Modes: all (every move stored), top (moves
that can still be among the best N kept; the N-th best equity so far is a
threshold, and anchors whose upper bound is below it are skipped: the "shadow"
bounds of wolges and MAGPIE), count (count and best score only).

Every kernel and its callees live in this module: numba's cache only watches the
file of the function it compiles (docs/NUMBA.md trap 5). The recursive kernels have
explicit signatures and recurse with variables only (trap 2).
"""

from __future__ import annotations

import numpy as np
from numba import types

from rackety.kernels.fields import (
    AFTER,
    BLANK_FLAG,
    F_BOUND,
    F_HEAP,
    F_THRESH,
    FACE,
    G_BINGO,
    G_BOTH_DIRS,
    G_FULL_MASK,
    G_N,
    G_OPEN,
    G_RACK_SIZE,
    G_START_COL,
    G_START_ROW,
    G_VOWELS,
    HAS,
    LM,
    M_DIR,
    M_FIRST,
    M_LANE,
    M_LEN,
    M_LIDX,
    M_PLACED,
    M_SCORE,
    M_THROUGH,
    META,
    MODE_COUNT,
    MODE_TOP,
    OPEN_LANE,
    PSC,
    PWM,
    R_COUNT,
    R_OPEN,
    R_PLACE,
    R_POINTS,
    ROWS,
    S_ANCHOR,
    S_ANCHORS,
    S_ANCHORS_ALL,
    S_BEST,
    S_BINGO,
    S_BOTH_DIRS,
    S_CAP,
    S_COUNT,
    S_DIR,
    S_EMPTY,
    S_EXACT_BEST,
    S_FSP,
    S_FULL_LIDX,
    S_HEAPN,
    S_LANE,
    S_LIMIT,
    S_LV,
    S_METAP,
    S_MODE,
    S_N,
    S_NATMASK,
    S_OEQP,
    S_OPENING,
    S_OTP,
    S_OTW,
    S_OVER_BOUND,
    S_OVERFLOW,
    S_PRE,
    S_RACKMASK,
    S_RACKN,
    S_RACKSIZE,
    S_START_COL,
    S_START_ROW,
    S_TOPN,
    S_TOTAL,
    S_VOWELS,
    S_WHN,
    S_WHP,
    S_WKP,
    S_WRH,
    SMALL_ROWS,
    STRIP,
    TILE,
    WM,
    X_HAS,
    X_LEFT,
    X_RIGHT,
    X_SCORE,
    X_SET,
    XSET,
    Scratch,
)
from rackety.kernels.jit import njit
from rackety.kernels.leaves import best_by_kept, places, table_values
from rackety.kernels.nodes import DAWG_ROOT, GADDAG_ROOT, arc_of, is_end, is_word, root, tile_of
from rackety.kernels.raw import (
    address,
    load,
    load_f64,
    load_i32,
    load_u8,
    load_u32,
    store,
    store_f64,
    store_i32,
    store_u8,
)
from rackety.kernels.rules import out_spread

_I = types.int64
# The recursion takes the addresses of its arrays (`rackety.kernels.raw`): the
# KWG, the lane's per-lane array and the state ``st``, which holds the
# addresses of the others (`S_FSP` ...).
# (square, run, first square, tiles placed, main sum, word multiplier, cross sum,
# leave index, then the addresses): the right part and the GADDAG walk
_SIG_WALK = types.void(_I, _I, _I, _I, _I, _I, _I, _I, _I, _I, _I)
# (tiles in the left part, run, room, tiles placed, leave index, then the addresses)
_SIG_LEFT = types.void(_I, _I, _I, _I, _I, _I, _I, _I)


@njit(cache=True, nogil=True, _nrt=False)
def _heap_push(fsp, stp, eq):
    """Keep the best N equities in a min-heap (``fs`` at ``fsp``); the
    threshold is the N-th best."""
    topn = load(stp, S_TOPN)
    hn = load(stp, S_HEAPN)
    if hn < topn:
        i = hn
        store_f64(fsp, F_HEAP + i, eq)
        while i > 0:
            parent = (i - 1) // 2
            up = load_f64(fsp, F_HEAP + parent)
            here = load_f64(fsp, F_HEAP + i)
            if up <= here:
                break
            store_f64(fsp, F_HEAP + parent, here)
            store_f64(fsp, F_HEAP + i, up)
            i = parent
        store(stp, S_HEAPN, hn + 1)
        if hn + 1 == topn:
            store_f64(fsp, F_THRESH, load_f64(fsp, F_HEAP))
        return
    if eq <= load_f64(fsp, F_HEAP):
        return
    store_f64(fsp, F_HEAP, eq)
    i = 0
    while True:
        left = 2 * i + 1
        if left >= topn:
            break
        small = left
        if left + 1 < topn and load_f64(fsp, F_HEAP + left + 1) < load_f64(fsp, F_HEAP + left):
            small = left + 1
        here = load_f64(fsp, F_HEAP + i)
        low = load_f64(fsp, F_HEAP + small)
        if here <= low:
            break
        store_f64(fsp, F_HEAP + small, here)
        store_f64(fsp, F_HEAP + i, low)
        i = small
    store_f64(fsp, F_THRESH, load_f64(fsp, F_HEAP))


@njit(cache=True, nogil=True, _nrt=False)
def _compact(stp):
    """Drop stored moves that can no longer be among the best N."""
    fsp = load(stp, S_FSP)
    metap = load(stp, S_METAP)
    otp = load(stp, S_OTP)
    oeqp = load(stp, S_OEQP)
    width = load(stp, S_OTW)
    keep = 0
    thresh = load_f64(fsp, F_THRESH)
    for i in range(load(stp, S_COUNT)):
        eq = load_f64(oeqp, i)
        if eq >= thresh:
            if keep != i:
                for j in range(META):
                    store_i32(metap, keep * META + j, load_i32(metap, i * META + j))
                for j in range(load_i32(metap, i * META + M_LEN)):
                    store_u8(otp, keep * width + j, load_u8(otp, i * width + j))
                store_f64(oeqp, keep, eq)
            keep += 1
    store(stp, S_COUNT, keep)


@njit(cache=True, nogil=True, _nrt=False)
def _record(first, last, placed, score, lidx, lnp, stp, n):
    """A move found: counted, and stored in the mode's way (`generate`). The
    lane's tiles and the placed strip are in the per-lane array at ``lnp``."""
    # A one-tile play is listed once, in the direction of its main word: the down
    # pass keeps it only when the tile forms no across word (oracle README).
    if placed == 1 and load(stp, S_DIR) == 1:
        for p in range(first, last + 1):
            if load(lnp, TILE * n + p) == 0:
                if load(lnp, HAS * n + p) != 0:
                    return
                break
    if placed == load(stp, S_RACKSIZE):
        score += load(stp, S_BINGO)
    store(stp, S_TOTAL, load(stp, S_TOTAL) + 1)
    if score > load(stp, S_BEST):
        store(stp, S_BEST, score)
    mode = load(stp, S_MODE)
    if mode == MODE_COUNT:
        return
    fsp = load(stp, S_FSP)
    eq = score + load_f64(fsp, load(stp, S_LV) + lidx)
    if load(stp, S_OPENING) != 0:  # the opening's vowels beside premium squares
        vowels = load(stp, S_VOWELS)
        at = R_OPEN + OPEN_LANE * load(stp, S_DIR)
        pen = 0
        for p in range(first, last + 1):
            if (vowels >> (load(lnp, STRIP * n + p) & 63)) & 1:
                pen += load(stp, at + p)
        eq += pen / 1000.0
    if mode == MODE_TOP:
        if eq > load_f64(fsp, F_BOUND):
            store(stp, S_OVER_BOUND, load(stp, S_OVER_BOUND) + 1)  # a bound too low
        if eq < load_f64(fsp, F_THRESH):
            return
        _heap_push(fsp, stp, eq)
        if load(stp, S_COUNT) >= load(stp, S_CAP):
            _compact(stp)
    c = load(stp, S_COUNT)
    if c >= load(stp, S_CAP):
        store(stp, S_OVERFLOW, 1)
        return
    metap = load(stp, S_METAP)
    otp = load(stp, S_OTP)
    row = c * load(stp, S_OTW)
    through = 0
    for p in range(first, last + 1):
        t = load(lnp, TILE * n + p)
        if t != 0:
            through |= 1 << (p - first)
        else:
            t = load(lnp, STRIP * n + p)
        store_u8(otp, row + p - first, t)
    m = c * META
    store_i32(metap, m + M_DIR, load(stp, S_DIR))
    store_i32(metap, m + M_LANE, load(stp, S_LANE))
    store_i32(metap, m + M_FIRST, first)
    store_i32(metap, m + M_LEN, last - first + 1)
    store_i32(metap, m + M_PLACED, placed)
    store_i32(metap, m + M_SCORE, score)
    store_i32(metap, m + M_THROUGH, through)
    store_i32(metap, m + M_LIDX, lidx)
    store_f64(load(stp, S_OEQP), c, eq)
    store(stp, S_COUNT, c + 1)


NOT_ON_RACK = -1


@njit(cache=True, nogil=True)
def may_exchange(st, counts, index, rack_n, bag) -> bool:
    """Whether the exchange keeping leave ``index`` of the rack (``counts``,
    ``rack_n`` tiles, as given to `load_rack`) trades no more tiles than the
    bag holds: the rules draw the new tiles before the old go back, so a set
    whose exchange minimum is below the rack size (Spanish: 1) still cannot
    trade 5 tiles with 2 in the bag."""
    if bag >= rack_n:
        return True
    kept = 0
    for c in range(64):
        if counts[c] > 0:
            kept += (index // st[R_PLACE + c]) % (counts[c] + 1)
    return rack_n - kept <= bag


@njit(cache=True, nogil=True)
def static_equity(st, fs, rules, points, counts, bag, other_points) -> None:
    """Make the rack's leave values, written after `load_rack`, full static
    equity (what the strong engines add to score and leave, as MAGPIE's
    ``src/ent/static_eval.h`` does):

    - with the bag empty, a leave is worth what the endgame makes of it, not
      its table value: going out (keeping nothing) earns twice the tiles the
      others hold (``other_points``), keeping tiles costs twice their points
      and 10 more;
    - on the opening, a vowel placed beside a premium square costs its penalty
      (`rackety.game.state.opening_penalties`), counted as each move is found.

    ``counts``: the rack, as given to `load_rack`; ``bag``: tiles in the bag."""
    st[S_OPENING] = 0
    if st[S_EMPTY] != 0 and st[S_N] <= OPEN_LANE:
        st[S_OPENING] = 1
        st[S_VOWELS] = rules[G_VOWELS]
        for i in range(2 * OPEN_LANE):
            st[R_OPEN + i] = rules[G_OPEN + i]
    if bag > 0:
        return
    lv = st[S_LV]
    size = st[S_FULL_LIDX] + 1
    for i in range(size):
        kept = 0
        for c in range(64):
            if counts[c] > 0:
                kept += (i // st[R_PLACE + c]) % (counts[c] + 1) * points[c]
        if i == 0:
            fs[lv] = float(out_spread(other_points))
        else:  # the other player goes out next: the rack kept counts against it
            fs[lv + i] = -float(out_spread(kept)) - 10.0


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _choices(pos, board, arc, placed, kwp, stp, lnp, n):
    """Where the tiles that may go on ``pos`` are in the run at ``arc``: (first
    edge, letters allowed); an edge of -1 when nothing can go there. An
    occupied square (``board``, its tile) allows only its tile's edge; an empty
    one the letters of its cross set that the rack holds."""
    if board != 0:
        want = board & 0x7F
        e = arc
        while True:
            node = load_u32(kwp, e)
            t = tile_of(node)
            if t == want:
                return e, 0
            if t > want or is_end(node):
                return -1, 0
            e += 1
    if placed == load(stp, S_RACKN):
        return -1, 0
    allowed = load(lnp, XSET * n + pos) & load(stp, S_RACKMASK)
    if allowed == 0:
        return -1, 0
    return arc, allowed


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _take(pos, t, v, placed, main, wmul, xsum, lidx, lm, wm, pwm, psc, lnp, stp, n):
    """Put letter ``t`` from the rack on the empty square ``pos`` (its letter and
    word multipliers, its cross word's multiplier and score, read once by the
    caller): a natural tile (``v`` 0) or a blank standing for it (``v`` 1),
    taken off the rack. Returns the rack slot used (`NOT_ON_RACK` when the rack
    has no such tile) and the running totals: main-word sum, word multiplier,
    cross-word sum, tiles placed, leave index. The score of the move is main x
    multiplier + cross sum (Appel and Jacobson section 3.4)."""
    rt = t if v == 0 else 0
    left = load(stp, R_COUNT + rt)
    if left == 0:
        return NOT_ON_RACK, main, wmul, xsum, placed, lidx
    code = t if v == 0 else t | BLANK_FLAG
    val = load(stp, R_POINTS + code) * lm
    store(stp, R_COUNT + rt, left - 1)
    if left == 1:  # the last one: the letters left on the rack narrow
        if v == 0:
            natural = load(stp, S_NATMASK) & ~(np.int64(1) << t)
            store(stp, S_NATMASK, natural)
            if load(stp, R_COUNT) == 0:
                store(stp, S_RACKMASK, natural)
        else:
            store(stp, S_RACKMASK, load(stp, S_NATMASK))
    store(lnp, STRIP * n + pos, code)
    return rt, main + val, wmul * wm, xsum + val * pwm + psc, placed + 1, \
        lidx - load(stp, R_PLACE + rt)


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _untake(rt, t, mask, stp):
    """Put back on the rack what `_take` took from slot ``rt`` for letter
    ``t``; ``mask``: the rack's letters before."""
    left = load(stp, R_COUNT + rt)
    store(stp, R_COUNT + rt, left + 1)
    if left == 0:
        store(stp, S_RACKMASK, mask)
        if rt != 0:
            store(stp, S_NATMASK, load(stp, S_NATMASK) | (np.int64(1) << t))


@njit(_SIG_WALK, cache=True, nogil=True, _nrt=False)
def _dawg_right(pos, arc, first, placed, main, wmul, xsum, lidx, kwp, lnp, stp):
    """Appel and Jacobson's ExtendRight at square ``pos`` (at or right of the
    anchor) from the DAWG run at ``arc``. What a square holds is read once per
    call: stores to the rack and the strip keep the compiler from hoisting it."""
    n = load(stp, S_N)
    board = load(lnp, TILE * n + pos)
    e, allowed = _choices(pos, board, arc, placed, kwp, stp, lnp, n)
    if e < 0:
        return
    ends = pos == n - 1 or load(lnp, TILE * n + pos + 1) == 0  # a word may end here
    more = pos + 1 < n
    if board != 0:  # the board's tile: one edge
        node = load_u32(kwp, e)
        m2 = main + load(lnp, FACE * n + pos)
        if is_word(node) and placed > 0 and ends:
            _record(first, pos, placed, m2 * wmul + xsum, lidx, lnp, stp, n)
        if arc_of(node) != 0 and more:
            _dawg_right(pos + 1, arc_of(node), first, placed, m2, wmul, xsum, lidx, kwp, lnp, stp)
        return
    lm = load(lnp, LM * n + pos)
    wm = load(lnp, WM * n + pos)
    pwm = load(lnp, PWM * n + pos)
    psc = load(lnp, PSC * n + pos)
    kinds = 2 if load(stp, R_COUNT) != 0 else 1  # a blank on the rack: it may stand in
    mask = load(stp, S_RACKMASK)
    while True:
        node = load_u32(kwp, e)
        t = tile_of(node)
        if (allowed >> t) & 1:
            for v in range(kinds):
                rt, m2, w2, x2, p2, l2 = _take(pos, t, v, placed, main, wmul, xsum, lidx, lm,
                                               wm, pwm, psc, lnp, stp, n)
                if rt == NOT_ON_RACK:
                    continue
                child = arc_of(node)
                if is_word(node) and ends:
                    _record(first, pos, p2, m2 * w2 + x2, l2, lnp, stp, n)
                if child != 0 and more:
                    _dawg_right(pos + 1, child, first, p2, m2, w2, x2, l2, kwp, lnp, stp)
                _untake(rt, t, mask, stp)
        # the run is in tile order: past the last letter allowed, nothing more fits
        if is_end(node) or (allowed >> t) >> 1 == 0:
            break
        e += 1


@njit(_SIG_WALK, cache=True, nogil=True, _nrt=False)
def _gaddag(pos, arc, first, placed, main, wmul, xsum, lidx, kwp, lnp, stp):
    """Gordon's Gen at square ``pos`` (at or left of the anchor) from the GADDAG
    run at ``arc``, with GoOn inlined for every tile that can go there: the
    reversed prefix grows leftwards; where the square to the left is free, the
    separator turns the walk rightwards from the anchor. What follows the
    separator is a DAWG state (docs/FORMATS.md section 2), so the right part is
    Appel and Jacobson's ExtendRight, `_dawg_right`."""
    n = load(stp, S_N)
    anchor = load(stp, S_ANCHOR)
    board = load(lnp, TILE * n + pos)
    e, allowed = _choices(pos, board, arc, placed, kwp, stp, lnp, n)
    if e < 0:
        return
    left_free = pos == 0 or load(lnp, TILE * n + pos - 1) == 0
    further = pos - 1 > load(stp, S_LIMIT)  # more squares for the prefix, left of this
    right = anchor + 1 < n
    if board != 0:  # the board's tile: one edge
        node = load_u32(kwp, e)
        child = arc_of(node)
        m2 = main + load(lnp, FACE * n + pos)
        if is_word(node) and placed > 0 and left_free:
            _record(pos, anchor, placed, m2 * wmul + xsum, lidx, lnp, stp, n)
        if child != 0:
            if not left_free:  # a board tile: go on through it
                _gaddag(pos - 1, child, pos, placed, m2, wmul, xsum, lidx, kwp, lnp, stp)
            else:
                if further:
                    _gaddag(pos - 1, child, pos, placed, m2, wmul, xsum, lidx, kwp, lnp, stp)
                sep = load_u32(kwp, child)
                if tile_of(sep) == 0 and right and arc_of(sep) != 0:
                    _dawg_right(anchor + 1, arc_of(sep), pos, placed, m2, wmul, xsum, lidx, kwp,
                                lnp, stp)
        return
    lm = load(lnp, LM * n + pos)
    wm = load(lnp, WM * n + pos)
    pwm = load(lnp, PWM * n + pos)
    psc = load(lnp, PSC * n + pos)
    kinds = 2 if load(stp, R_COUNT) != 0 else 1  # a blank on the rack: it may stand in
    mask = load(stp, S_RACKMASK)
    while True:
        node = load_u32(kwp, e)
        t = tile_of(node)
        if t != 0 and (allowed >> t) & 1:
            for v in range(kinds):
                rt, m2, w2, x2, p2, l2 = _take(pos, t, v, placed, main, wmul, xsum, lidx, lm,
                                               wm, pwm, psc, lnp, stp, n)
                if rt == NOT_ON_RACK:
                    continue
                child = arc_of(node)
                if is_word(node) and left_free:
                    _record(pos, anchor, p2, m2 * w2 + x2, l2, lnp, stp, n)
                if child != 0:
                    if not left_free:  # a board tile: go on through it
                        _gaddag(pos - 1, child, pos, p2, m2, w2, x2, l2, kwp, lnp, stp)
                    else:
                        if further:
                            _gaddag(pos - 1, child, pos, p2, m2, w2, x2, l2, kwp, lnp, stp)
                        sep = load_u32(kwp, child)
                        if tile_of(sep) == 0 and right and arc_of(sep) != 0:
                            _dawg_right(anchor + 1, arc_of(sep), pos, p2, m2, w2, x2, l2, kwp,
                                        lnp, stp)
                _untake(rt, t, mask, stp)
        # the run is in tile order: past the last letter allowed, nothing more fits
        if is_end(node) or (allowed >> t) >> 1 == 0:
            break
        e += 1


@njit(_SIG_LEFT, cache=True, nogil=True, _nrt=False)
def _dawg_left(k, arc, room, placed, lidx, kwp, lnp, stp):
    """Appel and Jacobson's LeftPart: the left part of ``k`` tiles (in
    ``st[S_PRE:]``) leads to the DAWG run ``arc``; extend right from the anchor
    with it, then try every longer left part, up to ``room`` tiles."""
    n = load(stp, S_N)
    anchor = load(stp, S_ANCHOR)
    first = anchor - k
    main = 0
    wmul = 1
    for i in range(k):
        code = load(stp, S_PRE + i)
        store(lnp, STRIP * n + first + i, code)
        main += load(stp, R_POINTS + code) * load(lnp, LM * n + first + i)
        wmul *= load(lnp, WM * n + first + i)
    _dawg_right(anchor, arc, first, placed, main, wmul, lidx - lidx, lidx, kwp, lnp, stp)
    if k >= room or placed + 1 >= load(stp, S_RACKN):
        return
    # a longer left part: one more tile at its end; the part slides one square left
    e = arc
    while True:
        node = load_u32(kwp, e)
        t = tile_of(node)
        child = arc_of(node)
        if child != 0:
            for v in range(2):
                rt = t if v == 0 else 0
                left = load(stp, R_COUNT + rt)
                if left == 0:
                    continue
                store(stp, S_PRE + k, t if v == 0 else t | BLANK_FLAG)
                store(stp, R_COUNT + rt, left - 1)
                _dawg_left(k + 1, child, room, placed + 1, lidx - load(stp, R_PLACE + rt),
                           kwp, lnp, stp)
                store(stp, R_COUNT + rt, left)
        if is_end(node):
            break
        e += 1


@njit(cache=True, nogil=True, _nrt=False)
def fill_lanes(tiles: np.ndarray, cross: np.ndarray, lmult: np.ndarray, wmult: np.ndarray,
               points: np.ndarray, ln_all: np.ndarray, st: np.ndarray, anc: np.ndarray
               ) -> None:
    """The per-lane arrays of every lane of both directions (rows above): a
    square's letters are those its cross set and the run after it allow.

    In the same pass, Gordon's anchors (direction, lane, square and limit in
    ``anc[0:4]``, their count in ``st[S_ANCHORS_ALL]``), each with the square
    a leftward walk may not enter: the last tile of every run, and every
    empty square with no neighbour along the lane but one across it (on an
    empty board, the start square). A move is generated from the leftmost
    anchor it covers: the walk left from an anchor stops short of the previous
    anchor (and of the empty square just after a run, which would join that
    run)."""
    n = tiles.shape[1]
    xset = cross[X_SET]
    xscore = cross[X_SCORE]
    xhas = cross[X_HAS]
    xleft = cross[X_LEFT]
    xright = cross[X_RIGHT]
    count = 0
    for d in range(2):
        for lane in range(n):
            ln = ln_all[d, lane]
            limit = -1
            before = np.int64(0)  # the tile of the square before
            for p in range(n):
                t = np.int64(tiles[d, lane, p])
                after = np.int64(tiles[d, lane, p + 1]) if p < n - 1 else np.int64(0)
                ln[TILE, p] = t  # STRIP is written where a tile is placed, before it is read
                if t != 0:
                    ln[XSET, p] = 0
                    ln[AFTER, p] = 0
                    ln[LM, p] = 1
                    ln[WM, p] = 1
                    ln[PWM, p] = 0
                    ln[PSC, p] = 0
                    ln[FACE, p] = points[t]
                    ln[HAS, p] = 0
                    if after == 0:
                        anc[0, count] = d
                        anc[1, count] = lane
                        anc[2, count] = p
                        anc[3, count] = limit
                        count += 1
                        limit = p + 1
                else:
                    w = np.int64(wmult[d, lane, p])
                    has = xhas[d, lane, p]
                    ln[XSET, p] = xset[d, lane, p] & xleft[d, lane, p]
                    ln[AFTER, p] = xright[d, lane, p]
                    ln[LM, p] = lmult[d, lane, p]
                    ln[WM, p] = w
                    ln[PWM, p] = w * has
                    ln[PSC, p] = xscore[d, lane, p] * w * has
                    ln[FACE, p] = 0
                    ln[HAS, p] = has
                    if has != 0 and before == 0 and after == 0:
                        anc[0, count] = d
                        anc[1, count] = lane
                        anc[2, count] = p
                        anc[3, count] = limit
                        count += 1
                        limit = p
                before = t
    if st[S_EMPTY]:
        anc[0, 0] = 0
        anc[1, 0] = st[S_START_ROW]
        anc[2, 0] = st[S_START_COL]
        anc[3, 0] = -1
        count = 1
        if st[S_BOTH_DIRS]:
            anc[0, 1] = 1
            anc[1, 1] = st[S_START_COL]
            anc[2, 1] = st[S_START_ROW]
            anc[3, 1] = -1
            count = 2
    st[S_ANCHORS_ALL] = count


@njit(cache=True, nogil=True, inline="always")
def _has_word(st, h):
    """Whether some word's letters may add up to the multiset hash ``h``: both
    its bits in the lexicon's Bloom filter (`rackety.kernels.multisets`) at
    ``st[S_WHP]``."""
    mask = st[S_WHN] - 1
    p = st[S_WHP]
    bit = h & mask
    if not (load(p, bit >> 6) >> (bit & 63)) & 1:
        return False
    bit = (h >> 32) & mask
    return (load(p, bit >> 6) >> (bit & 63)) & 1 != 0


@njit(cache=True, nogil=True)
def _whole_rack_ok(st, h, memo):
    """Whether the whole rack and the board tiles of multiset hash ``h`` may
    spell a word (each blank tried as every letter, up to two blanks), memoised
    in ``memo`` (int64 [2, 64]: hashes and answers, cleared per rack)."""
    if st[S_WHN] == 0:
        return True
    slot = h & 63
    if memo[0, slot] == h and memo[1, slot] != 0:
        return memo[1, slot] == 1
    ok = _whole_rack_spells(st, h)
    memo[0, slot] = h
    memo[1, slot] = 1 if ok else 2
    return ok


@njit(cache=True, nogil=True)
def _whole_rack_spells(st, h):
    """`_whole_rack_ok` without the memo."""
    blanks = st[R_COUNT]
    keys = st[S_WKP]
    full = st[S_RACKMASK]
    if blanks == 0:
        return _has_word(st, h)
    if blanks > 2:
        return True
    for a in range(1, 64):  # a blank as each letter (the first it stops at)
        if not (full >> a) & 1:
            continue
        ha = h + load(keys, a)
        if blanks == 1:
            if _has_word(st, ha):
                return True
            continue
        for b in range(a, 64):  # the other blank
            if (full >> b) & 1 and _has_word(st, ha + load(keys, b)):
                return True
    return False


@njit(cache=True, nogil=True, _nrt=False)
def _anchor_bound(ln_all, d, lane, anchor, limit, vals, st, best_leave, small, out, memo, check):
    """An upper bound of the equity of every move from this anchor, on lane
    ``lane`` of direction ``d`` of the per-lane arrays (the "shadow" of wolges
    and MAGPIE). For each extent a move can cover
    (leftwards down to the limit, rightwards through board runs, at most a
    rack of empty squares, each allowing a tile of the rack by its cross set
    and its extension sets), board tiles and cross-sums count exactly, a
    the highest tiles of the rack go on the highest effective multipliers (a
    square's: letter x (word product + its cross word's multiplier); the
    rearrangement inequality), plus the best leave of the tiles not played
    (squares only one tile of the rack fits, counted as that tile, MAGPIE's
    "restricted" squares, cost more here than they saved). With
    ``check``, an extent the whole rack fills counts only if the rack and the
    extent's board tiles are the letters of some word (`_whole_rack_ok`:
    lookups, asked only of the anchors the search reaches). ``out[0]`` gets
    the bound of the score alone, ``out[1]`` the bound of the plays that keep a
    tile (what the check cannot lower). ``small``: the caller's scratch rows
    (letter multipliers, perpendicular word multipliers, sorted effective
    multipliers)."""
    ln = ln_all[d, lane]  # no reference counts here (_nrt=False): a view is free
    n = st[S_N]
    rackn = st[S_RACKN]
    mask = st[S_RACKMASK]
    lmv = small[0]
    pwv = small[1]
    ms = small[2]
    best = -1e300
    out[0] = -1e300
    out[1] = -1e300
    start = anchor
    while start > 0 and ln[TILE, start - 1] != 0:
        start -= 1
    keys = st[S_WKP] if check else np.int64(0)
    lk = 0  # empty squares left of the anchor's run, and the anchor if empty
    lwm = 1
    lfb = 0
    lfc = 0
    lhb = np.int64(0)  # the hash of the board tiles' letters (`S_WHP`)
    if ln[TILE, anchor] == 0:
        if ln[XSET, anchor] & mask == 0:
            return best
        lmv[0] = ln[LM, anchor]
        pwv[0] = ln[PWM, anchor]
        lk = 1
        lwm = ln[WM, anchor]
        lfc = ln[PSC, anchor]
    else:
        for p in range(start, anchor + 1):
            lfb += ln[FACE, p]
            if keys != 0:
                lhb += load(keys, ln[TILE, p] & 0x7F)
    first = start
    while True:
        k = lk
        wm = lwm
        fb = lfb
        fc = lfc
        hb = lhb
        last = anchor
        _effective(lmv, pwv, ms, 0, k, wm)
        while True:
            if k >= 1 and (last == n - 1 or ln[TILE, last + 1] == 0) and (
                    keys == 0 or k < rackn or _whole_rack_ok(st, st[S_WRH] + hb, memo)):
                score = fb * wm + fc
                for i in range(k):
                    score += ms[i] * vals[i]
                if k == st[S_RACKSIZE]:
                    score += st[S_BINGO]
                if score > out[0]:
                    out[0] = score
                bound = score + best_leave[rackn - k]
                if bound > best:
                    best = bound
                if k < rackn and bound > out[1]:
                    out[1] = bound
            if last == n - 1:
                break
            last += 1
            if ln[TILE, last] == 0:
                if k == rackn or ln[XSET, last] & mask == 0:
                    break
                if k == 0 and ln[AFTER, last] & mask == 0:
                    break  # no tile before the anchor's run: the word begins with it
                lmv[k] = ln[LM, last]
                pwv[k] = ln[PWM, last]
                k += 1
                if ln[WM, last] == 1:  # the others' multipliers stand: one more in order
                    _effective(lmv, pwv, ms, k - 1, k, wm)
                else:
                    wm *= ln[WM, last]
                    _effective(lmv, pwv, ms, 0, k, wm)
                fc += ln[PSC, last]
            else:
                fb += ln[FACE, last]
                if keys != 0:
                    hb += load(keys, ln[TILE, last] & 0x7F)
        first -= 1
        if first <= limit or first < 0 or lk == rackn or ln[XSET, first] & mask == 0:
            break
        lmv[lk] = ln[LM, first]  # the squares' order does not matter
        pwv[lk] = ln[PWM, first]
        lk += 1
        lwm *= ln[WM, first]
        lfc += ln[PSC, first]
    return best


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _effective(lmv, pwv, ms, done, k, wm):
    """The effective multipliers of squares ``done..k-1`` (letter x (word
    product ``wm`` + perpendicular word's)) sorted into ``ms[:done]``, highest
    first: ``ms[:k]`` then holds all ``k``."""
    for i in range(done, k):
        m = lmv[i] * (wm + pwv[i])
        j = i
        while j > 0 and ms[j - 1] < m:
            ms[j] = ms[j - 1]
            j -= 1
        ms[j] = m


@njit(cache=True, nogil=True, _nrt=False)
def _heap_up(keys, items, flags, i):
    while i > 0:
        parent = (i - 1) // 2
        if keys[parent] >= keys[i]:
            break
        keys[parent], keys[i] = keys[i], keys[parent]
        items[parent], items[i] = items[i], items[parent]
        flags[parent], flags[i] = flags[i], flags[parent]
        i = parent


@njit(cache=True, nogil=True, _nrt=False)
def _heap_down(keys, items, flags, size):
    i = 0
    while True:
        left = 2 * i + 1
        if left >= size:
            break
        big = left
        if left + 1 < size and keys[left + 1] > keys[left]:
            big = left + 1
        if keys[i] >= keys[big]:
            break
        keys[big], keys[i] = keys[i], keys[big]
        items[big], items[i] = items[i], items[big]
        flags[big], flags[i] = flags[i], flags[big]
        i = big


@njit(cache=True, nogil=True)
def _sort_anchors(order, key, count, tmp):
    """``order[:count]`` by ``key`` descending, ties in index order (a stable
    bottom-up merge sort through ``tmp``)."""
    for i in range(count):
        order[i] = i
    width = 1
    while width < count:
        lo = 0
        while lo < count:
            mid = min(lo + width, count)
            hi = min(lo + 2 * width, count)
            i, j, k = lo, mid, lo
            while i < mid and j < hi:
                if key[order[j]] > key[order[i]]:
                    tmp[k] = order[j]
                    j += 1
                else:
                    tmp[k] = order[i]
                    i += 1
                k += 1
            while i < mid:
                tmp[k] = order[i]
                i += 1
                k += 1
            while j < hi:
                tmp[k] = order[j]
                j += 1
                k += 1
            lo += 2 * width
        for i in range(count):
            order[i] = tmp[i]
        width *= 2


@njit(cache=True, nogil=True)
def _generate_gaddag(kwg, ln_all, st, fs, meta, otiles, oeq, anc, bnd, small, best_leave):
    """All moves (or the best N) of the position, by Gordon's algorithm. In the
    top mode the anchors are searched best bound first: each starts with the
    plain bound (`_anchor_bound`), and when it comes first it gets the checked
    one (`_anchor_checked`) and goes back; it is searched when it comes first
    with the checked one, and the search stops at the first bound below the
    N-th best equity found (with ``exact_best``, in the plain order, on to the
    anchors whose score bound may beat the best score)."""
    count = st[S_ANCHORS_ALL]  # found by `fill_lanes`
    groot = root(kwg, GADDAG_ROOT)
    full = st[S_FULL_LIDX]
    zero = np.int64(st[S_N] * 0)
    one = zero + 1
    order = anc[4]
    bound = bnd[0]
    sbound = bnd[1]
    kept = bnd[4]  # the bound of the plays that keep a tile
    top = st[S_MODE] == MODE_TOP
    exact = st[S_EXACT_BEST] != 0
    kwp = address(kwg)
    stp = address(st)
    vals = small[3]  # views made once: each costs reference counts
    memo = small[4:6]
    found = bnd[2]
    if top:
        for i in range(count):
            bound[i] = _anchor_bound(ln_all, anc[0, i], anc[1, i], anc[2, i], anc[3, i], vals,
                                     st, best_leave, small, found, memo, False)
            sbound[i] = found[0]
            kept[i] = found[1]
    done = 0
    if top and not exact:
        for j in range(64):
            small[5, j] = 0  # the whole-rack memo: empty
        keys = bnd[3]
        items = anc[6]
        flags = anc[7]
        size = 0
        for i in range(count):
            keys[size] = bound[i]
            items[size] = i
            flags[size] = 0
            _heap_up(keys, items, flags, size)
            size += 1
        while size > 0:
            b = keys[0]
            i = items[0]
            checked = flags[0]
            if b < fs[F_THRESH]:
                break
            if checked == 0 and b == kept[i]:
                flags[0] = 1  # the bound rests on no whole-rack play: checking keeps it
                continue
            if checked == 0:  # first time first: the checked bound, and back it goes
                keys[0] = _anchor_bound(ln_all, anc[0, i], anc[1, i], anc[2, i], anc[3, i],
                                        vals, st, best_leave, small, found, memo, True)
                flags[0] = 1
                _heap_down(keys, items, flags, size)
                continue
            size -= 1
            keys[0] = keys[size]
            items[0] = items[size]
            flags[0] = flags[size]
            _heap_down(keys, items, flags, size)
            _search_anchor(ln_all, anc, i, b, st, fs, groot, zero, one, full, kwp, stp)
            done += 1
        st[S_ANCHORS] = done
        return
    if top:
        _sort_anchors(order, bound, count, anc[5])
    else:
        for i in range(count):
            order[i] = i
    for j in range(count):
        i = order[j]
        if top and bound[i] < fs[F_THRESH]:
            # nothing here can be among the best N; with exact_best, go on only
            # where a higher score than the best so far may hide
            if not exact:
                break
            if sbound[i] <= st[S_BEST]:
                continue
        _search_anchor(ln_all, anc, i, bound[i] if top else np.inf, st, fs, groot, zero, one,
                       full, kwp, stp)
        done += 1
    st[S_ANCHORS] = done


@njit(cache=True, nogil=True, inline="always")
def _search_anchor(ln_all, anc, i, bound, st, fs, groot, zero, one, full, kwp, stp):
    """Gordon's search from anchor ``i`` (direction, lane, square, limit in
    ``anc``), the moves above ``bound`` counted as the bound's failures."""
    fs[F_BOUND] = bound
    st[S_DIR] = anc[0, i]
    st[S_LANE] = anc[1, i]
    st[S_ANCHOR] = anc[2, i]
    st[S_LIMIT] = anc[3, i]
    # the lane's address by its strides: a view would cost two reference counts
    lnp = address(ln_all) + anc[0, i] * ln_all.strides[0] + anc[1, i] * ln_all.strides[1]
    _gaddag(anc[2, i], groot, anc[2, i], zero, zero, one, zero, full, kwp, lnp, stp)


@njit(cache=True, nogil=True)
def _aj_anchor(ln, p, n):
    """Appel and Jacobson's anchor: an empty square next to a tile (any side)."""
    if ln[TILE, p] != 0:
        return False
    if ln[HAS, p] != 0:
        return True
    return (p > 0 and ln[TILE, p - 1] != 0) or (p < n - 1 and ln[TILE, p + 1] != 0)


@njit(cache=True, nogil=True)
def _generate_dawg(kwg, ln_all, st, fs, meta, otiles, oeq):
    """All moves of the position by Appel and Jacobson's algorithm: at each
    anchor, every left part over the empty non-anchor squares before it (or the
    board tiles there), then ExtendRight through the anchor."""
    n = st[S_N]
    droot = root(kwg, DAWG_ROOT)
    full = st[S_FULL_LIDX]
    zero = np.int64(st[S_N] * 0)
    one = zero + 1
    anchors = 0
    for d in range(2):
        if st[S_EMPTY] and d == 1 and not st[S_BOTH_DIRS]:
            break
        for lane in range(n):
            ln = ln_all[d, lane]
            st[S_DIR] = d
            st[S_LANE] = lane
            for p in range(n):
                if st[S_EMPTY]:
                    start_lane = st[S_START_ROW] if d == 0 else st[S_START_COL]
                    start_pos = st[S_START_COL] if d == 0 else st[S_START_ROW]
                    if lane != start_lane or p != start_pos:
                        continue
                elif not _aj_anchor(ln, p, n):
                    continue
                anchors += 1
                st[S_ANCHOR] = p
                if p > 0 and ln[TILE, p - 1] != 0:
                    first = p - 1
                    while first > 0 and ln[TILE, first - 1] != 0:
                        first -= 1
                    arc = droot
                    main = 0
                    for q in range(first, p):
                        e = arc
                        want = ln[TILE, q] & 0x7F
                        while True:
                            node = np.int64(kwg[e])
                            t = tile_of(node)
                            if t == want or t > want or is_end(node):
                                break
                            e += 1
                        if t != want:
                            arc = 0
                            break
                        arc = arc_of(node)
                        main += ln[FACE, q]
                        if arc == 0:
                            break
                    if arc != 0:
                        _dawg_right(p, arc, first, zero, main, one, zero, full,
                                    address(kwg), address(ln), address(st))
                else:
                    room = 0
                    q = p - 1
                    while q >= 0 and ln[TILE, q] == 0 and not (
                            not st[S_EMPTY] and _aj_anchor(ln, q, n)):
                        room += 1
                        q -= 1
                    _dawg_left(zero, droot, room, zero, full,
                               address(kwg), address(ln), address(st))
    st[S_ANCHORS] = anchors
    st[S_ANCHORS_ALL] = anchors


# ------------------------------------------------------------------ the entry
GADDAG = 0
DAWG = 1


def scratch(n: int, rack_size: int = 16) -> Scratch:
    """A caller's scratch for `generate` on an ``n`` x ``n`` board: the per-lane
    arrays, the anchors (direction, lane, square, limit, order, sort buffer,
    the search's heap of anchors, whether each bound is the checked one),
    their bounds (equity, score, the bound's out values, the heap's keys, the
    bound of the plays that keep a tile), the
    shadow's small arrays (multipliers, tile values, the whole-rack memo; or
    WordSmog's stacks, `rackety.kernels.wordsmog.generate`) and the best
    leave per tiles kept."""
    cap = 2 * n * n + 2
    return Scratch(np.empty((2, n, ROWS, n), np.int64), np.empty((8, cap), np.int64),
                   np.empty((5, cap), np.float64),
                   np.zeros((SMALL_ROWS, max(64, n + 1)), np.int64),
                   np.zeros(max(64, rack_size + 1), np.float64))


@njit(cache=True, nogil=True)
def load_rack(st, fs, rules, points, counts, mode, topn, cap, offset, empty, exact_best
              ) -> tuple[int, int]:
    """Set the generator's state for a rack (``counts[c]`` copies of code c) in
    ``mode`` (`MODE_ALL`, `MODE_TOP` keeping ``topn``, `MODE_COUNT`), moves
    stored from row ``offset`` up to ``cap``. Returns where the rack's leave
    values go in ``fs`` and how many there are: the caller writes them there
    (`rackety.kernels.leaves`), zero for none."""
    for c in range(64):  # placed blanks (0x80 | letter) stay 0
        st[R_POINTS + c] = points[c]
    rn = 0
    full_mask = rules[G_FULL_MASK]
    size = places(counts, st[R_PLACE:R_PLACE + 64])
    natural = 0
    for c in range(64):
        st[R_COUNT + c] = counts[c]
        if counts[c] > 0:
            rn += counts[c]
            if c != 0:
                natural |= np.int64(1) << c
    mask = natural | full_mask if counts[0] > 0 else natural
    st[S_N] = rules[G_N]
    st[S_RACKN] = rn
    st[S_RACKSIZE] = rules[G_RACK_SIZE]
    st[S_BINGO] = rules[G_BINGO]
    st[S_RACKMASK] = mask
    st[S_NATMASK] = natural
    st[S_MODE] = mode
    st[S_COUNT] = offset
    st[S_TOTAL] = 0
    st[S_BEST] = -1
    st[S_CAP] = cap
    st[S_OVERFLOW] = 0
    st[S_OVER_BOUND] = 0
    st[S_TOPN] = max(1, topn)
    st[S_HEAPN] = 0
    st[S_EMPTY] = 1 if empty else 0
    st[S_START_ROW] = rules[G_START_ROW]
    st[S_START_COL] = rules[G_START_COL]
    st[S_BOTH_DIRS] = rules[G_BOTH_DIRS]
    st[S_EXACT_BEST] = 1 if exact_best else 0
    st[S_OPENING] = 0
    st[S_FULL_LIDX] = size - 1
    lv = F_HEAP + max(1, topn)
    st[S_LV] = lv
    fs[F_THRESH] = -np.inf
    fs[F_BOUND] = np.inf
    for i in range(size):
        fs[lv + i] = 0.0
    return lv, size


@njit(cache=True, nogil=True)
def use_words(st, bitmap, keys) -> None:
    """Let the shadow bounds check plays of the whole rack against the lexicon's
    words as letter multisets (`rackety.lexicon.Lexicon.word_multisets`); the
    caller keeps the arrays alive while ``st`` is used."""
    st[S_WHP] = address(bitmap)
    st[S_WHN] = bitmap.shape[0] * 64  # bits
    st[S_WKP] = address(keys)


LEAVES_NONE = 0  # no leave values: equity = score
LEAVES_TABLE = 1  # a leave table (a KLV2's nodes, counts, values)
LEAVES_GIVEN = 2  # the rack's leave values, given by leave index


def moves_of(kwg, words, consts, position, request, generator, st, fs, out, scratch
             ) -> tuple[float, int, int, int, int, int, int, int, int]:
    """A position's moves in one call (what `rackety.game.movegen.generate`
    asks for in ``request``, a `rackety.kernels.fields.Request`; ``words``: the
    lexicon's, for `use_words`): the rack's state
    (`load_rack`), its leave values (a table's, by the one leave walk, or
    ``given``), the exchanges (every leave but the whole rack's that trades
    no more tiles than the bag holds, when ``exchanges``: the bag's tiles, 0
    when no exchange is allowed) and the pass competing for the top N,
    the generation, and in the top mode the cut: the N-th best equity among
    placements, exchanges and the pass; the placements below it are dropped.
    Returns (the cut, -inf in the other modes; the placements in ``out``; where
    the leave values are in ``fs`` and how many; the placements in all, the
    best score, the anchors searched and in all, the moves over a bound), so
    the caller reads nothing back from ``st``.

    Not a kernel itself: it picks `moves_of_gaddag` (the usual generator,
    compiled without the DAWG one, which a first run would compile for
    nothing) or `moves_of_any`, the same kernel for either generator. They
    take ``consts``, ``request``, ``out`` and ``scratch`` as plain tuples of
    the same fields, read by unpacking: numba's dispatch types a named tuple
    argument about half a microsecond slower (it fingerprints the class and
    its field names), and this is called for every position."""
    consts, request, out, scratch = tuple(consts), tuple(request), tuple(out), tuple(scratch)
    if generator == GADDAG:
        return moves_of_gaddag(kwg, words, consts, position, request, st, fs, out, scratch)
    return moves_of_any(kwg, words, consts, position, request, generator, st, fs, out, scratch)


@njit(cache=True, nogil=True)
def moves_of_gaddag(kwg, words, consts, position, request, st, fs, out, scratch
                    ) -> tuple[float, int, int, int, int, int, int, int, int]:
    """`moves_of` with Gordon's generator."""
    lv, size = _moves_begin(words, consts, position, request, st, fs, scratch)
    _prepare(consts, position, st, fs, out, scratch)
    meta, otiles, oeq = out
    ln_all, anc, bnd, small, best_leave = scratch
    _generate_gaddag(kwg, ln_all, st, fs, meta, otiles, oeq, anc, bnd, small, best_leave)
    return _moves_end(st, fs, out, request, lv, size)


@njit(cache=True, nogil=True)
def moves_of_any(kwg, words, consts, position, request, generator, st, fs, out, scratch
                 ) -> tuple[float, int, int, int, int, int, int, int, int]:
    """`moves_of` with either ``generator``."""
    lv, size = _moves_begin(words, consts, position, request, st, fs, scratch)
    generate(kwg, consts, position, st, fs, out, scratch, generator)
    return _moves_end(st, fs, out, request, lv, size)


@njit(cache=True, nogil=True, inline="always")
def _moves_begin(words, consts, position, request, st, fs, scratch) -> tuple[int, int]:
    """`moves_of` up to the generation: the rack's state, its leave values,
    the exchanges and the pass. Returns where the leave values are in ``fs``
    and how many."""
    bitmap, keys = words
    use_words(st, bitmap, keys)
    _lanes, _anchors, _bounds, small, _best_leave = scratch
    # the rack's counts go in the shadow's tile values, filled after this is read
    return load_request(consts, position[0], request, st, fs, small[3])


@njit(cache=True, nogil=True, inline="always")
def load_request(consts, tiles, request, st, fs, counts) -> tuple[int, int]:
    """The rack a request asks about (`rackety.kernels.fields.Request`, as a
    tuple), loaded for a generation on ``tiles`` (the board [2, n, n]): its
    counts (written in ``counts``, 64 codes at least), its state
    (`load_rack`), its leave values (a table's, by the one leave walk, or
    given), the static terms, and in the top mode the exchanges and the pass
    in the top-N heap. Returns where the leave values are in ``fs`` and how
    many. The classic generator's `moves_of` and WordSmog's call it."""
    rack, leaves, kind, given, bag, other, mode, topn, cap, exchanges, exact_best = request
    _lm2, _wm2, points, rules = consts
    for c in range(64):
        counts[c] = 0
    for i in range(rack.shape[0]):
        counts[rack[i]] += 1
    empty = True
    for p in range(tiles.shape[1]):
        for q in range(tiles.shape[2]):
            if tiles[0, p, q] != 0:
                empty = False
                break
        if not empty:
            break
    lv, size = load_rack(st, fs, rules, points, counts, mode, topn, cap, 0, empty, exact_best)
    if kind == LEAVES_TABLE:
        table_values(leaves[0], leaves[1], leaves[2], 0, 0, counts, fs[lv:lv + size])
    elif kind == LEAVES_GIVEN:
        for i in range(size):
            fs[lv + i] = given[i]
    if kind != LEAVES_NONE and bag >= 0:
        static_equity(st, fs, rules, points, counts, bag, other)
    top = mode == MODE_TOP
    if top:  # the exchanges and the pass compete for the top N
        if exchanges:
            for i in range(size - 1):
                if may_exchange(st, counts, i, rack.shape[0], exchanges):
                    _heap_push(address(fs), address(st), fs[lv + i])
        _heap_push(address(fs), address(st), fs[lv + size - 1])
    return lv, size


@njit(cache=True, nogil=True, inline="always")
def _moves_end(st, fs, out, request, lv, size
               ) -> tuple[float, int, int, int, int, int, int, int, int]:
    """`moves_of` after the generation: in the top mode, the cut."""
    _rack, _leaves, _kind, _given, _bag, _other, mode, topn, _cap, _exchanges, _exact = request
    top = mode == MODE_TOP
    if not top or st[S_OVERFLOW]:
        return (-np.inf, st[S_COUNT], lv, size, st[S_TOTAL], st[S_BEST], st[S_ANCHORS],
                st[S_ANCHORS_ALL], st[S_OVER_BOUND])
    # the heap holds the N best equities of all (placements, exchanges, the pass):
    # its least is the cut
    meta, otiles, oeq = out
    count = st[S_COUNT]
    cut = fs[F_HEAP] if st[S_HEAPN] == topn else -np.inf
    keep = 0
    for i in range(count):
        if oeq[i] >= cut:
            if keep != i:
                for j in range(META):
                    meta[keep, j] = meta[i, j]
                for j in range(meta[i, M_LEN]):
                    otiles[keep, j] = otiles[i, j]
                oeq[keep] = oeq[i]
            keep += 1
    st[S_COUNT] = keep
    return (cut, keep, lv, size, st[S_TOTAL], st[S_BEST], st[S_ANCHORS], st[S_ANCHORS_ALL],
            st[S_OVER_BOUND])


@njit(cache=True, nogil=True)
def heap_push(st, fs, equity) -> None:
    """Raise the top mode's threshold as if a move of ``equity`` had been kept
    (the exchanges, which the generator does not list, compete for the top N)."""
    _heap_push(address(fs), address(st), equity)


@njit(cache=True, nogil=True)
def generate(kwg, consts, position, st, fs, out, scratch, generator) -> None:
    """Every move (`load_rack` set the mode) of the position: ``consts`` a
    `Consts` (`rackety.game.state.kernel_consts`), ``position`` = (tiles
    [2, n, n], cross sets [X_ROWS, 2, n, n] as `rackety.kernels.crosssets`
    computes them), ``out`` an `Output`, the caller's buffers, ``scratch``
    from `scratch`; ``generator`` `GADDAG`
    (Gordon) or `DAWG` (Appel and Jacobson). The moves go into ``out`` from
    ``st[S_COUNT]``; ``st`` then holds the count, the total and the best score."""
    _prepare(consts, position, st, fs, out, scratch)
    meta, otiles, oeq = out
    ln_all, anc, bnd, small, best_leave = scratch
    if generator == GADDAG:
        _generate_gaddag(kwg, ln_all, st, fs, meta, otiles, oeq, anc, bnd, small, best_leave)
    else:
        _generate_dawg(kwg, ln_all, st, fs, meta, otiles, oeq)


@njit(cache=True, nogil=True)
def generate_gaddag(kwg, consts, position, st, fs, out, scratch) -> None:
    """`generate` with Gordon's generator (what self-play and the endgame
    use: the DAWG one is then never compiled)."""
    _prepare(consts, position, st, fs, out, scratch)
    meta, otiles, oeq = out
    ln_all, anc, bnd, small, best_leave = scratch
    _generate_gaddag(kwg, ln_all, st, fs, meta, otiles, oeq, anc, bnd, small, best_leave)


@njit(cache=True, nogil=True, inline="always")
def _prepare(consts, position, st, fs, out, scratch) -> None:
    """`generate` up to the generator: the output's addresses, the lanes, and
    in the top mode the shadow's rack values and best leaves."""
    lm2, wm2, points, _rules = consts
    tiles, cross = position
    meta, otiles, oeq = out
    ln_all, anc, _bnd, small, best_leave = scratch
    if st[S_MODE] == MODE_TOP and st[S_WHN] > 0:
        h = np.int64(0)
        for c in range(1, 64):
            h += st[R_COUNT + c] * load(st[S_WKP], c)
        st[S_WRH] = h
    st[S_FSP] = address(fs)
    st[S_METAP] = address(meta)
    st[S_OTP] = address(otiles)
    st[S_OEQP] = address(oeq)
    st[S_OTW] = otiles.shape[1]
    fill_lanes(tiles, cross, lm2, wm2, points, ln_all, st, anc)
    if st[S_MODE] == MODE_TOP:
        # the rack's tile values, highest first, and the best leave per tiles
        # kept (the shadow bounds)
        vals = small[3]
        n = 0
        for c in range(64):
            for _ in range(st[R_COUNT + c]):
                vals[n] = points[c]
                n += 1
        for i in range(n, 64):
            vals[i] = 0
        for i in range(1, n):  # insertion sort, descending
            v = vals[i]
            j = i
            while j > 0 and vals[j - 1] < v:
                vals[j] = vals[j - 1]
                j -= 1
            vals[j] = v
        lv = st[S_LV]
        size = st[S_FULL_LIDX] + 1
        best_by_kept(fs[lv:lv + size], size, st[R_COUNT:R_COUNT + 64],
                     st[R_PLACE:R_PLACE + 64], n, best_leave)
