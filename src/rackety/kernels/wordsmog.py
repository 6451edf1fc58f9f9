"""WordSmog ("jumbled") move generation: a play is valid when every word it
forms, the main word and each cross word, is an anagram of a word of the
lexicon. Scoring is classic. The kernels read the lexicon's alphagrams
(`rackety.lexicon.Lexicon.alphagrams`: each word's codes sorted, in a DAWG),
so a tile string is an anagram of a word when, sorted, it is accepted there.

The generator works span by span: in each lane, each run of squares
``[a, b]`` (two or more, nothing just before or after it) with one to
rack-size empty squares that touches the board (or covers the start square
on an empty board). Its board tiles are fixed, so the main word is their
multiset plus one rack tile per empty square. The alphagram DAWG is walked
in code order (`_spans`): a letter is the next board tile of the span's
sorted tiles when it is that tile (board copies of a letter come first),
else a natural tile of the rack or a blank (naturals before blanks for one
letter), so each multiset of placed tiles is reached once. Each multiset
found is then laid on the empty squares in every distinct order the
squares' cross sets allow (`_assign`), and each is one move: the same
rows of ``meta`` (``M_*``), ``otiles`` and ``oeq`` as the classic
generator (`rackety.kernels.generate`), equity the score plus the leave's
value as `rackety.kernels.generate.load_rack` set them.

A square's cross set is every letter t such that the perpendicular tiles
and t are an anagram of a word: `rackety.kernels.crosssets` computes them
over the alphagrams (``graph`` `rackety.kernels.bits.GRAPH_ALPHAGRAMS`), and
the caller keeps them as it keeps the classic ones (a game state's, the
move generator's per board), updated lane by lane after a move. Nothing is
allocated: the walks run over the caller's stacks, the small arrays of the
classic generator's scratch (`rackety.kernels.fields.Scratch`, or `room`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rackety.kernels.fields import (
    BLANK_FLAG,
    F_HEAP,
    F_THRESH,
    G_BOTH_DIRS,
    G_FULL_MASK,
    G_START_COL,
    G_START_ROW,
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
    R_COUNT,
    R_OPEN,
    R_PLACE,
    S_BEST,
    S_BINGO,
    S_CAP,
    S_COUNT,
    S_FULL_LIDX,
    S_HEAPN,
    S_LV,
    S_MODE,
    S_OPENING,
    S_OVERFLOW,
    S_RACKN,
    S_RACKSIZE,
    S_TOTAL,
    S_VOWELS,
    SMALL_ROWS,
    X_HAS,
    X_SCORE,
    X_SET,
)
from rackety.kernels.generate import heap_push, load_request
from rackety.kernels.jit import njit
from rackety.kernels.nodes import DAWG_ROOT, arc_of, is_end, is_word, root, seek, tile_of


class Lane(NamedTuple):
    """The lane a span lies in: its tiles, letter and word multipliers."""

    line: np.ndarray
    lm: np.ndarray
    wm: np.ndarray


class Room(NamedTuple):
    """What a call works in and writes: the cross sets, the points of the
    codes, the rack's state (``st``, ``fs``), the output rows and the walk's
    stacks (``wk``)."""

    cross: np.ndarray
    points: np.ndarray
    st: np.ndarray
    fs: np.ndarray
    meta: np.ndarray
    otiles: np.ndarray
    oeq: np.ndarray
    wk: np.ndarray


LEAVES_NONE = 0  # as `rackety.kernels.generate.moves_of`: equity = score
LEAVES_TABLE = 1
LEAVES_GIVEN = 2

# rows of the work array ``wk[WK_ROWS, 64]`` of one call
_BSORT = 0  # the span's board tiles, sorted by code
_NODE = 1  # the DAWG node chosen at each depth of the alphagram walk
_OPT = 2  # how its letter was taken: 0 a board tile, 1 a natural tile, 2 a blank
_EMPTY = 3  # the span's empty squares
_TYPE = 4  # the distinct placed tiles of a multiset (codes, 0x80 on blanks)
_CNT = 5  # copies of each left to lay
_PICK = 6  # the type laid on each empty square
_STRIP = 7  # the tile laid on each square of the lane (0 where the board has one)
_BUF = 8  # a word's codes, for the word check
_WK_ROWS = 9
_WIDTH = 64
assert _WK_ROWS <= SMALL_ROWS  # the stacks fit in a scratch's small arrays


@njit(cache=True, nogil=True)
def accepts_sorted(kwg: np.ndarray, codes: np.ndarray, m: int) -> bool:
    """Whether ``codes[:m]``, sorted, is an alphagram of the DAWG."""
    if m <= 0:
        return False
    run = root(kwg, DAWG_ROOT)
    node = np.int64(-1)
    for i in range(m):
        node = seek(kwg, run, np.int64(codes[i]))
        if node < 0:
            return False
        run = arc_of(np.int64(kwg[node]))
    return is_word(np.int64(kwg[node]))


@njit(cache=True, nogil=True)
def is_anagram(kwg: np.ndarray, tiles: np.ndarray, m: int, buf: np.ndarray) -> bool:
    """Whether ``tiles[:m]`` (codes, blank flags ignored) is an anagram of a
    word: sorted into ``buf``, then looked up in the alphagram DAWG ``kwg``."""
    for i in range(m):
        v = np.int64(tiles[i]) & 0x7F
        j = i
        while j > 0 and buf[j - 1] > v:
            buf[j] = buf[j - 1]
            j -= 1
        buf[j] = v
    return accepts_sorted(kwg, buf, m)


@njit(cache=True, nogil=True)
def _record(d, lane, a, b, k, lane_arrays, room):
    """One move found (the tiles laid in ``wk[_STRIP]``): scored, counted and
    stored as the classic generator stores its moves."""
    line, lm, wm = lane_arrays
    cross, points, st, fs, meta, otiles, oeq, wk = room
    if k == 1 and d == 1:  # a one-tile play is listed across when it makes an across word
        e = wk[_EMPTY, 0]
        if cross[X_HAS, 1, lane, e] != 0:
            return
    main = 0
    wmul = 1
    side = 0
    lidx = st[S_FULL_LIDX]
    for p in range(a, b + 1):
        t = np.int64(line[p])
        if t != 0:
            if t & BLANK_FLAG == 0:
                main += points[t]
            continue
        t = wk[_STRIP, p]
        v = 0
        if t & BLANK_FLAG == 0:
            v = points[t] * lm[p]
            lidx -= st[R_PLACE + t]
        else:
            lidx -= st[R_PLACE]
        main += v
        wmul *= wm[p]
        if cross[X_HAS, d, lane, p] != 0:
            side += (cross[X_SCORE, d, lane, p] + v) * wm[p]
    score = main * wmul + side
    if k == st[S_RACKSIZE]:
        score += st[S_BINGO]
    st[S_TOTAL] += 1
    if score > st[S_BEST]:
        st[S_BEST] = score
    mode = st[S_MODE]
    if mode == MODE_COUNT:
        return
    eq = score + fs[st[S_LV] + lidx]
    if st[S_OPENING] != 0:  # the opening's vowels beside premium squares
        vowels = st[S_VOWELS]
        pen = 0
        for p in range(a, b + 1):
            if (vowels >> (wk[_STRIP, p] & 63)) & 1:
                pen += st[R_OPEN + OPEN_LANE * d + p]
        eq += pen / 1000.0
    if mode == MODE_TOP:
        if eq < fs[F_THRESH]:
            return
        heap_push(st, fs, eq)
        if st[S_COUNT] >= st[S_CAP]:
            _compact(st, fs, meta, otiles, oeq, fs[F_THRESH])
    c = st[S_COUNT]
    if c >= st[S_CAP]:
        st[S_OVERFLOW] = 1
        return
    through = 0
    for p in range(a, b + 1):
        t = line[p]
        if t != 0:
            through |= 1 << (p - a)
        else:
            t = wk[_STRIP, p]
        otiles[c, p - a] = t
    meta[c, M_DIR] = d
    meta[c, M_LANE] = lane
    meta[c, M_FIRST] = a
    meta[c, M_LEN] = b - a + 1
    meta[c, M_PLACED] = k
    meta[c, M_SCORE] = score
    meta[c, M_THROUGH] = through
    meta[c, M_LIDX] = lidx
    oeq[c] = eq
    st[S_COUNT] = c + 1


@njit(cache=True, nogil=True)
def _compact(st, fs, meta, otiles, oeq, cut) -> None:
    """Keep only the stored moves of equity ``cut`` or more."""
    keep = 0
    for i in range(st[S_COUNT]):
        if oeq[i] >= cut:
            if keep != i:
                for j in range(META):
                    meta[keep, j] = meta[i, j]
                for j in range(meta[i, M_LEN]):
                    otiles[keep, j] = otiles[i, j]
                oeq[keep] = oeq[i]
            keep += 1
    st[S_COUNT] = keep


@njit(cache=True, nogil=True)
def _assign(d, lane, a, b, k, ntypes, lane_arrays, room) -> None:
    """Lay the multiset of placed tiles (``wk[_TYPE]``, ``wk[_CNT]``) on the
    span's empty squares in every distinct order their cross sets allow."""
    cross = room.cross
    wk = room.wk
    j = 0
    wk[_PICK, 0] = -1
    while j >= 0:
        e = wk[_EMPTY, j]
        u = wk[_PICK, j]
        if u >= 0:
            wk[_CNT, u] += 1
        u += 1
        allowed = cross[X_SET, d, lane, e]
        while u < ntypes and (wk[_CNT, u] == 0 or not (allowed >> (wk[_TYPE, u] & 0x7F)) & 1):
            u += 1
        if u == ntypes:
            wk[_PICK, j] = -1
            j -= 1
            continue
        wk[_PICK, j] = u
        wk[_CNT, u] -= 1
        wk[_STRIP, e] = wk[_TYPE, u]
        if j + 1 == k:
            _record(d, lane, a, b, k, lane_arrays, room)
        else:
            j += 1
            wk[_PICK, j] = -1


