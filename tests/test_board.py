from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rackety import Alphabet, Board, Layout, Move, RacketyError
from rackety.alphabet import BLANK_FLAG

DATA = Path(__file__).parent / "data"
EMPTY15 = "/".join(["15"] * 15)
# oracle positions (../shared/oracle, MAGPIE): file -> alphabet to pass (None: the CGP says)
ORACLES = {"twl06_public.jsonl": None, "super21_twl06_public.jsonl": None,
           "catalan_wcat_public.jsonl": "catalan"}


def oracle(name):
    with open(DATA / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def boards_json():
    text = (resources.files("rackety") / "data" / "boards.json").read_text(encoding="utf-8")
    return json.loads(text)


# ------------------------------------------------------------------ layouts
def test_layout_names_skip_the_punctured_one():
    assert Layout.names() == ["standard15", "super21", "wwf15", "lexulous15"]


def test_shipped_boards_json_holds_every_layout():
    data = boards_json()
    assert {"standard15", "super21", "wwf15", "lexulous15",
            "punctured15_experimental"} <= set(data)


@pytest.mark.parametrize("name", ["standard15", "super21", "wwf15", "lexulous15"])
def test_layout_premium_counts_start_and_symmetry_match_boards_json(name):
    entry = boards_json()[name]
    layout = Layout.load(name)
    assert layout.name == name and layout.size == entry["size"] == len(entry["rows"])
    assert layout.start == (entry["start"]["row"], entry["start"]["col"])
    assert layout.symmetric is entry["symmetric"]
    lm, wm = layout.letter_mult, layout.word_mult
    assert lm.dtype == np.int8 and wm.dtype == np.int8
    assert lm.shape == wm.shape == (layout.size, layout.size)
    counts = {"'": int((lm == 2).sum()), '"': int((lm == 3).sum()), "^": int((lm == 4).sum()),
              "-": int((wm == 2).sum()), "=": int((wm == 3).sum()), "~": int((wm == 4).sum())}
    assert {k: v for k, v in counts.items() if v} == entry["premium_counts"]
    assert not ((lm > 1) & (wm > 1)).any()  # no square has both kinds
    with pytest.raises(ValueError):
        lm[0, 0] = 5  # read-only


def test_layout_facts_by_hand():
    std = Layout.load("standard15")
    assert std.start == (7, 7) and int(std.word_mult[7, 7]) == 2  # centre DWS
    assert int(std.word_mult[0, 0]) == 3 and int(std.letter_mult[0, 3]) == 2
    assert int(std.letter_mult[1, 5]) == 3 and std.premium(0, 0) == "="
    sup = Layout.load("super21")
    assert sup.start == (10, 10) and int(sup.word_mult[0, 0]) == 4
    assert int(sup.letter_mult[2, 5]) == 4
    wwf = Layout.load("wwf15")
    assert int(wwf.word_mult[7, 7]) == 1 and int(wwf.word_mult[0, 3]) == 3
    lex = Layout.load("lexulous15")
    assert not np.array_equal(lex.letter_mult, lex.letter_mult.T)
    assert np.array_equal(lex.letter_mult, lex.letter_mult[::-1])  # mirror-symmetric


@pytest.mark.parametrize(("alias", "name"), [
    ("CrosswordGame", "standard15"), ("standard", "standard15"), ("STANDARD15", "standard15"),
    ("SuperCrosswordGame", "super21"), ("standard21", "super21"), ("super", "super21"),
    ("wwf", "wwf15"), ("WordsWithFriends", "wwf15"), ("wordswithfriends", "wwf15"),
])
def test_layout_aliases_are_case_insensitive_and_cached(alias, name):
    assert Layout.load(alias) is Layout.load(name)
    assert Layout.load(alias).name == name


def test_unknown_layout_lists_the_names():
    with pytest.raises(RacketyError) as exc:
        Layout.load("punctured15_experimental")
    assert str(exc.value) == ("unknown board layout 'punctured15_experimental'; layouts: "
                              "standard15, super21, wwf15, lexulous15")


def test_every_alphabet_names_a_layout():
    for name in Alphabet.names():
        alphabet = Alphabet.load(name)
        assert Board.empty(alphabet).layout.name == alphabet.board


# ----------------------------------------------------------------- CGP in/out
@pytest.mark.parametrize("name", sorted(ORACLES))
def test_cgp_round_trips_every_oracle_position(name):
    alphabet = ORACLES[name]
    for entry in oracle(name):
        board = Board.from_cgp(entry["cgp"], alphabet=alphabet)
        assert board.cgp() == entry["cgp"]
        assert board.tiles_on_board == entry["tiles_on_board"]
        assert board.alphabet.format(board.rack, brackets=True) == entry["rack"]
        assert board.is_empty == (entry["tiles_on_board"] == 0)
        assert board.racks[1] == () and len(board.scores) == 2
        assert board.lexicon_name in ("TWL06", "DISC_WCAT")
        # the oracle's bag: the distribution minus the board and the mover's rack
        total = sum(t.count for t in board.alphabet.tiles)
        assert board.unseen_count == total - entry["tiles_on_board"] - len(board.rack)
        assert board.bag_count == max(0, board.unseen_count - board.alphabet.rack_size)
        assert Board.from_cgp(board.cgp(), alphabet=alphabet) == board


def test_super21_cgp_names_its_alphabet_and_layout():
    entry = oracle("super21_twl06_public.jsonl")[0]
    board = Board.from_cgp(entry["cgp"])
    assert board.alphabet.name == "english_super" and board.layout.name == "super21"
    assert board.grid.shape == (21, 21)
    assert board.options == {"lex": "TWL06", "bdn": "super21", "ld": "english_super"}
    assert list(board.options) == ["lex", "bdn", "ld"]
    assert eval(repr(board), {"Board": Board}) == board  # repr pastes back


def test_catalan_board_reads_brackets_and_bare_spelling():
    cgp = "15/15/15/15/15/15/15/3CO[L·L]EGI6/15/15/15/15/15/15/15 EN[NY][QU]RU?/ 0/0 0"
    board = Board.from_cgp(cgp, alphabet="catalan")
    bare = Board.from_cgp(cgp.replace("[L·L]", "L·L").replace("[NY][QU]", "NYQU"),
                          alphabet="catalan")
    assert bare == board and bare.cgp() == cgp  # written back with brackets
    cat = Alphabet.load("catalan")
    assert board.grid[7, 5] == cat.word("L·L")[0]
    assert board.rack == tuple(cat.tokenize("EN[NY][QU]RU?"))
    rows = ["15"] * 15
    rows[7] = "6A[ny]A6"
    blank_ny = Board.from_cgp("/".join(rows) + " / 0/0 0", alphabet="catalan")
    assert blank_ny.grid[7, 7] == BLANK_FLAG | cat.word("NY")[0]
    assert "6A[ny]A6" in blank_ny.cgp()
    assert "alphabet='catalan'" in repr(board)
    assert eval(repr(board), {"Board": Board}) == board


def test_explicit_alphabet_and_layout_win_over_ops():
    cgp = EMPTY15 + " ABC/ 0/0 0 ld catalan; bdn super21;"
    board = Board.from_cgp(cgp, alphabet="english", layout="standard15")
    assert board.alphabet.name == "english" and board.layout.name == "standard15"
    assert board.cgp() == cgp  # the ops are kept as read


def test_spanish_multi_letter_tiles_need_brackets_on_the_board():
    cgp = "15/15/15/15/15/15/15/5[CH]E[LL]O6/15/15/15/15/15/15/15 [RR]A?/ 0/0 0 ld spanish;"
    board = Board.from_cgp(cgp)
    es = Alphabet.load("spanish")
    assert board.grid[7, 5] == es.tokenize("[CH]")[0]
    assert board.cgp() == cgp
    plain = Board.from_cgp("15/15/15/15/15/15/15/5CHELLO4/15/15/15/15/15/15/15 / 0/0 0 "
                           "ld spanish;")
    assert plain.grid[7, 5:11].tolist() == es.word("CHELLO")  # plain CH is C + H
    assert len(es.word("CHELLO")) == 6 and plain.cgp().split()[0].count("[") == 0


def test_ops_keep_order_and_spelling_and_accessors():
    cgp = EMPTY15 + " / 0/0 3 gid abc-12; bb 35; lex CSW19; cr double; tmr 100/200; x;"
    board = Board.from_cgp(cgp)
    assert board.cgp() == cgp
    assert list(board.options) == ["gid", "bb", "lex", "cr", "tmr", "x"]
    assert board.options["x"] == "" and board.zero_turns == 3
    assert board.rules.bingo_bonus == 35 and board.lexicon_name == "CSW19"
    assert Board.from_cgp(EMPTY15 + " / 0/0 0").rules.bingo_bonus == 50
    assert Board.from_cgp(EMPTY15 + " / 0/0 0").lexicon_name is None
    # non-canonical spacing reads, and is written canonically
    loose = Board.from_cgp(f"  {EMPTY15}   A/B   1/-2  0  lex  TWL06;bb 50 ;  ")
    assert loose.cgp() == EMPTY15 + " A/B 1/-2 0 lex TWL06; bb 50;"
    assert loose.scores == [1, -2]


def test_racks_are_kept_as_read():
    board = Board.from_cgp(EMPTY15 + " ZYX?A/EB 0/0 0")
    assert board.cgp().split()[1] == "ZYX?A/EB"
    assert board.rack == (26, 25, 24, 0, 1)
    other = Board.from_cgp(EMPTY15 + " AXYZ?/BE 0/0 0")
    assert other == board  # racks compare as multisets


def test_three_players_and_one():
    board = Board.from_cgp(EMPTY15 + " ABC//Q 10/20/30 0")
    assert board.racks == [(1, 2, 3), (), (17,)] and board.scores == [10, 20, 30]
    # one unknown rack among the others: bag = unseen - 7
    assert board.bag_count == board.unseen_count - 7 == 100 - 4 - 7
    solo = Board.from_cgp(EMPTY15 + " ABC 5 0")
    assert solo.racks == [(1, 2, 3)] and solo.cgp() == EMPTY15 + " ABC 5 0"
    alone = Board.empty(players=1)
    with pytest.raises(RacketyError, match="lone player's unknown"):
        alone.cgp()
    assert repr(alone) == "<Board english on standard15, one unknown rack>"


def test_unseen_counts_blanks_on_the_board_as_blanks():
    board = Board.from_cgp("15/15/15/15/15/15/15/7Qi6/15/15/15/15/15/15/15 ?AB/ 0/0 0")
    unseen = board.unseen()
    english = Alphabet.load("english")
    assert unseen[0] == 0  # one blank on the board (i), one on the rack
    assert unseen[17] == 0 and unseen[9] == english.tiles[9].count  # Q gone, every I unseen
    assert unseen[1] == 8 and unseen[2] == 1
    assert board.unseen_count == 100 - 2 - 3
    assert board.bag_count == board.unseen_count - 7
    full = Board.from_cgp(EMPTY15 + " AEINRST/ABCDEFG 0/0 0")
    assert full.bag_count == full.unseen_count == 86


def test_bag_count_floors_at_zero():
    rows = ["15"] * 15
    rows[7] = "AAAAAAAAABB4"
    text = "/".join(rows) + " CCDDDD/ 0/0 0"
    board = Board.from_cgp(text)
    assert board.unseen_count == 100 - 11 - 6
    english = Alphabet.load("english")
    bag = [t.code for t in english.tiles for _ in range(t.count)][3:]  # all but 2 ? and an A
    near_end = Board.empty()
    for i, code in enumerate(bag):
        near_end.grid[i // 15, i % 15] = code or BLANK_FLAG | 1
    assert near_end.unseen_count == 3 and near_end.bag_count == 0
    assert near_end.unseen().tolist()[:2] == [2, 1]
    assert Board.empty(players=3).bag_count == 100 - 14


def test_empty_board_and_defaults():
    board = Board.empty()
    assert board.alphabet.name == "english" and board.layout.name == "standard15"
    assert board.cgp() == EMPTY15 + " / 0/0 0"
    assert board.grid.dtype == np.uint8 and board.is_empty and board.tiles_on_board == 0
    assert Board() == board
    sup = Board.empty("english_super")
    assert sup.layout.name == "super21" and sup.options == {"ld": "english_super"}
    assert Board.from_cgp(sup.cgp()) == sup
    wwf = Board.empty("english", layout="wwf")
    assert wwf.options == {"bdn": "wwf15"} and Board.from_cgp(wwf.cgp()) == wwf
    assert Board.empty(players=4).cgp() == EMPTY15 + " /// 0/0/0/0 0"


def test_equality_copy_and_repr():
    cgp = "15/15/15/15/15/15/15/7PANDY3/15/15/15/15/15/15/15 AU/ 0/30 0 lex TWL06;"
    board = Board.from_cgp(cgp)
    assert repr(board) == f"Board({cgp!r})"
    assert eval(repr(board), {"Board": Board}) == board
    clone = board.copy()
    assert clone == board and clone is not board
    clone.grid[0, 0] = 1
    clone.scores[0] = 5
    clone.options["bb"] = "40"
    assert clone != board and board.grid[0, 0] == 0 and board.scores == [0, 30]
    assert "bb" not in board.options
    assert board != Board.from_cgp(cgp.replace(" 0 lex", " 1 lex"))
    assert board != Board.from_cgp(cgp, alphabet="french")
    assert board.__eq__("not a board") is NotImplemented


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1),
       name=st.sampled_from(["english", "catalan", "spanish", "english_super", "polish",
                             "german", "english_wwf", "english_lexulous", "norwegian"]))
