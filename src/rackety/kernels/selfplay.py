"""The static players and whole games of them, compiled.

`decide` is the move a static player makes (greedy: the best score; static:
the best equity under a leave table, with Gordon's exchange rule), through the
one generator entry (`rackety.kernels.generate.generate`) and the one leave
walk (`rackety.kernels.leaves.table_values`). `play_game` plays a whole game
of such players by the rules' kernels (`rackety.kernels.rules`) and writes its
events; the simulation's rollouts play by `decide` too.

A player is its table in a bank of tables (`rackety.game.leaves.Bank`:
``bank`` = (nodes, counts, values), the table rooted at ``base`` with values
from ``voff``), or greedy.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from rackety.kernels.crosssets import cross_all
from rackety.kernels.fields import (
    G_EXCHANGE_MIN,
    G_FULL_MASK,
    G_MAX_SCORELESS,
    G_N,
    G_PLAYERS,
    G_RACK_SIZE,
    G_TWICE,
    M_DIR,
    M_FIRST,
    M_LANE,
    M_LEN,
    M_SCORE,
    META,
    MODE_TOP,
    R_PLACE,
    S_BEST,
    S_COUNT,
    S_TOTAL,
)
from rackety.kernels.generate import GADDAG, generate, heap_push, load_rack
from rackety.kernels.leaves import table_values
from rackety.kernels.rules import U64, draw, exchange, going_out, play, rack_value

EV_PLAY, EV_EXCHANGE, EV_PASS, EV_END_POINTS, EV_END_PENALTY = range(5)


@njit(cache=True, nogil=True)
def decide(kwg, consts, position, rack, rn, bag_n, empty, greedy, bank, base, voff, st, fs,
           out, scratch, traded, res, resf) -> int:
    """The move a static player makes with ``rack[:rn]`` (ties broken as
    `rackety.game.movegen.MoveList` sorts): returns `EV_PLAY` (the placement is
    row ``res[0]`` of ``out``), `EV_EXCHANGE` (``res[2]`` tiles in ``traded``)
    or `EV_PASS`. ``res[1]``: the best placement score (-1: none);
    ``resf[0]``: the value of the tiles kept."""
    points = consts[2]
    rules = consts[3]
    meta, _otiles, oeq = out
    counts = scratch[3][3]  # the shadow's tile values, filled after this is read
    for c in range(64):
        counts[c] = 0
    for i in range(rn):
        counts[rack[i]] += 1
    lv, size = load_rack(st, fs, rules, points, counts, MODE_TOP, 1, meta.shape[0], 0, empty,
                         not greedy)
    leaves = fs[lv:lv + size]
    if not greedy:
        table_values(bank[0], bank[1], bank[2], base, voff, counts, leaves)
    full = size - 1
    can_exchange = rn > 0 and bag_n >= rules[G_EXCHANGE_MIN]
    best_exchange = -1
    if not greedy and can_exchange:
        for idx in range(full):
            if best_exchange < 0 or leaves[idx] > leaves[best_exchange]:
                best_exchange = idx
    best_exchange_value = leaves[best_exchange] if best_exchange >= 0 else 0.0
    pass_value = leaves[full]
    m = 0
    if best_exchange >= 0:  # the tiles not kept, in code order (before counts is reused)
        for c in range(64):
            if counts[c] > 0:
                for _ in range(counts[c] - (best_exchange // st[R_PLACE + c]) % (counts[c] + 1)):
                    traded[m] = c
                    m += 1
        heap_push(st, fs, best_exchange_value)
    generate(kwg, consts, position, st, fs, out, scratch, GADDAG)
    # the best stored placement: equity, then score, then direction, lane, first
    # square, then the order found (the order `MoveList` sorts in)
    chosen = -1
    for i in range(st[S_COUNT]):
        if chosen < 0:
            chosen = i
            continue
        a = oeq[i]
        b = oeq[chosen]
        if a != b:
            if a > b:
                chosen = i
            continue
        if meta[i, M_SCORE] != meta[chosen, M_SCORE]:
            if meta[i, M_SCORE] > meta[chosen, M_SCORE]:
                chosen = i
            continue
        better = False
        for key in (M_DIR, M_LANE, M_FIRST):
            if meta[i, key] != meta[chosen, key]:
                better = meta[i, key] < meta[chosen, key]
                break
        if better:
            chosen = i
    res[0] = chosen
    res[1] = st[S_BEST] if st[S_TOTAL] > 0 else -1
    res[2] = 0
    if chosen >= 0 and (best_exchange < 0 or oeq[chosen] >= best_exchange_value):
        resf[0] = oeq[chosen] - meta[chosen, M_SCORE]
        return EV_PLAY
    if best_exchange >= 0:
        res[2] = m
        resf[0] = best_exchange_value
        return EV_EXCHANGE
    if greedy and chosen < 0 and can_exchange:
        for i in range(rn):  # greedy with nothing to place trades its whole rack
            traded[i] = rack[i]
        res[2] = rn
        resf[0] = 0.0
        return EV_EXCHANGE
    resf[0] = pass_value
    return EV_PASS


@njit(cache=True, nogil=True)
def _penalty(seat, racks, rack_n, scores, points, events, e):
    """The event of ``seat`` losing the value of its rack at the end; the
    number of events after it."""
    ev_seat, ev_kind, ev_score, _best, ev_meta, ev_tiles, _rack = events
    for i in range(rack_n[seat]):
        ev_tiles[e, i] = racks[seat, i]
    value = rack_value(racks[seat], rack_n[seat], points)
    ev_seat[e] = seat
    ev_kind[e] = EV_END_PENALTY
    ev_meta[e, M_LEN] = rack_n[seat]
    ev_score[e] = -value
    scores[seat] -= value
    return e + 1


@njit(cache=True, nogil=True)
def play_game(kwg, gaddag, consts, bag, rng_state, greedy, base, voff, bank, events, work
              ) -> int:
    """Play one game; returns the number of events (-1: too many). ``bag`` holds
    the tiles in draw order (drawn from the end); seat s is greedy when
    ``greedy[s]``, else plays its table (``base[s]``, ``voff[s]``) of ``bank``.

    ``events`` = (seat, kind (`EV_PLAY` ...), score, best (the best placement
    score of the turn, for the sacrifice count), meta (direction, lane, first
    square, length, played-through mask ...), tiles (the main word, or the
    tiles exchanged or counted at the end), rack (for the turns: the tiles on
    the rack before the turn in ``[0]``, the tiles in the bag before it in
    ``[1]``, the rack in ``[2:2 + [0]]``; leave training reads the leaves kept
    from it)). ``work``: the caller's buffers (`Work` in
    `rackety.game.movegen`): the generator's state, its output and
    scratch, and the decision's."""
    ev_seat, ev_kind, ev_score, ev_best, ev_meta, ev_tiles, ev_rack = events
    points = consts[2]
    rules = consts[3]
    n = rules[G_N]
    rack_size = rules[G_RACK_SIZE]
    n_players = rules[G_PLAYERS]
    twice = rules[G_TWICE] != 0
    tiles = np.zeros((2, n, n), np.uint8)
    cross = np.zeros((3, 2, n, n), np.int64)
    cross_all(kwg, gaddag, tiles, points, rules[G_FULL_MASK], cross[0], cross[1], cross[2])
    position = (tiles, cross)
    racks = np.zeros((n_players, 64), np.int64)
    rack_n = np.zeros(n_players, np.int64)
    scores = np.zeros(n_players, np.int64)
    bag_n = bag.shape[0]
    state = U64(rng_state)
    for seat in range(n_players):
        rack_n[seat], bag_n = draw(racks[seat], rack_n[seat], bag, bag_n, rack_size)
    st, fs, out, scratch, traded, res, resf = work
    meta, otiles, _oeq = out
    zero_turns = 0
    seat = 0
    e = 0
    empty = True
    while True:
        rack = racks[seat]
        ev_rack[e, 0] = rack_n[seat]
        ev_rack[e, 1] = bag_n
        for i in range(rack_n[seat]):
            ev_rack[e, 2 + i] = rack[i]
        do = decide(kwg, consts, position, rack, rack_n[seat], bag_n, empty, greedy[seat] != 0,
                    bank, base[seat], voff[seat], st, fs, out, scratch, traded, res, resf)
        ev_best[e] = res[1]
        ev_seat[e] = seat
        if do == EV_PLAY:
            chosen = res[0]
            for j in range(META):
                ev_meta[e, j] = meta[chosen, j]
            for j in range(meta[chosen, M_LEN]):
                ev_tiles[e, j] = otiles[chosen, j]
            rn, bag_n = play(kwg, gaddag, rules, points, tiles, cross, meta, otiles, chosen,
                             rack, rack_n[seat], bag, bag_n, True)
            rack_n[seat] = rn
            empty = False
            score = meta[chosen, M_SCORE]
            scores[seat] += score
            ev_kind[e] = EV_PLAY
            ev_score[e] = score
            e += 1
            zero_turns = 0
            if rn == 0 and bag_n == 0:  # played out: the game ends
                m = 0
                for other in range(n_players):
                    if other != seat:
                        for i in range(rack_n[other]):
                            ev_tiles[e, m] = racks[other, i]
                            m += 1
                left = going_out(racks, rack_n, seat, points)
                ev_seat[e] = seat
                ev_kind[e] = EV_END_POINTS
                ev_meta[e, M_LEN] = m
                ev_score[e] = 2 * left if twice else left
                scores[seat] += ev_score[e]
                e += 1
                if not twice:
                    for other in range(n_players):
                        if other != seat:
                            e = _penalty(other, racks, rack_n, scores, points, events, e)
                return e
        else:
            ev_kind[e] = do
            ev_score[e] = 0
            if do == EV_EXCHANGE:
                m = res[2]
                for i in range(m):
                    ev_tiles[e, i] = traded[i]
                ev_meta[e, M_LEN] = m
                rn, bag_n, state = exchange(traded, m, rack, rack_n[seat], bag, bag_n,
                                            rack_size, state)
                rack_n[seat] = rn
            e += 1
            zero_turns += 1
            if zero_turns >= rules[G_MAX_SCORELESS]:  # scoreless turns: each loses its rack
                for other in range(n_players):
                    e = _penalty(other, racks, rack_n, scores, points, events, e)
                return e
        seat = (seat + 1) % n_players
        if e + n_players + 2 >= ev_seat.shape[0]:
            return -1
