"""The kernels' data at the Python edge: a game's constants (`kernel_consts`:
multipliers, points, rules), a position as a `rackety.kernels.fields.GameState`
(what the rules' kernels play on), and a tile placement as a row of the
generator's arrays and back, the one conversion between `Move` objects and
kernel rows. No numba here: the kernels are imported where they run.

>>> from rackety import Board, Lexicon
>>> lexicon = Lexicon.from_words(["PANDY", "PAY", "AY", "YA", "DAY"])
>>> board = Board.from_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AADNPUY/ 0/0 0")
>>> move = board.moves(lexicon).best()
>>> meta, word = rows_of([move], board.size)
>>> move_of_row(meta[0], word[0], board.alphabet) == move
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from rackety.errors import RacketyError
from rackety.game.move import Move
from rackety.game.rules import Rules
from rackety.kernels.fields import (
    G_BINGO,
    G_BOTH_DIRS,
    G_EXCHANGE_MIN,
    G_FULL_MASK,
    G_MAX_SCORELESS,
    G_N,
    G_OPEN,
    G_PLAYERS,
    G_RACK_SIZE,
    G_SIZE,
    G_START_COL,
    G_START_ROW,
    G_TWICE,
    G_VARIANT,
    G_VOWELS,
    GS_BAG,
    GS_EMPTY,
    GS_RACK,
    GS_SCORE,
    GS_ZERO,
    M_DIR,
    M_FIRST,
    M_LANE,
    M_LEN,
    M_PLACED,
    M_SCORE,
    M_THROUGH,
    MAX_PLAYERS,
    META,
    OPEN_LANE,
    VARIANT_CLASSIC,
    VARIANT_WORDSMOG,
    X_HAS,
    X_LEFT,
    X_RIGHT,
    X_SCORE,
    X_SET,
    Consts,
    GameState,
)

if TYPE_CHECKING:
    from rackety.alphabet import Alphabet
    from rackety.game.layout import Layout
    from rackety.game.position import Position



@dataclass
class CrossSets:
    """The board in both orientations and its cross sets for one lexicon
    (arrays described in `rackety.kernels.crosssets`): ``cross`` has the rows
    `X_SET`, `X_SCORE`, `X_HAS`, `X_LEFT`, `X_RIGHT` (`rackety.kernels.fields`),
    each [2, n, n]."""

    tiles: np.ndarray
    cross: np.ndarray

    @property
    def xset(self) -> np.ndarray:
        """Letters each square's perpendicular word allows."""
        return self.cross[X_SET, ...]

    @property
    def xscore(self) -> np.ndarray:
        """Face value of each square's perpendicular tiles."""
        return self.cross[X_SCORE, ...]

    @property
    def xhas(self) -> np.ndarray:
        """1 where a tile placed forms a perpendicular word."""
        return self.cross[X_HAS, ...]

    @property
    def extension(self) -> np.ndarray:
        """Letters each square's neighbouring runs in its own lane allow (the
        extension sets, both sides together)."""
        both: np.ndarray = self.cross[X_LEFT] & self.cross[X_RIGHT]
        return both

    def copy(self) -> CrossSets:
        return CrossSets(self.tiles.copy(), self.cross.copy())


@lru_cache(maxsize=64)
def points_of(alphabet: Alphabet) -> np.ndarray:
    """Score of every code as placed: the tile's points, 0 for a blank."""
    table = np.zeros(256, np.int64)
    for tile in alphabet.tiles:
        table[tile.code] = tile.points
    table.flags.writeable = False
    return table


def full_mask(alphabet: Alphabet) -> int:
    """The cross-set mask of every letter: what a blank may stand for."""
    return ((1 << alphabet.size) - 1) & ~1


_mult_cache: dict[tuple[bytes, bytes], tuple[np.ndarray, np.ndarray]] = {}


def multipliers(layout: Layout) -> tuple[np.ndarray, np.ndarray]:
    """The letter and word multipliers in both orientations, int64 [2, n, n]."""
    key = (layout.letter_mult.tobytes(), layout.word_mult.tobytes())
    hit = _mult_cache.get(key)
    if hit is None:
        lm = np.asarray(layout.letter_mult, np.int64)
        wm = np.asarray(layout.word_mult, np.int64)
        hit = (np.ascontiguousarray(np.stack([lm, lm.T])),
               np.ascontiguousarray(np.stack([wm, wm.T])))
        for array in hit:
            array.flags.writeable = False
        _mult_cache[key] = hit
    return hit


