"""Hostile input to `bench/leave_disagreements.py fit`: its reader of
``collect``'s lines accepts what ``collect`` writes and refuses anything else
in one line naming the file and line, and what it accepts the features take
without error."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rackety import Alphabet

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("leave_disagreements",
                                               ROOT / "bench" / "leave_disagreements.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

ENGLISH = Alphabet.load("english")
GOOD = {"bag": 36, "rack": [25, 14, 6, 16, 22, 0, 7], "a": "5I GYP(S)", "b": "9A GYV(E)",
        "sa": 20, "sb": 15, "la": [0, 6, 14, 22], "lb": [0, 6, 14, 16], "ea": 31.2,
        "eb": 32.9, "d": 3.47, "dse": 15.5, "w": 0.0156, "wse": 0.1}
SETTINGS = {"deadline": None, "derandomize": True, "database": None,
            "suppress_health_check": list(HealthCheck)}

values = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20),
                   st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=5),
                   st.lists(st.integers(-3, 70), max_size=12),
                   st.lists(st.floats(), max_size=3), st.dictionaries(st.text(max_size=3),
                                                                     st.integers(), max_size=2))


def _check(path: Path, text: bytes) -> None:
    path.write_bytes(text)
    try:
        records = bench.read_records(path, ENGLISH)
    except SystemExit as exc:
        message = str(exc.code)
        assert message.startswith(str(path)) and "\n" not in message and len(message) < 300
        return
    for r in records:
        for k in ("la", "lb"):
            assert len(r[k]) < ENGLISH.rack_size
        vowels = np.array([t.code for t in ENGLISH.tiles if t.vowel], np.int64)
        x = bench.features([r["la"], r["lb"]], ENGLISH.size, ENGLISH.rack_size, vowels, True)
        assert np.isfinite(x).all()


def test_what_collect_writes_is_read_back(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps(GOOD) + "\n\n" + json.dumps(GOOD) + "\n")
    assert bench.read_records(path, ENGLISH) == [GOOD, GOOD]


@pytest.mark.parametrize("text", [b"\xff\xfe", b"[" * 100_000, b'{"la": [1]}',
                                  json.dumps({**GOOD, "la": list(range(1, 8))}).encode(),
                                  json.dumps({**GOOD, "d": float("nan")}).encode(),
                                  json.dumps({**GOOD, "lb": [27]}).encode()])
def test_bad_lines_are_refused_in_one_line(tmp_path: Path, text: bytes) -> None:
    path = tmp_path / "d.jsonl"
    path.write_bytes(text)
    with pytest.raises(SystemExit) as refused:
        bench.read_records(path, ENGLISH)
    message = str(refused.value.code)
    assert message.startswith(str(path)) and "\n" not in message


@settings(max_examples=300, **SETTINGS)
@given(field=st.sampled_from(sorted(GOOD)), value=values)
def test_a_mutated_field_is_read_or_refused(tmp_path_factory: pytest.TempPathFactory,
                                            field: str, value: object) -> None:
    path = tmp_path_factory.mktemp("d") / "d.jsonl"
    _check(path, json.dumps({**GOOD, field: value}).encode())


@settings(max_examples=200, **SETTINGS)
@given(text=st.binary(max_size=400))
def test_any_bytes_are_read_or_refused(tmp_path_factory: pytest.TempPathFactory,
                                       text: bytes) -> None:
    _check(tmp_path_factory.mktemp("d") / "d.jsonl", text)
