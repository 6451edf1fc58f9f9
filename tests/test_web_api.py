"""The web app's HTTP API, in process (FastAPI's test client): every endpoint,
with good and bad input, games played to the end, resumed from the store."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from static_reference import opening_penalty
from web_server import LEVELS_AS_PEOPLE, OLD, multi_codes, opening, version_2_store

from rackety import Board, Leaves, Lexicon
from rackety.alphabet import BLANK_FLAG
from rackety.frontends.web.app import MAX_BODY, create_app
from rackety.frontends.web.store import ELO_K, INITIAL_RATING, Store
from rackety.game.gcg import game_of, read_gcg
from rackety.game.move import format_leave

DATA = Path(__file__).parent / "data"
EMPTY = "/".join(["15"] * 15)
OPENING = f"{EMPTY} AADNPUY/ 0/0 0"


def _client(db: Path) -> TestClient:
    return TestClient(create_app(db, warm=False))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory, twl06: Any) -> Any:
    with _client(tmp_path_factory.mktemp("web") / "app.sqlite") as c:
        yield c


def _oracle(n: int) -> list[dict[str, Any]]:
    lines = (DATA / "twl06_public.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines[:: max(1, len(lines) // n)][:n]]


def _error(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert isinstance(body["detail"], str) and "\n" not in body["detail"]
    return body["detail"]


# ------------------------------------------------------------- fixed forms
def test_health(client: TestClient) -> None:
    response = client.get("/api/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_analyze_fixed_form(client: TestClient) -> None:
    response = client.post("/api/analyze", json={"cgp": OPENING, "lexicon": "TWL06", "top": 10})
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"count", "best_score", "best_moves", "leaves", "adjustment", "moves",
                         "verdict"}
    assert "opening" in body["adjustment"]
    # the judge's verdict: static equity here, its values the moves' equities
    verdict = body["verdict"]
    assert verdict["valued_by"] == "static" and verdict["unit"] == "equity"
    assert [v["move"] for v in verdict["moves"]] == [m["move"] for m in body["moves"]]
    assert [v["value"] for v in verdict["moves"]] == pytest.approx(
        [m["equity"] for m in body["moves"]], abs=1e-3)
    assert body["count"] == 116  # the oracle's count for this rack (tile placements)
    assert len(body["moves"]) == 10
    for move in body["moves"]:
        assert set(move) == {"move", "score", "leave", "equity"}
    first = body["moves"][0]
    assert (first["move"], first["score"], first["leave"]) == ("8H PANDY", 30, "AU")
    equities = [m["equity"] for m in body["moves"]]
    assert equities == sorted(equities, reverse=True)
    # equity by default: the score plus the leave's value in TWL06's shipped
    # table, and on the opening its vowels' placement (full static equity)
    assert body["leaves"] == "TWL06's shipped table"
    table = Leaves.builtin(Lexicon.load("TWL06"))
    assert table is not None
    board = Board.from_cgp(OPENING)
    for move in body["moves"]:
        assert move["equity"] == pytest.approx(
            move["score"] + table.value(move["leave"])
            + opening_penalty(board, board.parse_move(move["move"])), abs=1e-3)


def test_analyze_an_endgame_asks_the_judge(client: TestClient, twl06: Any) -> None:
    """With the bag empty the verdict is the exact endgame's: its best move is
    worth the solver's value, the opponent's rack being the unseen tiles."""
    from rackety.search.endgame import known_racks, solve

    lines = (DATA / "endgame_twl06_small.jsonl").read_text().splitlines()
    case = json.loads(lines[3])
    board = Board.from_cgp(case["cgp"])
    hidden = board.copy(racks=[board.racks[0], ()])  # the opponent's rack left out
    body = client.post("/api/analyze", json={"cgp": hidden.cgp(), "top": 5}).json()
    verdict = body["verdict"]
    assert verdict["phase"] == "endgame" and verdict["unit"] == "spread"
    assert verdict["valued_by"] == "exact endgame"
    assert verdict["moves"][0]["value"] == case["value"] == solve(known_racks(hidden),
                                                                  twl06).value
    values = [v["value"] for v in verdict["moves"]]
    assert values == sorted(values, reverse=True)


@pytest.mark.parametrize("case", _oracle(12), ids=lambda c: c["rack"])
def test_analyze_against_the_oracle(client: TestClient, case: dict[str, Any]) -> None:
    body = client.post("/api/analyze", json={"cgp": case["cgp"], "top": 1000,
                                             "leave": "none"}).json()
    assert body["count"] == case["num_moves"]
    placements = [m for m in body["moves"] if " " in m["move"] and
                  not m["move"].startswith("exch")]
    assert placements[0]["score"] == case["best_score"]
    best = {m["move"] for m in placements if m["score"] == case["best_score"]}
    assert best == set(case["best_moves"])
    for move in body["moves"]:  # no leave values: equity is the score
        assert move["equity"] == move["score"]


def test_analyze_detail_gives_squares(client: TestClient) -> None:
    body = client.post("/api/analyze", json={"cgp": OPENING, "top": 3, "detail": True}).json()
    top = body["moves"][0]
    assert top["kind"] == "place"
    assert top["squares"] == [[7, 7 + i] for i in range(5)]  # 8H PANDY
    assert "".join(t["letter"] for t in top["tiles"]) == "PANDY"
    assert body["board"]["size"] == 15 and body["board"]["premiums"][0][0] == "TW"
    assert body["board"]["columns"][7] == "H" and body["board"]["rows"][7] == "8"


@pytest.mark.parametrize(("payload", "status", "words"), [
    ({"cgp": "15/15 AADNPUY/ 0/0 0"}, 400, "rows"),
    ({"cgp": "not a position"}, 400, "cgp"),
    ({"cgp": f"{EMPTY} AADNPUY/ 0/0 0", "lexicon": "/etc/passwd"}, 400, "not offered"),
    ({"cgp": f"{EMPTY} AADNPUY/ 0/0 0", "lexicon": "NOPE"}, 400, "not offered"),
    ({"cgp": f"{EMPTY} AADNPUY/ 0/0 0", "leave": "leaves:/etc/passwd"}, 400, "leave"),
    ({"cgp": f"{EMPTY} / 0/0 0"}, 400, "rack"),
    ({"cgp": OPENING, "top": -1}, 422, "top"),
    ({"cgp": OPENING, "top": "ten"}, 422, "top"),
    ({"cgp": OPENING, "extra": 1}, 422, "extra"),
    ({}, 422, "cgp"),
    ({"cgp": "x" * 5000}, 422, "cgp"),
])
def test_analyze_refuses_bad_input(client: TestClient, payload: dict[str, Any], status: int,
                                   words: str) -> None:
    detail = _error(client.post("/api/analyze", json=payload), status)
    assert words in detail.lower()


def test_bodies_that_are_not_json_or_too_large(client: TestClient) -> None:
    _error(client.post("/api/analyze", content=b"{not json",
                       headers={"content-type": "application/json"}), 422)
    big = json.dumps({"cgp": "x" * (MAX_BODY + 10)}).encode()
    assert "bytes" in _error(client.post("/api/analyze", content=big,
                                         headers={"content-type": "application/json"}), 413)

    def chunks() -> Any:  # no Content-Length: the limit counts what arrives
        for _ in range(MAX_BODY // 10_000 + 2):
            yield b" " * 10_000

    _error(client.post("/api/analyze", content=chunks(),
                       headers={"content-type": "application/json"}), 413)


def test_position(client: TestClient) -> None:
    cgp = "15/15/15/15/15/15/15/7PANDY3/15/15/15/15/15/15/15 AEIOU??/ 30/0 0"
    body = client.post("/api/position", json={"cgp": cgp}).json()
    row = body["board"]["squares"][7]
    assert "".join(sq["letter"] for sq in row[7:12]) == "PANDY"
    assert row[6] is None and row[12] is None
    assert body["scores"] == [30, 0]
    assert [t["blank"] for t in body["racks"][0]].count(True) == 2
    _error(client.post("/api/position", json={"cgp": "15/15/15 A/ 0/0 0"}), 400)


def test_a_position_edited(client: TestClient) -> None:
    """The board editor's endpoint: the tiles, racks and scores of a position
    replaced, what is left out kept, the CGP written by the server."""
    empty = client.post("/api/position/edit", json={}).json()
    assert empty["cgp"] == f"{EMPTY} / 0/0 0"
    assert empty["bag"] == Board.from_cgp(empty["cgp"]).bag_count
    assert empty["board"]["squares"] == [[None] * 15] * 15
    base = f"{EMPTY} AADNPUY/ 10/20 3 lex TWL06;"
    tiles = [{"row": 7, "col": 3, "letter": "K"}, {"row": 7, "col": 4, "letter": "I",
                                                   "blank": True}]
    body = client.post("/api/position/edit", json={
        "cgp": base, "tiles": tiles, "racks": ["EIOMNEH", ""], "scores": [28, 0]}).json()
    rows = EMPTY.split("/")
    rows[7] = "3Ki10"
    assert body["cgp"] == f"{'/'.join(rows)} EIOMNEH/ 28/0 3 lex TWL06;"
    assert body["board"]["squares"][7][4] == {"letter": "I", "blank": True, "points": 0}
    assert [t["letter"] for t in body["racks"][0]] == list("EIOMNEH")
    assert body["bag"] == Board.from_cgp(body["cgp"]).bag_count < empty["bag"]
    kept = client.post("/api/position/edit", json={"cgp": body["cgp"], "scores": [1, 2]}).json()
    assert kept["cgp"] == body["cgp"].replace(" 28/0 ", " 1/2 ")
    cleared = client.post("/api/position/edit", json={"cgp": body["cgp"], "tiles": []}).json()
    assert cleared["cgp"] == f"{EMPTY} EIOMNEH/ 28/0 3 lex TWL06;"


@pytest.mark.parametrize(("edit", "words"), [
    ({"tiles": [{"row": 7, "col": 7, "letter": "A"}] * 2}, "square 8H: two tiles"),
    ({"tiles": [{"row": 15, "col": 0, "letter": "A"}]}, "square 16A: off the board"),
    ({"tiles": [{"row": 0, "col": 0, "letter": "Ñ"}]}, "square 1A"),
    ({"tiles": [{"row": 0, "col": c, "letter": "Z"} for c in range(2)]}, "distribution"),
    ({"racks": ["ZZ", ""]}, "distribution"),
    ({"racks": ["a", ""]}, "blank on a rack is '?'"),
    ({"racks": ["A"]}, "a score for each rack"),
    ({"lexicon": "NOPE"}, "not offered here"),
    ({"cgp": "15/15 A/ 0/0 0"}, "rows"),
])
def test_a_position_edited_badly_is_one_line_400(client: TestClient, edit: dict[str, Any],
                                                 words: str) -> None:
    assert words in _error(client.post("/api/position/edit", json=edit), 400)


def test_simulate(client: TestClient) -> None:
    body = client.post("/api/simulate", json={"cgp": OPENING, "candidates": 3,
                                              "seconds": 0.5, "plies": 1}).json()
    assert 1 <= len(body["moves"]) <= 3
    wins = [m["win_pct"] for m in body["moves"]]
    assert wins == sorted(wins, reverse=True)  # ranked by win %, then equity
    assert body["iterations"] == sum(m["iterations"] for m in body["moves"]) > 0
    assert all(0 <= m["win_pct"] <= 100 for m in body["moves"])
    _error(client.post("/api/simulate", json={"cgp": OPENING, "seconds": 600}), 422)


def test_listing_and_downloads_refuse_bad_input(client: TestClient) -> None:
    for params in ({"limit": 0}, {"limit": 501}, {"offset": -1}, {"limit": "many"}):
        _error(client.get("/api/games", params=params), 422)
    assert client.get("/api/games", params={"limit": 1}).status_code == 200
    _error(client.get("/api/games/999999/gcg"), 404)
    _error(client.get("/api/games/999999/hint"), 404)
    _error(client.post("/api/games/999999/undo"), 404)
    _error(client.post("/api/games/999999/challenge"), 404)
    _error(client.post("/api/games/999999/exchange", json={"tiles": "A"}), 404)
    _error(client.post("/api/games/1/exchange", json={"tiles": ""}), 422)
    _error(client.post("/api/simulate", json={"cgp": "15/15 A/ 0/0 0"}), 400)
    _error(client.put("/api/health"), 405)
    assert client.get("/openapi.json").json()["paths"]["/api/analyze"]["post"]


def test_options(client: TestClient) -> None:
    body = client.get("/api/options").json()
    assert "TWL06" in body["lexicons"] and body["default_lexicon"] == "TWL06"
    assert {"greedy", "h3", "sim"} <= {level["id"] for level in body["levels"]}
    assert "standard15" in {layout["name"] for layout in body["layouts"]}


# ------------------------------------------------------------------ games
def _new(client: TestClient, **kw: Any) -> dict[str, Any]:
    payload = {"opponents": [{"level": "greedy"}], "seed": 7, **kw}
    response = client.post("/api/games", json=payload)
    assert response.status_code == 201, response.text
    return response.json()


def _hint_tiles(client: TestClient, game_id: int) -> list[dict[str, Any]] | None:
    moves = client.get(f"/api/games/{game_id}/hint", params={"top": 1}).json()["moves"]
    if not moves or moves[0]["kind"] != "place":
        return None
    return [{k: t[k] for k in ("row", "col", "letter", "blank")} for t in moves[0]["tiles"]]


def _finish(client: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    game_id = state["id"]
    for _ in range(60):
        if state["status"] != "playing":
            return state
        tiles = _hint_tiles(client, game_id)
        if tiles is not None:
            response = client.post(f"/api/games/{game_id}/play", json={"tiles": tiles})
        elif state["can_exchange"]:  # tiles of several letters in brackets ([CH])
            letters = "".join(f"[{t['letter']}]" if len(t["letter"]) > 1 else t["letter"]
                              for t in state["rack"][:state["bag"]])  # no more than it holds
            response = client.post(f"/api/games/{game_id}/exchange", json={"tiles": letters})
        else:
            response = client.post(f"/api/games/{game_id}/pass")
        assert response.status_code == 200, response.text
        state = response.json()
    raise AssertionError("the game did not end")


def test_a_whole_game_rated_and_recorded(tmp_path: Path, twl06: Any) -> None:
    with _client(tmp_path / "games.sqlite") as client:
        state = _new(client, human="Ann")
        assert state["status"] == "playing" and state["to_move"] == "Ann"
        assert len(state["rack"]) == 7 and state["bag"] == 86
        state = _finish(client, state)
        assert state["status"] == "over" and state["to_move"] is None
        scores = [p["score"] for p in state["players"]]
        standings = state["result"]["standings"]
        assert [s["score"] for s in sorted(standings, key=lambda s: s["seat"])] == scores
        # Elo from 1500 each: the winner gains K/2, the loser loses it (a tie: nothing)
        change = 0.0 if scores[0] == scores[1] else ELO_K / 2
        for s in standings:
            won = s["score"] == max(scores)
            expected = INITIAL_RATING + (change if won else -change)
            assert s["rating_before"] == INITIAL_RATING
            assert s["rating_after"] == pytest.approx(expected)
        ratings = {p["name"]: p for p in client.get("/api/players").json()["players"]}
        assert ratings["Ann"]["games"] == ratings["greedy"]["games"] == 1
        listed = client.get("/api/games").json()["games"][0]
        assert listed["id"] == state["id"] and listed["status"] == "over"
        assert listed["winner"] in (None, "Ann", "greedy")
        ranking = client.get("/api/rankings").json()
        assert ranking["games"][0]["id"] == state["id"]
        assert [p["rating"] for p in ranking["players"]] == sorted(
            (p["rating"] for p in ranking["players"]), reverse=True)
        # the record: a GCG that tells the same game
        response = client.get(f"/api/games/{state['id']}/gcg")
        assert response.status_code == 200
        assert "attachment" in response.headers["content-disposition"]
        game = game_of(read_gcg(response.text), twl06)
        assert game.scores == scores and game.problems() == []
        # a finished game takes no more moves
        _error(client.post(f"/api/games/{state['id']}/pass"), 409)
        _error(client.get(f"/api/games/{state['id']}/hint"), 409)


def test_games_resume_from_the_store(tmp_path: Path) -> None:
    db = tmp_path / "resume.sqlite"
    with _client(db) as client:
        state = _new(client, seed=11, opponents=[{"level": "h3"}, {"level": "greedy"}])
        game_id = state["id"]
        for _ in range(3):
            tiles = _hint_tiles(client, game_id)
            assert tiles is not None
            state = client.post(f"/api/games/{game_id}/play", json={"tiles": tiles}).json()
        letters = "".join(t["letter"] for t in state["rack"][:2])
        state = client.post(f"/api/games/{game_id}/exchange", json={"tiles": letters}).json()
        before = client.get(f"/api/games/{game_id}").json()
    with _client(db) as client:  # a new server on the same file
        after = client.get(f"/api/games/{game_id}").json()
        assert after == before
        state = client.post(f"/api/games/{game_id}/pass").json()
        assert state["events"][:len(before["events"])] == before["events"]
        assert len(state["events"]) == len(before["events"]) + 3  # a pass and two replies


def test_three_opponents_and_names(client: TestClient) -> None:
    state = _new(client, opponents=[{"level": "greedy"}, {"level": "greedy"},
                                    {"level": "h2"}], human_first=False, seed=3)
    names = [p["name"] for p in state["players"]]
    assert names == ["greedy", "you", "greedy #2", "h2"]
    assert state["human"] == 1 and state["to_move"] == "you"
    assert len(state["events"]) == 1  # greedy moved first
    for payload, words in [
        ({"opponents": []}, "opponents"),
        ({"opponents": [{"level": "x"}] * 4}, "opponents"),
        ({"human": "greedy"}, "computer"),
        ({"opponents": [{"level": "nonsense"}]}, "level"),
        ({"opponents": [{"level": "sim", "seconds": 1000}]}, "seconds"),
        ({"layout": "../../etc"}, "layout"),
        ({"challenge": "triple"}, "challenge"),
        ({"lexicon": "nope"}, "lexicon"),
    ]:
        response = client.post("/api/games", json={"seed": 1, **payload})
        assert response.status_code in (400, 422), (payload, response.text)
        assert words in response.json()["detail"].lower(), (payload, response.text)


# ------------------------------------------- people and computer levels apart
# every level the server offers, with its seat's name; a timed level at both
# bounds of its budget
LEVEL_SEATS = [("static", None, "static"), ("greedy", None, "greedy"), ("h1", None, "h1"),
               ("h2", None, "h2"), ("h3", None, "h3"), ("sim", None, "sim 2s"),
               ("best", None, "best 2s"), ("sim", 0.1, "sim 0.1s"), ("best", 30, "best 30s"),
               ("leaves:mine", None, "leaves:mine")]


def _levels_client(tmp_path: Path, db: str = "names.sqlite") -> TestClient:
    from rackety.lexicon.klv import Klv

    table = tmp_path / "mine.klv2"
    if not table.exists():
        Klv.from_values("english", {"S": 8.0, "?": 25.0}).save(table)
    return TestClient(create_app(tmp_path / db, leaves={"mine": str(table)}, warm=False))


def _every_level_plays(client: TestClient) -> None:
    """A new game against each level starts, the level in a computer seat."""
    for level, seconds, name in LEVEL_SEATS:
        response = client.post("/api/games", json={
            "seed": 1, "human": "Pat", "opponents": [{"level": level, "seconds": seconds}]})
        assert response.status_code == 201, (level, response.text)
        seat = response.json()["players"][1]
        assert (seat["name"], seat["kind"], seat["level"]) == (name, "computer", level)


def _record_gcg(players: list[tuple[str, str]]) -> str:
    lines = [f"#player{i} {nick} {name}" for i, (nick, name) in enumerate(players, 1)]
    return "\n".join(["#character-encoding UTF-8", *lines, "#lexicon TWL06",
                      f">{players[0][0]}: ADEHLRT 8D HALTED +28 28"]) + "\n"


def test_a_record_s_players_called_like_levels_take_no_seat(tmp_path: Path) -> None:
    """The attack of issue 33: records whose players are called h1, best 2s ...
    imported first, then games against those levels, and the other way round."""
    names = [name for _, _, name in LEVEL_SEATS]
    with _levels_client(tmp_path) as client:
        for name in names:  # before any game against the level: nothing of it exists yet
            gcg = _record_gcg([("p1", name), ("p2", "Xavier")])
            response = client.post("/api/gcg/import", json={"gcg": gcg})
            assert response.status_code == 201, response.text
            assert response.json()["players"][0] == {"seat": 0, "name": name, "kind": "human",
                                                     "level": None, "score": 28}
        # nicknames that are levels' ids, and the other seats of a game gone on with
        gcg = _record_gcg([("h1", "h1"), ("greedy", "greedy"), ("ann", "Ann")])
        assert client.post("/api/gcg/import", json={"gcg": gcg}).status_code == 201
        gcg = _record_gcg([("ann", "Ann"), ("h2", "h2"), ("b", "best 2s")])
        response = client.post("/api/gcg/import", json={
            "gcg": gcg, "play_as": "ann", "opponents": [{"level": "h3"}, {"level": "greedy"}]})
        assert response.status_code == 201, response.text
        seats = [(p["name"], p["kind"], p["level"]) for p in response.json()["players"]]
        assert seats == [("Ann", "human", None), ("h2", "computer", "h3"),
                         ("best 2s", "computer", "greedy")]
        _every_level_plays(client)
        # and records imported after the levels have played take no level's row either
        for name in names:
            gcg = _record_gcg([("p1", "Yolanda"), ("p2", name)])
            assert client.post("/api/gcg/import", json={"gcg": gcg}).status_code == 201
        _every_level_plays(client)
        players = client.get("/api/players").json()["players"]
        kinds = {(p["kind"], p["name"]) for p in players}
        assert len(kinds) == len(players)
        for name in names:
            assert {("human", name), ("computer", name)} <= kinds
        for game in client.get("/api/games", params={"limit": 500}).json()["games"]:
            state = client.get(f"/api/games/{game['id']}").json()
            if state["status"] == "record":
                assert {p["kind"] for p in state["players"]} == {"human"}
    with _levels_client(tmp_path) as client:  # and after a restart
        _every_level_plays(client)


@pytest.mark.parametrize("name", [
    "h1", "h2", "h3", "static", "greedy", "sim", "best", "sim 2s", "best 2s", "best 0.1s",
    "best 30s", "best 0.099s", "sim 30.5s", "greedy #2", "h3 #3", "leaves:mine", "leaves:x",
    "H1", " h1 ", "Ｈ１", "𝐡𝟏", "h\u200b1", "BEST 2S", "best  2s", "best\u00a02s", "best 2 s",
    "beſt 2ſ", "ｇｒｅｅｄｙ", "stat\u00adic", "sim\t2s", "Leaves:mine"])
def test_no_person_is_called_like_a_level(tmp_path: Path, name: str) -> None:
    with _levels_client(tmp_path) as client:
        detail = _error(client.post("/api/games", json={"human": name, "seed": 1}), 400)
        assert "name of a computer player" in detail
        gcg = _record_gcg([("p1", name), ("p2", "Ann")])
        detail = _error(client.post("/api/gcg/import", json={
            "gcg": gcg, "play_as": "p1", "opponents": [{"level": "greedy"}]}), 400)
        assert "computer" in detail
        _every_level_plays(client)


@pytest.mark.parametrize(("name", "shown"), [
    ("h4", "h4"), ("simon", "simon"), ("best -1s", "best -1s"), ("greedy2", "greedy2"),
    ("Sim City", "Sim City"), ("y" * 40, "y" * 40), ("a\x85b", "a b"),
    ("Robert'); DROP TABLE players;--", "Robert'); DROP TABLE players;--"),
    ("  José\t Zoë ", "José Zoë"), ("Jose\u0301", "José"), ("👩\u200d💻", "👩\u200d💻")])
def test_people_s_names_are_taken_as_written(tmp_path: Path, name: str, shown: str) -> None:
    """Names that are not a level's are people's: spaces collapsed, NFC (the same
    person however the name was typed), one player."""
    import unicodedata

    with _levels_client(tmp_path) as client:
        for form in ("NFC", "NFD"):
            state = _new(client, human=unicodedata.normalize(form, name))
            assert state["players"][0]["name"] == shown
        people = [p for p in client.get("/api/players").json()["players"]
                  if p["kind"] == "human"]
        assert [p["name"] for p in people] == [shown]


@pytest.mark.parametrize(("name", "words"), [
    ("", "at least 1 character"), ("   ", "give a name"), ("\u200b", "give a name"),
    ("\u200b\u2060\u00ad", "give a name"), ("a\x00b", "control characters"),
    ("x\x1b[31m", "control characters"), ("\u202eevil", "control characters"),
    ("a\u2066b", "control characters"), ("y" * 41, "40 characters"), ("ann\ud800", "unicode")])
def test_no_name_is_refused_in_one_line(client: TestClient, name: str, words: str) -> None:
    response = client.post("/api/games", content=json.dumps({"human": name, "seed": 1}),
                           headers={"content-type": "application/json"})
    assert response.status_code in (400, 422), response.text
    assert words in _error(response, response.status_code).lower()


def test_timed_levels_keep_their_bounds(client: TestClient) -> None:
    for level in ("sim", "best"):
        for seconds in (0.1, 30):
            state = _new(client, opponents=[{"level": level, "seconds": seconds}])
            assert state["players"][1]["name"] == f"{level} {seconds:g}s"
        for seconds in (0.0999, 30.001, 0, -1, 1e308):
            response = client.post("/api/games", json={
                "seed": 1, "opponents": [{"level": level, "seconds": seconds}]})
            assert "seconds" in _error(response, 400)


def test_an_old_store_with_people_called_like_levels_works_again(tmp_path: Path) -> None:
    """A store of schema version 2 in the state the attack left it: people called
    h1 and best 2s (h1 with a rated game against greedy), and a record whose
    player took the computer level h2's row. Opened by this rackety: games against
    every level start, each person keeps their rating and games, each level its
    own, and the record's player is a person."""
    import sqlite3

    from rackety.frontends.web.store import SCHEMA_VERSION

    path = tmp_path / "names.sqlite"
    db = version_2_store(path, [*LEVELS_AS_PEOPLE, (5, "Ann", "human", None, 1500, 0, 0, 0)])
    created = f"'{OLD}'"
    seats = [{"name": "h1", "kind": "human", "level": None, "seconds": None, "player": None},
             {"name": "greedy", "kind": "computer", "level": "greedy", "seconds": None,
              "player": "greedy"}]
    config = json.dumps({"lexicon": "TWL06", "layout": "standard15", "seed": 1,
                         "challenge": "double", "human": 0, "seats": seats})
    db.execute("INSERT INTO games (created, updated, status, config, gcg, turn) VALUES"
               f" ({created}, {created}, 'over', ?, '', 0), ({created}, {created}, 'record',"
               f" '{{}}', '', 0), ({created}, {created}, 'record', '{{}}', '', 0)", (config,))
    db.execute("INSERT INTO game_players (game_id, seat, player_id, score, rank, rating_before,"
               " rating_after) VALUES (1, 0, 1, 400, 1, 1500, 1516), (1, 1, 2, 300, 2, 1500,"
               " 1484), (2, 0, 5, 28, 1, NULL, NULL), (2, 1, 4, 0, 2, NULL, NULL),"
               " (3, 0, 3, 10, 2, NULL, NULL), (3, 1, 5, 20, 1, NULL, NULL)")
    db.commit()
    db.close()

    with _levels_client(tmp_path) as client:
        assert client.app.state.service.store.schema_version() == SCHEMA_VERSION
        _every_level_plays(client)
        players = {(p["kind"], p["name"]): p for p in client.get("/api/players").json()["players"]}
        assert (players[("human", "h1")]["rating"], players[("human", "h1")]["games"]) == \
            (1516, 1)
        assert (players[("computer", "greedy")]["rating"],
                players[("computer", "greedy")]["games"]) == (1484, 1)
        assert (players[("computer", "h2")]["rating"], players[("computer", "h2")]["games"]) \
            == (1530, 3)
        for level in ("h1", "best 2s"):  # the levels, new beside the people of their names
            assert players[("computer", level)]["rating"] == INITIAL_RATING
        assert players[("human", "h2")]["games"] == 0  # the record's player, a person now
        assert players[("human", "best 2s")]["rating"] == INITIAL_RATING
        rankings = client.get("/api/rankings").json()
        assert [[(s["name"], s["rating_after"]) for s in g["standings"]]
                for g in rankings["games"] if g["id"] == 1] == [[("h1", 1516), ("greedy", 1484)]]
    store = Store(path)
    try:
        assert store.integrity_ok()
        for game_id, names in ((2, ["Ann", "h2"]), (3, ["best 2s", "Ann"])):
            game = store.game(game_id)
            assert game is not None and game.players == names
        kinds = sqlite3.connect(path).execute(
            "SELECT DISTINCT p.kind FROM game_players gp JOIN players p ON p.id = gp.player_id"
            " WHERE gp.game_id IN (2, 3)").fetchall()
        assert kinds == [("human",)]
    finally:
        store.close()


