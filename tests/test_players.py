"""Players: Gordon's heuristics against plain re-implementations, the static
player's choice against the full move list (exchanges included), the greedy
player against the top score, the human player's reading, and `make_player`."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rackety
from rackety import Alphabet, Board, Lexicon, Move, RacketyError
from rackety.game.heuristics import H1_VALUES, H2_DUPLICATION, H2_VALUES
from rackety.game.movegen import LeaveModel, leave_subsets
from rackety.lexicon.klv import Klv
from rackety.players import (
    H1,
    H2,
    H3,
    PLAYER_SPECS,
    Balance,
    Decision,
    EndgamePlayer,
    GreedyPlayer,
    HumanPlayer,
    Player,
    RackHeuristic,
    SimPlayer,
    StaticPlayer,
    leave_model,
    make_player,
    static_choice,
)

EN = Alphabet.load("english")
BAG = "".join(t.label * t.count for t in EN.tiles)  # the 100 tiles, blanks as ?
EMPTY = "/".join(["15"] * 15)


# ---------------------------------------------------------------- heuristics
def test_gordons_own_example():
    assert H1.value("IIISS") == 10.5
    assert H2.value("IIISS") == -2.5
    assert H1.value("") == H2.value("") == H3.value("") == 0.0
    assert H2.value("??") == 24.5 + 24.5 - 15.0
    assert H2.value("QQ") == -23.0  # no duplication penalty for Q


def plain_h1(leave: str) -> float:
    return sum(H1_VALUES[ch] for ch in leave)


def plain_h2(leave: str) -> float:
    total = 0.0
    for ch, k in Counter(leave).items():
        for copy in range(k):  # the n-th copy pays the penalty n - 1 times
            total += H2_VALUES[ch] + copy * H2_DUPLICATION.get(ch, 0.0)
    return total


def plain_h3(leave: str, balance: Balance) -> float:
    letters = [ch for ch in leave if ch != "?"]
    vowels = sum(ch in "AEIOU" for ch in letters)
    excess = vowels - balance.share * len(letters)
    weight = balance.vowel_excess if excess > 0 else balance.vowel_shortage
    return plain_h2(leave) - weight * max(0.0, abs(excess) - balance.tolerance) ** balance.power


leaves = st.lists(st.sampled_from(BAG), max_size=7).map("".join)


@settings(max_examples=200, deadline=None)
@given(leave=leaves)
def test_heuristics_follow_their_formulas(leave):
    assert H1.value(leave) == pytest.approx(plain_h1(leave))
    assert H2.value(leave) == pytest.approx(plain_h2(leave))
    assert H3.value(leave) == pytest.approx(plain_h3(leave, H3.balance))
    tuned = Balance(share=0.5, tolerance=0.0, power=1.5, vowel_excess=2.0, vowel_shortage=0.5)
    model = RackHeuristic("tuned", H2_VALUES, H2_DUPLICATION, tuned)
    assert model.value(leave) == pytest.approx(plain_h3(leave, tuned))


@settings(max_examples=100, deadline=None)
@given(rack=st.lists(st.sampled_from(BAG), max_size=7).map("".join))
def test_rack_values_are_every_leave_in_leave_index_order(rack):
    codes = EN.tokenize(rack)
    distinct, kept = leave_subsets(codes)
    for model in (H1, H2, H3):
        assert isinstance(model, LeaveModel)
        got = model.rack_values(EN, codes)
        # the table holds every leave of 1 to 6 tiles the bag can hold; the
        # empty leave, the whole rack and leaves beyond the bag are worth 0
        expected = []
        for row in kept:
            leave = [c for c, k in zip(distinct, row) for _ in range(k)]
            held = all(leave.count(c) <= EN.tiles[c].count for c in set(leave))
            in_table = 0 < len(leave) < EN.rack_size and held
            expected.append(model.value(leave) if in_table else 0.0)
        assert got.tolist() == pytest.approx(expected, abs=1e-4)


def test_a_new_balance_takes_effect_at_once():
    model = RackHeuristic("mine", H2_VALUES, H2_DUPLICATION, Balance())
    assert model.value("AEIOU") == pytest.approx(plain_h3("AEIOU", Balance()))
    model.balance = Balance(share=0.4, vowel_excess=3.0)
    assert model.value("AEIOU") == pytest.approx(plain_h2("AEIOU") - 3.0 * 2.5 ** 2)
    model.balance = None
    assert model.value("AEIOU") == pytest.approx(plain_h2("AEIOU"))


# the model fitted to Gordon's table for the other alphabets, as the heuristics'
# docstring gives it: a letter's weight a + b * share + c * vowel (share: its count
# over the letters in the bag), its duplication penalty one number; the blank's as Gordon's
FITTED = {"h1": ((-3.441, 75.717, -3.849), 0.0), "h2": ((-3.402, 82.151, -3.639), -3.071)}


def plain_fitted(alphabet: Alphabet, leave: list[int], kind: str,
                 balance: Balance | None = None) -> float:
    (a, b, c), dup = FITTED[kind]
    letters = sum(t.count for t in alphabet.tiles[1:])
    total = 0.0
    for code, k in Counter(leave).items():
        tile = alphabet.tiles[code]
        if code == 0:
            value, penalty = H2_VALUES["?"], (H2_DUPLICATION["?"] if kind == "h2" else 0.0)
        else:
            value, penalty = a + b * tile.count / letters + c * tile.vowel, dup
        total += k * value + k * (k - 1) / 2 * penalty
    if balance is not None:  # the ideal share scaled by the bag's vowels, English's 42/98
        vowels = sum(t.count for t in alphabet.tiles[1:] if t.vowel) / letters
        share = balance.share * vowels / (42 / 98)
        kept = [c for c in leave if c]
        excess = sum(alphabet.tiles[c].vowel for c in kept) - share * len(kept)
        weight = balance.vowel_excess if excess > 0 else balance.vowel_shortage
        total -= weight * max(0.0, abs(excess) - balance.tolerance) ** balance.power
    return total


def test_the_fit_is_the_documented_one():
    # least squares of Gordon's 26 weights on [1, share, vowel] of English's tiles
    letters = EN.tiles[1:]
    x = np.array([[1.0, t.count / 98, float(t.vowel)] for t in letters])
    for kind, table in (("h1", H1_VALUES), ("h2", H2_VALUES)):
        coef = np.linalg.lstsq(x, np.array([table[t.label] for t in letters]), rcond=None)[0]
        assert coef.tolist() == pytest.approx(FITTED[kind][0], abs=2e-3)
    many = [H2_DUPLICATION[t.label] for t in letters if t.count >= 2]
    assert sum(many) / len(many) == pytest.approx(FITTED["h2"][1], abs=1e-3)
    assert H2.model.value == pytest.approx(FITTED["h2"][0], abs=2e-3)
    assert H2.model.duplication == pytest.approx(FITTED["h2"][1], abs=1e-3)
    assert 0.2 < H2.model.r2 < 0.25 and 0.15 < H1.model.r2 < 0.2
    assert H3.model == H2.model and H1.model.duplication == 0.0


def test_gordons_weights_stay_for_englishs_tile_sets():
    from rackety.game.heuristics import gordon_applies

    assert H2.rack_values(Alphabet.load("english_super"), [1, 1]).tolist() == [0, 1.0, -1.0]
    for name in ("english", "english_super", "english_hong_kong"):
        alphabet = Alphabet.load(name)
        assert gordon_applies(alphabet)
        assert (H1.value("IIISS", alphabet), H2.value("IIISS", alphabet)) == (10.5, -2.5)
    assert H3.value("IIISS") == -2.625
    # other points (WWF, Lexulous) and other languages get the fitted model
    for name in Alphabet.names():
        english_set = name in ("english", "english_super", "english_hong_kong")
        assert gordon_applies(Alphabet.load(name)) == english_set, name


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_alphabet_gets_weights_from_its_tiles(data):
    names = [n for n in Alphabet.names()
             if n not in ("english", "english_super", "english_hong_kong")]
    alphabet = Alphabet.load(data.draw(st.sampled_from(names)))
    bag = [t.code for t in alphabet.tiles for _ in range(t.count)]
    leave = data.draw(st.lists(st.sampled_from(bag), max_size=alphabet.rack_size - 1))
    assume_held = all(leave.count(c) <= alphabet.tiles[c].count for c in set(leave))
    assert H1.value(leave, alphabet) == pytest.approx(plain_fitted(alphabet, leave, "h1"),
                                                      abs=0.02 * max(1, len(leave)))
    assert H2.value(leave, alphabet) == pytest.approx(plain_fitted(alphabet, leave, "h2"),
                                                      abs=0.02 * max(1, len(leave)) ** 2)
    assert H3.value(leave, alphabet) == pytest.approx(
        plain_fitted(alphabet, leave, "h2", H3.balance), abs=0.02 * max(1, len(leave)) ** 2)
    if assume_held and 0 < len(leave) < alphabet.rack_size:  # the table holds the formula
        assert H3.table(alphabet).value(leave) == pytest.approx(H3.value(leave, alphabet),
                                                                abs=1e-4)


def test_fitted_weights_on_hand():
    spanish = Alphabet.load("spanish")
    # [RR]: 1 of 98 letters, a consonant: -3.402 + 82.151 / 98 = -2.564
    assert H2.value("[RR]", spanish) == pytest.approx(-2.564, abs=1e-3)
    # E: 12 of 98, a vowel: -3.402 + 82.151 * 12 / 98 - 3.639 = 3.018; twice, less 3.071
    assert H2.value("E", spanish) == pytest.approx(3.018, abs=1e-3)
    assert H2.value("EE", spanish) == pytest.approx(2 * 3.018 - 3.071, abs=2e-3)
    assert H2.value("?", spanish) == 24.5 and H2.value("??", spanish) == 34.0
    # H3's ideal share in Spanish: 0.45 x (44 / 98) / (42 / 98) = 0.4714; AEIOU: 5 vowels,
    # excess 5 - 2.357 = 2.643, less the tolerance 0.5, squared, times 2 = 9.18
    h2 = H2.value("AEIOU", spanish)
    assert H3.value("AEIOU", spanish) == pytest.approx(h2 - 2 * (5 - 5 * 0.45 * 44 / 42
                                                                 - 0.5) ** 2, abs=1e-6)
    assert H3.params_for(spanish)[1] == pytest.approx(0.45 * 44 / 42)
    assert H3.params_for(EN) is H3.params  # English's exactly
    # a common Catalan consonant beats a rare one, as Gordon's R beats his V
    catalan = Alphabet.load("catalan")
    assert H2.value("R", catalan) > H2.value("[L·L]", catalan) == H2.value("[NY]", catalan)


def test_heuristics_take_every_alphabet():
    for name in ("catalan", "german", "polish", "spanish", "french", "english_wwf"):
        alphabet = Alphabet.load(name)
        rack = [1, 1, 2, 0]
        distinct, kept = leave_subsets(rack)
        leaves = [[c for c, k in zip(distinct, row) for _ in range(k)] for row in kept]
        expected = [plain_fitted(alphabet, leave, "h1") if 0 < len(leave) < alphabet.rack_size
                    else 0.0 for leave in leaves]
        assert H1.rack_values(alphabet, rack).tolist() == pytest.approx(expected, abs=1e-3)


def test_heuristic_tables_follow_the_points() -> None:
    """Two alphabets with the same letters and counts but other points: one has
    English's tile set (Gordon's weights), the other not (the fitted model)."""
    import json
    from importlib import resources

    from rackety.game.leaves import Leaves

    data = json.loads((resources.files("rackety") / "data" / "alphabets" / "english.json")
                      .read_text(encoding="utf-8"))
    data["tiles"][17]["points"] = 8  # Q
    other = Alphabet(data)
    assert other.identity == EN.identity and other.tiles[17].label == "Q"
    assert H2.value("Q", EN) == -11.5
    assert H2.value("Q", other) == pytest.approx(plain_fitted(other, [17], "h2"), abs=1e-3)
    assert Leaves.heuristic(H2, other).value([17]) == pytest.approx(H2.value("Q", other),
                                                                    abs=1e-4)
    assert Leaves.heuristic(H2, EN).value([17]) == -11.5


# ---------------------------------------------------------------- positions
def random_positions(lexicon: Lexicon, seed: int, turns: int) -> list[Board]:
    """Boards along a game of random legal plays, each with a fresh random rack
    from the unseen tiles (the opponent's rack unknown)."""
    rng = random.Random(seed)
    board = Board.from_cgp(f"{EMPTY} {''.join(rng.sample(BAG, 7))}/ 0/0 0")
    boards = [board]
    for _ in range(turns):
        placements = board.moves(lexicon).placements()
        if not placements:
            break
        board = board.play(rng.choice(placements))
        unseen = [c for c, k in enumerate(board.unseen()) for _ in range(int(k))]
        board.racks[0] = tuple(rng.sample(unseen, min(7, len(unseen))))
        boards.append(board)
    return boards


def gordon_reference(board: Board, lexicon: Lexicon, model: LeaveModel):
    """The best equity over every placement and exchange, and whether a
    placement reaches it; the pass only when there is nothing else."""
    moves = list(board.moves(lexicon, leave=model))
    candidates = [m for m in moves if m.kind != "pass"] or moves
    best = max(m.equity for m in candidates)
    return best, any(m.kind == "place" and m.equity == best for m in candidates)


def small_klv(seed: int) -> Klv:
    rng = random.Random(seed)
    values = {}
    for _ in range(600):
        leave = tuple(sorted(EN.tokenize("".join(rng.sample(BAG, rng.randint(1, 3))))))
        values[leave] = rng.uniform(-15, 25)
    return Klv.from_values(EN, values)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), turns=st.integers(0, 12))
