"""Opponent-rack inference: what a player kept, given the play they made.

The method is MAGPIE's (``src/impl/inference.c``) and Macondo's (its
``infer`` command): a player who plays well makes, from most racks, a play of
high static equity; so the racks the play is consistent with, weighed by how
likely each was to be drawn, say what the player kept.

The observer is the next player, who sees the board and their own rack (the
position's other racks, when the CGP gives them) and not the player's rack
(the position's rack to move, when given, holds tiles known to be on it:
after a lost challenge, say). So:

- **Pool.** The unseen tiles: the distribution less the board and every
  rack the position gives (`rackety.game.board.Board.unseen`). The player's
  rack is the known tiles plus tiles drawn from the pool, ``rack size`` tiles
  in all (fewer when the pool and the known tiles hold fewer). The bag then
  holds the rest of the pool, less a full rack for each other player whose
  rack is not given (as `Board.bag_count` counts).
- **Racks.** A placement's tiles (a blank as a blank) came off the rack, so
  the racks considered are every multiset drawable from the pool that, with
  the known tiles, holds the tiles played; an exchange's tiles are unseen, so
  for an exchange of n tiles every drawable rack is considered.
- **Weights.** A rack's weight is the number of ways to draw its unknown part
  from the pool, the product over tiles of C(copies in the pool, copies
  drawn): the multivariate hypergeometric probability of the draw, so the
  normalised weights of the consistent racks are the posterior probability of
  each rack given the play (Bayes, with the static player's choice as the
  likelihood, 1 or 0). (MAGPIE counts the ways to draw the leave from the pool
  less the tiles played, C(copies - played, kept), which is the posterior only
  when the tiles played were known to be drawn beforehand; with the pool
  AAABBB, a rack of two and the play A, the rack AA is drawn with
  probability 3/15 and AB with 9/15, so P(kept A | played A) = 3/12, not
  MAGPIE's 2/5.)
- **Consistency.** For a placement, a rack is kept when the play's static
  equity (score plus the value of the tiles kept, as the static player counts
  it) is at least the rack's best static equity (the decision of the static
  player, `rackety.players.static.static_decision`: placements and, when the
  bag allows, exchanges) minus ``margin``; ties count, and so does the
  decision being the play itself. For an exchange of n tiles, the player is
  taken to keep the best leave of ``rack size - n`` tiles; the rack is kept
  when that exchange's equity (the leave's value) is at least the rack's best
  static equity minus ``margin``. With ``margin`` 0: exactly the racks from
  which the static player makes this play (or one of equal equity).
- **Result.** The distribution over the tiles kept (the rack less the tiles
  played, or the leave kept in an exchange), the racks considered and
  consistent, and for each letter the probability that the player kept at
  least one.

Every rack's decision is one call of the static players' kernel
(`rackety.kernels.selfplay.decide`) on the position as a game state with the
rack swapped in, in a compiled loop (`rackety.kernels.inference.evaluate`).
"""

from __future__ import annotations

import copy
import math
import os
import re
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from rackety.alphabet import BLANK_FLAG
from rackety.errors import RacketyError, clip
from rackety.game.board import Board
from rackety.game.heuristics import leave_label, leave_model
from rackety.game.leaves import Bank, as_table
from rackety.game.move import Move, format_leave
from rackety.game.movegen import MoveGenerator, Work, generate, variant_lexicon
from rackety.game.referee import formed_words
from rackety.game.state import board_consts, rows_of, state_of
from rackety.kernels import inference as _ki
from rackety.kernels.fields import GS_BAG, META
from rackety.search.control import clock

if TYPE_CHECKING:
    from rackety.alphabet import Alphabet
    from rackety.lexicon import Lexicon

#: racks evaluated per call of the kernel (and per progress report)
CHUNK = 2048
#: how many racks `infer` considers by default before it refuses (about a
#: minute's work on one core)
MAX_RACKS = 2_000_000
_EXCHANGE_COUNT = re.compile(r"\(?\s*(?:exch(?:ange)?\s+|-\s*)(\d{1,3})\s*\)?", re.IGNORECASE)


