"""Spaced repetition: when a player sees a study item again, by FSRS (the
maintained `fsrs` package; docs/STUDY.md).

An item's memory is an FSRS card, kept as the package's JSON; a new item has
none until its first review. A review's rating comes from the quiz's grade
and the seconds the answer took: wrong is Again; right is Hard after
`SLOW_SECONDS`, Easy within `QUICK_SECONDS`, else Good. The scheduler is
FSRS's default (desired retention 0.9) without its fuzzing, so the same
reviews give the same dates.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from rackety.errors import RacketyError

#: a right answer slower than this is rated Hard, one this quick Easy
SLOW_SECONDS = 20.0
QUICK_SECONDS = 4.0
RATINGS = ("again", "hard", "good", "easy")


def rating_of(correct: bool, seconds: float | None) -> str:
    """The FSRS rating of a review: ``correct`` or not, in ``seconds``."""
    if not correct:
        return "again"
    if seconds is not None and seconds > SLOW_SECONDS:
        return "hard"
    if seconds is not None and seconds <= QUICK_SECONDS:
        return "easy"
    return "good"


@dataclass(frozen=True)
class Scheduled:
    """A review's outcome: the item's new ``card`` (FSRS JSON), when it is
    ``due`` next, and the FSRS ``state`` ("learning", "review", "relearning")."""

    card: str
    due: datetime
    state: str


def _scheduler() -> Any:
    import fsrs

    return fsrs.Scheduler(enable_fuzzing=False)


def review(card: str | None, rating: str, when: datetime) -> Scheduled:
    """The card after a review rated ``rating`` (`RATINGS`) at ``when`` (aware,
    any zone); ``card`` None for an item never reviewed."""
    import fsrs

    if rating not in RATINGS:
        raise RacketyError(f"rating {rating!r}: expected one of {', '.join(RATINGS)}")
    if when.tzinfo is None:
        raise RacketyError("a review's time must say its zone")
    try:
        # a new card: its id fixed (the package makes one from the clock; the store
        # keeps the item's own), due at the review
        memory = fsrs.Card(card_id=1, due=when) if card is None else fsrs.Card.from_json(card)
    except (ValueError, KeyError, TypeError) as exc:
        raise RacketyError(f"a study card that is not FSRS's: {exc}") from None
    after, _log = _scheduler().review_card(memory, fsrs.Rating[rating.capitalize()],
                                           when.astimezone(UTC))
    return Scheduled(after.to_json(), after.due, after.state.name.lower())
