"""The referee: a game of 2 to 4 players with a seeded bag, racks, turns, scores,
challenges, the end of the game and a history that can be undone.

The rules are those of docs/FORMATS.md section 7: a play lies in one line, touches
the tiles on the board (or covers the start square on the first move), and
every word it forms is in the lexicon; an exchange needs a full enough bag
(per the rules); the rules' scoreless turns in a row (six, twelve in Spanish:
``Rules.max_scoreless``) end the game, each player then
losing the value of their rack; a player who plays out with the bag empty ends
it, gaining twice the value of the other racks (or, with ``playout="subtract"``,
their sum while each other player loses their own).

The rules are the game's `rackety.game.rules.Rules` (``Game.rules``, made for
its tiles; every position of the game carries them). Under the ``void``
challenge rule a phony is refused outright. Under the others (``single``,
``double``, the default, ``5pt``, ``10pt``) a play whose words are not all in
the lexicon is accepted, and the next player may `Game.challenge` it: a phony
comes off the board (its tiles go back on the rack, its score is taken back,
the turn is lost); a good play costs the challenger their turn (``double``),
nothing (``single``), or gives the challenged player 5 or 10 points.

>>> from rackety import Lexicon
>>> lexicon = Lexicon.from_words(["TAIL", "TALE", "LATE", "ZA", "AI", "TA", "AT"])
>>> game = Game(lexicon, ["Ann", "Ben"], seed=94, rules=Rules(challenge="void"))
>>> game.alphabet.format(game.racks[0])
'ITLPOAG'
>>> for text in ["8H ZA", "8A TAIL", "8H TAIO", "8H TAIL"]:
...     try:
...         print(game.play(text).move)
...     except IllegalMoveError as exc:
...         print(exc)
tile Z is not on the rack AGILOPT
the first play must cover the start square 8H
TAIO is not in words
8H TAIL
>>> print(game)
Ann 8, Ben 0; 82 in the bag; Ben to move
>>> game.position.cgp()
'15/15/15/15/15/15/15/7TAIL4/15/15/15/15/15/15/15 UELJUEH/POGNORD 0/8 0 cr void;'
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from rackety import reprs
from rackety.alphabet import BLANK_FLAG, Alphabet
from rackety.errors import RacketyError
from rackety.game.board import Board, Layout
from rackety.game.layout import square_name
from rackety.game.move import Move, format_leave
from rackety.game.rules import Rules, Variant, overtime_penalty
from rackety.game.state import (
    CrossSets,
    bag_of,
    kernel_consts,
    rack_of,
    set_bag,
    set_rack,
    state_of,
    write_row,
)
from rackety.kernels.bits import DAWG_ROOT
from rackety.kernels.fields import (
    END_OUT,
    END_SCORELESS,
    GS_OVER,
    GS_SCORE,
    GS_TURN,
    GS_ZERO,
    M_SCORE,
    META,
    GameState,
)

if TYPE_CHECKING:
    from rackety.lexicon import Lexicon

class IllegalMoveError(RacketyError):
    """A move the rules refuse, with the reason a player needs."""


@dataclass
class Event:
    """One line of the game's history (the events of a GCG record).

    ``kind``: ``play``, ``exchange``, ``pass``, ``withdrawn`` (a phony taken back
    after a challenge), ``challenge_bonus`` (points for a play challenged in
    vain), ``lost_turn`` (a challenge lost under the double rule), ``end_points``
    (the play-out bonus), ``end_penalty`` (a rack's value lost at the end),
    ``time_penalty`` and ``other`` (from records)."""

    seat: int
    kind: str
    rack: tuple[int, ...]  # the seat's rack before the event
    score: int
    total: int  # the seat's score after the event
    move: Move | None = None
    tiles: tuple[int, ...] = ()  # exchanged tiles, or the rack counted at the end
    notes: list[str] = field(default_factory=list)
    adjustment: int = 0  # a record's score minus the score the rules give (kept, not fixed)
    carry: int = 0  # a record's total minus the total its scores add up to (kept too)
    written: str | None = None  # a record's event kind rackety has no name for, as written


@dataclass
class _Snapshot:
    state: GameState  # a copy of the compiled state
    events: int


class Game:
    """A game between ``players`` (names, in seat order; seat 0 moves first).

    ``position`` is the referee's view: the board, every rack (the player to move
    first, as in CGP), the scores, the scoreless-turn count. ``view()`` is the
    same with the other racks hidden, what a player may see."""

    def __init__(self, lexicon: Lexicon, players: Sequence[str] = ("player1", "player2"), *,
                 alphabet: Alphabet | str | None = None, layout: Layout | str | None = None,
                 rules: Rules | None = None, seed: int | None = None,
                 bag: Sequence[int] | None = None) -> None:
        if not 2 <= len(players) <= 4:
            raise RacketyError(f"a game has 2 to 4 players, not {len(players)}")
        if len({p for p in players}) != len(players):
            raise RacketyError(f"player names must differ: {', '.join(players)}")
        alpha = alphabet_for(lexicon.alphabet, layout) if alphabet is None else (
            alphabet if isinstance(alphabet, Alphabet) else Alphabet.load(alphabet))
        if alpha.identity != lexicon.alphabet.identity:
            raise RacketyError(f"lexicon {lexicon.name} is in alphabet "
                               f"{lexicon.alphabet.name}, the game in {alpha.name}")
        self.lexicon = lexicon
        self.players = list(players)
        self.rules = (rules or Rules()).of(alpha)
        self.alphabet = alpha
        empty = Board.empty(alpha, layout, players=len(players))
        empty.rules = self.rules  # every position of the game carries its rules
        # the bag's shuffles come from splitmix64 (`rackety.kernels.rules.shuffle`), the
        # compiled self-play's too: same seed, same game
        rng = (random.SystemRandom().getrandbits(63) if seed is None else int(seed)) & MASK64
        if bag is None:
            tiles, rng = self.shuffled_bag(alpha, rng)
        else:
            tiles = np.array([int(t) for t in bag], np.int64)
            if Counter(tiles.tolist()) != Counter(t.code for t in alpha.tiles
                                                  for _ in range(t.count)):
                raise RacketyError("bag: not the alphabet's tile distribution")
        self.events: list[Event] = []
        self.pragmata: list[Any] = []  # GCG pragmata a record brought (title, id ...)
        self._undo: list[_Snapshot] = []
        self._empty = empty
        self._board: Board | None = None  # the position, made from the state when asked
        self._move_generator: Any = None  # the lexicon's, made when first needed
        # the compiled game (`rackety.kernels.rules` plays on it): board, cross sets,
        # racks, bag, scores, turn, scoreless turns
        self._consts = kernel_consts(alpha, empty.layout, self.rules, players=len(players))
        self._state = GameState.allocate(empty.size, len(players), len(tiles))
        self._row = np.zeros((1, META), np.int32)  # a placement as the kernels read it
        self._word = np.zeros((1, empty.size), np.uint8)
        rules_kernels().start(lexicon.nodes, lexicon.graph, self._consts, self._state,
                              tiles, np.uint64(rng))

    @classmethod
    def resume(cls, lexicon: Lexicon, position: Board, *,
               players: Sequence[str] = ("player1", "player2"), turn: int = 0,
               bag: Sequence[int] | str = (), rng: int = 0, over: int = 0,
               rules: Rules | None = None, events: Sequence[Event] = (),
               pragmata: Sequence[Any] = ()) -> Game:
        """The game at ``position`` (racks and scores from the player to move,
        as in CGP; its board, layout and tile set), ``turn`` the seat to move,
        ``bag`` the tiles in the bag (drawn from the end), ``rng`` the state of
        its shuffle (`rng_state`), ``over`` how it ended (0: not yet, 1: played
        out, 2: by scoreless turns),
        ``events`` and ``pragmata`` its history: what `repr` of a game writes.
        The tiles must be the tile set's, every one on the board, a rack or in
        the bag. The turns before cannot be undone."""
        n = len(position.racks)
        if len(players) != n:
            raise RacketyError(f"the position has {n} racks, the game {len(players)} players")
        if not 0 <= turn < n:
            raise RacketyError(f"turn {turn}: a seat from 0 to {n - 1}")
        if over not in (0, END_OUT, END_SCORELESS):
            raise RacketyError(f"over {over}: 0 (going on), {END_OUT} (played out) or "
                               f"{END_SCORELESS} (scoreless turns)")
        game = cls(lexicon, players, alphabet=position.alphabet, layout=position.layout,
                   rules=rules if rules is not None else position.rules, seed=0)
        codes = game.alphabet.tokenize(bag, what="bag") if isinstance(bag, str) else \
            [int(t) for t in bag]
        order = [(seat - turn) % n for seat in range(n)]  # each seat's place in the CGP
        seated = position.copy(racks=[position.racks[k] for k in order])
        seated.scores = [position.scores[k] if k < len(position.scores) else 0 for k in order]
        used = Counter(t if not t & BLANK_FLAG else 0 for t in seated.grid.ravel().tolist()
                       if t)
        used.update(t for rack in seated.racks for t in rack)
        used.update(codes)
        if used != Counter({t.code: t.count for t in game.alphabet.tiles}):
            raise RacketyError("resume: the board, the racks and the bag are not the tile set")
        state = state_of(seated, game._generator().cross_sets(seated), bag=codes)
        state.ints[GS_TURN] = turn
        state.ints[GS_OVER] = int(over)
        state.rng[0] = np.uint64(int(rng) & MASK64)
        game._state.load(state)
        game.events = list(events)
        game.pragmata = list(pragmata)
        game._sync()
        return game

    @staticmethod
    def shuffled_bag(alphabet: Alphabet, seed: int) -> tuple[np.ndarray, int]:
        """The full bag of ``alphabet`` shuffled from ``seed`` (drawn from the
        end) and the shuffle's state after it: a game's bag, whoever plays it."""
        bag = np.array([t.code for t in alphabet.tiles for _ in range(t.count)], np.int64)
        state = int(rules_kernels().shuffle(bag, len(bag), np.uint64(int(seed) & MASK64)))
        return bag, state

    # ------------------------------------------------------------ state
    @property
    def position(self) -> Board:
        """The position with every rack known (the referee's view; a copy)."""
        return self._seen().copy()

    def _seen(self) -> Board:
        """The position the referee reads (never handed out: `position` and
        `view` give copies, so nothing a caller does to them reaches it)."""
        if self._board is None:
            self._board = self._board_of(self._state)
        return self._board

    def _board_of(self, gs: GameState) -> Board:
        """The position of a state: the player to move's rack and score first, as
        in CGP, with the state's cross sets for the game's lexicon."""
        n = len(self.players)
        turn = int(gs.ints[GS_TURN])
        order = [(turn + i) % n for i in range(n)]
        board = self._empty.copy()
        board.grid = gs.tiles[0].copy()
        board.racks = [tuple(rack_of(gs, s)) for s in order]
        board.scores = [int(gs.ints[GS_SCORE + s]) for s in order]
        board.zero_turns = int(gs.ints[GS_ZERO])
        # the generator takes the cross sets the compiled game keeps
        self._generator().adopt(board, CrossSets(gs.tiles.copy(), gs.cross.copy()))
        return board

    def _generator(self) -> Any:
        """The move generator of the game's lexicon (`rackety.game.movegen`:
        numba, so not imported with the referee)."""
        made = self._move_generator
        if made is None:
            from rackety.game.movegen import MoveGenerator

            made = self._move_generator = MoveGenerator.of(self.lexicon)
        return made

    def view(self, seat: int | None = None) -> Board:
        """The position as ``seat`` (default: the player to move) sees it: its
        own rack first if it is to move, the other racks unknown (empty)."""
        seat = self.turn if seat is None else seat
        n = len(self.players)
        racks = self.racks
        return self._seen().copy(racks=[racks[s] if s == seat else ()
                                         for s in ((self.turn + i) % n for i in range(n))])

    @property
    def bag(self) -> tuple[int, ...]:
        """The tiles in the bag, drawn from the end."""
        return tuple(bag_of(self._state))

    @property
    def racks(self) -> list[tuple[int, ...]]:
        """The racks by seat, each in the order drawn."""
        return [tuple(rack_of(self._state, s)) for s in range(len(self.players))]

    @property
    def scores(self) -> list[int]:
        """The scores by seat."""
        scores: list[int] = self._state.ints[GS_SCORE:GS_SCORE + len(self.players)].tolist()
        return scores

    @property
    def turn(self) -> int:
        """The seat to move."""
        return int(self._state.ints[GS_TURN])

    @property
    def zero_turns(self) -> int:
        """Scoreless turns in a row."""
        return int(self._state.ints[GS_ZERO])

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return bool(self._state.ints[GS_OVER])

    @over.setter
    def over(self, value: bool) -> None:
        self._state.ints[GS_OVER] = 1 if value else 0

    @property
    def rng_state(self) -> int:
        """The state of the bag's shuffle (splitmix64)."""
        return int(self._state.rng[0])

    def _sync(self) -> None:
        """The state changed: the position is made afresh when next asked for."""
        self._board = None

    def set_rack(self, seat: int, tiles: Sequence[int] | str) -> None:
        """Give ``seat`` these tiles from the bag, its rack going back into the
        bag (for puzzles and tests; the tiles stay conserved)."""
        codes = self.alphabet.tokenize(tiles, what="rack") if isinstance(tiles, str) \
            else [int(t) for t in tiles]
        bag = list(self.bag)
        pool = Counter(bag) + Counter(self.racks[seat])
        if Counter(codes) - pool or len(codes) > self.alphabet.rack_size:
            raise RacketyError(f"rack {self.alphabet.format(codes)}: not in the bag")
        bag.extend(self.racks[seat])
        for t in codes:
            bag.remove(t)
        set_bag(self._state, bag)
        set_rack(self._state, seat, codes)
        self._sync()

    def hold(self, seat: int, rack: Sequence[int] | None, needed: Sequence[int] = ()) -> None:
        """Make ``seat`` hold ``rack`` (from a record), or at least ``needed`` when
        the rack is unknown or does not hold them, taking the tiles from the bag
        (or, when another rack drawn blindly holds one, from that rack); an
        unknown rack is then filled up as a player would have."""
        if rack is not None and len(rack) >= len(needed) and \
                not Counter(needed) - Counter(rack):
            want = Counter(rack)
        else:
            want = Counter(needed)
        current = Counter(self.racks[seat])
        if not want - current and (rack is None or want == current):
            return
        keep = current & want
        extra = list((want - keep).elements())
        bag = list(self.bag)
        racks = [list(r) for r in self.racks]
        bag.extend((current - keep).elements())
        for t in extra:
            if t in bag:
                bag.remove(t)
                continue
            other = next((s for s in range(len(racks)) if s != seat and t in racks[s]), None)
            if other is None or not bag:
                raise RacketyError(f"tile {self.alphabet.format([t])} is not left to draw")
            racks[other].remove(t)
            racks[other].append(bag.pop())
        racks[seat] = list(keep.elements()) + extra
        set_bag(self._state, bag)
        for s, tiles in enumerate(racks):
            set_rack(self._state, s, tiles)
        if rack is None:
            rules_kernels().draw(self._state, seat, self.alphabet.rack_size)
        self._sync()

    def set_turn(self, seat: int) -> None:
        """Make ``seat`` the player to move (a record may skip a turn)."""
        self._state.ints[GS_TURN] = seat
        self._sync()

    def add_event(self, seat: int, kind: str, score: int, rack: Sequence[int] = (),
                  tiles: Sequence[int] = ()) -> Event:
        """Record an event that is not a turn (a challenge bonus, a time penalty,
        a record's end-of-game points) for ``seat``, with its score; undoable:
        once the game is over, with the turn that ended it (`undo`)."""
        if not self.over:
            self._snapshot()
        event = self._event(seat, kind, score, rack, tiles=tiles)
        self._sync()
        return event

    def amend(self, event: Event, *, score: int | None = None,
              total: int | None = None) -> None:
        """Make ``event`` say the ``score`` and ``total`` a record wrote: a score
        that differs from the rules' is kept with the difference as the event's
        ``adjustment``, a total that does not add up with the difference as its
        ``carry``; the seat's score follows, and the totals of its later events."""
        later = [e for e in self.events[next((i for i, e in enumerate(self.events)
                                              if e is event), len(self.events)) + 1:]
                 if e.seat == event.seat]
        diff = 0
        if score is not None and score != event.score:
            diff = score - event.score
            event.adjustment += diff
            event.score = score
            event.total += diff
        if total is not None and total != event.total:
            event.carry += total - event.total
            diff += total - event.total
            event.total = total
        self._state.ints[GS_SCORE + event.seat] += diff
        for e in later:
            e.total += diff
        self._sync()

    def _snapshot(self) -> None:
        self._undo.append(_Snapshot(self._state.copy(), len(self.events)))

    @property
    def can_undo(self) -> bool:
        """Whether there is a turn to take back."""
        return bool(self._undo)

    def undo(self) -> None:
        """Take back the last turn (with the end-of-game events it caused)."""
        if not self._undo:
            raise RacketyError("nothing to undo")
        self._restore(self._undo.pop())

    def _restore(self, snap: _Snapshot) -> None:
        self._state.load(snap.state)
        del self.events[snap.events:]
        self._sync()

    def _event(self, seat: int, kind: str, score: int, rack: Sequence[int],
               move: Move | None = None, tiles: Sequence[int] = ()) -> Event:
        """An event of ``seat``, its ``score`` added to the seat's."""
        self._state.ints[GS_SCORE + seat] += score
        return self._scored(seat, kind, score, rack, move, tiles)

    def _scored(self, seat: int, kind: str, score: int, rack: Sequence[int],
                move: Move | None = None, tiles: Sequence[int] = ()) -> Event:
        """An event of ``seat`` whose ``score`` the rules' kernels have added."""
        event = Event(seat, kind, tuple(rack), score, int(self._state.ints[GS_SCORE + seat]),
                      move, tuple(tiles))
        self.events.append(event)
        return event

    # ------------------------------------------------------------- moves
    def parse_move(self, text: str) -> Move:
        """A move in notation (``8D WORD``, ``exchange ABC``, ``pass``) for the
        player to move, as `Board.parse_move` reads it."""
        return self._seen().parse_move(text)

    parse = parse_move  # the older name

    def play(self, move: Move | str, *, check: bool = True) -> Event:
        """Play a move for the player to move and draw. ``check=False`` skips the
        legality check (the words, the line, the start square), for moves that
        come from the move generator; the score is always the rules' own, and a
        move that states another is refused."""
        if self.over:
            raise IllegalMoveError("the game is over")
        if isinstance(move, str):
            move = self.parse(move)
        seat = self.turn
        rack = tuple(rack_of(self._state, seat))
        rules = rules_kernels()
        if move.kind == "place":
            words = self.check_placement(move) if check else []
            if words and self.rules.challenge == "void":
                raise IllegalMoveError(_not_words(words, self.lexicon, self.rules.variant))
            # the rules' score (`rackety.kernels.rules.score`, which checks the
            # squares too), whatever the move says
            size = self._word.shape[1]
            r, c = move.row, move.col
            if min(r, c) < 0 or max(r, c) >= size or \
                    (r if move.down else c) + len(move.tiles) > size:
                score = -1
            else:
                write_row(move, self._row, self._word, 0, 0)
                score = int(rules.score(self._consts, self._state, self._row, self._word, 0))
            if score < 0:  # off the board, a square taken, or not holding the tile said
                try:
                    self._seen().check_shape(move)
                except RacketyError as exc:
                    raise IllegalMoveError(str(exc)) from None
                raise IllegalMoveError(f"{move.notation(self.alphabet)} does not fit the board")
            self._row[0, M_SCORE] = score
            if move.score is None:
                move = replace(move, score=score)
            elif move.score != score:
                raise IllegalMoveError(f"{move.notation(self.alphabet)} scores {score} here, "
                                       f"not {move.score}")
            if not check:  # a move taken as given still fits the rack
                self._on_rack(move, [0 if t & BLANK_FLAG else t for t in move.placed], rack)
            self._snapshot()
            rules.play(self.lexicon.nodes, self.lexicon.graph, self._consts, self._state,
                       self._row, self._word, 0, True)
            event = self._scored(seat, "play", score, rack, move)
        elif move.kind == "exchange":
            if check:
                self._check_exchange(move, list(rack))
            else:
                self._on_rack(move, move.tiles, rack)
            self._snapshot()
            traded = np.array(move.tiles, np.int64)
            rules.exchange(self._consts, self._state, traded, len(traded))
            event = self._scored(seat, "exchange", 0, rack, move, move.tiles)
        else:
            self._snapshot()
            rules.pass_turn(self._state)
            event = self._scored(seat, "pass", 0, rack, move)
        self._end_turn(move.kind == "place")
        return event

    def _on_rack(self, move: Move, tiles: Sequence[int], rack: Sequence[int]) -> None:
        left = list(rack)
        try:
            for tile in tiles:
                left.remove(tile)
        except ValueError:
            pass
        else:
            return
        missing = Counter(tiles) - Counter(rack)
        if missing:
            raise RacketyError(f"move {move.notation(self.alphabet)!r}: tiles "
                               f"{self.alphabet.format(sorted(missing.elements()))} are not "
                               f"on the rack {_rack_text(self.alphabet, rack)}")

    def _end_turn(self, played: bool) -> None:
        """The rules' end of the turn (`rackety.kernels.rules.end_turn`): the next
        player, or the end of the game with its events."""
        seat = self.turn
        before = self.scores
        ended = rules_kernels().end_turn(self._consts, self._state, played)
        if not ended:
            self._sync()
            return
        racks = self.racks  # the end counts them and leaves them be
        after = self.scores
        others = [s for s in range(len(self.players)) if s != seat]
        if ended == END_OUT:
            twice = self.rules.twice(len(self.players))
            self._scored(seat, "end_points", after[seat] - before[seat], [],
                         tiles=[t for s in others for t in racks[s]])
            if not twice:
                for s in others:
                    self._scored(s, "end_penalty", after[s] - before[s], racks[s],
                                 tiles=racks[s])
        elif ended == END_SCORELESS:
            for s in range(len(self.players)):
                self._scored(s, "end_penalty", after[s] - before[s], racks[s], tiles=racks[s])
        self._sync()

    def _check_exchange(self, move: Move, rack: list[int]) -> None:
        if not move.tiles:
            raise IllegalMoveError("an exchange needs at least one tile")
        if not self.rules.may_exchange(len(self.bag), len(move.tiles)):
            raise IllegalMoveError(f"no exchange of {len(move.tiles)} with {len(self.bag)} tiles "
                                   f"in the bag ({self.rules.exchange_min_bag} needed)")
        missing = Counter(move.tiles) - Counter(rack)
        if missing:
            raise IllegalMoveError(f"tiles {self.alphabet.format(sorted(missing.elements()))} "
                                   f"are not on the rack {_rack_text(self.alphabet, rack)}")

    def check_placement(self, move: Move) -> list[str]:
        """Check a tile placement for the player to move: on the board, tiles on the
        rack, in one line, connected, covering the start square first; raises
        `IllegalMoveError` with the reason. Returns the words formed that are not in
        the lexicon (empty when the play is good)."""
        board = self._seen()
        alphabet = self.alphabet
        size = board.size
        for (r, c) in move.squares():
            if not (0 <= r < size and 0 <= c < size):
                raise IllegalMoveError(f"{move.notation(alphabet)} runs off the board")
        try:
            board.check_shape(move)
        except RacketyError as exc:
            raise IllegalMoveError(str(exc)) from None
        if not move.placed:
            raise IllegalMoveError("a play places at least one tile")
        missing = Counter(0 if t & BLANK_FLAG else t for t in move.placed) - \
            Counter(self.racks[self.turn])
        if missing:
            tiles = alphabet.format(sorted(missing.elements()))
            plural = "s" if sum(missing.values()) > 1 else ""
            raise IllegalMoveError(f"tile{plural} {tiles} {'are' if plural else 'is'} not on the "
                                   f"rack {_rack_text(alphabet, self.racks[self.turn])}")
        squares = move.placed_squares()
        if board.is_empty:
            if board.layout.start not in move.squares():
                raise IllegalMoveError(f"the first play must cover the start square "
                                  f"{square_name(*board.layout.start)}")
        elif not any(move.through) and not _touches(board.grid, squares):
            raise IllegalMoveError("the play does not touch any tile on the board")
        words = formed_words(board.grid, squares, move.placed)
        if not words:
            raise IllegalMoveError("a play must form a word of two letters or more")
        return _phonies(board, move, self.lexicon)

    # -------------------------------------------------------- challenges
    def last_play_phonies(self) -> list[str]:
        """The words of the last play that are not in the lexicon (what a
        computer player checks before it challenges); empty when there is no
        play to challenge."""
        if not self.events or self.events[-1].kind != "play" or not self._undo:
            return []
        move = self.events[-1].move
        return _phonies(self._board_of(self._undo[-1].state), move, self.lexicon) \
            if move else []

    def challenge(self) -> Event | None:
        """The player to move challenges the last play. A phony comes off the
        board and its player loses the turn; a good play costs per the challenge
        rule (``None`` when it costs nothing: the single rule)."""
        if self.rules.challenge == "void":
            raise IllegalMoveError("no challenges under the void rule: phonies are refused")
        index = len(self.events) - 1
        while index >= 0 and self.events[index].kind in ("end_points", "end_penalty"):
            index -= 1
        if index < 0 or self.events[index].kind != "play":
            raise IllegalMoveError("there is no play to challenge")
        last = self.events[index]
        challenger = (last.seat + 1) % len(self.players)
        if not self.over and self.turn != challenger:
            raise IllegalMoveError("only the next player may challenge the last play")
        assert last.move is not None
        before = self._board_of(self._undo[-1].state)
        phonies = _phonies(before, last.move, self.lexicon)
        if phonies:
            return self.withdraw(last, _not_words(phonies, self.lexicon, self.rules.variant))
        rule = self.rules.challenge
        if rule in ("5pt", "10pt"):
            self._snapshot()
            event = self._event(last.seat, "challenge_bonus", 5 if rule == "5pt" else 10,
                                last.rack)
            self._sync()
            return event
        if rule == "double" and not self.over:
            self._snapshot()
            event = self._event(challenger, "lost_turn", 0, self.racks[challenger])
            rules_kernels().pass_turn(self._state)
            self._end_turn(False)
            return event
        return None

    def withdraw(self, last: Event, note: str | None = None) -> Event:
        """Take the last play (``last``, its event) off the board: its tiles back
        on the rack, the tiles drawn after it back in the bag, its score back;
        the turn is lost. ``note`` goes on the withdrawal's event."""
        after = _Snapshot(self._state.copy(), len(self.events))
        self._restore(self._undo[-1])  # the board, bag and racks from before the phony
        self._undo.append(after)  # undoing the challenge puts the phony back
        self._state.ints[GS_SCORE + last.seat] += last.score
        self.events.append(last)
        event = self._event(last.seat, "withdrawn", -last.score, last.rack, last.move)
        if note:
            event.notes.append(note)
        rules_kernels().pass_turn(self._state)
        self._end_turn(False)
        return event

    def alphabet_points(self) -> list[int]:
        """Points of each tile code (the blank scores 0)."""
        return [t.points for t in self.alphabet.tiles]

    # ------------------------------------------------------------ results
    def winners(self) -> list[int]:
        """The seats with the highest score (more than one on a tie)."""
        best = max(self.scores)
        return [s for s, v in enumerate(self.scores) if v == best]

    def problems(self) -> list[str]:
        """What does not add up (empty for a sound game), by the independent
        checker (`rackety.kernels.verify.check_play`, nothing plays by it):
        tiles conserved (board, racks and bag are the distribution), every
        play legal, in the lexicon under the void rule and scored as the plain
        scorer scores it (with a record's adjustment), each total the sum of
        its seat's events, the board what the plays add up to."""
        out = []
        grid = self._seen().grid
        on_board = [0 if t & BLANK_FLAG else int(t) for t in grid[grid != 0].tolist()]
        held = on_board + [t for r in self.racks for t in r] + list(self.bag)
        want = Counter(t.code for t in self.alphabet.tiles for _ in range(t.count))
        if Counter(held) != want:
            out.append(f"tiles not conserved: {dict(Counter(held) - want)} too many, "
                       f"{dict(want - Counter(held))} missing")
        totals = [0] * len(self.players)
        for i, event in enumerate(self.events):
            totals[event.seat] += event.score + event.carry
            if event.total != totals[event.seat]:
                out.append(f"event {i + 1}: total {event.total}, the events add up to "
                           f"{totals[event.seat]}")
        if totals != self.scores:
            out.append(f"scores {self.scores}, the events add up to {totals}")
        # every play again on an empty board, by the independent checker
        verify = verify_kernels()
        lm2, wm2, points, _ = self._consts
        start_row, start_col = self._empty.layout.start
        distribution = np.zeros(64, np.int64)
        for tile in self.alphabet.tiles:
            distribution[tile.code] = tile.count
        game_rules = self.rules
        setting = verify.Setting(lm2[0], wm2[0], points, start_row, start_col,
                                 self.alphabet.rack_size, game_rules.bingo_bonus or 0,
                                 game_rules.exchange_min_bag or 0,
                                 game_rules.twice(len(self.players)), distribution,
                                 len(self.players))
        board = np.zeros_like(grid)
        meta, word = np.zeros_like(self._row), np.zeros_like(self._word)
        empty = True
        for i, event in enumerate(self.events):
            if event.kind != "play" or event.move is None or self._withdrawn_after(i):
                continue
            name = f"event {i + 1} ({event.move.notation(self.alphabet)})"
            write_row(event.move, meta, word)
            code, score, words = verify.check_play(self.lexicon.nodes, board, setting, empty,
                                                   meta, word, 0)
            if code:
                out.append(f"{name}: {verify.CHECKS[int(code)]}")
                continue
            empty = False
            if score + event.adjustment != event.score:
                out.append(f"{name}: scored {event.score}, the plain scorer says "
                           f"{score + event.adjustment}")
            wordsmog = self.rules.variant == "wordsmog"  # the checker knows classic words
            if (wordsmog or not words) and self.rules.challenge == "void":
                before = board.copy()
                for (r, c) in event.move.placed_squares():
                    before[r, c] = 0
                bad = _phonies_on(before, self.alphabet, event.move, self.lexicon,
                                  self.rules.variant)
                if bad:
                    out.append(f"{name}: {_not_words(bad, self.lexicon, self.rules.variant)}")
        if not np.array_equal(board, grid):
            out.append("the board is not what the plays add up to")
        return out

    def charge_overtime(self, used: Sequence[float], clock: float) -> list[Event]:
        """At the end of a game on a clock of ``clock`` seconds a player, the
        points each seat past it loses (``used[seat]`` seconds used; the rules'
        `rackety.game.rules.overtime_penalty`), as ``time_penalty`` events."""
        return [self.add_event(seat, "time_penalty", -points)
                for seat, spent in enumerate(used)
                if (points := overtime_penalty(spent, clock))]

    def _withdrawn_after(self, index: int) -> bool:
        nxt = index + 1
        return nxt < len(self.events) and self.events[nxt].kind == "withdrawn"

    def __eq__(self, other: object) -> bool:
        """The same lexicon, players, rules, position, bag (in its order, with
        the shuffle's state) and history; the turns that can be undone aside."""
        if not isinstance(other, Game):
            return NotImplemented
        return self is other or (
            self.players == other.players and self.rules == other.rules
            and self.lexicon == other.lexicon and self._seen() == other._seen()
            and self.racks == other.racks and self.bag == other.bag
            and self.turn == other.turn and self.rng_state == other.rng_state
            and int(self._state.ints[GS_OVER]) == int(other._state.ints[GS_OVER])
            and self.events == other.events and self.pragmata == other.pragmata)

    __hash__ = None  # type: ignore[assignment]  # a game changes as it is played

    def __repr__(self) -> str:
        """``Game.resume(...)`` of the game's lexicon, position, bag and history:
        it evaluates back to an equal game (which goes on as this one would).
        A game of a lexicon made in memory shows a summary in angle brackets."""
        position = self._seen().copy()
        position.rules = Rules() if self.rules == Rules().of(self.alphabet) else self.rules
        extra: dict[str, object] = {}
        if self.players != ["player1", "player2"]:
            extra["players"] = self.players
        if self.turn:
            extra["turn"] = self.turn
        extra["bag"] = self.alphabet.format(self.bag, brackets=True) if self.bag else ""
        extra["rng"] = self.rng_state
        if self._state.ints[GS_OVER]:
            extra["over"] = int(self._state.ints[GS_OVER])
        if self.events:
            extra["events"] = self.events
        if self.pragmata:
            extra["pragmata"] = self.pragmata
        text = reprs.call("Game.resume", self.lexicon, position, **extra)
        return text if text is not None else f"<Game {self}>"

    def __str__(self) -> str:
        """The scores, the bag and who is to move: ``Ann 8, Ben 0; 82 in the
        bag; Ben to move``."""
        state = "over" if self.over else f"{self.players[self.turn]} to move"
        scores = ", ".join(f"{p} {s}" for p, s in zip(self.players, self.scores, strict=True))
        return f"{scores}; {len(self.bag)} in the bag; {state}"


MASK64 = (1 << 64) - 1


def rules_kernels() -> ModuleType:
    """The rules' kernels (`rackety.kernels.rules`), which every game plays by:
    imported when a game starts, so ``import rackety`` does not load numba."""
    from rackety.kernels import rules

    return rules


def verify_kernels() -> ModuleType:
    """The independent checker (`rackety.kernels.verify`), imported when used."""
    from rackety.kernels import verify

    return verify


def describe(game: Game, event: Event) -> str:
    """An event in a sentence, as a player is told it (``greedy plays 8H PANDY
    for 30``; a player called "you" is spoken to: ``you play ...``)."""
    name = game.players[event.seat]
    you = name.lower() == "you"

    def does(verb: str) -> str:
        return f"{name} {verb if you else verb + 'es' if verb.endswith('s') else verb + 's'}"

    if event.kind == "play" and event.move is not None:
        return f"{does('play')} {event.move.notation(game.alphabet)} for {event.score}"
    if event.kind == "exchange":
        return f"{does('exchange')} {len(event.tiles)} tile(s)"
    if event.kind == "pass":
        return does("pass")
    if event.kind == "withdrawn":
        whose = "your" if you else f"{name}'s"
        return f"{whose} play comes off the board: {'; '.join(event.notes)}"
    if event.kind == "lost_turn":
        return f"{does('lose')} a turn: the play challenged was good"
    return f"{name}: {event.kind.replace('_', ' ')} {event.score:+d}"


def _rack_text(alphabet: Alphabet, rack: Sequence[int]) -> str:
    """A rack as people write it: letters in order, blanks last."""

    return format_leave(alphabet, rack)


def alphabet_for(alphabet: Alphabet, layout: Layout | str | None) -> Alphabet:
    """``alphabet``, or the variant of its tiles made for ``layout`` (English on
    the Super board has 200 tiles: ``english_super``); ``alphabet`` itself when
    there is none. A game's alphabet, and a record's once its board is known."""
    if layout is None:
        return alphabet
    name = layout.name if isinstance(layout, Layout) else Layout.load(layout).name
    if alphabet.board == name:
        return alphabet
    for other in Alphabet.names():
        candidate = Alphabet.load(other)
        if candidate.identity == alphabet.identity and candidate.board == name:
            return candidate
    return alphabet


def _touches(grid: np.ndarray, squares: Sequence[tuple[int, int]]) -> bool:
    size = grid.shape[0]
    for r, c in squares:
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < size and 0 <= cc < size and grid[rr, cc]:
                return True
    return False


def formed_words(grid: np.ndarray, squares: Sequence[tuple[int, int]],
                 tiles: Sequence[int]) -> list[tuple[int, ...]]:
    """Every word (maximal run of two tiles or more, in either direction) through
    a new tile, once each, as codes without the blank flag."""
    work = grid.copy()
    for (r, c), t in zip(squares, tiles, strict=True):
        work[r, c] = t
    size = work.shape[0]
    seen: set[tuple[int, int, int]] = set()
    words = []
    for r, c in squares:
        for dr, dc in ((0, 1), (1, 0)):
            r0, c0 = r, c
            while r0 - dr >= 0 and c0 - dc >= 0 and work[r0 - dr, c0 - dc]:
                r0, c0 = r0 - dr, c0 - dc
            key = (r0, c0, dr)
            if key in seen:
                continue
            seen.add(key)
            word = []
            rr, cc = r0, c0
            while rr < size and cc < size and work[rr, cc]:
                word.append(int(work[rr, cc]) & ~BLANK_FLAG)
                rr, cc = rr + dr, cc + dc
            if len(word) >= 2:
                words.append(tuple(word))
    return words


def _phonies(board: Board, move: Move, lexicon: Lexicon) -> list[str]:
    return _phonies_on(board.grid, board.alphabet, move, lexicon, board.rules.variant)


def _phonies_on(grid: np.ndarray, alphabet: Alphabet, move: Move, lexicon: Lexicon,
                variant: Variant = "classic") -> list[str]:
    """The words ``move`` forms on ``grid`` that the rules' ``variant`` does not
    take: not in ``lexicon`` (classic), or no anagram of a word in it (WordSmog)."""
    words = formed_words(grid, move.placed_squares(), move.placed)
    if not words:
        return []
    if variant == "wordsmog":
        return [alphabet.format(w) for w in words if not lexicon.has_anagram(w)]
    from rackety.lexicon.query import contains_many

    flat = np.fromiter((t for w in words for t in w), np.int64)
    lens = np.fromiter((len(w) for w in words), np.int64)
    found = np.zeros(len(words), np.int64)
    contains_many(lexicon.nodes, lexicon.root(DAWG_ROOT), flat, lens, found)
    return [alphabet.format(w) for w, ok in zip(words, found, strict=True) if not ok]


def _not_words(words: list[str], lexicon: Lexicon, variant: Variant = "classic") -> str:
    where = f"an anagram of a word in {lexicon.name}" if variant == "wordsmog" else \
        f"in {lexicon.name}"
    if len(words) == 1:
        return f"{words[0]} is not {where}"
    return f"{', '.join(words[:-1])} and {words[-1]} are not {where}"


def placement(board: Board, tiles: Sequence[tuple[int, int, int]]) -> Move:
    """The move that puts ``tiles`` ((row, col, code) each, blank flag on blanks)
    on ``board``, with the board tiles of its main word; raises `IllegalMoveError`
    when they are not in one line or leave a gap."""
    if not tiles:
        raise IllegalMoveError("no tiles placed")
    rows = {r for r, _, _ in tiles}
    cols = {c for _, c, _ in tiles}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalMoveError("the tiles are not in one line")
    grid = board.grid
    size = board.size
    placed = {(r, c): t for r, c, t in tiles}
    if len(placed) != len(tiles):
        raise IllegalMoveError("two tiles on one square")
    for (r, c) in placed:
        if grid[r, c]:
            raise IllegalMoveError(f"square {square_name(r, c)} is taken")
    down = len(rows) > 1 or (len(tiles) == 1 and _single_is_down(grid, *tiles[0][:2]))
    dr, dc = (1, 0) if down else (0, 1)
    r0, c0 = min(placed)
    while r0 - dr >= 0 and c0 - dc >= 0 and (grid[r0 - dr, c0 - dc] or
                                              (r0 - dr, c0 - dc) in placed):
        r0, c0 = r0 - dr, c0 - dc
    word, through = [], []
    r, c = r0, c0
    while r < size and c < size and (grid[r, c] or (r, c) in placed):
        if (r, c) in placed:
            word.append(placed.pop((r, c)))
            through.append(False)
        else:
            word.append(int(grid[r, c]))
            through.append(True)
        r, c = r + dr, c + dc
    if placed:
        raise IllegalMoveError("the tiles leave a gap")
    return Move("place", r0, c0, down, tuple(word), tuple(through), alphabet=board.alphabet)


def _single_is_down(grid: np.ndarray, r: int, c: int) -> bool:
    """A single tile is written across unless only a down word forms."""
    size = grid.shape[0]
    across = (c > 0 and grid[r, c - 1]) or (c < size - 1 and grid[r, c + 1])
    down = (r > 0 and grid[r - 1, c]) or (r < size - 1 and grid[r + 1, c])
    return bool(down and not across)
