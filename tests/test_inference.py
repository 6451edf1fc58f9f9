"""Opponent-rack inference (`rackety.search.inference`), held to a brute-force
reference on tiny positions: every rack drawn from the pool in plain Python,
weighted by counting draws, each rack's best static equity from
`static_decision` and the play's from `Board.moves`. Then the static player's
own leave (always possible), exchanges, the command line, the web API and
simulations that draw the opponent's rack from an inference."""

from __future__ import annotations

import itertools
import json
import math
import random
import re
from collections import Counter, defaultdict
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rackety import Alphabet, Board, Layout, Lexicon, Move
from rackety.errors import RacketyError
from rackety.frontends.cli import main
from rackety.frontends.web.app import create_app
from rackety.game.heuristics import leave_model
from rackety.game.leaves import Leaves
from rackety.game.move import format_leave
from rackety.game.referee import Game
from rackety.players.static import static_decision
from rackety.search.inference import infer, position_after
from rackety.search.simulation import simulate

# ------------------------------------------------------------ a tiny game
LETTERS = "AEINST"
POINTS = {"A": 1, "E": 1, "I": 2, "N": 2, "S": 3, "T": 4}
COUNTS = {"A": 4, "E": 4, "I": 2, "N": 2, "S": 2, "T": 3}
WORDS = ["AT", "IN", "IS", "TA", "EN", "ES", "TEN", "NET", "SET", "SIT", "SIN", "TIN", "ANT",
         "TAN", "NIT", "ITS", "SAT", "EAT", "TEA", "ATE", "SEA", "NEST", "NETS", "SENT", "TENS",
         "SANE", "ANTE", "TINE", "SINE", "TEAS", "SEAT", "EAST", "EATS", "NITS", "SNIT", "TINS",
         "ANTS", "NINE", "ANTI", "TEST", "STET", "AS", "AN", "TI", "NE", "ET"]
TINY7 = Layout("tiny7", ["=  '  =",
                         " -   - ",
                         "  ' '  ",
                         "'  *  '",
                         "  ' '  ",
                         " -   - ",
                         "=  '  ="], (3, 3))
ALPHABET = Alphabet({
    "name": "tiny", "board": "standard15", "rack_size": 4, "bingo_bonus": 20,
    "exchange_min_bag": 2,
    "tiles": [{"label": "?", "blank_label": "?", "count": 2, "points": 0, "vowel": False}]
    + [{"label": c, "blank_label": c.lower(), "count": COUNTS[c], "points": POINTS[c],
        "vowel": c in "AEI"} for c in LETTERS]})


@pytest.fixture(scope="module")
def tiny() -> Lexicon:
    return Lexicon.from_words(WORDS, ALPHABET, name="tiny")


def random_table(rng: random.Random) -> Leaves:
    """Leave values for every leave of one to three tiles, in half points (so
    that ties happen)."""
    codes = range(len(ALPHABET.tiles))
    values = {}
    for n in (1, 2, 3):
        for leave in itertools.combinations_with_replacement(codes, n):
            values[leave] = rng.choice([-6, -3, -1.5, -0.5, 0, 0, 0.5, 1, 2.5, 4, 9])
    return Leaves.from_values(ALPHABET, values)


def tiny_game(lexicon: Lexicon, table: Leaves, seed: int, turns: int) -> Game | None:
    """A game of two static players ``turns`` turns in, or None if it ended."""
    game = Game(lexicon, ["a", "b"], alphabet=ALPHABET, layout=TINY7, seed=seed)
    for _ in range(turns):
        if game.over:
            return None
        game.play(static_decision(game.position, lexicon, table).move, check=False)
    return None if game.over else game


# ----------------------------------------------------- the brute force
_EXCHANGE = re.compile(r"exchange (\d+)")


def _key(move: Move) -> frozenset[Any]:
    return frozenset(zip(move.placed_squares(), move.placed, strict=True))


