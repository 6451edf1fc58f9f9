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
import re
import resource
import select
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

import rackety.frontends.ucgi as ucgi_engine
from rackety import Board, Lexicon
from rackety.errors import RacketyError
from rackety.experiments.autoplay import tournament
from rackety.frontends.common import Lexicons
from rackety.frontends.ucgi import COMMANDS, MAX_LINE, Engine, parse_go, read_lines
from rackety.game.heuristics import leave_model
from rackety.game.move import Move
from rackety.players import BestPlayer, Decision, EndgamePlayer, PlayerBase, make_player
from rackety.players.base import decide_under, is_controlled
from rackety.players.ucgi import UcgiPlayer, find_moves, move_text, parse_entry
from rackety.search.control import Control
from rackety.search.endgame import solve
from rackety.search.preendgame import preendgame
from rackety.search.simulation import simulate

EMPTY = "/".join(["15"] * 15)
PANDY = "15/15/15/15/15/15/15/7PANDY3/15/15/15/15/15/15/15"
MIDGAME = f"{PANDY} AEINRSQ/ 0/30 1 lex TWL06;"
ENGINE = [sys.executable, "-m", "rackety", "ucgi"]
ANSWERS = ("id ", "option ", "ucgiok", "readyok", "info ", "bestmove ")
SETTINGS = {"deadline": None, "derandomize": True, "database": None,
            "suppress_health_check": list(HealthCheck)}


class Pipe:
    """``rackety ucgi`` in a subprocess, read line by line with timeouts
    (``at``: when the last line `until` returned came)."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen([*ENGINE, *args], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.times: queue.Queue[float] = queue.Queue()
        self.at = 0.0
        self.reading = True
        self.reader = threading.Thread(target=self._pump, daemon=True)
        self.reader.start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        fd, rest = self.process.stdout.fileno(), b""
        while self.reading:
            if not select.select([fd], [], [], 0.05)[0]:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            *lines, rest = (rest + chunk).split(b"\n")
            for raw in lines:
                self.times.put(time.monotonic())
                self.lines.put(raw.decode("utf-8"))
        self.times.put(time.monotonic())
        self.lines.put(None)

    def close_output(self) -> None:
        """Close the engine's output, as a GUI that went away."""
        self.reading = False
        self.reader.join()
        assert self.process.stdout is not None
        self.process.stdout.close()

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
            self.at = self.times.get()
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
        # garbage, go (its movetime and no position: one line), 2 positions, human,
        # too long, ①
        assert len(errors) == 7, said
        assert any("movetime" in line and "no position" in line for line in errors), said
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


# ------------------------------------------------- the controller, over the pipe
# L1232 of the endgame corpus: seven tiles a side, minutes to solve exactly
ENDGAME = ("7QI3R1I/8SHIVAHS/11AG1B/11G2A/10NA3/4BOP2PELF2/5V4O3L/4WAUK2TAMMY/4OR1AGUE1ION/"
           "1JERRY4n1TAX/1E2D5I1T2/1TORSION2C1E2/1T4FEE3N2/1E10e2/EDUCT2ENWIND2 DELLORS/AEIIOUZ "
           "343/391 0 lex TWL06;")
PEG = ENDGAME.replace("DELLORS/AEIIOUZ", "DELLORS/AEIIOU")  # the Z in the bag
STOP_WITHIN = 1.5  # seconds from stop to bestmove (a slice is a quarter second)
GONE_WITHIN = 2.0  # seconds from the end of the input, or of the output, to the exit


def _ready(pipe: Pipe, positions: list[str]) -> None:
    """The handshake, then the timed searches once each: what they use is
    loaded (or compiled, on a first run, which nothing cuts short) before the
    clock starts. (The championship player's inference runs only with time
    enough for it: the same move time, then.)"""
    pipe.send("isready")
    pipe.until("readyok", 120)
    for cgp in positions:
        for go in ("go movetime 700", "go movetime 100"):
            pipe.send(f"position cgp {cgp}")
            pipe.send(go)
            pipe.until("bestmove", 900)


