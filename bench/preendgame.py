"""rackety's pre-endgame beside MAGPIE's ``peg``, measured in the same run: the
same positions and candidates, exact solves on one core each, CPU time, the
two engines alternated round by round (MAGPIE first in odd rounds, rackety
first in even ones), medians and ratios; and the values compared (win % and
final spread of every candidate).

    python bench/preendgame.py [--magpie DIR] [--rounds 3] [--only 1,2] [--timeout 900]
    python bench/preendgame.py rackety CGP MOVE[,MOVE...]   # rackety's side, one run

Where MAGPIE's ``peg`` applies: with 1 or 2 tiles in the bag and candidates that
empty the bag, both engines solve every draw's endgame exactly (MAGPIE's
exhaustive setting, ``-pegtopk all``, restricted to the same candidates with
``-pegonly``; MAGPIE starts a deep stage only for two candidates or more, so
a position with one candidate gives MAGPIE a pass besides, valued by a
playout in no time, and only the candidate is compared). A
one-tile play at two in the bag is not compared: MAGPIE values it by a nested,
capped pre-endgame (``-pegnested``) or a greedy playout, rackety by every
reply of the opponent (`rackety.search.preendgame`), so they answer different
questions.

MAGPIE's side (built by ``../shared/peers/setup-magpie.sh``, run from its
directory, TWL06 from its own KWG build of the same word list)::

    printf 'peg\\n' | ./bin/magpie cgp BOARD RACK/ SCORES ZEROS -lex TWL06 -ld english \\
        -leaves TWL06rk -wmp false -savesettings false -threads 1 -pegtopk all \\
        -pegnested false -pegonly M1,M2 -pegtlim 0 -tlim 0

its CPU time is the process's (user + system), less the median of the same
command without ``peg`` (start-up and loading); its own figure, the solve's
wall time on one thread, is printed too. rackety's side is a fresh process
(``rackety`` below): it loads TWL06, loads the solver's kernels on another
position, then times ``preendgame(board, lexicon, moves=..., jobs=1)`` (no
budget: every endgame exact) with `time.process_time`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_MAGPIE = Path("/work/workshop/magpie")

#: (name, CGP, candidates): corpus positions (``rackety gcg show
#: ../shared/corpus/gcg/FILE --turn N --cgp``) and candidates among each one's best
#: static placements whose every endgame both engines solve within minutes
POSITIONS: list[tuple[str, str, list[str]]] = [
    ("doug_v_emely t25 (1 in the bag)",
     "W1C3PEA6/ETA2VERB6/BEN1JO9/1I1ZAX5G3/LI2V5RE3/AD1RED4ET3/T1GALE1RILL4/IF1WINDY2I4/"
     "NU2N1EAU1g4/ODONATES2I4/4SAT3OM3/10NU3/11R3/5COY3K3/7ARIOSE2 ?HOQSTU/ 264/409 0",
     ["M2 QUOTH", "M2 QUOTHa", "M2 QUOtH"]),
    ("cel_only t21 (1 in the bag)",
     "15/15/2ADMITS7/2DEADEN7/2SERENE7/2OPIATE7/2RENTER7/F1BREEDS3F3/OUS8A3/X5QAT2C3/"
     "YEH1GLIB3T3/1HAKU6I2Y/2JO4CRIolLO/3WIZ1GUE1N2O/5ALUMNI3P GIILOTV/ 373/349 0",
     ["K5 VIGIL"]),
    ("preendgame4 t21 (1 in the bag)",
     "CONINE1S5QI/5FRIG3MIL/2O1B2Z4O1E/2BIRcHEN2GO1X/2J1A1ODORFUL2/2E1V6TAP1/2T1E1HAW2T1R1/"
     "DUSK1TIREDLY1OP/3N2MED4LA/3A9AR/3W9NA/3E5VOTES1/9U5/9G5/15 ?AAEIIU/ 417/368 0",
     ["A7 A(D)IEU", "L11 E(T)UI"]),
    ("logan t21 (2 in the bag)",
     "MO13/AE13/T11G2/HURT8R2/1NEON5S1E1L/3DOZY3P1AXE/2E3E2JAWS1I/IAMB1CAVY1N1E2/2E3R3K4/"
     "2N1F1L2Be4/2D1E1O2OR4/1DEVIANCES5/2D1G1GO7/4N2F7/PILIS2TUTORIAL AHRTTW?/ 330/403 0",
     ["N8 THWART"]),
]


# --------------------------------------------------------- rackety's side
def rackety(cgp: str, moves: str) -> None:
    """One run of rackety's side: JSON of the CPU seconds and each candidate's
    win % and final spread."""
    from rackety import Board, Lexicon
    from rackety.search.preendgame import preendgame

    lexicon = Lexicon.load("TWL06")
    # the kernels loaded before the clock, on another position (one tile in the bag)
    warm = Board.from_cgp(POSITIONS[0][1])
    preendgame(warm, lexicon, moves=[warm.parse_move("M2 QUOTHa")], jobs=1)
    board = Board.from_cgp(cgp)
    candidates = [board.parse_move(m) for m in moves.split(",")]
    t0 = time.process_time()
    result = preendgame(board, lexicon, moves=candidates, jobs=1)
    cpu = time.process_time() - t0
    spread0 = board.scores[0] - board.scores[1]
    print(json.dumps({"cpu": cpu, "exact": result.exact, "rows": {
        _key(board.notation(o.move, through="bare")): (o.win_pct, spread0 + o.spread)
        for o in result.outcomes}}))


# --------------------------------------------------------------- MAGPIE's side
_ROW = re.compile(r"^\s*(?:\S+-ply\s+)?\d+\s+(\S+ \S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+"
                  r"([-+]?[\d.]+)\s+[\d.]+s")
_SOLVE = re.compile(r"PEG \(last completed stage (\d+)\): \d+ candidates, ([\d.]+)s")


def _key(notation: str) -> str:
    """A move as both engines print it, through tiles bare: ``10B DEWAX``."""
    return notation.replace("(", "").replace(")", "")


def _magpie_command(cgp: str, moves: list[str], peg: bool) -> list[str]:
    fields = cgp.split()[:4]
    only = ",".join(m.replace("(", "").replace(")", "").replace(" ", ".", 1) for m in moves)
    if len(moves) == 1:
        only += ",pass"  # a deep stage needs two candidates (module docstring)
    script = "peg\\n" if peg else ""
    return ["sh", "-c", f"printf '{script}' | ./bin/magpie cgp {' '.join(fields)} -lex TWL06 "
            "-ld english -leaves TWL06rk -wmp false -savesettings false -threads 1 "
            f"-pegtopk all -pegnested false -pegonly {only} -pegtlim 0 -tlim 0"]


def _run(command: list[str], cwd: Path, timeout: float) -> tuple[float, str]:
    """CPU seconds (user + system, children included) and the output of a command."""
    before = os.times()
    out = subprocess.run(command, cwd=cwd, check=True, capture_output=True, text=True,
                         timeout=timeout).stdout
    after = os.times()
    return (after.children_user - before.children_user) + \
        (after.children_system - before.children_system), out


def magpie(mag: Path, cgp: str, moves: list[str], timeout: float, base: float) -> dict:
    cpu, out = _run(_magpie_command(cgp, moves, True), mag, timeout)
    solve = _SOLVE.search(out)
    rows = {}
    for line in out.splitlines():
        m = _ROW.match(line)
        if m:
            wins, ties, losses = (int(m.group(i)) for i in (2, 3, 4))
            rows[_key(m.group(1))] = (100.0 * (wins + ties / 2) / (wins + ties + losses),
                                float(m.group(6)))
    return {"cpu": cpu - base, "solve": float(solve.group(2)) if solve else None,
            "stage": int(solve.group(1)) if solve else None, "rows": rows}


# --------------------------------------------------------------- comparing
def _python(*args: str, timeout: float) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    return subprocess.run([sys.executable, __file__, *args], env=env, check=True,
                          capture_output=True, text=True, timeout=timeout).stdout


def compare(mag: Path, rounds: int, only: set[str] | None, timeout: float) -> None:
    positions = [p for p in POSITIONS if only is None or
                 any(f"({b} in the bag)" in p[0] for b in only)]
    base = statistics.median(_run(_magpie_command(POSITIONS[0][1], POSITIONS[0][2], False),
                                  mag, timeout)[0] for _ in range(3))
    print(f"MAGPIE start-up and loading: {base:.3f} CPU s (subtracted)", file=sys.stderr)
    times: dict[str, dict[str, list[float]]] = {p[0]: {"rackety": [], "magpie": [],
                                                       "magpie_solve": []}
                                                for p in positions}
    last: dict[str, tuple[dict, dict]] = {}
    for r in range(rounds):
        for name, cgp, moves in positions:
            order = ("magpie", "rackety") if r % 2 == 0 else ("rackety", "magpie")
            got: dict[str, dict] = {}
            for engine in order:
                if engine == "magpie":
                    got[engine] = magpie(mag, cgp, moves, timeout, base)
                else:
                    got[engine] = json.loads(_python("rackety", cgp, ",".join(moves),
                                                     timeout=timeout))
            times[name]["rackety"].append(got["rackety"]["cpu"])
            times[name]["magpie"].append(got["magpie"]["cpu"])
            if got["magpie"]["solve"] is not None:
                times[name]["magpie_solve"].append(got["magpie"]["solve"])
            last[name] = (got["rackety"], got["magpie"])
            print(f"  round {r + 1}: {name}: rackety {got['rackety']['cpu']:.2f} s, MAGPIE "
                  f"{got['magpie']['cpu']:.2f} s", file=sys.stderr, flush=True)
    med = statistics.median
    print("| position | candidates | rackety CPU s | MAGPIE CPU s (its own solve time) | "
          "ratio | values |")
    print("|---|---|---|---|---|---|")
    ratios = []
    for name, _cgp, moves in positions:
        rk, mg = last[name]
        agree = all(_key(m) in mg["rows"] and _key(m) in rk["rows"]
                    and abs(rk["rows"][_key(m)][0] - mg["rows"][_key(m)][0]) < 0.06
                    and abs(rk["rows"][_key(m)][1] - mg["rows"][_key(m)][1]) < 0.06
                    for m in moves)
        a, b = med(times[name]["rackety"]), med(times[name]["magpie"])
        solve = med(times[name]["magpie_solve"]) if times[name]["magpie_solve"] else float("nan")
        ratios.append(a / b)
        print(f"| {name} | {', '.join(moves)} | {a:.2f} | {b:.2f} ({solve:.2f}) | {a / b:.2f} "
              f"| {'same' if agree else 'DIFFER: ' + json.dumps([rk['rows'], mg['rows']])} |")
    print(f"\nmedian ratio rackety / MAGPIE: {med(ratios):.2f} over {len(ratios)} positions, "
          f"{rounds} rounds")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "rackety":
        rackety(sys.argv[2], sys.argv[3])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--magpie", type=Path, default=DEFAULT_MAGPIE,
                        help="MAGPIE's directory (bin/magpie, data/)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default=None, help="tiles in the bag: 1, 2 or 1,2")
    parser.add_argument("--timeout", type=float, default=900.0,
                        help="seconds one engine may take on one position")
    args = parser.parse_args()
    if not (args.magpie / "bin" / "magpie").exists():
        sys.exit(f"no MAGPIE build at {args.magpie} (../shared/peers/setup-magpie.sh)")
    only = None if args.only is None else set(args.only.split(","))
    compare(args.magpie, args.rounds, only, args.timeout)


if __name__ == "__main__":
    main()
