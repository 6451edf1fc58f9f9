"""Leaves in the kernels: the one leave index and the one leave table.

A rack's leaves are numbered by a mixed-radix *leave index*: the rack's
distinct codes, ascending, are the digits, code c of radix (copies of c) + 1,
the first digit least significant (wolges' MultiLeaves, docs/MOVEGEN.md
section 4.2). Placing a tile of code c subtracts ``place[c]`` from the index,
so the generator carries the leave as one integer.

Every leave model reaches the kernels as one table: a DAWG-only KWG of leaves
(tiles sorted by code, the blank first) and one value per leave at its word
index (the KLV2 layout, docs/FORMATS.md section 3). Several tables can share one
bank of arrays (`rackety.game.leaves.Bank`): a table is then its root
pseudo-node ``base`` and the offset ``voff`` of its values.
"""

from __future__ import annotations

import numpy as np

from rackety.kernels.jit import njit
from rackety.kernels.nodes import arc_of, is_end, is_word, tile_of

MAX_CODES = 64


@njit(cache=True, nogil=True)
def places(counts: np.ndarray, place: np.ndarray) -> int:
    """The place value of every code of a rack (``counts[c]`` copies of c) in
    its leave index, written to ``place``; returns the number of leaves."""
    size = 1
    for c in range(MAX_CODES):
        if counts[c] > 0:
            place[c] = size
            size *= counts[c] + 1
        else:
            place[c] = 0
    return size