def _timed(pipe: Pipe, *lines: str) -> tuple[list[str], float]:
    """Send ``lines`` and wait for a bestmove: what came, and how long it took."""
    for line in lines:
        pipe.send(line)
    t0 = time.monotonic()
    said = pipe.until("bestmove", 60)
    return said, pipe.at - t0


@pytest.mark.parametrize("player, positions", [
    ("best:86400", [MIDGAME, PEG, ENDGAME]),
    ("sim:1000000000", [MIDGAME]),
    ("sim:1000000000+endgame", [ENDGAME]),
], ids=["best", "sim", "sim+endgame"])
def test_every_player_keeps_to_movetime_and_stop(player: str, positions: list[str]) -> None:
    """Issue 33: best:86400 answered a go movetime 1000 after 128 s, and stop
    changed nothing."""
    pipe = Pipe("--player", player)
    try:
        _ready(pipe, positions)
        for cgp in positions:
            pipe.send(f"position cgp {cgp}")
            said, took = _timed(pipe, "go movetime 700")
            assert took < 0.7 + 0.5, (player, cgp, took)
            assert said[-1] != "bestmove pass"
            for go in ("go", "go infinite"):
                pipe.send(f"position cgp {cgp}")
                pipe.send(go)
                time.sleep(0.8)
                said, took = _timed(pipe, "stop")
                assert said.count(said[-1]) == 1 and said[-1] != "bestmove pass"
                assert took < STOP_WITHIN, (player, cgp, go, took)
                if player == "best:86400" and cgp != MIDGAME:
                    assert took > 0, (player, cgp, go)  # a search of minutes: stopped
        pipe.send("quit")
        assert pipe.process.wait(timeout=GONE_WITHIN) == 0
    finally:
        code, err = pipe.close()
    assert code == 0 and err == ""


def test_a_game_clock_sets_the_time_of_a_go() -> None:
    """Issue 38: ``1time`` (UCI's ``wtime``) is the mover's game clock; the
    turn takes the judge's share of it, well inside the clock."""
    from rackety.search.judge import clock_seconds

    pipe = Pipe("--player", "best:clock=60")
    try:
        _ready(pipe, [MIDGAME, ENDGAME])
        for cgp, ms in ((MIDGAME, 6000), (ENDGAME, 3000), (MIDGAME, 400)):
            share = clock_seconds(Board.from_cgp(cgp), ms / 1000)
            assert 0 < share < ms / 1000
            pipe.send(f"position cgp {cgp}")
            said, took = _timed(pipe, f"go wtime {ms} btime 60000")
            assert took < share + 0.5 and took < ms / 1000, (cgp, ms, share, took)
            assert said[-1] != "bestmove pass"
            why = [line for line in said if line.startswith("info string best:clock=60 chose")]
            assert len(why) == 1, said  # where the move came from
            if cgp == MIDGAME and ms > 1000:
                assert "simulation" in why[0] and "to win" in why[0], why
                # the depth searched: the move and its rollouts' plies (by default as
                # many as the time allows, which the line says)
                plies = re.search(r"simulation, ([234]) plies, ", why[0])
                assert plies is not None, why
                depth = int(plies.group(1)) + 1
                assert any(line.startswith(f"info depth {depth} score eq") and " wp " in line
                           for line in said), said
        pipe.send("quit")
        assert pipe.process.wait(timeout=GONE_WITHIN) == 0
    finally:
        code, err = pipe.close()
    assert code == 0 and err == ""


@pytest.mark.parametrize("player, cgp, go", [
    ("sim:1000000000", MIDGAME, "go movetime 1000000000"),
    ("best:86400", ENDGAME, "go"),
    ("static", MIDGAME, "go infinite"),
], ids=["sim", "best", "static"])
def test_the_end_of_the_input_ends_the_search_and_the_process(player: str, cgp: str,
                                                              go: str) -> None:
    """Issue 33: after the GUI went away, go movetime 1000000000 kept a core
    busy. Its bestmove is still said."""
    pipe = Pipe("--player", player)
    try:
        _ready(pipe, [cgp])
        pipe.send(f"position cgp {cgp}")
        pipe.send(go)
        time.sleep(0.5)
        assert pipe.process.stdin is not None
        t0 = time.monotonic()
        pipe.process.stdin.close()
        assert pipe.process.wait(timeout=10) == 0
        assert time.monotonic() - t0 < GONE_WITHIN
        said = pipe.until("bestmove", 5)
        assert said[-1] != "bestmove pass" and said.count(said[-1]) == 1
    finally:
        code, err = pipe.close()
    assert code == 0 and err == ""


