"""GCG game records (rackety.game.gcg) and `rackety gcg`: our own small records in
tests/data/gcg (exact round trips, replays checked square by square), the
real-world corpus in ../shared/corpus/gcg when it is there, generated records
(hypothesis) and the command line."""

from __future__ import annotations

import json
import random
import string
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rackety import Board, Move, RacketyError
from rackety.alphabet import BLANK_FLAG
from rackety.frontends import shapes
from rackety.frontends.cli import main
from rackety.game.gcg import (
    KINDS,
    Event,
    GcgRecord,
    Player,
    Pragma,
    read_gcg,
    replay,
    save_gcg,
    write_gcg,
)

DATA = Path(__file__).parent / "data" / "gcg"
ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "gcg"
CORPUS_FILES = sorted(CORPUS.glob("*.gcg")) if CORPUS.is_dir() else []
OWN = ["double_challenge.gcg", "five_point.gcg", "incomplete.gcg"]
EMPTY = "/".join(["15"] * 15)

# the final board of double_challenge.gcg and five_point.gcg, row by row
FINAL_ROWS = ["15", "15", "15", "15", "15", "15", "6YET6", "3HALTED6", "3OG3OX5", "3WO10",
              "PITSN10", "4E10", "2RUSE9", "15", "15"]


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def need_corpus(path):
    if path is None:
        pytest.skip(f"no GCG corpus at {CORPUS}: the corpus tests did not run")


corpus = pytest.mark.parametrize("path", CORPUS_FILES or [None],
                                 ids=lambda p: p.stem if p else "no-corpus")


# ---------------------------------------------------------- our own records
@pytest.mark.parametrize("name", OWN)
def test_own_records_round_trip_exactly(name, tmp_path):
    text = (DATA / name).read_text(encoding="utf-8")
    record = read_gcg(DATA / name)
    assert write_gcg(record) == text
    assert read_gcg(text) == record
    save_gcg(record, tmp_path / name)
    assert (tmp_path / name).read_bytes() == text.encode("utf-8")
    assert [p.name for p in tmp_path.iterdir()] == [name]  # no temporary file left


def test_read_double_challenge_record():
    record = read_gcg(DATA / "double_challenge.gcg")
    assert record.players == [Player("ann", "Ann Able"), Player("bob", "Bob Baker")]
    assert record.encoding == "UTF-8" and record.lexicon == "TWL06"
    assert record.title == "rackety test game: double challenge"
    assert [p.name for p in record.pragmata] == ["player1", "player2", "title", "lexicon"]
    assert [e.kind for e in record.events] == [
        "play", "exchange", "play", "play", "withdrawn", "pass", "play", "play", "play",
        "play", "play", "end_rack_points"]
    assert [e.seat for e in record.events] == [0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1, 1]
    first, exchange = record.events[0], record.events[1]
    assert (first.nickname, first.rack, first.move, first.score, first.total) == \
        ("ann", "ADEHLRT", "8D HALTED", 28, 28)
    assert (first.coordinates, first.word, first.position) == ("8D", "HALTED", (7, 3, False))
    assert first.notes == ["The H on the double-letter square, the word on the star."]
    assert first.line == ">ann: ADEHLRT 8D HALTED +28 28" and first.line_number == 6
    assert (exchange.tiles, exchange.exchange_count) == ("FQV", 3)
    withdrawn = record.events[4]
    assert (withdrawn.move, withdrawn.score, withdrawn.total) == ("--", -12, 0)
    assert withdrawn.notes == ["GOXE is a phony: ann challenged it off.",
                               "Double challenge: bob loses the turn and ann loses nothing."]
    assert record.events[5].notes == [
        "ann passes to keep her rack,\nwhich this note explains on a second line."]
    assert record.events[6].position == (8, 8, False)
    assert record.events[2].position == (7, 3, True)
    end = record.events[-1]
    assert (end.rack, end.move, end.tiles, end.score, end.total) == ("", "(ERU)", "ERU", 6, 81)
    assert end.text == ">bob:  (ERU) +6 81"


def test_replay_double_challenge():
    game = replay(read_gcg(DATA / "double_challenge.gcg"))
    assert game.ok and game.discrepancies == []
    assert game.alphabet.name == "english" and game.layout.name == "standard15"
    assert len(game.positions) == 13
    assert game.final.cgp() == f"{'/'.join(FINAL_ROWS)} / 59/81 0 lex TWL06;"
    assert game.scores == [59, 81]
    assert game.withdrawn == [3]
    assert game.computed == [28, 0, 10, 12, -12, 0, 14, 6, 34, 15, 27, 6]
    assert [m is not None for m in game.moves] == [e.kind == "play"
                                                   for e in game.record.events]
    halted = f"15/15/15/15/15/15/15/3HALTED6/{'/'.join(['15'] * 7)}"
    hows = "15/15/15/15/15/15/15/3HALTED6/3O11/3W11/3S11/15/15/15/15"
    # before each event: its player first, with the rack the record gives
    assert [p.cgp() for p in game.positions[:8]] == [
        f"{EMPTY} ADEHLRT/ 0/0 0 lex TWL06;",
        f"{halted} EFGOQVX/ 0/28 0 lex TWL06;",
        f"{halted} EIOPRSW/ 28/0 1 lex TWL06;",
        f"{hows} EGNOOXY/ 0/38 0 lex TWL06;",
        "15/15/15/15/7G7/7O7/7X7/3HALTED6/3O11/3W11/3S11/15/15/15/15 ENOY/ 12/38 0 "
        "lex TWL06;",
        f"{hows} EIPRRTU/ 38/0 1 lex TWL06;",  # the phony is off, and its points
        f"{hows} EGNOOXY/ 0/38 2 lex TWL06;",
        "15/15/15/15/15/15/15/3HALTED6/3O4OX5/3W11/3S11/15/15/15/15 EIPRRTU/ 38/14 0 "
        "lex TWL06;",
    ]
    for position in game.positions:
        assert Board.from_cgp(position.cgp()) == position


