"""Shared fixtures for the tests and the doctests (README and package): the
lexicon cache of the tests, and the built-in lexicons."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (the README's test command): one worker more than the
    cores this process may use. Many tests wait on processes they start (UCGI
    engines, web servers, a browser, sandboxes), and a core would idle
    meanwhile (the measure is in ``docs/BENCHMARKS.md``, "The test suite")."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return (cores or os.cpu_count() or 1) + 1


@pytest.fixture(scope="session", autouse=True)
def lexicon_cache() -> Path:
    """The tests' lexicon cache, one per machine, shared by every session and
    worker process: each lexicon is built once (an entry is keyed by its word
    list's content, alphabet and builder, checked against its checksum when
    read, and written atomically, so sharing is safe), and kept apart from
    the user's own cache. ``$RACKETY_TEST_CACHE`` moves it; a test that needs
    an empty cache makes its own."""
    import platformdirs

    path = Path(os.environ.get("RACKETY_TEST_CACHE")
                or Path(platformdirs.user_cache_dir("rackety")) / "test-lexica")
    path.mkdir(parents=True, exist_ok=True)
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