@pytest.mark.parametrize("player, go", [("sim:1000000000", "go movetime 1000000000"),
                                        ("static", "go infinite"),
                                        ("best:86400", "go")], ids=["sim", "static", "best"])
def test_a_closed_output_ends_the_search_and_the_process(player: str, go: str) -> None:
    """The reader of the engine's output goes away while it searches: the
    engine ends, quietly (the sim's info lines fail to be written, the others
    say nothing until their bestmove: the engine looks at its output)."""
    pipe = Pipe("--player", player)
    try:
        _ready(pipe, [ENDGAME if player.startswith("best") else MIDGAME])
        pipe.send(f"position cgp {ENDGAME if player.startswith('best') else MIDGAME}")
        pipe.send(go)
        time.sleep(0.5)
        t0 = time.monotonic()
        pipe.close_output()
        assert pipe.process.wait(timeout=10) == 0
        assert time.monotonic() - t0 < GONE_WITHIN
    finally:
        code, err = pipe.close()
    assert code == 0 and err == ""


def test_stop_then_position_and_go_at_once_get_one_bestmove_each() -> None:
    """Issue 33: the go after a stop was refused ("not while searching") and
    the GUI waited for its bestmove forever. Every go gets exactly one."""
    pipe = Pipe("--player", "sim:1000000000")
    try:
        _ready(pipe, [MIDGAME])
        pipe.send(f"position cgp {MIDGAME}")
        pipe.send("go infinite")
        time.sleep(0.5)
        # all at once: the stop, a new position and search, and gos that wait in turn
        pipe.send(f"stop\nposition cgp {MIDGAME}\ngo movetime 300\ngo movetime 200\n"
                  f"isready\nposition cgp {PANDY} ?AEINST/ 0/30 1 lex TWL06;\ngo depth 1 "
                  "movetime 100".encode() + b"\n")
        said = []
        for _ in range(4):
            said += pipe.until("bestmove", 30)
        pipe.send("isready")
        said += pipe.until("readyok", 30)
        bestmoves = [line for line in said if line.startswith("bestmove")]
        assert len(bestmoves) == 4 and "bestmove pass" not in bestmoves, said
        assert said.count("readyok") == 2
        assert not any(line.startswith("info string error") for line in said), said
        # a go while an infinite search runs waits for its stop (both answered then)
        pipe.send("go infinite")
        pipe.send("go movetime 100")
        time.sleep(0.5)
        pipe.send("stop")
        said = pipe.until("bestmove", 10) + pipe.until("bestmove", 10)
        assert sum(line.startswith("bestmove") for line in said) == 2, said
        pipe.send("quit")
        assert pipe.process.wait(timeout=GONE_WITHIN) == 0
    finally:
        code, err = pipe.close()
    assert code == 0 and err == ""


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
    # one line for the go: the move that is not legal and the exchange not on the rack
    assert len(errors) == 1 and "8a.ZZZ" in errors[0] and "ex.QZ" in errors[0], errors
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
    line = "infinite 2time 300 threads x searchmoves pass ex.A alsosearchmoves 8h.AB depth"
    go, problems = parse_go(line.split())
    assert go.infinite and go.searchmoves == ["pass", "ex.A"] and go.alsosearchmoves == ["8h.AB"]
    assert go.ignored == ["2time 300"] and len(problems) == 2
    for words in (["1time", "9000", "1inc", "50"], ["wtime", "9000", "winc", "50", "btime", "3"]):
        go, problems = parse_go(words)
        assert (go.clock, go.increment, problems) == (9000, 50, [])
    assert parse_go(["movetime", "1000000000000"])[0].movetime is None


