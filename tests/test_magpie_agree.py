"""The quick check of `bench/vs_magpie.py` that runs without MAGPIE (issue 35,
point 4): rackety's placement counts, exchanges, passes and best scores (all
moves) and best equities (the shipped TWL06 leaves, which are MAGPIE's
TWL06rk) on the first 20 midgame positions of TWL06 and CSW19 of `bench/data`,
against the figures MAGPIE printed for them (``vs_magpie.py store``)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.fixture(scope="module")
def vs_magpie():
    spec = importlib.util.spec_from_file_location("vs_magpie", BENCH / "vs_magpie.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rackety_agrees_with_magpies_stored_figures(vs_magpie):
    data = json.loads(vs_magpie.AGREE.read_text())
    assert data["positions"] == 20
    assert all(len(data["runs"][lex][mode]) == 20 for lex in ("TWL06", "CSW19")
               for mode in ("all", "best"))
    assert vs_magpie.agree() == []


def test_a_difference_is_named(vs_magpie, tmp_path, monkeypatch):
    data = json.loads(vs_magpie.AGREE.read_text())
    data["runs"]["CSW19"]["all"][3][0] += 1  # one placement more
    data["runs"]["TWL06"]["best"][7] += 0.5
    changed = tmp_path / "agree.json"
    changed.write_text(json.dumps(data))
    monkeypatch.setattr(vs_magpie, "AGREE", changed)
    wrong = vs_magpie.agree()
    assert len(wrong) == 2
    assert wrong[0].startswith("TWL06 position 7: best equity")
    assert wrong[1].startswith("CSW19 position 3: placements")
