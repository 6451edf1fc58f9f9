"""What the web app does, apart from HTTP: lexicons, games in play, analysis.

A game in play lives in memory as a `rackety.Game` and in the store as its
set-up (lexicon, board, seed, seats) and the list of its actions (moves,
challenges, undos), one transaction each. The bag is shuffled from the seed
(splitmix64), so replaying the actions rebuilds the game exactly: that is how
a game resumes after a restart or a crash. A killed server loses at most the
action in flight.

A game may be played on a game clock (``clock`` seconds a player): each
seat's time used is counted, the person's from when their turn began (when
the state that made it their turn was produced) to when their action
arrives, a computer's over its decision (the championship player then plays
on the clock, `BestPlayer` with ``clock``, told the time left by a
`Control`). Each stored action carries the time it was made (``at``, wall
time, so a turn's start survives a restart) and every seat's time used after
it (``used``); a finished game loses the rules' points past the clock
(`rackety.game.rules.overtime_penalty`) as time-penalty events.

Everything a request names is looked up in what the server offers (lexicon
names, board layouts, player levels); nothing from a request becomes a file
path.
"""

from __future__ import annotations

import queue
import random
import re
import sqlite3
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from rackety.alphabet import Alphabet
from rackety.errors import RacketyError, clip
from rackety.frontends.analysis import analyze_record
from rackety.frontends.common import (
    Lexicons,
    alphabet_json,
    board_json,
    hint,
    move_json,
    position_json,
    position_verdict,
    resolve_leave,
    tile_code,
    tile_json,
    tile_keys,
    unseen_json,
)
from rackety.frontends.shapes import (
    EndgameShape,
    MovesShape,
    PreEndgameShape,
    RecordAnalysisShape,
    SimulationShape,
    endgame_json,
    game_event_json,
    moves_json,
    preendgame_json,
    record_analysis_json,
    simulation_json,
)
from rackety.frontends.web.searches import Search, Searches
from rackety.frontends.web.store import Store
from rackety.game.board import Board, Layout
from rackety.game.gcg import (
    game_of,
    gcg_of,
    read_gcg,
    record_of,
    record_rules,
    replay,
    write_gcg,
)
from rackety.game.heuristics import leave_label, leave_model
from rackety.game.layout import square_name
from rackety.game.move import Move, format_leave
from rackety.game.movegen import generate, static_note
from rackety.game.referee import Game, IllegalMoveError, describe, placement
from rackety.game.rules import (
    CHALLENGE_RULES,
    DEFAULT_CHALLENGE,
    VARIANTS,
    ChallengeRule,
    Rules,
    Variant,
)
from rackety.players import BestPlayer, make_player
from rackety.players.base import decide_on_clock
from rackety.players.registry import PLAYER_LABELS
from rackety.players.sim import SimPlayer
from rackety.search.control import Control
from rackety.search.simulation import simulate

LEVELS = PLAYER_LABELS  # the players' menu labels are the registry's
TIMED = ("sim", "best")  # the levels that take a time budget a move
MAX_SIM_SECONDS = 30.0
MAX_INFER_RACKS = 100_000  # racks an inference may consider (seconds of work, not minutes)
#: seconds of each endgame or pre-endgame search the judge makes for a request
#: (by default: ``rackety serve --search-seconds``)
EXACT_SECONDS = 3.0
DEFAULT_LEVEL = "static"
#: the seconds a game clock may give each player (1 minute to 2 hours)
MIN_CLOCK = 60.0
MAX_CLOCK = 7200.0

#: the time of the game clocks: wall time, so that the start of a person's turn,
#: stored with the action before it, holds across a restart (tests replace it)
now = time.time


class NotFoundError(RacketyError):
    """No such game (HTTP 404)."""


class ConflictError(RacketyError):
    """Not allowed now: not your turn, the game is over, a record (HTTP 409)."""


