"""WordSmog reaches every compiled search: the rules' variant (``G_VARIANT``)
makes the static players' kernel (`rackety.kernels.selfplay.decide`) generate
WordSmog's plays over the lexicon's alphagrams, whose cross sets the game
states keep (`rackety.kernels.crosssets`, ``GRAPH_ALPHAGRAMS``). So compiled
self-play plays the games the Python players play, the simulation's rollouts
play WordSmog, the endgame and the pre-endgame solve WordSmog (held to the
plain references of tests/endgame_reference.py and tests/peg_reference.py,
whose `Board.moves` follows the position's rules), and inference weighs the
racks by WordSmog's static player (tests/test_inference.py's brute force)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from endgame_reference import (
    LETTERS,
    TINY7,
    line_value,
    minimax,
    random_plays,
    tiny_alphabet,
    tiny_lexicon,
    with_empty_bag,
)
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from peg_reference import candidate, with_unseen

from rackety import Board, Lexicon, Move
from rackety.experiments.autoplay import play_game
from rackety.experiments.selfplay import Compiled
from rackety.game.gcg import record_of, replay
from rackety.game.heuristics import leave_model
from rackety.game.movegen import MoveList, cross_sets, update_cross_sets, variant_lexicon
from rackety.game.referee import Game, formed_words
from rackety.game.rules import Rules
from rackety.kernels.bits import GRAPH_ALPHAGRAMS
from rackety.kernels.fields import GS_SCORE, M_DIR, M_FIRST, M_LANE, X_HAS, X_SCORE, X_SET
from rackety.kernels.verify import Setting, check_game
from rackety.players import make_player
from rackety.players.best import BestPlayer
from rackety.search.endgame import solve
from rackety.search.inference import infer
from rackety.search.preendgame import preendgame
from rackety.search.simulation import _Setup, simulate

WORDSMOG = Rules(variant="wordsmog")
EVENTS = ["play", "exchange", "pass", "end_points", "end_penalty"]


def _jumbled(board: Board, move: Move, lexicon: Lexicon) -> list[str]:
    """The words ``move`` forms on ``board`` that are not words, each asserted
    to be an anagram of one (a legal WordSmog play forms no other)."""
    out = []
    for word in formed_words(board.grid, move.placed_squares(), move.placed):
        assert lexicon.has_anagram(word), board.alphabet.format(word)
        if word not in lexicon:
            out.append(board.alphabet.format(word))
    return out


def _tiny_board() -> Board:
    """An empty 7x7 board of tests/endgame_reference.py's tiles, under WordSmog."""
    board = Board(alphabet=tiny_alphabet(), layout=TINY7)
    board.rules = WORDSMOG
    return board


# ----------------------------------------------------------- cross sets
def _brute_cross(grid: np.ndarray, lexicon: Lexicon) -> np.ndarray:
    """WordSmog's cross sets from their definition: on an empty square with
    perpendicular tiles, the letters t such that those tiles and t are an
    anagram of a word; every letter where there are none; 0 on a tile."""
    n = grid.shape[0]
    full = sum(1 << t.code for t in lexicon.alphabet.tiles if t.code)
    out = np.zeros((2, n, n), np.int64)
    for d in range(2):
        view = grid if d == 0 else grid.T
        for lane in range(n):
            for p in range(n):
                if view[lane, p]:
                    continue
                perp = []
                for step in (-1, 1):
                    q = lane + step
                    while 0 <= q < n and view[q, p]:
                        perp.append(int(view[q, p]) & 0x7F)
                        q += step
                if not perp:
                    out[d, lane, p] = full
                    continue
                out[d, lane, p] = sum(1 << t for t in range(1, 64) if (full >> t) & 1
                                      and lexicon.has_anagram(perp + [t]))
    return out


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), plays=st.integers(1, 6))
def test_wordsmog_cross_sets_are_their_definition_and_update_by_lane(seed: int,
                                                                     plays: int) -> None:
    """A board of random WordSmog plays: its cross sets over the alphagrams,
    from scratch and updated lane by lane after each play, are the brute
    force's; the face values and the perpendicular flags the classic ones'."""
    lexicon = tiny_lexicon()
    graph = lexicon.alphagrams()
    assert graph.graph == GRAPH_ALPHAGRAMS and variant_lexicon(lexicon, "wordsmog") is graph
    assert variant_lexicon(lexicon, "classic") is lexicon
    rng = random.Random(seed)
    board = _tiny_board()
    xs = cross_sets(board.grid, graph)
    for _ in range(plays):
        board.racks = [tuple(board.alphabet.tokenize("".join(rng.choices(LETTERS + "?", k=3)))),
                       ()]
        moves = board.moves(lexicon, exchanges=False).placements()
        if not moves:
            continue
        move = rng.choice(moves)
        after = board.play(move)
        xs = update_cross_sets(xs, move, graph)
        board = after
        fresh = cross_sets(board.grid, graph)
        assert np.array_equal(xs.cross[:3], fresh.cross[:3])
        assert np.array_equal(fresh.cross[X_SET], _brute_cross(board.grid, lexicon))
        classic = cross_sets(board.grid, lexicon)
        for row in (X_SCORE, X_HAS):
            assert np.array_equal(fresh.cross[row], classic.cross[row])


