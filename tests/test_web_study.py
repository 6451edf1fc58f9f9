"""The web app's study routes (issue 39): a person's deck counted, its next
item asked without its answers, a reply graded and scheduled; values just
inside and just outside each limit; another person's item not found."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rackety import Lexicon
from rackety.frontends.web.app import create_app


@pytest.fixture
def app_client(tmp_path: Path) -> tuple[object, TestClient]:
    app = create_app(tmp_path / "s.sqlite", warm=False)
    return app, TestClient(app)


def test_a_deck_through_the_api(app_client: tuple[object, TestClient]) -> None:
    app, client = app_client
    store = app.state.service.store  # type: ignore[attr-defined]
    ann = store.player("ann").id
    store.study_add(ann, [("anagrams", "/etc/passwd", "AB", "a path: never read"),
                          ("anagrams", "TWL06", "AEINRST", "t"), ("judge", "TWL06", "QXZ", "t")])
    stats = client.get("/api/study", params={"player": "ann"}).json()
    assert (stats["due"], stats["learned"], stats["new"]) == (0, 0, 3)
    item = client.get("/api/study/next", params={"player": "ann"}).json()["item"]
    assert item["prompt"] == "AEINRST" and item["new"]  # the path's item passed over
    words = Lexicon.load("TWL06").anagrams("AEINRST")
    assert item["answers"] == len(words) and "RETAINS" not in str(item)
    answer = client.post("/api/study/answer", json={
        "player": "ann", "item": item["id"], "reply": " ".join(words), "seconds": 8}).json()
    assert answer["correct"] and answer["answers"] == words and answer["rating"] == "good"
    judge = client.get("/api/study/next", params={"player": "ann"}).json()["item"]
    assert judge["kind"] == "judge" and judge["prompt"] == "QXZ"
    wrong = client.post("/api/study/answer", json={
        "player": "ann", "item": judge["id"], "reply": "y"}).json()
    assert not wrong["correct"] and wrong["answers"] == ["phony"] and wrong["rating"] == "again"
    stats = client.get("/api/study", params={"player": "ann"}).json()
    assert (stats["learned"], stats["new"]) == (2, 1)
    assert client.get("/api/study/next", params={"player": "ann", "new": 0}).json() == \
        {"item": None}
    # another person's item, an item that is not there: 404
    for who, what in (("bob", judge["id"]), ("ann", 9999)):
        response = client.post("/api/study/answer", json={"player": who, "item": what,
                                                          "reply": "y"})
        assert response.status_code == 404 and "\n" not in response.json()["detail"]


@pytest.mark.parametrize(("path", "params", "status"), [
    ("/api/study/next", {"player": "ann", "new": 0}, 200),
    ("/api/study/next", {"player": "ann", "new": 1000}, 200),
    ("/api/study/next", {"player": "ann", "new": -1}, 422),
    ("/api/study/next", {"player": "ann", "new": 1001}, 422),
    ("/api/study", {"player": "a" * 40}, 200),
    ("/api/study", {"player": "a" * 41}, 422),
    ("/api/study", {"player": ""}, 422),
    ("/api/study", {"player": "h3"}, 400),
    ("/api/study", {"player": "  "}, 400),
])
def test_query_limits(app_client: tuple[object, TestClient], path: str,
                      params: dict[str, object], status: int) -> None:
    _, client = app_client
    assert client.get(path, params=params).status_code == status


@pytest.mark.parametrize(("field", "value", "status"), [
    ("seconds", 0, 404), ("seconds", 86_400, 404), ("seconds", -0.001, 422),
    ("seconds", 86_400.5, 422), ("item", 0, 422), ("item", 2**62 + 1, 422),
    ("reply", "x" * 2000, 404), ("reply", "x" * 2001, 422), ("player", "", 422),
])
def test_answer_limits(app_client: tuple[object, TestClient], field: str, value: object,
                       status: int) -> None:
    """Just inside a limit the request is taken (the item is not there: 404),
    just outside it is refused (422)."""
    _, client = app_client
    body = {"player": "ann", "item": 5, "reply": "y", "seconds": 1.0, field: value}
    assert client.post("/api/study/answer", json=body).status_code == status


def test_puzzles_through_the_api(app_client: tuple[object, TestClient]) -> None:
    """The next puzzle is one the person has not tried, rated nearest them;
    an answer is graded by the puzzle's answers and rates both sides."""
    from rackety.game.gcg import read_gcg
    from rackety.study.puzzles import from_record

    app, client = app_client
    store = app.state.service.store  # type: ignore[attr-defined]
    gcg = (Path(__file__).parent / "data" / "gcg" / "phony_stood.gcg").read_text()
    cut = from_record(read_gcg(gcg, source="g"), Lexicon.load("TWL06"), name="g")
    for p in cut:
        store.puzzle(p.lexicon, p.cgp, p.as_dict())
    by_cgp = {p.cgp: p for p in cut}
    tried = []
    for _ in cut:
        shown = client.get("/api/puzzles/next", params={"player": "ann"}).json()["puzzle"]
        puzzle = by_cgp[shown["position"]["cgp"]]
        assert shown["tags"] == list(puzzle.tags) and "answers" not in shown
        right = client.post("/api/puzzles/answer", json={
            "player": "ann", "puzzle": shown["id"], "reply": puzzle.answers[0]}).json()
        assert right["correct"] and right["why"] == puzzle.why
        assert right["rating"] > 1500 > right["puzzle_rating"] or tried
        tried.append(shown["id"])
    assert len(set(tried)) == len(cut)  # each once
    # each puzzle met is in the deck, scheduled by its attempt (answered right: later)
    deck = client.get("/api/study", params={"player": "ann"}).json()
    assert (deck["learned"], deck["new"], deck["due"]) == (len(cut), 0, 0)
    assert client.get("/api/puzzles/next", params={"player": "ann"}).json() == {"puzzle": None}
    wrong = client.post("/api/puzzles/answer", json={"player": "bob", "puzzle": tried[0],
                                                     "reply": "8Z NOTAMOVE"}).json()
    assert not wrong["correct"] and wrong["error"] and wrong["rating"] < 1500
    assert client.post("/api/puzzles/answer", json={"player": "bob", "puzzle": 9999,
                                                    "reply": "pass"}).status_code == 404
    tagged = client.get("/api/puzzles/next", params={"player": "bob", "tag": "BINGO"}).json()
    assert "BINGO" in tagged["puzzle"]["tags"]
    assert client.get("/api/puzzles/next", params={"player": "bob", "tag": "NOPE"}
                      ).status_code == 400