def test_static_player_takes_the_best_equity_with_exchanges(twl06, seed, turns):
    board = random_positions(twl06, seed, turns)[-1]
    top_score = board.moves(twl06).best_score
    for model in (H1, H2, H3, small_klv(seed)):
        player = StaticPlayer(model)
        decision = player.decide(board, twl06)
        chosen = decision.move
        assert player.choose(board, twl06) == chosen
        best, placement_wins = gordon_reference(board, twl06, model)
        assert chosen.equity == best
        assert (chosen.kind == "place") == placement_wins
        assert decision.best_score == top_score  # for counting sacrifices
        assert decision.sacrifice == (chosen.kind == "place" and chosen.score < top_score)


def test_static_player_exchanges_by_gordons_rule():
    # Only AT is a word: playing it spends both blanks, keeping SSEER (H1 24.0),
    # while trading the R keeps ??SSEE (H1 72.0). Keeping everything is the
    # pass, worth 0 in a leave table (the whole rack is no leave), and Gordon's
    # rule does not consider it anyway.
    lexicon = Lexicon.from_words(["AT"])
    board = Board.from_cgp(f"{EMPTY} ??SSEER/ 0/0 0")
    moves = board.moves(lexicon, leave=H1)
    assert moves.best().kind == "exchange" and moves.best().equity == 72.0
    assert [m.equity for m in moves if m.kind == "pass"] == [0.0]
    player = StaticPlayer(H1, "h1")
    decision = player.decide(board, lexicon)
    chosen = decision.move
    assert chosen.kind == "exchange" and board.alphabet.format(chosen.tiles) == "R"
    assert chosen.equity == 72.0 and decision.best_score == 0 and not decision.sacrifice
    # with too few tiles in the bag to exchange, it plays rather than pass: the
    # only plays put a blank as T under an A of the board, keeping ?SSEER; the
    # bag is empty, so that leave costs twice its points and 10 (full static
    # equity), and passing would cost more (all seven tiles kept)
    late = Board.from_cgp(f"{full_grid('??SSEER')} ??SSEER/ 0/0 0")
    assert late.bag_count == 0
    chosen = static_choice(late, lexicon, H1)
    assert chosen.kind == "place" and chosen.n_placed == 1
    kept = sum(late.alphabet.tiles[c].points for c in chosen.leave_codes)
    assert (sorted(late.alphabet.format(chosen.leave_codes)), kept) == (sorted("?SSEER"), 5)
    assert chosen.equity == chosen.score - 2 * kept - 10
    # by the table alone (H1 values ?SSEER at 48.5) it is the same play
    plain = late.moves(lexicon, leave=H1, static=False, mode="best").best()
    assert late.notation(plain) == late.notation(chosen)
    assert plain.equity == chosen.score + 48.5


