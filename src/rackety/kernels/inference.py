"""Opponent-rack inference, compiled: the racks a play may have come from,
and whether the static player would have made it from each
(`rackety.search.inference` says what is inferred and how it is weighed).

`draws` lists the tiles a player may have drawn (every multiset of a size the
pool holds); `evaluate` puts each rack on the player's rack of a game state
and asks the static player (`rackety.kernels.selfplay.decide`, the one
decision of the static players, self-play and the rollouts) for its move,
then compares the play's equity with the decision's. A rack's leave values
are then in ``fs`` where the generator's state says (``st[S_LV]``, by the
leave index of ``st[R_PLACE + c]``), so the play's equity is read from the
same values the decision used. Most racks never need the decision: a lower
bound of their best equity (their best exchange, the placements chosen for
the racks before them) already beats the play (MAGPIE cuts the move
generation off at the play's equity instead, inside its generator).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rackety.kernels.fields import (
    BLANK_FLAG,
    G_EXCHANGE_MIN,
    G_RACK_SIZE,
    GS_BAG,
    GS_RACK,
    M_DIR,
    M_FIRST,
    M_LANE,
    M_LEN,
    M_LIDX,
    M_THROUGH,
    R_PLACE,
    RACK_CAP,
    S_FULL_LIDX,
    S_LV,
)
from rackety.kernels.jit import njit
from rackety.kernels.leaves import leave_key, places, table_values
from rackety.kernels.selfplay import EV_EXCHANGE, EV_PLAY, decide

#: how far below the decision's equity a play may be and still count as the
#: decision's equal (the play's equity is a sum taken apart from the generator's)
TIE = 1e-9


class Racks(NamedTuple):
    """The racks `evaluate` considers, as counts per code: what is known of
    them, the tiles the play needs, the pool the rest is drawn from, and the
    table of what may be drawn (uint8, a row per rack)."""

    known: np.ndarray
    need: np.ndarray
    pool: np.ndarray
    table: np.ndarray


class Play(NamedTuple):
    """The play `evaluate` weighs each rack against (its docstring)."""

    played: np.ndarray
    meta: np.ndarray
    tiles: np.ndarray
    score: int
    offset: float
    exchanged: int
    margin: float
    other_seat: int


class Verdicts(NamedTuple):
    """What `evaluate` says of each rack (float64, bool, int64, float64,
    float64, a row each)."""

    weight: np.ndarray
    ok: np.ndarray
    key: np.ndarray
    best: np.ndarray
    equity: np.ndarray


@njit(cache=True, nogil=True)
def draws(avail, m, fill, out) -> int:
    """Every multiset of exactly ``m`` tiles with at most ``avail[c]`` copies of
    code c, each a row of ``out`` (codes ascending), in lexicographic order;
    returns how many (written only with ``fill``). ``m`` = 0: one, empty."""
    size = avail.shape[0]
    if m == 0:
        return 1
    cur = np.zeros(m, np.int64)
    used = np.zeros(size, np.int64)
    nxt = np.zeros(m, np.int64)
    n = 0
    d = 0
    while d >= 0:
        c = nxt[d]
        while c < size and used[c] >= avail[c]:
            c += 1
        if c >= size:  # this depth is spent: back up and turn the one before
            d -= 1
            if d >= 0:
                used[cur[d]] -= 1
                nxt[d] = cur[d] + 1
            continue
        cur[d] = c
        if d == m - 1:
            if fill:
                for i in range(m):
                    out[n, i] = cur[i]
            n += 1
            nxt[d] = c + 1
            continue
        used[c] += 1
        d += 1
        nxt[d] = c
    return n


@njit(cache=True, nogil=True)
def _choose(n, k) -> float:
    """C(n, k) as a float (0 when k > n)."""
    if k < 0 or k > n:
        return 0.0
    out = 1.0
    for i in range(k):
        out = out * (n - i) / (i + 1)
    return np.floor(out + 0.5)


@njit(cache=True, nogil=True)
def _best_leaves(values, size, rack, nc, want, least) -> tuple[int, float]:
    """Over a rack's leaves (``values`` by leave index, `rackety.kernels.leaves`;
    the rack's codes below ``nc``) but the whole rack: the first index of the
    highest value among those keeping ``want`` tiles (-1: none, or ``want`` <
    0), and the highest value of those keeping ``least`` tiles or more (-inf:
    none), the best exchange the bag allows (a trade takes no more tiles than
    the bag holds: ``least`` is the rack's tiles less the bag's, the rule of
    `rackety.kernels.generate.may_exchange`). The indices are counted up as an odometer, the first
    digit fastest."""
    radix = np.empty(64, np.int64)
    k = 0
    for c in range(nc):
        if rack[c] > 0:
            radix[k] = rack[c] + 1
            k += 1
    kept = np.zeros(64, np.int64)
    total = 0
    chosen = -1
    top = -np.inf
    for idx in range(size - 1):
        v = values[idx]
        if v > top and total >= least:
            top = v
        if total == want and (chosen < 0 or v > values[chosen]):
            chosen = idx
        j = 0
        while j < k:
            kept[j] += 1
            total += 1
            if kept[j] < radix[j]:
                break
            total -= kept[j]
            kept[j] = 0
            j += 1
    return chosen, top


@njit(cache=True, nogil=True)
def _same_row(meta, otiles, chosen, play_meta, play_tiles) -> bool:
    """Whether generator row ``chosen`` is the play's row."""
    same = True
    for col in (M_DIR, M_LANE, M_FIRST, M_LEN):
        same = same and meta[chosen, col] == play_meta[0, col]
    for p in range(meta[chosen, M_LEN] if same else 0):
        same = same and otiles[chosen, p] == play_tiles[0, p]
    return same


