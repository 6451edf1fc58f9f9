"""``rackety ucgi``: rackety as an engine of the Universal Crossword Game
Interface (UCGI, ``ucgi/ucgi.md`` of woogles-io/open-protocols, UCI for
crossword games), so that a GUI or another program can use it. The move
format and the client side (`UcgiPlayer`) are `rackety.players.ucgi`.

The engine reads one command a line on its standard input and answers on its
standard output, a line at a time, flushed:

- ``ucgi``: ``id name``, ``id author``, the ``option`` lines (``Player``, the
  player spec the engine plays by, `rackety.players.make_player`; ``Lexicon``,
  which wins over a position's ``lex``), then ``ucgiok``;
- ``isready``: ``readyok``, at once (once the lexicon and the player are
  ready when no search runs);
- ``setoption name Player value sim:200``, ``setoption name Lexicon value CSW19``;
  the engine plays by players that keep to a deadline and a stop
  (`rackety.players.base.decide_under`): any computer player but ``ucgi:``
  (``static``, ``greedy``, ``h1`` ... ``sim``, ``sim:N``, ``best``,
  ``best:SECONDS``, any of them ``+endgame``); another is refused;
- ``debug on|off`` (each line received is said back as ``info string debug``),
  ``register`` (nothing to register), ``ucginewgame``;
- ``position cgp <CGP> [moves m1 m2 ...]`` or ``position startpos [moves ...]``:
  the CGP, then its moves played (a player who drew after a move has an
  unknown rack; ``rack.TILES`` gives the rack of the player to move);
- ``go [movetime MS] [depth N] [infinite] [searchmoves m ...] [alsosearchmoves
  m ...]``: the search runs in a thread and ends with ``bestmove`` (every
  ``go`` gets exactly one, a ``go`` that cannot search ``bestmove pass``);
  ``info`` lines say what it found (the championship player's also why, in
  an ``info string``: the phase, the rollouts, the move's win % and the
  runner-up's, `rackety.players.best.BestPlayer.explain`). It keeps to ``movetime`` and ends within
  about a quarter of a second of ``stop`` (`rackety.search.control.Control`,
  which every search looks at between slices of its work), with the best
  move found so far, or the static player's (only a search's first run after
  an install or an upgrade, which compiles its kernels, is not cut short). A
  static player (``static``, ``greedy``, ``h3`` ...) answers at once
  (``depth`` and ``movetime`` change nothing); a simulating player (``sim``,
  ``sim:N``) simulates its best static candidates for ``movetime`` (or its
  own N rollouts a candidate), ``depth`` plies each, in slices of a quarter
  second; ``best:SECONDS`` searches for its seconds or ``movetime``,
  whichever ends first (``depth`` is the simulation's). ``infinite`` searches until ``stop``
  (an answer found sooner is held until then, as the protocol asks).
  ``searchmoves`` restricts the candidates, ``alsosearchmoves`` adds to the
  simulated ones (the first `MAX_LISTED` of each are read). Without
  ``movetime``, the player to move's game clock (``1time``, or UCI's
  ``wtime``; its increment ``1inc`` or ``winc``) sets the search's time, its
  share by `rackety.search.judge.clock_seconds` (``best:clock=...`` is the
  player made for it); the other clock, ``threads``, ``firstwin`` and
  ``stopcondition`` are read and not used;
- ``stop``: ends the running search, and those of the ``go`` lines received
  before it that still wait (each answers at once); ``quit``: the running
  search stopped (its ``bestmove`` said), the lines waiting dropped, the end.

Lines are done in the order received. While a search runs, a line other than
``stop``, ``quit`` and ``isready`` waits for its ``bestmove`` (so a script
may send ``stop``, ``position`` and ``go`` at once); at most `MAX_WAITING`
lines wait, and one more is refused (a ``go`` then answered ``bestmove pass``
at once). An unknown command, or one that cannot be done, is answered with
one line ``info string error: ...`` of at most 300 characters, whatever the
line's size (a line longer than `MAX_LINE` bytes is refused whole), and the
engine goes on (tokens before a known command are skipped, as the protocol
says).

At the end of the input the lines received are done, every search ending
at most `GRACE` seconds after it (an infinite one stopped at once; lines
still waiting `LAST` seconds after it are dropped), then the engine ends.
When its output goes away (the reader closed it: the engine looks at it
while it waits), the search is stopped, the lines waiting are dropped and the
engine ends at once. Either way within two seconds, the process included
(``rackety ucgi`` ends without the interpreter's teardown).
The searches run in this process (no worker processes).
"""

from __future__ import annotations

import contextlib
import itertools
import math
import os
import queue
import select
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import IO, TYPE_CHECKING, Any

