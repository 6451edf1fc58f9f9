"""The JSON form of each result, declared once and produced in one place.

Every result a front end answers (a position's moves, a simulation, an
endgame, a pre-endgame, a record's analysis, an inference, a game's events)
has one JSON form: a `TypedDict`
here and the one function that makes it (beside it, or in
`rackety.frontends.common` for the tiles, boards and moves the others are made
of). ``rackety ... --json`` prints it, the web app answers it (its routes
declare these as their response models, so the OpenAPI schema describes
them), and the UCGI engine's ``info`` lines take their values from it. The
names are the web API's; a timing is named ``seconds`` and is the only field
that differs between two runs of the same search."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any, NotRequired

# pydantic reads a TypedDict's fields on Python 3.11 only from typing_extensions'
from typing_extensions import TypedDict

from rackety.frontends.common import board_json, inference_json, move_json
from rackety.game.move import Move, format_leave
from rackety.search.judge import ValuationShape, VerdictShape

if TYPE_CHECKING:
    from rackety.frontends.analysis import RecordAnalysis, TurnAnalysis
    from rackety.game.board import Board
    from rackety.game.movegen import MoveList
    from rackety.search.endgame import EndgameResult
    from rackety.search.preendgame import PreEndgameResult
    from rackety.search.simulation import Candidate, SimResult

__all__ = [
    "EndgameShape",
    "InferenceShape",
    "LeaveShape",
    "MoveShape",
    "MovesShape",
    "PlacedShape",
    "PreEndgameMoveShape",
    "PreEndgameShape",
    "RecordAnalysisShape",
    "SimMoveShape",
    "SimulationShape",
    "SummaryShape",
    "TileShape",
    "TurnMoveShape",
    "TurnShape",
    "ValuationShape",
    "VerdictShape",
    "endgame_json",
    "moves_json",
    "preendgame_json",
    "record_analysis_json",
    "sim_move_json",
    "simulation_json",
    "turn_json",
]


# ------------------------------------------------------------- the parts
class TileShape(TypedDict):
    """A tile as the page draws it (`common.tile_json`)."""

    letter: str
    points: int
    blank: bool


class PlacedShape(TileShape):
    """A tile a move places, with its square."""

    row: int
    col: int


class MoveShape(TypedDict):
    """A move (`common.move_json`): ``kind``, ``squares`` and ``tiles`` with
    its detail only."""

    move: str
    score: int
    leave: str
    equity: float
    kind: NotRequired[str]
    squares: NotRequired[list[list[int]]]
    tiles: NotRequired[list[PlacedShape]]


# ----------------------------------------------------------------- moves
class MovesShape(TypedDict):
    """A position's moves (``rackety moves --json``, ``POST /api/analyze``):
    the tile placements counted, the best score and the placements that make
    it, the leave values of the equity (``none``: the score alone), what full
    static equity adds here (``adjustment``), and the top moves by equity.
    ``rackety moves`` adds the ``cgp`` (``--count-only``: only the count and
    the best score; ``--best``: only the best move); the web app adds the
    judge's ``verdict`` and, with ``detail``, the position and lexicon."""

    count: NotRequired[int]
    best_score: NotRequired[int | None]
    best_moves: NotRequired[list[str]]
    leaves: NotRequired[str]
    adjustment: NotRequired[str]
    moves: NotRequired[list[MoveShape]]
    verdict: NotRequired[VerdictShape]  # `rackety.search.judge.Verdict.as_json`
    cgp: NotRequired[str]
    lexicon: NotRequired[str]
    board: NotRequired[dict[str, Any]]
    racks: NotRequired[list[list[TileShape]]]
    scores: NotRequired[list[int]]
    bag: NotRequired[int]


def moves_json(board: Board, moves: MoveList, *, top: int, leaves: str,
               adjustment: str | None = None, detail: bool = False) -> MovesShape:
    """A move list's count, best score and top ``top`` moves; ``leaves`` says
    what the equity's leave values are (`rackety.game.heuristics.leave_label`)."""
    out: MovesShape = {
        "count": int(moves.count), "best_score": moves.best_score,
        "best_moves": sorted(board.notation(m) for m in moves.top_scoring()),
        "leaves": leaves,
        "moves": [move_json(board, m, detail=detail) for m in moves[:top]]}  # type: ignore[misc]
    if adjustment:
        out["adjustment"] = adjustment
    return out