#: placements remembered from earlier decisions, to bound a rack's best equity
PROBES = 48


@njit(cache=True, nogil=True)
def _remember(probe_code, probe_count, probe_base, probes, chosen, meta, otiles, oeq, fs,
              lv) -> int:
    """Keep placement row ``chosen`` among the probes (``probe_code[k]``,
    ``probe_count[k]``: the tiles it places, a blank as 0, -1 after the last
    code; ``probe_base[k]``: its equity less its leave's value); returns how
    many probes there are. The newest replaces the oldest once there are
    `PROBES`."""
    base = oeq[chosen] - fs[lv + meta[chosen, M_LIDX]]
    need = np.zeros(64, np.int64)
    through = meta[chosen, M_THROUGH]
    for p in range(meta[chosen, M_LEN]):
        if (through >> p) & 1 == 0:
            t = np.int64(otiles[chosen, p])
            need[0 if t & BLANK_FLAG else t] += 1
    for k in range(min(probes, PROBES)):  # known already: keep the one there is
        if probe_base[k] == base:
            same = True
            q = 0
            for c in range(64):
                if need[c] > 0:
                    same = same and probe_code[k, q] == c and probe_count[k, q] == need[c]
                    q += 1
            if same and probe_code[k, q] < 0:
                return probes
    slot = probes % PROBES
    q = 0
    for c in range(64):
        if need[c] > 0:
            probe_code[slot, q] = c
            probe_count[slot, q] = need[c]
            q += 1
    probe_code[slot, q] = -1
    probe_base[slot] = base
    return probes + 1


@njit(cache=True, nogil=True)
def _probe_bound(probe_code, probe_count, probe_base, probes, rack, place, full, values
                 ) -> float:
    """The best equity of the probes the rack can play (placing their tiles,
    and keeping the rest at their table values: leave index ``full``, the
    whole rack's, less the tiles placed): a lower bound of the rack's best
    static equity (-inf: none fits)."""
    top = -np.inf
    for k in range(min(probes, PROBES)):
        lidx = full
        q = 0
        while probe_code[k, q] >= 0:
            c = probe_code[k, q]
            if rack[c] < probe_count[k, q]:
                lidx = -1
                break
            lidx -= probe_count[k, q] * place[c]
            q += 1
        if lidx >= 0 and probe_base[k] + values[lidx] > top:
            top = probe_base[k] + values[lidx]
    return top


