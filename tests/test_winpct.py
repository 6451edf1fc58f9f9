"""The win-% table: the shipped one's properties (monotone in spread,
symmetric, 50 % at 0, within 0 to 100), its reader (a round trip, and
hostile files: always a one-line `RacketyError` or a valid table), the
look-ups against a plain reference, and the smoothing of measured counts."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rackety.alphabet import Alphabet
from rackety.errors import RacketyError
from rackety.experiments.winpct import Counts, isotonic, smooth, turns_of
from rackety.game.winpct import MAX_SPREAD, WinTable, shipped


def _valid(table: WinTable) -> None:
    a = table.array
    m = table.max_spread
    assert a.shape[1] == 2 * m + 1
    assert np.all((a >= 0) & (a <= 100))
    assert np.all(np.diff(a, axis=1) >= 0)  # more spread, more wins
    assert np.all(np.abs(a + a[:, ::-1] - 100) <= 0.011)  # P(s) + P(-s) = 100
    assert np.all(a[:, m] == 50)


def test_the_shipped_table() -> None:
    table = WinTable.for_alphabet(Alphabet.load("english"))
    assert table is shipped()  # 100 tiles, 7-tile racks: the measured one
    assert table.array.shape == (94, 2 * MAX_SPREAD + 1)
    _valid(table)
    assert not table.array.flags.writeable
    # no tiles unseen to the mover with the opponent to move: the game is over
    assert table.pct(1, 0) == 100 and table.pct(-1, 0) == 0
    # the clamps: beyond the table, its edge (99 to 100 %); unseen beyond, the last row
    assert table.pct(10_000, 50) == table.pct(MAX_SPREAD, 50) == table.array[50, -1]
    assert table.pct(-10_000, 50) == table.array[50, 0]
    assert np.all(table.array[:, -1] >= 99)
    assert table.pct(30, 500) == table.pct(30, 93)
    # a lead is worth more the fewer tiles are left to play
    for spread in (10, 30, 60):
        assert table.pct(spread, 10) > table.pct(spread, 80)
    assert 50 < table.pct(10, 50) < table.pct(30, 50) < table.pct(60, 50) < 100


def test_other_tile_sets_get_the_table_stretched() -> None:
    english = shipped()
    for name in ("english_super", "french", "norwegian"):
        alphabet = Alphabet.load(name)
        table = WinTable.for_alphabet(alphabet)
        total = sum(t.count for t in alphabet.tiles)
        assert table.unseen_max == total - alphabet.rack_size
        _valid(table)
        # the bag-empty rows map onto the bag-empty rows, the last onto the last
        r = alphabet.rack_size
        assert np.array_equal(table.array[0], english.array[0])
        assert np.allclose(table.array[r], english.array[7], atol=1e-6)
        assert np.allclose(table.array[-1], english.array[-1], atol=1e-6)


@settings(max_examples=200, deadline=None)
@given(st.floats(-400, 400, allow_nan=False), st.integers(-5, 120))
def test_look_ups_interpolate_linearly(spread: float, unseen: int) -> None:
    table = shipped()
    m = table.max_spread
    u = min(max(unseen, 0), table.unseen_max)
    s = min(max(spread, -m), m)
    lo, hi = math.floor(s), math.ceil(s)
    a, b = table.array[u, lo + m], table.array[u, hi + m]
    want = a if lo == hi else a + (b - a) * (s - lo)
    got = table.pct(spread, unseen)
    assert math.isclose(got, want, abs_tol=1e-9)
    assert min(a, b) - 1e-9 <= got <= max(a, b) + 1e-9
    both = table.pcts(np.array([spread, -spread]), np.array([unseen, unseen]))
    assert math.isclose(both[0], got, abs_tol=1e-9)
    assert math.isclose(both[0] + both[1], 100, abs_tol=0.011)


@st.composite
def tables(draw: st.DrawFn) -> np.ndarray:
    """Random valid tables: each row's upper half a non-decreasing walk from 50
    (two decimals), mirrored."""
    m = draw(st.integers(1, 6))
    rows = draw(st.integers(1, 5))
    out = []
    for _ in range(rows):
        steps = draw(st.lists(st.integers(0, 2000), min_size=m, max_size=m))
        half = np.minimum(5000 + np.cumsum(steps), 10_000) / 100
        out.append(np.concatenate([100 - half[::-1], [50.0], half]))
    return np.round(np.array(out), 2)


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tables())
def test_round_trip(tmp_path, array: np.ndarray) -> None:
    table = WinTable.from_array(array, "t")
    path = tmp_path / "t.csv"
    table.write(path, ("a comment",))
    back = WinTable.read(path)
    assert back == table and np.array_equal(back.array, array)


def _small_text() -> str:
    return WinTable.from_array(np.array([[0.0, 20.5, 50.0, 79.5, 100.0],
                                         [10.0, 30.0, 50.0, 70.0, 90.0]])).text(("c",))


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_hostile_files_are_refused_in_one_line(tmp_path, data: st.DataObject) -> None:
    """Random bytes, or the bytes of a valid file with some changed, cut or
    repeated: a valid table or a one-line error naming the file."""
    good = _small_text().encode()
    choice = data.draw(st.integers(0, 3))
    if choice == 0:
        raw = data.draw(st.binary(max_size=300))
    elif choice == 1:
        raw = bytearray(good)
        for _ in range(data.draw(st.integers(1, 4))):
            i = data.draw(st.integers(0, len(raw) - 1))
            raw[i] = data.draw(st.sampled_from(b"0123456789.,-\n#x \x00\xff"))
        raw = bytes(raw)
    elif choice == 2:
        raw = good[:data.draw(st.integers(0, len(good)))]
    else:
        lines = good.split(b"\n")
        i = data.draw(st.integers(0, len(lines) - 1))
        raw = b"\n".join(lines[:i + 1] + lines[i:])
    path = tmp_path / "hostile.csv"
    path.write_bytes(raw)
    try:
        table = WinTable.read(path)
    except RacketyError as exc:
        assert "\n" not in str(exc) and "hostile.csv" in str(exc)
    else:
        _valid(table)


@pytest.mark.parametrize(("rows", "says"), [
    ([[0, 50, 40]], "falls"),
    ([[10, 50, 100]], "add up"),
    ([[-1, 50, 101]], "outside"),
    ([[0, 50, 100, 100]], "odd number"),
    ([[0, 49, 100]], "add up"),
])
def test_bad_tables_say_what_is_wrong(rows: list[list[float]], says: str) -> None:
    with pytest.raises(RacketyError, match=says):
        WinTable.from_array(np.array(rows, float), "bad.csv")


def test_the_reader_names_the_file_and_the_fault(tmp_path) -> None:
    path = tmp_path / "w.csv"
    good = _small_text()
    for text, says in ((good.replace("unseen,", "spread,"), "header"),
                       (good.replace("\n1,", "\n7,"), "says unseen"),
                       (good.replace("79.50", "nan"), "not a win %"),
                       (good.replace("79.50", "1e3"), "not a win %"),
                       ("# nothing\n", "no header")):
        path.write_text(text)
        with pytest.raises(RacketyError, match=says) as info:
            WinTable.read(path)
        assert "w.csv" in str(info.value)
    path.write_bytes(good.encode() + "é".encode())
    with pytest.raises(RacketyError, match="ASCII"):
        WinTable.read(path)
    with pytest.raises(RacketyError, match="directory"):
        WinTable.read(tmp_path)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0.1, 10)), min_size=1, max_size=30))
def test_isotonic_is_the_nearest_non_decreasing_sequence(points) -> None:
    """Pool adjacent violators: non-decreasing, the weighted mean kept, and no
    farther from the values (weighted least squares) than their running
    maximum or their sorted copy, two other non-decreasing sequences."""
    values = np.array([v for v, _ in points])
    weights = np.array([w for _, w in points])
    fit = isotonic(values, weights)
    assert np.all(np.diff(fit) >= -1e-12)
    assert math.isclose(float(weights @ fit), float(weights @ values), abs_tol=1e-9)

    def cost(y: np.ndarray) -> float:
        return float(weights @ (values - y) ** 2)

    for other in (np.maximum.accumulate(values), np.sort(values),
                  np.full(len(values), float(weights @ values / weights.sum()))):
        assert cost(fit) <= cost(other) + 1e-9


def test_smoothing_makes_a_valid_table_near_the_truth() -> None:
    """Counts drawn from a known win curve: the smoothed table is valid and
    close to the curve where the data are."""
    rng = np.random.default_rng(5)
    counts = Counts.empty(20, 60)
    spreads = np.arange(-60, 61)
    for u in range(21):
        truth = 1 / (1 + np.exp(-spreads / (4 + u)))
        n = rng.poisson(4000 * np.exp(-(spreads / 30.0) ** 2))
        counts.turns[u] = n
        counts.wins[u] = 2 * rng.binomial(n, truth)
    table = WinTable.from_array(smooth(counts), "smoothed")
    _valid(table)
    assert np.all(table.array[0, 61:] == 100)  # the game is over at 0 unseen
    for u in (5, 12, 20):
        truth = 100 / (1 + np.exp(-spreads / (4 + u)))
        near = np.abs(spreads) <= 30
        assert np.max(np.abs(table.array[u, near] - truth[near])) < 4


def test_turns_of_a_game_count_what_the_mover_cannot_see(twl06) -> None:
    """A compiled game's turns (`turns_of`) against a count of their own: the
    tiles unseen to the mover after its turn are the set's less those on the
    board less its rack then (the rack it starts its next turn with)."""
    from rackety.experiments.selfplay import EV_PLAY, Compiled
    from rackety.kernels.fields import M_PLACED
    from rackety.players import make_player

    compiled = Compiled(twl06, [make_player("static", twl06), make_player("static", twl06)],
                        best_scores=False)
    for seed in (1, 2, 3):
        game = compiled.play(seed)
        spread, unseen, result = turns_of(game.seat, game.kind, game.score, game.rack)
        turns = [i for i in range(game.n) if game.kind[i] <= 2]
        assert len(spread) == len(turns) - 1
        scores = [0, 0]
        on_board = 0
        for k, i in enumerate(turns[:-1]):
            mover = int(game.seat[i])
            scores[mover] += int(game.score[i])
            on_board += int(game.meta[i, M_PLACED]) if game.kind[i] == EV_PLAY else 0
            assert spread[k] == scores[mover] - scores[1 - mover]
            later = [j for j in turns[k + 1:] if game.seat[j] == mover]
            if later:
                assert unseen[k] == 100 - on_board - int(game.rack[later[0], 0])
        final = game.scores(2)
        for k, i in enumerate(turns[:-1]):
            mine = final[int(game.seat[i])] - final[1 - int(game.seat[i])]
            assert result[k] == (2 if mine > 0 else 1 if mine == 0 else 0)
