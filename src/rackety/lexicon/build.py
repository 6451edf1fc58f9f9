"""Build a fully minimised DAWG and GADDAG and lay them out as one KWG array.

The method, in four compiled passes over flat arrays:

1. **DAWG** (Appel and Jacobson 1988, section 3.2, built incrementally over the
   sorted words as Daciuk et al. 2000 do): words are "typed" in order; when the
   next word leaves a branch, the branch's states are finished bottom-up and
   each is replaced by an equal state already registered, or registered. A state
   is its list of outgoing edges (tile, accepts, child): two states are equal
   exactly when their lists are, so the register yields the minimal automaton.
   The state every prefix of every word ends in is recorded.
2. **GADDAG** (Gordon 1994). Its strings are rev(prefix) + separator + suffix for
   every split of every word, and rev(word). After rev(x) and the separator, the
   rest of the graph is the DAWG state reached by x: the same edges (next letter,
   whether x + letter is a word). So only the distinct reversed prefixes rev(x)
   need sorting and typing (395,184 for TWL06 rather than 1.6 million GADDAG
   strings); the node ending rev(x) gets a separator edge (tile 0) to the DAWG
   state of x, and the edge ending rev(x) accepts when x is a word. The same
   register is used, so the GADDAG shares every DAWG state it can.
3. **Tail sharing.** In a KWG a state is a run of sibling nodes and an arc may
   point into the middle of a run, so a state whose edge list is a proper suffix
   of another's costs nothing. States are visited longest first; each either
   finds itself among the suffixes of the states already placed or is placed
   and adds its own suffixes. Every other layout needs at least as many nodes.
4. **Layout.** Node 0 points at the DAWG root and node 1 at the GADDAG root;
   runs follow in breadth-first order from the DAWG root, then the GADDAG root,
   so the DAWG part is compact at the front.
"""

from __future__ import annotations

import time

import numpy as np

from rackety.errors import RacketyError
from rackety.kernels.bits import IS_END, arc_of
from rackety.kernels.jit import njit
from rackety.kernels.nodes import pack
from rackety.lexicon.kwg import MAX_NODES
from rackety.lexicon.wordlist import WordList

_SEED = np.uint64(0x9E3779B97F4A7C15)
_MUL = np.uint64(0xFF51AFD7ED558CCD)
_EMPTY = 0  # the state with no edges (the dead end, arc 0)

# The register. Edge lists are stored one after another: state s has the edges
# keys[start[s]:start[s + 1]], each edge packed as tile | accepts << 8 | child << 9.
# ``table`` is an open-addressing hash table of state ids + 1 (0 = free slot),
# hashed over a state's edges from the last to the first, so that the hash of
# every suffix of a list comes for free while hashing the list.


@njit(cache=True)
def _mix(h: np.uint64, key: int) -> np.uint64:
    h = (h ^ np.uint64(key)) * _MUL
    return h ^ (h >> np.uint64(29))


@njit(cache=True)
def _find(edges: np.ndarray, first: int, m: int, h: np.uint64, start: np.ndarray,
          keys: np.ndarray, table: np.ndarray) -> int:
    """The slot holding the state whose edges are ``edges[first:first + m]``, or the
    free slot where it would go."""
    mask = np.int64(len(table) - 1)
    slot = np.int64(h & np.uint64(mask))
    while True:
        s = np.int64(table[slot]) - 1
        if s < 0:
            return int(slot)
        b = start[s]
        if start[s + 1] - b == m:
            same = True
            for j in range(m):
                if keys[b + j] != edges[first + j]:
                    same = False
                    break
            if same:
                return int(slot)
        slot = (slot + 1) & mask


@njit(cache=True)
def _register(edges: np.ndarray, m: int, start: np.ndarray, keys: np.ndarray, table: np.ndarray,
              counts: np.ndarray) -> int:
    """The id of the state with these ``m`` edges, registering it if new."""
    if m == 0:
        return _EMPTY
    h = _SEED
    for j in range(m - 1, -1, -1):
        h = _mix(h, edges[j])
    slot = _find(edges, 0, m, h, start, keys, table)
    if table[slot] != 0:
        return int(table[slot]) - 1
    s = counts[0]
    b = start[s]
    for j in range(m):
        keys[b + j] = edges[j]
    start[s + 1] = b + m
    counts[0] = s + 1
    table[slot] = s + 1
    return int(s)


