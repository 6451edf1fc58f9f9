"""The words of a lexicon as letter multisets: each word's letters hashed
order-free (the sum of a fixed 64-bit key per letter, wrapping), sorted. A
rack and some board tiles can spell a word only if the sum of their keys is
among them; the generator's shadow bounds use this to refuse plays of the
whole rack that spell nothing (a false match only keeps a bound loose)."""

from __future__ import annotations

import numpy as np
from numba import njit

from rackety.kernels.nodes import ACCEPTS, ARC, IS_END
from rackety.kernels.rules import U64, splitmix

KEY_SEED = 0x6D756C7469736574  # "multiset"


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
def word_hashes(kwg: np.ndarray, keys: np.ndarray, words: int) -> np.ndarray:
    """The sorted distinct multiset hashes of the DAWG's ``words`` words."""
    out = np.empty(max(words, 1), np.int64)
    count = 0
    run = np.int64(kwg[0]) & ARC
    if run == 0:
        return out[:0]
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
        edge[depth] = -1 if node & IS_END else i + 1
        h = acc[depth] + keys[node >> 24]
        if node & ACCEPTS and count < out.shape[0]:
            out[count] = h
            count += 1
        child = node & ARC
        if child != 0 and depth + 1 < 64:
            depth += 1
            edge[depth] = child
            acc[depth] = h
    result = np.sort(out[:count])
    keep = 0
    for i in range(count):
        if i == 0 or result[i] != result[i - 1]:
            result[keep] = result[i]
            keep += 1
    return result[:keep].copy()