@dataclass
class Inference:
    """What `infer` found: the tiles the player kept (``leaves``, text, and
    ``kept``, codes; likeliest first, probabilities summing to 1 when any rack
    is consistent), how many racks it considered and found consistent (and
    how many needed the static player's decision: ``decided``), the
    share of the draw probability those hold (``consistent_probability``:
    how often, before the play, the player would have held a rack from which
    they make it), the pool the racks came from (``unseen``), the tiles known
    to be on the rack, the play (``played`` tiles, or ``exchanged`` tiles),
    the ``margin``, the leave model, and per letter the probability that the
    player kept at least one (``letters``)."""

    move: str
    leaves: list[tuple[str, float]]
    kept: list[tuple[tuple[int, ...], float]]
    racks: int
    consistent: int
    consistent_probability: float
    decided: int
    unseen: tuple[int, ...]
    known: tuple[int, ...]
    played: tuple[int, ...]
    exchanged: int
    rack_size: int
    margin: float
    leave_model: str
    letters: dict[str, float]
    seconds: float
    alphabet: Alphabet = field(repr=False)
    play: Move | None = field(default=None, repr=False)  # the placement, as generated

    @property
    def racks_per_second(self) -> float:
        return self.racks / self.seconds if self.seconds > 0 else 0.0


def parse_play(board: Board, move: Move | str) -> tuple[Move | None, int]:
    """The play to infer from: a placement (the `Move`, 0), or an exchange's
    count (None, n): ``exchange 3``, ``-3`` or ``(exch 3)``, or an exchange
    written with its tiles (only their number counts: the observer does not
    see them). A pass is refused: it keeps every tile and tells nothing."""
    if isinstance(move, str):
        found = _EXCHANGE_COUNT.fullmatch(move.strip())
        if found:
            count = int(found.group(1))
            if not 1 <= count <= board.alphabet.rack_size:
                raise RacketyError(f"move {clip(move.strip())!r}: an exchange of 1 to "
                                   f"{board.alphabet.rack_size} tiles")
            return None, count
        move = board.parse_move(move)
    if not isinstance(move, Move):
        raise RacketyError(f"move {move!r}: a move is text or a Move")
    if move.kind == "pass":
        raise RacketyError("a pass keeps every tile: there is nothing to infer from it")
    if move.kind == "exchange":
        if not move.tiles:
            raise RacketyError("an exchange needs at least one tile")
        return None, len(move.tiles)
    return move, 0


