from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rackety import Alphabet, Board, Move, RacketyError
from rackety.alphabet import BLANK_FLAG
from rackety.game.move import parse_move

ENGLISH = Alphabet.load("english")
CATALAN = Alphabet.load("catalan")


def codes(text, alphabet=ENGLISH):
    return tuple(alphabet.tokenize(text))


def board_with(placed, alphabet="english", rack=""):
    """A board with tiles at (row, col) given as {(row, col): text}."""
    board = Board.empty(alphabet)
    board.racks[0] = tuple(board.alphabet.tokenize(rack))
    for (r, c), text in placed.items():
        board.grid[r, c] = board.alphabet.tokenize(text)[0]
    return board


# ----------------------------------------------------------------- the type
def test_equality_is_the_placement_only():
    a = Move("place", 7, 7, False, codes("PANDY"), score=30, equity=31.5, leave=(1, 21))
    b = Move("place", 7, 7, False, codes("PANDY"), (False,) * 5)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Move("place", 7, 7, True, codes("PANDY"))
    assert a != Move("place", 7, 7, False, codes("PANDy"))  # a blank Y is another move
    assert Move("exchange", tiles=(1, 2)) != Move("exchange", tiles=(2, 1))
    assert Move("pass") == Move("pass")


def test_helpers():
    move = Move("place", 5, 13, True, codes("OVERLADE"), (False, False, True) + (False,) * 5)
    assert move.placed == codes("OVRLADE") and move.n_placed == 7
    assert move.squares() == [(r, 13) for r in range(5, 13)]
    assert move.placed_squares() == [(5, 13), (6, 13)] + [(r, 13) for r in range(8, 13)]
    across = Move("place", 7, 3, False, codes("CAT"))
    assert across.squares() == [(7, 3), (7, 4), (7, 5)] and across.through == (False,) * 3
    assert Move("exchange", tiles=(0, 1)).squares() == [] and Move("pass").n_placed == 0


@pytest.mark.parametrize(("args", "message"), [
    (("swap",), "move kind 'swap' is not one of place, exchange, pass"),
    (("place",), "a placement needs at least one tile"),
    (("place", 0, 0, False, (1, 2), (True,)), "a placement of 2 tiles has 1 through flags"),
    (("place", 0, 0, False, (1, 0)), "a placed blank must stand for a letter (BLANK_FLAG | code)"),
    (("pass", 0, 0, False, (1,)), "a pass has no tiles"),
    (("exchange", 0, 0, False, (1,), (False,)), "an exchange or a pass has no through flags"),
])
def test_bad_moves_are_refused(args, message):
    with pytest.raises(RacketyError) as exc:
        Move(*args)
    assert str(exc.value) == message


# ---------------------------------------------------------------- notation
def test_notation_across_down_and_through_styles():
    move = Move("place", 5, 13, True, codes("OVERLADE"), (False, False, True) + (False,) * 5)
    assert move.notation(ENGLISH) == "N6 OV(E)RLADE"
    assert move.notation(ENGLISH, through="dots") == "N6 OV.RLADE"
    assert move.notation(ENGLISH, through="bare") == "N6 OVERLADE"
    javelin = Move("place", 2, 4, True, codes("JAVELIN"), (False,) * 4 + (True, True, False))
    assert javelin.notation(ENGLISH, through="dots") == "E3 JAVE..N"
    assert javelin.notation(ENGLISH) == "E3 JAVE(LI)N"  # a maximal run in one pair
    assert Move("place", 7, 7, False, codes("PANDY")).notation() == "8H PANDY"
    assert Move("place", 7, 7, True, codes("PaNDY")).notation() == "H8 PaNDY"
    assert Move("place", 0, 20, True, codes("QI")).notation() == "U1 QI"
    with pytest.raises(RacketyError, match="through style 'brackets' is not one of"):
        move.notation(ENGLISH, through="brackets")


def test_notation_of_multi_letter_tiles_exchanges_and_passes():
    assert Move("place", 7, 3, False, codes("CANYOT", CATALAN)).notation(CATALAN) == \
        "8D CA[NY]OT"
    assert Move("place", 7, 3, False, codes("CA[ny]OT", CATALAN)).notation(CATALAN) == \
        "8D CA[ny]OT"
    villes = Move("place", 6, 4, True, codes("VIL·LES", CATALAN), (False, True, False, False,
                                                                  False))
    assert villes.notation(CATALAN) == "E7 V(I)[L·L]ES"
    assert Move("exchange", tiles=codes("ZA?B")).notation() == "exch ZA?B"  # order kept
    assert Move("exchange", tiles=codes("[QU]A", CATALAN)).notation(CATALAN) == "exch [QU]A"
    assert Move("pass").notation() == "pass"


