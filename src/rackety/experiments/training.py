"""Leave values learned by self-play (``rackety leaves train``).

Gordon's hand-set weights (H1-H3) lose to leave values measured over many
games, which is how Quackle, Macondo, MAGPIE and wolges make theirs. Here both
seats of every game play the current table (`rackety.experiments.selfplay`, one compiled
call per game), every turn's leave (the tiles kept) is recorded with what the
player realised after it, and the table of the next generation is the average
of that, shrunk toward the previous table where a leave was seen rarely.

**The sample** (temporal difference, TD(0), as engines train leaves): a player
keeps leave ``L`` at turn t (a placement or an exchange, the bag not empty
after it, so ``L`` is refilled). At the player's next turn t' it scores ``s``
and keeps ``L'``; the target is

    y = s + V(L')          if the bag is not empty after t' (V: the current table,
                           V(empty) = 0)
    y = s + the player's later points to the end of the game
                           if t' empties the bag, or t' is a pass (the endgame
                           is not a leave's business, but its points are real)

and a turn with no next turn of the player (the game ended by scoreless turns)
gives no sample. The end-of-game points are the rules' (with the default
``twice`` play-out rule, the player who goes out gains twice the other racks).

**The baseline** is the mean target of the *empty* leave (a bingo or a whole
exchange, the bag refilling all seven tiles), ``b = mean(y | L = empty)``: a
KLV file values the empty leave at 0, so a leave's value is what it is worth
over drawing a fresh rack. (If no empty leave was seen, the mean of every
target is used.)

**The new value** of a leave seen ``n`` times with targets ``y_i``, shrunk toward
its prior ``P`` (the previous generation's value; at generation 1 the value
under ``--init``, H3 by default) with ``K = min_count``:
    V_new(L) = (sum_i (y_i - b) + K * P(L)) / (n + K)

so a leave seen K times is halfway between its prior and its mean, and a
leave never seen keeps its prior. Every leave of 1 to ``rack_size - 1`` tiles
that the alphabet's tile counts allow (914,624 in English) is written.

**The racks method** (``method="racks"``, the command line's default; the
way MAGPIE's ``leavegen`` values leaves, the idea learned from its
description and source, no code taken): every placement or exchange made
from a full rack with a full rack's tiles or more in the bag (the leave
will be refilled; ``leavegen`` ends its games there, and racks drawn late,
with the board closing, are worth less for reasons no leave has) is a
sample of that *rack*: its equity, the score plus the current value of the
tiles kept. A rack's value is the mean of its samples (with the
rack model below for the racks seen rarely or never). A
leave's value is what the racks holding it are worth when it is kept and
the rest drawn, relative to a rack drawn from the full bag:

    V(L) = sum_R w(R, L) m(R) / sum_R w(R, L)  -  b,
    w(R, L) = prod_c C(dist_c - L_c, R_c - L_c),  b = sum_R C(R) m(R) / sum_R C(R)

over every rack R holding L (C(R) = prod_c C(dist_c, R_c), the ways to draw
R). Each sample informs every leave of its rack (up to 126), so a generation
values far more leaves than the TD samples do (a few thousand games touch a
quarter of a million), rare ones through the common racks that hold them.
The shrinkage is as above, with n the rack samples behind the leave.

**The rack model.** The racks a generation sees are not a fair sample of the
racks that hold a leave: a game sees the common racks, and the racks it
misses are mostly clumsy ones (duplicates, rare tiles). Averaging over the
racks seen only would overvalue the leaves whose racks are seen least, the
rare tiles above all (measured: C, M, P, V and Z one to three points too
high after 20,000 games). So every rack counts, with the equity ``m(R)`` of
a model fitted to the generation (`RackModel`: an intercept, a term per tile,
one per pair of tiles and the word terms below, by least squares, each rack
weighted by its samples), and a rack seen
has its mean shrunk toward it,

    m(R) = (n_R mean_R + k model(R)) / (n_R + k),   k = noise / spread

with ``noise`` the variance of one sample around its rack's mean and
``spread`` that of the racks' means around the model less the noise (the
usual empirical-Bayes weight). No rack is enumerated for this (English has
3,199,724): the model's expected equity over the racks holding a leave is
exact (the moments of the multivariate hypergeometric draw of the rest,
expanded around the full bag so that a leave costs only the codes it holds,
`_model_leaves`; the word terms sum over the racks that spell a word,
`word_racks`, a few hundred thousand, kept in the lexicon cache), and the
racks seen add their departures from the model.

**The word terms** (`word_features`): the rack spells a word of all its
tiles; it spells one with one more tile (a bingo through the board); and
then the share of the bag's tiles that more tile may be. Without them the
model cannot see that AEINST and a seventh tile nearly always make a bingo:
every bingo stem came out far too low (AEINST 10 points under MAGPIE-DATA's
value, the six-tile leaves 1.3 points under on average), since its racks,
each seen rarely, were shrunk toward a model of pairs. The share tells a
rack that bingoes through two thirds of the bag (AEINST?) from one that
needs the single J.

**The horizon** (``horizon=2``, racks method): a rack's sample can span two
of the player's turns, the move's score plus the next turn's score and the
value of what that turn keeps (samples whose leaves the bag does not refill
are skipped), so that what a leave does to the turn after next is measured,
not only bootstrapped.

**Determinism.** Game i of generation g is dealt from the seed
``blake2b(seed/g/i)``, never from the worker; the targets are summed in fixed
point (int64, 2**-16 points), which is exact and so independent of the order
in which tasks finish: the same seed gives the same table, byte for byte, on
any backend with any number of workers.

The kernels call `rackety.experiments.selfplay` (through `Compiled`), `players.heuristics`
and `lexicon.klv`: numba's cache watches only this file (docs/NUMBA.md trap 5), so
the folder of compiled kernels is keyed by the whole package's content
(`rackety.jitcache`).
"""

from __future__ import annotations

import hashlib
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from math import comb
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from rackety.alphabet import Alphabet
from rackety.backends import imap_tasks
from rackety.errors import RacketyError
from rackety.experiments.selfplay import Compiled
from rackety.game.heuristics import HEURISTICS
from rackety.game.leaves import LeaveSet, leave_set, set_key
from rackety.kernels.fields import M_LEN, M_THROUGH, Events
from rackety.kernels.jit import njit
from rackety.kernels.leaves import leave_key
from rackety.kernels.selfplay import EV_EXCHANGE, EV_PASS, EV_PLAY
from rackety.lexicon import Lexicon
from rackety.lexicon.cache import lookup_array, store_array
from rackety.lexicon.klv import Klv
from rackety.players import StaticPlayer

T = TypeVar("T")

