"""The KWG file format (docs/FORMATS.md section 2), defined by wolges and read by
MAGPIE and Macondo: an array of little-endian uint32 nodes, no header.

Node bits: 0-21 ``arc`` (first node of the child run, 0 = none), 22 ``is_end``
(last node of its run), 23 ``accepts`` (the string so far, this tile included,
is in the set), 24-31 ``tile``. A run of siblings has strictly increasing tiles
and ends at ``is_end``; an arc may point into the middle of a run (tail
sharing). Node 0 points at the DAWG root; in a file with a GADDAG, node 1 points
at the GADDAG root and the GADDAG's separator is tile 0.

Loading a cached lexicon and looking up a word use numpy only; validating a KWG
from elsewhere (`validate`) runs one compiled walk (`rackety.lexicon.graph`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from rackety.errors import RacketyError
from rackety.files import read_bytes, write_atomic
from rackety.kernels.bits import DAWG_ROOT as DAWG_ROOT  # the roots, for the graph's readers
from rackety.kernels.bits import GADDAG_ROOT as GADDAG_ROOT
from rackety.kernels.bits import IS_END as IS_END  # for KLV and the tests
from rackety.kernels.bits import arc_of, is_end, is_word, tile_of
from rackety.lexicon.wordlist import MAX_WORD_LENGTH

MAX_NODES = 1 << 22
MAX_WORDS = 1 << 23  # well above any real lexicon (Polish has about 3 million words)


def accepts(node: int) -> bool:
    """Whether the string read up to this node, its tile included, is in the set."""
    return bool(is_word(node))


def has_gaddag(nodes: np.ndarray) -> bool:
    """Whether node 1 is the GADDAG pseudo-node. In a DAWG-only word graph node
    1 is a real edge, whose tile is a letter (never 0, the separator)."""
    return len(nodes) > 1 and tile_of(int(nodes[1])) == 0


def validate(nodes: np.ndarray, source: str, alphabet_size: int = 64, *,
             leaves: bool = False) -> np.ndarray:
    """Check everything a kernel relies on; raise `RacketyError` naming the
    first offending node. Returns ``count`` per node (`rackety.lexicon.graph`):
    ``count[arc(node 0)]`` is the number of words (or leaves).

    Every KWG: node 0 points at the root run, arcs stay in the file, runs end
    (the last node ends its run), siblings increase, tiles are the alphabet's,
    no path loops or runs longer than `MAX_WORD_LENGTH` tiles, and every node
    reached leads to an accepted string (so a walk that lists strings does work
    in proportion to what it lists). A lexicon
    (``leaves=False``) has no word of one tile, at most `MAX_WORDS` words, no
    separator (tile 0) in its DAWG, and a GADDAG (if any) whose every path has
    at most one separator, never first and never last, as many strings as the
    DAWG's words have tiles (a GADDAG of another list is refused). A KLV's leave graph
    (``leaves=True``) is a DAWG in which tile 0 is the blank."""
    n = len(nodes)
    if n == 0:
        raise RacketyError(f"{source}: empty KWG file")
    if n > MAX_NODES:
        raise RacketyError(f"{source}: {n:,} nodes, more than a KWG can address")
    tiles = nodes >> np.uint32(24)
    arcs = arc_of(nodes)
    ends = is_end(nodes)
    accepting = is_word(nodes)

    def fail(index: np.ndarray, what: str) -> None:
        if index.size:
            raise RacketyError(f"{source}: node {int(index[0])}: {what}")

    if int(tiles[0]) != 0 or not ends[0] or accepting[0] or (int(arcs[0]) == 0 and n > 1):
        raise RacketyError(f"{source}: node 0 is not a root pointer (tile 0, last of its "
                           "run, not accepting, arc to the DAWG root); not a KWG file?")
    fail(np.flatnonzero(arcs >= n), f"arc beyond the last node ({n - 1})")
    fail(np.flatnonzero(tiles >= alphabet_size), f"tile code {alphabet_size} or more, which "
         "the alphabet does not have (pass the lexicon's alphabet)")
    if not ends[-1]:
        raise RacketyError(f"{source}: node {n - 1}: the last node does not end its run")
    body = np.arange(n - 1)
    unordered = body[~ends[:-1] & (tiles[1:] <= tiles[:-1])]
    fail(unordered, "siblings not in strictly increasing tile order")

    from rackety.lexicon.graph import measure

    count = np.zeros(n, np.int64)
    longest = np.zeros(n, np.int32)
    separators = np.zeros(n, np.uint8)
    on_strings = np.zeros(n, np.int64)
    state = np.zeros(n, np.uint8)
    gaddag = not leaves and has_gaddag(nodes)
    roots = [("the DAWG" if not leaves else "the leave graph", int(arcs[DAWG_ROOT]))]
    if gaddag:
        roots.append(("the GADDAG", int(arcs[GADDAG_ROOT])))
    for what, root in roots:
        cycle = measure(nodes, root, count, longest, separators, on_strings, state)
        if cycle >= 0:
            raise RacketyError(f"{source}: node {cycle}: {what} loops back on itself (a "
                               "cycle); not a valid KWG")
        if root and longest[root] > MAX_WORD_LENGTH:
            raise RacketyError(f"{source}: {what} has a path of {int(longest[root])} tiles, "
                               f"more than the largest board ({MAX_WORD_LENGTH})")
        reached = np.flatnonzero(state == 2)
        fail(reached[~accepting[reached] & (count[arcs[reached]] == 0)],
             f"a dead end of {what} (no string it accepts goes through it)")
        if leaves:
            continue
        run = _run(ends, root)
        fail(run[accepting[run]], f"a word of one tile ({what}'s first tiles accept); "
             "words have 2 tiles or more")
        if what == "the DAWG":
            fail(reached[tiles[reached] == 0], "a separator (tile 0) in the DAWG")
            if root and count[root] > MAX_WORDS:
                raise RacketyError(f"{source}: more than {MAX_WORDS:,} words, more than "
                                   "any lexicon has")
        else:
            fail(run[tiles[run] == 0], "the GADDAG starts with a separator (tile 0)")
            if root and separators[root] > 1:
                raise RacketyError(f"{source}: a path of the GADDAG has two separators "
                                   "(tile 0); it has one at most")
            fail(reached[(tiles[reached] == 0) & accepting[reached]],
                 "a GADDAG string ends with the separator (tile 0)")
            need = int(on_strings[roots[0][1]]) if roots[0][1] else 0
            have = int(count[root]) if root else 0
            if have != need:  # a word of n tiles is n GADDAG strings
                raise RacketyError(f"{source}: the GADDAG holds {have:,} strings, and the "
                                   f"DAWG's words make {need:,}: they are not one word list")
    return count


def _run(ends: np.ndarray, start: int) -> np.ndarray:
    """The nodes of the run from ``start`` to the end of its run (none for 0)."""
    if start == 0:
        return np.zeros(0, np.int64)
    stop = start + int(np.argmax(ends[start:]))
    return np.arange(start, stop + 1)


def read_kwg(path: str | Path, alphabet_size: int = 64, *,
             check: bool = True) -> np.ndarray:
    """Read a KWG file into a read-only uint32 array, after validating it
    (``check=False`` skips the validation, for rackety's own files whose
    checksum the caller verifies). The file is read, not memory-mapped: what
    was checked cannot change under a kernel."""
    data = read_bytes(path, "KWG file", 4 * MAX_NODES)
    nodes = nodes_from_bytes(data, str(path))
    if check:
        validate(nodes, str(path), alphabet_size)
    return nodes


def nodes_from_bytes(data: bytes, source: str) -> np.ndarray:
    """The nodes of a KWG file's bytes, read-only, after checking the size."""
    if not data:
        raise RacketyError(f"{source}: empty KWG file")
    if len(data) % 4:
        raise RacketyError(f"{source}: {len(data)} bytes is not a whole number of 4-byte "
                           "nodes; not a KWG file?")
    nodes = np.frombuffer(data, dtype="<u4")
    if sys.byteorder != "little":  # pragma: no cover - no big-endian machine here
        nodes = nodes.astype(np.uint32)
        nodes.flags.writeable = False
    return nodes


