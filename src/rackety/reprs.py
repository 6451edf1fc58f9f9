"""Reprs that evaluate back: ``repr(x)`` of a public type is an expression in
the names of ``rackety.__all__`` that makes an equal object, as Python asks of a
repr where it can be done; where it cannot (a function of the user's, a table
made in memory too large to write out) the repr is a summary in angle
brackets. The rule and its exceptions: docs/guides/python.md, "What a repr
gives back"."""

from __future__ import annotations

# numpy's rule for printing arrays: more elements than this are summarised
# (``np.get_printoptions()["threshold"]``); an object built in memory from more
# entries than this (a word list, a leave table) shows a summary, not its data
LITERAL_LIMIT = 1000


def pasteable(value: object) -> str | None:
    """``repr(value)`` when it is an expression, else None (a summary in angle
    brackets, as functions and handles have)."""
    text = repr(value)
    return None if text.startswith("<") else text


def call(head: str, *args: object, **kwargs: object) -> str | None:
    """``head(arg, ..., name=value, ...)`` when every value's repr is an
    expression (`pasteable`), else None."""
    parts = []
    for value in args:
        text = pasteable(value)
        if text is None:
            return None
        parts.append(text)
    for name, value in kwargs.items():
        text = pasteable(value)
        if text is None:
            return None
        parts.append(f"{name}={text}")
    return f"{head}({', '.join(parts)})"
