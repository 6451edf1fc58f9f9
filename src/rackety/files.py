"""Files a user names: read whole with a one-line error, written atomically.

`read_bytes` reads a regular file of at most a given size (a FIFO, a device or
a file too large to be what it claims is refused before anything is read, so
``--lexicon /dev/zero`` cannot hang).

`write_atomic` never replaces what is at the path by something else:

- a regular file (or nothing yet) is written atomically: a new file beside
  it, flushed to the disk and renamed over it, so a crash leaves the old file
  or the new one, never half of one. A new file gets the mode the user's
  umask gives (0o666 less the umask), like any file a program makes; a file
  that was there keeps its permission bits (and, where allowed, its owner),
  and one the user may not write is refused, as the shell's ``>`` refuses it;
- a symbolic link is followed to its target, which is written as above (the
  new file beside the target, renamed over it): the link stays a link. A
  dangling link makes its target (as ``>`` does); a loop of links is refused;
- a character device or a FIFO is written in place, as any Unix tool writes
  it (``-o /dev/null``; ``/dev/full`` says "No space left on device"); a FIFO
  that no process reads is refused at once rather than waited on;
- a descriptor of this process named by path (``/dev/stdout``,
  ``/dev/fd/N``, ``/proc/self/fd/N``) is written through that descriptor,
  where standard output goes (a pipe, a terminal, a file);
- a folder, a block device (a disk), a socket, an empty name, a name ending in
  ``/`` are refused in one line.

`writable_file` and `writable_folder` check the same before any work is done;
`regular_file` is for a file a program keeps open (SQLite's store), where only
a regular file or nothing will do.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import select
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

from rackety.errors import RacketyError, clip, read_error, write_error

MAX_LINKS = 40  # symbolic links followed to a target, as the kernel does
_DESCRIPTOR = re.compile(r"/(?:proc/(?:self|thread-self|[0-9]+)(?:/task/[0-9]+)?|dev)/fd/"
                         r"([0-9]+)")


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


# ------------------------------------------------------------------ writing
@dataclass(frozen=True)
class _Target:
    """Where a write to a path lands: ``how`` is "replace" (a regular file or
    nothing, at ``path``, the links followed), "in_place" (a character device
    or a FIFO, opened by the name given) or "descriptor" (``fd`` of this
    process); ``info``: what is there now (None: nothing)."""

    how: str
    path: str
    info: os.stat_result | None = None
    fd: int = -1


def _refuse(where: str, why: str) -> RacketyError:
    return RacketyError(f"{where}: cannot write ({why})")


def _descriptor(path: str) -> int | None:
    """N when ``path`` names descriptor N of this process (``/dev/fd/N``,
    ``/proc/self/fd/N``, ``/proc/PID/fd/N`` with this PID)."""
    try:
        full = os.path.abspath(path)
    except OSError:  # the working folder is gone
        return None
    match = _DESCRIPTOR.fullmatch(full)
    if match is None:
        return None
    pid = re.match(r"/proc/([0-9]+)/", full)
    if pid is not None and int(pid.group(1)) != os.getpid():
        return None
    return int(match.group(1))


def _target(path: str | os.PathLike[str], where: str) -> _Target:
    """What writing ``path`` means (see `_Target`), or a one-line `RacketyError`
    prefixed by ``where`` for a path that cannot be written."""
    try:
        name = os.fsdecode(os.fspath(path))
        os.fsencode(name)  # a lone surrogate: not a name
        if "\x00" in name:
            raise ValueError(name)
    except (TypeError, ValueError):  # UnicodeError is a ValueError
        raise _refuse(where, "not a file name the system takes") from None
    if not name:
        raise RacketyError(f"{where}: an empty file name")
    if name.endswith(os.sep) or os.path.basename(name) in (".", ".."):
        raise RacketyError(f"{where}: is a folder name, not a file name")
    current = name
    for _ in range(MAX_LINKS + 1):
        fd = _descriptor(current)
        if fd is not None:
            return _Target("descriptor", current, fd=fd)
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            return _Target("replace", current)  # nothing there (or a dangling link's target)
        except OSError as exc:
            raise _os_refusal(where, exc) from None
        if stat.S_ISLNK(info.st_mode):
            try:
                link = os.readlink(current)
            except OSError as exc:
                raise _os_refusal(where, exc) from None
            # a magic link of /proc (a pipe, a socket) names no path: open it by name
            if not link.startswith(os.sep) and ":[" in link and current.startswith("/proc/"):
                try:
                    info = os.stat(current)
                except OSError as exc:
                    raise _os_refusal(where, exc) from None
                return _kind(where, current, info)
            current = os.path.join(os.path.dirname(current), link)
            continue
        return _kind(where, current, info)
    raise _refuse(where, "too many levels of symbolic links")


def _kind(where: str, path: str, info: os.stat_result) -> _Target:
    mode = info.st_mode
    if stat.S_ISREG(mode):
        return _Target("replace", path, info)
    if stat.S_ISDIR(mode):
        raise RacketyError(f"{where}: is a folder, not a file")
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return _Target("in_place", path, info)
    if stat.S_ISBLK(mode):
        raise _refuse(where, "a block device: rackety does not write disks")
    raise _refuse(where, "a socket, not a file" if stat.S_ISSOCK(mode) else "not a file")


def _os_refusal(where: str, exc: OSError) -> RacketyError:
    if exc.errno == errno.ENOTDIR:
        return _refuse(where, "a file stands where a folder should be")
    if isinstance(exc, FileNotFoundError):
        return _refuse(where, "no such folder")
    return _refuse(where, exc.strerror or str(exc))


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` without replacing what is there by something
    else (see the module docstring: a regular file atomically, through a
    symbolic link to its target, a device or a FIFO in place); a `RacketyError`
    naming the path when it cannot be written."""
    where = clip(path, 120) or "''"
    target = _target(path, where)
    if target.how == "descriptor":
        _write_descriptor(target.fd, data, where)
    elif target.how == "in_place":
        if not _write_in_place(target.path, data, where):  # a regular file now: replace it
            _replace(_target(target.path, where), data, where)
    else:
        _replace(target, data, where)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view[:1 << 20])
        except BlockingIOError:  # a descriptor someone left non-blocking
            select.select([], [fd], [])
            continue
        view = view[written:]


