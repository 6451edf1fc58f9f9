"""Word study's lists, timed: every alphagram of 7 and of 8 tiles of a
lexicon in probability order (the compiled count, then as objects), and
quizzes made from them; puzzles cut from self-play per CPU minute, and the
share of them that static players solve, by tag (docs/STUDY.md).

    python bench/study.py [--lexicon TWL06] [--rounds 5] [--games 20] [--seed 5]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

import rackety
from rackety.study import anagram_questions, hook_questions, judge_questions


def best_of(rounds: int, run: Callable[[], Any]) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lexicon", default="TWL06")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=20, help="self-play games to cut puzzles from")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    lexicon = rackety.Lexicon.load(args.lexicon)
    lexicon.probability_order(2)  # the kernels loaded, untimed
    rows: dict[str, Any] = {"lexicon": args.lexicon, "rounds": args.rounds}
    for length in (7, 8):
        plist = lexicon.probability_order(length)
        rows[f"{length}s"] = {
            "alphagrams": len(plist),
            "words": int(plist.start[-1]),
            "ranked s": round(best_of(args.rounds, lambda n=length: lexicon.probability_order(n)),
                              4),
            "as objects s": round(best_of(args.rounds, lambda n=length: list(
                lexicon.probability_order(n))), 4),
            "anagram quiz of all s": round(best_of(args.rounds, lambda n=length: anagram_questions(
                lexicon, length=n)), 4),
        }
    top = [w for q in anagram_questions(lexicon, length=7, ranks=(1, 1000)) for w in q.answers]
    rows["hook quiz, 7s ranked 1-1000 s"] = round(best_of(args.rounds, lambda: hook_questions(
        lexicon, top)), 4)
    rows["word judge, 1000 questions of 7 s"] = round(best_of(args.rounds, lambda: judge_questions(
        lexicon, 7, 1000)), 4)
    rows["playability"] = playability(lexicon)
    rows["puzzles"] = puzzles(lexicon, args.games, args.seed)
    print(json.dumps(rows, indent=1))


def playability(lexicon: rackety.Lexicon, games: int = 2000) -> dict[str, Any]:
    """Counting what self-play plays, for playability order: seconds for
    ``games`` games (in a cache of its own, so played, not read back), and
    the 7s' quiz in that order once counted."""
    import tempfile
    from unittest import mock

    from rackety.experiments.playability import plays
    from rackety.study.quiz import anagram_questions

    with tempfile.TemporaryDirectory() as folder, \
            mock.patch("rackety.lexicon.cache.cache_dir", lambda: __import__("pathlib").Path(
                folder)):
        plays(lexicon, games=10, seed=9)  # the kernels loaded, untimed
        started = time.perf_counter()
        plays(lexicon, games=games, seed=1)
        counted = time.perf_counter() - started
        started = time.perf_counter()
        anagram_questions(lexicon, length=7, order="playability", games=games, seed=1)
        quiz = time.perf_counter() - started
    return {"games": games, "counted s": round(counted, 2),
            "ms a game": round(1000 * counted / games, 2), "7s quiz, counted s": round(quiz, 3)}


def puzzles(lexicon: rackety.Lexicon, games: int, seed: int) -> dict[str, Any]:
    """Puzzles cut from ``games`` self-play games, per CPU minute, and the
    share each static player solves, by tag."""
    from collections import Counter

    from rackety.study.puzzles import attempt, from_selfplay

    list(from_selfplay(lexicon, 1, seed=seed + 1))  # the kernels loaded, untimed
    started = time.process_time()
    cut = list(from_selfplay(lexicon, games, seed=seed))
    cpu = time.process_time() - started
    tags = Counter(t for p in cut for t in p.tags)
    solved: dict[str, dict[str, float]] = {}
    for spec in ("static", "h3", "greedy"):
        player = rackety.make_player(spec, lexicon)
        right: Counter[str] = Counter()
        for p in cut:
            board = rackety.Board.from_cgp(p.cgp)
            move = player.decide(board, lexicon).move
            if attempt(p, board.notation(move), lexicon).correct:
                right.update(p.tags)
                right["all"] += 1
        solved[spec] = {t: round(100 * right[t] / n, 1)
                        for t, n in [("all", len(cut)), *sorted(tags.items())] if n}
    return {"games": games, "seed": seed, "puzzles": len(cut), "cpu s": round(cpu, 1),
            "per CPU minute": round(60 * len(cut) / cpu, 1) if cpu else None,
            "tags": dict(sorted(tags.items())), "solved %": solved}


if __name__ == "__main__":
    main()
