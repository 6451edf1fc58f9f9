"""The library as a Python user meets it: the defaults agree with the command
line, a move string works wherever a move does, a list of the top N holds N,
counts do not depend on the mode, leaves are letters, and every public value
type's repr evaluates back to an equal object."""

from __future__ import annotations

import json
from dataclasses import fields, is_dataclass
from itertools import combinations_with_replacement, islice
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rackety
from rackety import Alphabet, Board, Layout, Leaves, Lexicon, Move, Rules, Tile
from rackety.errors import RacketyError
from rackety.frontends.cli import main

EMPTY = "/".join(["15"] * 15)
# a middle game from the oracle's kind of positions: blanks, hooks, premiums
MIDGAME = ("15/15/15/15/15/15/15/5QUOD6/8A6/8N6/8DREW3/8Y6/15/15/15 AEIRST?/ 41/38 0 "
           "lex TWL06;")


def cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


# ----------------------------------------------------------------- defaults
@pytest.mark.parametrize("cgp", [MIDGAME, f"{EMPTY} AADNPUY/ 0/0 0 lex TWL06;"])
def test_moves_rank_as_the_command_line_does(capsys, twl06: Lexicon, cgp: str) -> None:
    board = Board.from_cgp(cgp)
    shown = cli_json(capsys, "moves", "--cgp", cgp, "--json", "--top", "8")["moves"]
    listed = board.moves(twl06, mode="top", top=8)
    assert [board.notation(m) for m in listed] == [m["move"] for m in shown]
    assert [round(m.equity, 3) for m in listed] == [round(m["equity"], 3) for m in shown]
    # the same table as passing it by hand, and not the plain score
    table = Leaves.builtin(twl06)
    assert list(board.moves(twl06, mode="top", top=8, leave=table)) == list(listed)
    assert any(m.equity != m.score for m in board.moves(twl06))


def test_leave_none_ranks_by_score(twl06: Lexicon) -> None:
    board = Board.from_cgp(MIDGAME)
    moves = board.moves(twl06, leave=None)
    scores = [m.score or 0 for m in moves]
    assert scores == sorted(scores, reverse=True)
    assert all(m.equity == m.score for m in moves)


def test_leaves_load_like_lexicon_load(twl06: Lexicon, tmp_path: Path) -> None:
    shipped = Leaves.load("TWL06")
    assert shipped is Leaves.builtin(twl06)
    assert Leaves.load("twl06") is shipped
    path = tmp_path / "mine.klv2"
    shipped.save(path)
    assert Leaves.load(path) == shipped and Leaves.load(str(path)) == shipped
    catalan = Leaves.load("CATALAN")
    assert catalan.alphabet.name == "catalan"
    for bad, words in [("NOPE", "nor a shipped table"), ("TWL06.klv2", "no such file")]:
        with pytest.raises(RacketyError, match=words) as caught:
            Leaves.load(bad)
        assert "\n" not in str(caught.value)
    with pytest.raises(RacketyError, match="alphabet english, not catalan"):
        Leaves.load("TWL06", "catalan")


def test_board_play_takes_a_move_string(twl06: Lexicon) -> None:
    board = Board.from_cgp(MIDGAME)
    for move in board.moves(twl06, mode="top", top=5, exchanges=False):
        text = board.notation(move)
        assert board.play(text) == board.play(move)
    with pytest.raises(RacketyError, match="ZZZ"):
        board.play("8A ZZZ")  # the squares are not all empty: one line, not a crash


def test_move_leave_is_letters_and_codes_are_named(twl06: Lexicon) -> None:
    board = Board.from_cgp(MIDGAME)
    for move in board.moves(twl06, mode="top", top=20):
        assert isinstance(move.leave, str) and isinstance(move.leave_codes, tuple)
        assert sorted(board.alphabet.rack(move.leave)) == sorted(move.leave_codes)
        kept = list(board.rack)
        for tile in (move.placed if move.kind == "place" else move.tiles):
            kept.remove(0 if tile & rackety.game.move.BLANK_FLAG or tile == 0 else tile)
        assert sorted(kept) == sorted(move.leave_codes)
    assert Move("8H PANDY", leave="AU").leave == "AU"


