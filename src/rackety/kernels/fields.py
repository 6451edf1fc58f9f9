"""The kernels' state, by name: the move generator's (`rackety.kernels.generate.load_rack`
fills it), the rules of a game (``G_*``) and the game itself (`GameState`,
``GS_*``), which the rules' kernels (`rackety.kernels.rules`) play.

``st`` is an int64 array of `ST_SIZE`: the scalars below, the rack (`R_COUNT`,
`R_PLACE`), the score of every code (`R_POINTS`), the opening's penalties
(`R_OPEN`) and the Appel-Jacobson left part (`S_PRE`). ``fs`` is float64: the
threshold and bound of the top mode, the top-N heap, then the rack's leave
values (from ``st[S_LV]``). A generated move is one row of ``meta`` (int32,
columns `M_*`), its main word a row of ``otiles`` (uint8) and its equity
``oeq``. The per-lane array ``ln[ROWS, N]`` (rows `TILE` ...) is what the
recursion reads for one lane.

The regions of ``st``, ``fs``, a rules row and a game's ``ints`` are each
declared once, in a table of (name, start, length) (`ST_LAYOUT`, `FS_LAYOUT`,
`G_LAYOUT`, `GS_LAYOUT`); the constants are made from the tables, which
`check_layout` refuses at import if two regions overlap or one passes the end
of its array.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

BLANK_FLAG = 0x80


class Region(NamedTuple):
    """``length`` entries of an array from ``start`` (``length`` None: to the
    end of an array whose caller sizes it; the last region only)."""

    name: str
    start: int
    length: int | None = 1


def check_layout(array: str, regions: Sequence[Region], size: int | None) -> dict[str, int]:
    """The regions' starts by name, or a ValueError if two of them overlap,
    one starts below 0 or ends past ``size`` (None: sized by its caller, after
    the last region), a name comes twice, or an open-ended region is not last."""
    names = [r.name for r in regions]
    if len(set(names)) != len(names):
        raise ValueError(f"{array}: a region named twice in {names}")
    spans = sorted(regions, key=lambda r: r.start)
    for i, r in enumerate(spans):
        if r.start < 0 or (r.length is not None and r.length < 1):
            raise ValueError(f"{array}: {r.name} at {r.start}, {r.length} long")
        if r.length is None:
            if i != len(spans) - 1:
                raise ValueError(f"{array}: {r.name} runs to the end, but {spans[i + 1].name}"
                                 " follows it")
            if size is not None:
                raise ValueError(f"{array}: {r.name} runs to the end of an array of a fixed "
                                 "size")
            continue
        end = r.start + r.length
        if size is not None and end > size:
            raise ValueError(f"{array}: {r.name} [{r.start}, {end}) passes its size {size}")
        if i + 1 < len(spans) and spans[i + 1].start < end:
            raise ValueError(f"{array}: {r.name} [{r.start}, {end}) overlaps "
                             f"{spans[i + 1].name} at {spans[i + 1].start}")
    return {r.name: r.start for r in regions}


# rows of the cross sets array cross[X_ROWS, 2, N, N] (`rackety.kernels.crosssets`)
X_SET = 0  # letters the perpendicular word allows (every letter where there is none)
X_SCORE = 1  # face value of the perpendicular tiles a tile placed here joins
X_HAS = 2  # 1 where a tile placed here forms a perpendicular word
X_LEFT = 3  # letters that may stand just left of the run of tiles that follows (all: none)
X_RIGHT = 4  # letters that may follow the run of tiles before when the run begins the word
X_ROWS = 5

# rows of the per-lane array ln[ROWS, N]
TILE = 0  # board tile code (0 empty, 0x80 flag on blanks)
XSET = 1  # letters allowed by the perpendicular word and the lane's extension sets
LM = 2  # letter multiplier of an empty square (1 on occupied squares)
WM = 3  # word multiplier of an empty square (1 on occupied squares)
PWM = 4  # word multiplier of the perpendicular word (0 where none forms)
PSC = 5  # perpendicular tiles' face value x PWM
FACE = 6  # face value of the board tile (0 for a blank or an empty square)
STRIP = 7  # the tile placed on the square by the move being built
HAS = 8  # 1 where a tile placed forms a perpendicular word
AFTER = 9  # X_RIGHT: letters that may follow the run before when it begins the word
ROWS = 10

MAX_PLAYERS = 4
OPEN_LANE = 32  # the longest lane the opening penalties hold

# st: int64 state
ST_SIZE = 512
ST_LAYOUT = (
    Region("S_N", 0),  # board size
    Region("S_ANCHOR", 1),
    Region("S_LIMIT", 2),  # leftmost square a leftward walk may not enter
    Region("S_DIR", 3),
    Region("S_LANE", 4),
    Region("S_RACKN", 5),  # tiles on the rack
    Region("S_RACKSIZE", 6),  # the alphabet's rack size: placing that many is a bingo
    Region("S_BINGO", 7),
    Region("S_RACKMASK", 8),  # letters left on the rack (every letter while it holds a blank)
    Region("S_MODE", 9),
    Region("S_COUNT", 10),  # moves stored
    Region("S_TOTAL", 11),  # moves found
    Region("S_BEST", 12),  # best score found
    Region("S_CAP", 13),  # rows in the buffers
    Region("S_OVERFLOW", 14),
    Region("S_TOPN", 15),
    Region("S_HEAPN", 16),  # equities in the top-N heap
    Region("S_EMPTY", 17),  # the board is empty: only the start square is an anchor
    Region("S_START_ROW", 18),
    Region("S_START_COL", 19),
    Region("S_BOTH_DIRS", 20),  # on an empty board, generate down moves too (asymmetric layout)
    Region("S_FULL_LIDX", 21),  # leave index of the whole rack
    Region("S_ANCHORS", 22),  # anchors generated from (statistics)
    Region("S_ANCHORS_ALL", 23),  # anchors in the position (statistics)
    Region("S_LV", 24),  # where the leave values start in fs
    Region("S_OVER_BOUND", 25),  # moves found above their anchor's bound: must stay 0 (tests)
    Region("S_EXACT_BEST", 26),  # top mode: also find the best score exactly
    # the addresses of the caller's arrays, for the recursion (`rackety.kernels.raw`)
    Region("S_FSP", 27),  # fs
    Region("S_METAP", 28),  # meta
    Region("S_OTP", 29),  # otiles
    Region("S_OEQP", 30),  # oeq
    Region("S_OTW", 31),  # the width of a row of otiles
    # the lexicon's words as letter multisets (`rackety.lexicon.Lexicon.word_hashes`), for
    # the shadow bounds: a play of the whole rack must spell a word with its board tiles
    Region("S_WHP", 32),  # address of the bitmap of their hashes
    Region("S_WHN", 33),  # its size in bits, a power of two (0: none given, no check)
    Region("S_WKP", 34),  # address of the letters' keys (a multiset's hash is the sum of its keys)
    Region("S_WRH", 35),  # the hash of the rack's letters (its blanks left out)
    Region("S_NATMASK", 36),  # the natural letters left on the rack (`S_RACKMASK` less blanks)
    Region("S_OPENING", 37),  # equity counts the opening's vowel placement (`static_equity`)
    Region("S_VOWELS", 38),  # the vowels' codes, a bit each, while `S_OPENING` is set
    Region("S_PRE", 48, 16),  # Appel-Jacobson left part, up to 16 tiles
    # the rack, in st too (one array fewer to pass down the recursion)
    Region("R_COUNT", 64, 64),  # st[R_COUNT + t]: copies of tile t on the rack (t = 0: blanks)
    Region("R_PLACE", 128, 64),  # st[R_PLACE + t]: place value of t in the leave index
    # st[R_POINTS + c]: score of code c as placed (0x80|t: a blank, 0), every code to 0xFF
    Region("R_POINTS", 192, 2 * BLANK_FLAG),
    # st[R_OPEN + 32 d + p]: the opening's penalty for a vowel at p (millipoints)
    Region("R_OPEN", 448, 2 * OPEN_LANE),
)

MODE_ALL = 0
MODE_TOP = 1
MODE_COUNT = 2

# fs: float64 state, sized by its caller
FS_LAYOUT = (
    Region("F_THRESH", 0),  # equity a move needs to be kept (top mode)
    Region("F_BOUND", 1),  # the upper bound of the anchor being generated (top mode)
    Region("F_HEAP", 8, None),  # min-heap of the best N equities; the leave values follow it
)

M_DIR, M_LANE, M_FIRST, M_LEN, M_PLACED, M_SCORE, M_THROUGH, M_LIDX = range(8)
META = 8

# rules: int64, what a game's kernels read of its rules and board (one per game)
G_SIZE = 80
G_LAYOUT = (
    Region("G_N", 0),  # board size
    Region("G_RACK_SIZE", 1),
    Region("G_BINGO", 2),
    Region("G_START_ROW", 3),
    Region("G_START_COL", 4),
    Region("G_BOTH_DIRS", 5),  # the layout is not symmetric: on an empty board, down plays too
    Region("G_FULL_MASK", 6),  # every letter (what a blank may be)
    Region("G_EXCHANGE_MIN", 7),  # tiles the bag needs for an exchange
    Region("G_MAX_SCORELESS", 8),  # scoreless turns that end the game
    Region("G_TWICE", 9),  # going out scores twice the other racks (else: they subtract)
    Region("G_PLAYERS", 10),
    Region("G_VOWELS", 11),  # the vowels' codes, a bit each (the alphabet's vowel flags)
    Region("G_VARIANT", 12),  # the rules' variant: `VARIANT_CLASSIC` or `VARIANT_WORDSMOG`
    # + 32 d + p: the opening's vowel penalty, as `R_OPEN` (`game.state.opening_penalties`)
    Region("G_OPEN", 16, 2 * OPEN_LANE),
)

# the variants (`rackety.game.rules.VARIANTS`): which generator the compiled
# players and searches call (`rackety.kernels.generate`, `rackety.kernels.wordsmog`)
VARIANT_CLASSIC = 0
VARIANT_WORDSMOG = 1

# the game: a `GameState`'s ``ints`` (int64 [GS_SIZE])
GS_SIZE = 16
GS_LAYOUT = (
    Region("GS_TURN", 0),  # the seat to move
    Region("GS_ZERO", 1),  # scoreless turns in a row
    Region("GS_BAG", 2),  # tiles in the bag: bag[:n], drawn from the end
    Region("GS_OVER", 3),  # 0 while the game goes on, else how it ended: END_OUT or END_SCORELESS
    Region("GS_EMPTY", 4),  # 1 while no tile is on the board
    Region("GS_PLAYERS", 5),
    Region("GS_SCORE", 8, MAX_PLAYERS),  # + seat: the seat's score
    Region("GS_RACK", 12, MAX_PLAYERS),  # + seat: tiles on the seat's rack
)
RACK_CAP = 64  # a rack's row in ``racks``

# the constants by name (``S_N``, ``F_HEAP``, ``G_OPEN``, ``GS_TURN`` ...), each table checked
_GS = check_layout("ints", GS_LAYOUT, GS_SIZE)
globals().update(check_layout("st", ST_LAYOUT, ST_SIZE), **check_layout("fs", FS_LAYOUT, None),
                 **check_layout("rules", G_LAYOUT, G_SIZE), **_GS)

# the same names for the type checker, which cannot see the update above (tests/test_typing.py
# holds them to the tables)
if TYPE_CHECKING:
    S_N: int
    S_ANCHOR: int
    S_LIMIT: int
    S_DIR: int
    S_LANE: int
    S_RACKN: int
    S_RACKSIZE: int
    S_BINGO: int
    S_RACKMASK: int
    S_MODE: int
    S_COUNT: int
    S_TOTAL: int
    S_BEST: int
    S_CAP: int
    S_OVERFLOW: int
    S_TOPN: int
    S_HEAPN: int
    S_EMPTY: int
    S_START_ROW: int
    S_START_COL: int
    S_BOTH_DIRS: int
    S_FULL_LIDX: int
    S_ANCHORS: int
    S_ANCHORS_ALL: int
    S_LV: int
    S_OVER_BOUND: int
    S_EXACT_BEST: int
    S_FSP: int
    S_METAP: int
    S_OTP: int
    S_OEQP: int
    S_OTW: int
    S_WHP: int
    S_WHN: int
    S_WKP: int
    S_WRH: int
    S_NATMASK: int
    S_OPENING: int
    S_VOWELS: int
    S_PRE: int
    R_COUNT: int
    R_PLACE: int
    R_POINTS: int
    R_OPEN: int
    F_THRESH: int
    F_BOUND: int
    F_HEAP: int
    G_N: int
    G_RACK_SIZE: int
    G_BINGO: int
    G_START_ROW: int
    G_START_COL: int
    G_BOTH_DIRS: int
    G_FULL_MASK: int
    G_EXCHANGE_MIN: int
    G_MAX_SCORELESS: int
    G_TWICE: int
    G_PLAYERS: int
    G_VOWELS: int
    G_VARIANT: int
    G_OPEN: int
    GS_TURN: int
    GS_ZERO: int
    GS_BAG: int
    GS_OVER: int
    GS_EMPTY: int
    GS_PLAYERS: int
    GS_SCORE: int
    GS_RACK: int

END_NONE = 0  # the turn passed on
END_OUT = 1  # a player played out with the bag empty
END_SCORELESS = 2  # too many scoreless turns in a row


class GameState(NamedTuple):
    """One game, compiled: what the referee, self-play, rollouts, leave
    training, the endgame and the pre-endgame play on (`rackety.kernels.rules`).

    ``tiles``: the board in both orientations (uint8 [2, n, n]: [0] by rows,
    [1] by columns, blank flag on blanks); ``cross``: its cross sets (int64
    [X_ROWS, 2, n, n], `rackety.kernels.crosssets`); ``racks``:
    int64 [players, RACK_CAP], seat s holding ``racks[s, :ints[GS_RACK + s]]``
    in the order drawn (0 the blank); ``bag``: int64, ``bag[:ints[GS_BAG]]``
    drawn from the end; ``ints``: the counters by name (``GS_*``); ``rng``:
    the shuffle's splitmix64 state (uint64 [1])."""

    tiles: np.ndarray
    cross: np.ndarray
    racks: np.ndarray
    bag: np.ndarray
    ints: np.ndarray
    rng: np.ndarray

    @classmethod
    def allocate(cls, n: int, players: int, bag_size: int) -> GameState:
        """Zeroed arrays for a game of ``players`` on an ``n`` x ``n`` board with
        a bag of up to ``bag_size`` tiles."""
        ints = np.zeros(GS_SIZE, np.int64)
        ints[_GS["GS_PLAYERS"]] = players
        ints[_GS["GS_EMPTY"]] = 1
        return cls(np.zeros((2, n, n), np.uint8), np.zeros((X_ROWS, 2, n, n), np.int64),
                   np.zeros((players, RACK_CAP), np.int64), np.zeros(bag_size + RACK_CAP,
                                                                     np.int64),
                   ints, np.zeros(1, np.uint64))

    def copy(self) -> GameState:
        """An independent copy (an undo snapshot, a rollout's root)."""
        return GameState(*(a.copy() for a in self))

    def load(self, other: GameState) -> None:
        """Make this state ``other`` (same shapes), in place."""
        for mine, theirs in zip(self, other, strict=True):
            mine[...] = theirs


