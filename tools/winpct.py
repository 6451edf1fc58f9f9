"""Measure the win-% table on rackety's own self-play and write it
(`rackety.experiments.winpct`; docs/WINPCT.md):

    python tools/winpct.py --games 100000 --counts counts.npz \
        --out src/rackety/data/winpct/100x7.csv

With ``--from-counts counts.npz`` it only smooths counts measured before."""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from rackety.experiments import winpct


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", default="TWL06")
    parser.add_argument("--leave", default="static")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--counts", help="save the raw counts here (.npz)")
    parser.add_argument("--from-counts", help="smooth these counts instead of playing")
    parser.add_argument("--out", required=True, help="the table's CSV")
    args = parser.parse_args()
    if args.from_counts:
        data = np.load(args.from_counts)
        counts = winpct.Counts(data["turns"], data["wins"], int(data["games"]))
        seconds = float(data["seconds"])
    else:
        def progress(games: int, seconds: float) -> None:
            print(f"{games} games, {seconds:.0f} s", file=sys.stderr, flush=True)

        counts, seconds = winpct.measure(args.lexicon, args.games, leave=args.leave,
                                         seed=args.seed, jobs=args.jobs, progress=progress)
        if args.counts:
            np.savez_compressed(args.counts, turns=counts.turns, wins=counts.wins,
                                games=counts.games, seconds=seconds)
    t0 = time.perf_counter()
    table = winpct.table_of(counts)
    table.write(args.out, (
        "rackety's win-% table: P (in %) that the player who has just moved wins, "
        "the opponent to move",
        "rows: tiles unseen to that player (bag + opponent's rack); columns: their spread",
        f"measured by tools/winpct.py: {counts.games} games of {args.lexicon}, the "
        f"{args.leave} player on both sides, seed {args.seed}, {counts.turns.sum()} turns, "
        f"{seconds:.0f} s of play",
        "smoothed as rackety.experiments.winpct.smooth says (docs/WINPCT.md)"))
    print(f"{counts.games} games, {counts.turns.sum()} turns, {seconds:.0f} s; smoothed in "
          f"{time.perf_counter() - t0:.1f} s -> {args.out}")


if __name__ == "__main__":
    main()
