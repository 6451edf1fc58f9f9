"""Leave training: every leave written, the same table for the same seed on any
number of workers, values moving the right way, the command line, and the
`static` player."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from task_counting import EnoughError, counting

from rackety import Alphabet, Lexicon
from rackety.errors import RacketyError
from rackety.experiments.selfplay import EV_EXCHANGE, EV_PASS, EV_PLAY, Compiled
from rackety.experiments.training import leave_set, new_values, train
from rackety.frontends.cli import main
from rackety.game.heuristics import H3
from rackety.lexicon.klv import Klv
from rackety.players import StaticPlayer, make_player


def _brute_force_leaves(alphabet: Alphabet) -> set[tuple[int, ...]]:
    """Every multiset of 1..rack_size-1 tiles within the tile counts."""
    counts = {t.code: t.count for t in alphabet.tiles}
    out = set()
    for size in range(1, alphabet.rack_size):
        for leave in itertools.combinations_with_replacement(sorted(counts), size):
            if all(counts[c] >= k for c, k in Counter(leave).items()):
                out.add(leave)
    return out


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory, twl06: Lexicon) -> Path:
    path = tmp_path_factory.mktemp("training") / "one.klv2"
    train("TWL06", 160, 2, seed=11, min_count=5, jobs=1).save(path)
    return path


def test_every_leave_of_one_to_six_tiles_is_written(trained: Path) -> None:
    english = Alphabet.load("english")
    klv = Klv.load(trained, english)
    expected = _brute_force_leaves(english)
    assert len(expected) == 914_624 == len(klv)
    assert set(klv.leaves()) == expected
    assert np.all(np.isfinite(klv.values))


def test_the_same_seed_gives_the_same_bytes_on_one_or_two_workers(
        trained: Path, tmp_path: Path) -> None:
    two = train("TWL06", 160, 2, seed=11, min_count=5, jobs=2)
    assert two.klv.to_bytes() == trained.read_bytes()
    other = train("TWL06", 160, 1, seed=12, min_count=5, jobs=1)
    assert other.klv.to_bytes() != trained.read_bytes()


def test_values_move_the_right_way(tmp_path: Path) -> None:
    """From a table of zeros (greedy play), a few hundred games make the leaves
    holding the blank worth far more than those holding the Q."""
    zeros = tmp_path / "zeros.klv2"
    Klv.from_values("english", {}).save(zeros)
    result = train("TWL06", 600, 1, seed=3, min_count=1, init=str(zeros), jobs=1)
    assert len(result.generations) == 1
    stats = result.generations[0]
    assert stats.games == 600 and stats.samples > 6000 and stats.seen > 2000
    leaves = leave_set(Alphabet.load("english"))
    values = result.klv.values
    moved = values != 0
    blank, q = _holding(leaves, 0), _holding(leaves, 17)
    assert moved[blank].sum() > 30 and moved[q].sum() > 100
    assert values[moved & blank].mean() > values[moved & q].mean() + 5
    assert result.klv.value("?") > result.klv.value("Q")


def _holding(leaves, code: int) -> np.ndarray:
    """Which leaves of a `LeaveSet` hold tile ``code``."""
    starts = np.concatenate(([0], np.cumsum(leaves.lengths)[:-1]))
    out = np.zeros(len(leaves), bool)
    for j in range(int(leaves.lengths.max())):
        ok = leaves.lengths > j
        out[ok] |= leaves.tiles[starts[ok] + j] == code
    return out


def test_new_values_shrink_toward_the_prior() -> None:
    prior = np.array([1.0, 2.0, 3.0])
    scale = 65536
    # leave 0 seen twice at 10 and 14 over a baseline of 4 (the empty leave's mean),
    # leave 1 never: it keeps its prior
    sums = np.array([24 * scale, 0, 1 * scale, 8 * scale])
    counts = np.array([2, 0, 1, 2])
    values, baseline = new_values(prior, sums, counts, min_count=2)
    assert baseline == 4.0
    assert values.tolist() == [(24 - 2 * 4 + 2 * 1.0) / 4, 2.0, (1 - 4 + 2 * 3.0) / 3]


def test_the_rack_before_each_turn_gives_the_leaves(twl06: Lexicon) -> None:
    """The racks `play_game` records: the leave kept is on the rack at the
    player's next turn, refilled from the bag."""
    compiled = Compiled(twl06, [make_player("h3", twl06), make_player("h3", twl06)])
    for seed in (1, 2):
        game = compiled.play(seed)
        assert compiled.check(game) is None
        turns = [e for e in range(game.n) if game.kind[e] in (EV_PLAY, EV_EXCHANGE)]
        for e in turns:
            rn, bag = int(game.rack[e, 0]), int(game.rack[e, 1])
            rack = Counter(game.rack[e, 2:2 + rn].tolist())
            length = int(game.meta[e, 3])
            through = int(game.meta[e, 6]) if game.kind[e] == EV_PLAY else 0
            used = Counter(0 if t & 0x80 else t for j, t in
                           enumerate(game.tiles[e, :length].tolist()) if not through >> j & 1)
            assert not used - rack
            leave = rack - used
            later = [f for f in turns if f > e and game.seat[f] == game.seat[e]]
            if later:
                f = later[0]
                nxt = Counter(game.rack[f, 2:2 + int(game.rack[f, 0])].tolist())
                assert not leave - nxt
                assert int(game.rack[f, 0]) == min(7, leave.total() + bag)