@njit(cache=True, nogil=True)
def _span(kwg, d, lane, a, b, k, lane_arrays, room, letters) -> None:
    """Every move of the span ``[a, b]`` of a lane (``line``: its tiles), ``k``
    squares of it empty. ``letters``: what the empty squares' cross sets
    allow together."""
    line = lane_arrays.line
    st = room.st
    wk = room.wk
    nb = 0
    ne = 0
    for p in range(a, b + 1):
        t = np.int64(line[p])
        if t != 0:
            v = t & 0x7F
            j = nb
            while j > 0 and wk[_BSORT, j - 1] > v:
                wk[_BSORT, j] = wk[_BSORT, j - 1]
                j -= 1
            wk[_BSORT, j] = v
            nb += 1
        else:
            wk[_EMPTY, ne] = p
            ne += 1
    length = b - a + 1
    # the walk: at each depth the node chosen and how its letter was taken
    depth = 0
    ub = 0  # board tiles used (in sorted order)
    placed = 0
    wk[_NODE, 0] = root(kwg, DAWG_ROOT)
    wk[_OPT, 0] = -1
    if wk[_NODE, 0] == 0:
        return
    while depth >= 0:
        i = wk[_NODE, depth]
        o = wk[_OPT, depth]
        if o >= 0:  # undo the choice made at this depth
            c = tile_of(np.int64(kwg[i]))
            if o == 0:
                ub -= 1
            else:
                placed -= 1
                st[R_COUNT + (c if o == 1 else 0)] += 1
        found = False
        while True:
            node = np.int64(kwg[i])
            c = tile_of(node)
            nextb = wk[_BSORT, ub] if ub < nb else 64
            if c > nextb:
                break  # a board tile left behind: no sibling after can take it
            o += 1
            if o == 0:
                if c == nextb:
                    found = True
                else:
                    o = 1  # not the next board tile: a rack tile, if any may go
            if not found and c != nextb and placed < k and (letters >> c) & 1:
                if o == 1:
                    # a natural tile, unless a blank took this letter just before
                    if st[R_COUNT + c] > 0 and not (
                            depth > 0 and wk[_OPT, depth - 1] == 2
                            and tile_of(np.int64(kwg[wk[_NODE, depth - 1]])) == c):
                        found = True
                    else:
                        o = 2
                if o == 2 and st[R_COUNT] > 0:
                    found = True
            if found:
                break
            if is_end(node):
                break
            i += 1
            o = -1
        if not found:
            wk[_OPT, depth] = -1
            depth -= 1
            continue
        wk[_NODE, depth] = i
        wk[_OPT, depth] = o
        if o == 0:
            ub += 1
        else:
            placed += 1
            st[R_COUNT + (c if o == 1 else 0)] -= 1
        if depth + 1 == length:
            if is_word(node):
                # the multiset of placed tiles, as distinct types and counts
                ntypes = 0
                for q in range(length):
                    oq = wk[_OPT, q]
                    if oq == 0:
                        continue
                    t = tile_of(np.int64(kwg[wk[_NODE, q]]))
                    if oq == 2:
                        t |= BLANK_FLAG
                    if ntypes > 0 and wk[_TYPE, ntypes - 1] == t:
                        wk[_CNT, ntypes - 1] += 1
                    else:
                        wk[_TYPE, ntypes] = t
                        wk[_CNT, ntypes] = 1
                        ntypes += 1
                _assign(d, lane, a, b, k, ntypes, lane_arrays, room)
            continue
        child = arc_of(node)
        if child != 0:
            depth += 1
            wk[_NODE, depth] = child
            wk[_OPT, depth] = -1


