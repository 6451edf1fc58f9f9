"""The web app's SQLite store: players, games, their actions and Elo ratings,
each player's study deck, and puzzles with their and their solvers' Glicko-2
ratings (docs/STUDY.md).

One file, opened in WAL mode with ``synchronous=FULL``; every change is one
``BEGIN IMMEDIATE ... COMMIT`` transaction, rolled back on any exception, so a
crash leaves the database as it was after the last change that returned.

The schema grows by `MIGRATIONS`: script ``i`` brings ``PRAGMA user_version``
from ``i`` to ``i + 1``, each in its own transaction (foreign keys checked
before it commits), so a crash in the middle of one leaves the version before.

A player is a kind and a name: the person "h1" (a name a record may give) and
the computer level "h1" are two players, each with its own rating.

Ratings are Elo (Elo 1978) made pairwise for 2 to 4 players: every pair of
seats in a finished game is one result (1 a win, 0.5 a tie, 0 a loss), and a
player's change is ``ELO_K / (n - 1)`` times the sum over the opponents of
``result - expected``, with ``expected = 1 / (1 + 10 ** ((Rb - Ra) / 400))``
from the ratings before the game. The changes sum to zero, so the ratings of
all players always sum to ``INITIAL_RATING`` per player. Records read from GCG
are not rated.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import TracebackType
from typing import Any

from rackety.errors import RacketyError, read_error
from rackety.study.ratings import Rating
from rackety.study.ratings import attempt as rate_attempt

INITIAL_RATING = 1500.0
ELO_K = 32.0

KINDS = ("human", "computer")
STATUSES = ("playing", "over", "record")

# Script i brings user_version i -> i + 1. Statements are split at ";", so no
# ";" inside a statement or a comment. Never edit a script once released: add one.
MIGRATIONS: list[str] = [
    # 1: the tables. A seat's score lives in game_players (one place), its rank
    # is set when the game is over or for a record. Game ids are never reused
    # (AUTOINCREMENT), so a link to a deleted game never shows another.
    """
    CREATE TABLE players (
        id      INTEGER PRIMARY KEY,
        name    TEXT NOT NULL UNIQUE,
        kind    TEXT NOT NULL CHECK (kind IN ('human', 'computer')),
        level   TEXT,
        rating  REAL NOT NULL DEFAULT 1500,
        games   INTEGER NOT NULL DEFAULT 0,
        wins    INTEGER NOT NULL DEFAULT 0,
        losses  INTEGER NOT NULL DEFAULT 0,
        draws   INTEGER NOT NULL DEFAULT 0,
        created TEXT NOT NULL
    );
    CREATE TABLE games (
        id      INTEGER PRIMARY KEY AUTOINCREMENT,
        created TEXT NOT NULL,
        updated TEXT NOT NULL,
        status  TEXT NOT NULL CHECK (status IN ('playing', 'over', 'record')),
        config  TEXT NOT NULL,
        gcg     TEXT NOT NULL DEFAULT '',
        turn    INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE game_players (
        game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat      INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players (id),
        score     INTEGER NOT NULL DEFAULT 0,
        rank      INTEGER,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq     INTEGER NOT NULL,
        action  TEXT NOT NULL,
        created TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    )
    """,
    # 2: rating history per seat, and indexes for the listings.
    """
    ALTER TABLE game_players ADD COLUMN rating_before REAL;
    ALTER TABLE game_players ADD COLUMN rating_after REAL;
    CREATE INDEX games_by_status ON games (status, id);
    CREATE INDEX game_players_by_player ON game_players (player_id);
    CREATE INDEX players_by_rating ON players (rating DESC, name)
    """,
    # 3: people and computer levels apart: a player is (kind, name), so a person
    # or a record's player called "h1" is not the computer level h1. The table is
    # rebuilt (a column's UNIQUE cannot be dropped) with its ids, so every seat
    # keeps its player. A record's seat held by a computer row (version 2 let a
    # record's "h1" take the level's row) goes to a person of that name: records
    # are people's games, and they are not rated.
    """
    CREATE TABLE players_v3 (
        id      INTEGER PRIMARY KEY,
        name    TEXT NOT NULL,
        kind    TEXT NOT NULL CHECK (kind IN ('human', 'computer')),
        level   TEXT,
        rating  REAL NOT NULL DEFAULT 1500,
        games   INTEGER NOT NULL DEFAULT 0,
        wins    INTEGER NOT NULL DEFAULT 0,
        losses  INTEGER NOT NULL DEFAULT 0,
        draws   INTEGER NOT NULL DEFAULT 0,
        created TEXT NOT NULL,
        UNIQUE (kind, name)
    );
    INSERT INTO players_v3 (id, name, kind, level, rating, games, wins, losses, draws, created)
        SELECT id, name, kind, level, rating, games, wins, losses, draws, created FROM players;
    INSERT OR IGNORE INTO players_v3 (name, kind, level, rating, created)
        SELECT DISTINCT p.name, 'human', NULL, 1500, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
        FROM game_players gp JOIN games g ON g.id = gp.game_id
        JOIN players p ON p.id = gp.player_id
        WHERE g.status = 'record' AND p.kind = 'computer';
    UPDATE game_players SET player_id = (
            SELECT h.id FROM players_v3 h JOIN players p ON p.name = h.name
            WHERE h.kind = 'human' AND p.id = game_players.player_id)
        WHERE game_id IN (SELECT id FROM games WHERE status = 'record')
        AND player_id IN (SELECT id FROM players WHERE kind = 'computer');
    DROP TABLE players;
    ALTER TABLE players_v3 RENAME TO players;
    CREATE INDEX players_by_rating ON players (rating DESC, name)
    """,
    # 4: study (docs/STUDY.md): each player's items (a quiz question's kind,
    # lexicon and prompt, where it came from), their FSRS card and when due (NULL
    # while new), and every review; puzzles and solvers with their Glicko-2
    # ratings, and every attempt; each player's Mistake Index of each game studied.
    """
    CREATE TABLE study_items (
        id        INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
        kind      TEXT NOT NULL,
        lexicon   TEXT NOT NULL,
        prompt    TEXT NOT NULL,
        source    TEXT NOT NULL DEFAULT '',
        card      TEXT,
        due       TEXT,
        added     TEXT NOT NULL,
        UNIQUE (player_id, kind, lexicon, prompt)
    );
    CREATE INDEX study_items_by_due ON study_items (player_id, due);
    CREATE TABLE study_reviews (
        item_id  INTEGER NOT NULL REFERENCES study_items (id) ON DELETE CASCADE,
        reviewed TEXT NOT NULL,
        rating   TEXT NOT NULL,
        correct  INTEGER NOT NULL,
        seconds  REAL
    );
    CREATE INDEX study_reviews_by_item ON study_reviews (item_id);
    CREATE TABLE puzzles (
        id       INTEGER PRIMARY KEY,
        lexicon  TEXT NOT NULL,
        cgp      TEXT NOT NULL,
        puzzle   TEXT NOT NULL,
        rating   REAL NOT NULL DEFAULT 1500,
        rd       REAL NOT NULL DEFAULT 350,
        vol      REAL NOT NULL DEFAULT 0.06,
        added    TEXT NOT NULL,
        UNIQUE (lexicon, cgp)
    );
    CREATE TABLE solvers (
        player_id INTEGER PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
        rating    REAL NOT NULL DEFAULT 1500,
        rd        REAL NOT NULL DEFAULT 350,
        vol       REAL NOT NULL DEFAULT 0.06
    );
    CREATE TABLE puzzle_attempts (
        puzzle_id     INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
        player_id     INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
        tried         TEXT NOT NULL,
        reply         TEXT NOT NULL,
        correct       INTEGER NOT NULL,
        seconds       REAL,
        rating_before REAL NOT NULL,
        rating_after  REAL NOT NULL
    );
    CREATE INDEX puzzle_attempts_by_player ON puzzle_attempts (player_id);
    CREATE TABLE study_games (
        player_id     INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
        source        TEXT NOT NULL,
        studied       TEXT NOT NULL,
        turns         INTEGER NOT NULL,
        mistake_index REAL NOT NULL,
        UNIQUE (player_id, source)
    )
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)

