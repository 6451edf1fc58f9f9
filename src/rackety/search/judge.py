"""The judge: the one answer to "what is the best move here, and what is this
move worth", by the phase of the game, within a budget.

Analysis, hints, the web app, ``rackety moves --think``, the championship
player and UCGI's ``go`` all ask `Judge.verdict` (or `Judge.value`); none of
them keeps phase logic of its own. The phase (`phase_of`):

- **endgame**, the bag empty and two players: the exact endgame
  (`rackety.search.endgame.solve`; the opponent's rack is the unseen tiles,
  `known_racks`), iterative deepening within ``Budget.exact`` seconds. A move
  is worth the change in spread it leads to, to the end of the game under
  best play: the best move's value is the solve's; any other move given is
  played and the position after it solved (or, when it goes out or makes the
  second pass in a row, its end-of-game points by the rules, `Rules.end_points`);
- **pre-endgame**, 1 to `PEG_TILES` tiles in the bag and two players: the
  pre-endgame (`rackety.search.preendgame`) of the best ``candidates`` static
  placements and the moves given, within ``Budget.exact``; each move's win %
  and expected spread change to the end of the game, and whether it is exact;
- **simulation**, otherwise, with ``Budget.seconds`` > 0 and two players:
  Monte Carlo simulation (`rackety.search.simulation.simulate`) of the best
  static candidates and the moves given, with the trained leave table,
  ranked by win % (equity breaks ties);
- **static** equity otherwise (the budget zero, more than two players, a
  model the simulation cannot take), or when the phase's search cannot run
  or finds nothing: the verdict says why (`Verdict.note`).

Every verdict says how it valued the moves (`Verdict.valued_by`: ``exact
endgame``, ``endgame, 6 plies``, ``pre-endgame``, ``simulation, 1,200
rollouts``, ``static``) and gives each move a value in points (`Valuation.value`:
the spread change to the end of the game in the endgame and the pre-endgame,
equity otherwise) and a win % (`Valuation.win_pct`: 100, 50 or 0 by the final
spread in the endgame; the searches' own in the pre-endgame and simulation;
for static equity the measured table of `rackety.game.winpct`, at the
mover's spread plus the move's equity).

How much a move lost (`Verdict.loss`) is graded as MAGPIE and Macondo grade it:
by win % lost, small from `MISTAKE_WIN_PCT` [0], medium from [1], large from
[2]; in the endgame by points lost (`MISTAKE_POINTS`), and large whenever a
move that wins is passed over for one that does not. A player's Mistake Index
is the sum of `MISTAKE_WEIGHTS` over their turns (docs/ANALYSIS.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

# pydantic reads a TypedDict's fields on Python 3.11 only from typing_extensions'
# (the web app declares these shapes as its answers)
from typing_extensions import TypedDict

from rackety.alphabet import BLANK_FLAG
from rackety.errors import RacketyError
from rackety.game.heuristics import leave_model
from rackety.game.movegen import generate
from rackety.game.rules import END_OUT, END_SCORELESS
from rackety.game.winpct import WinTable
from rackety.search.control import EXACT_SECONDS, clock
from rackety.search.simulation import Plies, Sampling, checked_plies, rank_key

if TYPE_CHECKING:
    from rackety.game.board import Board
    from rackety.game.move import Move
    from rackety.game.movegen import MoveList
    from rackety.lexicon import Lexicon
    from rackety.search.control import Control

#: the most tiles in the bag the pre-endgame judges
PEG_TILES = 2
#: win % lost from which a move is a small, medium or large mistake
MISTAKE_WIN_PCT = (0.5, 3.0, 7.0)
#: points lost (endgame) from which a move is a small, medium or large mistake
MISTAKE_POINTS = (1.0, 7.0, 15.0)
#: a mistake's weight in the Mistake Index, by size
MISTAKE_WEIGHTS = {"none": 0.0, "small": 0.2, "medium": 0.5, "large": 1.0}
SIZES = ("none", "small", "medium", "large")
#: rollouts a candidate between two looks at the clock
SIM_BATCH = 16
#: the static moves a verdict generates when the caller gives none
STATIC_TOP = 40

PHASES = ("endgame", "pre-endgame", "simulation", "static")

# ------------------------------------------------------------- a game clock
#: what a game clock keeps back: seconds, and a share of the time left
CLOCK_RESERVE = (0.25, 0.02)
#: tiles drawn between two turns of the mover, both players' (about four a play)
TILES_PER_ROUND = 8
#: a turn's weight in the split of a game clock, by the bag: the opening, the
#: middle game, the last simulated turns (up to a rack of tiles in the bag), the
#: pre-endgame and the endgame (its first turn: the later ones are quick)
CLOCK_WEIGHTS = {"opening": 0.6, "middle": 1.0, "late": 1.6, "pre-endgame": 2.5,
                 "endgame": 0.5}
#: a position whose mover's win % is outside this band is decided: its turn
#: gets `DECIDED_SHARE` of its weight
DECIDED_BAND = (2.0, 98.0)
DECIDED_SHARE = 0.25
#: the most of the usable time one turn takes (the endgame's first turn: `ENDGAME_SHARE`)
TURN_SHARE = 0.4
ENDGAME_SHARE = 0.75


def clock_seconds(board: Board, left: float, *, increment: float = 0.0) -> float:
    """The seconds to spend on the mover's turn of ``board`` with ``left``
    seconds on their game clock (and ``increment`` gained a move).

    A reserve is kept (`CLOCK_RESERVE`); the rest is split over the mover's
    turns still to come, about one per `TILES_PER_ROUND` tiles in the bag and
    the endgame, each weighted by `CLOCK_WEIGHTS`: more where a search decides
    most (the pre-endgame, the last turns before it, the endgame), less on
    the opening and in a decided game (`DECIDED_BAND`, by the win % table); no
    turn takes more than `TURN_SHARE` of it (`ENDGAME_SHARE` in the endgame).
    docs/SEARCH.md, "A game clock", says why."""
    left = max(0.0, float(left))
    reserve = min(0.5 * left, CLOCK_RESERVE[0] + CLOCK_RESERVE[1] * left)
    usable = left - reserve
    rack = board.alphabet.rack_size

    def weight(bag: int) -> float:
        if bag == 0:
            return CLOCK_WEIGHTS["endgame"]
        if bag <= PEG_TILES:
            return CLOCK_WEIGHTS["pre-endgame"]
        return CLOCK_WEIGHTS["late" if bag <= rack else "middle"]

    bag = board.bag_count
    now = CLOCK_WEIGHTS["opening"] if board.tiles_on_board == 0 else weight(bag)
    if len(board.racks) == 2:
        unseen = bag + (len(board.racks[1]) or min(rack, board.unseen_count))
        spread = board.scores[0] - board.scores[1] if len(board.scores) == 2 else 0
        win = WinTable.for_alphabet(board.alphabet).pct(spread, unseen)
        if not DECIDED_BAND[0] <= win <= DECIDED_BAND[1]:
            now *= DECIDED_SHARE
    later = sum(weight(b) for b in range(bag - TILES_PER_ROUND, 0, -TILES_PER_ROUND))
    if bag > 0:
        later += CLOCK_WEIGHTS["endgame"]
    share = now / (now + later)
    most = ENDGAME_SHARE if bag == 0 else TURN_SHARE
    return max(0.0, min(share, most) * usable + 0.9 * max(0.0, increment))


@dataclass(frozen=True)
class Budget:
    """What a verdict may spend: ``seconds`` of simulation in the middle game
    (0: static equity), at most ``iterations`` rollouts a candidate (None: as
    the seconds allow), and ``exact`` seconds for each endgame and
    pre-endgame search (None: however long exactness takes), or ``plies``:
    each endgame searched that many plies deep at most, whatever the time (the
    seconds then do not apply, and the verdict is the same on any machine;
    a search cut at the depth is not exact)."""

    seconds: float = 0.0
    exact: float | None = EXACT_SECONDS
    iterations: int | None = None
    plies: int | None = None

    def __post_init__(self) -> None:
        if not self.seconds >= 0:
            raise RacketyError(f"budget: seconds {self.seconds}: expected 0 or more")
        if self.exact is not None and not self.exact > 0:
            raise RacketyError(f"budget: exact seconds {self.exact}: expected more than 0")
        if self.iterations is not None and self.iterations < 1:
            raise RacketyError(f"budget: iterations {self.iterations}: expected 1 or more")
        if self.plies is not None and self.plies < 1:
            raise RacketyError(f"budget: plies {self.plies}: expected 1 or more")

    @property
    def search_seconds(self) -> float | None:
        """The seconds of each endgame and pre-endgame search (None: no limit)."""
        return None if self.plies is not None else self.exact

    @classmethod
    def clock(cls, seconds: float) -> Budget:
        """One clock for every phase: ``seconds`` for the simulation, the
        endgame or the pre-endgame, whichever the position is in."""
        return cls(seconds=seconds, exact=max(seconds, 0.05))


@dataclass(frozen=True)
class Valuation:
    """One move as the judge valued it: ``value`` in points (the spread change
    to the end of the game in the endgame and pre-endgame, else equity),
    ``win_pct`` (0-100), whether the value is ``exact``, its ``stderr`` and
    ``rollouts`` in a simulation, its ``static`` equity."""

    move: Move
    value: float
    win_pct: float
    exact: bool = False
    stderr: float | None = None
    rollouts: int = 0
    static: float | None = None


@dataclass(frozen=True)
class Loss:
    """What a move lost against the best: ``points`` (in the verdict's unit),
    ``win_pct`` (percentage points) and the mistake's ``size``."""

    points: float
    win_pct: float
    size: str

    @property
    def index(self) -> float:
        """The mistake's weight in the Mistake Index (`MISTAKE_WEIGHTS`)."""
        return MISTAKE_WEIGHTS[self.size]


@dataclass
class Verdict:
    """The judge's answer for a position: the ``phase``, how the moves were
    valued (``valued_by``), the moves ``ranked`` best first (the best
    candidates and every move asked about that could be valued), the mover's
    ``spread`` now, whether every value is ``exact``, the ``seconds`` it took,
    a ``note`` when a phase fell back to another, the search's own ``result``
    and the static move list it started from (``moves``)."""

    phase: str
    valued_by: str
    ranked: list[Valuation]
    spread: int
    exact: bool = False
    seconds: float = 0.0
    note: str = ""
    result: Any = field(default=None, repr=False)
    moves: Any = field(default=None, repr=False)

    @property
    def best(self) -> Valuation | None:
        return self.ranked[0] if self.ranked else None

    @property
    def unit(self) -> str:
        """``spread`` (to the end of the game) or ``equity``."""
        return "spread" if self.phase in ("endgame", "pre-endgame") else "equity"

    def of(self, move: Move) -> Valuation | None:
        """The valuation of ``move``, None when the verdict could not value it."""
        return next((v for v in self.ranked if v.move == move), None)

    def loss(self, move: Move) -> Loss | None:
        """What ``move`` lost against the best (module docstring), None when it
        was not valued."""
        best, mine = self.best, self.of(move)
        if best is None or mine is None:
            return None
        points = max(0.0, best.value - mine.value)
        win = max(0.0, best.win_pct - mine.win_pct)
        if self.phase == "endgame":
            blown = self.spread + best.value > 0 >= self.spread + mine.value
            size = "large" if blown else _size(points, MISTAKE_POINTS)
        else:
            size = _size(win, MISTAKE_WIN_PCT)
        return Loss(points, win, size)

    def summary(self, board: Board, move: Move | None = None) -> str:
        """Why ``move`` (the best by default) in one line: how the moves were
        valued (the rollouts of a simulation), the move's win % and the next
        best with its own, and in the endgame and pre-endgame the spread each
        leads to. The one line the web app shows for a computer's move
        (`rackety.players.best.BestPlayer.explain`)."""
        chosen = self.best if move is None else self.of(move)
        if chosen is None and move is not None:  # a move the verdict did not value
            return f"{self.valued_by}: {board.notation(move)} not valued"
        if chosen is None:
            return f"{self.valued_by}: no move valued"
        runner = next((v for v in self.ranked if v.move != chosen.move), None)

        def said(v: Valuation, what: str = "") -> str:
            text = f"{board.notation(v.move)} {v.win_pct:.1f}%{what}"
            if self.unit == "spread":
                text += f" ({v.value:+.1f} spread)"
            return text

        line = f"{self.valued_by}: {said(chosen, ' to win')}"
        if runner is not None:
            line += f", next best {said(runner)}"
        if self.note:
            line += f" ({self.note})"
        return line

    def as_json(self, board: Board, top: int | None = None) -> VerdictShape:
        """The verdict as plain values (the first ``top`` moves; not the
        seconds, so that the same verdict reads the same): the one JSON form
        of a verdict, which the web app and ``rackety moves --think`` give."""
        return {"phase": self.phase, "valued_by": self.valued_by, "unit": self.unit,
                "exact": self.exact, "spread": self.spread, "note": self.note or None,
                "moves": [valuation_json(board, v) for v in self.ranked[:top]]}


class ValuationShape(TypedDict):
    """One move valued by the judge (`valuation_json`): ``value`` in the
    verdict's unit, ``win_pct``, whether exact, the standard error and
    rollouts of a simulation, and its static equity."""

    move: str
    score: int
    value: float
    win_pct: float
    exact: bool
    stderr: float | None
    rollouts: int
    static: float | None


class VerdictShape(TypedDict):
    """A verdict (`Verdict.as_json`): the phase, what valued the moves, their
    unit (``spread`` or ``equity``), whether exact, the spread before the
    move, a note when a search fell back, and the moves best first."""

    phase: str
    valued_by: str
    unit: str
    exact: bool
    spread: int
    note: str | None
    moves: list[ValuationShape]


def valuation_json(board: Board, v: Valuation) -> ValuationShape:
    """One valuation as plain values."""
    return {"move": board.notation(v.move), "score": int(v.move.score or 0),
            "value": round(float(v.value), 3), "win_pct": round(float(v.win_pct), 2),
            "exact": v.exact, "stderr": None if v.stderr is None else round(v.stderr, 3),
            "rollouts": v.rollouts,
            "static": None if v.static is None else round(float(v.static), 3)}


def grading() -> str:
    """How mistakes are graded and indexed, in one line for people."""
    small, medium, large = MISTAKE_WIN_PCT
    p1, p2, p3 = MISTAKE_POINTS
    w = MISTAKE_WEIGHTS
    return (f"values: spread to the end of the game in endgames and pre-endgames, equity "
            f"elsewhere; a mistake by win % lost: small from {small:g}, medium from "
            f"{medium:g}, large from {large:g}; in endgames by points lost: {p1:g}, {p2:g}, "
            f"{p3:g} (a won game lost: large); Mistake Index = {w['small']:g} a small + "
            f"{w['medium']:g} a medium + {w['large']:g} a large")


def _size(lost: float, thresholds: tuple[float, float, float]) -> str:
    small, medium, large = thresholds
    return "large" if lost >= large else "medium" if lost >= medium else \
        "small" if lost >= small else "none"


def phase_of(board: Board, budget: Budget) -> str:
    """The phase a position is judged in (module docstring), before any search
    runs (a search that cannot run falls back to static equity)."""
    two = len(board.racks) == 2 and bool(board.rack)
    bag = board.bag_count
    if two and bag == 0:
        return "endgame"
    if two and bag <= PEG_TILES:
        return "pre-endgame"
    if two and budget.seconds > 0:
        return "simulation"
    return "static"


class Judge:
    """The judge of one lexicon (module docstring). ``leave``: the static
    evaluation's leave model, a spec (``static``: the lexicon's trained table;
    ``h1``-``h3``; ``leaves:FILE.klv2``; ``none``: equity = score) or a model
    (the simulation needs a spec); ``candidates``: the moves searched besides
    those asked about; ``plies`` of each rollout (or ``"auto"``: as the time
    allows, `rackety.search.simulation.choose_plies`); ``seed`` of the rollouts;
    ``jobs`` processes for the pre-endgame and the simulation (``source``: the
    lexicon's name or path for them to load it); ``sampling``: how the
    simulation spends its rollouts (`rackety.search.simulation.simulate`)."""

    def __init__(self, lexicon: Lexicon, *, leave: Any = "static", candidates: int = 10,
                 plies: Plies = 2, seed: int = 0, jobs: int | None = 1,
                 source: str | None = None, sampling: Sampling = "racing") -> None:
        if candidates < 1:
            raise RacketyError(f"judge: candidates {candidates}: expected 1 or more")
        self.lexicon = lexicon
        self.sampling: Sampling = sampling
        self.leave = leave
        self.candidates = candidates
        self.plies: Plies = checked_plies(plies, "judge")
        self.seed = seed
        self.jobs = jobs
        self.source = source
        if leave is None or (isinstance(leave, str) and leave.strip().lower() == "none"):
            self.model: Any = None
        elif isinstance(leave, str):
            self.model = leave_model(leave, lexicon)
        else:
            self.model = leave

    # ------------------------------------------------------------ asking
    def value(self, board: Board, move: Move, budget: Budget | None = None,
              **options: Any) -> Valuation | None:
        """What ``move`` is worth here (None when it cannot be valued)."""
        return self.verdict(board, budget, include=[move], **options).of(move)

    def verdict(self, board: Board, budget: Budget | None = None, *,
                include: Sequence[Move] = (), moves: Sequence[Move] | None = None,
                static: MoveList | None = None, control: Control | None = None,
                opponent_leaves: Any = (),
                progress: Callable[[str, int, int | None], None] | None = None) -> Verdict:
        """The best move of ``board`` and the values of the best candidates and
        of ``include`` (the moves asked about), within ``budget`` (default:
        static in the middle game, `EXACT_SECONDS` a search in the endgame).
        ``moves``: search these candidates instead of the best static ones;
        ``static``: the position's static move list when the caller has it
        (else the best `STATIC_TOP` or four times the candidates: a move asked
        about outside them is valued as `static_move` values it);
        ``control``: a deadline and a stop for the searches;
        ``opponent_leaves``: what the opponent kept (an inference) for the
        simulation's rollouts; ``progress(what, done, total)`` as a search goes."""
        budget = budget or Budget()
        if self.lexicon.alphabet.identity != board.alphabet.identity:
            raise RacketyError(f"lexicon {self.lexicon.name} is in alphabet "
                               f"{self.lexicon.alphabet.name}, the position in "
                               f"{board.alphabet.name}")
        started = clock()
        if static is None:  # the best static moves, enough for the candidates and more
            static = generate(board, self.lexicon, mode="top", leave=self.model,
                              top=max(STATIC_TOP, 4 * self.candidates))
        phase = phase_of(board, budget)
        note = ""
        verdict: Verdict | None = None
        try:
            if phase == "endgame":
                verdict = self._endgame(board, budget, include, control, progress)
            elif phase == "pre-endgame":
                verdict = self._preendgame(board, budget, include, moves, static, control,
                                           progress)
            elif phase == "simulation":
                verdict = self._simulation(board, budget, include, moves, static, control,
                                           opponent_leaves, progress)
        except RacketyError as exc:
            note = f"the {phase} could not run: {exc}"
        if verdict is None:
            verdict = self._static(board, include, moves, static)
            verdict.note = verdict.note or note
        verdict.moves = static
        verdict.seconds = clock() - started
        return verdict

    # ------------------------------------------------------------ phases
    def _static(self, board: Board, include: Sequence[Move],
                moves: Sequence[Move] | None, static: MoveList) -> Verdict:
        spread = _spread(board)
        unseen = board.unseen_count
        bag = board.bag_count
        table = WinTable.for_alphabet(board.alphabet)
        chosen = [static.find(m) or self.static_move(board, m) for m in moves] if moves \
            else list(static[:self.candidates])
        extra = [static.find(m) or self.static_move(board, m) for m in include]
        out: list[Valuation] = []
        seen: set[Move] = set()
        for m in [*chosen, *extra]:
            if m is None or m in seen:
                continue
            seen.add(m)
            equity = _equity(m)
            drawn = min(bag, m.n_placed) if m.kind == "place" else 0
            out.append(Valuation(m, equity, table.pct(spread + equity, max(0, unseen - drawn)),
                                 static=equity))
        out.sort(key=lambda v: -v.value)
        note = "" if self.model is not None else "equity = score (no leave values)"
        return Verdict("static", "static", out, spread, note=note)

    def static_move(self, board: Board, move: Move) -> Move | None:
        """``move`` scored and valued by static equity as the generator would
        (its score plus the value of the tiles kept; a play the generator does
        not list, a phony, included); None when the rack does not hold its
        tiles or it is not a placement."""
        if move.kind != "place":
            return None
        rack = list(board.rack)
        for tile in move.placed:
            code = 0 if tile & BLANK_FLAG else tile
            if code not in rack:
                return None
            rack.remove(code)
        score = board.score(move)
        value = float(self.model.rack_values(board.alphabet, rack)[-1]) \
            if self.model is not None else 0.0
        return replace(move, score=score, equity=score + value, leave_codes=tuple(rack))

    def _endgame(self, board: Board, budget: Budget, include: Sequence[Move],
                 control: Control | None,
                 progress: Callable[[str, int, int | None], None] | None) -> Verdict | None:
        from rackety.search.endgame import known_racks, solve

        position = known_racks(board)
        if progress is not None:
            progress("solving the endgame", 0, None)
        result = solve(position, self.lexicon, seconds=budget.search_seconds,
                       max_depth=budget.plies, control=control)
        if not result.pv:
            return None
        spread = _spread(board)
        best = result.pv[0]
        ranked = [Valuation(best, float(result.value), _final_pct(spread + result.value),
                            exact=result.exact)]
        exact = result.exact
        for move in include:
            if move == best or any(v.move == move for v in ranked):
                continue
            valued = self._after(position, move, budget, control)
            if valued is None:
                continue
            value, move_exact, scored = valued
            exact = exact and move_exact
            ranked.append(Valuation(scored, float(value), _final_pct(spread + value),
                                    exact=move_exact))
        ranked.sort(key=lambda v: -v.value)
        how = "exact endgame" if exact else f"endgame, {result.depth} plies (not exact)"
        return Verdict("endgame", how, ranked, spread, exact=exact, result=result)

    def _after(self, position: Board, move: Move, budget: Budget,
               control: Control | None) -> tuple[int, bool, Move] | None:
        """The exact value of ``move`` in the endgame ``position`` (both racks
        known): its score, then the end of the game by the rules or the solve of
        the position after it. None for a move that cannot be made here."""
        from rackety.search.endgame import solve

        rules = position.rules
        points = [_face(position, r) for r in position.racks]
        if move.kind == "exchange":
            return None
        try:
            after = position.play(move)
        except RacketyError:
            return None
        score = int(after.scores[-1] - position.scores[0])
        scored = replace(move, score=score) if move.kind == "place" else move
        if move.kind == "place" and not after.racks[-1]:  # went out
            ends = rules.end_points(0, [0, points[1]], END_OUT)
            return score + ends[0] - ends[1], True, scored
        if move.kind == "pass" and (position.zero_turns > 0 or rules.ending(
                went_out=False, scoreless=position.zero_turns + 1) == END_SCORELESS):
            # the second pass in a row (the solver's convention), or the rules' last
            ends = rules.end_points(0, points, END_SCORELESS)
            return ends[0] - ends[1], True, scored
        result = solve(after, self.lexicon, seconds=budget.search_seconds,
                       max_depth=budget.plies, control=control)
        return score - result.value, result.exact, scored

    def _preendgame(self, board: Board, budget: Budget, include: Sequence[Move],
                    moves: Sequence[Move] | None, static: MoveList, control: Control | None,
                    progress: Callable[[str, int, int | None], None] | None
                    ) -> Verdict | None:
        from rackety.search.preendgame import preendgame

        if moves:
            found = (static.find(m) for m in moves if m.kind == "place")
            chosen = [m for m in found if m is not None][:self.candidates]
        else:  # the best placements, made as far as needed
            chosen = [static.placement(i) for i in range(min(len(static.meta),
                                                             self.candidates))]
        everything = None
        for m in include:
            if m.kind != "place" or m in chosen:
                continue
            legal = static.find(m)
            if legal is None:  # beyond the static list given: is it a placement at all?
                everything = everything or generate(board, self.lexicon, leave=self.model)
                legal = everything.find(m)
            if legal is not None:
                chosen.append(legal)
        if not chosen:
            return None
        report = None if progress is None else \
            (lambda done, total, what: progress(what, done, total))
        result = preendgame(board, self.lexicon, candidates=len(chosen),
                            leave=self._spec() or "static",
                            seconds=budget.search_seconds, jobs=self.jobs,
                            source=self.source, seed=self.seed, moves=chosen, progress=report,
                            control=control, max_depth=budget.plies)
        if not result.outcomes:
            return None
        statics = {m: _equity(m) for m in chosen}
        ranked = [Valuation(o.move, float(o.spread), float(o.win_pct), exact=o.exact,
                            rollouts=o.rollouts, static=statics.get(o.move))
                  for o in result.outcomes]
        ranked.sort(key=lambda v: rank_key(v.win_pct, v.value))
        how = "pre-endgame (exact)" if result.exact else "pre-endgame (not exact)"
        return Verdict("pre-endgame", how, ranked, _spread(board), exact=result.exact,
                       result=result)

    def _simulation(self, board: Board, budget: Budget, include: Sequence[Move],
                    moves: Sequence[Move] | None, static: MoveList,
                    control: Control | None, opponent_leaves: Any,
                    progress: Callable[[str, int, int | None], None] | None
                    ) -> Verdict | None:
        from rackety.search.simulation import simulate

        spec = self._spec()
        if spec is None:
            raise RacketyError("the simulation needs a leave model named by a spec (static, "
                               "h1, h2, h3 or leaves:FILE.klv2)")
        chosen = [static.find(m) or self.static_move(board, m) or m for m in moves] if moves \
            else list(static[:self.candidates])
        for m in include:
            if m not in chosen:
                found = static.find(m) or self.static_move(board, m)
                if found is not None or m.kind != "place":
                    chosen.append(found or m)
        if len(chosen) < 2:
            return None  # one move: nothing to compare
        report = None if progress is None else \
            (lambda done, alive: progress(f"rollouts ({alive} candidates left)", done,
                                          budget.iterations))
        result = simulate(board, self.lexicon, leave=spec, moves=chosen, plies=self.plies,
                          seconds=budget.seconds, iterations=budget.iterations,
                          seed=self.seed, jobs=self.jobs, batch=SIM_BATCH,
                          source=self.source, opponent_leaves=opponent_leaves,
                          control=control, progress=report, sampling=self.sampling)
        if result.iterations == 0:
            return None
        ranked = [Valuation(c.move, float(c.equity), float(c.win_pct),
                            stderr=None if c.iterations < 2 else float(c.stderr),
                            rollouts=c.iterations, static=float(c.static_equity))
                  for c in result.candidates]
        ranked.sort(key=lambda v: rank_key(v.win_pct, v.value))
        depth = f"{result.plies} plies, " if self.plies == "auto" else ""
        return Verdict("simulation", f"simulation, {depth}{result.rollouts:,} rollouts", ranked,
                       _spread(board), result=result)

    def _spec(self) -> str | None:
        return self.leave if isinstance(self.leave, str) and self.model is not None else None


def _spread(board: Board) -> int:
    """The mover's spread: their score minus the best other score."""
    return int(board.scores[0] - max(board.scores[1:], default=0)) if board.scores else 0


def _face(board: Board, rack: Sequence[int]) -> int:
    tiles = board.alphabet.tiles
    return int(sum(tiles[c].points for c in rack if 0 < c < len(tiles)))


def _final_pct(final: float) -> float:
    return 100.0 if final > 0 else 50.0 if final == 0 else 0.0


def _equity(move: Move) -> float:
    return float(move.equity if move.equity is not None else move.score or 0)


__all__ = [
    "EXACT_SECONDS",
    "MISTAKE_POINTS",
    "MISTAKE_WEIGHTS",
    "MISTAKE_WIN_PCT",
    "PEG_TILES",
    "PHASES",
    "SIZES",
    "Budget",
    "Judge",
    "Loss",
    "Valuation",
    "Verdict",
    "grading",
    "phase_of",
    "valuation_json",
]