def full_grid(rack: str, rows: int = 6) -> str:
    """A CGP board with ``rows`` full rows (90 tiles, no blank) of the tiles not on
    ``rack``, every other row from the top so that no column holds two tiles in
    a row, the last of them starting with an A. The rows are not words, which
    the move generator does not mind."""
    rest = Counter(BAG) - Counter(rack) - Counter("A")
    pool = [ch for ch in rest.elements() if ch != "?"][: rows * 15 - 1]
    pool.insert((rows - 1) * 15, "A")
    lines = []
    for r in range(rows):
        lines += ["".join(pool[r * 15:(r + 1) * 15]), "15"]
    return "/".join(lines + ["15"] * (15 - 2 * rows))


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31), turns=st.integers(0, 12))
def test_greedy_player_takes_the_top_score(twl06, seed, turns):
    board = random_positions(twl06, seed, turns)[-1]
    player = GreedyPlayer()
    decision = player.decide(board, twl06)
    chosen = decision.move
    assert player.choose(board, twl06) == chosen
    moves = board.moves(twl06)
    assert decision.best_score == moves.best_score and not decision.sacrifice
    if moves.best_score is None:
        assert chosen.kind in ("exchange", "pass")
    else:
        assert chosen.kind == "place" and chosen.score == moves.best_score
        assert chosen in moves.top_scoring()