def test_replay_steps_say_what_each_event_does():
    game = replay(read_gcg(DATA / "double_challenge.gcg"))
    fmt = game.alphabet.format
    assert [(s.index, s.seat, s.kind, s.score, s.total, s.computed) for s in game.steps] == [
        (0, 0, "play", 28, 28, 28), (1, 1, "exchange", 0, 0, 0), (2, 0, "play", 10, 38, 10),
        (3, 1, "play", 12, 12, 12), (4, 1, "withdrawn", -12, 0, -12), (5, 0, "pass", 0, 38, 0),
        (6, 1, "play", 14, 14, 14), (7, 0, "play", 6, 44, 6), (8, 1, "play", 34, 48, 34),
        (9, 0, "play", 15, 59, 15), (10, 1, "play", 27, 75, 27),
        (11, 1, "end_rack_points", 6, 81, 6)]
    exchange, phony, withdrawal, end = (game.steps[i] for i in (1, 3, 4, 11))
    assert (fmt(exchange.rack), fmt(exchange.tiles), exchange.count) == ("EFGOQVX", "FQV", 3)
    assert (fmt(phony.tiles), phony.move.notation(game.alphabet)) == ("GOX", "H5 GOX(E)")
    # the withdrawal takes back the play before it: its tiles go back on the rack
    assert (withdrawal.takes, fmt(withdrawal.tiles), withdrawal.move) == (3, "GOX", None)
    assert (end.rack, fmt(end.tiles)) == (None, "ERU")
    assert [s.over for s in game.steps] == [False] * 11 + [True]
    # the lists of earlier versions are views of the steps
    assert game.moves == [s.move for s in game.steps]
    assert game.withdrawn == [3]


def test_replay_five_point_challenge_time_penalty_and_blank():
    record = read_gcg(DATA / "five_point.gcg")
    assert [e.kind for e in record.events] == [
        "play", "play", "play", "challenge_bonus", "play", "play", "play", "play",
        "end_rack_points", "time_penalty"]
    game = replay(record)
    assert game.ok
    assert game.scores == [114, 18]
    assert game.computed[3] is None and game.computed[9] is None
    assert game.computed[6] == 12  # RUsE: the blank scores nothing
    rows = list(FINAL_ROWS)
    rows[12] = "2RUsE9"
    assert game.final.cgp() == f"{'/'.join(rows)} / 18/114 0 lex CSW21;"
    assert game.positions[9].cgp() == f"{'/'.join(rows)} ERU/ 28/114 0 lex CSW21;"
    # before the bonus: the challenged player first, with the rack after the play
    assert game.positions[3].cgp() == ("15/15/15/15/15/15/15/3HALTED6/3O4OX5/3W11/3S11/15/"
                                       "15/15/15 EGNOY/ 42/10 0 lex CSW21;")


def test_replay_incomplete_game_gives_the_rack_to_move():
    record = read_gcg(DATA / "incomplete.gcg")
    assert record.incomplete and record.racks == {0: "EGNOSTY"}
    assert record.pragmata[-1] == Pragma("rack1", "EGNOSTY", 4)
    game = replay(record)
    assert game.ok
    final = "15/15/15/15/15/15/15/3HALTED6/3O4OX5/3W11/PITS11/15/15/15/15"
    assert game.final.cgp() == f"{final} EGNOSTY/ 42/16 0 lex NWL20;"
    assert Board.from_cgp(game.final.cgp()).rack == game.final.rack


def test_written_score_wins_and_the_difference_is_reported():
    text = (DATA / "double_challenge.gcg").read_text(encoding="utf-8")
    text = text.replace(">ann: EIOPRSW D8 .OWS +10 38", ">ann: EIOPRSW D8 .OWS +11 39")
    game = replay(read_gcg(text, source="edited.gcg"))
    assert not game.ok
    assert [(d.index, d.kind, d.written, d.computed) for d in game.discrepancies] == \
        [(2, "score", 11, 10), (5, "total", 38, 39)]
    assert str(game.discrepancies[0]) == \
        "line 9: event 3 (ann: D8 .OWS): written score +11, re-scored +10"
    assert game.discrepancies[1].describe() == \
        "event 6 (ann: -): written total 38, running sum 39"
    assert game.positions[3].scores == [0, 39]  # the written score counts
    assert game.scores == [59, 81]  # after a total that does not add up, it counts


def test_shared_nickname_seats_by_totals_then_alternation():
    record = read_gcg("#player1 me Me One\n#player2 me Me Two\n"
                      ">me: ADEHLRT 8D HALTED +28 28\n"
                      ">me: EFGOQVX -FQV +0 0\n"
                      ">me: EIOPRSW D8 .OWS +10 38\n"
                      ">me: EGNOOXY 9I OX +14 14\n"
                      ">me: EGNOY (challenge) +5 19\n"
                      ">me: EIPRRTU 11A PIT. +6 44\n")
    assert [e.seat for e in record.events] == [0, 1, 0, 1, 1, 0]
    game = replay(record)
    assert game.ok and game.scores == [44, 19]


def test_undeclared_players_and_lower_case_squares():
    record = read_gcg(">x: AEHLRTD 8d HALTED +28 28\n>y: EIOPRSW d8 .OWS +10 10\n")
    assert record.players == [Player("x"), Player("y")]
    assert record.events[1].position == (7, 3, True)
    assert write_gcg(record).splitlines()[1:3] == ["#player1 x", "#player2 y"]
    assert replay(record).ok


def test_bare_letters_parentheses_and_dots_through_a_blank():
    base = "#player1 a A\n#player2 b B\n>a: ?DEHLRT 8D HaLTED +26 26\n"
    for written in ("E7 H.WS", "E7 H(A)WS", "E7 H(a)WS", "E7 HAWS", "E7 HaWS"):
        record = read_gcg(base + f">b: AEHOSW? {written} +9 9\n")
        game = replay(record)
        assert game.ok, written
        assert game.final.grid[7, 4] == 0x80 | 1  # the blank stays a blank A
        assert game.moves[1].through == (False, True, False, False)
        assert game.final.cgp().split()[0] == \
            "15/15/15/15/15/15/4H10/3HaLTED6/4W10/4S10/15/15/15/15/15"


def test_polish_by_lexicon_and_by_tiles():
    text = ("#player1 a A\n#player2 b B\n{lexicon}"
            ">a: ŻÓŁWIEA 8D ŻÓŁW +0 0\n")
    for lexicon in ("#lexicon OSPS49\n", ""):
        game = replay(read_gcg(text.format(lexicon=lexicon)))
        assert game.alphabet.name == "polish"
        assert game.final.cgp().startswith("15/15/15/15/15/15/15/3ŻÓŁW8/")
        assert game.computed[0] == 2 * 5 + 5 + 3 + 1  # Ż on the double letter, Ó, Ł, W
    assert replay(read_gcg(text.format(lexicon="")), alphabet="polish").alphabet.name == \
        "polish"


