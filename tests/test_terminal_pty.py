"""`rackety play` in a pseudo-terminal of 80x24, read back through a terminal
emulator (pyte): what a person sees on the screen."""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path

import pyte

from rackety import Lexicon
from rackety.frontends.terminal import PROMPT, TerminalGame
from rackety.game.gcg import game_of, read_gcg
from rackety.players import make_player

COLUMNS, LINES = 80, 24
HINT_ROW = re.compile(r"^  (\d+[A-O]|[A-O]\d+) (\S+) +(\d+)  (\S+) +(-?\d+\.\d) +(\d+\.\d)$")


class Terminal:
    """A child process on a pty of 80x24 and two emulated screens of its
    output: the 80-column one the person sees, and one of 200 columns that
    shows whether anything was drawn past column 80."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
        env.update(TERM="xterm-256color", PYTHONIOENCODING="utf-8")
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                                     cwd=cwd, start_new_session=True, close_fds=True)
        os.close(slave)
        self.master = master
        self.screen = pyte.Screen(COLUMNS, LINES)
        self.wide = pyte.Screen(200, LINES)
        self.streams = [pyte.ByteStream(self.screen), pyte.ByteStream(self.wide)]

    @property
    def lines(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    def text(self) -> str:
        return "\n".join(self.lines)

    def send(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\r")

    def wait(self, ready: Callable[[], bool], timeout: float = 180.0) -> None:
        """Read the output until ``ready()`` holds with nothing more coming."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            readable, _, _ = select.select([self.master], [], [], 0.2)
            if readable:
                try:
                    data = os.read(self.master, 65536)
                except OSError:  # EIO: the child has gone
                    data = b""
                if not data:
                    break
                for stream in self.streams:
                    stream.feed(data)
            elif ready():
                return
        assert ready(), f"timed out; the screen:\n{self.text()}"

    def prompt_with(self, *texts: str) -> Callable[[], bool]:
        """Ready when the prompt is on the cursor's line and the texts on screen."""
        def ready() -> bool:
            line = self.screen.display[self.screen.cursor.y]
            return line.startswith(PROMPT.rstrip()) and all(t in self.text() for t in texts)
        return ready

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)