def test_greedy_player_exchanges_or_passes_with_no_placement():
    lexicon = Lexicon.from_words(["ZA"])
    board = Board.from_cgp(f"{EMPTY} VVWWUUK/ 0/0 0")
    assert board.moves(lexicon).count == 0
    chosen = GreedyPlayer().choose(board, lexicon)
    assert chosen.kind == "exchange" and sorted(chosen.tiles) == sorted(board.rack)
    late = Board.from_cgp(f"{full_grid('VVWWUUK')} VVWWUUK/ 0/0 0")
    assert late.bag_count < late.alphabet.exchange_min_bag
    assert GreedyPlayer().choose(late, lexicon).kind == "pass"
    assert StaticPlayer(H2).choose(late, lexicon).kind == "pass"


# ------------------------------------------------------------------ humans
def scripted(lines: list[str]):
    feed = iter(lines)
    out: list[str] = []
    return (lambda: next(feed)), out.append, out


def test_human_player_asks_again_after_a_bad_move():
    board = Board.from_cgp(f"{EMPTY} AADNPUY/ 0/0 0")
    read, write, out = scripted(["8Z PANDY", "", "exchange AAD"])
    player = HumanPlayer(read, write, name="Ann", show_board=False)
    move = player.choose(board, Lexicon.from_words(["PANDY"]))
    assert move.kind == "exchange" and EN.format(move.tiles) == "AAD"
    prompts = [line for line in out if line.startswith("Ann, rack AADNPUY")]
    errors = [line for line in out if line.endswith("\n")]
    assert len(prompts) == 3 and len(errors) == 2 and "8Z PANDY" in errors[0]


