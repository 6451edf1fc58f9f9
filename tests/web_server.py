"""Start ``rackety serve`` as a subprocess for tests, and stop it.

``start_server(db_path)`` runs the server on a free port (or the one given)
with its store at ``db_path``, waits until ``GET /api/health`` answers, and
returns a `ServerHandle` with ``.url``, ``.process``, ``.stop()`` (SIGTERM, then
SIGKILL) and ``.kill()`` (SIGKILL at once, as a crash would).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

START_TIMEOUT = 90.0  # seconds: the first start compiles the lexicon and the kernels


def free_port() -> int:
    """A TCP port on 127.0.0.1 free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve_command() -> list[str]:
    """How to run ``rackety`` from this interpreter: ``python -m rackety`` when
    the package has a ``__main__``, else the console script beside it."""
    if importlib.util.find_spec("rackety.__main__") is not None:
        return [sys.executable, "-m", "rackety"]
    script = Path(sys.executable).with_name("rackety")
    if script.exists():
        return [str(script)]
    found = shutil.which("rackety")
    if found:
        return [found]
    return [sys.executable, "-c", "import sys; from rackety.frontends.cli import main; "
                                  "sys.exit(main(sys.argv[1:]))"]


@dataclass
class ServerHandle:
    """A running ``rackety serve``."""

    url: str
    port: int
    db_path: Path
    process: subprocess.Popen[bytes]
    log_path: Path
    _log: IO[bytes] | None = field(default=None, repr=False)

    def get_json(self, path: str, timeout: float = 30.0) -> object:
        """``GET path`` as JSON (raises on a non-2xx answer)."""
        with urllib.request.urlopen(self.url + path, timeout=timeout) as response:
            return json.loads(response.read().decode("utf-8"))

    def request(self, method: str, path: str, body: object = None,
                timeout: float = 60.0) -> tuple[int, object]:
        """``method path`` with a JSON body: (status, the JSON answer or text)."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as exc:
            status, raw = exc.code, exc.read()
        text = raw.decode("utf-8", "replace")
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text

    def output(self) -> str:
        """What the server wrote to stdout and stderr so far."""
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server politely (SIGTERM), then firmly."""
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=timeout)
        self._close()

    def kill(self) -> None:
        """Kill the server at once (SIGKILL), as a crash would."""
        if self.alive():
            self.process.kill()
            self.process.wait(timeout=10)
        self._close()

    def _close(self) -> None:
        if self._log is not None:
            with contextlib.suppress(OSError):
                self._log.close()
            self._log = None

    def __enter__(self) -> ServerHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start_server(db_path: str | Path, port: int | None = None,
                 env: Mapping[str, str] | None = None, *,
                 timeout: float = START_TIMEOUT, args: Sequence[str] = ()) -> ServerHandle:
    """Run ``rackety serve --port PORT --db DB_PATH [ARGS]`` and wait for ``/api/health``.

    ``env`` adds to (and overrides) this process's environment, for example
    ``RACKETY_CACHE_DIR``; ``args`` are more options of ``serve`` (``--lexicon
    FILE:spanish``). Raises `RuntimeError` with the server's output if it
    exits or does not answer within ``timeout`` seconds."""
    db_path = Path(db_path)
    chosen = free_port() if port is None else port
    full_env = dict(os.environ)
    full_env.update(env or {})
    full_env.setdefault("PYTHONUNBUFFERED", "1")
    log_fd, log_name = tempfile.mkstemp(prefix="rackety-serve-", suffix=".log")
    os.close(log_fd)
    log_path = Path(log_name)
    log = log_path.open("wb")
    command = [*serve_command(), "serve", "--host", "127.0.0.1", "--port", str(chosen),
               "--db", str(db_path), *args]
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, env=full_env)
    handle = ServerHandle(f"http://127.0.0.1:{chosen}", chosen, db_path, process, log_path,
                          log)
    deadline = time.monotonic() + timeout
    while True:
        if not handle.alive():
            handle._close()
            raise RuntimeError(f"rackety serve exited with {process.returncode}:\n"
                               f"{handle.output()}")
        try:
            if handle.get_json("/api/health", timeout=2) == {"status": "ok"}:
                return handle
        except (OSError, ValueError):
            pass
        if time.monotonic() > deadline:
            handle.kill()
            raise RuntimeError(f"rackety serve did not answer /api/health within "
                               f"{timeout:g} s:\n{handle.output()}")
        time.sleep(0.1)


def multi_codes(alphabet: Any) -> set[int]:
    """The codes of the alphabet's tiles of several letters (CH, L·L, NY)."""
    return {code for code, t in enumerate(alphabet.tiles) if code and len(t.label) > 1}


def opening(lexicon: Any, wanted: Any) -> tuple[int, Any]:
    """The first seed whose opening rack (the person's, moving first, against
    greedy) has a placement ``wanted(game, move)`` takes, and that placement."""
    from rackety.game.referee import Game

    for seed in range(3000):
        game = Game(lexicon, ["you", "greedy"], seed=seed)
        for move in game.view(0).moves(lexicon, exchanges=False):
            if move.kind == "place" and wanted(game, move):
                return seed, move
    raise AssertionError("no seed found")


#: the time every row of an old store is made at
OLD = "2024-01-01T00:00:00Z"


def version_2_store(path: str | Path,
                    players: Sequence[tuple[Any, ...]] = ()) -> sqlite3.Connection:
    """A new store file at ``path`` in schema version 2, as rackety made it
    before issue 33 (one player per name, person or computer level), with
    ``players`` rows (id, name, kind, level, rating, games, wins, losses),
    open for the caller's other rows: the caller commits and closes it."""
    from rackety.frontends.web.store import MIGRATIONS

    db = sqlite3.connect(path)
    for script in MIGRATIONS[:2]:
        db.executescript(script)
    db.execute("PRAGMA user_version=2")
    db.executemany("INSERT INTO players (id, name, kind, level, rating, games, wins, losses,"
                   " created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   [(*row, OLD) for row in players])
    return db


#: people called like computer levels, as version 2 let them be: h1 (rated once
#: against greedy) and best 2s, and the level h2
LEVELS_AS_PEOPLE = ((1, "h1", "human", None, 1516, 1, 1, 0),
                    (2, "greedy", "computer", "greedy", 1484, 1, 0, 1),
                    (3, "best 2s", "human", None, 1500, 0, 0, 0),
                    (4, "h2", "computer", "h2", 1530, 3, 2, 1))
