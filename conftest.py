"""Shared fixtures for the tests and the doctests (README and package): a private
lexicon cache for the session, and the built-in lexicons."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="session", autouse=True)
def lexicon_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every test session starts with its own empty lexicon cache."""
    path = tmp_path_factory.mktemp("lexicon-cache")
    os.environ["RACKETY_CACHE_DIR"] = str(path)
    return path


@pytest.fixture(scope="session")
def twl06(lexicon_cache: Path) -> Any:
    from rackety import Lexicon

    return Lexicon.load("TWL06")


@pytest.fixture(scope="session")
def twl06_words(twl06: Any) -> list[str]:
    from rackety.lexicon.sources import builtin, builtin_path

    path = builtin_path(builtin("TWL06"))
    return [w.strip().upper() for w in path.read_text().split()]
