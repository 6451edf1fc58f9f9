"""The Universal Crossword Game Interface (UCGI, ``ucgi/ucgi.md`` of
woogles-io/open-protocols): its move format, and `UcgiPlayer`, any UCGI engine
as a player. The engine side is `rackety.frontends.ucgi` (``rackety ucgi``).

The protocol is UCI's, for crossword games: the engine reads commands on its
standard input and answers on its standard output, a line each (``ucgi`` ->
``id``/``option``/``ucgiok``, ``isready`` -> ``readyok``, ``position cgp ...``,
``go movetime 1000`` -> ``info ...`` and ``bestmove 8h.PANDY``).

Moves are written ``pos.WORD``: the square of the word's first letter, row
number first for a play across (``8h``), column letter first for a play down
(``h8``), then the whole main word, tiles already on the board as their bare
letters, a blank placed by the move in lower case and a multi-letter tile in
brackets (``[CH]``); ``ex.ABC`` is an exchange, ``pass`` a pass. In a
position's list of moves a play may add ``.RACK.CHALLPTS.TURNLOSS`` (the rack
it was played from, the points a challenge gave, ``1`` when the opponent lost
a turn challenging it), ``ex.4`` is an exchange of four unknown tiles, and
``rack.TILES`` gives the rack of the player to move.

>>> from rackety.game.board import Board
>>> board = Board.from_cgp("15/15/15/15/15/15/15/7PANDY3/15/15/15/15/15/15/15 AEINRST/ 30/0 0")
>>> entry = parse_entry("i7.HAs", board)
>>> entry.move
Move('I7 H(A)s')
>>> move_text(entry.move, board.alphabet), move_text(Move("exch ?AB")), move_text(Move("pass"))
('i7.HAs', 'ex.?AB', 'pass')
>>> parse_entry("i7.HOs", board)
Traceback (most recent call last):
...
rackety.errors.RacketyError: ucgi move 'i7.HOs': square 8I holds A, not O
"""

from __future__ import annotations

import contextlib
import queue
import shlex
import shutil
import subprocess
import threading
import time
import weakref
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from rackety.alphabet import Alphabet
from rackety.errors import RacketyError, clip, one_line, parse_int
from rackety.game.move import Move, coordinates, parse_move
from rackety.players.base import Decision, PlayerBase

if TYPE_CHECKING:
    from rackety.game.board import Board
    from rackety.lexicon import Lexicon

UCGI_PREFIX = "ucgi:"  # the player spec ucgi:COMMAND
MAX_LINE = 1 << 20  # bytes of a line of the protocol, either way; a longer one is refused
MAX_CHALLENGE_POINTS = 10_000
MAX_QUEUED = 64  # lines from an engine not read yet, at most (its output then waits)
MAX_STDERR = 300  # characters of each of an engine's last lines on stderr kept
_FORMAT = "pos.WORD[.RACK[.CHALLPTS[.TURNLOSS]]], ex.TILES, ex.N, pass or rack.TILES"


# ------------------------------------------------------------------ moves
def move_text(move: Move, alphabet: Alphabet | None = None) -> str:
    """A move in UCGI's format: ``8h.PANDY`` across, ``h8.PANDY`` down (tiles
    already on the board as bare letters), ``ex.ABC``, ``pass``."""
    alphabet = alphabet or move.alphabet or Alphabet.load("english")
    if move.kind == "pass":
        return "pass"
    if move.kind == "exchange":
        if not move.tiles:
            raise RacketyError("an exchange of unknown tiles has no move text")
        return f"ex.{alphabet.format(move.tiles, brackets=True)}"
    square = coordinates(move.row, move.col, move.down).lower()
    return f"{square}.{alphabet.format(move.tiles, brackets=True)}"


@dataclass(frozen=True)
class UcgiEntry:
    """One entry of a UCGI list of moves (``position ... moves``, ``bestmove``,
    ``searchmoves``): a ``move``, or None for ``rack.TILES``; the ``rack`` the
    entry gives (the mover's, or for ``rack.`` the player to move's);
    ``challenge_points`` and ``turn_loss`` of a play; ``unknown_tiles``, how
    many tiles an ``ex.N`` exchanged (its move has no tiles)."""

    move: Move | None
    rack: tuple[int, ...] | None = None
    challenge_points: int = 0
    turn_loss: bool = False
    unknown_tiles: int = 0


