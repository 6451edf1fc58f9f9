"""Cross-check sets, cross-scores and the per-lane arrays the generators read.

Appel and Jacobson (section 3.1) restrict each empty square to the letters that
make a word with the tiles above and below it (the *cross-check set*), and score
that cross word from the sum of its board tiles (the *cross-sum*). Here, as in
wolges and MAGPIE (docs/FORMATS.md section 1), a cross-check set is a 64-bit mask with
bit t set when tile t may go on the square.

Arrays indexed ``[d, lane, pos]``: direction ``d`` 0 is across (lane = row,
pos = column), 1 is down (lane = column, pos = row), so a down move is an
across move on the transposed board. ``tiles`` uint8 [2, N, N]: the board,
``tiles[1]`` its transpose (0 empty, code, 0x80|code for a blank). ``cross``
int64 [X_ROWS, 2, N, N], rows named in `rackety.kernels.fields`:

- ``X_SET``: letters allowed on the square by the perpendicular word, for a
  move in direction d (all letters where there is no perpendicular neighbour);
- ``X_SCORE``: face value of the perpendicular tiles that a tile placed here
  would join (blanks 0);
- ``X_HAS``: 1 where a tile placed here forms a perpendicular word;
- ``X_LEFT`` and ``X_RIGHT``, MAGPIE's *extension sets*: on the empty square
  just before a run of tiles of the lane (in direction d), the letters that
  may precede that run in some word (``X_LEFT``: no word has another letter
  there, so the generator and its bounds refuse it without walking the
  lexicon); on the square just after one, the letters that may follow it in
  a word that begins with the run (``X_RIGHT``: what the shadow bound uses
  when a play adds no tile before the run); every letter elsewhere.

The cross sets for direction d depend on the perpendicular lanes and the
extension sets on the lane itself, so after a move only the lanes it touched
are recomputed (`update_after_move`).

``graph`` says what ``kwg`` holds (`rackety.kernels.bits`): the words in a
DAWG (`GRAPH_DAWG`), in a DAWG and a GADDAG (`GRAPH_GADDAG`), or their
alphagrams (`GRAPH_ALPHAGRAMS`, WordSmog's: a word need only be an anagram
of a word). With alphagrams a square's cross set is every letter t such that
the perpendicular tiles and t, sorted, are an alphagram, and the extension
sets allow every letter (the WordSmog generator,
`rackety.kernels.wordsmog`, reads ``X_SET``, ``X_SCORE`` and ``X_HAS``).

Nodes are read through `rackety.kernels.nodes`.
"""

from __future__ import annotations

import numpy as np

from rackety.kernels.bits import GRAPH_ALPHAGRAMS, GRAPH_GADDAG
from rackety.kernels.fields import X_HAS, X_LEFT, X_RIGHT, X_ROWS, X_SCORE, X_SET
from rackety.kernels.jit import njit
from rackety.kernels.nodes import arc_of, is_end, is_word, seek, tile_of, walk


