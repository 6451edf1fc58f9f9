"""Analysis of game records: every turn against the best move.

For each turn of a GCG record whose rack is known, `analyze_record` generates
every move of the position (placements, exchanges and the pass, each valued by
a leave model: score plus the value of the tiles kept), takes the best, finds
the move played in the list, and gives the equity it lost (best minus played,
never below 0). A play the generator does not list, a phony, is scored and
valued as it would be (score plus leave). It also says whether a bingo (a play
of every tile of a full rack) was there and not played, and gives the words of
every play that are not in the lexicon and their fate: taken back after a
challenge (a ``--`` event) or stood. With ``sim_seconds`` the best move and the
move played are valued by simulation (`rackety.search.simulation.simulate`: the best
static candidates and the move played, simulated together) instead.

`summarize` adds up turns per player: turns assessed, equity lost (total and
per turn), bingos played and missed, phonies played, challenged off and stood.

`analyze_task` is the unit of work of ``rackety analyze``: one record, read,
replayed and analysed in whichever process `rackety.backends.run_tasks` sends
it to.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import numpy as np

from rackety.alphabet import BLANK_FLAG
from rackety.errors import RacketyError
from rackety.frontends.common import resolve_leave
from rackety.game.board import Board
from rackety.game.gcg import read_gcg, replay
from rackety.game.heuristics import leave_label
from rackety.game.move import Move
from rackety.game.movegen import generate
from rackety.game.referee import formed_words
from rackety.kernels import fields as _k
from rackety.lexicon import Lexicon
from rackety.search.simulation import simulate

#: the events that are a player's turn and can be assessed
ASSESSED_KINDS = ("play", "exchange", "pass")


@dataclass
class TurnAnalysis:
    """One event of a record, assessed when it is a turn whose rack is known.

    ``index`` is the event's 0-based index in the record, ``move`` the placement
    as written (None for other kinds). ``played`` and ``best`` are moves of the
    position valued by the leave model (``equity``); ``played_equity`` and
    ``best_equity`` are the values the loss is measured with (the same, or the
    simulated equities when ``valued_by`` is ``"sim"``). ``equity_lost`` is None
    when the turn was not assessed (the rack unknown, an exchange of unknown
    tiles, a play the rack cannot make, another kind of event).
    ``bingo_available`` is None when no move was generated. ``phonies`` are the
    words of the play not in the lexicon, ``challenged_off`` whether the play
    was taken back (``--``).
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
    equity_lost: float | None = None
    bingo: bool = False
    bingo_available: bool | None = None
    best_bingo_text: str | None = None
    phonies: tuple[str, ...] = ()
    challenged_off: bool = False
    valued_by: str | None = None  # "static" | "sim"

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

    def as_json(self) -> dict[str, Any]:
        """The turn as plain values (equities rounded to 3 places)."""
        return {
            "event": self.index + 1, "line": self.line_number, "player": self.player,
            "seat": self.seat, "rack": self.rack, "kind": self.kind, "written": self.written,
            "score": self.score, "assessed": self.assessed,
            "played": self.played_text,
            "played_score": None if self.played is None else int(self.played.score or 0),
            "played_equity": _round(self.played_equity),
            "best": self.best_text,
            "best_score": None if self.best is None else int(self.best.score or 0),
            "best_equity": _round(self.best_equity),
            "equity_lost": _round(self.equity_lost),
            "bingo": self.bingo, "bingo_available": self.bingo_available,
            "missed_bingo": self.missed_bingo, "best_bingo": self.best_bingo_text,
            "phonies": list(self.phonies), "phony_fate": self.phony_fate,
            "valued_by": self.valued_by}


