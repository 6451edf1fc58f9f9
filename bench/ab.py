"""Paired self-play between two settings of the championship player: is a
change to `BestPlayer` (its clock split, its simulation's sampling, its
candidates or plies) stronger than what it replaces? Each pair of games
shares a bag (`rackety.experiments.autoplay.game_seed`) with the seats
swapped; the interval is over pairs (`paired_interval`), the independent units.

    python bench/ab.py --a '{"clock": 5}' --b '{"clock": 5, "sampling": "top-two"}' \\
        --games 200 --jobs 2 --seed 1 --out ab.jsonl
    python bench/ab.py --summary ab.jsonl

A and B are `BestPlayer`'s keyword arguments as JSON; ``--a-set``/``--b-set``
give a side module constants of its own, set only while that side decides
(``'{"rackety.search.judge.TURN_SHARE": 0.6}'``), to try a constant before it
becomes a keyword. Each player counts its
own game clock (as `rackety autoplay` plays them); each job plays one game at a
time, so with as many jobs as cores each engine thinks alone on its core.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from typing import Any

import rackety
from rackety.experiments.autoplay import game_seed, paired_interval, play_game, wilson
from rackety.players import BestPlayer

_state: dict[str, Any] = {}


def _with_constants(player: BestPlayer, constants: dict[str, Any]) -> BestPlayer:
    """``player`` deciding with ``constants`` ("module.NAME": value) set."""
    if not constants:
        return player
    import importlib

    places = []
    for name, value in constants.items():
        module, _, attr = name.rpartition(".")
        places.append((importlib.import_module(module), attr, value))
    decide = player.decide

    def patched(*args: Any, **kwargs: Any) -> Any:
        saved = [(m, attr, getattr(m, attr)) for m, attr, _ in places]
        for m, attr, value in places:
            setattr(m, attr, value)
        try:
            return decide(*args, **kwargs)
        finally:
            for m, attr, value in saved:
                setattr(m, attr, value)

    player.decide = patched  # type: ignore[method-assign]
    return player


def _start(a: dict[str, Any], b: dict[str, Any], seed: int,
           constants: tuple[dict[str, Any], dict[str, Any]] = ({}, {})) -> None:
    lexicon = rackety.Lexicon.load("TWL06")
    _state.update(lexicon=lexicon, a=a, b=b, seed=seed, constants=constants)
    warm = rackety.Game(lexicon, seed=1)  # the kernels loaded before any clock runs
    BestPlayer(0.2).decide(warm.view(), lexicon)


def play(index: int) -> dict[str, Any]:
    lexicon = _state["lexicon"]
    set_a, set_b = _state["constants"]
    a = _with_constants(BestPlayer(**_state["a"], name="a"), set_a)
    b = _with_constants(BestPlayer(**_state["b"], name="b"), set_b)
    b_first = index % 2 == 0
    players = [b, a] if b_first else [a, b]
    seed = game_seed(_state["seed"], index)
    game, stats = play_game(lexicon, players, seed=seed, names=["b", "a"] if b_first
                            else ["a", "b"])
    sb, sa = (0, 1) if b_first else (1, 0)
    return {"game": index, "seed": seed, "b_first": b_first, "b": game.scores[sb],
            "a": game.scores[sa], "b_win": stats[sb].won, "b_seconds": round(stats[sb].seconds, 3),
            "a_seconds": round(stats[sa].seconds, 3)}


def summary(rows: list[dict[str, Any]]) -> str:
    n = len(rows)
    if not n:
        return "no games"
    wins = sum(r["b_win"] for r in rows)
    pairs: dict[int, list[float]] = {}
    for r in rows:
        pairs.setdefault(r["game"] // 2, []).append(r["b_win"])
    full = [sum(w) for w in pairs.values() if len(w) == 2]
    lo, hi = paired_interval(full) if len(full) >= 2 else wilson(wins, n)
    return (f"{n} games ({len(full)} pairs): B wins {100 * wins / n:.1f} % (95 %, pairs: "
            f"{lo:.1f}-{hi:.1f}), spread {sum(r['b'] - r['a'] for r in rows) / n:+.1f} a game, "
            f"seconds a game: B {sum(r['b_seconds'] for r in rows) / n:.2f}, "
            f"A {sum(r['a_seconds'] for r in rows) / n:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="{}", help="BestPlayer keywords (JSON) of A, the old")
    ap.add_argument("--b", default="{}", help="BestPlayer keywords (JSON) of B, the new")
    ap.add_argument("--a-set", default="{}", help="module constants (JSON) of A alone")
    ap.add_argument("--b-set", default="{}", help="module constants (JSON) of B alone")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=None)
    ap.add_argument("--summary", default=None, metavar="FILE")
    args = ap.parse_args()
    if args.summary:
        with open(args.summary) as f:
            print(summary([json.loads(line) for line in f if line.strip()]))
        return
    a, b = json.loads(args.a), json.loads(args.b)
    constants = (json.loads(args.a_set), json.loads(args.b_set))
    print(f"{args.games} games, A {a} {constants[0] or ''} against B {b} {constants[1] or ''}, "
          f"{args.jobs} jobs", flush=True)
    rows: list[dict[str, Any]] = []
    out = open(args.out, "a") if args.out else None  # noqa: SIM115
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(args.jobs, initializer=_start, initargs=(a, b, args.seed, constants)) as pool:
        for row in pool.imap_unordered(play, range(args.games)):
            rows.append(row)
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
            print(f"[{len(rows)}/{args.games}] {summary(rows)}", file=sys.stderr, flush=True)
    if out:
        out.close()
    print(summary(rows))


if __name__ == "__main__":
    main()