def _phony(state: dict[str, Any], twl06: Any) -> str:
    letters = [t["letter"] for t in state["rack"] if not t["blank"]]
    for i, a in enumerate(letters):
        for j, b in enumerate(letters):
            if i != j and a + b not in twl06:
                return f"8H {a}{b}"
    raise AssertionError("every pair is a word")


@pytest.mark.parametrize("opponents", [1, 2])
def test_the_unseen_tiles_are_the_person_s(client: TestClient, opponents: int) -> None:
    """A game's "unseen": the tiles the person has not seen (the bag and the
    computers' racks), by letter, never less the computers' racks."""
    state = _new(client, opponents=[{"level": "greedy"}] * opponents, seed=31)
    live = client.app.state.service.live(state["id"])
    for _ in range(3):
        game = live.game
        alphabet = game.alphabet
        hidden = sum((Counter(game.racks[s]) for s in range(len(game.players))
                      if s != state["human"]), Counter())
        expected = Counter(game.bag) + hidden
        unseen = state["unseen"]
        assert unseen["tiles"] == {alphabet.tiles[c].label if c else "?": expected[c]
                                   for c in [*range(1, alphabet.size), 0] if expected[c]}
        assert list(unseen["tiles"]) == sorted(unseen["tiles"], key=lambda t: (t == "?", t))
        assert (unseen["count"], unseen["bag"], unseen["racks"]) == (
            sum(expected.values()), state["bag"], sum(hidden.values()))
        where = "the opponent's rack" if opponents == 1 else "the 2 unknown racks"
        assert unseen["text"].startswith(f"{unseen['count']} unseen ({unseen['racks']} on "
                                         f"{where}, {state['bag']} in the bag): ")
        tiles = _hint_tiles(client, state["id"])
        assert tiles is not None
        state = client.post(f"/api/games/{state['id']}/play", json={"tiles": tiles}).json()