def _warm(twl06: Lexicon) -> None:
    """Compile the kernels the child needs into numba's cache (on disk, which
    the child shares) so that it starts in a second or two."""
    lines = iter(["hint", "8H TOLA"])

    def read(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    TerminalGame(twl06, [make_player("static", twl06)], seed=1, read_line=read,
                 write=lambda x: None).run()


def _board_ok(lines: list[str]) -> None:
    """The board's column letters and its 15 rows, on top."""
    assert lines[0].split()[:15] == [chr(65 + c) for c in range(15)]
    assert [line[:2] for line in lines[1:16]] == [f"{r:>2}" for r in range(1, 16)]


def _fits(term: Terminal) -> None:
    """Nothing was drawn past column 80 (the wide screen's columns 80+ are blank)."""
    assert all(not line[COLUMNS:].strip() for line in term.wide.display), \
        "\n".join(term.wide.display)


def test_play_in_a_terminal_of_80x24(tmp_path, twl06: Lexicon) -> None:
    _warm(twl06)
    saved = tmp_path / "mid.gcg"
    term = Terminal([sys.executable, "-m", "rackety", "play", "--lexicon", "TWL06",
                     "--seed", "94"], tmp_path)
    try:
        term.wait(term.prompt_with("your rack"))
        lines = term.lines
        _board_ok(lines)
        assert "play: 8D WORD" in term.text()  # the help, under the board
        assert "(unknown)" not in term.text() and "to move:" not in term.text()
        _fits(term)

        term.send("hint")
        term.wait(term.prompt_with("best moves"))
        lines = term.lines
        _board_ok(lines)
        title = next(i for i, line in enumerate(lines) if line.startswith("best moves"))
        assert "equity" in lines[title] and "TWL06" in lines[title]  # which leave values
        assert lines[title + 1].split() == ["move", "score", "leave", "value", "win", "%"]
        rows = [HINT_ROW.match(line) for line in lines[title + 2:] if line.strip()]
        assert len(rows) == 6 and all(rows[:5]) and rows[5] is None  # 5 moves, the prompt
        assert len({row[2] for row in rows[:5]}) == 5  # five different words
        assert lines[-1].startswith(PROMPT.rstrip())
        _fits(term)

        square, word, score = rows[0][1], rows[0][2], rows[0][3]
        term.send(f"{square} {word}")
        said = f"you play {square} {word} for {score}"
        term.wait(term.prompt_with(said, " plays "))
        lines = term.lines
        _board_ok(lines)
        row, col = (int(square[:-1]), ord(square[-1]) - 65) if square[0].isdigit() else \
            (int(square[1:]), ord(square[0]) - 65)
        across = square[0].isdigit()
        for i, letter in enumerate(word):  # the word is on the board where it was played
            r, c = (row, col + i) if across else (row + i, col)
            assert lines[r][4 + 3 * c] == letter, "\n".join(lines)
        messages = lines[16:]
        assert any(said in line for line in messages)  # under the board, after the redraw
        assert any(re.match(r"static plays \S+ \S+ for \d+", line) for line in messages)
        assert any("static (computer)" in line for line in lines[:16])
        assert term.text().count("your rack") == 1
        rack_lines = [line for line in lines if re.search(r"(?: [A-Z?] ){6} [A-Z?]$", line)]
        assert len(rack_lines) == 1
        rack = "".join(rack_lines[0].split()[-7:])
        assert rack not in term.text()  # the rack once, as tiles, not again as a word
        _fits(term)

        term.send(f"save {saved.name}")
        term.wait(term.prompt_with(f"saved {saved.name}"))
        term.send("quit")
        assert term.proc.wait(timeout=60) == 0
    finally:
        term.close()

    text = saved.read_text()
    assert "#rack1 " in text and "#rack2" not in text  # the computer's rack stays hidden
    record = read_gcg(saved)
    assert record.racks == {0: "".join(sorted(rack.replace("?", ""))) + "?" * rack.count("?")}
    assert not any(e.rack for e in record.events if e.nickname == "static")
    game = game_of(record, twl06)  # it loads, the computer's rack drawn from the unseen tiles
    assert sorted(game.alphabet.format([c]) for c in game.racks[0]) == sorted(rack)
    assert len(game.racks[1]) == 7 and game.turn == 0


def test_play_in_catalan_in_a_terminal_of_80x24(tmp_path: Path) -> None:
    """A word list in Catalan (--lexicon FILE:catalan): its bag, NY on the rack
    and on the board as one tile of one square, typed as spelled."""
    from rackety.game.referee import Game

    words = tmp_path / "ca.txt"
    words.write_bytes((Path(__file__).parent / "data" / "words_catalan_small.txt").read_bytes())
    catalan = Lexicon.load(str(words), "catalan")  # into the cache the child reads
    ny, a = catalan.alphabet.word("[NY]A")
    seed = next(s for s in range(5000)
                if {ny, a} <= set(Game(catalan, ["you", "static"], seed=s).racks[0]))
    lines = iter(["hint", "8H ANY"])

    def read(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    TerminalGame(catalan, [make_player("static", catalan)], seed=seed, read_line=read,
                 write=lambda x: None).run()  # the kernels compiled, as _warm does
    term = Terminal([sys.executable, "-m", "rackety", "play", "--lexicon", f"{words}:catalan",
                     "--seed", str(seed)], tmp_path)
    try:
        term.wait(term.prompt_with("your rack"))
        _board_ok(term.lines)
        text = " ".join(term.text().split())
        assert "the computer plays static, equity with H3 leave values" in text
        assert "tiles L·L NY QU: L·L or [L·L], NY or [NY], QU or [QU]" in text
        rack = next(line for line in term.lines if " NY " in line)
        assert "[NY]" not in rack  # one tile, bare
        assert f"bag {100 - 14}" in term.text()  # Catalan's bag: 100 tiles
        _fits(term)

        term.send("8H ANY")
        term.wait(term.prompt_with("you play 8H A[NY] for", " static "))
        lines = term.lines
        _board_ok(lines)
        assert lines[8][3 + 3 * 7:3 + 3 * 9] == " A  NY", "\n".join(lines)
        _fits(term)
        term.send("quit")
        assert term.proc.wait(timeout=60) == 0
    finally:
        term.close()
