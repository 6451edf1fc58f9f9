"""rackety beside MAGPIE, measured in the same run: the same positions, word
lists and leave table, CPU time, the two engines alternated round by round,
medians and ratios. MAGPIE is built outside the repository by
``../shared/peers/setup-magpie.sh`` (its timing harnesses included); nothing of
MAGPIE is in this project, only the figures it prints.

    python bench/vs_magpie.py compare --magpie DIR [--rounds 3] [--only WHAT,...]
    python bench/vs_magpie.py movegen LEX LEAVES MODE POSITIONS [WARMUP] [N]

``compare`` runs each measure ``--rounds`` times, MAGPIE then rackety in every
round, each run a fresh process, and prints rackety / MAGPIE for each:

- ``movegen``: all moves (placements, exchanges and the pass, MAGPIE's
  ``MOVE_RECORD_ALL`` with zero leaves) and the best move by equity (the same
  KLV2, MAGPIE's ``MOVE_RECORD_BEST``), CPU µs per position, cross sets
  recomputed then generation, over the 400 midgame positions of TWL06 and
  CSW19, split by blanks on the rack; counts, best scores and equities
  compared position by position. Both sides load a position with its cross
  sets (MAGPIE's ``game_load_cgp`` makes them) and time a recomputation
  of them and the generation;
- ``autoplay``: greedy and static self-play, games per CPU second (MAGPIE's
  ``autoplay``: whole-process CPU of a big run minus a small one; rackety's
  compiled self-play, `rackety.experiments.selfplay.Compiled`, in-process);
- ``sim``: 2-ply simulation rollouts per CPU second (10 candidates, no
  candidate dropped, the same KLV2);
- ``endgame``: the oracle's public endgames (those MAGPIE solves within the
  time limit), median CPU seconds, values compared;
- ``lexicon``: KWG builds of TWL06 and CSW19 from the same word lists.

``movegen`` is rackety's side of the move-generation measure alone, through
the public API (`Board.cross_sets`, `Board.moves`), one line per position in
the columns of MAGPIE's harness (``magpie_movegen.c``): index, blanks,
placements, exchanges, passes, CPU ns with cross sets, CPU ns of generation,
best score, best equity, best move; so ``../shared/peers/summarize_movegen.py``
reads both. LEAVES is a KLV2 file or ``none``; MODE ``all`` or ``best``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "data"
TESTDATA = ROOT / "tests" / "data"
MEASURES = ("movegen", "autoplay", "sim", "endgame", "lexicon")


# --------------------------------------------------------- rackety's side
def movegen(lex: str, leaves: str, mode: str, positions: str, warmup: str | None,
            limit: int | None) -> None:
    """One run of rackety's move generation, one line per position (module
    docstring), a summary on stderr."""
    from rackety import Board, Leaves, Lexicon
    from rackety.game.movegen import MoveGenerator

    lexicon = Lexicon.load(lex)
    leave = None if leaves == "none" else Leaves.load(leaves)
    generator = MoveGenerator.of(lexicon)

    def board_of(line: str) -> Board:
        return Board.from_cgp(line.split(" lex ")[0].strip())  # the lexicon given here

    if warmup:
        for line in Path(warmup).read_text().splitlines():
            if line.strip():
                board_of(line).moves(lexicon, mode=mode, leave=leave)
    lines = [x for x in Path(positions).read_text().splitlines() if x.strip()][:limit]
    # what start-up made (numba's dispatchers, the lexicon, the warm-up) frozen out of the
    # collector, as MAGPIE's harness has it all allocated before its clock starts: a full
    # collection of those ~110,000 objects takes 30-70 ms, and where one falls among
    # the 400 timed positions moved with unrelated changes to the imports (one at
    # position 346 added 170 µs to the mean); the collections of what the timed loop
    # makes still count
    gc.collect()
    gc.freeze()
    total_full = total_gen = total_moves = 0
    out = []
    for i, line in enumerate(lines):
        # as MAGPIE's harness: loading a position makes its cross sets (MAGPIE's
        # game_load_cgp), then the timing starts from a recomputation of them
        loaded = board_of(line)
        generator.cross_sets(loaded)
        board = loaded.copy()
        generator.forget()  # the same position, its cross sets to make again
        t0 = time.thread_time_ns()
        generator.cross_sets(board)
        t1 = time.thread_time_ns()
        moves = board.moves(lexicon, mode=mode, leave=leave)
        t2 = time.thread_time_ns()
        best = moves.best()
        exchanges = moves.exchange_count
        passes = len(moves) - len(moves.meta) - exchanges
        if best is None:
            text, score, equity = "-", -1, 0.0
        else:
            text = board.notation(best) if best.kind == "place" else best.kind
            score = best.score if mode == "best" else (moves.best_score or 0)
            equity = float(best.equity or 0.0)
        total_full += t2 - t0
        total_gen += t2 - t1
        total_moves += moves.count
        out.append(f"{i} {board.rack.count(0)} {moves.count} {exchanges} {passes} {t2 - t0} "
                   f"{t2 - t1} {score} {equity:.3f} {text}")
    sys.stdout.write("\n".join(out) + "\n")
    n = max(1, len(lines))
    print(f"{lex} {leaves} {mode}: {len(lines)} positions, {total_full / 1e3 / n:.1f} µs/pos "
          f"(cross sets + generation), {total_gen / 1e3 / n:.1f} µs/pos (generation), "
          f"{total_moves / n:.1f} placements/pos", file=sys.stderr)


def _autoplay_child(kind: str, games: int, seed: int) -> None:
    """Games per CPU second of compiled self-play, printed as JSON."""
    from rackety import Lexicon
    from rackety.experiments.selfplay import Compiled
    from rackety.players import make_player

    lexicon = Lexicon.load("TWL06")
    # MAGPIE's autoplay counts no sacrifices: neither does this (no exact best scores)
    engine = Compiled(lexicon, [make_player(kind, lexicon) for _ in range(2)],
                      best_scores=False)
    engine.play(0)
    t0 = time.process_time()
    for i in range(games):
        engine.play(seed * 1_000_003 + i)
    print(json.dumps(games / (time.process_time() - t0)))


def _sim_child(path: str, klv: str, candidates: int, iterations: int) -> None:
    """Rollouts per CPU second over the simulation positions, printed as JSON."""
    from rackety import Board, Lexicon
    from rackety.search.simulation import simulate

    lexicon = Lexicon.load("TWL06")
    rows = [json.loads(x) for x in Path(path).read_text().splitlines() if x.strip()]
    boards = [Board.from_cgp(r["cgp"].split(" lex ")[0]) for r in rows]
    simulate(boards[-1], lexicon, leave=f"leaves:{klv}", candidates=3, plies=2, iterations=8,
             jobs=1)
    done = 0
    t0 = time.process_time()
    for board in boards:
        result = simulate(board, lexicon, leave=f"leaves:{klv}", candidates=candidates,
                          plies=2, iterations=iterations, seed=42, jobs=1,
                          confidence=1 - 1e-15)  # no candidate dropped
        done += sum(c.iterations for c in result.candidates)
    print(json.dumps(done / (time.process_time() - t0)))


def _endgame_child(path: str) -> None:
    """``id value exact cpu_s`` per position of a TSV (ID, CGP)."""
    from rackety import Board, Lexicon
    from rackety.search.endgame import solve

    lexicon = Lexicon.load("TWL06")
    rows = [line.split("\t") for line in Path(path).read_text().splitlines() if line.strip()]
    solve(Board.from_cgp(rows[0][1].split(" lex ")[0]), lexicon)
    for pid, cgp in rows:
        board = Board.from_cgp(cgp.split(" lex ")[0])
        t0 = time.process_time()
        result = solve(board, lexicon)
        print(pid, result.value, int(result.exact), f"{time.process_time() - t0:.5f}",
              flush=True)


def _lexicon_child(path: str) -> None:
    """CPU seconds of a KWG build (DAWG and GADDAG) of a word list, best of 3."""
    from rackety import Alphabet, Lexicon
    from rackety.lexicon.build import build_kwg
    from rackety.lexicon.wordlist import parse_bytes

    english = Alphabet.load("english")
    Lexicon.from_words(["QI", "ZA"])  # kernels loaded
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        build_kwg(parse_bytes(Path(path).read_bytes(), english, source=path))
        best = min(best, time.process_time() - t0)
    print(json.dumps(best))


# --------------------------------------------------------------- running
def _python(*args: str, cwd: Path | None = None) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    return subprocess.run([sys.executable, __file__, *args], env=env, cwd=cwd, check=True,
                          capture_output=True, text=True).stdout


def _cpu(command: list[str], cwd: Path) -> float:
    """User + system CPU seconds of a command (its children included)."""
    before = os.times()
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    after = os.times()
    return (after.children_user - before.children_user) + \
        (after.children_system - before.children_system)


def _rows(text: str) -> list[list[str]]:
    return [line.split(maxsplit=9) for line in text.splitlines() if line.strip()]


def compare_movegen(mag: Path, rounds: int, out: Path, limit: int | None) -> list[str]:
    warm = str(ROOT / "tests" / "data" / "twl06_public.jsonl")
    warm_cgp = out / "warm.cgp"
    warm_cgp.write_text("\n".join(json.loads(x)["cgp"] for x in Path(warm).read_text()
                                  .splitlines()[:20] if x.strip()) + "\n")
    rklv = mag / "data" / "lexica" / "TWL06rk.klv2"
    runs: dict[tuple[str, str, str], list[list[list[str]]]] = defaultdict(list)
    n = [] if limit is None else [str(limit)]
    for r in range(rounds):
        for lex in ("TWL06", "CSW19"):
            pos = str(DATA / f"midgame400_{lex.lower()}.cgp")
            for mode, leaves, sort in (("all", "TWL06zero", "score"),
                                       ("best", "TWL06rk", "equity")):
                text = subprocess.run(["./bin/magpie_movegen", lex, leaves, mode, sort, pos,
                                       str(warm_cgp), *n], cwd=mag, check=True,
                                      capture_output=True, text=True).stdout
                (out / f"magpie_{lex}_{mode}_r{r + 1}.txt").write_text(text)
                runs[("magpie", lex, mode)].append(_rows(text))
            for mode, leaves in (("all", "none"), ("best", str(rklv))):
                text = _python("movegen", lex, leaves, mode, pos, str(warm_cgp), *n)
                (out / f"rackety_{lex}_{mode}_r{r + 1}.txt").write_text(text)
                runs[("rackety", lex, mode)].append(_rows(text))
        print(f"  movegen round {r + 1} done", file=sys.stderr)
    med = statistics.median
    lines = []
    for lex in ("TWL06", "CSW19"):
        for mode in ("all", "best"):
            figures = {}
            for engine in ("rackety", "magpie"):
                rounds_rows = runs[(engine, lex, mode)]
                full = med(sum(int(r[5]) for r in rows) / len(rows) / 1e3
                           for rows in rounds_rows)
                by_blank = {}
                for b in (0, 1, 2):
                    means = []
                    for rows in rounds_rows:
                        sel = [int(r[5]) for r in rows if int(r[1]) == b]
                        if sel:
                            means.append(sum(sel) / len(sel) / 1e3)
                    if means:
                        by_blank[b] = med(means)
                figures[engine] = (full, by_blank)
            rk, mg = figures["rackety"], figures["magpie"]
            blanks = " / ".join(f"{rk[1][b] / mg[1][b]:.2f}" for b in sorted(rk[1]))
            label = "all moves" if mode == "all" else "best move (same KLV2)"
            lines.append(f"{label}, {lex}, µs/position | {rk[0]:.0f} | {mg[0]:.0f} | "
                         f"{rk[0] / mg[0]:.2f} (by blanks 0/1/2: {blanks})")
            first_rk, first_mg = runs[("rackety", lex, mode)][0], runs[("magpie", lex, mode)][0]
            if mode == "all":
                differ = sum(a[2] != b[2] or a[7] != b[7] for a, b in
                             zip(first_rk, first_mg, strict=True))
                what = "placement counts or best scores"
            else:
                differ = sum(abs(float(a[8]) - float(b[8])) > 0.002 for a, b in
                             zip(first_rk, first_mg, strict=True))
                what = "best equities"
            lines.append(f"  {lex} {mode}: {differ} of {len(first_rk)} positions differ in "
                         f"{what}")
    return lines


def compare_autoplay(mag: Path, rounds: int, small: int = 10, big: int = 1000) -> list[str]:
    rates: dict[tuple[str, str], list[float]] = defaultdict(list)
    for r in range(rounds):
        for kind in ("greedy", "static"):
            leaves, sort = ("TWL06zero", "score") if kind == "greedy" else ("TWL06rk", "equity")
            cpu = {}
            for n in (small, big):
                cpu[n] = _cpu(["./bin/magpie", "autoplay", "games", str(n), "-lex", "TWL06",
                               "-ld", "english", "-leaves", leaves, "-s1", sort, "-s2", sort,
                               "-r1", "best", "-r2", "best", "-threads", "1", "-seed",
                               str(r + 1), "-wmp", "false", "-savesettings", "false", "-hr",
                               "true", "-gp", "false"], mag)
            rates[("magpie", kind)].append((big - small) / (cpu[big] - cpu[small]))
            rates[("rackety", kind)].append(float(_python("autoplay-child", kind,
                                                          str(big // 2), str(r + 1))))
        print(f"  autoplay round {r + 1} done", file=sys.stderr)
    med = statistics.median
    lines = []
    for kind in ("greedy", "static"):
        a, b = med(rates[("rackety", kind)]), med(rates[("magpie", kind)])
        lines.append(f"{kind} self-play, games/CPU s | {a:.0f} | {b:.0f} | {a / b:.2f} "
                     "(higher is better)")
    return lines


def compare_sim(mag: Path, rounds: int, iterations: int = 300) -> list[str]:
    path = DATA / "sim_twl06_reference.jsonl"
    rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    klv = mag / "data" / "lexica" / "TWL06rk.klv2"
    rk, mg = [], []
    for r in range(rounds):
        spent = 0.0
        for row in rows:
            cgp = row["cgp"].split()[:4]
            cpu = {}
            for it in (10, 10 * iterations):
                cmd = ["sh", "-c", "printf 'gsimulate\\n' | ./bin/magpie cgp " + " ".join(cgp)
                       + f" -lex TWL06 -leaves TWL06rk -wmp false -threads 1 -seed 42 -plies 2"
                       f" -numplays 10 -iterations {it} -minplayiterations 1 -sr rr"
                       " -threshold none -tlim 0 -pfrequency 0 -mode sync -savesettings false"
                       " -hr true"]
                cpu[it] = _cpu(cmd, mag)
            spent += cpu[10 * iterations] - cpu[10]
        mg.append(len(rows) * (10 * iterations - 10) / spent)
        rk.append(float(_python("sim-child", str(path), str(klv), "10", str(iterations))))
        print(f"  sim round {r + 1} done", file=sys.stderr)
    a, b = statistics.median(rk), statistics.median(mg)
    return [f"2-ply simulation, rollouts/CPU s | {a:.0f} | {b:.0f} | {a / b:.2f} "
            "(higher is better)"]


def compare_endgame(mag: Path, rounds: int, out: Path, limit_s: float = 20.0) -> list[str]:
    cases = [json.loads(x) for x in (TESTDATA / "endgame_twl06_public.jsonl").read_text()
             .splitlines() if x.strip()]
    cases = [c for c in cases if c["search_cpu_s"] <= limit_s]
    tsv = out / "endgames.tsv"
    tsv.write_text("".join(f"{c['id']}\t{c['cgp']}\n" for c in cases))
    warm = json.loads((TESTDATA / "endgame_twl06_small.jsonl").read_text()
                      .splitlines()[0])["cgp"]
    times: dict[str, dict[str, list[float]]] = {"magpie": defaultdict(list),
                                               "rackety": defaultdict(list)}
    wrong = set()
    oracle = {c["id"]: c["value"] for c in cases}
    for r in range(rounds):
        text = subprocess.run(["./bin/magpie_endgame", "TWL06", str(tsv), "60", "0.05", warm],
                              cwd=mag, check=True, capture_output=True, text=True).stdout
        for line in text.splitlines():
            p = line.split()
            if len(p) >= 5 and p[0] in oracle:
                times["magpie"][p[0]].append(float(p[4]))
        for line in _python("endgame-child", str(tsv)).splitlines():
            pid, value, exact, cpu = line.split()
            times["rackety"][pid].append(float(cpu))
            if int(value) != oracle[pid] or exact != "1":
                wrong.add(pid)
        print(f"  endgame round {r + 1} done", file=sys.stderr)
    ids = [c["id"] for c in cases if times["magpie"][c["id"]] and times["rackety"][c["id"]]]
    med = statistics.median
    a = med(med(times["rackety"][i]) for i in ids)
    b = med(med(times["magpie"][i]) for i in ids)
    return [f"exact endgames ({len(ids)} public positions), median CPU s | {a:.3f} | {b:.3f} | "
            f"{a / b:.2f}",
            f"  endgame values that differ from the oracle: {len(wrong)} {sorted(wrong)[:5]}"]


def compare_lexicon(mag: Path, rounds: int) -> list[str]:
    lexica = mag / "data" / "lexica"
    (lexica / "TWLtiny.txt").write_text("QI\nZA\n")
    lines = []
    for lex in ("TWL06", "CSW19"):
        copy = lexica / f"{lex}b.txt"
        copy.write_bytes((lexica / f"{lex}.txt").read_bytes())
        mg, rk = [], []
        for _ in range(rounds):
            tiny = _cpu(["./bin/magpie", "convert", "text2kwg", "TWLtiny"], mag)
            mg.append(_cpu(["./bin/magpie", "convert", "text2kwg", f"{lex}b"], mag) - tiny)
            rk.append(float(_python("lexicon-child", str(copy))))
        a, b = statistics.median(rk), statistics.median(mg)
        lines.append(f"lexicon build, {lex}, CPU s | {a:.2f} | {b:.2f} | {a / b:.2f}")
    return lines


def compare(args: argparse.Namespace) -> None:
    mag = Path(args.magpie).resolve()
    if not (mag / "bin" / "magpie_movegen").exists():
        raise SystemExit(f"{mag}: no bin/magpie_movegen; build it with "
                         "../shared/peers/setup-magpie.sh")
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="vs_magpie_"))
    out.mkdir(parents=True, exist_ok=True)
    only = [m for m in (args.only.split(",") if args.only else MEASURES)]
    lines = [f"rackety beside MAGPIE, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, "
             f"medians of {args.rounds} alternated rounds, CPU time (runs in {out})",
             "measure | rackety | MAGPIE | rackety / MAGPIE"]
    for what in only:
        if what == "movegen":
            lines += compare_movegen(mag, args.rounds, out, args.limit)
        elif what == "autoplay":
            lines += compare_autoplay(mag, args.rounds)
        elif what == "sim":
            lines += compare_sim(mag, args.rounds)
        elif what == "endgame":
            lines += compare_endgame(mag, args.rounds, out)
        elif what == "lexicon":
            lines += compare_lexicon(mag, args.rounds)
        else:
            raise SystemExit(f"--only {what}: expected {', '.join(MEASURES)}")
        print("\n".join(lines), flush=True)
        lines = []


#: MAGPIE's counts, best scores and best equities on the first positions of
#: each lexicon's file, for the check that runs without MAGPIE (`agree`)
AGREE = DATA / "magpie_agree.json"


def _agree_runs(rows_of) -> dict[str, dict[str, list]]:
    """{lexicon: {"all": [[placements, exchanges, passes, best score]...],
    "best": [best equity...]}} from ``rows_of(lex, mode)``, the rows of a run."""
    runs: dict[str, dict[str, list]] = {}
    for lex in ("TWL06", "CSW19"):
        runs[lex] = {"all": [[int(r[2]), int(r[3]), int(r[4]), int(r[7])]
                             for r in rows_of(lex, "all")],
                     "best": [round(float(r[8]), 3) for r in rows_of(lex, "best")]}
    return runs


def store(args: argparse.Namespace) -> None:
    """MAGPIE's side of `agree`, written to bench/data/magpie_agree.json."""
    import hashlib

    mag = Path(args.magpie).resolve()
    empty = Path(tempfile.mkdtemp(prefix="vs_magpie_")) / "none.cgp"
    empty.write_text("")

    def rows_of(lex: str, mode: str) -> list[list[str]]:
        leaves, sort = ("TWL06zero", "score") if mode == "all" else ("TWL06rk", "equity")
        return _rows(subprocess.run(
            ["./bin/magpie_movegen", lex, leaves, mode, sort,
             str(DATA / f"midgame400_{lex.lower()}.cgp"), str(empty), str(args.positions)],
            cwd=mag, check=True, capture_output=True, text=True).stdout)

    klv = (mag / "data" / "lexica" / "TWL06rk.klv2").read_bytes()
    data = {"positions": args.positions,
            "best_leaves_sha256": hashlib.sha256(klv).hexdigest(),
            "runs": _agree_runs(rows_of)}
    AGREE.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n")
    print(f"{AGREE}: MAGPIE's figures on {args.positions} positions of TWL06 and CSW19")


