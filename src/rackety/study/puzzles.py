"""Puzzles cut from games (docs/STUDY.md): positions whose best move, by the
judge (`rackety.search.judge.Judge`), is clearly best.

The judge values the position's moves: by static equity in the middle game
(the trained leave table; with two tiles or fewer in the bag, the
pre-endgame, which is not cut), exactly with the bag empty. The *answers* are
every move within `TOLERANCE` points of the best; the position is a puzzle
when the best move that is not an answer is at least ``margin`` points
behind (`MARGIN` by default). Its tags:

- ``BINGO``: the best move plays every tile of a full rack; ``ONLY_BINGO``:
  and no other move of the position does (every move generated, not only the
  best); ``BINGO_NINE_OR_MORE``: its word is nine tiles or more.
- ``EQUITY``: no answer scores the most: the best is best by equity, not by
  score.
- ``ENDGAME``: the bag is empty, the best move wins (its value is exact) and
  the move that scores the most does not.
- ``PHONY_CHALLENGE``: the opponent's last play formed a word the lexicon
  lacks; the answer is to challenge it (from records; self-play plays none).

A puzzle keeps its position (CGP, the mover's rack known), its source (the
record and turn, or the self-play seed and turn), its answers in notation,
the best move's value and its lead, the next moves with their values, and
one line of why.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rackety.errors import RacketyError
from rackety.game.board import Board
from rackety.kernels import fields as _f
from rackety.search.judge import Budget, Judge

if TYPE_CHECKING:
    from rackety.game.move import Move
    from rackety.lexicon import Lexicon
    from rackety.search.control import Control

TAGS = ("BINGO", "ONLY_BINGO", "BINGO_NINE_OR_MORE", "EQUITY", "ENDGAME", "PHONY_CHALLENGE")
#: the best move that is not an answer is at least this many points behind
MARGIN = 10.0
#: the answers: every move within this many points of the best
TOLERANCE = 0.5
#: judged by simulation: the answers within this much win % of the best too, and
#: the best move that is no answer at least `WIN_MARGIN` win % behind
WIN_TOLERANCE = 0.5
WIN_MARGIN = 2.0
#: seconds of the exact endgame search a position may take (else no puzzle)
ENDGAME_SECONDS = 5.0
#: the answer to a phony: challenge it
CHALLENGE = "challenge"
#: the next moves a puzzle keeps, to explain its answer
ALTERNATIVES = 3


@dataclass(frozen=True)
class Puzzle:
    """One puzzle (module docstring): the position (``cgp``, the mover's rack
    known) in ``lexicon``, its ``tags``, its ``answers`` in notation (the best
    first; `CHALLENGE` for a phony), the best's ``value`` and its ``lead``
    over the best move that is not an answer, in ``unit`` ("equity" or
    "spread" to the end of the game), the next moves with their values
    (``alternatives``), where it came from (``source``) and ``why``."""

    cgp: str
    lexicon: str
    tags: tuple[str, ...]
    answers: tuple[str, ...]
    value: float
    lead: float
    unit: str
    alternatives: tuple[tuple[str, float], ...]
    source: str
    why: str

    def as_dict(self) -> dict[str, Any]:
        return {"cgp": self.cgp, "lexicon": self.lexicon, "tags": list(self.tags),
                "answers": list(self.answers), "value": self.value, "lead": self.lead,
                "unit": self.unit, "alternatives": [list(a) for a in self.alternatives],
                "source": self.source, "why": self.why}

    @classmethod
    def from_dict(cls, data: Any, where: str = "puzzle") -> Puzzle:
        """A puzzle from its `as_dict` form; else a `RacketyError` naming ``where``."""
        try:
            if not isinstance(data, dict):
                raise TypeError("not an object")
            tags = tuple(str(t) for t in data["tags"])
            if any(t not in TAGS for t in tags) or not data["answers"]:
                raise ValueError("unknown tag or no answer")
            return cls(str(data["cgp"]), str(data["lexicon"]), tags,
                       tuple(str(a) for a in data["answers"]), float(data["value"]),
                       float(data["lead"]), str(data["unit"]),
                       tuple((str(m), float(v)) for m, v in data["alternatives"]),
                       str(data["source"]), str(data["why"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise RacketyError(f"{where}: not a puzzle ({exc})") from None


def _bingos(board: Board, lexicon: Lexicon) -> int:
    """How many placements of the position play every tile of a full rack."""
    rack = board.alphabet.rack_size
    if len(board.rack) != rack:
        return 0
    moves = board.moves(lexicon, mode="all")
    return int((moves.meta[:, _f.M_PLACED] == rack).sum())


def cut(board: Board, lexicon: Lexicon, *, source: str, margin: float = MARGIN,
        judge: Judge | None = None, seconds: float = 0.0,
        control: Control | None = None, exact: float = ENDGAME_SECONDS) -> Puzzle | None:
    """The puzzle of ``board`` (the mover's rack known), or None when its best
    move is not clearly best (module docstring). ``seconds``: the middle game
    judged by that much simulation instead of static equity (its best by win
    %, then equity: the answers within `TOLERANCE` of the best's equity and
    `WIN_TOLERANCE` of its win %, the next at least ``margin`` points and
    `WIN_MARGIN` win % behind). ``control``: the searches' deadline and stop
    (a search stopped before it is exact makes no puzzle); ``exact``: the
    seconds of each endgame search."""
    if not board.rack:
        return None
    judge = judge or Judge(lexicon)
    bag = board.bag_count
    if 0 < bag <= 2:
        return None  # the pre-endgame: too slow to cut many
    verdict = judge.verdict(board, Budget(seconds, exact=exact), control=control)
    endgame = verdict.phase == "endgame"
    if verdict.phase not in ("static", "endgame", "simulation") or not verdict.ranked:
        return None
    if verdict.phase == "simulation":
        return _simulated(board, lexicon, verdict, source=source, margin=margin)
    static = board.moves(lexicon, mode="top", top=1)
    top_score = static.best_score
    if endgame:  # the exact best, against the move that scores the most (of every move)
        scoring = board.moves(lexicon, mode="all").top_scoring()
        if not verdict.exact or not scoring:
            return None
        verdict = judge.verdict(board, Budget(0.0, exact=exact), include=scoring[:1],
                                control=control)
        if not verdict.exact:
            return None
    ranked = verdict.ranked
    best = ranked[0]
    answers = [v for v in ranked if v.value >= best.value - TOLERANCE]
    others = ranked[len(answers):]
    if endgame:
        if verdict.spread + best.value <= 0 or not others:
            return None  # a loss, or nothing else valued: no puzzle
        nearest = others[0]
        if verdict.spread + nearest.value > 0 and best.value - nearest.value < margin:
            return None  # another move wins too, by nearly as much
        if any(v.move.score == top_score for v in answers):
            return None  # the top score wins: no puzzle
    else:
        if not others or best.value - others[0].value < margin:
            return None
    move = best.move
    tags = _tags(board, lexicon, move, answers, None if endgame else top_score)
    if endgame:
        tags.append("ENDGAME")
    if not tags:
        return None
    lead = best.value - others[0].value
    text = board.notation
    why = (f"{text(move)} is best by {lead:.1f} points of {verdict.unit} over "
           f"{text(others[0].move)} ({verdict.valued_by})")
    if endgame:
        theirs = verdict.spread + others[0].value
        why = (f"{text(move)} wins by {verdict.spread + best.value:.0f}; "
               f"{text(others[0].move)} {'wins by' if theirs > 0 else 'ends at'} "
               f"{theirs:.0f} (exact endgame)")
    return Puzzle(board.cgp(), lexicon.name, tuple(tags), tuple(text(v.move) for v in answers),
                  round(best.value, 3), round(lead, 3), verdict.unit,
                  tuple((text(v.move), round(v.value, 3)) for v in others[:ALTERNATIVES]),
                  source, why)


def _tags(board: Board, lexicon: Lexicon, move: Move, answers: Sequence[Any],
          top_score: int | None) -> list[str]:
    """The middle game's tags of a best ``move`` and its answers."""
    tags: list[str] = []
    rack = board.alphabet.rack_size
    if move.kind == "place" and move.n_placed == rack and len(board.rack) == rack:
        tags.append("BINGO")
        if _bingos(board, lexicon) == 1:
            tags.append("ONLY_BINGO")
        if len(move.tiles) >= 9:
            tags.append("BINGO_NINE_OR_MORE")
    if top_score is not None and all(v.move.score != top_score for v in answers):
        tags.append("EQUITY")
    return tags


def _simulated(board: Board, lexicon: Lexicon, verdict: Any, *, source: str,
               margin: float) -> Puzzle | None:
    """The puzzle of a middle-game position judged by simulation (`cut`)."""
    ranked = [v for v in verdict.ranked if v.rollouts > 0]
    if len(ranked) < 2:
        return None
    best = ranked[0]
    answers = [v for v in ranked if v.value >= best.value - TOLERANCE
               and v.win_pct >= best.win_pct - WIN_TOLERANCE]
    if best not in answers:
        answers.insert(0, best)
    others = [v for v in ranked if v not in answers]
    if not others:
        return None
    lead = best.value - max(v.value for v in others)
    win_lead = best.win_pct - max(v.win_pct for v in others)
    if lead < margin or win_lead < WIN_MARGIN:
        return None
    top_score = board.moves(lexicon, mode="top", top=1).best_score
    tags = _tags(board, lexicon, best.move, answers, top_score)
    if not tags:
        return None
    text = board.notation
    nearest = max(others, key=lambda v: v.value)
    why = (f"{text(best.move)} is best by {lead:.1f} points of equity and {win_lead:.1f} % "
           f"of wins over {text(nearest.move)} ({verdict.valued_by})")
    return Puzzle(board.cgp(), lexicon.name, tuple(tags), tuple(text(v.move) for v in answers),
                  round(best.value, 3), round(lead, 3), "equity",
                  tuple((text(v.move), round(v.value, 3)) for v in others[:ALTERNATIVES]),
                  source, why)


def challenge(board: Board, lexicon: Lexicon, played: Move, phonies: Sequence[str], *,
              source: str) -> Puzzle:
    """The puzzle of a phony: ``board`` is the position after the opponent's
    ``played`` move, which formed ``phonies``; the answer is to challenge."""
    words = ", ".join(phonies)
    return Puzzle(board.cgp(), lexicon.name, ("PHONY_CHALLENGE",), (CHALLENGE,), 0.0, 0.0,
                  "equity", (), source, f"the opponent's {board.notation(played)} formed "
                  f"{words}, not in {lexicon.name}: challenge it")


def from_record(record: Any, lexicon: Lexicon, *, name: str, margin: float = MARGIN,
                judge: Judge | None = None, seconds: float = 0.0,
                progress: Callable[[int, int], None] | None = None,
                control: Control | None = None, exact: float = ENDGAME_SECONDS
                ) -> list[Puzzle]:
    """The puzzles of a record (a `rackety.game.gcg.GcgRecord`): each turn
    whose mover's whole rack the record gives, and each phony that was played
    (``control``: stopped, the puzzles cut so far)."""
    from rackety.game.gcg import replay
    from rackety.game.referee import formed_words

    rep = replay(record)
    judge = judge or Judge(lexicon)
    out: list[Puzzle] = []
    rack = rep.alphabet.rack_size
    steps = rep.steps
    for i, step in enumerate(steps):
        if control is not None and control.stopped():
            break  # stopped: the puzzles cut so far
        if progress is not None:
            progress(i, len(steps))
        if step.kind not in ("play", "exchange", "pass"):
            continue
        board = rep.positions[i]
        where = f"{name} turn {i + 1}"
        if len(board.rack) == rack or (board.bag_count == 0 and board.rack):
            found = cut(board, lexicon, source=where, margin=margin, judge=judge,
                        seconds=seconds, control=control, exact=exact)
            if found is not None:
                out.append(found)
        move = step.move
        nxt = steps[i + 1] if i + 1 < len(steps) else None
        if move is None or nxt is None or nxt.kind not in ("play", "exchange", "pass"):
            continue  # a phony taken back, or the last play: no position to challenge in
        words = formed_words(board.grid, move.placed_squares(), move.placed)
        bad = [board.alphabet.format(list(w), brackets=True) for w in words
               if w not in lexicon]
        if bad:  # the phony stood: the next player faced it
            out.append(challenge(rep.positions[i + 1], lexicon, move, bad,
                                 source=f"{where}: a phony"))
    return out


def from_selfplay(lexicon: Lexicon, games: int, *, seed: int = 0, margin: float = MARGIN,
                  judge: Judge | None = None, seconds: float = 0.0,
                  progress: Callable[[int], None] | None = None) -> Iterator[Puzzle]:
    """Puzzles from ``games`` games of the static player against itself, each
    position of both sides cut (module docstring); the same ``seed``, the same
    games. ``progress(games done)`` after each game."""
    from rackety.experiments.autoplay import game_seed
    from rackety.game.referee import Game
    from rackety.players import make_player

    judge = judge or Judge(lexicon)
    player = make_player("static", lexicon)
    for g in range(games):
        game_number = game_seed(seed, 2 * g)  # a bag of its own (2g + 1 shares it)
        game = Game(lexicon, seed=game_number)
        turn = 0
        while not game.over:
            turn += 1
            view = game.view()
            found = cut(view, lexicon, source=f"self-play seed {game_number} turn {turn}",
                        margin=margin, judge=judge, seconds=seconds)
            if found is not None:
                yield found
            game.play(player.decide(view, lexicon).move, check=False)
        if progress is not None:
            progress(g + 1)


@dataclass(frozen=True)
class Attempt:
    """A reply to a puzzle graded: ``correct`` or not, the move it was read as
    (``move``, in notation; ``challenge``; None when it could not be read,
    ``error`` then says why), its value where the puzzle lists it."""

    correct: bool
    move: str | None
    value: float | None = None
    error: str = ""


def same_move(cgp: str, reply: str, answers: Sequence[str]) -> tuple[str | None, str]:
    """``reply`` read as a move of the position ``cgp``, in the notation the
    ``answers`` are written in (so that a move written another way is the
    same), or None and why it cannot be read; ``challenge`` stays itself."""
    text = " ".join(reply.split())
    if not text:
        return None, "no move given"
    if text.lower() == CHALLENGE:
        return CHALLENGE, ""
    board = Board.from_cgp(cgp)
    try:
        move = board.parse_move(text)
    except RacketyError as exc:
        return None, str(exc)
    written = board.notation(move)
    for answer in answers:
        if answer != CHALLENGE and board.notation(board.parse_move(answer)) == written:
            return answer, ""
    return written, ""


def attempt(puzzle: Puzzle, reply: str, lexicon: Lexicon) -> Attempt:
    """``reply`` (a move in players' notation, ``pass``, ``-ABC`` to exchange,
    or ``challenge``) graded against the puzzle's answers: the same move,
    however it is written."""
    move, error = same_move(puzzle.cgp, reply, puzzle.answers)
    if move is None:
        return Attempt(False, None, error=error)
    right = move in puzzle.answers
    return Attempt(right, move, puzzle.value if right else dict(puzzle.alternatives).get(move))