def test_challenges(client: TestClient, twl06: Any) -> None:
    state = _new(client, challenge="void", seed=21)
    detail = _error(client.post(f"/api/games/{state['id']}/play",
                                json={"move": _phony(state, twl06)}), 400)
    assert "is not in TWL06" in detail
    _error(client.post(f"/api/games/{state['id']}/challenge"), 400)  # void: no challenges

    state = _new(client, challenge="double", seed=21)
    state = client.post(f"/api/games/{state['id']}/play",
                        json={"move": _phony(state, twl06)}).json()
    kinds = [e["kind"] for e in state["events"]]
    assert kinds[:2] == ["play", "withdrawn"]  # the computer challenged it off
    assert state["players"][0]["score"] == 0
    assert any("challenge" in m for m in state["messages"])
    # the computer's good play, challenged under the double rule: the challenger loses a turn
    assert state["can_challenge"]
    state = client.post(f"/api/games/{state['id']}/challenge").json()
    assert "lost_turn" in [e["kind"] for e in state["events"]]


def test_moves_refused_with_reasons(client: TestClient) -> None:
    state = _new(client, seed=5)
    game_id = state["id"]
    rack = [t["letter"] for t in state["rack"]]
    for payload, status, words in [
        ({"move": "8H ZZZZZZZ"}, 400, "rack"),
        ({"move": "A1 " + rack[0] + rack[1]}, 400, "start"),
        ({"move": "exch " + rack[0]}, 400, "exchange"),
        ({"move": "nonsense here"}, 400, "move"),
        ({"tiles": [{"row": 7, "col": 7, "letter": rack[0]},
                    {"row": 9, "col": 9, "letter": rack[1]}]}, 400, "line"),
        ({"tiles": [{"row": 99, "col": 7, "letter": "A"}]}, 422, "row"),
        ({"tiles": [{"row": 14, "col": 14, "letter": "?"}]}, 400, "letter"),
        ({"tiles": [{"row": 7, "col": 7, "letter": "Ü"}]}, 400, "tile"),
        ({}, 400, "either"),
        ({"move": "8H AB", "tiles": [{"row": 7, "col": 7, "letter": "A"}]}, 400, "either"),
    ]:
        detail = _error(client.post(f"/api/games/{game_id}/play", json=payload), status)
        assert words in detail.lower(), (payload, detail)
    detail = _error(client.post(f"/api/games/{game_id}/exchange", json={"tiles": "QQQQQQQ"}),
                    400)
    assert "rack" in detail
    # nothing changed
    assert client.get(f"/api/games/{game_id}").json()["events"] == []
    _error(client.get("/api/games/999999"), 404)
    _error(client.post("/api/games/999999/pass"), 404)
    _error(client.get("/api/games/0"), 422)
    _error(client.get("/api/games/abc"), 422)
    _error(client.get(f"/api/games/{game_id}/hint", params={"top": 0}), 422)