@njit(cache=True, nogil=True)
def generate(kwg, consts, position, st, fs, out, wk) -> tuple[int, int]:
    """Every WordSmog move of the position for the rack
    `rackety.kernels.generate.load_rack` set in ``st`` and ``fs``, into
    ``out`` = (meta, otiles, oeq) from ``st[S_COUNT]``, as
    `rackety.kernels.generate.generate` generates the classic ones:
    ``position`` = (tiles [2, n, n], its WordSmog cross sets [X_ROWS, 2, n, n],
    `rackety.kernels.crosssets` over the alphagrams ``kwg``); ``wk`` the
    walk's stacks (`room`, or a scratch's ``small``: int64 [`_WK_ROWS` at
    least, 64 and n + 1 at least]). Returns the spans searched and the spans
    in all."""
    lm2, wm2, points, rules = consts
    tiles, cross = position
    meta, otiles, oeq = out
    n = tiles.shape[1]
    full = rules[G_FULL_MASK]
    rack_n = st[S_RACKN]
    rackmask = np.int64(0)
    for c in range(1, 64):
        if st[R_COUNT + c] > 0:
            rackmask |= np.int64(1) << c
    if st[R_COUNT] > 0:
        rackmask |= full
    empty = True
    for p in range(n):
        for q in range(n):
            if tiles[0, p, q] != 0:
                empty = False
    room = Room(cross, points, st, fs, meta, otiles, oeq, wk)
    searched = 0
    spans = 0
    for p in range(n):
        wk[_STRIP, p] = 0
    for d in range(2):
        if d == 1 and empty and rules[G_BOTH_DIRS] == 0:
            break
        for lane in range(n):
            line = tiles[d, lane]
            lm = lm2[d, lane]
            wm = wm2[d, lane]
            for a in range(n):
                if a > 0 and line[a - 1] != 0:
                    continue
                k = 0
                touches = False
                letters = full
                dead = False
                for b in range(a, n):
                    if line[b] == 0:
                        k += 1
                        if cross[X_HAS, d, lane, b] != 0:
                            touches = True
                        allowed = cross[X_SET, d, lane, b] & rackmask
                        if allowed == 0:
                            dead = True  # no tile of the rack may go here
                        if k == 1:
                            letters = allowed
                        else:
                            letters |= allowed
                    else:
                        touches = True
                    if k > rack_n or dead:
                        break
                    if b == a or k == 0 or (b + 1 < n and line[b + 1] != 0):
                        continue
                    if empty:
                        sr, sc = rules[G_START_ROW], rules[G_START_COL]
                        if d == 1:
                            sr, sc = sc, sr
                        if lane != sr or not a <= sc <= b:
                            continue
                    elif not touches:
                        continue
                    spans += 1
                    searched += 1
                    _span(kwg, d, lane, a, b, k, Lane(line, lm, wm), room, letters)
                    for q in range(a, b + 1):
                        wk[_STRIP, q] = 0
    return searched, spans


