"""The referee: random games keep every invariant under every rule; illegal
moves are refused with their reason; challenges, the end of the game, undo."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rackety import Lexicon, Move, RacketyError
from rackety.game.referee import Game, IllegalMoveError, placement
from rackety.game.rules import CHALLENGE_RULES, Rules


def _random_turn(game: Game, rng: random.Random) -> None:
    """A random legal turn: mostly a placement, sometimes an exchange or a pass."""
    moves = list(game.view().moves(game.lexicon))
    placements = [m for m in moves if m.kind == "place"]
    others = [m for m in moves if m.kind != "place"]
    pool = placements if placements and rng.random() < 0.9 else others
    game.play(rng.choice(pool), check=rng.random() < 0.5)


def _state(game: Game) -> tuple:
    return (game.position.cgp(), list(game.bag), [list(r) for r in game.racks],
            list(game.scores), game.turn, game.zero_turns, game.over, len(game.events))


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4),
       rule=st.sampled_from(CHALLENGE_RULES))
def test_random_games_keep_the_invariants(twl06: Lexicon, seed: int, players: int,
                                          rule: str) -> None:
    rng = random.Random(seed)
    game = Game(twl06, [f"p{i}" for i in range(players)], seed=seed,
                rules=Rules(challenge=rule))
    history = []
    while not game.over:
        history.append(_state(game))
        _random_turn(game, rng)
        assert game.problems() == []
    assert game.problems() == []
    # the game ended by the rules: a rack played out with the bag empty, or
    # six scoreless turns
    last_turns = [e.kind for e in game.events if e.kind in ("play", "exchange", "pass")]
    assert (not game.bag and any(not r for r in game.racks)) or \
        all(k != "play" for k in last_turns[-6:])
    # undo walks back through every state
    for state in reversed(history):
        game.undo()
        assert _state(game) == state
    with pytest.raises(Exception, match="nothing to undo"):
        game.undo()


def test_illegal_moves_say_why(twl06: Lexicon) -> None:
    game = Game(twl06, ["Ann", "Ben"], seed=94, rules=Rules(challenge="void"))
    assert game.alphabet.format(game.racks[0]) == "ITLPOAG"
    cases = {"8H ZA": "tile Z is not on the rack AGILOPT",
             "8A TOLA": "the first play must cover the start square 8H",
             "8H TAIO": "TAIO is not in TWL06",
             "8H A": "a play must form a word of two letters or more",
             "exchange QQ": "tiles QQ are not on the rack"}
    for text, reason in cases.items():
        with pytest.raises(IllegalMoveError, match=reason):
            game.play(text)
    game.play("8H TOLA")
    assert game.scores == [8, 0]
    ben = game.alphabet.format(game.racks[1])
    far = "1A " + ben[:2]
    with pytest.raises(IllegalMoveError):
        game.play(far)
    with pytest.raises(IllegalMoveError, match="not in one line"):
        placement(game.position, [(0, 0, 1), (1, 1, 1)])
    with pytest.raises(IllegalMoveError, match="gap"):
        placement(game.position, [(6, 0, 1), (6, 2, 1)])
    move = placement(game.position, [(8, 7, 1), (9, 7, 20)])  # A, T under the T of TOLA
    assert move.notation(game.alphabet) == "H8 (T)AT"


def test_touching_nothing_is_refused(twl06: Lexicon) -> None:
    game = Game(twl06, ["Ann", "Ben"], seed=94)
    game.play("8H TOLA")
    game.set_rack(1, "ATEIOUS")
    with pytest.raises(IllegalMoveError, match="does not touch"):
        game.play("1A AT")


def _phony_game(rule: str) -> tuple[Game, str]:
    lexicon = Lexicon.from_words(["TOLA", "TOLAS", "AT", "TA", "LA", "AL"])
    game = Game(lexicon, ["Ann", "Ben"], seed=94, rules=Rules(challenge=rule))
    return game, game.position.cgp()


@pytest.mark.parametrize("rule", ["single", "double", "5pt", "10pt"])
def test_challenges(rule: str) -> None:
    game, _ = _phony_game(rule)
    rack_before = sorted(game.racks[0])
    game.play("8H TOIL")  # a phony: accepted under this rule
    assert game.scores[0] > 0 and game.turn == 1
    event = game.challenge()
    assert event is not None and event.kind == "withdrawn"
    assert game.scores == [0, 0] and sorted(game.racks[0]) == rack_before
    assert not game.position.grid.any() and game.turn == 1
    assert game.problems() == []
    game.undo()  # the challenge, not the phony
    assert game.events[-1].kind == "play" and game.position.grid.any()
    game.challenge()
    # Ben plays a good word and Ann challenges it in vain
    game.set_rack(1, "TOLAEEE")
    game.play("8H TOLA")
    event = game.challenge()
    if rule == "single":
        assert event is None and game.turn == 0
    elif rule == "double":
        assert event.kind == "lost_turn" and game.turn == 1
    else:
        assert event.kind == "challenge_bonus" and event.score == int(rule[:-2])
        assert game.turn == 0
    assert game.problems() == []


def test_void_rule_refuses_phonies_and_challenges() -> None:
    game, _ = _phony_game("void")
    with pytest.raises(IllegalMoveError, match="TOIL is not in words"):
        game.play("8H TOIL")
    game.play("8H TOLA")
    with pytest.raises(IllegalMoveError, match="void"):
        game.challenge()


def test_playing_out_and_six_scoreless_turns(twl06: Lexicon) -> None:
    game = Game(twl06, ["Ann", "Ben"], seed=3)
    for _ in range(6):
        game.play("pass")
    assert game.over
    points = game.alphabet_points()
    assert game.scores == [-sum(points[t] for t in r) for r in game.racks]
    assert [e.kind for e in game.events[-2:]] == ["end_penalty", "end_penalty"]
    assert game.problems() == []
    # a game played to the end by the best-scoring move
    game = Game(twl06, ["Ann", "Ben"], seed=5)
    while not game.over:
        game.play(game.view().moves(twl06, mode="best").best(), check=False)
    last = game.events[-1]
    if last.kind == "end_points":
        other = game.racks[1 - last.seat]
        assert last.score == 2 * sum(points[t] for t in other) and not game.racks[last.seat]
    assert game.problems() == []


def test_super_board_game_with_one_option(twl06: Lexicon) -> None:
    game = Game(twl06, ["Ann", "Ben"], layout="super21", seed=1)
    assert game.alphabet.name == "english_super" and game.position.size == 21
    assert len(game.bag) + 14 == 200
    game.play(game.view().moves(twl06, mode="best").best(), check=True)
    assert game.problems() == []


# ------------------------------------------------------------------- GCG
from pathlib import Path  # noqa: E402

from rackety.game.gcg import game_of, gcg_of, read_gcg, record_of, replay, write_gcg  # noqa: E402

DATA = Path(__file__).parent / "data" / "gcg"
CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "gcg"


def _played_game(twl06: Lexicon, seed: int, rule: str = "double") -> Game:
    """A game with plays, exchanges, passes, phonies challenged off and a
    challenge bonus: every kind of event a record holds."""
    rng = random.Random(seed)
    game = Game(twl06, ["Ann Lee", "Ben"], seed=seed, rules=Rules(challenge=rule))
    while not game.over:
        moves = game.view().moves(twl06)
        placements = [m for m in moves if m.kind == "place"]
        roll = rng.random()
        if roll < 0.05 and game.events and game.events[-1].kind == "play":
            game.challenge()
            continue
        if roll < 0.1 and placements:  # a phony: a real play with one tile changed
            move = rng.choice(placements)
            tiles = list(move.tiles)
            i = next(i for i, t in enumerate(move.through) if not t)
            spare = Counter(game.racks[game.turn]) - Counter(
                0 if t & 0x80 else t for t in move.placed)
            swap = [t for t in spare if t and t != tiles[i]]
            if swap and not tiles[i] & 0x80:
                tiles[i] = swap[0]
                game.play(type(move)("place", move.row, move.col, move.down, tuple(tiles),
                                     move.through), check=False)
                continue
        pool = placements if placements and roll < 0.9 else [m for m in moves
                                                             if m.kind != "place"]
        game.play(rng.choice(pool), check=False)
        if rng.random() < 0.1:
            game.events[-1].notes.append(f"note {len(game.events)}")
    return game


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31), rule=st.sampled_from(["double", "single", "5pt"]))
def test_games_round_trip_through_gcg(twl06: Lexicon, seed: int, rule: str) -> None:
    game = _played_game(twl06, seed, rule)
    assert game.problems() == []
    text = gcg_of(game)
    again = game_of(read_gcg(text), twl06)
    assert gcg_of(again) == text
    assert again.problems() == []
    assert (again.position.grid == game.position.grid).all()
    assert again.scores == game.scores
    # the plain GCG replay agrees, position by position
    positions = replay(read_gcg(text)).positions
    assert (positions[-1].grid == game.position.grid).all()


def test_hand_written_records_become_games(twl06: Lexicon) -> None:
    for path in sorted(DATA.glob("*.gcg")):
        record = read_gcg(path)
        game = game_of(record, twl06)
        assert game.problems() == [], path.name
        assert [e.total for e in game.events] == [e.total for e in record.events]
        assert write_gcg(record_of(game)).count("\n>") == write_gcg(record).count("\n>")
        kinds = {e.kind for e in game.events}
        if path.name == "double_challenge.gcg":
            assert {"withdrawn", "exchange", "end_points"} <= kinds


def test_corpus_records_become_games(twl06: Lexicon) -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not here ({CORPUS}); the records were not read")
    done = 0
    for path in sorted(CORPUS.glob("*.gcg")):
        record = read_gcg(path)
        if record.lexicon is None and "polish" in path.name:
            continue  # Polish tiles: no Polish lexicon here
        game = game_of(record, twl06)
        assert (game.position.grid == replay(record).final.grid).all(), path.name
        back = record_of(game)
        assert [(e.kind, e.score, e.total, e.notes) for e in back.events] == \
            [(e.kind, e.score, e.total, e.notes) for e in record.events], path.name
        assert game.problems() == [], path.name
        done += 1
    assert done >= 40


def test_records_and_games_convert_in_the_gcg_module(twl06: Lexicon, tmp_path: Path) -> None:
    from rackety.game import gcg

    record = read_gcg(DATA / "double_challenge.gcg")
    game = gcg.game_of(record, twl06)
    # the Game methods are the gcg functions
    assert gcg_of(game_of(record, twl06)) == gcg.gcg_of(game)
    assert record_of(game) == gcg.record_of(game)
    gcg.save_game(game, tmp_path / "game.gcg")
    assert (tmp_path / "game.gcg").read_text(encoding="utf-8") == gcg_of(game)
    assert gcg.nickname("Ann Lee") == "Ann_Lee" and gcg.nickname(" ") == "player"


def test_a_record_game_follows_its_replay(twl06: Lexicon) -> None:
    from rackety import RacketyError

    text = (DATA / "double_challenge.gcg").read_text(encoding="utf-8")
    # a rack written in lower case reads as its letters, as the replay reads it
    lower = read_gcg(text.replace(">ann: EIOPRSW D8", ">ann: eioprsw D8"))
    game = game_of(lower, twl06)
    assert sorted(game.events[2].rack) == sorted(game.alphabet.tokenize("EIOPRSW"))
    assert game.problems() == []
    # an exchange of a number of tiles gives back tiles of the rack written
    counted = game_of(read_gcg(text.replace("-FQV +0", "-3 +0")), twl06)
    exchange = counted.events[1]
    assert len(exchange.tiles) == 3
    assert not Counter(exchange.tiles) - Counter(counted.alphabet.tokenize("EFGOQVX"))
    assert counted.problems() == []
    # a rack's end-of-game penalty ends the game (a turn after it is refused)
    head = "#player1 a A\n#player2 b B\n>a: AEHLRTD 8D HALTED +28 28\n"
    ended = game_of(read_gcg(head + ">b: XYZ (XYZ) -26 -26\n"), twl06)
    assert ended.over and ended.scores == [28, -26]
    with pytest.raises(RacketyError, match="the game ended on line 4"):
        game_of(read_gcg(head + ">b: XYZ (XYZ) -26 -26\n>a: Q - +0 28\n"), twl06)
    # a withdrawal takes back the play just before it, in the replay and the game
    with pytest.raises(RacketyError, match=r"<gcg>:5: '--' withdraws the play just before"):
        game_of(read_gcg(head + ">b: ABC - +0 0\n>a: AEHLRTD -- -28 0\n"), twl06)


def test_the_checker_finds_what_does_not_add_up(twl06: Lexicon) -> None:
    # a score the rules do not give, written into an event (the referee gives none)
    game = Game(twl06, ["Ann", "Ben"], seed=3)
    best = game.view().moves(twl06, mode="best").best()
    assert best is not None and best.kind == "place" and best.score is not None
    event = game.play(best, check=False)
    game.amend(event, score=best.score + 1)
    event.adjustment = 0  # as a bug would leave it: the difference unexplained
    assert game.scores[0] == best.score + 1
    name = best.notation(game.alphabet)
    assert game.problems() == [f"event 1 ({name}): scored {best.score + 1}, the plain "
                               f"scorer says {best.score}"]
    # a phony let through unchecked under the void rule
    words = Lexicon.from_words(["TAIL", "TALE", "LATE", "ZA", "AI", "TA", "AT"])
    game = Game(words, ["Ann", "Ben"], seed=94, rules=Rules(challenge="void"))
    game.play(game.parse("8H PO"), check=False)
    assert game.problems() == ["event 1 (8H PO): PO is not in words"]
    # a play off its own board: the checker names it and does not crash
    game = Game(words, ["Ann", "Ben"], seed=94)
    game.play(game.parse("8H TAIL"))
    game.events[0] = replace(game.events[0], move=game.parse("9H TAIL"))
    assert game.problems() == ["event 1 (9H TAIL): not connected to the board (or the first "
                               "play misses the start square)",
                               "the board is not what the plays add up to"]


def test_a_move_taken_unchecked_still_fits_the_rack(twl06: Lexicon) -> None:
    game = Game(twl06, ["Ann", "Ben"], seed=94)
    rack = game.racks[0]
    missing = next(c for c in range(1, 27) if c not in rack)
    before = _state(game)
    for move in (Move("exchange", tiles=(missing,)),
                 Move("place", 7, 7, tiles=(missing, rack[0]))):
        with pytest.raises(RacketyError, match="not on the rack"):
            game.play(move, check=False)
        assert _state(game) == before  # refused before anything changed
