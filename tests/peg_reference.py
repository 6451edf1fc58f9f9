"""A plain expectimax-over-minimax for pre-endgames, for testing
`rackety.search.preendgame` on tiny positions (tests/endgame_reference.py's
alphabet, layout and words: racks of three).

It knows the rules and nothing of the solver: for a candidate, every ordered
way the unseen tiles can lie (the bag's tiles in the order they are drawn, the
opponent holding the rest), each weighted by the number of ways the tiles'
copies give it; in each, the candidate is played, the mover draws, and the rest
of the game is a plain minimax with full information over every placement
(`Board.moves`) and the pass: a placement draws from the end of the bag, one
that empties the rack with the bag empty ends the game and gains twice the
opponent's rack, and six scoreless turns in a row end it with each player
losing their own rack (the referee's rules, not the solvers' two-pass
shortcut). No pruning, a dictionary of positions already valued.

A position is held as plain values: its tiles (``grid.tobytes()``), the two
racks as sorted tuples of codes (the mover's first), the bag and the count of
scoreless turns. A placement resets that count, so what a player's best
placement is worth does not depend on it: it is valued once per tiles, racks
and bag, and the passes around it (at most six in a row) are a little
arithmetic on the two players' best placements. The placements of a rack on
some tiles are made once (`Placements`), each kept as its score, the tiles
after it and the rack left: found among those of the pool of every tile off
the board (both racks and the bag, of which any rack on these tiles is a
part), which `Board.moves` generates once per tiles.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache
from typing import Any

import numpy as np
from endgame_reference import LETTERS, tiny_alphabet

from rackety import Board, Lexicon, Move
from rackety.alphabet import BLANK_FLAG

MAX_SCORELESS = 6
#: a rack or a bag: tile codes (0 = a blank), racks sorted
Rack = tuple[int, ...]
#: a placement as the search holds it: its score, the tiles after it
#: (``grid.tobytes()``) and the rack left (sorted)
Placement = tuple[int, bytes, Rack]


def with_unseen(board: Board, unseen: tuple[int, ...]) -> Board:
    """The same position in an alphabet whose tiles are exactly those on the
    board, the racks and ``unseen`` (codes of ``board``'s alphabet), so that
    ``unseen`` is what the mover does not see."""
    alphabet = board.alphabet
    counts: dict[str, int] = {c: 0 for c in LETTERS}
    blanks = 0
    codes = [int(x) for x in board.grid.ravel() if x] + [c for r in board.racks for c in r]
    for code in codes + list(unseen):
        if code == 0 or code & 0x80:
            blanks += 1
        else:
            counts[alphabet.tiles[code].label] += 1
    return Board.from_cgp(board.cgp(), alphabet=tiny_alphabet(counts, blanks),
                          layout=board.layout)


def _draw(rack: Rack, bag: Rack, size: int) -> tuple[Rack, Rack]:
    """Fill ``rack`` up to ``size`` from the end of ``bag``: (rack, bag), the
    rack sorted (when it draws nothing: as it was)."""
    n = min(len(bag), max(0, size - len(rack)))
    if n == 0:
        return rack, bag
    return tuple(sorted(rack + bag[len(bag) - n:])), bag[:len(bag) - n]


def value(board: Board, lexicon: Lexicon, bag: tuple[int, ...], zero: int,
          memo: dict[Any, Any], passes: bool = True) -> int:
    """The change in spread to the end of the game for the player to move on
    ``board`` (both racks known), ``bag`` drawn from the end, after ``zero``
    scoreless turns in a row, under best play by both with full information
    (``passes`` False: this player may not pass now, if it has a placement).
    ``memo`` is shared by calls on positions of one game (alphabet, layout,
    rules): what was valued or generated once is kept there."""
    mine, theirs = board.racks
    return _Search(board, lexicon, memo).value(
        board.grid.tobytes(), tuple(sorted(mine)), tuple(sorted(theirs)), tuple(bag), zero,
        passes)


class _Search:
    """`value` on a position held as plain values (tiles as bytes, sorted
    racks, the bag); ``board`` lends only its alphabet, layout and rules to
    `Board.moves`, ``memo`` keeps the placements, the best placements and
    the values (with passes) made."""

    def __init__(self, board: Board, lexicon: Lexicon, memo: dict[Any, Any]) -> None:
        if "placements" not in memo:
            memo["placements"] = Placements(board, lexicon)
        self.placements: Placements = memo["placements"]
        self.best: dict[tuple[bytes, Rack, Rack, Rack], int | None] = \
            memo.setdefault("best placements", {})
        self.valued: dict[tuple[bytes, Rack, Rack, Rack, int], int] = \
            memo.setdefault("values", {})
        self.size = board.alphabet.rack_size
        self.points = [tile.points for tile in board.alphabet.tiles]

    def face(self, rack: Rack) -> int:
        """The face value of ``rack`` (a blank is worth nothing)."""
        return sum(self.points[c] for c in rack if c)

    def value(self, grid: bytes, mine: Rack, theirs: Rack, bag: Rack, zero: int,
              passes: bool = True) -> int:
        """`value` of the position: the better of the best placement and the
        pass (``passes``, or no placement), which hands the same position to
        the opponent with one more scoreless turn, or ends the game at
        `MAX_SCORELESS` of them, each player losing their own rack."""
        key = (grid, mine, theirs, bag, zero)
        if passes and key in self.valued:
            return self.valued[key]
        placing = self.best_placement(grid, mine, theirs, bag)
        if placing is not None and not passes:
            return placing
        if zero + 1 >= MAX_SCORELESS:
            passing = self.face(theirs) - self.face(mine)
        else:
            passing = -self.value(grid, theirs, mine, bag, zero + 1)
        self.valued[key] = passing if placing is None else max(placing, passing)
        return self.valued[key]

    def best_placement(self, grid: bytes, mine: Rack, theirs: Rack, bag: Rack) -> int | None:
        """The most a placement of ``mine`` is worth (None without one): its
        score, and then, the rack filled from the bag, twice the opponent's
        rack if it went out with the bag empty, else less the opponent's value
        (no scoreless turn before it)."""
        key = (grid, mine, theirs, bag)
        if key in self.best:
            return self.best[key]
        best = None
        # any rack on these tiles is part of those off them: one pool serves all
        for score, after, left in self.placements(grid, mine, mine + theirs + bag):
            rack, rest = _draw(left, bag, self.size)
            if not rack and not rest:
                worth = score + 2 * self.face(theirs)
            else:
                worth = score - self.value(after, theirs, rack, rest, 0)
            if best is None or worth > best:
                best = worth
        self.best[key] = best
        return best


class Placements:
    """Every placement of a rack on some tiles, as `Placement` values, made once
    per tiles and rack.

    They are found among the placements (`Board.moves`, no exchange, on
    ``board``'s alphabet, layout and rules) of a pool of tiles that holds the
    rack, generated once per tiles and pool: those that take only tiles the
    rack holds. What a placement is (squares, tiles, score) does not depend
    on the tiles left beside it, the bonus for a whole rack being for placing
    the alphabet's rack size; so one pool (every tile off the board) serves
    every rack a player can hold on these tiles. Each score is checked
    against `Board.score`, each placed tile to be in the pool and its square
    empty."""

    def __init__(self, board: Board, lexicon: Lexicon) -> None:
        self.board = board.copy()
        self.lexicon = lexicon
        self.size = board.alphabet.rack_size
        self.made: dict[tuple[bytes, Rack], list[Placement]] = {}
        self.pools: dict[tuple[bytes, Rack], dict[Rack, list[tuple[int, bytes]]]] = {}

    def __call__(self, grid: bytes, rack: Rack, pool: Rack) -> list[Placement]:
        """The placements of ``rack`` (sorted) on ``grid``, found among those
        of ``pool`` (in any order), which holds it."""
        made = self.made.get((grid, rack))
        if made is None:
            assert len(rack) <= self.size  # of_pool keeps no placement of more tiles
            by_tiles = self.of_pool(grid, tuple(sorted(pool)))
            made = []
            for taken in sub_racks(rack):
                left = list(rack)
                for code in taken:
                    left.remove(code)
                made += [(score, after, tuple(left)) for score, after in by_tiles.get(taken, ())]
            self.made[(grid, rack)] = made
        return made

    def of_pool(self, grid: bytes, pool: Rack) -> dict[Rack, list[tuple[int, bytes]]]:
        """The placements of ``pool`` (sorted) on ``grid`` of no more than a
        rack of tiles, by the tiles each takes (sorted, a blank as 0): its
        score and the tiles after it."""
        made = self.pools.get((grid, pool))
        if made is None:
            made = self.pools[(grid, pool)] = {}
            board = self.board.copy(racks=[pool, ()])
            side = board.layout.size
            board.grid = np.frombuffer(grid, np.uint8).reshape(side, side).copy()
            for move in board.moves(self.lexicon, exchanges=False).placements():
                if move.n_placed > self.size:
                    continue  # no rack holds so many
                assert move.score == board.score(move), move
                after = bytearray(grid)
                placed = move.placed
                for (r, c), tile in zip(move.placed_squares(), placed, strict=True):
                    assert not after[r * side + c], move
                    after[r * side + c] = tile
                taken = tuple(sorted(0 if t & BLANK_FLAG else t for t in placed))
                held = list(pool)
                for code in taken:
                    held.remove(code)  # a ValueError if not in the pool
                made.setdefault(taken, []).append((move.score, bytes(after)))
        return made


@cache
def sub_racks(rack: Rack) -> frozenset[Rack]:
    """Every non-empty part of ``rack`` (sorted, as multisets: each once)."""
    return frozenset(tuple(c for c, keep in zip(rack, mask, strict=True) if keep)
                     for mask in itertools.product((False, True), repeat=len(rack))
                     if any(mask))


def orders(pool: Counter[int], k: int) -> list[tuple[tuple[int, ...], int]]:
    """Every ordered sequence of ``k`` tiles of ``pool``, with its ways."""
    if k == 0:
        return [((), 1)]
    out = []
    for code in sorted(c for c, n in pool.items() if n):
        for tail, ways in orders(pool - Counter({code: 1}), k - 1):
            out.append(((code,) + tail, pool[code] * ways))
    return out


def candidate(board: Board, lexicon: Lexicon, move: Move, bag_size: int,
              memo: dict[Any, Any], *, reply_passes: bool = True
              ) -> tuple[float, float, list[tuple[tuple[int, ...], int, int]]]:
    """``move``'s win % and expected spread change over every world, and the
    worlds: (the bag in the order drawn, ways, final spread change). The
    opponent's rack is ``board.racks[1]`` when known, else the unseen tiles
    not in the bag. ``reply_passes`` False: the opponent may not pass right
    after ``move`` (if it has a placement)."""
    unseen = Counter({c: int(n) for c, n in enumerate(board.unseen().tolist()) if n})
    known = tuple(board.racks[1])
    size = board.alphabet.rack_size
    spread0 = board.scores[0] - board.scores[1]
    rows = []
    for drawn_first, ways in orders(unseen, bag_size):
        opponent = known or tuple((unseen - Counter(drawn_first)).elements())
        bag = tuple(reversed(drawn_first))  # drawn from the end
        after = board.play(move)
        rack, rest = _draw(after.racks[1], bag, size)
        after.racks = [opponent, rack]
        change = move.score - value(after, lexicon, rest, 0, memo, reply_passes)
        rows.append((drawn_first, ways, change))
    total = sum(w for _, w, _ in rows)
    wins = sum(w * (1.0 if spread0 + c > 0 else 0.5 if spread0 + c == 0 else 0.0)
               for _, w, c in rows)
    return 100.0 * wins / total, sum(w * c for _, w, c in rows) / total, rows
