"""The speed guard's logic (`bench/core.py --check`, docs/BENCHMARKS.md), not
its timings: which way is worse for each measure, and a baseline it cannot
read or a commit the repository does not have refused with exit 2 before
anything runs."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("bench_core", ROOT / "bench" / "core.py")
assert spec is not None and spec.loader is not None
core = importlib.util.module_from_spec(spec)
spec.loader.exec_module(core)


@pytest.mark.parametrize(("higher", "before", "after", "expected"),
                         [(True, 100.0, 90.0, 100 / 90 - 1), (True, 100.0, 110.0, 100 / 110 - 1),
                          (False, 100.0, 106.0, 0.06), (False, 100.0, 95.0, -0.05)])
def test_worse_reads_each_measure_its_own_way(higher: bool, before: float, after: float,
                                              expected: float) -> None:
    assert core.worse(higher, before, after) == pytest.approx(expected)


def test_the_shipped_baseline_names_a_commit_and_a_tolerance() -> None:
    baseline = json.loads((ROOT / "bench" / "baseline.json").read_text())
    assert len(baseline["commit"]) == 40 and 0 < baseline["tolerance"] <= 0.05


@pytest.mark.parametrize("text", ["not json", '{"tolerance": 0.05}', '{"commit": "nope"}',
                                  '{"commit": "0000000000000000000000000000000000000000"}'])
def test_a_bad_baseline_is_refused_before_timing(tmp_path: Path, text: str) -> None:
    path = tmp_path / "baseline.json"
    path.write_text(text)
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "core.py"), "--check", str(path),
                           "--only", "greedy"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "measure" not in done.stdout and len(done.stderr.strip().splitlines()) == 1
