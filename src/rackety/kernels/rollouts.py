"""Monte Carlo rollouts, compiled: every candidate played, then ``plies``
more moves of the static player (`rackety.kernels.selfplay.decide`) on both
sides, from the same shuffled bag for every candidate (common random numbers).
`rackety.search.simulation` says what a rollout's value is."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from rackety.kernels.fields import G_N, G_RACK_SIZE, M_LEN, M_SCORE, META
from rackety.kernels.rules import GOLDEN, U64, exchange, play, shuffle, splitmix
from rackety.kernels.selfplay import EV_EXCHANGE, EV_PLAY, decide


@njit(cache=True, nogil=True)
def rollouts(kwg, gaddag, consts, position0, rack0, pool, known_opp, spread0, candidates,
             plies, seed, first, last, bank, base, voff, work, values, wins) -> None:
    """Rollouts ``first`` to ``last - 1`` of every candidate: ``values[c, i]`` the
    value of rollout i of candidate c, ``wins[c, i]`` its win probability.

    ``rack0``: the mover's rack; ``pool``: the unseen tiles (the bag and the
    opponent's rack) or, with ``known_opp`` > 0, the bag with the opponent's
    rack in its last ``known_opp`` entries. A candidate: ``cand_kind`` (`EV_PLAY`
    with its meta row and word, `EV_EXCHANGE` with its tiles, `EV_PASS`)."""
    cand_kind, cand_meta, cand_tiles, cand_traded, cand_ntraded = candidates
    points = consts[2]
    rules = consts[3]
    n = rules[G_N]
    rack_size = rules[G_RACK_SIZE]
    tiles0, cross0 = position0
    tiles = np.empty_like(tiles0)
    cross = np.empty_like(cross0)
    position = (tiles, cross)
    st, fs, out, scratch, traded, res, resf = work
    meta, otiles, _oeq = out
    shuffled = np.empty(pool.shape[0] + 64, np.int64)
    bag = np.empty(pool.shape[0] + 64, np.int64)
    racks = np.zeros((2, 64), np.int64)
    cmeta = np.empty((1, META), np.int32)
    ctiles = np.empty((1, n), np.uint8)
    empty0 = True
    for r in range(n):
        for c in range(n):
            if tiles0[0, r, c] != 0:
                empty0 = False
    for it in range(first, last):
        state, _ = splitmix(U64(seed) * U64(GOLDEN) + U64(it))
        m = pool.shape[0]
        for i in range(m):
            shuffled[i] = pool[i]
        if known_opp > 0:  # the opponent's rack is known: shuffle only the bag
            state = shuffle(shuffled, m - known_opp, state)
        else:
            state = shuffle(shuffled, m, state)
        for c in range(cand_kind.shape[0]):
            tiles[:] = tiles0
            cross[:] = cross0
            bag_n = m
            for i in range(m):
                bag[i] = shuffled[i]
            rn = np.zeros(2, np.int64)
            for i in range(rack0.shape[0]):
                racks[0, i] = rack0[i]
            rn[0] = rack0.shape[0]
            take = min(rack_size, bag_n) if known_opp == 0 else known_opp
            for i in range(take):  # the opponent's rack: the end of the bag
                bag_n -= 1
                racks[1, i] = bag[bag_n]
            rn[1] = take
            spread = 0.0
            ended = False
            empty = empty0
            cstate = state
            # the candidate
            if cand_kind[c] == EV_PLAY:
                for j in range(META):
                    cmeta[0, j] = cand_meta[c, j]
                for j in range(cand_meta[c, M_LEN]):
                    ctiles[0, j] = cand_tiles[c, j]
                rn0, bag_n = play(kwg, gaddag, rules, points, tiles, cross, cmeta, ctiles, 0,
                                  racks[0], rn[0], bag, bag_n, plies > 0)
                rn[0] = rn0
                spread += cand_meta[c, M_SCORE]
                empty = False
                if rn[0] == 0 and bag_n == 0:
                    left = 0
                    for i in range(rn[1]):
                        left += points[racks[1, i]]
                    spread += 2 * left
                    ended = True
            elif cand_kind[c] == EV_EXCHANGE:
                for i in range(cand_ntraded[c]):
                    traded[i] = cand_traded[c, i]
                rn0, bag_n, cstate = exchange(traded, cand_ntraded[c], racks[0], rn[0],
                                                    bag, bag_n, rack_size, cstate)
                rn[0] = rn0
            last_leave = 0.0
            side = 0
            for ply in range(plies):
                if ended:
                    break
                side = 1 - side if ply > 0 else 1
                do = decide(kwg, consts, position, racks[side], rn[side], bag_n, empty, False,
                            bank, base, voff, st, fs, out, scratch, traded, res, resf)
                sign = 1.0 if side == 0 else -1.0
                last_leave = sign * resf[0]
                if do == EV_PLAY:
                    chosen = res[0]
                    rs, bag_n = play(kwg, gaddag, rules, points, tiles, cross, meta, otiles,
                                     chosen, racks[side], rn[side], bag, bag_n, ply < plies - 1)
                    rn[side] = rs
                    empty = False
                    spread += sign * meta[chosen, M_SCORE]
                    if rs == 0 and bag_n == 0:
                        left = 0
                        for i in range(rn[1 - side]):
                            left += points[racks[1 - side, i]]
                        spread += sign * 2 * left
                        ended = True
                elif do == EV_EXCHANGE:
                    rs, bag_n, cstate = exchange(traded, res[2], racks[side], rn[side],
                                                       bag, bag_n, rack_size, cstate)
                    rn[side] = rs
            if plies == 0 or ended:
                last_leave = 0.0
            value = spread + last_leave
            final = spread0 + spread
            if ended:
                wins[c, it - first] = 1.0 if final > 0 else (0.5 if final == 0 else 0.0)
            else:
                unseen = bag_n + rn[1]
                scale = 8.0 + 1.5 * math.sqrt(unseen + 7.0)
                wins[c, it - first] = 0.5 * (1.0 + math.erf(final / (scale * math.sqrt(2.0))))
            values[c, it - first] = value