SCALE = 65536.0  # fixed point of the sums of targets: exact, so order-free
KEY_BITS = 6  # bits per tile of a leave's key (codes below 63)
GAMES_PER_TASK = 500  # at most, so a task is a few seconds of one core
DEFAULT_MIN_COUNT = 50


# ------------------------------------------------------------------ kernels
@njit(cache=True, nogil=True)
def _kept(e: int, kind: int, ev_meta: np.ndarray, ev_tiles: np.ndarray, ev_rack: np.ndarray,
          hist: np.ndarray) -> int:
    """The tiles event ``e`` (a placement or an exchange) kept, as counts per
    code in ``hist``: its rack less the tiles it placed (a blank as code 0) or
    traded. Returns how many it placed or traded."""
    hist[:] = 0
    for i in range(ev_rack[e, 0]):
        hist[ev_rack[e, 2 + i]] += 1
    used = 0
    through = ev_meta[e, M_THROUGH] if kind == EV_PLAY else 0
    for j in range(ev_meta[e, M_LEN]):
        if (through >> j) & 1:
            continue
        t = np.int64(ev_tiles[e, j])
        if kind == EV_PLAY and (t & 0x80) != 0:
            t = np.int64(0)  # a blank
        hist[t] -= 1
        used += 1
    return used


@njit(cache=True, nogil=True)
def _game_leaves(n: int, ev_kind: np.ndarray, ev_meta: np.ndarray, ev_tiles: np.ndarray,
                 ev_rack: np.ndarray, size: int, max_len: int, keys: np.ndarray,
                 leave: np.ndarray, bag_after: np.ndarray) -> None:
    """Each event's leave index into ``leave`` (-2: not a placement or
    exchange; -1: a leave the table does not hold; ``len(keys)``: the empty
    leave) and the tiles left in the bag after it into ``bag_after``."""
    empty = keys.shape[0]
    hist = np.zeros(64, np.int64)
    for e in range(n):
        leave[e] = -2
        bag_after[e] = 0
        kind = ev_kind[e]
        if kind != EV_PLAY and kind != EV_EXCHANGE:
            continue
        rn = ev_rack[e, 0]
        used = _kept(e, kind, ev_meta, ev_tiles, ev_rack, hist)
        bag = ev_rack[e, 1]
        bag_after[e] = bag if kind == EV_EXCHANGE else bag - min(used, bag)
        if used == rn:
            leave[e] = empty
            continue
        key = leave_key(hist, size, max_len)
        i = np.searchsorted(keys, key)
        leave[e] = i if (key >= 0 and i < empty and keys[i] == key) else -1


@njit(cache=True, nogil=True)
def _next_turn(e: int, n: int, ev_seat: np.ndarray, ev_kind: np.ndarray) -> int:
    """The index of the next placement, exchange or pass of event ``e``'s
    player, or ``n`` if there is none."""
    seat = ev_seat[e]
    f = e + 1
    while f < n and not (ev_seat[f] == seat and (ev_kind[f] == EV_PLAY or
                                                  ev_kind[f] == EV_EXCHANGE or
                                                  ev_kind[f] == EV_PASS)):
        f += 1
    return f


@njit(cache=True, nogil=True)
def _target(e: int, n: int, ev_seat: np.ndarray, ev_kind: np.ndarray, ev_score: np.ndarray,
            leave: np.ndarray, bag_after: np.ndarray, values: np.ndarray) -> float:
    """The TD target of the leave event ``e`` kept (module docstring): the
    player's next score and leave, or its points to the end of the game; NaN
    when there is no sample (no leave, the bag empty after ``e``, or no next
    turn of the player)."""
    empty = values.shape[0]
    if leave[e] < 0 or bag_after[e] == 0:
        return np.nan
    f = _next_turn(e, n, ev_seat, ev_kind)
    if f == n:
        return np.nan
    target = np.float64(ev_score[f])
    if ev_kind[f] != EV_PASS and bag_after[f] > 0:
        if 0 <= leave[f] < empty:
            target += values[leave[f]]
    else:
        for g in range(f + 1, n):
            if ev_seat[g] == ev_seat[e]:
                target += ev_score[g]
    return target


@njit(cache=True, nogil=True)
def _accumulate(n: int, events: Events, size: int, max_len: int, keys: np.ndarray,
                values: np.ndarray, sums: np.ndarray, counts: np.ndarray) -> int:
    """Add one game's samples (module docstring; ``events``: its
    `rackety.kernels.fields.Events`) to ``sums`` (targets in fixed point) and
    ``counts``, by leave index; the empty leave at index ``len(keys)``.
    Returns the number of samples."""
    ev_seat, ev_kind, ev_score, ev_meta, ev_tiles, ev_rack = events.seat, events.kind, \
        events.score, events.meta, events.tiles, events.rack
    leave = np.empty(n, np.int64)
    bag_after = np.empty(n, np.int64)
    _game_leaves(n, ev_kind, ev_meta, ev_tiles, ev_rack, size, max_len, keys, leave, bag_after)
    samples = 0
    for e in range(n):
        target = _target(e, n, ev_seat, ev_kind, ev_score, leave, bag_after, values)
        if np.isnan(target):
            continue
        sums[leave[e]] += np.int64(np.round(target * SCALE))
        counts[leave[e]] += 1
        samples += 1
    return samples


@njit(cache=True, nogil=True)
def _rack_samples(n: int, events: Events, size: int, max_len: int, rack_len: int,
                  keys: np.ndarray, values: np.ndarray, horizon: int, out_keys: np.ndarray,
                  out_sums: np.ndarray) -> int:
    """One game's rack samples (the ``racks`` method): for each placement or
    exchange made from a full rack with a full rack's tiles or more in the
    bag (``rack_len``: while the leave will be refilled), the rack's key
    (`leave_key` of its ``rack_len`` tiles) and the equity of the move in
    fixed point: at ``horizon`` 1 its score plus the current value of the
    tiles kept; at ``horizon`` 2 its score plus the player's next score and
    the value of what that turn keeps, when the bag refills both leaves
    (other samples are skipped). Returns how many."""
    ev_seat, ev_kind, ev_score, ev_meta, ev_tiles, ev_rack = events.seat, events.kind, \
        events.score, events.meta, events.tiles, events.rack
    empty = keys.shape[0]
    hist = np.zeros(64, np.int64)
    leave = np.empty(n, np.int64)
    bag_after = np.empty(n, np.int64)
    if horizon > 1:
        _game_leaves(n, ev_kind, ev_meta, ev_tiles, ev_rack, size, max_len, keys, leave,
                     bag_after)
    m = 0
    for e in range(n):
        kind = ev_kind[e]
        rn = ev_rack[e, 0]
        if (kind != EV_PLAY and kind != EV_EXCHANGE) or rn != rack_len or \
                ev_rack[e, 1] < rack_len:
            continue
        hist[:] = 0
        for i in range(rn):
            hist[ev_rack[e, 2 + i]] += 1
        rack_key = leave_key(hist, size, rack_len)
        used = _kept(e, kind, ev_meta, ev_tiles, ev_rack, hist)
        equity = np.float64(ev_score[e]) if kind == EV_PLAY else 0.0
        if horizon > 1:
            # the player's next turn, a placement or exchange with the bag refilling
            # its leave: every sample then spans two turns alike (late ones are skipped)
            f = _next_turn(e, n, ev_seat, ev_kind) if bag_after[e] > 0 else n
            if f == n or ev_kind[f] == EV_PASS or bag_after[f] == 0 or leave[f] == -1:
                continue
            equity += ev_score[f]
            if leave[f] < empty:
                equity += values[leave[f]]
        elif used < rn:
            key = leave_key(hist, size, max_len)
            i = np.searchsorted(keys, key)
            if key >= 0 and i < empty and keys[i] == key:
                equity += values[i]
        out_keys[m] = rack_key
        out_sums[m] = np.int64(np.round(equity * SCALE))
        m += 1
    return m