def kernel_consts(alphabet: Alphabet, layout: Layout, rules: Rules | None = None, *,
                  players: int = 2) -> Consts:
    """The one set-up of a game's constants for the kernels (``consts``): the
    letter and word multipliers in both orientations, the points of every
    code and the rules array (`rackety.kernels.fields`, ``G_*``) made from
    ``rules`` (`rackety.game.rules.Rules`, default: the alphabet's) for
    ``players``. Made once per set of rules and shared: the arrays are
    read-only."""
    return _kernel_consts(alphabet, layout, (rules or Rules()).of(alphabet), players)


#: the kernels' code of each variant of the rules (``G_VARIANT``)
KERNEL_VARIANTS = {"classic": VARIANT_CLASSIC, "wordsmog": VARIANT_WORDSMOG}


@lru_cache(maxsize=256)
def _kernel_consts(alphabet: Alphabet, layout: Layout, game_rules: Rules, players: int) -> Consts:
    lm2, wm2 = multipliers(layout)
    rules = np.zeros(G_SIZE, np.int64)
    rules[G_N] = layout.size
    rules[G_RACK_SIZE] = alphabet.rack_size
    rules[G_BINGO] = game_rules.bingo_bonus or 0
    rules[G_START_ROW], rules[G_START_COL] = layout.start
    rules[G_BOTH_DIRS] = 0 if layout.symmetric else 1
    rules[G_FULL_MASK] = full_mask(alphabet)
    rules[G_EXCHANGE_MIN] = game_rules.exchange_min_bag or 0
    rules[G_MAX_SCORELESS] = game_rules.max_scoreless or 0
    rules[G_TWICE] = 1 if game_rules.twice(players) else 0
    rules[G_PLAYERS] = players
    rules[G_VARIANT] = KERNEL_VARIANTS[game_rules.variant]
    for tile in alphabet.tiles:
        if tile.vowel and 0 < tile.code < 64:
            rules[G_VOWELS] |= np.int64(1) << np.int64(tile.code)
    rules[G_OPEN:G_OPEN + 2 * OPEN_LANE] = opening_penalties(layout).ravel()
    rules.flags.writeable = False
    return Consts(lm2, wm2, points_of(alphabet), rules)


#: the opening's penalty for a vowel beside a premium square, per multiplier
#: step above 1, in millipoints: MAGPIE's `OPENING_HOTSPOT_PENALTY` (-0.7 points)
#: halved, summed over the squares either side of the square played on
#: (src/def/static_eval_defs.h, src/ent/board.h)
OPENING_HOTSPOT = -350


def opening_penalties(layout: Layout) -> np.ndarray:
    """What a vowel placed on the opening costs, per direction and square of
    the start lane (int64 [2, `OPEN_LANE`], millipoints, 0 past the board):
    across, square p of the start row is charged for the premium squares just
    above and below it; down, square p of the start column for those left and
    right of it. A premium square there lets the reply put a high tile beside
    the vowel and score it twice."""
    n = layout.size
    out = np.zeros((2, OPEN_LANE), np.int64)
    if n > OPEN_LANE:
        return out
    lm = np.asarray(layout.letter_mult, np.int64)
    wm = np.asarray(layout.word_mult, np.int64)
    row, col = layout.start
    for d in (0, 1):
        for p in range(n):
            for side in (-1, 1):
                r, c = (row + side, p) if d == 0 else (p, col + side)
                if 0 <= r < n and 0 <= c < n:
                    steps = max(0, int(lm[r, c]) - 1) + max(0, int(wm[r, c]) - 1)
                    out[d, p] += OPENING_HOTSPOT * steps
    return out


_board_consts: dict[tuple[int, int, int, int], tuple[Alphabet, Layout, Consts, Rules]] = {}


def board_consts(board: Position, rules: Rules | None = None) -> Consts:
    """`kernel_consts` of a position (its rules, `Board.rules`, or ``rules``
    when the caller has them), found by the identity of its alphabet, layout
    and rules (all held, so never reused)."""
    alphabet, layout = board.alphabet, board.layout
    if rules is None:
        rules = board.rules
    players = max(2, len(board.racks))
    key = (id(alphabet), id(layout), id(rules), players)
    hit = _board_consts.get(key)
    if hit is None:
        if len(_board_consts) >= 256:
            _board_consts.clear()
        hit = _board_consts[key] = (alphabet, layout, kernel_consts(
            alphabet, layout, rules, players=players), rules)
    return hit[2]


def move_of_row(row: Sequence[int] | np.ndarray, word: Sequence[int] | np.ndarray,
                alphabet: Alphabet, *, equity: float | None = None,
                leave: tuple[int, ...] | None = None) -> Move:
    """The placement of a generator row (``M_*`` columns) and its main word,
    with the row's score; a row of length 0 is the pass."""
    d, lane, first, length = (int(row[k]) for k in (M_DIR, M_LANE, M_FIRST, M_LEN))
    if length == 0:
        return Move("pass", score=0, equity=equity, leave=leave, alphabet=alphabet)
    through = int(row[M_THROUGH])
    r, c = (first, lane) if d else (lane, first)
    return Move("place", r, c, bool(d), tuple(int(t) for t in word[:length]),
                tuple(bool(through >> j & 1) for j in range(length)), score=int(row[M_SCORE]),
                equity=equity, leave=leave, alphabet=alphabet)