@njit(cache=True, nogil=True)
def kept_at(index: int, c: int, counts: np.ndarray, place: np.ndarray) -> int:
    """Copies of code ``c`` kept at leave ``index``."""
    return (index // place[c]) % (counts[c] + 1) if counts[c] > 0 else 0


@njit(cache=True, nogil=True)
def table_values(nodes, kcounts, values, base, voff, counts, out) -> int:
    """The value of every leave of the rack ``counts`` under the table rooted
    at pseudo-node ``base`` (values from ``voff``), by leave index, into
    ``out``; returns the number of leaves. Leaves the table does not store
    (the empty one, the whole rack) are worth 0.

    The leaves are visited as an odometer whose last digit turns fastest, so a
    step that raises digit j reads one more copy of tile j from the KWG state
    of the leave before (wolges' ``MultiLeaves::init`` and MAGPIE's
    ``generate_exchange_moves`` share prefixes the same way). ``node[j]``,
    ``w[j]``, ``ok[j]``: the node reached by the kept tiles of digits 0..j-1,
    the word index of the string read to it, and whether the table holds that
    string as a prefix at all."""
    r = MAX_CODES + 1
    work = np.empty(7 * r, np.int64)  # one allocation (a kernel's allocations cost), in 7 rows
    digit = work[:r]
    radix = work[r:2 * r]
    place = work[2 * r:3 * r]
    k = 0
    size = 1
    for c in range(MAX_CODES):
        if counts[c] > 0:
            digit[k] = c
            radix[k] = counts[c] + 1
            place[k] = size
            size *= counts[c] + 1
            k += 1
    for i in range(size):
        out[i] = 0.0
    end = values.shape[0]
    node = work[3 * r:3 * r + k + 1]
    w = work[4 * r:4 * r + k + 1]
    ok = work[5 * r:5 * r + k + 1]  # 1: a prefix in the table
    kept = work[6 * r:6 * r + k]
    for i in range(k + 1):
        node[i] = base
        w[i] = voff
        ok[i] = 1
    for i in range(k):
        kept[i] = 0
    idx = 0
    while True:
        if idx > 0 and ok[k] != 0 and is_word(np.int64(nodes[node[k]])) and w[k] < end:
            out[idx] = values[w[k]]
        j = k - 1
        while j >= 0 and kept[j] == radix[j] - 1:
            j -= 1
        if j < 0:
            break
        for i in range(j + 1, k):
            idx -= kept[i] * place[i]
            kept[i] = 0
        kept[j] += 1
        idx += place[j]
        if ok[j + 1] != 0:
            head = np.int64(nodes[node[j + 1]])
            s = arc_of(head)
            t = digit[j]
            found = False
            q = s
            if s != 0:
                while True:
                    nq = np.int64(nodes[q])
                    tq = tile_of(nq)
                    if tq == t:
                        found = True
                        break
                    if tq > t or is_end(nq):
                        break
                    q += 1
            if found:
                acc = np.int64(1) if is_word(head) else np.int64(0)
                w[j + 1] = w[j + 1] + acc + kcounts[s] - kcounts[q]
                node[j + 1] = q
            else:
                ok[j + 1] = 0
        for i in range(j + 2, k + 1):
            node[i] = node[j + 1]
            w[i] = w[j + 1]
            ok[i] = ok[j + 1]
    return size


@njit(cache=True, nogil=True)
def best_by_kept(values, size, counts, place, rack_n, best) -> None:
    """``best[m]``: the highest value of a leave keeping ``m`` tiles (-1e300
    where there is none), for m = 0 .. ``rack_n``. The leaves are counted up as
    an odometer, so each step costs one digit, not one per code."""
    for m in range(rack_n + 1):
        best[m] = -1e300
    work = np.empty(2 * MAX_CODES, np.int64)  # one allocation, cut in two
    radix = work[:MAX_CODES]
    kept = work[MAX_CODES:]
    k = 0
    for c in range(MAX_CODES):
        kept[c] = 0
        if counts[c] > 0:
            radix[k] = counts[c] + 1
            k += 1
    total = 0
    for idx in range(size):
        if values[idx] > best[total]:
            best[total] = values[idx]
        j = 0  # the next index: the first digit turns fastest
        while j < k:
            kept[j] += 1
            total += 1
            if kept[j] < radix[j]:
                break
            total -= kept[j]
            kept[j] = 0
            j += 1


# ------------------------------------------------------------ building tables
@njit(cache=True)
def enumerate_leaves(dist, max_len, fill, tiles, lengths) -> tuple[int, int]:
    """Every multiset of 1..``max_len`` tiles with at most ``dist[c]`` copies of
    code c, sorted by code, in increasing order (a leave before its
    extensions: the order of a KLV's word index). Depth-first, pre-order.
    Returns (leaves, tiles written); writes ``tiles``/``lengths`` if ``fill``."""
    size = dist.shape[0]
    cur = np.zeros(max_len + 1, np.int64)
    used = np.zeros(size, np.int64)
    nxt = np.zeros(max_len + 1, np.int64)
    n = 0
    pos = 0
    d = 0
    while d >= 0:
        c = nxt[d]
        while c < size and used[c] >= dist[c]:
            c += 1
        if d == max_len or c >= size:
            d -= 1
            if d >= 0:
                used[cur[d]] -= 1
                nxt[d] = cur[d] + 1
            continue
        cur[d] = c
        used[c] += 1
        if fill:
            for i in range(d + 1):
                tiles[pos + i] = cur[i]
            lengths[n] = d + 1
        n += 1
        pos += d + 1
        d += 1
        nxt[d] = c
    return n, pos


@njit(cache=True, nogil=True)
def leave_key(hist, size, max_len) -> int:
    """A leave's key from its tile counts: the codes ascending, each as
    (code + 1) in 6 bits, the first tile the most significant, the rest 0:
    keys sort as the leaves do (a prefix first). -1: too long."""
    key = np.int64(0)
    m = 0
    for c in range(size):
        for _ in range(hist[c]):
            if m == max_len:
                return np.int64(-1)
            key = key * 64 + (c + 1)
            m += 1
    for _ in range(m, max_len):
        key = key * 64
    return key


@njit(cache=True)
def leave_keys(tiles, lengths, max_len) -> np.ndarray:
    """The key (`leave_key`) of every leave of ``tiles``/``lengths``."""
    out = np.empty(lengths.shape[0], np.int64)
    pos = 0
    for i in range(lengths.shape[0]):
        key = np.int64(0)
        for j in range(max_len):
            key = key * 64 + ((np.int64(tiles[pos + j]) + 1) if j < lengths[i] else 0)
        out[i] = key
        pos += lengths[i]
    return out


@njit(cache=True, nogil=True)
def heuristic_value(hist, value, penalty, vowel, balance) -> float:
    """Gordon's rack heuristic of one leave (``hist[c]`` copies of code c):
    per-tile values, duplication penalties applied k(k-1)/2 times for k
    copies, and with ``balance[0]`` the vowel-consonant term ``balance`` =
    [on, share, tolerance, power, vowel_excess, vowel_shortage]
    (`rackety.game.heuristics`)."""
    total = 0.0
    letters = 0
    vowels = 0.0
    for c in range(hist.shape[0]):
        m = hist[c]
        if m == 0:
            continue
        total += m * value[c] + (m * (m - 1) // 2) * penalty[c]
        if c != 0:
            letters += m
            vowels += m * vowel[c]
    if balance[0] != 0.0:
        excess = vowels - balance[1] * letters
        over = abs(excess) - balance[2]
        if over > 0.0:
            weight = balance[4] if excess > 0.0 else balance[5]
            total -= weight * over ** balance[3]
    return total


@njit(cache=True)
def heuristic_table(tiles, lengths, value, penalty, vowel, balance) -> np.ndarray:
    """The heuristic's value (`heuristic_value`) of every leave listed."""
    out = np.empty(lengths.shape[0], np.float64)
    hist = np.zeros(MAX_CODES, np.int64)
    pos = 0
    for i in range(lengths.shape[0]):
        hist[:] = 0
        for j in range(lengths[i]):
            hist[tiles[pos + j]] += 1
        out[i] = heuristic_value(hist, value, penalty, vowel, balance)
        pos += lengths[i]
    return out


@njit(cache=True)
def lookup_table(tiles, lengths, nodes, kcounts, values) -> np.ndarray:
    """A table's value of every leave listed (0 where it stores none)."""
    out = np.empty(lengths.shape[0], np.float64)
    pos = 0
    for i in range(lengths.shape[0]):
        r = np.int64(0)
        w = np.int64(0)
        ok = True
        for j in range(lengths[i]):
            head = np.int64(nodes[r])
            s = arc_of(head)
            t = np.int64(tiles[pos + j])
            q = s
            found = False
            if s != 0:
                while True:
                    nq = np.int64(nodes[q])
                    if tile_of(nq) == t:
                        found = True
                        break
                    if tile_of(nq) > t or is_end(nq):
                        break
                    q += 1
            if not found:
                ok = False
                break
            w += (1 if is_word(head) else 0) + kcounts[s] - kcounts[q]
            r = q
        out[i] = values[w] if ok and is_word(np.int64(nodes[r])) and \
            w < values.shape[0] else 0.0
        pos += lengths[i]
    return out