def test_encodings_and_line_ends(tmp_path):
    header = "#player1 césar César\n#player2 doug Doug\n>césar: AEHLRTD 8D HALTED +28 28\n"
    cases = {
        "latin1.gcg": header.encode("iso8859-1"),
        "utf8.gcg": header.encode("utf-8"),
        "declared.gcg": ("#character-encoding UTF-8\r\n" + header.replace("\n", "\r\n"))
        .encode("utf-8"),
        "wrong.gcg": ("#character-encoding ISO8859-6\n" + header).encode("utf-8"),
        "bom.gcg": b"\xef\xbb\xbf" + header.encode("utf-8"),
    }
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        record = read_gcg(tmp_path / name)
        assert record.players[0] == Player("césar", "César"), name
        assert record.events[0].nickname == "césar" and record.events[0].seat == 0
        assert read_gcg(data) == record
        assert write_gcg(record).startswith("#character-encoding UTF-8\n#player1 césar")
    assert read_gcg(tmp_path / "wrong.gcg").encoding == "ISO8859-6"
    assert read_gcg(tmp_path / "utf8.gcg").encoding is None


def test_all_kinds_and_trailing_text():
    text = ("#player1 a A\n#player2 b B\n"
            ">a: AEHLRTD 8D HALTED +28 28 HA, AT\n"
            ">b: ABCDEFG -2 +0 0\n"
            ">b: ABCDEFG -  +0 0\n"
            ">a: EGNOOXY (time) -10 18\n"
            ">b: ABCDEFG (ABCDEFG) -16 -16\n"
            ">a: (ABCDEFG) +32 50\n"
            ">a: X (fine) -5 45\n")
    record = read_gcg(text)
    kinds = [e.kind for e in record.events]
    assert kinds == ["play", "exchange", "pass", "time_penalty", "end_rack_penalty",
                     "end_rack_points", "other"]
    assert set(kinds) | {"withdrawn", "challenge_bonus"} == set(KINDS)
    assert record.events[0].trailing == "HA, AT"
    assert (record.events[1].tiles, record.events[1].exchange_count) == ("", 2)
    assert record.events[4].tiles == "ABCDEFG"
    game = replay(record)
    assert game.computed[4:6] == [-16, 16]  # each side gains or loses the rack once
    assert read_gcg(write_gcg(record)) == record


@pytest.mark.parametrize(("text", "message"), [
    ("", "<gcg>: empty, not a GCG record"),
    ("hello\nworld\n", "<gcg>:1: not a GCG record"),
    ("#player1 a A\n>a: AEHLRTD 8D HALTED 28 28\n", "<gcg>:2: event '>a: AEHLRTD 8D HALTED "
     "28 28' has no '+SCORE TOTAL'"),
    ("#player1 a A\n>a: AEHLRTD +28 28\n", "<gcg>:2: cannot read the move"),
    ("#player1 a A\n>a AEHLRTD 8D HALTED +28 28\n", "<gcg>:2: event '>a AEHLRTD"),
    ("#player1 a A\n>a: AEH LRTD 8D HALTED +28 28\n", "<gcg>:2: event '>a: AEH LRTD 8D "
     "HALTED +28 28': 'AEH LRTD' is more than one rack"),
    ("#player1\n", "<gcg>:1: #player1 names no player"),
    ("#player1 a A\n#player1 b B\n", "<gcg>:2: #player1 given twice (first on line 1)"),
    ("#player1 a A\n>a: AEHLRTD 8D HALTED +28 28\nstray text\n", "<gcg>:3: neither a "
     "pragma"),
])
def test_bad_input_is_one_line_naming_the_line(text, message):
    with pytest.raises(RacketyError) as info:
        read_gcg(text)
    assert message in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize(("play", "message"), [
    ("8H ZAX", "square 8H holds E, not Z"),
    ("8L HALTER", "runs off the 15x15 board"),
    ("9D .OG", "'.' at square 9D, which is empty"),
    ("16A AX", "row 16 is off the 15x15 board"),
    ("7D .AX", "'.' at square 7D, which is empty"),
])
def test_a_play_that_does_not_fit_names_file_and_line(play, message):
    text = f"#player1 a A\n#player2 b B\n>a: AEHLRTD 8D HALTED +28 28\n>b: AXZ {play} +9 9\n"
    record = read_gcg(text, source="game.gcg")
    with pytest.raises(RacketyError) as info:
        replay(record)
    assert str(info.value).startswith("game.gcg:4: ") and message in str(info.value)


HEAD = "#player1 a A\n#player2 b B\n"
OPEN = ">a: AEHLRTD 8D HALTED +28 28\n"


@pytest.mark.parametrize(("body", "line", "message"), [
    # a game ends after six scoreless turns: nothing but end-of-game events after it
    (OPEN + "".join(f">{'ba'[i % 2]}: ABC - +0 {28 * (i % 2)}\n" for i in range(6))
     + ">b: ABC 9E OX +9 9\n", 10, "the game ended on line 9 (6 scoreless turns in a row)"),
    (OPEN + "".join(f">{'ba'[i % 2]}: ABC - +0 {28 * (i % 2)}\n" for i in range(24000)),
     10, "the game ended on line 9"),  # the 66 MB analysis of the issue
    # the play-out bonus ends it too
    (OPEN + ">a: (XYZ) +26 54\n>b: XYZ 9E XY +9 9\n", 5, "the game ended on line 4 "
     "(the play-out bonus)"),
    # more tiles of a letter than the game has, at the play that puts them there
    (OPEN + ">b: ZZ D7 Z.Z +21 21\n", 4, "the board would hold 2 Z, and english has 1"),
    (OPEN + ">b: ABCDEFGHIJ 9E AB +5 5\n", 4, "rack 'ABCDEFGHIJ' has 10 tiles; a rack "
     "holds 7"),
    (OPEN + ">b: 1A ABCDEFGH +50 50\n", 4, "the play places 8 tiles"),
    (">a: (challenge) +5 5\n", 3, "a challenge bonus, but the turn before it is not a play"),
    (OPEN + ">b: ABC - +0 0\n>a: (challenge) +5 33\n", 5, "a challenge bonus, but the "
     "turn"),
    (OPEN + ">a: (challenge) +5 33\n>a: (challenge) +5 38\n", 5, "a second challenge bonus"),
    (OPEN + "".join(f">a: (time) -1 {27 - i}\n" for i in range(7)), 10, "7 events in a row "
     "that are not turns; at most 6"),
    # a withdrawal takes back the play just before it, and nothing else
    (OPEN + ">b: ABC - +0 0\n>a: AEHLRTD -- -28 0\n", 5, "'--' withdraws the play just "
     "before it, and the event before it (-) is not a play"),
    (OPEN + ">b: AXZ 9E AX +9 9\n>b: AXZ -- -9 0\n>a: AEHLRTD -- -28 0\n", 6,
     "the event before it (--) is not a play"),
    (OPEN + ">a: (XYZ) +26 54\n>a: AEHLRTD -- -28 26\n", 5, "the game ended on line 4"),
    # a rack's penalty at the end ends the game, as the play-out bonus does
    (OPEN + ">b: XYZ (XYZ) -26 -26\n>b: XYZ 9E XY +9 -17\n", 5, "the game ended on line 4 "
     "(a rack's end-of-game penalty)"),
])
def test_a_record_that_goes_wrong_is_refused_at_that_event(body, line, message):
    with pytest.raises(RacketyError) as info:
        replay(read_gcg(HEAD + body, source="game.gcg"))
    assert str(info.value).startswith(f"game.gcg:{line}: ") and message in str(info.value)


