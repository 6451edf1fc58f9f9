"""`rackety serve` as a real process: its address line, its one-line errors,
and a game that survives the server being killed in the middle of it."""

from __future__ import annotations

import contextlib
import sqlite3
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from web_server import serve_command, start_server

from rackety.frontends.web.store import Store


def _hint_tiles(server: Any, game_id: int) -> list[dict[str, Any]]:
    status, body = server.request("GET", f"/api/games/{game_id}/hint?top=1")
    assert status == 200, body
    move = body["moves"][0]
    assert move["kind"] == "place"
    return [{k: t[k] for k in ("row", "col", "letter", "blank")} for t in move["tiles"]]


def test_a_killed_server_loses_nothing_committed(tmp_path: Path, twl06: Any) -> None:
    db = tmp_path / "store.sqlite"
    server = start_server(db)
    try:
        # against a simulating player, so the kill lands while it thinks
        status, game = server.request("POST", "/api/games", {
            "seed": 4, "opponents": [{"level": "greedy"}, {"level": "sim", "seconds": 3}]})
        assert status == 201, game
        game_id = game["id"]
        status, game = server.request("POST", f"/api/games/{game_id}/play",
                                      {"tiles": _hint_tiles(server, game_id)}, timeout=120)
        assert status == 200, game
        committed = game["events"]
        tiles = _hint_tiles(server, game_id)

        def in_flight() -> None:  # its connection dies with the server
            with contextlib.suppress(OSError):
                server.request("POST", f"/api/games/{game_id}/play", {"tiles": tiles},
                               timeout=120)

        thread = threading.Thread(target=in_flight, daemon=True)
        thread.start()
        deadline = time.monotonic() + 60
        # wait until the person's move and greedy's reply are in: sim is thinking
        while len(Store(db).actions(game_id)) < 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(Store(db).actions(game_id)) == 5
    finally:
        server.kill()
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    store = Store(db)
    assert store.integrity_ok()
    actions = store.actions(game_id)
    assert [a["seat"] for a in actions] == [0, 1, 2, 0, 1]  # sim's move was in flight
    store.close()

    server = start_server(db)
    try:
        status, resumed = server.request("GET", f"/api/games/{game_id}", timeout=120)
        assert status == 200, resumed
        assert resumed["events"][:len(committed)] == committed
        # the computer that was thinking moved on resuming: the person is to move
        assert resumed["to_move"] == "you" and len(resumed["events"]) == len(committed) + 3
        status, after = server.request("POST", f"/api/games/{game_id}/pass", timeout=120)
        assert status == 200, after
        assert len(after["events"]) == len(resumed["events"]) + 3
    finally:
        server.stop()


def test_serve_prints_its_address_and_refuses_a_taken_port(tmp_path: Path) -> None:
    server = start_server(tmp_path / "a.sqlite")
    try:
        assert f"serving on http://127.0.0.1:{server.port}" in server.output()
        assert "loading the kernels in the background" in server.output()
        for _ in range(1200):  # its log says when they are ready (compiled first if need be)
            if "kernels ready in" in server.output():
                break
            time.sleep(0.1)
        assert "kernels ready in" in server.output(), server.output()
        taken = subprocess.run([*serve_command(), "serve", "--port", str(server.port),
                                "--db", str(tmp_path / "b.sqlite")],
                               capture_output=True, text=True, timeout=60)
        assert taken.returncode == 2
        lines = taken.stderr.strip().splitlines()
        assert len(lines) == 1 and "cannot listen" in lines[0], taken.stderr
    finally:
        server.stop()
    bad = subprocess.run([*serve_command(), "serve", "--db", str(tmp_path)],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1, bad.stderr