def test_game_and_board_read_moves_alike(twl06: Lexicon) -> None:
    game = rackety.Game(twl06, seed=3)
    move = game.position.moves(twl06).best()
    assert move is not None
    text = game.position.notation(move)
    assert game.parse_move(text) == game.position.parse_move(text) == move
    assert game.parse(text) == move  # the older name


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(1, 12), turns=st.integers(0, 12))
def test_counts_do_not_depend_on_the_mode(twl06: Lexicon, seed: int, n: int,
                                          turns: int) -> None:
    game = rackety.Game(twl06, seed=seed)
    for _ in range(turns):
        best = game.position.moves(twl06, mode="best").best()
        if game.over or best is None:
            break
        game.play(best, check=False)
    board = game.position
    everything = board.moves(twl06)
    counted = {m: (moves.count, moves.best_score) for m, moves in [
        ("all", everything), ("count", board.moves(twl06, mode="count")),
        ("top", board.moves(twl06, mode="top", top=n)),
        ("best", board.moves(twl06, mode="best"))]}
    placements = [m for m in everything if m.kind == "place"]
    expected = (len(placements), max((m.score for m in placements), default=None))
    assert set(counted.values()) == {expected}, counted
    top = board.moves(twl06, mode="top", top=n)
    assert len(top) == min(n, len(everything)) and list(top) == list(everything)[:n]
    assert len(board.moves(twl06, mode="best")) == min(1, len(everything))


# -------------------------------------------------------------------- reprs
GCG = "#player1 a A\n#player2 b B\n>a: ?DEIQSU 8H QI +22 22\n#note well played\n"


def _values(twl06: Lexicon) -> list[object]:
    """One or more of every public type, in the forms a user meets them: made
    from names, text, files, calls, or small data in memory."""
    board = Board.from_cgp(MIDGAME)
    moves = board.moves(twl06, mode="top", top=12)
    game = rackety.Game(twl06, seed=1)
    event = game.play(game.position.moves(twl06).best(), check=False)
    catalan = Lexicon.from_words(["L·LA", "AL", "CASA"], "catalan")
    return [
        Alphabet.load("english"), Alphabet.load("catalan"), Alphabet.load("english_super"),
        Layout.load("standard15"), Layout.load("super21"),
        *Alphabet.load("english").tiles[:3], Tile(code=1, label="A", blank_label="a", count=9,
                                                   points=1, vowel=True),
        board, Board.empty(), Board.from_cgp(f"{EMPTY} ?[NY]A/ 0/0 0", alphabet="catalan"),
        *moves, Move("exch ?AB"), Move("pass"), Move("8D CA[ny]OT", alphabet="catalan"),
        Rules(), Rules(challenge="void", variant="wordsmog"),
        twl06.hooks("QI"), Lexicon.load("TWL06"), Leaves.load("TWL06"),
        Leaves.load("CATALAN"), event,
        rackety.make_player("static", twl06).decide(game.view(), twl06),
        # handles: lists, games, records, players, what is made in memory
        moves, board.moves(twl06), board.moves(twl06, leave=None, mode="best"),
        board.moves(twl06, leave="h3", mode="count"),
        Board.empty().moves(twl06, leave=Leaves.load("TWL06"), mode="top", top=3),
        rackety.Game(twl06, seed=2), game, rackety.Game(twl06, ["ann", "bob", "cy"], seed=4,
                                                        rules=Rules(challenge="single")),
        rackety.read_gcg(GCG), rackety.GcgRecord(),
        rackety.GcgRecord(pragmata=[rackety.Pragma("title", "x")]),
        *(rackety.make_player(spec, twl06) for spec in
          ("static", "greedy", "h2", "best:1", "sim:20", "h3+endgame", "human")),
        rackety.make_player("static", twl06, name="me"), rackety.GreedyPlayer(),
        rackety.SimPlayer("h3", iterations=7), rackety.BestPlayer(0.5, plies=3),
        rackety.StaticPlayer(Leaves.load("TWL06"), "mine"),
        Lexicon.from_words(["QI", "ZA"]), Lexicon.from_words(["QI"], gaddag=False, name="q"),
        catalan, Board.from_cgp(f"{EMPTY} ALL·L/ 0/0 0", alphabet="catalan").moves(
            catalan, leave=None),
        Leaves.from_values(Alphabet.load("english"), {"S": 8.0, "?": 25.5, "QU": -1.25}),
        Leaves.from_values("catalan", {"L·L": 1.5}),
    ]


def test_every_public_repr_evaluates_back(twl06: Lexicon) -> None:
    namespace = {name: getattr(rackety, name) for name in rackety.__all__}
    for value in _values(twl06):
        text = repr(value)
        assert not text.startswith("<"), text
        again = eval(text, namespace)
        assert again == value, text
        assert type(again) is type(value)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), turns=st.integers(0, 30))