def reference(board: Board, lexicon: Lexicon, text: str, table: Any,
              margin: float) -> tuple[dict[str, float], int, int]:
    """(probability of each leave kept, racks considered, racks consistent),
    from the definition: the player's rack is the tiles known on it plus a
    draw from the unseen tiles, weighted by the ways to draw it; kept when the
    play's equity (from the full move list) is within ``margin`` of the static
    player's (an exchange keeping the best leave of its size)."""
    alphabet = board.alphabet
    known = Counter(board.rack)
    others = board.racks[1:]
    pool = {c: int(k) for c, k in enumerate(board.unseen().tolist()) if k}
    size = min(alphabet.rack_size, sum(known.values()) + sum(pool.values()))
    found = _EXCHANGE.fullmatch(text)
    exchanged = int(found.group(1)) if found else 0
    play = None if exchanged else board.parse_move(text)
    played = Counter(0 if t & 0x80 else t for t in play.placed) if play else Counter()
    target = _key(play) if play else None
    mass: dict[str, float] = defaultdict(float)
    racks = consistent = 0
    for combo in set(itertools.combinations_with_replacement(sorted(pool),
                                                             size - sum(known.values()))):
        drawn = Counter(combo)
        if any(k > pool[c] for c, k in drawn.items()):
            continue
        rack = known + drawn
        if played - rack:
            continue  # the play's tiles are not all on this rack
        racks += 1
        weight = math.prod(math.comb(pool[c], k) for c, k in drawn.items())
        view = board.copy(racks=[tuple(sorted(rack.elements())), *others])
        best = static_decision(view, lexicon, table).move.equity
        listed = view.moves(lexicon, mode="all", leave=table)  # its moves made as read
        kept = None
        if play is not None:
            equity = next(m.equity for m in listed if m.kind == "place" and _key(m) == target)
            if equity >= best - margin - 1e-9:
                kept = rack - played
        else:
            trades = [m for m in listed if m.kind == "exchange" and len(m.tiles) == exchanged]
            if trades:
                top = max(m.equity for m in trades)
                first = next(m for m in trades if m.equity == top)
                if top >= best - margin - 1e-9:
                    kept = rack - Counter(first.tiles)
        if kept is not None:
            consistent += 1
            mass[format_leave(alphabet, list(kept.elements()))] += weight
    total = sum(mass.values())
    return {k: v / total for k, v in mass.items()}, racks, consistent


def _same(found: dict[str, float], expected: dict[str, float]) -> None:
    assert found.keys() == expected.keys()
    for k, p in expected.items():
        assert found[k] == pytest.approx(p, rel=1e-9, abs=1e-12), k


# ------------------------------------------------------------- properties
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6), turns=st.integers(0, 6), margin=st.sampled_from([0, 0.5, 4]),
       hide_other=st.booleans(), pick=st.integers(0, 10**6))
def test_inference_is_the_brute_force(tiny: Lexicon, seed: int, turns: int, margin: float,
                                      hide_other: bool, pick: int) -> None:
    rng = random.Random(seed)
    table = random_table(rng)
    game = tiny_game(tiny, table, seed, turns)
    if game is None:
        return
    truth = game.position
    view = truth.copy(racks=[(), *([()] if hide_other else truth.racks[1:])])
    # the static player's play, or another legal one
    listed = [m for m in truth.moves(tiny, mode="all", leave=table) if m.kind != "pass"]
    chosen = static_decision(truth, tiny, table).move
    move = chosen if pick % 3 == 0 or not listed else listed[pick % len(listed)]
    if move.kind == "pass":
        return
    text = truth.notation(move) if move.kind == "place" else f"exchange {len(move.tiles)}"
    try:
        found = infer(view, tiny, text, margin=margin, leave=table)
    except RacketyError as exc:  # an exchange the observer's count of the bag refuses
        assert move.kind == "exchange" and "no exchange" in str(exc)
        return
    expected, racks, consistent = reference(view, tiny, text, table, margin)
    assert (found.racks, found.consistent) == (racks, consistent)
    _same(dict(found.leaves), expected)
    assert sum(p for _, p in found.leaves) == pytest.approx(1.0 if found.leaves else 0.0)
    for letter, p in found.letters.items():  # at least one kept: the leaves that hold one
        holds = sum(q for leave, q in found.leaves if letter in leave)
        assert p == pytest.approx(holds)


