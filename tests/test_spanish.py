"""A Spanish position checked by hand: the tiles CH, LL and RR (one square, one
tile each), blanks standing for them, premiums under them, the bingo; C and H
tiles never make a CH; the notation round-trips; the whole move list is the
brute-force reference's (tests/movegen_reference.py)."""

from __future__ import annotations

import movegen_reference as ref
import numpy as np
import pytest

from rackety import Alphabet, Board, Lexicon, Move

ES = Alphabet.load("spanish")

# CH, LL and RR are written in brackets (plain C + H reads as two tiles in
# Spanish); [ch] is a blank standing for CH
WORDS = [
    "CA[LL]E", "CA[LL]ES", "PE[RR]O", "PE[RR]OS", "CA[RR]O", "CA[RR]OS", "MU[CH]A[CH]O",
    "MU[CH]A[CH]OS", "MU[CH]A[CH]A", "[CH]AO", "[CH]ICO", "[CH]ICOS", "[LL]AMA", "MA[LL]AS",
    "MA[CH]O", "MU[CH]AS", "PO", "OS", "AS", "MAS", "SOMA", "COSA", "CASO", "OCA", "HOCICO",
]

# The board (standard layout; columns A-O, rows 1-15):
#   row 7:  P at H7
#   row 8:  C A [LL] E at E8 F8 G8 H8  (CALLE across, through the centre)
#   row 9:  [RR] at H9                 (PERRO down H7-H10, sharing CALLE's E)
#   row 10: O at H10
# Spanish points: A E I O U L N R S T 1, D G 2, B C M P 3, F H V Y 4, CH Q 5,
# J LL N~ RR X 8, Z 10; the blank 0; the bingo bonus 50.
CGP = ("15/15/15/15/15/15/7P7/4CA[LL]E7/7[RR]7/7O7/15/15/15/15/15 [CH]?MUAOS/ 40/30 0 "
       "lex MINI;")


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return Lexicon.from_words(WORDS, "spanish")


@pytest.fixture(scope="module")
def board() -> Board:
    return Board.from_cgp(CGP, alphabet="spanish")


# (notation, score by hand)
HAND = [
    # MUCHACHOS down column I, rows 2-8, its S hooking CALLE+S: M I2, U I3 (double
    # letter), CH I4, A I5, ch I6 (the blank), O I7 (double letter), S I8.
    # MUCHACHOS: 3 + 1x2 + 5 + 1 + 0 + 1x2 + 1 = 14 (no word premium in column I)
    # PO across row 7 (P on the board at H7, O new on the double letter): 3 + 1x2 = 5
    # CALLES across row 8 (S on a plain square): 3 + 1 + 8 + 1 + 1 = 14
    # seven tiles: the bingo, 50.  14 + 5 + 14 + 50 = 83
    ("I2 MU[CH]A[ch]OS", 83),
    # the same with the blank as the first CH, the natural one at I6:
    # 3 + 2 + 0 + 1 + 5 + 2 + 1 = 14, the rest as above: 83
    ("I2 MU[ch]A[CH]OS", 83),
    # MUCHACHOS across row 11, its S on H11 hooking PERRO+S: M B11, U C11, CH D11,
    # A E11 (double word), ch F11, O G11, S H11; nothing above or below the others.
    # MUCHACHOS: (3 + 1 + 5 + 1 + 0 + 1 + 1) x 2 = 24; PERROS: 3 + 1 + 8 + 1 + 1 = 14;
    # the bingo 50.  24 + 14 + 50 = 88, the blank on either CH (plain squares both)
    ("11B MU[CH]A[ch]OS", 88),
    ("11B MU[ch]A[CH]OS", 88),
    # CARRO down column E from the board's C: A E9, rr E10 (the blank standing for
    # RR, whose only tile is on the board), O E11 (double word): (3 + 1 + 0 + 1) x 2 = 10
    ("E8 (C)A[rr]O", 10),
    # CHAO across row 10 ending on the board's O at H10: CH on F10, a triple
    # letter: 5x3 = 15, A on G10 (plain) 1, O 1: 17; no cross words (F9, F11, G9,
    # G11 empty)
    ("10F [CH]A(O)", 17),
    # the same with the blank as CH: 0 + 1 + 1 = 2
    ("10F [ch]A(O)", 2),
    # MUCHACHO down column F through CALLE's A: M F5, U F6 (triple letter), CH F7,
    # A F8 (board), ch F9, O F10 (triple letter): 3 + 1x3 + 5 + 1 + 0 + 1x3 = 15
    ("F5 MU[CH](A)[ch]O", 15),
    # MUCHACHOS: S on F11 (plain) adds 1: 16 (six tiles: no bingo)
    ("F5 MU[CH](A)[ch]OS", 16),
    # MALLAS down column F through CALLE's A, the blank standing for LL: M F5, A F6
    # (triple letter), ll F7, A F8 (board), S F9: 3 + 1x3 + 0 + 1 + 1 = 8
    ("F5 MA[ll](A)S", 8),
    # MALLAS down column G through the board's LL would put an A on G7 beside
    # PERRO's P (AP across is no word): not a move (checked below)
]


