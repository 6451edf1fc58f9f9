"""The rules in the kernels: the bag's shuffle and draws, playing a move into
the board arrays and the racks, and the end of the game. The compiled
self-play, the simulation's rollouts, leave training and the referee
(`rackety.game.referee.Game`, for its shuffle) all play by these functions.

A rack is ``rack[:n]`` (int64 codes, 0 the blank) in the order drawn; the bag
is ``bag[:bag_n]``, drawn from the end. The shuffle is splitmix64 (Steele, Lea
and Flood 2014) driving Fisher-Yates: the same seed, the same game, whichever
caller shuffles.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from rackety.kernels.crosssets import update_after_move
from rackety.kernels.fields import (
    G_FULL_MASK,
    G_RACK_SIZE,
    M_DIR,
    M_FIRST,
    M_LANE,
    M_LEN,
    M_THROUGH,
)

U64 = np.uint64
GOLDEN = 0x9E3779B97F4A7C15


@njit(cache=True, nogil=True)
def splitmix(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """One step of splitmix64: the next state and a 64-bit output."""
    state = state + U64(GOLDEN)
    z = state
    z = (z ^ (z >> U64(30))) * U64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> U64(27))) * U64(0x94D049BB133111EB)
    return state, z ^ (z >> U64(31))


@njit(cache=True, nogil=True)
def shuffle(items: np.ndarray, n: int, state: np.uint64) -> np.uint64:
    """Fisher-Yates shuffle of ``items[:n]`` in place from ``state``; the new state."""
    for i in range(n - 1, 0, -1):
        state, z = splitmix(state)
        j = np.int64(z % U64(i + 1))
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp
    return state


@njit(cache=True, nogil=True)
def remove_first(rack: np.ndarray, n: int, tile: int) -> int:
    """Remove the first copy of ``tile`` from ``rack[:n]`` (as `list.remove`);
    the new length (``n`` when the rack has no such tile)."""
    for i in range(n):
        if rack[i] == tile:
            for j in range(i, n - 1):
                rack[j] = rack[j + 1]
            return n - 1
    return n


@njit(cache=True, nogil=True)
def draw(rack: np.ndarray, rn: int, bag: np.ndarray, bag_n: int, rack_size: int
         ) -> tuple[int, int]:
    """Fill the rack from the end of the bag; (tiles on the rack, in the bag)."""
    while rn < rack_size and bag_n > 0:
        bag_n -= 1
        rack[rn] = bag[bag_n]
        rn += 1
    return rn, bag_n


@njit(cache=True, nogil=True)
def play(kwg, gaddag, rules, points, tiles, cross, meta, otiles, chosen, rack, rn, bag,
         bag_n, update) -> tuple[int, int]:
    """Put placement ``chosen`` (a row of the generator's ``meta``/``otiles``) on
    the board (both orientations; the cross sets of the lanes it touched
    recomputed unless ``update`` is false), take its tiles off the rack and
    draw. Returns (tiles on the rack, tiles in the bag)."""
    d = meta[chosen, M_DIR]
    lane = meta[chosen, M_LANE]
    first = meta[chosen, M_FIRST]
    length = meta[chosen, M_LEN]
    through = meta[chosen, M_THROUGH]
    for j in range(length):
        code = otiles[chosen, j]
        if not (through >> j) & 1:
            tiles[d, lane, first + j] = code
            tiles[1 - d, first + j, lane] = code
            rn = remove_first(rack, rn, 0 if code & 0x80 else np.int64(code))
    if update:
        update_after_move(kwg, gaddag, tiles, d, lane, first, first + length - 1, points,
                          rules[G_FULL_MASK], cross[0], cross[1], cross[2])
    return draw(rack, rn, bag, bag_n, rules[G_RACK_SIZE])


@njit(cache=True, nogil=True)
def exchange(traded, m, rack, rn, bag, bag_n, rack_size, state) -> tuple[int, int, np.uint64]:
    """Trade ``traded[:m]``: draw first, then the tiles go back and the bag is
    shuffled. Returns (tiles on the rack, in the bag, shuffle state)."""
    for i in range(m):
        rn = remove_first(rack, rn, traded[i])
    rn, bag_n = draw(rack, rn, bag, bag_n, rack_size)
    for i in range(m):
        bag[bag_n] = traded[i]
        bag_n += 1
    state = shuffle(bag, bag_n, state)
    return rn, bag_n, state


@njit(cache=True, nogil=True)
def rack_value(rack, rn, points) -> int:
    """Face value of ``rack[:rn]`` (blanks 0): what a rack counts at the end."""
    value = 0
    for i in range(rn):
        value += points[rack[i]]
    return value


@njit(cache=True, nogil=True)
def going_out(racks, rack_n, seat, points) -> int:
    """Face value of the racks of every player but ``seat`` (who played out)."""
    left = 0
    for other in range(rack_n.shape[0]):
        if other != seat:
            left += rack_value(racks[other], rack_n[other], points)
    return left
