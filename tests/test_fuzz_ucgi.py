"""Bounded fuzz tests of UCGI both ways (issue 33, points 3 and 7; the readers
are ``tests/fuzz_ucgi.py``, the engine ``rackety ucgi`` given hostile sessions,
and ``tests/fuzz_ucgi_client.py``, a ``ucgi:`` player against hostile
engines). Each input runs in a worker process (`fuzzing.Sandbox`), so a hang
fails one test. Timing is part of the contract here: bestmoves soon after
stop, the engine gone soon after the end of its input or output, the client's
answer within its timeouts. The named hostile inputs are in the regression
corpus (``tests/data/fuzz/ucgi/``, ``tests/data/fuzz/ucgi_client/``, replayed
by ``tests/test_fuzz.py``); the long fuzz is ``python tools/fuzz.py --readers
ucgi,ucgi_client``."""

from __future__ import annotations

from pathlib import Path

import fuzz_ucgi
import fuzz_ucgi_client
import fuzzing
import pytest
from hypothesis import HealthCheck, given, settings

SETTINGS = {"deadline": None, "derandomize": True, "database": None,
            "suppress_health_check": list(HealthCheck)}


@pytest.fixture(scope="module")
def sandbox(lexicon_cache: Path):
    fuzz_ucgi.warm()  # the kernels compiled here, once, not under the worker's timeout
    with fuzzing.Sandbox(timeout=60) as box:
        yield box


def _run(sandbox: fuzzing.Sandbox, reader: str, payload: dict, expect: str | None) -> str:
    result = sandbox.run(reader, payload, expect)
    assert result.ok, f"{result.describe()}\ninput: {fuzzing.describe_input(payload)}"
    assert result.outcome in ("accepted", "refused")
    return result.outcome


@settings(max_examples=12, **SETTINGS)
@given(case=fuzzing.strategy("ucgi"))
def test_ucgi_engine_sessions(sandbox: fuzzing.Sandbox, case: tuple) -> None:
    _run(sandbox, "ucgi", *case)


@settings(max_examples=25, **SETTINGS)
@given(case=fuzzing.strategy("ucgi_client"))
def test_ucgi_client_engines(sandbox: fuzzing.Sandbox, case: tuple) -> None:
    _run(sandbox, "ucgi_client", *case)


@pytest.mark.parametrize("name", ["best-86400-stop", "movetime-huge-closed",
                                  "searchmoves-1mib", "stop-position-go"])
def test_the_engine_s_failures_of_issue_33(sandbox: fuzzing.Sandbox, name: str) -> None:
    """A stop that changed nothing, a closed output that did not end the
    search, 175,000 error lines, a go never answered after a stop."""
    (payload, expect), = [(p, e) for n, p, e in fuzz_ucgi.hostile() if n == name]
    _run(sandbox, "ucgi", payload, expect)


@pytest.mark.parametrize("name", ["endless-line-at-go", "endless-line-on-stderr",
                                  "chatter-no-bestmove", "good"])
def test_the_client_s_failures_of_issue_33(sandbox: fuzzing.Sandbox, name: str) -> None:
    """An endless line (4.4 GB and 61 s before), a silent or chattering engine."""
    (payload, expect), = [(p, e) for n, p, e in fuzz_ucgi_client.hostile() if n == name]
    assert _run(sandbox, "ucgi_client", payload, expect) == ("accepted" if name == "good"
                                                              else "refused")


def test_the_references_of_the_checks() -> None:
    """`fuzz_ucgi.commands`, the commands a session sends as the protocol reads
    them, on small cases worked out by hand."""
    data = b"go\nxyzzy GO movetime 5\n\xff go\n" + b"go " * (1 << 19) + b"\nisready\nquit\ngo\n"
    assert fuzz_ucgi.commands(data) == ["go", "go", "go", "isready", "quit"]
    assert fuzz_ucgi.commands(b"stop\r\n\t\n\x85go\n" + "\u2028go".encode() + b"\n") == \
        ["stop", "go"]  # an invalid byte is a character, not a space; U+2028 is a space
    names = [name for name, _, _ in fuzz_ucgi.hostile() + fuzz_ucgi_client.hostile()]
    assert len(names) == len(set(names))
