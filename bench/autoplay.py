"""Self-play benchmark: games per second on one core for greedy and h3
self-play on TWL06, with the referee's end-of-game check and without, and where
the time goes (move generation against the rest of the game loop).

    python bench/autoplay.py [--games 200] [--lexicon TWL06] [--profile]

Reference (../shared/oracle/README.md and FAST-MOVEGEN.md): MAGPIE, one core of
this class of machine, plays 263-270 greedy games/s and 190-209 static-equity
games/s without its word maps.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

MAGPIE = {"greedy": 266.0, "h3": 200.0}


def run(lexicon, spec: str, games: int, check: bool) -> tuple[float, float]:
    """Games per second and turns per game of ``spec`` self-play."""
    from rackety.autoplay import game_seed, play_game
    from rackety.players import make_player

    players = [make_player(spec, lexicon), make_player(spec, lexicon)]
    turns = 0
    t0 = time.perf_counter()
    for index in range(games):
        game, _ = play_game(lexicon, players, seed=game_seed(1, index), check=check)
        turns += len(game.events)
    seconds = time.perf_counter() - t0
    return games / seconds, turns / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--lexicon", default="TWL06")
    parser.add_argument("--profile", action="store_true",
                        help="print where the time of greedy self-play goes")
    args = parser.parse_args()
    from rackety import Lexicon

    lexicon = Lexicon.load(args.lexicon)
    for spec in ("greedy", "h3"):
        run(lexicon, spec, 4, True)  # compile / load the kernels
    print(f"{args.lexicon}, one core, {args.games} games each")
    print(f"{'players':<10} {'check':<6} {'games/s':>8} {'turns/game':>11} {'vs MAGPIE':>10}")
    for spec in ("greedy", "h3"):
        for check in (True, False):
            rate, turns = run(lexicon, spec, args.games, check)
            print(f"{spec:<10} {'yes' if check else 'no':<6} {rate:8.1f} {turns:11.1f} "
                  f"{rate / MAGPIE[spec]:10.2f}")
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(run, lexicon, "greedy", max(20, args.games // 5), True)
        stats = pstats.Stats(profile).sort_stats("tottime")
        stats.print_stats(12)


if __name__ == "__main__":
    main()