def infer(position: Board | str, lexicon: Lexicon, move: Move | str, *, margin: float = 0.0,
          leave: str | Any = "static", max_racks: int | None = MAX_RACKS,
          jobs: int | None = 1, progress: Callable[[int, int], None] | None = None
          ) -> Inference:
    """The tiles the player to move of ``position`` kept when they made
    ``move`` (a placement, or an exchange of n tiles: ``exchange 3``), by the
    method of the module docstring: every rack the unseen tiles allow,
    weighted by its draw probability, kept when the play is within ``margin``
    of that rack's best static equity under ``leave`` (a leave spec,
    ``static`` by default: the lexicon's shipped table, H3 where there is
    none; or a leave model). Refuses more than ``max_racks`` racks (None: no
    limit). ``jobs`` threads share the racks (None: one per core; the result
    is the same); ``progress(done, total)`` hears after every batch."""
    t0 = clock()
    board = Board.from_cgp(position) if isinstance(position, str) else position
    alphabet = board.alphabet
    if lexicon.alphabet.identity != alphabet.identity:
        raise RacketyError(f"lexicon {lexicon.name} is in alphabet {lexicon.alphabet.name}, "
                           f"the position in {alphabet.name}")
    if not lexicon.has_gaddag and board.rules.variant == "classic":
        raise RacketyError(f"lexicon {lexicon.name} has no GADDAG: the static player's "
                           "decision needs one")
    if not isinstance(margin, int | float) or not math.isfinite(margin) or \
            not 0 <= margin <= 1000:
        raise RacketyError(f"margin {margin!r}: a number of points from 0 to 1000")
    rack_size = alphabet.rack_size
    if alphabet.size > 63 or rack_size > 10:
        raise RacketyError(f"alphabet {alphabet.name}: inference handles at most 63 tile codes "
                           "and racks of at most 10 tiles")
    model = leave_model(leave, lexicon) if isinstance(leave, str) else leave
    if model is None:
        raise RacketyError("inference needs a leave model (static, h1, h2, h3 or a table): "
                           "the static player's equity is score plus leave")
    table = as_table(model, alphabet)
    play, exchanged = parse_play(board, move)
    known = tuple(board.rack)
    others = [tuple(r) for r in board.racks[1:]]
    unseen = board.unseen()
    pool = np.zeros(64, np.int64)
    pool[:len(unseen)] = unseen
    size = min(rack_size, len(known) + int(pool.sum()))
    if len(known) > rack_size:
        raise RacketyError(f"the player's rack holds {len(known)} tiles, more than a rack")
    known_counts = _counts(known)
    need = np.zeros(64, np.int64)
    played: tuple[int, ...] = ()
    if play is not None:
        played = tuple(sorted(0 if t & BLANK_FLAG else t for t in play.placed))
        for c, k in Counter(played).items():
            need[c] = max(0, k - known_counts[c])
        short = need > pool
        if short.any():
            code = int(np.flatnonzero(short)[0])
            raise RacketyError(f"move {board.notation(play)!r}: it plays "
                               f"{int(need[code] + known_counts[code])} "
                               f"{alphabet.format([code])}, and only {int(pool[code])} more "
                               "are unseen")
        if len(known) + int(need.sum()) > size:
            raise RacketyError(f"move {board.notation(play)!r}: its tiles and the tiles known "
                               f"to be on the rack are more than the {size} the rack holds")
        play = _legal(board, lexicon, play, played, others)
    reserve = rack_size * sum(1 for r in others if not r)
    bag = max(0, int(pool.sum()) - (size - len(known)) - reserve)
    if exchanged:
        if not board.rules.may_exchange(bag, exchanged):  # a trade takes no more than the bag
            raise RacketyError(f"no exchange of {exchanged} tiles with {bag} tiles in the bag "
                               f"(it needs {max(board.rules.exchange_min_bag or 0, exchanged)})")
        if exchanged > size:
            raise RacketyError(f"an exchange of {exchanged} tiles from a rack of {size}")
    drawn = size - len(known) - int(need.sum())
    avail = pool - need
    count = int(_ki.draws(avail, drawn, False, np.zeros((0, max(drawn, 1)), np.uint8)))
    if max_racks is not None and count > max_racks:
        raise RacketyError(f"{count:,} racks to consider, more than the {max_racks:,} allowed")
    rows = np.zeros((count, drawn), np.uint8)
    _ki.draws(avail, drawn, True, rows)
    first_rack = _rack_of(known_counts + need, rows[0])
    graph = variant_lexicon(lexicon, board.rules.variant)  # WordSmog's: the alphagrams
    gs = state_of(board.copy(racks=[first_rack, *others]),
                  MoveGenerator.of(graph).cross_sets(board))
    gs.ints[GS_BAG] = bag
    other_seat = -1
    if bag == 0:  # the last tiles: a seat whose rack is not given holds the rest
        other_seat = next((s for s, r in enumerate(others, 1) if not r), -1)
    bank = Bank([table])
    args = _Args(graph, board, gs, (bank.nodes, bank.counts, bank.values),
                 Work(board.size, rack_size, lexicon=lexicon).arrays, known_counts, need, pool,
                 rows, _counts(played), play, exchanged, float(margin), other_seat)
    if play is not None:
        args.score = int(play.score or 0)
        # the play's equity apart from score and leave (the opening's vowel
        # placement, say): what the generator gives it on the first rack less
        # what the kernel reads for it there
        board_first = board.copy(racks=[first_rack, *others])
        listed = generate(board_first, lexicon, mode="all", leave=model)
        target = _key(play)
        equity = next(m.equity for m in listed if m.kind == "place" and _key(m) == target)
        probe = args.run(0, 1)
        args.offset = float(equity or 0.0) - float(probe[4][0])
        args.decided[0] = 0
    total, keys, weights = _run(args, board, lexicon, count, jobs, progress)
    kept = _distribution(keys, weights, rack_size)
    texts = [(format_leave(alphabet, codes), p) for codes, p in kept]
    letters: dict[int, float] = {}
    for codes, p in kept:
        for c in set(codes):
            letters[c] = letters.get(c, 0.0) + p
    label = {c: alphabet.format([c]) for c in letters}
    mass = float(weights.sum())
    return Inference(
        move=(board.notation(play) if play is not None else f"exchange {exchanged}"),
        leaves=texts, kept=kept, racks=count, consistent=len(keys),
        consistent_probability=mass / total if total > 0 else 0.0, decided=args.decided[0],
        unseen=tuple(c for c in range(64) for _ in range(int(pool[c]))),
        known=tuple(sorted(known)), played=played, exchanged=exchanged, rack_size=size,
        margin=float(margin), leave_model=leave_label(model, lexicon),
        letters={label[c]: min(1.0, p) for c, p in sorted(letters.items())},
        seconds=clock() - t0, alphabet=alphabet, play=play)


