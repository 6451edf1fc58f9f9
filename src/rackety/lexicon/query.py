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

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from rackety.alphabet import BLANK_FLAG, Alphabet
from rackety.errors import RacketyError, clip
from rackety.kernels.jit import njit
from rackety.kernels.nodes import DAWG_ROOT, arc_of, is_end, is_word, tile_of
from rackety.lexicon.wordlist import MAX_WORD_LENGTH, MIN_WORD_LENGTH


class Words(Protocol):
    """What the word tools read of a lexicon (`rackety.lexicon.Lexicon` is one;
    this module does not import it, which imports this one)."""

    alphabet: Alphabet
    nodes: np.ndarray

    def root(self, pseudo: int) -> int: ...


WILD_ONE = -1  # '?' in a pattern: exactly one tile
WILD_ANY = -2  # '*' in a pattern: zero or more tiles
MAX_CIPHER_WORDS = 64  # cipher words decoded together
MAX_DECODE = 100_000  # answers of one decoding at the most
DECODE_BUDGET = 100_000_000  # nodes one decoding may try (about a second)
MAX_QUOTATION = 10_000  # characters of an acrostic's quotation


@njit(cache=True)
def _grow(buf: np.ndarray, need: int) -> np.ndarray:
    if need <= len(buf):
        return buf
    size = len(buf) * 2
    while size < need:
        size *= 2
    out = np.empty(size, buf.dtype)
    out[: len(buf)] = buf
    return out


@njit(cache=True, nogil=True)
def contains_many(nodes: np.ndarray, start: int, flat: np.ndarray, lens: np.ndarray,
                  out: np.ndarray) -> None:
    """``out[i]`` = 1 if the i-th string (``lens[i]`` codes of ``flat``, one after
    another) is in the graph from the run at ``start``, else 0."""
    pos = 0
    for w in range(lens.shape[0]):
        arc = start
        ok = 1
        node = np.int64(0)
        for j in range(lens[w]):
            t = np.int64(flat[pos + j])
            if arc == 0:
                ok = 0
                break
            i = arc
            while True:
                node = np.int64(nodes[i])
                nt = tile_of(node)
                if nt == t:
                    break
                if nt > t or is_end(node):
                    ok = 0
                    break
                i += 1
            if ok == 0:
                break
            arc = arc_of(node)
        if ok == 1 and (lens[w] == 0 or not is_word(node)):
            ok = 0
        out[w] = ok
        pos += lens[w]


@njit(cache=True)
def enumerate_strings(nodes: np.ndarray, start: int,
                      max_len: int) -> tuple[np.ndarray, np.ndarray]:
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
        edge[depth] = -1 if is_end(node) else i + 1
        path[depth] = tile_of(node)
        if is_word(node):
            out, lens = _emit(out, lens, n_out, n_words, path, depth + 1)
            n_out += depth + 1
            n_words += 1
        a = arc_of(node)
        if a != 0 and depth < max_len - 1:
            depth += 1
            edge[depth] = a
    return out[:n_out], lens[:n_words]


@njit(cache=True)
def _take(counts: np.ndarray, t: int) -> int:
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
def _give_back(counts: np.ndarray, t: int, kind: int) -> None:
    if kind == 1:
        counts[t] += 1
    elif kind == 2:
        counts[0] += 1


@njit(cache=True)
def _emit(out: np.ndarray, lens: np.ndarray, n_out: int, n_words: int, path: np.ndarray,
          length: int) -> tuple[np.ndarray, np.ndarray]:
    out = _grow(out, n_out + length)
    lens = _grow(lens, n_words + 1)
    for k in range(length):
        out[n_out + k] = path[k]
    lens[n_words] = length
    return out, lens


