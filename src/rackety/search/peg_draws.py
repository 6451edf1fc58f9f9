"""The draws of a pre-endgame: which of the unseen tiles the mover draws
after a candidate, which stay in the bag, and how likely each is.

The unseen tiles are a multiset (tile code -> copies). Every copy is equally
likely to be anywhere, so a draw is weighted by the number of ways to pick it
from the copies: a multiset D of k tiles by the product over its tiles of
C(copies, taken) (the weights of every D sum to C(unseen, k)), an ordered
sequence by the falling product of the copies left at each step (they sum to
unseen! / (unseen - k)!). Pure Python, for `rackety.search.preendgame`.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")


def submultisets(pool: Counter[int], k: int) -> list[tuple[tuple[int, ...], int]]:
    """Every multiset of ``k`` tiles of ``pool`` (sorted codes) with its number
    of ways, in order of the codes."""
    codes = sorted(c for c, n in pool.items() if n > 0)
    out: list[tuple[tuple[int, ...], int]] = []

    def walk(at: int, left: int, taken: list[int], ways: int) -> None:
        if left == 0:
            out.append((tuple(taken), ways))
            return
        if at == len(codes):
            return
        code = codes[at]
        for n in range(min(left, pool[code]), -1, -1):
            walk(at + 1, left - n, taken + [code] * n, ways * math.comb(pool[code], n))

    walk(0, k, [], 1)
    out.sort()
    return out


def sequences(pool: Counter[int], k: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every ordered sequence of ``k`` tiles drawn one by one from ``pool``
    (codes), with its number of ways (the falling product)."""
    if k == 0:
        yield (), 1
        return
    for code in sorted(c for c, n in pool.items() if n > 0):
        ways = pool[code]
        rest = pool - Counter({code: 1})
        for tail, more in sequences(rest, k - 1):
            yield (code,) + tail, ways * more


def count_submultisets(pool: Counter[int], k: int) -> int:
    """How many distinct multisets of ``k`` tiles ``pool`` has (without listing
    them): the coefficient of x^k in the product of (1 + x + ... + x^copies)."""
    poly = [1] + [0] * k
    for n in pool.values():
        new = [0] * (k + 1)
        for i, v in enumerate(poly):
            if v:
                for j in range(min(n, k - i) + 1):
                    new[i + j] += v
        poly = new
    return poly[k]


def sample(pool: Counter[int], k: int, n: int, seed: int) -> list[tuple[tuple[int, ...], int]]:
    """``n`` draws of ``k`` tiles at random (the first ``k`` tiles of a shuffle of
    every copy, from ``seed``), as distinct sorted multisets with how many times
    each came up: a Monte Carlo sample of the draws' distribution."""
    tiles = sorted(pool.elements())
    rng = random.Random(seed)
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(n):
        counts[tuple(sorted(rng.sample(tiles, k)))] += 1
    return sorted(counts.items())


def shuffled(items: Sequence[T], seed: int) -> list[T]:
    """``items`` in an order of ``seed`` (a copy): the order a draw's endgames
    are searched in, so that a time budget that stops early leaves every
    candidate with an unbiased part of its draws."""
    out = list(items)
    random.Random(seed).shuffle(out)
    return out


__all__ = ["count_submultisets", "sample", "sequences", "shuffled", "submultisets"]
