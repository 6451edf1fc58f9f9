"""The one exception type a user ever sees.

Every reader turns bad input into a `RacketyError` whose message is one line
naming where (file:line, field) and what; the command line prints it without a
traceback. It subclasses `ValueError` so library callers can catch either.
"""

from __future__ import annotations


class RacketyError(ValueError):
    """Bad input, with a one-line message that names where and what."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split("\n")))


def read_error(path: object, exc: OSError, kind: str = "file") -> RacketyError:
    """The one-line error for a file that could not be read as a ``kind``."""
    if isinstance(exc, FileNotFoundError):
        return RacketyError(f"{path}: no such file")
    if isinstance(exc, IsADirectoryError):
        return RacketyError(f"{path}: is a directory, not a {kind}")
    return RacketyError(f"{path}: cannot read ({exc.strerror or exc})")
