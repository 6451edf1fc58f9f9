"""Start-up, as a new user meets it (docs/BENCHMARKS.md, "Start-up"), all in
one run, each command in a new process with new empty user caches
(``RACKETY_CACHE_DIR`` and ``NUMBA_CACHE_DIR``):

1. a time budget on a cold start: ``rackety sim --seconds S`` with no kernel
   compiled (a new ``RACKETY_KERNEL_CACHE``), then again warm: the rollouts of
   each (the cold one should do at least half the warm one's);
2. ``rackety compile`` into another new kernel folder: wall and CPU seconds
   (its processes included), and the folder's size;
3. then each command's first run: CPU seconds (user + system, its processes
   included) and wall seconds; ``serve`` is timed to its first answer over HTTP.

    python bench/startup.py [--seconds 5] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from rackety.frontends.compile import ENDGAME, MIDGAME, OPENING, PEG


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _env(kernels: Path, tmp: Path) -> dict[str, str]:
    user = Path(tempfile.mkdtemp(dir=tmp))
    return {**os.environ, "RACKETY_KERNEL_CACHE": str(kernels),
            "RACKETY_CACHE_DIR": str(user / "lexica"), "NUMBA_CACHE_DIR": str(user / "numba")}


def _run(args: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    cpu, wall = _cpu(), time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "rackety", *args], capture_output=True,
                         text=True, env=env, stdin=subprocess.DEVNULL, check=False)
    if run.returncode:
        raise SystemExit(f"rackety {' '.join(args[:1])}: exit {run.returncode}: "
                         f"{run.stderr.strip()[-300:]}")
    return _cpu() - cpu, time.perf_counter() - wall, run.stdout


def _serve(env: dict[str, str], tmp: Path) -> tuple[float, float]:
    """Seconds from starting ``rackety serve`` to its first answer."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cpu, wall = _cpu(), time.perf_counter()
    server = subprocess.Popen([sys.executable, "-m", "rackety", "serve", "--port", str(port),
                               "--db", str(tmp / "bench.sqlite")], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                time.sleep(0.05)
            if time.perf_counter() - wall > 120:
                raise SystemExit("serve: no answer in 120 s")
        seconds = time.perf_counter() - wall
    finally:
        server.terminate()
        server.wait()
    return _cpu() - cpu, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="the sim's budget")
    parser.add_argument("--json", dest="json_path", default=None)
    args = parser.parse_args()
    out: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="rackety-startup-") as name:
        tmp = Path(name)
        cold_kernels = tmp / "cold"
        sim = ["sim", "--cgp", MIDGAME, "--seconds", str(args.seconds), "--jobs", "1",
               "--no-drop", "--json"]
        rollouts = []
        for label in ("cold", "warm"):
            cpu, wall, text = _run(sim, _env(cold_kernels, tmp))
            rollouts.append(max(c["rollouts"] for c in json.loads(text)["candidates"]))
            print(f"sim --seconds {args.seconds:g}, {label}: {rollouts[-1]} rollouts a "
                  f"candidate, {wall:.1f} s wall, {cpu:.1f} s CPU", flush=True)
        out["sim_cold_warm"] = rollouts
        kernels = tmp / "kernels"
        cpu, wall, text = _run(["compile"], _env(kernels, tmp))
        size = sum(p.stat().st_size for p in kernels.rglob("*") if p.is_file())
        print(f"rackety compile: {wall:.0f} s wall, {cpu:.0f} s CPU, {size / 1e6:.0f} MB",
              flush=True)
        out["compile"] = {"wall": wall, "cpu": cpu, "bytes": size}
        commands = {
            "moves": ["moves", "--cgp", OPENING],
            "sim": ["sim", "--cgp", MIDGAME, "--iterations", "100"],
            "endgame": ["endgame", "--cgp", ENDGAME, "--seconds", "1"],
            "preendgame": ["preendgame", "--cgp", PEG, "--seconds", "2"],
            "autoplay": ["autoplay", "--games", "2"],
            "play": ["play", "--opponent", "static"],
        }
        for label, command in commands.items():
            cpu, wall, _ = _run(command, _env(kernels, tmp))
            out[label] = {"cpu": cpu, "wall": wall}
            print(f"first {label}: {cpu:.2f} s CPU, {wall:.2f} s wall", flush=True)
        cpu, wall = _serve(_env(kernels, tmp), tmp)
        out["serve"] = {"cpu": cpu, "wall": wall}
        print(f"serve, to its first answer: {wall:.2f} s wall ({cpu:.2f} s CPU until stopped)")
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