def test_repr_and_str():
    move = Move("place", 7, 7, False, codes("PANDY"), score=30)
    assert repr(move) == "Move('8H PANDY', score=30)"
    assert str(move) == "8H PANDY"
    assert repr(Move("pass")) == "Move('pass')"
    assert repr(Move("exchange", tiles=(0, 1), equity=-2.5)) == "Move('exch ?A', equity=-2.5)"
    board = Board.empty("catalan")
    bound = board.parse_move("8D CANYOT")
    assert repr(bound) == "Move('8D CA[NY]OT', alphabet='catalan')"
    assert board.notation(bound) == "8D CA[NY]OT"
    polish = Alphabet.load("polish")
    assert polish.size > 27
    far = Move("place", 0, 0, False, (polish.size - 1, 1))
    assert repr(far) == f"Move('place', row=0, col=0, down=False, tiles=({polish.size - 1}, 1))"


# ------------------------------------------------------------ repr pastes back
def paste(move):
    return eval(repr(move), {"Move": Move})


def test_repr_pastes_back():
    move = Move("8H PANDY", score=30, equity=28.0)
    assert move == Move("place", 7, 7, False, codes("PANDY"))
    assert repr(move) == "Move('8H PANDY', score=30, equity=28.0)"
    assert (move.score, move.equity) == (30, 28.0)
    assert paste(move) == move and repr(paste(move)) == repr(move)
    board = board_with({(7, 13): "E"})
    over = board.parse_move("N6 OVeRLAdE")
    assert repr(over) == "Move('N6 OV(E)RLAdE')"
    assert paste(over) == over and paste(over).through == over.through
    assert Move("N6 OV(E)RLAdE") == over and Move("n6 oV(e)RLADE").tiles[0] & BLANK_FLAG


def test_repr_of_numpy_annotations_and_odd_equities_pastes_back():
    move = Move("place", 7, 7, False, codes("PANDY"), score=np.int64(30),
                equity=np.float64(28.5))
    assert repr(move) == "Move('8H PANDY', score=30, equity=28.5)"
    for equity in (float("inf"), -float("inf")):
        assert paste(Move("pass", equity=equity)).equity == equity


def test_the_alphabet_by_name_or_object():
    catalan = Move("8D CA[ny]OT", alphabet="catalan")
    assert catalan == Move("8D CA[ny]OT", alphabet=CATALAN)
    assert catalan.alphabet is CATALAN and catalan.tiles == codes("CA[ny]OT", CATALAN)
    assert repr(catalan) == "Move('8D CA[ny]OT', alphabet='catalan')"
    assert paste(catalan) == catalan and paste(catalan).alphabet is CATALAN
    fields = Move("place", 7, 3, False, codes("CA[ny]OT", CATALAN), alphabet="catalan")
    assert fields == catalan and fields.alphabet is CATALAN
    assert Move("8D CANYOT").tiles == codes("CANYOT")  # English: N then Y
    assert Move("exch [QU]?", alphabet="catalan").tiles == codes("[QU]?", CATALAN)
    with pytest.raises(RacketyError, match="unknown alphabet 'klingon'"):
        Move("pass", alphabet="klingon")


def test_a_notation_that_reads_back_otherwise_falls_back_to_the_fields():
    # past column Z there is no square name
    move = Move("place", 7, 24, False, codes("CAT", CATALAN), score=3, alphabet=CATALAN)
    assert repr(move) == ("Move('place', row=7, col=24, down=False, tiles=(3, 1, 22), "
                          "score=3, alphabet='catalan')")
    assert paste(move) == move and paste(move).score == 3
    far = Move("place", 2, 4, True, (40, 1, BLANK_FLAG | 50), (False, True, False))
    assert paste(far) == far and paste(far).through == far.through
    assert "through=(False, True, False)" in repr(far)
    exchange = Move("exchange", tiles=(0, 60), equity=1.0)
    assert repr(exchange) == "Move('exchange', tiles=(0, 60), equity=1.0)"
    assert paste(exchange) == exchange


