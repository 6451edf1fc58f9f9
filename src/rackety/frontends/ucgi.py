"""``rackety ucgi``: rackety as an engine of the Universal Crossword Game
Interface (UCGI, ``ucgi/ucgi.md`` of woogles-io/open-protocols, UCI for
crossword games), so that a GUI or another program can use it. The move
format and the client side (`UcgiPlayer`) are `rackety.players.ucgi`.

The engine reads one command a line on its standard input and answers on its
standard output, a line at a time, flushed:

- ``ucgi``: ``id name``, ``id author``, the ``option`` lines (``Player``, the
  player spec the engine plays by, `rackety.players.make_player`; ``Lexicon``,
  which wins over a position's ``lex``), then ``ucgiok``;
- ``isready``: ``readyok`` once the lexicon and the player are ready (at once
  while a search runs);
- ``setoption name Player value sim:200``, ``setoption name Lexicon value CSW19``;
- ``debug on|off`` (each line received is said back as ``info string debug``),
  ``register`` (nothing to register), ``ucginewgame``;
- ``position cgp <CGP> [moves m1 m2 ...]`` or ``position startpos [moves ...]``:
  the CGP, then its moves played (a player who drew after a move has an
  unknown rack; ``rack.TILES`` gives the rack of the player to move);
- ``go [movetime MS] [depth N] [infinite] [searchmoves m ...] [alsosearchmoves
  m ...]``: the search runs in a thread, so ``isready`` and ``stop`` are
  answered while it thinks (``position``, ``go``, ``setoption`` and
  ``ucginewgame`` wait for it to end, so a script may send them at once);
  ``info`` lines say what it found and ``bestmove`` ends every ``go``. A
  static player (``static``, ``greedy``, ``h3`` ...) answers at once
  (``depth`` and ``movetime`` change nothing); a simulating player
  (``sim``, ``sim:N``) simulates its best static candidates for
  ``movetime`` (or its own N rollouts a candidate), ``depth`` plies each, in
  slices of a quarter second so that ``stop`` ends it. ``infinite`` searches
  until ``stop`` (a static answer is held until then, as the protocol asks).
  ``searchmoves`` restricts the candidates, ``alsosearchmoves`` adds to the
  simulated ones. The clocks (``1time`` ...), ``threads``, ``firstwin`` and
  ``stopcondition`` are read and not used;
- ``stop``, ``quit``.

An unknown command, or one that cannot be done, is answered with one line
``info string error: ...`` and the engine goes on (tokens before a known
command are skipped, as the protocol says). A ``go`` that cannot search still
ends with ``bestmove pass``.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import IO, TYPE_CHECKING, Any

from rackety.errors import RacketyError, clip, one_line, parse_int
from rackety.game.board import Board
from rackety.game.heuristics import leave_model
from rackety.game.move import Move
from rackety.players import SimPlayer, make_player
from rackety.players.endgame import ENDGAME_SUFFIX
from rackety.players.static import static_decision
from rackety.players.ucgi import (
    UCGI_PREFIX,
    UcgiEntry,
    find_moves,
    move_key,
    move_text,
    parse_entry,
)

if TYPE_CHECKING:
    from rackety.frontends.common import Lexicons
    from rackety.lexicon import Lexicon
    from rackety.players import Player

COMMANDS = ("ucgi", "debug", "isready", "setoption", "register", "ucginewgame", "position",
            "go", "stop", "quit")
MAX_MS = 1_000_000_000  # about eleven days
GO_VALUES = {"movetime": (0, MAX_MS), "depth": (0, 20), "1time": (-MAX_MS, MAX_MS),
             "2time": (-MAX_MS, MAX_MS), "1inc": (0, MAX_MS), "2inc": (0, MAX_MS),
             "stopcondition": (0, 100), "threads": (1, 4096)}
GO_FLAGS = ("infinite", "firstwin")
GO_LISTS = ("searchmoves", "alsosearchmoves")
GO_WORDS = frozenset((*GO_VALUES, *GO_FLAGS, *GO_LISTS))
MAX_LINE = 1 << 20  # bytes of a command line; a longer one is refused whole
SLICE = 0.25  # seconds of simulation between looks at the clock and at stop
BATCH = 16  # rollouts a candidate in one step of the simulation
AUTHOR = "the rackety authors"


@dataclass
class Go:
    """The parameters of one ``go``: ``movetime`` in milliseconds, ``depth`` in
    plies, ``infinite``, the moves of ``searchmoves`` and ``alsosearchmoves`` as
    written, and what was read but is not used (``ignored``)."""

    movetime: int | None = None
    depth: int | None = None
    infinite: bool = False
    searchmoves: list[str] = field(default_factory=list)
    alsosearchmoves: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)


def parse_go(tokens: list[str]) -> tuple[Go, list[str]]:
    """A ``go`` command's parameters, and the problems found reading them (a
    parameter with a bad value is left out; an unknown token is ignored, as
    the protocol says).

    >>> parse_go("movetime 500 searchmoves 8h.PANDY pass depth x".split())
    (Go(movetime=500, depth=None, infinite=False, searchmoves=['8h.PANDY', 'pass'], \
alsosearchmoves=[], ignored=[]), ["go: depth 'x' is not a whole number (0 to 20)"])
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
                           "greedy, h1, h2, h3, leaves:FILE.klv2, sim, sim:N, any of them "
                           "+endgame)")
    return spec.strip()


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("rackety")
    except metadata.PackageNotFoundError:
        return "unknown"