class Consts(NamedTuple):
    """A game's constants for the generator and the rules' kernels
    (`rackety.game.state.kernel_consts`, read-only): the letter and word
    multipliers in both orientations (int64 [2, n, n]), the points of every
    code (int64 [256]) and the rules (``G_*``)."""

    lm2: np.ndarray
    wm2: np.ndarray
    points: np.ndarray
    rules: np.ndarray


class Output(NamedTuple):
    """The generator's output: a row of ``meta`` (int32 [cap, `META`], columns
    ``M_*``) per move, its main word a row of ``otiles`` (uint8 [cap, n]) and
    its equity ``oeq`` (float64 [cap])."""

    meta: np.ndarray
    otiles: np.ndarray
    oeq: np.ndarray


#: rows of a scratch's small arrays: the shadow's six, or the stacks of
#: WordSmog's walk (`rackety.kernels.wordsmog`), which works in them
SMALL_ROWS = 9


class Scratch(NamedTuple):
    """The generator's scratch (`rackety.kernels.generate.scratch`): the
    per-lane arrays (int64 [2, n, `ROWS`, n]), the anchors (int64 [8, cap]),
    their bounds (float64 [5, cap]), the shadow's small arrays (int64
    [`SMALL_ROWS`, at least 64]: WordSmog's generator takes them as its
    stacks, the classic one sets what it reads of them) and the best leave
    per tiles kept (float64)."""

    lanes: np.ndarray
    anchors: np.ndarray
    bounds: np.ndarray
    small: np.ndarray
    best_leave: np.ndarray


