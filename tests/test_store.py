"""The web app's SQLite store: migrations, refusals of bad files, players, the
seq rules of actions, Elo by hand and by formula, zero-sum ratings over random
games, and a writer killed with SIGKILL that leaves a consistent database."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from web_server import LEVELS_AS_PEOPLE, OLD, version_2_store

from rackety.errors import RacketyError
from rackety.frontends.web import store as store_module
from rackety.frontends.web.store import MIGRATIONS, SCHEMA_VERSION, Standing, Store


def schema(path: Path) -> list[tuple[str, str, str]]:
    db = sqlite3.connect(path)
    try:
        return sorted(db.execute("SELECT type, name, sql FROM sqlite_master"))
    finally:
        db.close()


def user_version(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return db.execute("PRAGMA user_version").fetchone()[0]
    finally:
        db.close()


def two_player_game(store: Store, a: str = "alice", b: str = "bob") -> int:
    ids = [store.player(a).id, store.player(b, kind="computer", level="h3").id]
    return store.create_game({"lexicon": "TWL06"}, ids)


def finish(store: Store, names: list[str], scores: list[int]) -> list[Standing]:
    """A game between ``names`` that ends at once with ``scores``."""
    game_id = store.create_game({}, [store.player(name).id for name in names])
    return store.add_action(game_id, 0, {"kind": "end"}, gcg="", scores=scores, turn=0,
                            over=True)


def ratings(store: Store) -> dict[str, float]:
    return {p.name: p.rating for p in store.players()}


# opening, migrating, refusing


def test_a_new_database_is_created_at_the_latest_version(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "rackety.db"
    with Store(path) as store:
        assert store.path == path
        assert store.schema_version() == SCHEMA_VERSION >= 2
        assert store.integrity_ok()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")
              if not name.startswith("sqlite_")}
    db.close()
    assert tables == {"players", "games", "game_players", "actions", "study_items",
                      "study_reviews", "puzzles", "solvers", "puzzle_attempts", "study_games"}


def test_reopening_keeps_everything(tmp_path: Path) -> None:
    path = tmp_path / "rackety.db"
    with Store(path) as store:
        game_id = two_player_game(store)
        store.add_action(game_id, 0, {"move": "8H PANDY", "tiles": "L·L"}, gcg="#1",
                         scores=[30, 0], turn=1)
    with Store(path) as store:
        assert store.schema_version() == SCHEMA_VERSION
        assert [p.name for p in store.players()] == ["alice", "bob"]
        assert store.actions(game_id) == [{"move": "8H PANDY", "tiles": "L·L"}]
        game = store.game(game_id)
        assert game is not None
        assert (game.status, game.gcg, game.scores, game.turn) == ("playing", "#1", [30, 0], 1)
        assert game.players == ["alice", "bob"] and game.config == {"lexicon": "TWL06"}
        assert game.standings == []


def test_a_version_1_database_migrates_to_the_latest(tmp_path: Path) -> None:
    old = tmp_path / "v1.db"
    db = sqlite3.connect(old)
    for script in MIGRATIONS[:1]:
        db.executescript(script)
    db.execute("PRAGMA user_version=1")
    db.execute("INSERT INTO players (name, kind, rating, wins, games, created)"
               " VALUES ('ann', 'human', 1520.5, 1, 1, '2024-01-01T00:00:00Z')")
    db.execute("INSERT INTO players (name, kind, rating, losses, games, created)"
               " VALUES ('ben', 'human', 1479.5, 1, 1, '2024-01-01T00:00:00Z')")
    db.execute("INSERT INTO games (created, updated, status, config, gcg, turn)"
               " VALUES ('2024-01-01T00:00:00Z', '2024-01-01T00:00:01Z', 'over', '{}', '#x', 0)")
    db.execute("INSERT INTO game_players VALUES (1, 0, 1, 400, 1), (1, 1, 2, 300, 2)")
    db.commit()
    db.close()
    assert user_version(old) == 1

    with Store(old) as store:
        assert store.schema_version() == SCHEMA_VERSION
        assert store.integrity_ok()
        ann = store.player("ann")
        assert (ann.rating, ann.games, ann.wins) == (1520.5, 1, 1)
        game = store.game(1)
        assert game is not None and game.status == "over" and game.scores == [400, 300]
        # the ratings around a game were not kept in version 1
        assert game.standings == [Standing(0, "ann", 400, 1, None, None),
                                  Standing(1, "ben", 300, 2, None, None)]
    # the migrated schema is the schema of a new database
    with Store(tmp_path / "new.db"):
        pass
    assert schema(old) == schema(tmp_path / "new.db")


def _version_2_with_levels_as_people(path: Path) -> None:
    """A store as version 2 left it after the attack of issue 33: people called
    h1 (rated once against greedy) and best 2s, and a record whose player "h2"
    took the computer level h2's row."""
    db = version_2_store(path, [*LEVELS_AS_PEOPLE, (5, "ann", "human", None, 1500, 0, 0, 0)])
    at = f"'{OLD}'"
    db.execute("INSERT INTO games (created, updated, status, config, gcg, turn) VALUES"
               f" ({at}, {at}, 'over', '{{}}', 'g1', 0), ({at}, {at}, 'record', '{{}}', 'g2', 0),"
               f" ({at}, {at}, 'playing', '{{}}', 'g3', 0)")
    db.execute("INSERT INTO game_players (game_id, seat, player_id, score, rank, rating_before,"
               " rating_after) VALUES (1, 0, 1, 400, 1, 1500, 1516), (1, 1, 2, 300, 2, 1500,"
               " 1484), (2, 0, 5, 28, 1, NULL, NULL), (2, 1, 4, 0, 2, NULL, NULL),"
               " (3, 0, 3, 0, NULL, NULL, NULL), (3, 1, 4, 0, NULL, NULL, NULL)")
    db.execute("INSERT INTO actions VALUES (3, 0, '{\"n\": 0}', " + at + ")")
    db.commit()
    db.close()


