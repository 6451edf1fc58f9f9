"""Analysis of game records: every turn against the best move, as the judge
sees it.

For each turn of a GCG record whose mover's whole rack is known (a full rack,
or a short one with the bag empty: `whole_rack`), `analyze_record` asks the
judge (`rackety.search.judge.Judge`) for the best move and the value of the
move played, by the phase of the game: the exact endgame with the bag empty
(values in spread, to the end of the game), the pre-endgame with one or two
tiles in the bag, simulation with ``sim_seconds`` (ranked by win %), else
static equity (score plus the value of the tiles kept). The turn's loss is
the judge's: points lost (``equity_lost``, in the verdict's unit) and win %
lost, graded small, medium or large (`rackety.search.judge.Verdict.loss`). A
play the generator does not list, a phony, is valued as it would be. A turn
whose rack the record gives only partly, or not at all, is listed as not
assessed, with the reason (``why_not``). The analysis also says whether a
bingo (a play of every tile of a full rack) was there and not played, and
gives the words of every play that are not in the lexicon and their fate:
taken back after a challenge (a ``--`` event) or stood.

`summarize` adds up turns per player: turns assessed and not, points and win
% lost, mistakes by size and the Mistake Index (their weights summed:
`rackety.search.judge.MISTAKE_WEIGHTS`), bingos played and missed, phonies
played, challenged off and stood.

`analyze_task` is the unit of work of ``rackety analyze``: one record, read,
replayed and analysed in whichever process `rackety.backends.run_tasks` sends
it to.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from rackety.errors import RacketyError
from rackety.frontends.common import resolve_leave
from rackety.game.board import Board
from rackety.game.gcg import read_gcg, replay
from rackety.game.heuristics import leave_label
from rackety.game.move import Move
from rackety.game.movegen import MoveList, generate
from rackety.game.referee import formed_words
from rackety.kernels import fields as _k
from rackety.lexicon import Lexicon
from rackety.search.control import Control
from rackety.search.judge import EXACT_SECONDS, MISTAKE_WEIGHTS, SIZES, Budget, Judge

#: the events that are a player's turn and can be assessed
ASSESSED_KINDS = ("play", "exchange", "pass")


@dataclass
class TurnAnalysis:
    """One event of a record, assessed when it is a turn whose mover's whole
    rack is known.

    ``index`` is the event's 0-based index in the record, ``move`` the placement
    as written (None for other kinds). ``played`` and ``best`` are moves of the
    position; ``played_equity`` and ``best_equity`` their values as the judge
    gave them (``unit``: ``spread`` to the end of the game in the endgame and
    pre-endgame, else ``equity``; ``valued_by`` says how), ``played_win_pct``
    and ``best_win_pct`` their win %. ``equity_lost`` (points) and
    ``win_pct_lost`` are None when the turn was not assessed (``why_not``
    says why: the rack unknown or partial, a move the rack cannot make, a
    move the phase's search could not value); ``mistake`` is its size
    (``none``, ``small``, ``medium``, ``large``). ``bingo_available`` is None
    when no move was generated. ``phonies`` are the words of the play not in
    the lexicon, ``challenged_off`` whether the play was taken back (``--``).
    """

    index: int
    seat: int
    player: str
    kind: str
    rack: str
    written: str
    score: int
    line_number: int = 0
    move: Move | None = None
    rack_known: bool = False
    played: Move | None = None
    best: Move | None = None
    played_text: str | None = None
    best_text: str | None = None
    played_equity: float | None = None
    best_equity: float | None = None
    played_win_pct: float | None = None
    best_win_pct: float | None = None
    equity_lost: float | None = None
    win_pct_lost: float | None = None
    mistake: str | None = None
    bingo: bool = False
    bingo_available: bool | None = None
    best_bingo_text: str | None = None
    phonies: tuple[str, ...] = ()
    challenged_off: bool = False
    valued_by: str | None = None  # the judge's: "exact endgame", "static", ...
    unit: str | None = None  # "spread" or "equity"
    exact: bool = False
    why_not: str | None = None  # why a turn of a player was not assessed

    @property
    def assessed(self) -> bool:
        return self.equity_lost is not None

    @property
    def missed_bingo(self) -> bool:
        """A bingo was in the list of moves and the move played is not one."""
        return bool(self.bingo_available) and not self.bingo

    @property
    def phony_fate(self) -> str | None:
        """``"challenged off"`` or ``"stood"`` for a phony, else None."""
        if not self.phonies:
            return None
        return "challenged off" if self.challenged_off else "stood"


@dataclass
class PlayerSummary:
    """One player's turns added up. ``turns`` counts the turns assessed,
    ``not_assessed`` those of theirs that could not be (rack unknown or
    partial ...); ``mistakes`` by size; ``mistake_index`` the sum of the
    mistakes' weights (`MISTAKE_WEIGHTS`); ``bingos`` counts plays of a full
    rack that stayed on the board; ``phonies`` plays with a word not in the
    lexicon."""

    player: str
    turns: int = 0
    not_assessed: int = 0
    equity_lost: float = 0.0
    win_pct_lost: float = 0.0
    mistakes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIZES[1:], 0))
    mistake_index: float = 0.0
    bingos: int = 0
    bingos_missed: int = 0
    phonies: int = 0
    phonies_challenged: int = 0
    phonies_stood: int = 0

    @property
    def average_lost(self) -> float:
        """Points lost per turn assessed."""
        return self.equity_lost / self.turns if self.turns else 0.0

    def as_json(self) -> dict[str, Any]:
        return {"player": self.player, "turns": self.turns,
                "not_assessed": self.not_assessed,
                "equity_lost": round(self.equity_lost, 3),
                "average_lost": round(self.average_lost, 3),
                "win_pct_lost": round(self.win_pct_lost, 2),
                "mistakes": dict(self.mistakes),
                "mistake_index": round(self.mistake_index, 2), "bingos": self.bingos,
                "bingos_missed": self.bingos_missed, "phonies": self.phonies,
                "phonies_challenged": self.phonies_challenged,
                "phonies_stood": self.phonies_stood}


@dataclass
class RecordAnalysis:
    """A record's turns (one per event, in order) and what they add up to."""

    source: str
    players: list[str]
    lexicon: str
    scores: list[int]
    turns: list[TurnAnalysis] = field(default_factory=list)
    leave: str = "static"  # what the equity's leave values are (`leave_label`)
    sim_seconds: float | None = None
    budget: float | None = EXACT_SECONDS  # seconds of each endgame / pre-endgame search

    def summary(self, players: Collection[str] | None = None) -> list[PlayerSummary]:
        """Per player (seat order), or only for the nicknames in ``players``."""
        wanted = [p for p in self.players if players is None or p in players]
        return summarize(self.turns, wanted)

    def listed(self, players: Collection[str] | None = None) -> list[TurnAnalysis]:
        """The turns a listing shows: plays, exchanges and passes (of ``players``)."""
        return [t for t in self.turns if t.kind in ASSESSED_KINDS
                and (players is None or t.player in players)]


def summarize(turns: Iterable[TurnAnalysis],
              players: Iterable[str] | None = None) -> list[PlayerSummary]:
    """Turns added up per player: in the order of ``players`` (every player
    met, in order of appearance, when None)."""
    out: dict[str, PlayerSummary] = {}
    if players is not None:
        out = {p: PlayerSummary(p) for p in players}
    for t in turns:
        if t.player not in out:
            if players is not None:
                continue
            out[t.player] = PlayerSummary(t.player)
        s = out[t.player]
        if t.assessed:
            s.turns += 1
            s.equity_lost += float(t.equity_lost or 0.0)
            s.win_pct_lost += float(t.win_pct_lost or 0.0)
            s.bingos_missed += t.missed_bingo
            if t.mistake in s.mistakes:
                s.mistakes[t.mistake] += 1
            s.mistake_index += MISTAKE_WEIGHTS.get(t.mistake or "none", 0.0)
        elif t.why_not is not None:
            s.not_assessed += 1
        if t.kind == "play":
            s.bingos += t.bingo and not t.challenged_off
            if t.phonies:
                s.phonies += 1
                s.phonies_challenged += t.challenged_off
                s.phonies_stood += not t.challenged_off
    return list(out.values())


# ----------------------------------------------------------------- analysis
def phonies(board: Board, move: Move, lexicon: Any) -> tuple[str, ...]:
    """The words ``move`` forms on ``board`` that are not in ``lexicon``."""

    words = formed_words(board.grid, move.placed_squares(), move.placed)
    return tuple(board.alphabet.format(w) for w in words if w not in lexicon)


def played_move(board: Board, event: Any, move: Move | None, moves: MoveList) -> Move | None:
    """The move of ``moves`` (a `MoveList`) that ``event`` played, or None when
    the list does not hold it (a phony; an exchange of unknown tiles)."""
    if event.kind == "play" and move is not None:
        return moves.find(move) if move.kind == "place" else None
    if event.kind == "pass":
        return moves.find(Move("pass", alphabet=board.alphabet))
    if event.kind == "exchange" and event.tiles:
        try:
            codes = tuple(sorted(board.alphabet.tokenize(event.tiles, what="exchange")))
        except RacketyError:
            return None
        return moves.find(Move("exchange", tiles=codes, alphabet=board.alphabet))
    return None


def _bingo_index(moves: MoveList, rack_size: int) -> int | None:
    meta = moves.meta
    if not len(meta):
        return None
    hits = np.flatnonzero(meta[:, _k.M_PLACED] == rack_size)
    return int(hits[0]) if len(hits) else None


def whole_rack(board: Board) -> bool:
    """Whether the mover's rack on ``board`` is their whole rack: a full rack,
    or fewer tiles when the bag is empty. A record that gives only the tiles
    played leaves tiles unseen that a full bag would have filled the rack
    with: a short rack with tiles still in the bag is partial."""
    rack = board.rack
    return bool(rack) and (len(rack) >= board.alphabet.rack_size or board.bag_count == 0)


def analyze_record(record: Any, lexicon: Any, *, leave: Any = "static",
                   sim_seconds: float | None = None, sim_candidates: int = 15,
                   seats: Collection[int] | None = None, replayed: Any = None,
                   seed: int = 0, budget: float | None = EXACT_SECONDS,
                   plies: int | None = None,
                   progress: Callable[[int, int], None] | None = None,
                   control: Control | None = None) -> RecordAnalysis:
    """Assess every turn of ``record`` (a `rackety.game.gcg.GcgRecord`) whose
    mover's whole rack is known (see `TurnAnalysis`), asking the judge
    (`rackety.search.judge.Judge`) for the best move and the value of the move
    played, by the phase of the game.

    ``leave``: ``static`` (the lexicon's trained table), ``h1``, ``h2``, ``h3``,
    ``leaves:FILE.klv2``, ``none`` (equity = score) or a leave model.
    ``sim_seconds``: simulate each middle-game position that long, the best
    ``sim_candidates`` static moves and the move played (``leave`` must then
    name a model: it is also the rollouts' policy); else static equity.
    ``budget``: the seconds of each endgame or pre-endgame search (None: as
    long as exactness takes); ``plies``: instead, each endgame searched that
    deep at most (the same analysis on any machine). ``seats``: assess only
    these players' turns (the others are listed, with their phonies, but not
    assessed). ``replayed``:
    the record's `rackety.game.gcg.replay`, when the caller has it.
    ``progress(done, total)`` after each turn assessed. ``control``: the
    searches' deadline and stop; once stopped, the turns left are listed as
    not assessed (``why_not``: stopped)."""

    rep = replayed if replayed is not None else replay(record)
    if lexicon.alphabet.identity != rep.alphabet.identity:
        raise RacketyError(f"lexicon {lexicon.name} is in alphabet {lexicon.alphabet.name}; "
                           f"the record is in {rep.alphabet.name}")
    model = _model(leave, lexicon)
    if sim_seconds is not None:
        if not isinstance(leave, str) or model is None:
            raise RacketyError("simulation needs a leave model (static, h1, h2, h3 or "
                               "leaves:FILE.klv2), not none")
        if sim_seconds <= 0:
            raise RacketyError("sim seconds: more than 0")
    if budget is not None and not budget > 0:
        raise RacketyError(f"budget {budget}: expected more than 0 seconds")
    judge = Judge(lexicon, leave=leave if isinstance(leave, str) else model,
                  candidates=sim_candidates if sim_seconds else 10, seed=seed, jobs=1)
    limits = Budget(seconds=sim_seconds or 0.0, exact=budget, plies=plies)
    rack_size = rep.alphabet.rack_size
    withdrawn = set(rep.withdrawn)
    names = [p.nickname for p in record.players]
    out = RecordAnalysis(record.source, names, lexicon.name, list(rep.scores),
                         leave=leave_label(model, lexicon), sim_seconds=sim_seconds,
                         budget=budget)
    todo = [i for i, event in enumerate(record.events)
            if event.kind in ASSESSED_KINDS and (seats is None or event.seat in seats)]
    done = 0
    for i, event in enumerate(record.events):
        board = rep.positions[i]
        move = rep.moves[i]
        turn = TurnAnalysis(
            index=i, seat=event.seat,
            player=names[event.seat] if event.seat < len(names) else event.nickname,
            kind=event.kind, rack=event.rack, written=event.move, score=event.score,
            line_number=event.line_number, move=move)
        out.turns.append(turn)
        if event.kind == "play" and move is not None:
            turn.phonies = phonies(board, move, lexicon)
            turn.challenged_off = i in withdrawn
            turn.bingo = move.n_placed == rack_size
            turn.played_text = board.notation(move)
        if i not in todo:
            continue
        if control is not None and control.stopped():
            turn.why_not = "stopped"
            continue
        _assess(turn, board, event, move, judge, limits, model, rack_size, control)
        done += 1
        if progress is not None:
            progress(done, len(todo))
    return out


def _assess(turn: TurnAnalysis, board: Board, event: Any, move: Move | None, judge: Judge,
            limits: Budget, model: Any, rack_size: int, control: Control | None) -> None:
    """One turn against the judge's verdict (`analyze_record`)."""
    if not board.rack:
        turn.why_not = "rack unknown"
        return
    if not whole_rack(board):
        turn.why_not = "rack partial (the record gives only the tiles played)"
        return
    turn.rack_known = True
    moves = generate(board, judge.lexicon, leave=model)
    played = played_move(board, event, move, moves)
    if played is None and event.kind == "play" and move is not None:
        played = judge.static_move(board, move)  # a phony, say
    found = _bingo_index(moves, rack_size)
    turn.bingo_available = found is not None
    if found is not None:
        turn.best_bingo_text = board.notation(moves.placement(found))
    if played is not None:
        turn.played_text = board.notation(played)
    else:
        turn.why_not = "the move played is not one of the rack's"
        return
    verdict = judge.verdict(board, limits, include=[played], static=moves, control=control)
    best, mine = verdict.best, verdict.of(played)
    turn.valued_by = verdict.valued_by
    turn.unit = verdict.unit
    turn.exact = verdict.exact
    if best is not None:
        turn.best, turn.best_text = best.move, board.notation(best.move)
        turn.best_equity, turn.best_win_pct = best.value, best.win_pct
    turn.played = played
    loss = verdict.loss(played)
    if mine is None or loss is None:
        turn.why_not = f"the {verdict.phase} could not value the move played"
        return
    turn.played_equity, turn.played_win_pct = mine.value, mine.win_pct
    turn.equity_lost, turn.win_pct_lost, turn.mistake = loss.points, loss.win_pct, loss.size


def _model(leave: Any, lexicon: Any) -> Any:
    if leave is None:
        return None
    if isinstance(leave, str):
        return resolve_leave(leave, lexicon)
    return leave


# ------------------------------------------------------------ batch (CLI)
class AnalysisTask(NamedTuple):
    """One record of ``rackety analyze``, as a worker gets it: the GCG bytes, the
    record's name, the lexicon (a source and an alphabet name), the leave model,
    the seconds of simulation a turn (None: static equity), the player whose turns
    are assessed (None: every player), the board layout given for the record
    (None: the one it names, else the alphabet's), the seconds of each
    endgame or pre-endgame search (None: as long as exactness takes) or the
    plies each endgame is searched at most."""

    data: bytes
    source: str
    lexicon_source: str
    alphabet: str
    leave: str
    sim_seconds: float | None
    player: str | None
    layout: str | None = None
    budget: float | None = EXACT_SECONDS
    plies: int | None = None

_LEXICONS: dict[tuple[str, str], Any] = {}


def _lexicon(source: str, alphabet: str) -> Any:
    key = (source, alphabet)
    if key not in _LEXICONS:
        _LEXICONS[key] = Lexicon.load(source, alphabet)
    return _LEXICONS[key]


def seats_of(record: Any, player: str | None) -> list[int] | None:
    """The seats whose nickname (or name) is ``player``, any case; None for
    every seat."""
    if player is None:
        return None
    wanted = player.strip().lower()
    return [i for i, p in enumerate(record.players)
            if wanted in (p.nickname.lower(), (p.name or "").lower())]


def analyze_task(task: AnalysisTask,
                 progress: Callable[[int, int], None] | None = None) -> RecordAnalysis:
    """Read, replay and analyse one record (a task of ``rackety analyze``);
    ``progress(done, total)`` after each turn assessed. ``control``: the
    searches' deadline and stop; once stopped, the turns left are listed as
    not assessed (``why_not``: stopped)."""

    task = AnalysisTask(*task)
    record = read_gcg(task.data, source=task.source)
    rep = replay(record, alphabet=task.alphabet, layout=task.layout)
    lexicon = _lexicon(task.lexicon_source, task.alphabet)
    return analyze_record(record, lexicon, leave=task.leave, sim_seconds=task.sim_seconds,
                          seats=seats_of(record, task.player), replayed=rep,
                          budget=task.budget, plies=task.plies, progress=progress)


__all__ = ["ASSESSED_KINDS", "AnalysisTask", "PlayerSummary", "RecordAnalysis", "TurnAnalysis",
           "analyze_record", "analyze_task", "phonies", "played_move", "seats_of", "summarize",
           "whole_rack"]
