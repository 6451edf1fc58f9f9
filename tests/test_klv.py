"""Leave values (KLV2 and KLV files): building, the word index against a sorted
list, writing and reading back, the per-rack table against per-leave look-ups,
and refusing bad files."""

from __future__ import annotations

import random
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rackety import Alphabet, Board, Lexicon, RacketyError
from rackety.game.move import format_leave
from rackety.game.movegen import LeaveModel, leave_subsets
from rackety.lexicon.klv import Klv

EN = Alphabet.load("english")
A, B, X, Y = (EN.word(c)[0] for c in "ABXY")
BAG = [t.code for t in EN.tiles for _ in range(t.count)]
EMPTY = "/".join(["15"] * 15)


def node(tile: int, arc: int = 0, accepts: bool = False, end: bool = False) -> int:
    return tile << 24 | int(accepts) << 23 | int(end) << 22 | arc


def klv_bytes(nodes: list[int], values: list[float], *, int16: bool = False) -> bytes:
    body = (struct.pack(f"<{len(values)}h", *(round(v * 256) for v in values)) if int16
            else struct.pack(f"<{len(values)}f", *values))
    return (struct.pack("<I", len(nodes)) + struct.pack(f"<{len(nodes)}I", *nodes)
            + struct.pack("<I", len(values)) + body)


def random_leaves(rng: random.Random, n: int, max_len: int = 6) -> dict[tuple[int, ...], float]:
    """``n`` random leaves drawn from the English bag, with random values."""
    out: dict[tuple[int, ...], float] = {}
    while len(out) < n:
        leave = tuple(sorted(rng.sample(BAG, rng.randint(1, max_len))))
        out[leave] = round(rng.uniform(-40, 40), 4)
    return out


leave_sets = st.builds(lambda seed, n: random_leaves(random.Random(seed), n),
                       st.integers(0, 2**32), st.integers(1, 400))


# ------------------------------------------------------------------ building
def test_word_index_by_hand():
    klv = Klv.from_values(EN, {"B": 3, "?A": 2, "??": 1, "A": -4, "?": 5, "AB": 6})
    # sorted by code, the blank (0) first, a leave before its extensions
    order = [(0,), (0, 0), (0, A), (A,), (A, B), (B,)]
    assert klv.leaves() == order
    assert [klv.index(leave) for leave in order] == list(range(6))
    assert klv.values.tolist() == [5, 1, 2, -4, 6, 3]
    assert klv.value("?") == 5 and klv.value("??") == 1 and klv.value("A?") == 2
    assert klv.value("BA") == 6 and klv.value("") == 0 and klv.value("???") == 0
    assert klv.index("AA") == -1 and klv.index("") == -1


def test_an_empty_klv_is_the_one_wolges_writes():
    klv = Klv.from_values(EN, {"": 3.0})
    assert len(klv) == 0 and klv.value("A") == 0.0
    assert klv.to_bytes() == b"\x01\x00\x00\x00\x00\x00\x40\x00\x00\x00\x00\x00"
    assert Klv.from_bytes(klv.to_bytes(), EN).rack_values(EN, [1, 2]).tolist() == [0.0] * 4


@settings(max_examples=25, deadline=None)
@given(values=leave_sets)
def test_word_index_is_the_position_in_the_sorted_list(values):
    klv = Klv.from_values(EN, values)
    ordered = sorted(values)
    assert klv.leaves() == ordered
    for i, leave in enumerate(ordered):
        assert klv.index(leave) == i
        assert klv.index(tuple(reversed(leave))) == i  # any order of the tiles
        assert klv.value(leave) == float(np.float32(values[leave]))
    missing = [leave for leave in random_leaves(random.Random(len(values)), 50)
               if leave not in values]
    assert all(klv.index(leave) == -1 and klv.value(leave) == 0 for leave in missing)


@settings(max_examples=20, deadline=None)
@given(values=leave_sets)
def test_klv2_round_trip_is_exact(tmp_path_factory, values):
    path = tmp_path_factory.mktemp("klv") / "leaves.klv2"
    klv = Klv.from_values(EN, values)
    klv.save(path)
    back = Klv.load(path, EN)
    assert np.array_equal(back.nodes, klv.nodes)
    assert back.values.dtype == np.float32 and np.array_equal(back.values, klv.values)
    assert back.to_bytes() == path.read_bytes()
    for leave, value in values.items():
        assert back.value(leave) == float(np.float32(value))


def test_values_as_text_and_codes_agree():
    by_text = Klv.from_values(EN, {"QU": -3.5, "S?": 30.0, "ERS": 10.25})
    by_codes = Klv.from_values(EN, {(21, 17): -3.5, (19, 0): 30.0, (5, 18, 19): 10.25})
    assert by_text.to_bytes() == by_codes.to_bytes()


def test_from_values_refuses_bad_input():
    with pytest.raises(RacketyError, match="two values"):
        Klv.from_values(EN, {"AB": 1.0, "BA": 2.0})
    with pytest.raises(RacketyError, match="not a rack tile"):
        Klv.from_values(EN, {(1, 27): 1.0})
    with pytest.raises(RacketyError, match="not finite"):
        Klv.from_values(EN, {"A": float("nan")})
    with pytest.raises(RacketyError, match="not in alphabet"):
        Klv.from_values(EN, {"A1": 1.0})