def _rows(path: Path) -> dict[str, list[tuple]]:
    db = sqlite3.connect(path)
    try:
        return {table: db.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
                for table in ("players", "games", "game_players", "actions")}
    finally:
        db.close()


def test_a_version_2_store_with_people_called_like_levels_migrates(tmp_path: Path) -> None:
    path = tmp_path / "v2.db"
    _version_2_with_levels_as_people(path)
    with Store(path) as store:
        assert store.schema_version() == SCHEMA_VERSION == 4
        assert store.integrity_ok()
        kinds = {(p.kind, p.name): p for p in store.players()}
        # everyone kept, with their ids, ratings and counts
        assert (kinds["human", "h1"].id, kinds["human", "h1"].rating,
                kinds["human", "h1"].wins) == (1, 1516.0, 1)
        assert (kinds["computer", "greedy"].id, kinds["computer", "greedy"].rating) == \
            (2, 1484.0)
        assert (kinds["computer", "h2"].id, kinds["computer", "h2"].rating,
                kinds["computer", "h2"].games) == (4, 1530.0, 3)
        # the record's "h2" is a person now; the level keeps its row and its games
        person = kinds["human", "h2"]
        assert (person.level, person.rating, person.games) == (None, 1500.0, 0)
        game = store.game(2)
        assert game is not None and game.players == ["ann", "h2"]
        assert [s.name for s in game.standings] == ["ann", "h2"]
        # a game in play keeps its seats (the level h2 there) and goes on
        assert store.actions(3) == [{"n": 0}]
        store.add_action(3, 1, {"n": 1}, gcg="g3'", scores=[5, 0], turn=1)
        # the levels called like people are players of their own now
        h1 = store.player("h1", kind="computer", level="h1")
        assert h1.id not in {p.id for p in kinds.values()} and h1.rating == 1500.0
        assert store.player("h1") == kinds["human", "h1"]
        best = store.player("best 2s", kind="computer", level="best")
        assert best.id != kinds["human", "best 2s"].id
    db = sqlite3.connect(path)
    try:
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        seats = db.execute("SELECT gp.game_id, gp.seat, p.kind, p.name FROM game_players gp"
                           " JOIN players p ON p.id = gp.player_id ORDER BY 1, 2").fetchall()
    finally:
        db.close()
    assert seats == [(1, 0, "human", "h1"), (1, 1, "computer", "greedy"),
                     (2, 0, "human", "ann"), (2, 1, "human", "h2"),
                     (3, 0, "human", "best 2s"), (3, 1, "computer", "h2")]
    with Store(tmp_path / "new.db"):
        pass
    assert schema(path) == schema(tmp_path / "new.db")