def room(n: int) -> np.ndarray:
    """The stacks `generate` works in on an ``n`` x ``n`` board, for a caller
    without a scratch (`rackety.kernels.generate.scratch`, whose small arrays
    serve), made once."""
    return np.zeros((_WK_ROWS, max(_WIDTH, n + 1)), np.int64)


@njit(cache=True, nogil=True)
def moves_of(kwg, consts, position, request, st, fs, out, wk
             ) -> tuple[float, int, int, int, int, int, int, int, int]:
    """A position's WordSmog moves in one call, as `rackety.kernels.generate.moves_of`
    gives the classic ones (the same arguments but the lexicon's: ``kwg`` is
    its alphagrams and ``position`` holds their cross sets, as `generate`
    takes them; ``wk`` from `room`), and the same results: (the cut, the
    placements stored, where the leave values are in ``fs`` and how many,
    the placements in all, the best score, the spans searched, the spans in
    all, 0). ``request`` a `rackety.kernels.fields.Request`, loaded as the
    classic generator loads it (`rackety.kernels.generate.load_request`);
    every move is found, so the best score is always exact. The tuples may
    be named or plain (the fields read by unpacking)."""
    lv, size = load_request(consts, position[0], request, st, fs, wk[_BUF])
    _rack, _leaves, _kind, _given, _bag, _other, mode, topn, _cap, _exchanges, _exact = request
    top = mode == MODE_TOP
    searched, spans = generate(kwg, consts, position, st, fs, out, wk)
    cut = -np.inf
    if top and not st[S_OVERFLOW]:
        if st[S_HEAPN] == topn:
            cut = fs[F_HEAP]
        meta, otiles, oeq = out
        _compact(st, fs, meta, otiles, oeq, cut)
    return (cut, st[S_COUNT], lv, size, st[S_TOTAL], st[S_BEST], searched, spans, 0)