@njit(cache=True)
def anagram_walk(nodes: np.ndarray, start: int, counts: np.ndarray, min_len: int,
                 exact: bool) -> tuple[np.ndarray, np.ndarray]:
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
        edge[depth] = -1 if is_end(node) else i + 1
        t = tile_of(node)
        kind = _take(counts, t)
        if kind == 0:
            continue
        used[depth] = kind
        path[depth] = t | (0x80 if kind == 2 else 0)
        length = depth + 1
        if is_word(node) and (length == total if exact else length >= min_len):
            out, lens = _emit(out, lens, n_out, n_words, path, length)
            n_out += length
            n_words += 1
        a = arc_of(node)
        if a != 0 and length < total:
            depth += 1
            edge[depth] = a
            used[depth] = 0
    return out[:n_out], lens[:n_words]


@njit(cache=True)
def _closure(mask: np.uint64, stars: np.uint64) -> np.uint64:
    """Pattern positions reachable from ``mask`` by letting stars match nothing."""
    while True:
        grown = mask | ((mask & stars) << np.uint64(1))
        if grown == mask:
            return mask
        mask = grown


@njit(cache=True)
def pattern_set_walk(nodes: np.ndarray, start: int, pat: np.ndarray,
                     max_len: int) -> tuple[np.ndarray, np.ndarray]:
    """Words matching ``pat`` (as `pattern_walk`, no rack), each once: the walk
    carries the set of pattern positions the path so far can have reached (a
    bit mask: ``pat`` has at most 63 elements), so a word is read once however
    many ways its stars can split it, and a path is dropped as soon as no
    position is left (Thompson's construction, run over the DAWG)."""
    m = len(pat)
    out = np.empty(1 << 12, np.uint8)
    lens = np.empty(1 << 8, np.int64)
    n_out = 0
    n_words = 0
    if start == 0 or m == 0 or m > 63:
        return out[:0], lens[:0]
    one = np.uint64(1)
    stars = np.uint64(0)
    wild = np.uint64(0)  # positions '?' or '*' hold: any tile moves them on
    match = np.zeros(64, np.uint64)  # per tile: the positions it matches as a letter
    for p in range(m):
        bit = one << np.uint64(p)
        if pat[p] == WILD_ANY:
            stars |= bit
        elif pat[p] == WILD_ONE:
            wild |= bit
        elif 0 <= pat[p] < 64:
            match[pat[p]] |= bit
    done = one << np.uint64(m)
    edge = np.zeros(max_len + 1, np.int64)
    state = np.zeros(max_len + 1, np.uint64)  # positions reached before depth d's tile
    path = np.zeros(max_len + 1, np.uint8)
    edge[0] = start
    state[0] = _closure(one, stars)
    depth = 0
    while depth >= 0:
        i = edge[depth]
        if i < 0:
            depth -= 1
            continue
        node = np.int64(nodes[i])
        edge[depth] = -1 if is_end(node) else i + 1
        t = tile_of(node)
        before = state[depth]
        moved = ((before & (match[t] | wild)) << one) | (before & stars)
        after = _closure(moved, stars)
        if after == 0:
            continue
        path[depth] = t
        if is_word(node) and (after & done) != 0:
            out, lens = _emit(out, lens, n_out, n_words, path, depth + 1)
            n_out += depth + 1
            n_words += 1
        a = arc_of(node)
        if a != 0 and depth + 1 < max_len and (after & ~done) != 0:
            depth += 1
            edge[depth] = a
            state[depth] = after & ~done
    return out[:n_out], lens[:n_words]


@njit(cache=True)
def pattern_walk(nodes: np.ndarray, start: int, pat: np.ndarray, counts: np.ndarray,
                 use_rack: bool, max_len: int) -> tuple[np.ndarray, np.ndarray]:
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
        f_edge[top] = -1 if is_end(node) else i + 1
        t = tile_of(node)
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
        if is_word(node) and (q == m or (q == m - 1 and pat[q] == WILD_ANY)):
            out, lens = _emit(out, lens, n_out, n_words, path, d + 1)
            n_out += d + 1
            n_words += 1
        a = arc_of(node)
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
def _fits(need: np.ndarray, i: int, counts: np.ndarray, min_index: np.ndarray) -> bool:
    """Whether candidate ``i`` fits the rack (blanks making up any shortfall) and
    is not earlier than any of its letters allows."""
    short = 0
    for t in range(1, 64):
        k = need[i, t]
        if k > 0:
            if i < min_index[t]:
                return False
            if k > counts[t]:
                short += k - counts[t]
    return bool(short <= counts[0])