def test_pass_exchange_undo(client: TestClient) -> None:
    state = _new(client, seed=9)
    game_id = state["id"]
    before = state
    rack = "".join(t["letter"] for t in state["rack"])
    state = client.post(f"/api/games/{game_id}/exchange", json={"tiles": rack[:3]}).json()
    assert state["events"][0]["kind"] == "exchange"
    assert len(state["rack"]) == 7 and state["rack"] != before["rack"]
    state = client.post(f"/api/games/{game_id}/undo").json()
    assert state["board"] == before["board"] and state["rack"] == before["rack"]
    assert state["events"] == [] and state["bag"] == before["bag"]
    _error(client.post(f"/api/games/{game_id}/undo"), 409)  # nothing of yours left
    state = client.post(f"/api/games/{game_id}/pass").json()
    assert state["events"][0]["kind"] == "pass"


def test_computer_racks_stay_hidden(client: TestClient) -> None:
    state = _new(client, seed=13)
    tiles = _hint_tiles(client, state["id"])
    state = client.post(f"/api/games/{state['id']}/play", json={"tiles": tiles}).json()
    theirs = [e for e in state["events"] if e["seat"] != state["human"]]
    assert theirs and all(e["rack"] == "" for e in theirs)
    text = client.get(f"/api/games/{state['id']}/gcg").text
    record = read_gcg(text)
    assert all(e.rack == "" for e in record.events if e.seat != state["human"])
    assert record.pragma("rack2") is None and record.pragma("rack1")


# ---------------------------------------------------------------- records
def test_import_and_analyse_a_record(client: TestClient) -> None:
    text = (DATA / "gcg" / "double_challenge.gcg").read_text()
    response = client.post("/api/gcg/import", json={"gcg": text})
    assert response.status_code == 201, response.text
    state = response.json()
    assert state["status"] == "record" and state["human"] is None
    assert [p["score"] for p in state["players"]] == [59, 81]  # the record's totals
    _error(client.post(f"/api/games/{state['id']}/pass"), 409)
    assert client.get(f"/api/games/{state['id']}").json()["players"] == state["players"]

    body = client.post("/api/gcg/analyze", json={"gcg": text}).json()
    assert body["players"] == ["ann", "bob"]
    assert len(body["turns"]) == len(read_gcg(text).events)
    assessed = [t for t in body["turns"] if t["equity_lost"] is not None]
    assert assessed
    for turn in assessed:
        assert turn["best"]["equity"] >= turn["played"]["equity"]
        assert turn["equity_lost"] == pytest.approx(turn["best"]["equity"]
                                                    - turn["played"]["equity"], abs=1e-3)
    phony = body["turns"][3]  # bob's GOXE, challenged off: valued all the same
    assert phony["kind"] == "play" and phony["played"]["move"] == "H5 GOX(E)"
    assert phony["played"]["score"] == 12 and phony["equity_lost"] >= 0
    first = body["turns"][0]
    assert first["played"]["move"] == "8D HALTED" and first["played"]["score"] == 28
    totals = {s["player"]: s["equity_lost"] for s in body["summary"]}
    for name in totals:
        assert totals[name] == pytest.approx(sum(
            t["equity_lost"] for t in assessed if t["player"] == name), abs=1e-2)


def test_a_record_analysed_as_a_search(client: TestClient) -> None:
    """``/api/gcg/analysis``: the same analysis as ``/api/gcg/analyze``, run as a
    search whose progress is the turns assessed; a record naming a lexicon not
    offered is refused at once, before any search starts."""
    import time

    text = (DATA / "gcg" / "double_challenge.gcg").read_text()
    state = client.post("/api/gcg/analysis", json={"gcg": text}).json()
    assert state["kind"] == "analysis" and state["lexicon"] == "TWL06"
    deadline = time.monotonic() + 120
    while state["status"] == "running" and time.monotonic() < deadline:
        time.sleep(0.05)
        state = client.get(f"/api/searches/{state['id']}").json()
    assert state["status"] == "done", state
    progress = state["progress"]
    assert progress["done"] == progress["total"] > 0 and progress["what"] == "turns assessed"
    assert state["result"] == client.post("/api/gcg/analyze", json={"gcg": text}).json()
    nwl = text.replace("#player1", "#lexicon NWL23\n#player1", 1)
    message = _error(client.post("/api/gcg/analysis", json={"gcg": nwl}), 400)
    assert "NWL23" in message


@pytest.mark.parametrize(("text", "status"), [
    ("/etc/passwd", 400), ("README.md", 400), ("#player1 a A\n>a: ABC 8H\n", 400),
    ("\x00", 400), ("x" * 600_000, 422)])
def test_bad_records_are_refused(client: TestClient, text: str, status: int) -> None:
    for path in ("/api/gcg/analyze", "/api/gcg/import"):
        detail = _error(client.post(path, json={"gcg": text}), status)
        assert "root:" not in detail


