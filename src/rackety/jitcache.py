"""Where numba keeps rackety's compiled kernels: one folder per version of the
code, inside the installed package, filled by ``rackety compile`` at install.

numba's own cache checks only the file of the function it compiled, not the
files of the functions that one calls (docs/NUMBA.md trap 5): after an upgrade,
or an edit of one module, a kernel compiled before could keep another
module's old code and read memory it no longer owns. So the folder is keyed
by the content of every module of the package (`key`: a hash of their bytes,
read once per process, about 4 ms), and each kernel's cache entry is stamped
with that key, not with its file's time: any change to the code means a new
folder, and the same code, wherever it was unpacked and whenever, finds its
kernels. numba keys each entry by the CPU too (its name and features), so a
folder copied to another machine holds kernels that do not fit it and numba
compiles them again there.

The folder (`folder`) is, the first that can be written:

- ``$RACKETY_KERNEL_CACHE/<key>``, when that is set;
- ``<package>/_kernels/<key>``: beside the code, as Python keeps its ``.pyc``
  files, so that the kernels ``rackety compile`` builds after ``pip install``
  are there for every user and survive a user's cache being emptied
  (``NUMBA_CACHE_DIR`` and ``RACKETY_CACHE_DIR`` do not move them);
- ``<user cache>/rackety/kernels/<key>``, seeded from the package's folder
  when that exists but cannot be written (a system-wide install).

Folders of other versions are removed when a new one is made (beside the
code: those unused for a day; in the user cache: for 30 days).
`rackety.kernels.jit` puts the folder in numba's hands (a cache locator
placed before numba's own, for the package's modules only) and compiles each
kernel only when a command needs it; `rackety.frontends.compile` compiles
them all ahead of use.

`compile_notice` tells a front end, before a command's first run on this
version of the code (or on a CPU its kernels were not compiled for), that its
kernels compile now, once (`COMPILES`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

STALE_DAYS = 30  # in the user cache
STALE_DAYS_BESIDE = 1  # beside the code: every edit of a working copy makes one
MANIFEST = "compiled.json"  # what `rackety compile` compiled, and for which CPUs

#: what the first run of a command compiles: the command (as typed after
#: ``rackety``; "lexicon" is the first use of a word list, which builds its
#: graph), what it compiles, the kernels it calls first as numba's cache names
#: them (``module.function``), and about how many seconds that takes from an
#: empty cache on a 2-core x86-64 machine (docs/MEASUREMENTS.md, "Start-up"; self-play
#: compiles in each of its processes)
COMPILES: dict[str, tuple[str, tuple[str, ...], int]] = {
    "moves": ("the move generator", ("generate.moves_of_gaddag", "crosssets.of_grid"), 10),
    "analyze": ("the move generator", ("generate.moves_of_gaddag", "crosssets.of_grid"), 10),
    "lexicon": ("the lexicon builder", ("build._layout", "alphabet.tokenize_lines"), 3),
    "autoplay": ("self-play", ("selfplay.play_game",), 20),
    "leaves train": ("self-play", ("selfplay.play_game",), 20),
    "sim": ("the simulator", ("rollouts.rollouts",), 35),
    "infer": ("the inference", ("inference.evaluate",), 20),
    "endgame": ("the endgame solver", ("endgame._negamax",), 25),
    "preendgame": ("the endgame solver", ("endgame._negamax",), 25),
    "words anagram": ("the anagram search", ("query.anagram_walk",), 3),
    "words pattern": ("the pattern search", ("query.pattern_walk",), 3),
    "words multi": ("the multi-word anagram search", ("query.multi_search",), 5),
    "words suggest": ("the spelling search", ("query.suggest_walk",), 3),
    "words decode": ("the cipher search", ("query.decode_walk",), 3),
    "words list": ("the word listing", ("query.enumerate_strings",), 3),
}

_PACKAGE = Path(__file__).resolve().parent
_key: str | None = None
_chosen: dict[str, Path] = {}


def key() -> str:
    """The version of the code: a hash of every module's path and bytes (and
    of the Python version, which numba's files are compiled for)."""
    global _key
    if _key is None:
        h = hashlib.blake2b(f"{sys.version_info[:2]}\n".encode(), digest_size=10)
        for path in sorted(_PACKAGE.rglob("*.py")):
            h.update(f"{path.relative_to(_PACKAGE).as_posix()}\n".encode())
            h.update(path.read_bytes())
        _key = h.hexdigest()
    return _key


def _user_cache() -> Path:
    """The user's cache folder, as `platformdirs` finds it (without importing
    it on every ``import rackety``)."""
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")


