"""The memory a command holds over time: run it for a while, sample the
resident memory of its process tree from /proc twice a second, then stop it
and print the peaks (issue 33, point 4: memory bounded whatever the counts).

    python bench/memory.py [--seconds 60] -- rackety autoplay --games 1000000000

Prints the main process's high-water mark (VmHWM), the largest sum over the
tree at one sample (the main process and its workers), and the tree's memory
every ten seconds, so that growth shows as a rising line. Linux only (/proc).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time


def _children(pid: int) -> list[int]:
    """Every descendant of ``pid``."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = [int(x) for x in f.read().split()]
    except OSError:
        return []
    return [d for k in kids for d in (k, *_children(k))]


def _kib(pid: int, field: str) -> int:
    """``field`` (VmRSS, VmHWM) of ``pid``'s status in KiB; 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key == field:
                    return int(value.split()[0])
    except (OSError, ValueError):
        pass
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to let it run")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command, after --")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command after --")
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True)
    start = time.monotonic()
    peak_tree, trace, main_hwm = 0, [], 0
    try:
        while time.monotonic() - start < args.seconds and process.poll() is None:
            tree = sum(_kib(p, "VmRSS") for p in (process.pid, *_children(process.pid)))
            peak_tree = max(peak_tree, tree)
            main_hwm = max(main_hwm, _kib(process.pid, "VmHWM"))
            trace.append((time.monotonic() - start, tree))
            time.sleep(0.5)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    error = (process.stderr.read() if process.stderr else b"").decode(errors="replace")
    print(f"{' '.join(command)}: {args.seconds:g} s")
    print(f"main process high-water mark: {main_hwm / 1024:,.0f} MB; process tree at its "
          f"largest: {peak_tree / 1024:,.0f} MB")
    shown = [(t, kib) for t, kib in trace if int(t) % 10 == 0]
    seen: set[int] = set()
    line = [f"{int(t)} s {kib / 1024:,.0f} MB" for t, kib in shown
            if not (int(t) in seen or seen.add(int(t)))]
    print("process tree:", ", ".join(line))
    if process.returncode not in (-signal.SIGKILL, 0) and error.strip():
        print("its last words:", error.strip().splitlines()[-1], file=sys.stderr)


if __name__ == "__main__":
    main()