def parse_entry(text: str, board: Board) -> UcgiEntry:
    """Read one UCGI move (any form of the module's list) on ``board``; raises
    `RacketyError` in one line naming the text. The notation is checked against
    the board, not the lexicon or the rack (`find_moves` checks legality)."""
    alphabet = board.alphabet
    stripped = text.strip()
    where = f"ucgi move {clip(stripped)!r}"
    if not stripped or any(ch.isspace() for ch in stripped):
        raise RacketyError(f"{where}: expected {_FORMAT}")
    if stripped.lower() == "pass":
        return UcgiEntry(Move("pass", alphabet=alphabet))
    fields = stripped.split(".")
    head = fields[0].lower()
    if head == "rack":
        if len(fields) != 2:
            raise RacketyError(f"{where}: expected rack.TILES")
        return UcgiEntry(None, rack=alphabet.rack(fields[1], what=f"{where}: rack"))
    if head == "ex":
        if len(fields) not in (2, 3) or not fields[1]:
            raise RacketyError(f"{where}: expected ex.TILES[.RACK] or ex.N")
        rack = alphabet.rack(fields[2], what=f"{where}: rack") if len(fields) == 3 else None
        if fields[1].isascii() and fields[1].isdigit():
            count = parse_int(fields[1], f"{where}: tiles exchanged", 1, alphabet.rack_size)
            return UcgiEntry(Move("exchange", alphabet=alphabet), rack=rack,
                             unknown_tiles=count)
        tiles = alphabet.rack(fields[1], what=f"{where}: tiles exchanged")
        if rack is not None and Counter(tiles) - Counter(rack):
            raise RacketyError(f"{where}: the tiles exchanged are not all on the rack")
        return UcgiEntry(Move("exchange", tiles=tuple(sorted(tiles)), alphabet=alphabet),
                         rack=rack)
    if not 2 <= len(fields) <= 5 or not fields[0] or not fields[1]:
        raise RacketyError(f"{where}: expected {_FORMAT}")
    notation = f"{fields[0]} {fields[1]}"
    try:
        move = parse_move(notation, board, source="ucgi move")
    except RacketyError as exc:  # named as the UCGI text, not as the notation read
        raise RacketyError(str(exc).replace(f"ucgi move {clip(notation)!r}", where, 1)) \
            from None
    rack = alphabet.rack(fields[2], what=f"{where}: rack") if len(fields) > 2 and fields[2] \
        else None
    points = parse_int(fields[3], f"{where}: challenge points", 0, MAX_CHALLENGE_POINTS) \
        if len(fields) > 3 else 0
    loss = fields[4] if len(fields) > 4 else "0"
    if loss not in ("0", "1"):
        raise RacketyError(f"{where}: the turn-loss field is 0 or 1, not {clip(loss)!r}")
    return UcgiEntry(move, rack=rack, challenge_points=points, turn_loss=loss == "1")


def move_key(move: Move) -> tuple[object, ...]:
    """What makes two moves the same move (as `Move` equality, an exchange's
    tiles taken as a multiset)."""
    tiles = tuple(sorted(move.tiles)) if move.kind == "exchange" else move.tiles
    return (move.kind, move.row, move.col, move.down, tiles, move.through)


def find_moves(moves: Iterable[Move], wanted: Iterable[Move]) -> list[Move]:
    """The moves of ``moves`` (a `rackety.game.movegen.MoveList`: every legal
    move, best first) that are among ``wanted``, in the list's order, as the
    generator made them (with score and equity). A wanted move that is not
    found is not legal in the position."""
    keys = {move_key(m) for m in wanted}
    found: list[Move] = []
    if not keys:
        return found
    for move in moves:
        if move_key(move) in keys:
            found.append(move)
            if len(found) == len(keys):
                break
    return found


# ------------------------------------------------------------------ lines
def read_lines(stream: IO[bytes]) -> Iterator[str | None]:
    """The lines of ``stream`` as text (bad UTF-8 replaced), each with its end;
    None for a line longer than `MAX_LINE` bytes, as soon as it is (the rest of
    it is read and dropped: the memory held stays below `MAX_LINE`). Read in
    chunks as they come (``read1``, or a raw stream's ``read``), never a whole
    line at once.

    >>> import io
    >>> list(read_lines(io.BytesIO(b"isready\\n" + b"x" * (MAX_LINE + 1) + b"\\nquit")))
    ['isready\\n', None, 'quit']
    """
    read = _reader(stream)
    line = bytearray()
    dropping = False
    while True:
        chunk = read(1 << 16)
        if not chunk:
            break
        start = 0
        while start < len(chunk):
            end = chunk.find(b"\n", start)
            stop = len(chunk) if end < 0 else end + 1
            if not dropping:
                line += chunk[start:stop]
                if len(line) > MAX_LINE:
                    dropping = True
                    line.clear()
                    yield None
            if end >= 0:
                if dropping:
                    dropping = False
                else:
                    yield line.decode("utf-8", "replace")
                    line.clear()
            start = stop
    if line:
        yield line.decode("utf-8", "replace")