@njit(cache=True)
def _daciuk(strs: np.ndarray, lens: np.ndarray, last_acc: np.ndarray, sep: np.ndarray,
            record: bool, state_of_node: np.ndarray, start: np.ndarray, keys: np.ndarray,
            table: np.ndarray, counts: np.ndarray) -> int:
    """Type the sorted, distinct strings into the register; return the root state.

    ``last_acc[i]``: whether the edge ending string i accepts. ``sep[i] > 0``: the
    node ending string i gets a separator edge (tile 0) to state ``sep[i]``. With
    ``record``, ``state_of_node[k]`` is set to the state of the k-th trie node
    created (in creation order: by string, then by depth).
    """
    n = strs.shape[0]
    width = strs.shape[1]
    pending = np.zeros((width + 1, 64), np.int64)  # the open nodes' edges, child last
    n_edges = np.zeros(width + 1, np.int64)
    node_id = np.zeros(width + 1, np.int64)
    prev_len = np.int64(0)
    created = 0
    for i in range(n):
        length = np.int64(lens[i])
        common = 0
        if i > 0:
            m = min(length, np.int64(lens[i - 1]))
            while common < m and strs[i, common] == strs[i - 1, common]:
                common += 1
        for d in range(prev_len, common, -1):
            s = _register(pending[d], n_edges[d], start, keys, table, counts)
            pending[d - 1, n_edges[d - 1] - 1] |= s << 9
            if record:
                state_of_node[node_id[d]] = s
        for d in range(common, length):
            acc = np.int64(last_acc[i]) if d == length - 1 else 0
            pending[d, n_edges[d]] = np.int64(strs[i, d]) | acc << 8
            n_edges[d] += 1
            n_edges[d + 1] = 0
            node_id[d + 1] = created
            created += 1
        target = np.int64(sep[i])
        if target > 0:
            pending[length, 0] = target << 9
            n_edges[length] = 1
        prev_len = length
    for d in range(prev_len, 0, -1):
        s = _register(pending[d], n_edges[d], start, keys, table, counts)
        pending[d - 1, n_edges[d - 1] - 1] |= s << 9
        if record:
            state_of_node[node_id[d]] = s
    return int(_register(pending[0], n_edges[0], start, keys, table, counts))