def test_scores_by_hand(board: Board, lexicon: Lexicon) -> None:
    moves = {m: m.score for m in board.moves(lexicon).placements()}
    assert len(moves) == board.moves(lexicon).count
    for text, score in HAND:
        move = board.parse_move(text)
        assert board.score(move) == score, text
        assert move in moves, text
        assert moves[move] == score, text
    # what the blank stands for: RR's only tile is on the board, so CARRO is the blank's
    carro = board.parse_move("E8 (C)A[rr]O")
    assert carro.tiles[2] == 0x80 | ES.word("[RR]")[0]
    assert board.parse_move("E8 (C)A[RR]O") not in moves  # no natural RR on the rack
    # the bingo on row 11 is the best score of the position
    best = board.moves(lexicon).top_scoring()
    assert {m.notation(ES) for m in best} == {"11B MU[CH]A[ch]OS", "11B MU[ch]A[CH]OS"}
    # MALLAS down column G is refused by its cross word AP
    mallas = [m for m in moves if ES.format([t & 0x7F for t in m.tiles]) == "MALLAS"]
    assert {(m.col, m.down) for m in mallas} == {(5, True)}  # column F only


def test_notation_round_trips(board: Board) -> None:
    for text, score in HAND:
        move = board.parse_move(text)
        written = board.notation(move)
        assert written == text
        assert Move(written, alphabet="spanish") == move
        assert board.parse_move(written) == move
        assert repr(Move(written, score=score, alphabet="spanish")) == \
            f"Move({text!r}, score={score}, alphabet='spanish')"
    # the aliases 1, 2, 3 read as CH, LL, RR; lower case inside brackets is a blank
    assert board.parse_move("I2 MU1A[ch]OS") == board.parse_move("I2 MU[CH]A[ch]OS")
    assert board.parse_move("E8 (C)A[rr]O").tiles == (ES.word("C")[0], ES.word("A")[0],
                                                       0x80 | ES.word("3")[0],
                                                       ES.word("O")[0])
    # plain CH is C then H in Spanish: another move, of other tiles
    plain = Move("10F CHA(O)", alphabet="spanish")
    assert len(plain.tiles) == 4 and plain != board.parse_move("10F [CH]A(O)")


def test_c_and_h_never_make_ch(lexicon: Lexicon) -> None:
    assert "[CH]ICO" in lexicon and "CHICO" not in lexicon  # CHICO is C H I C O
    assert ES.word("[CH]ICO") != ES.word("CHICO") and len(ES.word("CHICO")) == 5
    ch, c, h = ES.word("[CH]")[0], ES.word("C")[0], ES.word("H")[0]
    chico = tuple(ES.word("[CH]ICO"))
    # rack C H I C O S A: every letter of CHICO but the CH tile
    board = Board.from_cgp("/".join(["15"] * 15) + " CHICOSA/ 0/0 0", alphabet="spanish")
    moves = board.moves(lexicon).placements()
    words = {tuple(t & 0x7F for t in m.tiles) for m in moves}
    assert chico not in words and (c, h, ES.word("I")[0], c, ES.word("O")[0]) not in words
    assert words  # it plays other words (CASO, COSA, OCA ...)
    assert all(ES.format(w) in {"CASO", "COSA", "OCA", "OS", "AS", "HOCICO"} for w in words)
    # with the CH tile it plays CHICO; with a blank, the blank stands for CH,
    # never C + H
    board = Board.from_cgp("/".join(["15"] * 15) + " [CH]ICOSA/ 0/0 0", alphabet="spanish")
    assert any(tuple(m.tiles) == chico for m in board.moves(lexicon).placements())
    board = Board.from_cgp("/".join(["15"] * 15) + " CHICO?S/ 0/0 0", alphabet="spanish")
    found = [m for m in board.moves(lexicon).placements()
             if tuple(t & 0x7F for t in m.tiles)[:4] == chico]
    assert found and all(m.tiles[0] == 0x80 | ch for m in found)
    # the blank CH scores 0, I C O S their points, the start square H8 doubles the
    # word: 8H CHICO = (0 + 1 + 3 + 1) x 2 = 10; 8H CHICOS puts the S on L8, a double
    # letter: (0 + 1 + 3 + 1 + 1x2) x 2 = 14
    by_text = {m.notation(ES): m.score for m in found}
    assert by_text["8H [ch]ICO"] == 10 and by_text["8H [ch]ICOS"] == 14
    # the C and H tiles cannot stand in for the CH tile in a word on the board
    # either: a move that spells [CH]ICO with C, H is no move
    with_c_h = Move("place", 7, 7, tiles=(c, h, ES.word("I")[0], c, ES.word("O")[0]),
                    through=(False,) * 5, alphabet=ES)
    assert with_c_h not in set(board.moves(lexicon).placements())


def test_every_move_is_the_reference_s(board: Board, lexicon: Lexicon) -> None:
    words = {tuple(ES.word(w)) for w in WORDS}
    points = [t.points for t in ES.tiles]
    letter_mult, word_mult, start = ref.premiums(15)
    grid = np.asarray(board.grid, np.uint8)
    expected = ref.reference_moves(grid, list(board.rack), words, points, letter_mult,
                                   word_mult, start, 50, 7)
    got = {}
    for m in board.moves(lexicon).placements():
        got[(m.row, m.col, m.down, tuple(m.tiles), tuple(m.through))] = m.score
    assert got == expected
    for text, score in HAND:
        m = board.parse_move(text)
        assert expected[(m.row, m.col, m.down, tuple(m.tiles), tuple(m.through))] == score
