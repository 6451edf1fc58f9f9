"""Self-play benchmark: games per second on one core for greedy and H3
self-play on TWL06, compiled (`rackety.experiments.selfplay`, every game checked by the
compiled replay) and through the Python referee (`autoplay.play_game`, checked
by `Game.problems`), with where the time of the Python path goes.

    python bench/autoplay.py [--games 300] [--lexicon TWL06] [--profile]

Beside MAGPIE, measured in the same run: ``bench/vs_magpie.py``.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time


def compiled(lexicon, spec: str, games: int, check: bool) -> tuple[float, float]:
    """Games per second and events per game of compiled ``spec`` self-play."""
    from rackety.experiments.autoplay import game_seed
    from rackety.experiments.selfplay import Compiled
    from rackety.players import make_player

    engine = Compiled(lexicon, [make_player(spec, lexicon), make_player(spec, lexicon)])
    engine.check(engine.play(0))  # compile or load the kernels
    events = 0
    t0 = time.perf_counter()
    for index in range(games):
        game = engine.play(game_seed(1, index))
        if check:
            problem = engine.check(game)
            assert problem is None, problem
        events += game.n
    return games / (time.perf_counter() - t0), events / games


def python(lexicon, spec: str, games: int, check: bool) -> tuple[float, float]:
    """The same through `Game` and the players' objects."""
    from rackety.experiments.autoplay import game_seed, play_game
    from rackety.players import make_player

    players = [make_player(spec, lexicon), make_player(spec, lexicon)]
    play_game(lexicon, players, seed=0)
    events = 0
    t0 = time.perf_counter()
    for index in range(games):
        game, _ = play_game(lexicon, players, seed=game_seed(1, index), check=check)
        events += len(game.events)
    return games / (time.perf_counter() - t0), events / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--lexicon", default="TWL06")
    parser.add_argument("--profile", action="store_true",
                        help="where the time of the Python path goes (greedy)")
    args = parser.parse_args()
    from rackety import Lexicon

    lexicon = Lexicon.load(args.lexicon)
    print(f"{args.lexicon}, one core, {args.games} games each, self-play")
    print(f"{'players':<8} {'path':<9} {'check':<6} {'games/s':>8} {'events/game':>12}")
    for spec in ("greedy", "h3"):
        for name, run in (("compiled", compiled), ("python", python)):
            for check in (True, False):
                games = args.games if name == "compiled" else max(50, args.games // 3)
                rate, events = run(lexicon, spec, games, check)
                print(f"{spec:<8} {name:<9} {'yes' if check else 'no':<6} {rate:8.1f} "
                      f"{events:12.1f}")
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(python, lexicon, "greedy", 30, True)
        pstats.Stats(profile).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