def test_no_trade_of_more_tiles_than_the_bag_holds_rules_a_play_out(tiny: Lexicon) -> None:
    """Two tiles in the bag: a trade of three, keeping a leave worth more than
    the play, is not a move, so it cannot be the equity a play falls short of
    (the kernel's quick bound took it, and found no rack consistent)."""
    truth = Board.from_cgp("7/7/2IN3/SaNE3/T6/E6/T6 AAAE/ASTE 15/65 0", alphabet=ALPHABET,
                           layout=TINY7)
    assert truth.bag_count == 2
    (a,) = ALPHABET.rack("A")
    table = Leaves.from_values(ALPHABET, {(a,): 9.0, (a, a): 1.0})
    move = static_decision(truth, tiny, table).move
    assert move.kind == "place"
    text = truth.notation(move)
    view = truth.copy(racks=[(), *truth.racks[1:]])
    found = infer(view, tiny, text, margin=0, leave=table)
    expected, racks, consistent = reference(view, tiny, text, table, 0)
    assert consistent > 0
    assert (found.racks, found.consistent) == (racks, consistent)
    _same(dict(found.leaves), expected)
    with pytest.raises(RacketyError, match="no exchange of 3 tiles with 2 tiles in the bag"):
        infer(view, tiny, "exchange 3", leave=table)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6), turns=st.integers(0, 8))
def test_the_static_players_own_leave_is_always_possible(tiny: Lexicon, seed: int,
                                                         turns: int) -> None:
    """The observer knows their own rack; the player played as the static
    player does: what it kept has probability above zero (exchanges too)."""
    table = random_table(random.Random(seed))
    game = tiny_game(tiny, table, seed, turns)
    if game is None:
        return
    truth = game.position
    move = static_decision(truth, tiny, table).move
    if move.kind == "pass":
        return
    text = truth.notation(move) if move.kind == "place" else f"exchange {len(move.tiles)}"
    found = infer(truth.copy(racks=[(), *truth.racks[1:]]), tiny, text, leave=table)
    kept = Counter(truth.rack) - Counter(
        [0 if t & 0x80 else t for t in move.placed] if move.kind == "place" else move.tiles)
    assert dict(found.leaves).get(format_leave(ALPHABET, list(kept.elements())), 0.0) > 0.0


def test_weights_are_the_posterior_of_the_draw(tiny: Lexicon) -> None:
    """Every rack drawn tile by tile, in order: the probability of a leave is
    the share, among the draws the play is consistent with, of those that keep
    it (the ways to draw the whole rack, not MAGPIE's ways to draw the leave
    from the pool less the tiles played)."""
    checked = 0
    for seed in range(40):
        table = random_table(random.Random(seed))
        game = tiny_game(tiny, table, seed, 1 + seed % 4)
        if game is None:
            continue
        truth = game.position
        move = static_decision(truth, tiny, table).move
        if move.kind != "place" or move.n_placed == len(truth.rack):
            continue
        view = truth.copy(racks=[(), *truth.racks[1:]])
        text = truth.notation(move)
        found = infer(view, tiny, text, leave=table)
        consistent = reference_racks(view, tiny, text, table)
        pool = [c for c, k in enumerate(view.unseen().tolist()) for _ in range(k)]
        played = Counter(0 if t & 0x80 else t for t in move.placed)
        size = min(ALPHABET.rack_size, len(pool))
        per: dict[str, int] = defaultdict(int)
        for order in itertools.permutations(range(len(pool)), size):
            rack = Counter(pool[i] for i in order)
            if tuple(sorted(rack.elements())) in consistent:
                per[format_leave(ALPHABET, list((rack - played).elements()))] += 1
        total = sum(per.values())
        _same(dict(found.leaves), {k: v / total for k, v in per.items()})
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def reference_racks(board: Board, lexicon: Lexicon, text: str, table: Any) -> set[tuple[int, ...]]:
    """The racks (codes ascending) from which the static player makes the
    placement ``text`` or one of equal equity."""
    play = board.parse_move(text)
    target = _key(play)
    played = Counter(0 if t & 0x80 else t for t in play.placed)
    pool = {c: int(k) for c, k in enumerate(board.unseen().tolist()) if k}
    size = min(board.alphabet.rack_size, sum(pool.values()))
    out = set()
    for combo in set(itertools.combinations_with_replacement(sorted(pool), size)):
        rack = Counter(combo)
        if any(k > pool[c] for c, k in rack.items()) or played - rack:
            continue
        view = board.copy(racks=[combo, *board.racks[1:]])
        best = static_decision(view, lexicon, table).move.equity
        equity = next(m.equity for m in view.moves(lexicon, mode="all", leave=table)
                      if m.kind == "place" and _key(m) == target)
        if equity >= best - 1e-9:
            out.add(combo)
    return out


