"""The fuzz reader ``ucgi_client`` (issue 33, points 3 and 7): the client side
of the Universal Crossword Game Interface, `rackety.players.ucgi.UcgiPlayer`
(the ``ucgi:COMMAND`` players), playing against a hostile engine.

The engine is a small Python program written for each input, which answers
each command it reads by its first word with what the payload says: the
payload maps ``ucgi``, ``isready``, ``position`` and ``go`` to what is sent
back, a list of items, each a text (sent as UTF-8, a lone surrogate as the
bytes it would be: invalid UTF-8), a long text ``{"prefix", "repeat",
"times"}``, text sent without end ``{"repeat", "forever": true}`` (``"stderr":
true`` to send it on stderr instead), or a pause ``{"wait": seconds}``;
``exit_at`` names the command after which the engine exits (``status``).

`run` asks the player for a move in the midgame of ``tests/test_ucgi.py`` and
checks that it gives a legal move ("accepted") or one `RacketyError` of one
line of at most 300 characters ("refused"), within `WITHIN` seconds, with the
memory of this process grown by less than `MAX_GROWTH` (an engine that sends
gigabytes without a newline included), and that the engine's process is gone
afterwards (killed when it failed, ended by `UcgiPlayer.close` otherwise).

Inputs run in worker processes (``SANDBOXED``); reading ``SANDBOXED``, as the
process that starts them does, first compiles the move generator there when
numba's cache lacks it (the legality check of a bestmove needs it).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import resource
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import fuzzing
from fuzzing import Context, ContractError, RandomChooser, clip

TIMEOUT = 1.0  # the player's timeout: seconds of an engine's silence
MOVETIME = 100  # milliseconds a move
WITHIN = 10.0  # seconds a decision may take, at most (the timeouts, then the process ended)
MAX_GROWTH = 200 << 20  # bytes the process's peak memory may grow by in one input
MIDGAME = "15/15/15/15/15/15/15/7PANDY3/15/15/15/15/15/15/15 AEINRSQ/ 0/30 1 lex TWL06;"
HELLO = ["id name fake", "id author nobody", "ucgiok"]
MOVES = ("k5.QINDARS", "pass", "ex.Q", "ex.AEINQRS", "8a.ZZZ", "k5.QINDARs", "K5.QINDARS",
         "5k.QINDARS", "ex.ZZ", "rack.ABC", "ex.4", "", "k5.QINDARS.AEINRSQ.0.1", "h8.PANDY")
LINES = ("readyok", "ucgiok", "bestmove", "info depth 1", "info string error: no lexicon",
         "info string hello", "id name x", "option name x type string default y", "",
         "\r", "bestmove k5.QINDARS ponder pass", "\x00", "\udcff\udcfe", "\ud800")

FAKE = r'''
import json, os, sys, time
spec = json.load(open(sys.argv[1]))
open(sys.argv[2], "w").write(str(os.getpid()))
def emit(item):
    if isinstance(item, dict) and "wait" in item:
        time.sleep(min(2.0, max(0.0, float(item["wait"]))))
        return
    stream = sys.stderr.buffer if isinstance(item, dict) and item.get("stderr") else \
        sys.stdout.buffer
    if isinstance(item, dict) and item.get("forever"):
        chunk = item["repeat"].encode("utf-8", "surrogatepass") * 4096 or b"x"
        while True:
            stream.write(chunk)
    if isinstance(item, dict):
        text = item.get("prefix", "") + item["repeat"] * int(item["times"])
    else:
        text = item
    stream.write(text.encode("utf-8", "surrogatepass"))
    stream.flush()
for line in sys.stdin.buffer:
    words = line.split()
    word = words[0].decode("ascii", "replace") if words else ""
    for item in spec.get(word, []):
        emit(item)
    if word == spec.get("exit_at"):
        sys.exit(int(spec.get("status", 0)))
'''


# ------------------------------------------------------------------- inputs
def engine(go: list[Any], *, hello: list[Any] | None = None, ready: list[Any] | None = None,
           **more: Any) -> dict[str, Any]:
    """A fake engine's answers: a good handshake unless told otherwise."""
    return {"ucgi": [line + "\n" for line in HELLO] if hello is None else hello,
            "isready": ["readyok\n"] if ready is None else ready, "go": go, **more}


