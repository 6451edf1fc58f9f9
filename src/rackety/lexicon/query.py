"""Word tools as compiled walks of the word graph (Appel and Jacobson 1988,
section 6: the dawg serves any search through a large lexicon).

Every kernel is a depth-first walk with an explicit stack over the KWG array
(no recursion, no Python object per node). Results are written into flat
buffers: the tiles of all results one after another, and each result's length;
a buffer that fills up is doubled (only then is anything allocated).

The walks share one shape. ``edge[d]`` is the node being tried at depth ``d``;
``path[d]`` its tile. Moving to the next sibling first undoes what the previous
sibling took from the rack.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_ARC = 0x3FFFFF
_END = 0x400000
_ACC = 0x800000

WILD_ONE = -1  # '?' in a pattern: exactly one tile
WILD_ANY = -2  # '*' in a pattern: zero or more tiles


@njit(cache=True)
def _grow(buf, need):
    if need <= len(buf):
        return buf
    size = len(buf) * 2
    while size < need:
        size *= 2
    out = np.empty(size, buf.dtype)
    out[: len(buf)] = buf
    return out


@njit(cache=True)
def count_strings(nodes, start):
    """Number of strings accepted from the run at ``start`` (-1 if the graph has
    a cycle reachable from it). Memoised per node, so linear in the graph."""
    n = len(nodes)
    if start == 0:
        return 0
    memo = np.zeros(n, np.int64)
    state = np.zeros(n, np.uint8)  # 0 unseen, 1 open, 2 done
    stack = np.empty(2 * n + 1, np.int64)
    top = 0
    stack[0] = start
    while top >= 0:
        i = stack[top]
        if state[i] == 2:
            top -= 1
            continue
        node = np.int64(nodes[i])
        a = node & _ARC
        last = (node & _END) != 0
        pending = False
        if a != 0 and state[a] != 2:
            if state[a] == 1:
                return -1
            top += 1
            stack[top] = a
            pending = True
        if not last and state[i + 1] != 2:
            if state[i + 1] == 1:
                return -1
            top += 1
            stack[top] = i + 1
            pending = True
        if pending:
            if state[i] == 1:
                return -1
            state[i] = 1
            continue
        total = np.int64(1) if (node & _ACC) != 0 else np.int64(0)
        if a != 0:
            total += memo[a]
        if not last:
            total += memo[i + 1]
        memo[i] = total
        state[i] = 2
        top -= 1
    return memo[start]


@njit(cache=True)
def enumerate_strings(nodes, start, max_len):
    """All strings accepted from the run at ``start``, in order: their tiles
    concatenated, and their lengths."""
    out = np.empty(1 << 16, np.uint8)
    lens = np.empty(1 << 12, np.int64)
    n_out = 0
    n_words = 0
    edge = np.zeros(max_len + 1, np.int64)
    path = np.zeros(max_len + 1, np.uint8)
    if start == 0:
        return out[:0], lens[:0]
    depth = 0
    edge[0] = start
    while depth >= 0:
        i = edge[depth]
        if i < 0:
            depth -= 1
            continue
        node = np.int64(nodes[i])
        edge[depth] = -1 if (node & _END) != 0 else i + 1
        path[depth] = node >> 24
        if (node & _ACC) != 0:
            out = _grow(out, n_out + depth + 1)
            lens = _grow(lens, n_words + 1)
            for k in range(depth + 1):
                out[n_out + k] = path[k]
            n_out += depth + 1
            lens[n_words] = depth + 1
            n_words += 1
        a = node & _ARC
        if a != 0 and depth < max_len - 1:
            depth += 1
            edge[depth] = a
    return out[:n_out], lens[:n_words]


@njit(cache=True)
def _take(counts, t):
    """Take tile ``t`` from the rack: a natural one if there is one, else a blank
    (which can never do worse: a blank can stand for anything a natural tile can).
    Returns 1 (natural), 2 (blank) or 0 (neither left)."""
    if counts[t] > 0:
        counts[t] -= 1
        return 1
    if counts[0] > 0:
        counts[0] -= 1
        return 2
    return 0


@njit(cache=True)
def _give_back(counts, t, kind):
    if kind == 1:
        counts[t] += 1
    elif kind == 2:
        counts[0] += 1


@njit(cache=True)
def _emit(out, lens, n_out, n_words, path, length):
    out = _grow(out, n_out + length)
    lens = _grow(lens, n_words + 1)
    for k in range(length):
        out[n_out + k] = path[k]
    lens[n_words] = length
    return out, lens


@njit(cache=True)
def anagram_walk(nodes, start, counts, min_len, exact):
    """Words the rack spells: ``counts[t]`` tiles of code t, ``counts[0]`` blanks.
    With ``exact`` only words using every tile, else every length from ``min_len``.
    Each word once; tiles a blank stands for carry the 0x80 flag."""
    total = 0
    for t in range(len(counts)):
        total += counts[t]
    out = np.empty(1 << 12, np.uint8)
    lens = np.empty(1 << 8, np.int64)
    n_out = 0
    n_words = 0
    if start == 0 or total == 0:
        return out[:0], lens[:0]
    edge = np.zeros(total + 1, np.int64)
    used = np.zeros(total + 1, np.int64)
    path = np.zeros(total + 1, np.uint8)
    depth = 0
    edge[0] = start
    while depth >= 0:
        _give_back(counts, path[depth] & 0x7F, used[depth])
        used[depth] = 0
        i = edge[depth]
        if i < 0:
            depth -= 1
            continue
        node = np.int64(nodes[i])
        edge[depth] = -1 if (node & _END) != 0 else i + 1
        t = node >> 24
        kind = _take(counts, t)
        if kind == 0:
            continue
        used[depth] = kind
        path[depth] = t | (0x80 if kind == 2 else 0)
        length = depth + 1
        if (node & _ACC) != 0 and (length == total if exact else length >= min_len):
            out, lens = _emit(out, lens, n_out, n_words, path, length)
            n_out += length
            n_words += 1
        a = node & _ARC
        if a != 0 and length < total:
            depth += 1
            edge[depth] = a
            used[depth] = 0
    return out[:n_out], lens[:n_words]


@njit(cache=True)
def pattern_walk(nodes, start, pat, counts, use_rack, max_len):
    """Words matching ``pat`` (tile codes; WILD_ONE for '?', WILD_ANY for '*', no two
    WILD_ANY in a row). With ``use_rack`` the tiles matched by wildcards come from
    the rack (``counts``, blanks in ``counts[0]``); fixed tiles are on the board.
    A word may come out once per way it matches: callers de-duplicate."""
    m = len(pat)
    out = np.empty(1 << 12, np.uint8)
    lens = np.empty(1 << 8, np.int64)
    n_out = 0
    n_words = 0
    if start == 0 or m == 0:
        return out[:0], lens[:0]
    cap = 2 * (max_len + 2)
    f_edge = np.zeros(cap, np.int64)
    f_pos = np.zeros(cap, np.int64)
    f_depth = np.zeros(cap, np.int64)
    f_used = np.zeros(cap, np.int64)
    f_tile = np.zeros(cap, np.int64)
    path = np.zeros(max_len + 1, np.uint8)
    top = -1
    # frames for the pattern positions that can match the first tile
    for p in range(2):
        if p == 0 or (pat[0] == WILD_ANY and m > 1):
            top += 1
            f_edge[top] = start
            f_pos[top] = p
            f_depth[top] = 0
            f_used[top] = 0
    while top >= 0:
        if f_used[top] != 0:
            _give_back(counts, f_tile[top], f_used[top])
            f_used[top] = 0
        i = f_edge[top]
        if i < 0:
            top -= 1
            continue
        node = np.int64(nodes[i])
        f_edge[top] = -1 if (node & _END) != 0 else i + 1
        t = node >> 24
        p = f_pos[top]
        d = f_depth[top]
        elem = pat[p]
        flag = 0
        if elem >= 0:
            if t != elem:
                if t > elem:
                    f_edge[top] = -1
                continue
        elif use_rack:
            kind = _take(counts, t)
            if kind == 0:
                continue
            f_used[top] = kind
            f_tile[top] = t
            flag = 0x80 if kind == 2 else 0
        path[d] = t | flag
        q = p if elem == WILD_ANY else p + 1
        if (node & _ACC) != 0 and (q == m or (q == m - 1 and pat[q] == WILD_ANY)):
            out, lens = _emit(out, lens, n_out, n_words, path, d + 1)
            n_out += d + 1
            n_words += 1
        a = node & _ARC
        if a != 0 and q < m and d + 1 < max_len:
            top += 1
            f_edge[top] = a
            f_pos[top] = q
            f_depth[top] = d + 1
            f_used[top] = 0
            if pat[q] == WILD_ANY and q + 1 < m:
                top += 1
                f_edge[top] = a
                f_pos[top] = q + 1
                f_depth[top] = d + 1
                f_used[top] = 0
    return out[:n_out], lens[:n_words]


@njit(cache=True)
def multi_walk(nodes, start, counts, min_len, max_words, limit):
    """Multi-word anagrams: every multiset of words (each of at least ``min_len``
    tiles, at most ``max_words`` words) that uses the whole rack. Words within a
    result are in order, so each multiset comes out once; results are written
    with tile 0 between words. Stops after ``limit`` results (0 = no limit);
    the second value returned says whether it stopped early."""
    total = 0
    for t in range(len(counts)):
        total += counts[t]
    out = np.empty(1 << 12, np.uint8)
    lens = np.empty(1 << 8, np.int64)
    n_out = 0
    n_res = 0
    if start == 0 or total == 0:
        return out[:0], lens[:0], False
    cap = 2 * total + 2
    f_edge = np.zeros(cap, np.int64)
    f_depth = np.zeros(cap, np.int64)  # tiles placed before this frame's tile
    f_word = np.zeros(cap, np.int64)  # index of the word this tile is in
    f_pos = np.zeros(cap, np.int64)  # position of the tile in its word
    f_tied = np.zeros(cap, np.uint8)  # word so far equals the previous word's start
    f_prev = np.zeros(cap, np.int64)  # where the previous word starts (-1: none)
    f_used = np.zeros(cap, np.int64)
    f_tile = np.zeros(cap, np.int64)
    path = np.zeros(total + 1, np.uint8)
    word_start = np.zeros(total + 1, np.uint8)  # whether the tile at each depth starts a word
    buf = np.zeros(2 * total + 1, np.uint8)
    top = 0
    f_edge[0] = start
    f_prev[0] = -1
    f_tied[0] = 0
    while top >= 0:
        if f_used[top] != 0:
            _give_back(counts, f_tile[top], f_used[top])
            f_used[top] = 0
        i = f_edge[top]
        if i < 0:
            top -= 1
            continue
        node = np.int64(nodes[i])
        f_edge[top] = -1 if (node & _END) != 0 else i + 1
        t = node >> 24
        g = f_depth[top]
        j = f_pos[top]
        w = f_word[top]
        tied = f_tied[top] != 0
        prev = f_prev[top]
        prev_len = g - j - prev if prev >= 0 else 0
        still_tied = False
        if tied and j < prev_len:
            pt = np.int64(path[prev + j] & 0x7F)
            if t < pt:
                continue
            still_tied = t == pt
        kind = _take(counts, t)
        if kind == 0:
            continue
        f_used[top] = kind
        f_tile[top] = t
        path[g] = t | (0x80 if kind == 2 else 0)
        word_start[g] = 1 if j == 0 else 0
        placed = g + 1
        left = total - placed
        word_len = j + 1
        a = node & _ARC
        descend = a != 0 and left > 0
        if (node & _ACC) != 0 and word_len >= min_len and not (still_tied and word_len < prev_len):
            if left == 0:
                # write the words, tile 0 between them
                n = 0
                for k in range(placed):
                    if k > 0 and word_start[k]:
                        buf[n] = 0
                        n += 1
                    buf[n] = path[k]
                    n += 1
                out, lens = _emit(out, lens, n_out, n_res, buf, n)
                n_out += n
                n_res += 1
                if limit > 0 and n_res >= limit:
                    return out[:n_out], lens[:n_res], True
            elif w + 1 < max_words and left >= min_len:
                top += 1
                f_edge[top] = start
                f_depth[top] = placed
                f_word[top] = w + 1
                f_pos[top] = 0
                f_tied[top] = 1
                f_prev[top] = g - j
                f_used[top] = 0
        if descend:
            top += 1
            f_edge[top] = a
            f_depth[top] = placed
            f_word[top] = w
            f_pos[top] = word_len
            f_tied[top] = 1 if still_tied else 0
            f_prev[top] = prev
            f_used[top] = 0
    return out[:n_out], lens[:n_res], False


@njit(cache=True)
def suggest_walk(nodes, start, query, max_dist):
    """Words within Levenshtein distance ``max_dist`` (insertions, deletions,
    substitutions) of ``query``, the query itself excluded, with their distances.
    Rows of the edit-distance table are kept per depth (Appel and Jacobson's
    "any search" in the dawg: a branch is cut once no cell can get back under
    ``max_dist``)."""
    m = len(query)
    max_len = m + max_dist
    out = np.empty(1 << 12, np.uint8)
    lens = np.empty(1 << 8, np.int64)
    dist = np.empty(1 << 8, np.int64)
    n_out = 0
    n_words = 0
    if start == 0:
        return out[:0], lens[:0], dist[:0]
    rows = np.zeros((max_len + 1, m + 1), np.int64)
    for c in range(m + 1):
        rows[0, c] = c
    edge = np.zeros(max_len + 1, np.int64)
    path = np.zeros(max_len + 1, np.uint8)
    depth = 0
    edge[0] = start
    while depth >= 0:
        i = edge[depth]
        if i < 0:
            depth -= 1
            continue
        node = np.int64(nodes[i])
        edge[depth] = -1 if (node & _END) != 0 else i + 1
        t = node >> 24
        path[depth] = t
        r = depth + 1
        rows[r, 0] = r
        best = r
        for c in range(1, m + 1):
            v = rows[r - 1, c] + 1
            w = rows[r, c - 1] + 1
            if w < v:
                v = w
            w = rows[r - 1, c - 1] + (0 if query[c - 1] == t else 1)
            if w < v:
                v = w
            rows[r, c] = v
            if v < best:
                best = v
        d = rows[r, m]
        if (node & _ACC) != 0 and 0 < d <= max_dist:
            out, lens = _emit(out, lens, n_out, n_words, path, r)
            dist = _grow(dist, n_words + 1)
            dist[n_words] = d
            n_out += r
            n_words += 1
        a = node & _ARC
        if a != 0 and best <= max_dist and r < max_len:
            depth += 1
            edge[depth] = a
    return out[:n_out], lens[:n_words], dist[:n_words]
