"""Glicko-2 ratings of solvers and puzzles (Glickman's system, by the
`glicko2` package; docs/STUDY.md): every attempt is a game between the
solver and the puzzle, the solver winning when they solve it, each rated
after it as a rating period of its own."""

from __future__ import annotations

from dataclasses import dataclass

#: a new solver's or puzzle's rating, deviation and volatility (Glickman's defaults)
INITIAL = (1500.0, 350.0, 0.06)


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating: ``rating``, its deviation ``rd`` and volatility ``vol``."""

    rating: float = INITIAL[0]
    rd: float = INITIAL[1]
    vol: float = INITIAL[2]


def update(rating: Rating, games: list[tuple[Rating, float]]) -> Rating:
    """``rating`` after one rating period of ``games`` (the opponent's
    rating before it, and the score: 1 a win, 0.5 a draw, 0 a loss)."""
    import glicko2

    player = glicko2.Player(rating.rating, rating.rd, rating.vol)
    if games:
        player.update_player([g.rating for g, _ in games], [g.rd for g, _ in games],
                             [score for _, score in games])
    else:
        player.did_not_compete()
    return Rating(float(player.rating), float(player.rd), float(player.vol))


def attempt(solver: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The solver's and the puzzle's ratings after an attempt."""
    score = 1.0 if solved else 0.0
    return update(solver, [(puzzle, score)]), update(puzzle, [(solver, 1.0 - score)])