def _reader(stream: IO[bytes]) -> Callable[[int], bytes]:
    """A function that reads at most n bytes of ``stream`` as soon as there
    are some (b"" at the end, or when reading fails, the stream closed)."""
    read = getattr(stream, "read1", None) or stream.read

    def safe(n: int) -> bytes:
        try:
            return read(n) or b""
        except (OSError, ValueError):
            return b""

    return safe


# ------------------------------------------------------------------ player
def split_command(command: str) -> list[str]:
    """The words of an engine's command line (`shlex`, no shell), its program
    found on the PATH or as a path; else a `RacketyError`."""
    where = f"player '{UCGI_PREFIX}{clip(command)}'"
    if "\x00" in command:
        raise RacketyError(f"{where}: the command holds a NUL")
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise RacketyError(f"{where}: {exc}") from None
    if not argv:
        raise RacketyError(f"{where}: give the engine's command ({UCGI_PREFIX}COMMAND)")
    if shutil.which(argv[0]) is None:
        raise RacketyError(f"{where}: no program {clip(argv[0])!r} (not on the PATH, or not "
                           "executable)")
    return argv


TOO_LONG = object()  # in a queue of lines: the engine sent a line longer than MAX_LINE
END = object()  # in a queue of lines: the engine's output ended


def _pump(stream: IO[bytes], lines: queue.Queue[object], done: threading.Event) -> None:
    """Put the lines of an engine's output into ``lines`` (without their
    ends), waiting while `MAX_QUEUED` are there; a line longer than
    `MAX_LINE` is `TOO_LONG`, and the last thing put (the engine is then
    ended); `END` at the end. Stops once ``done`` is set."""

    def put(item: object) -> bool:
        while not done.is_set():
            try:
                lines.put(item, timeout=0.25)
                return True
            except queue.Full:
                continue
        return False

    for line in read_lines(stream):
        if line is None:
            put(TOO_LONG)
            return
        if not put(line.rstrip("\r\n")):
            return
    put(END)


def _drain(stream: IO[bytes], lines: deque[str]) -> None:
    """Read an engine's stderr to its end, keeping its last lines (each cut to
    `MAX_STDERR` characters; a line too long kept as a note)."""
    for line in read_lines(stream):
        lines.append(clip(line.rstrip("\r\n"), MAX_STDERR) if line is not None else
                     f"(a line longer than {MAX_LINE:,} bytes)")


def _stop_process(process: subprocess.Popen[bytes], *, polite: bool = True) -> None:
    """Ask the engine to quit (``polite``), then terminate it, then kill it."""
    if polite and process.poll() is None:
        with contextlib.suppress(OSError, ValueError):
            assert process.stdin is not None
            process.stdin.write(b"quit\n")
            process.stdin.flush()
    with contextlib.suppress(OSError, ValueError):
        assert process.stdin is not None
        process.stdin.close()
    steps = ((None, 1.0), (process.terminate, 2.0), (process.kill, 2.0)) if polite else \
        ((process.terminate, 0.5), (process.kill, 2.0))
    for signal, seconds in steps:
        if signal is not None:
            with contextlib.suppress(OSError):
                signal()
        try:
            process.wait(timeout=seconds)
            break
        except subprocess.TimeoutExpired:
            continue
    for stream in (process.stdout, process.stderr):
        with contextlib.suppress(OSError, ValueError):
            if stream is not None:
                stream.close()