def test_notation_without_a_board():
    assert Move("8H.PANDY") == Move("8H PANDY") == Move("  8h  PANDY ")
    assert Move("H8 PANDY").down and Move("(exch AB?)") == Move("exchange", tiles=codes("AB?"))
    assert Move("-AB?") == Move("exch AB?") and Move("-") == Move("(pass)") == Move("pass")
    assert Move("U21 QI") == Move("place", 20, 20, True, codes("QI"))  # no board, no edge
    with pytest.raises(RacketyError, match=r"^move 'E3 JAVE\.\.N': '\.' needs a board"):
        Move("E3 JAVE..N")
    with pytest.raises(RacketyError, match=r"^move '8D \(WORD\)': places no tile$"):
        Move("8D (WORD)")
    with pytest.raises(RacketyError, match=r"^move '8D W!RD': word 'W!RD' has letter '!'"):
        Move("8D W!RD")
    with pytest.raises(RacketyError, match="a move in notation takes no row"):
        Move("8D WORD", 7, 3)
    with pytest.raises(RacketyError, match="move kind 'exch' is not one of"):
        Move("exch")


@st.composite
def moves(draw):
    """A random move in a random alphabet, with random annotations; some tiles
    are outside the alphabet, some placements run past column Z."""
    name = draw(st.sampled_from(["english", "catalan", "spanish", "polish", "german",
                                 "english_super"]))
    alphabet = Alphabet.load(name)
    top = draw(st.sampled_from([alphabet.size - 1, 63]))
    kind = draw(st.sampled_from(["place", "place", "place", "exchange", "pass"]))
    if kind == "place":
        length = draw(st.integers(1, 9))
        tiles = draw(st.lists(st.integers(1, top).flatmap(
            lambda t: st.sampled_from([t, t | BLANK_FLAG])), min_size=length, max_size=length))
        through = draw(st.lists(st.booleans(), min_size=length, max_size=length))
        through[draw(st.integers(0, length - 1))] = False
        fields = dict(row=draw(st.integers(0, 24)), col=draw(st.integers(0, 24)),
                      down=draw(st.booleans()), tiles=tuple(tiles), through=tuple(through))
    elif kind == "exchange":
        fields = dict(tiles=tuple(draw(st.lists(st.integers(0, top), min_size=1, max_size=7))))
    else:
        fields = {}
    score = draw(st.none() | st.integers(-1000, 5000))
    equity = draw(st.none() | st.floats(allow_nan=False, allow_infinity=True))
    given_alphabet = draw(st.sampled_from([alphabet, name, None])) if name == "english" \
        else draw(st.sampled_from([alphabet, name]))
    return Move(kind, **fields, score=score, equity=equity, alphabet=given_alphabet)


@settings(max_examples=400, deadline=None)
@given(move=moves())
def test_repr_pastes_back_on_random_moves(move):
    again = eval(repr(move), {"Move": Move})
    assert again == move and hash(again) == hash(move)
    assert (again.kind, again.row, again.col, again.down, again.tiles, again.through) == \
        (move.kind, move.row, move.col, move.down, move.tiles, move.through)
    # the equity to two decimals (a repr is for reading)
    assert again.score == move.score
    assert again.equity == (None if move.equity is None else round(move.equity, 2))
    assert (again.alphabet or ENGLISH).name == (move.alphabet or ENGLISH).name
    assert repr(again) == repr(move)


# ------------------------------------------------------------------ parsing
def test_parse_reads_every_through_style_against_the_board():
    board = board_with({(7, 13): "E"})
    move = Move("place", 5, 13, True, codes("OVERLADE"), (False, False, True) + (False,) * 5)
    for text in ("N6 OV(E)RLADE", "N6 OV.RLADE", "N6 OVERLADE", "n6 OV(E)RLADE",
                 "  N6   OV(E)RLADE  "):
        assert board.parse_move(text) == move
    parsed = board.parse_move("n6 OVeRLADE")  # case of a tile on the board does not matter
    assert parsed == move and parsed.tiles[2] == codes("E")[0]
    assert board.parse_move("N6 oV(E)RLADE").tiles[0] == BLANK_FLAG | codes("O")[0]


