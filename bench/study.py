"""Word study's lists, timed: every alphagram of 7 and of 8 tiles of a
lexicon in probability order (the compiled count, then as objects), and
quizzes made from them (docs/STUDY.md).

    python bench/study.py [--lexicon TWL06] [--rounds 5]
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
    print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