def test_going_out_ends_the_game_but_a_challenge_may_follow():
    # After a play that empties its player's rack with the bag empty, only a
    # failed challenge's lost turn (a pass), a withdrawal of the play or
    # end-of-game events may follow.
    assert not replay(read_gcg(DATA / "incomplete.gcg")).over
    assert replay(read_gcg(DATA / "double_challenge.gcg")).over  # its play-out bonus
    text = (CORPUS / "macondo_gcgio_doug_v_emely_double_challenge.gcg")
    if text.is_file():  # doug challenges emely's going-out play and loses his turn
        finished = replay(read_gcg(text))
        assert finished.over and finished.final.zero_turns == 1
        lines = text.read_text().splitlines()
        extra = "\n".join(lines[:-1] + [">doug: EGOP - +0 451", lines[-1]]) + "\n"
        with pytest.raises(RacketyError, match=r":31: the game ended on line 29 \(a player "
                           r"went out with the bag empty\)"):
            replay(read_gcg(extra))


@pytest.mark.parametrize("encoding", ["base64", "hex", "rot13", "zip", "punycode",
                                      "undefined", "bz2", "uu", "quopri", "idna"])
def test_encodings_that_are_not_character_sets_are_refused(encoding):
    data = f"#player1 a A\n#character-encoding {encoding}\n{OPEN}".encode()
    with pytest.raises(RacketyError, match=f"^game.gcg:2: #character-encoding '{encoding}' "
                       "is not a character set"):
        read_gcg(data, source="game.gcg")
    with pytest.raises(RacketyError, match="is not a character set"):
        read_gcg(f"#character-encoding {encoding}\n{HEAD}{OPEN}")
    # an encoding Python does not know is passed over, as before
    assert read_gcg(b"#character-encoding klingon\n" + (HEAD + OPEN).encode()).events


@pytest.mark.parametrize(("text", "message"), [
    (HEAD + ">a: AEHLRTD 8D HALTED +28 176\u0663\n", "has no '+SCORE TOTAL'"),
    (HEAD + ">a: AEHLRTD 8D HALTED +" + "9" * 5000 + " 28\n", "score +99999"),
    (HEAD + ">a: AEHLRTD 8D HALTED +28 -" + "9" * 5000 + "\n", "total -9999"),
    (HEAD + ">a: AEHLRTD " + "9" * 5000 + "D HALTED +28 28\n", "row 9999"),
    ("#player" + "9" * 5000 + " a A\n", "#player number 9999"),
    ("#player17 a A\n", "#player number 17 is out of range (1 to 16)"),
])
def test_numbers_are_ascii_and_bounded(text, message):
    with pytest.raises(RacketyError) as info:
        replay(read_gcg(text))
    assert message in str(info.value) and len(str(info.value)) <= 300


def test_racks_longer_than_seven_read_as_the_variant_that_holds_them():
    eight = replay(read_gcg(HEAD + ">a: AEHLRTDS 8D HALTED +28 28\n"))
    nine = replay(read_gcg(HEAD + ">a: AEHLRTDSS 8D HALTED +28 28\n"))
    assert (eight.alphabet.rack_size, nine.alphabet.rack_size) == (8, 9)
    assert Board.from_cgp(eight.positions[0].cgp()) == eight.positions[0]


def test_a_unicode_digit_does_not_number_a_player():
    record = read_gcg("#player\u0661 x X\n" + OPEN)
    assert [p.nickname for p in record.players] == ["a"]  # 'x' was never seated
    assert record.pragma("player\u0661") == "x X"


def test_withdrawal_without_a_play_is_an_error():
    with pytest.raises(RacketyError, match=r"<gcg>:2: '--' withdraws a play"):
        replay(read_gcg("#player1 a A\n>a: ABC -- -5 -5\n"))


def test_missing_file():
    with pytest.raises(RacketyError, match="no such file"):
        read_gcg(Path("/no/such/game.gcg"))


# -------------------------------------------------------------- the corpus
@corpus
def test_corpus_reads_round_trips_and_replays(path):
    need_corpus(path)
    record = read_gcg(path)
    assert record.events and record.players
    text = write_gcg(record)
    back = read_gcg(text)
    assert back == record
    assert len(back.events) == len(record.events)
    assert [e.notes for e in back.events] == [e.notes for e in record.events]
    assert write_gcg(back) == text  # the writer's form is canonical
    game = replay(record)
    assert len(game.positions) == len(record.events) + 1
    gone = set(game.withdrawn)
    placed = sum(m.n_placed for i, m in enumerate(game.moves) if m and i not in gone)
    assert game.final.tiles_on_board == placed
    for position in game.positions:
        assert Board.from_cgp(position.cgp()) == position


@corpus
def test_corpus_scores_add_up(path):
    need_corpus(path)
    game = replay(read_gcg(path))
    found = [(d.index, d.kind, d.written, d.computed) for d in game.discrepancies]
    if path.name == "quackle_quackleio_iotest_capp.gcg":
        # Quackle wrote the withdrawn WERGEL as '-- +0' but took its 45 points off the total
        assert found == [(6, "score", 0, -45), (6, "total", 59, 104)]
    else:
        assert found == []


