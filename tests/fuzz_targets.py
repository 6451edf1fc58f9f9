"""Fuzz reader ``targets`` (issue 33, point 2): every writer of rackety against
every kind of thing at the output path.

A payload names a writer (an option of a command, or a library writer) and a
target: a kind of thing made in a fresh ``ctx.case_dir()`` (a regular file,
nothing, symbolic links of every sort, FIFOs with and without a reader,
folders, /dev/null and /dev/full, a socket, names empty, too long, with odd
bytes, Unicode or control characters ...) under a name that may be mutated.
`run` makes the target, performs the write (the command line in this process,
`fuzzing.run_cli_inprocess`, or a library call) and checks, beyond the usual
contract (accepted, or refused in one line; never a traceback or a hang):

* what was at every path of the case folder is the same kind of thing after
  (`os.lstat`: a link is still a link, a FIFO a FIFO, a folder a folder), and
  so are /dev/null and /dev/full; no temporary file is left;
* a write accepted put its bytes somewhere: the FIFO's reader got them, or the
  file (the link's target) holds them;
* what must be refused is (a folder, a loop of links, a FIFO no one reads, a
  full device, an empty name ...).

The commands are cheap ones on a tiny word list: ``show --svg``, ``analyze
--csv`` / ``--html`` of a short record, ``lexicon build -o``, ``autoplay
--games 2 --gcg-dir`` (the target is the folder, or a record in it), and
rarely ``leaves train -o``; ``serve --db`` is tried only where it must refuse
(anywhere else it would serve). Inputs run in a `fuzzing.Sandbox`: a FIFO
could hang a writer that regressed.
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import stat
import threading
import time
from pathlib import Path
from typing import Any

import fuzzing
from fuzzing import ContractError, RandomChooser

SANDBOXED = True

#: writer -> the command line ({out}: the target; {words}, {game}: the inputs),
#: or None for a library writer
WRITERS: dict[str, list[str] | None] = {
    "show --svg": ["show", "--cgp", fuzzing.OPENING, "--svg", "{out}"],
    "analyze --csv": ["analyze", "--lexicon", "{words}", "{game}", "--jobs", "1", "--csv",
                      "{out}"],
    "analyze --html": ["analyze", "--lexicon", "{words}", "{game}", "--jobs", "1", "--html",
                       "{out}"],
    "lexicon build -o": ["lexicon", "build", "{words}", "-o", "{out}"],
    "autoplay --gcg-dir": ["autoplay", "--lexicon", "{words}", "--players", "greedy,greedy",
                           "--games", "2", "--jobs", "1", "--seed", "1", "--gcg-dir", "{out}"],
    "leaves train -o": ["leaves", "train", "--lexicon", "{words}", "--games", "2", "--jobs", "1",
                        "--method", "td", "-o", "{out}"],
    "serve --db": ["serve", "--port", "0", "--db", "{out}"],
    "write_atomic": None,
    "save_gcg": None,
    "terminal save": None,
}
#: the first record autoplay writes, the name a target inside its folder takes
RECORD = "game00001-greedy-1-greedy-2.gcg"
#: kinds of target; those a writer must refuse are in `REFUSED`
KINDS = ("regular", "absent", "symlink", "relative-symlink", "dangling", "dangling-far",
         "symlink-chain", "symlink-to-fifo", "symlink-to-folder", "loop", "self-loop", "fifo",
         "fifo-no-reader", "folder", "missing-folder", "file-as-folder", "empty", "long-name",
         "name-255", "trailing-slash", "dot-dot", "dev-null", "dev-full", "socket",
         "read-only")
REFUSED = frozenset({"loop", "self-loop", "fifo-no-reader", "folder", "symlink-to-folder",
                     "missing-folder", "file-as-folder", "empty", "long-name", "trailing-slash",
                     "dot-dot", "dev-full", "socket"})
#: kinds that can stand at a record's name inside autoplay's folder
INSIDE = ("regular", "absent", "symlink", "relative-symlink", "dangling", "dangling-far",
          "symlink-chain", "symlink-to-fifo", "symlink-to-folder", "loop", "self-loop", "fifo",
          "fifo-no-reader", "folder", "socket", "read-only")
#: kinds a folder option (--gcg-dir) takes as its folder: made, or followed
FOLDER_OK = frozenset({"absent", "symlink-to-folder", "folder", "missing-folder",
                       "trailing-slash", "dot-dot", "name-255"})
#: kinds serve --db accepts (and would then serve: never run)
SERVES = frozenset({"regular", "absent", "symlink", "relative-symlink", "dangling",
                    "dangling-far", "symlink-chain", "name-255", "read-only", "missing-folder"})
NAMES = ("out", "out.svg", "résumé.csv", "re\u0301sume\u0301.gcg", "日本語.kwg",
         "\u202eevil.txt", "tab\tname", "new\nline", "café\udce9", "-o", "--help", " ",
         ".hidden", "a" * 200, "ü" * 120)
WORDS = fuzzing.SMALL_WORDS
_SAFE: list[bool] = []  # whether writes keep a FIFO a FIFO (checked before any /dev write)


# ------------------------------------------------------------------ inputs
def hostile() -> tuple[tuple[str, dict[str, Any], str | None], ...]:
    """Every writer against every kind (the name "out"), and odd names."""
    cases: list[tuple[str, dict[str, Any], str | None]] = []
    for writer in WRITERS:
        for kind in KINDS:
            insides = (False, True) if writer == "autoplay --gcg-dir" and kind in INSIDE \
                else (False,)
            for inside in insides:
                payload = {"writer": writer, "target": kind, "name": "out", "inside": inside}
                if runnable(payload):
                    where = "-in-folder" if inside else ""
                    cases.append((f"{writer.replace(' ', '')}-{kind}{where}", payload,
                                  expected(payload)))
    for i, name in enumerate(NAMES):
        for writer, kind in (("show --svg", "absent"), ("write_atomic", "symlink"),
                             ("save_gcg", "fifo")):
            payload = {"writer": writer, "target": kind, "name": name, "inside": False}
            cases.append((f"name-{i}-{writer.replace(' ', '')}", payload, None))
    return tuple(cases)


def generate(ch: RandomChooser) -> tuple[dict[str, Any], str | None]:
    """A hostile input, or a writer and kind drawn with a mutated name."""
    if ch.chance(15):
        _, payload, expect = ch.choice(hostile())
        return payload, expect
    writers = [w for w in WRITERS if w != "leaves train -o"]
    writer = "leaves train -o" if ch.chance(3) else ch.choice(writers)
    kind = ch.choice(KINDS)
    name = fuzzing.mutate(ch.choice(NAMES), ch, NAMES) if ch.chance(60) else ch.choice(NAMES)
    payload = {"writer": writer, "target": kind, "name": name,
               "inside": writer == "autoplay --gcg-dir" and kind in INSIDE and ch.chance(50)}
    if not runnable(payload):
        payload["target"] = "fifo-no-reader"
    return payload, expected(payload)


def runnable(payload: dict[str, Any]) -> bool:
    """serve --db only where it must refuse (anywhere else it would serve)."""
    return payload["writer"] != "serve --db" or payload["target"] not in SERVES


def expected(payload: dict[str, Any]) -> str | None:
    writer, kind = payload["writer"], payload["target"]
    if writer == "serve --db":
        return "refused"
    if writer == "autoplay --gcg-dir" and not payload.get("inside"):
        return None if kind in FOLDER_OK else "refused"
    if kind in ("empty", "file-as-folder", "missing-folder", "loop", "self-loop", "folder",
                "symlink-to-folder", "fifo-no-reader", "socket", "dev-full", "dot-dot",
                "trailing-slash", "long-name"):
        return "refused"  # whatever the name
    return None


# ----------------------------------------------------------------- targets
class _Reader:
    """A FIFO's reader that never blocks the test: opened non-blocking, drained
    in a thread until the write is over (`result`) or a deadline passes."""

    def __init__(self, path: Path) -> None:
        self.fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self.data = b""
        self.over = threading.Event()
        self.thread = threading.Thread(target=self._drain, daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        deadline = time.monotonic() + 300  # a safety net: `result` ends it sooner
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.fd], [], [], 0.02)
            chunk = b""
            if ready:
                with contextlib.suppress(BlockingIOError):
                    chunk = os.read(self.fd, 1 << 16)
            if chunk:
                self.data += chunk
                continue
            if self.over.is_set():  # the write is over: what it left in the pipe, then done
                self.data += self._rest()
                break
            if ready:
                time.sleep(0.01)  # end of file before any writer came
        os.close(self.fd)

    def _rest(self) -> bytes:
        """What is still in the pipe, read without waiting (a write that
        ended between a `select` that found nothing and the end of the drain)."""
        rest = b""
        while True:
            try:
                chunk = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                return rest
            if not chunk:
                return rest
            rest += chunk

    def result(self) -> bytes:
        """What was read, once the write is over."""
        self.over.set()
        self.thread.join()
        return self.data


def kind_of(path: str | Path) -> str:
    """What is at ``path`` itself (a link is a link)."""
    try:
        info = os.lstat(path)
    except (OSError, ValueError):
        return "nothing"
    for name in ("LNK", "FIFO", "CHR", "DIR", "REG", "BLK", "SOCK"):
        if getattr(stat, f"S_IS{name}")(info.st_mode):
            return name.lower() + (f":{info.st_rdev}" if name == "CHR" else "")
    return "other"


def _snapshot(folder: Path) -> dict[str, str]:
    """The kind of every path under ``folder`` (links not followed)."""
    seen = {}
    for root, dirs, files in os.walk(folder, followlinks=False):
        for name in dirs + files:
            path = os.path.join(root, name)
            seen[os.path.relpath(path, folder)] = kind_of(path)
    return seen


def _name(payload: dict[str, Any]) -> str:
    if payload.get("inside"):
        return RECORD
    name = payload.get("name")
    name = name if isinstance(name, str) and name else "out"
    name = name.replace("/", "_").replace("\x00", "_")[:1000]
    return name + "_" if name in (".", "..") else name  # a kind is made at the name


def make_target(payload: dict[str, Any], folder: Path) -> tuple[str, Path | None, Any, Any]:
    """(the path to give the writer, where its bytes must land or None, the
    FIFO's reader or None, a socket to close or None). With ``inside``
    (autoplay), the kind stands at the first record's name in the folder
    given."""
    kind = payload["target"]
    base = folder / "t"
    base.mkdir()
    path = base / _name(payload)
    given: str = str(path)
    receiver: Path | None = None
    reader = sock = None
    try:
        if kind in ("regular", "read-only"):
            path.write_bytes(b"old")
            if kind == "read-only":
                path.chmod(0o444)
            receiver = path
        elif kind == "absent":
            receiver = path
        elif kind in ("symlink", "relative-symlink"):
            (base / "real").write_bytes(b"old")
            path.symlink_to(base / "real" if kind == "symlink" else "real")
            receiver = base / "real"
        elif kind == "dangling":
            path.symlink_to("made")
            receiver = base / "made"
        elif kind == "dangling-far":
            (base / "sub").mkdir()
            path.symlink_to(base / "sub" / "made")
            receiver = base / "sub" / "made"
        elif kind == "symlink-chain":
            (base / "link0").write_bytes(b"old")
            for i in range(1, 12):
                (base / f"link{i}").symlink_to(f"link{i - 1}")
            path.symlink_to("link11")
            receiver = base / "link0"
        elif kind == "fifo":
            os.mkfifo(path)
            reader = _Reader(path)
        elif kind == "symlink-to-fifo":
            os.mkfifo(base / "pipe")
            path.symlink_to("pipe")
            reader = _Reader(base / "pipe")
        elif kind == "fifo-no-reader":
            os.mkfifo(path)
        elif kind == "symlink-to-folder":
            (base / "dir").mkdir()
            path.symlink_to("dir")
        elif kind == "loop":
            path.symlink_to("other")
            (base / "other").symlink_to(path.name)
        elif kind == "self-loop":
            path.symlink_to(path.name)
        elif kind == "folder":
            path.mkdir()
        elif kind == "socket":
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.bind(str(base / "sock"))
            os.rename(base / "sock", path)
        elif kind == "missing-folder":
            given = str(base / "no" / "such" / path.name)
        elif kind == "file-as-folder":
            path.write_bytes(b"old")
            given = str(path / "x")
        elif kind == "empty":
            given = ""
        elif kind == "long-name":
            given = str(base / ("x" * 300))
        elif kind == "name-255":
            given = str(base / ("n" * 255))
            receiver = base / ("n" * 255)
        elif kind == "trailing-slash":
            given = str(path) + "/"
        elif kind == "dot-dot":
            given = str(base / "..")
        elif kind in ("dev-null", "dev-full"):
            if not _devices_are_safe(folder):
                raise ContractError("expectation", "a write replaced a FIFO: /dev is not tried")
            given = "/dev/null" if kind == "dev-null" else "/dev/full"
        else:
            raise AssertionError(kind)
    except (OSError, UnicodeError):  # a mutated name the system does not take
        if sock is not None:
            sock.close()
        (base / "plain").write_bytes(b"old")  # a path under a file: every writer refuses it
        return str(base / "plain" / "x"), None, None, None
    if payload["writer"] == "autoplay --gcg-dir":
        if payload.get("inside"):  # the folder; the records in it
            given = str(base)
        else:  # the folder itself: its records are not looked at
            receiver = None
    return given, receiver, reader, sock


def _devices_are_safe(folder: Path) -> bool:
    """Once per process: `write_atomic` writes a FIFO (with a reader) in place.
    Before that holds, nothing is written to /dev (a regression, as root,
    would replace /dev/null itself)."""
    if not _SAFE:
        from rackety.files import write_atomic

        probe = folder / "probe"
        os.mkfifo(probe)
        reader = _Reader(probe)
        with contextlib.suppress(Exception):
            write_atomic(probe, b"probe")
        _SAFE.append(reader.result() == b"probe" and kind_of(probe) == "fifo")
        probe.unlink()
    return _SAFE[0]


# --------------------------------------------------------------------- run
def _write(payload: dict[str, Any], ctx: fuzzing.Context, folder: Path, given: str) -> str:
    writer = payload["writer"]
    argv = WRITERS.get(writer)
    if argv is not None:
        words = folder / "words.txt"
        words.write_text("\n".join(WORDS))
        game = folder / "game.gcg"
        game.write_text(fuzzing.GAME_GCG)
        line = [a.format(out=given, words=words, game=game) for a in argv]
        code, out, err = fuzzing.run_cli_inprocess(line)
        return fuzzing.check_cli_result(line, code, out, err)
    from rackety.game.gcg import read_gcg, save_gcg

    if writer == "write_atomic":
        from rackety.files import write_atomic

        return fuzzing.check_library(lambda: write_atomic(given, b"data\n"), "write_atomic")
    if writer == "save_gcg":
        record = read_gcg(fuzzing.GAME_GCG)
        return fuzzing.check_library(lambda: save_gcg(record, given), "save_gcg")
    if writer == "terminal save":
        from rackety.frontends.terminal import TerminalGame
        from rackety.players import make_player

        lexicon = ctx.small_lexicon()
        session = TerminalGame(lexicon, [make_player("greedy", lexicon)], seed=1,
                               read_line=lambda prompt: "quit", write=lambda screen: None)
        return fuzzing.check_library(lambda: session.save(given), "terminal save")
    raise ValueError(writer)


def run(payload: dict[str, Any], ctx: fuzzing.Context) -> str:
    """Make the target, write it, and check that nothing at the path was
    replaced by something else (module docstring)."""
    if not isinstance(payload, dict) or payload.get("writer") not in WRITERS or \
            payload.get("target") not in KINDS or not runnable(payload):
        raise ValueError(f"not a targets payload: {fuzzing.describe_input(payload)}")
    folder = ctx.case_dir()
    devices = {d: kind_of(d) for d in ("/dev/null", "/dev/full")}
    given, receiver, reader, sock = make_target(payload, folder)
    before = _snapshot(folder)
    what = f"{payload['writer']} -> {payload['target']} {fuzzing.clip(given, 80)!r}"
    try:
        outcome = _write(payload, ctx, folder, given)
    finally:
        if sock is not None:
            sock.close()
        data = reader.result() if reader is not None else None
    after = _snapshot(folder)
    for path, kind in before.items():  # a link still a link, a FIFO still a FIFO ...
        if after.get(path, "nothing") != kind:
            raise ContractError("expectation", f"{what}: {path} was {kind}, is "
                                               f"{after.get(path, 'nothing')} after the write")
    for device, kind in devices.items():
        if kind_of(device) != kind:
            raise ContractError("expectation", f"{what}: {device} was {kind}, is "
                                               f"{kind_of(device)} after the write")
    left = [p for p in after if p.endswith(".tmp") and p not in before]
    if left:
        raise ContractError("expectation", f"{what}: a temporary file is left: {left[0]}")
    if outcome == "accepted":
        if reader is not None and not data:
            raise ContractError("readback", f"{what}: accepted, but the FIFO's reader got "
                                            "nothing")
        if receiver is not None and (kind_of(receiver) != "reg" or
                                     receiver.stat().st_size == 0):
            raise ContractError("readback", f"{what}: accepted, but {receiver} holds nothing")
    if expected(payload) == "refused" and outcome != "refused":
        raise ContractError("expectation", f"{what}: {outcome}, but it must be refused")
    return outcome
