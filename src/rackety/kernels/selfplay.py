"""The static players and whole games of them, compiled.

`decide` is the move a static player makes (greedy: the best score; static:
the best full static equity under a leave table, `generate.static_equity`,
with Gordon's exchange rule), through the
one generator entry (`rackety.kernels.generate.generate`), or WordSmog's
(`rackety.kernels.wordsmog.generate`) when the rules say so (``G_VARIANT``),
and the one leave walk (`rackety.kernels.leaves.table_values`). `play_game` plays a whole game
of such players by the rules' kernels (`rackety.kernels.rules`) and writes its
events; the simulation's rollouts play by `decide` too.

A player is its table in a bank of tables (`rackety.game.leaves.Bank`:
``bank`` = (nodes, counts, values), the table rooted at ``base`` with values
from ``voff``), or greedy.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rackety.kernels.fields import (
    END_NONE,
    END_OUT,
    G_EXCHANGE_MIN,
    G_TWICE,
    G_VARIANT,
    GS_BAG,
    GS_EMPTY,
    GS_PLAYERS,
    GS_RACK,
    GS_SCORE,
    GS_TURN,
    M_DIR,
    M_FIRST,
    M_LANE,
    M_LEN,
    M_SCORE,
    MAX_PLAYERS,
    META,
    MODE_TOP,
    R_PLACE,
    S_BEST,
    S_COUNT,
    S_TOTAL,
    VARIANT_WORDSMOG,
)
from rackety.kernels.generate import (
    generate_gaddag,
    heap_push,
    load_rack,
    may_exchange,
    static_equity,
)
from rackety.kernels.jit import njit
from rackety.kernels.leaves import table_values
from rackety.kernels.rules import U64, end_turn, exchange, pass_turn, play, start
from rackety.kernels.wordsmog import generate as generate_wordsmog

EV_PLAY, EV_EXCHANGE, EV_PASS, EV_END_POINTS, EV_END_PENALTY = range(5)


class Seats(NamedTuple):
    """How each seat of `play_game` plays: greedily (``greedy[s]`` nonzero) or
    by its leave table in ``bank`` (nodes, counts, values), which starts at
    node ``base[s]`` and value ``voff[s]``."""

    greedy: np.ndarray
    base: np.ndarray
    voff: np.ndarray
    bank: tuple[np.ndarray, np.ndarray, np.ndarray]


@njit(cache=True, nogil=True)
def decide(kwg, consts, gs, greedy, exact, bank, base, voff, work) -> int:
    """The move a static player makes for the player to move of the game
    ``gs`` (ties broken as `rackety.game.movegen.MoveList` sorts): returns
    `EV_PLAY` (the placement is row ``res[0]`` of ``out``), `EV_EXCHANGE`
    (``res[2]`` tiles in ``traded``) or `EV_PASS`. ``res[1]``: the best
    placement score (-1: none; exact only with ``exact``, else the best the
    search came across, which for a greedy player is the best all the same;
    WordSmog's always is exact); ``resf[0]``: the value of the tiles kept.
    ``work``: the caller's `rackety.kernels.fields.Buffers` (``st``, ``fs``,
    ``out``, ``scratch``, ``traded``, ``res``, ``resf``). Under WordSmog (the
    rules' ``G_VARIANT``) the placements are WordSmog's: ``kwg`` is then the
    lexicon's alphagrams, and the game's cross sets theirs
    (`rackety.kernels.crosssets`)."""
    st, fs, out, scratch, traded, res, resf = work
    points = consts.points
    rules = consts.rules
    seat = gs.ints[GS_TURN]
    rack = gs.racks[seat]
    rn = gs.ints[GS_RACK + seat]
    bag_n = gs.ints[GS_BAG]
    meta, _otiles, oeq = out
    counts = scratch.small[3]  # the shadow's tile values, filled after this is read
    for c in range(64):
        counts[c] = 0
    for i in range(rn):
        counts[rack[i]] += 1
    lv, size = load_rack(st, fs, rules, points, counts, MODE_TOP, 1, meta.shape[0], 0,
                         gs.ints[GS_EMPTY] != 0, exact and not greedy)
    leaves = fs[lv:lv + size]
    if not greedy:
        table_values(bank[0], bank[1], bank[2], base, voff, counts, leaves)
        other = 0
        for s in range(gs.ints[GS_PLAYERS]):
            if s != seat:
                for i in range(gs.ints[GS_RACK + s]):
                    other += points[gs.racks[s, i]]
        static_equity(st, fs, rules, points, counts, bag_n, other)
    full = size - 1
    can_exchange = rn > 0 and bag_n >= rules[G_EXCHANGE_MIN]
    best_exchange = -1
    if not greedy and can_exchange:
        for idx in range(full):
            if (best_exchange < 0 or leaves[idx] > leaves[best_exchange]) and \
                    may_exchange(st, counts, idx, rn, bag_n):
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
    if rules[G_VARIANT] == VARIANT_WORDSMOG:
        generate_wordsmog(kwg, consts, (gs.tiles, gs.cross), st, fs, out, scratch.small)
    else:
        generate_gaddag(kwg, consts, (gs.tiles, gs.cross), st, fs, out, scratch)
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
    if greedy and chosen < 0 and can_exchange and bag_n >= rn:
        for i in range(rn):  # greedy with nothing to place trades its whole rack
            traded[i] = rack[i]
        res[2] = rn
        resf[0] = 0.0
        return EV_EXCHANGE
    resf[0] = pass_value
    return EV_PASS


@njit(cache=True, nogil=True)
def _ending(gs, before, ended, seat, twice, events, e):
    """The events of the end of the game (`rackety.kernels.rules.end_turn` has
    scored it; ``before`` holds the scores before): the points of the seat who
    played out with the tiles they count, then each other rack's loss (none
    under the ``twice`` rule) in seat order. Returns the number of events."""
    ev_seat, ev_kind, ev_score, _best, ev_meta, ev_tiles, _rack = events
    players = gs.ints[GS_PLAYERS]
    if ended == END_OUT:
        m = 0
        for other in range(players):
            if other != seat:
                for i in range(gs.ints[GS_RACK + other]):
                    ev_tiles[e, m] = gs.racks[other, i]
                    m += 1
        ev_seat[e] = seat
        ev_kind[e] = EV_END_POINTS
        ev_meta[e, M_LEN] = m
        ev_score[e] = gs.ints[GS_SCORE + seat] - before[seat]
        e += 1
    for other in range(players):
        if ended == END_OUT and (other == seat or twice):
            continue
        for i in range(gs.ints[GS_RACK + other]):
            ev_tiles[e, i] = gs.racks[other, i]
        ev_seat[e] = other
        ev_kind[e] = EV_END_PENALTY
        ev_meta[e, M_LEN] = gs.ints[GS_RACK + other]
        ev_score[e] = gs.ints[GS_SCORE + other] - before[other]
        e += 1
    return e


@njit(cache=True, nogil=True)
def play_game(kwg, graph, consts, gs, bag, rng_state, seats, events, work, exact) -> int:
    """Play one game in ``gs`` (`rackety.kernels.fields.GameState`, the
    caller's); returns the number of events (-1: too many). ``bag`` holds the
    tiles in draw order (drawn from the end); ``seats``: a `Seats`, seat s
    greedy when ``greedy[s]``, else playing its table (``base[s]``,
    ``voff[s]``) of ``bank``.

    ``events``: a `rackety.kernels.fields.Events` (seat, kind (`EV_PLAY`
    ...), score, best (the best placement score of the turn, for the
    sacrifice count), meta (direction, lane, first square, length,
    played-through mask ...), tiles (the main word, or the
    tiles exchanged or counted at the end), rack (for the turns: the tiles on
    the rack before the turn in ``[0]``, the tiles in the bag before it in
    ``[1]``, the rack in ``[2:2 + [0]]``; leave training reads the leaves kept
    from it)); ``best`` is exact only with ``exact`` (what a sacrifice count
    needs; the search then goes on to every anchor that may hold a higher
    score). ``kwg`` and ``graph``: the graph of the rules' variant and what it
    holds (`rackety.game.movegen.variant_lexicon`). ``work``: the caller's
    `rackety.kernels.fields.Buffers` (`Work` in `rackety.game.movegen`): the
    generator's state, its output and scratch, and the decision's."""
    greedy, base, voff, bank = seats
    ev_seat, ev_kind, ev_score, ev_best, ev_meta, ev_tiles, ev_rack = events
    start(kwg, graph, consts, gs, bag, U64(rng_state))
    out, traded, res = work.out, work.traded, work.res
    meta, otiles, _oeq = out
    before = np.zeros(MAX_PLAYERS, np.int64)
    e = 0
    while True:
        seat = gs.ints[GS_TURN]
        rn = gs.ints[GS_RACK + seat]
        ev_rack[e, 0] = rn
        ev_rack[e, 1] = gs.ints[GS_BAG]
        for i in range(rn):
            ev_rack[e, 2 + i] = gs.racks[seat, i]
        do = decide(kwg, consts, gs, greedy[seat] != 0, exact, bank, base[seat], voff[seat],
                    work)
        ev_best[e] = res[1]
        ev_seat[e] = seat
        ev_kind[e] = do
        ev_score[e] = 0
        if do == EV_PLAY:
            chosen = res[0]
            for j in range(META):
                ev_meta[e, j] = meta[chosen, j]
            for j in range(meta[chosen, M_LEN]):
                ev_tiles[e, j] = otiles[chosen, j]
            ev_score[e] = meta[chosen, M_SCORE]
            play(kwg, graph, consts, gs, meta, otiles, chosen, True)
        elif do == EV_EXCHANGE:
            m = res[2]
            for i in range(m):
                ev_tiles[e, i] = traded[i]
            ev_meta[e, M_LEN] = m
            exchange(consts, gs, traded, m)
        else:
            pass_turn(gs)
        e += 1
        for s in range(gs.ints[GS_PLAYERS]):
            before[s] = gs.ints[GS_SCORE + s]
        ended = end_turn(consts, gs, do == EV_PLAY)
        if ended != END_NONE:
            return _ending(gs, before, ended, seat, consts.rules[G_TWICE] != 0, events, e)
        if e + gs.ints[GS_PLAYERS] + 2 >= ev_seat.shape[0]:
            return -1
