"""UCGI (issue 16 point 7): ``rackety ucgi`` speaks the Universal Crossword
Game Interface over a pipe (handshake, isready, position, go, stop, quit), its
moves are legal and the static player's, hostile lines get one error line and
the engine goes on; `UcgiPlayer` plays any UCGI engine in autoplay (rackety
itself here, move for move the static player's games), and an engine that is
silent, dead or illegal ends in one `RacketyError`."""

from __future__ import annotations

import io
import os
import queue
import shlex
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rackety import Board, Lexicon
from rackety.errors import RacketyError
from rackety.experiments.autoplay import tournament
from rackety.frontends.common import Lexicons
from rackety.frontends.ucgi import COMMANDS, MAX_LINE, Engine, parse_go, read_lines
from rackety.game.move import Move
from rackety.players import make_player
from rackety.players.ucgi import UcgiPlayer, find_moves, move_text, parse_entry

EMPTY = "/".join(["15"] * 15)
PANDY = "15/15/15/15/15/15/15/7PANDY3/15/15/15/15/15/15/15"
MIDGAME = f"{PANDY} AEINRSQ/ 0/30 1 lex TWL06;"
ENGINE = [sys.executable, "-m", "rackety", "ucgi"]
ANSWERS = ("id ", "option ", "ucgiok", "readyok", "info ", "bestmove ")
SETTINGS = {"deadline": None, "derandomize": True, "database": None,
            "suppress_health_check": list(HealthCheck)}