def test_corpus_quirks():
    need_corpus(CORPUS_FILES[0] if CORPUS_FILES else None)
    assert len(CORPUS_FILES) == 44
    canonical = ["macondo_gcgio_incomplete4.gcg", "macondo_puzzles_bingo_nine_or_above.gcg",
                 "macondo_puzzles_cel_only.gcg", "macondo_puzzles_equity.gcg",
                 "macondo_puzzles_only_bingo.gcg"]
    for name in canonical:
        assert write_gcg(read_gcg(CORPUS / name)) == (CORPUS / name).read_text("utf-8")
    latin = read_gcg(CORPUS / "macondo_gcgio_name_iso8859-1.gcg")
    assert [p.nickname for p in latin.players] == ["césar", "hércules"]
    weird = read_gcg(CORPUS / "macondo_gcgio_name_weird_encoding_with_header.gcg")
    assert weird.encoding == "ISO8859-6" and weird.players[0].nickname == "césar"
    shared = read_gcg(CORPUS / "quackle_test_positions_consonant_heaviness_tendency.gcg")
    assert [p.nickname for p in shared.players] == ["NoName", "NoName"]
    assert [e.seat for e in shared.events] == [i % 2 for i in range(17)]
    assert replay(shared).scores == [345, 356]
    polish = replay(read_gcg(CORPUS / "macondo_gcgio_polish_endgame.gcg"))
    assert polish.alphabet.name == "polish" and polish.scores == [316, 323]
    dos = read_gcg(CORPUS / "macondo_gcgio_utf8_dos.gcg")
    assert dos.events[9].notes == [
        "tennises dentines way more points\nsince ive been behind  and the board is not "
        "open, ive made decision to do that risky play. win or lose. will it work?"]
    boys = read_gcg(CORPUS / "quackle_test_positions_boys1.gcg")
    assert boys.events[2].trailing == "BE, ET, DO" and boys.events[-1].rack == ""
    fivepoint = replay(read_gcg(CORPUS / "quackle_test_positions_fivepoint.gcg"))
    assert [e.kind for e in fivepoint.record.events[-2:]] == ["end_rack_points",
                                                              "end_rack_penalty"]
    assert fivepoint.computed[-2:] == [1, -1]
    four = replay(read_gcg(CORPUS / "quackle_test_positions_multiplayer-crash.gcg"))
    assert len(four.final.scores) == 4 and four.scores == [172, 184, 221, 149]


# ------------------------------------------------------ generated records
_TEXT = st.text(alphabet=string.ascii_letters + string.digits + " .,!?'-éłŻ", min_size=1,
                max_size=24).map(str.strip).filter(bool)
_TILES = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ?", min_size=1, max_size=7)
_WORD = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcz.", min_size=1, max_size=9)


@st.composite
def _coordinates(draw):
    row = draw(st.integers(1, 15))
    col = draw(st.sampled_from("ABCDEFGHIJKLMNOabcdefghijklmno"))
    return f"{col}{row}" if draw(st.booleans()) else f"{row}{col}"


@st.composite
def _event(draw, players):
    seat = draw(st.integers(0, len(players) - 1))
    kind = draw(st.sampled_from(KINDS))
    score = draw(st.integers(-300, 300))
    if kind == "play":
        move = f"{draw(_coordinates())} {draw(_WORD)}"
    elif kind == "exchange":
        count = draw(st.booleans())
        move = f"-{draw(st.integers(1, 7))}" if count else f"-{draw(_TILES)}"
        score = abs(score)
    else:
        move = {"pass": "-", "withdrawn": "--", "challenge_bonus": "(challenge)",
                "time_penalty": "(time)", "other": "(penalty)"}.get(kind, "")
        if kind in ("end_rack_points", "end_rack_penalty"):
            move = f"({draw(_TILES)})"
            score = abs(score) if kind == "end_rack_points" else -abs(score)
    notes = draw(st.lists(st.lists(_TEXT, min_size=1, max_size=3).map("\n".join),
                          max_size=2))
    return Event(players[seat].nickname, kind, move, score, draw(st.integers(-999, 999)),
                 rack=draw(st.just("") | _TILES), trailing=draw(st.just("") | _TEXT),
                 notes=notes, seat=seat)


@st.composite
def _records(draw):
    nicks = draw(st.lists(st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,7}", fullmatch=True),
                          min_size=1, max_size=4, unique=True))
    players = [Player(n, draw(st.just("") | _TEXT)) for n in nicks]
    events = draw(st.lists(_event(players), max_size=12))
    pragmata = [Pragma(f"player{i}", f"{p.nickname} {p.name}".strip())
                for i, p in enumerate(players, 1)]
    others = draw(st.lists(st.tuples(
        st.sampled_from(["title", "description", "id", "lexicon", "incomplete", "tile",
                         "rack1", "rack2", "game-type", "note"]),
        st.just("") | _TEXT, st.integers(0, len(events))), max_size=5))
    for name, value, after in sorted(others, key=lambda t: t[2]):
        pragmata.append(Pragma(name, value, 0 if name == "note" else after))
    pragmata.sort(key=lambda p: p.after)
    return GcgRecord(players, events, pragmata)


@settings(max_examples=300, deadline=None)
@given(_records())
def test_generated_records_round_trip(record):
    text = write_gcg(record)
    back = read_gcg(text)
    assert back == record
    assert write_gcg(back) == text


# ------------------------------------------------------------ command line
def test_cli_show_final_position(capsys):
    path = DATA / "double_challenge.gcg"
    code, out, err = run(capsys, "gcg", "show", path, "--no-color")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "rackety test game: double challenge"
    assert lines[1] == "1. ann (Ann Able)   2. bob (Bob Baker)"
    assert lines[2] == "after the last event (12 events)"
    assert " 8  = . . H A L T E D . . ' . . =" in lines
    assert any(line.split() == ["5", "bob", "EGNOOXY", "--", "-12", "0"] for line in lines)
    assert lines[-1].split() == ["12", "bob", "(ERU)", "+6", "81"]