@njit(cache=True)
def multi_search(flat: np.ndarray, lens: np.ndarray, counts: np.ndarray, max_words: int,
                 limit: int, budget: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Multi-word anagrams over candidate words (the rack's sub-anagrams, from
    `anagram_walk`, in order, ``flat``/``lens``): every multiset of candidates
    that uses the whole rack (``counts``, blanks in ``counts[0]``), at most
    ``max_words`` of them.

    Each step keeps the candidates that still fit and covers the letter left on
    the rack that the fewest of them contain (when only blanks are left, any
    word covers them); a letter no candidate can cover ends the branch at once.
    So that each multiset comes out once, the word chosen for a letter is the
    earliest candidate of the multiset containing it: later steps may not use an
    earlier candidate containing that letter. Returns the candidate indices of
    each result one after another, the number of words of each result, and
    why it stopped: 0 done, 1 at ``limit`` results (0 = no limit), 2 when its
    work (candidates examined) passed ``budget`` (0 = no budget).
    """
    n = len(lens)
    total = 0
    for t in range(len(counts)):
        total += counts[t]
    need = np.zeros((n, 64), np.int64)  # tiles of each candidate, by code
    at = 0
    for i in range(n):
        for k in range(at, at + lens[i]):
            need[i, flat[k] & 0x7F] += 1
        at += lens[i]
    out = np.empty(1 << 10, np.int64)
    per_result = np.empty(1 << 8, np.int64)
    n_out = 0
    n_res = 0
    if n == 0 or total == 0:
        return out[:0], per_result[:0], 0
    depth_cap = min(max_words, total)
    work = 0
    fit = np.empty((depth_cap, n), np.int64)  # per depth: the candidates that fit
    n_fit = np.zeros(depth_cap, np.int64)
    pos = np.zeros(depth_cap, np.int64)
    min_index = np.zeros(64, np.int64)  # per letter: earliest candidate still allowed
    chosen = np.full(depth_cap, -1, np.int64)
    letter = np.full(depth_cap, -1, np.int64)  # the letter each depth covers (0: blanks)
    saved = np.zeros(depth_cap, np.int64)  # min_index[letter] before this depth chose
    rack_before = np.zeros((depth_cap, len(counts)), np.int64)
    tally = np.zeros(64, np.int64)
    left = total
    depth = 0
    while depth >= 0:
        if letter[depth] == -1:  # entering this depth
            m = 0
            tally[:] = 0
            if depth == 0:
                for i in range(n):
                    if _fits(need, i, counts, min_index):
                        fit[0, m] = i
                        m += 1
            else:
                work += n_fit[depth - 1]
                if budget > 0 and work > budget:
                    return out[:n_out], per_result[:n_res], 2
                for r in range(n_fit[depth - 1]):
                    i = fit[depth - 1, r]
                    if _fits(need, i, counts, min_index):
                        fit[depth, m] = i
                        m += 1
            for r in range(m):
                for t in range(1, 64):
                    if need[fit[depth, r], t] > 0:
                        tally[t] += 1
            n_fit[depth] = m
            lo = 0
            for t in range(1, 64):
                if counts[t] > 0 and (lo == 0 or tally[t] < tally[lo]):
                    lo = t
            if lo > 0 and tally[lo] == 0:  # a letter nothing can cover
                depth -= 1
                continue
            letter[depth] = lo
            saved[depth] = min_index[lo]
            pos[depth] = 0
        elif chosen[depth] >= 0:  # undo the word tried last at this depth
            i = chosen[depth]
            counts[:] = rack_before[depth]
            left += lens[i]
            min_index[letter[depth]] = saved[depth]
            chosen[depth] = -1
        lo = letter[depth]
        found = -1
        r = pos[depth]
        while r < n_fit[depth]:
            i = fit[depth, r]
            r += 1
            if (lo == 0 or need[i, lo] > 0) and i >= min_index[lo]:
                found = i
                break
        pos[depth] = r
        if found < 0:
            letter[depth] = -1
            depth -= 1
            continue
        chosen[depth] = found
        rack_before[depth] = counts
        for t in range(1, 64):  # natural tiles first, blanks for the rest
            k = need[found, t]
            if k > counts[t]:
                counts[0] -= k - counts[t]
                counts[t] = 0
            else:
                counts[t] -= k
        left -= lens[found]
        min_index[lo] = found
        if left == 0:
            out = _grow(out, n_out + depth + 1)
            per_result = _grow(per_result, n_res + 1)
            for d in range(depth + 1):
                out[n_out + d] = chosen[d]
            n_out += depth + 1
            per_result[n_res] = depth + 1
            n_res += 1
            if limit > 0 and n_res >= limit:
                return out[:n_out], per_result[:n_res], 1
        elif depth + 1 < depth_cap:
            depth += 1
            letter[depth] = -1
            chosen[depth] = -1
    return out[:n_out], per_result[:n_res], 0


@njit(cache=True)
def suggest_walk(nodes: np.ndarray, start: int, query: np.ndarray,
                 max_dist: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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
        edge[depth] = -1 if is_end(node) else i + 1
        t = tile_of(node)
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
        if is_word(node) and 0 < d <= max_dist:
            out, lens = _emit(out, lens, n_out, n_words, path, r)
            dist = _grow(dist, n_words + 1)
            dist[n_words] = d
            n_out += r
            n_words += 1
        a = arc_of(node)
        if a != 0 and best <= max_dist and r < max_len:
            depth += 1
            edge[depth] = a
    return out[:n_out], lens[:n_words], dist[:n_words]


@njit(cache=True)
def decode_walk(nodes: np.ndarray, start: int, cipher: np.ndarray, last: np.ndarray,
                limit: int, budget: int) -> tuple[np.ndarray, int, int]:
    """Words that spell cipher words under one substitution: ``cipher`` holds the
    cipher tiles of the words one after another, ``last[d]`` is 1 where a word
    ends. The walk keeps the key (cipher tile -> plain tile) and the plain tiles
    it has taken: a cipher tile seen before must be its plain tile again, a new
    one any plain tile not yet taken (two cipher tiles never stand for one
    tile). At the end of a word the walk goes on from the root with the next.

    Returns the plain tiles of each answer (``len(cipher)`` of them, one answer
    after another), how many answers, and why it stopped: 0 done, 1 at ``limit``
    answers, 2 when its work (nodes tried) passed ``budget`` (0: none)."""
    m = len(cipher)
    out = np.empty(max(m, 1) * 64, np.uint8)
    n = 0
    if start == 0 or m == 0:
        return out[:0], 0, 0
    key = np.zeros(64, np.int64)  # per cipher tile: its plain tile, 0 while free
    taken = np.zeros(64, np.bool_)  # per plain tile: whether a cipher tile has it
    fresh = np.zeros(m, np.bool_)  # whether depth d gave its cipher tile a plain one
    edge = np.zeros(m, np.int64)
    path = np.zeros(m, np.uint8)
    work = 0
    depth = 0
    edge[0] = start
    while depth >= 0:
        c = cipher[depth]
        if fresh[depth]:
            taken[key[c]] = False
            key[c] = 0
            fresh[depth] = False
        i = edge[depth]
        if i < 0:
            depth -= 1
            continue
        work += 1
        if budget > 0 and work > budget:
            return out[:n * m], n, 2
        node = np.int64(nodes[i])
        edge[depth] = -1 if is_end(node) else i + 1
        t = tile_of(node)
        want = key[c]
        if want != 0:
            if t != want:
                if t > want:  # a run is in tile order: it is not further on
                    edge[depth] = -1
                continue
            edge[depth] = -1  # the one tile this depth can be
        elif taken[t]:
            continue
        else:
            key[c] = t
            taken[t] = True
            fresh[depth] = True
        path[depth] = t
        if last[depth]:
            if not is_word(node):
                continue
            if depth == m - 1:
                out = _grow(out, (n + 1) * m)
                out[n * m:(n + 1) * m] = path
                n += 1
                if limit > 0 and n >= limit:
                    return out[:n * m], n, 1
                continue
            depth += 1
            edge[depth] = start
        else:
            a = arc_of(node)
            if a == 0:
                continue
            depth += 1
            edge[depth] = a
    return out[:n * m], n, 0


# ------------------------------------------------------------ Python edges
# (what the walks give and take at the `Lexicon`'s word tools: marks of blanks,
# the cipher words and the key, an acrostic's pool)
def fewest_blanks(flat: np.ndarray, lens: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The words of a walk that may give a word more than once (`pattern_walk`:
    once per way it matches), each once, in tile order, marked as it takes the
    fewest blanks (0x80 on the tiles a blank stands for), the blanks as late in
    the word as they can be: the marking `anagram_walk` gives."""
    best: dict[bytes, tuple[int, bytes, bytes]] = {}
    at = 0
    for n in lens.tolist():
        codes = flat[at:at + n]
        at += n
        blanks = (codes >= BLANK_FLAG).view(np.uint8)
        rank = (int(blanks.sum()), blanks.tobytes(), codes.tobytes())
        plain = (codes & np.uint8(0x7F)).tobytes()
        if plain not in best or rank < best[plain]:
            best[plain] = rank
    words = [best[plain][2] for plain in sorted(best)]
    out = np.frombuffer(b"".join(words), np.uint8) if words else np.empty(0, np.uint8)
    return out, np.asarray([len(w) for w in words], np.int64)


def with_blanks_marked(words: Sequence[Sequence[int]], counts: np.ndarray) -> list[list[int]]:
    """The tiles of ``words`` (read one after another) spelled from a rack
    (``counts[t]`` tiles of code t, blanks in ``counts[0]``): natural tiles first
    in reading order, so the blanks stand for the last letters the rack is short
    of, which get ``BLANK_FLAG``."""
    need = np.zeros(len(counts), np.int64)
    for word in words:
        for t in word:
            need[int(t) & 0x7F] += 1
    short = np.maximum(need - counts, 0)
    short[0] = 0
    marked = [[int(t) & 0x7F for t in word] for word in words]
    for word in reversed(marked):
        for k in range(len(word) - 1, -1, -1):
            if short[word[k]] > 0:
                short[word[k]] -= 1
                word[k] |= BLANK_FLAG
    return marked


@dataclass(frozen=True)
class Decoding:
    """What `Lexicon.decode` found: for each key (cipher tile -> plain tile, no
    two cipher tiles with one plain tile) under which every cipher word is a
    word, the words (``answers``: one tuple per key, in the order of
    ``ciphers``) and the key (``keys``, cipher labels to plain labels). A search
    that stopped early says why in ``stopped``: ``"limit"`` (it found the
    answers it was allowed) or ``"budget"`` (it tried the nodes it was allowed);
    there may be more answers then."""

    ciphers: tuple[str, ...]
    answers: tuple[tuple[str, ...], ...]
    keys: tuple[dict[str, str], ...]
    stopped: str = ""

    @property
    def complete(self) -> bool:
        """Whether these are all the answers."""
        return not self.stopped

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape (``stopped`` is null when all the answers are there)."""
        return {"ciphers": list(self.ciphers), "answers": [list(a) for a in self.answers],
                "keys": [dict(k) for k in self.keys], "complete": self.complete,
                "stopped": self.stopped or None}


def _search_order(words: list[list[int]]) -> list[int]:
    """The order to decode cipher words in: first the one with the most tiles
    already known (none, for the first), then the most repeated tiles, then the
    longest, so that few words match and the key fills early."""
    known: set[int] = set()
    order: list[int] = []
    left = list(range(len(words)))
    while left:
        pick = max(left, key=lambda w: (sum(t in known for t in words[w]),
                                        len(words[w]) - len(set(words[w])), len(words[w]), -w))
        left.remove(pick)
        order.append(pick)
        known.update(words[pick])
    return order


def decode(lexicon: Words, ciphers: str | Iterable[str], *, limit: int,
           budget: int) -> Decoding:
    """`Lexicon.decode`: the cipher words read as tiles, walked together
    (`decode_walk`) in `_search_order`."""
    alphabet = lexicon.alphabet
    texts = ciphers.split() if isinstance(ciphers, str) else \
        [w for text in ciphers for w in str(text).split()]
    if not texts:
        raise RacketyError("decode: no cipher word given")
    if len(texts) > MAX_CIPHER_WORDS:
        raise RacketyError(f"decode: {len(texts):,} cipher words, more than "
                           f"{MAX_CIPHER_WORDS} at once")
    if not 1 <= limit <= MAX_DECODE:
        raise RacketyError(f"decode: limit {limit} is not from 1 to {MAX_DECODE:,}")
    if budget < 0:
        raise RacketyError(f"decode: budget {budget} is negative")
    words = []
    for text in texts:
        if len(text) > 8 * MAX_WORD_LENGTH:  # not read: even in brackets, no word is
            raise RacketyError(f"cipher word {clip(text)!r} is longer than any word")
        words.append(alphabet.tokenize(text, blanks=False, what="cipher word"))
    names = tuple(alphabet.format(w) for w in words)
    if any(len(w) > MAX_WORD_LENGTH for w in words):
        return Decoding(names, (), ())  # longer than any word
    order = _search_order(words)
    cipher = np.asarray([t for w in order for t in words[w]], np.int64)
    last = np.zeros(len(cipher), np.uint8)
    last[np.cumsum([len(words[w]) for w in order]) - 1] = 1
    flat, found, stopped = decode_walk(lexicon.nodes, lexicon.root(DAWG_ROOT), cipher, last,
                                       limit, budget)
    rows = flat.reshape(found, len(cipher))
    cuts = np.cumsum([0] + [len(words[w]) for w in order])
    where = {w: (cuts[k], cuts[k + 1]) for k, w in enumerate(order)}
    answers = sorted(tuple(row[where[w][0]:where[w][1]].tobytes() for w in range(len(words)))
                     for row in rows)
    labels = alphabet.tiles
    keys = []
    for answer in answers:
        key: dict[str, str] = {}
        for cipher_word, plain in zip(words, answer, strict=True):
            for c, p in zip(cipher_word, plain, strict=True):
                key.setdefault(labels[c].label, labels[p].label)
        keys.append(key)
    plain = tuple(tuple(alphabet.format(list(w)) for w in answer) for answer in answers)
    return Decoding(names, plain, tuple(keys), {0: "", 1: "limit", 2: "budget"}[stopped])


def letters_of(alphabet: Alphabet, text: str, what: str) -> np.ndarray:
    """The letters of running text as tile counts (``counts[t]`` of code t): the
    text upper-cased and folded as the alphabet reads it (a letter it has no
    tile for is read without its accent, if that makes one: an English É is
    E), spaces, digits and punctuation left out (a character that is part of a
    tile's label, as Catalan's ``·``, is kept), each run of the rest read as
    tiles."""
    if len(text) > MAX_QUOTATION:
        raise RacketyError(f"{what}: {len(text):,} characters, more than {MAX_QUOTATION:,}")
    keep = {ch for tile in alphabet.letters for ch in tile.label.upper()}
    chars = []
    for ch in alphabet.fold(text):
        if ch not in keep:
            base = unicodedata.normalize("NFD", ch)[:1]
            ch = base if base in keep else ch if ch.isalpha() else " "
        chars.append(ch)
    counts = np.zeros(64, np.int64)
    for run in "".join(chars).split():
        try:
            codes = alphabet.tokenize(run, blanks=False, what="word")
        except RacketyError as exc:
            raise RacketyError(f"{what} {clip(text, 40)!r}: {exc}") from None
        for t in codes:
            counts[t] += 1
    return counts


class Acrostic:
    """The letter pool of an acrostic puzzle: the letters of a quotation (read
    by `letters_of`: spaces and punctuation left out, accents folded as the
    lexicon's alphabet reads text) less those of the answers used so far.
    `words` lists the words an answer can be; `use` takes a chosen answer's
    letters from the pool, refusing one the pool cannot supply, and `release`
    gives them back. Made by `Lexicon.acrostic`."""

    def __init__(self, lexicon: Words, quotation: str, used: Iterable[str] = ()) -> None:
        """The pool of ``quotation``, less the letters of each of ``used``."""
        self.lexicon = lexicon
        self.quotation = quotation
        self.pool = letters_of(lexicon.alphabet, quotation, "quotation")
        if not self.pool.any():
            raise RacketyError(f"quotation {clip(quotation)!r} has no letters")
        self.left = self.pool.copy()
        self.used: list[str] = []
        for answer in used:
            self.use(answer)

    def _answer(self, answer: str) -> np.ndarray:
        counts = letters_of(self.lexicon.alphabet, answer, "answer")
        if not counts.any():
            raise RacketyError(f"answer {clip(answer)!r} has no letters")
        return counts

    def use(self, answer: str) -> None:
        """Take the letters of ``answer`` from the pool; an answer it cannot
        supply is refused, and the pool left as it was."""
        need = self._answer(answer)
        short = np.flatnonzero(need > self.left)
        if len(short):
            t = int(short[0])
            label = self.lexicon.alphabet.tiles[t].label
            raise RacketyError(f"answer {clip(answer)!r} needs {need[t]} {label!r}, and the "
                               f"quotation has {self.left[t]} left")
        self.left -= need
        self.used.append(answer)

    def release(self, answer: str) -> None:
        """Give the letters of an answer used before back to the pool."""
        need = self._answer(answer)
        for k, other in enumerate(self.used):
            if np.array_equal(letters_of(self.lexicon.alphabet, other, "answer"), need):
                del self.used[k]
                self.left += need
                return
        raise RacketyError(f"answer {clip(answer)!r} is not among the answers used")

    @property
    def remaining(self) -> str:
        """The letters left in the pool, in tile order (multi-letter tiles in
        brackets)."""
        codes = [t for t in range(1, len(self.left)) for _ in range(int(self.left[t]))]
        return self.lexicon.alphabet.format(codes, brackets=True)

    def words(self, length: int, first: str) -> list[str]:
        """The words of ``length`` tiles starting with the tile ``first`` that the
        pool left can spell, in tile order (a walk of the graph with the pool's
        counts: `pattern_walk` of ``first`` and ``length - 1`` tiles from the
        pool)."""
        alphabet = self.lexicon.alphabet
        if not MIN_WORD_LENGTH <= length <= MAX_WORD_LENGTH:
            raise RacketyError(f"length {length}: words are {MIN_WORD_LENGTH} to "
                               f"{MAX_WORD_LENGTH} tiles long")
        tiles = alphabet.tokenize(first.strip(), blanks=False, what="first letter") \
            if len(first) <= 16 else []
        if len(tiles) != 1:
            raise RacketyError(f"first letter {clip(first)!r}: one tile of alphabet "
                               f"{alphabet.name} expected")
        counts = self.left.copy()
        if counts[tiles[0]] == 0:
            return []
        counts[tiles[0]] -= 1
        pat = np.asarray(tiles + [WILD_ONE] * (length - 1), np.int64)
        flat, lens = pattern_walk(self.lexicon.nodes, self.lexicon.root(DAWG_ROOT), pat,
                                  counts, True, length)
        return alphabet.decode_many(flat, lens)
