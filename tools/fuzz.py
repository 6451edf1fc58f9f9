#!/usr/bin/env python3
"""The long fuzz of issue 12 ("Hostile input"), run by hand outside CI.

    python tools/fuzz.py --per-reader 20000 --seed 1 [--save-failures]
        [--readers cgp,gcg,kwg,klv,words,moves,http,cli] [--timeout 20] [--workers 2]

For each reader it makes N inputs (the named hostile inputs of
``tests/fuzzing.py`` first, then mutations of real seeds and of the hostile
inputs, and for KWG random graphs) and runs them in worker processes
(`fuzzing.Sandbox`, 2 at most: the machine has 2 cores). A worker answers one
input at a time and stays up, so thousands of inputs cost one start; when it is
killed by a signal (a crash) or does not answer in time (a hang), the input it
was running is the culprit, and it is run again alone in a fresh worker to
confirm it. CLI inputs also run, a sample of them, as real ``rackety``
subprocesses. Every worker and subprocess has its own ``RACKETY_CACHE_DIR`` in a
temporary folder: the user's cache is never touched.

It prints, per reader and in total, what it tried, refused and accepted, and
every crash, hang, other exception (or traceback, 5xx, exit 70), overlong or
multi-line error, input that did not read back, and hostile input accepted
where it must be refused; then each kind of failure once, with its smallest
input and where it was raised. ``--save-failures`` writes the smallest inputs
of each kind into ``tests/data/fuzz/<reader>/``; ``--write-hostile`` writes
every named hostile input there.
"""

from __future__ import annotations

import argparse
import os
import queue
import random
import re
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import fuzzing  # noqa: E402

COLUMNS = ("tried", "refused", "accepted", "crash", "hang", "exception", "overlong",
           "readback", "expectation", "harness")
_PRINT = threading.Lock()


def log(message: str) -> None:
    with _PRINT:
        print(message, file=sys.stderr, flush=True)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--per-reader", type=int, default=2000, metavar="N",
                        help="inputs per reader (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the generators")
    parser.add_argument("--readers", default=",".join(fuzzing.READERS),
                        help="comma-separated readers (default: all)")
    parser.add_argument("--save-failures", action="store_true",
                        help="write failing inputs into tests/data/fuzz/<reader>/")
    parser.add_argument("--save-limit", type=int, default=2, metavar="K",
                        help="smallest inputs saved per kind of failure (default 2; 0: all)")
    parser.add_argument("--timeout", type=float, default=20.0,
                        help="seconds an input may take before it is a hang (default 20)")
    parser.add_argument("--workers", type=int, default=2, choices=(1, 2),
                        help="worker processes (default 2)")
    parser.add_argument("--subprocess-cli", type=int, default=20, metavar="K",
                        help="CLI inputs also run as real rackety subprocesses (default 20)")
    parser.add_argument("--no-shared", action="store_true",
                        help="do not use ../shared/corpus/gcg as GCG seeds")
    parser.add_argument("--write-hostile", action="store_true",
                        help="write every named hostile input into the corpus, then exit")
    args = parser.parse_args(argv)
    args.readers = [r.strip() for r in args.readers.split(",") if r.strip()]
    unknown = set(args.readers) - set(fuzzing.READERS)
    if unknown:
        parser.error(f"unknown readers {sorted(unknown)}; readers: {', '.join(fuzzing.READERS)}")
    return args


# ------------------------------------------------------------------- inputs
def make_cases(reader: str, n: int, seed: int, shared: bool) -> list[tuple[str, object, object]]:
    """(origin, payload, expectation) for ``reader``: the hostile inputs, the
    shared GCG records as they are, then generated inputs up to ``n``."""
    ch = fuzzing.RandomChooser(random.Random(f"{seed}:{reader}"))
    cases: list[tuple[str, object, object]] = [
        (f"hostile {name}", payload, expect) for name, payload, expect in fuzzing.hostile(reader)]
    if reader == "kwg":
        cases += [(f"stress {name}", data, None) for name, data in fuzzing.stress_kwgs().items()]
    if reader == "gcg" and shared:
        cases += [("shared record", data, None) for data in fuzzing.gcg_seeds(shared=True)]
    while len(cases) < n:
        payload, expect = fuzzing.generate(reader, ch)
        cases.append(("generated", payload, expect))
    return cases[:n]