from rackety.errors import MAX_MESSAGE, RacketyError, clip, one_line, parse_int
from rackety.game.board import Board
from rackety.game.heuristics import leave_model
from rackety.game.move import Move
from rackety.players import BestPlayer, SimPlayer, make_player
from rackety.players.base import decide_under, is_controlled
from rackety.players.endgame import ENDGAME_SUFFIX
from rackety.players.static import static_decision
from rackety.players.ucgi import (
    MAX_LINE,
    UCGI_PREFIX,
    UcgiEntry,
    find_moves,
    move_key,
    move_text,
    parse_entry,
    read_lines,
)
from rackety.search.control import SLICE, Control, clock

if TYPE_CHECKING:
    from rackety.frontends.common import Lexicons
    from rackety.lexicon import Lexicon
    from rackety.players import Player
    from rackety.search.simulation import Candidate

COMMANDS = ("ucgi", "debug", "isready", "setoption", "register", "ucginewgame", "position",
            "go", "stop", "quit")
#: done at once, even while a search runs (the other commands wait for it, in order)
AT_ONCE = frozenset(("isready", "stop", "quit"))
MAX_MS = 1_000_000_000  # about eleven days
GO_VALUES = {"movetime": (0, MAX_MS), "depth": (0, 20), "1time": (-MAX_MS, MAX_MS),
             "2time": (-MAX_MS, MAX_MS), "1inc": (0, MAX_MS), "2inc": (0, MAX_MS),
             "wtime": (-MAX_MS, MAX_MS), "btime": (-MAX_MS, MAX_MS), "winc": (0, MAX_MS),
             "binc": (0, MAX_MS), "stopcondition": (0, 100), "threads": (1, 4096)}
#: the clocks of ``go``: the player to move's (the CGP's first rack) and its
#: increment, under UCGI's names and UCI's
MOVER_CLOCK = {"1time": "clock", "wtime": "clock", "1inc": "increment", "winc": "increment"}
GO_FLAGS = ("infinite", "firstwin")
GO_LISTS = ("searchmoves", "alsosearchmoves")
GO_WORDS = frozenset((*GO_VALUES, *GO_FLAGS, *GO_LISTS))
MAX_WAITING = 256  # lines that may wait for a running search (and 8 MiB of them)
MAX_WAITING_BYTES = 8 * MAX_LINE
GRACE = 0.5  # seconds a search may go on after the end of the input
LAST = 1.5  # seconds after the end of the input the lines still waiting are dropped
POLL = 0.1  # seconds between looks at the output while waiting for input
BATCH = 16  # rollouts a candidate in one step of the simulation
MAX_LISTED = 1000  # moves of searchmoves (and of alsosearchmoves) read, at most
AUTHOR = "the rackety authors"


@dataclass
class Go:
    """The parameters of one ``go``: ``movetime`` in milliseconds, ``depth`` in
    plies, ``clock`` and ``increment`` the player to move's game clock and what
    it gains a move in milliseconds (``1time``/``wtime``, ``1inc``/``winc``),
    ``infinite``, the moves of ``searchmoves`` and ``alsosearchmoves`` as
    written, and what was read but is not used (``ignored``: the other
    player's clock among them)."""

    movetime: int | None = None
    depth: int | None = None
    clock: int | None = None
    increment: int = 0
    infinite: bool = False
    searchmoves: list[str] = field(default_factory=list)
    alsosearchmoves: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)


def parse_go(tokens: list[str]) -> tuple[Go, list[str]]:
    """A ``go`` command's parameters, and the problems found reading them (a
    parameter with a bad value is left out; an unknown token is ignored, as
    the protocol says).

    >>> parse_go("movetime 500 searchmoves 8h.PANDY pass depth x".split())
    (Go(movetime=500, depth=None, clock=None, increment=0, infinite=False, \
searchmoves=['8h.PANDY', 'pass'], alsosearchmoves=[], ignored=[]), \
["go: depth 'x' is not a whole number (0 to 20)"])
    """
    go = Go()
    problems: list[str] = []
    i = 0
    while i < len(tokens):
        word = tokens[i].lower()
        i += 1
        if word in GO_LISTS:
            items = getattr(go, word)
            while i < len(tokens) and tokens[i].lower() not in GO_WORDS:
                items.append(tokens[i])
                i += 1
        elif word == "infinite":
            go.infinite = True
        elif word in GO_FLAGS:
            go.ignored.append(word)
        elif word in GO_VALUES:
            if i >= len(tokens) or tokens[i].lower() in GO_WORDS:
                problems.append(f"go: {word} needs a value")
                continue
            low, high = GO_VALUES[word]
            text = tokens[i]
            i += 1
            try:
                value = parse_int(text, f"go: {word}", low, high)
            except RacketyError as exc:
                problems.append(str(exc))
                continue
            if word == "movetime":
                go.movetime = value
            elif word == "depth":
                go.depth = value
            elif word in MOVER_CLOCK:
                setattr(go, MOVER_CLOCK[word], value)
            else:
                go.ignored.append(f"{word} {value}")
        else:
            go.ignored.append(clip(tokens[i - 1], 40))
    return go, problems