def position_after(board: Board, inference: Inference) -> Board:
    """The position after the play inferred from, as the observer sees it: the
    play on the board, the turn passed on, the player's rack unknown (an
    exchange's tiles were never seen: it passes the turn as a pass does)."""
    hidden = board.copy(racks=[(), *board.racks[1:]])
    move = inference.play if inference.play is not None else \
        Move("pass", alphabet=board.alphabet)
    return hidden.play(move)


def _run(args: _Args, board: Board, lexicon: Lexicon, count: int, jobs: int | None,
         progress: Callable[[int, int], None] | None) -> tuple[float, np.ndarray, np.ndarray]:
    """Every rack, in batches of `CHUNK` shared by ``jobs`` threads (the
    kernel runs without the GIL), in order: the weight of all of them, and
    the kept tiles' keys and the weights of the consistent ones."""
    chunks = [(a, min(count, a + CHUNK)) for a in range(0, count, CHUNK)]
    results: list[tuple[float, np.ndarray, np.ndarray]] = [(0.0, _NO_KEYS, _NO_WEIGHTS)] * \
        len(chunks)
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(chunks)))
    free = [args] + [args.fork(board, lexicon) for _ in range(jobs - 1)]
    lock = threading.Lock()
    done = 0

    def batch(i: int) -> None:
        nonlocal done
        with lock:
            worker = free.pop()
        try:
            weight, ok, key, _best, _equity = worker.run(*chunks[i])
        finally:
            with lock:
                free.append(worker)
        results[i] = (float(weight.sum()), key[ok], weight[ok])
        with lock:
            done += chunks[i][1] - chunks[i][0]
            if progress is not None:
                progress(done, count)

    if jobs == 1:
        for i in range(len(chunks)):
            batch(i)
    else:
        with ThreadPoolExecutor(jobs) as threads:
            list(threads.map(batch, range(len(chunks))))
    return (sum(r[0] for r in results), np.concatenate([r[1] for r in results]),
            np.concatenate([r[2] for r in results]))


def _distribution(keys: np.ndarray, weights: np.ndarray, rack_size: int
                  ) -> list[tuple[tuple[int, ...], float]]:
    """The tiles kept (from their keys) and their probabilities, likeliest
    first (then by the tiles)."""
    mass = float(weights.sum())
    if not len(keys) or mass <= 0:
        return []
    unique, inverse = np.unique(keys, return_inverse=True)
    sums = np.bincount(inverse, weights=weights)
    kept = [(_decode(int(k), rack_size), float(w) / mass)
            for k, w in zip(unique.tolist(), sums.tolist(), strict=True)]
    kept.sort(key=lambda item: (-item[1], item[0]))
    return kept


_NO_KEYS = np.zeros(0, np.int64)
_NO_WEIGHTS = np.zeros(0)