def test_cli_show_turn_and_cgp(capsys):
    path = DATA / "double_challenge.gcg"
    game = replay(read_gcg(path))
    for turn in (1, 5, 6, 13):
        code, out, _ = run(capsys, "gcg", "show", path, "--turn", turn, "--cgp")
        assert code == 0 and out == game.positions[turn - 1].cgp() + "\n"
    code, out, _ = run(capsys, "gcg", "show", path, "--cgp")
    assert out == game.final.cgp() + "\n"
    code, out, _ = run(capsys, "gcg", "show", path, "--turn", 5, "--no-color")
    assert code == 0
    assert out.splitlines()[2] == "before event 5 (bob: EGNOOXY --)"
    assert [line.split()[:2] for line in out.splitlines() if line.startswith("  ->")] == \
        [["->", "5"]]
    code, out, _ = run(capsys, "gcg", "show", path, "--turn", 2, "--json")
    result = json.loads(out)
    assert result["cgp"] == game.positions[1].cgp() and result["turn"] == 2
    # a game's event in the one form the web app's game state lists too
    assert result["events"][1] == {"index": 1, "seat": 1, "player": "bob", "rack": "EFGOQVX",
                                   "kind": "exchange", "move": "exch FQV", "score": 0,
                                   "total": 0, "squares": [], "notes": [], "why": None}
    first = game.moves[0]
    assert first is not None
    assert result["events"][0]["squares"] == [list(sq) for sq in first.placed_squares()]
    assert set(result["events"][0]) == set(shapes.GameEventShape.__annotations__)


@pytest.mark.parametrize("name", OWN)
def test_cli_show_the_unseen_tiles(capsys, name):
    """At every turn, the tiles its mover has not seen (text and JSON): with the
    board's tiles and the mover's rack, they make the whole tile set."""
    path = DATA / name
    game = replay(read_gcg(path))
    for turn in range(1, len(game.positions) + 1):
        code, out, err = run(capsys, "gcg", "show", path, "--turn", turn, "--json")
        assert code == 0, err
        result = json.loads(out)
        board = Board.from_cgp(result["cgp"])
        alphabet = board.alphabet
        unseen = result["unseen"]
        counts = Counter({(alphabet.tiles[t].label if t else "?"): n for t, n in Counter(
            [0 if c & BLANK_FLAG else c for c in board.grid.ravel().tolist() if c]
            + list(board.rack)).items()})
        counts.update(unseen["tiles"])
        assert counts == {t.label if t.code else "?": t.count for t in alphabet.tiles}
        assert unseen["count"] == sum(unseen["tiles"].values())
        if board.rack:
            on_racks = 0 if board.racks[1] else min(unseen["count"], alphabet.rack_size)
            assert (unseen["racks"], unseen["bag"]) == (on_racks, unseen["count"] - on_racks)
        _, out, _ = run(capsys, "gcg", "show", path, "--turn", turn, "--no-color")
        mover = game.record.events[turn - 1].nickname if turn <= len(game.record.events) \
            else None
        line = f"{mover} to move: " if mover else "after the end: "
        assert line + unseen["text"] in out.splitlines()
        assert unseen["text"].startswith(f"{unseen['count']} unseen")


def test_cli_show_colour(capsys):
    code, out, err = run(capsys, "gcg", "show", DATA / "incomplete.gcg")
    assert code == 0 and err == ""
    assert "after the last event (4 events)" in out and "to move: EGNOSTY" in out
    assert out.splitlines()[-1].split() == ["4", "fay", "EIPRRTU", "11A", "PIT.", "+6", "16"]


def test_cli_check(capsys, tmp_path):
    code, out, err = run(capsys, "gcg", "check", DATA / "five_point.gcg")
    assert code == 0 and err == ""
    assert out == (f"{DATA / 'five_point.gcg'}: 10 events, every score and total adds up "
                   "(cy 114, di 18)\n")
    bad = tmp_path / "bad.gcg"
    bad.write_text((DATA / "five_point.gcg").read_text().replace("RUsE +12 28",
                                                                "RUsE +14 30"))
    code, out, err = run(capsys, "gcg", "check", bad)
    assert code == 1 and err == ""
    assert out.splitlines() == [
        f"{bad}:13: event 7 (di: 13C RUsE): written score +14, re-scored +12",
        f"{bad}:16: event 10 (di: (time)): written total 18, running sum 20",
        f"{bad}: 10 events, 2 discrepancies (cy 114, di 18)"]
    code, out, _ = run(capsys, "gcg", "check", bad, "--json")
    result = json.loads(out)
    assert code == 1 and result["ok"] is False and result["events"] == 10
    assert result["discrepancies"][0] == {"event": 7, "line": 13, "kind": "score",
                                          "written": 14, "computed": 12}


_GAME = "#player1 a A\n>a: AEHLRTD 8D HALTED +28 28\n"
_BAD_INPUTS = [
    ("not a game\n", (), "bad.gcg:1: not a GCG record"),
    ("#player1 a A\n>a: AEHLRTD 8D HALTED 28\n", (), "bad.gcg:2: event"),
    (_GAME + ">a: ZZ 8H ZZ +9 37\n", (), "bad.gcg:3: move '8H ZZ': square 8H holds E, not Z"),
    (_GAME, ("--alphabet", "klingon"), "unknown alphabet 'klingon'"),
    (b"\x00\x01\xff binary", (), "bad.gcg:1: not a GCG record"),
]


@pytest.mark.parametrize(("command", "content", "args", "message"), [
    *[("show", *case) for case in _BAD_INPUTS],
    *[("check", *case) for case in _BAD_INPUTS],
    ("show", _GAME, ("--turn", "3"), "--turn 3: "),
    ("show", _GAME, ("--turn", "0"), "--turn"),
])
def test_cli_bad_input_is_one_line(capsys, tmp_path, command, content, args, message):
    bad = tmp_path / "bad.gcg"
    if isinstance(content, bytes):
        bad.write_bytes(content)
    else:
        bad.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "gcg", command, bad, *args)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_cli_missing_file(capsys):
    code, out, err = run(capsys, "gcg", "check", "/no/such/game.gcg")
    assert code == 2 and out == "" and err == "rackety: error: /no/such/game.gcg: no such file\n"


# ------------------------------------------------------- records keep their board
# (issue 33, point 5) a game on super21 or wwf15 names its board in its record, as
# Macondo does ('#note BoardLayout: NAME'); a record that names none and does not
# fit the standard board says which layout to give
LAYOUTS = ("standard15", "super21", "wwf15")


def _random_game(lexicon, layout, seed, turns):
    """A game of random legal turns on ``layout`` (mostly placements, some
    exchanges and passes), played to its end or for ``turns`` turns; with the
    board after each of its events (the end-of-game points are events too)."""
    from rackety.game.referee import Game

    rng = random.Random(seed)
    game = Game(lexicon, ["Ann Lee", "Ben"], layout=layout, seed=seed)
    seen = []
    for _ in range(turns):
        if game.over:
            break
        moves = game.view().moves(lexicon, exchanges=False)  # placements, then a pass
        rack = game.racks[game.turn]
        if rng.random() < 0.1 and len(game.bag) >= 7:
            move = Move("exchange", tiles=tuple(rack[:rng.randint(1, len(rack))]))
        else:
            move = moves[rng.randrange(len(moves))]
        game.play(move, check=False)
        seen += [game.position.grid.copy()] * (len(game.events) - len(seen))
    return game, seen


