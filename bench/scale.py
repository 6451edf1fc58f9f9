"""Scaling benchmark: autoplay games per second with 1 and 2 workers on each
backend (local processes, a local Ray instance), and the speed-up.

    python bench/scale.py [--games 2000] [--players h3,greedy] [--lexicon TWL06]

Every run plays the same seeded games, so the totals must agree: the script
checks it. On a real cluster, start Ray there (`ray start --head`, then `ray
start --address HEAD:6379` on each worker) and pass `--address auto`.
"""

from __future__ import annotations

import argparse
import time


def _totals(result: object) -> list[tuple[object, ...]]:
    return [(p.name, p.wins, p.games, p.total_score, p.bingos) for p in result.players]  # type: ignore


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", default="h3,greedy")
    parser.add_argument("--lexicon", default="TWL06")
    parser.add_argument("--address", default=None, help="a Ray cluster (default: local)")
    args = parser.parse_args()

    import ray

    from rackety.experiments.autoplay import tournament
    from rackety.lexicon import Lexicon

    Lexicon.load(args.lexicon)  # compile and cache before the workers
    specs = args.players.split(",")
    tournament(args.lexicon, specs, 4, jobs=1)  # compile the kernels once
    rows = []
    reference = None
    for backend in ("local", "ray"):
        base = None
        for workers in (1, 2):
            if backend == "ray":
                if ray.is_initialized():
                    ray.shutdown()
                if args.address:
                    ray.init(address=args.address, log_to_driver=False)
                else:
                    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
                tournament(args.lexicon, specs, 2 * workers, backend="ray", jobs=workers)
            t0 = time.perf_counter()
            result = tournament(args.lexicon, specs, args.games, seed=11, jobs=workers,
                                backend=backend)
            rate = result.games / (time.perf_counter() - t0)
            totals = _totals(result)
            reference = reference or totals
            assert totals == reference, "the backends disagree"
            base = base or rate
            rows.append((backend, workers, rate, rate / base))
    if ray.is_initialized():
        ray.shutdown()
    print(f"{args.games} games of {args.players} on {args.lexicon} (same totals everywhere)")
    print(f"{'backend':<8} {'workers':>7} {'games/s':>9} {'speed-up':>9}")
    for backend, workers, rate, up in rows:
        print(f"{backend:<8} {workers:>7} {rate:>9.1f} {up:>8.2f}x")


if __name__ == "__main__":
    main()
