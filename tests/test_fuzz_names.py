"""Bounded fuzz tests of the names the web app takes (issue 33, points 1 and 7;
the reader is ``tests/fuzz_names.py``): people's names, a record's players,
``play_as``, opponents' levels and old stores, hostile, and after each request
a game against every computer level still starts with that level in a
computer seat. The named hostile inputs are in the regression corpus
(``tests/data/fuzz/names/``, replayed by ``tests/test_fuzz.py``); the long fuzz
is ``python tools/fuzz.py --readers names``."""

from __future__ import annotations

from pathlib import Path

import fuzz_names
import fuzzing
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SETTINGS = {"deadline": None, "derandomize": True, "database": None,
            "suppress_health_check": list(HealthCheck)}


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory, lexicon_cache: Path) -> fuzzing.Context:
    return fuzzing.Context(tmp_path_factory.mktemp("fuzz-names"))


def _run(ctx: fuzzing.Context, payload: dict, expect: str | None) -> str:
    result = fuzzing.execute("names", payload, ctx, expect)
    assert result.ok, f"{result.describe()}\ninput: {fuzzing.describe_input(payload)}"
    assert result.outcome in ("accepted", "refused")
    return result.outcome


@settings(max_examples=20, **SETTINGS)
@given(case=fuzzing.strategy("names"))
def test_names(ctx: fuzzing.Context, case: tuple) -> None:
    _run(ctx, *case)


@settings(max_examples=10, **SETTINGS)
@given(data=st.data())
def test_every_spelling_of_a_level_s_name(ctx: fuzzing.Context, data: st.DataObject) -> None:
    """A level's name however it is spelt (case, full-width or bold letters,
    invisible characters, odd spaces): no person takes it, and as a record's
    player (to view, or beside the person going on with it) it takes no seat
    from the level: every level plays after it."""
    ch = fuzzing.DrawChooser(data.draw)
    base = ch.choice(fuzz_names.LEVEL_NAMES)
    name = fuzz_names.level_variant(base, ch)
    assert fuzz_names.name_key(name) == fuzz_names.name_key(base)
    assert fuzz_names.reads_as_level(name)
    assert _run(ctx, fuzz_names.person_case(name, ch.choice(fuzz_names.LEVELS)[0]),
                "refused") == "refused"
    _run(ctx, fuzz_names.record_case([name, "Ann"]), None)
    _run(ctx, {**fuzz_names.record_case(["Ann", name], play_as="p1", opponents=["h3"]),
               "before": ["h3", "best"]}, None)


def test_the_hostile_inputs_are_named_and_json() -> None:
    cases = fuzz_names.hostile()
    assert len({name for name, _, _ in cases}) == len(cases)
    forms = {payload["form"] for _, payload, _ in cases}
    assert forms == {"person", "record", "opponent", "old_store"}
    for _name, payload, expect in cases:
        assert expect in (None, "refused")
        if payload["form"] == "person" and fuzz_names.reads_as_level(payload["name"]):
            assert expect == "refused"