def test_a_request_never_names_a_file(client: TestClient, tmp_path: Path) -> None:
    # ld, lex and bdn name built-in things only: an existing path gets the very
    # answer a missing one gets, and nothing is read
    alphabet = tmp_path / "mine.json"
    alphabet.write_text((Path(__file__).parents[1] / "src" / "rackety" / "data" / "alphabets"
                         / "english.json").read_text())
    answers = []
    for path in (alphabet, tmp_path / "none.json"):  # names of one length: one answer
        cgp = f"{OPENING} ld {path};"
        detail = _error(client.post("/api/analyze", json={"cgp": cgp}), 400)
        answers.append(detail.replace(path.name, "NAME"))
        assert "unknown alphabet" in detail
    assert answers[0] == answers[1]
    for op in ("lex /etc/hostname", "lex /no/such/file"):  # not offered: the default lexicon
        body = client.post("/api/analyze", json={"cgp": f"{OPENING} {op};", "top": 1}).json()
        assert body["count"] == 116
    for op in ("bdn /etc/passwd", "bdn ../boards.json"):
        assert "unknown board layout" in _error(
            client.post("/api/position", json={"cgp": f"{OPENING} {op};"}), 400)


@pytest.mark.parametrize("cgp", [
    f"{EMPTY} AADNPUY/ 0/{'9' * 3500} 0", f"{EMPTY} AADNPUY/ 0/9223372036854775808 0",
    f"{EMPTY} AADNPUY/ 0/0 {'9' * 3500}", f"{OPENING} bb 18446744073709551616;",
    f"{'9' * 3000}/{'/'.join(['15'] * 14)} AADNPUY/ 0/0 0", f"{EMPTY} AADNPUY/ 0/176\u0663 0",
    f"{OPENING} ld {'x' * 3000};", f"{OPENING} lex {'x' * 3000};"])
def test_numbers_and_names_beyond_bounds_are_400(client: TestClient, cgp: str) -> None:
    for path, extra in (("/api/analyze", {}), ("/api/simulate", {"seconds": 0.05}),
                        ("/api/position", {})):
        response = client.post(path, json={"cgp": cgp, **extra})
        assert response.status_code in (200, 400), response.text
        if response.status_code == 400:
            assert len(_error(response, 400)) <= 300


def test_records_past_their_end_and_bad_numbers_are_400(client: TestClient) -> None:
    head = "#player1 a A\n#player2 b B\n>a: AEHLRTD 8D HALTED +28 28\n"
    passes = "".join(f">{'ba'[i % 2]}: ABC - +0 {28 * (i % 2)}\n" for i in range(24000))
    for text, message in [
            (head + passes, "gcg:10: the game ended on line 9 (6 scoreless turns in a row)"),
            ("#character-encoding base64\n" + head, "is not a character set"),
            (head.replace("+28 28", "+28 " + "9" * 5000), "total 9999"),
            (head.replace("8D", "9" * 5000 + "D"), "row 9999")]:
        for path in ("/api/gcg/analyze", "/api/gcg/import"):
            detail = _error(client.post(path, json={"gcg": text}), 400)
            assert message in detail, detail


def test_an_ended_record_is_not_imported_as_playing(client: TestClient) -> None:
    head = "#player1 a A\n#player2 b B\n>a: AEHLRTD 8D HALTED +28 28\n"
    six = "".join(f">{'ba'[i % 2]}: ABC - +0 {28 * (i % 2)}\n" for i in range(6))
    ended = head + six
    detail = _error(client.post("/api/gcg/import", json={"gcg": ended, "play_as": "a"}), 400)
    assert "over" in detail
    viewed = client.post("/api/gcg/import", json={"gcg": ended})
    assert viewed.status_code == 201 and viewed.json()["status"] == "record"


def test_the_server_keeps_serving_after_a_server_error(tmp_path: Path, twl06: Any) -> None:
    app = create_app(tmp_path / "app.sqlite", warm=False)
    service = app.state.service
    with TestClient(app, raise_server_exceptions=False) as c:
        game = c.post("/api/games", json={"seed": 3, "opponents": [{"level": "greedy"}]})
        game_id = game.json()["id"]
        for failure in (RuntimeError("boom"), MemoryError(), RecursionError()):
            def broken(*args: Any, failure: BaseException = failure, **kwargs: Any) -> Any:
                raise failure

            original = service.hint
            service.hint = broken
            assert c.get(f"/api/games/{game_id}/hint").status_code == 500
            service.hint = original
            assert c.get("/api/health").json() == {"status": "ok"}
            assert c.get(f"/api/games/{game_id}/hint").status_code == 200
        # a failure in the middle of a move: the game is rebuilt from the store, intact
        original_record = service._record

        def failing_record(*args: Any, **kwargs: Any) -> None:
            raise OSError(28, "No space left on device")

        service._record = failing_record
        assert c.post(f"/api/games/{game_id}/pass").status_code == 500
        service._record = original_record
        after = c.get(f"/api/games/{game_id}").json()
        assert after["events"] == game.json()["events"]  # the pass was never stored
        assert c.post(f"/api/games/{game_id}/pass").status_code == 200


# --------------------------------------------------------------- property
_text = st.one_of(st.text(max_size=40), st.sampled_from([
    OPENING, "8H PANDY", "exch ?", "pass", "", "A1 A", "15/15", "?", "[CH]", "8h pandy"]))
_json = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20),
                               st.floats(allow_nan=True), _text),
                     lambda inner: st.one_of(st.lists(inner, max_size=4),
                                             st.dictionaries(_text, inner, max_size=4)),
                     max_leaves=8)
_fields = st.fixed_dictionaries({}, optional={
    k: _json for k in ("cgp", "lexicon", "top", "leave", "detail", "gcg", "move", "tiles",
                       "opponents", "human", "layout", "seed", "challenge", "level", "turn",
                       "seconds", "depth", "candidates")})


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(path=st.sampled_from(["/api/analyze", "/api/position", "/api/gcg/analyze",
                             "/api/games", "/api/games/1/play", "/api/games/1/exchange",
                             "/api/gcg/import", "/api/endgame", "/api/preendgame",
                             "/api/gcg/analysis",
                             "/api/searches/0123456789abcdef/stop"]),
       body=st.one_of(_fields, _json))
def test_no_request_body_makes_a_server_error(client: TestClient, path: str, body: Any) -> None:
    if path.startswith("/api/games/1/") and client.get("/api/games/1").status_code == 404:
        client.post("/api/games", json={"seed": 1})
    response = client.post(path, content=json.dumps(body, allow_nan=True),
                           headers={"content-type": "application/json"})
    assert response.status_code < 500, response.text
    assert "detail" in response.json() or response.status_code in (200, 201)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.lists(st.tuples(
    st.sampled_from(["hint", "random", "exchange", "pass", "challenge", "undo"]),
    st.integers(0, 10**6)), max_size=12))
def test_random_play_keeps_games_sound(client: TestClient, twl06: Any, seed: int,
                                       steps: list[tuple[str, int]]) -> None:
    import random

    state = _new(client, seed=seed, challenge="double")
    game_id = state["id"]
    for action, salt in steps:
        rng = random.Random(salt)
        if action == "hint":
            tiles = _hint_tiles(client, game_id)
            response = client.post(f"/api/games/{game_id}/play", json={"tiles": tiles or [
                {"row": 7, "col": 7, "letter": "A"}]})
        elif action == "random":
            rack = state["rack"]
            k = rng.randint(1, max(1, len(rack)))
            r, c, down = rng.randrange(15), rng.randrange(15), rng.random() < 0.5
            tiles = [{"row": min(14, r + (i if down else 0)), "col": min(14, c + (0 if down
                      else i)), "letter": t["letter"] if not t["blank"] else "E",
                      "blank": t["blank"]} for i, t in enumerate(rng.sample(rack, k))]
            response = client.post(f"/api/games/{game_id}/play", json={"tiles": tiles})
        elif action == "exchange":
            letters = "".join(t["letter"] for t in state["rack"])
            response = client.post(f"/api/games/{game_id}/exchange",
                                   json={"tiles": letters[: rng.randint(1, 7)] or "A"})
        else:
            response = client.post(f"/api/games/{game_id}/{action}")
        assert response.status_code in (200, 400, 409), response.text
        state = client.get(f"/api/games/{game_id}").json()
    service = client.app.state.service
    live = service.live(game_id)
    assert live.game.problems() == []
    # the store holds the same game: a new service replays it to the same state
    from rackety.frontends.web.service import Lexicons, Service

    again = Service(Store(service.store.path), Lexicons())
    assert again.get(game_id) == {**service.get(game_id)}


def test_go_on_with_an_uploaded_game(tmp_path: Path) -> None:
    db = tmp_path / "upload.sqlite"
    text = (DATA / "gcg" / "incomplete.gcg").read_text()
    record = read_gcg(text)
    nick = record.players[0].nickname
    with _client(db) as client:
        _error(client.post("/api/gcg/import", json={"gcg": text, "play_as": "nobody"}), 400)
        finished = (DATA / "gcg" / "double_challenge.gcg").read_text()
        assert "over" in _error(client.post("/api/gcg/import", json={
            "gcg": finished, "play_as": "ann"}), 400)
        response = client.post("/api/gcg/import", json={
            "gcg": text, "play_as": nick, "opponents": [{"level": "greedy"}]})
        assert response.status_code == 201, response.text
        state = response.json()
        assert state["status"] == "playing" and state["human"] == 0
        assert state["to_move"] == state["players"][0]["name"]  # the computer moved if due
        assert len(state["events"]) >= len(record.events)
        state = client.post(f"/api/games/{state['id']}/pass").json()
        before = state
    with _client(db) as client:  # resumed from the store: the record, then the moves
        assert client.get(f"/api/games/{before['id']}").json() == {**before, "messages": []}