@njit(cache=True, nogil=True)
def cross_lane(kwg: np.ndarray, graph: int, tiles: np.ndarray, g: int, lane: int,
               points: np.ndarray, full: int, cross: np.ndarray, roots: np.ndarray) -> None:
    """Cross sets, for moves in direction 1-g, of every empty square of lane
    ``lane`` of view ``g`` (the perpendicular line), written at ``[1-g, pos, lane]``;
    and, from the same walks, the lane's extension sets for moves in direction g
    along it, written at ``[g, lane, pos]``. ``roots``: `root_nodes` of the graph.

    Each run of tiles R is walked once (wolges' and MAGPIE's way): with a
    GADDAG, rev(R) from the GADDAG root. Its children are the letters that may
    precede R in a word (``X_LEFT`` of the square before R), the accepting
    ones those that make a word with it (the cross set there when no tile is
    on the other side); its separator's children the letters that may follow
    R in a word that begins with R (``X_RIGHT`` of the square after R), the
    accepting ones the cross set there. A square between two runs U and D
    allows the letters x, among both sides' candidates, for which U x D is a
    word, checked by walking the shorter run on from x. Without a GADDAG, R is
    walked in the DAWG: its children give ``X_RIGHT`` and the cross set after
    R; before R, each letter x of the DAWG root (or of U's children) is tried
    by walking R from x, and ``X_LEFT`` allows every letter. Over alphagrams
    (``graph`` `GRAPH_ALPHAGRAMS`): `_anagram_lane`."""
    if graph == GRAPH_ALPHAGRAMS:
        _anagram_lane(kwg, tiles, g, lane, points, full, cross)
        return
    line = tiles[g, lane]
    n = line.shape[0]
    d = 1 - g
    gaddag = graph == GRAPH_GADDAG
    u_start = np.int64(-1)  # the run just before the square being written (-1: none)
    u_end = np.int64(-2)
    u_arc = np.int64(0)
    u_sum = np.int64(0)
    p = 0
    while p < n:
        if line[p] == 0:
            if p + 1 < n and line[p + 1] != 0:
                pass  # written with the run that follows
            elif u_end == p - 1:
                _cross_square(kwg, gaddag, line, p, (u_start, u_arc, u_sum), NO_RUN, full,
                              cross, g, lane)
            else:
                cross[X_LEFT, g, lane, p] = full
                cross[X_RIGHT, g, lane, p] = full
                cross[X_SET, d, p, lane] = full
                cross[X_SCORE, d, p, lane] = 0
                cross[X_HAS, d, p, lane] = 0
            p += 1
            continue
        q = p  # the run [p, q]
        s = np.int64(points[line[p]])
        while q + 1 < n and line[q + 1] != 0:
            q += 1
            s += points[line[q]]
        for i in range(p, q + 1):
            cross[X_LEFT, g, lane, i] = full
            cross[X_RIGHT, g, lane, i] = full
            cross[X_SET, d, i, lane] = 0
            cross[X_SCORE, d, i, lane] = 0
            cross[X_HAS, d, i, lane] = 0
        # the run's node: rev(R) in the GADDAG, R in the DAWG
        if gaddag:
            e = roots[np.int64(line[q]) & 0x7F]
            if e >= 0 and q > p:
                e = walk(kwg, arc_of(np.int64(kwg[e])), line, q - 1, p - 1, -1)
        else:
            e = roots[np.int64(line[p]) & 0x7F]
            if e >= 0 and q > p:
                e = walk(kwg, arc_of(np.int64(kwg[e])), line, p + 1, q + 1, 1)
        arc = arc_of(np.int64(kwg[e])) if e >= 0 else np.int64(0)
        if p > 0:
            up_run = (u_start, u_arc, u_sum) if u_end == p - 2 else NO_RUN
            _cross_square(kwg, gaddag, line, p - 1, up_run, (q, arc, s), full, cross, g, lane)
        u_start = p
        u_end = q
        u_arc = arc
        u_sum = s
        p = q + 1


#: no run of tiles on that side of a square (`_cross_square`)
NO_RUN = (-1, 0, 0)


@njit(cache=True, nogil=True, inline="always")
def _cross_square(kwg, gaddag, line, b, up_run, down_run, full, cross, g, lane) -> None:
    """`cross_lane` at the empty square ``b`` between the run U = [u_start,
    b - 1] and the run D = [b + 1, d_end]: ``up_run`` = (u_start, U's child
    arc, U's face sum), ``down_run`` = (d_end, D's child arc, D's face sum)
    (the child arcs as `cross_lane` walks them), `NO_RUN` for none."""
    u_start, u_arc, u_sum = up_run
    d_end, d_arc, d_sum = down_run
    d = 1 - g
    after = full  # the letters that may follow U in a word it begins
    u_words = np.int64(0)
    u_run = np.int64(0)  # the run of those letters
    if u_start >= 0:
        if gaddag:
            if u_arc != 0 and tile_of(np.int64(kwg[u_arc])) == 0:  # the separator
                u_run = arc_of(np.int64(kwg[u_arc]))
        else:
            u_run = u_arc
        after, u_words = _children(kwg, u_run)
    before = full  # the letters that may precede D in a word
    mask = np.int64(0)
    if d_end < 0:
        mask = u_words
    elif gaddag:
        before, d_words = _children(kwg, d_arc)
        if u_start < 0:
            mask = d_words
        else:
            cand = before & after
            if cand != 0:
                # U x D, walked on from x along the shorter of U and D
                if b - u_start <= d_end - b:
                    mask = _trials(kwg, d_arc, cand, line, b - 1, u_start - 1, -1)
                else:
                    mask = _trials(kwg, u_run, cand, line, b + 1, d_end + 1, 1)
    elif u_start < 0:
        mask = _trials(kwg, arc_of(np.int64(kwg[0])), full, line, b + 1, d_end + 1, 1)
    else:
        mask = _trials(kwg, u_run, after, line, b + 1, d_end + 1, 1)
    cross[X_LEFT, g, lane, b] = before
    cross[X_RIGHT, g, lane, b] = after
    cross[X_SET, d, b, lane] = mask
    cross[X_SCORE, d, b, lane] = u_sum + d_sum
    cross[X_HAS, d, b, lane] = 1


