"""Files a user names: read whole with a one-line error, written atomically.

`read_bytes` reads a regular file of at most a given size (a FIFO, a device or
a file too large to be what it claims is refused before anything is read, so
``--lexicon /dev/zero`` cannot hang). `write_atomic` writes a new file beside
the target, flushes it to the disk and renames it over the target: a crash
leaves the old file or the new one, never half of one. New files get the mode
the user's umask gives (0o666 less the umask), like any file a program makes.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path

from rackety.errors import RacketyError, clip, read_error, write_error


def read_bytes(path: str | os.PathLike[str], kind: str, limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them; else a
    `RacketyError` naming the path and saying why (``kind`` is what the file
    should be: "word list", "KWG file" ...)."""
    def check(info: os.stat_result) -> None:
        if stat.S_ISDIR(info.st_mode):
            raise RacketyError(f"{clip(path, 120)}: is a directory, not a {kind}")
        if not stat.S_ISREG(info.st_mode):  # a FIFO or a device would block or never end
            raise RacketyError(f"{clip(path, 120)}: not a regular file, so not a {kind}")
        if info.st_size > limit:
            raise RacketyError(f"{clip(path, 120)}: {info.st_size:,} bytes, more than a "
                               f"{kind} can be ({limit:,})")

    try:
        check(os.stat(path))
        with open(path, "rb") as f:
            check(os.fstat(f.fileno()))
            data = f.read(limit + 1)
    except RacketyError:
        raise
    except ValueError:  # a NUL or a lone surrogate in the name
        raise RacketyError(f"{clip(path, 120)}: no such file (a name the system does not "
                           "take)") from None
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            raise RacketyError(f"{clip(path, 120)}: no such file (the name is too long)") \
                from None
        raise read_error(path, exc, kind) from None
    if len(data) > limit:  # it grew while we read it
        raise RacketyError(f"{clip(path, 120)}: more than {limit:,} bytes, more than a {kind} "
                           "can be")
    return data


def exists(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` names something, without raising for a name the system
    refuses (too long, a file used as a folder ...)."""
    try:
        os.stat(path)
    except (OSError, ValueError):  # ValueError: a NUL or a lone surrogate in the name
        return False
    return True


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (see the module docstring); a
    `RacketyError` naming the path when it cannot be written."""
    path = Path(path)
    directory = path.parent
    tmp = directory / f".{path.name[:200]}.{secrets.token_hex(6)}.tmp"
    try:
        # mode 0o666 less the umask, as for any file a program creates
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0),
                     0o666)
    except OSError as exc:
        raise write_error(path, exc) from None
    except ValueError:
        raise RacketyError(f"{clip(path, 120)}: cannot write (a name the system does not "
                           "take)") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise write_error(path, exc) from None
        raise
    with contextlib.suppress(OSError):  # the rename itself, on the disk
        folder = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


def writable_folder(path: str | os.PathLike[str], what: str) -> Path:
    """The folder ``path``, made if missing, checked writable before any work is
    done; else a `RacketyError` naming ``what`` (an option: ``--gcg-dir``)."""
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RacketyError(f"{what} {clip(path, 120)}: cannot make the folder "
                           f"({exc.strerror or exc})") from None
    except (ValueError, RecursionError):  # a NUL, a surrogate, or folders a thousand deep
        raise RacketyError(f"{what} {clip(path, 120)}: not a folder name the system takes") \
            from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise RacketyError(f"{what} {clip(path, 120)}: the folder is not writable")
    return folder


def writable_file(path: str | os.PathLike[str], what: str) -> None:
    """Check, before any work is done, that ``path`` can be written: its folder
    exists and is writable, and it is not itself a folder; else a `RacketyError`
    naming ``what`` (an option: ``--csv``)."""
    target = Path(path)
    folder = target.parent
    where = f"{what} {clip(path, 120)}"
    try:
        if target.is_dir():
            raise RacketyError(f"{where}: is a folder, not a file")
        if not folder.is_dir():
            raise RacketyError(f"{where}: cannot write (no such folder)")
    except RacketyError:
        raise
    except (OSError, ValueError):
        raise RacketyError(f"{where}: cannot write (not a file name the system takes)") \
            from None
    try:
        if len(os.fsencode(target.name)) > 240:
            raise RacketyError(f"{where}: cannot write (the name is too long)")
    except UnicodeError:
        raise RacketyError(f"{where}: cannot write (not a file name the system takes)") \
            from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise RacketyError(f"{where}: cannot write (the folder is not writable)")
