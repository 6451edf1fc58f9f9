"""The engine core before and after a change, in the same run: each measure
runs in a fresh process against each source tree, the trees alternated round
by round, CPU time, medians.

    python bench/core.py --base /path/to/old/src [--rounds 3]
    python bench/core.py --check bench/baseline.json [--rounds 3]

``--check`` is the guard a hand-in that touches ``kernels/``, ``search/`` or
``game/`` runs (docs/BENCHMARKS.md): the baseline file names the tree to keep
(a commit of this repository, checked out into a temporary folder) and the
tolerance; both trees run in this one run, and the command fails (exit 1) when
a measure is worse than the baseline by more than the tolerance (5 %).
``--update`` makes the baseline this checkout's HEAD once a hand-in lands.

Measures (TWL06, one core): all moves and best move (shipped leaves) in µs per
position over the first 100 midgame positions of bench/data; greedy, static
and `leaves:FILE,static` self-play in games per CPU second; 2-ply simulation
rollouts per CPU second; the median CPU seconds of the oracle's small
endgames, and the total over its public endgames (those the reference solves
within 5 s); eight one-tile pre-endgames (the small endgames with a tile back
in the bag); static games played through the Python referee (`Game`), games
per CPU second.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHILD = r'''
import json, sys, time, statistics
from pathlib import Path
import numpy as np
import rackety
from rackety import Board, Lexicon
def imp(new, old):
    import importlib
    try:
        return importlib.import_module(new)
    except ImportError:
        return importlib.import_module(old)
selfplay = imp("rackety.experiments.selfplay", "rackety.selfplay")
players = imp("rackety.players", "rackety.players")
movegen = imp("rackety.game.movegen", "rackety.movegen")
simulation = imp("rackety.search.simulation", "rackety.simulation")
endgame = imp("rackety.search.endgame", "rackety.endgame")
klv = imp("rackety.lexicon.klv", "rackety.lexicon.klv")
what = sys.argv[1]
lex = Lexicon.load("TWL06")
cpu = time.process_time
data = Path(sys.argv[2])
if what in ("all", "best"):
    lines = (data / "bench/data/midgame400_twl06.cgp").read_text().splitlines()[:100]
    boards = [Board.from_cgp(l) for l in lines]
    builtin = getattr(rackety, "Leaves", None)  # the shipped table: Leaves.builtin, or
    leave = builtin.builtin(lex) if builtin else players.shipped_leaves(lex)  # the old API
    # all moves without leaves (the library's default became the shipped table
    # in issue 37; this measure stays the generator alone, as in older trees)
    kw = dict(mode="all", leave=None) if what == "all" else dict(mode="best", leave=leave)
    for b in boards[:5]:
        b.moves(lex, **kw)
    t = cpu()
    generator = getattr(movegen, "MoveGenerator", None)  # the cross sets' keeper, or the board
    for b in boards:
        if generator is not None:
            generator.of(lex).forget()
        else:
            b._derived.clear()
        b.moves(lex, **kw)
    print(json.dumps(1e6 * (cpu() - t) / len(boards)))
elif what in ("greedy", "static", "mixed"):
    specs = {"greedy": ("greedy", "greedy"), "static": ("static", "static"),
             "mixed": ("leaves:" + sys.argv[3], "static")}[what]
    ps = [players.make_player(s, lex) for s in specs]
    games = 150
    try:
        engine = selfplay.Compiled(lex, ps)
        engine.play(0)
        t = cpu()
        for i in range(games):
            engine.play(i + 1)
        print(json.dumps(games / (cpu() - t)))
    except TypeError:  # this tree cannot play it compiled: its Python referee
        autoplay = imp("rackety.experiments.autoplay", "rackety.autoplay")
        autoplay.play_game(lex, ps, seed=0)
        t = cpu()
        for i in range(40):
            autoplay.play_game(lex, ps, seed=i + 1)
        print(json.dumps(40 / (cpu() - t)))
elif what == "sim":
    lines = (data / "bench/data/midgame400_twl06.cgp").read_text().splitlines()[:10]
    boards = [Board.from_cgp(l) for l in lines]
    simulation.simulate(boards[0], lex, iterations=8, candidates=5, jobs=1)
    t = cpu()
    n = 0
    for b in boards:
        r = simulation.simulate(b, lex, iterations=64, candidates=10, plies=2, jobs=1,
                                confidence=0.9999999)
        n += sum(c.iterations for c in r.candidates)
    print(json.dumps(n / (cpu() - t)))
elif what in ("endgame", "endgame29"):
    name = "endgame_twl06_small" if what == "endgame" else "endgame_twl06_public"
    cases = [json.loads(l) for l in (data / f"tests/data/{name}.jsonl")
             .read_text().splitlines() if l.strip()]
    if what == "endgame29":
        cases = [c for c in cases if c["search_cpu_s"] <= 5]
    times = []
    endgame.solve(Board.from_cgp(cases[0]["cgp"]), lex)
    for c in cases:
        b = Board.from_cgp(c["cgp"])
        t = cpu()
        endgame.solve(b, lex)
        times.append(cpu() - t)
    print(json.dumps(statistics.median(times) if what == "endgame" else sum(times)))
elif what == "preendgame":
    preendgame = imp("rackety.search.preendgame", "rackety.preendgame")
    cases = [json.loads(l) for l in (data / "tests/data/endgame_twl06_small.jsonl")
             .read_text().splitlines() if l.strip()]
    boards = []
    for c in cases:
        b = Board.from_cgp(c["cgp"])
        if len(b.racks[1]) >= 2:  # one of the opponent's tiles back in the bag
            b.racks[1] = tuple(b.racks[1][:-1])
            boards.append(b)
    for b in boards[:8]:  # every kernel loaded (or compiled) before the clock starts
        preendgame.preendgame(b, lex, candidates=5)
    t = cpu()
    for b in boards[:8]:
        preendgame.preendgame(b, lex, candidates=5)
    print(json.dumps(cpu() - t))
elif what == "referee":
    autoplay = imp("rackety.experiments.autoplay", "rackety.autoplay")
    ps = [players.make_player("static", lex) for _ in range(2)]
    autoplay.play_game(lex, ps, seed=0)
    t = cpu()
    for i in range(20):
        autoplay.play_game(lex, ps, seed=i + 1)
    print(json.dumps(20 / (cpu() - t)))
'''
MEASURES = [("all", "all moves, µs/position", False),
            ("best", "best move with leaves, µs/pos", False),
            ("greedy", "greedy self-play, games/CPU s", True),
            ("static", "static self-play, games/CPU s", True),
            ("mixed", "leaves:FILE,static self-play, games/CPU s", True),
            ("sim", "2-ply rollouts/CPU s", True), ("endgame", "endgame median CPU s", False),
            ("endgame29", "public endgames (<= 5 s) total CPU s", False),
            ("preendgame", "8 pre-endgames x 5 candidates, CPU s", False),
            ("referee", "static games through the referee/CPU s", True)]


def run(src: str, what: str, klv: str) -> float:
    env = {"PYTHONPATH": src, "PATH": "/usr/bin:/bin", "HOME": str(Path.home()),
           "NUMBA_CACHE_DIR": str(Path(src).parent / ".numba-cache")}
    out = subprocess.run([sys.executable, "-c", CHILD, what, str(HERE.parent), klv], env=env,
                         capture_output=True, text=True, check=True)
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def compare(base: str, rounds: int, only: set[str]) -> list[tuple[str, str, bool, float, float]]:
    """Each measure against ``base`` (a src/ folder) and this tree, alternated
    round by round, printed as it comes: (name, label, higher is better,
    median before, median after)."""
    new = str(HERE.parent / "src")
    klv = str(HERE.parent / "src/rackety/data/leaves/TWL06.klv2")
    print(f"{'measure':<42} {'before':>10} {'after':>10} {'after/before':>13}")
    results = []
    for what, label, higher in MEASURES:
        if only and what not in only:
            continue
        before, after = [], []
        run(base, what, klv)  # compile or load the kernels first
        run(new, what, klv)
        for _ in range(rounds):
            before.append(run(base, what, klv))
            after.append(run(new, what, klv))
        b, a = statistics.median(before), statistics.median(after)
        print(f"{label:<42} {b:10.3f} {a:10.3f} {a / b:13.2f}  "
              f"({'higher' if higher else 'lower'} is better)", flush=True)
        results.append((what, label, higher, b, a))
    return results


def worse(higher: bool, before: float, after: float) -> float:
    """How much worse ``after`` is than ``before`` (0.05: 5 % worse; negative:
    better), in the measure's own direction."""
    return before / after - 1 if higher else after / before - 1


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(HERE.parent), *args], capture_output=True,
                          text=True, check=True).stdout.strip()


