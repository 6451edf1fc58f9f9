"""The fuzz reader ``ucgi`` (issue 33, points 3 and 7): the engine side of the
Universal Crossword Game Interface, ``rackety ucgi``, given hostile sessions.

A payload is a session: ``steps``, sent in order (a line of text; a long line
``{"prefix", "repeat", "times"}``; a pause ``{"wait": seconds}``), the
``player`` it starts with (``--player``), how it ends (``end``: ``eof``, the
input closed; ``stop``, a stop and then the input closed; ``quit``; ``close``,
the engine's output closed under it) and where it runs (``process``: the
installed ``rackety ucgi`` as a subprocess, sent ``isready`` and waited for,
as a GUI does, before the session; else
`rackety.frontends.ucgi.serve` in this process over OS pipes, with TWL06 the
only lexicon, so that no lexicon build makes a session long). Text reaches the
engine as UTF-8, a lone surrogate as the bytes it would be (invalid UTF-8).

`run` checks the contract of point 3 on the whole exchange:

- every line the engine says is one of the protocol's (``id``, ``option``,
  ``ucgiok``, ``readyok``, ``info``, ``bestmove``), an error line (``info
  string error:``) at most 300 characters, no more error lines than lines
  sent (one per command, whatever its size), none an internal error;
- every ``go`` read before the end gets exactly one ``bestmove`` (at most one
  when lines still waiting were dropped: by ``quit``, a closed output, or
  `rackety.frontends.ucgi.LAST` seconds after the end of the input);
- after a ``stop``, the bestmoves of every ``go`` read so far come within
  `STOP_WITHIN` seconds; after the end of the input, ``quit`` or a closed
  output, the engine ends within `END_WITHIN` seconds (the issue's two, with
  room for a loaded machine);
- nothing on stderr (no traceback), exit status 0.

A session answers "refused" when the engine said an error line (or refused its
``--player``), else "accepted".

Sessions run in worker processes (``SANDBOXED``). The process that starts
them reads ``SANDBOXED`` first (`fuzzing.SANDBOXED`): that compiles the
engine's kernels there when numba's cache lacks them (`warm`, minutes after
a change of the code), so that no worker spends its timeout compiling.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import select
import subprocess
import threading
import time
from typing import Any

import fuzzing
from fuzzing import Context, ContractError, RandomChooser, clip

COMMANDS = ("ucgi", "debug", "isready", "setoption", "register", "ucginewgame", "position",
            "go", "stop", "quit")
ANSWERS = ("id ", "option ", "ucgiok", "readyok", "info ", "bestmove ")
ERROR = "info string error: "
MAX_LINE = 1 << 20  # bytes of a command line the engine reads (a longer one is refused)
STOP_WITHIN = 3.0
END_WITHIN = 3.0
READY_WITHIN = 60.0  # seconds a subprocess engine may take to start (`_Subprocess`)
MAX_WAIT = 0.8  # seconds of one pause in a session
MAX_SESSION = 40.0  # seconds a whole session may take

# positions in TWL06 (its lexicon loads from the cache): the opening, a
# midgame, L1232 of the endgame corpus (seven tiles a side: minutes to solve)
# and the same with a tile in the bag (a pre-endgame)
EMPTY = fuzzing.EMPTY
PANDY = "15/15/15/15/15/15/15/7PANDY3/15/15/15/15/15/15/15"
MIDGAME = f"{PANDY} AEINRSQ/ 0/30 1 lex TWL06;"
ENDGAME = ("7QI3R1I/8SHIVAHS/11AG1B/11G2A/10NA3/4BOP2PELF2/5V4O3L/4WAUK2TAMMY/4OR1AGUE1ION/"
           "1JERRY4n1TAX/1E2D5I1T2/1TORSION2C1E2/1T4FEE3N2/1E10e2/EDUCT2ENWIND2 DELLORS/AEIIOUZ "
           "343/391 0 lex TWL06;")
PEG = ENDGAME.replace("DELLORS/AEIIOUZ", "DELLORS/AEIIOU")
POSITIONS = (f"{EMPTY} AADNPUY/ 0/0 0 lex TWL06;", MIDGAME, ENDGAME, PEG, fuzzing.HALTED_CGP,
             f"{PANDY} ?AEINST/ 0/30 1 lex TWL06;")
ENTRIES = ("8h.PANDY", "h8.PANDY", "8h.PANDY.AADNPUY.5.1", "ex.4", "ex.QZ", "pass",
           "rack.AEINRSQ", "rack.?", "k5.QINDARS", "8a.ZZZ", "x.Y", "9g.QI", "rack.", ".", "")
PLAYERS = ("static", "greedy", "h3", "sim:30", "sim:1000000000", "best:0.3", "best:86400",
           "h3+endgame", "sim:20+endgame", "best+endgame")
BAD_PLAYERS = ("human", "ucgi:rackety ucgi", "nobody", "best:0", "sim:0", "best:1e9",
               "human+endgame", "+endgame", "static+endgame+endgame", "leaves:")
MOVETIMES = ("0", "1", "50", "300", "1000", "1000000000", "-5", "x", "99999999999", "１０")
GO_WORDS = ("movetime", "depth", "infinite", "searchmoves", "alsosearchmoves", "1time", "2time",
            "1inc", "2inc", "threads", "firstwin", "stopcondition", "nodes", "ponder")


# ------------------------------------------------------------------ sessions
def session(steps: list[Any], player: str = "static", end: str = "eof", *,
            process: bool = False) -> dict[str, Any]:
    return {"steps": steps, "player": player, "end": end, "process": process}


def _wait(seconds: float) -> dict[str, float]:
    return {"wait": seconds}


def hostile() -> tuple[tuple[str, dict[str, Any], str | None], ...]:
    """Named hostile sessions: the failures of issue 33 (a stop that changed
    nothing, a search that outlived its GUI, a go refused after a stop and
    never answered, 175,000 error lines), and hostile lines of every kind."""
    refused = "refused"
    sessions: dict[str, tuple[dict[str, Any], str | None]] = {
        "best-86400-stop": (session([f"position cgp {ENDGAME}", "go", _wait(0.6)], "best:86400",
                                    "stop", process=True), None),
        "best-86400-movetime": (session([f"position cgp {PEG}", "go movetime 500", _wait(0.8),
                                         f"position cgp {MIDGAME}", "go movetime 300"],
                                        "best:86400"), None),
        "movetime-huge-eof": (session([f"position cgp {MIDGAME}", "go movetime 1000000000",
                                       _wait(0.3)], "sim:1000000000", process=True), None),
        "movetime-huge-closed": (session([f"position cgp {MIDGAME}", "go movetime 1000000000",
                                          _wait(0.3)], "sim:1000000000", "close",
                                         process=True), None),
        "infinite-closed": (session([f"position cgp {ENDGAME}", "go infinite", _wait(0.3)],
                                    "static", "close", process=True), None),
        "stop-position-go": (session([f"position cgp {MIDGAME}", "go infinite", _wait(0.3),
                                      "stop", f"position cgp {MIDGAME}", "go movetime 200"],
                                     "sim:1000000000"), None),
        "go-during-infinite": (session([f"position cgp {MIDGAME}", "go infinite",
                                        "go movetime 100", "go", _wait(0.3)], "sim:30"), None),
        "go-go-go-stop": (session([f"position cgp {ENDGAME}", "go", "go infinite",
                                   "go movetime 1000000000"], "best:86400", "stop"), None),
        "searchmoves-1mib": (session([f"position cgp {MIDGAME}", {
            "prefix": "go movetime 100 searchmoves ", "repeat": "x.Y ", "times": 262_000}]),
            refused),
        "alsosearchmoves-many": (session([f"position cgp {MIDGAME}", {
            "prefix": "go movetime 200 alsosearchmoves ", "repeat": "8a.ZZZ ex.QZ 9g.QI ",
            "times": 30_000}], "sim:30"), refused),
        "line-too-long": (session([{"prefix": "position cgp ", "repeat": "x",
                                    "times": MAX_LINE + 5}, "isready", "go"]), refused),
        "invalid-utf8": (session(["\udcff\udcfe\x00garbage", "go movetime \udc80",
                                  "position cgp \ud800", "isready"]), refused),
        "unknown-and-skipped": (session(["joho isready", "xyzzy", "\t \r", "GO"]), refused),
        "setoption-refused": (session([f"setoption name Player value {p}" for p in BAD_PLAYERS]
                                      + ["setoption name Lexicon value /etc/passwd",
                                         "setoption name Hash value 1", "setoption"]), refused),
        "player-refused-at-start": (session(["isready"], "human"), refused),
        "quit-drops-waiting": (session([f"position cgp {MIDGAME}", "go movetime 1000000000",
                                        "position startpos", "go", "isready", _wait(0.2)],
                                       "sim:1000000000", "quit", process=True), None),
        "quit-mid-session": (session(["isready", "quit", "go", "position cgp x"]), None),
        "many-waiting": (session([f"position cgp {MIDGAME}", "go infinite"]
                                 + ["go movetime 1"] * 300 + ["stop"], "static"), refused),
        "position-moves": (session([f"position cgp {EMPTY} AADNPUY/ 0/0 0 moves "
                                    "8h.PANDY.AADNPUY.5.1 rack.EINRST?", "go depth 1",
                                    "position startpos moves 8h.PANDY ex.4 rack.AEINRSQ",
                                    "go movetime 50 searchmoves k5.QINDARS pass ex.Q"]), None),
        "endgame-players": (session([f"position cgp {ENDGAME}", "go movetime 300",
                                     "setoption name Player value sim:20+endgame",
                                     "go movetime 300", "setoption name Player value best",
                                     "go", _wait(0.3)], "h3+endgame", "stop"), None),
        "debug-huge": (session(["debug on", {"prefix": "isready ", "repeat": "y",
                                             "times": 500_000}, "debug off", "go"]), refused),
        "new-game-during-search": (session([f"position cgp {MIDGAME}", "go movetime 300",
                                            "ucginewgame", "go", "ucgi"], "sim:30"), refused),
    }
    return tuple((name, payload, expect) for name, (payload, expect) in sessions.items())


def _go_line(ch: RandomChooser) -> str:
    words = ["go"]
    for _ in range(ch.below(4)):
        word = ch.choice(GO_WORDS)
        words.append(word)
        if word in ("movetime", "depth", "1time", "2time", "1inc", "2inc", "threads",
                    "stopcondition") and ch.chance(90):
            words.append(ch.choice(MOVETIMES))
        elif word in ("searchmoves", "alsosearchmoves"):
            words += [ch.choice(ENTRIES) for _ in range(ch.below(5))]
    return " ".join(words)


def _position_line(ch: RandomChooser, process: bool) -> str:
    if ch.chance(15):
        head = "position startpos"
    else:
        cgp = ch.choice(POSITIONS)
        if not process and ch.chance(25):
            cgp = fuzzing.mutate(cgp, ch, fuzzing.cgp_seeds(), steps=1 + ch.below(2))
        head = f"position cgp {cgp}"
    if ch.chance(30):
        head += " moves " + " ".join(ch.choice(ENTRIES) for _ in range(1 + ch.below(4)))
    return head


def _line(ch: RandomChooser, process: bool) -> str:
    kind = ch.below(20)
    if kind < 6:
        return _go_line(ch)
    if kind < 10:
        return _position_line(ch, process)
    if kind < 12:
        return ch.choice(("stop", "isready", "ucginewgame", "ucgi", "debug on", "debug off",
                          "register later", "stop"))
    if kind < 14:
        spec = ch.choice(PLAYERS + BAD_PLAYERS)
        return f"setoption name Player value {spec}"
    if kind == 14:
        return ch.choice(("setoption name Lexicon value TWL06", "setoption name Lexicon value",
                          "setoption name Lexicon value nosuch", "setoption name x",
                          "setoption name Lexicon value <empty>"))
    if kind == 15:
        return ch.choice(("quit", "go infinite", "go movetime 1000000000"))
    base = ch.choice((_go_line(ch), _position_line(ch, process), "isready", "stop"))
    return fuzzing.mutate(base, ch, COMMANDS, steps=1 + ch.below(3))


def generate(ch: RandomChooser) -> tuple[dict[str, Any], str | None]:
    """One session: a hostile one, one of its lines mutated, or a new one from
    the protocol's commands (their words and values hostile, the lines
    mutated), with pauses and an ending."""
    cases = hostile()
    pick = ch.below(10)
    if pick < 2:
        _name, payload, expect = ch.choice(cases)
        return json.loads(json.dumps(payload)), expect
    if pick < 4:
        _name, payload, _expect = ch.choice(cases)
        payload = json.loads(json.dumps(payload))
        texts = [i for i, step in enumerate(payload["steps"]) if isinstance(step, str)]
        if texts:
            i = ch.choice(texts)
            payload["steps"][i] = fuzzing.mutate(payload["steps"][i], ch, COMMANDS,
                                                 steps=1 + ch.below(3))
        if not payload["process"]:
            payload["end"] = ch.choice(("eof", "stop", "quit", "close"))
        return payload, None
    process = ch.chance(15)
    steps: list[Any] = [_position_line(ch, process)] if ch.chance(80) else []
    waited = 0.0
    for _ in range(1 + ch.below(10)):
        if ch.chance(15) and waited < 2.0:
            seconds = round(0.05 * (1 + ch.below(int(MAX_WAIT / 0.05))), 2)
            waited += seconds
            steps.append(_wait(seconds))
        else:
            steps.append(_line(ch, process))
    player = ch.choice(PLAYERS) if ch.chance(90) else ch.choice(BAD_PLAYERS)
    end = ch.choice(("eof", "eof", "stop", "stop", "quit", "close"))
    return session(steps, player, end, process=process), None


# ----------------------------------------------------------------------- run
def _bytes(step: Any) -> bytes:
    """What a step sends: its line, with its end."""
    if isinstance(step, str):
        text = step
    else:
        text = step["prefix"] + step["repeat"] * int(step["times"])
    return text.encode("utf-8", "surrogatepass") + b"\n"


def commands(data: bytes) -> list[str]:
    """The commands of ``data`` as the protocol reads them, up to and with
    ``quit``: each line of at most `MAX_LINE` bytes, as text (bad UTF-8
    replaced), its first word that is a command (the words before skipped)."""
    found = []
    for raw in data.split(b"\n"):
        if len(raw) + 1 > MAX_LINE:
            continue
        words = raw.decode("utf-8", "replace").split()
        command = next((w.lower() for w in words if w.lower() in COMMANDS), None)
        if command is not None:
            found.append(command)
            if command == "quit":
                break
    return found


class _Output:
    """The engine's output read from a pipe in a thread: its lines, each with
    the time it came."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.lines: list[tuple[float, str]] = []
        self.reading = True
        self.ended = threading.Event()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        rest = b""
        poller = select.poll()  # not select(): no limit on the descriptor's number
        poller.register(self.fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        try:
            while self.reading:
                if not poller.poll(50):
                    continue
                chunk = os.read(self.fd, 1 << 16)
                if not chunk:
                    break
                *lines, rest = (rest + chunk).split(b"\n")
                now = time.monotonic()
                with self.lock:
                    self.lines += [(now, raw.decode("utf-8", "replace")) for raw in lines]
        except (OSError, ValueError):
            pass
        if rest:
            with self.lock:
                self.lines.append((time.monotonic(), rest.decode("utf-8", "replace")))
        self.ended.set()

    def stop_reading(self) -> None:
        self.reading = False
        self.thread.join(timeout=5)

    def bestmoves(self) -> int:
        with self.lock:
            return sum(line.startswith("bestmove") for _, line in self.lines)

    def wait_for_line(self, text: str, seconds: float) -> bool:
        """Whether the line ``text`` came (before the output ended) within
        ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not self.ended.is_set():
            with self.lock:
                if any(line == text for _, line in self.lines):
                    return True
            time.sleep(0.02)
        with self.lock:
            return any(line == text for _, line in self.lines)

    def wait_for(self, count: int, seconds: float) -> bool:
        """Whether there are ``count`` bestmoves within ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.bestmoves() >= count:
                return True
            time.sleep(0.02)
        return self.bestmoves() >= count


@functools.lru_cache(maxsize=1)
def _twl06() -> Any:
    from rackety import Lexicon

    return Lexicon.load("TWL06")


def _only_twl06(source: str, alphabet: str | None) -> Any:
    from rackety import RacketyError

    if source.strip().upper() != "TWL06":
        raise RacketyError(f"lexicon {clip(source, 40)!r}: only TWL06 is loaded in this fuzz")
    return _twl06()


class _InProcess:
    """`rackety.frontends.ucgi.serve` in a thread over OS pipes."""

    def __init__(self, player: str) -> None:
        from rackety.frontends.common import Lexicons
        from rackety.frontends.ucgi import serve

        in_r, self.in_w = os.pipe()
        self.out_r, out_w = os.pipe()
        self.stdin = os.fdopen(in_r, "rb", buffering=0)
        self.stdout = io.TextIOWrapper(os.fdopen(out_w, "wb"), encoding="utf-8",
                                       write_through=True)
        self.output = _Output(self.out_r)
        self.error: BaseException | None = None
        self.refused = False
        lexicons = Lexicons(files=False, load=_only_twl06)

        def target() -> None:
            from rackety import RacketyError

            try:
                serve(lexicons, player=player, stdin=self.stdin, stdout=self.stdout)
            except RacketyError as exc:  # the CLI's exit 2: a bad --player
                fuzzing.check_message(str(exc), "rackety ucgi --player")
                self.refused = True
            except BaseException as exc:  # reported by `run`
                self.error = exc
            finally:
                with contextlib.suppress(OSError, ValueError):
                    self.stdout.close()
                with contextlib.suppress(OSError):
                    self.stdin.close()

        self.thread = threading.Thread(target=target, daemon=True)
        self.thread.start()

    def send(self, data: bytes) -> bool:
        try:
            _write_all(self.in_w, data)
            return True
        except OSError:
            return False

    def close_input(self) -> None:
        if self.in_w >= 0:  # once: the number may be another file's afterwards
            with contextlib.suppress(OSError):
                os.close(self.in_w)
            self.in_w = -1

    def close_output(self) -> None:
        self.output.stop_reading()
        if self.out_r >= 0:
            with contextlib.suppress(OSError):
                os.close(self.out_r)
            self.out_r = -1

    def ended(self, seconds: float) -> bool:
        self.thread.join(timeout=seconds)
        return not self.thread.is_alive()

    def stderr(self) -> str:
        if self.error is None:
            return ""
        exc = self.error
        raise ContractError("exception", f"rackety ucgi: {type(exc).__name__}: "
                            f"{clip(str(exc))}", fuzzing.where_raised(exc), type(exc).__name__)

    def kill(self) -> None:
        self.close_input()
        self.close_output()

    def release(self) -> None:
        """Close what the harness holds of the session."""
        self.close_input()
        self.close_output()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class _Subprocess:
    """The installed ``rackety ucgi`` in a subprocess."""

    def __init__(self, player: str) -> None:
        env = {**os.environ}
        env.pop("RACKETY_DEBUG", None)
        self.process = subprocess.Popen([str(fuzzing.RACKETY), "ucgi", "--player", player],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, env=env)
        assert self.process.stdout is not None and self.process.stderr is not None
        self.output = _Output(self.process.stdout.fileno())
        self.errors = _Output(self.process.stderr.fileno())
        self.refused = False
        # as a GUI, wait until the engine is ready (its kernels loaded) before
        # the session: its deadlines time the engine's answers, not its start
        # on a loaded machine (an engine that refuses its player ends here)
        if self.send(b"isready\n"):
            self.output.wait_for_line("readyok", READY_WITHIN)

    def send(self, data: bytes) -> bool:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(data)
            self.process.stdin.flush()
            return True
        except (OSError, ValueError):
            return False

    def close_input(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            assert self.process.stdin is not None
            self.process.stdin.close()

    def close_output(self) -> None:
        self.output.stop_reading()
        assert self.process.stdout is not None
        self.process.stdout.close()

    def ended(self, seconds: float) -> bool:
        try:
            self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            return False
        self.errors.ended.wait(timeout=5)
        return True

    def stderr(self) -> str:
        code = self.process.returncode
        text = "\n".join(line for _, line in self.errors.lines)
        if any(word in text for word in ("Traceback", "Exception ignored", "Fatal Python")):
            raise ContractError("exception", f"rackety ucgi: stderr: {clip(text)}")
        if code == 2:
            lines = text.strip().splitlines()
            if len(lines) != 1 or "error:" not in text:
                raise ContractError("overlong", f"rackety ucgi: exit 2 without one error line: "
                                                f"{clip(text)!r}")
            fuzzing.check_message(lines[0], "rackety ucgi")
            self.refused = True
            return text
        if code != 0:
            raise ContractError("crash" if code < 0 else "exception",
                                f"rackety ucgi: exit status {code}: {clip(text)}")
        if text.strip():
            raise ContractError("exception", f"rackety ucgi: said on stderr: {clip(text)}")
        return text

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)

    def release(self) -> None:
        """Close what the harness holds of the session."""
        self.close_input()
        for output in (self.output, self.errors):
            output.stop_reading()
        for stream in (self.process.stdout, self.process.stderr):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()


@functools.lru_cache(maxsize=1)
def warm() -> None:
    """The engine's kernels compiled (once per process, when numba's cache
    lacks them), so that a session's bounds are not a first compilation's."""
    from rackety.jitcache import COMPILES, cold

    kernels = tuple(k for command in ("moves", "sim", "infer", "endgame")
                    for k in COMPILES[command][1])
    if not cold(kernels):
        return
    from rackety import Board
    from rackety.players import make_player
    from rackety.search.control import Control

    lexicon = _twl06()
    for spec, cgp in (("best:0.3", MIDGAME), ("best:0.3", PEG), ("best:0.3", ENDGAME),
                      ("sim:5", MIDGAME)):
        make_player(spec, lexicon).decide(Board.from_cgp(cgp), lexicon,
                                          control=Control.within(0.3))


def __getattr__(name: str) -> Any:
    """``SANDBOXED``: True, the kernels warmed first (the module docstring)."""
    if name == "SANDBOXED":
        warm()
        return True
    raise AttributeError(name)


def run(payload: dict[str, Any], ctx: Context) -> str:
    """Run one session and check it (the module docstring): "accepted", or
    "refused" when the engine said an error."""
    warm()
    steps, end = payload["steps"], payload.get("end", "eof")
    engine = (_Subprocess if payload.get("process") else _InProcess)(payload["player"])
    sent = b""
    started = time.monotonic()
    try:
        for step in steps:
            if isinstance(step, dict) and "wait" in step:
                time.sleep(min(MAX_WAIT, max(0.0, float(step["wait"]))))
                continue
            data = _bytes(step)
            if not engine.send(data):
                break  # the engine ended (a quit, or a refused player)
            sent += data
            if time.monotonic() - started > MAX_SESSION:
                raise ContractError("hang", f"ucgi: the session's lines were not read within "
                                            f"{MAX_SESSION:g} s")
        gos = commands(sent)
        quitted = "quit" in gos
        gos = [c for c in gos if c == "go"]
        if end == "stop" and not quitted and not engine.refused and engine.send(b"stop\n") \
                and not engine.output.wait_for(len(gos), STOP_WITHIN) and not engine.ended(0):
            raise ContractError("hang", f"ucgi: {engine.output.bestmoves()} bestmoves of "
                                        f"{len(gos)} go commands {STOP_WITHIN:g} s after stop")
        if end == "quit":
            engine.send(b"quit\n")
            quitted = True
        t0 = time.monotonic()
        if end == "close":
            engine.close_output()
        else:
            engine.close_input()
        if not engine.ended(END_WITHIN):
            raise ContractError("hang", f"ucgi: the engine did not end within {END_WITHIN:g} s "
                                        f"of the end of its session ({end})")
        took = time.monotonic() - t0
        engine.close_input()  # as a GUI that exits: the engine's reader ends too
        engine.output.ended.wait(timeout=5)
        engine.stderr()
    except BaseException:
        engine.kill()
        raise
    finally:
        engine.release()
    from rackety.frontends.ucgi import LAST

    # lines still waiting LAST seconds after the end of the input are dropped
    dropped = quitted or end == "close" or took >= LAST - 0.1
    return _check(engine, gos, dropped, end, sent)


def _check(engine: Any, gos: list[str], dropped: bool, end: str, sent: bytes) -> str:
    if engine.refused:
        return "refused"
    said = [line for _, line in engine.output.lines]
    lines_sent = sent.count(b"\n")
    errors = 0
    for line in said:
        if not line.startswith(ANSWERS) or "\r" in line:
            raise ContractError("exception", f"ucgi: not an answer of the protocol: "
                                             f"{clip(line)!r}")
        if "internal error" in line:
            raise ContractError("exception", f"ucgi: {clip(line)}")
        if line.startswith(ERROR):
            errors += 1
            fuzzing.check_message(line, "ucgi error line")
        elif len(line) > 1000:
            raise ContractError("overlong", f"ucgi: an answer of {len(line):,} characters")
    if errors > lines_sent:
        raise ContractError("overlong", f"ucgi: {errors:,} error lines for {lines_sent:,} lines")
    bestmoves = sum(line.startswith("bestmove") for line in said)
    if bestmoves > len(gos) or (not dropped and bestmoves != len(gos)):
        raise ContractError("expectation", f"ucgi: {bestmoves} bestmoves for {len(gos)} go "
                                           f"commands (the session ended by {end})")
    return "refused" if errors else "accepted"