def test_cli_writes_the_table_and_a_summary_per_generation(capsys, tmp_path: Path) -> None:
    out_path = tmp_path / "cli.klv2"
    code = main(["leaves", "train", "--lexicon", "TWL06", "--games", "30", "--generations",
                 "2", "--min-count", "5", "--jobs", "1", "-o", str(out_path)])
    out, _ = capsys.readouterr()
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("generation 1: 30 games, ")
    assert lines[1].startswith("generation 2: 30 games, ")
    assert "leaves seen" in lines[0] and "mean |change|" in lines[0]
    assert lines[2].startswith(f"wrote {out_path}: 914,624 leaves")
    assert len(Klv.load(out_path, "english")) == 914_624


@pytest.mark.parametrize("args", [
    ["--games", "0"],
    ["--games", "5", "--init", "no-such-file.klv2"],
    ["--games", "5", "--init", "h9"],
    ["--games", "5", "--backend", "spark"],
    ["--games", "5", "--address", "1.2.3.4:6379"],
    ["--games", "5", "--min-count", "-1"],
])
def test_cli_bad_arguments_are_one_line(capsys, tmp_path: Path, args: list[str]) -> None:
    code = main(["leaves", "train", "--jobs", "1", "-o", str(tmp_path / "x.klv2"), *args])
    _, err = capsys.readouterr()
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert "error" in err
    assert not (tmp_path / "x.klv2").exists()


def test_static_uses_the_shipped_table_and_plays_compiled(twl06: Lexicon) -> None:
    player = make_player("static", twl06)
    assert isinstance(player, StaticPlayer) and player.name == "static"
    assert isinstance(player.leave_model, Klv) and len(player.leave_model) == 914_624
    # every seat shares one table, so the game runs compiled
    compiled = Compiled(twl06, [player, make_player("static", twl06)])
    game = compiled.play(5)
    assert compiled.check(game) is None and game.n > 10


def test_static_falls_back_to_h3_without_a_table() -> None:
    small = Lexicon.from_words(["care", "cares", "scare", "race", "acre"])
    player = make_player("static", small)
    assert isinstance(player, StaticPlayer) and player.leave_model is H3


# ------------------------------------------------------------ the racks method
def _reference_rack_values(racks: dict[tuple[int, ...], list[float]],
                           alphabet: Alphabet) -> tuple[dict[tuple[int, ...], float], float]:
    """The racks method from its definition, in plain Python: a leave's value is
    the mean equity of the racks holding it, each weighted by the ways to draw
    the rest of the rack after keeping the leave, less the mean equity of a
    rack drawn from the full bag."""
    from math import comb

    dist = {t.code: t.count for t in alphabet.tiles}

    def ways(rest: Counter, minus: Counter) -> int:
        out = 1
        for c, k in rest.items():
            out *= comb(dist[c] - minus[c], k)
        return out

    means = {r: sum(v) / len(v) for r, v in racks.items()}
    base_w = {r: ways(Counter(r), Counter()) for r in racks}
    baseline = sum(base_w[r] * means[r] for r in racks) / sum(base_w.values())
    totals: dict[tuple[int, ...], list[float]] = {}
    for rack, mean in means.items():
        held = Counter(rack)
        for size in range(1, len(rack)):
            for leave in set(itertools.combinations(sorted(rack), size)):
                kept = Counter(leave)
                w = ways(held - kept, kept)
                acc = totals.setdefault(leave, [0.0, 0.0])
                acc[0] += w * mean
                acc[1] += w
    return {leave: t / w - baseline for leave, (t, w) in totals.items()}, baseline


