"""Bounded fuzz tests of the reader ``unicode`` (issue 33, points 6 and 7):
text in every Unicode form, wherever it becomes tiles (`fuzz_unicode`), keeps
the contract, and its NFC and NFD forms read the same. The long fuzz is
``python tools/fuzz.py --readers unicode``."""

from __future__ import annotations

import fuzz_unicode
import fuzzing
import pytest
from hypothesis import HealthCheck, given, settings

SETTINGS = {"deadline": None, "derandomize": True, "database": None,
            "suppress_health_check": list(HealthCheck)}
HOSTILE = {name: (payload, expect) for name, payload, expect in fuzz_unicode.hostile()}


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory, lexicon_cache) -> fuzzing.Context:
    return fuzzing.Context(tmp_path_factory.mktemp("fuzz-unicode"))


def _check(ctx: fuzzing.Context, payload: dict, expect: str | None) -> str:
    result = fuzzing.execute("unicode", payload, ctx, expect)
    assert result.ok, f"{result.describe()}\ninput: {fuzzing.describe_input(payload)}"
    assert result.outcome in ("accepted", "refused")
    return result.outcome


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_named_inputs(ctx, name):
    payload, expect = HOSTILE[name]
    outcome = _check(ctx, payload, expect)
    assert outcome == (expect or "accepted")


@settings(max_examples=250, **SETTINGS)
@given(case=fuzzing.strategy("unicode"))
def test_generated_inputs(ctx, case):
    payload, expect = case
    _check(ctx, payload, expect)


def test_every_target_and_alphabet_is_drawn():
    import random

    ch = fuzzing.RandomChooser(random.Random(7))
    drawn = [fuzz_unicode.generate(ch)[0] for _ in range(600)]
    assert {p["target"] for p in drawn} == set(fuzz_unicode.TARGETS)
    from rackety import Alphabet

    assert {p["alphabet"] for p in drawn} == set(Alphabet.names())


def test_the_invariant_catches_a_reader_that_does_not_compose(ctx, monkeypatch):
    """With composition taken out of the alphabet, the NFD form of a French
    word no longer reads as its NFC form: the reader says so."""
    import rackety.alphabet
    import rackety.game.board
    import rackety.game.move

    for module in (rackety.alphabet, rackety.game.board, rackety.game.move):
        monkeypatch.setattr(module, "normalize", lambda text: text)
    for target in ("word", "list", "move", "rack", "anagram", "pattern", "hooks"):
        text = {"move": "8H ÉTÉ", "pattern": "É?É"}.get(target, "ÉTÉ")
        payload = {"alphabet": "french", "target": target, "text": text}
        with pytest.raises(fuzzing.ContractError) as info:
            fuzz_unicode.run(payload, ctx)
        assert info.value.kind == "readback", (target, info.value)
    payload, _ = HOSTILE["french-ete-nfd-word"]
    with pytest.raises(fuzzing.ContractError) as info:
        fuzz_unicode.run(payload, ctx)
    assert info.value.kind == "expectation"