def check(path: Path, rounds: int, only: set[str]) -> int:
    """The guard: this tree against the baseline's, in one run; 1 when a
    measure is worse than the tolerance allows."""
    try:
        baseline = json.loads(path.read_text())
        commit, tolerance = str(baseline["commit"]), float(baseline.get("tolerance", 0.05))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"{path}: not a baseline ({{\"commit\": ..., \"tolerance\": ...}}): {exc}",
              file=sys.stderr)
        return 2
    try:
        commit = git("rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}")
        archive = subprocess.run(["git", "-C", str(HERE.parent), "archive", commit, "src"],
                                 capture_output=True, check=True).stdout
    except subprocess.CalledProcessError:
        print(f"{path}: {commit!r} is not a commit of this repository", file=sys.stderr)
        return 2
    # the baseline's tree as committed, kept between runs (its kernels' cache too)
    folder = Path.home() / ".cache" / "rackety-bench" / commit
    if not (folder / "src").is_dir():
        folder.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder.parent) as partial:
            subprocess.run(["tar", "-x", "-C", partial], input=archive, check=True)
            folder.mkdir(parents=True, exist_ok=True)
            (Path(partial) / "src").rename(folder / "src")
    print(f"baseline {commit[:10]} ({path}), tolerance {tolerance:.0%}, {rounds} rounds")
    results = compare(str(folder / "src"), rounds, only)
    failed = [(label, worse(higher, b, a)) for _, label, higher, b, a in results
              if worse(higher, b, a) > tolerance]
    for label, amount in failed:
        print(f"WORSE: {label}: {amount:.1%} worse than the baseline", file=sys.stderr)
    print("guard: " + ("failed" if failed else "every measure within the tolerance"))
    return 1 if failed else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--base", help="the source tree (src/) before")
    which.add_argument("--check", type=Path, metavar="BASELINE.json",
                       help="fail when a measure is >tolerance worse than the baseline's tree")
    parser.add_argument("--update", action="store_true",
                        help="with --check: make the baseline this checkout's HEAD (no timing)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default="", help="comma-separated measures")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    unknown = only - {what for what, _, _ in MEASURES}
    if unknown:
        parser.error(f"unknown measures: {', '.join(sorted(unknown))}")
    if args.update:
        if args.check is None:
            parser.error("--update goes with --check BASELINE.json")
        old = json.loads(args.check.read_text()) if args.check.exists() else {}
        old["commit"] = git("rev-parse", "HEAD")
        old.setdefault("tolerance", 0.05)
        args.check.write_text(json.dumps(old, indent=2) + "\n")
        print(f"{args.check}: baseline {old['commit'][:10]}")
        return
    if args.check is not None:
        sys.exit(check(args.check, args.rounds, only))
    compare(args.base, args.rounds, only)


if __name__ == "__main__":
    main()
