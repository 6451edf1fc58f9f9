"""Move-generation benchmark over the 400 midgame positions of TWL06 and CSW19
(bench/data, from ../shared/bench): microseconds per position for every mode
and both generators, moves per position, the split by blanks on the rack, and
the speed-up over the same code with NUMBA_DISABLE_JIT=1 on a small sample.
Beside MAGPIE, measured in the same run: ``bench/vs_magpie.py``.

    python bench/movegen.py [--lexicons TWL06,CSW19] [--repeat 3] [--nojit 3]

Each timing starts from the board as read from its CGP: cross sets computed
from scratch, then generation into the preallocated buffers (no Move object is
made). One core; the best of ``--repeat`` passes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
CASES = [("all", "gaddag", "all"), ("all", "dawg", "all"), ("top", "gaddag", "top 10"),
         ("best", "gaddag", "best"), ("count", "gaddag", "count only")]


def boards(lexicon: str, limit: int | None = None) -> list:
    from rackety import Board

    lines = (DATA / f"midgame400_{lexicon.lower()}.cgp").read_text().splitlines()
    return [Board.from_cgp(line) for line in lines[:limit] if line.strip()]


def time_mode(positions: list, lexicon, mode: str, generator: str, repeat: int
              ) -> tuple[float, list[float], float, float]:
    """Best-of-``repeat`` mean µs per position, the per-position times of that
    pass, the mean number of placements found (in the top and best modes, only
    those of the anchors searched) and the share of anchors searched."""
    from rackety.game.movegen import generate

    best_total = float("inf")
    best_each: list[float] = []
    found = searched = anchors = 0
    for _ in range(repeat):
        each = []
        found = searched = anchors = 0
        for board in positions:
            board._derived.clear()  # cross sets from scratch, as a fresh position
            t0 = time.perf_counter()
            moves = generate(board, lexicon, mode=mode, top=10, generator=generator,
                             exchanges=False)
            each.append(time.perf_counter() - t0)
            found += moves.count
            searched += moves.stats["anchors"]
            anchors += moves.stats["anchors_total"]
        if sum(each) < best_total:
            best_total, best_each = sum(each), each
    return (best_total / len(positions) * 1e6, best_each, found / len(positions),
            searched / max(1, anchors))


def nojit_sample(lexicon: str, n: int) -> float:
    """µs per position, all moves, GADDAG, on the first ``n`` positions."""
    lex = __import__("rackety").Lexicon.load(lexicon)
    positions = boards(lexicon, n)
    return time_mode(positions, lex, "all", "gaddag", 1)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicons", default="TWL06,CSW19")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--nojit", type=int, default=3, metavar="N",
                        help="positions for the NUMBA_DISABLE_JIT=1 comparison (0: skip)")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        lexicon, n = args.child.split(":")
        print(json.dumps(nojit_sample(lexicon, int(n))))
        return

    from rackety import Lexicon

    for name in args.lexicons.split(","):
        lex = Lexicon.load(name)
        positions = boards(name)
        time_mode(positions[:20], lex, "all", "gaddag", 1)  # compile / load the kernels
        time_mode(positions[:20], lex, "best", "gaddag", 1)
        time_mode(positions[:20], lex, "all", "dawg", 1)
        print(f"\n{name}: {len(positions)} midgame positions, µs per position "
              f"(best of {args.repeat}), one core")
        print(f"{'mode':<12} {'generator':<9} {'µs/pos':>8} {'found/pos':>10} "
              f"{'anchors':>8}")
        results = {}
        for mode, generator, label in CASES:
            us, each, found, share = time_mode(positions, lex, mode, generator, args.repeat)
            results[(mode, generator)] = (us, each)
            print(f"{label:<12} {generator:<9} {us:8.0f} {found:10.1f} {share:8.0%}")
        gad, dawg = results[("all", "gaddag")][0], results[("all", "dawg")][0]
        print(f"GADDAG over DAWG (all moves): {dawg / gad:.2f}x faster. found/pos: placements "
              "found (top and best: in the anchors searched); anchors: share searched")
        blanks = [board.rack.count(0) for board in positions]
        print("by blanks on the rack (all moves, GADDAG; best move):")
        each_all = results[("all", "gaddag")][1]
        each_best = results[("best", "gaddag")][1]
        for k in sorted(set(blanks)):
            idx = [i for i, b in enumerate(blanks) if b == k]
            a = sum(each_all[i] for i in idx) / len(idx) * 1e6
            b = sum(each_best[i] for i in idx) / len(idx) * 1e6
            print(f"  {k} blank(s): {len(idx):4d} positions  all {a:7.0f} µs  "
                  f"best {b:6.0f} µs")
        if args.nojit:
            env = dict(os.environ, NUMBA_DISABLE_JIT="1")
            out = subprocess.run([sys.executable, __file__, "--child", f"{name}:{args.nojit}"],
                                 env=env, capture_output=True, text=True, check=True)
            slow = json.loads(out.stdout.strip().splitlines()[-1])
            us = time_mode(positions[:args.nojit], lex, "all", "gaddag", args.repeat)[0]
            print(f"numba over NUMBA_DISABLE_JIT=1 (all moves, first {args.nojit} positions): "
                  f"{slow / us:.0f}x faster ({slow / 1e3:.0f} ms against {us:.0f} µs)")


if __name__ == "__main__":
    main()