class Buffers(NamedTuple):
    """What a compiled game, a rollout or an inference works in
    (`rackety.game.movegen.Work`): the generator's state ``st`` and ``fs``, its
    output and scratch, and the static decision's (`rackety.kernels.selfplay.decide`):
    the tiles traded (int64 [64]), its ints (the row chosen, the best score, the
    tiles traded) and floats (the value of the tiles kept)."""

    st: np.ndarray
    fs: np.ndarray
    out: Output
    scratch: Scratch
    traded: np.ndarray
    res: np.ndarray
    resf: np.ndarray


class Request(NamedTuple):
    """What `rackety.kernels.generate.moves_of` is asked for a rack: its codes
    (int64), its leave values (``kind``: none, from the table ``leaves`` =
    (nodes, counts, values), or ``given`` by leave index), the static terms
    (``bag`` tiles in the bag, -1: none; ``other``: the points on the other
    racks), the ``mode`` (``MODE_*``) and ``topn``, the rows the output holds
    (``cap``), the exchanges (the bag's tiles, 0: none allowed) and whether the
    best score must be exact."""

    rack: np.ndarray
    leaves: tuple[np.ndarray, np.ndarray, np.ndarray]
    kind: int
    given: np.ndarray
    bag: int
    other: int
    mode: int
    topn: int
    cap: int
    exchanges: int
    exact_best: bool


class Events(NamedTuple):
    """A compiled game's events, a row each (`rackety.kernels.selfplay.play_game`
    says what they hold): the seat, the kind (``EV_*``), the score, the best
    placement score of the turn, the meta row, the tiles and the rack."""

    seat: np.ndarray
    kind: np.ndarray
    score: np.ndarray
    best: np.ndarray
    meta: np.ndarray
    tiles: np.ndarray
    rack: np.ndarray
