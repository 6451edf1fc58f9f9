"""The kernels' state, by name: the move generator's (`rackety.kernels.generate.load_rack`
fills it), the rules of a game (``G_*``) and the game itself (`GameState`,
``GS_*``), which the rules' kernels (`rackety.kernels.rules`) play.

``st`` is an int64 array of `ST_SIZE`: the scalars below, the rack (`R_COUNT`,
`R_PLACE`), the score of every code (`R_POINTS`) and the Appel-Jacobson left
part (`S_PRE`). ``fs`` is float64: the threshold and bound of the top mode,
the top-N heap, then the rack's leave values (from ``st[S_LV]``). A generated
move is one row of ``meta`` (int32, columns `M_*`), its main word a row of
``otiles`` (uint8) and its equity ``oeq``. The per-lane array ``ln[ROWS, N]``
(rows `TILE` ...) is what the recursion reads for one lane.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

BLANK_FLAG = 0x80

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

# st: int64 state
S_N = 0  # board size
S_ANCHOR = 1
S_LIMIT = 2  # leftmost square a leftward walk may not enter
S_DIR = 3
S_LANE = 4
S_RACKN = 5  # tiles on the rack
S_RACKSIZE = 6  # the alphabet's rack size: placing that many is a bingo
S_BINGO = 7
S_RACKMASK = 8  # letters left on the rack (every letter while it holds a blank)
S_MODE = 9
S_COUNT = 10  # moves stored
S_TOTAL = 11  # moves found
S_BEST = 12  # best score found
S_CAP = 13  # rows in the buffers
S_OVERFLOW = 14
S_TOPN = 15
S_HEAPN = 16  # equities in the top-N heap
S_EMPTY = 17  # the board is empty: only the start square is an anchor
S_START_ROW = 18
S_START_COL = 19
S_BOTH_DIRS = 20  # on an empty board, generate down moves too (asymmetric layout)
S_FULL_LIDX = 21  # leave index of the whole rack
S_ANCHORS = 22  # anchors generated from (statistics)
S_ANCHORS_ALL = 23  # anchors in the position (statistics)
# the lexicon's words as letter multisets (`rackety.lexicon.Lexicon.word_hashes`), for
# the shadow bounds: a play of the whole rack must spell a word with its board tiles
S_WHP = 32  # address of the bitmap of their hashes
S_WHN = 33  # its size in bits, a power of two (0: none given, no check)
S_WKP = 34  # address of the letters' keys (a multiset's hash is the sum of its keys)
S_WRH = 35  # the hash of the rack's letters (its blanks left out)
S_NATMASK = 36  # the natural letters left on the rack (`S_RACKMASK` without the blanks)
S_OPENING = 37  # equity counts the opening's vowel placement (`generate.static_equity`)
S_VOWELS = 38  # the vowels' codes, a bit each, while `S_OPENING` is set
S_PRE = 48  # Appel-Jacobson left part, up to 16 tiles
ST_SIZE = 448

MODE_ALL = 0
MODE_TOP = 1
MODE_COUNT = 2

S_LV = 24  # where the leave values start in fs
S_OVER_BOUND = 25  # moves found above their anchor's bound: must stay 0 (tests read it)
S_EXACT_BEST = 26  # top mode: also find the best score exactly (search anchors that may beat it)
# the addresses of the caller's arrays, for the recursion (`rackety.kernels.raw`)
S_FSP = 27  # fs
S_METAP = 28  # meta
S_OTP = 29  # otiles
S_OEQP = 30  # oeq
S_OTW = 31  # the width of a row of otiles
# the rack, in st too (one array fewer to pass down the recursion)
R_COUNT = 64  # st[64 + t]: copies of tile t on the rack (t = 0: blanks)
R_PLACE = 128  # st[128 + t]: place value of t in the leave index
R_POINTS = 192  # st[192 + c]: score of code c as placed (0x80|t: a blank, 0)
R_OPEN = 256  # st[256 + 32 d + p]: the opening's penalty for a vowel at p (millipoints)

# fs: float64 state
F_THRESH = 0  # equity a move needs to be kept (top mode)
F_BOUND = 1  # the upper bound of the anchor being generated (top mode)
F_HEAP = 8  # min-heap of the best N equities so far; the leave values follow it
M_DIR, M_LANE, M_FIRST, M_LEN, M_PLACED, M_SCORE, M_THROUGH, M_LIDX = range(8)
META = 8

# rules: int64, what a game's kernels read of its rules and board (one per game)
G_N = 0  # board size
G_RACK_SIZE = 1
G_BINGO = 2
G_START_ROW = 3
G_START_COL = 4
G_BOTH_DIRS = 5  # the layout is not symmetric: on an empty board, down plays too
G_FULL_MASK = 6  # every letter (what a blank may be)
G_EXCHANGE_MIN = 7  # tiles the bag needs for an exchange
G_MAX_SCORELESS = 8  # scoreless turns that end the game
G_TWICE = 9  # going out scores twice the other racks (else: they subtract)
G_PLAYERS = 10
G_VOWELS = 11  # the vowels' codes, a bit each (the alphabet's vowel flags)
G_OPEN = 16  # + 32 d + p: the opening's vowel penalty, as `R_OPEN` (`game.state.opening_penalties`)
OPEN_LANE = 32  # the longest lane the opening penalties hold
G_SIZE = G_OPEN + 2 * OPEN_LANE


# the game: a `GameState`'s ``ints`` (int64 [GS_SIZE])
GS_TURN = 0  # the seat to move
GS_ZERO = 1  # scoreless turns in a row
GS_BAG = 2  # tiles in the bag: bag[:n], drawn from the end
GS_OVER = 3  # 0 while the game goes on, else how it ended: END_OUT or END_SCORELESS
GS_EMPTY = 4  # 1 while no tile is on the board
GS_PLAYERS = 5
GS_SCORE = 8  # + seat: the seat's score
GS_RACK = 12  # + seat: tiles on the seat's rack
GS_SIZE = 16
MAX_PLAYERS = 4
RACK_CAP = 64  # a rack's row in ``racks``

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
        ints[GS_PLAYERS] = players
        ints[GS_EMPTY] = 1
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
