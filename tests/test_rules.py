"""The rules written once (`rackety.game.rules.Rules`): made from the tile set
and the user's choices, carried by every position (and its CGP) and game, and
read by the referee, the kernels, the players, the move generator, compiled
self-play and GCG replay alike; a move's score is always the rules' own."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rackety import Board, Lexicon, Move
from rackety.alphabet import Alphabet
from rackety.errors import RacketyError
from rackety.experiments.autoplay import play_game
from rackety.game.gcg import game_of, read_gcg, replay
from rackety.game.referee import Game, IllegalMoveError
from rackety.game.rules import (
    CHALLENGE_RULES,
    END_NONE,
    END_OUT,
    END_SCORELESS,
    PLAYOUT_RULES,
    VARIANTS,
    Rules,
)
from rackety.players import make_player
from rackety.players.base import whole_rack_or_pass

ENGLISH = Alphabet.load("english")
SPANISH = Alphabet.load("spanish")


def test_rules_take_the_tile_sets_values_where_the_user_chose_none() -> None:
    assert Rules().of(ENGLISH) == Rules(bingo_bonus=50, exchange_min_bag=7, max_scoreless=6)
    spanish = Rules().of(SPANISH)
    assert (spanish.exchange_min_bag, spanish.max_scoreless) == (SPANISH.exchange_min_bag,
                                                                 SPANISH.max_scoreless)
    mine = Rules(exchange_min_bag=2, max_scoreless=3).of(SPANISH)
    assert (mine.exchange_min_bag, mine.max_scoreless, mine.bingo_bonus) == \
        (2, 3, SPANISH.bingo_bonus)
    assert not Rules().resolved and mine.resolved and mine.of(ENGLISH) is mine


@pytest.mark.parametrize("kwargs", [{"challenge": "triple"}, {"playout": "half"},
                                    {"variant": "scrabble"}, {"exchange_min_bag": -1},
                                    {"max_scoreless": 0}, {"bingo_bonus": True},
                                    {"bingo_bonus": 10**9}])
def test_rules_out_of_range_are_refused_in_one_line(kwargs: dict) -> None:
    with pytest.raises(RacketyError) as err:
        Rules(**kwargs)
    named = next(iter(kwargs)).split("_")[0].replace("playout", "play-out")
    assert "\n" not in str(err.value) and named in str(err.value)


rules_strategy = st.builds(
    Rules, challenge=st.sampled_from(CHALLENGE_RULES),
    bingo_bonus=st.none() | st.integers(0, 200), exchange_min_bag=st.none() | st.integers(0, 90),
    max_scoreless=st.none() | st.integers(1, 30), playout=st.sampled_from(PLAYOUT_RULES),
    variant=st.sampled_from(VARIANTS))


@settings(max_examples=60, deadline=None)
@given(rules=rules_strategy, alphabet=st.sampled_from([ENGLISH, SPANISH]))
def test_a_positions_rules_travel_with_its_cgp(rules: Rules, alphabet: Alphabet) -> None:
    board = Board.empty(alphabet)
    board.rules = rules
    expected = rules.of(alphabet)
    assert board.rules == expected
    back = Board(board.cgp(), alphabet=alphabet)
    # the play-out rule has no CGP operation; every other rule reads back
    assert back.rules == replace(expected, playout="twice")
    assert board.copy().rules == board.rules
    assert board.rules.bingo_bonus == expected.bingo_bonus
    if rules == Rules():
        assert board.cgp() == Board.empty(alphabet).cgp()  # nothing written for the defaults


@pytest.mark.parametrize("operation, named", [("cr triple", "cr"), ("etl -1", "etl"),
                                              ("mcnz 0", "mcnz"), ("var Scrabble", "var"),
                                              ("bb x", "bb"), ("etl 99999999999", "etl")])
def test_bad_rule_operations_in_cgp_are_refused_in_one_line(operation: str, named: str) -> None:
    with pytest.raises(RacketyError) as err:
        Board("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0 " + operation + ";")
    message = str(err.value)
    assert "\n" not in message and message.startswith("cgp") and named in message


def _ending_of(game: Game) -> tuple[int, bool]:
    """Check the end-of-game events the kernels wrote against `Rules.ending`
    and `Rules.end_points`; how the game ended, and under which play-out."""
    rules, players = game.rules, len(game.players)
    ends = [e for e in game.events if e.kind in ("end_points", "end_penalty")]
    turns = [e for e in game.events if e.kind not in ("end_points", "end_penalty")]
    last = turns[-1]
    scoreless = 0
    for e in reversed(turns):
        if e.kind == "play":
            break
        scoreless += 1
    went_out = last.kind == "play" and not game.racks[last.seat] and not game.bag
    ending = rules.ending(went_out=went_out, scoreless=scoreless)
    assert ending != END_NONE
    values = [sum(game.alphabet.tiles[t].points for t in rack) for rack in game.racks]
    got = [0] * players
    for e in ends:
        got[e.seat] += e.score
    assert got == rules.end_points(last.seat, values, ending)
    return ending, rules.twice(players)


def test_the_python_end_of_the_game_is_the_kernels(twl06: Lexicon) -> None:
    """`Rules.ending` and `Rules.end_points` (GCG replay's) say what the
    compiled `end_turn` does to every game the referee plays, whatever the
    rules."""
    greedy = make_player("greedy", twl06)
    seen = set()
    for seed, rules in enumerate([Rules(), Rules(playout="subtract"),
                                  Rules(bingo_bonus=0, exchange_min_bag=1)]):
        for players in (2, 3):
            game, _ = play_game(twl06, [greedy] * players, seed=seed, rules=rules, check=False)
            seen.add(_ending_of(game))
    for limit in (1, 2, 5):
        for playout in PLAYOUT_RULES:
            game = Game(twl06, ["a", "b", "c"][:2 + limit % 2], seed=limit,
                        rules=Rules(max_scoreless=limit, playout=playout))
            for _ in range(limit):
                assert not game.over
                game.play("pass")
            assert game.over
            seen.add(_ending_of(game))
    assert {(END_OUT, True), (END_OUT, False), (END_SCORELESS, False),
            (END_SCORELESS, True)} <= seen


def test_a_stated_score_is_checked_never_trusted(twl06: Lexicon) -> None:
    board = Board("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ADNPUY?/ 0/0 0")
    move = board.parse_move("8H PANDY")
    points = board.score(move)
    assert board.play(move).scores == [0, points]
    with pytest.raises(RacketyError, match=re.escape(f"scores {points} here, not 999")):
        board.play(Move("place", move.row, move.col, move.down, move.tiles, move.through,
                        score=999))
    game = Game(twl06, ["Ann", "Ben"], seed=3)
    game.set_rack(0, "ADNPUY?")
    fake = game.parse("8H PANDY")
    with pytest.raises(IllegalMoveError, match="not 999"):
        game.play(Move("place", fake.row, fake.col, fake.down, fake.tiles, fake.through,
                       score=999), check=False)
    assert game.scores == [0, 0] and not game.events
    assert game.play(fake, check=False).score == points == game.scores[0]


def _game_with_bag(lexicon: Lexicon, rules: Rules, low: int, high: int) -> Game:
    """A game played by H3 until ``low`` to ``high`` tiles are left in the bag."""
    h3 = make_player("h3", lexicon)
    for seed in range(40):
        game = Game(lexicon, ["a", "b"], seed=seed, rules=rules)
        while not game.over and len(game.bag) > high:
            game.play(h3.decide(game.view(), lexicon).move, check=False)
        if not game.over and low <= len(game.bag) <= high:
            return game
    raise AssertionError(f"no game left {low} to {high} tiles in the bag")


def test_a_custom_exchange_minimum_reaches_players_and_the_generator(twl06: Lexicon) -> None:
    # more than the tile set asks: the players pass where they would exchange
    game = _game_with_bag(twl06, Rules(exchange_min_bag=30), 8, 29)
    view = game.view()
    assert view.rules.exchange_min_bag == 30
    assert whole_rack_or_pass(view).kind == "pass"
    assert not any(m.kind == "exchange" for m in view.moves(twl06))
    with pytest.raises(IllegalMoveError, match="30 needed"):
        game.play(Move("exchange", tiles=game.racks[game.turn][:1]))
    default = view.copy()
    default.rules = Rules()
    assert default.rules.exchange_min_bag == 7
    assert whole_rack_or_pass(default).kind == "exchange"
    assert any(m.kind == "exchange" for m in default.moves(twl06))
    # fewer: the generator offers exchanges of what the bag holds, the referee takes them
    game = _game_with_bag(twl06, Rules(exchange_min_bag=1), 1, 6)
    view = game.view()
    exchanges = [m for m in view.moves(twl06) if m.kind == "exchange"]
    assert exchanges and max(len(m.tiles) for m in exchanges) == len(game.bag)
    assert not any(m.kind == "exchange" for m in game.position.copy().moves(twl06)
                   if game.position.rules.exchange_min_bag == 7)
    game.play(exchanges[0])
    assert game.events[-1].kind == "exchange"


def test_the_best_move_trades_no_more_tiles_than_the_bag_holds(twl06: Lexicon) -> None:
    """`MoveList.best` (found without ordering the list) is the ordered list's
    first move, and exchanges no more tiles than the bag holds: it once traded
    5 tiles with 4 in the bag where the list offered 4 at most."""
    game = _game_with_bag(twl06, Rules(exchange_min_bag=1), 1, 6)
    bag = len(game.bag)
    view = game.view()
    for leave in (lambda kept: 100.0 - 20 * len(kept),  # trade all you may
                  make_player("h3", twl06).leave_model):
        moves = view.moves(twl06, leave=leave)
        best = moves.best()
        assert best is not None and best == moves[0]
        assert best.kind != "exchange" or len(best.tiles) <= bag


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_compiled_and_python_self_play_agree_under_custom_rules(twl06: Lexicon,
                                                                seed: int) -> None:
    from rackety.experiments.selfplay import Compiled

    rules = Rules(exchange_min_bag=2, max_scoreless=2, playout="subtract", bingo_bonus=35)
    players = [make_player("h3", twl06), make_player("greedy", twl06)]
    compiled = Compiled(twl06, players, rules=rules)
    names = ["play", "exchange", "pass", "end_points", "end_penalty"]
    for game_seed in (seed, seed + 1):
        fast = compiled.play(game_seed)
        game, _ = play_game(twl06, players, seed=game_seed, rules=rules)
        assert [(int(s), names[k], int(v)) for s, k, v in
                zip(fast.seat, fast.kind, fast.score, strict=True)] == \
            [(e.seat, e.kind, e.score) for e in game.events]
        assert compiled.check(fast) is None


RECORD = """#character-encoding UTF-8
#player1 ann Ann
#player2 ben Ben
>ann: ADNPUY? - +0 0
>ben: EEIORST - +0 0
>ann: ADNPUY? 8H PANDY +32 32
"""


def test_gcg_replay_ends_the_game_by_the_rules(twl06: Lexicon) -> None:
    record = read_gcg(RECORD, source="t.gcg")
    assert not replay(record).over
    assert game_of(record, twl06).scores == [32, 0]
    with pytest.raises(RacketyError, match="t.gcg:6.*end"):
        replay(record, rules=Rules(max_scoreless=2))
    two = read_gcg("\n".join(RECORD.splitlines()[:5]) + "\n", source="t.gcg")
    assert replay(two, rules=Rules(max_scoreless=2)).over
    game = game_of(two, twl06, rules=Rules(max_scoreless=2))
    assert game.over and game.rules.max_scoreless == 2
    assert not game_of(two, twl06).over


def _ended_by_going_out(twl06: Lexicon, rules: Rules) -> Game:
    """A greedy game under ``rules`` that ends with a play going out."""
    players = [make_player("greedy", twl06), make_player("greedy", twl06)]
    for seed in range(20):
        game, _ = play_game(twl06, players, seed=seed, rules=rules)
        if any(e.kind == "end_points" for e in game.events):
            return game
    raise AssertionError("no greedy game went out in 20 seeds")


@pytest.mark.parametrize("playout", PLAYOUT_RULES)
def test_a_records_game_ends_by_the_referee_and_keeps_the_records_events(
        twl06: Lexicon, playout: str) -> None:
    from rackety.game.gcg import record_of, record_rules, write_gcg

    played = _ended_by_going_out(twl06, Rules(playout=playout))
    record = record_of(played)
    assert record_rules(record).playout == playout  # the record's end shows its rule
    game = game_of(read_gcg(write_gcg(record), source="t.gcg"), twl06)
    assert game.over and game.problems() == []
    assert [(e.seat, e.kind, e.score, e.total, e.tiles, e.adjustment) for e in game.events] == \
        [(e.seat, e.kind, e.score, e.total, e.tiles, 0) for e in played.events]
    # a record that stops at the play going out: the referee ends the game itself
    turns = [e for e in record.events if e.kind not in ("end_rack_points", "end_rack_penalty")]
    bare = game_of(replace(record, events=turns), twl06, rules=Rules(playout=playout))
    assert bare.over and bare.scores == played.scores
    assert [e.kind for e in bare.events] == [e.kind for e in played.events]
    # the play that went out challenged in vain (a pass at once): kept in the record's order
    out = max(i for i, e in enumerate(record.events) if e.kind == "play")
    other = record.events[out + 1 - 2]  # the other player's last turn: its nickname
    lost = replace(other, kind="pass", move="-", score=0, total=other.total, rack="",
                   trailing="", notes=[], line="", line_number=0)
    challenged = replace(record, events=record.events[:out + 1] + [lost] +
                         record.events[out + 1:])
    game = game_of(challenged, twl06)
    assert game.over and game.scores == played.scores and game.problems() == []
    back = record_of(game)
    assert [(e.kind, e.score, e.total) for e in back.events] == \
        [(e.kind, e.score, e.total) for e in challenged.events]


def test_an_added_event_after_the_end_is_undone_with_the_last_turn(twl06: Lexicon) -> None:
    game = _ended_by_going_out(twl06, Rules())
    before = len([e for e in game.events if e.kind not in ("end_points", "end_penalty")]) - 1
    game.add_event(0, "time_penalty", -10)
    game.undo()
    assert not game.over and len(game.events) == before


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31), turns=st.integers(0, 30))
def test_the_referees_scorer_is_the_boards_and_the_generators(twl06: Lexicon, seed: int,
                                                              turns: int) -> None:
    """`rackety.kernels.rules.score` (what the referee scores a move by, from the
    cross sets its game keeps) against `Board.score` and the generator's score,
    on every placement of a position some greedy turns into a game."""
    import numpy as np

    from rackety.game.movegen import MoveGenerator
    from rackety.game.state import kernel_consts, write_row
    from rackety.kernels.fields import M_SCORE, META, GameState
    from rackety.kernels.rules import score

    game = Game(twl06, seed=seed)
    for _ in range(turns):
        if game.over:
            break
        game.play(game.position.moves(twl06, mode="best")[0], check=False)
    board = game.position
    consts = kernel_consts(game.alphabet, board.layout, game.rules, players=2)
    state = GameState.allocate(board.size, 2, 100)
    state.tiles[0], state.tiles[1] = board.grid, board.grid.T
    xs = MoveGenerator.of(twl06).cross_sets(board)
    state.cross[:] = xs.cross
    row, word = np.zeros((1, META), np.int32), np.zeros((1, board.size), np.uint8)
    placements = [m for m in board.moves(twl06) if m.kind == "place"]
    for move in placements:
        write_row(move, row, word, 0, -1)
        assert row[0, M_SCORE] == -1
        assert int(score(consts, state, row, word, 0)) == board.score(move) == move.score
