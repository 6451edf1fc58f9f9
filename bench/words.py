"""Word-tool benchmark: time per query of each tool on TWL06, against a scan of
the word list in plain Python (the brute force the tests use) and against the
same kernels with NUMBA_DISABLE_JIT=1.

    python bench/words.py [--lexicon TWL06] [--queries 50] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import reference

# the English tile bag, to draw racks from
LETTERS = ("AAAAAAAAABBCCDDDDEEEEEEEEEEEEFFGGGHHIIIIIIIIIJKLLLLMMNNNNNNOOOOOOOOPPQRRRRRRSSSSTTTTTT"
           "UUUUVVWWXYYZ??")
SCANNED = {"anagram (7 tiles, blanks)": ("racks", 5), "pattern": ("patterns", 5),
           "hooks": ("words", 5), "suggest (distance 2)": ("words", 2)}


def queries(n: int, seed: int) -> dict[str, list[str]]:
    rng = random.Random(seed)
    racks = ["".join(rng.sample(LETTERS, 7)) for _ in range(n)]
    patterns = []
    for _ in range(n):
        p = "".join(rng.choice("AEIRSTLN??*") for _ in range(rng.randint(3, 6)))
        patterns.append(p.replace("**", "*"))
    words = ["".join(rng.sample(LETTERS.replace("?", ""), rng.randint(4, 8))) for _ in range(n)]
    phrases = ["".join(rng.sample(LETTERS.replace("?", ""), 11)) for _ in range(max(1, n // 5))]
    return {"racks": racks, "patterns": patterns, "words": words, "phrases": phrases}


def time_tools(lexicon_name: str, q: dict[str, list[str]],
               only: dict[str, tuple[str, int]] | None = None) -> dict[str, float]:
    from rackety import Lexicon

    lex = Lexicon.load(lexicon_name)
    tools = {
        "anagram (7 tiles, blanks)": (lambda r: lex.anagrams(r), q["racks"]),
        "anagram --subsets": (lambda r: lex.anagrams(r, subsets=True), q["racks"]),
        "pattern": (lambda p: lex.pattern(p), q["patterns"]),
        "pattern --rack": (lambda p: lex.pattern(p, rack="AEIRST?"), q["patterns"]),
        "hooks": (lambda w: lex.hooks(w), q["words"]),
        "suggest (distance 2)": (lambda w: lex.suggest(w), q["words"]),
        "multi (11 letters)": (lambda p: lex.multi_anagrams(p), q["phrases"]),
    }
    out = {}
    for name, (fn, args) in tools.items():
        if only is not None:
            if name not in only:
                continue
            args = q[only[name][0]][: only[name][1]]
        fn(args[0])  # compile or load the kernel
        t = time.perf_counter()
        for a in args:
            fn(a)
        out[name] = (time.perf_counter() - t) / len(args)
    return out


def brute(words: list[str], q: dict[str, list[str]]) -> dict[str, float]:
    """The same queries answered by scanning the list (a few of each: it is slow)."""
    wordset = set(words)
    counted = [(w, Counter(w)) for w in words]

    def anagram(rack: str) -> list[str]:
        have = Counter(rack)
        return [w for w, c in counted if len(w) == len(rack)
                and sum(max(0, n - have[x]) for x, n in c.items()) <= have["?"]]

    tools = {
        "anagram (7 tiles, blanks)": anagram,
        "pattern": lambda p: [w for w in words if reference.matches(w, p)],
        "hooks": lambda w: reference.hooks(wordset, w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
        "suggest (distance 2)": lambda x: [w for w in words if abs(len(w) - len(x)) <= 2
                                           and reference.levenshtein(w, x) <= 2],
    }
    out = {}
    for name, fn in tools.items():
        kind, count = SCANNED[name]
        args = q[kind][:count]
        t = time.perf_counter()
        for a in args:
            fn(a)
        out[name] = (time.perf_counter() - t) / len(args)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lexicon", default="TWL06")
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json-times", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    q = queries(args.queries, args.seed)
    small = {k: v[: max(1, len(v) // 10)] for k, v in q.items()}
    if args.json_times:  # the child run under NUMBA_DISABLE_JIT=1
        print(json.dumps(time_tools(args.lexicon, small)))
        return

    from rackety import Lexicon

    jit = time_tools(args.lexicon, q)
    jit_small = time_tools(args.lexicon, small)  # the queries the no-JIT run answers
    jit_scanned = time_tools(args.lexicon, q, SCANNED)  # the queries the scan answers
    scan = brute(Lexicon.load(args.lexicon).words(), q)
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    child = subprocess.run([sys.executable, __file__, "--lexicon", args.lexicon, "--queries",
                            str(args.queries), "--seed", str(args.seed), "--json-times"],
                           env=env, capture_output=True, text=True, check=True)
    nojit = json.loads(child.stdout)
    print(f"{args.lexicon}, mean per query over {args.queries} queries (list scan: the first "
          "few, no JIT: the first tenth; each ratio against rackety on the same queries)")
    print(f"  {'tool':<27}{'rackety':>12}{'list scan':>12}{'speed-up':>10}"
          f"{'no JIT':>12}{'JIT gain':>10}")
    for name, t in jit.items():
        s = scan.get(name)
        s_ratio = s / jit_scanned[name] if s else 0
        n = nojit.get(name)
        n_ratio = n / jit_small[name] if n else 0
        print(f"  {name:<27}{1e3 * t:>10.3f}ms"
              f"{(f'{1e3 * s:10.1f}ms' if s else '          --'):>12}"
              f"{(f'{s_ratio:9.0f}x' if s else '        --'):>10}"
              f"{(f'{1e3 * n:10.1f}ms' if n else '          --'):>12}"
              f"{(f'{n_ratio:9.0f}x' if n else '        --'):>10}")


if __name__ == "__main__":
    main()