def play_entry(board: Board, entry: UcgiEntry) -> Board:
    """The position after one entry of a ``position`` command's moves: its rack
    given to the player to move, its move played (`Board.play`), a challenge's
    points added, a lost turn passed. A player who played or exchanged while
    the bag held tiles drew, so their rack is unknown after it."""
    if entry.rack is not None:
        board = board.copy(racks=[entry.rack, *board.racks[1:]])
    move = entry.move
    if move is None:
        return board
    if move.kind == "exchange" and move.tiles and board.rack and \
            Counter(move.tiles) - Counter(board.rack):
        raise RacketyError(f"ucgi move {move_text(move, board.alphabet)!r}: the tiles "
                           "exchanged are not all on the rack "
                           f"{board.alphabet.format(board.rack, brackets=True)!r}")
    drew = move.kind != "pass" and board.bag_count > 0
    after = board.play(move)
    if drew:
        after.racks[-1] = ()
    if entry.challenge_points:
        after.scores[-1] += entry.challenge_points
    if entry.turn_loss:
        after = after.play(Move("pass", alphabet=board.alphabet))
    return after


def _check_spec(spec: str) -> str:
    """A player spec the engine can play by: not a person, not another engine."""
    key = spec.strip().lower()
    if key.removesuffix(ENDGAME_SUFFIX) == "human" or key.startswith(UCGI_PREFIX):
        raise RacketyError(f"player {clip(spec)!r}: the engine plays by itself (static, "
                           "greedy, h1, h2, h3, leaves:FILE.klv2, sim, sim:N, best, "
                           "best:SECONDS, any of them +endgame)")
    return spec.strip()


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("rackety")
    except metadata.PackageNotFoundError:
        return "unknown"


class _Said:
    """The problems of one command, said in one ``info string error:`` line
    (the first few, and how many more), whatever their number."""

    SHOWN = 3

    def __init__(self, engine: Engine, command: str) -> None:
        self.engine, self.command = engine, command
        self.first: list[str] = []
        self.count = 0

    def add(self, message: str) -> None:
        self.count += 1
        if len(self.first) < self.SHOWN:
            self.first.append(one_line(message, 200))

    def flush(self) -> None:
        """Say the problems gathered so far (nothing if none)."""
        if not self.count:
            return
        more = self.count - len(self.first)
        text = "; ".join(self.first) + (f" (and {more:,} more)" if more else "")
        self.first, self.count = [], 0
        self.engine.error(f"{self.command}: {text}")


@dataclass
class _Job:
    """The search of one ``go``: its position, player and `Control` (whose
    stop event ``stop``, ``quit``, the end of the input and a closed output
    set); ``hold``: an infinite search, whose answer waits for the stop."""

    number: int
    go: Go
    board: Board
    lexicon: Lexicon
    player: Player
    control: Control
    said: _Said
    turn: int
    hold: bool
    t0: float = field(default_factory=clock)
    thread: threading.Thread | None = None

    @property
    def stop(self) -> threading.Event:
        assert self.control.stop is not None
        return self.control.stop


_EOF = object()  # the end of the input, in `Engine.run`'s inbox


