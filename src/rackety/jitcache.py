"""Where numba keeps rackety's compiled kernels: one folder per version of the
code.

numba's own cache checks only the file of the function it compiled, not the
files of the functions that one calls (NUMBA.md, trap 5): after an upgrade,
or an edit of one module, a kernel compiled before could keep another
module's old code and read memory it no longer owns. So the folder is keyed
by every module's name, size and modification time (a stat each, cheaper
than reading them on every import): any change means a new folder and a
fresh compilation. It is ``$NUMBA_CACHE_DIR`` when that is set (the user's
choice, taken as it is), else ``<user cache>/rackety/numba/<key>``; folders of
other versions that have not been used for 30 days are removed.
(`rackety.kernels.jit` compiles each kernel only when a command needs it.)

`compile_notice` tells a front end, before a command's first run on this
version of the code, that its kernels compile now, once (`COMPILES`).
"""

from __future__ import annotations

import os
import sys
import time
import zlib
from pathlib import Path

STALE_DAYS = 30

#: what the first run of a command compiles: the command (as typed after
#: ``rackety``; "lexicon" is the first use of a word list, which builds its
#: graph), what it compiles, the kernels it calls first as numba's cache names
#: them (``module.function``), and about how many seconds that takes from an
#: empty cache on a 2-core x86-64 machine (README, "numba's cache"; self-play
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


def folder() -> Path:
    """The folder for this version's compiled kernels (not created here)."""
    package = Path(__file__).resolve().parent
    key = 0
    for path in sorted(package.rglob("*.py")):
        stat = path.stat()
        key = zlib.crc32(f"{path.relative_to(package).as_posix()} {stat.st_size} "
                         f"{stat.st_mtime_ns}\n".encode(), key)
    return _user_cache() / "rackety" / "numba" / f"{key:08x}"


def _user_cache() -> Path:
    """The user's cache folder, as `platformdirs` finds it (without importing
    it on every ``import rackety``)."""
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")


def configure() -> None:
    """Point numba at `folder` (before numba is imported), unless
    ``NUMBA_CACHE_DIR`` says otherwise; prune the stale folders of other
    versions."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    try:
        here = folder()
        os.environ["NUMBA_CACHE_DIR"] = str(here)
        if not here.exists():  # a new version: the old ones may go
            import shutil

            cutoff = time.time() - STALE_DAYS * 86400
            for other in here.parent.glob("*") if here.parent.is_dir() else ():
                if other != here and other.is_dir() and other.stat().st_mtime < cutoff:
                    shutil.rmtree(other, ignore_errors=True)
    except OSError:  # no readable source or cache folder: numba's default
        return


def cold(kernels: tuple[str, ...]) -> bool:
    """Whether any of ``kernels`` (``module.function``, as in `COMPILES`) has
    no entry in numba's cache for this version of the code, so that using it
    compiles it. Reads the folder's names only (numba is not imported); no
    folder, or an unreadable one, is cold."""
    root = os.environ.get("NUMBA_CACHE_DIR")
    if not root:
        return True
    try:
        found = {p.name for p in Path(root).glob("*/*.nbi")}
    except OSError:
        return True
    return not all(any(f.startswith(f"{k}-") for f in found) for k in kernels)


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
    return f"compiling {what} (one time, about {seconds} s)"