# ------------------------------------------------------------- TWL06 games
@pytest.fixture(scope="module")
def midgame(twl06: Lexicon) -> list[tuple[Board, Move]]:
    """Positions nine turns into games of the static player, with its play."""
    model = leave_model("static", twl06)
    out = []
    for seed in (1, 2, 3):
        game = Game(twl06, ["a", "b"], seed=seed)
        for _ in range(9):
            game.play(static_decision(game.position, twl06, model).move, check=False)
        out.append((game.position, static_decision(game.position, twl06, model).move))
    return out


def _text(board: Board, move: Move) -> str:
    return board.notation(move) if move.kind == "place" else f"exchange {len(move.tiles)}"


def test_a_static_players_leave_in_twl06_games(twl06: Lexicon,
                                               midgame: list[tuple[Board, Move]]) -> None:
    for truth, move in midgame:
        view = truth.copy(racks=[(), truth.racks[1]])
        found = infer(view, twl06, _text(truth, move), jobs=2)
        kept = Counter(truth.rack) - Counter(
            [0 if t & 0x80 else t for t in move.placed] if move.kind == "place" else move.tiles)
        assert dict(found.leaves)[format_leave(truth.alphabet, list(kept.elements()))] > 0
        assert 0 < found.consistent <= found.racks
        assert 0 < found.consistent_probability <= 1
        assert sum(p for _, p in found.leaves) == pytest.approx(1.0)
        assert len(found.unseen) == int(view.unseen().sum())
        assert found.leave_model == "TWL06's shipped table"
        # a thread or two: the same answer
        again = infer(view, twl06, _text(truth, move), jobs=1)
        assert again.leaves == found.leaves and again.racks == found.racks


def test_known_tiles_on_the_rack_narrow_the_racks(twl06: Lexicon,
                                                  midgame: list[tuple[Board, Move]]) -> None:
    """Tiles known to be on the rack (after a lost challenge, say) are on it
    with the tiles played, not besides them: one copy more of a tile than the
    play uses means one was kept."""
    truth, move = midgame[0]
    assert move.kind == "place" and move.leave
    hidden = infer(truth.copy(racks=[(), truth.racks[1]]), twl06, _text(truth, move))
    code = move.leave_codes[0]
    played = [0 if t & 0x80 else t for t in move.placed]
    known = (code,) * (played.count(code) + 1)
    found = infer(truth.copy(racks=[known, truth.racks[1]]), twl06, _text(truth, move))
    assert found.known == known and found.racks < hidden.racks
    label = truth.alphabet.format([code])
    assert all(label in leave for leave, _ in found.leaves)
    assert found.letters[label] == pytest.approx(1.0)
    # a known tile the play used tells nothing more than the play
    if played:
        again = infer(truth.copy(racks=[(played[0],), truth.racks[1]]), twl06,
                      _text(truth, move))
        assert again.racks == hidden.racks


# ---------------------------------------------------------- command line
def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_json(capsys: pytest.CaptureFixture[str], midgame: list[tuple[Board, Move]]) -> None:
    truth, move = midgame[0]  # 1,154 racks: three inferences in a fraction of a second
    cgp = truth.copy(racks=[(), truth.racks[1]]).cgp()
    code, out, _err = _cli(capsys, "infer", "--cgp", cgp, "--move", _text(truth, move),
                           "--json", "--jobs", "1")
    assert code == 0
    result = json.loads(out)
    assert {"leaves", "leaves_total", "racks", "consistent", "consistent_probability",
            "unseen", "known", "played", "exchanged", "rack_size", "margin", "leave_model",
            "letters", "move", "seconds"} <= result.keys()
    assert all(set(row) == {"leave", "probability"} for row in result["leaves"])
    assert sum(row["probability"] for row in result["leaves"]) == pytest.approx(1.0, abs=1e-4)
    assert len(result["leaves"]) == result["leaves_total"] > 0
    assert result["margin"] == 0 and result["exchanged"] == 0
    assert sorted(result["played"]) == sorted(
        truth.alphabet.format([0 if t & 0x80 else t for t in move.placed]))
    # --top and the table
    code, out, _err = _cli(capsys, "infer", "--cgp", cgp, "--move", _text(truth, move),
                           "--json", "--top", "1", "--margin", "3")
    assert code == 0 and len(json.loads(out)["leaves"]) == 1 and json.loads(out)["margin"] == 3
    code, out, _err = _cli(capsys, "infer", "--cgp", cgp, "--move", _text(truth, move))
    assert code == 0 and "kept" in out and result["leaves"][0]["leave"] in out