def test_human_player_returns_any_well_formed_move():
    board = Board.from_cgp(f"{EMPTY} AADNPUY/ 0/0 0")
    lexicon = Lexicon.from_words(["PANDY"])
    for text, kind in (("8H PANDY", "place"), ("pass", "pass"), ("exch QQZ", "exchange"),
                       ("8H QUIXOTE", "place")):
        read, write, out = scripted([text])
        move = HumanPlayer(read, write).choose(board, lexicon)
        assert move.kind == kind
        assert str(board) in out[0]  # the board is shown first
    read, write, out = scripted(["8H PANDY"])
    assert HumanPlayer(read, write).decide(board, lexicon) == Decision(
        board.parse_move("8H PANDY"))


# -------------------------------------------------------------- make_player
def test_make_player_specs(tmp_path):
    lexicon = Lexicon.from_words(["PANDY", "PAY", "AY"])
    Klv.from_values(EN, {"AU": 1.0, "A": 2.0, "U": -2.0}).save(tmp_path / "mine.klv2")
    players = {spec: make_player(spec, lexicon) for spec in
               ("greedy", "h1", "H2", " h3 ", f"leaves:{tmp_path / 'mine.klv2'}", "human")}
    assert all(isinstance(p, Player) for p in players.values())
    assert [p.name for p in players.values()] == ["greedy", "h1", "h2", "h3", "leaves:mine",
                                                  "human"]
    assert isinstance(players["greedy"], GreedyPlayer)
    assert players["h1"].leave_model is H1 and players["H2"].leave_model is H2
    assert players[" h3 "].leave_model is H3
    assert isinstance(players["human"], HumanPlayer)
    static = players[f"leaves:{tmp_path / 'mine.klv2'}"]
    assert isinstance(static, StaticPlayer) and isinstance(static.leave_model, Klv)
    board = Board.from_cgp(f"{EMPTY} AADNPUY/ 0/0 0")
    # PANDY keeping AU (1.0 in the file), its A between two double letters (-0.7)
    assert static.choose(board, lexicon).equity == pytest.approx(31.0 - 0.7)
    assert make_player("h1", lexicon, name="Ann").name == "Ann"
    assert isinstance(leave_model("leaves:" + str(tmp_path / "mine.klv2"), lexicon), Klv)