# ------------------------------------------------------------ simulation
class SimMoveShape(MoveShape):
    """A simulated candidate: the move (with its detail), its win % and mean
    spread change (``equity``) over ``iterations`` rollouts, their standard
    errors (null after one rollout), the static equity it started from, and
    whether it was dropped for falling behind."""

    win_pct: float
    win_pct_stderr: float | None
    static_equity: float
    iterations: int
    stderr: float | None
    dropped: bool


class SimulationShape(TypedDict):
    """A simulation (``rackety sim --json``, ``POST /api/simulate``): the
    candidates ranked by win %, then equity; the rollouts run in all
    (``iterations``, each of one candidate) and why it stopped; with an
    inference, the position simulated (after the opponent's play) and what
    the opponent kept."""

    moves: list[SimMoveShape]
    iterations: int
    stopped: str
    seconds: float
    cgp: NotRequired[str]
    inference: NotRequired[InferenceShape]


def sim_move_json(board: Board, c: Candidate) -> SimMoveShape:
    """One simulated candidate (values to 3 places, win % to 2)."""
    more = c.iterations > 1
    row: Any = move_json(board, c.move, detail=True)
    row.update({"win_pct": round(float(c.win_pct), 2),
                "win_pct_stderr": round(float(c.win_pct_stderr), 2) if more else None,
                "equity": round(float(c.equity), 3),
                "static_equity": round(float(c.static_equity), 3),
                "iterations": int(c.iterations),
                "stderr": round(float(c.stderr), 3) if more else None,
                "dropped": bool(c.dropped)})
    return row  # type: ignore[no-any-return]


def simulation_json(board: Board, result: SimResult, *, inferred: Any = None) -> SimulationShape:
    """A simulation's result; ``inferred``, the opponent's leaves it drew
    from (`rackety.search.inference.Inference`), adds the position and them."""
    out: SimulationShape = {"moves": [sim_move_json(board, c) for c in result.candidates],
                            "iterations": int(result.rollouts), "stopped": result.stopped,
                            "seconds": round(float(result.seconds), 3)}
    if inferred is not None:
        out["cgp"] = board.cgp()
        out["inference"] = inference_json(inferred, top=10)  # type: ignore[typeddict-item]
    return out


# --------------------------------------------------------------- endgame
class PvMoveShape(MoveShape):
    """A move of an endgame's principal variation, on the position before it."""

    side: str  # "to move" or "opponent"


class EndgameShape(TypedDict):
    """An endgame (``rackety endgame --json``, the ``result`` of ``POST
    /api/endgame``): the value for the player to move (spread change to the
    end of the game), exact or the depth searched, the nodes, the final
    spread, the principal variation and its first move, and the opponent's
    rack as the solver took it (``opponent_rack_from``: ``cgp``, or ``unseen``
    when the position left it unknown)."""

    value: int
    exact: bool
    depth: int
    nodes: int
    seconds: float
    final_spread: int
    best: PvMoveShape | None
    pv: list[PvMoveShape]
    opponent_rack: str
    opponent_rack_from: str


def endgame_json(board: Board, result: EndgameResult, *, given: Board | None = None
                 ) -> EndgameShape:
    """An endgame's result on ``board`` (the racks as the solver took them:
    `rackety.search.endgame.known_racks`); ``given``, the position as asked,
    says whether the opponent's rack came from it or from the unseen tiles."""
    pv: list[Any] = []
    before = board
    for i, move in enumerate(result.pv):
        row: Any = move_json(before, move, detail=True)
        row["side"] = "to move" if i % 2 == 0 else "opponent"
        pv.append(row)
        before = before.play(move)
    asked = given if given is not None else board
    return {"value": int(result.value), "exact": bool(result.exact),
            "depth": int(result.depth), "nodes": int(result.nodes),
            "seconds": round(float(result.seconds), 3),
            "final_spread": int(board.scores[0] - board.scores[1] + result.value),
            "best": pv[0] if pv else None, "pv": pv,
            "opponent_rack": format_leave(board.alphabet, board.racks[1]),
            "opponent_rack_from": "cgp" if asked.racks[1] else "unseen"}


# ----------------------------------------------------------- pre-endgame
class PreEndgameMoveShape(MoveShape):
    """A pre-endgame candidate: its win % and expected spread change over the
    draws, the draws searched (of ``worlds``) and how many exactly, the
    rollouts of a play that leaves tiles in the bag, and ``method``."""

    win_pct: float
    spread_change: float
    method: str
    draws: int
    exact_draws: int
    worlds: int
    rollouts: int
    exact: bool