class UcgiPlayer(PlayerBase):
    """A UCGI engine as a player: ``command`` (split with `shlex`, run without a
    shell) is started on the first decision and answers ``ucgi``/``isready``;
    then each turn it gets ``position cgp ...`` (the player's view, with the
    lexicon's name as ``lex`` when the position has none) and ``go movetime
    MOVETIME`` (milliseconds), and its ``bestmove`` must be one of the
    position's legal moves. An engine that does not answer within ``timeout``
    seconds (beyond the move time), whatever else it says, sends a line longer
    than `MAX_LINE` bytes (refused as soon as it is, the memory held below
    it), exits, or reports an error (``info string error: ...``) ends the
    decision with one `RacketyError`, and its process is ended at once
    (terminated, then killed). `close` (also at the interpreter's exit) says
    ``quit`` and ends the process."""

    def __init__(self, command: str, *, name: str = "ucgi", movetime: int = 1000,
                 timeout: float = 60.0) -> None:
        self.command = command
        self.argv = split_command(command)
        self.name = name
        self.movetime = movetime
        self.timeout = timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[object] = queue.Queue(MAX_QUEUED)
        self._done = threading.Event()  # the readers of the process stop
        self._stderr: deque[str] = deque(maxlen=5)
        self._finalizer: weakref.finalize[..., UcgiPlayer] | None = None
        self._readers: list[threading.Thread] = []

    # ------------------------------------------------------------ process
    @property
    def running(self) -> bool:
        """Whether the engine's process runs."""
        return self._process is not None and self._process.poll() is None

    def _where(self) -> str:
        return f"ucgi engine {clip(self.command)!r}"

    def _start(self) -> None:
        if self.running:
            return
        self.close()
        try:
            process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE)
        except OSError as exc:
            raise RacketyError(f"{self._where()}: cannot start it ({exc.strerror or exc})") \
                from None
        self._process = process
        self._lines = queue.Queue(MAX_QUEUED)
        self._done = threading.Event()
        self._stderr = deque(maxlen=5)
        assert process.stdout is not None and process.stderr is not None
        self._readers = [
            threading.Thread(target=_pump, args=(process.stdout, self._lines, self._done),
                             daemon=True),
            threading.Thread(target=_drain, args=(process.stderr, self._stderr), daemon=True)]
        for reader in self._readers:
            reader.start()
        self._finalizer = weakref.finalize(self, _stop_process, process)
        self._send("ucgi")
        self._expect("ucgiok", self.timeout)
        self._send("isready")
        self._expect("readyok", self.timeout)

    def close(self, *, polite: bool = True) -> None:
        """Say ``quit`` to the engine and end its process (if it runs); not
        ``polite``: terminate it at once."""
        self._done.set()
        finalizer, self._finalizer = self._finalizer, None
        if finalizer is not None:
            if polite:
                finalizer()
            else:
                found = finalizer.detach()
                if found is not None:
                    _stop_process(found[2][0], polite=False)
        self._process = None

    def _fail(self, message: str) -> RacketyError:
        """The error for an engine that failed; the engine is ended at once."""
        self.close(polite=False)
        return RacketyError(f"{self._where()}: {message}")

    def _send(self, line: str) -> None:
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(line.encode("utf-8") + b"\n")
            process.stdin.flush()
        except (OSError, ValueError):
            raise self._exited(f"before it read {line.split()[0]!r}") from None

    def _exited(self, when: str) -> RacketyError:
        process = self._process
        code = None
        if process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = process.wait(timeout=1.0)
        for reader in self._readers[1:]:  # what it said on stderr, to the end
            reader.join(timeout=1.0)
        said = f": {one_line(self._stderr[-1], 120)}" if self._stderr else ""
        status = f" (status {code})" if code is not None else ""
        return self._fail(f"exited{status} {when}{said}")

    def _expect(self, word: str, seconds: float) -> str:
        """The first line starting with ``word``, waiting at most ``seconds``; an
        ``info string error`` line on the way fails."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            try:
                if left <= 0:  # whatever else the engine says
                    raise queue.Empty
                line = self._lines.get(timeout=left)
            except queue.Empty:
                raise self._fail(f"no {word!r} within {seconds:g} s; stopped it") from None
            if line is END:
                raise self._exited(f"before {word!r}")
            if line is TOO_LONG or not isinstance(line, str):
                raise self._fail(f"sent a line longer than {MAX_LINE:,} bytes before {word!r}; "
                                 "stopped it")
            tokens = line.split(maxsplit=3)
            if tokens[:1] == [word]:
                return line
            if tokens[:3] == ["info", "string", "error:"]:
                raise self._fail(one_line(line.split("error:", 1)[1].strip(), 200))

    # ------------------------------------------------------------ decide
    def decide(self, board: Board, lexicon: Lexicon) -> Decision:
        """Ask the engine for its move on ``board`` and check that it is legal."""
        self._start()
        position = board
        if board.lexicon_name is None:
            position = board.copy()
            position.options["lex"] = lexicon.name
        self._send(f"position cgp {position.cgp()}")
        self._send(f"go movetime {self.movetime}")
        line = self._expect("bestmove", self.movetime / 1000 + self.timeout)
        words = line.split(maxsplit=2)
        if len(words) < 2:
            raise self._fail("'bestmove' without a move")
        try:
            entry = parse_entry(words[1], board)
        except RacketyError as exc:
            raise self._fail(f"bestmove: {exc}") from None
        if entry.move is None or entry.unknown_tiles:
            raise self._fail(f"bestmove {clip(words[1])!r} is not a move with its tiles")
        if entry.move.kind == "pass":
            return Decision(Move("pass", score=0, alphabet=board.alphabet))
        moves = board.moves(lexicon, mode="all", leave=None)
        found = find_moves(moves, [entry.move])
        if not found:
            rack = board.alphabet.format(board.rack, brackets=True)
            raise self._fail(f"bestmove {clip(words[1])!r} is not a legal move here (rack "
                             f"{rack})")
        return Decision(found[0], best_score=moves.best_score)