class Engine:
    """One UCGI session: `handle` takes each line received, ``write`` sends
    each line of the answer (a line, without its end). ``lexicons`` are the
    lexicons the engine may use (`rackety.frontends.common.Lexicons`; its
    ``preferred`` one is the ``Lexicon`` option), ``player`` the spec of the
    player it plays by; ``gone``, if given, says whether the output went away
    (looked at while waiting for input). `run` reads the lines of an input to
    its end (the module docstring)."""

    def __init__(self, write: Callable[[str], None], lexicons: Lexicons, *,
                 player: str = "static", gone: Callable[[], bool] | None = None) -> None:
        self._write = write
        self._gone = gone
        self.lexicons = lexicons
        self.player_spec = _check_spec(player)
        self.debug = False
        self.board: Board | None = None
        self.lexicon: Lexicon | None = None
        self._players: dict[int, Player] = {}  # the player of the spec, per lexicon
        self._out = threading.Lock()  # one line at a time
        self._setup = threading.RLock()  # making players
        self._lock = threading.Condition()  # what follows, shared with the search threads
        self._job: _Job | None = None  # the search running
        self._busy = False  # a search runs, or the lines that waited for it are being done
        self._waiting: deque[tuple[str, int]] = deque()  # (line, go number) waiting for it
        self._waiting_bytes = 0
        self._gos = 0  # go lines received
        self._stopped_gos = 0  # the go lines received before the last stop
        self._ending: float | None = None  # the end of the input: searches end by then
        self._closed = False  # the output went away
        self._ended = False  # quit, or the output went away: nothing more is done
        self._turn = 0

    @property
    def closed(self) -> bool:
        """Whether the output went away."""
        return self._closed

    # ---------------------------------------------------------------- output
    def send(self, line: str) -> None:
        """Write one line of the answer (nothing once the output went away;
        then every search is stopped)."""
        with self._out:
            if self._closed:
                return
            try:
                self._write(line)
                return
            except (OSError, ValueError):
                self._closed = True
        self._end()

    def error(self, message: str) -> None:
        """Say what went wrong, in one ``info string error:`` line."""
        self.send(one_line(f"info string error: {message}", MAX_MESSAGE))

    # ----------------------------------------------------------------- input
    def handle(self, line: str) -> bool:
        """Take one command line; False once the engine should end (``quit``, or
        its output went away). ``stop``, ``quit`` and ``isready`` are done at
        once; another command is done now if no search runs, else it waits for
        the search's ``bestmove`` (in the order received)."""
        if self._ended:
            return False
        tokens = line.split()
        if self.debug and tokens:
            self.send(f"info string debug: received {one_line(clip(line.strip(), 200))}")
        found = _command(tokens)
        if found is None:
            if tokens:
                self.error(f"unknown command {clip(tokens[0], 40)!r}; commands: "
                           f"{', '.join(COMMANDS)}")
            return not self._ended
        command, args = found
        if command in AT_ONCE:
            self._do(command, args, 0)
            return not self._ended
        number = 0
        with self._lock:
            if command == "go":
                self._gos += 1
                number = self._gos
            if self._busy:
                if len(self._waiting) < MAX_WAITING and \
                        self._waiting_bytes + len(line) <= MAX_WAITING_BYTES:
                    self._waiting.append((line, number))
                    self._waiting_bytes += len(line)
                    return True
                full = True
            else:
                full = False
        if full:
            self.error(f"{command}: {len(self._waiting)} lines already wait for the search; "
                       "this one is left out")
            if command == "go":
                self.send("bestmove pass")
            return not self._ended
        self._do(command, args, number)
        return not self._ended

    def run(self, lines: Iterable[str | None]) -> None:
        """`handle` each line (read in a thread of its own; None stands for a
        line too long to read) until ``quit``, the end of the input or a closed
        output (the module docstring), then `close`."""
        inbox: queue.Queue[Any] = queue.Queue(maxsize=16)
        threading.Thread(target=_feed, args=(lines, inbox, lambda: self._ended),
                         name="ucgi-input", daemon=True).start()
        try:
            while not self._ended:
                try:
                    item = inbox.get(timeout=POLL)
                except queue.Empty:
                    self._look_at_output()
                    continue
                if item is _EOF:
                    self._finish()
                    break
                if item is None:
                    self.error(f"a line longer than {MAX_LINE:,} bytes; ignored")
                elif not self.handle(item):
                    break
        finally:
            self.close()

    def _look_at_output(self) -> None:
        if self._gone is not None and not self._closed and self._gone():
            with self._out:
                self._closed = True
            self._end()

    def _finish(self) -> None:
        """The end of the input: the lines received are done, the searches
        ending `GRACE` seconds after it at most (an infinite one stopped now);
        `LAST` seconds after it, the lines still waiting are dropped (in real
        time: the searches started after it get `GRACE` on their own clock)."""
        ending = time.perf_counter() + GRACE
        with self._lock:
            self._ending = clock() + GRACE
            job = self._job
        if job is not None and job.hold:
            job.stop.set()
        while time.perf_counter() < ending - GRACE + LAST:
            with self._lock:
                if not self._busy:
                    return
                self._lock.wait(timeout=POLL)
            self._look_at_output()
            if self._ended:
                return
            if time.perf_counter() >= ending:
                self._stop_all()

    def close(self, timeout: float = 2 * SLICE + 1.0) -> None:
        """End the session: stop the running search, drop the lines waiting for
        it, and wait a moment for its ``bestmove``."""
        self._end()
        until = time.monotonic() + timeout
        while time.monotonic() < until:
            with self._lock:
                if not self._busy:
                    return
                job = self._job
            if job is not None and job.thread is not None:
                job.thread.join(timeout=max(0.0, until - time.monotonic()))
            else:
                with self._lock:
                    self._lock.wait(timeout=POLL)

    def _end(self) -> None:
        """Nothing more is done: every search stopped, no line waits."""
        self._ended = True
        self._stop_all(drop=True)

    def _stop_all(self, *, drop: bool = False) -> None:
        """Stop the running search and those of the go lines received (and
        with ``drop`` forget the lines waiting)."""
        with self._lock:
            self._stopped_gos = self._gos
            if drop:
                self._waiting.clear()
                self._waiting_bytes = 0
            job = self._job
        if job is not None:
            job.stop.set()

    def _do(self, command: str, args: list[str], number: int) -> bool:
        """Do one command (a `RacketyError` said in one line); True when it
        started a search."""
        try:
            if command == "go":
                return self._cmd_go(args, number)
            if getattr(self, f"_cmd_{command}")(args) is False:
                self._end()
        except RacketyError as exc:
            self.error(str(exc))
        except Exception as exc:  # a bug: one line, and the engine goes on
            self.error(f"{command}: internal error: {type(exc).__name__}: {exc}")
        return False

    def _resume(self, job: _Job) -> None:
        """After ``job``'s bestmove, in its thread: do the lines that waited for
        it, until one starts a search (whose thread goes on with the rest)."""
        while True:
            with self._lock:
                if self._job is job:
                    self._job = None
                if not self._waiting or self._ended:
                    self._waiting.clear()
                    self._waiting_bytes = 0
                    self._busy = False
                    self._lock.notify_all()
                    return
                line, number = self._waiting.popleft()
                self._waiting_bytes -= len(line)
            found = _command(line.split())
            if found is not None and self._do(*found, number):
                return

    # ------------------------------------------------------------- set-up
    def _default_lexicon(self) -> Lexicon:
        lexicons = self.lexicons
        return lexicons.get(lexicons.name_for())

    def _lexicon_now(self) -> Lexicon:
        """The lexicon of the position, or the one a position without ``lex`` gets."""
        return self.lexicon if self.lexicon is not None else self._default_lexicon()

    def _make(self, spec: str, lexicon: Lexicon) -> Player:
        """The player of ``spec``; refused unless it keeps to a control."""
        player = make_player(spec, lexicon)
        if not is_controlled(player):
            raise RacketyError(f"player {clip(spec)!r} cannot be stopped or kept to a move "
                               "time; the engine plays by static, greedy, h1, h2, h3, "
                               "leaves:FILE.klv2, sim, sim:N, best, best:SECONDS, any of them "
                               "+endgame")
        return player

    def _player(self, lexicon: Lexicon) -> Player:
        with self._setup:
            if id(lexicon) not in self._players:
                self._players[id(lexicon)] = self._make(self.player_spec, lexicon)
            return self._players[id(lexicon)]

    def prepare(self) -> None:
        """Load the lexicon and make the player (what ``isready`` waits for)."""
        self._player(self._lexicon_now())

    # ----------------------------------------------------------- commands
    def _cmd_ucgi(self, tokens: list[str]) -> None:
        self.send(f"id name rackety {_version()}")
        self.send(f"id author {AUTHOR}")
        self.send(f"option name Player type string default {self.player_spec}")
        self.send(f"option name Lexicon type string default {self.lexicons.preferred or '<empty>'}")
        self.send("ucgiok")

    def _cmd_debug(self, tokens: list[str]) -> None:
        word = tokens[0].lower() if tokens else ""
        if word not in ("on", "off"):
            raise RacketyError("debug: expected on or off")
        self.debug = word == "on"

    def _cmd_isready(self, tokens: list[str]) -> None:
        with self._lock:
            busy = self._busy
        if not busy:
            try:
                self.prepare()
            except RacketyError as exc:  # said, and the engine is as ready as it gets
                self.error(f"isready: {exc}")
            except Exception as exc:  # a bug: said in one line, and readyok all the same
                self.error(f"isready: internal error: {type(exc).__name__}: {exc}")
        self.send("readyok")

    def _cmd_register(self, tokens: list[str]) -> None:
        """Nothing to register."""

    def _cmd_ucginewgame(self, tokens: list[str]) -> None:
        self.board, self.lexicon = None, None
        with self._setup:
            self._players.clear()  # a player may follow the game (best)
        self._turn = 0

    def _cmd_stop(self, tokens: list[str]) -> None:
        self._stop_all()

    def _cmd_quit(self, tokens: list[str]) -> bool:
        return False

    def _cmd_setoption(self, tokens: list[str]) -> None:
        low = [t.lower() for t in tokens]
        if not low or low[0] != "name" or len(low) < 2:
            raise RacketyError("setoption: expected 'name <id> [value <x>]'")
        cut = low.index("value", 1) if "value" in low[1:] else len(low)
        name, value = " ".join(tokens[1:cut]), " ".join(tokens[cut + 1:])
        if name.lower() == "player":
            spec = _check_spec(value)
            if not spec:
                raise RacketyError("setoption Player: give a player spec (static, sim:200 ...)")
            lexicon = self._lexicon_now()
            player = self._make(spec, lexicon)  # a bad spec is refused here
            with self._setup:
                self.player_spec = spec
                self._players = {id(lexicon): player}
        elif name.lower() == "lexicon":
            old = self.lexicons.preferred
            self.lexicons.preferred = None if value in ("", "<empty>") else value
            try:
                lexicon = self.lexicons.for_board(self.board, strict=True) \
                    if self.board is not None else self._default_lexicon()
                self._player(lexicon)
            except RacketyError:
                self.lexicons.preferred = old
                raise
            if self.board is not None:
                self.lexicon = lexicon
        else:
            raise RacketyError(f"setoption: no option {clip(name, 40)!r} (options: Player, "
                               "Lexicon)")

    def _cmd_position(self, tokens: list[str]) -> None:
        self.board, self.lexicon = None, None  # a position refused leaves none
        kind = tokens[0].lower() if tokens else ""
        if kind == "cgp":
            rest = tokens[1:]
            cut = next((i for i in range(4, len(rest)) if rest[i].lower() == "moves"),
                       len(rest))
            board = Board.from_cgp(" ".join(rest[:cut]), source="position cgp")
            rest = rest[cut:]
        elif kind == "startpos":
            board = Board.empty(self._default_lexicon().alphabet)
            rest = tokens[1:]
        else:
            raise RacketyError("position: expected 'cgp <CGP> [moves ...]' or 'startpos "
                               "[moves ...]'")
        if rest:
            if rest[0].lower() != "moves":
                raise RacketyError(f"position: expected 'moves' after the position, not "
                                   f"{clip(rest[0], 40)!r}")
            for text in rest[1:]:
                board = play_entry(board, parse_entry(text, board))
            # the counts of tiles, racks and scores checked again, as a CGP is
            board = Board.from_cgp(board.cgp(), alphabet=board.alphabet, layout=board.layout,
                                   source="position after its moves")
        lexicon = self.lexicons.for_board(board, strict=True)
        self.board, self.lexicon = board, lexicon

    def _cmd_go(self, tokens: list[str], number: int) -> bool:
        """Start the search of a ``go`` (True), or answer ``bestmove pass`` at
        once when there is nothing to search (False)."""
        go, problems = parse_go(tokens)
        said = _Said(self, "go")
        for problem in problems:
            said.add(problem.removeprefix("go: "))
        if self.debug and go.ignored:
            self.send(one_line(f"info string debug: go: not used: {' '.join(go.ignored)}"))
        board, lexicon = self.board, self.lexicon
        player = None
        if board is None or lexicon is None:
            said.add("no position (send position cgp ... first)")
        else:
            try:
                player = self._player(lexicon)
            except RacketyError as exc:
                said.add(str(exc))
            except Exception as exc:  # a bug: said, and a bestmove still
                said.add(f"internal error: {type(exc).__name__}: {exc}")
        if board is None or lexicon is None or player is None:
            said.flush()
            self.send("bestmove pass")
            return False
        self._turn += 1
        stop = threading.Event()
        t0 = clock()
        deadline = None
        game_clock = None
        if go.movetime is not None and not go.infinite:
            deadline = t0 + max(0.0, 0.95 * go.movetime / 1000 - 0.02)
        elif go.clock is not None and not go.infinite:
            # a game clock: the judge's share of it for this turn (`clock_seconds`)
            from rackety.search.judge import clock_seconds

            game_clock = max(0.0, go.clock / 1000)
            deadline = t0 + clock_seconds(board, game_clock, increment=go.increment / 1000)
        with self._lock:
            ending = self._ending
            if ending is not None:  # after the end of the input: nothing is held
                deadline = ending if deadline is None else min(deadline, ending)
            if number <= self._stopped_gos or self._ended:
                stop.set()
            control = Control(deadline, stop, game_clock, go.increment / 1000)
            job = _Job(number, go, board, lexicon, player, control, said,
                       self._turn, go.infinite and ending is None, t0)
            job.thread = threading.Thread(target=self._search, args=(job,), name="ucgi-search",
                                          daemon=True)
            self._job = job
            self._busy = True
        job.thread.start()
        return True

    # ------------------------------------------------------------- search
    def _search(self, job: _Job) -> None:
        """The search of one ``go``, in its thread: always ends with
        ``bestmove``, then does the lines that waited for it."""
        move = Move("pass", alphabet=job.board.alphabet)
        try:
            move = self._think(job)
        except RacketyError as exc:
            job.said.add(str(exc))
        except Exception as exc:  # a bug: one line, and the engine goes on
            job.said.add(f"internal error: {type(exc).__name__}: {exc}")
        if job.hold:
            job.stop.wait()  # the protocol: an infinite search ends at stop only
        job.said.flush()
        self.send(f"bestmove {move_text(move, job.board.alphabet)}")
        self._resume(job)

    def _moves_of(self, job: _Job, texts: list[str], what: str) -> list[Move]:
        """The moves a ``go`` lists (the first `MAX_LISTED`), read on its
        board; each one that is not a move is a problem, and left out."""
        out = []
        if len(texts) > MAX_LISTED:
            job.said.add(f"{what}: {len(texts):,} moves; the first {MAX_LISTED:,} are read")
        for text in texts[:MAX_LISTED]:
            try:
                entry = parse_entry(text, job.board)
            except RacketyError as exc:
                job.said.add(f"{what}: {exc}")
                continue
            if entry.move is None or entry.unknown_tiles:
                job.said.add(f"{what}: {clip(text, 40)!r} is not a move with its tiles")
                continue
            out.append(entry.move)
        return out

    def _legal(self, job: _Job, leave: Any, wanted: list[Move], what: str) -> list[Move]:
        """The legal moves among ``wanted``, best first by the static equity of
        ``leave``; each one that is not legal is a problem."""
        board = job.board
        found = find_moves(board.moves(job.lexicon, mode="all", leave=leave), wanted)
        keys = {move_key(m) for m in found}
        for move in wanted:
            if move_key(move) not in keys:
                job.said.add(f"{what}: {move_text(move, board.alphabet)} is not legal here")
        return found

    def _think(self, job: _Job) -> Move:
        board, go, player = job.board, job.go, job.player
        if not board.rack:
            raise RacketyError("the rack of the player to move is unknown (give it first "
                               "among the CGP's racks, or rack.TILES last among the moves)")
        wanted = self._moves_of(job, go.searchmoves, "searchmoves")
        if go.searchmoves and not wanted:
            job.said.add("searchmoves: no move read; searching every move")
        if isinstance(player, SimPlayer) and board.bag_count > 0:
            also = self._moves_of(job, go.alsosearchmoves, "alsosearchmoves")
            return self._simulate(job, player, wanted, also)
        if wanted:
            inner = getattr(player, "inner", player)
            found = self._legal(job, getattr(inner, "leave_model", None), wanted, "searchmoves")
            placed = [m for m in found if m.kind != "pass"]
            if found:
                move = (placed or found)[0]
                self._info(job, 1, move)
                return move
            job.said.add("searchmoves: none is legal; searching every move")
        job.said.flush()  # before what the search says
        move = decide_under(player, board, job.lexicon, job.control).move
        verdict = getattr(player, "last_verdict", None)
        win = nodes = None
        depth = 1
        if verdict is not None and verdict.of(move) is not None:
            win = verdict.of(move).win_pct
            nodes = sum(v.rollouts for v in verdict.ranked) or None
            # the plies searched: the move and its rollouts' plies, or the endgame's depth
            result = verdict.result
            depth = int(getattr(result, "depth", 0) or getattr(result, "plies", 0) + 1)
        self._info(job, depth, move, win=win, nodes=nodes)
        if isinstance(player, BestPlayer):  # where the move came from (issue 38)
            self.send(one_line(f"info string {player.explain(board)}", MAX_MESSAGE))
        return move

    def _info(self, job: _Job, depth: int, move: Move, *, win: float | None = None,
              nodes: int | None = None) -> None:
        job.said.flush()  # the go's problems come first
        ms = int(1000 * (clock() - job.t0))
        parts = [f"info depth {depth}"]
        if move.equity is not None:
            parts.append(f"score eq {move.equity:.3f}" + (f" wp {win:.2f}" if win is not None
                                                         else ""))
        parts.append(f"time {ms}")
        if nodes is not None:
            parts.append(f"nodes {nodes} nps {int(nodes * 1000 / max(ms, 1))}")
        parts.append(f"pv {move_text(move, job.board.alphabet)}")
        self.send(" ".join(parts))

    def _simulate(self, job: _Job, player: SimPlayer, wanted: list[Move],
                  also: list[Move]) -> Move:
        """`rackety.search.simulation.simulate` in slices (each seeded on its
        own, so together they are one longer simulation), until the job's
        control says stop (``movetime``, ``stop``), or the player's rollouts
        (or seconds) without a move time; the candidates are the player's best
        static moves, or ``searchmoves``, and ``alsosearchmoves``."""
        from rackety.frontends.shapes import sim_move_json
        from rackety.search.simulation import Candidate, simulate

        board, lexicon, go, control = job.board, job.lexicon, job.go, job.control
        model = leave_model(player.leave, lexicon)
        static = static_decision(board, lexicon, model).move
        candidates = self._legal(job, model, wanted, "searchmoves") if wanted else []
        if not candidates:
            if wanted:
                job.said.add("searchmoves: none is legal; simulating the best moves")
            wanted = []
            candidates = list(board.moves(lexicon, mode="top", top=player.candidates,
                                          leave=model))
        if also:
            known = {move_key(m) for m in candidates}
            candidates += [m for m in self._legal(job, model, also, "alsosearchmoves")
                           if move_key(m) not in known]
        self._info(job, 1, static)  # the quick answer, while the simulation runs
        if not candidates:
            return static
        plies = player.plies if go.depth is None else go.depth
        own = per_candidate = None
        if go.movetime is None and not go.infinite:
            per_candidate = player.iterations
            if player.seconds is not None:
                own = job.t0 + player.seconds
        index = {move_key(m): i for i, m in enumerate(candidates)}
        # each candidate's rollouts of every slice, as running totals
        totals = [Candidate(m, float(m.equity or 0.0)) for m in candidates]
        done = 0
        for k in itertools.count():
            seconds = control.slice()
            if own is not None:
                seconds = min(seconds, own - clock())
            left = None if per_candidate is None else per_candidate - done
            if control.stopped() or seconds <= 0 or (left is not None and left <= 0):
                break
            seed = ((player.seed * 1_000_003 + job.turn) * 1_000_003 + k) % (1 << 62)
            result = simulate(board, lexicon, leave=player.leave, candidates=len(candidates),
                              plies=plies, iterations=left, seconds=seconds, seed=seed, jobs=1,
                              drop=False, batch=BATCH, moves=candidates, control=control)
            for c in result.candidates:
                i = index[move_key(c.move)]
                totals[i].merge(c)
            done += result.iterations
            best = min(range(len(candidates)), key=lambda i: _rank(totals[i]))
            self._info(job, plies, _with_equity(candidates[best], _mean(totals[best])),
                       win=totals[best].win_pct, nodes=done * len(candidates))
        if done == 0:
            ranked = list(range(len(candidates)))  # the static order
        else:
            ranked = sorted(range(len(candidates)), key=lambda i: _rank(totals[i]))
            for n, i in enumerate(ranked, 1):  # the values of `rackety sim --json`'s rows
                row = sim_move_json(board, totals[i])
                self.send(f"info currmove {move_text(candidates[i], board.alphabet)} "
                          f"currmovenumber {n} score eq {row['equity']:.3f} "
                          f"wp {row['win_pct']:.2f} nodes {row['iterations']}")
        order = [candidates[i] for i in ranked]
        best_move = next((m for m in order if m.kind != "pass"), order[0])
        if not wanted and best_move.kind == "pass" and static.kind != "pass":
            best_move = static  # never a pass the static player would not make
        return best_move


