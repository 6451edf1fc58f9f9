"""What a player's own games say they should study (docs/STUDY.md), from the
judge's analysis of a record (`rackety.frontends.analysis`): a study item
(`Lesson`) for

- each bingo they missed: the alphagram of the best bingo's word (its tiles
  on the board included), an anagram question;
- each phony they played, and each one of the opponent's they let stand: a
  word judge question;
- each hook they missed: where their move lost points (a medium or large
  mistake) and the judge's best move hooked a word on the board (put one tile
  before or after it) that their move did not, that word, a hook question;
- each of their worst turns (a large mistake) whose position is a puzzle
  (`rackety.study.puzzles`: its best move clearly best), that position, a
  puzzle item.

Each lesson says where it came from: the record, the turn and what happened.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rackety.alphabet import BLANK_FLAG
from rackety.errors import RacketyError
from rackety.frontends.analysis import RecordAnalysis
from rackety.game.board import Board
from rackety.game.move import Move
from rackety.game.referee import formed_words
from rackety.study.puzzles import cut

#: the mistakes whose best move's hooks are lessons
HOOK_MISTAKES = ("medium", "large")
#: the seconds of each endgame or pre-endgame search when a record is analysed
#: for its lessons (a mistake there teaches no word)
SEARCH_SECONDS = 3.0


@dataclass(frozen=True)
class Lesson:
    """A study item from a game: its question's ``kind`` ("anagrams",
    "judge", "hooks"), its ``prompt`` and where it came from (``source``)."""

    kind: str
    prompt: str
    source: str

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "prompt": self.prompt, "source": self.source}


def _format(board: Board, codes: list[int]) -> str:
    return board.alphabet.format([c & ~BLANK_FLAG for c in codes], brackets=True)


def _word(move: Move) -> list[int]:
    """The codes of a placement's main word, its tiles on the board included."""
    return [int(t) & ~BLANK_FLAG for t in move.tiles]


def hooked_words(board: Board, move: Move) -> set[str]:
    """The words on ``board`` that ``move`` hooks: each run of tiles its new
    tiles make, in either direction, that holds one new tile, at one of its
    ends, beside a word of two tiles or more already on the board."""
    grid = board.grid
    squares = move.placed_squares()
    new = dict(zip(squares, move.placed, strict=True))
    size_r, size_c = grid.shape
    found: set[str] = set()
    for r, c in squares:
        for dr, dc in ((0, 1), (1, 0)):
            run = [(r, c)]
            rr, cc = r - dr, c - dc
            while rr >= 0 and cc >= 0 and (grid[rr, cc] or (rr, cc) in new):
                run.insert(0, (rr, cc))
                rr, cc = rr - dr, cc - dc
            rr, cc = r + dr, c + dc
            while rr < size_r and cc < size_c and (grid[rr, cc] or (rr, cc) in new):
                run.append((rr, cc))
                rr, cc = rr + dr, cc + dc
            placed = [sq for sq in run if sq in new]
            if len(run) >= 3 and len(placed) == 1 and placed[0] in (run[0], run[-1]):
                old = [sq for sq in run if sq not in new]
                found.add(_format(board, [int(grid[sq]) for sq in old]))
    return found


def _phonies(board: Board, move: Move, lexicon: Any) -> list[str]:
    """The words ``move`` forms that ``lexicon`` lacks, a tile of several
    letters in brackets (as the study items write them)."""
    words = formed_words(board.grid, move.placed_squares(), move.placed)
    return [_format(board, list(w)) for w in words if w not in lexicon]


def lessons(analysis: RecordAnalysis, replayed: Any, seats: list[int], lexicon: Any,
            name: str, *, puzzles: bool = True) -> list[Lesson]:
    """The lessons of ``seats``' turns in an analysed record (module
    docstring), each once, in the order of the game; ``replayed`` is the
    record's `rackety.game.gcg.replay`, ``lexicon`` the analysis's, ``name``
    what the sources call the record; ``puzzles``: a worst turn (a large
    mistake) that is a puzzle (`rackety.study.puzzles.cut`) too."""
    out: dict[tuple[str, str], Lesson] = {}

    def add(kind: str, prompt: str, turn: Any, what: str) -> None:
        out.setdefault((kind, prompt), Lesson(kind, prompt,
                                              f"{name} turn {turn.index + 1}: {what}"))

    for turn in analysis.turns:
        board = replayed.positions[turn.index]
        mine = turn.seat in seats
        phonies = _phonies(board, turn.move, lexicon) if turn.phonies and \
            turn.move is not None else []
        for phony in phonies:
            if mine:
                add("judge", phony, turn, f"{phony}, a phony played")
            elif not turn.challenged_off:
                add("judge", phony, turn, f"{phony}, a phony let stand")
        if not mine:
            continue
        if turn.missed_bingo and turn.best_bingo_text:
            try:
                bingo = board.parse_move(turn.best_bingo_text)
            except RacketyError:
                bingo = None
            if bingo is not None and bingo.kind == "place":
                prompt = _format(board, sorted(_word(bingo)))
                add("anagrams", prompt, turn, f"missed bingo {turn.best_bingo_text}")
        if turn.mistake == "large" and puzzles:  # a worst turn: a puzzle, if clearly one
            found = cut(board, lexicon, source=f"{name} turn {turn.index + 1}")
            if found is not None:
                add("puzzle", found.cgp, turn, f"your {turn.played_text or turn.written} "
                    f"lost to {found.answers[0]}: a puzzle")
        if turn.mistake in HOOK_MISTAKES and turn.best is not None \
                and turn.best.kind == "place":
            played = hooked_words(board, turn.played) if turn.played is not None \
                and turn.played.kind == "place" else set()
            for word in sorted(hooked_words(board, turn.best) - played):
                add("hooks", word, turn, f"the hook on {word} of {turn.best_text}")
    return list(out.values())


@dataclass(frozen=True)
class SeatStudy:
    """What one player's turns of a record say: their ``lessons``, the
    ``turns`` of theirs the judge assessed and their ``mistake_index`` (the
    analysis's, docs/ANALYSIS.md)."""

    lessons: list[Lesson]
    turns: int
    mistake_index: float


def record_study(record: Any, lexicon: Any, seats: list[int], name: str, *,
                 replayed: Any = None, control: Any = None,
                 budget: float = SEARCH_SECONDS) -> dict[int, SeatStudy]:
    """Each of ``seats``' study of ``record`` (a `rackety.game.gcg.GcgRecord`):
    the judge's analysis of their turns (static equity, ``budget`` seconds
    each endgame search), its lessons (`lessons`) and its Mistake Index.
    ``control``: the analysis's stop (`rackety.frontends.analysis.analyze_record`)."""
    from rackety.frontends.analysis import analyze_record, summarize
    from rackety.game.gcg import replay

    rep = replayed if replayed is not None else replay(record)
    analysis = analyze_record(record, lexicon, seats=seats, replayed=rep, budget=budget,
                              control=control)
    out = {}
    for seat in seats:
        summary = summarize([t for t in analysis.turns if t.seat == seat])
        out[seat] = SeatStudy(lessons(analysis, rep, [seat], lexicon, name),
                              summary[0].turns if summary else 0,
                              round(summary[0].mistake_index, 3) if summary else 0.0)
    return out