@njit(cache=True, nogil=True)
def _children(kwg: np.ndarray, run: np.int64) -> tuple[np.int64, np.int64]:
    """The letters of a run of nodes (the separator left out), and those of
    them that end a word."""
    letters = np.int64(0)
    words = np.int64(0)
    if run == 0:
        return letters, words
    i = run
    while True:
        node = np.int64(kwg[i])
        x = tile_of(node)
        if x != 0:
            letters |= np.int64(1) << x
            if is_word(node):
                words |= np.int64(1) << x
        if is_end(node):
            break
        i += 1
    return letters, words


@njit(cache=True, nogil=True)
def _trials(kwg, run, cand, line, start, stop, step) -> np.int64:
    """The letters x of ``cand`` in the run ``run`` from which the tiles
    ``line[start], line[start + step], ...`` (to ``stop``, excluded) are
    walked to a word's end."""
    mask = np.int64(0)
    if run == 0:
        return mask
    i = run
    while True:
        node = np.int64(kwg[i])
        x = tile_of(node)
        if (cand >> x) & 1:
            last = walk(kwg, arc_of(node), line, start, stop, step)
            if last >= 0 and is_word(np.int64(kwg[last])):
                mask |= np.int64(1) << x
        if is_end(node):
            break
        i += 1
    return mask


@njit(cache=True, nogil=True)
def root_nodes(kwg: np.ndarray, graph: int) -> np.ndarray:
    """The node of each tile in the root run `cross_lane` walks runs from (the
    GADDAG's with one, else the DAWG's), -1 where there is none: int64 [64]."""
    roots = np.full(64, -1, np.int64)
    i = arc_of(np.int64(kwg[1 if graph == GRAPH_GADDAG else 0]))
    if i == 0:
        return roots
    while True:
        node = np.int64(kwg[i])
        roots[tile_of(node)] = i
        if is_end(node):
            break
        i += 1
    return roots


@njit(cache=True, nogil=True, inline="always")
def _run_around(line, p):
    """The first and last square of the run of tiles through the empty square
    ``p`` of ``line`` (``p`` itself at both ends when no tile touches it)."""
    up = p
    while up > 0 and line[up - 1] != 0:
        up -= 1
    down = p
    while down < line.shape[0] - 1 and line[down + 1] != 0:
        down += 1
    return up, down


@njit(cache=True, nogil=True)
def _anagram_lane(kwg, tiles, g, lane, points, full, cross) -> None:
    """`cross_lane` over alphagrams (WordSmog's): a square's cross set is
    `_anagram_letters` of its perpendicular tiles, and both extension sets
    allow every letter."""
    line = tiles[g, lane]
    n = line.shape[0]
    d = 1 - g
    for p in range(n):
        cross[X_LEFT, g, lane, p] = full
        cross[X_RIGHT, g, lane, p] = full
        cross[X_SET, d, p, lane] = 0
        cross[X_SCORE, d, p, lane] = 0
        cross[X_HAS, d, p, lane] = 0
        if line[p] != 0:
            continue
        up, down = _run_around(line, p)
        if up == p and down == p:
            cross[X_SET, d, p, lane] = full
            continue
        s = 0
        for i in range(up, down + 1):
            if i != p:
                s += points[line[i]]
        cross[X_SET, d, p, lane] = _anagram_letters(kwg, line, up, down, p, full)
        cross[X_SCORE, d, p, lane] = s
        cross[X_HAS, d, p, lane] = 1


