"""What the tests of lazy work lists share (issue 33, point 4): a pool that
counts the tasks it was given, and an exception that ends a long run."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any


class EnoughError(Exception):
    """Raised by a progress callback: the caller has seen enough."""


def counting(real: Callable[..., Any], made: list[int]) -> Callable[..., Any]:
    """``real`` (an ``imap_tasks``) that appends 1 to ``made`` for each task as
    the pool draws it; a list is counted whole at once, as every task of it
    was then made up front."""

    def imap(func: Callable[..., Any], tasks: Any, **kwargs: Any) -> Any:
        if hasattr(tasks, "__len__"):
            made.extend([1] * len(tasks))
            return real(func, tasks, **kwargs)

        def drawn() -> Iterator[Any]:
            for task in tasks:
                made.append(1)
                yield task

        return real(func, drawn(), **kwargs)

    return imap