def beside() -> Path:
    """The folder beside the code for this version's kernels."""
    return _PACKAGE / "_kernels" / key()


def _writable(path: Path, stale_days: float) -> bool:
    """Whether ``path`` is (or is now made) a folder this process can write;
    making it removes the stale folders of other versions beside it."""
    made = not path.is_dir()
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
    except OSError:
        return False
    if made:
        cutoff = time.time() - stale_days * 86400
        for other in path.parent.iterdir():
            try:
                if other != path and other.is_dir() and other.stat().st_mtime < cutoff:
                    shutil.rmtree(other, ignore_errors=True)
            except OSError:
                continue
    return True


def folder() -> Path:
    """The folder of this version's compiled kernels (module docstring: the
    first of three that can be written; made here). Chosen once per process
    for each value of ``RACKETY_KERNEL_CACHE``."""
    env = os.environ.get("RACKETY_KERNEL_CACHE", "")
    if env in _chosen:
        return _chosen[env]
    if env:
        chosen = Path(env) / key()
        _writable(chosen, STALE_DAYS)
    elif _writable(beside(), STALE_DAYS_BESIDE):
        chosen = beside()
    else:
        chosen = _user_cache() / "rackety" / "kernels" / key()
        if beside().is_dir() and not chosen.exists():
            with contextlib.suppress(OSError):
                shutil.copytree(beside(), chosen)
        _writable(chosen, STALE_DAYS)
    _chosen[env] = chosen
    return chosen


def writable() -> bool:
    """Whether this process can write `folder` (``rackety compile`` refuses
    at once where it cannot, rather than compiling for nothing)."""
    return _writable(folder(), STALE_DAYS)


def module_folder(py_file: str) -> Path | None:
    """Where the kernels of the module at ``py_file`` are kept (its folder
    within the package, under `folder`), or None for a file outside the
    package (numba's own cache takes it)."""
    try:
        relative = Path(py_file).resolve().relative_to(_PACKAGE)
    except (ValueError, OSError):
        return None
    return folder().joinpath(*relative.parent.parts)


def cpu() -> str:
    """This machine's CPU as numba compiles for it: its name and a digest of
    its features (``NUMBA_CPU_NAME`` and ``NUMBA_CPU_FEATURES`` win, as in
    numba). Imports llvmlite (about 0.1 s)."""
    import llvmlite.binding as llvm

    name = os.environ.get("NUMBA_CPU_NAME") or llvm.get_host_cpu_name()
    features = os.environ.get("NUMBA_CPU_FEATURES") or llvm.get_host_cpu_features().flatten()
    return f"{name}-{hashlib.blake2b(features.encode(), digest_size=6).hexdigest()}"


def manifest() -> dict[str, list[str]]:
    """What ``rackety compile`` compiled into `folder`: for each CPU (`cpu`),
    the groups of kernels; empty when it has not run or its file is unreadable."""
    try:
        data = json.loads((folder() / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: [g for g in v if isinstance(g, str)] for k, v in data.items()
            if isinstance(k, str) and isinstance(v, list)}


def record(groups: list[str]) -> None:
    """Add ``groups`` to the manifest, as compiled for this CPU (written
    atomically; a process compiling at the same time may lose its line, which
    only shows the notice once more)."""
    from rackety.files import write_atomic

    data = manifest()
    here = cpu()
    data[here] = sorted(set(data.get(here, [])) | set(groups))
    write_atomic(folder() / MANIFEST, json.dumps(data, indent=1).encode())


def cold(kernels: tuple[str, ...]) -> bool:
    """Whether using ``kernels`` (``module.function``, as in `COMPILES`) would
    compile: one has no entry in `folder`, or ``rackety compile`` filled the
    folder for other CPUs than this one. Reads the folder's names (and the
    manifest; numba is not imported); an unreadable folder is cold."""
    try:
        found = {p.name for p in folder().rglob("*.nbi")}
    except OSError:
        return True
    if not all(any(f.startswith(f"{k}-") for f in found) for k in kernels):
        return True
    compiled = manifest()
    return bool(compiled) and cpu() not in compiled


def compile_notice(command: str) -> str | None:
    """What to show while ``command`` (a key of `COMPILES`) waits for its first
    compilation, e.g. "compiling the move generator (one time, about 10 s)";
    None once its kernels are in the cache, or for a command that compiles
    nothing."""
    if command not in COMPILES:
        return None
    what, kernels, seconds = COMPILES[command]
    if not cold(kernels):
        return None
    return f"compiling {what} (one time, about {seconds} s; `rackety compile` does it ahead)"
