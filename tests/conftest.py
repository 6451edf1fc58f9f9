"""Shared fixtures: a private lexicon cache for the session, and the built-in
lexicons (compiled once per session)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Every test run starts with its own empty lexicon cache, before rackety is used.
_CACHE = Path(os.environ.get("RACKETY_TEST_CACHE", "")) if os.environ.get(
    "RACKETY_TEST_CACHE") else None


@pytest.fixture(scope="session", autouse=True)
def lexicon_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = _CACHE or tmp_path_factory.mktemp("lexicon-cache")
    os.environ["RACKETY_CACHE_DIR"] = str(path)
    return path


@pytest.fixture(scope="session")
def twl06(lexicon_cache):
    from rackety import Lexicon

    return Lexicon.load("TWL06")


@pytest.fixture(scope="session")
def twl06_words(twl06) -> list[str]:
    from rackety.lexicon.sources import builtin, builtin_path

    path = builtin_path(builtin("TWL06"))
    return [w.strip().upper() for w in path.read_text().split()]
