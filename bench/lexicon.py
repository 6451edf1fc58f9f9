"""Lexicon benchmark: build time, size, loads and validation, for TWL06 and CSW19.

    python bench/lexicon.py [--repeat 3] [--nojit-words 5000] [LEXICON ...]

Build seconds are CPU seconds of one core (time.process_time) for the whole
compile from the word list's bytes: tokenizing, sorting, DAWG, GADDAG, tail
sharing, layout; the numba kernels are compiled (or loaded from numba's cache)
by a warm-up build first. Loads run in fresh processes with their own cache
folder: "cold" compiles the list and writes the cache, "warm" reads the cached
graph and checks its checksum (numba is not imported), "KWG file" reads a .kwg
and validates it (`rackety.lexicon.kwg.validate`: one compiled walk, numba
imported and its kernel loaded from numba's cache). "validate" is that check
alone, in process, best of --repeat. Node counts are compared with the files
wolges and MAGPIE write (803,645 and 830,481 nodes for TWL06); build times
beside MAGPIE's, measured in the same run, come from ``bench/vs_magpie.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

REFERENCE_NODES = {"TWL06": {"wolges": 803_645, "MAGPIE": 830_481}}

_LOAD = """
import json, sys, time
t0 = time.perf_counter()
import rackety
t1 = time.perf_counter()
lex = rackety.Lexicon.load(sys.argv[1])
t2 = time.perf_counter()
ok = "QI" in lex
print(json.dumps({"import": t1 - t0, "load": t2 - t1, "numba": "numba" in sys.modules}))
"""

_NOJIT = """
import json, sys, time
from rackety import Alphabet
from rackety.lexicon.build import build_kwg
from rackety.lexicon.sources import builtin, builtin_path
from rackety.lexicon.wordlist import parse_words
words = builtin_path(builtin(sys.argv[1])).read_text().split()[: int(sys.argv[2])]
wl = parse_words("\\n".join(words), Alphabet.load("english"))
t = time.process_time()
build_kwg(wl)
print(time.process_time() - t)
"""


def build_seconds(name: str, repeat: int) -> tuple[float, dict[str, float], int]:
    from rackety import Alphabet, Lexicon
    from rackety.lexicon.build import build_kwg
    from rackety.lexicon.sources import builtin, builtin_path
    from rackety.lexicon.wordlist import parse_bytes

    path = builtin_path(builtin(name))
    english = Alphabet.load("english")
    Lexicon.from_words(["QI", "ZA"])  # compile or load the kernels
    best, phases, nodes = float("inf"), {}, 0
    for _ in range(repeat):
        t0 = time.process_time()
        words = parse_bytes(path.read_bytes(), english, source=str(path))
        t1 = time.process_time()
        timings: dict[str, float] = {}
        built = build_kwg(words, timings=timings)
        total = time.process_time() - t0
        if total < best:
            best, nodes = total, len(built)
            phases = {"read + tokenize + sort": t1 - t0, **timings}
    return best, phases, nodes


def validate_seconds(name: str, repeat: int) -> float:
    from rackety import Lexicon
    from rackety.lexicon import kwg

    lexicon = Lexicon.load(name)
    kwg.validate(lexicon.nodes, name, lexicon.alphabet.size)  # compile or load the kernel
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        kwg.validate(lexicon.nodes, name, lexicon.alphabet.size)
        best = min(best, time.process_time() - t)
    return best


def load_in_fresh_process(name: str, cache: str) -> dict[str, float]:
    env = {**os.environ, "RACKETY_CACHE_DIR": cache}
    out = subprocess.run([sys.executable, "-c", _LOAD, name], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def nojit_ratio(name: str, n_words: int) -> tuple[float, float]:
    """CPU seconds to build the first ``n_words`` words compiled and interpreted."""
    times = []
    for disable in ("0", "1"):
        env = {**os.environ, "NUMBA_DISABLE_JIT": disable}
        out = subprocess.run([sys.executable, "-c", _NOJIT, name, str(n_words)], env=env,
                             check=True, capture_output=True, text=True).stdout
        times.append(float(out))
    return times[0], times[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("lexicons", nargs="*", default=["TWL06", "CSW19"])
    parser.add_argument("--repeat", type=int, default=3, help="builds per lexicon (best kept)")
    parser.add_argument("--nojit-words", type=int, default=5000,
                        help="words for the numba vs NUMBA_DISABLE_JIT=1 ratio (0: skip)")
    args = parser.parse_args()

    for name in args.lexicons:
        seconds, phases, nodes = build_seconds(name, args.repeat)
        checking = validate_seconds(name, args.repeat)
        with tempfile.TemporaryDirectory() as cache:
            cold = load_in_fresh_process(name, cache)
            warm = load_in_fresh_process(name, cache)
            from rackety import Lexicon

            kwg_path = os.path.join(cache, f"{name}.kwg")
            Lexicon.load(name).save(kwg_path)
            from_file = load_in_fresh_process(kwg_path, cache)
        print(f"{name}")
        print(f"  build (CPU, best of {args.repeat}) {seconds:8.3f} s")
        for phase, t in phases.items():
            print(f"    {phase:<26} {t:8.3f} s  {100 * t / seconds:5.1f} %")
        print(f"  nodes                    {nodes:>10,}")
        print(f"  bytes                    {4 * nodes:>10,}")
        for engine, count in REFERENCE_NODES.get(name, {}).items():
            print(f"    vs {engine:<8} {count:>10,} nodes: {nodes / count:6.3f}x")
        print(f"  cold-cache load          {cold['load']:8.3f} s  (compile + write cache; "
              f"import {cold['import']:.3f} s)")
        print(f"  warm-cache load          {1000 * warm['load']:8.1f} ms (read + checksum; "
              f"import {warm['import']:.3f} s; numba imported: {warm['numba']})")
        print(f"  KWG file load            {1000 * from_file['load']:8.1f} ms (read + validate, "
              f"numba imported: {from_file['numba']})")
        print(f"  validate (CPU, best of {args.repeat}) {1000 * checking:8.1f} ms "
              f"({1000 * checking / (nodes / 1e6):.1f} ms per million nodes)")
    if args.nojit_words:
        name = args.lexicons[0]
        jit, nojit = nojit_ratio(name, args.nojit_words)
        print(f"numba vs NUMBA_DISABLE_JIT=1, first {args.nojit_words:,} words of {name}: "
              f"{jit:.3f} s vs {nojit:.3f} s, {nojit / jit:.0f}x")


if __name__ == "__main__":
    main()
