"""The bits of a KWG node (docs/FORMATS.md section 2), without numba, for the code
that reads graphs outside the kernels: the masks and the same accessors as
`rackety.kernels.nodes` (which re-exports the masks), in plain Python, on a
node or on a numpy array of them. A node's fields are read through these two
modules only (tests/test_architecture.py)."""

from __future__ import annotations

from typing import Any

ARC = 0x3FFFFF  # bits 0-21: the first node of the child run (0: none)
IS_END = 0x400000  # bit 22: the last node of its run
ACCEPTS = 0x800000  # bit 23: the string read to here is a word
TILE_SHIFT = 24  # bits 24-31: the tile code
DAWG_ROOT = 0  # the pseudo-node whose arc is the DAWG's root run
GADDAG_ROOT = 1

# what a graph holds, as the kernels that keep cross sets are told (``graph``):
# the words in a DAWG, the words in a DAWG and a GADDAG, or the words'
# alphagrams in a DAWG (`rackety.lexicon.Lexicon.alphagrams`, WordSmog's: a
# word is valid when it is an anagram of one)
GRAPH_DAWG = 0
GRAPH_GADDAG = 1
GRAPH_ALPHAGRAMS = 2


def tile_of(node: Any) -> Any:
    """The tile code (0: the GADDAG separator, or a blank in a KLV)."""
    return node >> TILE_SHIFT


def arc_of(node: Any) -> Any:
    """The first node of the child run (0: none)."""
    return node & ARC


def is_end(node: Any) -> Any:
    """The node is the last of its run."""
    return (node & IS_END) != 0


def is_word(node: Any) -> Any:
    """The string read to here is a word."""
    return (node & ACCEPTS) != 0


def with_arc(node: Any, arc: Any) -> Any:
    """``node`` with its arc made ``arc``."""
    return (node & ~ARC) | arc