def _rank(total: Candidate) -> tuple[float, float]:
    """A candidate's place in the simulation's order
    (`rackety.search.simulation.rank_key`: win %, then equity), after every
    other when it has no rollout."""
    from rackety.search.simulation import rank_key

    if not total.iterations:
        return (math.inf, math.inf)
    return rank_key(total.win_pct, total.mean)


def _mean(total: Candidate) -> float:
    """A candidate's mean value, below every other when it has no rollout."""
    return total.mean if total.iterations else float("-inf")


def _with_equity(move: Move, equity: float) -> Move:
    return replace(move, equity=equity)


def _command(tokens: list[str]) -> tuple[str, list[str]] | None:
    """The command of a line's tokens and its arguments (tokens before a known
    command skipped, as the protocol says); None without a known command."""
    for i, token in enumerate(tokens):
        command = token.lower()
        if command in COMMANDS:
            return command, tokens[i + 1:]
    return None


def _feed(lines: Iterable[str | None], inbox: queue.Queue[Any],
          ended: Callable[[], bool]) -> None:
    """Put each line into ``inbox``, then `_EOF` (also when the input fails);
    stop once ``ended`` says the engine takes no more."""

    def put(item: Any) -> bool:
        while not ended():
            try:
                inbox.put(item, timeout=POLL)
                return True
            except queue.Full:
                continue
        return False

    try:
        for line in lines:
            if not put(line):
                return
    except (OSError, ValueError):
        pass
    put(_EOF)