@njit(cache=True)
def _reversed_prefixes(words: np.ndarray, lens: np.ndarray, common: np.ndarray,
                       total: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every distinct prefix x of the sorted words, reversed, in the order the DAWG
    pass created their trie nodes; and whether each x is a word."""
    width = words.shape[1]
    out = np.zeros((total, width), np.uint8)
    out_len = np.empty(total, np.int64)
    is_word = np.zeros(total, np.uint8)
    p = 0
    for i in range(words.shape[0]):
        length = np.int64(lens[i])
        for k in range(np.int64(common[i]) + 1, length + 1):
            for j in range(k):
                out[p, j] = words[i, k - 1 - j]
            out_len[p] = k
            is_word[p] = 1 if k == length else 0
            p += 1
    return out, out_len, is_word


@njit(cache=True)
def _tail_share(start: np.ndarray, keys: np.ndarray, table: np.ndarray, n_states: int,
                by_length: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every state, the state whose run hosts it and its offset in that run
    (``host[s] == s``: placed in its own run). States are taken longest first; a
    state not yet hosted gets its own run, and each proper suffix of its edge
    list that is itself a state (found in the register by the suffix's hash,
    computed while hashing the list) is hosted there."""
    host = np.full(n_states, -1, np.int64)
    offset = np.zeros(n_states, np.int64)
    hashes = np.zeros(64, np.uint64)
    for r in range(len(by_length)):
        s = by_length[r]
        if host[s] >= 0:
            continue
        host[s] = s
        b = start[s]
        m = start[s + 1] - b
        h = _SEED
        for j in range(m - 1, 0, -1):
            h = _mix(h, keys[b + j])
            hashes[j] = h
        for j in range(1, m):
            slot = _find(keys, b + j, m - j, hashes[j], start, keys, table)
            t = np.int64(table[slot]) - 1
            if t >= 0 and host[t] < 0:
                host[t] = s
                offset[t] = j
    return host, offset


@njit(cache=True)
def _layout(start: np.ndarray, keys: np.ndarray, n_states: int, host: np.ndarray,
            offset: np.ndarray, dawg_root: int, gaddag_root: int) -> np.ndarray:
    """Place the runs breadth first from the DAWG root, then the GADDAG root, and
    write the KWG nodes (see `rackety.lexicon.kwg` for the bit layout)."""
    run_pos = np.full(n_states, -1, np.int64)
    seen = np.zeros(n_states, np.uint8)
    queue = np.empty(n_states, np.int64)
    order = np.empty(n_states, np.int64)
    n_runs = 0
    next_pos = 2
    head = 0
    tail = 0
    roots = np.array([dawg_root, gaddag_root])
    for r in range(2):
        root = roots[r]
        if root < 0 or root == _EMPTY or seen[root]:
            continue
        seen[root] = 1
        queue[tail] = root
        tail += 1
        while head < tail:
            s = queue[head]
            head += 1
            h = host[s]
            if run_pos[h] < 0:
                run_pos[h] = next_pos
                next_pos += start[h + 1] - start[h]
                order[n_runs] = h
                n_runs += 1
            for e in range(start[s], start[s + 1]):
                c = keys[e] >> 9
                if c != _EMPTY and not seen[c]:
                    seen[c] = 1
                    queue[tail] = c
                    tail += 1
    nodes = np.zeros(next_pos, np.uint32)
    nodes[0] = np.uint32(IS_END)
    nodes[1] = np.uint32(IS_END)
    if dawg_root != _EMPTY:
        nodes[0] |= np.uint32(run_pos[host[dawg_root]] + offset[dawg_root])
    if gaddag_root >= 0 and gaddag_root != _EMPTY:
        nodes[1] |= np.uint32(run_pos[host[gaddag_root]] + offset[gaddag_root])
    for r in range(n_runs):
        h = order[r]
        b = start[h]
        m = start[h + 1] - b
        p = run_pos[h]
        for j in range(m):
            key = keys[b + j]
            c = key >> 9
            arc = 0
            if c != _EMPTY:
                arc = run_pos[host[c]] + offset[c]
            nodes[p + j] = np.uint32(pack(key & 0xFF, arc, (key >> 8) & 1 != 0, j == m - 1))
    return nodes


def _common_prefixes(tiles: np.ndarray) -> np.ndarray:
    """Length of the common prefix of each sorted row with the row before it."""
    common = np.zeros(len(tiles), dtype=np.int64)
    if len(tiles) > 1:
        common[1:] = np.argmax(tiles[1:] != tiles[:-1], axis=1)
    return common


def build_kwg(words: WordList, *, gaddag: bool = True,
              timings: dict[str, float] | None = None) -> np.ndarray:
    """The KWG nodes (uint32) of a DAWG and, with ``gaddag``, a GADDAG of ``words``.

    ``timings``, if given, receives the CPU seconds of each phase.
    """
    tiles, lens = words.tiles, words.lengths
    clock = time.process_time
    t0 = clock()
    common = _common_prefixes(tiles)
    n_prefixes = int((lens - common).sum())
    if gaddag:
        rev, rev_len, rev_is_word = _reversed_prefixes(tiles, lens, common, n_prefixes)
        order = np.lexsort(rev.T[::-1])
        rev, rev_len, rev_is_word = rev[order], rev_len[order], rev_is_word[order]
        n_gaddag_nodes = int((rev_len - _common_prefixes(rev)).sum())
    else:
        n_gaddag_nodes = 0
    t1 = clock()

    cap_states = n_prefixes + n_gaddag_nodes + 3
    cap_edges = n_prefixes + n_gaddag_nodes + (n_prefixes if gaddag else 0) + 1
    size = 1
    while size < 2 * cap_states:  # at most half full, even if no state merges
        size *= 2
    start = np.zeros(cap_states + 1, np.int64)
    keys = np.zeros(cap_edges, np.int64)
    table = np.zeros(size, np.int32)
    counts = np.array([1], np.int64)  # state 0 is the empty state
    state_of_prefix = np.zeros(max(n_prefixes, 1), np.int64)
    ones = np.ones(len(lens), np.uint8)
    no_sep = np.zeros(len(lens), np.int64)
    dawg_root = _daciuk(tiles, lens, ones, no_sep, True, state_of_prefix, start, keys, table,
                        counts)
    t2 = clock()
    gaddag_root = -1
    if gaddag:
        gaddag_root = _daciuk(rev, rev_len, rev_is_word, state_of_prefix[order], False,
                              state_of_prefix, start, keys, table, counts)
    t3 = clock()
    n_states = int(counts[0])
    lengths = start[1:n_states + 1] - start[:n_states]
    by_length = np.argsort(-lengths, kind="stable")
    host, offset = _tail_share(start, keys, table, n_states, by_length)
    t4 = clock()
    nodes: np.ndarray = _layout(start, keys, n_states, host, offset, dawg_root, gaddag_root)
    if not gaddag:
        nodes = np.delete(nodes, 1)
        arcs = arc_of(nodes)
        nodes = np.where(arcs > 1, nodes - 1, nodes).astype(np.uint32)
    t5 = clock()
    if len(nodes) > MAX_NODES:
        raise RacketyError(f"the word graph needs {len(nodes):,} nodes; a KWG holds at most "
                           f"{MAX_NODES:,}")
    if timings is not None:
        timings.update({"prefixes and sort": t1 - t0, "dawg": t2 - t1, "gaddag": t3 - t2,
                        "tail sharing": t4 - t3, "layout": t5 - t4})
    return nodes