# ------------------------------------------------------------ self-play
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_compiled_and_python_self_play_agree_under_wordsmog(twl06: Lexicon, seed: int) -> None:
    """The same seeds, the same games, event for event, as the Python players
    play them through the referee; the checker passes them (words as
    anagrams), and the game state's cross sets, updated play by play, are
    WordSmog's of the last board."""
    players = [make_player("h3", twl06), make_player("greedy", twl06)]
    compiled = Compiled(twl06, players, rules=WORDSMOG)
    for game_seed in (seed, seed + 1):
        fast = compiled.play(game_seed)
        game, _ = play_game(twl06, players, seed=game_seed, rules=WORDSMOG)
        assert [(int(s), EVENTS[k], int(v)) for s, k, v in
                zip(fast.seat, fast.kind, fast.score, strict=True)] == \
            [(e.seat, e.kind, e.score) for e in game.events]
        assert compiled.check(fast) is None
        grid = compiled.state.tiles[0]
        fresh = cross_sets(grid, twl06.alphagrams())
        assert np.array_equal(compiled.state.cross[:3], fresh.cross[:3])


def test_compiled_self_play_plays_jumbled_words_and_the_checker_knows_them(
        twl06: Lexicon) -> None:
    players = [make_player("greedy", twl06), make_player("h3", twl06)]
    compiled = Compiled(twl06, players, rules=WORDSMOG)
    fast = compiled.play(7)
    assert compiled.check(fast) is None
    game = fast.game(twl06, ["a", "b"], seed=7, rules=WORDSMOG)
    assert game.over and game.problems() == []
    replayed = replay(record_of(game))
    jumbled = [word for step, board in zip(replayed.steps, replayed.positions, strict=False)
               if step.kind == "play" and step.move is not None
               for word in _jumbled(board, step.move, twl06)]
    assert jumbled  # WordSmog's plays, not only classic ones
    # the same events, checked as classic words, fail on a jumbled one
    c = compiled
    classic = Setting(c.lm2[0], c.wm2[0], c.points, c.start[0], c.start[1],
                      c.alphabet.rack_size, c.bingo, c.exchange_min, c.twice, c.distribution,
                      c.n_players)
    code, _index = check_game(twl06.nodes, classic, fast.bag0, np.uint64(fast.rng_state),
                              fast.events(), fast.n)
    assert code == 5


def test_autoplay_plays_wordsmog_compiled(twl06: Lexicon) -> None:
    from rackety.experiments import autoplay

    autoplay._worker.clear()
    result = autoplay.tournament("TWL06", ["h2", "greedy"], 2, seed=5, jobs=1,
                                 rules=WORDSMOG)
    assert result.games == 2
    assert any(key[0] == "compiled" and value is not None
               for key, value in autoplay._worker.items() if isinstance(key, tuple))


# ------------------------------------------------------------ simulation
# Column A holds A (row 2) and B (row 3). S below them makes ABS (6 points, the
# S on a double letter); under WordSmog that lets the opponent, who holds the Q,
# play Q on the triple word A1: QABS, an anagram of SABQ (45 points). Under
# classic rules nothing can follow; nothing fits after a pass either.
SIM_WORDS = ["AB", "ABS", "SABQ"]
SIM_CGP = "15/A14/B14/15/15/15/15/15/15/15/15/15/15/15/15 DSVVWWX/QKJZFFY 0/0 0"


