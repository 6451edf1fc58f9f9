"""The shape of a word graph (a KWG or a KLV's leave graph), measured in one
compiled walk: what `rackety.lexicon.kwg.validate` checks before any kernel
sees the graph, and the per-node string counts the KLV word index and the word
count read.

For every node ``i`` reachable from a run, "the strings from ``i``" are those
that start with the tile of ``i`` or of a later sibling of its run (the node and
the rest of its run: a run may be entered in its middle, tail sharing):

* ``count[i]``: how many of them are accepted (docs/FORMATS.md section 2:
  ``accepts(i) + count[arc(i)] + count[i + 1]``), saturating at `SATURATED`;
* ``longest[i]``: the most tiles other than the separator (tile 0) on one of
  them, accepted or not;
* ``separators[i]``: the most separators on one of them (counted up to 2);
* ``tiles[i]``: the tiles other than the separator on the accepted ones, all
  added up, saturating like ``count`` (a DAWG's words need that many GADDAG
  strings: one per tile of each word).

The walk is depth-first with an explicit stack and memoised per node, so it is
linear in the graph; a node met again while still open closes a cycle.
"""

from __future__ import annotations

import numpy as np

from rackety.kernels.jit import njit
from rackety.kernels.nodes import arc_of, is_end, is_word, tile_of

SATURATED = 1 << 61  # a count at this value means "this many or more"


@njit(cache=True)
def measure(nodes: np.ndarray, start: int, count: np.ndarray, longest: np.ndarray,
            separators: np.ndarray, tiles: np.ndarray, state: np.ndarray) -> int:
    """Fill ``count``, ``longest``, ``separators`` and ``tiles`` for every node reachable
    from the run at ``start`` (``state``: 0 unseen, 1 open, 2 done; shared
    between calls, so a second root reuses what the first measured). Arcs must
    be in range and the last node must end its run. Returns -1, or a node on a
    cycle."""
    if start == 0 or state[start] == 2:
        return -1
    n = len(nodes)
    stack = np.empty(2 * n + 1, np.int64)  # each node pushes its two successors once
    top = 0
    stack[0] = start
    while top >= 0:
        i = stack[top]
        if state[i] == 2:
            top -= 1
            continue
        node = np.int64(nodes[i])
        a = arc_of(node)
        last = is_end(node)
        pending = False
        if a != 0 and state[a] != 2:
            if state[a] == 1:
                return int(a)
            top += 1
            stack[top] = a
            pending = True
        if not last and state[i + 1] != 2:
            if state[i + 1] == 1:
                return int(i + 1)
            top += 1
            stack[top] = i + 1
            pending = True
        if pending:
            if state[i] == 1:
                return int(i)
            state[i] = 1
            continue
        separator = tile_of(node) == 0
        c = np.int64(1) if is_word(node) else np.int64(0)
        length = np.int64(0) if separator else np.int64(1)
        seps = np.int64(1) if separator else np.int64(0)
        total = np.int64(0)
        if a != 0:
            c += count[a]
            length += longest[a]
            seps = min(seps + np.int64(separators[a]), np.int64(2))
            total = tiles[a]
        if not separator:
            total = min(total + c, np.int64(SATURATED))  # this tile, on every string through it
        if not last:
            c += count[i + 1]
            length = max(length, longest[i + 1])
            seps = max(seps, np.int64(separators[i + 1]))
            total = min(total + tiles[i + 1], np.int64(SATURATED))
        count[i] = min(c, SATURATED)
        tiles[i] = total
        longest[i] = length
        separators[i] = seps
        state[i] = 2
        top -= 1
    return -1