class Pipe:
    """``rackety ucgi`` in a subprocess, read line by line with timeouts."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen([*ENGINE, *args], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            self.lines.put(raw.decode("utf-8").rstrip("\n"))
        self.lines.put(None)

    def send(self, data: str | bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data if isinstance(data, bytes) else data.encode() + b"\n")
        self.process.stdin.flush()

    def until(self, word: str, timeout: float = 60.0) -> list[str]:
        """The lines up to the first that starts with ``word``, that one included."""
        got: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            assert line is not None, f"the engine ended before {word!r}: {got}"
            got.append(line)
            if line.split()[:1] == [word]:
                return got

    def close(self) -> tuple[int, str]:
        try:
            code = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait(timeout=10)
        assert self.process.stderr is not None
        return code, self.process.stderr.read().decode("utf-8", "replace")


def _engine(twl06: Lexicon, player: str = "static", *, files: bool = True
            ) -> tuple[Engine, list[str]]:
    out: list[str] = []
    return Engine(out.append, Lexicons(files=files), player=player), out


def _wait(out: list[str], word: str, timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [line for line in out if line.startswith(word)]
        if found:
            return found[-1]
        time.sleep(0.01)
    raise AssertionError(f"no {word!r} in {out}")


# ------------------------------------------------------------ over the pipe
def test_a_session_over_the_pipe_plays_the_static_move(twl06: Lexicon) -> None:
    board = Board.from_cgp(MIDGAME)
    static = make_player("static", twl06).choose(board, twl06)
    pipe = Pipe()
    try:
        pipe.send("ucgi")
        hello = pipe.until("ucgiok")
        assert hello[0].startswith("id name rackety") and hello[1].startswith("id author")
        assert "option name Player type string default static" in hello
        pipe.send("isready")
        assert pipe.until("readyok") == ["readyok"]
        pipe.send(f"position cgp {MIDGAME}")
        pipe.send("go movetime 500")
        said = pipe.until("bestmove")
        best = said[-1].split()[1]
        assert best == move_text(static, board.alphabet)
        assert any(line.startswith("info depth 1 ") and line.endswith(f"pv {best}")
                   for line in said)
        move = parse_entry(best, board).move
        assert move is not None and find_moves(board.moves(twl06, mode="all"), [move])
        # infinite: readyok while it thinks, the bestmove only at stop
        pipe.send("go infinite")
        time.sleep(0.3)
        pipe.send("isready")
        assert pipe.until("readyok")[-1] == "readyok"
        assert pipe.lines.empty() or not any(
            line.startswith("bestmove") for line in list(pipe.lines.queue) if line)
        pipe.send("stop")
        assert pipe.until("bestmove", 10)[-1] == f"bestmove {best}"
        pipe.send("quit")
        assert pipe.process.wait(timeout=10) == 0
    finally:
        code, err = pipe.close()
    assert code == 0 and "Traceback" not in err


def test_hostile_lines_over_the_pipe_get_one_error_line_each(twl06: Lexicon) -> None:
    pipe = Pipe()
    hostile = [b"\xff\xfe\x00garbage\n", b"\t  \r\n", b"go movetime -5\n",
               b"position cgp 15/15 A/ 0/0 0\n", b"position cgp " + b"x" * 5000 + b"\n",
               b"setoption name Player value human\n", b"x" * (MAX_LINE + 10) + b"\n",
               "position cgp ①②③ ∞\n".encode(), b"joho isready\n"]
    try:
        for line in hostile:
            pipe.send(line)
        said = pipe.until("bestmove", 30)  # go without a position: an error, then pass
        assert said[-1] == "bestmove pass"
        said += pipe.until("readyok", 30)  # "joho isready": the unknown word skipped
        errors = [line for line in said if line.startswith("info string error: ")]
        # garbage, movetime, no position, 2 positions, human, too long, ①
        assert len(errors) == 8, said
        assert all(len(line) <= 330 and line.startswith(ANSWERS) for line in said)
        pipe.send("isready")
        assert pipe.until("readyok") == ["readyok"]
    finally:
        pipe.send("quit")
        code, err = pipe.close()
    assert code == 0 and err == ""


def test_a_bad_player_option_fails_at_start() -> None:
    result = subprocess.run([*ENGINE, "--player", "human"], input=b"", capture_output=True,
                            timeout=60)
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr.decode().count("\n") == 1 and "plays by itself" in result.stderr.decode()


# ------------------------------------------------------------ in process
def test_position_moves_are_played_with_racks_and_challenges(twl06: Lexicon) -> None:
    engine, out = _engine(twl06)
    engine.handle(f"position cgp {EMPTY} AADNPUY/ 0/0 0 moves 8h.PANDY.AADNPUY.5.1 "
                  "rack.EINRST?")
    assert not [line for line in out if "error" in line], out
    board = engine.board
    assert board is not None and board.grid[7, 7:12].tolist() == \
        Board.from_cgp(f"{PANDY} / 0/0 0").grid[7, 7:12].tolist()
    # PANDY for 30 + 5, the opponent lost a turn: the player of PANDY moves again,
    # with the rack given last; the drawn rack after PANDY is unknown
    assert board.scores == [35, 0] and board.zero_turns == 1
    assert sorted(board.rack) == sorted(board.alphabet.rack("EINRST?"))
    engine.handle("position startpos moves 8h.PANDY ex.4 rack.AEINRSQ")
    assert engine.board is not None and engine.board.scores == [30, 0]
    for bad in ("position cgp", f"position cgp {EMPTY} A/ 0/0 0 moves 8h.PANDY.A",
                f"position cgp {EMPTY} A/ 0/0 0 movez 8h.PANDY", "position startpos moves x.Y",
                f"position cgp {EMPTY} A/ 0/0 0 moves ex.ZZ"):
        out.clear()
        engine.handle(bad)
        assert len(out) == 1 and out[0].startswith("info string error: "), (bad, out)
        assert engine.board is None


def test_searchmoves_restrict_and_illegal_ones_are_said(twl06: Lexicon) -> None:
    engine, out = _engine(twl06)
    board = Board.from_cgp(MIDGAME)
    engine.handle(f"position cgp {MIDGAME}")
    wanted = ["9g.QI", "k5.QAID", "8a.ZZZ", "ex.QZ", "ex.Q"]
    engine.handle(f"go movetime 100 searchmoves {' '.join(wanted)}")
    best = _wait(out, "bestmove").split()[1]
    ranked = find_moves(board.moves(twl06, mode="all", leave=make_player(
        "static", twl06).leave_model), [parse_entry(w, board).move for w in wanted[:2]]
        + [Move("exch Q")])
    assert best == move_text(ranked[0], board.alphabet) and len(ranked) == 3
    errors = [line for line in out if line.startswith("info string error")]
    assert len(errors) == 2 and "8a.ZZZ" in errors[0] + errors[1]
    engine.close()


def test_the_simulating_player_keeps_to_movetime_and_stop(twl06: Lexicon) -> None:
    engine, out = _engine(twl06, "sim:100000")
    engine.handle(f"position cgp {MIDGAME}")
    engine.handle("go movetime 300")  # the rollouts' kernels load (or compile) first
    _wait(out, "bestmove", 120)
    out.clear()
    t0 = time.perf_counter()
    engine.handle("go movetime 600 depth 1 alsosearchmoves ex.Q")
    best = _wait(out, "bestmove", 30)
    assert time.perf_counter() - t0 < 2.0
    assert any(line.startswith("info depth 1 score eq") and "nodes" in line for line in out)
    assert any("currmove ex.Q " in line for line in out), out
    assert parse_entry(best.split()[1], Board.from_cgp(MIDGAME)).move is not None
    out.clear()
    engine.handle("go infinite")
    time.sleep(0.4)
    engine.handle("isready")
    assert "readyok" in out and not any(line.startswith("bestmove") for line in out)
    engine.handle("stop")
    t0 = time.perf_counter()
    _wait(out, "bestmove", 10)
    assert time.perf_counter() - t0 < 1.5
    engine.close()


def test_options_are_set_and_refused(twl06: Lexicon) -> None:
    engine, out = _engine(twl06, files=False)
    engine.handle("setoption name Player value sim:7")
    assert engine.player_spec == "sim:7" and out == []
    for bad in ("setoption name Player value human", "setoption name Player value ucgi:x",
                "setoption name Player value nobody", "setoption name Lexicon value /etc",
                "setoption name Hash value 16", "setoption", "debug sideways"):
        out.clear()
        engine.handle(bad)
        assert len(out) == 1 and out[0].startswith("info string error: "), (bad, out)
    assert engine.player_spec == "sim:7" and engine.lexicons.preferred is None
    engine.handle("setoption name Lexicon value TWL06")
    assert engine.lexicons.preferred == "TWL06"
    out.clear()
    engine.handle("debug on")
    engine.handle("register later")
    assert out == ["info string debug: received register later"]


def test_the_move_format_reads_back_every_move(twl06: Lexicon) -> None:
    board = Board.from_cgp(f"{PANDY.replace('PANDY', 'PAnDY')} ADEIRT?/ 0/28 0")
    moves = board.moves(twl06, mode="all")
    assert len(moves) > 500
    for move in list(moves)[::7]:
        text = move_text(move, board.alphabet)
        assert "(" not in text and " " not in text
        assert parse_entry(text, board).move == move, text
    assert move_text(board.parse_move("H5 ADI(P)")) == "h5.ADIP"
    assert move_text(board.parse_move("8E RAT(PAnDY)")) == "8e.RATPAnDY"
    for bad in ("", "8h", "8h.", "ex.", "ex.0", "ex.ABC.AB", "rack.A.B", "9h.AB.A.x",
                "9h.AB.A.1.2", "a.b.c.d.e.f", "8h PANDY", "q99.A", "8h.PANDY"):
        with pytest.raises(RacketyError) as info:
            parse_entry(bad, board)
        assert "\n" not in str(info.value) and "ucgi move" in str(info.value)


def test_go_parameters() -> None:
    line = "infinite 1time 300 threads x searchmoves pass ex.A alsosearchmoves 8h.AB depth"
    go, problems = parse_go(line.split())
    assert go.infinite and go.searchmoves == ["pass", "ex.A"] and go.alsosearchmoves == ["8h.AB"]
    assert go.ignored == ["1time 300"] and len(problems) == 2
    assert parse_go(["movetime", "1000000000000"])[0].movetime is None


# ------------------------------------------------------------ fuzz
WORDS = st.sampled_from([*COMMANDS, "cgp", "startpos", "moves", "name", "value", "Player",
                         "Lexicon", "movetime", "infinite", "searchmoves", "depth", "on",
                         "8h.PANDY", "ex.A", "pass", "rack.AB", EMPTY, "AB/", "0/0", "0"])
LINES = st.one_of(st.text(max_size=60),
                  st.lists(st.one_of(WORDS, st.text(max_size=8)), max_size=10).map(" ".join))


@settings(max_examples=150, **SETTINGS)
@given(lines=st.lists(LINES, max_size=8))
def test_hostile_lines_never_break_the_engine(twl06: Lexicon, lines: list[str]) -> None:
    engine, out = _engine(twl06, files=False)
    for line in lines:
        assert engine.handle(line) in (True, False)
    engine.handle("isready")
    assert "readyok" in out
    engine.close()
    assert all("\n" not in line and line.startswith(ANSWERS) for line in out), out
    assert not any("internal error" in line for line in out), out


@settings(max_examples=50, **SETTINGS)
@given(data=st.binary(max_size=300))
def test_the_line_reader_takes_any_bytes(data: bytes) -> None:
    lines = list(read_lines(io.BytesIO(data)))
    assert all(isinstance(line, str) for line in lines)
    assert "".join(lines) == data.decode("utf-8", "replace")


def test_the_line_reader_drops_a_line_too_long() -> None:
    data = b"isready\n" + b"x" * (2 * MAX_LINE + 3) + b"\nquit\n"
    assert list(read_lines(io.BytesIO(data))) == ["isready\n", None, "quit\n"]


# ------------------------------------------------------------ the player
def test_autoplay_against_rackety_over_ucgi_is_the_static_game(twl06: Lexicon) -> None:
    spec = f"ucgi:{shlex.join(ENGINE)}"
    over = tournament("TWL06", [spec, "static"], 2, seed=3, jobs=1)  # every game checked
    here = tournament("TWL06", ["static", "static"], 2, seed=3, jobs=1, compiled=False)
    assert over.games == 2 and [p.name for p in over.players] == ["ucgi", "static"]
    assert over.players[0].moves > 10
    assert [[s.score for s in r.seats] for r in over.results] == \
        [[s.score for s in r.seats] for r in here.results]
    children = Path(f"/proc/{os.getpid()}/task")
    if children.exists():  # the engine ended with the tournament
        pids = " ".join(p.read_text() for p in children.glob("*/children"))
        assert all("rackety ucgi" not in _cmdline(pid) for pid in pids.split())


def _cmdline(pid: str) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "engine.py"
    path.write_text(textwrap.dedent(body))
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(path))}"


def test_a_silent_engine_is_one_error_after_the_timeout(tmp_path: Path, twl06: Lexicon) -> None:
    player = UcgiPlayer(_script(tmp_path, "import time\ntime.sleep(60)\n"), timeout=0.5)
    t0 = time.perf_counter()
    with pytest.raises(RacketyError, match="no 'ucgiok' within 0.5 s") as info:
        player.decide(Board.from_cgp(MIDGAME), twl06)
    assert time.perf_counter() - t0 < 5 and "\n" not in str(info.value)
    assert not player.running  # ended


def test_a_dead_or_wrong_engine_is_one_error(tmp_path: Path, twl06: Lexicon) -> None:
    board = Board.from_cgp(MIDGAME)
    dead = UcgiPlayer(_script(tmp_path, "import sys\nprint('no lexicon', file=sys.stderr)\n"))
    with pytest.raises(RacketyError, match=r"exited \(status 0\) before .*: no lexicon$"):
        dead.decide(board, twl06)
    liar = _script(tmp_path, """
        import sys
        for line in sys.stdin:
            word = line.split()[0]
            if word == "ucgi": print("ucgiok", flush=True)
            if word == "isready": print("readyok", flush=True)
            if word == "go": print("info string hello\\nbestmove 8a.QQQQQQ", flush=True)
        """)
    with pytest.raises(RacketyError, match="is not a legal move here"):
        UcgiPlayer(liar).decide(board, twl06)
    with pytest.raises(RacketyError, match="no program"):
        make_player("ucgi:no-such-engine-anywhere --x", twl06)
    with pytest.raises(RacketyError, match="give the engine's command"):
        make_player("ucgi:  ", twl06)
    with pytest.raises(RacketyError, match="No closing quotation"):
        make_player("ucgi:rackety 'ucgi", twl06)
    assert make_player(f"UCGI:{shlex.join(ENGINE)}", twl06).name == "ucgi"