def test_the_simulation_sees_the_opponents_wordsmog_reply() -> None:
    lexicon = Lexicon.from_words(SIM_WORDS)
    for rules, opens in ((WORDSMOG, True), (Rules(), False)):
        board = Board.from_cgp(SIM_CGP)
        board.rules = rules
        play, wait = board.parse_move("A2 (AB)S"), board.parse_move("pass")
        assert board.score(play) == 6
        result = simulate(board, lexicon, moves=[play, wait], iterations=16, seed=1,
                          drop=False, plies=2)
        by_move = {c.move: c.equity for c in result.candidates}
        if opens:
            assert by_move[play] < by_move[wait] - 30
        else:
            assert by_move[play] > by_move[wait]


def test_a_time_limit_paces_the_batches_and_leaves_the_result_as_it_was() -> None:
    """Under a time limit a first rollout measures the pace (a WordSmog
    rollout may cost a second); a limit that does not bind gives the result
    of none, batch for batch (nothing is dropped after one rollout; the sums
    of the first batch are taken in two, so the last bits may differ)."""
    lexicon = Lexicon.from_words(SIM_WORDS + ["AD", "ADS", "DABS"])
    board = Board.from_cgp(SIM_CGP)
    for rules in (Rules(), WORDSMOG):
        board.rules = rules
        free, timed = (simulate(board, lexicon, candidates=6, iterations=96, seed=5, batch=32,
                                seconds=seconds).candidates for seconds in (None, 1000.0))
        assert [(c.move, c.iterations, c.dropped) for c in free] == \
            [(c.move, c.iterations, c.dropped) for c in timed]
        for c, d in zip(free, timed, strict=True):
            assert (c.mean, c.m2, c.win_mean) == pytest.approx((d.mean, d.m2, d.win_mean),
                                                                rel=1e-12, abs=1e-12)
    timed = simulate(board, lexicon, candidates=6, seconds=0.01, seed=5)
    assert timed.stopped in ("seconds", "one candidate left") and timed.iterations >= 1


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), turns=st.integers(2, 12))
def test_rollouts_reply_with_wordsmog_plays(twl06: Lexicon, seed: int, turns: int) -> None:
    """A midgame WordSmog position's candidates come from WordSmog's
    generator, and each one-ply rollout's reply, read off the rollout's last
    board, is a play whose words are anagrams of words, scored as the rules
    score it."""
    game, _ = play_game(twl06, [make_player("greedy", twl06)] * 2, seed=seed, rules=WORDSMOG)
    steps = [e for e in game.events if e.kind in ("play", "exchange", "pass")]
    assume(len(steps) > turns + 2)
    replay = Game(twl06, ["p1", "p2"], seed=seed, rules=WORDSMOG)
    for event in steps[:turns]:
        replay.play(event.move, check=False)
    board = replay.position.copy(racks=[replay.position.rack, ()])
    assume(board.bag_count > 7)
    moves = [m for m in board.moves(twl06, mode="top", top=3, leave=None)
             if m.kind == "place"][:2]
    assume(moves)
    for move in moves:
        _jumbled(board, move, twl06)
    setup = _Setup(board, twl06, leave_model("h3", twl06), moves)
    replies = 0
    for i in range(6):
        setup.run(1, seed, i, i + 1, np.ones(len(moves), bool))
        # the last candidate's rollout is in the state: the candidate, then the reply
        after = board.play(moves[-1])
        grid = setup.state.tiles[0]
        new = np.argwhere((grid != 0) & (after.grid == 0))
        gained = int(setup.state.ints[GS_SCORE + 1] - setup.root.ints[GS_SCORE + 1])
        if len(new) == 0:
            assert gained == 0
            continue
        replies += 1
        reply = _placement(after.grid, grid, new, after)
        assert after.score(reply) == gained
        _jumbled(after, reply, twl06)
    assert replies


