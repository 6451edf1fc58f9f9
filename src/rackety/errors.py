"""The one exception type a user ever sees, and the helpers every reader uses to
word it.

Every reader turns bad input into a `RacketyError` whose message is one line
naming where (file:line, field) and what; the command line prints it without a
traceback and the web app answers it with a 4xx. It subclasses `ValueError` so
library callers can catch either.

Whatever the input, the message stays one short line: line breaks and other
control characters are escaped, and a message longer than `MAX_MESSAGE`
characters keeps its beginning (where) and its end (what) around an ellipsis.
Readers quote user text with `clip` and read numbers with `parse_int`: ASCII
digits only (``176٣`` is not a number), within bounds, never Python's
int-from-string limit.

>>> parse_int("1763", "score", -10, 10_000)
1763
>>> parse_int("176٣", "score", -10, 10_000)
Traceback (most recent call last):
...
rackety.errors.RacketyError: score '176٣' is not a whole number (-10 to 10000)
>>> len(str(RacketyError("x" * 100_000))) <= MAX_MESSAGE
True
"""

from __future__ import annotations

import re

MAX_MESSAGE = 300  # characters of an error line, at most
_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def clip(text: object, width: int = 60) -> str:
    """``text`` as a string of at most ``width`` characters, its middle elided
    (``ABCD...WXYZ``): for quoting user input in a message."""
    text = str(text)
    if len(text) <= width:
        return text
    head = (width - 3) * 2 // 3
    return text[:head] + "..." + text[len(text) - (width - 3 - head):]


def one_line(message: str, limit: int = MAX_MESSAGE) -> str:
    """``message`` as one printable line of at most ``limit`` characters."""
    text = " ".join(message.splitlines())
    text = _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
    return clip(text, limit)


class RacketyError(ValueError):
    """Bad input, with a one-line message that names where and what."""

    def __init__(self, message: str) -> None:
        super().__init__(one_line(str(message)))


def parse_int(text: str, what: str, low: int, high: int) -> int:
    """The whole number ``text`` writes in ASCII digits (with a sign if ``low``
    is negative), between ``low`` and ``high``; else a `RacketyError` naming
    ``what``."""
    text = text.strip()
    bounds = f"({low} to {high})"
    if not _INTEGER.fullmatch(text) or (low >= 0 and text.startswith("-")):
        raise RacketyError(f"{what} {clip(text)!r} is not a whole number {bounds}")
    if len(text) > 30 or not low <= int(text) <= high:
        raise RacketyError(f"{what} {clip(text)} is out of range {bounds}")
    return int(text)


def parse_float(text: str, what: str, low: float, high: float) -> float:
    """The finite number ``text`` writes (digits, one point, no exponent),
    between ``low`` and ``high``; else a `RacketyError` naming ``what``."""
    text = text.strip()
    bounds = f"({low:g} to {high:g})"
    if not _DECIMAL.fullmatch(text) or len(text) > 30:
        raise RacketyError(f"{what} {clip(text)!r} is not a number {bounds}")
    value = float(text)
    if not low <= value <= high:
        raise RacketyError(f"{what} {clip(text)} is out of range {bounds}")
    return value


def read_error(path: object, exc: OSError, kind: str = "file") -> RacketyError:
    """The one-line error for a file that could not be read as a ``kind``."""
    where = clip(path, 120)
    if isinstance(exc, FileNotFoundError):
        return RacketyError(f"{where}: no such file")
    if isinstance(exc, IsADirectoryError):
        return RacketyError(f"{where}: is a directory, not a {kind}")
    return RacketyError(f"{where}: cannot read ({exc.strerror or exc})")


def write_error(path: object, exc: OSError) -> RacketyError:
    """The one-line error for a file that could not be written."""
    where = clip(path, 120)
    if isinstance(exc, FileNotFoundError):
        return RacketyError(f"{where}: cannot write (no such folder)")
    return RacketyError(f"{where}: cannot write ({exc.strerror or exc})")