class Engine:
    """One UCGI session: `handle` takes each line received, ``write`` sends
    each line of the answer (a line, without its end). ``lexicons`` are the
    lexicons the engine may use (`rackety.frontends.common.Lexicons`; its
    ``preferred`` one is the ``Lexicon`` option), ``player`` the spec of the
    player it plays by."""

    def __init__(self, write: Callable[[str], None], lexicons: Lexicons, *,
                 player: str = "static") -> None:
        self._write = write
        self.lexicons = lexicons
        self.player_spec = _check_spec(player)
        self.debug = False
        self.board: Board | None = None
        self.lexicon: Lexicon | None = None
        self._players: dict[tuple[str, int], Player] = {}
        self._out = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._busy = False  # a search runs (cleared as its bestmove is sent)
        self._infinite = False
        self._closed = False  # the output went away
        self._turn = 0

    # ---------------------------------------------------------------- output
    def send(self, line: str) -> None:
        """Write one line of the answer (nothing once the output went away)."""
        with self._out:
            if self._closed:
                return
            try:
                self._write(line)
            except (OSError, ValueError):
                self._closed = True

    def error(self, message: str) -> None:
        """Say what went wrong, in one ``info string error:`` line."""
        self.send(f"info string error: {one_line(message)}")

    # ----------------------------------------------------------------- input
    def handle(self, line: str) -> bool:
        """Do one command line; False once the engine should end (``quit``, or
        its output went away)."""
        tokens = line.split()
        if self.debug and tokens:
            self.send(f"info string debug: received {one_line(clip(line.strip(), 200))}")
        for i, token in enumerate(tokens):  # noqa: B007 (i is used after the loop)
            command = token.lower()
            if command in COMMANDS:
                break
        else:
            if tokens:
                self.error(f"unknown command {clip(tokens[0], 40)!r}; commands: "
                           f"{', '.join(COMMANDS)}")
            return not self._closed
        try:
            going = getattr(self, f"_cmd_{command}")(tokens[i + 1:])
        except RacketyError as exc:
            self.error(str(exc))
            going = True
        except Exception as exc:  # a bug: one line, and the engine goes on
            self.error(f"{command}: internal error: {type(exc).__name__}: {exc}")
            going = True
        return going is not False and not self._closed

    def run(self, lines: Iterable[str | None]) -> None:
        """`handle` each line until ``quit`` (None stands for a line too long to
        read); at the end of the input, a running search is let finish (an
        infinite one is stopped) so that its ``bestmove`` is said."""
        for line in lines:
            if line is None:
                self.error(f"a line longer than {MAX_LINE:,} bytes; ignored")
                continue
            if not self.handle(line):
                break
        else:
            if self._busy and self._infinite:
                self._stop.set()
            thread = self._thread
            if thread is not None:
                thread.join()
        self.close()

    def close(self) -> None:
        """Stop a running search and wait a moment for it."""
        self._stop.set()
        thread = self._thread
        if thread is not None:
            thread.join(timeout=2 * SLICE + 1.0)

    # ------------------------------------------------------------- set-up
    def _default_lexicon(self) -> Lexicon:
        lexicons = self.lexicons
        return lexicons.get(lexicons.name_for())

    def _lexicon_now(self) -> Lexicon:
        """The lexicon of the position, or the one a position without ``lex`` gets."""
        return self.lexicon if self.lexicon is not None else self._default_lexicon()

    def _player(self, lexicon: Lexicon) -> Player:
        key = (self.player_spec, id(lexicon))
        if key not in self._players:
            self._players[key] = make_player(self.player_spec, lexicon)
        return self._players[key]

    def prepare(self) -> None:
        """Load the lexicon and make the player (what ``isready`` waits for)."""
        self._player(self._lexicon_now())

    def _wait_for_search(self, command: str) -> None:
        """Let a running search end before ``command`` (its ``bestmove`` comes
        first); an infinite one ends only at ``stop``, so the command is refused."""
        if not self._busy:
            return
        if self._infinite:
            raise RacketyError(f"{command}: not while searching infinitely (send stop first)")
        thread = self._thread
        if thread is not None:
            thread.join()

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
        if not self._busy:
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
        self._wait_for_search("ucginewgame")
        self.board, self.lexicon = None, None
        self._turn = 0

    def _cmd_stop(self, tokens: list[str]) -> None:
        self._stop.set()

    def _cmd_quit(self, tokens: list[str]) -> bool:
        self._stop.set()
        return False

    def _cmd_setoption(self, tokens: list[str]) -> None:
        self._wait_for_search("setoption")
        low = [t.lower() for t in tokens]
        if not low or low[0] != "name" or len(low) < 2:
            raise RacketyError("setoption: expected 'name <id> [value <x>]'")
        cut = low.index("value", 1) if "value" in low[1:] else len(low)
        name, value = " ".join(tokens[1:cut]), " ".join(tokens[cut + 1:])
        if name.lower() == "player":
            spec = _check_spec(value)
            if not spec:
                raise RacketyError("setoption Player: give a player spec (static, sim:200 ...)")
            make_player(spec, self._lexicon_now())  # a bad spec is refused here
            self.player_spec = spec
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
        self._wait_for_search("position")
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

    def _cmd_go(self, tokens: list[str]) -> None:
        self._wait_for_search("go")
        go, problems = parse_go(tokens)
        for problem in problems:
            self.error(problem)
        if self.debug and go.ignored:
            self.send(one_line(f"info string debug: go: not used: {' '.join(go.ignored)}"))
        board, lexicon = self.board, self.lexicon
        if board is None or lexicon is None:
            self.error("go: no position (send position cgp ... first)")
            self.send("bestmove pass")
            return
        try:
            player = self._player(lexicon)
        except Exception as exc:  # a bad player spec, or a bug: said, and a bestmove still
            self.error(f"go: {exc}" if isinstance(exc, RacketyError) else
                       f"go: internal error: {type(exc).__name__}: {exc}")
            self.send("bestmove pass")
            return
        self._turn += 1
        self._stop.clear()
        self._busy, self._infinite = True, go.infinite
        self._thread = threading.Thread(target=self._search,
                                        args=(board, lexicon, player, go, self._turn),
                                        name="ucgi-search", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------- search
    def _search(self, board: Board, lexicon: Lexicon, player: Player, go: Go,
                turn: int) -> None:
        """The search of one ``go``, in its thread: always ends with ``bestmove``."""
        move = Move("pass", alphabet=board.alphabet)
        try:
            move = self._think(board, lexicon, player, go, turn, time.perf_counter())
        except RacketyError as exc:
            self.error(f"go: {exc}")
        except Exception as exc:  # a bug: one line, and the engine goes on
            self.error(f"go: internal error: {type(exc).__name__}: {exc}")
        if go.infinite:
            self._stop.wait()  # the protocol: an infinite search ends at stop only
        with self._out:
            self._busy = False
            self.send(f"bestmove {move_text(move, board.alphabet)}")

    def _moves_of(self, board: Board, texts: list[str], what: str) -> list[Move]:
        """The moves a ``go`` lists, read on ``board``; each one that is not a
        move is said and left out."""
        out = []
        for text in texts:
            try:
                entry = parse_entry(text, board)
            except RacketyError as exc:
                self.error(f"go: {what}: {exc}")
                continue
            if entry.move is None or entry.unknown_tiles:
                self.error(f"go: {what}: {clip(text, 40)!r} is not a move with its tiles")
                continue
            out.append(entry.move)
        return out

    def _legal(self, board: Board, lexicon: Lexicon, leave: Any, wanted: list[Move],
               what: str) -> list[Move]:
        """The legal moves among ``wanted``, best first by the static equity of
        ``leave``; each one that is not legal is said."""
        found = find_moves(board.moves(lexicon, mode="all", leave=leave), wanted)
        keys = {move_key(m) for m in found}
        for move in wanted:
            if move_key(move) not in keys:
                self.error(f"go: {what}: {move_text(move, board.alphabet)} is not legal here")
        return found

    def _think(self, board: Board, lexicon: Lexicon, player: Player, go: Go, turn: int,
               t0: float) -> Move:
        if not board.rack:
            raise RacketyError("the rack of the player to move is unknown (give it first "
                               "among the CGP's racks, or rack.TILES last among the moves)")
        wanted = self._moves_of(board, go.searchmoves, "searchmoves")
        if go.searchmoves and not wanted:
            self.error("go: searchmoves: no move read; searching every move")
        if isinstance(player, SimPlayer) and board.bag_count > 0:
            also = self._moves_of(board, go.alsosearchmoves, "alsosearchmoves")
            return self._simulate(board, lexicon, player, go, turn, t0, wanted, also)
        if wanted:
            inner = getattr(player, "inner", player)
            found = self._legal(board, lexicon, getattr(inner, "leave_model", None), wanted,
                                "searchmoves")
            placed = [m for m in found if m.kind != "pass"]
            if found:
                move = (placed or found)[0]
                self._info(1, move, t0, board)
                return move
            self.error("go: searchmoves: none is legal; searching every move")
        move = player.decide(board, lexicon).move
        self._info(1, move, t0, board)
        return move

    def _info(self, depth: int, move: Move, t0: float, board: Board, *,
              win: float | None = None, nodes: int | None = None) -> None:
        ms = int(1000 * (time.perf_counter() - t0))
        parts = [f"info depth {depth}"]
        if move.equity is not None:
            parts.append(f"score eq {move.equity:.3f}" + (f" wp {win:.2f}" if win is not None
                                                         else ""))
        parts.append(f"time {ms}")
        if nodes is not None:
            parts.append(f"nodes {nodes} nps {int(nodes * 1000 / max(ms, 1))}")
        parts.append(f"pv {move_text(move, board.alphabet)}")
        self.send(" ".join(parts))

    def _simulate(self, board: Board, lexicon: Lexicon, player: SimPlayer, go: Go,
                  turn: int, t0: float, wanted: list[Move], also: list[Move]) -> Move:
        """`rackety.search.simulation.simulate` in slices (each seeded on its
        own, so together they are one longer simulation), until the move
        time, the player's rollouts, or ``stop``; the candidates are the
        player's best static moves, or ``searchmoves``, and ``alsosearchmoves``."""
        from rackety.search.simulation import simulate

        model = leave_model(player.leave, lexicon)
        static = static_decision(board, lexicon, model).move
        self._info(1, static, t0, board)  # the quick answer, while the simulation runs
        candidates = self._legal(board, lexicon, model, wanted, "searchmoves") if wanted else []
        if not candidates:
            if wanted:
                self.error("go: searchmoves: none is legal; simulating the best moves")
            wanted = []
            candidates = list(board.moves(lexicon, mode="top", top=player.candidates,
                                          leave=model))[:player.candidates]
        if also:
            known = {move_key(m) for m in candidates}
            candidates += [m for m in self._legal(board, lexicon, model, also, "alsosearchmoves")
                           if move_key(m) not in known]
        if not candidates:
            return static
        plies = player.plies if go.depth is None else go.depth
        deadline = per_candidate = None
        if go.movetime is not None and not go.infinite:
            deadline = t0 + max(0.0, 0.95 * go.movetime / 1000 - 0.02)
        elif not go.infinite:
            per_candidate = player.iterations
            if player.seconds is not None:
                deadline = t0 + player.seconds
        index = {move_key(m): i for i, m in enumerate(candidates)}
        values: list[list[float]] = [[] for _ in candidates]
        wins: list[list[float]] = [[] for _ in candidates]
        done = 0
        for k in itertools.count():
            seconds = SLICE
            if deadline is not None:
                seconds = min(seconds, deadline - time.perf_counter())
            left = None if per_candidate is None else per_candidate - done
            if self._stop.is_set() or seconds <= 0 or (left is not None and left <= 0):
                break
            seed = ((player.seed * 1_000_003 + turn) * 1_000_003 + k) % (1 << 62)
            result = simulate(board, lexicon, leave=player.leave, candidates=len(candidates),
                              plies=plies, iterations=left, seconds=seconds, seed=seed, jobs=1,
                              drop=False, batch=BATCH, moves=candidates)
            for c in result.candidates:
                i = index[move_key(c.move)]
                values[i].extend(c.values)
                wins[i].extend(c.wins)
            done += result.iterations
            best = max(range(len(candidates)), key=lambda i: _mean(values[i]))
            self._info(plies, _with_equity(candidates[best], _mean(values[best])), t0, board,
                       win=100 * _mean(wins[best]), nodes=done * len(candidates))
        if done == 0:
            ranked = list(range(len(candidates)))  # the static order
        else:
            ranked = sorted(range(len(candidates)), key=lambda i: -_mean(values[i]))
            for n, i in enumerate(ranked, 1):
                self.send(f"info currmove {move_text(candidates[i], board.alphabet)} "
                          f"currmovenumber {n} score eq {_mean(values[i]):.3f} "
                          f"wp {100 * _mean(wins[i]):.2f} nodes {len(values[i])}")
        order = [candidates[i] for i in ranked]
        best_move = next((m for m in order if m.kind != "pass"), order[0])
        if not wanted and best_move.kind == "pass" and static.kind != "pass":
            best_move = static  # never a pass the static player would not make
        return best_move


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("-inf")


def _with_equity(move: Move, equity: float) -> Move:
    return replace(move, equity=equity)


def read_lines(stream: IO[bytes]) -> Iterator[str | None]:
    """The lines of ``stream`` as text (bad UTF-8 replaced), None for a line
    longer than `MAX_LINE` bytes (read to its end and dropped)."""
    while True:
        raw = stream.readline(MAX_LINE + 1)
        if not raw:
            return
        if len(raw) > MAX_LINE:
            while raw and not raw.endswith(b"\n"):
                raw = stream.readline(MAX_LINE + 1)
            yield None
            continue
        yield raw.decode("utf-8", "replace")


def serve(lexicons: Lexicons, *, player: str = "static", stdin: IO[bytes],
          stdout: IO[str]) -> None:
    """Run the engine on ``stdin`` and ``stdout`` until ``quit`` or the end of
    the input. The player and the lexicon are made first, so a bad
    ``--player`` or ``--lexicon`` is a `RacketyError` before any line is read."""

    def write(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    engine = Engine(write, lexicons, player=player)
    engine.prepare()
    engine.run(read_lines(stdin))