_SQLITE_HEADER = b"SQLite format 3\x00"
_OUR_TABLES = {"players", "games", "game_players", "actions"}


@dataclass(frozen=True)
class PlayerRow:
    """A player and their record: rating, games, wins, losses, draws."""

    id: int
    name: str
    kind: str  # "human" or "computer"
    level: str | None  # the computer's level ("h3", "sim"), None for a human
    rating: float
    games: int
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True)
class Standing:
    """One seat of a finished game or record: score, rank, rating around it."""

    seat: int
    name: str
    score: int
    rank: int  # 1 is the best score; ties share a rank (1, 1, 3)
    rating_before: float | None  # None for a record (not rated)
    rating_after: float | None


@dataclass(frozen=True)
class StudyItem:
    """One item of a player's study deck: a quiz question's ``kind``,
    ``lexicon`` and ``prompt``, where it came from (``source``), its FSRS
    ``card`` (None while new) and when it is ``due`` (ISO 8601, UTC; None while
    new), and how many times it was reviewed."""

    id: int
    kind: str
    lexicon: str
    prompt: str
    source: str
    card: str | None
    due: str | None
    reviews: int


@dataclass(frozen=True)
class StudyCounts:
    """A player's deck: items ``due`` now, ``learned`` (reviewed, not due),
    ``new`` (never reviewed), and the ``forecast``: items falling due on each
    of the next days (day 0 is the rest of today, in UTC)."""

    due: int
    learned: int
    new: int
    forecast: list[int]


@dataclass(frozen=True)
class GameRow:
    """A stored game as the service reads it back."""

    id: int
    created: str  # ISO 8601, UTC
    updated: str
    status: str  # "playing", "over" or "record"
    config: dict[str, Any]
    gcg: str
    scores: list[int]  # by seat
    turn: int
    players: list[str]  # names by seat
    standings: list[Standing]  # by rank then seat; empty while playing