@pytest.mark.parametrize(("field", "value", "status"), [
    ("reply", "x" * 200, 404), ("reply", "x" * 201, 422), ("puzzle", 0, 422),
    ("seconds", 86_400, 404), ("seconds", 86_401, 422), ("player", "a" * 41, 422),
])
def test_puzzle_answer_limits(app_client: tuple[object, TestClient], field: str,
                              value: object, status: int) -> None:
    _, client = app_client
    body = {"player": "ann", "puzzle": 7, "reply": "pass", "seconds": 1.0, field: value}
    assert client.post("/api/puzzles/answer", json=body).status_code == status


def test_a_puzzle_of_ones_own_in_the_deck(app_client: tuple[object, TestClient]) -> None:
    """A worst turn's puzzle in a deck: asked with its position, graded by
    the judge's answers."""
    from rackety.game.gcg import read_gcg
    from rackety.study.puzzles import from_record

    app, client = app_client
    store = app.state.service.store  # type: ignore[attr-defined]
    gcg = (Path(__file__).parent / "data" / "gcg" / "phony_stood.gcg").read_text()
    puzzle = next(p for p in from_record(read_gcg(gcg, source="g"), Lexicon.load("TWL06"),
                                         name="g") if "BINGO" in p.tags)
    store.study_add(store.player("ann").id, [("puzzle", "TWL06", puzzle.cgp, "g")])
    item = client.get("/api/study/next", params={"player": "ann"}).json()["item"]
    assert item["kind"] == "puzzle" and item["position"]["cgp"] == puzzle.cgp
    assert item["position"]["racks"][0]
    answer = client.post("/api/study/answer", json={
        "player": "ann", "item": item["id"], "reply": puzzle.answers[0]}).json()
    assert answer["correct"] and answer["answers"] == list(puzzle.answers)