# ------------------------------------------------------------------ lexicons
def _as_text(text: str) -> str:
    """GCG text as `read_gcg` must take it: as text, never as a file name (it
    reads a one-line string without ``#`` or ``>`` as a path)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise RacketyError("gcg: not valid Unicode text") from None
    return text if "\n" in text else text + "\n"


# -------------------------------------------------------------------- games
@dataclass
class Seat:
    name: str  # in the game (distinct)
    kind: str  # human | computer
    level: str | None = None
    seconds: float | None = None
    player: str | None = None  # the rated player, when not ``name`` ("greedy" for "greedy #2")


# What the computer seats are called (`Service._opponent`): a level, a time
# budget or a clock ("sim 2s", "best 0.5s", "best clock 300s"), a leave table's
# name, a number for a second seat.
_LEVEL_NAME = re.compile(r"(?:static|greedy|h[1-3]|sim|best)(?: ?clock)?"
                         r"(?: ?[0-9.][0-9.e+-]* ?s(?:ec|ecs|econds?)?)?(?: ?#[0-9]+)?"
                         r"|leaves ?:.*")
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def _person(name: str) -> str:
    """A person's name, checked: NFC, its spaces collapsed, something visible in
    it, no control characters (line breaks, escapes, text direction) and not
    the name of a computer seat in any spelling (`_level_like`)."""
    name = unicodedata.normalize("NFC", " ".join(name.split()))
    if not _name_key(name).replace(" ", ""):
        raise RacketyError("human: give a name")
    if any(unicodedata.category(ch) == "Cc" for ch in name) or _BIDI.search(name):
        raise RacketyError(f"human: {clip(name, 40)!r} has control characters; choose another")
    if _level_like(name):
        raise RacketyError(f"human: {clip(name, 40)!r} is the name of a computer player; "
                           "choose another")
    return name


def _name_key(name: str) -> str:
    """A name as it reads: compatibility forms folded (NFKC: full-width "ｈ１" is
    "h1"), case folded, invisible format characters (zero-width spaces) left
    out and spaces collapsed."""
    text = unicodedata.normalize("NFKC", name)
    text = unicodedata.normalize("NFKC", text.casefold())
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return " ".join(text.split())


def _level_like(name: str) -> bool:
    """Whether a name reads as a computer seat's ("H1", "best 2s", "ｇｒｅｅｄｙ",
    "sim 2 s", "h1" with a zero-width space): a person may not take it, so no
    game shows a person and a computer level by one name. (The store keeps
    people and levels apart whatever their names: this is for the people
    reading the names.)"""
    return bool(_LEVEL_NAME.fullmatch(_name_key(name)))


@dataclass
class Live:
    """A game in memory, with its lock."""

    id: int
    game: Game
    seats: list[Seat]
    human: int | None
    status: str
    config: dict[str, Any]
    players: dict[int, Any] = field(default_factory=dict)  # seat -> computer player
    lock: threading.Lock = field(default_factory=threading.Lock)
    actions: int = 0
    clock: float | None = None  # seconds a player on the game clock, None: no clock
    used: list[float] = field(default_factory=list)  # by seat, on the clock
    since: float = 0.0  # (`now`) when the last action was made: the turn to move began
    why: dict[int, str] = field(default_factory=dict)  # event index -> why a computer moved

    def forget_undone(self) -> None:
        """After an undo: no reason for an event that was taken back (its
        index may go to another event)."""
        self.why = {i: w for i, w in self.why.items() if i < len(self.game.events)}


class Service:
    """Games, analysis and the store behind the HTTP routes."""

    def __init__(self, store: Store, lexicons: Lexicons,
                 leaves: dict[str, str] | None = None, *,
                 search_seconds: float = EXACT_SECONDS) -> None:
        self.store = store
        self.search_seconds = search_seconds  # each endgame or pre-endgame an analysis makes
        self.lexicons = lexicons
        self.leaves = dict(leaves or {})
        self._live: dict[int, Live] = {}
        self._lock = threading.Lock()
        self.searches = Searches()  # endgames and pre-endgames running or done
        # games to study for their lessons, one at a time by one worker (`start_lessons`)
        self._lessons: queue.Queue[tuple[str, str, list[tuple[int, str]], str]] = queue.Queue()
        self._lessons_stop = threading.Event()
        self._lessons_worker: threading.Thread | None = None

    # ---------------------------------------------------------- options
    def _alphabet_of(self, name: str) -> Alphabet:
        """The alphabet a lexicon on offer is in, without loading it: the one it
        is offered in (another language's built-in lexicon, FILE:ALPHABET), else
        English."""
        _source, alpha = self.lexicons.sources[name]
        return Alphabet.load(alpha or "english", files=False)

    def options(self) -> dict[str, Any]:
        levels = [{"id": k, "label": v, "seconds": k in TIMED} for k, v in LEVELS.items()]
        levels += [{"id": f"leaves:{n}", "label": f"Static, leave table {n}", "seconds": False}
                   for n in self.leaves]
        alphabets = {name: self._alphabet_of(name) for name in self.lexicons.sources}
        return {"lexicons": self.lexicons.names(), "default_lexicon": self.lexicons.default,
                "alphabets": {name: alphabet_json(a) for name, a in alphabets.items()},
                # each lexicon's alphabet by name, and what types its tiles of several
                # letters without brackets (Spanish 1 for CH)
                "lexicon_alphabets": {name: a.name for name, a in alphabets.items()},
                "keys": {a.name: tile_keys(a) for a in alphabets.values()},
                "layouts": [{"name": n, "description": Layout.load(n).description}
                            for n in Layout.names()],
                "levels": levels, "default_level": DEFAULT_LEVEL,
                "challenge_rules": list(CHALLENGE_RULES), "variants": list(VARIANTS),
                "default_challenge": DEFAULT_CHALLENGE}

    # ---------------------------------------------------------- players
    def _computer(self, seat: Seat, lexicon: Any, seed: int, clock: float | None = None
                  ) -> Any:
        """The player of a computer seat; the championship player on a game's
        ``clock`` when it has one (``best:clock=SECONDS``)."""
        level = seat.level or DEFAULT_LEVEL
        if level == "sim":  # a time budget, which make_player's sim:N does not take

            return SimPlayer("static", seconds=seat.seconds or 2.0, iterations=100_000,
                             seed=seed, name=seat.name)
        if level == "best":
            if clock is not None:
                return BestPlayer(clock=clock, seed=seed, name=seat.name)
            return BestPlayer(seat.seconds or 2.0, seed=seed, name=seat.name)
        if level in LEVELS or (level.startswith("leaves:") and level[7:] in self.leaves):
            return make_player(level, lexicon, name=seat.name, named=self.leaves, files=False)
        raise RacketyError(f"level {level!r}: expected one of "
                           f"{', '.join([*LEVELS, *(f'leaves:{n}' for n in self.leaves)])}")

    def _level_name(self, level: str, seconds: float | None,
                    clock: float | None = None) -> str:
        if level == "best" and clock is not None:
            return f"best clock {clock:g}s"
        if level in TIMED:
            return f"{level} {seconds:g}s"
        return level

    # ------------------------------------------------------------ games
    def _opponent(self, level: str, seconds: float | None, lexicon: Any,
                  name: str | None, taken: set[str], clock: float | None = None) -> Seat:
        """A computer seat of ``level`` (checked), named ``name`` or after the
        level (``greedy #2`` for a second greedy: distinct seats, one rated
        player); on a game ``clock`` the championship player plays on it, its
        ``seconds`` unused."""
        level = level.strip().lower()
        if level == "best" and clock is not None:
            seconds = None
        elif level in TIMED:
            seconds = 2.0 if seconds is None else float(seconds)
            if not 0.1 <= seconds <= MAX_SIM_SECONDS:
                raise RacketyError(f"opponents: {level} seconds must be 0.1 to "
                                   f"{MAX_SIM_SECONDS:g}, not {seconds:g}")
        else:
            seconds = None
        base = self._level_name(level, seconds, clock)
        try:
            self._computer(Seat(base, "computer", level, seconds), lexicon, 0, clock)  # checks it
            if level in TIMED:  # they play by static equity: now, not at their first move
                leave_model(DEFAULT_LEVEL, lexicon)
        except RacketyError as exc:
            raise RacketyError(f"opponents: level {level} in {lexicon.alphabet.name}: "
                               f"{exc}") from None
        label, k = name or base, 2
        while label in taken:
            label, k = f"{name or base} #{k}", k + 1
        return Seat(label, "computer", level, seconds, player=base)

    def _start(self, config: dict[str, Any], seats: list[Seat], lexicon: Any,
               game: Game) -> dict[str, Any]:
        """Store a new game in play and let the computers move up to the person."""
        # people by name, computer levels by their label ("sim 2s"), apart in the store
        ids = [self.store.player(seat.player or seat.name, kind=seat.kind, level=seat.level).id
               for seat in seats]
        # where the game starts (a record's scores and player to move), so the games
        # list shows what the game shows before anyone moves
        game_id = self.store.create_game(config, ids, gcg=gcg_of(game),
                                         scores=list(game.scores), turn=game.turn)
        live = Live(game_id, game, seats, config["human"], "playing", config)
        self._set_clock(live, [])
        self._attach_players(live, lexicon)
        with self._lock:
            self._live[game_id] = live
        with live.lock, self._evict_on_error(live):
            messages = self._plays_by(live, lexicon) + self._computer_turns(live)
            return self.state(live, messages)

    @staticmethod
    def _plays_by(live: Live, lexicon: Any) -> list[str]:
        """What each computer player that values leaves plays by, in a line: the
        leave values in its equity (the lexicon's shipped table, or H3 where
        there is none, in any alphabet)."""
        out = []
        for seat, player in sorted(live.players.items()):
            model = getattr(player, "leave_model", None)
            if model is None and live.seats[seat].level in TIMED:
                model = leave_model(DEFAULT_LEVEL, lexicon)
            if model is not None:
                out.append(f"{live.seats[seat].name} plays by equity with "
                           f"{leave_label(model, lexicon)} leave values")
        return out

    def create_game(self, *, lexicon: str | None, layout: str | None, human: str,
                    opponents: Sequence[tuple[str, float | None]], challenge: ChallengeRule,
                    seed: int | None, human_first: bool,
                    variant: Variant = "classic", clock: float | None = None
                    ) -> dict[str, Any]:
        """Start a game: the person against 1 to 3 computer levels, on a game
        clock of ``clock`` seconds a player when given (`MIN_CLOCK` to
        `MAX_CLOCK`)."""
        human = _person(human)
        if clock is not None:
            clock = float(clock)
            if not MIN_CLOCK <= clock <= MAX_CLOCK:
                raise RacketyError(f"clock: {MIN_CLOCK:g} to {MAX_CLOCK:g} seconds a player, "
                                   f"not {clock:g}")
        if not 1 <= len(opponents) <= 3:
            raise RacketyError(f"opponents: 1 to 3, not {len(opponents)}")
        name = self.lexicons.name_for(lexicon)
        lex = self.lexicons.get(name)
        lay = Layout.load(layout or "standard15")
        Rules(challenge=challenge, variant=variant)  # refuses an unknown rule now
        seats: list[Seat] = []
        for level, seconds in opponents:
            seats.append(self._opponent(level, seconds, lex, None, {s.name for s in seats},
                                        clock))
        human_seat = 0 if human_first else 1
        seats.insert(human_seat, Seat(human, "human"))
        seed = random.SystemRandom().getrandbits(62) if seed is None else int(seed)
        config = {"lexicon": name, "layout": lay.name, "alphabet": lex.alphabet.name,
                  "seed": seed, "challenge": challenge, "variant": variant, "human": human_seat,
                  "seats": [s.__dict__ for s in seats]}
        if clock is not None:  # a game without a clock keeps the settings it always had
            config.update({"clock": clock, "began": round(now(), 3)})
        return self._start(config, seats, lex, self._new_game(config, lex))

    def _new_game(self, config: dict[str, Any], lexicon: Any) -> Game:
        if "gcg" in config:  # a game taken up from a record

            record = read_gcg(_as_text(config["gcg"]), source="gcg")
            return game_of(record, lexicon, seed=config["seed"],
                           rules=replace(record_rules(record), challenge=config["challenge"]))
        return Game(lexicon, [s["name"] for s in config["seats"]],
                    layout=config["layout"], alphabet=config.get("alphabet"),
                    rules=Rules(challenge=config["challenge"],
                                variant=config.get("variant", "classic")),
                    seed=config["seed"])

    def _attach_players(self, live: Live, lexicon: Any) -> None:
        for seat, s in enumerate(live.seats):
            if s.kind == "computer":
                live.players[seat] = self._computer(s, lexicon, live.config["seed"] + seat,
                                                    live.clock)

    @staticmethod
    def _set_clock(live: Live, actions: list[dict[str, Any]]) -> None:
        """The game clock as the store has it: the clock of the game's settings,
        each seat's time used and the time of the last action (the game's start
        before any), from the last action that carries them."""
        clock = live.config.get("clock")
        if clock is None:
            return
        live.clock = float(clock)
        live.used = [0.0] * len(live.seats)
        live.since = float(live.config.get("began", 0.0))
        for action in reversed(actions):
            used = action.get("used")
            if isinstance(used, list) and len(used) == len(live.seats):
                live.used = [float(u) for u in used]
                live.since = float(action.get("at", live.since))
                break

    def live(self, game_id: int) -> Live:
        """The game in memory, rebuilt from the store on first use."""
        with self._lock:
            if game_id in self._live:
                return self._live[game_id]
        row = self.store.game(game_id)
        if row is None:
            raise NotFoundError(f"game {game_id}: no such game")
        config = row.config
        lexicon = self.lexicons.get(self.lexicons.name_for(config.get("lexicon")))
        if row.status == "record":
            game = game_of(read_gcg(_as_text(row.gcg), source=f"game {game_id}"),
                                    lexicon)
            seats = [Seat(n, "human") for n in game.players]
            live = Live(game_id, game, seats, None, "record", config)
        else:
            game = self._new_game(config, lexicon)
            seats = [Seat(**s) for s in config["seats"]]
            live = Live(game_id, game, seats, config["human"], row.status, config)
            actions = self.store.actions(game_id)
            for action in actions:
                if isinstance(action.get("why"), str):  # the move's event is the next one
                    live.why[len(game.events)] = action["why"]
                self._apply(game, action)
                if action["kind"] == "undo":
                    live.forget_undone()
            live.actions = len(actions)
            self._set_clock(live, actions)
            if game.over:
                self._overtime(live)  # the penalties, which no action replays
            self._attach_players(live, lexicon)
        with self._lock:
            live = self._live.setdefault(game_id, live)
        if live.status == "playing" and live.game.turn != live.human:
            # the server stopped while a computer player was thinking: it moves now
            with live.lock, self._evict_on_error(live):
                self._computer_turns(live)
        return live

    @staticmethod
    def _apply(game: Game, action: dict[str, Any]) -> None:
        kind = action["kind"]
        if kind == "move":
            game.play(action["move"], check=False)
        elif kind == "challenge":
            game.challenge()
        elif kind == "undo":
            for _ in range(int(action["count"])):
                game.undo()
        else:
            raise RacketyError(f"stored action {kind!r} is not known")

    def _record(self, live: Live, action: dict[str, Any], seat: int | None,
                spent: float | None = None) -> None:
        """Store an action of ``seat``; on a game clock with the seat's time
        ``spent`` on it (a person's: since their turn began), the time and every
        seat's time used, and at the end of the game the overtime penalties."""
        game = live.game
        if live.clock is not None:
            at = round(now(), 3)
            if spent is None:
                spent = at - live.since
            if seat is not None:
                live.used[seat] = round(live.used[seat] + max(0.0, spent), 3)
            live.since = at
            action = {**action, "at": at, "used": list(live.used)}
            if game.over:
                self._overtime(live)
        record = gcg_of(game)
        self.store.add_action(live.id, live.actions, action, gcg=record,
                              scores=list(game.scores), turn=game.turn, over=game.over)
        live.actions += 1
        if game.over:
            if live.status == "playing":  # the game just finished: the people's lessons
                people = [(i, s.name) for i, s in enumerate(live.seats) if s.kind == "human"]
                self.study_later(record, live.config["lexicon"], people, f"game {live.id}")
            live.status = "over"

    # ------------------------------------------------------------ study
    def study_later(self, gcg: str, lexicon: str, people: list[tuple[int, str]],
                    name: str) -> None:
        """Add what the game says its ``people`` (their seats and names)
        should study to their decks, and its puzzles to the store
        (`rackety.frontends.lessons`, `rackety.study.puzzles`): queued for the
        one worker of `start_lessons`, since the analysis takes seconds and a
        game is stored without waiting for it."""
        if people:
            self._lessons.put((gcg, lexicon, people, name))

    def start_lessons(self) -> None:
        """Start the worker that studies the games queued (the app's start)."""
        if self._lessons_worker is None or not self._lessons_worker.is_alive():
            self._lessons_stop.clear()
            self._lessons_worker = threading.Thread(target=self._lessons_loop,
                                                    name="lessons", daemon=True)
            self._lessons_worker.start()

    def stop_lessons(self, timeout: float = 10.0) -> None:
        """Stop the worker (the app's end): the game under way is left where
        its searches stop, the ones queued are not studied."""
        self._lessons_stop.set()
        worker = self._lessons_worker
        if worker is not None:
            worker.join(timeout)

    def _lessons_loop(self) -> None:
        while not self._lessons_stop.is_set():
            try:
                job = self._lessons.get(timeout=0.2)
            except queue.Empty:
                continue
            try:
                self._study(*job)
            finally:
                self._lessons.task_done()

    def _study(self, gcg: str, lexicon: str, people: list[tuple[int, str]],
               name: str) -> None:
        from datetime import UTC, datetime

        from rackety.frontends.lessons import SEARCH_SECONDS, record_study
        from rackety.study.puzzles import ENDGAME_SECONDS, from_record

        control = Control(stop=self._lessons_stop)
        # each endgame search the server's budget (--search-seconds) at most
        budget = min(self.search_seconds, SEARCH_SECONDS)
        try:
            record = read_gcg(gcg, source=name)
            lex = self.lexicons.get(lexicon)
            by_seat = record_study(record, lex, [seat for seat, _ in people], name,
                                   control=control, budget=budget)
            for puzzle in from_record(record, lex, name=name, control=control,
                                      exact=min(self.search_seconds, ENDGAME_SECONDS)):
                self.store.puzzle(puzzle.lexicon, puzzle.cgp, puzzle.as_dict())  # Puzzles page's
        except (RacketyError, OSError, sqlite3.Error):
            return  # the game stands as stored; its lessons are only a help
        if control.stopped():
            return  # stopped part way: nothing half-studied goes to a deck
        for seat, person in people:
            try:
                player = self.store.player(_person(person)).id
                mine = by_seat[seat]
                self.store.study_add(player, [(x.kind, lexicon, x.prompt, x.source)
                                              for x in mine.lessons])
                self.store.study_game(player, name, turns=mine.turns,
                                      mistake_index=mine.mistake_index,
                                      when=datetime.now(UTC))
            except RacketyError:
                continue  # a name the store does not take for a person: no deck
            except sqlite3.Error:
                return  # the store closed meanwhile (the app stopping)

    def _deck_owner(self, player: str) -> int:
        """The id of the person ``player`` (a name the store takes for a person)."""
        return self.store.player(_person(player)).id

    def study_stats(self, player: str) -> dict[str, Any]:
        """A person's deck: items due now, learned and new, the next 7 days."""
        from datetime import UTC, datetime

        counts = self.store.study_counts(self._deck_owner(player), datetime.now(UTC))
        return {"player": _person(player), "due": counts.due, "learned": counts.learned,
                "new": counts.new, "forecast": counts.forecast}

    def study_progress(self, player: str) -> dict[str, Any]:
        """A person's progress: the Mistake Index of each game studied, the
        share of reviews answered right, the puzzle rating."""
        return {"player": _person(player),
                **self.store.study_progress(self._deck_owner(player))}

    def study_next(self, player: str, new: int) -> dict[str, Any]:
        """The next item to review: the most overdue, else a new one (of up
        to ``new`` today), as a question without its answers; none when the
        deck has nothing to ask. An item of a lexicon this server does not
        offer is passed over."""
        from datetime import UTC, datetime

        from rackety.study.quiz import question_for

        owner = self._deck_owner(player)
        for item in self.store.study_due(owner, datetime.now(UTC), limit=20, new=new):
            try:
                lexicon = self.lexicons.get(item.lexicon)
                question = question_for(lexicon, item.kind, item.prompt)
            except RacketyError:
                continue
            position = position_json(Board.from_cgp(item.prompt)) \
                if item.kind == "puzzle" else None
            return {"item": {"id": item.id, "kind": item.kind, "prompt": question.prompt,
                             "rank": question.rank, "answers": len(question.answers),
                             "lexicon": item.lexicon, "source": item.source,
                             "new": item.due is None, "position": position}}
        return {"item": None}

    def study_answer(self, player: str, item_id: int, reply: str,
                     seconds: float | None) -> dict[str, Any]:
        """Grade a reply to one of the person's items and schedule it again
        (`rackety.study.schedule`): the grade, the answers, when it is due."""
        from datetime import UTC, datetime

        from rackety.study.quiz import question_for

        owner = self._deck_owner(player)
        item = self.store.study_item(item_id)
        if item is None or self.store.study_owner(item_id) != owner:
            raise NotFoundError(f"study item {item_id}: not in {player}'s deck")
        lexicon = self.lexicons.get(item.lexicon)
        question = question_for(lexicon, item.kind, item.prompt)
        grade = question.grade(reply, lexicon)
        rating, due = self.store.study_answered(item_id, correct=grade.correct,
                                                seconds=seconds, when=datetime.now(UTC))
        return {**grade.as_dict(), "answers": list(question.answers), "rating": rating,
                "due": due.isoformat()}

    def puzzle_next(self, player: str, tag: str | None) -> dict[str, Any]:
        """A puzzle for the person (one they have not tried, rated nearest
        them), with its position as the page draws it; none when there is none."""
        from rackety.study.puzzles import TAGS, Puzzle

        if tag is not None and tag not in TAGS:
            raise RacketyError(f"tag {clip(tag, 40)!r}: expected one of {', '.join(TAGS)}")
        found = self.store.puzzle_next(self._deck_owner(player), tag=tag)
        if found is None:
            return {"puzzle": None}
        puzzle_id, data = found
        puzzle = Puzzle.from_dict(data, f"puzzle {puzzle_id}")
        board = Board.from_cgp(puzzle.cgp)
        return {"puzzle": {"id": puzzle_id, "tags": list(puzzle.tags),
                           "lexicon": puzzle.lexicon, "position": position_json(board)}}

    def puzzle_answer(self, player: str, puzzle_id: int, reply: str,
                      seconds: float | None) -> dict[str, Any]:
        """A reply to a puzzle graded by its answers, and both ratings after
        it (Glicko-2): whether it was right, the answers, why, the next moves."""
        from datetime import UTC, datetime

        from rackety.study.puzzles import Puzzle, attempt

        owner = self._deck_owner(player)
        data = self.store.puzzle_data(puzzle_id)
        if data is None:
            raise NotFoundError(f"puzzle {puzzle_id}: no such puzzle")
        puzzle = Puzzle.from_dict(data, f"puzzle {puzzle_id}")
        graded = attempt(puzzle, reply, self.lexicons.get(puzzle.lexicon))
        when = datetime.now(UTC)
        solver, rated = self.store.puzzle_attempt(owner, puzzle_id, reply=reply,
                                                  correct=graded.correct, seconds=seconds,
                                                  when=when)
        # a puzzle met is in the deck from now on, scheduled by this attempt
        self.store.study_met(owner, "puzzle", puzzle.lexicon, puzzle.cgp, puzzle.source,
                             correct=graded.correct, seconds=seconds, when=when)
        return {"correct": graded.correct, "move": graded.move, "error": graded.error,
                "answers": list(puzzle.answers), "why": puzzle.why,
                "alternatives": [{"move": m, "value": v} for m, v in puzzle.alternatives],
                "unit": puzzle.unit, "rating": round(solver.rating, 1),
                "rd": round(solver.rd, 1), "puzzle_rating": round(rated.rating, 1)}

    def wait_for_lessons(self, timeout: float = 60.0) -> bool:
        """Wait until every game queued is studied (True), or ``timeout``."""
        deadline = time.monotonic() + timeout
        while self._lessons.unfinished_tasks:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    @staticmethod
    def _overtime(live: Live) -> None:
        """At the end of a game on a clock, the rules' points off each seat past
        it (`Game.charge_overtime`), as time-penalty events, once."""
        game = live.game
        if live.clock is None or any(e.kind == "time_penalty" for e in game.events):
            return
        game.charge_overtime(live.used, live.clock)

    def _computer_turns(self, live: Live) -> list[str]:
        game = live.game
        messages: list[str] = []
        while not game.over and game.turn != live.human:
            seat = game.turn
            before = len(game.events)
            if game.rules.challenge != "void" and game.last_play_phonies():
                game.challenge()
                self._record(live, {"kind": "challenge", "seat": seat}, seat, 0.0)
                messages += [f"{game.players[seat]} challenges"] + [
                    describe(game, e) for e in game.events[before:]]
                continue
            player = live.players[seat]
            view = game.view()
            started = now()
            left = None if live.clock is None else live.clock - live.used[seat]
            move = decide_on_clock(player, view, game.lexicon, left).move
            spent = now() - started
            text = move.notation(game.alphabet)
            action: dict[str, Any] = {"kind": "move", "seat": seat, "move": text}
            why = player.explain(view) if isinstance(player, BestPlayer) else None
            if why is not None:  # kept with the move: the game's events show it on reload
                action["why"] = why
                live.why[before] = why
            game.play(move, check=False)
            self._record(live, action, seat, spent)
            messages += [describe(game, e) for e in game.events[before:]
                         if e.kind != "time_penalty"]
            if why is not None:  # why this move, under it
                messages.append(why)
            messages += [describe(game, e) for e in game.events[before:]
                         if e.kind == "time_penalty"]
        return messages

    def _human_action(self, game_id: int, act: Callable[[Live], list[str]]) -> dict[str, Any]:
        live = self.live(game_id)
        with live.lock, self._evict_on_error(live):
            if live.status == "record":
                raise ConflictError(f"game {game_id} is a record: it can be viewed, not played")
            if live.game.over:
                raise ConflictError(f"game {game_id} is over")
            messages = act(live)
            messages += self._computer_turns(live)
            return self.state(live, messages)

    @contextmanager
    def _evict_on_error(self, live: Live) -> Iterator[None]:
        """On any failure (a refused move too: cheaper to rebuild than to prove it
        changed nothing), forget the game in memory; the next request rebuilds it
        from the store, which holds every action that was committed."""
        try:
            yield
        except BaseException:
            with self._lock:
                self._live.pop(live.id, None)
            raise

    def _human_move(self, live: Live, move: Move | str) -> list[str]:
        game = live.game
        if game.turn != live.human:
            raise ConflictError("it is not your turn")
        if isinstance(move, str):
            move = game.parse(move)
        before = len(game.events)
        game.play(move)  # checks: raises IllegalMoveError with the reason
        self._record(live, {"kind": "move", "seat": live.human,
                            "move": move.notation(game.alphabet)}, live.human)
        return [describe(game, e) for e in game.events[before:]]

    def play(self, game_id: int, *, move: str | None = None,
             tiles: Sequence[tuple[int, int, str, bool]] | None = None) -> dict[str, Any]:
        """The person's placement: in notation or as tiles on squares."""
        if (move is None) == (tiles is None):
            raise RacketyError("play: give either move or tiles")

        def act(live: Live) -> list[str]:
            game = live.game
            if move is not None:
                parsed = game.parse(move)
                if parsed.kind != "place":
                    raise RacketyError(f"move {move!r}: use exchange or pass for that")
                return self._human_move(live, parsed)
            assert tiles is not None
            board = game.position
            placed = []
            for i, (r, c, letter, blank) in enumerate(tiles):
                if not (0 <= r < board.size and 0 <= c < board.size):
                    raise RacketyError(f"tiles[{i}]: square ({r}, {c}) is off the board")
                placed.append((r, c, tile_code(game.alphabet, letter, blank, f"tiles[{i}]")))
            return self._human_move(live, placement(board, placed))

        return self._human_action(game_id, act)

    def exchange(self, game_id: int, tiles: str) -> dict[str, Any]:
        """The person exchanges ``tiles`` (``?`` for a blank)."""
        def act(live: Live) -> list[str]:
            codes = live.game.alphabet.tokenize(tiles.upper(), what="tiles")
            if not codes:
                raise IllegalMoveError("an exchange needs at least one tile")
            move = Move("exchange", tiles=tuple(codes), score=0, alphabet=live.game.alphabet)
            return self._human_move(live, move)

        return self._human_action(game_id, act)

    def pass_turn(self, game_id: int) -> dict[str, Any]:
        """The person passes."""
        return self._human_action(game_id, lambda live: self._human_move(
            live, Move("pass", score=0, alphabet=live.game.alphabet)))

    def challenge(self, game_id: int) -> dict[str, Any]:
        """The person challenges the last play."""
        def act(live: Live) -> list[str]:
            game = live.game
            if game.turn != live.human:
                raise ConflictError("it is not your turn")
            before = len(game.events)
            event = game.challenge()
            self._record(live, {"kind": "challenge", "seat": live.human}, live.human)
            if event is None:
                return ["the play stands: no penalty under the single rule"]
            return [describe(game, e) for e in game.events[before:]]

        return self._human_action(game_id, act)

    def undo(self, game_id: int) -> dict[str, Any]:
        """Back to the person's previous turn."""
        live = self.live(game_id)
        with live.lock, self._evict_on_error(live):
            game = live.game
            if live.status != "playing":
                raise ConflictError(f"game {game_id} is {'over' if game.over else 'a record'}")
            human = live.human
            if not any(e.seat == human and e.kind in ("play", "exchange", "pass")
                       for e in game.events):
                raise ConflictError("nothing of yours to undo")
            count = 0
            while game.can_undo and (count == 0 or game.turn != human):
                game.undo()
                count += 1
            live.forget_undone()
            self._record(live, {"kind": "undo", "count": count}, human)
            return self.state(live, [f"took back {count} turn(s)"])

    def hint(self, game_id: int, top: int) -> dict[str, Any]:
        """The best moves for the person as the judge sees them
        (`rackety.frontends.common.hint`: the exact endgame with the bag empty,
        the pre-endgame with one or two tiles in it, else equity with the
        lexicon's shipped leave table, H3 where there is none)."""
        live = self.live(game_id)
        with live.lock:
            game = live.game
            if live.status != "playing" or game.over:
                raise ConflictError(f"game {game_id} is not in play")
            if game.turn != live.human:
                raise ConflictError("it is not your turn")
            view = game.view()
            model = resolve_leave("static", game.lexicon, files=False)
            verdict = hint(view, game.lexicon, model, top, seconds=self.search_seconds)
            note = static_note(view) if model is not None and verdict.phase == "static" \
                else None
            return {"leaves": leave_label(model, game.lexicon),
                    **({"adjustment": note} if note else {}),
                    "moves": [move_json(view, v.move, detail=True)
                              for v in verdict.ranked[:top]],
                    "verdict": verdict.as_json(view, top)}

    def gcg(self, game_id: int) -> str:
        """The game's record as GCG text. While the game is in play the computer
        players' racks are left out (they would show what they hold)."""

        live = self.live(game_id)
        with live.lock:
            record = record_of(live.game)
            human = live.human
            if human is not None and self._hides_racks(live):
                for event in record.events:
                    if event.seat != human:
                        event.rack = ""
                record.pragmata = [p for p in record.pragmata if not (
                    p.name.startswith("rack") and p.name != f"rack{human + 1}")]
            return write_gcg(record)

    @staticmethod
    def _hides_racks(live: Live) -> bool:
        return live.human is not None and not live.game.over

    def _record_lexicon(self, requested: str | None, record: Any, *,
                        strict: bool = False) -> str:
        """The lexicon for a record: the one asked for, else the record's own when
        offered here, else the default; with ``strict`` (an analysis), a record
        naming one that is not offered is refused (never analysed under
        another)."""
        if not strict:
            return self.lexicons.name_for(requested, record.lexicon)
        try:
            return self.lexicons.name_for(requested, record.lexicon, strict=True)
        except RacketyError:
            raise RacketyError(
                f"the record's lexicon {clip(record.lexicon or '', 20)!r} is not offered here "
                f"({', '.join(self.lexicons.names())}); choose one") from None

    def import_gcg(self, text: str, lexicon: str | None, *, play_as: str | None = None,
                   opponents: Sequence[tuple[str, float | None]] = (),
                   challenge: str = DEFAULT_CHALLENGE) -> dict[str, Any]:
        """Store a GCG record: as a record to view and analyse, or, with
        ``play_as`` (a player's nickname or name), as a game to go on with, the
        other seats taken by computer levels (``opponents``, H3 by default)."""

        text = _as_text(text)
        record = read_gcg(text, source="gcg")
        name = self._record_lexicon(lexicon, record)
        lex = self.lexicons.get(name)
        if play_as is None:
            game = game_of(record, lex)
            config = {"lexicon": name, "layout": game.position.layout.name,
                      "alphabet": game.alphabet.name, "record": True}
            game_id = self.store.import_record(config, list(game.players), gcg_of(game),
                                               list(game.scores))
            live = Live(game_id, game, [Seat(n, "human") for n in game.players], None,
                        "record", config)
            with self._lock:
                self._live[game_id] = live
            # a record's players are people: each one's lessons go to their deck
            self.study_later(gcg_of(game), name, list(enumerate(game.players)),
                             f"record {game_id}")
            return self.state(live, [])
        config = {"lexicon": name, "challenge": challenge, "seed": 0, "gcg": text}
        game = self._new_game(config, lex)
        if game.over:
            raise RacketyError("gcg: the record's game is over; import it without play_as "
                               "to view it")
        wanted = play_as.strip().lower()
        human = next((i for i, p in enumerate(record.players)
                      if wanted in (p.nickname.lower(), (p.name or "").lower())), None)
        if human is None:
            raise RacketyError(f"play_as: no player {play_as!r} in the record; players: "
                               f"{', '.join(p.nickname for p in record.players)}")
        if _level_like(game.players[human]):
            raise RacketyError(f"play_as: {game.players[human]!r} is the name of a computer "
                               "player")
        others = len(game.players) - 1
        levels = list(opponents) or [(DEFAULT_LEVEL, None)] * others
        if len(levels) != others:
            raise RacketyError(f"opponents: the record has {others} other player(s), "
                               f"not {len(levels)}")
        seats: list[Seat] = []
        pending = iter(levels)
        for seat, player in enumerate(game.players):
            if seat == human:
                seats.append(Seat(player, "human"))
            else:
                level, seconds = next(pending)
                computer = self._opponent(level, seconds, lex, player, set())
                seats.append(computer)
        config.update({"layout": game.position.layout.name, "alphabet": game.alphabet.name,
                       "human": human, "seats": [s.__dict__ for s in seats]})
        return self._start(config, seats, lex, game)

    # ------------------------------------------------------------ state
    def get(self, game_id: int) -> dict[str, Any]:
        """The game as the person sees it."""
        live = self.live(game_id)
        with live.lock:
            return self.state(live, [])

    def state(self, live: Live, messages: list[str]) -> dict[str, Any]:
        game = live.game
        alphabet = game.alphabet
        board = game.position
        events = []
        last = None
        hide = self._hides_racks(live)
        for i, e in enumerate(game.events):
            events.append(game_event_json(
                i, e.seat, game.players[e.seat], e.kind, e.move,
                e.move.notation(alphabet) if e.move is not None else None, e.score, e.total,
                "" if hide and e.seat != live.human else format_leave(alphabet, e.rack),
                e.notes, live.why.get(i)))
        # the latest play still on the board
        for i in range(len(game.events) - 1, -1, -1):
            e = game.events[i]
            if e.kind == "withdrawn":
                break
            if e.kind == "play" and e.move is not None:
                last = {"squares": [list(sq) for sq in e.move.placed_squares()],
                        "player": game.players[e.seat], "index": i}
                break
        human = live.human
        to_move = None if game.over else game.players[game.turn]
        can_challenge = (human is not None and not game.over and game.turn == human
                         and game.rules.challenge != "void" and bool(game.events)
                         and game.events[-1].kind == "play")
        result = None
        if game.over or live.status == "record":
            row = self.store.game(live.id)
            best = max(game.scores)
            result = {"winners": [n for n, s in zip(game.players, game.scores, strict=True)
                                  if s == best],
                      "standings": [s.__dict__ for s in row.standings] if row else []}
        clock = {} if live.clock is None else {"clock": self._clock_json(live)}
        return {
            "id": live.id, "status": live.status, "lexicon": live.config.get("lexicon"),
            "layout": board.layout.name,
            "players": [{"seat": i, "name": s.name, "kind": s.kind, "level": s.level,
                         "score": game.scores[i]} for i, s in enumerate(live.seats)],
            "human": human, "turn": game.turn, "to_move": to_move,
            "board": board_json(board),
            "rack": [tile_json(alphabet, t) for t in game.racks[human]] if human is not None
            else [],
            "bag": len(game.bag),
            "can_challenge": can_challenge,
            "can_exchange": human is not None and not game.over
            and game.rules.may_exchange(len(game.bag)),
            "challenge": game.rules.challenge,
            "variant": game.rules.variant,
            "alphabet": alphabet_json(alphabet), "alphabet_name": alphabet.name,
            "keys": tile_keys(alphabet), "unseen": self._unseen(live),
            "events": events, "last": last, "messages": messages, "result": result,
            **clock,
        }

    @staticmethod
    def _clock_json(live: Live) -> dict[str, Any]:
        """A game's clock in its state: the ``seconds`` each player had, the
        seconds ``left`` on each seat's clock now (negative past it) and the seat
        whose clock runs (None once the game is over)."""
        assert live.clock is not None
        game = live.game
        running = None if game.over or live.status != "playing" else game.turn
        left = []
        for seat, used in enumerate(live.used):
            if seat == running:
                used += max(0.0, now() - live.since)
            left.append(round(live.clock - used, 1))
        return {"seconds": live.clock, "left": left, "running": running}

    @staticmethod
    def _unseen(live: Live) -> dict[str, Any]:
        """The tiles the person has not seen (`unseen_json`; in a record, the
        player to move): their own rack known, never a computer's."""
        return unseen_json(live.game.view(live.human))

    # --------------------------------------------------------- analysis
    def position(self, cgp: str) -> tuple[Board, dict[str, Any]]:
        # ld names a built-in alphabet only: nothing in a request is read as a path
        board = Board.from_cgp(cgp, source="cgp", files=False)
        return board, position_json(board)

    def page_position(self, cgp: str, lexicon: str | None) -> dict[str, Any]:
        """The fixed form of ``POST /api/position``: a CGP the page was given, read
        by `_page_board`, as `position_json` shows it."""
        return position_json(self._page_board(cgp, lexicon))

    def _page_board(self, cgp: str | None, lexicon: str | None) -> Board:
        """A position as the page gives it: its CGP read in ``lexicon``'s alphabet
        when it names none (no ``ld``), ``ld`` then added so that the CGP it writes
        reads back the same; without a CGP, an empty board in that alphabet."""
        alphabet = self._alphabet_of(self.lexicons.name_for(lexicon)) if lexicon else None
        if cgp is None:
            return Board.empty(alphabet or "english")
        board = Board.from_cgp(cgp, source="cgp", files=False, default_alphabet=alphabet)
        if alphabet is not None and "ld" not in board.options:
            try:  # what the CGP alone says
                same = Board.from_cgp(cgp, files=False).alphabet.identity == alphabet.identity
            except RacketyError:
                same = False
            if not same:
                board.options["ld"] = alphabet.name
        return board

    def edit_position(self, cgp: str | None, lexicon: str | None,
                      tiles: Sequence[tuple[int, int, str, bool]] | None,
                      racks: Sequence[str] | None, scores: Sequence[int] | None
                      ) -> dict[str, Any]:
        """The position ``cgp`` (`_page_board`) with every tile on its board
        (``tiles``: row, column, letter, blank), its racks (as written on a rack)
        or its scores replaced, each left as it was when not given: the page's
        board editor (``POST /api/position/edit``). Its CGP is written by
        `Board.cgp` and read back by `Board.from_cgp`, which checks it (the
        tiles' counts included)."""
        board = self._page_board(cgp, lexicon)
        alphabet = board.alphabet
        if tiles is not None:
            grid = board.grid.copy()
            grid[:] = 0
            for row, col, letter, blank in tiles:
                where = f"tiles: square {square_name(row, col)}"
                if row >= board.size or col >= board.size:
                    raise RacketyError(f"{where}: off the board ({board.size} by {board.size})")
                if grid[row, col]:
                    raise RacketyError(f"{where}: two tiles")
                grid[row, col] = tile_code(alphabet, letter, blank, where)
            board.grid = grid
        if racks is not None:
            board.racks = [alphabet.rack(text, what=f"racks[{i}]") for i, text in enumerate(racks)]
        if scores is not None:
            board.scores = list(scores)
        if len(board.scores) != len(board.racks):
            raise RacketyError(f"racks and scores: {len(board.racks)} and {len(board.scores)}, "
                               "a score for each rack expected")
        board = Board.from_cgp(board.cgp(), source="position", files=False)
        return position_json(board)

    def analyze(self, cgp: str, lexicon: str | None, top: int, leave: str | None,
                detail: bool) -> MovesShape:
        """The fixed form of ``POST /api/analyze``: the count of tile placements
        and the top moves by equity (as ``rackety moves``), and the judge's
        verdict (`rackety.search.judge`: by equity, or with the bag empty by the
        exact endgame and with one or two tiles in it by the pre-endgame, each
        search within ``search_seconds``; its best moves, their values and how
        they were valued)."""
        from rackety.search.judge import Budget

        board, shape = self.position(cgp)
        lex = self.lexicons.for_board(board, lexicon)
        if not board.rack:
            raise RacketyError("cgp: the player to move has no rack to analyse")
        model = resolve_leave(leave, lex, named=self.leaves, files=False)
        moves = generate(board, lex, leave=model)
        verdict = position_verdict(board, lex, model, top, Budget(exact=self.search_seconds),
                                   static=moves)
        note = static_note(board) if model is not None and verdict.phase == "static" else None
        out = moves_json(board, moves, top=top, leaves=leave_label(model, lex),
                         adjustment=note, detail=detail)
        out["verdict"] = verdict.as_json(board, top)
        if detail:
            out.update(shape)  # type: ignore[typeddict-item]
            out["lexicon"] = lex.name
        return out

    def infer(self, cgp: str, move: str, lexicon: str | None, margin: float,
              leave: str | None, top: int) -> dict[str, Any]:
        """The fixed form of ``POST /api/infer``: what the player to move kept
        when they made ``move`` (`rackety.search.inference.infer`; at most
        `MAX_INFER_RACKS` racks, one thread)."""
        from rackety.frontends.common import inference_json
        from rackety.search.inference import infer

        board, _shape = self.position(cgp)
        lex = self.lexicons.for_board(board, lexicon)
        model = resolve_leave(leave, lex, named=self.leaves, files=False)
        if model is None:
            raise RacketyError("leave: inference needs a leave model (static, h1, h2, h3 or "
                               "leaves:NAME)")
        result = infer(board, lex, move, margin=margin, leave=model,
                       max_racks=MAX_INFER_RACKS, jobs=1)
        return inference_json(result, top=top)

    def simulate(self, cgp: str, lexicon: str | None, candidates: int, seconds: float,
                 plies: int, iterations: int | None = None, seed: int = 0) -> SimulationShape:
        """Simulate the best static candidates for a time budget (or until
        ``iterations`` rollouts a candidate): the moves ranked by win %, then
        equity (`rackety.search.simulation`; `shapes.simulation_json`)."""

        board, _shape = self.position(cgp)
        lex = self.lexicons.for_board(board, lexicon)
        result = simulate(board, lex, leave="static", candidates=candidates, plies=plies,
                          iterations=iterations or 100_000, seconds=seconds, seed=seed,
                          jobs=1)
        return simulation_json(board, result)

    def analyze_gcg(self, text: str, lexicon: str | None, leave: str | None
                    ) -> RecordAnalysisShape:
        """Every turn of a record: the board before it, the move played, the best
        move and the points and win % lost, as the judge sees them by the phase
        of the game (`rackety.frontends.analysis`; each endgame and pre-endgame
        search within ``search_seconds``). A record whose lexicon is not offered
        here is refused unless one is asked for."""

        record, rep, lex = self._replayed(text, lexicon, strict=True)
        model = resolve_leave(leave, lex, named=self.leaves, files=False)
        return self._gcg_analysis(record, rep, lex, model)

    def analyze_gcg_search(self, text: str, lexicon: str | None,
                           leave: str | None) -> Search:
        """`analyze_gcg` as a search (`searches`): started at once, its
        progress the turns assessed, stopped between turns."""
        record, rep, lex = self._replayed(text, lexicon, strict=True)
        model = resolve_leave(leave, lex, named=self.leaves, files=False)

        def work(control: Any, progress: Callable[[int, int, str], None]
                 ) -> RecordAnalysisShape:
            progress(0, 0, "turns assessed (each endgame and pre-endgame solved, "
                           f"{self.search_seconds:g} s at most)")
            return self._gcg_analysis(record, rep, lex, model, control=control,
                                      progress=lambda done, total: progress(
                                          done, total, "turns assessed"))

        return self.searches.start("analysis", 0.0, work, {"lexicon": lex.name})

    def _gcg_analysis(self, record: Any, rep: Any, lex: Any, model: Any, *,
                      control: Any = None,
                      progress: Callable[[int, int], None] | None = None
                      ) -> RecordAnalysisShape:
        """The fixed form of a record's analysis (`analyze_gcg`;
        `shapes.record_analysis_json`)."""
        analysis = analyze_record(record, lex, leave=model, replayed=rep,
                                  budget=self.search_seconds, control=control,
                                  progress=progress)
        return record_analysis_json(analysis, record, rep)

    def _replayed(self, text: str, lexicon: str | None, *,
                  strict: bool = False) -> tuple[Any, Any, Any]:
        """A record read from text (never a path), replayed, and its lexicon
        (`_record_lexicon`)."""
        record = read_gcg(_as_text(text), source="gcg")
        rep = replay(record)
        name = self._record_lexicon(lexicon, record, strict=strict)
        lex = self.lexicons.get(name)
        if lex.alphabet.identity != rep.alphabet.identity:
            raise RacketyError(f"lexicon {lex.name} is in alphabet {lex.alphabet.name}; the "
                               f"record is in {rep.alphabet.name}")
        return record, rep, lex

    def report(self, game_id: int) -> str:
        """The game's report, one self-contained HTML page
        (`rackety.frontends.report`): every turn whose rack the record shows
        against the best move by static equity (the lexicon's shipped table, H3
        where there is none). While the game is in play the computer players'
        racks stay hidden, as in `gcg`, so only the person's turns are assessed."""
        from rackety.frontends.report import game_report_html

        text = self.gcg(game_id)  # a NotFoundError for a game that is not stored
        game = self.live(game_id).game
        record = read_gcg(text, source=f"game {game_id}")
        rep = replay(record, alphabet=game.alphabet, layout=game.position.layout)
        analysis = analyze_record(record, game.lexicon, leave="static", replayed=rep,
                                  budget=self.search_seconds)
        return game_report_html(analysis, rep,
                                title=record.title or f"rackety game {game_id}")

    # ---------------------------------------------------------- listing
    def games(self, limit: int, offset: int) -> dict[str, Any]:
        out = []
        for row in self.store.games(limit=limit, offset=offset):
            # the names the game shows: its seats' ("Fay" taken by greedy), else the players'
            seats = row.config.get("seats")
            names = [str(s.get("name")) for s in seats] if isinstance(seats, list) and \
                len(seats) == len(row.players) and all(isinstance(s, dict) for s in seats) \
                else row.players
            best = max(row.scores) if row.scores else None
            winners = [n for n, s in zip(names, row.scores, strict=False) if s == best]
            playing = row.status == "playing"
            out.append({"id": row.id, "created": row.created, "updated": row.updated,
                        "status": row.status, "lexicon": row.config.get("lexicon"),
                        "layout": row.config.get("layout"),
                        "players": [{"name": n, "score": s} for n, s in
                                    zip(names, row.scores, strict=False)],
                        "turn": row.turn if playing else None,
                        "to_move": names[row.turn] if playing and 0 <= row.turn < len(names)
                        else None,
                        "winner": winners[0] if not playing and len(winners) == 1
                        else None})
        return {"games": out}

    def players(self) -> list[dict[str, Any]]:
        return [p.__dict__ for p in self.store.players()]

    def rankings(self) -> dict[str, Any]:
        games = []
        for row in self.store.games(limit=20, status="over"):
            games.append({"id": row.id, "updated": row.updated,
                          "lexicon": row.config.get("lexicon"),
                          "standings": [s.__dict__ for s in row.standings]})
        return {"players": self.players(), "games": games}

    # ------------------------------------------------ endgames, pre-endgames
    def search_position(self, cgp: str | None, gcg: str | None, turn: int | None,
                        lexicon: str | None) -> tuple[Board, Any]:
        """The position a search is asked for, with its lexicon: a CGP, or a
        record's position before its event ``turn`` (1-based, as the GCG tab
        and ``rackety gcg show --turn`` number them; events + 1 is the end)."""
        if cgp is not None and gcg is None and turn is None:
            board, _shape = self.position(cgp)
            return board, self.lexicons.for_board(board, lexicon)
        if gcg is None or turn is None or cgp is not None:
            raise RacketyError("give a position: cgp, or gcg with turn")
        record, rep, lex = self._replayed(gcg, lexicon)
        events = len(record.events)
        if not 1 <= turn <= events + 1:
            raise RacketyError(f"turn {turn}: the record has {events} events, so a turn is 1 "
                               f"to {events + 1}")
        return rep.positions[turn - 1], lex

    @staticmethod
    def _about(board: Board, lexicon: str, cgp: str | None, turn: int | None
               ) -> dict[str, Any]:
        """What a search is of, in its state: the position (the opponent's
        rack as the search takes it), the lexicon, the record's turn."""
        return {"position": position_json(board), "lexicon": lexicon,
                "turn": None if cgp is not None else turn}

    @staticmethod
    def _search_seconds(seconds: float) -> float:
        if not MIN_SEARCH_SECONDS <= seconds <= MAX_SEARCH_SECONDS:
            raise RacketyError(f"seconds: {MIN_SEARCH_SECONDS:g} to {MAX_SEARCH_SECONDS:g}, "
                               f"not {seconds:g}")
        return float(seconds)

    def endgame(self, cgp: str | None, gcg: str | None, turn: int | None,
                lexicon: str | None, seconds: float, depth: int | None = None) -> Search:
        """Start the endgame of a position (the bag empty; an opponent's rack
        left unknown is the unseen tiles, `known_racks`): iterative deepening
        until exact, ``seconds`` or ``depth`` plies (`rackety.search.endgame.solve`)."""
        from rackety.search.endgame import known_racks, solve

        seconds = self._search_seconds(seconds)
        board, lex = self.search_position(cgp, gcg, turn, lexicon)
        given = board
        board = known_racks(board)  # refuses what the solver cannot take, now

        def work(control: Any, progress: Callable[[int, int, str], None]) -> EndgameShape:
            progress(0, 0, "searching one ply deeper at a time, until the value is exact")
            result = solve(board, lex, seconds=seconds, max_depth=depth, control=control)
            return endgame_json(board, result, given=given)

        return self.searches.start("endgame", seconds, work,
                                   self._about(board, lex.name, cgp, turn))

    def preendgame(self, cgp: str | None, gcg: str | None, turn: int | None,
                   lexicon: str | None, seconds: float, candidates: int = 10) -> Search:
        """Start the pre-endgame of a position (1 to 6 tiles in the bag;
        `rackety.search.preendgame.preendgame`, one process) for ``seconds``."""
        from rackety.search.preendgame import check_position, preendgame

        seconds = self._search_seconds(seconds)
        board, lex = self.search_position(cgp, gcg, turn, lexicon)
        check_position(board)

        def work(control: Any, progress: Callable[[int, int, str], None]) -> PreEndgameShape:
            result = preendgame(board, lex, candidates=candidates, seconds=seconds, jobs=1,
                                progress=progress, control=control)
            return preendgame_json(board, result)

        return self.searches.start("preendgame", seconds, work,
                                   self._about(board, lex.name, cgp, turn))


MIN_SEARCH_SECONDS = 0.1
MAX_SEARCH_SECONDS = 60.0