def _now() -> str:
    return _iso(datetime.now(UTC))


def _iso(when: datetime) -> str:
    """An aware time as the store writes it: ISO 8601 in UTC, to the millisecond."""
    return when.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _statements(script: str) -> list[str]:
    return [part.strip() for part in script.split(";") if part.strip()]


def _ranks(scores: list[int]) -> list[int]:
    """Competition ranks: 1 + the number of seats with a better score."""
    return [1 + sum(other > score for other in scores) for score in scores]


def _elo_changes(ratings: list[float], scores: list[int]) -> list[float]:
    """Each seat's pairwise Elo change (see the module docstring)."""
    n = len(ratings)
    if n < 2:
        return [0.0] * n
    changes = []
    for a in range(n):
        total = 0.0
        for b in range(n):
            if b == a:
                continue
            result = 1.0 if scores[a] > scores[b] else 0.5 if scores[a] == scores[b] else 0.0
            expected = 1.0 / (1.0 + 10.0 ** ((ratings[b] - ratings[a]) / 400.0))
            total += result - expected
        changes.append(ELO_K / (n - 1) * total)
    return changes


class Store:
    """The SQLite store of the web app; safe to share between threads."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """Open the database at ``path`` (created if missing) and migrate it."""
        self.path = Path(path)
        self._lock = threading.RLock()
        memory = str(path) == ":memory:"
        if not memory:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise RacketyError(f"{self.path}: cannot create its folder ({exc})") from None
            self._check_header()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as exc:
            raise RacketyError(f"{self.path}: cannot open database ({exc})") from None
        try:
            self._setup()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            if getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_NOTADB:
                raise RacketyError(
                    f"{self.path}: not a rackety database (file is not SQLite)") from None
            raise RacketyError(f"{self.path}: cannot open database ({exc})") from None
        except BaseException:
            self._db.close()
            raise

    def _check_header(self) -> None:
        """Refuse a file that is not SQLite before SQLite sees it: SQLite takes a
        file of a byte or two for an empty database and overwrites it."""
        try:
            with self.path.open("rb") as file:
                header = file.read(16)
        except FileNotFoundError:
            return
        except IsADirectoryError:
            raise RacketyError(f"{self.path}: is a directory, not a database") from None
        except OSError as exc:
            raise read_error(self.path, exc, "database") from None
        if header and header != _SQLITE_HEADER:
            raise RacketyError(f"{self.path}: not a rackety database (file is not SQLite)")

    def _setup(self) -> None:
        db = self._db
        db.execute("PRAGMA busy_timeout=5000")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        # Off while migrating (a table is rebuilt: SQLite's way, each migration
        # checked by foreign_key_check before it commits); it cannot change in a
        # transaction.
        db.execute("PRAGMA foreign_keys=OFF")
        self._migrate()
        db.execute("PRAGMA foreign_keys=ON")

    def _migrate(self) -> None:
        db = self._db
        start = self.schema_version()
        self._check_version(start)
        for version in range(start, SCHEMA_VERSION):
            with self._transaction():
                # Read again inside the transaction: another process may have migrated.
                current = db.execute("PRAGMA user_version").fetchone()[0]
                self._check_version(current)
                if current != version:
                    continue
                tables = {name for (name,) in db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'"
                    " AND name NOT LIKE 'sqlite_%'")}
                if current == 0 and tables - _OUR_TABLES:
                    raise RacketyError(f"{self.path}: not a rackety database "
                                       f"(it has other tables: {', '.join(sorted(tables))})")
                for statement in _statements(MIGRATIONS[version]):
                    db.execute(statement)
                broken = db.execute("PRAGMA foreign_key_check").fetchone()
                if broken is not None:
                    raise RacketyError(f"{self.path}: cannot migrate to schema version "
                                       f"{version + 1}: table {broken[0]} row {broken[1]} "
                                       f"refers to a missing {broken[2]} row")
                db.execute(f"PRAGMA user_version={version + 1}")

    def _check_version(self, version: int) -> None:
        if version > SCHEMA_VERSION:
            raise RacketyError(f"{self.path}: schema version {version} is newer than this "
                               f"rackety knows ({SCHEMA_VERSION}); upgrade rackety")

    def __repr__(self) -> str:
        return f"<Store {self.path}>"

    def close(self) -> None:
        """Close the database; the store cannot be used afterwards."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: BEGIN IMMEDIATE, COMMIT, or ROLLBACK on any exception."""
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """One read transaction, so reads of several tables see one state."""
        with self._lock:
            db = self._db
            db.execute("BEGIN")
            try:
                yield db
            finally:
                if db.in_transaction:
                    db.execute("COMMIT")

    def schema_version(self) -> int:
        """The database's ``PRAGMA user_version``: the number of migrations applied."""
        with self._lock:
            return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def integrity_ok(self) -> bool:
        """Whether SQLite's integrity check finds nothing wrong."""
        with self._lock:
            rows = self._db.execute("PRAGMA integrity_check").fetchall()
        return [tuple(row) for row in rows] == [("ok",)]

    # players

    def player(self, name: str, *, kind: str = "human", level: str | None = None) -> PlayerRow:
        """The player of ``kind`` called ``name`` (a person, or a computer level
        by its label: "h3", "sim 2s"), created with ``level`` if new. People and
        computer levels are apart: the person "h3" is not the level h3."""
        if not isinstance(name, str) or not name.strip():
            raise RacketyError("player name: must not be empty")
        if kind not in KINDS:
            raise RacketyError(f"player kind: {kind!r} is not one of {', '.join(KINDS)}")
        if (kind == "computer") != bool(level):
            raise RacketyError(f"player {name!r}: a computer player has a level, a person none")
        with self._transaction() as db:
            return self._player(db, name, kind, level)

    @staticmethod
    def _player(db: sqlite3.Connection, name: str, kind: str, level: str | None) -> PlayerRow:
        db.execute(
            "INSERT INTO players (name, kind, level, rating, created) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (kind, name) DO NOTHING", (name, kind, level, INITIAL_RATING, _now()))
        row = db.execute(f"{_PLAYER_SELECT} WHERE kind = ? AND name = ?",
                         (kind, name)).fetchone()
        return PlayerRow(*row)

    def get_player(self, player_id: int) -> PlayerRow | None:
        """The player with this id, or None."""
        with self._lock:
            row = self._db.execute(f"{_PLAYER_SELECT} WHERE id = ?", (player_id,)).fetchone()
        return PlayerRow(*row) if row else None

    def players(self) -> list[PlayerRow]:
        """Every player, by rating (highest first), then name (then kind)."""
        with self._lock:
            rows = self._db.execute(
                f"{_PLAYER_SELECT} ORDER BY rating DESC, name, kind").fetchall()
        return [PlayerRow(*row) for row in rows]

    # study

    def study_add(self, player_id: int, items: list[tuple[str, str, str, str]]) -> int:
        """Add ``items`` (kind, lexicon, prompt, source) to the player's deck as
        new; one already there is kept as it is. Returns how many were added."""
        if not items:
            return 0
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM players WHERE id = ?", (player_id,)).fetchone() is None:
                raise RacketyError(f"study: no player {player_id}")
            before = db.total_changes
            db.executemany(
                "INSERT INTO study_items (player_id, kind, lexicon, prompt, source, added)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [(player_id, kind, lexicon, prompt, source, _now())
                 for kind, lexicon, prompt, source in items])
            return db.total_changes - before

    def study_due(self, player_id: int, when: datetime, *, limit: int = 50,
                  new: int = 10, kind: str | None = None) -> list[StudyItem]:
        """The player's items due at ``when`` (most overdue first), at most
        ``limit``, then up to ``new`` new ones in the order they were added (of
        ``kind`` only, when given)."""
        only = " AND i.kind = ?" if kind is not None else ""
        args: tuple[Any, ...] = (kind,) if kind is not None else ()
        with self._reading() as db:
            due = db.execute(f"{_STUDY_SELECT} WHERE i.player_id = ? AND i.due IS NOT NULL"
                             f" AND i.due <= ?{only} ORDER BY i.due, i.id LIMIT ?",
                             (player_id, _iso(when), *args, max(0, limit))).fetchall()
            fresh = db.execute(f"{_STUDY_SELECT} WHERE i.player_id = ? AND i.due IS NULL{only}"
                               " ORDER BY i.id LIMIT ?",
                               (player_id, *args, max(0, new))).fetchall()
        return [StudyItem(*row) for row in due + fresh]

    def study_met(self, player_id: int, kind: str, lexicon: str, prompt: str, source: str, *,
                  correct: bool, seconds: float | None, when: datetime) -> None:
        """An item the player met outside their deck (a puzzle tried): into
        the deck if new, and scheduled by this answer (`study_answered`)."""
        self.study_add(player_id, [(kind, lexicon, prompt, source)])
        with self._lock:
            row = self._db.execute(
                "SELECT id FROM study_items WHERE player_id = ? AND kind = ? AND"
                " lexicon = ? AND prompt = ?", (player_id, kind, lexicon, prompt)).fetchone()
        self.study_answered(int(row[0]), correct=correct, seconds=seconds, when=when)

    def study_answered(self, item_id: int, *, correct: bool, seconds: float | None,
                       when: datetime) -> tuple[str, datetime]:
        """An answer to an item, right or not in ``seconds``: its review
        rated and the item scheduled again by FSRS (`rackety.study.schedule`),
        then recorded (`study_review`); the rating and when it is due."""
        from rackety.study.schedule import rating_of, review

        item = self.study_item(item_id)
        if item is None:
            raise RacketyError(f"study: no item {item_id}")
        rating = rating_of(correct, seconds)
        after = review(item.card, rating, when)
        self.study_review(item_id, card=after.card, due=after.due, rating=rating,
                          correct=correct, seconds=seconds, when=when)
        return rating, after.due

    def study_review(self, item_id: int, *, card: str, due: datetime, rating: str,
                     correct: bool, seconds: float | None, when: datetime) -> None:
        """Record a review of an item at ``when`` and its new FSRS ``card`` and
        ``due`` date (`rackety.study.schedule.review` makes them)."""
        with self._transaction() as db:
            changed = db.execute("UPDATE study_items SET card = ?, due = ? WHERE id = ?",
                                 (card, _iso(due), item_id)).rowcount
            if not changed:
                raise RacketyError(f"study: no item {item_id}")
            db.execute("INSERT INTO study_reviews (item_id, reviewed, rating, correct, seconds)"
                       " VALUES (?, ?, ?, ?, ?)",
                       (item_id, _iso(when), rating, int(correct), seconds))

    def study_item(self, item_id: int) -> StudyItem | None:
        """The item with this id, or None."""
        with self._lock:
            row = self._db.execute(f"{_STUDY_SELECT} WHERE i.id = ?", (item_id,)).fetchone()
        return StudyItem(*row) if row else None

    def study_owner(self, item_id: int) -> int | None:
        """The player whose deck holds the item, or None."""
        with self._lock:
            row = self._db.execute("SELECT player_id FROM study_items WHERE id = ?",
                                   (item_id,)).fetchone()
        return int(row[0]) if row else None

    def study_counts(self, player_id: int, when: datetime, *, days: int = 7) -> StudyCounts:
        """The player's deck at ``when``: due, learned and new, and the items
        falling due on each of the next ``days`` days."""
        now = _iso(when)
        with self._reading() as db:
            due, learned, new = db.execute(
                "SELECT COALESCE(SUM(due IS NOT NULL AND due <= ?), 0),"
                " COALESCE(SUM(due IS NOT NULL AND due > ?), 0), COALESCE(SUM(due IS NULL), 0)"
                " FROM study_items WHERE player_id = ?", (now, now, player_id)).fetchone()
            start = when.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
            forecast = []
            for day in range(max(0, days)):
                low = now if day == 0 else _iso(start + timedelta(days=day))
                high = _iso(start + timedelta(days=day + 1))
                forecast.append(int(db.execute(
                    "SELECT COUNT(*) FROM study_items WHERE player_id = ? AND due > ?"
                    " AND due <= ?", (player_id, low, high)).fetchone()[0]))
        return StudyCounts(int(due), int(learned), int(new), forecast)

    def study_game(self, player_id: int, source: str, *, turns: int, mistake_index: float,
                   when: datetime) -> None:
        """Keep a player's Mistake Index of a game studied (``source`` names
        it; a game studied again replaces its line)."""
        with self._transaction() as db:
            db.execute("INSERT INTO study_games (player_id, source, studied, turns, mistake_index)"
                       " VALUES (?, ?, ?, ?, ?) ON CONFLICT (player_id, source) DO UPDATE SET"
                       " studied = excluded.studied, turns = excluded.turns,"
                       " mistake_index = excluded.mistake_index",
                       (player_id, source, _iso(when), turns, mistake_index))

    def study_progress(self, player_id: int) -> dict[str, Any]:
        """A player's progress: the Mistake Index of each game studied (oldest
        first), the share of study reviews answered right (all, and the last
        7 days' and 30 days'), and the puzzle rating and attempts."""
        now = datetime.now(UTC)
        with self._reading() as db:
            games = [{"source": source, "studied": studied, "turns": turns,
                      "mistake_index": mi} for source, studied, turns, mi in db.execute(
                "SELECT source, studied, turns, mistake_index FROM study_games"
                " WHERE player_id = ? ORDER BY studied, rowid", (player_id,))]
            quiz = {}
            for label, since in (("all", None), ("30 days", 30), ("7 days", 7)):
                low = _iso(now - timedelta(days=since)) if since else ""
                n, right = db.execute(
                    "SELECT COUNT(*), COALESCE(SUM(r.correct), 0) FROM study_reviews r"
                    " JOIN study_items i ON i.id = r.item_id WHERE i.player_id = ?"
                    " AND r.reviewed >= ?", (player_id, low)).fetchone()
                quiz[label] = {"reviews": int(n),
                               "right": round(100.0 * right / n, 1) if n else None}
            solver = db.execute("SELECT rating, rd FROM solvers WHERE player_id = ?",
                                (player_id,)).fetchone()
            attempts, solved = db.execute(
                "SELECT COUNT(*), COALESCE(SUM(correct), 0) FROM puzzle_attempts"
                " WHERE player_id = ?", (player_id,)).fetchone()
        return {"games": games, "quiz": quiz,
                "puzzles": {"rating": round(solver[0], 1) if solver else None,
                            "rd": round(solver[1], 1) if solver else None,
                            "attempts": int(attempts), "solved": int(solved)}}

    # puzzles

    def puzzle(self, lexicon: str, cgp: str, puzzle: dict[str, Any]) -> int:
        """The id of the puzzle of ``cgp`` in ``lexicon``, stored (``puzzle``:
        its JSON form) if new."""
        with self._transaction() as db:
            db.execute("INSERT INTO puzzles (lexicon, cgp, puzzle, added) VALUES (?, ?, ?, ?)"
                       " ON CONFLICT (lexicon, cgp) DO NOTHING",
                       (lexicon, cgp, _json(puzzle), _now()))
            return int(db.execute("SELECT id FROM puzzles WHERE lexicon = ? AND cgp = ?",
                                  (lexicon, cgp)).fetchone()[0])

    def puzzle_next(self, player_id: int, *, tag: str | None = None
                    ) -> tuple[int, dict[str, Any]] | None:
        """A puzzle the player has not tried (of ``tag``, when given), the one
        rated nearest the player's rating first; None when there is none."""
        with self._reading() as db:
            row = db.execute("SELECT rating FROM solvers WHERE player_id = ?",
                             (player_id,)).fetchone()
            mine = row[0] if row else INITIAL_RATING
            rows = db.execute(
                "SELECT p.id, p.puzzle FROM puzzles p WHERE NOT EXISTS (SELECT 1 FROM"
                " puzzle_attempts a WHERE a.puzzle_id = p.id AND a.player_id = ?)"
                " ORDER BY ABS(p.rating - ?), p.id", (player_id, mine))
            for puzzle_id, text in rows:
                data = json.loads(text)
                if tag is None or tag in data.get("tags", []):
                    return int(puzzle_id), data
        return None

    def puzzle_data(self, puzzle_id: int) -> dict[str, Any] | None:
        """A stored puzzle's JSON form, or None."""
        with self._lock:
            row = self._db.execute("SELECT puzzle FROM puzzles WHERE id = ?",
                                   (puzzle_id,)).fetchone()
        return json.loads(row[0]) if row else None

    def ratings(self, player_id: int, puzzle_id: int) -> tuple[Rating, Rating]:
        """The solver's and the puzzle's Glicko-2 ratings (new ones start at
        the initial rating)."""
        with self._reading() as db:
            return self._ratings(db, player_id, puzzle_id)

    @staticmethod
    def _ratings(db: sqlite3.Connection, player_id: int, puzzle_id: int
                 ) -> tuple[Rating, Rating]:
        solver = db.execute("SELECT rating, rd, vol FROM solvers WHERE player_id = ?",
                            (player_id,)).fetchone()
        puzzle = db.execute("SELECT rating, rd, vol FROM puzzles WHERE id = ?",
                            (puzzle_id,)).fetchone()
        if puzzle is None:
            raise RacketyError(f"puzzles: no puzzle {puzzle_id}")
        return (Rating(*solver) if solver else Rating(), Rating(*puzzle))

    def puzzle_attempt(self, player_id: int, puzzle_id: int, *, reply: str, correct: bool,
                       seconds: float | None, when: datetime) -> tuple[Rating, Rating]:
        """Record an attempt at a puzzle and rate both sides by it
        (`rackety.study.ratings.attempt`); the solver's and the puzzle's
        ratings after it."""
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM players WHERE id = ?", (player_id,)).fetchone() is None:
                raise RacketyError(f"puzzles: no player {player_id}")
            solver, puzzle = self._ratings(db, player_id, puzzle_id)
            solver_after, puzzle_after = rate_attempt(solver, puzzle, correct)
            db.execute("INSERT INTO solvers (player_id, rating, rd, vol) VALUES (?, ?, ?, ?)"
                       " ON CONFLICT (player_id) DO UPDATE SET rating = excluded.rating,"
                       " rd = excluded.rd, vol = excluded.vol",
                       (player_id, solver_after.rating, solver_after.rd, solver_after.vol))
            db.execute("UPDATE puzzles SET rating = ?, rd = ?, vol = ? WHERE id = ?",
                       (puzzle_after.rating, puzzle_after.rd, puzzle_after.vol, puzzle_id))
            db.execute("INSERT INTO puzzle_attempts (puzzle_id, player_id, tried, reply, correct,"
                       " seconds, rating_before, rating_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (puzzle_id, player_id, _iso(when), reply[:200], int(correct), seconds,
                        solver.rating, solver_after.rating))
            return solver_after, puzzle_after

    # games

    def create_game(self, config: dict[str, Any], player_ids: list[int], *, gcg: str = "",
                    status: str = "playing", scores: list[int] | None = None,
                    turn: int = 0) -> int:
        """A new game with these players by seat; returns its id. ``scores`` (by
        seat, 0 each by default) and ``turn`` are where it starts: a game taken up
        from a record starts at the record's."""
        if status not in ("playing", "record"):
            raise RacketyError(f"game status: a new game is 'playing' or 'record', not {status!r}")
        if scores is not None and (len(scores) != len(player_ids) or not all(
                isinstance(s, int) for s in scores)):
            raise RacketyError(f"scores: must be {len(player_ids)} integers, one a seat, "
                               f"not {scores!r}")
        if not isinstance(turn, int) or not 0 <= turn < max(len(player_ids), 1):
            raise RacketyError(f"turn: a seat from 0 to {len(player_ids) - 1}, not {turn!r}")
        with self._transaction() as db:
            game_id = self._insert_game(db, config, player_ids, gcg, status)
            self._set_state(db, game_id, gcg, list(scores or [0] * len(player_ids)), turn,
                            _now())
            return game_id

    def _insert_game(self, db: sqlite3.Connection, config: dict[str, Any],
                     player_ids: list[int], gcg: str, status: str) -> int:
        if len(player_ids) < 2:
            raise RacketyError(f"players: a game needs 2 or more, not {len(player_ids)}")
        for player_id in player_ids:
            if db.execute("SELECT 1 FROM players WHERE id = ?", (player_id,)).fetchone() is None:
                raise RacketyError(f"players: no player with id {player_id}")
        now = _now()
        cursor = db.execute(
            "INSERT INTO games (created, updated, status, config, gcg, turn)"
            " VALUES (?, ?, ?, ?, ?, 0)", (now, now, status, _json(config), gcg))
        game_id = int(cursor.lastrowid or 0)
        db.executemany("INSERT INTO game_players (game_id, seat, player_id) VALUES (?, ?, ?)",
                       [(game_id, seat, pid) for seat, pid in enumerate(player_ids)])
        return game_id

    def add_action(self, game_id: int, seq: int, action: dict[str, Any], *, gcg: str,
                   scores: list[int], turn: int, over: bool = False) -> list[Standing]:
        """Append action ``seq`` (the next number: 0, 1, 2 ...) to a game in play, with
        the game's new gcg, scores and turn; with ``over`` finish and rate the game.

        Returns the standings when the game is over, else []. A wrong ``seq`` or a
        game not in play raises RacketyError and changes nothing.
        """
        with self._transaction() as db:
            seats = self._playing_seats(db, game_id, scores)
            (count,) = db.execute("SELECT count(*) FROM actions WHERE game_id = ?",
                                  (game_id,)).fetchone()
            if seq != count:
                what = "is already stored" if 0 <= seq < count else "would leave a gap"
                raise RacketyError(
                    f"game {game_id}: action seq {seq} {what}; the next is {count}")
            now = _now()
            db.execute("INSERT INTO actions (game_id, seq, action, created) VALUES (?, ?, ?, ?)",
                       (game_id, seq, _json(action), now))
            self._set_state(db, game_id, gcg, scores, turn, now)
            if not over:
                return []
            return self._finish(db, game_id, seats, scores)

    def truncate_actions(self, game_id: int, keep: int, *, gcg: str, scores: list[int],
                         turn: int) -> None:
        """Keep the first ``keep`` actions of a game in play (for undo), with the
        game's gcg, scores and turn as they were after them."""
        with self._transaction() as db:
            self._playing_seats(db, game_id, scores)
            (count,) = db.execute("SELECT count(*) FROM actions WHERE game_id = ?",
                                  (game_id,)).fetchone()
            if not 0 <= keep <= count:
                raise RacketyError(f"game {game_id}: cannot keep {keep} of {count} actions")
            db.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, keep))
            self._set_state(db, game_id, gcg, scores, turn, _now())

    def _playing_seats(self, db: sqlite3.Connection, game_id: int,
                       scores: list[int]) -> list[tuple[int, float]]:
        """(player id, rating) by seat of a game in play, checking ``scores`` fits it."""
        row = db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise RacketyError(f"game {game_id}: no such game")
        if row[0] != "playing":
            raise RacketyError(f"game {game_id}: is {row[0]}, not playing")
        seats = db.execute(
            "SELECT gp.player_id, p.rating FROM game_players gp JOIN players p"
            " ON p.id = gp.player_id WHERE gp.game_id = ? ORDER BY gp.seat", (game_id,)).fetchall()
        if len(scores) != len(seats) or not all(isinstance(s, int) for s in scores):
            raise RacketyError(f"game {game_id}: scores must be {len(seats)} integers, "
                               f"one a seat, not {scores!r}")
        return [(int(pid), float(rating)) for pid, rating in seats]

    def _set_state(self, db: sqlite3.Connection, game_id: int, gcg: str, scores: list[int],
                   turn: int, now: str) -> None:
        db.execute("UPDATE games SET gcg = ?, turn = ?, updated = ? WHERE id = ?",
                   (gcg, turn, now, game_id))
        db.executemany("UPDATE game_players SET score = ? WHERE game_id = ? AND seat = ?",
                       [(score, game_id, seat) for seat, score in enumerate(scores)])

    def _finish(self, db: sqlite3.Connection, game_id: int, seats: list[tuple[int, float]],
                scores: list[int]) -> list[Standing]:
        """Mark the game over, rank the seats and rate the players, in the open transaction."""
        ranks = _ranks(scores)
        changes = _elo_changes([rating for _, rating in seats], scores)
        # A player in two seats (two computer opponents of one level) gets both changes.
        after = {pid: rating for pid, rating in seats}
        for (pid, _), change in zip(seats, changes, strict=True):
            after[pid] += change
        winners = ranks.count(1)
        for seat, (pid, before) in enumerate(seats):
            won = ranks[seat] == 1 and winners == 1
            drew = ranks[seat] == 1 and winners > 1
            db.execute(
                "UPDATE game_players SET rank = ?, rating_before = ?, rating_after = ?"
                " WHERE game_id = ? AND seat = ?", (ranks[seat], before, after[pid], game_id, seat))
            db.execute(
                "UPDATE players SET games = games + 1, wins = wins + ?, draws = draws + ?,"
                " losses = losses + ? WHERE id = ?",
                (int(won), int(drew), int(not (won or drew)), pid))
        for pid, rating in after.items():
            db.execute("UPDATE players SET rating = ? WHERE id = ?", (rating, pid))
        db.execute("UPDATE games SET status = 'over' WHERE id = ?", (game_id,))
        return self._load_games(db, "WHERE id = ?", (game_id,))[0].standings

    def actions(self, game_id: int) -> list[dict[str, Any]]:
        """The actions of a game, in seq order."""
        with self._lock:
            rows = self._db.execute("SELECT action FROM actions WHERE game_id = ? ORDER BY seq",
                                    (game_id,)).fetchall()
        return [json.loads(action) for (action,) in rows]

    def game(self, game_id: int) -> GameRow | None:
        """The game with this id, or None."""
        with self._reading() as db:
            rows = self._load_games(db, "WHERE id = ?", (game_id,))
        return rows[0] if rows else None

    def games(self, *, limit: int = 50, offset: int = 0,
              status: str | None = None) -> list[GameRow]:
        """Games, newest first, optionally only those with ``status``."""
        if limit < 0 or offset < 0:
            raise RacketyError(f"limit/offset: must be 0 or more, not {limit}/{offset}")
        if status is not None and status not in STATUSES:
            raise RacketyError(f"status: {status!r} is not one of {', '.join(STATUSES)}")
        where, params = ("WHERE status = ?", (status,)) if status else ("", ())
        with self._reading() as db:
            return self._load_games(db, f"{where} ORDER BY id DESC LIMIT ? OFFSET ?",
                                    (*params, limit, offset))

    def _load_games(self, db: sqlite3.Connection, tail: str,
                    params: tuple[Any, ...]) -> list[GameRow]:
        """The games ``SELECT ... FROM games {tail}`` picks, in that order, with their seats."""
        games = db.execute(
            f"SELECT id, created, updated, status, config, gcg, turn FROM games {tail}",
            params).fetchall()
        seats: dict[int, list[tuple[Any, ...]]] = {game[0]: [] for game in games}
        for row in db.execute(
                "SELECT gp.game_id, gp.seat, p.name, gp.score, gp.rank, gp.rating_before,"
                " gp.rating_after FROM game_players gp JOIN players p ON p.id = gp.player_id"
                f" WHERE gp.game_id IN (SELECT id FROM games {tail}) ORDER BY gp.game_id, gp.seat",
                params):
            seats[row[0]].append(row[1:])
        result = []
        for game_id, created, updated, status, config, gcg, turn in games:
            rows = seats[game_id]
            standings = sorted(
                (Standing(seat, name, score, rank, before, after)
                 for seat, name, score, rank, before, after in rows if rank is not None),
                key=lambda s: (s.rank, s.seat))
            result.append(GameRow(
                id=game_id, created=created, updated=updated, status=status,
                config=json.loads(config), gcg=gcg, scores=[row[2] for row in rows], turn=turn,
                players=[row[1] for row in rows],
                standings=standings if status != "playing" else []))
        return result

    def import_record(self, config: dict[str, Any], player_names: list[str], gcg: str,
                      scores: list[int]) -> int:
        """Store a game read from GCG as a record: ranked by score, not rated."""
        if len(scores) != len(player_names) or not all(isinstance(s, int) for s in scores):
            raise RacketyError(f"record: scores must be {len(player_names)} integers, "
                               f"one a player, not {scores!r}")
        for name in player_names:
            if not isinstance(name, str) or not name.strip():
                raise RacketyError("record: a player name is empty")
        with self._transaction() as db:
            # a record's players are people, whatever they are called ("h1" too)
            ids = [self._player(db, name, "human", None).id for name in player_names]
            game_id = self._insert_game(db, config, ids, gcg, "record")
            db.executemany(
                "UPDATE game_players SET score = ?, rank = ? WHERE game_id = ? AND seat = ?",
                [(score, rank, game_id, seat)
                 for seat, (score, rank) in enumerate(zip(scores, _ranks(scores), strict=True))])
            return game_id

    def delete_game(self, game_id: int) -> bool:
        """Delete a game and its actions (ratings it changed stay); False if there was none."""
        with self._transaction() as db:
            return db.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount > 0


_PLAYER_SELECT = ("SELECT id, name, kind, level, rating, games, wins, losses, draws"
                  " FROM players")


_STUDY_SELECT = ("SELECT i.id, i.kind, i.lexicon, i.prompt, i.source, i.card, i.due,"
                 " (SELECT COUNT(*) FROM study_reviews r WHERE r.item_id = i.id)"
                 " FROM study_items i")


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
