"""The on-disk cache of compiled lexicons.

A compiled lexicon is keyed by the content of its word list, the alphabet and
the builder's version, so an edited list or a new builder never reuses a stale
graph. Each entry is ``KEY.kwg`` (the graph) and ``KEY.json`` (its word count,
where it came from and a checksum of the graph), both written atomically, the
JSON last: an entry without its JSON is incomplete and rebuilt.

An entry is used only when its JSON reads back and the graph's bytes have the
checksum the JSON gives, so a graph damaged on disk (same size, arcs pointing
past the end) is rebuilt, never handed to a kernel: the graph was validated when
it was built, and the checksum says these are the same bytes.

The folder is ``$RACKETY_CACHE_DIR`` if set, else the user cache directory.

It also keeps arrays derived from a lexicon that take seconds to make and
never change for it (`lookup_array`, `store_array`: the leave training's word
racks, 2.3 s for TWL06's, and its sums over the racks of its word features,
1.6 s each): ``NAME.f64``, the SHA-256 of the values then the values, read
back only at their length and with their checksum, the very bytes written
(so an array of integers may be kept as its 64-bit patterns).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rackety.errors import RacketyError
from rackety.files import read_bytes, write_atomic

BUILDER_VERSION = "3"  # 2: entries carry a checksum of the graph; 3: words read composed (NFC)
_MAX_KWG = 4 << 22  # bytes of the largest KWG (kwg.MAX_NODES nodes)
_MAX_JSON = 1 << 16


@dataclass(frozen=True)
class Entry:
    """A cache entry read back and checked: the graph's bytes and its metadata."""

    path: Path
    data: bytes
    words: int
    skipped: int
    duplicates: int
    first_problem: str


def cache_dir() -> Path:
    env = os.environ.get("RACKETY_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("rackety")) / "lexica"


def cache_key(content: bytes, alphabet_id: str, skip_invalid: bool) -> str:
    h = hashlib.sha256(f"rackety-kwg {BUILDER_VERSION} {alphabet_id} {int(skip_invalid)}\n"
                       .encode())
    h.update(content)
    return h.hexdigest()[:32]


def checksum(data: bytes) -> str:
    """The checksum an entry's JSON gives for its graph (SHA-256: the fastest
    of hashlib's where the CPU has SHA instructions)."""
    return hashlib.sha256(data).hexdigest()


def lookup(key: str) -> Entry | None:
    """The cached graph and its metadata, if the entry is complete and its
    graph has its checksum; else None (the caller rebuilds it)."""
    folder = cache_dir()
    kwg_path = folder / f"{key}.kwg"
    try:
        meta = json.loads(read_bytes(folder / f"{key}.json", "cache entry", _MAX_JSON))
        data = read_bytes(kwg_path, "KWG file", _MAX_KWG)
        if not isinstance(meta, dict) or meta.get("checksum") != checksum(data):
            return None
        counts = [meta.get(k, 0) for k in ("words", "skipped", "duplicates")]
        if not all(type(c) is int and 0 <= c < 1 << 40 for c in counts):
            return None
        words, skipped, duplicates = counts
        return Entry(kwg_path, data, words, skipped, duplicates,
                     str(meta.get("first_problem", "")))
    except (RacketyError, ValueError, RecursionError):
        return None


def store(key: str, kwg_bytes: bytes, meta: dict[str, Any]) -> Path | None:
    """Save a graph; returns its path, or None when the cache is not writable."""
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        kwg_path = folder / f"{key}.kwg"
        write_atomic(kwg_path, kwg_bytes)
        write_atomic(folder / f"{key}.json",
                     json.dumps({**meta, "checksum": checksum(kwg_bytes)}, indent=1).encode())
    except (OSError, RacketyError):
        return None
    return kwg_path


def lookup_array(name: str, count: int) -> np.ndarray | None:
    """The ``count`` float64 values stored as ``name`` (`store_array`), if the
    file has that many and their checksum; else None (the caller makes them)."""
    try:
        data = read_bytes(cache_dir() / f"{name}.f64", "cache entry", 32 + 8 * count)
    except RacketyError:
        return None
    if len(data) != 32 + 8 * count or hashlib.sha256(data[32:]).digest() != data[:32]:
        return None
    return np.frombuffer(data[32:], dtype="<f8").copy()


def store_array(name: str, values: np.ndarray) -> None:
    """Keep float64 ``values`` as ``name`` for `lookup_array` (written
    atomically; nothing when the cache is not writable)."""
    payload = np.ascontiguousarray(values, dtype="<f8").tobytes()
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / f"{name}.f64", hashlib.sha256(payload).digest() + payload)
    except (OSError, RacketyError):
        return