@dataclass
class PlayerSummary:
    """One player's turns added up. ``bingos`` counts plays of a full rack that
    stayed on the board; ``phonies`` plays with a word not in the lexicon."""

    player: str
    turns: int = 0
    equity_lost: float = 0.0
    bingos: int = 0
    bingos_missed: int = 0
    phonies: int = 0
    phonies_challenged: int = 0
    phonies_stood: int = 0

    @property
    def average_lost(self) -> float:
        """Equity lost per turn assessed."""
        return self.equity_lost / self.turns if self.turns else 0.0

    def as_json(self) -> dict[str, Any]:
        return {"player": self.player, "turns": self.turns,
                "equity_lost": round(self.equity_lost, 3),
                "average_lost": round(self.average_lost, 3), "bingos": self.bingos,
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

    def summary(self, players: Collection[str] | None = None) -> list[PlayerSummary]:
        """Per player (seat order), or only for the nicknames in ``players``."""
        wanted = [p for p in self.players if players is None or p in players]
        return summarize(self.turns, wanted)

    def as_json(self, players: Collection[str] | None = None) -> dict[str, Any]:
        """The record's turns (plays, exchanges and passes; only those of
        ``players`` when given) and summary as plain values."""
        return {"file": self.source, "players": self.players, "lexicon": self.lexicon,
                "leave": self.leave, "sim_seconds": self.sim_seconds, "scores": self.scores,
                "turns": [t.as_json() for t in self.listed(players)],
                "summary": [s.as_json() for s in self.summary(players)]}

    def listed(self, players: Collection[str] | None = None) -> list[TurnAnalysis]:
        """The turns a listing shows: plays, exchanges and passes (of ``players``)."""
        return [t for t in self.turns if t.kind in ASSESSED_KINDS
                and (players is None or t.player in players)]


def _round(value: float | None) -> float | None:
    return None if value is None else round(float(value), 3)


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
            s.bingos_missed += t.missed_bingo
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


def off_list(board: Board, move: Move, model: Any) -> Move | None:
    """A placement the generator does not list (a phony), scored and valued as
    it would be: its score plus the value of its leave. None when the rack does
    not hold its tiles."""
    rack = list(board.rack)
    for tile in move.placed:
        code = 0 if tile & BLANK_FLAG else tile
        if code not in rack:
            return None
        rack.remove(code)
    score = board.score(move)
    value = float(model.rack_values(board.alphabet, rack)[-1]) if model is not None else 0.0
    return replace(move, score=score, equity=score + value, leave=tuple(rack))


def played_move(board: Board, event: Any, move: Move | None, moves: Any) -> Move | None:
    """The move of ``moves`` (a `MoveList`) that ``event`` played, or None when
    the list does not hold it (a phony; an exchange of unknown tiles)."""
    if event.kind == "play" and move is not None:
        return _find_placement(moves, move)
    if event.kind == "pass":
        return next((m for m in moves if m.kind == "pass"), None)
    if event.kind == "exchange" and event.tiles:
        try:
            codes = sorted(board.alphabet.tokenize(event.tiles, what="exchange"))
        except RacketyError:
            return None
        return next((m for m in moves if m.kind == "exchange" and sorted(m.tiles) == codes),
                    None)
    return None


def _find_placement(moves: Any, move: Move) -> Move | None:
    meta = moves.meta
    if not len(meta) or move.kind != "place":
        return None
    lane, first = (move.col, move.row) if move.down else (move.row, move.col)
    hits = np.flatnonzero((meta[:, _k.M_DIR] == int(move.down)) & (meta[:, _k.M_LANE] == lane)
                          & (meta[:, _k.M_FIRST] == first)
                          & (meta[:, _k.M_LEN] == len(move.tiles)))
    for i in hits:
        found = moves.placement(int(i))
        if found == move:
            return found
    return None


def _bingo_index(moves: Any, rack_size: int) -> int | None:
    meta = moves.meta
    hits = np.flatnonzero(meta[:, _k.M_PLACED] == rack_size) if len(meta) else []
    return int(hits[0]) if len(hits) else None


def _model(leave: Any, lexicon: Any) -> Any:
    if leave is None:
        return None
    if isinstance(leave, str):
        return resolve_leave(leave, lexicon)
    return leave


def analyze_record(record: Any, lexicon: Any, *, leave: Any = "static",
                   sim_seconds: float | None = None, sim_candidates: int = 15,
                   seats: Collection[int] | None = None, replayed: Any = None,
                   seed: int = 0) -> RecordAnalysis:
    """Assess every turn of ``record`` (a `rackety.game.gcg.GcgRecord`) whose rack is
    known (see `TurnAnalysis`).

    ``leave``: ``h1``, ``h2``, ``h3``, ``leaves:FILE.klv2``, ``none`` (equity =
    score) or a leave model. ``sim_seconds``: value the best ``sim_candidates``
    static moves and the move played by simulating each position that long
    (``leave`` must then name a model: it is also the rollouts' policy).
    ``seats``: assess only these players' turns (the others are listed, with
    their phonies, but not assessed). ``replayed``: the record's
    `rackety.game.gcg.replay`, when the caller has it."""

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
    rack_size = rep.alphabet.rack_size
    withdrawn = set(rep.withdrawn)
    names = [p.nickname for p in record.players]
    out = RecordAnalysis(record.source, names, lexicon.name, list(rep.scores),
                         leave=leave_label(model, lexicon), sim_seconds=sim_seconds)
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
        if seats is not None and event.seat not in seats:
            continue
        if not board.rack or event.kind not in ASSESSED_KINDS:
            continue
        turn.rack_known = True
        moves = generate(board, lexicon, leave=model)
        best = moves[0] if len(moves) else None
        played = played_move(board, event, move, moves)
        if played is None and event.kind == "play" and move is not None:
            played = off_list(board, move, model)  # a phony, say
        found = _bingo_index(moves, rack_size)
        turn.bingo_available = found is not None
        if found is not None:
            turn.best_bingo_text = board.notation(moves.placement(found))
        turn.best, turn.played = best, played
        if best is not None:
            turn.best_text = board.notation(best)
            turn.best_equity = _equity(best)
        if played is not None:
            turn.played_text = board.notation(played)
        if best is None or played is None:
            continue
        turn.played_equity = _equity(played)
        turn.valued_by = "static"
        if sim_seconds is not None:
            _simulate(turn, board, lexicon, moves, str(leave), sim_seconds, sim_candidates,
                      seed)
        turn.equity_lost = max(0.0, turn.best_equity - turn.played_equity)
    return out


def _equity(move: Move) -> float:
    return float(move.equity if move.equity is not None else move.score or 0)


def _simulate(turn: TurnAnalysis, board: Board, lexicon: Any, moves: Any, leave: str,
              seconds: float, candidates: int, seed: int) -> None:
    """Value the best static candidates and the move played by simulation."""

    assert turn.played is not None
    cands = list(moves[:candidates])
    if turn.played not in cands:
        cands.append(turn.played)
    if len(cands) < 2:
        return  # one move: nothing to compare, the static values stand
    result = simulate(board, lexicon, leave=leave, moves=cands, seconds=seconds,
                      seed=seed, jobs=1)
    by_move = {c.move: c for c in result.candidates}
    top = result.candidates[0]
    turn.best = top.move
    turn.best_text = board.notation(top.move)
    turn.best_equity = float(top.equity)
    turn.played_equity = float(by_move[turn.played].equity)
    turn.valued_by = "sim"


# ------------------------------------------------------------ batch (CLI)
class AnalysisTask(NamedTuple):
    """One record of ``rackety analyze``, as a worker gets it: the GCG bytes, the
    record's name, the lexicon (a source and an alphabet name), the leave model,
    the seconds of simulation a turn (None: static equity), the player whose turns
    are assessed (None: every player), and the board layout given for the record
    (None: the one it names, else the alphabet's)."""

    data: bytes
    source: str
    lexicon_source: str
    alphabet: str
    leave: str
    sim_seconds: float | None
    player: str | None
    layout: str | None = None

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


def analyze_task(task: AnalysisTask) -> RecordAnalysis:
    """Read, replay and analyse one record (a task of ``rackety analyze``)."""

    task = AnalysisTask(*task)
    record = read_gcg(task.data, source=task.source)
    rep = replay(record, alphabet=task.alphabet, layout=task.layout)
    lexicon = _lexicon(task.lexicon_source, task.alphabet)
    return analyze_record(record, lexicon, leave=task.leave, sim_seconds=task.sim_seconds,
                          seats=seats_of(record, task.player), replayed=rep)


__all__ = ["ASSESSED_KINDS", "AnalysisTask", "PlayerSummary", "RecordAnalysis", "TurnAnalysis",
           "analyze_record", "analyze_task", "off_list", "phonies", "played_move", "seats_of",
           "summarize"]
