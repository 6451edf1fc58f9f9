"""`Control`: what the caller of a search holds over it while it runs, a
deadline and a stop signal (the UCGI engine's ``go movetime`` and ``stop``).

A search given a control looks at it between bounded slices of its work, at
the Python level, never inside a compiled kernel: the simulation between two
batches of rollouts, the endgame solver between node budgets of about `SLICE`
seconds (an iteration cut short is taken up again where the transposition
table left it), the pre-endgame between two endgames, the inference between
two chunks of racks. Stopped or out of time, it ends with the best it found so
far (the static best when it found nothing yet), within about a slice. A
player that keeps to a control says so (`rackety.players.base.PlayerBase.controlled`).

>>> import threading
>>> stop = threading.Event()
>>> control = Control(stop=stop)
>>> control.stopped(), control.left(), control.left(2.0)
(False, None, 2.0)
>>> stop.set()
>>> control.stopped(), control.left(2.0)
(True, 0.0)
>>> Control.within(None).left(), Control.within(0.0).stopped()
(None, True)
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from rackety.errors import RacketyError

#: the seconds the judge gives each endgame or pre-endgame search by default
#: (`rackety.search.judge.Budget`)
EXACT_SECONDS = 30.0

#: seconds of work between two looks at a control, about
SLICE = 0.25


def clock() -> float:
    """Seconds of thinking: `time.perf_counter` less the seconds this process
    has spent compiling kernels (`rackety.kernels.jit.compile_seconds`). The
    clock of every time budget (deadlines, a search's seconds)."""
    from rackety.kernels.jit import compile_seconds

    return time.perf_counter() - compile_seconds()


class StoppedError(RacketyError):
    """A search that was stopped or ran out of time, raised where it cannot
    return what it found (a step whose result is then not used)."""


@dataclass(frozen=True)
class Control:
    """A ``deadline`` (a `clock` instant; None: none) and a
    ``stop`` signal (an event another thread sets; None: none). In a game
    played on a clock, ``game_clock`` is what the mover's clock showed when
    the search began and ``increment`` what it gains a move (seconds; None: no
    game clock): a player that manages a clock (``best:clock=...``) splits it
    by `rackety.search.judge.clock_seconds`."""

    deadline: float | None = None
    stop: threading.Event | None = None
    game_clock: float | None = None
    increment: float = 0.0

    @classmethod
    def within(cls, seconds: float | None, stop: threading.Event | None = None, *,
               game_clock: float | None = None, increment: float = 0.0) -> Control:
        """A control whose deadline is ``seconds`` from now (None: no deadline)."""
        deadline = None if seconds is None else clock() + max(0.0, seconds)
        return cls(deadline, stop, game_clock, increment)

    @property
    def stoppable(self) -> bool:
        """Whether a stop signal may end the search before its deadline."""
        return self.stop is not None

    def stopped(self) -> bool:
        """Whether the search should end now: stopped, or past its deadline."""
        return (self.stop is not None and self.stop.is_set()) or \
            (self.deadline is not None and clock() >= self.deadline)

    def left(self, seconds: float | None = None) -> float | None:
        """The seconds the search may still take: the least of ``seconds`` and
        the time to the deadline, 0 once stopped; None when neither bounds it."""
        if self.stop is not None and self.stop.is_set():
            return 0.0
        if self.deadline is not None:
            until = max(0.0, self.deadline - clock())
            seconds = until if seconds is None else min(seconds, until)
        return seconds

    def slice(self) -> float:
        """The seconds of the next slice of work: `SLICE`, or less before the
        deadline."""
        left = self.left(SLICE)
        return SLICE if left is None else left

    def check(self) -> None:
        """Raise `StoppedError` if the search should end now."""
        if self.stopped():
            raise StoppedError("the search was stopped")


__all__ = ["EXACT_SECONDS", "SLICE", "Control", "StoppedError", "clock"]
