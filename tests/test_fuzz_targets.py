"""Bounded fuzz tests of the output paths (issue 33, point 2): every writer
against symbolic links, FIFOs, folders, devices, odd and empty names, through
the reader ``targets`` (`fuzz_targets`), in a `fuzzing.Sandbox` (a writer that
regressed could wait on a FIFO for ever). Every named kind of target is tried
once with every writer; hypothesis draws more, with mutated names."""

from __future__ import annotations

from pathlib import Path

import fuzz_targets
import fuzzing
import pytest
from hypothesis import HealthCheck, given, settings

SETTINGS = {"deadline": None, "derandomize": True, "database": None,
            "suppress_health_check": list(HealthCheck)}


@pytest.fixture(scope="module")
def sandbox(lexicon_cache: Path):
    with fuzzing.Sandbox(timeout=30) as box:  # the slowest good input (training) takes 2 s
        yield box


def _check(sandbox: fuzzing.Sandbox, payload: dict, expect: str | None) -> str:
    result = sandbox.run("targets", payload, expect)
    assert result.ok, f"{result.describe()}\ninput: {fuzzing.describe_input(payload)}"
    assert result.outcome in ("accepted", "refused")
    return result.outcome


#: one writer a kind: every kind, cheaply (the writers take turns)
_KINDS = [(kind, list(fuzz_targets.WRITERS)[i % 7]) for i, kind in
          enumerate(fuzz_targets.KINDS)]


@pytest.mark.parametrize(("kind", "writer"), _KINDS)
def test_every_kind_of_target(sandbox, kind: str, writer: str) -> None:
    payload = {"writer": writer, "target": kind, "name": "out",
               "inside": writer == "autoplay --gcg-dir" and kind in fuzz_targets.INSIDE}
    if not fuzz_targets.runnable(payload):
        payload["writer"] = "write_atomic"
    outcome = _check(sandbox, payload, fuzz_targets.expected(payload))
    if kind in ("symlink", "dangling", "fifo", "dev-null", "regular", "absent"):
        assert outcome == "accepted", (kind, writer)


@pytest.mark.parametrize("writer", sorted(fuzz_targets.WRITERS))
def test_every_writer_refuses_what_it_must(sandbox, writer: str) -> None:
    """A FIFO no one reads, a loop of links, an empty name: one line each."""
    for kind in ("fifo-no-reader", "loop", "empty"):
        payload = {"writer": writer, "target": kind, "name": "out",
                   "inside": writer == "autoplay --gcg-dir" and kind != "empty"}
        assert _check(sandbox, payload, "refused") == "refused"


@settings(max_examples=150, **SETTINGS)
@given(case=fuzzing.strategy("targets"))
def test_targets(sandbox, case) -> None:
    _check(sandbox, *case)