def test_rack_values_follow_their_definition() -> None:
    from rackety.experiments.training import SCALE, rack_values

    english = Alphabet.load("english")
    leaves = leave_set(english)
    rng = np.random.default_rng(4)
    bag = [t.code for t in english.tiles for _ in range(t.count)]
    racks: dict[tuple[int, ...], list[float]] = {}
    for _ in range(12):
        rack = tuple(sorted(rng.choice(bag, 7, replace=False).tolist()))
        racks.setdefault(rack, []).extend(float(x) for x in rng.integers(0, 60, 3))
    keys, sums = [], []
    for rack, equities in racks.items():
        key = 0
        for c in rack:
            key = key * 64 + c + 1
        for e in equities:
            keys.append(key)
            sums.append(round(e * SCALE))
    prior = np.full(len(leaves), 0.25)
    values, baseline, behind = rack_values(prior, np.array(keys, np.int64),
                                           np.array(sums, np.int64), leaves, min_count=0,
                                           model=False)
    expected, expected_baseline = _reference_rack_values(racks, english)
    assert baseline == pytest.approx(expected_baseline)
    klv = leaves.klv(values)
    for leave, value in expected.items():
        assert klv.value(leave) == pytest.approx(value, abs=1e-3), leave
    assert int((behind > 0).sum()) == len(expected)
    untouched = behind == 0
    assert np.all(values[untouched] == np.float32(0.25))


def test_the_racks_method_is_deterministic_and_learns(tmp_path: Path) -> None:
    one = train("TWL06", 160, 1, seed=11, min_count=5, jobs=1, method="racks")
    two = train("TWL06", 160, 1, seed=11, min_count=5, jobs=2, method="racks")
    assert one.klv.to_bytes() == two.klv.to_bytes()
    zeros = tmp_path / "zeros.klv2"
    Klv.from_values("english", {}).save(zeros)
    result = train("TWL06", 600, 1, seed=3, min_count=1, init=str(zeros), jobs=1,
                   method="racks")
    stats = result.generations[0]
    assert stats.samples > 6000 and stats.seen > 20_000  # every leave of a rack seen
    assert result.klv.value("?") > result.klv.value("S") > result.klv.value("Q") + 5
    # --init none: every leave starts at 0, as the table of zeros does
    none = train("TWL06", 600, 1, seed=3, min_count=1, init="none", jobs=1, method="racks")
    assert none.klv.to_bytes() == result.klv.to_bytes()
    with pytest.raises(RacketyError, match="method"):
        train("TWL06", 10, 1, method="nope")


def _reference_rack_samples(game, klv: Klv, horizon: int) -> list[tuple[tuple[int, ...], float]]:
    """The racks method's samples from their definition, in plain Python: each
    placement or exchange from a full rack with a full rack's tiles or more in
    the bag (as MAGPIE's leavegen, which ends its games there); its score and
    the value of what it kept (horizon 1), or its score, the player's next
    score and the value of what that turn kept, when the bag refilled both
    (horizon 2)."""
    turns = [e for e in range(game.n) if game.kind[e] in (EV_PLAY, EV_EXCHANGE, EV_PASS)]

    def kept(e: int) -> tuple[Counter, int]:
        rn, bag = int(game.rack[e, 0]), int(game.rack[e, 1])
        rack = Counter(game.rack[e, 2:2 + rn].tolist())
        if game.kind[e] == EV_PASS:
            return rack, bag
        length = int(game.meta[e, 3])
        through = int(game.meta[e, 6]) if game.kind[e] == EV_PLAY else 0
        used = Counter(0 if (t & 0x80 and game.kind[e] == EV_PLAY) else t
                       for j, t in enumerate(game.tiles[e, :length].tolist())
                       if not through >> j & 1)
        after = bag if game.kind[e] == EV_EXCHANGE else bag - min(used.total(), bag)
        return rack - used, after

    def value(leave: Counter) -> float:
        return klv.value(tuple(sorted(leave.elements()))) if leave.total() else 0.0

    out = []
    for e in turns:
        rn, bag = int(game.rack[e, 0]), int(game.rack[e, 1])
        if game.kind[e] == EV_PASS or rn != 7 or bag < 7:
            continue
        rack = tuple(sorted(game.rack[e, 2:2 + rn].tolist()))
        leave, after = kept(e)
        equity = float(game.score[e]) if game.kind[e] == EV_PLAY else 0.0
        if horizon == 1:
            out.append((rack, equity + value(leave)))
            continue
        later = [f for f in turns if f > e and game.seat[f] == game.seat[e]]
        if after == 0 or not later or game.kind[later[0]] == EV_PASS:
            continue
        nxt, nxt_after = kept(later[0])
        if nxt_after == 0:
            continue
        out.append((rack, equity + float(game.score[later[0]]) + value(nxt)))
    return out