def test_parse_takes_blanks_from_the_board():
    board = board_with({(7, 4): "e"}, rack="")
    board.grid[7, 4] = BLANK_FLAG | codes("E")[0]
    for text in ("8D W(E)RD", "8D W(e)RD", "8D W.RD", "8D WERD"):
        move = board.parse_move(text)
        assert move.tiles[1] == BLANK_FLAG | codes("E")[0] and move.through[1]
        assert board.notation(move) == "8D W(e)RD"


def test_parse_exchanges_and_passes():
    board = Board.from_cgp("/".join(["15"] * 15) + " ABC?DEF/ 0/0 0")
    exchange = Move("exchange", tiles=codes("AB?"))
    for text in ("-AB?", "exch AB?", "(exch AB?)", "exchange AB?", "EXCH ab?".upper(),
                 "( exch AB? )"):
        assert board.parse_move(text) == exchange
    for text in ("-", "pass", "(pass)", "PASS", " - "):
        assert board.parse_move(text) == Move("pass")
    assert parse_move("8H PANDY", board) == Move("place", 7, 7, False, codes("PANDY"))
    assert board.parse_move("8H.PANDY") == board.parse_move("8H PANDY")  # GCG's lm op


def test_parse_catalan_brackets_and_bare_spelling():
    board = board_with({(7, 4): "I", (11, 2): "O"}, alphabet="catalan")
    assert board.parse_move("3D CA[NY]OT") == board.parse_move("3D CANYOT") == Move(
        "place", 2, 3, False, codes("CANYOT", CATALAN))
    # E7 VIL·LES down through the I on E8
    villes = board.parse_move("E7 V(I)[L·L]ES")
    assert villes == board.parse_move("E7 VIL·LES") == board.parse_move("E7 V.[L·L]ES")
    assert villes.tiles == codes("VIL·LES", CATALAN) and villes.n_placed == 4
    aigua = board.parse_move("12A a[NY](O)[QU]EN")
    assert aigua == board.parse_move("12A aNY(O)QUEN")
    assert aigua.tiles[0] == BLANK_FLAG | codes("A", CATALAN)[0]
    assert board.notation(board.parse_move("12A a[ny]OQUEN")) == "12A a[ny](O)[QU]EN"


def test_parse_on_the_super_board():
    board = Board.empty("english_super")
    assert board.parse_move("21U Q") == Move("place", 20, 20, False, codes("Q"))
    assert board.parse_move("U20 QI").squares() == [(19, 20), (20, 20)]
    with pytest.raises(RacketyError, match=r"^move 'V1 QI': column V is off the 21x21 board$"):
        board.parse_move("V1 QI")


BOARD = {(7, 3): "W", (7, 4): "O", (7, 5): "R", (7, 6): "D"}  # 8D WORD


@pytest.mark.parametrize(("text", "message"), [
    ("8P WORD", "move '8P WORD': column P is off the 15x15 board"),
    ("16A WORD", "move '16A WORD': row 16 is off the 15x15 board"),
    ("0A WORD", "move '0A WORD': row 0 is off the 15x15 board"),
    ("8D W(X)RD", "move '8D W(X)RD': square 8E holds O, not X"),
    ("8D WXRDS", "move '8D WXRDS': square 8E holds O, not X"),
    ("8E ORDS", "move '8E ORDS': square 8D before the word holds W; the named square is the "
     "first letter of the whole main word"),
    ("8D WOR", "move '8D WOR': square 8G after the word holds D; write the whole main word"),
    ("8D (WORD)", "move '8D (WORD)': places no tile"),
    ("8D W.RD", "move '8D W.RD': places no tile"),
    ("8D (WORD)S", None),
    ("9D .A", "move '9D .A': '.' at square 9D, which is empty"),
    ("9D (A)T", "move '9D (A)T': square 9D is empty, but (A) says it holds a tile"),
    ("9L WORDS", "move '9L WORDS': the word runs off the 15x15 board"),
    ("9A W?RD", "move '9A W?RD': '?' in a word; a blank is written as the lower-case letter "
     "it stands for"),
    ("9A WO!D", "move '9A WO!D': word 'WO!D' has letter '!', which is not in alphabet english"),
    ("Z WORD", "move 'Z WORD': 'Z' is not a square (8D is across, D8 down)"),
    ("8DD WORD", "move '8DD WORD': '8DD' is not a square (8D is across, D8 down)"),
    ("9A", "move '9A': no word after the square"),
    ("9A ()", "move '9A ()': parentheses hold the letters already on the board"),
    ("9A WO(RD", "move '9A WO(RD': '(' without a closing ')'"),
    ("9A WORD)", "move '9A WORD)': ')' without an opening '('"),
    ("9A W[OR", "move '9A W[OR': '[' without a closing ']'"),
    ("exch", "move 'exch': an exchange needs the tiles exchanged"),
    ("-", None),
    ("-abc", "move '-abc': tiles exchanged 'abc': a blank on a rack is '?', not a "
     "lower-case letter"),
    ("-AEIOUXYZ", "move '-AEIOUXYZ': tiles exchanged 'AEIOUXYZ': 8 tiles, more than the "
     "rack size 7"),
    ("--", "move '--': '--' (a withdrawn phony) is a game event, not a move"),
    ("", "move '': empty"),
])
def test_parse_errors_are_one_line_and_name_the_text(text, message):
    board = board_with(BOARD)
    if message is None:
        assert isinstance(board.parse_move(text), Move)
        return
    with pytest.raises(RacketyError) as exc:
        board.parse_move(text)
    assert str(exc.value) == message


