"""The independent checker of games, the way perft checks a chess move
generator: a plain scorer (main word and cross words scanned on the board,
not the generator's running sums or the cross sets), its own lexicon
look-ups and the rules' counts, saying what does not hold. A verification
tool: nothing plays by it. `check_play` checks one placement; `check_game`
replays the events of a compiled game (`rackety.kernels.selfplay.play_game`)
with it, and the referee's games (`rackety.game.referee.Game.problems`) are
checked with it too."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rackety.kernels.fields import M_DIR, M_FIRST, M_LANE, M_LEN, M_THROUGH
from rackety.kernels.jit import njit
from rackety.kernels.nodes import DAWG_ROOT, accepts, arc_of, root, seek
from rackety.kernels.rules import U64, remove_first, shuffle
from rackety.kernels.selfplay import EV_END_PENALTY, EV_END_POINTS, EV_EXCHANGE, EV_PLAY

CHECKS = {1: "a tile placed off the board, on a tile, or over the wrong board tile",
          2: "tiles not on the rack", 3: "not connected to the board (or the first play "
          "misses the start square)", 4: "scored differently by the plain scorer",
          5: "a word not in the lexicon", 6: "an exchange the bag does not allow",
          7: "end-of-game points that do not add up", 8: "tiles not conserved",
          9: "the main word runs on past the tiles written"}


class Setting(NamedTuple):
    """What the checker knows of a game, apart from the lexicon: the layout's
    letter and word multipliers (int64 [n, n]), the points of every code, the
    start square, the rack size, the bingo bonus, the tiles the bag needs for
    an exchange, whether going out scores the other racks twice, the tile
    distribution (copies per code), the number of players, and whether a
    word need only be an anagram of a word (WordSmog: the lexicon ``kwg`` is
    then its alphagrams, `rackety.lexicon.Lexicon.alphagrams`)."""

    lm: np.ndarray
    wm: np.ndarray
    points: np.ndarray
    start_row: int
    start_col: int
    rack_size: int
    bingo: int
    exchange_min: int
    twice: bool
    distribution: np.ndarray
    n_players: int
    anagrams: bool = False


@njit(cache=True, nogil=True)
def _in_lexicon(kwg, grid, r, c, dr, dc, length, anagrams):
    """Whether the ``length`` tiles from (r, c) in direction (dr, dc) spell a
    word (with ``anagrams``: whether, sorted, they are an alphagram of ``kwg``)."""
    run = root(kwg, DAWG_ROOT)
    node = np.int64(-1)
    if anagrams:
        codes = np.empty(length, np.int64)
        for i in range(length):
            codes[i] = np.int64(grid[r + i * dr, c + i * dc]) & 0x7F
        codes.sort()
        for i in range(length):
            node = seek(kwg, run, codes[i])
            if node < 0:
                return False
            run = arc_of(np.int64(kwg[node]))
        return accepts(kwg, node)
    for i in range(length):
        node = seek(kwg, run, np.int64(grid[r + i * dr, c + i * dc]) & 0x7F)
        if node < 0:
            return False
        run = arc_of(np.int64(kwg[node]))
    return accepts(kwg, node)


@njit(cache=True, nogil=True)
def check_play(kwg, grid, setting, empty, meta, word, e) -> tuple[int, int, bool]:
    """Placement ``e`` (a row of ``meta`` and ``word``, the generator's columns)
    on ``grid``: (0, its score by the plain scorer, whether every word it
    forms is in the lexicon) with its tiles now on ``grid``; or (a check code
    of `CHECKS`: 1, 3 or 9, 0, False) with ``grid`` unchanged. ``setting``: a
    `Setting`."""
    lm, wm, points = setting.lm, setting.wm, setting.points
    start_row, start_col, rack_size, bingo = setting.start_row, setting.start_col, \
        setting.rack_size, setting.bingo
    n = lm.shape[0]
    length = meta[e, M_LEN]
    d = meta[e, M_DIR]
    lane = meta[e, M_LANE]
    first = meta[e, M_FIRST]
    through = meta[e, M_THROUGH]
    dr, dc = (1, 0) if d == 1 else (0, 1)
    r0, c0 = (first, lane) if d == 1 else (lane, first)
    if length < 1 or r0 < 0 or c0 < 0 or r0 + dr * (length - 1) >= n or \
            c0 + dc * (length - 1) >= n:
        return 1, 0, False
    if (r0 - dr >= 0 and c0 - dc >= 0 and grid[r0 - dr, c0 - dc] != 0) or (
            r0 + dr * length < n and c0 + dc * length < n and
            grid[r0 + dr * length, c0 + dc * length] != 0):
        return 9, 0, False
    placed = 0
    touches = False
    covers_start = False
    for j in range(length):
        r, c = r0 + dr * j, c0 + dc * j
        code = np.int64(word[e, j])
        if (through >> j) & 1:
            if grid[r, c] == 0 or (np.int64(grid[r, c]) & 0x7F) != (code & 0x7F):
                return 1, 0, False
            touches = True
            continue
        if grid[r, c] != 0:
            return 1, 0, False
        placed += 1
        if r == start_row and c == start_col:
            covers_start = True
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < n and 0 <= cc < n and grid[rr, cc] != 0:
                touches = True
    if placed == 0 or (empty and not covers_start) or (not empty and not touches):
        return 3, 0, False
    # place, then score every word through a new tile by scanning the board
    for j in range(length):
        if not (through >> j) & 1:
            grid[r0 + dr * j, c0 + dc * j] = word[e, j]
    words = True
    total = 0
    main = 0
    word_mult = 1
    for j in range(length):
        r, c = r0 + dr * j, c0 + dc * j
        value = points[grid[r, c]]
        if (through >> j) & 1:
            main += value
        else:
            main += value * lm[r, c]
            word_mult *= wm[r, c]
            # the cross word through (r, c)
            pr, pc = dc, dr
            a = 0
            while r - (a + 1) * pr >= 0 and c - (a + 1) * pc >= 0 and \
                    grid[r - (a + 1) * pr, c - (a + 1) * pc] != 0:
                a += 1
            b = 0
            while r + (b + 1) * pr < n and c + (b + 1) * pc < n and \
                    grid[r + (b + 1) * pr, c + (b + 1) * pc] != 0:
                b += 1
            if a + b > 0:
                cross = 0
                for k in range(-a, b + 1):
                    rr, cc = r + k * pr, c + k * pc
                    cross += value * lm[r, c] if k == 0 else points[grid[rr, cc]]
                total += cross * wm[r, c]
                if not _in_lexicon(kwg, grid, r - a * pr, c - a * pc, pr, pc, a + b + 1,
                                   setting.anagrams):
                    words = False
    if length >= 2:
        total += main * word_mult
        if not _in_lexicon(kwg, grid, r0, c0, dr, dc, length, setting.anagrams):
            words = False
    if placed == rack_size:
        total += bingo
    return 0, total, words


@njit(cache=True, nogil=True)
def check_game(kwg, setting, bag0, rng_state, events, n_events) -> tuple[int, int]:
    """Replay a game of `play_game` independently of the generator: every play on
    the board, from the rack, connected, every word it forms in the lexicon and its
    score by the plain scorer (`check_play`); the exchanges and the end of the game
    by the rules; the tiles conserved. Returns (0, -1) when all holds, else (check
    code (`CHECKS`), event index). ``setting``: a `Setting`; ``events``: a
    `rackety.kernels.fields.Events`."""
    lm, points, rack_size = setting.lm, setting.points, setting.rack_size
    exchange_min, twice, distribution, n_players = setting.exchange_min, setting.twice, \
        setting.distribution, setting.n_players
    ev_seat, ev_kind, ev_score, ev_meta, ev_tiles = events.seat, events.kind, events.score, \
        events.meta, events.tiles
    n = lm.shape[0]
    grid = np.zeros((n, n), np.uint8)
    bag = bag0.copy()
    bag_n = bag.shape[0]
    racks = np.zeros((n_players, 64), np.int64)
    rack_n = np.zeros(n_players, np.int64)
    state = U64(rng_state)
    for seat in range(n_players):
        while rack_n[seat] < rack_size and bag_n > 0:
            bag_n -= 1
            racks[seat, rack_n[seat]] = bag[bag_n]
            rack_n[seat] += 1
    empty = True
    for e in range(n_events):
        seat = ev_seat[e]
        kind = ev_kind[e]
        length = ev_meta[e, M_LEN]
        if kind == EV_PLAY:
            code, score, words = check_play(kwg, grid, setting, empty, ev_meta, ev_tiles, e)
            if code != 0:
                return code, e
            through = ev_meta[e, M_THROUGH]
            for j in range(length):
                if not (through >> j) & 1:
                    code = ev_tiles[e, j]
                    left = remove_first(racks[seat], rack_n[seat], 0 if code & 0x80 else code)
                    if left == rack_n[seat]:
                        return 2, e
                    rack_n[seat] = left
            if not words:
                return 5, e
            if score != ev_score[e]:
                return 4, e
            empty = False
            while rack_n[seat] < rack_size and bag_n > 0:
                bag_n -= 1
                racks[seat, rack_n[seat]] = bag[bag_n]
                rack_n[seat] += 1
        elif kind == EV_EXCHANGE:
            if bag_n < exchange_min or bag_n < length or ev_score[e] != 0:
                return 6, e
            for j in range(length):
                tile = ev_tiles[e, j]
                left = remove_first(racks[seat], rack_n[seat], tile)
                if left == rack_n[seat]:
                    return 2, e
                rack_n[seat] = left
            while rack_n[seat] < rack_size and bag_n > 0:
                bag_n -= 1
                racks[seat, rack_n[seat]] = bag[bag_n]
                rack_n[seat] += 1
            for j in range(length):
                bag[bag_n] = ev_tiles[e, j]
                bag_n += 1
            state = shuffle(bag, bag_n, state)
        elif kind == EV_END_POINTS:
            if rack_n[seat] != 0 or bag_n != 0:
                return 7, e
            left = 0
            for other in range(n_players):
                if other != seat:
                    for i in range(rack_n[other]):
                        left += points[racks[other, i]]
            if ev_score[e] != (2 * left if twice else left):
                return 7, e
        elif kind == EV_END_PENALTY:
            value = 0
            for i in range(rack_n[seat]):
                value += points[racks[seat, i]]
            if ev_score[e] != -value:
                return 7, e
    held = np.zeros(64, np.int64)
    for r in range(n):
        for c in range(n):
            t = np.int64(grid[r, c])
            if t != 0:
                held[0 if t & 0x80 else t] += 1
    for seat in range(n_players):
        for i in range(rack_n[seat]):
            held[racks[seat, i]] += 1
    for i in range(bag_n):
        held[bag[i]] += 1
    for t in range(64):
        if held[t] != distribution[t]:
            return 8, n_events - 1
    return 0, -1