def write_kwg(path: str | Path, nodes: np.ndarray) -> None:
    """Write KWG nodes to a file, atomically."""
    write_atomic(path, np.asarray(nodes, dtype="<u4").tobytes())


def seek(nodes: np.ndarray, index: int, t: int) -> int:
    """The node for tile ``t`` in the run starting at ``index``, or -1."""
    if index == 0:
        return -1
    while True:
        node = int(nodes[index])
        nt = tile_of(node)
        if nt == t:
            return index
        if nt > t or is_end(node):
            return -1
        index += 1


def follow(nodes: np.ndarray, start: int, tiles: list[int]) -> int:
    """The node reached by reading ``tiles`` from pseudo-node ``start``, or -1."""
    index = start
    for t in tiles:
        index = seek(nodes, arc_of(int(nodes[index])), t)
        if index < 0:
            return -1
    return index


def children(nodes: np.ndarray, index: int) -> list[tuple[int, bool]]:
    """(tile, accepts) of each edge leaving the node at ``index``."""
    out: list[tuple[int, bool]] = []
    i = arc_of(int(nodes[index]))
    if i == 0:
        return out
    while True:
        node = int(nodes[i])
        out.append((tile_of(node), bool(is_word(node))))
        if is_end(node):
            return out
        i += 1