def test_parse_names_its_source_and_refuses_non_text():
    board = Board.empty()
    with pytest.raises(RacketyError, match=r"^game\.gcg:7 '8P QI': column P is off"):
        parse_move("8P QI", board, source="game.gcg:7")
    with pytest.raises(RacketyError, match="a move is text"):
        parse_move(8, board)  # type: ignore[arg-type]


# ---------------------------------------------------------- round trips
def random_board(rng, name, max_tiles):
    alphabet = Alphabet.load(name)
    board = Board.empty(alphabet)
    n = board.layout.size
    bag = [t.code for t in alphabet.tiles for _ in range(t.count)]
    rng.shuffle(bag)
    k = int(rng.integers(0, max_tiles + 1))
    for cell, code in zip(rng.choice(n * n, size=k, replace=False), bag[:k]):
        board.grid[cell // n, cell % n] = code or BLANK_FLAG | int(rng.integers(1, alphabet.size))
    return board


def random_placement(rng, board):
    n = board.layout.size
    grid = board.grid
    for _ in range(100):
        down = bool(rng.integers(0, 2))
        row, col = int(rng.integers(0, n)), int(rng.integers(0, n))
        dr, dc = (1, 0) if down else (0, 1)
        length = int(rng.integers(1, 10))
        last = (row + dr * (length - 1), col + dc * (length - 1))
        if last[0] >= n or last[1] >= n:
            continue
        if row - dr >= 0 and col - dc >= 0 and grid[row - dr, col - dc]:
            continue
        if last[0] + dr < n and last[1] + dc < n and grid[last[0] + dr, last[1] + dc]:
            continue
        squares = [int(grid[row + dr * i, col + dc * i]) for i in range(length)]
        if all(squares):
            continue
        tiles = tuple(held or int(rng.integers(1, board.alphabet.size))
                      | (BLANK_FLAG if rng.random() < 0.2 else 0) for held in squares)
        return Move("place", row, col, down, tiles, tuple(bool(h) for h in squares))
    return None


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1),
       name=st.sampled_from(["english", "catalan", "spanish", "english_super", "polish",
                             "german", "norwegian"]))
def test_notation_round_trips_on_random_placements(seed, name):
    rng = np.random.default_rng(seed)
    board = random_board(rng, name, max_tiles=int(rng.integers(0, 90)))
    move = random_placement(rng, board)
    if move is None:
        assert board.tiles_on_board > 0  # only a crowded board has no room
        return
    for style in ("parens", "dots", "bare"):
        text = move.notation(board.alphabet, through=style)
        again = board.parse_move(text)
        assert again == move, (text, style)
        assert again.tiles == move.tiles and again.through == move.through
    assert board.notation(move) == move.notation(board.alphabet)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), name=st.sampled_from(["english", "catalan", "spanish"]))
def test_exchange_notation_round_trips(seed, name):
    rng = np.random.default_rng(seed)
    board = Board.empty(name)
    size = board.alphabet.size
    tiles = tuple(int(t) for t in rng.integers(0, size, size=int(rng.integers(1, 8))))
    move = Move("exchange", tiles=tiles)
    text = move.notation(board.alphabet)
    assert board.parse_move(text) == move
    assert board.parse_move("-" + text[len("exch "):]) == move