def _placement(before: np.ndarray, grid: np.ndarray, new: np.ndarray, board: Board) -> Move:
    """The placement that put the tiles on the squares ``new`` on ``before``
    (the whole line through them, across unless they lie in one column and
    the first has no neighbour across)."""
    rows, cols = set(new[:, 0].tolist()), set(new[:, 1].tolist())
    r, c = (int(x) for x in new[0])
    n = grid.shape[0]
    down = len(cols) == 1 and (len(rows) > 1 or not any(
        0 <= q < n and grid[r, q] for q in (c - 1, c + 1)))
    line = grid.T if down else grid
    lane, pos = (c, min(rows)) if down else (r, min(cols))
    first, last = pos, max(rows) if down else max(cols)
    while first > 0 and line[lane, first - 1]:
        first -= 1
    while last + 1 < n and line[lane, last + 1]:
        last += 1
    squares = [(p, lane) if down else (lane, p) for p in range(first, last + 1)]
    return Move("place", *squares[0], down, tuple(int(grid[s]) for s in squares),
                tuple(bool(before[s]) for s in squares), alphabet=board.alphabet)


# --------------------------------------------------------------- endgame
@pytest.fixture(scope="module")
def tiny() -> Lexicon:
    return tiny_lexicon()


@st.composite
def wordsmog_endgames(draw: st.DrawFn, lexicon: Lexicon) -> Board:
    """A 7x7 WordSmog position after zero to four random plays, then racks of
    one to three tiles and one or two (blanks too), the bag empty (the plain
    minimax in Python is the slow part)."""
    board = _tiny_board()
    big = board.alphabet
    board = random_plays(draw, lexicon, board, 4)
    racks = [draw(st.text(LETTERS + "?", min_size=1, max_size=3)),
             draw(st.text(LETTERS + "?", min_size=1, max_size=2))]
    if draw(st.booleans()):
        racks.reverse()
    board.racks = [tuple(big.tokenize(r)) for r in racks]
    board.scores = [draw(st.integers(0, 60)), draw(st.integers(0, 60))]
    board.zero_turns = draw(st.integers(0, 1))
    position = with_empty_bag(board)
    position.rules = WORDSMOG
    return position


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_endgame_solves_wordsmog_as_plain_minimax(tiny: Lexicon, data: st.DataObject) -> None:
    position = data.draw(wordsmog_endgames(tiny))
    assert position.rules.variant == "wordsmog"
    result = solve(position, tiny)
    assert result.exact
    assert result.value == minimax(position, tiny)  # over `Board.moves`: WordSmog's
    assert line_value(position, tiny, result.pv) == result.value


def test_a_wordsmog_endgame_goes_out_with_a_jumbled_word(tiny: Lexicon) -> None:
    """TNE is no word, but an anagram of TEN (and NET): only WordSmog goes out."""
    board = _tiny_board()
    big = board.alphabet
    board.racks = [tuple(big.tokenize("SIT")), ()]
    board = board.play(board.parse_move("4C SIT"))
    board.racks = [tuple(big.tokenize("TNE")), tuple(big.tokenize("AA"))]
    smog = with_empty_bag(board)
    smog.rules = WORDSMOG
    classic = smog.copy()
    classic.rules = Rules()
    jumbled = solve(smog, tiny)
    assert jumbled.value == minimax(smog, tiny) > solve(classic, tiny).value
    assert jumbled.exact and jumbled.pv[0].n_placed == 3
    # the endgame player and the championship player of a WordSmog game play that
    view = smog.copy(racks=[smog.racks[0], ()])
    for spec, phase in (("greedy+endgame", None), ("best:1", "endgame")):
        player = make_player(spec, tiny)
        move = player.decide(view, tiny).move
        assert move == jumbled.pv[0] and _jumbled(smog, move, tiny)
        assert getattr(player, "last_phase", None) == phase


def test_the_championship_player_plays_wordsmog_in_the_midgame(twl06: Lexicon) -> None:
    """Its simulation (with the inference of the opponent's leave when cheap)
    under WordSmog: the moves it makes are WordSmog's, which the referee
    takes (phonies refused, the void rule), jumbled words among them. (Its
    endgame: `test_a_wordsmog_endgame_goes_out_with_a_jumbled_word`.)"""
    rules = Rules(variant="wordsmog", challenge="void")
    best = BestPlayer(0.1, candidates=3, plies=1)
    greedy = make_player("greedy", twl06)
    game = Game(twl06, ["best", "greedy"], seed=8, rules=rules)
    decided = 0
    while decided < 4 and not game.over:
        view = game.view()
        if game.turn == 0:
            decision = best.decide(view, twl06)
            assert best.last_phase.startswith("simulation")
            assert decision.simulation is not None
            if decision.move.kind == "place":
                assert decision.move in _listed_from_its_square(view.moves(twl06), decision.move)
            game.play(decision.move)
            decided += 1
        else:
            game.play(greedy.decide(view, twl06).move)
    assert decided == 4 and game.problems() == []


