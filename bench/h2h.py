"""Head to head against MAGPIE on the same game clock: rackety's `Game` referees
paired games (same bag, seats swapped) between a rackety player and MAGPIE,
each side with its own clock, every move checked by the referee.

MAGPIE's championship player, its PlayChooser, runs only inside its own
autoplay, so this harness plays it move by move the way the chooser does
(docs/SEARCH.md, "A game clock"): one MAGPIE console process per job, the
position sent as CGP with the opponent's rack unknown, the move's seconds its
clock's time left over its turns still to come (``ceil(unseen / 8)``, at
least 0.05 s), and the chooser's search for the phase: simulation (``gsimulate
-``, 15 candidates, 2 plies, its top-two sampling) with more than 4 tiles in
the bag, its pre-endgame with 1 to 4, its endgame with none. ``--magpie
static`` plays MAGPIE's static move (``gen``) instead.

The rackety side gets the harness's clock as a `Control`'s ``game_clock``
(``best:clock=...`` splits it by `rackety.search.judge.clock_seconds`). Both
clocks are wall time (MAGPIE's own limits are), each engine thinking alone
on its core: two jobs run two games at once on two cores. A side past its
clock at the end loses 10 points per minute or part of one (NASPA's rule, as
MAGPIE's autoplay counts it: `rackety.game.rules.overtime_penalty`).

    python bench/h2h.py --magpie-dir /work/magpie --clock 10 --games 400 --jobs 2 \\
        --out h2h.jsonl
    python bench/h2h.py --summary h2h.jsonl

Needs the MAGPIE build of ../shared/peers/setup-magpie.sh (its TWL06 data and
``TWL06rk.klv2``, rackety's shipped table: both sides play the same leaves).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import re
import subprocess
import sys
import time
from typing import Any

import rackety
from rackety.experiments.autoplay import game_seed, paired_interval, wilson
from rackety.game.rules import overtime_penalty
from rackety.players import make_player
from rackety.players.base import decide_on_clock

SENTINEL = "zzz-end-of-request"
#: the chooser's settings (MAGPIE's play_chooser.c), each sent once at start
OPTIONS = ("-lex TWL06 -leaves TWL06rk -wmp false -savesettings false -threads 1 -mode sync "
           "-hr false -shwithmoves false -shprompt false -plies 2 -r1 all -r2 all -sr tt "
           "-threshold none -minplayiterations 1 -sinfer false -cutoff 0 -uwin 1 "
           "-uspread 0.5 -maxnumdplays 1 -pegnested false -pegoutcomes false -eplies 25 "
           "-ttfraction 0.05")
#: an endgame and a pre-endgame run once at start, before any clock: MAGPIE
#: allocates their transposition tables on first use (seconds), once a process
WARM = (("11Q2K/1C5C3U1TI/1O5OX1LI1UP/WO5NU1ET1R1/HE5F2VEIN1/ID5O1BY2O1/N6c1A3N1/"
         "E3D2AEROBES1/REGIONAL1E5/1MUDRA3G5/2A1R3ZEE4/2V4WASTE2J/2A3HAP5I/MOSTLY1I6G/"
         "7FEDeRALS I/INTT 365/477 0", "endgame -etlim 1"),
        ("15/3Q7U3/3U2TAURINE2/1CHANSONS2W3/2AI6JO3/DIRL1PO3IN3/E1D2EF3V4/F1I2p1TRAIK3/"
         "O1L2T4E4/ABy1PIT2BRIG2/ME1MOZELLE5/1GRADE1O1NOH3/WE3R1V7/AT5E7/G6D7 ENOSTXY/ "
         "356/378 0", "peg -pegtlim 1"))
TILES_PER_ROUND = 8  # the chooser's tiles a pair of plays
FLOOR = 0.05  # the chooser's least seconds a move
PEG_MOST = 4  # the chooser's pre-endgame: 1 to 4 tiles in the bag
MOVE = r"(\(exch [^)]*\)|\(Pass\)|pass|\S+ \S+)"
SIM_LINE = re.compile(rf"^1:\s+{MOVE}")
PEG_LINE = re.compile(rf"^\s+1\s+{MOVE}\s+\d+\s+\d+\s+\d+\s+(-?[\d.]+)")


class Magpie:
    """One MAGPIE console, asked for a move at a time."""

    def __init__(self, folder: str, mode: str, seed: int) -> None:
        self.mode = mode
        self.proc = subprocess.Popen(
            ["./bin/magpie", "set", *OPTIONS.split(), "-seed", str(seed)], cwd=folder,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, bufsize=1)
        self.ask([])
        if mode == "chooser":  # the tables its endgame and pre-endgame allocate once
            for cgp, command in WARM:
                self.ask([f"cgp {cgp}", command])

    def ask(self, lines: list[str]) -> list[str]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("".join(f"{line}\n" for line in lines) + SENTINEL + "\n")
        self.proc.stdin.flush()
        out: list[str] = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("magpie ended: " + "".join(out[-20:]))
            if SENTINEL in line:
                return out
            out.append(line)

    def choose(self, board: rackety.Board, left: float) -> tuple[str, str]:
        """MAGPIE's move for the player to move of ``board`` (the opponent's
        rack unknown) with ``left`` seconds on its clock, and the phase."""
        bag = board.bag_count
        # with the bag empty the opponent's rack is the unseen tiles (MAGPIE's
        # endgame wants it; with tiles in the bag it is unknown)
        other = () if bag else tuple(code for code, n in enumerate(board.unseen().tolist())
                                     for _ in range(n))
        cgp = " ".join(board.copy(racks=[board.rack, other]).cgp().split()[:4])
        unseen = board.unseen_count + len(board.rack)
        seconds = max(FLOOR, left / max(1, math.ceil(unseen / TILES_PER_ROUND)))
        if self.mode == "static":
            return self._first(self.ask([f"cgp {cgp}", "gen -numplays 1"]), SIM_LINE), "static"
        if bag > PEG_MOST:
            out = self.ask([f"cgp {cgp}", f"gsimulate - -tlim {seconds:.3f} -numplays 15"])
            return self._first(out, SIM_LINE), "simulation"
        if bag > 0:
            out = self.ask([f"cgp {cgp}", f"peg -pegtlim {seconds:.3f}"])
            for line in out:
                found = PEG_LINE.match(line)
                if found and float(found.group(2)) > -100:
                    return _norm(found.group(1)), "pre-endgame"
            # nothing finished in time: the chooser's static move
            return self._first(self.ask(["gen -numplays 1"]), SIM_LINE), "pre-endgame, static"
        out = self.ask([f"cgp {cgp}", f"endgame -etlim {0.9 * seconds:.3f}"])
        for i, line in enumerate(out):
            if line.startswith("Play") and i + 1 < len(out):
                # "8D WORD 30 ..." or "(Pass) -9 ...": a pass is one word, a placement two
                words = out[i + 1].split()
                one = words[0].startswith("(") or words[0].lower() == "pass"
                return _norm(words[0] if one else " ".join(words[:2])), "endgame"
        raise RuntimeError("no endgame move from magpie:\n" + "".join(out[-20:]))

    @staticmethod
    def _first(out: list[str], pattern: re.Pattern[str]) -> str:
        for line in out:
            found = pattern.match(line)
            if found:
                return _norm(found.group(1))
        raise RuntimeError("no move from magpie:\n" + "".join(out[-20:]))

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _norm(text: str) -> str:
    text = text.strip()
    if text.startswith("(exch "):
        return "exch " + text[6:-1]
    return "pass" if text.lower() in ("(pass)", "pass") else text


# ------------------------------------------------------------------- a game
_state: dict[str, Any] = {}


def _start(args: argparse.Namespace) -> None:
    lexicon = rackety.Lexicon.load("TWL06")
    _state.update(args=args, lexicon=lexicon,
                  magpie=Magpie(args.magpie_dir, args.magpie, args.seed + os.getpid()),
                  fallback=make_player("static", lexicon))
    warm = rackety.Game(lexicon, seed=1)  # the kernels loaded before any clock runs
    make_player(args.rackety, lexicon).decide(warm.view(), lexicon)


def play(index: int) -> dict[str, Any]:
    args, lexicon = _state["args"], _state["lexicon"]
    magpie, fallback = _state["magpie"], _state["fallback"]
    player = make_player(args.rackety, lexicon)
    mseat = index % 2  # seats swapped within each pair
    seed = game_seed(args.seed, index)
    game = rackety.Game(lexicon, ["magpie", "rackety"] if mseat == 0 else
                        ["rackety", "magpie"], seed=seed)
    used = [0.0, 0.0]
    phases: dict[str, list[float]] = {}  # each side's phase: [turns, seconds]
    findings: list[dict[str, Any]] = []
    while not game.over:
        seat = game.turn
        left = args.clock - used[seat]
        started = time.perf_counter()
        if seat == mseat:
            text, phase = magpie.choose(game.view(), left)
            took = time.perf_counter() - started
            used[seat] += took
            _count(phases, f"magpie {phase}", took)
            try:
                game.play(game.parse_move(text), check=True)
                continue
            except rackety.RacketyError as exc:  # a finding: the referee refused it
                findings.append({"who": "magpie", "cgp": game.position.cgp(), "move": text,
                                 "error": str(exc)})
                move = fallback.choose(game.view(), lexicon)
        else:
            move = decide_on_clock(player, game.view(), lexicon, left).move
            took = time.perf_counter() - started
            used[seat] += took
            _count(phases, f"rackety {getattr(player, 'last_phase', '') or 'static'}", took)
        try:
            game.play(move, check=True)
        except rackety.RacketyError as exc:
            findings.append({"who": "rackety", "cgp": game.position.cgp(),
                             "move": move.notation(game.alphabet), "error": str(exc)})
            game.play(fallback.choose(game.view(), lexicon), check=True)
    findings += [{"who": "referee", "error": p} for p in game.problems()]
    game.charge_overtime(used, args.clock)
    rk, mg = game.scores[1 - mseat], game.scores[mseat]
    return {"game": index, "seed": seed, "magpie_first": mseat == 0, "rackety": rk,
            "magpie": mg, "rackety_win": 1.0 if rk > mg else 0.5 if rk == mg else 0.0,
            "rackety_seconds": round(used[1 - mseat], 3),
            "magpie_seconds": round(used[mseat], 3), "clock": args.clock,
            "turns": len(game.events), "phases": phases, "findings": findings}


def _count(phases: dict[str, list[float]], key: str, seconds: float) -> None:
    turns, total = phases.get(key, [0, 0.0])
    phases[key] = [turns + 1, round(total + seconds, 3)]


# ---------------------------------------------------------------- summary
def summary(rows: list[dict[str, Any]]) -> str:
    n = len(rows)
    if not n:
        return "no games"
    wins = sum(r["rackety_win"] for r in rows)
    by_pair: dict[int, float] = {}
    for r in rows:
        by_pair[r["game"] // 2] = by_pair.get(r["game"] // 2, 0.0) + r["rackety_win"]
    pairs = [w for k, w in by_pair.items() if sum(1 for r in rows if r["game"] // 2 == k) == 2]
    lo, hi = paired_interval(pairs) if len(pairs) >= 2 else wilson(wins, n)
    wlo, whi = wilson(wins, n)
    clock = rows[0]["clock"]
    over = {side: sum(r[f"{side}_seconds"] > clock for r in rows) for side in
            ("rackety", "magpie")}
    spread = sum(r["rackety"] - r["magpie"] for r in rows) / n
    found = sum(len(r["findings"]) for r in rows)
    # the same games with no points off for overtime
    raw = [(r["rackety"] + overtime_penalty(r["rackety_seconds"], clock),
            r["magpie"] + overtime_penalty(r["magpie_seconds"], clock)) for r in rows]
    raw_wins = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a, b in raw)
    lines = [
        f"{n} games ({len(pairs)} full pairs), clock {clock:g} s a side",
        f"rackety wins {100 * wins / n:.1f} % (95 %: paired {lo:.1f}-{hi:.1f}, "
        f"Wilson {wlo:.1f}-{whi:.1f}), spread {spread:+.1f} a game",
        "seconds a game: rackety {:.2f} (max {:.2f}), magpie {:.2f} (max {:.2f})".format(
            sum(r["rackety_seconds"] for r in rows) / n,
            max(r["rackety_seconds"] for r in rows),
            sum(r["magpie_seconds"] for r in rows) / n,
            max(r["magpie_seconds"] for r in rows)),
        f"over the clock: rackety {over['rackety']} games, magpie {over['magpie']} games; "
        f"without the points off for it rackety wins {100 * raw_wins / n:.1f} %",
        f"findings (moves refused, records that do not add up): {found}",
    ]
    phases: dict[str, list[float]] = {}
    for r in rows:
        for key, value in r["phases"].items():
            turns, seconds = value if isinstance(value, list) else (value, 0.0)
            phases.setdefault(key, [0, 0.0])
            phases[key][0] += turns
            phases[key][1] += seconds
    lines += [f"  {key}: {int(turns)} turns, {seconds / max(turns, 1):.2f} s a turn"
              for key, (turns, seconds) in sorted(phases.items())]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rackety", default=None, help="rackety's player (default best:clock=CLOCK)")
    ap.add_argument("--magpie", choices=("chooser", "static"), default="chooser")
    ap.add_argument("--magpie-dir", default=os.environ.get("MAG", "/work/magpie"))
    ap.add_argument("--clock", type=float, default=10.0, help="seconds a side a game")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--start", type=int, default=0, help="first game index (pairs: even)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default=None, help="JSON lines, one a game (appended)")
    ap.add_argument("--summary", default=None, metavar="FILE", help="summarise FILE and stop")
    args = ap.parse_args()
    if args.summary:
        with open(args.summary) as f:
            print(summary([json.loads(line) for line in f if line.strip()]))
        return
    args.rackety = args.rackety or f"best:clock={args.clock:g}"
    indices = list(range(args.start, args.start + args.games))
    rows: list[dict[str, Any]] = []
    out = open(args.out, "a") if args.out else None  # noqa: SIM115
    print(f"{args.games} games, {args.rackety} against MAGPIE {args.magpie}, {args.clock:g} s "
          f"a side, {args.jobs} jobs (each game waits on both engines' clocks)", flush=True)
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(args.jobs, initializer=_start, initargs=(args,)) as pool:
        for row in pool.imap_unordered(play, indices):
            rows.append(row)
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
            wins = sum(r["rackety_win"] for r in rows)
            print(f"[{len(rows)}/{args.games}] game {row['game']}: rackety {row['rackety']} "
                  f"magpie {row['magpie']} ({row['rackety_seconds']:.1f} s / "
                  f"{row['magpie_seconds']:.1f} s); rackety {100 * wins / len(rows):.1f} %",
                  file=sys.stderr, flush=True)
    if out:
        out.close()
    print(summary(rows))


if __name__ == "__main__":
    main()
