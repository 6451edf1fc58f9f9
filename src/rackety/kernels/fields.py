"""The move generator's state, by name: one module every kernel that drives
the generator imports (`rackety.kernels.generate.load_rack` fills it).

``st`` is an int64 array of `ST_SIZE`: the scalars below, the rack (`R_COUNT`,
`R_PLACE`), the score of every code (`R_POINTS`) and the Appel-Jacobson left
part (`S_PRE`). ``fs`` is float64: the threshold and bound of the top mode,
the top-N heap, then the rack's leave values (from ``st[S_LV]``). A generated
move is one row of ``meta`` (int32, columns `M_*`), its main word a row of
``otiles`` (uint8) and its equity ``oeq``. The per-lane array ``ln[ROWS, N]``
(rows `TILE` ...) is what the recursion reads for one lane.
"""

BLANK_FLAG = 0x80

# rows of the per-lane array ln[ROWS, N]
TILE = 0  # board tile code (0 empty, 0x80 flag on blanks)
XSET = 1  # letters allowed by the perpendicular word (all where there is none)
LM = 2  # letter multiplier of an empty square (1 on occupied squares)
WM = 3  # word multiplier of an empty square (1 on occupied squares)
PWM = 4  # word multiplier of the perpendicular word (0 where none forms)
PSC = 5  # perpendicular tiles' face value x PWM
FACE = 6  # face value of the board tile (0 for a blank or an empty square)
STRIP = 7  # the tile placed on the square by the move being built
HAS = 8  # 1 where a tile placed forms a perpendicular word
ROWS = 9

# st: int64 state
S_N = 0  # board size
S_ANCHOR = 1
S_LIMIT = 2  # leftmost square a leftward walk may not enter
S_DIR = 3
S_LANE = 4
S_RACKN = 5  # tiles on the rack
S_RACKSIZE = 6  # the alphabet's rack size: placing that many is a bingo
S_BINGO = 7
S_RACKMASK = 8  # letters on the rack (every letter when it holds a blank)
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
S_PRE = 32  # Appel-Jacobson left part, up to 32 tiles
ST_SIZE = 448

MODE_ALL = 0
MODE_TOP = 1
MODE_COUNT = 2

S_LV = 24  # where the leave values start in fs
S_OVER_BOUND = 25  # moves found above their anchor's bound: must stay 0 (tests read it)
S_EXACT_BEST = 26  # top mode: also find the best score exactly (search anchors that may beat it)
# the rack, in st too (one array fewer to pass down the recursion)
R_COUNT = 64  # st[64 + t]: copies of tile t on the rack (t = 0: blanks)
R_PLACE = 128  # st[128 + t]: place value of t in the leave index
R_POINTS = 192  # st[192 + c]: score of code c as placed (0x80|t: a blank, 0)

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
G_SIZE = 16
