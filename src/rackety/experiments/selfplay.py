"""Whole games of computer players in one compiled call.

`rackety.experiments.autoplay` plays a game through `Game` and the players' Python objects,
which costs more than the move generation itself. Here the whole loop runs in
numba for the static players (greedy, Gordon's H1-H3, a KLV leave table): the
racks, the bag and its shuffles, the choice of the move (the same rules as
`GreedyPlayer` and `StaticPlayer`, ties broken the same way), the board and the
cross sets updated lane by lane, and the end of the game. The bag is shuffled
by the same splitmix64 Fisher-Yates as `Game`, so a game played here is the
very game `autoplay.play_game` plays with the same seed and players; a test
checks that they agree event for event.

The result is a few arrays of events, turned into a `Game` (for its check, its
GCG or its statistics) by replaying them with `Game.play` only when asked.

The kernels call the move generator's (`movegen.kernels`, `movegen.crosssets`)
and the leave models' (`players.heuristics`, `lexicon.klv`): numba's cache
watches only this file, so after changing one of those in development, clear
``__pycache__`` (NUMBA.md, trap 5). CI always starts from an empty cache.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from rackety.game.heuristics import _leave_values as _heuristic_values
from rackety.kernels import crosssets as _cs
from rackety.kernels import generate as _k
from rackety.lexicon.klv import _rack_values as _klv_values

if TYPE_CHECKING:
    from rackety.game.referee import Game
    from rackety.lexicon import Lexicon

LEAVE_NONE = 0  # greedy: the score alone, no exchange unless nothing can be placed
LEAVE_HEURISTIC = 1
LEAVE_KLV = 2

EV_PLAY, EV_EXCHANGE, EV_PASS, EV_END_POINTS, EV_END_PENALTY = range(5)
MAX_EVENTS = 1024
U64 = np.uint64


@njit(cache=True, nogil=True)
def _splitmix(state):
    state = state + U64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> U64(30))) * U64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> U64(27))) * U64(0x94D049BB133111EB)
    return state, z ^ (z >> U64(31))


@njit(cache=True, nogil=True)
def _shuffle(items, n, state):
    """`rackety.game.shuffle`, bit for bit."""
    for i in range(n - 1, 0, -1):
        state, z = _splitmix(state)
        j = np.int64(z % U64(i + 1))
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp
    return state


@njit(cache=True, nogil=True)
def _remove_first(rack, n, tile):
    """Remove the first copy of ``tile`` from ``rack[:n]`` (as `list.remove`)."""
    for i in range(n):
        if rack[i] == tile:
            for j in range(i, n - 1):
                rack[j] = rack[j + 1]
            return n - 1
    return n


@njit(cache=True, nogil=True)
def decide(kwg, gaddag, tiles, xset, xscore, xhas, ln_all, lm2, wm2, points, full_mask,
           start_row, start_col, symmetric, rack_size, bingo, exchange_min, rack, rn, bag_n,
           empty, kind, h_value, h_penalty, h_vowel, h_balance, klv_nodes, klv_counts,
           klv_values, meta, otiles, oeq, traded, out, outf) -> int:
    """The move a static player makes with ``rack[:rn]`` (the rules of
    `GreedyPlayer` and `StaticPlayer`, ties broken as `MoveList` sorts): returns
    `EV_PLAY` (the placement is row ``out[0]`` of ``meta``/``otiles``),
    `EV_EXCHANGE` (``out[2]`` tiles in ``traded``) or `EV_PASS`. ``out[1]``: the
    best placement score (-1: none); ``outf[0]``: the value of the tiles kept."""
    # the rack's leave table (FAST-MOVEGEN.md section 4.2)
    counts = np.zeros(64, np.int64)
    for i in range(rn):
        counts[rack[i]] += 1
    place = np.zeros(64, np.int64)
    size = 1
    for c in range(64):
        if counts[c] > 0:
            place[c] = size
            size *= counts[c] + 1
    codes = np.empty(rn, np.int64)
    for i in range(rn):
        codes[i] = rack[i]
    if kind == LEAVE_HEURISTIC:
        leaves = _heuristic_values(codes, h_value, h_penalty, h_vowel, h_balance)
    elif kind == LEAVE_KLV:
        leaves = _klv_values(klv_nodes, klv_counts, klv_values, codes)
    else:
        leaves = np.zeros(size, np.float64)
    full = size - 1
    best_leave = np.full(rn + 1, -1e300)
    for idx in range(size):
        kept = 0
        for c in range(64):
            if counts[c] > 0:
                kept += (idx // place[c]) % (counts[c] + 1)
        if leaves[idx] > best_leave[kept]:
            best_leave[kept] = leaves[idx]
    can_exchange = rn > 0 and bag_n >= exchange_min
    best_exchange = -1
    if kind != LEAVE_NONE and can_exchange:
        for idx in range(full):
            if best_exchange < 0 or leaves[idx] > leaves[best_exchange]:
                best_exchange = idx
    # the best placement, as `generate(mode="best")`
    n = lm2.shape[1]
    st = np.zeros(_k.ST_SIZE, np.int64)
    for c in range(256):
        st[_k.R_POINTS + c] = points[c]
    mask = 0
    for c in range(64):
        if counts[c] > 0:
            st[_k.R_COUNT + c] = counts[c]
            st[_k.R_PLACE + c] = place[c]
            mask |= full_mask if c == 0 else np.int64(1) << c
    st[_k.S_N] = n
    st[_k.S_RACKN] = rn
    st[_k.S_RACKSIZE] = rack_size
    st[_k.S_BINGO] = bingo
    st[_k.S_RACKMASK] = mask
    st[_k.S_MODE] = _k.MODE_TOP
    st[_k.S_CAP] = meta.shape[0]
    st[_k.S_TOPN] = 1
    st[_k.S_BEST] = -1
    st[_k.S_EMPTY] = 1 if empty else 0
    st[_k.S_START_ROW] = start_row
    st[_k.S_START_COL] = start_col
    st[_k.S_BOTH_DIRS] = 0 if symmetric else 1
    st[_k.S_FULL_LIDX] = full
    st[_k.S_EXACT_BEST] = 0 if kind == LEAVE_NONE else 1
    lv_at = _k.F_HEAP + 1
    st[_k.S_LV] = lv_at
    fs = np.zeros(lv_at + size, np.float64)
    for idx in range(size):
        fs[lv_at + idx] = leaves[idx]
    fs[_k.F_THRESH] = -np.inf
    if best_exchange >= 0:
        _k._heap_push(fs, st, leaves[best_exchange])
    # the rack's tile values, highest first (for the shadow bounds)
    vals = np.zeros(64, np.int64)
    tv = np.empty(rn, np.int64)
    for i in range(rn):
        tv[i] = points[codes[i]]
    tv = np.sort(tv)
    for i in range(rn):
        vals[i] = tv[rn - 1 - i]
    _k.fill_lanes(tiles, xset, xscore, xhas, lm2, wm2, points, ln_all)
    _k.generate_gaddag(kwg, ln_all, st, fs, meta, otiles, oeq, vals,
                       best_leave if kind != LEAVE_NONE else np.zeros(rn + 1))
    # the best stored placement: equity, then score, then direction, lane, first
    # square, then the order found (the order `MoveList` sorts in)
    chosen = -1
    for i in range(st[_k.S_COUNT]):
        if chosen < 0:
            chosen = i
            continue
        a = oeq[i]
        b = oeq[chosen]
        if a != b:
            if a > b:
                chosen = i
            continue
        if meta[i, _k.M_SCORE] != meta[chosen, _k.M_SCORE]:
            if meta[i, _k.M_SCORE] > meta[chosen, _k.M_SCORE]:
                chosen = i
            continue
        better = False
        for key in (_k.M_DIR, _k.M_LANE, _k.M_FIRST):
            if meta[i, key] != meta[chosen, key]:
                better = meta[i, key] < meta[chosen, key]
                break
        if better:
            chosen = i
    out[0] = chosen
    out[1] = st[_k.S_BEST] if st[_k.S_TOTAL] > 0 else -1
    out[2] = 0
    if chosen >= 0 and (best_exchange < 0 or oeq[chosen] >= leaves[best_exchange]):
        outf[0] = oeq[chosen] - meta[chosen, _k.M_SCORE]
        return EV_PLAY
    m = 0
    if best_exchange >= 0:  # the tiles not kept, in code order
        for c in range(64):
            if counts[c] > 0:
                kept = (best_exchange // place[c]) % (counts[c] + 1)
                for _ in range(counts[c] - kept):
                    traded[m] = c
                    m += 1
        out[2] = m
        outf[0] = leaves[best_exchange]
        return EV_EXCHANGE
    if kind == LEAVE_NONE and chosen < 0 and can_exchange:
        for i in range(rn):  # greedy with nothing to place trades its whole rack
            traded[m] = rack[i]
            m += 1
        out[2] = m
        outf[0] = 0.0
        return EV_EXCHANGE
    outf[0] = leaves[full]
    return EV_PASS


@njit(cache=True, nogil=True)
def apply_play(kwg, gaddag, tiles, xset, xscore, xhas, points, full_mask, meta, otiles,
               chosen, rack, rn, bag, bag_n, rack_size, update) -> tuple[int, int]:
    """Put placement ``chosen`` on the board (both orientations; the cross sets
    of the lanes it touched recomputed unless ``update`` is false), take its
    tiles off the rack and draw. Returns (tiles on the rack, tiles in the bag)."""
    d = meta[chosen, _k.M_DIR]
    lane = meta[chosen, _k.M_LANE]
    first = meta[chosen, _k.M_FIRST]
    length = meta[chosen, _k.M_LEN]
    through = meta[chosen, _k.M_THROUGH]
    for j in range(length):
        code = otiles[chosen, j]
        if not (through >> j) & 1:
            tiles[d, lane, first + j] = code
            tiles[1 - d, first + j, lane] = code
            rn = _remove_first(rack, rn, 0 if code & 0x80 else np.int64(code))
    if update:
        _cs.update_after_move(kwg, gaddag, tiles, d, lane, first, first + length - 1,
                              points, full_mask, xset, xscore, xhas)
    while rn < rack_size and bag_n > 0:
        bag_n -= 1
        rack[rn] = bag[bag_n]
        rn += 1
    return rn, bag_n


@njit(cache=True, nogil=True)
def apply_exchange(traded, m, rack, rn, bag, bag_n, rack_size, state) -> tuple[int, int, int]:
    """Trade ``traded[:m]``: draw first, then the tiles go back and the bag is
    shuffled (as `Game.play`). Returns (tiles on the rack, in the bag, state)."""
    for i in range(m):
        rn = _remove_first(rack, rn, traded[i])
    while rn < rack_size and bag_n > 0:
        bag_n -= 1
        rack[rn] = bag[bag_n]
        rn += 1
    for i in range(m):
        bag[bag_n] = traded[i]
        bag_n += 1
    state = _shuffle(bag, bag_n, state)
    return rn, bag_n, state


@njit(cache=True, nogil=True)
def _penalty(seat, racks, rack_n, scores, points, ev_seat, ev_kind, ev_score, ev_meta,
             ev_tiles, events):
    """The event of ``seat`` losing the value of its rack at the end; the
    number of events after it."""
    value = 0
    for i in range(rack_n[seat]):
        value += points[racks[seat, i]]
        ev_tiles[events, i] = racks[seat, i]
    ev_seat[events] = seat
    ev_kind[events] = EV_END_PENALTY
    ev_meta[events, _k.M_LEN] = rack_n[seat]
    ev_score[events] = -value
    scores[seat] -= value
    return events + 1


@njit(cache=True, nogil=True)
def play_game(kwg, gaddag, lm2, wm2, points, full_mask, start_row, start_col, symmetric,
              rack_size, bingo, exchange_min, max_scoreless, twice, bag, rng_state,
              n_players, kinds, h_value, h_penalty, h_vowel, h_balance,
              klv_nodes, klv_counts, klv_values,
              ev_seat, ev_kind, ev_score, ev_best, ev_meta, ev_tiles, ev_rack) -> int:
    """Play one game; returns the number of events. ``bag`` holds the tiles in
    draw order (drawn from the end); ``kinds[seat]`` is the leave model of each
    seat (`LEAVE_NONE`, `LEAVE_HEURISTIC` with ``h_*[seat]``, `LEAVE_KLV`).

    Per event: ``ev_seat``, ``ev_kind`` (`EV_PLAY` ...), ``ev_score``, ``ev_best``
    (the best placement score of the turn, for the sacrifice count), ``ev_meta``
    (direction, lane, first square, length, played-through mask, tiles in
    ``ev_tiles``), ``ev_tiles`` (the main word, or the tiles exchanged or
    counted at the end) and, for the turns (plays, exchanges, passes),
    ``ev_rack``: the tiles on the rack before the turn in ``[0]``, the tiles in
    the bag before it in ``[1]``, the rack in ``[2:2 + [0]]`` (leave training,
    `rackety.experiments.training`, reads the leaves kept from it)."""
    n = lm2.shape[1]
    tiles = np.zeros((2, n, n), np.uint8)
    xset = np.zeros((2, n, n), np.int64)
    xscore = np.zeros((2, n, n), np.int64)
    xhas = np.zeros((2, n, n), np.int64)
    _cs.cross_all(kwg, gaddag, tiles, points, full_mask, xset, xscore, xhas)
    ln_all = np.empty((2, n, _k.ROWS, n), np.int64)
    racks = np.zeros((n_players, 64), np.int64)
    rack_n = np.zeros(n_players, np.int64)
    scores = np.zeros(n_players, np.int64)
    bag_n = bag.shape[0]
    state = U64(rng_state)
    for seat in range(n_players):
        while rack_n[seat] < rack_size and bag_n > 0:
            bag_n -= 1
            racks[seat, rack_n[seat]] = bag[bag_n]
            rack_n[seat] += 1
    cap = 4096
    meta = np.empty((cap, _k.META), np.int32)
    otiles = np.empty((cap, n), np.uint8)
    oeq = np.empty(cap, np.float64)
    traded = np.zeros(64, np.int64)
    out = np.zeros(4, np.int64)
    outf = np.zeros(2, np.float64)
    zero_turns = 0
    seat = 0
    events = 0
    empty = True
    while True:
        rack = racks[seat]
        ev_rack[events, 0] = rack_n[seat]
        ev_rack[events, 1] = bag_n
        for i in range(rack_n[seat]):
            ev_rack[events, 2 + i] = rack[i]
        do = decide(kwg, gaddag, tiles, xset, xscore, xhas, ln_all, lm2, wm2, points,
                    full_mask, start_row, start_col, symmetric, rack_size, bingo,
                    exchange_min, rack, rack_n[seat], bag_n, empty, kinds[seat],
                    h_value[seat], h_penalty[seat], h_vowel[seat], h_balance[seat],
                    klv_nodes, klv_counts, klv_values, meta, otiles, oeq, traded, out, outf)
        ev_best[events] = out[1]
        ev_seat[events] = seat
        if do == EV_PLAY:
            chosen = out[0]
            for j in range(_k.META):
                ev_meta[events, j] = meta[chosen, j]
            for j in range(meta[chosen, _k.M_LEN]):
                ev_tiles[events, j] = otiles[chosen, j]
            rn, bag_n = apply_play(kwg, gaddag, tiles, xset, xscore, xhas, points, full_mask,
                                   meta, otiles, chosen, rack, rack_n[seat], bag, bag_n,
                                   rack_size, True)
            rack_n[seat] = rn
            empty = False
            score = meta[chosen, _k.M_SCORE]
            scores[seat] += score
            ev_kind[events] = EV_PLAY
            ev_score[events] = score
            events += 1
            zero_turns = 0
            if rn == 0 and bag_n == 0:  # played out: the game ends
                left = 0
                m = 0
                for other in range(n_players):
                    if other != seat:
                        for i in range(rack_n[other]):
                            left += points[racks[other, i]]
                            ev_tiles[events, m] = racks[other, i]
                            m += 1
                ev_seat[events] = seat
                ev_kind[events] = EV_END_POINTS
                ev_meta[events, _k.M_LEN] = m
                ev_score[events] = 2 * left if twice else left
                scores[seat] += ev_score[events]
                events += 1
                if not twice:
                    for other in range(n_players):
                        if other != seat:
                            events = _penalty(other, racks, rack_n, scores, points, ev_seat,
                                              ev_kind, ev_score, ev_meta, ev_tiles, events)
                return events
        else:
            ev_kind[events] = do
            ev_score[events] = 0
            if do == EV_EXCHANGE:
                m = out[2]
                for i in range(m):
                    ev_tiles[events, i] = traded[i]
                ev_meta[events, _k.M_LEN] = m
                rn, bag_n, state = apply_exchange(traded, m, rack, rack_n[seat], bag, bag_n,
                                                  rack_size, state)
                rack_n[seat] = rn
            events += 1
            zero_turns += 1
            if zero_turns >= max_scoreless:  # six scoreless turns: each loses its rack
                for other in range(n_players):
                    events = _penalty(other, racks, rack_n, scores, points, ev_seat, ev_kind,
                                      ev_score, ev_meta, ev_tiles, events)
                return events
        seat = (seat + 1) % n_players
        if events + n_players + 2 >= ev_seat.shape[0]:
            return -1


CHECKS = {1: "a tile placed off the board, on a tile, or over the wrong board tile",
          2: "tiles not on the rack", 3: "not connected to the board (or the first play "
          "misses the start square)", 4: "scored differently by the plain scorer",
          5: "a word not in the lexicon", 6: "an exchange the bag does not allow",
          7: "end-of-game points that do not add up", 8: "tiles not conserved",
          9: "the main word runs on past the tiles written"}


@njit(cache=True, nogil=True)
def _in_lexicon(kwg, grid, r, c, dr, dc, length):
    """Whether the ``length`` tiles from (r, c) in direction (dr, dc) spell a word."""
    arc = np.int64(kwg[0]) & 0x3FFFFF
    node = np.int64(0)
    for i in range(length):
        t = np.int64(grid[r + i * dr, c + i * dc]) & 0x7F
        if arc == 0:
            return False
        e = arc
        while True:
            node = np.int64(kwg[e])
            nt = node >> 24
            if nt == t:
                break
            if nt > t or node & 0x400000:
                return False
            e += 1
        arc = node & 0x3FFFFF
    return (node & 0x800000) != 0


@njit(cache=True, nogil=True)
def check_game(kwg, lm, wm, points, start_row, start_col, rack_size, bingo, exchange_min,
               twice, distribution, bag0, rng_state, n_players, ev_seat, ev_kind, ev_score,
               ev_meta, ev_tiles, n_events) -> tuple[int, int]:
    """Replay a game of `play_game` independently of the generator: every play on
    the board, from the rack, connected, every word it forms in the lexicon and its
    score by a plain scorer (main word and cross words scanned on the board); the
    exchanges and the end of the game by the rules; the tiles conserved. Returns
    (0, -1) when all holds, else (check code (`CHECKS`), event index)."""
    n = lm.shape[0]
    grid = np.zeros((n, n), np.uint8)
    bag = bag0.copy()
    bag_n = bag.shape[0]
    racks = np.zeros((n_players, 64), np.int64)
    rack_n = np.zeros(n_players, np.int64)
    state = U64(rng_state)
    for seat in range(n_players):
        while rack_n[seat] < rack_size and bag_n > 0:
            bag_n -= 1
            racks[seat, rack_n[seat]] = bag[bag_n]
            rack_n[seat] += 1
    empty = True
    for e in range(n_events):
        seat = ev_seat[e]
        kind = ev_kind[e]
        length = ev_meta[e, _k.M_LEN]
        if kind == EV_PLAY:
            d = ev_meta[e, _k.M_DIR]
            lane = ev_meta[e, _k.M_LANE]
            first = ev_meta[e, _k.M_FIRST]
            through = ev_meta[e, _k.M_THROUGH]
            dr, dc = (1, 0) if d == 1 else (0, 1)
            r0, c0 = (first, lane) if d == 1 else (lane, first)
            if r0 < 0 or c0 < 0 or r0 + dr * (length - 1) >= n or c0 + dc * (length - 1) >= n:
                return 1, e
            if (r0 - dr >= 0 and c0 - dc >= 0 and grid[r0 - dr, c0 - dc] != 0) or (
                    r0 + dr * length < n and c0 + dc * length < n and
                    grid[r0 + dr * length, c0 + dc * length] != 0):
                return 9, e
            placed = 0
            touches = False
            covers_start = False
            for j in range(length):
                r, c = r0 + dr * j, c0 + dc * j
                code = ev_tiles[e, j]
                if (through >> j) & 1:
                    if grid[r, c] == 0 or (np.int64(grid[r, c]) & 0x7F) != (code & 0x7F):
                        return 1, e
                    touches = True
                    continue
                if grid[r, c] != 0:
                    return 1, e
                tile = 0 if code & 0x80 else code
                left = _remove_first(racks[seat], rack_n[seat], tile)
                if left == rack_n[seat]:
                    return 2, e
                rack_n[seat] = left
                placed += 1
                if r == start_row and c == start_col:
                    covers_start = True
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if 0 <= rr < n and 0 <= cc < n and grid[rr, cc] != 0:
                        touches = True
            if placed == 0 or (empty and not covers_start) or (not empty and not touches):
                return 3, e
            # place, then score every word through a new tile by scanning the board
            for j in range(length):
                if not (through >> j) & 1:
                    grid[r0 + dr * j, c0 + dc * j] = ev_tiles[e, j]
            total = 0
            main = 0
            word_mult = 1
            for j in range(length):
                r, c = r0 + dr * j, c0 + dc * j
                value = points[grid[r, c]]
                if (through >> j) & 1:
                    main += value
                else:
                    main += value * lm[r, c]
                    word_mult *= wm[r, c]
                    # the cross word through (r, c)
                    pr, pc = dc, dr
                    a = 0
                    while r - (a + 1) * pr >= 0 and c - (a + 1) * pc >= 0 and \
                            grid[r - (a + 1) * pr, c - (a + 1) * pc] != 0:
                        a += 1
                    b = 0
                    while r + (b + 1) * pr < n and c + (b + 1) * pc < n and \
                            grid[r + (b + 1) * pr, c + (b + 1) * pc] != 0:
                        b += 1
                    if a + b > 0:
                        cross = 0
                        for k in range(-a, b + 1):
                            rr, cc = r + k * pr, c + k * pc
                            cross += value * lm[r, c] if k == 0 else points[grid[rr, cc]]
                        total += cross * wm[r, c]
                        if not _in_lexicon(kwg, grid, r - a * pr, c - a * pc, pr, pc, a + b + 1):
                            return 5, e
            if length >= 2:
                total += main * word_mult
                if not _in_lexicon(kwg, grid, r0, c0, dr, dc, length):
                    return 5, e
            if placed == rack_size:
                total += bingo
            if total != ev_score[e]:
                return 4, e
            empty = False
            while rack_n[seat] < rack_size and bag_n > 0:
                bag_n -= 1
                racks[seat, rack_n[seat]] = bag[bag_n]
                rack_n[seat] += 1
        elif kind == EV_EXCHANGE:
            if bag_n < exchange_min or bag_n < length or ev_score[e] != 0:
                return 6, e
            for j in range(length):
                tile = ev_tiles[e, j]
                left = _remove_first(racks[seat], rack_n[seat], tile)
                if left == rack_n[seat]:
                    return 2, e
                rack_n[seat] = left
            while rack_n[seat] < rack_size and bag_n > 0:
                bag_n -= 1
                racks[seat, rack_n[seat]] = bag[bag_n]
                rack_n[seat] += 1
            for j in range(length):
                bag[bag_n] = ev_tiles[e, j]
                bag_n += 1
            state = _shuffle(bag, bag_n, state)
        elif kind == EV_END_POINTS:
            if rack_n[seat] != 0 or bag_n != 0:
                return 7, e
            left = 0
            for other in range(n_players):
                if other != seat:
                    for i in range(rack_n[other]):
                        left += points[racks[other, i]]
            if ev_score[e] != (2 * left if twice else left):
                return 7, e
        elif kind == EV_END_PENALTY:
            value = 0
            for i in range(rack_n[seat]):
                value += points[racks[seat, i]]
            if ev_score[e] != -value:
                return 7, e
    held = np.zeros(64, np.int64)
    for r in range(n):
        for c in range(n):
            t = np.int64(grid[r, c])
            if t != 0:
                held[0 if t & 0x80 else t] += 1
    for seat in range(n_players):
        for i in range(rack_n[seat]):
            held[racks[seat, i]] += 1
    for i in range(bag_n):
        held[bag[i]] += 1
    for t in range(64):
        if held[t] != distribution[t]:
            return 8, n_events - 1
    return 0, -1


# ------------------------------------------------------------------ Python side
class FastGame:
    """The events of a game played by `play_game`, and the `Game` they make."""

    def __init__(self, n: int, seat: np.ndarray, kind: np.ndarray, score: np.ndarray,
                 best: np.ndarray, meta: np.ndarray, tiles: np.ndarray,
                 rack: np.ndarray | None = None) -> None:
        self.n = n
        self.seat = seat[:n].copy()
        self.kind = kind[:n].copy()
        self.score = score[:n].copy()
        self.best = best[:n].copy()
        self.meta = meta[:n].copy()
        self.tiles = tiles[:n].copy()
        # per turn: tiles on the rack, tiles in the bag, then the rack (`play_game`)
        self.rack = rack[:n].copy() if rack is not None else None
        self.bag0 = np.zeros(0, np.int64)  # the shuffled bag it started from
        self.rng_state = 0  # the shuffle state after the first shuffle

    def scores(self, players: int) -> list[int]:
        out = [0] * players
        for s, v in zip(self.seat.tolist(), self.score.tolist(), strict=True):
            out[s] += v
        return out

    def moves(self, alphabet: Any) -> list[Any]:
        """The turns as `Move` objects (plays, exchanges, passes), in order."""
        from rackety.game.move import Move

        out = []
        for i in range(self.n):
            kind = int(self.kind[i])
            length = int(self.meta[i, _k.M_LEN])
            if kind == EV_PLAY:
                d, lane, first = (int(self.meta[i, j]) for j in (_k.M_DIR, _k.M_LANE,
                                                                  _k.M_FIRST))
                through = int(self.meta[i, _k.M_THROUGH])
                r, c = (first, lane) if d else (lane, first)
                out.append(Move("place", r, c, bool(d),
                                tuple(int(t) for t in self.tiles[i, :length]),
                                tuple(bool(through >> j & 1) for j in range(length)),
                                score=int(self.score[i]), alphabet=alphabet))
            elif kind == EV_EXCHANGE:
                out.append(Move("exchange", tiles=tuple(int(t) for t in self.tiles[i, :length]),
                                score=0, alphabet=alphabet))
            elif kind == EV_PASS:
                out.append(Move("pass", score=0, alphabet=alphabet))
        return out

    def game(self, lexicon: Lexicon, names: list[str], *, seed: int, rules: Any = None,
             layout: Any = None, alphabet: Any = None) -> Game:
        """The same game through the referee (for its check and its GCG)."""
        from rackety.game.referee import Game

        game = Game(lexicon, names, seed=seed, rules=rules, layout=layout, alphabet=alphabet)
        for move in self.moves(game.alphabet):
            game.play(move, check=False)
        return game


class Compiled:
    """Everything `play_game` needs that does not change from game to game."""

    def __init__(self, lexicon: Lexicon, players: list[Any], *, rules: Any = None,
                 layout: Any = None, alphabet: Any = None) -> None:
        from rackety.game.heuristics import RackHeuristic
        from rackety.game.movegen import _full_mask, _multipliers_of, _points
        from rackety.game.referee import Game, Rules
        from rackety.lexicon.klv import Klv
        from rackety.players import GreedyPlayer, StaticPlayer

        probe = Game(lexicon, [f"p{i}" for i in range(len(players))], seed=0, rules=rules,
                     layout=layout, alphabet=alphabet)
        self.rules = rules or Rules()
        self.alphabet = probe.alphabet
        board = probe.position
        lay = board.layout
        self.lexicon = lexicon
        self.layout = layout
        self.lm2, self.wm2 = _multipliers_of(lay.letter_mult, lay.word_mult)
        self.points = _points(self.alphabet)
        self.full_mask = _full_mask(self.alphabet)
        self.start = lay.start
        self.symmetric = bool(lay.symmetric)
        self.bingo = probe.bingo_bonus
        self.exchange_min = probe.exchange_min_bag
        self.twice = self.rules.playout == "twice" and len(players) == 2
        p = len(players)
        self.kinds = np.zeros(p, np.int64)
        self.h_value = np.zeros((p, 64))
        self.h_penalty = np.zeros((p, 64))
        self.h_vowel = np.zeros((p, 64))
        self.h_balance = np.zeros((p, 6))
        self.klv = None
        for seat, player in enumerate(players):
            model = getattr(player, "leave_model", None)
            if isinstance(player, GreedyPlayer):
                self.kinds[seat] = LEAVE_NONE
            elif isinstance(player, StaticPlayer) and isinstance(model, RackHeuristic):
                self.kinds[seat] = LEAVE_HEURISTIC
                value, penalty, vowel = model.tables(self.alphabet)
                self.h_value[seat], self.h_penalty[seat], self.h_vowel[seat] = \
                    value, penalty, vowel
                self.h_balance[seat] = model._params
            elif isinstance(player, StaticPlayer) and isinstance(model, Klv) and \
                    (self.klv is None or self.klv is model):
                self.kinds[seat] = LEAVE_KLV
                self.klv = model
            else:
                raise TypeError(f"{player!r} cannot play compiled")
        if self.klv is not None:
            self.klv_arrays = (self.klv.nodes, self.klv.counts, self.klv.values)
        else:
            self.klv_arrays = (np.zeros(2, np.uint32), np.zeros(2, np.int64),
                               np.zeros(1, np.float32))
        width = lay.size
        self.buffers = (np.zeros(MAX_EVENTS, np.int64), np.zeros(MAX_EVENTS, np.int64),
                        np.zeros(MAX_EVENTS, np.int64), np.zeros(MAX_EVENTS, np.int64),
                        np.zeros((MAX_EVENTS, _k.META), np.int64),
                        np.zeros((MAX_EVENTS, max(width, 4 * self.alphabet.rack_size)),
                                 np.int64),
                        np.zeros((MAX_EVENTS, 2 + self.alphabet.rack_size), np.int64))
        self.n_players = p
        self.distribution = np.zeros(64, np.int64)
        for tile in self.alphabet.tiles:
            self.distribution[tile.code] = tile.count

    def play(self, seed: int) -> FastGame:
        """One game from the bag of ``seed``."""
        from rackety.game.referee import MASK64, shuffle

        tiles = [t.code for t in self.alphabet.tiles for _ in range(t.count)]
        state = shuffle(tiles, int(seed) & MASK64)
        bag = np.array(tiles, np.int64)
        seat, kind, score, best, meta, words, racks = self.buffers
        n = play_game(self.lexicon.nodes, self.lexicon.has_gaddag, self.lm2, self.wm2,
                      self.points, self.full_mask, self.start[0], self.start[1],
                      self.symmetric, self.alphabet.rack_size, self.bingo, self.exchange_min,
                      self.rules.max_scoreless, self.twice, bag, np.uint64(state),
                      self.n_players, self.kinds, self.h_value, self.h_penalty,
                      self.h_vowel, self.h_balance, *self.klv_arrays,
                      seat, kind, score, best, meta, words, racks)
        if n < 0:
            raise RuntimeError(f"game with seed {seed}: more than {MAX_EVENTS} events")
        game = FastGame(n, seat, kind, score, best, meta, words, racks)
        game.bag0 = np.array(tiles, np.int64)
        game.rng_state = state
        return game

    def check(self, game: FastGame) -> str | None:
        """What is wrong with a game (`check_game`), or None."""
        lay_lm, lay_wm = self.lm2[0], self.wm2[0]
        code, index = check_game(self.lexicon.nodes, lay_lm, lay_wm, self.points,
                                 self.start[0], self.start[1], self.alphabet.rack_size,
                                 self.bingo, self.exchange_min, self.twice, self.distribution,
                                 game.bag0, np.uint64(game.rng_state), self.n_players,
                                 game.seat, game.kind, game.score, game.meta, game.tiles,
                                 game.n)
        return None if code == 0 else f"event {index + 1}: {CHECKS[int(code)]}"