def test_a_game_evaluated_back_goes_on_as_the_game(twl06: Lexicon, seed: int,
                                                    turns: int) -> None:
    namespace = {name: getattr(rackety, name) for name in rackety.__all__}
    game = rackety.Game(twl06, seed=seed)
    for _ in range(turns):
        if game.over:
            break
        if game.events and game.events[-1].kind == "play" and seed % 3 == 0:
            game.challenge()  # a challenge in vain: a bonus event
        game.play(game.position.moves(twl06, mode="best").best(), check=False)
    again = eval(repr(game), namespace)
    assert again == game and repr(again) == repr(game)
    for _ in range(3):  # the same bag in the same order, the same shuffle
        if game.over:
            break
        move = game.position.moves(twl06, mode="best").best()
        game.play(move, check=False)
        again.play(move, check=False)
        assert again == game and again.racks == game.racks


def test_equal_handles_are_made_by_equal_calls(twl06: Lexicon) -> None:
    board = Board.from_cgp(MIDGAME)
    assert board.moves(twl06, mode="top", top=3) != board.moves(twl06, mode="top", top=4)
    assert rackety.make_player("h2", twl06) != rackety.make_player("h3", twl06)
    assert rackety.make_player("h2", twl06) == rackety.make_player("h2", twl06)
    one, two = rackety.Game(twl06, seed=5), rackety.Game(twl06, seed=5)
    assert one == two
    two.play(two.position.moves(twl06).best(), check=False)
    assert one != two
    assert rackety.Game(twl06, seed=5) != rackety.Game(twl06, seed=6)


def test_what_has_no_expression_says_so_in_angle_brackets(twl06: Lexicon) -> None:
    # a function, and what is made in memory from more than numpy's 1,000 entries
    words = [a + b + c for a in "ABCDEFGHIJ" for b in "AEIOU" for c in "BCDFGHJKLMNPQRSTVWXYZ"]
    big = Lexicon.from_words(words)
    things = [Board.from_cgp(MIDGAME).moves(twl06, leave=lambda leave: 0.0), big,
              rackety.Game(big, seed=1), rackety.make_player("static", big),
              Leaves.from_values("english", {"".join(leave): 1.0 for leave in islice(
                  combinations_with_replacement("ABCDEFGHIJKLMNOPQRSTUVWXYZ?", 3), 1001)})]
    for thing in things:
        assert repr(thing).startswith("<") and repr(thing).endswith(">"), repr(thing)
        assert thing == thing
    assert "moves" in repr(things[0]) and "1,050 words" in repr(big)


def test_equities_are_rounded_in_reprs(twl06: Lexicon) -> None:
    moves = Board.from_cgp(MIDGAME).moves(twl06, mode="top", top=12)
    for move in moves:
        shown = repr(move).split("equity=")[1].rstrip(")")
        assert len(shown.split(".")[1]) <= 2, repr(move)


def test_exports_are_what_users_hold() -> None:
    for name in ("MoveList", "Event", "GcgRecord", "read_gcg", "write_gcg", "save_gcg",
                 "make_player", "Player", "StaticPlayer", "BestPlayer", "Decision"):
        assert name in rackety.__all__ and getattr(rackety, name) is not None
    assert set(rackety.__all__) <= set(dir(rackety))
    with pytest.raises(AttributeError):
        rackety.nothing_here  # noqa: B018


def test_dataclass_reprs_name_every_field() -> None:
    # a value type's repr shows all it compares on, so the eval above is fair
    for value in (Rules(), Alphabet.load("english").tiles[1]):
        assert is_dataclass(value)
        text = repr(value)
        assert all(f.name in text for f in fields(value) if f.repr and f.compare)


def test_importing_rackety_stays_light() -> None:
    # what is exported lazily is loaded on first use, not by `import rackety`
    # (the start-up time is measured in docs/MEASUREMENTS.md, not here)
    import subprocess
    import sys

    heavy = ("numba", "rackety.game.movegen", "rackety.players", "rackety.game.gcg",
             "rackety.search.judge", "fastapi", "click")
    code = f"import sys, rackety; print([m for m in {heavy!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"


def test_the_players_are_described_in_one_place(twl06: Lexicon) -> None:
    from rackety.frontends.web.service import LEVELS
    from rackety.players.registry import PLAYER_LABELS, PLAYER_SPECS

    assert LEVELS is PLAYER_LABELS  # the web app's menu is the registry's
    for spec in PLAYER_LABELS:
        assert spec in PLAYER_SPECS
        assert rackety.make_player(spec, twl06) is not None
