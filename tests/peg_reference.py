"""A plain expectimax-over-minimax for pre-endgames, for testing
`rackety.search.preendgame` on tiny positions (tests/endgame_reference.py's
alphabet, layout and words: racks of three).

It knows the rules and nothing of the solver: for a candidate, every ordered
way the unseen tiles can lie (the bag's tiles in the order they are drawn, the
opponent holding the rest), each weighted by the number of ways the tiles'
copies give it; in each, the candidate is played, the mover draws, and the rest
of the game is a plain minimax with full information over every placement
(`Board.moves`) and the pass: a placement draws from the end of the bag, one
that empties the rack with the bag empty ends the game and gains twice the
opponent's rack, and six scoreless turns in a row end it with each player
losing their own rack (the referee's rules, not the solvers' two-pass
shortcut). No pruning, a dictionary of positions already valued.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from endgame_reference import LETTERS, face, tiny_alphabet

from rackety import Board, Lexicon, Move

MAX_SCORELESS = 6


def with_unseen(board: Board, unseen: tuple[int, ...]) -> Board:
    """The same position in an alphabet whose tiles are exactly those on the
    board, the racks and ``unseen`` (codes of ``board``'s alphabet), so that
    ``unseen`` is what the mover does not see."""
    alphabet = board.alphabet
    counts: dict[str, int] = {c: 0 for c in LETTERS}
    blanks = 0
    codes = [int(x) for x in board.grid.ravel() if x] + [c for r in board.racks for c in r]
    for code in codes + list(unseen):
        if code == 0 or code & 0x80:
            blanks += 1
        else:
            counts[alphabet.tiles[code].label] += 1
    return Board.from_cgp(board.cgp(), alphabet=tiny_alphabet(counts, blanks),
                          layout=board.layout)


def _draw(rack: tuple[int, ...], bag: tuple[int, ...], size: int
          ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Fill ``rack`` from the end of ``bag``: (rack, bag)."""
    n = min(len(bag), max(0, size - len(rack)))
    return rack + tuple(reversed(bag[len(bag) - n:])), bag[:len(bag) - n]


def value(board: Board, lexicon: Lexicon, bag: tuple[int, ...], zero: int,
          memo: dict[Any, int], passes: bool = True) -> int:
    """The change in spread to the end of the game for the player to move on
    ``board`` (both racks known), ``bag`` drawn from the end, after ``zero``
    scoreless turns in a row, under best play by both with full information
    (``passes`` False: this player may not pass now, if it has a placement)."""
    mine, theirs = board.racks
    key = (board.grid.tobytes(), tuple(sorted(mine)), tuple(sorted(theirs)), bag, zero)
    if passes and key in memo:
        return memo[key]
    size = board.alphabet.rack_size
    values = []
    for move, played in _placements(board, lexicon, memo):
        rack, rest = _draw(played.racks[1], bag, size)  # racks rotate: the mover's is last
        if not rack and not rest:
            values.append(move.score + 2 * face(board, theirs))
            continue
        after = played.copy(racks=[theirs, rack])
        values.append(move.score - value(after, lexicon, rest, 0, memo))
    if passes or not values:
        if zero + 1 >= MAX_SCORELESS:
            values.append(face(board, theirs) - face(board, mine))
        else:
            values.append(-value(board.play(Move("pass", score=0)), lexicon, bag, zero + 1,
                                 memo))
    if not passes:
        return max(values)
    memo[key] = max(values)
    return memo[key]


def _placements(board: Board, lexicon: Lexicon, memo: dict[Any, Any]
                ) -> list[tuple[Move, Board]]:
    """Every placement of the player to move and the board after it, which
    depend on the tiles and this player's rack only: made once per those in
    ``memo`` (the boards after are read, not changed)."""
    key = ("placements", board.grid.tobytes(), tuple(sorted(board.racks[0])))
    if key not in memo:
        memo[key] = [(move, board.play(move))
                     for move in board.moves(lexicon, exchanges=False).placements()]
    return memo[key]


def orders(pool: Counter[int], k: int) -> list[tuple[tuple[int, ...], int]]:
    """Every ordered sequence of ``k`` tiles of ``pool``, with its ways."""
    if k == 0:
        return [((), 1)]
    out = []
    for code in sorted(c for c, n in pool.items() if n):
        for tail, ways in orders(pool - Counter({code: 1}), k - 1):
            out.append(((code,) + tail, pool[code] * ways))
    return out


def candidate(board: Board, lexicon: Lexicon, move: Move, bag_size: int,
              memo: dict[Any, int], *, reply_passes: bool = True
              ) -> tuple[float, float, list[tuple[tuple[int, ...], int, int]]]:
    """``move``'s win % and expected spread change over every world, and the
    worlds: (the bag in the order drawn, ways, final spread change). The
    opponent's rack is ``board.racks[1]`` when known, else the unseen tiles
    not in the bag. ``reply_passes`` False: the opponent may not pass right
    after ``move`` (if it has a placement)."""
    unseen = Counter({c: int(n) for c, n in enumerate(board.unseen().tolist()) if n})
    known = tuple(board.racks[1])
    size = board.alphabet.rack_size
    spread0 = board.scores[0] - board.scores[1]
    rows = []
    for drawn_first, ways in orders(unseen, bag_size):
        opponent = known or tuple((unseen - Counter(drawn_first)).elements())
        bag = tuple(reversed(drawn_first))  # drawn from the end
        after = board.play(move)
        rack, rest = _draw(after.racks[1], bag, size)
        after.racks = [opponent, rack]
        change = move.score - value(after, lexicon, rest, 0, memo, reply_passes)
        rows.append((drawn_first, ways, change))
    total = sum(w for _, w, _ in rows)
    wins = sum(w * (1.0 if spread0 + c > 0 else 0.5 if spread0 + c == 0 else 0.0)
               for _, w, c in rows)
    return 100.0 * wins / total, sum(w * c for _, w, c in rows) / total, rows
