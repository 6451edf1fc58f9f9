"""A plain minimax for endgames, for testing `rackety.search.endgame` on tiny positions.

It knows the rules and nothing of the solver: a position's value for the player
to move is the best, over every tile placement (`Board.moves`, trusted and
tested elsewhere) and the pass, of the move's score plus what follows. A
placement that uses the whole rack ends the game and gains what the position's
rules give for playing out (`Rules.end_points`: twice the face value of the
opponent's rack in spread); otherwise the opponent moves next and its value is
subtracted. A pass right after a pass, or one that reaches the rules' scoreless
turns, ends the game, each player losing the face value of their own rack; any
other pass hands the turn over. No depth limit,
no pruning, a dictionary of positions already valued.

Also here: a tiny alphabet (six letters, counts chosen per position so that the
bag is empty), a 7x7 layout and a word list over its letters.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from rackety import Alphabet, Board, Layout, Lexicon, Move
from rackety.game.rules import END_OUT, END_SCORELESS

LETTERS = "AEINST"
POINTS = {"A": 1, "E": 1, "I": 2, "N": 2, "S": 3, "T": 4}
WORDS = ["AT", "IN", "IS", "TA", "EN", "ES", "TEN", "NET", "SET", "SIT", "SIN", "TIN", "ANT",
         "TAN", "NIT", "ITS", "SAT", "EAT", "TEA", "ATE", "SEA", "NEST", "NETS", "SENT", "TENS",
         "SANE", "ANTE", "STAIN", "SAINT", "SATIN", "TINE", "SINE", "TEAS", "SEAT", "EAST",
         "EATS", "NITS", "SNIT", "TINS", "ANTS", "SIENA", "INANE", "TENET", "TEST", "STET",
         "NINE", "ANTI", "TITAN"]
TINY7 = Layout("tiny7", ["=  '  =",
                         " -   - ",
                         "  ' '  ",
                         "'  *  '",
                         "  ' '  ",
                         " -   - ",
                         "=  '  ="], (3, 3))
RACK_SIZE = 3  # a whole rack of three played out is a "bingo"
BINGO = 20


def tiny_alphabet(counts: dict[str, int] | None = None, blanks: int = 2) -> Alphabet:
    """The six letters with the given counts (30 each by default)."""
    counts = counts or {c: 30 for c in LETTERS}
    tiles = [{"label": "?", "blank_label": "?", "count": blanks, "points": 0, "vowel": False}]
    tiles += [{"label": c, "blank_label": c.lower(), "count": counts.get(c, 0),
               "points": POINTS[c], "vowel": c in "AEI"} for c in LETTERS]
    return Alphabet({"name": "tiny", "board": "standard15", "rack_size": RACK_SIZE,
                     "bingo_bonus": BINGO, "tiles": tiles})


def tiny_lexicon() -> Lexicon:
    return Lexicon.from_words(WORDS, tiny_alphabet(), name="tiny")


def random_plays(draw: Callable[[Any], Any], lexicon: Lexicon, board: Board,
                 most: int) -> Board:
    """``board`` after zero to ``most`` plays drawn by ``draw`` (a hypothesis
    draw): each from a rack of `LETTERS`, the first a word of `WORDS` so that
    it can be played, one of that rack's placements (none when it has none)."""
    alphabet = board.alphabet
    for i in range(draw(st.integers(0, most))):
        letters = draw(st.sampled_from(WORDS) if i == 0 else
                       st.text(LETTERS, min_size=2, max_size=5))
        board.racks = [tuple(alphabet.tokenize(letters)), ()]
        moves = board.moves(lexicon, exchanges=False).placements()
        if moves:
            board = board.play(moves[draw(st.integers(0, len(moves) - 1))])
    return board


def with_empty_bag(board: Board) -> Board:
    """The same position in an alphabet whose tiles are exactly those on the
    board and the racks, so the bag is empty."""
    alphabet = board.alphabet
    counts: dict[str, int] = {c: 0 for c in LETTERS}
    blanks = 0
    codes = [int(x) for x in board.grid.ravel() if x] + [c for r in board.racks for c in r]
    for code in codes:
        if code == 0 or code & 0x80:
            blanks += 1
        else:
            counts[alphabet.tiles[code].label] += 1
    return Board.from_cgp(board.cgp(), alphabet=tiny_alphabet(counts, blanks),
                          layout=board.layout)