def _without_board(text):
    """The record with its board's header notes taken out (as a record written
    before the notes, or by a program that does not write them)."""
    return "".join(line for line in text.splitlines(keepends=True)
                   if not line.startswith(("#note BoardLayout", "#note LetterDistribution")))


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31), layout=st.sampled_from(LAYOUTS),
       turns=st.integers(1, 70))
def test_games_on_every_layout_read_back_on_their_board(twl06, seed, layout, turns):
    from rackety.game.board import Layout
    from rackety.game.gcg import game_of, gcg_of, record_layout

    game, seen = _random_game(twl06, layout, seed, turns)
    text = gcg_of(game)
    record = read_gcg(text)
    named = record_layout(record)
    if layout == "standard15":  # records of standard games are as they were
        assert named is None and "BoardLayout" not in text
    else:
        assert named is Layout.load(layout)
        assert f"#note LetterDistribution: {game.alphabet.name}\n" in text
    # by replay: every position and score as played
    again = replay(record)
    assert again.layout.name == layout and again.alphabet.name == game.alphabet.name
    assert again.discrepancies == [] and again.over == game.over
    assert len(again.positions) == len(seen) + 1
    for grid, position in zip(seen, again.positions[1:], strict=True):
        assert (position.grid == grid).all()
    assert again.scores == game.scores
    assert [e.total for e in record.events] == [e.total for e in game.events]
    # by game_of: the same game, which writes the same record
    back = game_of(record, twl06)
    assert back.position.layout.name == layout and back.alphabet.name == game.alphabet.name
    assert (back.position.grid == game.position.grid).all()
    assert back.scores == game.scores and back.over == game.over
    assert [sorted(r) for r in back.racks] == [sorted(r) for r in game.racks]
    assert sorted(back.bag) == sorted(game.bag)
    assert back.problems() == []
    assert gcg_of(back) == text
    # a layout given explicitly wins over the record's
    assert replay(read_gcg(_without_board(text)), layout=layout).scores == game.scores


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31), layout=st.sampled_from(["super21", "wwf15"]))
def test_a_record_that_lost_its_board_says_which_layout_to_give(twl06, seed, layout):
    from rackety.game.gcg import game_of, gcg_of

    game, _ = _random_game(twl06, layout, seed, 200)
    bare = read_gcg(_without_board(gcg_of(game)))
    for attempt in (lambda: replay(bare), lambda: game_of(bare, twl06)):
        with pytest.raises(RacketyError) as caught:
            attempt()
        message = str(caught.value)
        assert f"give --board {layout} (or add the line '#note BoardLayout: {layout}')" \
            in message
        assert "\n" not in message and len(message) <= 300
    # given, the layout replays it as the record that names it
    assert replay(bare, layout=layout).scores == game.scores
    # and a layout given explicitly is never second-guessed
    with pytest.raises(RacketyError) as caught:
        replay(bare, layout="standard15")
    assert "give --board" not in str(caught.value)


def test_scores_that_match_another_layout_name_it(twl06):
    """A wwf15 game whose first turns fit the standard board (no tile runs out,
    nothing runs off) re-scores differently there: the record is refused with
    the layout whose scores match, not replayed wrongly."""
    from rackety.game.gcg import game_of, gcg_of

    game, _ = _random_game(twl06, "wwf15", 5, 4)
    bare = read_gcg(_without_board(gcg_of(game)))
    wrong = replay(bare, layout="standard15")  # what a reader of the standard board sees
    rescored = sum(d.kind == "score" for d in wrong.discrepancies)
    assert rescored > 0
    for attempt in (lambda: replay(bare), lambda: game_of(bare, twl06)):
        with pytest.raises(RacketyError, match=(
                rf"^<gcg>: scores match the wwf15 layout, not standard15 \({rescored} "
                r"plays? re-scores? differently on standard15\); the record names no board: "
                r"give --board wwf15")):
            attempt()
    assert replay(bare, layout="wwf15").discrepancies == []


@pytest.mark.parametrize(("note", "layout"), [
    ("BoardLayout: SuperCrosswordGame", "super21"),  # Macondo's name
    ("BoardLayout: super21", "super21"),
    ("boardlayout:wwf15", "wwf15"),
    ("BoardLayout: CrosswordGame", "standard15"),
    ("BoardLayout: lexulous", "lexulous15"),
])
def test_the_board_note_names_a_layout(note, layout):
    from rackety.game.gcg import record_layout

    record = read_gcg(f"#player1 a A\n#player2 b B\n#note {note}\n{OPEN}")
    assert record_layout(record).name == layout
    assert replay(record).layout.name == layout
    assert write_gcg(record).count("#note ") == 1  # kept as written


def test_a_board_note_after_an_event_is_that_events_note():
    from rackety.game.gcg import record_layout

    record = read_gcg(f"{HEAD}{OPEN}#note BoardLayout: super21\n")
    assert record_layout(record) is None and record.events[0].notes == ["BoardLayout: super21"]
    assert replay(record).layout.name == "standard15"


@pytest.mark.parametrize(("notes", "message"), [
    (["BoardLayout: Klingon64"], "<gcg>:3: #note BoardLayout: unknown board layout 'Klingon64'"),
    (["BoardLayout:"], "<gcg>:3: #note BoardLayout: names no layout (layouts: standard15"),
    (["BoardLayout: super21", "BoardLayout: wwf15"],
     "<gcg>:4: a second board layout, wwf15, where line 3 gives super21"),
    (["BoardLayout: " + "x" * 5000], "unknown board layout 'xxx"),
    (["BoardLayout: super21\x1b[2J"], "unknown board layout 'super21\\x1b[2J'"),
])
def test_a_bad_board_note_is_one_line_naming_the_line(notes, message):
    from rackety.game.gcg import record_layout

    text = HEAD + "".join(f"#note {n}\n" for n in notes) + OPEN
    record = read_gcg(text)  # reading is syntax: the record reads, and writes back
    assert read_gcg(write_gcg(record)) == record
    for attempt in (lambda: record_layout(record), lambda: replay(record)):
        with pytest.raises(RacketyError) as caught:
            attempt()
        assert message in str(caught.value)
        assert "\n" not in str(caught.value) and len(str(caught.value)) <= 300


