"""Search benchmarks on one core: the exact endgame solver over the oracle
endgames (tests/data, from ../shared/oracle): solve time for each position,
the median and the maximum over the positions solved, and nodes per second.
Every value is checked against the oracle's. The figures beside MAGPIE, measured
in the same run, come from ``bench/vs_magpie.py``.

    python bench/search.py [--max-seconds 30] [--tt-bits 22] [--lexicon TWL06]

Positions whose reference time is above ``--max-seconds`` are skipped (and
listed); ``--max-seconds 300`` runs them all (the hardest 7-against-7 took the
oracle's engine minutes).

A simulation section may follow: a function ``simulation_section(args)`` in this
file, run only when `rackety.search.simulation` imports (and its options, if any, from
``simulation_arguments(parser)``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
FILES = ("endgame_twl06_small.jsonl", "endgame_twl06_public.jsonl")


def endgame_cases() -> list[dict]:
    cases = []
    for name in FILES:
        with open(DATA / name, encoding="utf-8") as f:
            cases.extend(json.loads(line) for line in f if line.strip())
    return cases


def endgame_section(args: argparse.Namespace) -> bool:
    """Solve every oracle endgame under the reference-time limit; True when
    every value agrees with the oracle."""
    from rackety import Board, Lexicon
    from rackety.search.endgame import solve

    lexicon = Lexicon.load(args.lexicon)
    cases = endgame_cases()
    run = [c for c in cases if c["search_cpu_s"] <= args.max_seconds]
    skipped = [c for c in cases if c["search_cpu_s"] > args.max_seconds]
    # load (or compile) the kernels before timing anything
    solve(Board.from_cgp(run[0]["cgp"] if run else cases[0]["cgp"]), lexicon, tt_bits=12)
    print(f"endgames: {len(run)} of {len(cases)} positions (reference time <= "
          f"{args.max_seconds:g} s), TWL06, tt 2^{args.tt_bits}")
    print(f"{'id':<7} {'racks':<17} {'value':>5} {'ok':>3} {'depth':>5} {'nodes':>10} "
          f"{'seconds':>8} {'nodes/s':>9}")
    ours, wrong = [], []
    nodes_total = 0
    for case in run:
        board = Board.from_cgp(case["cgp"])
        t0 = time.perf_counter()
        result = solve(board, lexicon, tt_bits=args.tt_bits)
        seconds = time.perf_counter() - t0
        ok = result.value == case["value"] and result.exact
        if not ok:
            wrong.append(case["id"])
        ours.append(seconds)
        nodes_total += result.nodes
        racks = f"{case['on_turn_rack']}/{case['opp_rack']}"
        print(f"{case['id']:<7} {racks:<17} {result.value:>5} {'yes' if ok else 'NO':>3} "
              f"{result.depth:>5} {result.nodes:>10,} {seconds:>8.3f} "
              f"{result.nodes / max(result.seconds, 1e-9):>9,.0f}", flush=True)
    if run:
        print(f"solve time: median {statistics.median(ours):.4f} s, max {max(ours):.3f} s")
        print(f"nodes per second: {nodes_total / sum(ours):,.0f} ({nodes_total:,} nodes in "
              f"{sum(ours):.2f} s)")
    if skipped:
        print("skipped (reference time above the limit): " + ", ".join(
            f"{c['id']} ({c['search_cpu_s']:.0f} s)" for c in skipped))
    if wrong:
        print("VALUE DIFFERS FROM THE ORACLE (or not exact): " + ", ".join(wrong))
    return not wrong


def _simulation_available() -> bool:
    try:
        import rackety.search.simulation  # noqa: F401
    except ImportError:
        return False
    return True


def simulation_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sim-iterations", type=int, default=200,
                        help="rollouts per candidate in the simulation section (default 200)")
    parser.add_argument("--skip-simulation", action="store_true", help="no simulation section")


def simulation_section(args: argparse.Namespace) -> None:
    """Two-ply rollouts per second on the five positions of
    bench/data/sim_twl06_reference.jsonl (10 and 15 candidates, no candidate
    dropped); beside MAGPIE in the same run: ``bench/vs_magpie.py``."""
    if args.skip_simulation:
        return
    import json
    import time

    from rackety import Board, Lexicon
    from rackety.search.simulation import simulate

    lexicon = Lexicon.load(args.lexicon)
    path = Path(__file__).resolve().parent / "data" / "sim_twl06_reference.jsonl"
    cases = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    simulate(Board.from_cgp(cases[0]["cgp"]), lexicon, candidates=2, iterations=4)  # compile
    print(f"simulation, {args.sim_iterations} two-ply rollouts per candidate, one core")
    for k in (10, 15):
        rates = []
        for case in cases:
            board = Board.from_cgp(case["cgp"])
            t0 = time.process_time()
            result = simulate(board, lexicon, candidates=k, plies=2,
                              iterations=args.sim_iterations, seed=1, confidence=0.999999)
            cpu = time.process_time() - t0
            rollouts = sum(c.iterations for c in result.candidates)
            rates.append(rollouts / cpu)
            best = board.notation(result.best.move)
            ref = case["candidates"][0]["move"] if case.get("candidates") else "?"
            print(f"  {case['id']:>8} {k:>2} candidates: {rollouts / cpu:7,.0f} rollouts/s  "
                  f"best {best:<16} (reference's best: {ref})")
        print(f"  {k} candidates: mean {sum(rates) / len(rates):,.0f} rollouts per CPU second, "
              f"{min(rates):,.0f}-{max(rates):,.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicon", default="TWL06")
    parser.add_argument("--max-seconds", type=float, default=30.0,
                        help="skip endgames whose reference time is above this (default 30)")
    parser.add_argument("--tt-bits", type=int, default=22,
                        help="transposition table of 2^N entries (default 22)")
    parser.add_argument("--skip-endgame", action="store_true", help="no endgame section")
    hook = globals().get("simulation_arguments")
    if hook is not None:
        hook(parser)
    args = parser.parse_args()
    ok = True
    if not args.skip_endgame:
        ok = endgame_section(args)
    # --- simulation: `simulation_section(args)`, when defined and rackety.search.simulation imports
    section = globals().get("simulation_section")
    if section is not None and _simulation_available():
        print()
        section(args)
    if not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