def hostile() -> tuple[tuple[str, dict[str, Any], str | None], ...]:
    """Named hostile engines: issue 33's endless line, silence, floods, lies."""
    refused = "refused"
    endless = {"repeat": "x", "forever": True}
    cases: dict[str, tuple[dict[str, Any], str | None]] = {
        "good": (engine(["info depth 1 pv k5.QINDARS\n", "bestmove k5.QINDARS\n"]), None),
        "good-pass": (engine(["bestmove pass\n"]), None),
        "good-crlf": (engine(["bestmove k5.QINDARS\r\n"], hello=["ucgiok\r\n"],
                             ready=["readyok\r\n"]), None),
        "endless-line-at-go": (engine(["info ", endless]), refused),
        "endless-line-at-hello": (engine([], hello=[endless]), refused),
        "endless-line-on-stderr": (engine([{**endless, "stderr": True}]), refused),
        "long-line-then-move": (engine([{"prefix": "info ", "repeat": "y", "times": 1 << 20},
                                        "\nbestmove k5.QINDARS\n"]), refused),
        "lines-just-below-the-limit": (engine(
            [{"prefix": "info ", "repeat": "y", "times": (1 << 20) - 7}, "\n"] * 3
            + ["bestmove pass\n"]), None),
        "stderr-flood-then-move": (engine(
            [{"repeat": "e", "times": 20_000_000, "stderr": True}, "bestmove pass\n"]), None),
        "silent-at-go": (engine([]), refused),
        "silent-at-hello": (engine([], hello=[]), refused),
        "silent-at-ready": (engine([], ready=[]), refused),
        "chatter-no-bestmove": (engine([{"prefix": "", "repeat": "info depth 1\n",
                                         "times": 2_000_000}]), refused),
        "slow-bestmove": (engine([{"wait": 2.0}, "bestmove pass\n"]), refused),
        "exits-at-go": (engine([], exit_at="go", status=3), refused),
        "exits-at-hello": (engine([], hello=[], exit_at="ucgi"), refused),
        "error-line": (engine(["info string error: no lexicon\n"]), refused),
        "illegal-move": (engine(["bestmove 8a.QQQQQQ\n"]), refused),
        "garbage-move": (engine(["bestmove \udcff\x00\n"]), refused),
        "bestmove-alone": (engine(["bestmove\n"]), refused),
        "no-newline-at-exit": (engine(["bestmove pass"], exit_at="go"), None),
        "nul-bytes": (engine(["\x00" * 100 + "\nbestmove pass\n"]), None),
        "huge-bestmove": (engine([{"prefix": "bestmove ", "repeat": "k5.QINDARS",
                                   "times": 90_000}, "\n"]), refused),
    }
    return tuple((name, payload, expect) for name, (payload, expect) in cases.items())


def _item(ch: RandomChooser) -> Any:
    kind = ch.below(12)
    if kind < 6:
        return ch.choice(LINES) + ch.choice(("\n", "\n", "\r\n", ""))
    if kind < 9:
        return f"bestmove {ch.choice(MOVES)}\n"
    if kind == 9:
        return {"wait": round(0.1 * ch.below(8), 1)}
    if kind == 10:
        return {"prefix": ch.choice(LINES), "repeat": ch.choice(("y", "\n", "info x\n", " ")),
                "times": ch.choice((10, 1000, 100_000, (1 << 20) - 1, 1 << 20, 3 << 20))}
    return {"repeat": ch.choice(("x", "\n", "y\ny")), "forever": True,
            "stderr": ch.chance(50)}