HALTED = "/".join(["15"] * 7 + ["3HALTED6"] + ["15"] * 7)
BEFORE = f"{HALTED} /EFGOQVX 28/0 0 lex TWL06;"


@pytest.mark.parametrize("argv, says", [
    (["--cgp", "15/15 A/ 0/0 0", "--move", "8H AB"], "cgp"),
    (["--cgp", BEFORE, "--move", "8Z QI"], "move"),
    (["--cgp", BEFORE, "--move", "9E XX"], "unseen"),  # only one X, and it is seen
    (["--cgp", BEFORE, "--move", "9E TT"], "not in TWL06"),
    (["--cgp", BEFORE, "--move", "1A AT"], "not a legal play"),
    (["--cgp", BEFORE, "--move", "8D HALTED"], "places no tile"),
    (["--cgp", BEFORE, "--move", "8D HALTS"], "holds E"),
    (["--cgp", BEFORE, "--move", "pass"], "nothing to infer"),
    (["--cgp", BEFORE, "--move", "exchange 8"], "exchange of 1 to 7"),
    (["--cgp", BEFORE, "--move", "9E TO", "--margin", "-1"], "margin"),
    (["--cgp", BEFORE, "--move", "9E TO", "--margin", "nan"], "margin"),
    (["--cgp", BEFORE, "--move", "9E TO", "--leaves", "none"], "leave model"),
    (["--cgp", BEFORE, "--move", ""], "move"),
])
def test_cli_refuses_in_one_line(capsys: pytest.CaptureFixture[str], argv: list[str],
                                 says: str, twl06: Lexicon) -> None:
    code, out, err = _cli(capsys, "infer", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("rackety") and "error:" in err
    assert says in err


# -------------------------------------------------------------- web API
@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory, twl06: Lexicon) -> TestClient:
    return TestClient(create_app(tmp_path_factory.mktemp("infer") / "app.sqlite", warm=False))


def test_api_infer(client: TestClient, midgame: list[tuple[Board, Move]]) -> None:
    truth, move = midgame[2]
    cgp = truth.copy(racks=[(), truth.racks[1]]).cgp()
    answer = client.post("/api/infer", json={"cgp": cgp, "move": _text(truth, move), "top": 3})
    assert answer.status_code == 200
    body = answer.json()
    assert 0 < len(body["leaves"]) <= 3 and body["consistent"] > 0
    direct = infer(truth.copy(racks=[(), truth.racks[1]]), client.app.state.service.lexicons
                   .get("TWL06"), _text(truth, move))
    assert [row["leave"] for row in body["leaves"]] == [k for k, _ in direct.leaves[:3]]


@pytest.mark.parametrize("payload, status", [
    ({"cgp": "nonsense", "move": "9E TO"}, 400),
    ({"cgp": BEFORE, "move": "9E TT"}, 400),
    ({"cgp": BEFORE, "move": "pass"}, 400),
    ({"cgp": BEFORE, "move": "9E TO", "margin": -1}, 422),
    ({"cgp": BEFORE, "move": "9E TO", "margin": "lots"}, 422),
    ({"cgp": BEFORE, "move": "9E TO", "top": 0}, 422),
    ({"cgp": BEFORE, "move": "9E TO", "extra": 1}, 422),
    ({"cgp": BEFORE}, 422),
    ({"cgp": BEFORE, "move": "9E TO", "leave": "leaves:/etc/passwd"}, 400),
    ({"cgp": BEFORE, "move": "9E TO", "leave": "none"}, 400),
    ({"cgp": BEFORE.replace("lex TWL06;", "ld /etc/passwd;"), "move": "9E TO"}, 400),
    ({"cgp": BEFORE, "move": "exchange 3"}, 400),  # over the web's limit of racks
])
def test_api_infer_refuses(client: TestClient, payload: dict[str, Any], status: int) -> None:
    answer = client.post("/api/infer", json=payload)
    assert answer.status_code == status
    detail = answer.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail


@pytest.mark.parametrize("margin", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_api_infer_refuses_numbers_that_are_not(client: TestClient, margin: str) -> None:
    body = f'{{"cgp": {json.dumps(BEFORE)}, "move": "9E TO", "margin": {margin}}}'
    answer = client.post("/api/infer", content=body,
                         headers={"content-type": "application/json"})
    assert 400 <= answer.status_code < 500 and "\n" not in answer.json()["detail"]


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(move=st.text(max_size=30), rack=st.text(alphabet="ABCEIOQX?/ ", max_size=9),
       margin=st.one_of(st.floats(allow_nan=False, allow_infinity=False),
                        st.integers(-5, 200)))
def test_api_infer_never_fails(client: TestClient, move: str, rack: str, margin: Any) -> None:
    cgp = f"{HALTED} {rack or '/'} 28/0 0 lex TWL06;"
    answer = client.post("/api/infer", json={"cgp": cgp, "move": move, "margin": margin})
    assert answer.status_code < 500
    if answer.status_code != 200:
        assert "\n" not in answer.json()["detail"]


# ----------------------------------------------------------- simulation
SIM_WORDS = ["AB", "DAB", "ABS", "QDAB"]
SIM_CGP = "15/15/A14/B14/15/15/15/15/15/15/15/15/15/15/15 DSVVWWX/ 0/0 0"


@pytest.fixture(scope="module")
def sim_lexicon(tmp_path_factory: pytest.TempPathFactory) -> tuple[Lexicon, str]:
    lexicon = Lexicon.from_words(SIM_WORDS)
    path = tmp_path_factory.mktemp("sim") / "small.kwg"
    lexicon.save(path)
    return lexicon, str(path)


def test_simulation_draws_the_opponents_rack_from_the_leaves(
        sim_lexicon: tuple[Lexicon, str]) -> None:
    """D above AB lets an opponent holding the Q score 48 (QDAB on the
    triple-word square): an opponent known to have kept the Q punishes it in
    every rollout, a random one seldom."""
    lexicon, _ = sim_lexicon
    board = Board.from_cgp(SIM_CGP)
    risky, safe = board.parse_move("A2 D(AB)"), board.parse_move("A3 (AB)S")
    q = board.alphabet.tokenize("Q")[0]

    def equity(**kw: Any) -> float:
        result = simulate(board, lexicon, moves=[risky, safe], iterations=100, seed=5,
                          drop=False, plies=1, **kw)
        return next(c.equity for c in result.candidates if c.move == risky)

    random_racks = equity()
    kept_q = equity(opponent_leaves=[((q,), 1.0)])
    assert kept_q < random_racks - 30
    assert kept_q == pytest.approx(6 - 48, abs=8)  # DAB, then QDAB nearly every time
    with pytest.raises(RacketyError, match="not among the unseen"):
        equity(opponent_leaves=[((q, q), 1.0)])


def test_sim_infer_on_the_command_line(capsys: pytest.CaptureFixture[str],
                                       sim_lexicon: tuple[Lexicon, str]) -> None:
    """The CGP before the opponent's play (six of their tiles known); the
    simulation starts after it, from the inferred racks."""
    _lexicon, path = sim_lexicon
    before = "15/15/A14/B14/15/15/15/15/15/15/15/15/15/15/15 EEIRST/DVVWWXY 0/0 0"
    code, out, err = _cli(capsys, "sim", "--cgp", before, "--infer", "A3 (AB)S",
                          "--infer-margin", "100", "--lexicon", path, "--iterations", "8",
                          "--candidates", "2", "--plies", "1", "--jobs", "1", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["inference"]["consistent"] == result["inference"]["racks"] > 0
    after = Board.from_cgp(result["cgp"])
    assert sorted(after.rack) == sorted(after.alphabet.rack("DVVWWXY"))
    assert after.racks[1] == () and after.scores == [0, 5]
    assert all(c["iterations"] == 8 for c in result["moves"])
    assert position_after(Board.from_cgp(before), infer(
        Board.from_cgp(before), _lexicon, "A3 (AB)S", margin=100)).cgp() == result["cgp"]