def _write_descriptor(fd: int, data: bytes, where: str) -> None:
    for stream in (sys.stdout, sys.stderr):  # what was printed before comes first
        with contextlib.suppress(Exception):
            if stream is not None and stream.fileno() == fd:
                stream.flush()
    try:
        _write_all(fd, data)
    except OSError as exc:
        raise _refuse(where, exc.strerror or str(exc)) from None


def _write_in_place(path: str, data: bytes, where: str) -> bool:
    """Write a character device or a FIFO without creating or renaming
    anything; False when it turned into a regular file meanwhile."""
    flags = (os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
             | getattr(os, "O_CLOEXEC", 0))
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO's writer does not wait for a reader here
            raise _refuse(where, "a FIFO that no process is reading") from None
        raise _os_refusal(where, exc) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode):
            return False
        if stat.S_ISBLK(info.st_mode) or stat.S_ISDIR(info.st_mode):
            raise _refuse(where, "not a file")
        os.set_blocking(fd, True)  # a slow reader makes us wait, as it would any tool
        _write_all(fd, data)
    except OSError as exc:
        raise _refuse(where, exc.strerror or str(exc)) from None
    finally:
        os.close(fd)
    return True


def _replace(target: _Target, data: bytes, where: str) -> None:
    """Write a regular file (or a new one) atomically: a temporary file beside
    it, flushed, given the old file's mode, renamed over it."""
    if target.how != "replace":  # it changed under us: write it as what it is now
        write_atomic(target.path, data)
        return
    path, info = target.path, target.info
    directory, name = os.path.split(path)
    if info is not None and not os.access(path, os.W_OK):
        raise _refuse(where, "Permission denied")
    cut = os.fsencode(name)[:100]
    tmp = os.path.join(directory, os.fsdecode(b"." + cut + f".{secrets.token_hex(6)}.tmp"
                                              .encode()))
    try:
        # mode 0o666 less the umask, as for any file a program creates
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0),
                     0o666)
    except OSError as exc:
        raise write_error(where, exc) from None
    except ValueError:
        raise _refuse(where, "not a file name the system takes") from None
    try:
        with os.fdopen(fd, "wb") as f:
            if info is not None:  # the file that was there keeps its mode and owner
                os.fchmod(f.fileno(), stat.S_IMODE(info.st_mode) & 0o777)
                if (info.st_uid, info.st_gid) != (os.getuid(), os.getgid()):
                    with contextlib.suppress(OSError):
                        os.fchown(f.fileno(), info.st_uid, info.st_gid)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise write_error(where, exc) from None
        raise
    with contextlib.suppress(OSError):  # the rename itself, on the disk
        folder = os.open(directory or ".", os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


# ------------------------------------------------------------ before the work
def writable_folder(path: str | os.PathLike[str], what: str) -> Path:
    """The folder ``path``, made if missing, checked writable before any work is
    done; else a `RacketyError` naming ``what`` (an option: ``--gcg-dir``)."""
    if not os.fspath(path):
        raise RacketyError(f"{what}: an empty folder name")
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise RacketyError(f"{what} {clip(path, 120)}: not a folder (a file of another kind "
                           "is there)") from None
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
    """Check, before any work is done, that ``path`` can be written as
    `write_atomic` writes it: a regular file (or nothing yet, after its
    symbolic links) in a writable folder, a character device or a FIFO, or a
    descriptor of this process; else a `RacketyError` naming ``what`` (an
    option: ``--csv``). A FIFO needs its reader only when it is written."""
    where = f"{what} {clip(path, 120)}".rstrip()
    target = _target(path, where)
    if target.how == "descriptor":
        return
    if target.how == "in_place":
        if not os.access(target.path, os.W_OK):
            raise _refuse(where, "Permission denied")
        return
    _check_new_file(target, where)


def _check_new_file(target: _Target, where: str) -> None:
    directory, name = os.path.split(target.path)
    folder = directory or "."
    try:
        is_folder, there, size = (os.path.isdir(folder), os.path.lexists(folder),
                                  len(os.fsencode(name)))
    except (OSError, ValueError):
        raise _refuse(where, "not a file name the system takes") from None
    if not is_folder:
        raise _refuse(where, "a file stands where a folder should be" if there else
                      "no such folder")
    if size > 255:  # the limit of the usual file systems
        raise _refuse(where, "File name too long")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise _refuse(where, "the folder is not writable")
    if target.info is not None and not os.access(target.path, os.W_OK):
        raise _refuse(where, "Permission denied")


def regular_file(path: str | os.PathLike[str], what: str) -> None:
    """Check that ``path`` is a regular file or nothing yet (its symbolic links
    followed), for a file a program keeps open and rewrites in place (SQLite's
    store): a folder, a FIFO, a device, a link loop or an empty name is refused
    in one line naming ``what`` (an option: ``--db``). A missing folder is
    left to the caller (the store makes it)."""
    where = f"{what} {clip(path, 120)}".rstrip()
    target = _target(path, where)
    if target.how != "replace":
        raise RacketyError(f"{where}: not a regular file (a database cannot be a device, a "
                           "FIFO or a descriptor)")
