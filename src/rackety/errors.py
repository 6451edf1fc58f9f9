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
