"""Cross-check sets, cross-scores and the per-lane arrays the generators read.

Appel and Jacobson (section 3.1) restrict each empty square to the letters that
make a word with the tiles above and below it (the *cross-check set*), and score
that cross word from the sum of its board tiles (the *cross-sum*). Here, as in
wolges and MAGPIE (FORMATS.md section 1), a cross-check set is a 64-bit mask with
bit t set when tile t may go on the square.

Arrays, all ``[2, N, N]`` and indexed ``[d, lane, pos]``: direction ``d`` 0 is
across (lane = row, pos = column), 1 is down (lane = column, pos = row), so a
down move is an across move on the transposed board:

- ``tiles`` uint8: the board, ``tiles[1]`` its transpose (0 empty, code, 0x80|code
  for a blank);
- ``xset`` int64: letters allowed on the square by the perpendicular word, for a
  move in direction d (all letters where there is no perpendicular neighbour);
- ``xscore`` int64: face value of the perpendicular tiles that a tile placed here
  would join (blanks 0);
- ``xhas`` int64: 1 where a tile placed here forms a perpendicular word.

The cross sets for direction d depend on the perpendicular lanes, so after a
move only the lanes it touched are recomputed (`update_after_move`).

Nodes are read through `rackety.kernels.nodes`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from rackety.kernels.nodes import ACCEPTS, ARC, IS_END, walk


@njit(cache=True, nogil=True)
def cross_lane(kwg: np.ndarray, gaddag: bool, tiles: np.ndarray, g: int, lane: int,
               points: np.ndarray, full: int, xset: np.ndarray, xscore: np.ndarray,
               xhas: np.ndarray) -> None:
    """Cross sets, for moves in direction 1-g, of every empty square of lane
    ``lane`` of view ``g`` (the perpendicular line), written at ``[1-g, pos, lane]``.

    Tiles on both sides (U above, D below): with a GADDAG, walk rev(D) from the
    GADDAG root; the children x whose edge continues with rev(U) to an accepting
    edge spell rev(U x D), a whole word (Gordon's k = n string, no separator).
    Without one, walk U in the DAWG and for each child x walk D."""
    line = tiles[g, lane]
    n = line.shape[0]
    d = 1 - g
    droot = np.int64(kwg[0]) & ARC
    groot = np.int64(kwg[1]) & ARC if gaddag else 0
    for p in range(n):
        if line[p] != 0:
            xset[d, p, lane] = 0
            xscore[d, p, lane] = 0
            xhas[d, p, lane] = 0
            continue
        up = p
        while up > 0 and line[up - 1] != 0:
            up -= 1
        down = p
        while down < n - 1 and line[down + 1] != 0:
            down += 1
        if up == p and down == p:
            xset[d, p, lane] = full
            xscore[d, p, lane] = 0
            xhas[d, p, lane] = 0
            continue
        s = 0
        for i in range(up, p):
            s += points[line[i]]
        for i in range(p + 1, down + 1):
            s += points[line[i]]
        mask = np.int64(0)
        if gaddag and down > p:
            e = walk(kwg, groot, line, down, p, -1)
            arc = np.int64(kwg[e]) & ARC if e >= 0 else 0
            if arc != 0:
                i = arc
                while True:
                    node = np.int64(kwg[i])
                    x = node >> 24
                    if x != 0:
                        if up == p:
                            if node & ACCEPTS:
                                mask |= np.int64(1) << x
                        else:
                            last = walk(kwg, node & ARC, line, p - 1, up - 1, -1)
                            if last >= 0 and np.int64(kwg[last]) & ACCEPTS:
                                mask |= np.int64(1) << x
                    if node & IS_END:
                        break
                    i += 1
        else:
            if up < p:
                e = walk(kwg, droot, line, up, p, 1)
                arc = np.int64(kwg[e]) & ARC if e >= 0 else 0
            else:
                arc = droot
            if arc != 0:
                i = arc
                while True:
                    node = np.int64(kwg[i])
                    x = node >> 24
                    if down == p:
                        if node & ACCEPTS:
                            mask |= np.int64(1) << x
                    else:
                        last = walk(kwg, node & ARC, line, p + 1, down + 1, 1)
                        if last >= 0 and np.int64(kwg[last]) & ACCEPTS:
                            mask |= np.int64(1) << x
                    if node & IS_END:
                        break
                    i += 1
        xset[d, p, lane] = mask
        xscore[d, p, lane] = s
        xhas[d, p, lane] = 1


@njit(cache=True, nogil=True)
def cross_all(kwg: np.ndarray, gaddag: bool, tiles: np.ndarray, points: np.ndarray,
              full: int, xset: np.ndarray, xscore: np.ndarray, xhas: np.ndarray) -> None:
    """Every cross set of the board, from scratch."""
    n = tiles.shape[1]
    for g in range(2):
        for lane in range(n):
            cross_lane(kwg, gaddag, tiles, g, lane, points, full, xset, xscore, xhas)


@njit(cache=True, nogil=True)
def of_grid(kwg: np.ndarray, gaddag: bool, grid: np.ndarray, points: np.ndarray, full: int
            ) -> tuple[np.ndarray, np.ndarray]:
    """A board (``grid``, one orientation) in both orientations and every cross
    set of it: (tiles [2, n, n], cross [3, 2, n, n])."""
    n = grid.shape[0]
    tiles = np.empty((2, n, n), np.uint8)
    for r in range(n):
        for c in range(n):
            tiles[0, r, c] = grid[r, c]
            tiles[1, c, r] = grid[r, c]
    cross = np.empty((3, 2, n, n), np.int64)
    cross_all(kwg, gaddag, tiles, points, full, cross[0], cross[1], cross[2])
    return tiles, cross


@njit(cache=True, nogil=True)
def update_after_move(kwg: np.ndarray, gaddag: bool, tiles: np.ndarray, d: int, lane: int,
                      first: int, last: int, points: np.ndarray, full: int,
                      xset: np.ndarray, xscore: np.ndarray, xhas: np.ndarray) -> None:
    """Recompute only what a move in direction ``d`` on ``lane`` over positions
    ``first..last`` can change (``tiles`` already holds the move): the cross sets
    of direction 1-d come from its own lane, those of direction d from the
    perpendicular lanes it crossed."""
    cross_lane(kwg, gaddag, tiles, d, lane, points, full, xset, xscore, xhas)
    for p in range(first, last + 1):
        cross_lane(kwg, gaddag, tiles, 1 - d, p, points, full, xset, xscore, xhas)