@njit(cache=True)
def _rack_hist(key: int, rack_len: int, hist: np.ndarray) -> None:
    """The tile counts of a rack's key (`leave_key` of ``rack_len`` tiles)
    into ``hist``."""
    hist[:] = 0
    for j in range(rack_len):
        digit = (key >> (6 * (rack_len - 1 - j))) & 63
        if digit > 0:
            hist[digit - 1] += 1


@njit(cache=True)
def _rack_leaves(rack_keys: np.ndarray, rack_means: np.ndarray, rack_counts: np.ndarray,
                 dist: np.ndarray, size: int, rack_len: int, max_len: int, keys: np.ndarray,
                 total: np.ndarray, weight: np.ndarray, samples: np.ndarray) -> tuple[float, float]:
    """Sums over the racks seen (the ``racks`` method; ``rack_counts``: the
    samples behind each): for each rack R with equity m (``rack_means``),
    each leave L of R (1 to ``max_len`` tiles) adds m with the weight of
    drawing the rest of R after keeping L, the product over codes of
    C(dist - L, R - L) (``total``: the weighted sums, ``weight``: the
    weights, ``samples``: the rack samples behind them, by leave index).
    Returns the sum of m weighted by the ways to draw each rack from the full
    bag, and the sum of those ways. Racks are visited in key order, so the
    float sums are the same on every run."""
    binom = np.zeros((128, 8), np.float64)
    for a in range(128):
        binom[a, 0] = 1.0
        for b in range(1, min(a, 7) + 1):
            binom[a, b] = binom[a - 1, b - 1] + (binom[a - 1, b] if b <= a - 1 else 0.0)
    hist = np.zeros(64, np.int64)
    codes = np.zeros(8, np.int64)
    have = np.zeros(8, np.int64)
    kept = np.zeros(8, np.int64)
    empty = keys.shape[0]
    grand = 0.0
    grand_w = 0.0
    for r in range(rack_keys.shape[0]):
        _rack_hist(rack_keys[r], rack_len, hist)
        k = 0
        for c in range(size):
            if hist[c] > 0:
                codes[k] = c
                have[k] = hist[c]
                kept[k] = 0
                k += 1
        mean = rack_means[r]
        full = 1.0
        for j in range(k):
            full *= binom[dist[codes[j]], have[j]]
        grand += full * mean
        grand_w += full
        # every sub-multiset of the rack: an odometer over the distinct codes
        while True:
            j = 0
            while j < k and kept[j] == have[j]:
                kept[j] = 0
                j += 1
            if j == k:
                break
            kept[j] += 1
            n_kept = 0
            w = 1.0
            for i in range(k):
                n_kept += kept[i]
                w *= binom[dist[codes[i]] - kept[i], have[i] - kept[i]]
            if n_kept < 1 or n_kept > max_len:
                continue
            lk = np.int64(0)  # `leave_key` of the kept tiles, from the codes ascending
            for i in range(k):
                for _ in range(kept[i]):
                    lk = lk * 64 + (codes[i] + 1)
            for _ in range(n_kept, max_len):
                lk = lk * 64
            idx = np.searchsorted(keys, lk)
            if idx < empty and keys[idx] == lk:
                total[idx] += w * mean
                weight[idx] += w
                samples[idx] += rack_counts[r]
    return grand, grand_w


@njit(cache=True)
def _rack_features(hist: np.ndarray, size: int, flags: np.ndarray, index: np.ndarray,
                   value: np.ndarray) -> int:
    """A rack's nonzero features for the rack model (`rack_model`): 1 (the
    intercept), the count of each code present, and for each pair of codes
    present c < d the product of their counts, for each code its pairs
    C(count, 2), then the word features where ``flags[j]`` is not 0, with
    that value (`word_features`).
    Writes feature numbers and values; returns how many."""
    m = 0
    index[m] = 0
    value[m] = 1.0
    m += 1
    for c in range(size):
        if hist[c] == 0:
            continue
        index[m] = 1 + c
        value[m] = hist[c]
        m += 1
        for d in range(c, size):
            if hist[d] == 0:
                continue
            pair = hist[c] * (hist[c] - 1) // 2 if d == c else hist[c] * hist[d]
            if pair == 0:
                continue
            index[m] = 1 + size + c * size - c * (c - 1) // 2 + (d - c)
            value[m] = pair
            m += 1
    for j in range(flags.shape[0]):
        if flags[j] != 0.0:
            index[m] = 1 + size + size * (size + 1) // 2 + j
            value[m] = flags[j]
            m += 1
    return m


@njit(cache=True)
def _fit_normal(rack_keys: np.ndarray, rack_means: np.ndarray, rack_counts: np.ndarray, size: int,
                rack_len: int, flags: np.ndarray, gram: np.ndarray, rhs: np.ndarray) -> None:
    """The normal equations of the rack model, each rack weighted by its
    samples (``flags[r]``: rack r's word features): adds X'WX into ``gram``
    and X'Wy into ``rhs``."""
    hist = np.zeros(64, np.int64)
    index = np.zeros(64, np.int64)
    value = np.zeros(64, np.float64)
    for r in range(rack_keys.shape[0]):
        _rack_hist(rack_keys[r], rack_len, hist)
        m = _rack_features(hist, size, flags[r], index, value)
        w = np.float64(rack_counts[r])
        y = rack_means[r]
        for a in range(m):
            rhs[index[a]] += w * value[a] * y
            for b in range(m):
                gram[index[a], index[b]] += w * value[a] * value[b]