def test_make_player_errors(tmp_path):
    lexicon = Lexicon.from_words(["PANDY"])
    with pytest.raises(RacketyError) as info:
        make_player("maven", lexicon)
    message = str(info.value)
    assert "\n" not in message and "'maven'" in message
    assert all(spec in message for spec in PLAYER_SPECS)
    with pytest.raises(RacketyError, match="give the leave file"):
        make_player("leaves:", lexicon)
    with pytest.raises(RacketyError, match="no such file"):
        make_player(f"leaves:{tmp_path / 'none.klv2'}", lexicon)
    catalan = Lexicon.from_words(["CASA"], "catalan")
    assert make_player("h3", catalan).leave_model is H3  # any alphabet (the fitted model)
    with pytest.raises(RacketyError, match="not a leave model"):
        StaticPlayer(np.zeros(3))  # type: ignore[arg-type]


# ---------------------------------------------------------------- decisions
def test_every_player_decides_and_chooses_the_decisions_move():
    lexicon = Lexicon.from_words(["PANDY", "PAY", "AY", "YA", "DAY", "PA"])
    board = Board.from_cgp(f"{EMPTY} AADNPUY/ 0/0 0")
    makers = [GreedyPlayer, lambda: StaticPlayer(H2),
              lambda: HumanPlayer(*scripted(["8H PANDY"])[:2]),
              lambda: EndgamePlayer(StaticPlayer(H3)), lambda: SimPlayer(iterations=8),
              lambda: make_player("sim:8", lexicon), lambda: make_player("h3+endgame", lexicon)]
    for make in makers:
        player = make()
        assert isinstance(player, Player)
        decision = player.decide(board, lexicon)
        assert isinstance(decision, Decision) and decision.endgame is None
        assert make().choose(board, lexicon) == decision.move  # a fresh player: same seed
        if isinstance(player, SimPlayer):
            assert decision.simulation is not None
            assert decision.move == decision.simulation.best.move
        else:
            assert decision.simulation is None and decision.move == board.parse_move("8H PANDY")
        assert decision.best_score == (None if isinstance(player, HumanPlayer) else 30)
        text = repr(player)  # the call that makes it again, where there is one
        assert text == f"<{type(player).__name__} {player.name}>" or (
            eval(text, {n: getattr(rackety, n) for n in rackety.__all__}) == player == make())