@njit(cache=True, nogil=True)
def evaluate(kwg, consts, gs, bank, work, racks, play, first, last, verdicts) -> int:
    """Racks ``first`` to ``last - 1`` of ``table`` for the player to move of
    ``gs`` (seat 0) (``racks``: `Racks`, ``play``: `Play`, ``verdicts``:
    `Verdicts`): rack = ``known`` + ``need`` + the row's tiles (counts per
    code; ``pool`` the counts the unknown part is drawn from). For rack i
    (output row i - first): ``weight`` the ways to draw its unknown part from
    the pool (the product of C(pool[c], drawn[c])), ``ok`` whether the play
    is consistent with it, ``key`` the tiles kept (`leave_key`), ``best`` the
    static decision's equity (or, for a rack ruled out before it, a lower
    bound of it), ``equity`` the play's. Returns how many racks needed the
    static player's decision.

    The play: a placement (``exchanged`` = 0) of the tiles ``played`` (counts),
    generator row ``play_meta[0]`` / ``play_tiles[0]`` scoring ``score``, with
    ``offset`` (its equity apart from score and leave, the same for every rack)
    added; it is consistent when the decision is that placement, or when its
    equity is at least the decision's minus ``margin``; it keeps the rack
    less ``played``. Or an exchange of ``exchanged`` tiles: the tiles kept are
    the best leave of that size, consistent when its value is at least the
    decision's equity minus ``margin`` (and the bag allows an exchange).
    ``other_seat`` >= 0: the bag is empty and that seat, whose rack is unknown,
    holds every pool tile not drawn (the static player counts its points).

    While the bag holds tiles (a leave is then worth its table value, which
    `table_values` gives), a rack is ruled out before the decision when a
    lower bound of its best static equity beats the play by more than
    ``margin``: its best exchange (when the bag allows one), or the best of
    the placements earlier decisions chose (`PROBES` of them: a placement is
    legal for every rack holding its tiles, and its equity is its score, its
    own term and the value of what it keeps). The racks come in lexicographic
    order, so neighbours share their best plays.

    ``work``: `rackety.game.movegen.Work` arrays; ``bank``: the leave table
    (nodes, counts, values) rooted at 0."""
    known, need, pool, table = racks
    played, play_meta, play_tiles, score, offset, exchanged, margin, other_seat = play
    weight, ok, key, best, equity = verdicts
    st, fs, out, res, resf = work.st, work.fs, work.out, work.res, work.resf
    meta, otiles, oeq = out
    rules = consts.rules
    rack = np.zeros(64, np.int64)
    kept = np.zeros(64, np.int64)
    place = np.zeros(64, np.int64)
    values = np.zeros(1 << 12, np.float64)
    probe_code = np.full((PROBES, 16), -1, np.int64)
    probe_count = np.zeros((PROBES, 16), np.int64)
    probe_base = np.zeros(PROBES, np.float64)
    probes = 0
    nc = 1  # the codes there may be on a rack: below nc
    for c in range(64):
        if pool[c] > 0 or known[c] > 0 or need[c] > 0:
            nc = c + 1
    m = table.shape[1]
    rack_size = rules[G_RACK_SIZE]
    bag = gs.ints[GS_BAG]
    can_exchange = bag >= rules[G_EXCHANGE_MIN]
    tabled = bag > 0  # the leave values are then the table's
    decided = 0
    for i in range(first, last):
        j = i - first
        for c in range(nc):
            rack[c] = known[c] + need[c]
        for t in range(m):
            rack[table[i, t]] += 1
        w = 1.0
        rn = 0
        for c in range(nc):
            drawn = rack[c] - known[c]
            if drawn > 0:
                w *= _choose(pool[c], drawn)
            rn += rack[c]
        weight[j] = w
        want = rn - exchanged if exchanged > 0 else -1
        for c in range(nc):
            kept[c] = rack[c] - played[c] if exchanged == 0 else 0
        ok[j] = False
        key[j] = -1
        if tabled:
            size = places(rack, place)
            table_values(bank[0], bank[1], bank[2], 0, 0, rack, values)
            chosen, top = _best_leaves(values, size, rack, nc, want, rn - bag)
            if not can_exchange:
                top = -np.inf
            if exchanged == 0:
                lidx = 0
                for c in range(nc):
                    lidx += kept[c] * place[c]
                eq = score + values[lidx] + offset
            else:
                eq = values[chosen] if chosen >= 0 else -np.inf
            if probes > 0:
                top = max(top, _probe_bound(probe_code, probe_count, probe_base, probes, rack,
                                            place, size - 1, values))
            if top > eq + margin + TIE or (exchanged > 0 and chosen < 0):
                best[j] = top  # ruled out: a lower bound of the best equity beats the play
                equity[j] = eq
                continue
        decided += 1
        n = 0
        for c in range(64):
            for _ in range(rack[c]):
                gs.racks[0, n] = c
                n += 1
        gs.ints[GS_RACK] = rn
        if other_seat >= 0:
            on = 0
            for c in range(64):
                for _ in range(pool[c] - (rack[c] - known[c])):
                    if on < RACK_CAP:
                        gs.racks[other_seat, on] = c
                        on += 1
            gs.ints[GS_RACK + other_seat] = on
        do = decide(kwg, consts, gs, False, False, bank, 0, 0, work)
        top = oeq[res[0]] if do == EV_PLAY else resf[0]
        best[j] = top
        # the rack's leave values as the decision counted them
        lv = st[S_LV]
        size = st[S_FULL_LIDX] + 1
        if exchanged == 0:
            lidx = 0
            for c in range(64):
                lidx += kept[c] * st[R_PLACE + c]
            eq = score + fs[lv + lidx] + offset
            same = do == EV_PLAY and _same_row(meta, otiles, res[0], play_meta, play_tiles)
            ok[j] = same or eq >= top - margin - TIE
        else:
            chosen, _top = _best_leaves(fs[lv:lv + size], size, rack, nc, want, rn - bag)
            eq = fs[lv + chosen] if chosen >= 0 else -np.inf
            if chosen >= 0:
                for c in range(64):
                    if rack[c] > 0:
                        kept[c] = (chosen // st[R_PLACE + c]) % (rack[c] + 1)
            ok[j] = can_exchange and chosen >= 0 and (
                (do == EV_EXCHANGE and res[2] == exchanged) or eq >= top - margin - TIE)
        if tabled and do == EV_PLAY and not ok[j]:
            probes = _remember(probe_code, probe_count, probe_base, probes, res[0], meta, otiles,
                               oeq, fs, lv)
        equity[j] = eq
        key[j] = leave_key(kept, 64, rack_size)
    return decided