def test_a_layout_named_by_a_path_is_never_read(tmp_path, monkeypatch):
    """A record's layout name is looked up among the built-in layouts only: a
    file of that name, even one holding a layout, is not opened."""
    from rackety.game.gcg import record_layout

    board = tmp_path / "super21"
    board.write_text((ROOT / "src" / "rackety" / "data" / "boards.json").read_text())
    monkeypatch.chdir(tmp_path)
    opened = []
    real_open = open

    def spy(file, *args, **kwargs):
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", spy)
    for name in (str(board), "./super21", "../" + tmp_path.name + "/super21", "/etc/passwd"):
        record = read_gcg(f"{HEAD}#note BoardLayout: {name}\n{OPEN}")
        with pytest.raises(RacketyError, match="unknown board layout"):
            record_layout(record)
    assert not any(tmp_path.name in path or path == "/etc/passwd" for path in opened)


def test_duplicated_board_notes_that_agree_are_one(twl06):
    from rackety.game.gcg import game_of, gcg_of, record_layout

    record = read_gcg(f"{HEAD}#note BoardLayout: super21\n"
                      f"#note BoardLayout: SuperCrosswordGame\n{OPEN}")
    assert record_layout(record).name == "super21"
    game = game_of(record, twl06)
    assert game.alphabet.name == "english_super"
    assert gcg_of(game).count("#note BoardLayout:") == 1  # written once, from the game


@corpus
def test_corpus_records_keep_the_standard_board(path):
    """No record of the corpus names a board: each replays on the standard
    board exactly as on the board given explicitly (no layout is guessed)."""
    from rackety.game.gcg import record_layout

    need_corpus(path)
    record = read_gcg(path)
    assert record_layout(record) is None
    implied = replay(record)
    given = replay(record, layout="standard15")
    assert implied.layout.name == "standard15"
    assert [p.cgp() for p in implied.positions] == [p.cgp() for p in given.positions]
    assert implied.discrepancies == given.discrepancies


# the front ends: rackety gcg, rackety analyze, the web app, the terminal
def _write_game(tmp_path, twl06, layout, turns, seed=7, name="game.gcg"):
    from rackety.game.gcg import gcg_of

    game, _ = _random_game(twl06, layout, seed, turns)
    path = tmp_path / name
    path.write_text(gcg_of(game), encoding="utf-8")
    return game, path


def test_cli_gcg_reads_the_records_board(capsys, tmp_path, twl06):
    game, path = _write_game(tmp_path, twl06, "super21", 200)
    code, out, err = run(capsys, "gcg", "check", path, "--json")
    result = json.loads(out)
    assert code == 0 and err == "" and result["ok"] is True
    assert result["layout"] == "super21" and result["alphabet"] == "english_super"
    code, out, _ = run(capsys, "gcg", "show", path, "--cgp")
    board = out.split(" ")[0]
    assert code == 0 and board == game.position.cgp().split(" ")[0] and board.count("/") == 20
    bare = tmp_path / "bare.gcg"
    bare.write_text(_without_board(path.read_text()), encoding="utf-8")
    for command in ("check", "show"):
        code, out, err = run(capsys, "gcg", command, bare)
        assert code == 2 and out == "" and err.count("\n") == 1
        assert f"error: {bare}:" in err
        assert "give --board super21" in err
    code, out, err = run(capsys, "gcg", "check", bare, "--board", "super21")
    assert code == 0 and err == "" and "every score and total adds up" in out


def test_cli_analyze_reads_the_records_board(capsys, tmp_path, twl06):
    _, path = _write_game(tmp_path, twl06, "wwf15", 5)
    code, out, err = run(capsys, "analyze", path, "--leave", "none", "--json", "--jobs", "1")
    assert code == 0, err
    turns = json.loads(out)["games"][0]["turns"]
    played = [t for t in turns if t["kind"] == "play"]
    assert played and all(t["played"]["score"] == t["score"] for t in played)
    bare = tmp_path / "bare.gcg"
    bare.write_text(_without_board(path.read_text()), encoding="utf-8")
    code, out, err = run(capsys, "analyze", bare, "--leave", "none", "--json", "--jobs", "1")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "#note BoardLayout: wwf15" in err and "give --board wwf15" in err
    code, out, err = run(capsys, "analyze", bare, "--board", "wwf15", "--leave", "none",
                         "--json", "--jobs", "1")  # as the hint says
    assert code == 0, err
    lines = [{k: v for k, v in t.items() if k != "line"} for t in turns]  # two lines fewer
    assert [{k: v for k, v in t.items() if k != "line"}
            for t in json.loads(out)["games"][0]["turns"]] == lines


def test_web_import_and_analysis_read_the_records_board(tmp_path, twl06):
    from fastapi.testclient import TestClient

    from rackety.frontends.web.app import create_app
    from rackety.game.gcg import gcg_of

    game, path = _write_game(tmp_path, twl06, "super21", 6)
    text = path.read_text()
    with TestClient(create_app(tmp_path / "app.sqlite", warm=False)) as client:
        response = client.post("/api/gcg/import", json={"gcg": text})
        assert response.status_code == 201, response.text
        state = response.json()
        assert state["layout"] == "super21"
        assert [p["score"] for p in state["players"]] == game.scores
        stored = client.get(f"/api/games/{state['id']}/gcg").text
        assert stored == gcg_of(game)
        analysed = client.post("/api/gcg/analyze", json={"gcg": text, "leave": "none"})
        assert analysed.status_code == 200, analysed.text
        final = analysed.json()["final"]
        assert final["scores"] == game.scores
        for name in ("import", "analyze"):
            refused = client.post(f"/api/gcg/{name}", json={"gcg": _without_board(text)})
            assert refused.status_code == 400
            detail = refused.json()["detail"]
            assert "\n" not in detail and "#note BoardLayout: super21" in detail


def test_terminal_load_takes_the_records_board(tmp_path, twl06):
    from rackety.frontends.terminal import TerminalGame
    from rackety.players import make_player

    game, path = _write_game(tmp_path, twl06, "wwf15", 4)
    session = TerminalGame(twl06, [make_player("greedy", twl06)], write=lambda _: None,
                           read_line=lambda _: "quit")
    session.load(str(path))
    assert session.game.position.layout.name == "wwf15"
    assert session.game.alphabet.name == "english_wwf"
    assert (session.game.position.grid == game.position.grid).all()
