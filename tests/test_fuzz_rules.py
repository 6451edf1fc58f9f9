"""Bounded fuzz tests of the rules' readers (issue 34; the reader is
``tests/fuzz_rules.py``): a CGP's rules operations (``cr``, ``bb``, ``etl``,
``mcnz``, ``var``) read by `Rules.from_options` and `Board.from_cgp`, and a GCG
record's variant note and play-out rule read by `record_rules`, `replay` and
`game_of`. Every input is read with the values a plain reference parser gives,
or refused in one short line naming the operation or the record's line; what
is read writes back the same. The named hostile inputs are in the regression
corpus (``tests/data/fuzz/rules/``, replayed by ``tests/test_fuzz.py``); the long
fuzz is ``python tools/fuzz.py --readers rules``."""

from __future__ import annotations

import random
from pathlib import Path

import fuzz_rules
import fuzzing
import pytest
from hypothesis import HealthCheck, given, settings

SETTINGS = {"deadline": None, "derandomize": True, "database": None,
            "suppress_health_check": list(HealthCheck)}


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory, lexicon_cache: Path) -> fuzzing.Context:
    return fuzzing.Context(tmp_path_factory.mktemp("fuzz-rules"))


@settings(max_examples=200, **SETTINGS)
@given(case=fuzzing.strategy("rules"))
def test_rules_readers(ctx: fuzzing.Context, case: tuple) -> None:
    result = fuzzing.execute("rules", *case[:1], ctx, case[1])
    assert result.ok, f"{result.describe()}\ninput: {fuzzing.describe_input(case[0])}"
    assert result.outcome in ("accepted", "refused")


def test_every_target_is_drawn() -> None:
    chooser = fuzzing.RandomChooser(random.Random(7))
    drawn = [fuzz_rules.generate(chooser)[0] for _ in range(300)]
    assert {payload["target"] for payload in drawn} == set(fuzz_rules.TARGETS)
