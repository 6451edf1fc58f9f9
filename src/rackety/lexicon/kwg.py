"""The KWG file format (FORMATS.md section 2), defined by wolges and read by
MAGPIE and Macondo: an array of little-endian uint32 nodes, no header.

Node bits: 0-21 ``arc`` (first node of the child run, 0 = none), 22 ``is_end``
(last node of its run), 23 ``accepts`` (the string so far, this tile included,
is in the set), 24-31 ``tile``. A run of siblings has strictly increasing tiles
and ends at ``is_end``; an arc may point into the middle of a run (tail
sharing). Node 0 points at the DAWG root; in a file with a GADDAG, node 1 points
at the GADDAG root and the GADDAG's separator is tile 0.

Only numpy here: loading and looking up a word never imports numba.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

from rackety.errors import RacketyError, read_error

ARC_MASK = np.uint32(0x3FFFFF)
IS_END = np.uint32(1 << 22)
MAX_NODES = 1 << 22
DAWG_ROOT = 0  # pseudo-node whose arc is the DAWG root
GADDAG_ROOT = 1  # pseudo-node whose arc is the GADDAG root, when there is one


def accepts(node: int) -> bool:
    """Whether the string read up to this node, its tile included, is in the set."""
    return bool(node & 0x800000)


def has_gaddag(nodes: np.ndarray) -> bool:
    """Whether node 1 is the GADDAG pseudo-node. In a DAWG-only word graph node
    1 is a real edge, whose tile is a letter (never 0, the separator)."""
    return len(nodes) > 1 and int(nodes[1]) >> 24 == 0


def validate(nodes: np.ndarray, source: str, alphabet_size: int = 64) -> None:
    """Check the structure every KWG guarantees; raise `RacketyError` naming the
    first offending node."""
    n = len(nodes)
    if n == 0:
        raise RacketyError(f"{source}: empty KWG file")
    if n > MAX_NODES:
        raise RacketyError(f"{source}: {n:,} nodes, more than a KWG can address")
    tiles = nodes >> np.uint32(24)
    arcs = nodes & ARC_MASK
    ends = (nodes & IS_END) != 0

    def fail(index: np.ndarray, what: str) -> None:
        if index.size:
            raise RacketyError(f"{source}: node {int(index[0])}: {what}")

    if int(tiles[0]) != 0 or not ends[0] or (int(arcs[0]) == 0 and n > 1):
        raise RacketyError(f"{source}: node 0 is not a root pointer (tile 0, last of its "
                           "run, arc to the DAWG root); not a KWG file?")
    fail(np.flatnonzero(arcs >= n), f"arc beyond the last node ({n - 1})")
    fail(np.flatnonzero(tiles >= alphabet_size), f"tile code {alphabet_size} or more, which "
         "the alphabet does not have (pass the lexicon's alphabet)")
    if not ends[-1]:
        raise RacketyError(f"{source}: node {n - 1}: the last node does not end its run")
    body = np.arange(n - 1)
    unordered = body[~ends[:-1] & (tiles[1:] <= tiles[:-1])]
    fail(unordered, "siblings not in strictly increasing tile order")


def read_kwg(path: str | Path, alphabet_size: int = 64, *, check: bool = True) -> np.ndarray:
    """Memory-map a KWG file as a read-only uint32 array, after validating it
    (``check=False`` skips the validation, for files rackety wrote itself: then
    only the pages a search touches are ever read)."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size == 0:
            raise RacketyError(f"{path}: empty KWG file")
        if size % 4:
            raise RacketyError(f"{path}: {size} bytes is not a whole number of 4-byte nodes; "
                               "not a KWG file?")
        with open(path, "rb") as f:
            buf = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except OSError as exc:
        raise read_error(path, exc, "KWG file") from None
    nodes = np.frombuffer(buf, dtype="<u4")
    if sys.byteorder != "little":  # pragma: no cover - no big-endian machine here
        nodes = nodes.astype(np.uint32)
        nodes.flags.writeable = False
    if check:
        validate(nodes, str(path), alphabet_size)
    return nodes


def write_atomic(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a crash leaves either the old file or the
    new one, never half of one."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_kwg(path: str | Path, nodes: np.ndarray) -> None:
    """Write KWG nodes to a file, atomically."""
    try:
        write_atomic(path, np.asarray(nodes, dtype="<u4").tobytes())
    except OSError as exc:
        raise RacketyError(f"{path}: cannot write ({exc.strerror})") from None


def seek(nodes: np.ndarray, index: int, t: int) -> int:
    """The node for tile ``t`` in the run starting at ``index``, or -1."""
    if index == 0:
        return -1
    while True:
        node = int(nodes[index])
        nt = node >> 24
        if nt == t:
            return index
        if nt > t or node & 0x400000:
            return -1
        index += 1


def follow(nodes: np.ndarray, start: int, tiles: list[int]) -> int:
    """The node reached by reading ``tiles`` from pseudo-node ``start``, or -1."""
    index = start
    for t in tiles:
        index = seek(nodes, int(nodes[index]) & 0x3FFFFF, t)
        if index < 0:
            return -1
    return index


def children(nodes: np.ndarray, index: int) -> list[tuple[int, bool]]:
    """(tile, accepts) of each edge leaving the node at ``index``."""
    out = []
    i = int(nodes[index]) & 0x3FFFFF
    if i == 0:
        return out
    while True:
        node = int(nodes[i])
        out.append((node >> 24, bool(node & 0x800000)))
        if node & 0x400000:
            return out
        i += 1