# ---------------------------------------------------------------- rack values
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), blanks=st.integers(0, 2), size=st.integers(0, 7))
def test_rack_values_equal_each_leave_looked_up(seed, blanks, size):
    rng = random.Random(seed)
    letters = [c for c in BAG if c]
    rack = [0] * min(blanks, size) + rng.sample(letters, size - min(blanks, size))
    rng.shuffle(rack)
    # every sub-multiset of the rack, and some random leaves besides, mostly stored
    values = {leave: v for leave, v in random_leaves(rng, 150).items()}
    distinct, kept = leave_subsets(rack)
    for row in kept:
        leave = tuple(c for c, k in zip(distinct, row) for _ in range(k))
        if leave and rng.random() < 0.8:
            values[leave] = round(rng.uniform(-40, 40), 3)
    klv = Klv.from_values(EN, values)
    got = klv.rack_values(EN, rack)
    expected = [klv.value(tuple(c for c, k in zip(distinct, row) for _ in range(k)))
                for row in kept]
    assert got.dtype == np.float64 and got.tolist() == expected
    assert klv.rack_values(EN, list(reversed(rack))) is got  # cached by the sorted rack


def test_rack_values_by_hand():
    klv = Klv.from_values(EN, {"?": 25.5, "S": 8.0, "?S": 30.25, "Q": -7.0, "SS": 1.0})
    # digits: ? (place 1), Q (place 2), S (radix 3, place 4)
    got = klv.rack_values(EN, EN.tokenize("SQS?"))
    assert got.tolist() == [0, 25.5, -7, 0, 8, 30.25, 0, 0, 1, 0, 0, 0]
    assert isinstance(klv, LeaveModel)
    with pytest.raises(RacketyError, match="alphabet"):
        klv.rack_values(Alphabet.load("catalan"), [1, 2])


def test_a_klv_as_the_leave_of_move_generation():
    lexicon = Lexicon.from_words(["PANDY", "PAY", "AY", "YA", "DAY", "PA", "AD", "UP"])
    board = Board.from_cgp(f"{EMPTY} AADNPUY/ 0/0 0")
    rng = random.Random(5)
    distinct, kept = leave_subsets(board.rack)
    values = {tuple(c for c, k in zip(distinct, row) for _ in range(k)):
              round(rng.uniform(-10, 10), 2) for row in kept[1:]}
    klv = Klv.from_values(EN, values)
    by_klv = {(m, m.equity) for m in board.moves(lexicon, leave=klv)}
    by_text = {format_leave(EN, leave): float(np.float32(v)) for leave, v in values.items()}
    by_map = {(m, m.equity) for m in board.moves(lexicon, leave=by_text)}
    assert by_klv == by_map and len(by_klv) > 100


# ------------------------------------------------------------------ reading
def test_a_hand_placed_klv_with_tail_sharing():
    # AY, BX, BY: A's children [Y] are the tail of B's children [X, Y]
    nodes = [node(0, 1, end=True),
             node(A, 4), node(B, 3, end=True),
             node(X, accepts=True), node(Y, accepts=True, end=True)]
    klv = Klv.from_bytes(klv_bytes(nodes, [1.5, -2.0, 3.25]), EN)
    assert klv.leaves() == [(A, Y), (B, X), (B, Y)]
    assert [klv.value(s) for s in ("AY", "BX", "YB", "AX", "A")] == [1.5, -2.0, 3.25, 0, 0]
    assert klv.rack_values(EN, [B, Y, A]).tolist() == [0, 0, 0, 0, 0, 1.5, 3.25, 0]


def test_the_older_klv_holds_int16_over_256(tmp_path):
    nodes = [node(0, 1, end=True),
             node(A, 4), node(B, 3, end=True),
             node(X, accepts=True), node(Y, accepts=True, end=True)]
    path = tmp_path / "old.klv"
    path.write_bytes(klv_bytes(nodes, [1.5, -2.0, -100.00390625], int16=True))
    klv = Klv.load(path, EN)
    assert klv.values.tolist() == [1.5, -2.0, -100.00390625]
    assert klv.value("YB") == -100.00390625
    klv.save(tmp_path / "new.klv2")  # written back as KLV2
    assert (tmp_path / "new.klv2").stat().st_size == 4 + 5 * 4 + 4 + 3 * 4
    assert Klv.load(tmp_path / "new.klv2").values.tolist() == klv.values.tolist()


GOOD = [node(0, 1, end=True), node(A, 2, accepts=True, end=True),
        node(B, accepts=True, end=True)]  # A, AB


@pytest.mark.parametrize(("data", "message"), [
    (b"", "too short"),
    (b"\x01\x00\x00", "too short"),
    (struct.pack("<II", 9, 0), "9 nodes"),
    (struct.pack("<II", 0, 0), "0 nodes"),
    (klv_bytes(GOOD, [1.0, 2.0])[:-1], "need 8 bytes"),
    (klv_bytes(GOOD, [1.0, 2.0]) + b"\x00", "need 8 bytes"),
    (klv_bytes(GOOD, [1.0]), "1 values for 2 leaves"),
    (klv_bytes(GOOD, [1.0, 2.0, 3.0]), "3 values for 2 leaves"),
    (klv_bytes([node(0, 1, end=True), node(A, 5, accepts=True, end=True)], [1.0]),
     "arc beyond"),
    (klv_bytes([node(0, 1, end=True), node(30, accepts=True, end=True)], [1.0]),
     "tile code"),
    (klv_bytes([node(0, 1, end=True), node(A, 1, accepts=True, end=True)], [1.0]),
     "cycle"),
    (klv_bytes(GOOD, [1.0, float("inf")]), "not a finite"),
])
def test_bad_files_are_one_line_errors_naming_the_file(tmp_path, data, message):
    path = tmp_path / "bad.klv2"
    path.write_bytes(data)
    with pytest.raises(RacketyError, match=message) as info:
        Klv.load(path, EN)
    text = str(info.value)
    assert text.startswith(str(path)) and "\n" not in text


def test_a_missing_file(tmp_path):
    with pytest.raises(RacketyError, match="no such file"):
        Klv.load(tmp_path / "none.klv2")