class _Args:
    """What the kernel needs for every batch of racks (``graph``: the lexicon
    of the rules' variant, `rackety.game.movegen.variant_lexicon`)."""

    def __init__(self, graph: Lexicon, board: Board, gs: Any, bank: tuple[np.ndarray, ...],
                 work: tuple[Any, ...], known: np.ndarray, need: np.ndarray, pool: np.ndarray,
                 rows: np.ndarray, played: np.ndarray, play: Move | None, exchanged: int,
                 margin: float, other_seat: int) -> None:
        self.graph, self.consts, self.gs, self.bank, self.work = \
            graph, board_consts(board), gs, bank, work
        self.known, self.need, self.pool, self.rows, self.played = known, need, pool, rows, played
        if play is not None:
            self.meta, self.tiles = rows_of([play], board.size)
        else:
            self.meta = np.zeros((1, META), np.int32)
            self.tiles = np.zeros((1, board.size), np.uint8)
        self.exchanged, self.margin, self.other_seat = exchanged, margin, other_seat
        self.score = 0
        self.offset = 0.0
        self.decided = [0]  # racks that needed the static player's decision, in all
        self.lock = threading.Lock()

    def run(self, first: int, last: int) -> tuple[np.ndarray, ...]:
        """Racks ``first`` to ``last - 1``: (weight, ok, key, best, equity)."""
        n = last - first
        weight, best, equity = np.zeros(n), np.zeros(n), np.zeros(n)
        ok = np.zeros(n, np.bool_)
        key = np.zeros(n, np.int64)
        decided = _ki.evaluate(
            self.graph.nodes, self.consts, self.gs, self.bank, self.work,
            _ki.Racks(self.known, self.need, self.pool, self.rows),
            _ki.Play(self.played, self.meta, self.tiles, self.score, self.offset, self.exchanged,
                     self.margin, self.other_seat), first, last,
            _ki.Verdicts(weight, ok, key, best, equity))
        with self.lock:
            self.decided[0] += decided
        return weight, ok, key, best, equity

    def fork(self, board: Board, lexicon: Lexicon) -> _Args:
        """The same job with a game state and buffers of its own (another
        thread's), sharing the racks and the count of decisions."""
        other = copy.copy(self)
        other.gs = self.gs.copy()
        other.work = Work(board.size, board.alphabet.rack_size, lexicon=lexicon).arrays
        return other


def _counts(codes: Sequence[int]) -> np.ndarray:
    out = np.zeros(64, np.int64)
    for c in codes:
        out[int(c)] += 1
    return out


def _rack_of(counts: np.ndarray, row: np.ndarray) -> tuple[int, ...]:
    """The rack of ``counts`` plus the tiles of ``row``, codes ascending."""
    total = counts.copy()
    for c in row.tolist():
        total[c] += 1
    return tuple(c for c in range(64) for _ in range(int(total[c])))


def _decode(key: int, length: int) -> tuple[int, ...]:
    """The codes of a `rackety.kernels.leaves.leave_key`."""
    out = []
    for i in range(length - 1, -1, -1):
        digit = (key >> (6 * i)) & 63
        if digit:
            out.append(digit - 1)
    return tuple(out)


def _key(move: Move) -> frozenset[tuple[tuple[int, int], int]]:
    """A placement by its tiles placed and their squares (a one-tile play is the
    same written either way)."""
    return frozenset(zip(move.placed_squares(), move.placed, strict=True))


def _legal(board: Board, lexicon: Lexicon, play: Move, played: tuple[int, ...],
           others: list[tuple[int, ...]]) -> Move:
    """The placement as the generator lists it for a rack of the tiles played
    (its score, its direction when it places one tile), or the reason it is
    not a legal play."""
    where = f"move {board.notation(play)!r}"
    board.check_shape(play)
    if play.n_placed > board.alphabet.rack_size:
        raise RacketyError(f"{where}: places {play.n_placed} tiles, more than a rack")
    listed = generate(board.copy(racks=[played, *others]), lexicon, mode="all")
    target = _key(play)
    for m in listed:
        if m.kind == "place" and _key(m) == target:
            return m
    words = formed_words(board.grid, play.placed_squares(), play.placed)
    wordsmog = board.rules.variant == "wordsmog"
    phonies = [board.alphabet.format(w) for w in words
               if not (lexicon.has_anagram(w) if wordsmog else w in lexicon)]
    if phonies:
        what = "an anagram of a word in" if wordsmog else "in"
        raise RacketyError(f"{where}: {', '.join(phonies)} not {what} {lexicon.name}")
    if board.is_empty:
        raise RacketyError(f"{where}: the first play must cover the start square and form a "
                           "word")
    raise RacketyError(f"{where}: not a legal play here (it must touch a tile and form words)")


__all__ = ["CHUNK", "MAX_RACKS", "Inference", "infer", "parse_play", "position_after"]