def generate(ch: RandomChooser) -> tuple[dict[str, Any], str | None]:
    """One engine: a hostile one, one with an answer mutated, or answers drawn
    from the protocol's lines, moves, long lines, pauses and endless output."""
    cases = hostile()
    pick = ch.below(10)
    _name, payload, expect = ch.choice(cases)
    payload = json.loads(json.dumps(payload))
    if pick < 2:
        return payload, expect
    if pick < 5:
        key = ch.choice(("ucgi", "isready", "go"))
        texts = [i for i, item in enumerate(payload[key]) if isinstance(item, str)]
        if texts:
            i = ch.choice(texts)
            payload[key][i] = fuzzing.mutate(payload[key][i], ch, LINES + MOVES)
        else:
            payload[key].append(_item(ch))
        return payload, None
    go = [_item(ch) for _ in range(ch.below(4))]
    if ch.chance(70):
        go.append(f"bestmove {ch.choice(MOVES)}\n")
    hello = None if ch.chance(80) else [_item(ch) for _ in range(ch.below(3))]
    ready = None if ch.chance(80) else [_item(ch) for _ in range(ch.below(3))]
    more: dict[str, Any] = {}
    if ch.chance(10):
        more = {"exit_at": ch.choice(("ucgi", "isready", "position", "go")),
                "status": ch.below(4)}
    if ch.chance(20):
        more["position"] = [_item(ch)]
    return engine(go, hello=hello, ready=ready, **more), None


# ---------------------------------------------------------------------- run
@functools.lru_cache(maxsize=1)
def _setting() -> tuple[Any, Any]:
    from rackety import Board, Lexicon

    board, lexicon = Board.from_cgp(MIDGAME), Lexicon.load("TWL06")
    board.moves(lexicon, mode="all")  # the generator loaded (or compiled)
    return board, lexicon


def __getattr__(name: str) -> Any:
    """``SANDBOXED``: True, the move generator warmed first (the module docstring)."""
    if name == "SANDBOXED":
        _setting()
        return True
    raise AttributeError(name)


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (or is a zombie not yet reaped)."""
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        with contextlib.suppress(OSError):
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0] == "Z":
                return True
        time.sleep(0.05)
    return False


def _peak() -> int:
    """The peak memory of this process so far, in bytes (Linux: ru_maxrss in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def run(payload: dict[str, Any], ctx: Context) -> str:
    """Ask a `UcgiPlayer` for a move from the engine of ``payload`` and check
    the contract (the module docstring)."""
    from rackety import RacketyError
    from rackety.players.ucgi import UcgiPlayer, find_moves

    board, lexicon = _setting()
    folder = ctx.case_dir()
    (folder / "fake.py").write_text(FAKE)
    (folder / "spec.json").write_text(json.dumps(payload, ensure_ascii=True))
    pid_file = folder / "pid"
    command = shlex.join(str(p) for p in (sys.executable, folder / "fake.py",
                                          folder / "spec.json", pid_file))
    player = UcgiPlayer(command, movetime=MOVETIME, timeout=TIMEOUT)
    before = _peak()
    t0 = time.monotonic()
    outcome, decision = fuzzing.attempt(lambda: player.decide(board, lexicon),
                                        "UcgiPlayer.decide")
    took = time.monotonic() - t0
    grown = _peak() - before
    running = player.running
    with contextlib.suppress(RacketyError):
        player.close()
    pid = int(pid_file.read_text()) if pid_file.exists() and pid_file.read_text() else None
    if took > WITHIN:
        raise ContractError("hang", f"ucgi client: the decision took {took:.1f} s")
    if grown > MAX_GROWTH:
        raise ContractError("exception", f"ucgi client: the memory grew by {grown >> 20} MiB")
    if outcome == "refused" and running:
        raise ContractError("expectation", "ucgi client: the engine still runs after its error")
    if pid is not None and not _gone(pid):
        with contextlib.suppress(OSError):
            os.kill(pid, 9)
        raise ContractError("expectation", f"ucgi client: the engine (pid {pid}) outlived the "
                                           "player")
    if decision is not None:
        move = decision.move
        if move.kind != "pass" and not find_moves(board.moves(lexicon, mode="all"), [move]):
            raise ContractError("readback", f"ucgi client: an illegal move {clip(str(move))}")
    return outcome
