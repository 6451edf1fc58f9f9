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
"""

from __future__ import annotations

import os
import sys
import time
import zlib
from pathlib import Path

STALE_DAYS = 30


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
