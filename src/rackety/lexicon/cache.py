"""The on-disk cache of compiled lexicons.

A compiled lexicon is keyed by the content of its word list, the alphabet and
the builder's version, so an edited list or a new builder never reuses a stale
graph. Each entry is ``KEY.kwg`` (the graph, memory-mapped on load) and
``KEY.json`` (its word count and where it came from), both written atomically,
the JSON last: an entry without its JSON is incomplete and rebuilt.

The folder is ``$RACKETY_CACHE_DIR`` if set, else the user cache directory.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from rackety.lexicon.kwg import write_atomic

BUILDER_VERSION = "1"


def cache_dir() -> Path:
    env = os.environ.get("RACKETY_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("rackety")) / "lexica"


def cache_key(content: bytes, alphabet_id: str, skip_invalid: bool) -> str:
    h = hashlib.blake2b(digest_size=16)
    h.update(f"rackety-kwg {BUILDER_VERSION} {alphabet_id} {int(skip_invalid)}\n".encode())
    h.update(content)
    return h.hexdigest()


def lookup(key: str) -> tuple[Path, dict[str, Any]] | None:
    """The cached graph's path and metadata, if the entry is complete."""
    folder = cache_dir()
    meta_path = folder / f"{key}.json"
    kwg_path = folder / f"{key}.kwg"
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if kwg_path.stat().st_size != 4 * int(meta["nodes"]):
            return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return kwg_path, meta


def store(key: str, kwg_bytes: bytes, meta: dict[str, Any]) -> Path | None:
    """Save a graph; returns its path, or None when the cache is not writable."""
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        kwg_path = folder / f"{key}.kwg"
        write_atomic(kwg_path, kwg_bytes)
        write_atomic(folder / f"{key}.json", json.dumps(meta, indent=1).encode())
    except OSError:
        return None
    return kwg_path