def write_row(move: Move, meta: np.ndarray, word: np.ndarray, i: int = 0,
              score: int | None = None) -> None:
    """Write placement ``move`` as row ``i`` of ``meta`` and ``word`` (its score:
    ``score``, else the move's, else 0)."""
    d = 1 if move.down else 0
    lane, first = (move.col, move.row) if move.down else (move.row, move.col)
    through = sum(1 << j for j, t in enumerate(move.through) if t)
    meta[i, :] = 0
    meta[i, M_DIR], meta[i, M_LANE], meta[i, M_FIRST] = d, lane, first
    meta[i, M_LEN], meta[i, M_PLACED] = len(move.tiles), move.n_placed
    meta[i, M_SCORE] = score if score is not None else (move.score or 0)
    meta[i, M_THROUGH] = through
    word[i, :len(move.tiles)] = move.tiles


#: the columns of a placement's row `write_row` writes (which placement, and its
#: score); the others (the leave's index) are 0 in its rows
ROW_COLUMNS = (M_DIR, M_LANE, M_FIRST, M_LEN, M_PLACED, M_SCORE, M_THROUGH)


def plain_rows(meta: np.ndarray, words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Generator rows as `rows_of` makes them: only `ROW_COLUMNS` kept, each
    word's squares past its length 0 (new arrays)."""
    plain = np.zeros((len(meta), META), np.int32)
    plain[:, ROW_COLUMNS] = meta[:, ROW_COLUMNS]
    word = np.array(words, np.uint8)
    word[np.arange(word.shape[1])[None, :] >= plain[:, M_LEN][:, None]] = 0
    return plain, word


def rows_of(moves: Sequence[Move], size: int) -> tuple[np.ndarray, np.ndarray]:
    """Placements as generator rows: (meta int32 [k, META], words uint8 [k, size])."""
    meta = np.zeros((len(moves), META), np.int32)
    word = np.zeros((len(moves), size), np.uint8)
    for i, move in enumerate(moves):
        write_row(move, meta, word, i)
    return meta, word


def state_of(board: Position, xs: CrossSets, *, bag: Sequence[int] = ()) -> GameState:
    """``board`` as a game state for the rules' kernels: seat 0 the player to
    move (the board's racks and scores in its order), its tiles and cross sets
    ``xs`` (a lexicon's, `rackety.game.movegen.MoveGenerator.cross_sets`), the
    scoreless turns, ``bag`` (drawn from the end); the shuffle's state 0."""
    players = len(board.racks)
    if not 1 <= players <= MAX_PLAYERS:
        raise RacketyError(f"a game state holds 1 to {MAX_PLAYERS} players, not {players}")
    gs = GameState.allocate(board.size, players, int(board.distribution().sum()))
    gs.tiles[...] = xs.tiles
    gs.cross[...] = xs.cross
    for seat, rack in enumerate(board.racks):
        set_rack(gs, seat, rack)
        gs.ints[GS_SCORE + seat] = board.scores[seat] if seat < len(board.scores) else 0
    set_bag(gs, bag)
    gs.ints[GS_ZERO] = board.zero_turns
    gs.ints[GS_EMPTY] = 0 if board.grid.any() else 1
    return gs


def set_rack(gs: GameState, seat: int, tiles: Sequence[int]) -> None:
    """Put ``tiles`` (codes) on the rack of ``seat``, in this order."""
    gs.racks[seat, :] = 0
    gs.racks[seat, :len(tiles)] = tiles
    gs.ints[GS_RACK + seat] = len(tiles)


def set_bag(gs: GameState, tiles: Sequence[int]) -> None:
    """Make the bag ``tiles`` (drawn from the end)."""
    gs.bag[:len(tiles)] = tiles
    gs.ints[GS_BAG] = len(tiles)


def rack_of(gs: GameState, seat: int) -> list[int]:
    """The rack of ``seat``, in the order drawn."""
    rack: list[int] = gs.racks[seat, :int(gs.ints[GS_RACK + seat])].tolist()
    return rack


def bag_of(gs: GameState) -> list[int]:
    """The bag, drawn from the end."""
    bag: list[int] = gs.bag[:int(gs.ints[GS_BAG])].tolist()
    return bag


__all__ = ["Consts", "CrossSets", "bag_of", "board_consts", "full_mask", "kernel_consts",
           "move_of_row", "multipliers", "points_of", "rack_of", "rows_of", "set_bag", "set_rack",
           "state_of", "write_row"]