def test_a_failed_migration_changes_nothing(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "v2.db"
    _version_2_with_levels_as_people(path)
    before = _rows(path)
    broken = MIGRATIONS[2].replace("DROP TABLE players", "DROP TABLE players;"
                                   " SELECT * FROM no_such_table")
    monkeypatch.setattr(store_module, "MIGRATIONS", [*MIGRATIONS[:2], broken])
    with pytest.raises(RacketyError, match="cannot open database .*no_such_table"):
        Store(path)
    assert user_version(path) == 2 and _rows(path) == before
    monkeypatch.undo()
    with Store(path) as store:
        assert store.schema_version() == SCHEMA_VERSION


KILLED_MIGRATION = """
import os, signal, sqlite3, sys
from rackety.frontends.web import store
connect = sqlite3.connect
def connect_with_death(*args, **kwargs):
    db = connect(*args, **kwargs)
    db.create_function("die", 0, lambda: os.kill(os.getpid(), signal.SIGKILL))
    return db
sqlite3.connect = connect_with_death
# killed after the old players table is dropped, before the new one has its name
store.MIGRATIONS[2] = store.MIGRATIONS[2].replace(
    "DROP TABLE players;", "DROP TABLE players; SELECT die();")
store.Store(sys.argv[1])
"""


def test_a_migration_killed_midway_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "v2.db"
    _version_2_with_levels_as_people(path)
    before = _rows(path)
    killed = subprocess.run([sys.executable, "-c", KILLED_MIGRATION, str(path)],
                            capture_output=True, text=True, timeout=120)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert user_version(path) == 2 and _rows(path) == before
    with Store(path) as store:
        assert store.schema_version() == SCHEMA_VERSION and store.integrity_ok()
        assert {(p.kind, p.name) for p in store.players()} == {
            ("human", "h1"), ("computer", "greedy"), ("human", "best 2s"),
            ("computer", "h2"), ("human", "ann"), ("human", "h2")}


def test_a_newer_schema_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(RacketyError) as caught:
        Store(path)
    message = str(caught.value)
    assert message == (f"{path}: schema version {SCHEMA_VERSION + 1} is newer than this "
                       f"rackety knows ({SCHEMA_VERSION}); upgrade rackety")
    assert user_version(path) == SCHEMA_VERSION + 1


@pytest.mark.parametrize("text", [b"these are my notes, not a database\n" * 20, b"x"])
def test_a_file_that_is_not_sqlite_is_refused_in_one_line(tmp_path: Path, text: bytes) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(text)  # SQLite itself would take b"x" for an empty database
    with pytest.raises(RacketyError) as caught:
        Store(path)
    assert str(caught.value) == f"{path}: not a rackety database (file is not SQLite)"
    assert "\n" not in str(caught.value)
    assert path.read_bytes() == text


def test_an_empty_file_becomes_a_new_database(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    with Store(path) as store:
        assert store.schema_version() == SCHEMA_VERSION


def test_another_programs_sqlite_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.close()
    with pytest.raises(RacketyError, match=r"not a rackety database \(it has other tables"):
        Store(path)
    assert user_version(path) == 0 and [row[1] for row in schema(path)] == ["recipes"]


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RacketyError, match="is a directory, not a database"):
        Store(tmp_path)


# players


def test_players_are_got_or_created(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        h3 = store.player("h3", kind="computer", level="h3")
        assert (h3.name, h3.kind, h3.level, h3.rating) == ("h3", "computer", "h3", 1500.0)
        assert (h3.games, h3.wins, h3.losses, h3.draws) == (0, 0, 0, 0)
        assert store.player("h3", kind="computer", level="h3") == h3  # the existing player
        you = store.player("you")
        assert you.id != h3.id and you.kind == "human" and you.level is None
        assert store.get_player(h3.id) == h3 and store.get_player(999) is None
        assert [p.name for p in store.players()] == ["h3", "you"]  # equal ratings: by name
        with pytest.raises(RacketyError, match="player kind"):
            store.player("robot", kind="robot")
        with pytest.raises(RacketyError, match="player name"):
            store.player("  ")
        with pytest.raises(RacketyError, match="a computer player has a level"):
            store.player("robot", kind="computer")
        with pytest.raises(RacketyError, match="a computer player has a level"):
            store.player("ann", level="h1")
        assert len(store.players()) == 2


# actions


def test_actions_must_come_in_seq_order_or_nothing_changes(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        game_id = two_player_game(store)
        assert store.add_action(game_id, 0, {"n": 0}, gcg="g0", scores=[10, 0], turn=1) == []
        assert store.add_action(game_id, 1, {"n": 1}, gcg="g1", scores=[10, 7], turn=0) == []
        before = store.game(game_id)

        with pytest.raises(RacketyError, match=f"game {game_id}: action seq 1 is already stored"):
            store.add_action(game_id, 1, {"n": "again"}, gcg="bad", scores=[99, 99], turn=1)
        with pytest.raises(RacketyError, match="action seq 3 would leave a gap; the next is 2"):
            store.add_action(game_id, 3, {"n": 3}, gcg="bad", scores=[99, 99], turn=1)
        with pytest.raises(RacketyError, match="action seq -1"):
            store.add_action(game_id, -1, {"n": -1}, gcg="bad", scores=[99, 99], turn=1)
        with pytest.raises(RacketyError, match="scores must be 2 integers"):
            store.add_action(game_id, 2, {"n": 2}, gcg="bad", scores=[99], turn=1)
        with pytest.raises(RacketyError, match="game 999: no such game"):
            store.add_action(999, 0, {}, gcg="", scores=[0, 0], turn=0)

        assert store.actions(game_id) == [{"n": 0}, {"n": 1}]
        assert store.game(game_id) == before
        store.add_action(game_id, 2, {"n": 2}, gcg="g2", scores=[20, 7], turn=1)
        assert [a["n"] for a in store.actions(game_id)] == [0, 1, 2]


def test_truncating_actions_for_undo(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        game_id = two_player_game(store)
        for seq in range(4):
            store.add_action(game_id, seq, {"n": seq}, gcg=f"g{seq}", scores=[seq, 0], turn=seq)
        store.truncate_actions(game_id, 2, gcg="g1", scores=[1, 0], turn=1)
        assert store.actions(game_id) == [{"n": 0}, {"n": 1}]
        game = store.game(game_id)
        assert game is not None and (game.gcg, game.scores, game.turn) == ("g1", [1, 0], 1)
        with pytest.raises(RacketyError, match="cannot keep 3 of 2 actions"):
            store.truncate_actions(game_id, 3, gcg="x", scores=[5, 5], turn=5)
        assert store.game(game_id) == game
        store.add_action(game_id, 2, {"n": "new"}, gcg="g2", scores=[9, 0], turn=0)
        assert len(store.actions(game_id)) == 3


def test_a_failure_inside_a_change_rolls_all_of_it_back(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    with Store(tmp_path / "r.db") as store:
        game_id = two_player_game(store)

        def broken(ratings: list[float], scores: list[int]) -> list[float]:
            raise RuntimeError("boom")

        monkeypatch.setattr(store_module, "_elo_changes", broken)
        with pytest.raises(RuntimeError):
            store.add_action(game_id, 0, {"n": 0}, gcg="end", scores=[50, 40], turn=0, over=True)
        game = store.game(game_id)
        assert game is not None and (game.status, game.gcg, game.scores) == ("playing", "", [0, 0])
        assert store.actions(game_id) == []
        monkeypatch.undo()
        store.add_action(game_id, 0, {"n": 0}, gcg="end", scores=[50, 40], turn=0, over=True)
        assert ratings(store) == {"alice": 1516.0, "bob": 1484.0}


# ratings


def test_a_two_player_win_by_hand(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        game_id = two_player_game(store)
        store.add_action(game_id, 0, {"n": 0}, gcg="g0", scores=[30, 0], turn=1)
        standings = store.add_action(game_id, 1, {"n": 1}, gcg="g1", scores=[30, 45], turn=0,
                                     over=True)
        # expected 0.5 each; bob wins: 1500 + 32 * (1 - 0.5), alice 1500 + 32 * (0 - 0.5)
        assert standings == [Standing(1, "bob", 45, 1, 1500.0, 1516.0),
                             Standing(0, "alice", 30, 2, 1500.0, 1484.0)]
        game = store.game(game_id)
        assert game is not None and game.status == "over" and game.standings == standings
        alice, bob = store.player("alice"), store.player("bob", kind="computer", level="h3")
        assert (bob.rating, bob.games, bob.wins, bob.losses, bob.draws) == (1516.0, 1, 1, 0, 0)
        assert (alice.rating, alice.games, alice.wins, alice.losses, alice.draws) == \
            (1484.0, 1, 0, 1, 0)
        # a finished game takes no more actions
        with pytest.raises(RacketyError, match=f"game {game_id}: is over, not playing"):
            store.add_action(game_id, 2, {}, gcg="", scores=[0, 0], turn=0)
        with pytest.raises(RacketyError, match="is over"):
            store.truncate_actions(game_id, 0, gcg="", scores=[0, 0], turn=0)
        assert len(store.actions(game_id)) == 2

        # a rematch from 1516 / 1484 that alice wins
        rematch = store.create_game({}, [alice.id, bob.id])
        standings = store.add_action(rematch, 0, {}, gcg="", scores=[400, 300], turn=0,
                                     over=True)
        expected_alice = 1 / (1 + 10 ** ((1516 - 1484) / 400))
        assert standings[0].rating_after == pytest.approx(1484 + 32 * (1 - expected_alice))
        assert standings[1].rating_after == pytest.approx(1516 - 32 * (1 - expected_alice))


def test_a_two_player_tie_is_a_draw(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        standings = finish(store, ["a", "b"], [321, 321])
        assert [(s.rank, s.rating_after) for s in standings] == [(1, 1500.0), (1, 1500.0)]
        for name in "ab":
            p = store.player(name)
            assert (p.games, p.wins, p.losses, p.draws) == (1, 0, 0, 1)


def test_a_three_player_game_follows_the_pairwise_formula(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        finish(store, ["ann", "ben"], [400, 300])  # ann 1516, ben 1484, cal 1500
        before = {"ann": 1516.0, "ben": 1484.0, "cal": 1500.0}
        store.player("cal")
        assert ratings(store) == before

        scores = {"ann": 300, "ben": 420, "cal": 300}  # ben wins, ann and cal tie
        standings = finish(store, ["ann", "ben", "cal"], list(scores.values()))

        after = {}
        for a in before:
            total = 0.0
            for b in before:
                if a != b:
                    result = 1 if scores[a] > scores[b] else 0.5 if scores[a] == scores[b] else 0
                    expected = 1 / (1 + 10 ** ((before[b] - before[a]) / 400))
                    total += result - expected
            after[a] = before[a] + 32 / 2 * total
        assert [(s.name, s.rank) for s in standings] == [("ben", 1), ("ann", 2), ("cal", 2)]
        for s in standings:
            assert s.rating_before == before[s.name]
            assert s.rating_after == pytest.approx(after[s.name])
            assert store.player(s.name).rating == pytest.approx(after[s.name])
        assert sum(ratings(store).values()) == pytest.approx(3 * 1500)
        ann, ben, cal = (store.player(name) for name in ("ann", "ben", "cal"))
        assert (ben.wins, ben.losses, ann.wins, ann.losses, cal.losses) == (1, 1, 1, 1, 1)


def test_ties_share_a_rank(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        standings = finish(store, ["a", "b", "c", "d"], [200, 350, 350, 100])
        assert [(s.seat, s.rank) for s in standings] == [(1, 1), (2, 1), (0, 3), (3, 4)]
        counts = {p.name: (p.wins, p.draws, p.losses) for p in store.players()}
        assert counts == {"a": (0, 0, 1), "b": (0, 1, 0), "c": (0, 1, 0), "d": (0, 0, 1)}


def test_records_are_ranked_but_not_rated(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        store.player("Alice")
        game_id = store.import_record({"lexicon": "CSW19"}, ["Alice", "Bob"], "#player1 Alice",
                                      [380, 412])
        game = store.game(game_id)
        assert game is not None
        assert (game.status, game.gcg, game.scores, game.players) == \
            ("record", "#player1 Alice", [380, 412], ["Alice", "Bob"])
        assert game.standings == [Standing(1, "Bob", 412, 1, None, None),
                                  Standing(0, "Alice", 380, 2, None, None)]
        for player in store.players():
            assert (player.kind, player.rating, player.games) == ("human", 1500.0, 0)
        with pytest.raises(RacketyError, match="is record, not playing"):
            store.add_action(game_id, 0, {}, gcg="", scores=[0, 0], turn=0, over=True)
        with pytest.raises(RacketyError, match="scores must be 2 integers"):
            store.import_record({}, ["Alice", "Bob"], "", [1])


def test_listing_and_deleting_games(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        first = two_player_game(store)
        second = store.import_record({}, ["x", "y"], "", [1, 2])
        third = two_player_game(store)
        finish(store, ["alice", "bob"], [5, 1])
        fourth = third + 1
        assert [g.id for g in store.games()] == [fourth, third, second, first]
        assert [g.id for g in store.games(limit=2, offset=1)] == [third, second]
        assert [g.id for g in store.games(status="over")] == [fourth]
        assert [g.id for g in store.games(status="record")] == [second]
        with pytest.raises(RacketyError, match="status"):
            store.games(status="won")
        store.add_action(first, 0, {"n": 0}, gcg="", scores=[1, 0], turn=1)
        assert store.delete_game(first) and not store.delete_game(first)
        assert store.game(first) is None and store.actions(first) == []
        assert [g.id for g in store.games()] == [fourth, third, second]
        assert store.integrity_ok()
        store.delete_game(fourth)
        assert two_player_game(store) == fourth + 1  # ids are never reused


def test_threads_share_one_store(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        games = [two_player_game(store) for _ in range(4)]

        def play(game_id: int) -> None:
            for seq in range(10):
                store.add_action(game_id, seq, {"n": seq}, gcg="", scores=[seq, 0], turn=0)

        threads = [threading.Thread(target=play, args=(game_id,)) for game_id in games]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for game_id in games:
            assert [a["n"] for a in store.actions(game_id)] == list(range(10))


NAMES = ["p0", "p1", "p2", "p3", "p4", "p5"]
GAME = st.integers(2, 4).flatmap(lambda n: st.tuples(
    st.permutations(NAMES).map(lambda names: names[:n]),
    st.lists(st.integers(0, 3), min_size=n, max_size=n)))  # small scores: many ties


@settings(max_examples=40, deadline=None)
@given(st.lists(GAME, min_size=1, max_size=8))
def test_ratings_are_zero_sum_and_counters_add_up(games: list) -> None:
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "r.db") as store:
        last: dict[str, float] = {}
        for names, scores in games:
            for standing in finish(store, names, scores):
                # each game starts from the rating the previous one left
                assert standing.rating_before == last.get(standing.name, 1500.0)
                last[standing.name] = standing.rating_after
        players = store.players()
        assert sum(p.rating for p in players) == pytest.approx(1500.0 * len(players))
        assert {p.name: p.rating for p in players} == last
        seats = sum(len(names) for names, _ in games)
        assert sum(p.wins + p.losses + p.draws for p in players) == seats
        assert sum(p.games for p in players) == seats
        assert sum(p.wins for p in players) == sum(
            sorted(scores)[-1] != sorted(scores)[-2] for _, scores in games)


SEATS = [("human", "h1"), ("computer", "h1"), ("human", "greedy"), ("computer", "greedy"),
         ("human", "ann")]
KIND_GAME = st.integers(2, 4).flatmap(lambda n: st.tuples(
    st.permutations(SEATS).map(lambda seats: seats[:n]),
    st.lists(st.integers(0, 3), min_size=n, max_size=n)))


@settings(max_examples=30, deadline=None)
@given(st.lists(KIND_GAME, min_size=1, max_size=6))
def test_a_person_and_a_level_of_one_name_are_rated_apart(games: list) -> None:
    """Ratings by (kind, name), against Elo worked out here from the ratings
    before each game: the person "h1" and the level h1 never share one."""
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "r.db") as store:
        want: dict[tuple[str, str], float] = {}
        for seats, scores in games:
            ids = [store.player(name, kind=kind, level=name if kind == "computer" else None).id
                   for kind, name in seats]
            game_id = store.create_game({}, ids)
            before = [want.get(seat, 1500.0) for seat in seats]
            n = len(seats)
            for a, seat in enumerate(seats):
                want[seat] = before[a] + 32.0 / (n - 1) * sum(
                    (1.0 if scores[a] > scores[b] else 0.5 if scores[a] == scores[b] else 0.0)
                    - 1.0 / (1.0 + 10.0 ** ((before[b] - before[a]) / 400.0))
                    for b in range(n) if b != a)
            store.add_action(game_id, 0, {}, gcg="", scores=scores, turn=0, over=True)
        got = {(p.kind, p.name): p.rating for p in store.players()}
        assert got.keys() == want.keys()
        for seat, rating in want.items():
            assert got[seat] == pytest.approx(rating)


CRASH_WRITER = """
import sys
from rackety.frontends.web.store import Store
store = Store(sys.argv[1])
game_id = int(sys.argv[2])
for seq in range(1_000_000):
    store.add_action(game_id, seq, {"seq": seq, "scores": [seq, 2 * seq]}, gcg=f"gcg {seq}",
                     scores=[seq, 2 * seq], turn=seq % 2)
    print(seq, flush=True)
"""


def test_a_writer_killed_mid_game_leaves_a_consistent_database(tmp_path: Path) -> None:
    path = tmp_path / "crash.db"
    with Store(path) as store:
        game_id = two_player_game(store)
    writer = subprocess.Popen([sys.executable, "-c", CRASH_WRITER, str(path), str(game_id)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert writer.stdout is not None
    committed = -1
    try:
        while committed < 40:  # wait for 40 commits, then kill it in the middle of more
            line = writer.stdout.readline()
            assert line, f"the writer stopped: {writer.stderr.read() if writer.stderr else ''}"
            committed = int(line)
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait()
    assert writer.returncode == -signal.SIGKILL

    with Store(path) as store:
        assert store.integrity_ok()
        actions = store.actions(game_id)
        k = len(actions)
        assert k > committed  # every change that returned is there
        assert [a["seq"] for a in actions] == list(range(k))
        game = store.game(game_id)
        assert game is not None and game.status == "playing"
        assert game.scores == actions[-1]["scores"] == [k - 1, 2 * (k - 1)]
        assert (game.gcg, game.turn) == (f"gcg {k - 1}", (k - 1) % 2)
        # and the game goes on from there
        store.add_action(game_id, k, {"seq": k}, gcg="", scores=[0, 0], turn=0)