def output_gone(stream: IO[str]) -> Callable[[], bool] | None:
    """A look at whether the reader of ``stream`` went away (a pipe whose
    other end was closed, a terminal hung up), without writing to it; None
    where that cannot be told."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None
    if not hasattr(select, "poll"):
        return None

    def gone() -> bool:
        poller = select.poll()
        poller.register(fd, 0)  # errors and hang-ups are always reported
        try:
            events = poller.poll(0)
        except OSError:
            return True
        return any(mask & (select.POLLERR | select.POLLHUP | select.POLLNVAL)
                   for _, mask in events)

    return gone


def serve(lexicons: Lexicons, *, player: str = "static", stdin: IO[bytes],
          stdout: IO[str], end_process: bool = False, warm: bool = False) -> None:
    """Run the engine on ``stdin`` and ``stdout`` until ``quit``, the end of
    the input or a closed output (the module docstring). The player and the
    lexicon are made first, so a bad ``--player`` or ``--lexicon`` is a
    `RacketyError` before any line is read. ``end_process`` (``rackety
    ucgi``): the process then ends at once, with status 0, without the
    interpreter's teardown of the compiled kernels (about a second). ``warm``
    (``rackety ucgi`` with a player that searches): the kernels ``rackety
    compile`` compiled are loaded first (`rackety.frontends.compile.warm`,
    about a second, said nowhere: the protocol owns the output), so that no
    ``go movetime`` is spent on them; a kernel not compiled ahead compiles at
    its first use, off the search's clock (`rackety.search.control.clock`)."""

    def write(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    engine = Engine(write, lexicons, player=player, gone=output_gone(stdout))
    engine.prepare()
    if warm and any(word in player for word in ("sim", "best", "endgame")):  # searches
        from rackety.frontends.compile import warm as warm_kernels

        warm_kernels(compile_missing=False)
    try:
        engine.run(read_lines(stdin))
    finally:
        if engine.closed:  # what is left in stdout's buffer goes nowhere, quietly
            with contextlib.suppress(AttributeError, OSError, ValueError):
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, stdout.fileno())
                os.close(devnull)
    if end_process:
        for stream in (stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(0)
