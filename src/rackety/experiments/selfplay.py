"""Whole games of computer players in one compiled call.

`rackety.experiments.autoplay` plays a game through `Game` and the players'
Python objects, which costs more than the move generation itself. Here the
whole loop runs in numba (`rackety.kernels.selfplay.play_game`) for the static
players (greedy, or any leave model, each seat its own table: Gordon's H1-H3
and KLV2 files alike become tables, `rackety.game.leaves`): the racks, the bag
and its shuffles, the choice of the move (the same rules as `GreedyPlayer` and
`StaticPlayer`, ties broken the same way), the board and the cross sets
updated lane by lane, and the end of the game, all by the rules' kernels
(`rackety.kernels.rules`), whose shuffle the referee uses too: a game played
here is the very game `autoplay.play_game` plays with the same seed and
players; a test checks that they agree event for event.

The result is a few arrays of events, turned into a `Game` (for its check, its
GCG or its statistics) by replaying them with `Game.play` only when asked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from rackety.game.leaves import Bank, as_table
from rackety.game.move import Move
from rackety.game.movegen import Work, variant_lexicon
from rackety.game.referee import Game
from rackety.game.rules import Rules
from rackety.game.state import kernel_consts, move_of_row, multipliers, points_of
from rackety.kernels.fields import M_LEN, META, Events, GameState
from rackety.kernels.selfplay import (
    EV_END_PENALTY,
    EV_END_POINTS,
    EV_EXCHANGE,
    EV_PASS,
    EV_PLAY,
    Seats,
    play_game,
)
from rackety.kernels.verify import CHECKS, Setting, check_game
from rackety.players import GreedyPlayer, StaticPlayer

if TYPE_CHECKING:
    from rackety.alphabet import Alphabet
    from rackety.lexicon import Lexicon
    from rackety.lexicon.klv import Klv

MAX_EVENTS = 1024
__all__ = ["CHECKS", "EV_END_PENALTY", "EV_END_POINTS", "EV_EXCHANGE", "EV_PASS", "EV_PLAY",
           "Compiled", "FastGame", "seat_tables"]


class FastGame:
    """The events of a game played by `play_game`, and the `Game` they make."""

    def __init__(self, n: int, seat: np.ndarray, kind: np.ndarray, score: np.ndarray,
                 best: np.ndarray, meta: np.ndarray, tiles: np.ndarray,
                 rack: np.ndarray) -> None:
        self.n = n
        self.seat = seat[:n].copy()
        self.kind = kind[:n].copy()
        self.score = score[:n].copy()
        self.best = best[:n].copy()
        self.meta = meta[:n].copy()
        self.tiles = tiles[:n].copy()
        # per turn: tiles on the rack, tiles in the bag, then the rack (`play_game`)
        self.rack = rack[:n].copy()
        self.bag0 = np.zeros(0, np.int64)  # the shuffled bag it started from
        self.rng_state = 0  # the shuffle state after the first shuffle

    def events(self) -> Events:
        """The events as the kernels take them (`play_game` wrote them)."""
        return Events(self.seat, self.kind, self.score, self.best, self.meta, self.tiles,
                      self.rack)

    def scores(self, players: int) -> list[int]:
        out = [0] * players
        for s, v in zip(self.seat.tolist(), self.score.tolist(), strict=True):
            out[s] += v
        return out

    def moves(self, alphabet: Any) -> list[Any]:
        """The turns as `Move` objects (plays, exchanges, passes), in order."""
        out = []
        for i in range(self.n):
            kind = int(self.kind[i])
            length = int(self.meta[i, M_LEN])
            if kind == EV_PLAY:
                out.append(move_of_row(self.meta[i], self.tiles[i], alphabet))
            elif kind == EV_EXCHANGE:
                out.append(Move("exchange", tiles=tuple(int(t) for t in self.tiles[i, :length]),
                                score=0, alphabet=alphabet))
            elif kind == EV_PASS:
                out.append(Move("pass", score=0, alphabet=alphabet))
        return out

    def game(self, lexicon: Lexicon, names: list[str], *, seed: int, rules: Any = None,
             layout: Any = None, alphabet: Any = None) -> Game:
        """The same game through the referee (for its check and its GCG)."""
        game = Game(lexicon, names, seed=seed, rules=rules, layout=layout, alphabet=alphabet)
        for move in self.moves(game.alphabet):
            game.play(move, check=False)
        return game


def seat_tables(players: list[Any], alphabet: Alphabet
                ) -> tuple[np.ndarray, Bank, np.ndarray, np.ndarray]:
    """Which seats are greedy, the bank of the others' leave tables, and each
    seat's table in the bank (its base and value offset; 0 for a greedy seat): any
    static player, whatever its leave model, plays from a table
    (`rackety.game.leaves.as_table`). Raises `TypeError` for a player that
    cannot play compiled."""

    greedy = np.zeros(len(players), np.int64)
    tables: list[Klv | None] = []
    for seat, player in enumerate(players):
        if isinstance(player, GreedyPlayer):
            greedy[seat] = 1
            tables.append(None)
        elif isinstance(player, StaticPlayer):
            tables.append(as_table(player.leave_model, alphabet))
        else:
            raise TypeError(f"{player!r} cannot play compiled")
    present = [t for t in tables if t is not None]
    bank = Bank(present)
    base = np.zeros(len(players), np.int64)
    voff = np.zeros(len(players), np.int64)
    k = 0
    for seat, table in enumerate(tables):
        if table is not None:
            base[seat], voff[seat] = bank.base[k], bank.voff[k]
            k += 1
    return greedy, bank, base, voff


class Compiled:
    """Everything `play_game` needs that does not change from game to game.
    With ``best_scores`` each turn's best placement score is exact (what the
    sacrifice count of a tournament needs: the search then looks at every
    anchor that may hold a higher score); without it, games are faster and
    only the events' ``best`` column is a lower bound. The players play the
    rules' variant: under WordSmog, WordSmog's moves over the lexicon's
    alphagrams (`rackety.game.movegen.variant_lexicon`), and `check` reads
    the words as anagrams."""

    def __init__(self, lexicon: Lexicon, players: list[Any], *, rules: Rules | None = None,
                 layout: Any = None, alphabet: Any = None, best_scores: bool = True) -> None:
        self.best_scores = best_scores
        probe = Game(lexicon, [f"p{i}" for i in range(len(players))], seed=0, rules=rules,
                     layout=layout, alphabet=alphabet)
        self.rules = probe.rules  # resolved for the game's tiles
        # the graph the kernels walk: the words, or under WordSmog their alphagrams
        self.graph = variant_lexicon(lexicon, self.rules.variant)
        self.alphabet = probe.alphabet
        board = probe.position
        lay = board.layout
        self.lexicon = lexicon
        self.layout = layout
        self.lm2, self.wm2 = multipliers(lay)
        self.points = points_of(self.alphabet)
        self.start = lay.start
        self.bingo = self.rules.bingo_bonus or 0  # resolved: never None
        self.exchange_min = self.rules.exchange_min_bag or 0
        self.twice = self.rules.twice(len(players))
        self.consts = kernel_consts(self.alphabet, lay, self.rules, players=len(players))
        self.greedy, bank, self.base, self.voff = seat_tables(players, self.alphabet)
        self.bank = (bank.nodes, bank.counts, bank.values)
        self.seats = Seats(self.greedy, self.base, self.voff, self.bank)
        width = lay.size
        self.buffers = Events(np.zeros(MAX_EVENTS, np.int64), np.zeros(MAX_EVENTS, np.int64),
                              np.zeros(MAX_EVENTS, np.int64), np.zeros(MAX_EVENTS, np.int64),
                              np.zeros((MAX_EVENTS, META), np.int64),
                              np.zeros((MAX_EVENTS, max(width, 4 * self.alphabet.rack_size)),
                                       np.int64),
                              np.zeros((MAX_EVENTS, 2 + self.alphabet.rack_size), np.int64))
        self.work = Work(width, self.alphabet.rack_size, lexicon=lexicon)
        self.n_players = len(players)
        self.distribution = np.zeros(64, np.int64)
        for tile in self.alphabet.tiles:
            self.distribution[tile.code] = tile.count
        self.state = GameState.allocate(width, len(players), int(self.distribution.sum()))

    def play(self, seed: int) -> FastGame:
        """One game from the bag of ``seed``."""
        bag, state = Game.shuffled_bag(self.alphabet, seed)
        n = play_game(self.graph.nodes, self.graph.graph, self.consts, self.state,
                      bag, np.uint64(state), self.seats, self.buffers, self.work.arrays,
                      self.best_scores)
        if n < 0:
            raise RuntimeError(f"game with seed {seed}: more than {MAX_EVENTS} events")
        seat, kind, score, best, meta, words, racks = self.buffers
        game = FastGame(n, seat, kind, score, best, meta, words, racks)
        game.bag0 = bag
        game.rng_state = state
        return game

    def check(self, game: FastGame) -> str | None:
        """What is wrong with a game (the independent checker,
        `rackety.kernels.verify.check_game`), or None."""
        lay_lm, lay_wm = self.lm2[0], self.wm2[0]
        setting = Setting(lay_lm, lay_wm, self.points, self.start[0], self.start[1],
                          self.alphabet.rack_size, self.bingo, self.exchange_min, self.twice,
                          self.distribution, self.n_players, self.rules.variant == "wordsmog")
        code, index = check_game(self.graph.nodes, setting, game.bag0,
                                 np.uint64(game.rng_state), game.events(), game.n)
        return None if code == 0 else f"event {index + 1}: {CHECKS[int(code)]}"
