"""The web app's endgames and pre-endgames (``/api/endgame``,
``/api/preendgame``, ``/api/searches/{id}``): of a position or a record's
turn, each answer held to the engine's own search of the same position, the
stop, and the refusals."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rackety import Board, Lexicon
from rackety.frontends.web.app import create_app
from rackety.frontends.web.searches import Searches
from rackety.game.gcg import read_gcg, replay
from rackety.search.endgame import known_racks, solve
from rackety.search.preendgame import preendgame

DATA = Path(__file__).parent / "data"
EMPTY = "/".join(["15"] * 15)
OPENING = f"{EMPTY} AADNPUY/ 0/0 0"

# A real game (Macondo's test record noah_vs_mishu, its notes left out): before
# event 29 the bag is empty, whatnoloan holds AEIINTY and mishu7 the unseen
# CLLPR, which the record does not show. Solved exactly (`rackety endgame`,
# about 15 s): H7 T(OFT), +42 for the player to move.
RECORD = """#character-encoding UTF-8
#player1 whatnoloan whatnoloan
#player2 mishu7 mishu7
>whatnoloan: CLNOSVX 8G VOX +26 26
>mishu7: EFIV 9H FIVE +26 26
>whatnoloan: BCLNNRS -BLNN +0 26
>mishu7: ANOTY 8K ATONY +29 55
>whatnoloan: CEHNRSS L8 .RENCH +33 59
>mishu7: ADEMO 11I MOA.ED +18 73
>whatnoloan: DDJLRSS -DDJL +0 59
>mishu7: IQ 12H QI +25 98
>whatnoloan: AMRSSUU 13I MU +17 76
>mishu7: ABO 7M BOA +22 120
>whatnoloan: AAIRSSU 6M AIS +21 97
>mishu7: G K7 G.. +4 124
>whatnoloan: AERSUUY -UUY +0 97
>mishu7: EENRSTU 14D RETUNES +73 197
>whatnoloan: ADEIORS 15H OREAD +42 139
>mishu7: BPU D12 BU.P +22 219
>whatnoloan: DEHIOSU L1 HOUSED +33 172
>mishu7: ESTW 1K W.ETS +33 252
>whatnoloan: AEIIORR M13 OI +14 186
>mishu7: GGL 3J GL.G +12 264
>whatnoloan: AEIINRR J5 RIA +8 194
>mishu7: ETW 10F WET +20 284
>whatnoloan: ?EIJLNR 13C J.N +22 216
>mishu7: AKN 15A KNA. +30 314
>whatnoloan: ??EILOR A8 fIRELOc. +83 299
>mishu7: IZ E11 ZI.. +30 344
>whatnoloan: AEEFITT N13 EFT +28 327
>mishu7: ACDLLPR F10 .AD +24 368
>whatnoloan: AEIINTY N4 IN... +5 332
>mishu7: CLLPR H7 C... +9 377
>whatnoloan: AEITY 6I T. +2 334
>mishu7: LLPR 13L ...R +7 384
>whatnoloan: AEIY K3 .EY +26 360
>mishu7: LLP 9A .LL +4 388
>whatnoloan: AI 10A .AI +11 371
>whatnoloan:  (P) +6 377
"""
TURN = 29


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory, twl06: Any) -> Iterator[TestClient]:
    app = create_app(tmp_path_factory.mktemp("web-endgame") / "app.sqlite", warm=False)
    with TestClient(app) as c:
        yield c


def _error(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail and len(detail) <= 300
    return detail


def small_endgames() -> list[dict[str, Any]]:
    lines = (DATA / "endgame_twl06_small.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _finished(client: TestClient, state: dict[str, Any], limit: float = 20.0
              ) -> dict[str, Any]:
    """Poll a search until it ends."""
    end = time.monotonic() + limit
    while state["status"] == "running":
        assert time.monotonic() < end, state
        time.sleep(0.05)
        response = client.get(f"/api/searches/{state['id']}")
        assert response.status_code == 200, response.text
        state = response.json()
    return state


def _pv(result: Any, board: Board) -> list[tuple[str, int]]:
    out = []
    for move in result.pv:
        out.append((board.notation(move), move.score))
        board = board.play(move)
    return out


# ------------------------------------------------------------------ endgame
def test_the_endgame_of_a_record_s_turn_is_the_solver_s(client: TestClient,
                                                        twl06: Lexicon) -> None:
    depth = 3  # a few plies: the exact solve takes seconds
    state = client.post("/api/endgame", json={"gcg": RECORD, "turn": TURN, "seconds": 30,
                                              "depth": depth}).json()
    assert state["kind"] == "endgame" and state["turn"] == TURN
    state = _finished(client, state)
    assert state["status"] == "done", state
    # the position: the record's before event 29, the opponent's rack the unseen tiles
    board = replay(read_gcg(RECORD)).positions[TURN - 1]
    assert not board.racks[1] and board.bag_count == 0
    board = known_racks(board)
    shown = state["position"]
    assert shown["cgp"] == board.cgp() and shown["bag"] == 0
    assert ["".join(t["letter"] for t in r) for r in shown["racks"]] == ["AEIINTY", "CLLPR"]
    expected = solve(board, twl06, max_depth=depth)
    result = state["result"]
    assert (result["value"], result["depth"], result["exact"]) == \
        (expected.value, expected.depth, expected.exact) == (result["value"], depth, False)
    assert [(m["move"], m["score"]) for m in result["pv"]] == _pv(expected, board)
    assert result["best"] == result["pv"][0]
    assert [m["side"] for m in result["pv"]][:2] == ["to move", "opponent"]
    assert result["final_spread"] == board.scores[0] - board.scores[1] + expected.value
    # each move of the line with the squares it fills on the board before it
    for move in result["pv"]:
        if move["kind"] == "place":
            assert move["squares"] and len(move["tiles"]) == len(move["squares"])


@pytest.mark.parametrize("case", small_endgames()[::3], ids=lambda c: c["id"])
def test_the_endgame_of_a_position_is_exact(client: TestClient, twl06: Lexicon,
                                            case: dict[str, Any]) -> None:
    body = client.post("/api/endgame", json={"cgp": case["cgp"], "seconds": 20,
                                             "wait": True}).json()
    assert body["status"] == "done" and "turn" not in body and body["lexicon"] == "TWL06"
    board = Board.from_cgp(case["cgp"])
    expected = solve(board, twl06)
    result = body["result"]
    assert result["exact"] and expected.exact
    assert result["value"] == expected.value
    # the line: legal moves one after the other, each scored on the board before it
    after = board
    for i, move in enumerate(result["pv"]):
        assert move["side"] == ("to move" if i % 2 == 0 else "opponent")
        played = after.parse_move(move["move"])
        after = after.play(played)  # refuses a move that is not legal or not scored so
        assert after.scores[1] - board.scores[i % 2] == sum(
            m["score"] for m in result["pv"][i % 2:i + 1:2])
    assert [(m["move"], m["score"]) for m in result["pv"]] == _pv(expected, board)


def test_a_long_endgame_stops_with_what_it_had(client: TestClient) -> None:
    state = client.post("/api/endgame", json={"gcg": RECORD, "turn": TURN,
                                              "seconds": 60}).json()
    assert state["status"] == "running" and state["seconds"] == 60
    time.sleep(0.6)
    polled = client.get(f"/api/searches/{state['id']}").json()
    assert polled["status"] == "running" and polled["elapsed"] > 0.5
    assert polled["progress"]["what"]
    started = time.monotonic()
    stopped = client.post(f"/api/searches/{state['id']}/stop").json()
    stopped = _finished(client, stopped, limit=3.0)
    assert time.monotonic() - started < 2.0
    assert stopped["status"] == "stopped" and stopped["elapsed"] < 5
    result = stopped["result"]
    assert not result["exact"] and result["depth"] >= 1 and result["pv"]
    assert result["best"]["move"]
    again = client.post(f"/api/searches/{state['id']}/stop").json()  # stopping twice: no harm
    assert again["status"] == "stopped" and again["result"] == result


# -------------------------------------------------------------- pre-endgame
def _one_in_the_bag(case: dict[str, Any]) -> Board:
    board = Board.from_cgp(case["cgp"])
    opp = list(board.racks[1])
    opp.pop()
    board.racks[1] = tuple(opp)
    return board


def test_the_pre_endgame_of_a_position_is_the_engine_s(client: TestClient,
                                                       twl06: Lexicon) -> None:
    case = next(c for c in small_endgames() if c["n_opp"] >= 2)
    board = _one_in_the_bag(case)
    body = client.post("/api/preendgame", json={"cgp": board.cgp(), "candidates": 3,
                                                "seconds": 20, "wait": True}).json()
    assert body["status"] == "done" and body["kind"] == "preendgame", body
    assert body["position"]["bag"] == 1
    result = body["result"]
    expected = preendgame(board, twl06, candidates=3)
    assert result["exact"] and expected.exact and not result["stopped"]
    assert result["bag"] == expected.bag == 1
    assert result["endgames"] == result["exact_endgames"] == expected.endgames
    rows = [(r["move"], r["win_pct"], r["spread_change"], r["draws"], r["worlds"], r["method"])
            for r in result["candidates"]]
    assert rows == [(board.notation(o.move), round(o.win_pct, 2), round(o.spread, 2),
                     len(o.draws), o.worlds, o.method) for o in expected.outcomes]
    assert result["best"] == result["candidates"][0]


def test_the_pre_endgame_of_a_record_s_turn(client: TestClient) -> None:
    # turns 20 to 29: those with 1 to 6 tiles in the bag solved (27: three, its plays
    # that leave some estimated by rollouts), the others refused in one line
    record = read_gcg(RECORD)
    positions = replay(record).positions
    tried = 0
    for turn in range(20, 30):
        board = positions[turn - 1]
        unseen = int(board.unseen().sum()) - board.alphabet.rack_size
        response = client.post("/api/preendgame", json={"gcg": RECORD, "turn": turn,
                                                        "seconds": 0.3, "candidates": 2})
        if 1 <= unseen <= 6:
            state = _finished(client, response.json())
            assert state["status"] in ("done", "stopped"), state
            assert state["position"]["bag"] == unseen
            assert state["result"]["candidates"]
            tried += 1
        else:
            assert "1 to 6 tiles in the bag" in _error(response, 400)
    assert tried >= 1


# ---------------------------------------------------------------- refusals
@pytest.mark.parametrize(("path", "payload", "status", "words"), [
    ("/api/endgame", {"cgp": OPENING}, 400, "unknown and 86 tiles are in the bag"),
    ("/api/endgame", {"cgp": f"{EMPTY} AADNPUY/EEIOU 0/0 0"}, 400, "tiles are still in"),
    ("/api/preendgame", {"cgp": OPENING}, 400, "1 to 6 tiles in the bag"),
    ("/api/endgame", {"cgp": f"{EMPTY} A/B/C 0/0/0 0"}, 400, "3 players"),
    ("/api/preendgame", {"cgp": f"{EMPTY} A/B/C 0/0/0 0"}, 400, "two players"),
    ("/api/endgame", {"cgp": "15/15 A/ 0/0 0"}, 400, "cgp"),
    ("/api/endgame", {"gcg": RECORD, "turn": 999}, 400, "a turn is 1 to"),
    ("/api/endgame", {"gcg": RECORD}, 400, "give a position"),
    ("/api/endgame", {"cgp": OPENING, "gcg": RECORD, "turn": 1}, 400, "give a position"),
    ("/api/preendgame", {}, 400, "give a position"),
    ("/api/endgame", {"gcg": "/etc/passwd", "turn": 1}, 400, ""),
    ("/api/endgame", {"gcg": RECORD, "turn": 0}, 422, "turn"),
    ("/api/endgame", {"gcg": RECORD, "turn": TURN, "seconds": 0}, 422, "seconds"),
    ("/api/endgame", {"gcg": RECORD, "turn": TURN, "seconds": 61}, 422, "seconds"),
    ("/api/preendgame", {"cgp": OPENING, "candidates": 31}, 422, "candidates"),
    ("/api/endgame", {"gcg": RECORD, "turn": TURN, "lexicon": "/etc/passwd"}, 400,
     "not offered"),
    ("/api/endgame", {"gcg": RECORD, "turn": TURN, "path": "/etc/passwd"}, 422, "path"),
    ("/api/endgame", {"gcg": "x" * 600_000, "turn": 1}, 422, "gcg"),
])
def test_what_does_not_fit_is_refused_in_one_line(client: TestClient, path: str,
                                                  payload: dict[str, Any], status: int,
                                                  words: str) -> None:
    detail = _error(client.post(path, json=payload), status)
    assert words in detail
    assert "root:" not in detail


def test_unknown_and_malformed_searches(client: TestClient) -> None:
    assert "no such search" in _error(client.get("/api/searches/0123456789abcdef"), 404)
    _error(client.post("/api/searches/0123456789abcdef/stop"), 404)
    for bad in ("1", "../../etc/passwd", "0123456789ABCDEF", "0" * 17):
        assert client.get(f"/api/searches/{bad}").status_code in (404, 422)


def test_searches_at_once_are_bounded(tmp_path: Path, twl06: Any) -> None:
    app = create_app(tmp_path / "app.sqlite", warm=False)
    app.state.service.searches = Searches(running=1, kept=2)
    with TestClient(app) as c:
        first = c.post("/api/endgame", json={"gcg": RECORD, "turn": TURN, "seconds": 60})
        assert first.status_code == 200
        assert "searches are running" in _error(
            c.post("/api/endgame", json={"gcg": RECORD, "turn": TURN}), 409)
        _finished(c, c.post(f"/api/searches/{first.json()['id']}/stop").json(), limit=3.0)
        ids = [first.json()["id"]]
        for _ in range(2):  # each finished: the next may start; the oldest is forgotten
            state = c.post("/api/endgame", json={"gcg": RECORD, "turn": TURN, "depth": 1,
                                                 "wait": True}).json()
            assert state["status"] == "done"
            ids.append(state["id"])
        assert len(set(ids)) == 3
        assert c.get(f"/api/searches/{ids[0]}").status_code == 404
        assert all(c.get(f"/api/searches/{i}").status_code == 200 for i in ids[1:])