def size_of(payload: object) -> int:
    return len(fuzzing.describe_input(payload)) if not isinstance(payload, bytes | str) \
        else len(payload)


# ---------------------------------------------------------------------- run
class Tally:
    """Counts and failures of one reader."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.failures: dict[tuple[str, str, str], list[tuple[int, str, object, object, str]]] = \
            defaultdict(list)

    def add(self, result: fuzzing.Result, origin: str, payload: object, expect: object) -> None:
        self.counts["tried"] += 1
        if result.ok:
            self.counts[result.outcome] += 1
            return
        self.counts[result.kind] += 1
        self.failures[result.signature()].append(
            (size_of(payload), origin, payload, expect, result.describe()))


def run_reader(reader: str, cases: list, args: argparse.Namespace,
               boxes: list[fuzzing.Sandbox]) -> Tally:
    tally = Tally()
    work: queue.Queue = queue.Queue()
    for item in cases:
        work.put(item)
    lock = threading.Lock()
    done = [0]
    started = time.perf_counter()
    last = [started]

    def worker(box: fuzzing.Sandbox) -> None:
        while True:
            try:
                origin, payload, expect = work.get_nowait()
            except queue.Empty:
                return
            result = box.run(reader, payload, expect)
            if result.kind in ("crash", "hang"):
                again = box.run(reader, payload, expect)  # alone, in a fresh worker
                if again.kind != result.kind:
                    result.detail += f" (alone in a fresh worker: {again.outcome} " \
                                     f"{again.kind}; an earlier input may be involved)"
            with lock:
                tally.add(result, origin, payload, expect)
                done[0] += 1
                now = time.perf_counter()
                if now - last[0] > 5 or done[0] == len(cases):
                    last[0] = now
                    bad = sum(tally.counts[k] for k in COLUMNS[3:])
                    log(f"  {reader}: {done[0]}/{len(cases)} in {now - started:.0f} s, "
                        f"{bad} failing")

    threads = [threading.Thread(target=worker, args=(box,)) for box in boxes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return tally


def run_cli_subprocesses(cases: list, args: argparse.Namespace, tally: Tally) -> None:
    """A sample of CLI inputs as real ``rackety`` processes (exit status,
    signals, the output a user sees)."""
    picked = [c for c in cases if c[0].startswith("hostile")][: args.subprocess_cli]
    picked += [c for c in cases if not c[0].startswith("hostile")][
        : max(0, args.subprocess_cli - len(picked))]
    if not picked:
        return
    log(f"  cli: {len(picked)} inputs as rackety subprocesses")
    tmp = Path(tempfile.mkdtemp(prefix="rackety-fuzz-cli-"))
    lock = threading.Lock()
    work: queue.Queue = queue.Queue()
    for item in picked:
        work.put(item)

    def worker(index: int) -> None:
        ctx = fuzzing.Context(tmp / f"w{index}")
        while True:
            try:
                origin, payload, expect = work.get_nowait()
            except queue.Empty:
                return
            case = dict(payload) if isinstance(payload, dict) else payload
            if expect and isinstance(case, dict):
                case["expect"] = expect
            start = time.perf_counter()
            try:  # RACKETY_CACHE_DIR is the fuzz's own (main sets it)
                outcome = fuzzing.run_cli(case, ctx, subprocess_run=True,
                                          timeout=args.timeout * 3)
                result = fuzzing.Result(outcome, seconds=time.perf_counter() - start)
            except fuzzing.ContractError as failure:
                result = fuzzing.Result("failure", failure.kind, failure.detail, failure.where,
                                        failure.exc_type)
            with lock:
                tally.add(result, f"subprocess {origin}", payload, expect)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(args.workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    shutil.rmtree(tmp, ignore_errors=True)


# ------------------------------------------------------------------- report
def print_table(tallies: dict[str, Tally]) -> None:
    widths = [8] + [max(len(c), 7) for c in COLUMNS]
    header = "reader".ljust(widths[0]) + " ".join(c.rjust(w) for c, w in
                                                  zip(COLUMNS, widths[1:], strict=True))
    print(header)
    total: Counter[str] = Counter()
    for reader, tally in tallies.items():
        total.update(tally.counts)
        print(reader.ljust(widths[0]) + " ".join(
            str(tally.counts[c]).rjust(w) for c, w in zip(COLUMNS, widths[1:], strict=True)))
    print("total".ljust(widths[0]) + " ".join(
        str(total[c]).rjust(w) for c, w in zip(COLUMNS, widths[1:], strict=True)))


def print_failures(tallies: dict[str, Tally]) -> None:
    for reader, tally in tallies.items():
        for signature, items in sorted(tally.failures.items(), key=lambda kv: -len(kv[1])):
            items.sort(key=lambda item: item[0])
            _, origin, payload, _, detail = items[0]
            kind, exc_type, where = signature
            print(f"\n[{reader}] {kind} x{len(items)}" + (f" {exc_type}" if exc_type else "")
                  + (f" at {where}" if where else ""))
            print(f"  smallest input ({origin}): {fuzzing.describe_input(payload)}")
            print(f"  {fuzzing.clip(detail, 400)}")


def save_failures(tallies: dict[str, Tally], limit: int) -> list[Path]:
    """The smallest failing inputs of each kind into the corpus; not the ones
    it holds already, nor the stress inputs (accepted by design, costly to use)."""
    saved = []
    known = {fuzzing.fingerprint(fuzzing.load_case(p)[1]) for p in fuzzing.corpus_files()}
    for reader, tally in tallies.items():
        for (kind, exc_type, where), items in tally.failures.items():
            seen = set()
            for _, origin, payload, expect, _ in sorted(items, key=lambda item: item[0]):
                key = fuzzing.fingerprint(payload)
                if key in seen or key in known or origin.startswith("stress"):
                    continue
                seen.add(key)
                if origin.startswith(("hostile ", "subprocess hostile ")):
                    name = origin.split(" ")[-1]
                else:
                    place = re.sub(r"[^A-Za-z0-9]+", "-", where.split(" ")[0]).strip("-")
                    name = "-".join(x for x in ("found", kind, exc_type, place, key) if x)
                path = fuzzing.save_case(reader, name, payload,
                                         expect if isinstance(expect, str) else None)
                if path is not None:
                    saved.append(path)
                if limit and len(seen) >= limit:
                    break
    return saved


def write_hostile(readers: list[str]) -> None:
    written = 0
    for reader in readers:
        for name, payload, expect in fuzzing.hostile(reader):
            if fuzzing.save_case(reader, name, payload, expect) is not None:
                written += 1
    log(f"wrote {written} hostile inputs into {fuzzing.CORPUS}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    for stream in (sys.stdout, sys.stderr):  # inputs hold lone surrogates
        stream.reconfigure(errors="backslashreplace")
    cache = tempfile.mkdtemp(prefix="rackety-fuzz-cache-")
    os.environ["RACKETY_CACHE_DIR"] = cache  # never the user's cache
    try:
        return run(args)
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def run(args: argparse.Namespace) -> int:
    if args.write_hostile:
        write_hostile(args.readers)
        return 0
    shared = not args.no_shared and fuzzing.SHARED_GCG.is_dir()
    started = time.perf_counter()
    tallies: dict[str, Tally] = {}
    boxes = [fuzzing.Sandbox(timeout=args.timeout) for _ in range(args.workers)]
    try:
        for reader in args.readers:
            t0 = time.perf_counter()
            log(f"{reader}: making {args.per_reader} inputs (seed {args.seed})")
            cases = make_cases(reader, args.per_reader, args.seed, shared)
            tallies[reader] = run_reader(reader, cases, args, boxes)
            if reader == "cli" and args.subprocess_cli:
                run_cli_subprocesses(cases, args, tallies[reader])
            log(f"{reader}: done in {time.perf_counter() - t0:.0f} s")
    finally:
        for box in boxes:
            box.close()
    print(f"rackety fuzz: seed {args.seed}, {args.per_reader} inputs per reader, "
          f"{time.perf_counter() - started:.0f} s")
    print_table(tallies)
    print_failures(tallies)
    if args.save_failures:
        saved = save_failures(tallies, args.save_limit)
        print(f"\nsaved {len(saved)} failing inputs:")
        for path in saved:
            print(f"  {path.relative_to(ROOT)}")
    failing = sum(t.counts[k] for t in tallies.values() for k in COLUMNS[3:])
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