def test_a_leave_table_offered_by_the_server(tmp_path: Path) -> None:
    from rackety.lexicon.klv import Klv

    path = tmp_path / "mine.klv2"
    Klv.from_values("english", {"S": 8.0, "?": 25.0, "Q": -7.0, "ES": 9.0}).save(path)
    app = create_app(tmp_path / "leaves.sqlite", leaves={"mine": str(path)}, warm=False)
    with TestClient(app) as client:
        levels = {level["id"] for level in client.get("/api/options").json()["levels"]}
        assert "leaves:mine" in levels
        state = _new(client, opponents=[{"level": "leaves:mine"}])
        assert state["players"][1]["level"] == "leaves:mine"
        tiles = _hint_tiles(client, state["id"])
        state = client.post(f"/api/games/{state['id']}/play", json={"tiles": tiles}).json()
        assert state["events"][1]["player"] == "leaves:mine"
        body = client.post("/api/analyze", json={"cgp": f"{EMPTY} AEQSST?/ 0/0 0",
                                                 "leave": "leaves:mine", "top": 400}).json()
        table = {"S": 8.0, "?": 25.0, "Q": -7.0, "ES": 9.0}
        board = Board.from_cgp(f"{EMPTY} AEQSST?/ 0/0 0")
        for move in body["moves"]:  # a leave not in the table is worth nothing
            assert move["equity"] - move["score"] == pytest.approx(
                table.get(move["leave"], 0.0)
                + opening_penalty(board, board.parse_move(move["move"]))), move
        assert {"?", "ES"} <= {m["leave"] for m in body["moves"]}
        _error(client.post("/api/games", json={"opponents": [{"level": "leaves:other"}]}), 400)


def test_the_championship_player_is_offered_with_a_budget(client: TestClient) -> None:
    levels = {level["id"]: level for level in client.get("/api/options").json()["levels"]}
    assert levels["best"]["seconds"] is True
    state = _new(client, opponents=[{"level": "best", "seconds": 0.2}])
    assert state["players"][1]["level"] == "best"
    tiles = _hint_tiles(client, state["id"])
    state = client.post(f"/api/games/{state['id']}/play", json={"tiles": tiles}).json()
    assert state["events"][1]["player"] == "best 0.2s"
    _error(client.post("/api/games", json={"opponents": [{"level": "best",
                                                           "seconds": 99}]}), 400)


def test_the_default_opponent_is_static(client: TestClient) -> None:
    options = client.get("/api/options").json()
    assert options["default_level"] == "static"
    state = client.post("/api/games", json={"seed": 2}).json()
    assert [p["level"] for p in state["players"]] == [None, "static"]
    tiles = _hint_tiles(client, state["id"])
    state = client.post(f"/api/games/{state['id']}/play", json={"tiles": tiles}).json()
    assert state["events"][1]["player"] == "static"


def test_a_record_without_racks_shows_the_plays_as_written(client: TestClient) -> None:
    text = "#player1 a A\n#player2 b B\n>a:  8D HALTED +28 28\n>b:  D8 .OWS +10 10\n"
    turns = client.post("/api/gcg/analyze", json={"gcg": text}).json()["turns"]
    assert [t["equity_lost"] for t in turns] == [None, None]  # no rack: nothing to compare
    first, second = turns[0]["played"], turns[1]["played"]
    assert (first["move"], first["score"], first["equity"]) == ("8D HALTED", 28, 28.0)
    assert first["squares"] == [[7, c] for c in range(3, 9)]
    assert second["move"] == "D8 (H)OWS" and len(second["tiles"]) == 3


def _saved_in_terminal(twl06: Any, turns: int) -> tuple[Any, str]:
    """A game as terminal play saves it (``save FILE.gcg``): ``turns`` turns of
    greedy play between "you" and greedy, then the record with its ``#rack`` lines."""
    from rackety.game.gcg import record_of, write_gcg
    from rackety.game.referee import Game
    from rackety.players import make_player

    game = Game(twl06, ["you", "greedy"], seed=2024)
    player = make_player("greedy", twl06)
    for _ in range(turns):
        game.play(player.choose(game.view(), twl06), check=False)
    return game, write_gcg(record_of(game))


@pytest.mark.parametrize("known", ["both racks", "rack1 only"])
def test_going_on_with_a_saved_game_keeps_it_as_saved(tmp_path: Path, twl06: Any,
                                                      known: str) -> None:
    game, text = _saved_in_terminal(twl06, 4)  # "you" (player 1) to move
    if known == "rack1 only":
        text = "".join(line for line in text.splitlines(keepends=True)
                       if not line.startswith("#rack2"))
    saved = read_gcg(text)
    rack1 = saved.racks[0]
    assert game.turn == 0 and rack1 and min(game.scores) > 0
    db = tmp_path / "saved.sqlite"
    with _client(db) as client:
        response = client.post("/api/gcg/import", json={
            "gcg": text, "play_as": "you", "opponents": [{"level": "greedy"}]})
        assert response.status_code == 201, response.text
        state = response.json()
        assert state["human"] == 0 and state["to_move"] == "you" and state["turn"] == 0
        letters = "".join("?" if t["blank"] else t["letter"] for t in state["rack"])
        assert sorted(letters) == sorted(rack1)  # the rack as saved
        assert [p["score"] for p in state["players"]] == game.scores
        assert state["bag"] == len(game.bag)  # the unseen tiles less both racks
        if known == "both racks":  # the computer holds its saved rack too
            live = client.app.state.service.live(state["id"])
            assert sorted(live.game.racks[1]) == sorted(game.racks[1])
        assert _problems(client, state["id"]) == []
        listed = next(g for g in client.get("/api/games").json()["games"]
                      if g["id"] == state["id"])
        assert [p["score"] for p in listed["players"]] == game.scores  # not 0-0
        assert [p["name"] for p in listed["players"]] == [p["name"] for p in state["players"]]
        assert listed["turn"] == state["turn"] and listed["to_move"] == state["to_move"]
    with _client(db) as client:  # a new server rebuilds the same game from the store
        assert client.get(f"/api/games/{state['id']}").json() == state


def test_a_saved_game_with_the_computer_to_move_goes_on_from_its_rack(tmp_path: Path,
                                                                      twl06: Any) -> None:
    game, text = _saved_in_terminal(twl06, 3)  # greedy (player 2) to move, #rack2 known
    with _client(tmp_path / "saved.sqlite") as client:
        response = client.post("/api/gcg/import", json={
            "gcg": text, "play_as": "you", "opponents": [{"level": "greedy"}]})
        assert response.status_code == 201, response.text
        state = response.json()
        live = client.app.state.service.live(state["id"])
        reply = live.game.events[len(game.events)]
        assert reply.seat == 1 and sorted(reply.rack) == sorted(game.racks[1])
        # what greedy plays from that rack in that position, scored on top of the saved scores
        expected = _greedy_reply(game, twl06)
        assert state["events"][-1]["move"] == expected
        assert state["players"][0]["score"] == game.scores[0]
        assert len(state["rack"]) == 7 and state["to_move"] == "you"
        listed = next(g for g in client.get("/api/games").json()["games"]
                      if g["id"] == state["id"])
        assert [p["score"] for p in listed["players"]] == [p["score"] for p in state["players"]]


def _greedy_reply(game: Any, twl06: Any) -> str:
    from rackety.players import make_player

    move = make_player("greedy", twl06).choose(game.view(), twl06)
    return str(move.notation(game.alphabet))


def live_rack(client: TestClient, game_id: int) -> tuple[int, ...]:
    live = client.app.state.service.live(game_id)
    return tuple(live.game.racks[live.human])


def _problems(client: TestClient, game_id: int) -> list[str]:
    return list(client.app.state.service.live(game_id).game.problems())


# ------------------------------------------------------- other languages
# games in Spanish and Catalan, from small word lists offered as the operator
# offers them (rackety serve --lexicon FILE:ALPHABET)
SPANISH_WORDS = DATA / "words_spanish_small.txt"
CATALAN_WORDS = DATA / "words_catalan_small.txt"


