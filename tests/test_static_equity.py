"""Full static equity (`rackety.kernels.generate.static_equity`): every move the
generator lists, on openings, mid-game and empty-bag positions, has the equity
its definition gives (`static_reference`, plain Python), and the static
players maximise it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from static_reference import opening_penalty, static_equity

from rackety import Board, Game, Lexicon
from rackety.game.movegen import static_note
from rackety.lexicon.klv import Klv
from rackety.players import make_player
from rackety.players.static import StaticPlayer

EMPTY = "/".join(["15"] * 15)


def positions(lexicon: Lexicon, seed: int) -> list[Board]:
    """The positions of one game of the greedy player, as its player to move
    sees them (the opponent's rack unknown), from the opening to the last
    move."""
    game = Game(lexicon, ["a", "b"], seed=seed)
    player = make_player("greedy", lexicon)
    seen = []
    while not game.over:
        view = game.view()
        seen.append(view)
        game.play(player.choose(view, lexicon))
    return seen


def klv(seed: int) -> Klv:
    rng = random.Random(seed)
    values = {}
    for _ in range(400):
        leave = "".join(sorted(rng.choice("AEIOUSTRNLQZ?") for _ in range(rng.randint(1, 3))))
        values[leave.replace("?", "") + "?" * leave.count("?")] = rng.uniform(-15, 25)
    return Klv.from_values("english", values)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_every_move_has_its_full_static_equity(twl06: Lexicon, seed: int) -> None:
    table = klv(seed)
    seen = positions(twl06, seed)
    rng = random.Random(seed)
    empty_bag = [b for b in seen if b.bag_count == 0]
    assert seen[0].is_empty and empty_bag  # a game has both
    picks = [seen[0], rng.choice(seen[1:]), *empty_bag[:2]]
    for board in picks:
        moves = board.moves(twl06, leave=table)
        for move in moves:
            kept = move.leave_codes or ()
            expected = static_equity(board, move, kept, table.value)
            assert move.equity == pytest.approx(expected, abs=1e-4), \
                (board.cgp(), board.notation(move))
        plain = board.moves(twl06, leave=table, static=False)
        assert [round(m.equity - m.score - table.value(m.leave_codes or ()), 4)
                for m in plain] == [0.0] * len(plain)


def test_the_opening_charges_vowels_beside_premium_squares(twl06: Lexicon) -> None:
    board = Board.from_cgp(f"{EMPTY} AADNPUY/ 0/0 0")
    moves = {board.notation(m): m for m in board.moves(twl06, leave=klv(1))}
    # 8H PANDY puts A on I8, between the double letters of I7 and I9; 8D PANDY
    # puts its vowel A on E8, beside no premium square
    assert opening_penalty(board, moves["8H PANDY"]) == pytest.approx(-0.7)
    assert opening_penalty(board, moves["8D PANDY"]) == 0.0
    assert moves["8H PANDY"].equity - moves["8D PANDY"].equity == pytest.approx(30 - 28 - 0.7)
    assert "vowel" in (static_note(board) or "")


def test_the_static_player_plays_the_endgame_by_rack_points(twl06: Lexicon) -> None:
    """With the bag empty the static player takes the best full static equity,
    and in some positions that is not the move the table alone would pick."""
    changed = 0
    for seed in range(12):
        table = klv(seed)
        player = StaticPlayer(table)
        for board in positions(twl06, seed):
            if board.bag_count or not board.rack:
                continue
            chosen = player.choose(board, twl06)
            assert chosen.equity == max(m.equity for m in board.moves(twl06, leave=table))
            plain = board.moves(twl06, leave=table, static=False, mode="best").best()
            changed += plain is not None and board.notation(plain) != board.notation(chosen)
    assert changed > 0
