"""Tune the vowel-consonant balance term of H3 by autoplay against greedy.

    python tools/tune_h3.py [--games 1000] [--jobs 2]

Each candidate `Balance` plays the same paired games (same bags, seats
swapped) against greedy; the table gives its win % with Wilson's 95 % interval.
The defaults in `rackety.game.heuristics.H3` come from this script.
"""

from __future__ import annotations

import argparse
import itertools
from concurrent.futures import ProcessPoolExecutor

from rackety.experiments.autoplay import game_seed, play_game, wilson


def run(args: tuple[dict, int, int]) -> tuple[dict, float, int]:
    from rackety import Lexicon
    from rackety.game.heuristics import H2_DUPLICATION, H2_VALUES, Balance, RackHeuristic
    from rackety.players import GreedyPlayer, StaticPlayer

    params, start, stop = args
    lexicon = Lexicon.load("TWL06")
    h3 = StaticPlayer(RackHeuristic("h3", H2_VALUES, H2_DUPLICATION, Balance(**params)), "h3")
    greedy = GreedyPlayer()
    wins = 0.0
    for index in range(start, stop):
        players = [h3, greedy] if index % 2 == 0 else [greedy, h3]
        _, stats = play_game(lexicon, players, seed=game_seed(7, index), check=False)
        wins += stats[index % 2].won
    return params, wins, stop - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    grid = [dict(share=s, tolerance=t, vowel_excess=w, vowel_shortage=w)
            for s, t, w in itertools.product((0.4, 0.45), (0.5, 1.0), (1.0, 2.0, 4.0))]
    chunks = []
    step = 100
    for params in grid:
        chunks += [(params, i, min(args.games, i + step)) for i in range(0, args.games, step)]
    totals: dict[str, list[float]] = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        for params, wins, n in pool.map(run, chunks):
            key = repr(params)
            totals.setdefault(key, [0.0, 0])
            totals[key][0] += wins
            totals[key][1] += n
    for key, (wins, n) in sorted(totals.items(), key=lambda kv: -kv[1][0]):
        lo, hi = wilson(wins, n)
        print(f"{100 * wins / n:5.1f}%  [{lo:4.1f}, {hi:4.1f}]  {key}")


if __name__ == "__main__":
    main()