@pytest.mark.parametrize("horizon", [1, 2])
def test_rack_samples_follow_their_definition(twl06: Lexicon, horizon: int) -> None:
    from rackety.experiments.training import SCALE, _rack_samples

    english = twl06.alphabet
    leaves = leave_set(english)
    values = leaves.values_of(H3).astype(np.float32).astype(np.float64)
    klv = leaves.klv(values)
    compiled = Compiled(twl06, [StaticPlayer(klv, "a"), StaticPlayer(klv, "b")])
    seen = 0
    for seed in (1, 2, 3):
        game = compiled.play(seed)
        keys = np.empty(game.n, np.int64)
        sums = np.empty(game.n, np.int64)
        m = _rack_samples(game.n, game.events(), leaves.size, leaves.max_len, 7, leaves.keys,
                          values, horizon, keys, sums)
        expected = _reference_rack_samples(game, klv, horizon)
        assert m == len(expected) > 3
        for (rack, equity), key, total in zip(expected, keys[:m], sums[:m], strict=True):
            want = 0
            for c in rack:
                want = want * 64 + c + 1
            assert key == want
            assert total / SCALE == pytest.approx(equity, abs=1e-3)
        seen += m
    assert seen > 20


def test_a_horizon_of_two_is_for_the_racks_method() -> None:
    with pytest.raises(RacketyError, match="horizon"):
        train("TWL06", 10, 1, method="td", horizon=2)
    with pytest.raises(RacketyError, match="horizon"):
        train("TWL06", 10, 1, method="racks", horizon=3)


# ------------------------------------------------------------ the rack model
TINY = Alphabet({
    "name": "rackmodel", "board": "standard15", "rack_size": 4, "bingo_bonus": 20,
    "tiles": [{"label": "?", "blank_label": "?", "count": 1, "points": 0, "vowel": False}]
    + [{"label": c, "blank_label": c.lower(), "count": n, "points": 1, "vowel": c in "AE"}
       for c, n in zip("ABCDE", (3, 2, 2, 1, 3), strict=True)]})


def _racks_by_hand(alphabet: Alphabet) -> list[tuple[int, ...]]:
    counts = {t.code: t.count for t in alphabet.tiles}
    return [r for r in itertools.combinations_with_replacement(sorted(counts),
                                                                 alphabet.rack_size)
            if all(counts[c] >= k for c, k in Counter(r).items())]


def _key(rack: tuple[int, ...]) -> int:
    key = 0
    for c in rack:
        key = key * 64 + c + 1
    return key