def test_a_huge_searchmoves_line_is_one_error_line(twl06: Lexicon) -> None:
    """Issue 33: a 1 MiB searchmoves line gave about 175,000 error lines."""
    engine, out = _engine(twl06)
    engine.handle(f"position cgp {MIDGAME}")
    line = "go movetime 50 depth x searchmoves " + " ".join(["x.Y", "8a.ZZZ", "ex.QZ"] * 50_000)
    assert len(line.encode()) < MAX_LINE
    engine.handle(line)
    _wait(out, "bestmove", 60)
    engine.close()
    errors = [line for line in out if line.startswith("info string error")]
    assert len(errors) == 1 and len(errors[0]) <= 300, errors
    assert "depth 'x'" in errors[0] and "more" in errors[0]
    assert sum(line.startswith("bestmove") for line in out) == 1


def test_the_engine_plays_by_players_that_keep_to_a_control(
        twl06: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    for spec in ("static", "greedy", "h1", "h3", "sim", "sim:5", "best", "best:1",
                 "h3+endgame", "sim:5+endgame", "best+endgame"):
        assert is_controlled(make_player(spec, twl06)), spec
    board = Board.from_cgp(MIDGAME)
    person = make_player("human", twl06)
    engine_player = UcgiPlayer(shlex.join(ENGINE))
    for player in (person, engine_player, EndgamePlayer(person)):
        assert not is_controlled(player)
        with pytest.raises(RacketyError, match="cannot be stopped"):
            decide_under(player, board, twl06, Control())

    class Stubborn(PlayerBase):
        name = "stubborn"

        def decide(self, board: Board, lexicon: Lexicon) -> Decision:
            raise AssertionError("never asked")

    real = ucgi_engine.make_player
    monkeypatch.setattr(ucgi_engine, "make_player", lambda spec, lexicon: Stubborn()
                        if spec == "stubborn" else real(spec, lexicon))
    engine, out = _engine(twl06)
    engine.handle("setoption name Player value stubborn")
    assert len(out) == 1 and "cannot be stopped" in out[0] and engine.player_spec == "static"
    with pytest.raises(RacketyError, match="cannot be stopped"):
        Engine(out.append, Lexicons(files=True), player="stubborn").prepare()


def _stopped_after(seconds: float) -> Control:
    stop = threading.Event()
    timer = threading.Timer(seconds, stop.set)
    timer.daemon = True
    timer.start()
    return Control(stop=stop)


def test_the_searches_end_at_a_stop_with_what_they_found(twl06: Lexicon) -> None:
    """Each search looks at its control between slices of its work (the
    kernels loaded first, untimed)."""
    endgame, midgame, peg = (Board.from_cgp(c) for c in (ENDGAME, MIDGAME, PEG))
    # the endgame solver: an iteration cut by a slice's budget is taken up again
    # (the same value as without slices), and a stop ends it within a slice
    assert solve(endgame, twl06, max_depth=3, control=Control(stop=threading.Event())).value \
        == solve(endgame, twl06, max_depth=3).value
    t0 = time.perf_counter()
    result = solve(endgame, twl06, control=_stopped_after(0.5))
    assert time.perf_counter() - t0 < 0.5 + 0.75 and result.pv and not result.exact
    t0 = time.perf_counter()
    result = solve(endgame, twl06, control=Control.within(0.5))
    assert time.perf_counter() - t0 < 0.5 + 0.75 and result.pv
    # the simulation: between batches; stopped before any, the static order
    top = list(midgame.moves(twl06, mode="top", top=5, leave=leave_model("static", twl06)))
    stop = threading.Event()
    stop.set()
    result = simulate(midgame, twl06, candidates=5, iterations=10**9, control=Control(stop=stop))
    assert (result.iterations, result.stopped) == (0, "stopped")
    assert [c.move for c in result.candidates] == top[:5]
    t0 = time.perf_counter()
    result = simulate(midgame, twl06, candidates=5, iterations=10**9, drop=False, batch=16,
                      control=_stopped_after(0.3))
    assert time.perf_counter() - t0 < 0.3 + 0.75 and result.iterations > 0
    # the pre-endgame: between endgames, each stopped with the rest; only the
    # candidates with a world searched are in the result
    preendgame(peg, twl06, candidates=2, control=Control.within(0.2))
    t0 = time.perf_counter()
    result = preendgame(peg, twl06, control=_stopped_after(0.6))
    assert time.perf_counter() - t0 < 0.6 + 0.75 and result.stopped and result.outcomes
    assert all(outcome.draws for outcome in result.outcomes)
    # the championship player: under a control stopped at once, the static move
    static = make_player("static", twl06).choose(midgame, twl06)
    for board in (midgame, peg, endgame):
        BestPlayer(86_400).decide(board, twl06, control=Control(stop=stop))  # loads, untimed
        best = BestPlayer(86_400)
        t0 = time.perf_counter()
        decision = best.decide(board, twl06, control=Control(stop=stop))
        assert time.perf_counter() - t0 < 1.0
        if board is midgame:
            assert decision.move == static
        assert decision.move.kind == "place"


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
    going = True
    for line in lines:
        going = engine.handle(line)
        assert going in (True, False)
        if not going:  # quit: the engine takes no more
            assert engine.handle("isready") is False
            break
    if going:
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


HANDSHAKE = """
    import os, sys
    out = sys.stdout.buffer
    def say(text):
        out.write(text.encode() + b"\\n")
        out.flush()
    for line in sys.stdin:
        word = (line.split() or [""])[0]
        if word == "ucgi": say("ucgiok")
        if word == "isready": say("readyok")
        if word == "go":
            {go}
    """


def _engine_script(tmp_path: Path, go: str) -> str:
    """A fake engine: the handshake, then ``go`` (Python, with ``say`` and
    ``out``) at each go; it writes its pid first into ``pid``."""
    body = textwrap.dedent(HANDSHAKE).replace("{go}", go)
    body = f"import os\nopen({str(tmp_path / 'pid')!r}, 'w').write(str(os.getpid()))\n" + body
    return _script(tmp_path, body)


def _gone(tmp_path: Path) -> bool:
    """Whether the fake engine's process has ended."""
    pid = int((tmp_path / "pid").read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        status = Path(f"/proc/{pid}/stat")
        if status.exists() and status.read_text().split(")")[-1].split()[0] == "Z":
            return True  # ended, not yet reaped
        time.sleep(0.05)
    return False


def test_an_engine_that_sends_an_endless_line_is_refused_at_once(tmp_path: Path,
                                                                  twl06: Lexicon) -> None:
    """Issue 33: an engine that answered go with gigabytes and no newline held
    4.4 GB of memory and the game for 61 s."""
    script = _engine_script(tmp_path, "while True: out.write(b'x' * (1 << 20))")
    player = UcgiPlayer(script, movetime=100, timeout=30)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.monotonic()
    with pytest.raises(RacketyError, match="a line longer than 1,048,576 bytes") as info:
        player.decide(Board.from_cgp(MIDGAME), twl06)
    assert time.monotonic() - t0 < 5 and "\n" not in str(info.value)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100_000  # KiB
    assert not player.running and _gone(tmp_path)


def test_an_engine_silent_or_chattering_after_go_is_one_error(tmp_path: Path,
                                                             twl06: Lexicon) -> None:
    board = Board.from_cgp(MIDGAME)
    for name, go in (("silent", "pass"), ("chattering", "while True: say('info depth 1')")):
        folder = tmp_path / name
        folder.mkdir()
        player = UcgiPlayer(_engine_script(folder, go), movetime=100, timeout=0.5)
        t0 = time.monotonic()
        with pytest.raises(RacketyError, match="no 'bestmove' within 0.6 s"):
            player.decide(board, twl06)
        assert time.monotonic() - t0 < 3, name
        assert not player.running and _gone(folder), name


def test_an_engine_that_floods_its_stderr_still_plays(tmp_path: Path, twl06: Lexicon) -> None:
    script = _engine_script(tmp_path, "sys.stderr.write('e' * 50_000_000); say('bestmove pass')")
    player = UcgiPlayer(script, movetime=100, timeout=30)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert player.choose(Board.from_cgp(MIDGAME), twl06).kind == "pass"
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100_000  # KiB
    player.close()
    assert _gone(tmp_path)