class PreEndgameShape(TypedDict):
    """A pre-endgame (``rackety preendgame --json``, the ``result`` of ``POST
    /api/preendgame``): the candidates best first, the tiles in the bag, the
    endgames searched and solved exactly, whether it stopped early, and its
    time budget (null: none)."""

    candidates: list[PreEndgameMoveShape]
    best: PreEndgameMoveShape | None
    bag: int
    endgames: int
    exact_endgames: int
    exact: bool
    stopped: bool
    seconds: float
    budget: float | None


def preendgame_json(board: Board, result: PreEndgameResult) -> PreEndgameShape:
    """A pre-endgame's result, per candidate best first."""
    rows: list[Any] = []
    for o in result.outcomes:
        row: Any = move_json(board, o.move, detail=True)
        row.update({"win_pct": round(float(o.win_pct), 2),
                    "spread_change": round(float(o.spread), 2), "method": o.method,
                    "draws": len(o.draws), "exact_draws": sum(1 for d in o.draws if d[3]),
                    "worlds": int(o.worlds), "rollouts": int(o.rollouts),
                    "exact": bool(o.exact)})
        rows.append(row)
    return {"candidates": rows, "best": rows[0] if rows else None, "bag": int(result.bag),
            "endgames": int(result.endgames), "exact_endgames": int(result.exact_endgames),
            "exact": bool(rows) and bool(result.exact), "stopped": bool(result.stopped),
            "seconds": round(float(result.seconds), 3), "budget": result.budget}


# ------------------------------------------------------------- inference
class LeaveShape(TypedDict):
    leave: str
    probability: float


class InferenceShape(TypedDict):
    """An inference (`common.inference_json`, ``rackety infer --json``, ``POST
    /api/infer``)."""

    move: str
    leaves: list[LeaveShape]
    leaves_total: int
    racks: int
    consistent: int
    consistent_probability: float
    unseen: str
    known: str
    played: str
    exchanged: int
    rack_size: int
    margin: float
    leave_model: str
    letters: dict[str, float]
    seconds: float


# ------------------------------------------------------------------- games
class GameEventShape(TypedDict):
    """One event of a game, in order (``index`` from 0): the seat and player,
    the kind (``play``, ``exchange``, ``pass``, ``withdrawn``, ``challenge_bonus``
    ...), the move in notation (None for the events that are not moves), its
    points and the player's total after it, the rack before it (empty where
    it is hidden or unknown), the squares its tiles went to, the notes, and
    ``why`` a computer player chose the move where it says (in the web app's
    game state, the championship player's line, `BestPlayer.explain`; else
    null).
    The web app's game state and ``rackety gcg show --json`` list these."""

    index: int
    seat: int
    player: str
    kind: str
    move: str | None
    score: int
    total: int
    rack: str
    squares: list[list[int]]
    notes: list[str]
    why: str | None


def game_event_json(index: int, seat: int, player: str, kind: str, move: Move | None,
                    text: str | None, score: int, total: int, rack: str,
                    notes: Sequence[str], why: str | None = None) -> GameEventShape:
    """An event as `GameEventShape` says: ``move`` the placement or exchange
    the event made, when known, and ``text`` its notation."""
    squares = [list(sq) for sq in move.placed_squares()] \
        if move is not None and move.kind == "place" else []
    return {"index": index, "seat": seat, "player": player, "kind": kind,
            "move": text or None, "score": int(score), "total": int(total), "rack": rack,
            "squares": squares, "notes": list(notes), "why": why}


# -------------------------------------------------------- record analysis
class TurnMoveShape(MoveShape):
    """The move played or the best one of a turn, with the judge's value of it
    (in the turn's ``unit``) and its win %; both null when the rack was not
    known (the play as written, at its score)."""

    value: NotRequired[float | None]
    win_pct: NotRequired[float | None]