def agree() -> list[str]:
    """rackety's counts, best scores (all moves, no leaves) and best equities
    (the shipped TWL06 leaves, MAGPIE's TWL06rk) on the positions of
    `AGREE`, against MAGPIE's stored figures: the positions that differ, one
    line each (none when they agree). The quick check CI runs without MAGPIE."""
    import hashlib
    from importlib import resources

    data = json.loads(AGREE.read_text())
    leaves = resources.files("rackety") / "data" / "leaves" / "TWL06.klv2"
    if hashlib.sha256(Path(leaves).read_bytes()).hexdigest() != data["best_leaves_sha256"]:
        return [f"{leaves}: not the leave table MAGPIE's figures were made with"]

    def rows_of(lex: str, mode: str) -> list[list[str]]:
        text = _python("movegen", lex, "none" if mode == "all" else str(leaves), mode,
                       str(DATA / f"midgame400_{lex.lower()}.cgp"), "-", str(data["positions"]))
        return _rows(text)

    ours, theirs = _agree_runs(rows_of), data["runs"]
    wrong = []
    for lex, modes in theirs.items():
        for i, (a, b) in enumerate(zip(ours[lex]["all"], modes["all"], strict=True)):
            if a != b:
                wrong.append(f"{lex} position {i}: placements, exchanges, passes, best score "
                             f"{a}, MAGPIE {b}")
        for i, (a, b) in enumerate(zip(ours[lex]["best"], modes["best"], strict=True)):
            if abs(a - b) > 0.002:
                wrong.append(f"{lex} position {i}: best equity {a}, MAGPIE {b}")
    return wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compare", help="both engines, alternated, with ratios")
    c.add_argument("--magpie", required=True, help="MAGPIE's build (setup-magpie.sh's MAG)")
    c.add_argument("--rounds", type=int, default=3)
    c.add_argument("--only", default="", help=f"comma-separated: {', '.join(MEASURES)}")
    c.add_argument("--out", default="", help="where the raw runs go (default: a temp dir)")
    c.add_argument("--limit", type=int, default=None, help="positions per movegen run")
    m = sub.add_parser("movegen", help="rackety's side of move generation")
    m.add_argument("lex")
    m.add_argument("leaves")
    m.add_argument("mode", choices=["all", "best"])
    m.add_argument("positions")
    m.add_argument("warmup", nargs="?", default=None)
    m.add_argument("limit", nargs="?", type=int, default=None)
    st = sub.add_parser("store", help="MAGPIE's figures for `agree`, into bench/data")
    st.add_argument("--magpie", required=True)
    st.add_argument("--positions", type=int, default=20)
    sub.add_parser("agree", help="rackety against MAGPIE's stored figures (no MAGPIE needed)")
    for name in ("autoplay-child", "sim-child", "endgame-child", "lexicon-child"):
        s = sub.add_parser(name)
        s.add_argument("rest", nargs="*")
    args = parser.parse_args()
    if args.command == "compare":
        compare(args)
    elif args.command == "store":
        store(args)
    elif args.command == "agree":
        wrong = agree()
        print("\n".join(wrong) or "rackety agrees with MAGPIE's stored figures")
        sys.exit(1 if wrong else 0)
    elif args.command == "movegen":
        movegen(args.lex, args.leaves, args.mode, args.positions,
                None if args.warmup in (None, "-") else args.warmup, args.limit)
    elif args.command == "autoplay-child":
        _autoplay_child(args.rest[0], int(args.rest[1]), int(args.rest[2]))
    elif args.command == "sim-child":
        _sim_child(args.rest[0], args.rest[1], int(args.rest[2]), int(args.rest[3]))
    elif args.command == "endgame-child":
        _endgame_child(args.rest[0])
    else:
        _lexicon_child(args.rest[0])


if __name__ == "__main__":
    main()