def test_cgp_round_trip_on_random_positions(seed, name):
    board = random_position(np.random.default_rng(seed), name)
    text = board.cgp()
    again = Board.from_cgp(text)
    assert again == board
    assert again.cgp() == text
    assert again.racks == board.racks  # as read, same order
    assert (again.unseen() >= 0).all()


def random_position(rng, name, max_tiles=None):
    """A position drawn from the full bag: tiles on random squares, 1 to 4 racks."""
    alphabet = Alphabet.load(name)
    board = Board.empty(alphabet, players=int(rng.integers(2, 5)))
    n = board.layout.size
    bag = [t.code for t in alphabet.tiles for _ in range(t.count)]
    rng.shuffle(bag)
    on_board = int(rng.integers(0, (max_tiles or min(len(bag) - 30, 80)) + 1))
    cells = rng.choice(n * n, size=on_board, replace=False)
    for cell, code in zip(cells, bag[:on_board]):
        if code == 0:
            code = BLANK_FLAG | int(rng.integers(1, alphabet.size))
        board.grid[cell // n, cell % n] = code
    rest = bag[on_board:]
    racks = []
    for _ in board.racks:
        k = int(rng.integers(0, alphabet.rack_size + 1))
        racks.append(tuple(rest[:k]))
        rest = rest[k:]
    board.racks = racks
    board.scores = [int(s) for s in rng.integers(-50, 700, size=len(racks))]
    board.zero_turns = int(rng.integers(0, 7))
    extra = [("lex", "TWL06"), ("bb", "50"), ("cr", "double"), ("gid", "g1"), ("mcnz", "6")]
    order = rng.permutation(len(extra))[: int(rng.integers(0, len(extra) + 1))]
    for i in order:
        board.options[extra[i][0]] = extra[i][1]
    return board


# -------------------------------------------------------------------- errors
SCORES = "(-1000000000 to 1000000000)"
CGP_ERRORS = [
    ("/".join(["16"] + ["15"] * 14) + " A/ 0/0 0",
     "cgp: board row 1 has 16 squares, expected 15"),
    ("15/15/15/3WORD7/15/15/15/15/15/15/15/15/15/15/15 A/ 0/0 0",
     "cgp: board row 4 has 14 squares, expected 15"),
    ("15/15/15 A/ 0/0 0", "cgp: board has 3 rows, expected 15 for layout standard15"),
    (EMPTY15 + " AEIOUXYZZ/ 0/0 0",
     "cgp: rack 'AEIOUXYZZ': 9 tiles, more than the rack size 7"),
    ("15/15/15/15/15/15/15/6ZZ7/15/15/15/15/15/15/15 Z/ 0/0 0",
     "cgp: 3 Z on board and racks, the distribution has 1"),
    ("15/15/15/15/15/15/15/6ab7/15/15/15/15/15/15/15 ?/ 0/0 0",
     "cgp: 3 ? on board and racks, the distribution has 2"),
    (EMPTY15 + " A1/ 0/0 0", "cgp: rack 'A1' has letter '1', which is not in alphabet english"),
    ("15/15/15/15/15/15/15/6A!7/15/15/15/15/15/15/15 / 0/0 0",
     "cgp: board row 8 'A!' has letter '!', which is not in alphabet english"),
    ("15/15/15/15/15/15/15/6?8/15/15/15/15/15/15/15 / 0/0 0",
     "cgp: board row 8 has '?'; a blank on the board is the lower-case letter it stands for"),
    (EMPTY15 + " aB/ 0/0 0",
     "cgp: rack 'aB': a blank on a rack is '?', not a lower-case letter"),
    (EMPTY15 + " A/B 0/0/0 0", "cgp: 2 racks but 3 scores"),
    (EMPTY15 + " A/B 0 0", "cgp: 2 racks but 1 scores"),
    (EMPTY15 + " A/B 0/x 0", f"cgp: score 'x' is not a whole number {SCORES}"),
    (EMPTY15 + " A/B 0/1.5 0", f"cgp: score '1.5' is not a whole number {SCORES}"),
    (EMPTY15 + " A/B 0/176٣ 0", f"cgp: score '176٣' is not a whole number {SCORES}"),
    (EMPTY15 + " A/B 0/" + "9" * 5000 + " 0",
     f"cgp: score {'9' * 38}...{'9' * 19} is out of range {SCORES}"),
    (EMPTY15 + " A/B 0/-9223372036854775809 0",
     f"cgp: score -9223372036854775809 is out of range {SCORES}"),
    (EMPTY15 + " A/B 0/0 two", "cgp: zero-turns field 'two' is not a whole number "
     "(0 to 1000000)"),
    (EMPTY15 + " A/B 0/0 -1", "cgp: zero-turns field '-1' is not a whole number "
     "(0 to 1000000)"),
    (EMPTY15 + " A/B 0/0 ２", "cgp: zero-turns field '２' is not a whole number "
     "(0 to 1000000)"),
    (EMPTY15 + " A/B 0/0",
     "cgp: missing field(s) zero-turns (a CGP is '<board> <racks> <scores> <zero-turns> "
     "[ops]')"),
    (EMPTY15, "cgp: missing field(s) racks, scores, zero-turns (a CGP is '<board> <racks> "
     "<scores> <zero-turns> [ops]')"),
    ("", "cgp: missing field(s) board, racks, scores, zero-turns (a CGP is '<board> <racks> "
     "<scores> <zero-turns> [ops]')"),
    (EMPTY15 + " A/B 0/0 0 lex TWL06", "cgp: operation 'lex TWL06' does not end with ';'"),
    (EMPTY15 + " A/B 0/0 0 lex TWL06; bb 50",
     "cgp: operation 'bb 50' does not end with ';'"),
    (EMPTY15 + " A/B 0/0 0 lex TWL06;;", "cgp: an empty operation (';' twice)"),
    (EMPTY15 + " A/B 0/0 0 lex A; lex B;", "cgp: operation 'lex' given twice"),
    (EMPTY15 + " A/B 0/0 0 bb fifty;", "cgp: bb operand 'fifty' is not a whole number "
     "(0 to 10000)"),
    (EMPTY15 + " A/B 0/0 0 bb 18446744073709551616;",
     "cgp: bb operand 18446744073709551616 is out of range (0 to 10000)"),
    ("15/15/15/15/15/15/15/" + "9" * 5000 + "/15/15/15/15/15/15/15 / 0/0 0",
     "cgp: board row 8 has 16 squares, expected 15"),
    ("15/15/15/15/15/15/15/7A٣/15/15/15/15/15/15/15 / 0/0 0",
     "cgp: board row 8 'A٣' has letter '٣', which is not in alphabet english"),
    (EMPTY15 + " " + "A/" * 20 + " " + "0/" * 20 + "0 0", "cgp: 21 racks, more than 16 players"),
    (EMPTY15 + " A/B 0/0 0 bdn moon;",
     "cgp: bdn: unknown board layout 'moon'; layouts: standard15, super21, wwf15, lexulous15"),
    ("15/15/15/15/15/15/15/0A14/15/15/15/15/15/15/15 / 0/0 0",
     "cgp: board row 8 has '0', not a run of empty squares"),
    ("15/15/15/15/15/15/15/6[L·L]8/15/15/15/15/15/15/15 / 0/0 0",
     "cgp: board row 8 '[L·L]': [L·L] is not a tile of alphabet english"),
    (EMPTY15 + " [CH/ 0/0 0 ld spanish;", "cgp: rack '[CH': '[' without a closing ']'"),
    ("/".join(["21"] * 21) + " / 0/0 0",
     "cgp: board has 21 rows, expected 15 for layout standard15"),
]


@pytest.mark.parametrize(("text", "message"), CGP_ERRORS)
def test_cgp_errors_are_one_line_and_name_the_field(text, message):
    with pytest.raises(RacketyError) as exc:
        Board.from_cgp(text)
    assert str(exc.value) == message
    assert "\n" not in str(exc.value)


def test_unknown_ld_lists_the_alphabets_and_source_is_named():
    with pytest.raises(RacketyError, match=r"^cgp: ld: unknown alphabet 'klingon'; built-in "
                       r"alphabets: catalan, .*english.*"):
        Board.from_cgp(EMPTY15 + " / 0/0 0 ld klingon;")
    with pytest.raises(RacketyError, match=r"^games\.cgp:3: board row 1 has 16 squares"):
        Board.from_cgp("/".join(["16"] + ["15"] * 14) + " / 0/0 0", source="games.cgp:3")
    with pytest.raises(RacketyError, match="^cgp: a CGP is one line$"):
        Board.from_cgp(EMPTY15 + " A/\n 0/0 0")
    with pytest.raises(RacketyError, match="^cgp: a CGP is text, not int$"):
        Board.from_cgp(42)  # type: ignore[arg-type]
    with pytest.raises(RacketyError, match="^players: 0, at least 1 expected$"):
        Board.empty(players=0)


# ------------------------------------------------------------------- scoring
def test_opening_scores_by_hand():
    board = Board.from_cgp(EMPTY15 + " AADNPUY/ 0/0 0")
    # P3 A1 N1 D2 Y4: 8H PANDY puts Y on the L8 DLS: 3+1+1+2+8 = 15, doubled by the centre
    assert board.score(board.parse_move("8H PANDY")) == 30
    # 8D PANDY puts P on the D8 DLS: 6+1+1+2+4 = 14, doubled by the centre
    assert board.score(board.parse_move("8D PANDY")) == 28
    # down from the centre, Y on the H12 DLS; the blank P scores 0: (0+1+1+2+8) * 2
    assert board.score(board.parse_move("H8 pANDY")) == 24


def test_bingo_bonus_and_the_bb_operation():
    board = Board.from_cgp(EMPTY15 + " AEINRST/ 0/0 0")
    # R on the D8 DLS (2) + ETAINS (6), doubled by the centre, + 50
    assert board.score(board.parse_move("8D RETAINS")) == 16 + 50
    assert Board.from_cgp(EMPTY15 + " AEINRST/ 0/0 0 bb 35;").score(
        board.parse_move("8D RETAINS")) == 16 + 35
    lex = Board.empty("english_lexulous")  # rack 8: seven tiles is no bingo there
    assert lex.score(lex.parse_move("8D RETAINS")) == 8  # plain row, T is worth 2


def test_cross_words_by_hand():
    board = Board.from_cgp("15/15/15/15/15/15/15/7HE6/15/15/15/15/15/15/15 AX?/ 0/0 0")
    # 9H AX: A on H9 (plain) 1, X on I9 (DLS) 16: AX = 17;
    # cross words HA = 4 + 1 = 5 and EX = 1 + 16 = 17; total 39
    assert board.score(board.parse_move("9H AX")) == 39
    # the same with a blank for A: AX 16, HA 4, EX 17
    assert board.score(board.parse_move("9H aX")) == 37
    # a one-tile play scores its only word: I9 X under E, read down as EX = 17
    assert board.score(board.parse_move("I8 (E)X")) == 17
    assert board.score(board.parse_move("9I X")) == 17


def test_word_premium_under_a_cross_word():
    board = Board.from_cgp("15/7A7/15/15/15/15/15/15/15/15/15/15/15/15/15 ZEK/ 0/0 0")
    # H1 Z(A): Z on the H1 TWS, A already on H2: (10 + 1) * 3 = 33
    assert board.score(board.parse_move("H1 Z(A)")) == 33
    # 1G ZEK: Z on G1, E on the H1 TWS, K on I1: (10 + 1 + 5) * 3 = 48, and the
    # cross word EA down H1-H2 also takes the TWS: (1 + 1) * 3 = 6
    assert board.score(board.parse_move("1G ZEK")) == 48 + 6


@pytest.mark.parametrize("name", sorted(ORACLES))
def test_scores_of_oracle_best_moves(name):
    alphabet = ORACLES[name]
    checked = 0
    for entry in oracle(name):
        board = Board.from_cgp(entry["cgp"], alphabet=alphabet)
        for text in entry["best_moves"]:
            move = board.parse_move(text)
            assert board.score(move) == entry["best_score"], (entry["cgp"], text)
            assert board.notation(move) == text
            checked += 1
    assert checked >= len(oracle(name)) - 1


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_score_is_the_same_on_the_transposed_board(seed):
    rng = np.random.default_rng(seed)
    board = random_position(rng, "english", max_tiles=30)
    move = random_placement(rng, board)
    if move is None:
        return
    flipped = board.copy()
    flipped.grid = board.grid.T.copy()
    mirrored = Move("place", move.col, move.row, not move.down, move.tiles, move.through)
    assert flipped.score(mirrored) == board.score(move) >= 0


def random_placement(rng, board):
    """A random well-formed placement on ``board`` or None (the word's ends are clear)."""
    n = board.layout.size
    for _ in range(50):
        down = bool(rng.integers(0, 2))
        row, col = int(rng.integers(0, n)), int(rng.integers(0, n))
        length = int(rng.integers(1, 9))
        dr, dc = (1, 0) if down else (0, 1)
        end_r, end_c = row + dr * (length - 1), col + dc * (length - 1)
        if end_r >= n or end_c >= n:
            continue
        if row - dr >= 0 and col - dc >= 0 and board.grid[row - dr, col - dc]:
            continue
        if end_r + dr < n and end_c + dc < n and board.grid[end_r + dr, end_c + dc]:
            continue
        tiles, through = [], []
        for i in range(length):
            held = int(board.grid[row + dr * i, col + dc * i])
            if held:
                tiles.append(held)
                through.append(True)
            else:
                code = int(rng.integers(1, board.alphabet.size))
                if rng.random() < 0.15:
                    code |= BLANK_FLAG
                tiles.append(code)
                through.append(False)
        if all(through):
            continue
        return Move("place", row, col, down, tuple(tiles), tuple(through))
    return None


# ---------------------------------------------------------------------- play
def test_play_places_scores_and_passes_the_turn():
    board = Board.from_cgp(EMPTY15 + " AADNPUY/EEE 0/12 2 lex TWL06;")
    move = board.parse_move("8H PANDY")
    child = board.play(move)
    assert child.cgp() == ("15/15/15/15/15/15/15/7PANDY3/15/15/15/15/15/15/15 EEE/AU 12/30 0 "
                           "lex TWL06;")
    assert board.cgp() == EMPTY15 + " AADNPUY/EEE 0/12 2 lex TWL06;"  # unchanged
    assert child.zero_turns == 0 and child.tiles_on_board == 5
    assert child.unseen_count == board.unseen_count  # the tiles came from a known rack


def test_play_scores_every_move_and_removes_blanks_as_question_marks():
    board = Board.from_cgp(EMPTY15 + " ?ADNPUY/ 0/0 0")
    move = board.parse_move("8H pANDY")
    with pytest.raises(RacketyError, match=r"^move '8H pANDY' scores 24 here, not 99$"):
        board.play(Move(move.kind, move.row, move.col, move.down, move.tiles, move.through,
                        score=99))
    child = board.play(Move(move.kind, move.row, move.col, move.down, move.tiles,
                            move.through, score=24))
    assert child.scores == [0, 24] and child.racks == [(), (16, 21)]  # the ? left, P kept
    assert child.grid[7, 7] == BLANK_FLAG | 16
    assert board.play(move).scores == [0, 2 * (0 + 1 + 1 + 2 + 8)]


def test_play_with_an_unknown_rack_and_a_missing_tile():
    board = Board.from_cgp(EMPTY15 + " / 0/0 0")
    assert board.play(board.parse_move("8H PANDY")).racks == [(), ()]
    known = Board.from_cgp(EMPTY15 + " PANDA/ 0/0 0")
    with pytest.raises(RacketyError, match=r"^move '8H PANDY': tile Y is not on the rack "
                                           r"'PANDA'$"):
        known.play(known.parse_move("8H PANDY"))
    with pytest.raises(RacketyError, match="tile \\? is not on the rack"):
        known.play(known.parse_move("8H PANDa"))


def test_play_exchange_and_pass_change_only_the_turn():
    board = Board.from_cgp(EMPTY15 + " ABCDEFG/HIJ 5/7 4")
    exchanged = board.play(board.parse_move("exch ABC"))
    assert exchanged.racks == [(8, 9, 10), (1, 2, 3, 4, 5, 6, 7)]
    assert exchanged.scores == [7, 5] and exchanged.zero_turns == 5
    assert np.array_equal(exchanged.grid, board.grid)
    passed = exchanged.play(exchanged.parse_move("pass"))
    assert passed.racks == board.racks and passed.scores == board.scores
    assert passed.zero_turns == 6


def test_play_checks_the_squares():
    board = Board.from_cgp("15/15/15/15/15/15/15/7HE6/15/15/15/15/15/15/15 / 0/0 0")
    taken = Move("place", 7, 7, False, (1, 24))
    with pytest.raises(RacketyError, match=r"^move '8H AX': square 8H is taken$"):
        board.play(taken)
    wrong = Move("place", 7, 7, False, (1, 5), (True, True))
    with pytest.raises(RacketyError, match="square 8H does not hold A"):
        board.score(wrong)
    off = Move("place", 7, 14, False, (1, 2))
    with pytest.raises(RacketyError, match="runs off the 15x15 board"):
        board.score(off)


def test_a_game_of_plays_keeps_scores_and_counts():
    board = Board.from_cgp(EMPTY15 + " AADNPUY/EIMORST 0/0 0")
    board = board.play(board.parse_move("8H PANDY"))
    assert board.rack == tuple(board.alphabet.tokenize("EIMORST"))
    stormy = board.parse_move("L3 STORMY")
    assert board.notation(stormy) == "L3 STORM(Y)"
    # S1 T1 (L4 DWS) O1 R1 M3 Y4 = 11, doubled
    assert board.score(stormy) == 22
    board = board.play(stormy)
    assert board.scores == [30, 22] and board.tiles_on_board == 10 and board.zero_turns == 0
    assert board.racks == [(1, 21), (5, 9)]


def test_a_position_holds_nothing_of_a_lexicon(twl06):
    """The generator keeps the cross sets (`MoveGenerator`), by the board's tiles:
    a board's attributes are its position, and a board edited in place gets
    cross sets of its new tiles."""
    from rackety.game.movegen import MoveGenerator, cross_sets

    board = Board.from_cgp(EMPTY15 + " AADNPUY/ 0/0 0")
    board.moves(twl06)
    assert set(vars(board)) == {"alphabet", "layout", "grid", "racks", "scores", "zero_turns",
                                "options", "_rules", "_rules_made"}
    generator = MoveGenerator.of(twl06)
    assert generator is MoveGenerator.of(twl06)
    move = board.parse_move("8H PANDY")
    child = board.play(move)
    generator.after(board, move, child)  # derived lane by lane from the parent's
    fresh = cross_sets(child.grid, twl06)
    kept = generator.cross_sets(child)
    assert np.array_equal(kept.tiles, fresh.tiles) and np.array_equal(kept.cross, fresh.cross)
    board.grid[7, 7] = twl06.alphabet.tokenize("Q")[0]  # edited in place: not the old sets
    edited = generator.cross_sets(board)
    assert np.array_equal(edited.cross, cross_sets(board.grid, twl06).cross)
    for i in range(MoveGenerator.CACHED + 5):  # the cache stays bounded
        other = board.copy()
        other.grid[0, i % 15] = 1 + i // 15
        generator.cross_sets(other)
    assert len(generator._cross) <= MoveGenerator.CACHED


# ----------------------------------------------------------------- rendering
POSITION = ("15/15/15/15/15/15/15/4QuIZ7/15/15/15/15/15/15/15 AEINRST/ 0/0 0")


def test_text_board_has_a_row_per_line_and_premium_marks():
    board = Board.from_cgp(POSITION)
    text = str(board)
    rows = [line for line in text.splitlines() if re.match(r"^\s*\d+\s", line)]
    assert len(rows) == 15
    assert text.splitlines()[0].split() == [chr(65 + c) for c in range(15)]
    assert rows[0].split()[1:] == list("=..'...=...'..=")
    assert rows[7].split()[1:] == list("=..'QuIZ...'..=")
    assert "AEINRST" in text and "score 0" in text
    assert "*" in str(Board.empty()).splitlines()[8]  # the start square
    sup = str(Board.empty("english_super"))
    assert len([line for line in sup.splitlines() if re.match(r"^\s*\d+\s", line)]) == 21
    cat = str(Board.from_cgp("15/15/15/15/15/15/15/5CO[L·L]EGI4/15/15/15/15/15/15/15 / 0/0 0",
                             alphabet="catalan"))
    assert "L·L" in cat


def test_terminal_rendering_colours_and_highlight():
    board = Board.from_cgp(POSITION)
    coloured = board.render()
    assert "\x1b[" in coloured and "Q" in coloured
    assert "48;2;215;38;61" in coloured  # TWS red background
    assert "48;2;217;183;126" in coloured  # tan tiles
    assert "38;2;176;24;106" in coloured  # the blank's magenta letter
    plain = board.render(color=False)
    assert "\x1b" not in plain
    assert len([line for line in plain.splitlines() if re.match(r"^\s*\d+\s", line)]) == 15
    lit = board.render(highlight=[(7, 4), (7, 5)])
    assert "48;2;245;183;0" in lit and "48;2;245;183;0" not in coloured
    move = board.parse_move("9E AT")
    assert "48;2;245;183;0" in board.render(highlight=move)
    assert board.__rich__().plain.count("\n") >= 16


def test_svg_has_every_square_and_tile():
    board = Board.from_cgp(POSITION)
    svg = board.svg()
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    rects = root.findall(f"{ns}rect")
    assert root.get("width") == "400"
    assert sum(1 for r in rects if r.get("class") == "square") == 15 * 15
    assert sum(1 for r in rects if r.get("class") == "tile") == 4
    texts = root.findall(f"{ns}text")
    letters = [t.text for t in texts if t.get("class") == "letter"]
    assert letters == ["Q", "u", "I", "Z"]
    assert [t.text for t in texts if t.get("class") == "points"] == ["10", "1", "10"]  # no 0
    premiums = [t.text for t in texts if t.get("class") == "premium"]
    assert premiums.count("TW") == 8 and premiums.count("DL") == 24
    assert "★" not in premiums  # Z covers the start square
    assert "★" in Board.empty().svg()
    assert board._repr_svg_() == svg
    lit = ET.fromstring(board.svg(size=300, highlight=board.parse_move("9E AT")))
    assert lit.get("width") == "300"
    assert sum(1 for r in lit.findall(f"{ns}rect") if r.get("class") == "highlight") == 2
    sup = ET.fromstring(Board.empty("english_super").svg())
    assert sum(1 for r in sup.findall(f"{ns}rect") if r.get("class") == "square") == 21 * 21
    premiums = [t.text for t in sup.findall(f"{ns}text") if t.get("class") == "premium"]
    assert premiums.count("QW") == 4 and premiums.count("QL") == 8


def test_svg_escapes_and_shows_multi_letter_tiles():
    board = Board.from_cgp("15/15/15/15/15/15/15/5CO[L·L]EGI4/15/15/15/15/15/15/15 / 0/0 0",
                           alphabet="catalan")
    root = ET.fromstring(board.svg())
    letters = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")
               if t.get("class") == "letter"]
    assert letters == ["C", "O", "L·L", "E", "G", "I"]
