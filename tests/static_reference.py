"""Full static equity in plain Python, straight from its definition (MAGPIE's
``static_eval.h``), for the tests to hold the kernels to: score, plus the
leave's value while tiles are in the bag; once the bag is empty, twice the
other racks' points for going out, else minus twice the points kept and 10;
and on the opening, 0.35 points per multiplier step of every premium square
beside a vowel the move places on the start lane."""

from __future__ import annotations

from collections.abc import Callable

from rackety import Board, Move


def opening_penalty(board: Board, move: Move) -> float:
    """What an opening's vowels beside premium squares cost (0 off the opening)."""
    if not board.is_empty or move.kind != "place":
        return 0.0
    alphabet = board.alphabet
    lm, wm = board.layout.letter_mult, board.layout.word_mult
    n = board.size
    row, col = board.layout.start
    if (move.down and move.col != col) or (not move.down and move.row != row):
        return 0.0
    cost = 0.0
    for i, (code, through) in enumerate(zip(move.tiles, move.through, strict=True)):
        letter = code & 0x3F
        if through or letter == 0 or not alphabet.tiles[letter].vowel:
            continue
        r, c = (move.row + i, move.col) if move.down else (move.row, move.col + i)
        for br, bc in ([(r, c - 1), (r, c + 1)] if move.down else [(r - 1, c), (r + 1, c)]):
            if 0 <= br < n and 0 <= bc < n:
                cost += 0.35 * (max(0, int(lm[br][bc]) - 1) + max(0, int(wm[br][bc]) - 1))
    return -cost


def static_equity(board: Board, move: Move, kept: tuple[int, ...],
                  leave_value: Callable[[tuple[int, ...]], float]) -> float:
    """The full static equity of ``move`` (its score by `Board.score`) keeping
    ``kept`` (tile codes), with ``leave_value`` the table's value of a leave."""
    points = {t.code: t.points for t in board.alphabet.tiles}
    score = board.score(move) if move.kind == "place" else 0
    equity = score + opening_penalty(board, move)
    if board.bag_count > 0:
        return equity + leave_value(kept)
    if kept:
        return equity - 2.0 * sum(points[c] for c in kept) - 10.0
    on_board = sum(points[g] for g in (int(x) for x in board.grid.ravel()) if g and g < 0x80)
    total = sum(t.points * t.count for t in board.alphabet.tiles)
    mine = sum(points[c] for c in board.rack)
    return equity + 2.0 * (total - on_board - mine)