@pytest.fixture(scope="module")
def languages(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("languages")
    (folder / "es.txt").write_bytes(SPANISH_WORDS.read_bytes())
    (folder / "ca.txt").write_bytes(CATALAN_WORDS.read_bytes())
    app = create_app(folder / "app.sqlite", lexicons=[f"{folder / 'es.txt'}:spanish",
                                                      f"{folder / 'ca.txt'}:catalan"],
                     warm=False)
    with TestClient(app) as c:
        yield c


def _squares_hold(state: dict[str, Any], alphabet: Any, move: Any) -> None:
    """The board of ``state`` holds the tiles ``move`` placed, each one tile."""
    squares = state["board"]["squares"]
    for (r, c), code in zip(move.placed_squares(), move.placed, strict=True):
        tile = alphabet.tiles[code & ~BLANK_FLAG]
        assert squares[r][c] == {"letter": tile.label, "blank": bool(code & BLANK_FLAG),
                                 "points": 0 if code & BLANK_FLAG else tile.points}


def test_a_spanish_game_with_tiles_of_two_letters(languages: TestClient) -> None:
    options = languages.get("/api/options").json()
    assert {"ES", "CA"} <= set(options["lexicons"])
    assert options["lexicon_alphabets"]["ES"] == "spanish"
    assert options["lexicon_alphabets"]["CA"] == "catalan"
    assert {"CH", "LL", "RR", "Ñ"} <= {t["letter"] for t in options["alphabets"]["ES"]}
    assert options["keys"]["spanish"] == {"1": "CH", "2": "LL", "3": "RR"}
    assert options["keys"]["catalan"] == {"L·L": "L·L", "NY": "NY", "QU": "QU"}
    lexicon = languages.app.state.service.lexicons.get("ES")
    alphabet = lexicon.alphabet
    multi = multi_codes(alphabet)

    # a real tile of two letters, typed with its digit (1 for CH, 2 for LL, 3 for RR)
    seed, move = opening(lexicon, lambda _g, m: any(c in multi for c in m.placed))
    state = _new(languages, lexicon="es", seed=seed, opponents=[{"level": "static"}])
    assert state["lexicon"] == "ES" and state["alphabet_name"] == "spanish"
    assert state["keys"] == {"1": "CH", "2": "LL", "3": "RR"}
    assert [t["letter"] for t in state["alphabet"]] == [t.label for t in alphabet.letters]
    assert len(state["rack"]) == 7 and {t["letter"] for t in state["rack"]} & {"CH", "LL", "RR"}
    assert any(m.startswith("static plays by equity with") for m in state["messages"])
    written = move.notation(alphabet)
    typed = written.replace("[CH]", "1").replace("[LL]", "2").replace("[RR]", "3")
    assert typed != written and "[" not in typed
    response = languages.post(f"/api/games/{state['id']}/play", json={"move": typed})
    assert response.status_code == 200, response.text
    state = response.json()
    assert (state["events"][0]["move"], state["events"][0]["score"]) == (written, move.score)
    _squares_hold(state, alphabet, move)
    assert state["events"][1]["seat"] == 1  # static answered, in Spanish
    assert _problems(languages, state["id"]) == []

    # a blank standing for one, placed square by square; then an exchange of one
    def blank_for_multi(game: Any, m: Any) -> bool:
        rack = game.racks[0]
        return any(c & BLANK_FLAG and c & ~BLANK_FLAG in multi for c in m.placed) and \
            any(c in multi for c in rack)

    seed, move = opening(lexicon, blank_for_multi)
    state = _new(languages, lexicon="ES", seed=seed, opponents=[{"level": "greedy"}])
    tiles = [{"row": r, "col": c, "letter": alphabet.tiles[code & ~BLANK_FLAG].label,
              "blank": bool(code & BLANK_FLAG)}
             for (r, c), code in zip(move.placed_squares(), move.placed, strict=True)]
    assert any(len(t["letter"]) == 2 and t["blank"] for t in tiles)
    response = languages.post(f"/api/games/{state['id']}/play", json={"tiles": tiles})
    assert response.status_code == 200, response.text
    state = response.json()
    written = move.notation(alphabet)
    assert re.search(r"\[(ch|ll|rr)\]", written)
    assert (state["events"][0]["move"], state["events"][0]["score"]) == (written, move.score)
    _squares_hold(state, alphabet, move)
    label = next(t["letter"] for t in state["rack"] if t["letter"] in ("CH", "LL", "RR"))
    response = languages.post(f"/api/games/{state['id']}/exchange",
                              json={"tiles": f"[{label.lower()}]"})
    assert response.status_code == 200, response.text
    state = response.json()
    mine = [e for e in state["events"] if e["seat"] == 0]
    assert mine[-1]["kind"] == "exchange" and mine[-1]["move"] == f"exch [{label}]"

    # played out, recorded, analysed
    state = _finish(languages, state)
    assert state["status"] == "over" and _problems(languages, state["id"]) == []
    text = languages.get(f"/api/games/{state['id']}/gcg").text
    assert written.split()[1] in text
    replayed = game_of(read_gcg(text), lexicon)
    assert replayed.scores == [p["score"] for p in state["players"]]
    body = languages.post("/api/gcg/analyze", json={"gcg": text}).json()
    assert body["lexicon"].upper() == "ES"  # the record's #lexicon, offered here
    first = body["turns"][0]
    assert first["played"]["move"] == written
    assert any(t["blank"] and len(t["letter"]) == 2 for t in first["played"]["tiles"])
    later = body["turns"][2]["board"]["squares"]
    assert any(sq and len(sq["letter"]) == 2 for row in later for sq in row)
    report = languages.get(f"/api/games/{state['id']}/report")
    assert report.status_code == 200 and "<svg" in report.text


def test_a_catalan_game_typed_as_spelled(languages: TestClient) -> None:
    lexicon = languages.app.state.service.lexicons.get("CA")
    alphabet = lexicon.alphabet
    multi = multi_codes(alphabet)
    seed, move = opening(lexicon, lambda _g, m: any(c in multi for c in m.placed))
    state = _new(languages, lexicon="CA", seed=seed, opponents=[{"level": "h3"}])
    written = move.notation(alphabet)
    typed = written.replace("[", "").replace("]", "")  # NY, L·L, QU read from plain text
    response = languages.post(f"/api/games/{state['id']}/play", json={"move": typed})
    assert response.status_code == 200, response.text
    state = response.json()
    assert state["events"][0]["move"] == written and "[" in written
    _squares_hold(state, alphabet, move)
    hint = languages.get(f"/api/games/{state['id']}/hint").json()
    assert hint["leaves"] and hint["moves"]
    rack = sorted(alphabet.rack(format_leave(alphabet, live_rack(languages, state["id"]))))
    for m in hint["moves"]:  # each tile one of the alphabet's, the leave read back
        assert all(t["letter"] in {x.label for x in alphabet.letters} for t in m["tiles"])
        kept = sorted(alphabet.rack(m["leave"])) if m["leave"] else []
        if m["kind"] == "place":
            assert len(kept) + len(m["tiles"]) == len(rack)


@pytest.mark.parametrize(("path", "body", "says"), [
    ("/play", {"tiles": [{"row": 7, "col": 7, "letter": "NY"}]},
     "[NY] is not a tile of alphabet spanish"),
    ("/play", {"tiles": [{"row": 7, "col": 7, "letter": "[CH]"}]}, "tiles[0]"),
    ("/play", {"tiles": [{"row": 7, "col": 7, "letter": "C H"}]}, "tiles[0]"),
    ("/play", {"tiles": [{"row": 7, "col": 7, "letter": "?", "blank": True}]},
     "tiles[0]: a tile needs a letter"),
    ("/play", {"move": "8H [CH"}, "'[' without a closing ']'"),
    ("/play", {"move": "8H [L·L]A"}, "[L·L] is not a tile of alphabet spanish"),
    ("/play", {"move": "8H 9A"}, "not in alphabet spanish"),
    ("/exchange", {"tiles": "[XX]"}, "[XX] is not a tile of alphabet spanish"),
    ("/exchange", {"tiles": "[CH"}, "'[' without a closing ']'"),
])
def test_bad_tiles_of_several_letters_are_one_line_400(languages: TestClient, path: str,
                                                       body: dict[str, Any], says: str) -> None:
    state = _new(languages, lexicon="ES", seed=1)
    detail = _error(languages.post(f"/api/games/{state['id']}{path}", json=body), 400)
    assert says in detail


def test_a_position_read_and_edited_in_a_lexicon_s_alphabet(languages: TestClient) -> None:
    """A CGP that names no alphabet is read in the lexicon's (the CGP then says
    ld, so that it reads back the same); one that names its own keeps it."""
    empty = languages.post("/api/position/edit", json={"lexicon": "ES"}).json()
    assert empty["cgp"] == f"{EMPTY} / 0/0 0 ld spanish;"
    tiles = [{"row": 7, "col": 7, "letter": "CH"}, {"row": 7, "col": 8, "letter": "E"}]
    body = languages.post("/api/position/edit", json={
        "cgp": f"{EMPTY} / 0/0 0", "lexicon": "ES", "tiles": tiles,
        "racks": ["A2LOSRE", ""], "scores": [0, 0]}).json()
    assert body["cgp"].split()[0].split("/")[7] == "7[CH]E6"
    assert body["cgp"].endswith(" ld spanish;")
    assert [t["letter"] for t in body["racks"][0]] == ["A", "LL", "L", "O", "S", "R", "E"]
    assert languages.post("/api/position", json={"cgp": body["cgp"]}).json() == body
    read = languages.post("/api/position", json={"cgp": f"{EMPTY} A3/ 0/0 0",
                                                 "lexicon": "ES"}).json()
    assert [t["letter"] for t in read["racks"][0]] == ["A", "RR"]
    assert read["cgp"] == f"{EMPTY} A[RR]/ 0/0 0 ld spanish;"
    _error(languages.post("/api/position", json={"cgp": f"{EMPTY} A3/ 0/0 0"}), 400)
    own = languages.post("/api/position", json={"cgp": f"{OPENING} ld english;",
                                                "lexicon": "ES"}).json()
    assert own["cgp"] == f"{OPENING} ld english;"
    english = languages.post("/api/position", json={"cgp": OPENING, "lexicon": "TWL06"})
    assert english.json()["cgp"] == OPENING


def test_a_lexicon_not_offered_is_refused(languages: TestClient) -> None:
    for name in (str(SPANISH_WORDS), "SPANISH_SMALL", "../es.txt"):
        detail = _error(languages.post("/api/games", json={"lexicon": name}), 400)
        assert "not offered here" in detail and "ES" in detail


def test_the_page_runs_only_the_server_s_own_script(client: Any) -> None:
    """The app's page is sent with a Content-Security-Policy: scripts from this
    server only, never inline ones (the page has none: each names its file),
    nothing from another site, no framing."""
    import re

    response = client.get("/")
    assert response.status_code == 200
    policy = {part.split()[0]: part.split()[1:]
              for part in response.headers["content-security-policy"].split(";") if part.split()}
    assert policy["script-src"] == ["'self'"] and policy["default-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["object-src"] == ["'none'"]
    assert all(("*" not in s and ":" not in s.strip("'")) or s == "data:"
               for sources in policy.values() for s in sources)
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", response.text, re.S | re.I)
    assert scripts and all('src="/static/' in attrs and not body.strip()
                           for attrs, body in scripts)
    assert not re.search(r"\son[a-z]+\s*=", response.text, re.I)  # no inline handlers
    assert response.headers.get("x-content-type-options") == "nosniff"


MODULE_TYPES = {"text/javascript", "application/javascript"}
IMPORT = re.compile(r"^import\s*(?:\{([^}]*)\}\s*from\s*)?\"([^\"]+)\";", re.M)
EXPORT = re.compile(r"^export\s+(?:async\s+)?(?:function|const|let|class)\s+([\w$]+)", re.M)


def test_every_module_the_page_imports_is_served(client: TestClient) -> None:
    """The page's script is ES modules without a build step: from the page's
    module, every module imported (followed from module to module) answers
    200 as JavaScript, each name imported is one its module exports, and no
    module of the folder is left out."""
    from importlib import resources
    from urllib.parse import urljoin

    page = client.get("/").text
    todo = re.findall(r'<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"', page)
    assert todo, "the page loads no module"
    served: dict[str, str] = {}
    wanted: list[tuple[str, str, str]] = []  # (importer, module, name)
    while todo:
        url = todo.pop()
        if url in served:
            continue
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers["content-type"].split(";")[0] in MODULE_TYPES, url
        served[url] = response.text
        for names, target in IMPORT.findall(response.text):
            module = urljoin(url, target)
            todo.append(module)
            wanted += [(url, module, n.strip()) for n in names.split(",") if n.strip()]
    for importer, module, name in wanted:
        assert name in EXPORT.findall(served[module]), f"{importer}: {module} exports no {name}"
    folder = resources.files("rackety.frontends.web") / "static" / "js"
    files = {f"/static/js/{f.name}" for f in folder.iterdir() if f.name.endswith(".js")}
    assert files == set(served), "modules the page does not load, or loads from elsewhere"


def test_a_wordsmog_game_plays_by_its_rules(client: TestClient) -> None:
    assert "wordsmog" in client.get("/api/options").json()["variants"]
    state = _new(client, variant="wordsmog")
    assert state["variant"] == "wordsmog"
    tiles = _hint_tiles(client, state["id"])  # the hint lists WordSmog's moves
    if tiles is not None:
        response = client.post(f"/api/games/{state['id']}/play", json={"tiles": tiles})
        assert response.status_code == 200, response.text
    assert client.get(f"/api/games/{state['id']}").json()["variant"] == "wordsmog"
    _error(client.post("/api/games", json={"opponents": [{"level": "greedy"}],
                                           "variant": "jumble"}), 422)


# ------------------------------------------------------------- game clocks
class _Clock:
    """The service's time (`service.now`), moved by hand."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from rackety.frontends.web import service

        self.t = 1_800_000_000.0
        monkeypatch.setattr(service, "now", lambda: self.t)


def test_a_person_s_slow_moves_cost_points_at_the_end(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """On a 5-minute clock the person takes 400 s over their first move: their
    clock shows -1:40, and at the end the rules take 10 points a minute or part
    past it (20), once, as a time-penalty event; the computer, whose moves take
    no time on this clock, loses nothing. A restart shows the same game."""
    clock = _Clock(monkeypatch)
    db = tmp_path / "clock.sqlite"
    with _client(db) as client:
        state = _new(client, clock=300)
        assert state["clock"] == {"seconds": 300.0, "left": [300.0, 300.0], "running": 0}
        clock.t += 400
        assert client.get(f"/api/games/{state['id']}").json()["clock"]["left"] == [-100, 300]
        state = _finish(client, state)
        assert state["status"] == "over"
        assert state["clock"] == {"seconds": 300.0, "left": [-100.0, 300.0], "running": None}
        penalties = [e for e in state["events"] if e["kind"] == "time_penalty"]
        assert [(e["seat"], e["score"]) for e in penalties] == [(0, -20)]
        assert penalties[0]["total"] == state["players"][0]["score"]
        assert "you: time penalty -20" in state["messages"]
        standings = {s["seat"]: s["score"] for s in state["result"]["standings"]}
        assert standings == {p["seat"]: p["score"] for p in state["players"]}  # rated so
        before = client.get(f"/api/games/{state['id']}").json()
    with _client(db) as client:  # a new server on the same file: the penalty once
        assert client.get(f"/api/games/{state['id']}").json() == before


def test_a_clock_survives_a_restart_and_a_refused_move(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The store keeps the clock (the game's setting, each action's time and
    the time used): a new server, or the game rebuilt after a refused move,
    counts the person's turn from when it began."""
    clock = _Clock(monkeypatch)
    db = tmp_path / "restart.sqlite"
    with _client(db) as client:
        state = _new(client, clock=600)
        game_id = state["id"]
        clock.t += 30
        tiles = _hint_tiles(client, game_id)
        state = client.post(f"/api/games/{game_id}/play", json={"tiles": tiles}).json()
        assert state["clock"]["left"] == [570.0, 600.0] and state["clock"]["running"] == 0
        clock.t += 12
    with _client(db) as client:
        state = client.get(f"/api/games/{game_id}").json()
        assert state["clock"] == {"seconds": 600.0, "left": [558.0, 600.0], "running": 0}
        clock.t += 5
        _error(client.post(f"/api/games/{game_id}/play", json={"move": "A1 ZZZZZZZ"}), 400)
        clock.t += 5
        state = client.post(f"/api/games/{game_id}/pass").json()
        assert state["clock"]["left"] == [548.0, 600.0]
        actions = client.app.state.service.store.actions(game_id)
        assert [a["used"] for a in actions] == [[30.0, 0.0]] * 2 + [[52.0, 0.0]] * 2
        assert actions[-1]["at"] == clock.t


def test_the_championship_player_plays_on_the_game_s_clock(client: TestClient) -> None:
    """With a clock the level best is the clock player (best:clock=SECONDS): it
    takes its share of what is left and the state says what it used; the state's
    messages say why it chose its move."""
    from rackety.players import BestPlayer

    state = _new(client, opponents=[{"level": "best", "seconds": 5}], clock=60)
    assert state["players"][1]["name"] == "best clock 60s"
    player = client.app.state.service.live(state["id"]).players[1]
    assert isinstance(player, BestPlayer) and player.clock == 60
    tiles = _hint_tiles(client, state["id"])
    state = client.post(f"/api/games/{state['id']}/play", json={"tiles": tiles}).json()
    left = state["clock"]["left"][1]
    assert 0 < left < 60 and state["clock"]["running"] == 0
    why = state["messages"][-1]
    assert why.startswith("best clock 60s chose by simulation, "), state["messages"]
    assert "rollouts: " in why and "% to win, next best " in why
    move = state["events"][-1]["move"]
    assert f": {move} " in why


def test_the_championship_player_says_why_it_moved(tmp_path: Path, twl06: Any) -> None:
    """The reason line comes with the move, stays on the move's event (also
    when the game is read back from the store), and goes with an undo."""
    db = tmp_path / "app.sqlite"
    with _client(db) as client:
        state = _new(client, opponents=[{"level": "best", "seconds": 0.3}])
        game_id = state["id"]
        tiles = _hint_tiles(client, game_id)
        state = client.post(f"/api/games/{game_id}/play", json={"tiles": tiles}).json()
        assert "clock" not in state
        lines = state["messages"]
        assert lines[1].startswith("best 0.3s plays ")
        assert re.fullmatch(r"best 0\.3s chose by simulation, [234] plies, [0-9,]+ "
                            r"rollouts: .+ [0-9.]+% "
                            r"to win, next best .+ [0-9.]+%(, the opponent's leave inferred "
                            r"from their last play)?", lines[2]), lines
        whys = {e["index"]: e["why"] for e in state["events"]}
        computer = [e["index"] for e in state["events"] if e["seat"] == 1]
        assert len(computer) == 1 and whys[computer[0]] == lines[2]
        assert [i for i, w in whys.items() if w is not None] == computer
    with _client(db) as client:  # read back from the store
        again = client.get(f"/api/games/{game_id}").json()
        assert again["events"] == state["events"] and again["messages"] == []
        undone = client.post(f"/api/games/{game_id}/undo").json()
        assert undone["events"] == [] and client.app.state.service.live(game_id).why == {}
    with _client(db) as client:  # the undo read back too
        assert client.app.state.service.live(game_id).why == {}
        state = client.post(f"/api/games/{game_id}/pass").json()
        reasons = [e["why"] for e in state["events"]]
        assert reasons[0] is None and reasons[1] == state["messages"][-1]
    with _client(db) as client:
        assert client.get(f"/api/games/{game_id}").json()["events"] == state["events"]


@pytest.mark.parametrize("clock", [5, 59, 100_000, -300, "ten", [300], True])
def test_a_bad_clock_is_a_one_line_422(client: TestClient, clock: Any) -> None:
    detail = _error(client.post("/api/games", json={"clock": clock}), 422)
    assert detail.startswith("clock: ")


def test_a_bad_clock_called_in_python_is_refused(client: TestClient) -> None:
    from rackety.errors import RacketyError

    with pytest.raises(RacketyError, match="clock: 60 to 7200 seconds a player, not 30"):
        client.app.state.service.create_game(
            lexicon=None, layout=None, human="you", opponents=[("greedy", None)],
            challenge="double", seed=1, human_first=True, clock=30)


def test_a_game_without_a_clock_is_as_it_was(client: TestClient) -> None:
    """No clock: no clock in the state, the settings or the actions."""
    state = _new(client)
    tiles = _hint_tiles(client, state["id"])
    state = client.post(f"/api/games/{state['id']}/play", json={"tiles": tiles}).json()
    assert "clock" not in state
    store = client.app.state.service.store
    row = store.game(state["id"])
    assert row is not None and not {"clock", "began"} & set(row.config)
    assert all(set(a) <= {"kind", "seat", "move"} for a in store.actions(state["id"]))


def test_the_schema_describes_the_clock(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()["components"]["schemas"]["NewGame"]
    clock = schema["properties"]["clock"]
    bounds = next(b for b in clock["anyOf"] if b.get("type") == "number")
    assert (bounds["minimum"], bounds["maximum"]) == (60, 7200)
    assert "clock" in clock["description"]
    # the clock player's name is a computer's: no person takes it
    _error(client.post("/api/games", json={"human": "Best Clock 300s"}), 400)