def test_the_rack_model_fits_equities_made_of_tiles_and_pairs() -> None:
    """Rack equities that are exactly an intercept, tile terms and pair terms
    are predicted exactly on racks the fit never saw."""
    from rackety.experiments.training import RackModel, rack_model

    english = Alphabet.load("english")
    size = english.size
    rng = np.random.default_rng(7)
    truth = RackModel(rng.normal(0, 3, 1 + size + size * (size + 1) // 2), 0.0, 0.0, 0.0)
    bag = [t.code for t in english.tiles for _ in range(t.count)]
    racks = sorted({_key(tuple(sorted(rng.choice(bag, 7, replace=False).tolist())))
                    for _ in range(6000)})
    keys = np.array(racks, np.int64)
    held = keys[3::4]
    fit_keys = np.setdiff1d(keys, held)
    means = truth.predict(fit_keys, size, 7)
    counts = rng.integers(1, 4, len(fit_keys)).astype(np.int64)
    model = rack_model(fit_keys, means, counts, 0.0, size, 7)
    assert model.k == 0.0  # no noise: a rack seen keeps its mean
    np.testing.assert_allclose(model.predict(held, size, 7), truth.predict(held, size, 7),
                               atol=0.05)


@pytest.mark.parametrize("with_words", [False, True])
def test_rack_values_with_the_model_follow_their_definition(with_words: bool) -> None:
    """Every rack counts: a rack seen has its mean shrunk toward the model by
    k samples, a rack never seen the model's equity; a leave is the weighted
    mean of the racks holding it less the mean rack, shrunk toward its prior
    by the samples behind it. With word racks, the model has a term for the
    racks that spell a word, and the sums over every rack include it."""
    from math import comb

    from rackety.experiments.training import SCALE, rack_model, rack_values

    leaves = leave_set(TINY)
    dist = {t.code: t.count for t in TINY.tiles}
    every = _racks_by_hand(TINY)
    rng = np.random.default_rng(3)
    seen = [every[i] for i in rng.choice(len(every), len(every) // 2, replace=False)]
    samples: list[tuple[tuple[int, ...], float]] = []
    for rack in seen:
        base = float(rng.normal(20, 5))
        samples += [(rack, base + float(rng.normal(0, 4))) for _ in range(rng.integers(1, 4))]
    keys = np.array([_key(r) for r, _ in samples], np.int64)
    sums = np.array([round(e * SCALE) for _, e in samples], np.int64)
    words = None
    if with_words:
        first = np.array(sorted(_key(every[i]) for i in rng.choice(len(every), len(every) // 5,
                                                                   replace=False)), np.int64)
        second = np.array(sorted(_key(every[i]) for i in rng.choice(len(every), len(every) // 3,
                                                                    replace=False)), np.int64)
        # an indicator, and a feature of varying value on the same racks
        words = ((first, np.ones(len(first))), (second, np.ones(len(second))),
                 (second, rng.uniform(0.1, 1.0, len(second))))
        for rack in seen:  # the racks of the first feature are worth 15 points more
            if _key(rack) in set(first.tolist()):
                samples = [(r, e + 15.0) if r == rack else (r, e) for r, e in samples]
        keys = np.array([_key(r) for r, _ in samples], np.int64)
        sums = np.array([round(e * SCALE) for _, e in samples], np.int64)
    prior = rng.normal(0, 1, len(leaves))
    values, baseline, behind = rack_values(prior, keys, sums, leaves, 3, model=True, words=words)

    by_rack: dict[tuple[int, ...], list[float]] = {}
    for rack, e in samples:
        by_rack.setdefault(rack, []).append(round(e * SCALE) / SCALE)
    means = {r: sum(v) / len(v) for r, v in by_rack.items()}
    noise = sum((e - means[r]) ** 2 for r, v in by_rack.items() for e in v) / (
        len(samples) - len(by_rack))
    order = sorted(by_rack, key=_key)
    model = rack_model(np.array([_key(r) for r in order], np.int64),
                       np.array([means[r] for r in order]),
                       np.array([len(by_rack[r]) for r in order], np.int64), noise, TINY.size, 4,
                       words)
    assert model.k > 0
    if with_words:
        assert model.coef[-3] > 5  # the word racks' 15 points are seen by the word term
    predicted = dict(zip(every, model.predict(np.array([_key(r) for r in every], np.int64),
                                              TINY.size, 4, words), strict=True))
    equity = {r: (len(by_rack[r]) * means[r] + model.k * predicted[r]) / (len(by_rack[r]) + model.k)
              if r in by_rack else predicted[r] for r in every}

    def ways(rest: Counter, minus: Counter) -> int:
        out = 1
        for c, k in rest.items():
            out *= comb(dist[c] - minus[c], k)
        return out

    expected_baseline = sum(ways(Counter(r), Counter()) * equity[r] for r in every) / sum(
        ways(Counter(r), Counter()) for r in every)
    assert baseline == pytest.approx(expected_baseline)
    klv = leaves.klv(values)
    table = {leave: i for i, leave in enumerate(klv.leaves())}
    for leave, i in table.items():
        kept = Counter(leave)
        holding = [r for r in every if not kept - Counter(r)]
        w = [ways(Counter(r) - kept, kept) for r in holding]
        raw = sum(wi * equity[r] for wi, r in zip(w, holding, strict=True)) / sum(w) - baseline
        n = sum(len(by_rack.get(r, ())) for r in holding)
        assert behind[i] == n
        want = (n * raw + 3 * prior[i]) / (n + 3)
        assert values[i] == pytest.approx(want, abs=1e-4), leave


def test_word_racks_are_the_racks_that_spell_a_word() -> None:
    """`word_racks`: every full rack (by the tile counts) whose tiles spell a
    word of the lexicon, blanks standing for any letter, by brute force."""
    from rackety.experiments.training import word_racks

    words = ["ABCD", "ABBE", "CEDE", "AAEE", "ABC", "DDDD", "ABCDE", "EEEEE"]  # one D in the bag
    lexicon = Lexicon.from_words(words, TINY)
    letters = {t.label: t.code for t in TINY.tiles}
    seven, eight = word_racks(lexicon)
    for extra, got in ((0, seven.tolist()), (1, eight.tolist())):
        # a rack spells a word of 4 + extra tiles (with extra more tiles of
        # any kind) iff its natural tiles are a sub-multiset of the word's
        spelled = [Counter(letters[ch] for ch in w) for w in words if len(w) == 4 + extra]
        want = sorted(_key(r) for r in _racks_by_hand(TINY)
                      if any(not Counter(c for c in r if c != 0) - w for w in spelled))
        assert got == want
    assert _key((0, 1, 2, 3)) in seven and _key((4, 4, 4, 4)) not in seven
    assert _key((1, 2, 3, 5)) in eight and _key((5, 5, 5, 5)) not in eight  # 3 Es only


def test_word_features_share_is_the_tiles_a_bingo_plays_through() -> None:
    """`word_features`: the two indicators on `word_racks`' racks, and on the
    second's, the share of the bag's natural tiles that, added to the rack,
    spell a word (blanks standing for any letter), by brute force."""
    from rackety.experiments.training import word_features, word_racks

    words = ["ABCD", "ABBE", "CEDE", "ABCDE", "ABCEE", "BBCDE", "EEEEE", "AACDE"]
    lexicon = Lexicon.from_words(words, TINY)
    letters = {t.label: t.code for t in TINY.tiles}
    dist = {t.code: t.count for t in TINY.tiles}
    natural = sum(n for c, n in dist.items() if c != 0)
    seven, eight = word_racks(lexicon)
    (k7, v7), (k8, v8), (k8b, share) = word_features(lexicon)
    assert k7.tolist() == seven.tolist() and k8.tolist() == eight.tolist() == k8b.tolist()
    assert set(v7.tolist()) == {1.0} and set(v8.tolist()) == {1.0}
    spelled = [Counter(letters[ch] for ch in w) for w in words if len(w) == 5]
    by_key = {_key(r): r for r in _racks_by_hand(TINY)}
    assert len(share) > 0
    for key, got in zip(k8.tolist(), share.tolist(), strict=True):
        rack = Counter(c for c in by_key[key] if c != 0)
        want = sum(n for c, n in dist.items()
                   if c != 0 and any(not (rack + Counter([c])) - w for w in spelled))
        assert got == pytest.approx(want / natural), by_key[key]
    assert min(share) > 0 and max(share) <= 1


@pytest.mark.parametrize("method", ["td", "racks"])
def test_a_long_training_makes_its_tasks_as_they_are_played(tmp_path: Path, monkeypatch,
                                                            method: str) -> None:
    """Ten million games a generation, stopped after the first task: only the
    tasks a worker was given were made, never the list of every task."""
    from rackety.backends import WINDOW_PER_WORKER
    from rackety.experiments import training

    words = tmp_path / "words.txt"
    words.write_text("AA AB AD AE AT BA TA QI ZA ET TE EAT TEA ATE".replace(" ", "\n"))
    made: list[int] = []

    def progress(generation: int, done: int, total: int) -> None:
        if done:
            raise EnoughError

    monkeypatch.setattr(training, "imap_tasks", counting(training.imap_tasks, made))
    with pytest.raises(EnoughError):
        train(str(words), 10**7, 3, seed=2, jobs=1, method=method, progress=progress)
    assert 1 <= len(made) <= 1 + WINDOW_PER_WORKER


def test_the_rack_tally_is_the_samples_folded_in_any_order(monkeypatch) -> None:
    """Samples folded in pieces, in any order, give each rack's count, sum and
    squared deviation from its mean as the samples themselves do (so a long
    run keeps the racks, not the samples)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from rackety.experiments.training import RackTally

    monkeypatch.setattr(RackTally, "FOLD", 5)  # fold often

    @settings(max_examples=60, deadline=None)
    @given(st.lists(st.tuples(st.integers(0, 6), st.integers(-2**30, 2**30)), max_size=60),
           st.randoms(use_true_random=False))
    def check(samples: list[tuple[int, int]], rng) -> None:
        keys = np.array([k for k, _ in samples], np.int64)
        sums = np.array([s for _, s in samples], np.int64)
        tallies = []
        for _ in range(2):
            order = list(range(len(samples)))
            rng.shuffle(order)
            tally = RackTally()
            cut = 0
            while cut < len(order):
                step = rng.randint(1, 7)
                part = order[cut:cut + step]
                tally.add(keys[part], sums[part])
                cut += step
            tally.fold()
            tallies.append(tally)
        expected_keys = sorted(set(keys.tolist()))
        for tally in tallies:
            assert tally.keys.tolist() == expected_keys and tally.samples == len(samples)
            for key, count, total in zip(tally.keys, tally.counts, tally.sums, strict=True):
                mine = [s for k, s in samples if k == key]
                assert count == len(mine) and total == sum(mine)
        exact = sum(sum((s - sum(m) / len(m)) ** 2 for s in m) for m in (
            [s for k, s in samples if k == key] for key in expected_keys))
        deviation = tallies[0].deviation()
        assert deviation == tallies[1].deviation()  # the same whatever the order
        scale = sum(float(s) * s for _, s in samples)  # float64 keeps 1e-16 of it
        assert abs(deviation - exact) <= 1e-12 * scale + 1e-9

    check()


def test_word_feature_sums_are_kept_in_the_lexicon_cache(tmp_path: Path, monkeypatch) -> None:
    """A word feature's sums over the leaves are made once a machine: the next
    process reads them from the lexicon cache, the same values to the bit; a
    damaged or short file is made again, never read."""
    from rackety.experiments import training

    english = Alphabet.load("english")
    words = training.word_features(Lexicon.from_words(["RETAINS", "STAINER", "QI", "ZA"]))
    keys, values = next((k, v) for k, v in words if len(k))
    leaves = leave_set(english)
    dist = training._tile_counts(english)
    monkeypatch.setenv("RACKETY_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(training, "_WORD_LEAVES", {})
    total, full = training._word_leaves(keys, values, dist, leaves)
    assert np.count_nonzero(total) > 0 and full > 0
    [kept] = tmp_path.glob("word-leaves-*.f64")
    assert kept.stat().st_size == 32 + 8 * (len(leaves) + 1)

    def made_again(*args: object) -> None:
        raise AssertionError("made again, not read from the cache")

    monkeypatch.setattr(training, "_WORD_LEAVES", {})
    real = training._rack_leaves
    monkeypatch.setattr(training, "_rack_leaves", made_again)
    again, again_full = training._word_leaves(keys, values, dist, leaves)
    assert again.tobytes() == total.tobytes() and again_full == full
    good = kept.read_bytes()
    for damaged in (good[:-8], good[:100] + bytes([good[100] ^ 1]) + good[101:]):
        kept.write_bytes(damaged)
        monkeypatch.setattr(training, "_WORD_LEAVES", {})
        with pytest.raises(AssertionError, match="made again"):
            training._word_leaves(keys, values, dist, leaves)
    monkeypatch.setattr(training, "_rack_leaves", real)
    monkeypatch.setattr(training, "_WORD_LEAVES", {})
    remade, remade_full = training._word_leaves(keys, values, dist, leaves)
    assert remade.tobytes() == total.tobytes() and remade_full == full
    assert kept.read_bytes() == good


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.binary(max_size=120), count=st.integers(0, 10), seal=st.booleans())
def test_a_kept_array_is_read_back_only_when_whole(tmp_path: Path, data: bytes, count: int,
                                                   seal: bool) -> None:
    """Whatever bytes lie in a kept array's file (`lexicon.cache.lookup_array`),
    it gives None or exactly ``count`` values whose checksum the file holds;
    it never raises. ``seal``: the bytes carry a right checksum."""
    import hashlib
    import os

    from rackety.lexicon.cache import lookup_array

    if seal:
        data = hashlib.sha256(data).digest() + data
    folder = tmp_path / f"c{os.getpid()}-{hashlib.sha1(data).hexdigest()}-{count}"
    folder.mkdir()
    (folder / "x.f64").write_bytes(data)
    old = os.environ.get("RACKETY_CACHE_DIR")
    os.environ["RACKETY_CACHE_DIR"] = str(folder)
    try:
        got = lookup_array("x", count)
    finally:
        if old is None:
            del os.environ["RACKETY_CACHE_DIR"]
        else:
            os.environ["RACKETY_CACHE_DIR"] = old
    whole = seal and len(data) == 32 + 8 * count
    assert (got is not None) == whole
    if got is not None:
        assert got.dtype == np.float64 and got.tobytes() == data[32:]


def _model_leaves_by_formula(tiles: np.ndarray, lengths: np.ndarray, coef: np.ndarray,
                             dist: np.ndarray, size: int, rack_len: int
                             ) -> tuple[list[float], list[float]]:
    """`_model_leaves`' expectations as its docstring states them, over every
    code and every pair of codes (each leave, then the full bag), and the
    size of their terms (the sum of the magnitudes of every term of the
    model, for the tolerance)."""
    values, sizes = [], []
    pos = 0
    for n in [*lengths.tolist(), 0]:
        held = np.zeros(size)
        for t in tiles[pos:pos + n].tolist():
            held[t] += 1.0
        pos += n
        k, m = rack_len - n, float(dist[:size].sum()) - n
        pool = dist[:size].astype(np.float64) - held
        draw = k * pool / m if m > 0 else np.zeros(size)
        f2 = k * (k - 1) / (m * (m - 1)) if m > 1 else 0.0
        acc, big = coef[0], abs(coef[0])
        at = 1 + size
        for c in range(size):
            acc += coef[1 + c] * (held[c] + draw[c])
            big += abs(coef[1 + c]) * (held[c] + dist[c])
            for d in range(c, size):
                if d == c:
                    pair = (held[c] * (held[c] - 1) + 2 * held[c] * draw[c]
                            + f2 * pool[c] * (pool[c] - 1)) / 2
                else:
                    pair = (held[c] * held[d] + held[c] * draw[d] + held[d] * draw[c]
                            + f2 * pool[c] * pool[d])
                acc += coef[at] * pair
                big += abs(coef[at]) * (held[c] + dist[c]) * (held[d] + dist[d])
                at += 1
        values.append(float(acc))
        sizes.append(float(big))
    return values, sizes


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_the_rack_model_leaves_are_its_exact_expectations(data: st.DataObject) -> None:
    """`_model_leaves` (which expands the model around the full bag, so a
    leave costs its own codes only) gives what the expectations of its
    docstring give summed plainly over every code and pair of codes, for any
    coefficients, tile counts (a blank or none) and leaves (empty ones, tiles
    in any order), to rounding."""
    from rackety.experiments.training import _model_leaves

    size = data.draw(st.integers(2, 9), label="size")
    rack_len = data.draw(st.integers(2, 8), label="rack_len")
    dist = np.array(data.draw(st.lists(st.integers(0, 6), min_size=size, max_size=size)
                              .filter(lambda d: sum(d) >= rack_len), label="dist"), np.int64)
    features = 1 + size + size * (size + 1) // 2
    coef = np.array(data.draw(st.lists(st.floats(-50, 50), min_size=features,
                                       max_size=features), label="coef"))
    bag = [c for c in range(size) for _ in range(dist[c])]
    picks = data.draw(st.lists(st.lists(st.integers(0, len(bag) - 1), unique=True,
                                        max_size=rack_len - 1), max_size=12), label="leaves")
    tiles = np.array([bag[i] for pick in picks for i in pick], np.uint8)
    lengths = np.array([len(pick) for pick in picks], np.int64)
    out = np.full(len(lengths), np.nan)
    full = _model_leaves(tiles, lengths, coef, dist, size, rack_len, out)
    want, scale = _model_leaves_by_formula(tiles, lengths, coef, dist, size, rack_len)
    for got, expected, big in zip([*out.tolist(), full], want, scale, strict=True):
        assert abs(got - expected) <= 1e-9 * big, (got, expected)


def test_word_racks_are_kept_in_the_lexicon_cache(tmp_path: Path, monkeypatch) -> None:
    """`word_racks` and the masks of the second (2.3 s for TWL06's) are made
    once a machine: the next process reads them from the lexicon cache, the
    same arrays to the bit (a mask past 32 bits too: Polish's Ż is code 32);
    a damaged or short file is made again, never read. The same words on
    other tile counts (English's super tiles) are another lexicon."""
    from rackety.experiments import training

    polish = Lexicon.from_words(["ŻABIKOTA", "ŹDŹBŁAMI", "KOTAMIŻ", "ABC"], "polish")
    monkeypatch.setenv("RACKETY_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(training, "_MASKS", {})
    made = training._masks_of(polish)
    assert len(made[0]) and len(made[1]) and (made[2] >> np.uint64(32)).any()
    first = training._word_masks(polish)
    assert len(list(tmp_path.glob("word-masks-*.f64"))) == 2

    def made_again(*args: object) -> None:
        raise AssertionError("made again, not read from the cache")

    def same(got: tuple[np.ndarray, ...]) -> bool:
        return all(a.dtype == b.dtype and a.tobytes() == b.tobytes()
                   for a, b in zip(got, made, strict=True))

    assert same(first)
    monkeypatch.setattr(training, "_MASKS", {})
    real = training._masks_of
    monkeypatch.setattr(training, "_masks_of", made_again)
    assert same(training._word_masks(polish))
    files = {p: p.read_bytes() for p in tmp_path.glob("word-masks-*.f64")}
    for path, good in files.items():
        for damaged in (good[:-8], good[:40] + bytes([good[40] ^ 1]) + good[41:]):
            path.write_bytes(damaged)
            monkeypatch.setattr(training, "_MASKS", {})
            with pytest.raises(AssertionError, match="made again"):
                training._word_masks(polish)
        path.write_bytes(good)
    monkeypatch.setattr(training, "_masks_of", real)
    words = ["MUZZLES", "RETAINS"]  # one Z among English's tiles, two among the super's
    english, double = (Lexicon.from_words(words, a) for a in ("english", "english_super"))
    assert training.content_key(english) != training.content_key(double)
    assert training.word_racks(english)[0].tolist() != training.word_racks(double)[0].tolist()


@settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
@given(bits=st.lists(st.integers(0, 2**64 - 1), max_size=20))
def test_a_kept_array_keeps_its_bytes(tmp_path: Path, bits: list[int]) -> None:
    """`lexicon.cache.store_array` then `lookup_array` give back the very
    bytes (NaNs' payloads and subnormals too), so integers may be kept as
    their 64 bits (`_word_masks`)."""
    import hashlib
    import os

    from rackety.lexicon.cache import lookup_array, store_array

    values = np.array(bits, np.uint64).astype("<u8").view("<f8")
    folder = tmp_path / f"b{os.getpid()}-{hashlib.sha1(values.tobytes()).hexdigest()}"
    old = os.environ.get("RACKETY_CACHE_DIR")
    os.environ["RACKETY_CACHE_DIR"] = str(folder)
    try:
        store_array("x", values)
        got = lookup_array("x", len(bits))
    finally:
        if old is None:
            del os.environ["RACKETY_CACHE_DIR"]
        else:
            os.environ["RACKETY_CACHE_DIR"] = old
    assert got is not None and got.tobytes() == values.tobytes()
