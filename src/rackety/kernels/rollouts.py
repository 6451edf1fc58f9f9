"""Monte Carlo rollouts, compiled: every candidate played, then ``plies``
more moves of the static player (`rackety.kernels.selfplay.decide`) on both
sides, from the same shuffled bag for every candidate (common random numbers),
all on one game state by the rules' kernels (`rackety.kernels.rules`).
`rackety.search.simulation` says what a rollout's value is; an unfinished
rollout's win probability is the win-% table's (`rackety.game.winpct`,
`win_chance`)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rackety.kernels.fields import (
    END_NONE,
    G_RACK_SIZE,
    GS_BAG,
    GS_RACK,
    GS_SCORE,
    GS_TURN,
    M_LEN,
    META,
    GameState,
)
from rackety.kernels.jit import njit
from rackety.kernels.rules import (
    GOLDEN,
    U64,
    draw,
    end_turn,
    exchange,
    pass_turn,
    play,
    shuffle,
    splitmix,
)
from rackety.kernels.selfplay import EV_EXCHANGE, EV_PLAY, decide


class Setup(NamedTuple):
    """What every batch of a simulation's rollouts starts from (`rollouts`):
    the root position, the game state each rollout plays in, the unseen tiles,
    the opponent's known tiles and inferred leaves, the spread at the root,
    the static player's leave table (``bank``, its ``base`` and ``voff``),
    and the win-% table (``winpct``: `rackety.game.winpct.WinTable.array`,
    float64 [unseen, 2 * max spread + 1], in %)."""

    root: GameState
    gs: GameState
    pool: np.ndarray
    known_opp: int
    opponent: tuple[np.ndarray, np.ndarray, np.ndarray]
    spread0: int
    bank: tuple[np.ndarray, np.ndarray, np.ndarray]
    base: int
    voff: int
    winpct: np.ndarray


@njit(cache=True, nogil=True, inline="always")
def win_chance(table, spread, unseen) -> float:
    """The probability (0 to 1) that the player who has just moved wins,
    ``spread`` points ahead with ``unseen`` tiles unseen to them, the
    opponent to move: the win-% table's cell (``table``: float64 [unseen,
    2 * max + 1], in %), spread and unseen clamped to it."""
    m = (table.shape[1] - 1) // 2
    u = min(max(unseen, 0), table.shape[0] - 1)
    s = min(max(spread, -m), m)
    return table[u, s + m] * 0.01


@njit(cache=True, nogil=True)
def rollouts(kwg, graph, consts, setup, candidates, plies, seed, first, last, work, values,
             wins) -> None:
    """Rollouts ``first`` to ``last - 1`` of every candidate: ``values[c, i]`` the
    value of rollout i of candidate c, ``wins[c, i]`` its win probability;
    ``setup``: a `Setup` (``root``, ``gs`` ... below).

    ``root``: the position as a two-seat game state
    (`rackety.kernels.fields.GameState`), seat 0 the mover with its rack,
    seat 1's rack empty, the bag empty; each rollout of each candidate plays
    in ``gs`` (the caller's, of the same shapes), its spread counted from the
    root's scores. ``pool``: the unseen tiles (the bag and the opponent's
    rack) or, with ``known_opp`` > 0, the bag with the opponent's rack in its
    last ``known_opp`` entries. ``opponent``: what the opponent may have kept
    (an inference: the tiles of each leave, their number, the cumulative
    probabilities; none when empty): each rollout draws one leave by its
    probability, puts its tiles at the end of the pool and shuffles the rest,
    so the opponent's rack is that leave filled up at random. A candidate:
    ``cand_kind`` (`EV_PLAY` with its meta row and word, `EV_EXCHANGE` with
    its tiles, `EV_PASS`)."""
    root, gs, pool, known_opp, opponent, spread0, bank, base, voff, winpct = setup
    cand_kind, cand_meta, cand_tiles, cand_traded, cand_ntraded = candidates
    opp_tiles, opp_len, opp_cum = opponent
    rack_size = consts.rules[G_RACK_SIZE]
    n = gs.tiles.shape[1]
    out, traded, res, resf = work.out, work.traded, work.res, work.resf
    meta, otiles, _oeq = out
    m = pool.shape[0]
    shuffled = np.empty(m, np.int64)
    cmeta = np.empty((1, META), np.int32)
    ctiles = np.empty((1, n), np.uint8)
    for it in range(first, last):
        state, _ = splitmix(U64(seed) * U64(GOLDEN) + U64(it))
        for i in range(m):
            shuffled[i] = pool[i]
        if known_opp > 0:  # the opponent's rack is known: shuffle only the bag
            state = shuffle(shuffled, m - known_opp, state)
        elif opp_len.shape[0] > 0:  # the opponent kept a leave: one by its probability
            state, z = splitmix(state)
            u = np.float64(z >> U64(11)) * (1.0 / 9007199254740992.0)
            pick = min(np.searchsorted(opp_cum, u, side="right"), opp_len.shape[0] - 1)
            end = m
            for t in range(opp_len[pick]):  # its tiles go last: drawn first
                for q in range(end):
                    if shuffled[q] == opp_tiles[pick, t]:
                        shuffled[q] = shuffled[end - 1]
                        shuffled[end - 1] = opp_tiles[pick, t]
                        end -= 1
                        break
            state = shuffle(shuffled, end, state)
        else:
            state = shuffle(shuffled, m, state)
        for c in range(cand_kind.shape[0]):
            gs.tiles[:] = root.tiles
            gs.cross[:] = root.cross
            gs.racks[:] = root.racks
            gs.ints[:] = root.ints
            for i in range(m):
                gs.bag[i] = shuffled[i]
            gs.ints[GS_BAG] = m
            gs.rng[0] = state
            # the opponent's rack: the end of the bag
            draw(gs, 1, min(rack_size, m) if known_opp == 0 else known_opp)
            # the candidate
            if cand_kind[c] == EV_PLAY:
                for j in range(META):
                    cmeta[0, j] = cand_meta[c, j]
                for j in range(cand_meta[c, M_LEN]):
                    ctiles[0, j] = cand_tiles[c, j]
                play(kwg, graph, consts, gs, cmeta, ctiles, 0, plies > 0)
            elif cand_kind[c] == EV_EXCHANGE:
                for i in range(cand_ntraded[c]):
                    traded[i] = cand_traded[c, i]
                exchange(consts, gs, traded, cand_ntraded[c])
            else:
                pass_turn(gs)
            ended = end_turn(consts, gs, cand_kind[c] == EV_PLAY) != END_NONE
            last_leave = 0.0
            for ply in range(plies):
                if ended:
                    break
                side = gs.ints[GS_TURN]
                do = decide(kwg, consts, gs, False, False, bank, base, voff, work)
                last_leave = resf[0] if side == 0 else -resf[0]
                if do == EV_PLAY:
                    play(kwg, graph, consts, gs, meta, otiles, res[0], ply < plies - 1)
                elif do == EV_EXCHANGE:
                    exchange(consts, gs, traded, res[2])
                else:
                    pass_turn(gs)
                ended = end_turn(consts, gs, do == EV_PLAY) != END_NONE
            if plies == 0 or ended:
                last_leave = 0.0
            spread = float(gs.ints[GS_SCORE] - gs.ints[GS_SCORE + 1]
                           - root.ints[GS_SCORE] + root.ints[GS_SCORE + 1])
            value = spread + last_leave
            final = spread0 + gs.ints[GS_SCORE] - gs.ints[GS_SCORE + 1] \
                - root.ints[GS_SCORE] + root.ints[GS_SCORE + 1]
            if ended:
                wins[c, it - first] = 1.0 if final > 0 else (0.5 if final == 0 else 0.0)
            elif gs.ints[GS_TURN] == 1:  # we have just moved: the unseen tiles are ours
                wins[c, it - first] = win_chance(winpct, final,
                                                 gs.ints[GS_BAG] + gs.ints[GS_RACK + 1])
            else:  # the opponent has just moved: its chance, from its side
                wins[c, it - first] = 1.0 - win_chance(winpct, -final,
                                                       gs.ints[GS_BAG] + gs.ints[GS_RACK])
            values[c, it - first] = value