@njit(cache=True, nogil=True, inline="always")
def _next_tile(line, up, down, p, code, at):
    """The tile of ``line[up:down + 1]`` but square ``p`` that comes after
    (``code``, square ``at``) in the order by code (blank flags dropped), then
    by square: (its code, its square), or (64, 0) after the last."""
    best = np.int64(64)
    where = np.int64(0)
    for i in range(up, down + 1):
        if i == p:
            continue
        c = np.int64(line[i]) & 0x7F
        if (c > code or (c == code and i > at)) and (c < best or (c == best and i < where)):
            best = c
            where = np.int64(i)
    return best, where


@njit(cache=True, nogil=True)
def _rest_is_alphagram(kwg, node, line, up, down, p, code, at) -> bool:
    """Whether the tiles after (``code``, ``at``) (`_next_tile`'s order), read
    from ``node`` on, end on an alphagram."""
    while True:
        code, at = _next_tile(line, up, down, p, code, at)
        if code == 64:
            return is_word(node)
        i = seek(kwg, arc_of(node), code)
        if i < 0:
            return False
        node = np.int64(kwg[i])


@njit(cache=True, nogil=True)
def _anagram_letters(kwg, line, up, down, p, full) -> np.int64:
    """The letters t of ``full`` such that the tiles of ``line[up:down + 1]``
    but square ``p``, and t, are an anagram of a word: sorted, an alphagram
    of the DAWG ``kwg``. The tiles are read in code order (`_next_tile`: no
    buffer), and each t is tried where it goes in that order, from the node
    the tiles before it lead to."""
    mask = np.int64(0)
    run = arc_of(np.int64(kwg[0]))
    code = np.int64(-1)  # the last tile read (none yet)
    at = np.int64(-1)
    while run != 0:
        after, where = _next_tile(line, up, down, p, code, at)
        i = run
        while True:  # t with code <= t < after goes here
            node = np.int64(kwg[i])
            t = tile_of(node)
            if t >= after:
                break
            if t >= code and (full >> t) & 1 and \
                    _rest_is_alphagram(kwg, node, line, up, down, p, code, at):
                mask |= np.int64(1) << t
            if is_end(node):
                break
            i += 1
        if after == 64:
            break
        i = seek(kwg, run, after)
        if i < 0:
            break
        run = arc_of(np.int64(kwg[i]))
        code = after
        at = where
    return mask


@njit(cache=True, nogil=True)
def cross_all(kwg: np.ndarray, graph: int, tiles: np.ndarray, points: np.ndarray,
              full: int, cross: np.ndarray) -> None:
    """Every cross set of the board, from scratch."""
    n = tiles.shape[1]
    roots = root_nodes(kwg, graph)
    for g in range(2):
        for lane in range(n):
            cross_lane(kwg, graph, tiles, g, lane, points, full, cross, roots)


@njit(cache=True, nogil=True)
def of_grid(kwg: np.ndarray, graph: int, grid: np.ndarray, points: np.ndarray, full: int
            ) -> tuple[np.ndarray, np.ndarray]:
    """A board (``grid``, one orientation) in both orientations and every cross
    set of it: (tiles [2, n, n], cross [X_ROWS, 2, n, n])."""
    n = grid.shape[0]
    tiles = np.empty((2, n, n), np.uint8)
    for r in range(n):
        for c in range(n):
            tiles[0, r, c] = grid[r, c]
            tiles[1, c, r] = grid[r, c]
    cross = np.empty((X_ROWS, 2, n, n), np.int64)
    cross_all(kwg, graph, tiles, points, full, cross)
    return tiles, cross


@njit(cache=True, nogil=True)
def update_after_move(kwg: np.ndarray, graph: int, tiles: np.ndarray, d: int, lane: int,
                      first: int, last: int, points: np.ndarray, full: int,
                      cross: np.ndarray, roots: np.ndarray) -> None:
    """Recompute only what a move in direction ``d`` on ``lane`` over positions
    ``first..last`` can change (``tiles`` already holds the move): the cross sets
    of direction 1-d come from its own lane, those of direction d from the
    perpendicular lanes it crossed (and the extension sets likewise: of its own
    lane for direction d, of the lanes it crossed for direction 1-d).
    ``roots``: `root_nodes` of the graph, made once by the caller (the endgame
    updates once a node, and allocates nothing there)."""
    cross_lane(kwg, graph, tiles, d, lane, points, full, cross, roots)
    for p in range(first, last + 1):
        cross_lane(kwg, graph, tiles, 1 - d, p, points, full, cross, roots)