def _listed_from_its_square(moves: MoveList, move: Move) -> set[Move]:
    """The placements of ``moves`` whose main word starts on ``move``'s square in
    its direction, as moves (a WordSmog list of TWL06 holds tens of thousands:
    the rest are not made into `Move` objects)."""
    lane, first = (move.col, move.row) if move.down else (move.row, move.col)
    meta = moves.meta
    rows = np.flatnonzero((meta[:, M_DIR] == int(move.down)) & (meta[:, M_LANE] == lane)
                          & (meta[:, M_FIRST] == first))
    return {moves.placement(int(i)) for i in rows}


# ----------------------------------------------------------- pre-endgame
@st.composite
def wordsmog_preendgames(draw: st.DrawFn, lexicon: Lexicon) -> Board:
    """A 7x7 WordSmog position, the mover's rack of three, one tile in the
    bag, the opponent's rack of two known (as tests/test_preendgame_reference.py's,
    smaller: the plain expectimax in Python is the slow part; the worlds of
    an unknown rack are the variant's business nowhere)."""
    board = _tiny_board()
    big = board.alphabet
    board = random_plays(draw, lexicon, board, 3)
    rack = draw(st.text(LETTERS, min_size=3, max_size=3))
    pool = tuple(big.tokenize(draw(st.text(LETTERS, min_size=3, max_size=3))))
    board.racks = [tuple(big.tokenize(rack)), pool[:2]]
    board.scores = [draw(st.integers(0, 40)), draw(st.integers(0, 40))]
    position = with_unseen(board, pool[2:])
    position.rules = WORDSMOG
    return position


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_preendgame_solves_wordsmog_as_plain_expectimax(tiny: Lexicon,
                                                           data: st.DataObject) -> None:
    board = data.draw(wordsmog_preendgames(tiny))
    assume(board.moves(tiny, exchanges=False).placements())
    result = preendgame(board, tiny, candidates=3, leave="h1", rollouts=4)
    assert result.bag == 1 and result.exact
    memo: dict = {}
    for outcome in result.outcomes:
        win, spread, _ = candidate(board, tiny, outcome.move, 1, memo)
        assert outcome.win_pct == pytest.approx(win, abs=1e-9)
        assert outcome.spread == pytest.approx(spread, abs=1e-9)


# -------------------------------------------------------------- inference
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6), turns=st.integers(3, 6), pick=st.integers(0, 10**6))
def test_inference_weighs_racks_by_wordsmogs_static_player(seed: int, turns: int,
                                                           pick: int) -> None:
    """tests/test_inference.py's brute force (every rack, each one's best by
    `static_decision` over `Board.moves`, so WordSmog's) on WordSmog games."""
    import test_inference as ti

    from rackety.players.static import static_decision

    lexicon = Lexicon.from_words(ti.WORDS, ti.ALPHABET, name="tiny")
    rng = random.Random(seed)
    table = ti.random_table(rng)
    game = Game(lexicon, ["a", "b"], alphabet=ti.ALPHABET, layout=ti.TINY7, seed=seed,
                rules=WORDSMOG)
    for _ in range(turns):
        if game.over:
            return
        game.play(static_decision(game.position, lexicon, table).move, check=False)
    if game.over:
        return
    truth = game.position
    listed = [m for m in truth.moves(lexicon, mode="all", leave=table) if m.kind == "place"]
    if not listed:
        return
    move = listed[pick % len(listed)]
    text = truth.notation(move)
    view = truth.copy(racks=[(), ()])
    found = infer(view, lexicon, text, margin=0.5, leave=table)
    expected, racks, consistent = ti.reference(view, lexicon, text, table, 0.5)
    assert (found.racks, found.consistent) == (racks, consistent)
    ti._same(dict(found.leaves), expected)