class TurnShape(TypedDict):
    """One event of a record: the position before it (``cgp``, ``board``), what
    was written, and when the mover's whole rack is known the move played
    against the best, the points (``equity_lost``, in ``unit``) and win %
    lost, the mistake's size, bingos and phonies (``why_not``: why a turn was
    not assessed)."""

    index: int  # 0-based, in the record's events
    event: int  # 1-based, as rackety gcg show numbers them
    line: int
    seat: int
    player: str
    rack: str
    kind: str
    written: str
    score: int
    total: int | None
    cgp: str
    board: dict[str, Any]
    played: TurnMoveShape | None
    best: TurnMoveShape | None
    assessed: bool
    equity_lost: float | None
    win_pct_lost: float | None
    mistake: str | None
    valued_by: str | None
    unit: str | None
    exact: bool
    why_not: str | None
    bingo: bool
    bingo_available: bool | None
    missed_bingo: bool
    best_bingo: str | None
    phonies: list[str]
    phony_fate: str | None


class SummaryShape(TypedDict):
    """One player's turns added up (`analysis.PlayerSummary`)."""

    player: str
    turns: int
    not_assessed: int
    equity_lost: float
    average_lost: float
    win_pct_lost: float
    mistakes: dict[str, int]
    mistake_index: float
    bingos: int
    bingos_missed: int
    phonies: int
    phonies_challenged: int
    phonies_stood: int


class FinalShape(TypedDict):
    board: dict[str, Any]
    scores: list[int]


class RecordAnalysisShape(TypedDict):
    """A record's analysis (each game of ``rackety analyze --json``, ``POST
    /api/gcg/analyze``): its players, lexicon, leave values and search budget,
    every event (only those of ``players`` when asked), the final position and
    scores, and the summary per player."""

    file: str
    players: list[str]
    lexicon: str
    leave: str
    sim_seconds: float | None
    budget: float | None
    scores: list[int]
    turns: list[TurnShape]
    final: FinalShape
    summary: list[SummaryShape]


def _round(value: float | None, places: int = 3) -> float | None:
    return None if value is None else round(float(value), places)


def turn_json(t: TurnAnalysis, event: Any, board: Board, written: Any) -> TurnShape:
    """One event of a record's analysis: ``event`` the record's, ``board`` the
    position before it, ``written`` the move as the replay read it (None for
    an event that places nothing)."""
    played: Any = None
    best: Any = None
    if t.rack_known:
        if t.best is not None:
            best = {**move_json(board, t.best, detail=True), "value": _round(t.best_equity),
                    "win_pct": _round(t.best_win_pct, 2)}
        if t.played is not None:
            played = {**move_json(board, t.played, detail=True),
                      "value": _round(t.played_equity), "win_pct": _round(t.played_win_pct, 2)}
    elif written is not None:  # the rack not known: the play as written, at its score
        from dataclasses import replace

        played = move_json(board, replace(written, score=event.score,
                                          equity=float(event.score)), detail=True)
    return {"index": t.index, "event": t.index + 1, "line": t.line_number, "seat": t.seat,
            "player": t.player, "rack": t.rack, "kind": t.kind, "written": t.written,
            "score": t.score, "total": event.total, "cgp": board.cgp(),
            "board": board_json(board), "played": played, "best": best,
            "assessed": t.assessed, "equity_lost": _round(t.equity_lost),
            "win_pct_lost": _round(t.win_pct_lost, 2), "mistake": t.mistake,
            "valued_by": t.valued_by, "unit": t.unit, "exact": t.exact,
            "why_not": t.why_not, "bingo": t.bingo, "bingo_available": t.bingo_available,
            "missed_bingo": t.missed_bingo, "best_bingo": t.best_bingo_text,
            "phonies": list(t.phonies), "phony_fate": t.phony_fate}


def record_analysis_json(analysis: RecordAnalysis, record: Any, replayed: Any, *,
                         players: Collection[str] | None = None) -> RecordAnalysisShape:
    """A record's analysis (`rackety.frontends.analysis.analyze_record`) with
    the record and its replay (`rackety.game.gcg.replay`) it was made of:
    every event, or only those of the nicknames in ``players``."""
    turns = [turn_json(t, record.events[t.index], replayed.positions[t.index],
                       replayed.moves[t.index])
             for t in analysis.turns if players is None or t.player in players]
    return {"file": analysis.source, "players": list(analysis.players),
            "lexicon": analysis.lexicon, "leave": analysis.leave,
            "sim_seconds": analysis.sim_seconds, "budget": analysis.budget,
            "scores": [int(s) for s in analysis.scores], "turns": turns,
            "final": {"board": board_json(replayed.positions[-1]),
                      "scores": [int(s) for s in replayed.scores]},
            "summary": [s.as_json() for s in analysis.summary(players)]}  # type: ignore[misc]