@njit(cache=True)
def _predict(rack_keys: np.ndarray, coef: np.ndarray, size: int, rack_len: int, flags: np.ndarray,
             out: np.ndarray) -> None:
    """The rack model's equity of each rack into ``out`` (``flags[r]``: rack
    r's word features)."""
    hist = np.zeros(64, np.int64)
    index = np.zeros(64, np.int64)
    value = np.zeros(64, np.float64)
    for r in range(rack_keys.shape[0]):
        _rack_hist(rack_keys[r], rack_len, hist)
        m = _rack_features(hist, size, flags[r], index, value)
        acc = 0.0
        for a in range(m):
            acc += coef[index[a]] * value[a]
        out[r] = acc


@njit(cache=True)
def _model_leaves(tiles: np.ndarray, lengths: np.ndarray, coef: np.ndarray, dist: np.ndarray,
                  size: int, rack_len: int, out: np.ndarray) -> float:
    """The rack model's expected equity of a rack holding each leave (``tiles``/
    ``lengths``, a `LeaveSet`'s) with the rest drawn from the full bag less
    the leave, into ``out``; returns that of a rack drawn from the full bag.
    Exact: the rest X is multivariate hypergeometric (k tiles from a pool p of
    M), so E[X_c] = k p_c / M, E[X_c X_d] = k (k - 1) p_c p_d / (M (M - 1))
    for c != d and E[X_c (X_c - 1)] = k (k - 1) p_c (p_c - 1) / (M (M - 1)),
    which is all the model's intercept, tile and pair terms need.

    With h the leave, s the bag (``dist``), p = s - h, r = k / M and
    f2 = k (k - 1) / (M (M - 1)), the expectation is

        a + sum_c t_c (h_c + r p_c)
          + sum_c q_c (h_c (h_c - 1) + 2 r h_c p_c + f2 p_c (p_c - 1)) / 2
          + sum_{c<d} Q_cd (h_c h_d + r (h_c p_d + h_d p_c) + f2 p_c p_d)

    (a: the intercept, t: the tile terms, q: a code's own pairs, Q: the
    pairs of two codes). Everything over the whole alphabet is expanded
    around the bag, made once: T = sum_c t_c s_c, D = sum_c q_c s_c (s_c - 1)
    / 2, u_c = sum_{d != c} Q_cd s_d and S = sum_{c<d} Q_cd s_c s_d. A leave
    then costs its tiles and the pairs of the codes it holds: with U = sum_c
    h_c u_c and H = sum_{c<d} Q_cd h_c h_d over those codes, the tile terms
    are r T + (1 - r) sum_c t_c h_c, the own pairs f2 D plus the held codes'
    departures from their full-bag term, and the pairs of two codes
    H + r (U - 2 H) + f2 (S - U + H). Nothing is made per leave: its counts
    are cleared code by code after it."""
    n_all = 0.0
    for c in range(size):
        n_all += dist[c]
    # the model against the full bag, once: T, D, u and S above
    tiles_bag = 0.0
    own_bag = 0.0
    pairs_bag = 0.0
    row = np.zeros(size, np.float64)
    for c in range(size):
        s_c = np.float64(dist[c])
        base = 1 + size + c * size - c * (c - 1) // 2
        tiles_bag += coef[1 + c] * s_c
        own_bag += coef[base] * s_c * (s_c - 1.0) / 2.0
        for d in range(c + 1, size):
            q = coef[base + d - c]
            s_d = np.float64(dist[d])
            row[c] += q * s_d
            row[d] += q * s_c
            pairs_bag += q * s_c * s_d
    held = np.zeros(size, np.float64)  # the leave's counts, cleared after each
    codes = np.zeros(size, np.int64)  # the codes it holds
    pos = 0
    full = 0.0
    for i in range(lengths.shape[0] + 1):
        n = 0
        h = 0
        if i < lengths.shape[0]:
            n = lengths[i]
            for j in range(n):
                c = int(tiles[pos + j])
                if held[c] == 0.0:
                    codes[h] = c
                    h += 1
                held[c] += 1.0
            pos += n
        k = rack_len - n
        m = n_all - n
        r = k / m if m > 0 else 0.0
        f2 = k * (k - 1) / (m * (m - 1)) if m > 1 else 0.0
        tiles_held = 0.0
        own = 0.0
        u = 0.0
        hh = 0.0
        for a in range(h):
            c = codes[a]
            h_c = held[c]
            s_c = np.float64(dist[c])
            p_c = s_c - h_c
            base = 1 + size + c * size - c * (c - 1) // 2
            tiles_held += coef[1 + c] * h_c
            own += coef[base] * (h_c * (h_c - 1.0) + 2.0 * r * h_c * p_c
                                 + f2 * (p_c * (p_c - 1.0) - s_c * (s_c - 1.0))) / 2.0
            u += h_c * row[c]
            for b in range(a + 1, h):
                d = codes[b]
                lo, hi = (c, d) if c < d else (d, c)
                hh += coef[1 + size + lo * size - lo * (lo - 1) // 2 + hi - lo] * h_c * held[d]
        acc = (coef[0] + r * tiles_bag + (1.0 - r) * tiles_held + f2 * own_bag + own
               + hh + r * (u - 2.0 * hh) + f2 * (pairs_bag - u + hh))
        for a in range(h):
            held[codes[a]] = 0.0
        if i < lengths.shape[0]:
            out[i] = acc
        else:
            full = acc
    return full


# ------------------------------------------------------------------ tasks
def game_seed(seed: int, generation: int, index: int) -> int:
    """The bag seed of game ``index`` of ``generation``: from the three numbers
    only, never from the worker that plays it."""
    digest = hashlib.blake2b(f"{seed}/{generation}/{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


@dataclass(frozen=True)
class _Task:
    source: str
    alphabet: str | None
    table: bytes  # the KLV2 both seats play with
    seed: int
    generation: int
    start: int
    stop: int
    method: str = "td"
    horizon: int = 1


_worker: dict[str, Any] = {}


def play_task(task: _Task) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Play games ``start..stop`` of a generation: (leave indices seen, their
    sums of targets in fixed point, their counts, samples). A top-level function
    for `rackety.backends.run_tasks`."""

    lex_key = (task.source, task.alphabet)
    if _worker.get("lexicon_key") != lex_key:
        _worker["lexicon"] = Lexicon.load(task.source, task.alphabet)
        _worker["lexicon_key"] = lex_key
        _worker.pop("table_key", None)
    lexicon = _worker["lexicon"]
    table_key = hashlib.blake2b(task.table, digest_size=16).digest()
    if _worker.get("table_key") != table_key:
        klv = Klv.from_bytes(task.table, lexicon.alphabet, source="<generation>")
        players = [StaticPlayer(klv, "a"), StaticPlayer(klv, "b")]
        _worker["compiled"] = Compiled(lexicon, players, best_scores=False)
        _worker["values"] = klv.values.astype(np.float64)
        _worker["table_key"] = table_key
    compiled = _worker["compiled"]
    values = _worker["values"]
    leaves = leave_set(lexicon.alphabet)
    if task.method == "racks":
        rack_len = lexicon.alphabet.rack_size
        parts_keys, parts_sums = [], []
        samples = 0
        for index in range(task.start, task.stop):
            game = compiled.play(game_seed(task.seed, task.generation, index))
            out_keys = np.empty(game.n, np.int64)
            out_sums = np.empty(game.n, np.int64)
            m = _rack_samples(game.n, game.events(), leaves.size, leaves.max_len, rack_len,
                              leaves.keys, values, task.horizon, out_keys, out_sums)
            parts_keys.append(out_keys[:m])
            parts_sums.append(out_sums[:m])
            samples += m
        rack_keys = np.concatenate(parts_keys) if parts_keys else np.zeros(0, np.int64)
        rack_sums = np.concatenate(parts_sums) if parts_sums else np.zeros(0, np.int64)
        return rack_keys, rack_sums, np.ones(len(rack_keys), np.int64), samples
    sums = np.zeros(len(leaves) + 1, np.int64)
    counts = np.zeros(len(leaves) + 1, np.int64)
    samples = 0
    for index in range(task.start, task.stop):
        game = compiled.play(game_seed(task.seed, task.generation, index))
        samples += _accumulate(game.n, game.events(), leaves.size, leaves.max_len, leaves.keys,
                               values, sums, counts)
    seen = np.flatnonzero(counts)
    return seen, sums[seen], counts[seen], samples


# ------------------------------------------------------------------ training
@dataclass
class Generation:
    """What one generation did."""

    generation: int
    games: int
    samples: int  # leaves recorded (turns with a sample)
    seen: int  # leaves (of 1 or more tiles) seen at least once
    seen_min_count: int  # ... at least min_count times
    mean_abs_change: float  # over every leave
    mean_abs_change_seen: float  # over the leaves seen
    baseline: float  # the mean target of the empty leave
    seconds: float

    def summary(self, min_count: int) -> str:
        return (f"generation {self.generation}: {self.games:,} games, {self.samples:,} "
                f"samples, leaves seen {self.seen:,} (>= {min_count}: "
                f"{self.seen_min_count:,}), mean |change| {self.mean_abs_change:.4f} "
                f"({self.mean_abs_change_seen:.3f} over those seen), baseline "
                f"{self.baseline:.2f}, {self.seconds:.1f} s")

    def as_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class TrainResult:
    """The trained table and what each generation did."""

    klv: Klv
    generations: list[Generation] = field(default_factory=list)

    def save(self, path: str | Path) -> None:
        self.klv.save(path)


def new_values(prior: np.ndarray, sums: np.ndarray, counts: np.ndarray,
               min_count: int) -> tuple[np.ndarray, float]:
    """The next generation's values (module docstring) from the fixed-point
    ``sums`` and ``counts`` by leave index (the empty leave last), and the
    baseline used."""
    n = counts[:-1].astype(np.float64)
    if counts[-1] > 0:
        baseline = float(sums[-1]) / SCALE / float(counts[-1])
    else:
        total = int(counts.sum())
        baseline = float(sums.sum()) / SCALE / total if total else 0.0
    centred = sums[:-1].astype(np.float64) / SCALE - n * baseline
    k = float(min_count)
    denominator = n + k
    safe = np.where(denominator > 0, denominator, 1.0)
    out = np.where(denominator > 0, (centred + k * prior) / safe, prior)
    return out.astype(np.float32).astype(np.float64), baseline


@dataclass(frozen=True)
class RackModel:
    """The rack model of a generation (``racks`` method): a rack's equity as
    an intercept, a term per tile, a term per pair of tiles and terms for
    the racks that spell a word (the bingo racks, which no sum of pairs
    captures: AEINST and a seventh tile; `word_features`), fitted by least
    squares to the racks seen (each weighted by its samples). A rack's
    equity is its mean shrunk toward the model by ``k`` samples, with ``k``
    the ratio of the noise of one sample to the spread of the racks around
    the model (both measured); a rack never seen takes the model's equity."""

    coef: np.ndarray  # intercept, tiles, pairs, then one term per word feature
    noise: float  # variance of one sample around its rack's mean
    spread: float  # variance of the racks' true equities around the model
    k: float

    def predict(self, rack_keys: np.ndarray, size: int, rack_len: int,
                words: WordSets = None) -> np.ndarray:
        """The model's equity of each rack (keys of ``rack_len`` tiles);
        ``words``: the word features (`word_features`)."""
        flags = _word_flags(rack_keys, words)
        coef = self.coef
        need = 1 + size + size * (size + 1) // 2 + flags.shape[1]
        if len(coef) < need:  # a model without (some) word terms: they are 0
            coef = np.append(coef, np.zeros(need - len(coef)))
        out = np.empty(len(rack_keys), np.float64)
        _predict(rack_keys, coef, size, rack_len, flags, out)
        return out


#: the rack model's word features: for each, the sorted keys of the racks
#: where it is not 0 and its value there (`word_features`), or None
WordSets = tuple[tuple[np.ndarray, np.ndarray], ...] | None


def _word_flags(rack_keys: np.ndarray, words: WordSets) -> np.ndarray:
    """Each rack's word features (one column a feature: its value where the
    rack is among its keys, else 0)."""
    sets = words or ()
    out = np.zeros((len(rack_keys), len(sets)), np.float64)
    for j, (keys, vals) in enumerate(sets):
        if len(keys):
            at = np.minimum(np.searchsorted(keys, rack_keys), len(keys) - 1)
            hit = keys[at] == rack_keys
            out[hit, j] = vals[at[hit]]
    return out


def word_racks(lexicon: Lexicon) -> tuple[np.ndarray, np.ndarray]:
    """The racks of the rack model's two word indicators, as the sorted keys
    (`leave_key` of ``rack_size`` tiles) of every full rack the tile counts
    allow that spells a word of all its tiles (a bingo), and of every one
    that spells a word with one more tile (a bingo through a tile on the
    board), a blank standing for any letter: the words' multisets of
    ``rack_size`` tiles (of one tile more, less each tile in turn), each
    also with one or more of its tiles (as many as the alphabet has blanks)
    replaced by blanks."""
    seven, eight, _ = _word_masks(lexicon)
    return seven, eight


_FEATURES: dict[bytes, WordSets] = {}


def word_features(lexicon: Lexicon) -> WordSets:
    """`_word_sets` of the lexicon, made once per lexicon's contents in a
    process (as `_word_masks`; read them, do not change them)."""
    return _once(_FEATURES, content_key(lexicon), lambda: _word_sets(lexicon))


def _word_sets(lexicon: Lexicon) -> WordSets:
    """The rack model's word features (`word_racks`): 1 where the rack spells
    a word of all its tiles; 1 where it spells one with one more tile; and
    there, the share of the bag's natural tiles that would make that word
    (the letters a bingo could play through: AEINST takes two thirds of the
    bag, a rack that needs a J one tile in 98)."""
    seven, eight, masks = _word_masks(lexicon)
    dist = _tile_counts(lexicon.alphabet)
    share = np.zeros(len(eight), np.float64)
    for c in range(1, 64):
        if dist[c]:
            share += dist[c] * ((masks >> np.uint64(c)) & np.uint64(1)).astype(np.float64)
    share /= float(dist[1:].sum())
    return ((seven, np.ones(len(seven))), (eight, np.ones(len(eight))), (eight, share))


_MASKS: dict[bytes, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def content_key(lexicon: Lexicon) -> bytes:
    """The lexicon's contents (its graph and alphabet: the labels, and the
    tile counts and rack size, which the alphabet's identity leaves out and
    English's variants differ in), as a key of the caches of this module."""
    h = hashlib.blake2b(lexicon.nodes.tobytes(), digest_size=16,
                        person=lexicon.alphabet.identity.encode()[:16])
    h.update(set_key(lexicon.alphabet).encode())
    return h.digest()


def _tile_counts(alphabet: Alphabet) -> np.ndarray:
    """The bag's tiles of each code (int64 [64], the blank at 0)."""
    dist = np.zeros(64, np.int64)
    for tile in alphabet.tiles:
        dist[tile.code] = tile.count
    return dist


#: changes when `_masks_of` makes other racks: the kept ones are made again
WORD_MASKS_VERSION = 1


def _word_masks(lexicon: Lexicon) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`_masks_of` the lexicon, made once per lexicon's contents in a process
    (a training loads its lexicon afresh) and kept in the lexicon cache
    (2.3 s for TWL06's; read them, do not change them). Kept as two arrays
    of `rackety.lexicon.cache.store_array`, which keeps its values' bytes:
    ``NAME``, the two lengths, and ``NAME-N7-N8``, the two kinds of racks'
    keys then the masks, as their 64 bits; the second is written first, so
    a first that reads back names a whole second."""
    key = content_key(lexicon)
    name = f"word-masks-{WORD_MASKS_VERSION}-{key.hex()}"

    def make() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        sizes = lookup_array(name, 2)
        if sizes is not None and all(float(n).is_integer() and 0 <= n < 1 << 32
                                     for n in sizes):
            n7, n8 = int(sizes[0]), int(sizes[1])
            kept = lookup_array(f"{name}-{n7}-{n8}", n7 + 2 * n8)
            if kept is not None:
                bits = kept.view("<u8")  # the bytes as written, on any host
                return (bits[:n7].astype(np.int64), bits[n7:n7 + n8].astype(np.int64),
                        bits[n7 + n8:].astype(np.uint64))
        seven, eight, masks = _masks_of(lexicon)
        bits = np.concatenate([seven.astype("<u8"), eight.astype("<u8"), masks.astype("<u8")])
        store_array(f"{name}-{len(seven)}-{len(eight)}", bits.view("<f8"))
        store_array(name, np.array([len(seven), len(eight)], np.float64))
        return seven, eight, masks

    return _once(_MASKS, key, make)


def _masks_of(lexicon: Lexicon) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`word_racks`' racks as sorted keys (int64): those that spell a word of
    all their tiles, and those that spell one with one more tile, with, for
    each of these, the bit mask of the codes that tile may be (uint64).
    Arrays of every word at once: a word's tiles sorted (less one tile, the
    one the board gives, for the second), then each choice of as many of
    them as there are blanks made blanks, kept when the natural tiles left
    are within the tile counts."""
    rack_len = lexicon.alphabet.rack_size
    dist = _tile_counts(lexicon.alphabet)
    blanks = int(dist[0])
    flat, lengths = lexicon.word_tiles()
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    weights = np.int64(64) ** np.arange(rack_len - 1, -1, -1, dtype=np.int64)
    out: list[tuple[np.ndarray, np.ndarray]] = []
    for extra in (0, 1):
        n = rack_len + extra
        at = starts[lengths == n]
        words = np.sort(np.asarray(flat, np.int64)[at[:, None] + np.arange(n)], axis=1)
        if extra:  # less each tile in turn, which the board gives: its bit
            racks = np.concatenate([np.delete(words, i, axis=1) for i in range(n)])
            bits = np.concatenate([np.left_shift(np.uint64(1), words[:, i].astype(np.uint64))
                                   for i in range(n)])
        else:
            racks, bits = words, np.zeros(len(words), np.uint64)
        keys, masks = [], []
        for nb in range(min(blanks, rack_len) + 1):
            for picked in itertools.combinations(range(rack_len), nb):
                rest = racks[:, [i for i in range(rack_len) if i not in picked]]
                # how many of its tile each natural tile is, in its sorted row
                run = np.ones(rest.shape, np.int64)
                for j in range(1, rest.shape[1]):
                    run[:, j] = np.where(rest[:, j] == rest[:, j - 1], run[:, j - 1] + 1, 1)
                ok = (run <= dist[rest]).all(axis=1)
                keys.append(weights[:nb].sum() + ((rest[ok] + 1) * weights[nb:]).sum(axis=1))
                masks.append(bits[ok])
        key = np.concatenate(keys)
        mask = np.concatenate(masks)
        order = np.argsort(key, kind="stable")
        key, mask = key[order], mask[order]
        first = np.flatnonzero(np.concatenate([[True], key[1:] != key[:-1]])) if len(key) \
            else np.zeros(0, np.int64)
        out.append((key[first], np.bitwise_or.reduceat(mask, first) if len(first)
                    else np.zeros(0, np.uint64)))
    return out[0][0], out[1][0], out[1][1]


def rack_model(keys: np.ndarray, means: np.ndarray, counts: np.ndarray, noise: float,
               size: int, rack_len: int, words: WordSets = None) -> RackModel:
    """Fit the `RackModel` to the racks seen (``keys`` ascending, their mean
    equities and samples) given the variance of one sample (``noise``);
    ``words``: the word features (`word_features`; none: no word terms)."""
    flags = _word_flags(keys, words)
    features = 1 + size + size * (size + 1) // 2 + flags.shape[1]
    gram = np.zeros((features, features), np.float64)
    rhs = np.zeros(features, np.float64)
    _fit_normal(keys, means, counts, size, rack_len, flags, gram, rhs)
    ridge = 1e-6 * max(float(np.trace(gram)) / features, 1.0)
    coef = np.linalg.solve(gram + ridge * np.eye(features), rhs)
    model = RackModel(coef, noise, 0.0, 0.0)
    fitted = model.predict(keys, size, rack_len, words)
    # E[(m - fit)^2] = spread + noise / n over the racks seen
    spread = float(np.mean((means - fitted) ** 2 - noise / counts)) if len(keys) else 0.0
    spread = max(spread, 1e-3 * max(noise, 1e-9))
    return RackModel(coef, noise, spread, noise / spread if noise > 0 else 0.0)


class RackTally:
    """A generation's rack samples (the racks method) folded by rack as they
    come: for each rack key, its samples, their sum and the sum of their
    squares, in exact integers (the sums in fixed point; the squares as two
    64-bit halves with their carry), so the totals are the same in any order
    and memory grows with the racks seen, not with the samples (a long run
    sees the same racks again and again)."""

    FOLD = 1 << 20  # samples waiting before they are folded, at least

    def __init__(self) -> None:
        self.keys = np.zeros(0, np.int64)  # sorted, each once
        self.counts = np.zeros(0, np.int64)
        self.sums = np.zeros(0, np.int64)
        self._high = np.zeros(0, np.int64)  # the squares' sums: high * 2**32 + low
        self._low = np.zeros(0, np.int64)
        self._waiting: list[tuple[np.ndarray, np.ndarray]] = []
        self._count = 0
        self.samples = 0

    def add(self, rack_keys: np.ndarray, rack_sums: np.ndarray) -> None:
        """Samples: a rack key and an equity (fixed point, |sum| < 2**31) each."""
        self._waiting.append((np.asarray(rack_keys, np.int64), np.asarray(rack_sums, np.int64)))
        self._count += len(rack_keys)
        self.samples += len(rack_keys)
        if self._count >= max(self.FOLD, len(self.keys)):
            self.fold()

    def fold(self) -> None:
        """Fold the samples waiting into the racks' totals."""
        if not self._waiting:
            return
        new_keys = np.concatenate([k for k, _ in self._waiting])
        new_sums = np.concatenate([s for _, s in self._waiting])
        squares = new_sums * new_sums  # < 2**62
        self._waiting, self._count = [], 0
        keys, inverse = np.unique(np.concatenate([self.keys, new_keys]), return_inverse=True)
        totals = []
        for old, new in ((self.counts, np.ones(len(new_keys), np.int64)),
                         (self.sums, new_sums), (self._high, squares >> 32),
                         (self._low, squares & 0xFFFFFFFF)):
            total = np.zeros(len(keys), np.int64)
            np.add.at(total, inverse, np.concatenate([old, new]))  # integers: any order
            totals.append(total)
        self.keys, (self.counts, self.sums, self._high, self._low) = keys, totals
        self._high += self._low >> 32  # the carry: every sum stays far from overflowing
        self._low &= 0xFFFFFFFF

    def deviation(self) -> float:
        """The sum over samples of (sample - its rack's mean)**2, fixed point
        squared: sum over racks of (squares - sum**2 / samples)."""
        self.fold()
        if not len(self.keys):
            return 0.0
        squares = self._high.astype(np.float64) * 2.0 ** 32 + self._low.astype(np.float64)
        sums = self.sums.astype(np.float64)
        return float(np.sum(np.maximum(squares - sums * sums / self.counts, 0.0)))


_WORD_LEAVES: dict[bytes, tuple[np.ndarray, float]] = {}
#: changes when `_rack_leaves` sums differently: the kept sums are made again
WORD_LEAVES_VERSION = 1


def _once(cache: dict[bytes, T], key: bytes, make: Callable[[], T]) -> T:
    """``cache[key]``, made by ``make`` the first time (the caches of this
    module, each kept to a few entries a process)."""
    made = cache.get(key)
    if made is None:
        if len(cache) >= 6:
            cache.clear()
        made = cache[key] = make()
    return made


def _word_leaves(keys: np.ndarray, values: np.ndarray, dist: np.ndarray, leaves: LeaveSet
                 ) -> tuple[np.ndarray, float]:
    """A word feature's sums over its racks (``keys``, the feature's
    ``values``) for every leave of ``leaves`` (`_rack_leaves`' ``total``) and
    over the full bag: the same for every generation of a training, and for
    every training of the same lexicon, tile counts and leave set, so made
    once a process and kept in the lexicon cache (1.6 s each for TWL06's;
    `rackety.lexicon.cache.lookup_array`; read them, do not change them)."""
    h = hashlib.blake2b(digest_size=16)
    h.update(f"word leaves {WORD_LEAVES_VERSION} ".encode())
    for part in (keys, values, dist, leaves.keys):
        h.update(np.ascontiguousarray(part).tobytes())
    h.update(f"{leaves.size} {leaves.alphabet.rack_size} {leaves.max_len}".encode())
    name = f"word-leaves-{h.hexdigest()}"

    def make() -> tuple[np.ndarray, float]:
        kept = lookup_array(name, len(leaves) + 1)
        if kept is not None:
            return kept[:-1], float(kept[-1])
        total = np.zeros(len(leaves), np.float64)
        full, _ = _rack_leaves(keys, values, np.zeros(len(keys), np.int64), dist, leaves.size,
                               leaves.alphabet.rack_size, leaves.max_len, leaves.keys, total,
                               np.zeros(len(leaves), np.float64),
                               np.zeros(len(leaves), np.int64))
        store_array(name, np.append(total, full))
        return total, float(full)

    return _once(_WORD_LEAVES, h.digest(), make)


def rack_values(prior: np.ndarray, rack_keys: np.ndarray | RackTally,
                rack_sums: np.ndarray | None, leaves: LeaveSet, min_count: int, *,
                model: bool = True, words: WordSets = None
                ) -> tuple[np.ndarray, float, np.ndarray]:
    """The next generation's values by the ``racks`` method (module docstring)
    from every rack sample of a generation (``rack_keys``, ``rack_sums``: one
    per sample, in any order; or a `RackTally` of them and None), with the
    baseline (the mean rack equity) and
    the rack samples behind each leave. With ``model``, every rack counts:
    each rack's equity is its mean shrunk toward the `RackModel`, a rack never
    seen the model's equity (the sums over all racks are the model's exact
    expectations plus the departures of the racks seen from it, so no rack
    is enumerated but the racks of the word features, ``words``, for the
    model's word terms); without, only the racks seen count, at their means."""
    alphabet = leaves.alphabet
    rack_len = alphabet.rack_size
    dist = _tile_counts(alphabet)
    if isinstance(rack_keys, RackTally):
        tally = rack_keys
    else:
        tally = RackTally()
        tally.add(rack_keys, rack_sums if rack_sums is not None else np.zeros(0, np.int64))
    tally.fold()
    keys, counts, sums = tally.keys, tally.counts, tally.sums
    means = sums / SCALE / np.maximum(counts, 1)
    use_model = model and len(keys) > 0
    expected = np.zeros(len(leaves), np.float64)
    full = 0.0
    if use_model:
        dof = tally.samples - len(keys)
        noise = tally.deviation() / (SCALE * SCALE) / dof if dof > 0 else 0.0
        fit = rack_model(keys, means, counts, noise, leaves.size, rack_len, words)
        fitted = fit.predict(keys, leaves.size, rack_len, words)
        shrunk = (counts * means + fit.k * fitted) / (counts + fit.k)
        means = shrunk - fitted  # each rack seen departs from the model by this much
        full = _model_leaves(leaves.tiles, leaves.lengths, fit.coef, dist, leaves.size,
                             rack_len, expected)
        n_all = int(dist.sum())
        ways = np.array([comb(n_all - n, rack_len - n) for n in range(rack_len + 1)],
                        np.float64)[leaves.lengths]
        base = 1 + leaves.size + leaves.size * (leaves.size + 1) // 2
        for j, (keys_j, vals_j) in enumerate(words or ()):
            # a word term: its coefficient times the feature's expectation over
            # the racks holding the leave, summed over the feature's racks
            if not len(keys_j):
                continue
            word_total, word_full = _word_leaves(keys_j, vals_j, dist, leaves)
            expected += fit.coef[base + j] * word_total / ways
            full += fit.coef[base + j] * word_full / comb(n_all, rack_len)
    total = np.zeros(len(leaves), np.float64)
    weight = np.zeros(len(leaves), np.float64)
    samples = np.zeros(len(leaves), np.int64)
    grand, grand_w = _rack_leaves(keys, means, counts, dist, leaves.size, rack_len,
                                  leaves.max_len, leaves.keys, total, weight, samples)
    if use_model:
        # over every rack: the ways to draw the rest after keeping L sum to
        # C(N - |L|, R - |L|) (``ways``), and the ways to draw a rack to C(N, R)
        baseline = full + grand / comb(n_all, rack_len)
        raw = expected + total / ways - baseline
        valued = np.ones(len(leaves), bool)
    else:
        baseline = grand / grand_w if grand_w > 0 else 0.0
        valued = weight > 0
        raw = np.where(valued, total / np.where(valued, weight, 1.0) - baseline, prior)
    n = samples.astype(np.float64)
    k = float(min_count)
    out = np.where(valued, (n * raw + k * prior) / np.where(n + k > 0, n + k, 1.0), prior)
    return out.astype(np.float32).astype(np.float64), baseline, samples


METHODS = ("td", "racks")
HORIZONS = (1, 2)  # turns a rack sample spans (the racks method)


def train(lexicon_source: str, games: int, generations: int = 1, *,
          init: str = "h3", seed: int = 1, min_count: int = DEFAULT_MIN_COUNT,
          method: str = "td", horizon: int = 1,
          backend: str = "local", address: str | None = None, jobs: int | None = None,
          alphabet: str | None = None,
          progress: Callable[[int, int, int], None] | None = None,
          report: Callable[[Generation], None] | None = None) -> TrainResult:
    """Train leave values by ``generations`` of ``games`` self-play games each
    (module docstring). ``init``: ``h1``, ``h2``, ``h3``, ``none`` (every leave
    worth 0) or a KLV/KLV2 file, the table of generation 1 and its prior.
    ``progress(generation, games done, games)`` and ``report(Generation)`` are
    called as the work goes."""

    if games < 1:
        raise RacketyError("games: at least 1")
    if generations < 1:
        raise RacketyError("generations: at least 1")
    if min_count < 0:
        raise RacketyError("min-count: 0 or more")
    if method not in METHODS:
        raise RacketyError(f"method {method!r}: expected one of {', '.join(METHODS)}")
    if horizon not in HORIZONS or (horizon > 1 and method != "racks"):
        raise RacketyError(f"horizon {horizon}: 1, or 2 with the racks method")
    lexicon = Lexicon.load(lexicon_source, alphabet)  # compiled and cached before the workers
    alpha = lexicon.alphabet
    leaves = leave_set(alpha)
    if init.strip().lower() == "none":  # every leave worth 0: the players start greedy
        values = np.zeros(len(leaves), np.float64)
    else:
        model: Any = (HEURISTICS[init.strip().lower()] if init.strip().lower() in HEURISTICS
                      else Klv.load(init, alpha))
        values = leaves.values_of(model).astype(np.float32).astype(np.float64)
    words = word_features(lexicon) if method == "racks" else None
    result = TrainResult(leaves.klv(values))
    per_task = max(1, min(GAMES_PER_TASK, -(-games // 16)))
    for generation in range(1, generations + 1):
        t0 = time.perf_counter()
        table = leaves.klv(values).to_bytes()
        # made as the workers free up: a billion games are never a list of tasks
        tasks = (_Task(str(lexicon_source), alphabet, table, seed, generation, start,
                       min(games, start + per_task), method, horizon)
                 for start in range(0, games, per_task))
        racks = RackTally()  # the racks method's samples, folded by rack as they come
        sums = np.zeros(len(leaves) + 1, np.int64)
        counts = np.zeros(len(leaves) + 1, np.int64)
        samples = 0
        done = 0
        if progress is not None:
            progress(generation, 0, games)
        # integer sums are exact: adding them as tasks finish gives the same totals
        for index, (seen, s, c, m) in imap_tasks(play_task, tasks, backend=backend,
                                                 address=address, jobs=jobs):
            start = index * per_task
            if method == "racks":
                racks.add(seen, s)  # rack keys and equities, one per sample
            else:
                sums[seen] += s
                counts[seen] += c
            samples += m
            done += min(games, start + per_task) - start
            if progress is not None:
                progress(generation, done, games)
        if method == "racks":
            updated, baseline, behind = rack_values(values, racks, None, leaves, min_count,
                                                    words=words)
            counts = np.concatenate([behind, [0]])
        else:
            updated, baseline = new_values(values, sums, counts, min_count)
        change = np.abs(updated - values)
        seen_mask = counts[:-1] > 0
        stats = Generation(
            generation=generation, games=games, samples=samples,
            seen=int(seen_mask.sum()), seen_min_count=int((counts[:-1] >= max(min_count, 1)).sum()),
            mean_abs_change=float(change.mean()),
            mean_abs_change_seen=float(change[seen_mask].mean()) if seen_mask.any() else 0.0,
            baseline=baseline, seconds=time.perf_counter() - t0)
        values = updated
        result.generations.append(stats)
        if report is not None:
            report(stats)
    result.klv = leaves.klv(values, source="<trained>")
    return result


__all__ = ["HORIZONS", "METHODS", "Generation", "LeaveSet", "RackTally", "TrainResult",
           "game_seed", "leave_set", "new_values", "play_task", "rack_values", "train",
           "word_features", "word_racks"]
