"""The KWG node: one uint32 per edge, the layout wolges, MAGPIE and Macondo
share (docs/FORMATS.md section 2). Every kernel reads nodes through this module.

    bits 0-21  arc: index of the first node of the child run (0: none)
    bit 22     IS_END: the last node of its run
    bit 23     ACCEPTS: the string read to here is a word
    bits 24-31 tile code (0: the GADDAG separator, or a blank in a KLV)

Node 0's arc is the DAWG root run, node 1's the GADDAG root run (a DAWG-only
graph has node 1 as an empty run).
"""

from __future__ import annotations

import numpy as np

from rackety.kernels.bits import ACCEPTS, ARC, DAWG_ROOT, GADDAG_ROOT, IS_END, TILE_SHIFT
from rackety.kernels.jit import njit

__all__ = ["ACCEPTS", "ARC", "DAWG_ROOT", "GADDAG_ROOT", "IS_END", "accepts", "arc_of", "is_end",
           "is_word", "pack", "root", "seek", "tile_of", "walk"]


@njit(cache=True, nogil=True, inline="always")
def tile_of(node: np.int64) -> np.int64:
    """The tile code (0: the GADDAG separator, or a blank in a KLV)."""
    return node >> TILE_SHIFT


@njit(cache=True, nogil=True, inline="always")
def arc_of(node: np.int64) -> np.int64:
    """The first node of the child run (0: none)."""
    return node & ARC


@njit(cache=True, nogil=True, inline="always")
def is_end(node: np.int64) -> bool:
    """The node is the last of its run."""
    return (node & IS_END) != 0


@njit(cache=True, nogil=True, inline="always")
def is_word(node: np.int64) -> bool:
    """The string read to here is a word."""
    return (node & ACCEPTS) != 0


@njit(cache=True, nogil=True, inline="always")
def pack(tile: np.int64, arc: np.int64, word: bool, end: bool) -> np.int64:
    """The node of ``tile`` whose child run starts at ``arc``."""
    return (tile << TILE_SHIFT) | (ACCEPTS if word else 0) | (IS_END if end else 0) | arc


@njit(cache=True, nogil=True, inline="always")
def root(kwg: np.ndarray, which: int) -> np.int64:
    """The first node of the DAWG's (``which`` 0) or the GADDAG's (1) root run."""
    return arc_of(np.int64(kwg[which]))


@njit(cache=True, nogil=True)
def seek(kwg: np.ndarray, run: np.int64, t: np.int64) -> np.int64:
    """The node for tile ``t`` in the run starting at ``run``, or -1 (runs are
    sorted by tile)."""
    if run == 0:
        return -1
    i = run
    while True:
        node = np.int64(kwg[i])
        nt = tile_of(node)
        if nt == t:
            return i
        if nt > t or is_end(node):
            return -1
        i += 1


@njit(cache=True, nogil=True)
def walk(kwg: np.ndarray, run: np.int64, line: np.ndarray, start: int, stop: int,
         step: int) -> np.int64:
    """Follow the tiles ``line[start], line[start + step], ...`` (to ``stop``,
    excluded; the blank flag 0x80 ignored) from the run at ``run``: the last
    node read, or -1."""
    node = np.int64(-1)
    i = start
    while i != stop:
        node = seek(kwg, run, np.int64(line[i]) & 0x7F)
        if node < 0:
            return -1
        run = arc_of(np.int64(kwg[node]))
        i += step
    return node


@njit(cache=True, nogil=True)
def accepts(kwg: np.ndarray, node: np.int64) -> bool:
    return node >= 0 and is_word(np.int64(kwg[node]))