def test_a_sacrifice_is_a_placement_below_the_best_score():
    low = Move("8H PAY", score=16)
    assert Decision(low, best_score=30).sacrifice
    assert not Decision(low, best_score=16).sacrifice and not Decision(low).sacrifice
    assert not Decision(Move("exch AB", score=0), best_score=30).sacrifice
    with pytest.raises(AttributeError):
        Decision(low).move = low  # type: ignore[misc]


def test_the_sim_player_simulates_its_candidates():
    # Column A holds A and B: DAB opens QDAB on the triple word for the opponent's Q
    lexicon = Lexicon.from_words(["AB", "DAB", "ABS", "QDAB"])
    board = Board.from_cgp("15/15/A14/B14/15/15/15/15/15/15/15/15/15/15/15 DSVVWWX/QKJZFFY 0/0 0")
    decision = SimPlayer("h1", iterations=200, seed=3).decide(board, lexicon)
    assert decision.simulation is not None and decision.move == decision.simulation.best.move
    assert decision.move != board.parse_move("A2 D(AB)") and decision.best_score == 6
    assert decision.sacrifice == (decision.move.kind == "place")


def test_the_endgame_player_decides_by_the_solver(twl06):
    import json
    from pathlib import Path

    data = Path(__file__).parent / "data" / "endgame_twl06_small.jsonl"
    case = next(c for c in map(json.loads, data.read_text(encoding="utf-8").splitlines())
                if len(c["on_turn_rack"]) >= 2)
    board = Board.from_cgp(case["cgp"])
    view = board.copy()
    view.racks = [board.racks[0], ()]  # the opponent's rack hidden, as in a game
    player = EndgamePlayer(GreedyPlayer())
    decision = player.decide(view, twl06)
    assert decision.endgame is not None and decision.move == decision.endgame.pv[0]
    assert decision.best_score is None and not decision.sacrifice
    assert player.choose(view, twl06) == decision.move
    # with the bag empty, the sim player plays its static move
    sim = SimPlayer("h3").decide(view, twl06)
    assert sim == StaticPlayer(H3).decide(view, twl06) and sim.simulation is None
    # before the endgame, the endgame player decides as its inner player
    inner = StaticPlayer(H3)
    before = board.copy()
    before.racks = [board.racks[0][:-1], board.racks[1]]  # a tile back in the bag
    assert before.bag_count == 1
    assert EndgamePlayer(inner).decide(before, twl06) == inner.decide(before, twl06)


def test_heuristic_tables_follow_the_tile_counts(tmp_path, monkeypatch) -> None:
    """Two alphabets with the same letters in other numbers have other leaves:
    a table built for one is never served for the other (in memory or on disk)."""
    from rackety import Alphabet
    from rackety.game import leaves as leaves_module

    monkeypatch.setenv("RACKETY_CACHE_DIR", str(tmp_path))

    def alphabet(e_count: int) -> Alphabet:
        return Alphabet({
            "name": "counts", "board": "standard15", "rack_size": 3, "bingo_bonus": 0,
            "exchange_min_bag": 1,
            "tiles": [{"label": "?", "blank_label": "?", "count": 1, "points": 0,
                       "vowel": False}]
            + [{"label": c, "blank_label": c.lower(), "count": n, "points": 1,
                "vowel": c in "AE"} for c, n in (("A", 2), ("B", 2), ("E", e_count))]})

    without, with_e = alphabet(0), alphabet(2)
    assert without.identity == with_e.identity  # the same letters
    first = leaves_module.Leaves.heuristic(H1, without)
    second = leaves_module.Leaves.heuristic(H1, with_e)
    assert len(leaves_module.leave_set(with_e)) > len(leaves_module.leave_set(without))
    e = with_e.rack("E")
    assert second.value(e) == pytest.approx(H1.value("E", with_e)) and first is not second
