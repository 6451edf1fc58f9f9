"""The words of a lexicon as letter multisets: each word's letters hashed
order-free (the sum of a fixed 64-bit key per letter, wrapping), each hash
setting two bits of a bitmap of `BITS` bits (a Bloom filter: its low bits
and its high bits). A rack and some board tiles can spell a word only if
both bits of the sum of their keys are set; the generator's shadow bounds
use this to refuse plays of the whole rack that spell nothing, in two
memory reads (a false match, about one in a thousand with the largest word
lists, only keeps a bound loose)."""

from __future__ import annotations

import numpy as np

from rackety.kernels.jit import njit
from rackety.kernels.nodes import arc_of, is_end, is_word, tile_of
from rackety.kernels.rules import U64, splitmix

KEY_SEED = 0x6D756C7469736574  # "multiset"
BITS = 1 << 24  # the bitmap's size: 2 MiB
SHIFT = 32  # the second bit: the hash's bits from here


@njit(cache=True)
def letter_keys() -> np.ndarray:
    """The key of every tile code 0..63 (splitmix64 from a fixed seed)."""
    keys = np.zeros(64, np.int64)
    state = U64(KEY_SEED)
    for c in range(1, 64):
        state, z = splitmix(state)
        keys[c] = np.int64(z)
    return keys


@njit(cache=True)
def word_bitmap(kwg: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """The bitmap (uint64 words) of the multiset hashes of the DAWG's words."""
    bitmap = np.zeros(BITS // 64, np.uint64)
    run = arc_of(np.int64(kwg[0]))
    if run == 0:
        return bitmap
    # a depth-first walk: the sibling being tried at each depth and the hash to it
    edge = np.zeros(64, np.int64)
    acc = np.zeros(65, np.int64)
    depth = 0
    edge[0] = run
    while depth >= 0:
        i = edge[depth]
        if i < 0:
            depth -= 1
            continue
        node = np.int64(kwg[i])
        edge[depth] = -1 if is_end(node) else i + 1
        h = acc[depth] + keys[tile_of(node)]
        if is_word(node):
            bit = h & (BITS - 1)
            bitmap[bit >> 6] |= U64(1) << U64(bit & 63)
            bit = (h >> SHIFT) & (BITS - 1)
            bitmap[bit >> 6] |= U64(1) << U64(bit & 63)
        child = arc_of(node)
        if child != 0 and depth + 1 < 64:
            depth += 1
            edge[depth] = child
            acc[depth] = h
    return bitmap