def face(board: Board, rack: tuple[int, ...]) -> int:
    return sum(board.alphabet.tiles[c].points for c in rack if c)


def out_value(board: Board) -> int:
    """The spread the player to move gains by going out: the rules' play-out
    points (`Rules.end_points`) for it, less the opponent's."""
    gained = board.rules.end_points(0, [0, face(board, board.racks[1])], END_OUT)
    return gained[0] - gained[1]


def pass_ends(board: Board) -> bool:
    """Whether a pass by the player to move ends the game: the rules'
    scoreless turns are reached (`Rules.ending`), or it follows a pass (the
    position would only repeat)."""
    return board.zero_turns > 0 or board.rules.ending(
        went_out=False, scoreless=board.zero_turns + 1) == END_SCORELESS


def scoreless_value(board: Board) -> int:
    """The spread change for the player to move when the game ends by
    scoreless turns: each side loses its own rack (`Rules.end_points`)."""
    lost = board.rules.end_points(0, [face(board, r) for r in board.racks], END_SCORELESS)
    return lost[0] - lost[1]


def minimax(board: Board, lexicon: Lexicon, memo: dict[Any, int] | None = None) -> int:
    """The exact value of ``board`` (both racks known, bag empty) for the player
    to move; the last move was a pass when ``board.zero_turns`` > 0."""
    memo = {} if memo is None else memo
    mine, theirs = board.racks
    key = (board.grid.tobytes(), tuple(sorted(mine)), tuple(sorted(theirs)),
           board.zero_turns > 0)
    if key in memo:
        return memo[key]
    values = []
    for move in board.moves(lexicon, exchanges=False).placements():
        if move.n_placed == len(mine):
            values.append(move.score + out_value(board))
        else:
            values.append(move.score - minimax(board.play(move), lexicon, memo))
    if pass_ends(board):
        values.append(scoreless_value(board))
    else:
        values.append(-minimax(board.play(Move("pass", score=0)), lexicon, memo))
    memo[key] = max(values)
    return memo[key]


def line_value(board: Board, lexicon: Lexicon, line: list[Move]) -> int:
    """Play ``line`` out from ``board``, each placement checked to be legal
    (in `Board.moves`, with its score), and return the change in spread for the
    player to move; the line must end the game."""
    sign = 1
    total = 0
    for i, move in enumerate(line):
        mine = board.racks[0]
        if move.kind == "place":
            legal = {m: m.score for m in board.moves(lexicon, exchanges=False).placements()}
            assert legal.get(move) == move.score, f"move {i + 1} {move} is not legal here"
            total += sign * move.score
            if move.n_placed == len(mine):
                assert i == len(line) - 1, "the line goes on after a player went out"
                return total + sign * out_value(board)
        else:
            assert move.kind == "pass" and move.score == 0
            if pass_ends(board):
                assert i == len(line) - 1, "the line goes on after the game ended"
                return total + sign * scoreless_value(board)
        board = board.play(move)
        sign = -sign
    raise AssertionError("the line stops before the end of the game")


@st.composite
def tiny_endgames(draw: Callable[[Any], Any], lexicon: Lexicon) -> Board:
    """A 7x7 position after zero to four random plays, then racks of one to
    three tiles each (blanks too), the bag empty, the last move a pass or not."""
    big = tiny_alphabet()
    board = Board(alphabet=big, layout=TINY7)
    board = random_plays(draw, lexicon, board, 4)
    rack = st.text(LETTERS + "?", min_size=1, max_size=3)
    board.racks = [tuple(big.tokenize(draw(rack))), tuple(big.tokenize(draw(rack)))]
    board.scores = [draw(st.integers(0, 60)), draw(st.integers(0, 60))]
    board.zero_turns = draw(st.integers(0, 1))
    return board

