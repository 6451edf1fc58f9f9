"""The web page in a real browser (issue 6): Debian's Chromium driven by
Playwright, against ``rackety serve`` run as a subprocess.

Without /usr/bin/chromium (or Playwright) these tests skip, unless
RACKETY_REQUIRE_BROWSER=1 (as in CI), when they fail. Screenshots of the play
and analysis views go to $RACKETY_ARTIFACTS (default: test-artifacts/ at the
repository root).
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from web_server import ServerHandle, multi_codes, opening, start_server

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path(os.environ.get("RACKETY_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
VIEWPORT = {"width": 1400, "height": 900}
GCG_FILE = ROOT / "tests" / "data" / "gcg" / "double_challenge.gcg"
# 8D KORAI is on the board; the rack EIOMNEH to move (TWL06)
CGP = "15/15/15/15/15/15/15/3KORAI7/15/15/15/15/15/15/15 EIOMNEH/ 28/0 0 lex TWL06;"

def _unavailable(reason: str) -> None:
    if os.environ.get("RACKETY_REQUIRE_BROWSER") == "1":
        pytest.fail(f"RACKETY_REQUIRE_BROWSER=1 but {reason}")
    pytest.skip(reason)


def artifacts() -> Path:
    folder = Path(os.environ.get("RACKETY_ARTIFACTS") or ROOT / "test-artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# ------------------------------------------------------------------ fixtures
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        _unavailable(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed (pip install playwright)")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS,
                                     headless=True)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[ServerHandle]:
    db = tmp_path_factory.mktemp("web") / "rackety.db"
    # the record's analyses solve their endgames briefly: the pages, not the solver, are tested
    handle = start_server(db, args=["--search-seconds", "0.3"])
    yield handle
    handle.stop()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # what the page's Content-Security-Policy blocks is said on the console
    page.on("console", lambda message: errors.append(message.text)
            if "Content Security Policy" in message.text else None)
    yield page
    context.close()
    assert errors == [], f"uncaught errors in the page: {errors}"


# ------------------------------------------------------------------- helpers
def idle(page: Any) -> None:
    """Wait until the page has no request to the game in flight."""
    page.wait_for_selector('body[data-busy="0"]', state="attached")


def new_game(page: Any, server: ServerHandle, level: str = "greedy", seed: int = 1,
             lexicon: str | None = None) -> int:
    """Start a game against one computer player from the form, with the bag of
    ``seed`` (the tests do not depend on luck) and ``lexicon`` (else the
    default); its id."""
    page.goto(f"{server.url}/#play")
    page.wait_for_selector('[data-testid="opp-level-0"] option', state="attached")
    if lexicon is not None:
        page.select_option('[data-testid="opt-lexicon"]', lexicon)
    page.select_option('[data-testid="opp-level-0"]', level)
    page.fill('[data-testid="opt-seed"]', str(seed))
    page.click('[data-testid="btn-start"]')
    page.wait_for_url("**/#game/*")
    page.wait_for_selector('[data-testid="rack-tile"]')
    idle(page)
    return int(page.url.rsplit("/", 1)[1])


def written_cgp(page: Any, pattern: str) -> str:
    """The CGP box once the server has written the board editor's position in
    it (its text matching the regular expression ``pattern``)."""
    selector = '[data-testid="cgp-input"]'
    page.wait_for_function("([sel, re]) => new RegExp(re).test(document.querySelector(sel).value)",
                           arg=[selector, pattern])
    return str(page.input_value(selector))


def hint_rows(page: Any) -> list[dict[str, Any]]:
    """Click Hint and read the hints the page lists."""
    page.click('[data-testid="btn-hint"]')
    page.wait_for_selector('[data-testid="hint-card"]', state="visible")
    idle(page)
    rows = []
    for row in page.locator('[data-testid="hint-row"]').all():
        rows.append({"move": row.get_attribute("data-move"),
                     "kind": row.get_attribute("data-kind"),
                     "tiles": json.loads(row.get_attribute("data-tiles") or "[]"),
                     "exchange": row.get_attribute("data-exchange") or ""})
    return rows


def rack_tile(page: Any, tile: dict[str, Any]) -> Any:
    letter = "?" if tile["blank"] else tile["letter"]
    return page.locator(f'[data-testid="rack-tile"][data-letter="{letter}"]').first


def square(page: Any, row: int, col: int) -> Any:
    return page.locator(f'[data-testid="game-board"] [data-testid="sq-{row}-{col}"]')


def pick_blank(page: Any, tile: dict[str, Any]) -> None:
    if tile["blank"]:
        page.click(f'[data-testid="letter-picker"] [data-testid="pick-{tile["letter"]}"]')
        page.wait_for_selector('[data-testid="letter-picker"]', state="hidden")


def place_by_clicking(page: Any, tiles: list[dict[str, Any]]) -> None:
    for tile in tiles:
        rack_tile(page, tile).click()
        square(page, tile["row"], tile["col"]).click()
        pick_blank(page, tile)
    assert page.locator('[data-testid="placed-tile"]').count() == len(tiles)


def submit(page: Any, button: str, path: str) -> None:
    """Click a game button and wait for the server's answer to be drawn."""
    with page.expect_response(lambda r: path in r.url and r.request.method == "POST"):
        page.click(f'[data-testid="{button}"]')
    idle(page)


def board_tiles(page: Any, holder: str = "game-board") -> dict[tuple[int, int], str]:
    """The tiles on the board (not tentative ones), by square."""
    cells = page.eval_on_selector_all(
        f'[data-testid="{holder}"] .sq.filled:not(.overlaid)',
        "els => els.map(e => [+e.dataset.row, +e.dataset.col, e.dataset.letter])")
    return {(r, c): letter for r, c, letter in cells}


def marked_squares(page: Any, holder: str) -> set[tuple[int, int]]:
    cells = page.eval_on_selector_all(
        f'[data-testid="{holder}"] .sq.marked',
        "els => els.map(e => [+e.dataset.row, +e.dataset.col])")
    return {(r, c) for r, c in cells}


def rack_letters(page: Any) -> list[str]:
    return page.eval_on_selector_all('[data-testid="rack-tile"]',
                                     "els => els.map(e => e.dataset.letter)")


def page_unseen(page: Any) -> dict[str, int]:
    """The Unseen panel's tiles: letter -> count, in the page's order."""
    groups = page.eval_on_selector_all(
        '[data-testid="unseen-tiles"] .unseen-group',
        "els => els.map(e => [e.dataset.letter, e.textContent])")
    return {letter: len(text) // len(letter) for letter, text in groups}


def api_board(game: dict[str, Any]) -> dict[tuple[int, int], str]:
    squares = game["board"]["squares"]
    return {(r, c): t["letter"] for r, row in enumerate(squares)
            for c, t in enumerate(row) if t}


def page_scores(page: Any, seats: int) -> list[int]:
    return [int(page.inner_text(f'[data-testid="score-{s}"]')) for s in range(seats)]


def play_top_hint(page: Any) -> bool:
    """Play the first placement among the hints by clicking; else exchange or
    pass with the buttons. Whether a placement was played."""
    hints = hint_rows(page)
    placement = next((h for h in hints if h["kind"] == "place" and h["tiles"]), None)
    if placement is not None:
        place_by_clicking(page, placement["tiles"])
        submit(page, "btn-play", "/play")
        return True
    exchange = next((h for h in hints if h["kind"] == "exchange"), None)
    if exchange is not None and page.is_enabled('[data-testid="btn-exchange"]'):
        page.click('[data-testid="btn-exchange"]')
        # the tiles to give back, as a rack string: multi-letter tiles in brackets
        for multi, single in re.findall(r"\[([^\]]+)\]|(.)", exchange["exchange"]):
            page.locator(f'[data-testid="rack-tile"][data-letter="{multi or single}"]'
                         ":not(.to-exchange)").first.click()
        submit(page, "btn-exchange-confirm", "/exchange")
    else:
        submit(page, "btn-pass", "/pass")
    return False


# --------------------------------------------------------------------- tests
def test_play_a_full_game_by_clicking(page: Any, server: ServerHandle) -> None:
    """Start a game against greedy from the page and play it out: every turn
    the hinted move, placed by clicking rack tiles and squares, then Play."""
    started = time.monotonic()
    game_id = new_game(page, server, "greedy")
    shot = False
    for _turn in range(60):
        if page.locator('[data-testid="result"]').is_visible():
            break
        played = play_top_hint(page)
        assert page.locator('[data-testid="play-error"]').is_hidden(), \
            page.inner_text('[data-testid="play-error"]')
        if _turn == 1:  # the Unseen panel: the person's unseen tiles, as the API gives them
            state = server.get_json(f"/api/games/{game_id}")
            assert isinstance(state, dict)
            unseen = state["unseen"]
            assert list(page_unseen(page).items()) == list(unseen["tiles"].items())
            assert page.inner_text('[data-testid="unseen-count"]') == f"({unseen['count']})"
        if played and not shot and page.locator(".sq.last").count():
            # the computer's reply is highlighted on the board
            page.wait_for_timeout(700)  # let its arrival animation finish
            page.screenshot(path=str(artifacts() / "play-board.png"))
            shot = True
    else:
        pytest.fail("the game did not end in 60 turns")
    assert shot
    page.wait_for_selector('[data-testid="result"]', state="visible")
    game = server.get_json(f"/api/games/{game_id}")
    assert isinstance(game, dict)
    assert game["status"] == "over"
    scores = [p["score"] for p in game["players"]]
    assert page_scores(page, len(scores)) == scores
    standings = {int(row.get_attribute("data-seat")): int(row.get_attribute("data-score"))
                 for row in page.locator('[data-testid="standing-row"]').all()}
    assert standings == dict(enumerate(scores))
    assert page.locator('[data-testid="event-row"]').count() == len(game["events"])
    assert board_tiles(page) == api_board(game)
    assert page.is_disabled('[data-testid="btn-play"]')
    page.wait_for_timeout(700)  # the last play's arrival animation
    page.screenshot(path=str(artifacts() / "play-result.png"))
    # the finished game is rated and listed
    page.click('[data-testid="nav-rankings"]')
    page.wait_for_selector('[data-testid="recent-game"]')
    names = [r.get_attribute("data-name") for r in
             page.locator('[data-testid="ranking-row"]').all()]
    assert "you" in names and "greedy" in names
    page.click('[data-testid="nav-games"]')
    page.wait_for_selector(f'[data-testid="game-row"][data-id="{game_id}"]')
    assert time.monotonic() - started < 120


def test_a_game_on_a_clock_shows_the_clocks_counting_down(page: Any,
                                                          server: ServerHandle) -> None:
    """The form's game clock (5 minutes): the championship level says it plays
    on the clock; each player's time left shows as m:ss, the person's counting
    down between states, the computer's as the server says after its move."""
    page.goto(f"{server.url}/#play")
    page.wait_for_selector('[data-testid="opp-level-0"] option', state="attached")
    page.select_option('[data-testid="opp-level-0"]', "best")
    page.select_option('[data-testid="opt-clock"]', "300")
    assert "plays on the game clock" in page.inner_text('[data-testid="opponent"]')
    assert page.locator('[data-testid="opp-seconds-0"]').count() == 0
    game_id = new_game(page, server, "greedy", seed=3)  # the clock stays chosen
    state = server.get_json(f"/api/games/{game_id}")
    assert isinstance(state, dict) and state["clock"]["seconds"] == 300
    first = page.inner_text('[data-testid="clock-0"]')
    assert re.fullmatch(r"[45]:[0-5][0-9]", first), first
    page.wait_for_function("() => document.querySelector('[data-testid=\"clock-0\"]')"
                           ".textContent !== " + json.dumps(first))
    assert page.inner_text('[data-testid="clock-1"]') == "5:00"
    play_top_hint(page)
    state = server.get_json(f"/api/games/{game_id}")
    assert isinstance(state, dict)
    shown = page.inner_text('[data-testid="clock-1"]')
    left = state["clock"]["left"][1]
    assert shown == f"{int(left) // 60}:{int(left) % 60:02d}"
    assert "over" not in (page.get_attribute('[data-testid="clock-0"]', "class") or "")


def test_why_the_championship_player_moved_stays_on_a_reload(page: Any,
                                                           server: ServerHandle) -> None:
    """The reason line of the best level's move shows under the move in the
    game's events, and again after the page is loaded anew."""
    page.goto(f"{server.url}/#play")
    page.wait_for_selector('[data-testid="opp-level-0"] option', state="attached")
    page.select_option('[data-testid="opp-level-0"]', "best")
    page.fill('[data-testid="opp-seconds-0"]', "0.2")
    page.fill('[data-testid="opt-seed"]', "5")
    page.click('[data-testid="btn-start"]')
    page.wait_for_url("**/#game/*")
    page.wait_for_selector('[data-testid="rack-tile"]')
    idle(page)
    game_id = int(page.url.rsplit("/", 1)[1])
    play_top_hint(page)
    state = server.get_json(f"/api/games/{game_id}")
    assert isinstance(state, dict)
    whys = [e["why"] for e in state["events"] if e["why"]]
    assert len(whys) == 1 and whys[0].startswith("best 0.2s chose by "), state["events"]
    assert page.inner_text('[data-testid="event-why"]') == whys[0]
    page.reload()
    page.wait_for_selector('[data-testid="event-why"]')
    assert page.inner_text('[data-testid="event-why"]') == whys[0]


def test_analyse_a_pasted_cgp_shows_the_top_move(page: Any, server: ServerHandle) -> None:
    page.goto(f"{server.url}/#analyse")
    page.wait_for_selector('[data-testid="analysis-board"] [data-testid="sq-7-7"]')
    page.fill('[data-testid="cgp-input"]', CGP)
    page.click('[data-testid="btn-analyze"]')
    page.wait_for_selector('[data-testid="move-row"]')
    status, data = server.request("POST", "/api/analyze",
                                  {"cgp": CGP, "top": 15, "detail": True})
    assert status == 200 and isinstance(data, dict)
    moves = data["moves"]
    rows = page.locator('[data-testid="move-row"]')
    assert rows.count() == len(moves)
    assert [r.get_attribute("data-move") for r in rows.all()] == [m["move"] for m in moves]
    # the top move is on the board, highlighted, with its tiles
    top = moves[0]
    assert marked_squares(page, "analysis-board") == {tuple(sq) for sq in top["squares"]}
    for t in top["tiles"]:
        sq = page.locator(f'[data-testid="analysis-board"] [data-testid="sq-{t["row"]}-'
                          f'{t["col"]}"]')
        assert sq.get_attribute("data-letter") == t["letter"]
    assert "pinned" in (rows.first.get_attribute("class") or "")
    # the page says which leave values the equity adds (TWL06's shipped table)
    assert data["leaves"] == "TWL06's shipped table"
    assert f"leave values: {data['leaves']}" in \
        page.locator('[data-testid="moves-count"]').inner_text()
    page.mouse.move(0, 0)
    page.screenshot(path=str(artifacts() / "analysis.png"))
    # hovering another move shows it instead; clicking one pins it
    rows.nth(3).hover()
    assert marked_squares(page, "analysis-board") == {tuple(sq) for sq in moves[3]["squares"]}
    rows.nth(2).click()
    page.mouse.move(0, 0)
    assert marked_squares(page, "analysis-board") == {tuple(sq) for sq in moves[2]["squares"]}
    # a short simulation
    page.fill('[data-testid="sim-seconds"]', "0.5")
    page.fill('[data-testid="sim-candidates"]', "4")
    page.click('[data-testid="btn-simulate"]')
    page.wait_for_selector('[data-testid="sim-row"]', timeout=60_000)
    sim_rows = page.locator('[data-testid="sim-row"]')
    assert sim_rows.count() == 4
    win = float(sim_rows.first.locator('[data-testid="win-pct"]').inner_text().split()[0])
    assert 0 <= win <= 100
    assert int(sim_rows.first.locator('[data-testid="iterations"]').inner_text()) > 0


def test_edit_a_board_and_analyse_it(page: Any, server: ServerHandle) -> None:
    page.goto(f"{server.url}/#analyse")
    page.wait_for_selector('[data-testid="analysis-board"] [data-testid="sq-7-7"]')
    page.check('[data-testid="edit-toggle"]')
    page.click('[data-testid="analysis-board"] [data-testid="sq-7-3"]')
    page.keyboard.type("KORA")
    page.keyboard.press("Shift+I")  # a blank standing for I
    page.fill('[data-testid="edit-rack"]', "eiomneh")
    cgp = written_cgp(page, " EIOMNEH/ ")
    assert cgp.split()[:4] == ["15/15/15/15/15/15/15/3KORAi7/15/15/15/15/15/15/15",
                               "EIOMNEH/", "0/0", "0"]
    page.click('[data-testid="btn-analyze"]')
    page.wait_for_selector('[data-testid="move-row"]')
    status, data = server.request("POST", "/api/analyze", {"cgp": cgp, "top": 1,
                                                           "detail": True})
    assert status == 200 and isinstance(data, dict)
    assert page.locator('[data-testid="move-row"]').first.get_attribute("data-move") == \
        data["moves"][0]["move"]
    # a position the server refuses: its reason, and no analysis of the CGP before
    page.fill('[data-testid="edit-rack"]', "zz")
    error = page.locator('[data-testid="analyse-error"]')
    error.wait_for(state="visible")
    assert "distribution has 1" in error.inner_text()
    assert page.input_value('[data-testid="cgp-input"]') == cgp
    page.click('[data-testid="btn-analyze"]')
    idle(page)
    page.wait_for_timeout(500)
    assert "distribution has 1" in error.inner_text()
    assert page.locator('[data-testid="move-row"]').count() == 0


def test_place_by_drag_and_drop_and_reorder_the_rack(page: Any,
                                                      server: ServerHandle) -> None:
    game_id = new_game(page, server, "greedy")
    # reorder: the first tile dropped on the last goes just before it
    before = rack_letters(page)
    tiles = page.locator('[data-testid="rack-tile"]')
    tiles.first.drag_to(tiles.last)
    assert rack_letters(page) == before[1:-1] + [before[0], before[-1]]
    # place the top placement by dragging each tile onto its square
    hints = hint_rows(page)
    move = next(h for h in hints if h["kind"] == "place")
    for tile in move["tiles"]:
        rack_tile(page, tile).drag_to(square(page, tile["row"], tile["col"]))
        pick_blank(page, tile)
    assert page.locator('[data-testid="placed-tile"]').count() == len(move["tiles"])
    submit(page, "btn-play", "/play")
    game = server.get_json(f"/api/games/{game_id}")
    assert isinstance(game, dict)
    mine = [e for e in game["events"] if e["seat"] == game["human"]]
    assert mine[0]["move"] is not None
    on_board = board_tiles(page)
    for tile in move["tiles"]:
        assert on_board[(tile["row"], tile["col"])] == tile["letter"]
    assert on_board == api_board(game)


def test_type_a_move_with_the_keyboard(page: Any, server: ServerHandle) -> None:
    """Click a square, an arrow for the direction, type the letters, Enter."""
    game_id = new_game(page, server, "greedy")
    move = next(h for h in hint_rows(page) if h["kind"] == "place")
    tiles = sorted(move["tiles"], key=lambda t: (t["row"], t["col"]))
    first = tiles[0]
    square(page, first["row"], first["col"]).click()
    down = len({t["row"] for t in tiles}) > 1
    if down:  # the cursor starts across; the arrow turns it (a second press would move it)
        page.keyboard.press("ArrowDown")
    cursor = square(page, first["row"], first["col"]).locator(".cursor-arrow")
    assert cursor.get_attribute("class") == f"cursor-arrow {'down' if down else 'across'}"
    page.keyboard.type("".join(t["letter"].lower() for t in tiles))
    placed = page.eval_on_selector_all(
        '[data-testid="game-board"] .sq.overlaid',
        "els => els.map(e => [+e.dataset.row, +e.dataset.col, e.dataset.letter])")
    assert sorted(placed) == sorted([t["row"], t["col"], t["letter"]] for t in tiles)
    with page.expect_response(lambda r: r.url.endswith("/play")):
        page.keyboard.press("Enter")
    idle(page)
    game = server.get_json(f"/api/games/{game_id}")
    assert isinstance(game, dict)
    assert board_tiles(page) == api_board(game)
    assert game["events"][0]["seat"] == game["human"] and game["events"][0]["kind"] == "play"


def test_an_illegal_move_shows_the_server_message(page: Any, server: ServerHandle) -> None:
    game_id = new_game(page, server, "greedy")
    rack = rack_letters(page)
    letter = next(x for x in rack if x != "?")
    # a first move off the centre square
    page.locator(f'[data-testid="rack-tile"][data-letter="{letter}"]').first.click()
    square(page, 0, 0).click()
    with page.expect_response(lambda r: r.url.endswith("/play")) as answer:
        page.click('[data-testid="btn-play"]')
    assert answer.value.status == 400
    error = page.locator('[data-testid="play-error"]')
    error.wait_for(state="visible")
    status, body = server.request("POST", f"/api/games/{game_id}/play", {
        "tiles": [{"row": 0, "col": 0, "letter": letter, "blank": False}]})
    assert status == 400 and isinstance(body, dict)
    assert error.inner_text().strip() == body["detail"]
    # the tile stays where it was put; a click takes it back
    assert page.locator('[data-testid="placed-tile"]').count() == 1
    square(page, 0, 0).click()
    assert page.locator('[data-testid="placed-tile"]').count() == 0
    assert sorted(rack_letters(page)) == sorted(rack)


def test_exchange_pass_challenge_and_undo_with_the_buttons(page: Any,
                                                          server: ServerHandle) -> None:
    game_id = new_game(page, server, "greedy")
    rack = rack_letters(page)
    page.click('[data-testid="btn-exchange"]')
    assert page.is_visible('[data-testid="exchange-bar"]')
    tiles = page.locator('[data-testid="rack-tile"]')
    tiles.nth(0).click()
    tiles.nth(1).click()
    submit(page, "btn-exchange-confirm", "/exchange")
    game = server.get_json(f"/api/games/{game_id}")
    assert isinstance(game, dict)
    assert game["events"][0]["kind"] == "exchange"
    assert sorted(game["events"][0]["rack"]) == sorted(rack)
    assert len(rack_letters(page)) == 7
    kinds = page.eval_on_selector_all('[data-testid="event-row"]',
                                      "els => els.map(e => e.dataset.kind)")
    assert kinds == [e["kind"] for e in game["events"]]
    # the computer has played: challenge it (a good play: the challenger loses the turn)
    assert page.is_enabled('[data-testid="btn-challenge"]')
    submit(page, "btn-challenge", "/challenge")
    game = server.get_json(f"/api/games/{game_id}")
    assert isinstance(game, dict)
    assert "lost_turn" in [e["kind"] for e in game["events"]]
    submit(page, "btn-pass", "/pass")
    game = server.get_json(f"/api/games/{game_id}")
    assert isinstance(game, dict)
    assert [e["kind"] for e in game["events"] if e["seat"] == game["human"]][-1] == "pass"
    # undo goes back to the human's previous turn, as the server says
    submit(page, "btn-undo", "/undo")
    game = server.get_json(f"/api/games/{game_id}")
    assert isinstance(game, dict)
    assert page.locator('[data-testid="event-row"]').count() == len(game["events"])
    assert sorted(rack_letters(page)) == sorted(t["letter"] for t in game["rack"])
    assert board_tiles(page) == api_board(game)


def test_resume_a_game_after_a_restart(page: Any, tmp_path: Path) -> None:
    db = tmp_path / "resume.db"
    first = start_server(db)
    try:
        game_id = new_game(page, first, "greedy")
        assert play_top_hint(page)
        tiles = board_tiles(page)
        rack = sorted(rack_letters(page))
        scores = page_scores(page, 2)
        assert tiles and len(rack) == 7
    finally:
        first.stop()
    second = start_server(db)
    try:
        page.goto(f"{second.url}/#game/{game_id}")
        page.wait_for_selector('[data-testid="rack-tile"]')
        idle(page)
        assert board_tiles(page) == tiles
        assert sorted(rack_letters(page)) == rack
        assert page_scores(page, 2) == scores
        # and it goes on
        assert play_top_hint(page)
        game = second.get_json(f"/api/games/{game_id}")
        assert isinstance(game, dict)
        assert board_tiles(page) == api_board(game)
    finally:
        second.stop()


def test_step_through_a_gcg(page: Any, server: ServerHandle) -> None:
    text = GCG_FILE.read_text(encoding="utf-8")
    status, data = server.request("POST", "/api/gcg/analyze", {"gcg": text})
    assert status == 200 and isinstance(data, dict)
    turns = data["turns"]
    page.goto(f"{server.url}/#analyse")
    page.click('[data-testid="tab-gcg"]')
    page.locator('[data-testid="gcg-file"]').set_input_files(str(GCG_FILE))
    page.wait_for_selector('[data-testid="turn-item"]')
    assert page.locator('[data-testid="turn-item"]').count() == len(turns) + 1  # + final
    assert page.locator('[data-testid="summary-row"]').count() == len(data["summary"])
    counter = page.locator('[data-testid="turn-counter"]')
    for i, turn in enumerate(turns):
        assert counter.inner_text() == f"turn {i + 1} of {len(turns)}"
        lost = turn["equity_lost"]
        shown = page.inner_text('[data-testid="turn-lost"]')
        assert shown == ("—" if lost is None else f"{lost:.1f}")
        # the board before the move, with the move played on it
        assert board_tiles(page, "gcg-board") == api_board(turn)
        played = turn["played"]
        want = {tuple(sq) for sq in played["squares"]} if played else set()
        assert marked_squares(page, "gcg-board") == want
        if lost:
            page.click('[data-testid="btn-show-best"]')
            best = {tuple(sq) for sq in turn["best"]["squares"]}
            assert marked_squares(page, "gcg-board") == best
            if i == 2:
                page.screenshot(path=str(artifacts() / "analysis-gcg.png"))
            page.click('[data-testid="btn-show-played"]')
        page.click('[data-testid="btn-next"]')
    assert counter.inner_text() == "final position"
    page.click('[data-testid="btn-prev"]')
    assert counter.inner_text() == f"turn {len(turns)} of {len(turns)}"
    # the turn list jumps
    worst = max(range(len(turns)), key=lambda i: turns[i]["equity_lost"] or 0)
    page.click(f'[data-testid="turn-item"][data-index="{worst}"]')
    assert page.inner_text('[data-testid="turn-lost"]') == f"{turns[worst]['equity_lost']:.1f}"


def test_import_a_gcg_and_view_it(page: Any, server: ServerHandle) -> None:
    page.goto(f"{server.url}/#games")
    page.locator('[data-testid="import-file"]').set_input_files(str(GCG_FILE))
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"import-text\"]').value.length > 0")
    page.click('[data-testid="btn-import"]')
    page.wait_for_url("**/#game/*")
    game_id = int(page.url.rsplit("/", 1)[1])
    game = server.get_json(f"/api/games/{game_id}")
    assert isinstance(game, dict) and game["status"] == "record"
    page.wait_for_selector('[data-testid="game-board"] .sq.filled')
    assert board_tiles(page) == api_board(game)
    assert page.locator('[data-testid="controls"]').is_hidden()
    assert page_scores(page, 2) == [p["score"] for p in game["players"]]
    page.click('[data-testid="nav-games"]')
    page.wait_for_selector(f'[data-testid="game-row"][data-id="{game_id}"]')


def test_upload_an_unfinished_game_and_go_on_with_it(page: Any, server: ServerHandle) -> None:
    unfinished = ROOT / "tests" / "data" / "gcg" / "incomplete.gcg"
    page.goto(f"{server.url}/#games")
    page.locator('[data-testid="import-file"]').set_input_files(str(unfinished))
    page.wait_for_selector('[data-testid="import-play-as"] option[value="eve"]',
                           state="attached")
    page.select_option('[data-testid="import-play-as"]', "eve")
    page.click('[data-testid="btn-import"]')
    page.wait_for_url("**/#game/*")
    game_id = int(page.url.rsplit("/", 1)[1])
    page.wait_for_selector('[data-testid="rack-tile"]')
    idle(page)
    game = server.get_json(f"/api/games/{game_id}")
    assert isinstance(game, dict) and game["status"] == "playing"
    assert game["players"][game["human"]]["name"] == "Eve"
    assert board_tiles(page) == api_board(game)  # the record's moves are on the board
    assert len(game["events"]) == 4
    play_top_hint(page)  # and the game goes on: Eve moves, the computer answers
    after = server.get_json(f"/api/games/{game_id}")
    assert isinstance(after, dict) and len(after["events"]) >= 6
    assert board_tiles(page) == api_board(after)


def test_open_a_game_report(page: Any, server: ServerHandle, tmp_path: Path) -> None:
    """The game view's Game report link opens the stored game's report: an SVG
    board for each turn with a mistake, drawn over the one empty board, and a
    chart with one mark per turn; saved to a file,
    the page draws the same offline, asking for nothing but itself."""
    text = GCG_FILE.read_text(encoding="utf-8")
    status, state = server.request("POST", "/api/gcg/import", {"gcg": text})
    assert status == 201 and isinstance(state, dict)
    status, analysis = server.request("POST", "/api/gcg/analyze", {"gcg": text})
    assert status == 200 and isinstance(analysis, dict)
    turns = sum(t["kind"] in ("play", "exchange", "pass") for t in analysis["turns"])
    page.goto(f"{server.url}/#game/{state['id']}")
    page.wait_for_selector('[data-testid="game-board"] .sq.filled')
    link = page.locator('[data-testid="btn-report"]')
    assert link.get_attribute("href") == f"/api/games/{state['id']}/report"
    with page.context.expect_page() as opened:
        link.click()
    report = opened.value
    errors: list[str] = []
    report.on("pageerror", lambda exc: errors.append(str(exc)))
    report.on("console", lambda message: errors.append(message.text)
              if "Content Security Policy" in message.text else None)
    report.wait_for_load_state()

    def drawn(target: Any) -> dict[str, Any]:
        return target.evaluate("""() => ({
          boards: [...document.querySelectorAll('figure.board > svg')].map(
            s => [s.getBoundingClientRect().width, s.querySelectorAll('rect.tile').length]),
          flagged: document.querySelectorAll('section.turn.mistake').length,
          grounds: [...document.querySelectorAll('figure.board > svg > use')].map(
            u => u.getBBox().width),
          marks: [...document.querySelectorAll('svg.chart rect.mark')].map(
            m => [+m.dataset.turn, m.dataset.lost === undefined ? null : +m.dataset.lost,
                  m.getBBox().height, m.getBoundingClientRect().width]),
          chart: document.querySelector('svg.chart').getBoundingClientRect().height,
        })""")

    shown = drawn(report)
    assert turns == 10 and 0 < len(shown["boards"]) == shown["flagged"] <= turns
    assert all(width > 150 for width, _tiles in shown["boards"])
    # each board its tiles over the empty board (drawn once, referred to)
    assert len(shown["grounds"]) == len(shown["boards"]) and min(shown["grounds"]) > 150
    tiles = [n for _w, n in shown["boards"]]
    assert all(0 < n <= len(api_board(state)) + 7 for n in tiles)  # a phony before it went
    assert shown["chart"] > 100
    marks = shown["marks"]
    assert [m[0] for m in marks] == list(range(1, turns + 1))
    assert all(height > 0 and width > 0 for _t, _lost, height, width in marks)
    assessed = [(lost, height) for _t, lost, height, _w in marks if lost is not None]
    assert assessed and max(assessed)[1] == max(h for _l, h in assessed)  # bars to scale
    report.screenshot(path=str(artifacts() / "game-report.png"))
    # the same page from a file: drawn the same, nothing else requested
    status, html = server.request("GET", f"/api/games/{state['id']}/report")
    assert status == 200 and isinstance(html, str)
    saved = tmp_path / "report.html"
    saved.write_text(html, encoding="utf-8")
    requested: list[str] = []
    report.on("request", lambda r: requested.append(r.url))
    report.goto(saved.as_uri())
    again = drawn(report)
    assert len(again["boards"]) == len(shown["boards"]) and len(again["marks"]) == turns
    assert requested == [saved.as_uri()]
    report.close()
    assert errors == []


PHONE = {"width": 390, "height": 844}


def _page_width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def _board_fits(page: Any, holder: str) -> None:
    """The board is drawn whole inside the phone's width."""
    box = page.locator(f'[data-testid="{holder}"] .board').bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


def test_the_page_fits_a_phone_and_the_example_analyses(browser: Any,
                                                         server: ServerHandle) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        # play: the new-game form, then a game with its board, rack and hints
        page.goto(f"{server.url}/#play")
        page.wait_for_selector('[data-testid="opp-level-0"] option', state="attached")
        assert _page_width(page) <= PHONE["width"], "the new-game form is too wide"
        game_id = new_game(page, server)
        hints = hint_rows(page)
        assert hints and _page_width(page) <= PHONE["width"], "the game page is too wide"
        _board_fits(page, "game-board")
        tiles = page.locator('[data-testid="rack-tile"]').all()
        assert len(tiles) == 7
        for tile in tiles:  # the whole rack on screen
            box = tile.bounding_box()
            assert box is not None and box["x"] + box["width"] <= PHONE["width"]
        page.goto(f"{server.url}/#games")
        row = page.locator(f'[data-testid="game-row"][data-id="{game_id}"]')
        row.wait_for()
        assert row.locator('[data-testid="game-to-move"]').inner_text().strip() == \
            "you to move"  # as the game page says
        assert _page_width(page) <= PHONE["width"], "the games list is too wide"
        # analysis: Analyse on the untouched form analyses the example it shows
        page.goto(f"{server.url}/#analyse")
        page.wait_for_selector('[data-testid="analysis-board"] [data-testid="sq-7-7"]')
        assert _page_width(page) <= PHONE["width"], "the analysis page is too wide"
        example = page.locator('[data-testid="cgp-input"]').get_attribute("placeholder") or ""
        assert page.locator('[data-testid="cgp-input"]').input_value() == ""
        page.click('[data-testid="btn-analyze"]')
        page.wait_for_selector('[data-testid="move-row"]')
        assert page.locator('[data-testid="analyse-error"]').is_hidden()
        status, data = server.request("POST", "/api/analyze",
                                      {"cgp": example, "top": 15, "detail": True})
        assert status == 200 and isinstance(data, dict) and data["moves"]
        rows = page.locator('[data-testid="move-row"]')
        assert [r.get_attribute("data-move") for r in rows.all()] == \
            [m["move"] for m in data["moves"]]
        assert page.locator('[data-testid="cgp-input"]').input_value() == example
        assert _page_width(page) <= PHONE["width"], "the analysed position is too wide"
        _board_fits(page, "analysis-board")
        page.screenshot(path=str(artifacts() / "analysis-phone.png"), full_page=True)
        # a game record turn by turn
        page.click('[data-testid="tab-gcg"]')
        page.fill('[data-testid="gcg-input"]', GCG_FILE.read_text())
        page.click('[data-testid="btn-gcg-analyze"]')
        page.wait_for_selector('[data-testid="turn-info"]', state="visible")
        assert _page_width(page) <= PHONE["width"], "the record's analysis is too wide"
    finally:
        context.close()
    assert errors == [], f"uncaught errors in the page: {errors}"


# ---------------------------------------------------------- other languages
SPANISH_WORDS = ROOT / "tests" / "data" / "words_spanish_small.txt"
CATALAN_WORDS = ROOT / "tests" / "data" / "words_catalan_small.txt"


@pytest.fixture(scope="module")
def languages(tmp_path_factory: pytest.TempPathFactory,
              browser: Any) -> Iterator[tuple[ServerHandle, dict[str, Any]]]:
    """A server offering a Spanish and a Catalan word list (``--lexicon
    FILE:spanish``, as ES, and CA), and those lexicons by name."""
    from rackety import Lexicon

    folder = tmp_path_factory.mktemp("web-languages")
    lexicons, args = {}, []
    for name, words, alphabet in (("ES", SPANISH_WORDS, "spanish"),
                                  ("CA", CATALAN_WORDS, "catalan")):
        path = folder / f"{name.lower()}.txt"
        path.write_bytes(words.read_bytes())
        lexicons[name] = Lexicon.load(str(path), alphabet)  # into the cache the server reads
        args += ["--lexicon", f"{path}:{alphabet}"]
    handle = start_server(folder / "rackety.db", args=args)
    yield handle, lexicons
    handle.stop()


@pytest.fixture
def spanish(languages: tuple[ServerHandle, dict[str, Any]]) -> tuple[ServerHandle, Any]:
    return languages[0], languages[1]["ES"]


def _placed(alphabet: Any, move: Any) -> list[dict[str, Any]]:
    from rackety.alphabet import BLANK_FLAG

    return [{"row": r, "col": c, "letter": alphabet.tiles[code & ~BLANK_FLAG].label,
             "blank": bool(code & BLANK_FLAG)}
            for (r, c), code in zip(move.placed_squares(), move.placed, strict=True)]


def test_a_spanish_game_a_blank_as_ch_and_tiles_of_two_letters(
        page: Any, spanish: tuple[ServerHandle, Any]) -> None:
    """The lexicon chooser offers the Spanish list; CH, LL, RR are one tile on
    the rack and the board; a blank asks which tile it is, CH LL RR Ñ among them,
    and takes one typed (C then H)."""
    server, lexicon = spanish
    alphabet = lexicon.alphabet
    multi = multi_codes(alphabet)

    def wanted(game: Any, move: Any) -> bool:
        return any(c & 0x80 and c & 0x7F in multi for c in move.placed) and \
            any(c in multi for c in game.racks[0])

    seed, move = opening(lexicon, wanted)
    page.goto(f"{server.url}/#play")
    page.wait_for_selector('[data-testid="opt-lexicon"] option[value="ES"]', state="attached")
    assert page.inner_text('[data-testid="opt-lexicon"] option[value="ES"]') == "ES (spanish)"
    page.select_option('[data-testid="opt-lexicon"]', "ES")
    note = page.inner_text('[data-testid="opt-lexicon-note"]')
    assert "CH LL RR are one tile each" in note and "[CH] or 1" in note
    game_id = new_game(page, server, "greedy", seed, lexicon="ES")
    assert "ES" in page.inner_text("#game-title")

    # the rack: a tile of two letters is one tile, as wide as the others
    tiles = page.locator('[data-testid="rack-tile"]')
    assert tiles.count() == 7
    two = page.locator('[data-testid="rack-tile"].multi').first
    label = two.get_attribute("data-letter")
    assert label in ("CH", "LL", "RR")
    assert two.locator(".letter").inner_text() == label
    widths = {round(t.bounding_box()["width"]) for t in tiles.all()}
    assert len(widths) == 1

    # the placement, by clicking; the blank asks which tile it stands for
    for tile in _placed(alphabet, move):
        rack_tile(page, tile).click()
        square(page, tile["row"], tile["col"]).click()
        if tile["blank"]:
            page.wait_for_selector('[data-testid="letter-picker"]', state="visible")
            picks = page.eval_on_selector_all(
                '[data-testid="letter-picker"] .pick', "els => els.map(e => e.textContent)")
            assert picks == [t.label for t in alphabet.letters]
            assert {"CH", "LL", "RR", "Ñ"} <= set(picks)
            assert "multi" in (page.get_attribute(
                '[data-testid="pick-CH"]', "class") or "")
            assert "1 for CH" in page.inner_text('[data-testid="picker-hint"]')
            page.screenshot(path=str(artifacts() / "spanish-blank-picker.png"))
            page.keyboard.type(tile["letter"][0].lower())  # C: the start of CH, so it waits
            assert page.is_visible('[data-testid="letter-picker"]')
            assert f"Typed {tile['letter'][0]}" in page.inner_text(
                '[data-testid="picker-hint"]')
            page.keyboard.type(tile["letter"][1].lower())
            page.wait_for_selector('[data-testid="letter-picker"]', state="hidden")
    overlaid = page.eval_on_selector_all(
        '[data-testid="game-board"] .sq.overlaid',
        "els => els.map(e => [+e.dataset.row, +e.dataset.col, e.dataset.letter])")
    assert sorted(overlaid) == sorted([t["row"], t["col"], t["letter"]]
                                      for t in _placed(alphabet, move))
    submit(page, "btn-play", "/play")
    game = server.get_json(f"/api/games/{game_id}")
    assert isinstance(game, dict)
    assert game["events"][0]["move"] == move.notation(alphabet)
    assert board_tiles(page) == api_board(game)
    blank = next(t for t in _placed(alphabet, move) if t["blank"])
    node = square(page, blank["row"], blank["col"]).locator(".tile")
    assert set((node.get_attribute("class") or "").split()) >= {"tile", "blank", "multi"}
    assert node.locator(".letter").inner_text() == blank["letter"].lower()
    page.wait_for_timeout(700)  # the computer's reply arrives
    page.mouse.move(0, 0)
    page.screenshot(path=str(artifacts() / "spanish-board.png"))


def test_type_tiles_of_two_letters_with_the_keyboard(
        page: Any, spanish: tuple[ServerHandle, Any]) -> None:
    """A tile of two letters typed on the board: its digit (1 for CH), or its
    label in brackets ([ch] ... ]); bare C then H is C + H."""
    server, lexicon = spanish
    alphabet = lexicon.alphabet
    multi = multi_codes(alphabet)
    seed, move = opening(lexicon, lambda _g, m: any(c in multi for c in m.placed)
                          and not any(c & 0x80 for c in m.placed))
    game_id = new_game(page, server, "greedy", seed, lexicon="ES")
    tiles = _placed(alphabet, move)
    digits = {"CH": "1", "LL": "2", "RR": "3"}

    def start() -> None:
        square(page, tiles[0]["row"], tiles[0]["col"]).click()
        if move.down:
            page.keyboard.press("ArrowDown")

    def overlaid() -> list[list[Any]]:
        return sorted(page.eval_on_selector_all(
            '[data-testid="game-board"] .sq.overlaid',
            "els => els.map(e => [+e.dataset.row, +e.dataset.col, e.dataset.letter])"))

    expected = sorted([t["row"], t["col"], t["letter"]] for t in tiles)
    start()
    page.keyboard.type("".join(digits.get(t["letter"], t["letter"].lower()) for t in tiles))
    assert overlaid() == expected
    page.keyboard.press("Escape")
    assert overlaid() == []
    start()
    for t in tiles:
        if len(t["letter"]) > 1:
            page.keyboard.type(f"[{t['letter'].lower()}")
            assert "Typed [" in page.inner_text('[data-testid="status-line"]')
            page.keyboard.type("]")
        else:
            page.keyboard.type(t["letter"].lower())
    assert overlaid() == expected
    with page.expect_response(lambda r: r.url.endswith("/play")):
        page.keyboard.press("Enter")
    idle(page)
    game = server.get_json(f"/api/games/{game_id}")
    assert isinstance(game, dict)
    assert game["events"][0]["move"] == move.notation(alphabet)
    assert board_tiles(page) == api_board(game)


def test_analyse_a_spanish_position_edited_by_hand(
        page: Any, spanish: tuple[ServerHandle, Any]) -> None:
    """The analysis in the lexicon's alphabet: the editor's CGP says ld spanish,
    [ch] typed is a tile, the moves show CH as one tile."""
    server, _lexicon = spanish
    page.goto(f"{server.url}/#analyse")
    page.wait_for_selector('[data-testid="analysis-board"] [data-testid="sq-7-7"]')
    page.wait_for_selector('[data-testid="analyse-lexicon"] option[value="ES"]',
                           state="attached")
    page.select_option('[data-testid="analyse-lexicon"]', "ES")
    page.check('[data-testid="edit-toggle"]')  # the cursor on the start square, across
    page.keyboard.type("[ch]E")
    page.fill('[data-testid="edit-rack"]', "a2losre")  # 2: LL
    cgp = written_cgp(page, r" A\[LL\]LOSRE/ ")  # as the server writes it: [LL] one tile
    assert cgp.split()[0] == "15/15/15/15/15/15/15/7[CH]E6/15/15/15/15/15/15/15"
    assert cgp.endswith("ld spanish;")
    page.click('[data-testid="btn-analyze"]')
    page.wait_for_selector('[data-testid="move-row"]')
    assert page.locator('[data-testid="analyse-error"]').is_hidden()
    status, data = server.request("POST", "/api/analyze", {"cgp": cgp, "lexicon": "ES",
                                                           "top": 15, "detail": True})
    assert status == 200 and isinstance(data, dict) and data["moves"]
    rows = page.locator('[data-testid="move-row"]')
    assert [r.get_attribute("data-move") for r in rows.all()] == \
        [m["move"] for m in data["moves"]]
    ch = page.locator('[data-testid="analysis-board"] [data-testid="sq-7-7"]')
    assert ch.get_attribute("data-letter") == "CH"
    assert "multi" in (ch.locator(".tile").get_attribute("class") or "")
    page.mouse.move(0, 0)
    page.screenshot(path=str(artifacts() / "analysis-spanish.png"))


def test_type_catalan_tiles_as_spelled(page: Any,
                                       languages: tuple[ServerHandle, dict[str, Any]]) -> None:
    """Catalan NY, QU and L·L typed letter by letter (L.L for L·L): the letters
    that start one wait until the next key says which tile they are."""
    server, lexicons = languages
    lexicon = lexicons["CA"]
    alphabet = lexicon.alphabet
    multi = multi_codes(alphabet)
    seed, move = opening(lexicon, lambda _g, m: any(c in multi for c in m.placed)
                          and not any(c & 0x80 for c in m.placed))
    game_id = new_game(page, server, "greedy", seed, lexicon="CA")
    tiles = _placed(alphabet, move)
    square(page, tiles[0]["row"], tiles[0]["col"]).click()
    if move.down:
        page.keyboard.press("ArrowDown")
    typed = "".join(t["letter"].lower().replace("·", ".") for t in tiles)
    page.keyboard.type(typed)
    page.keyboard.press("ArrowRight" if not move.down else "ArrowDown")  # ends a pending N
    placed = sorted(page.eval_on_selector_all(
        '[data-testid="game-board"] .sq.overlaid',
        "els => els.map(e => [+e.dataset.row, +e.dataset.col, e.dataset.letter])"))
    assert placed == sorted([t["row"], t["col"], t["letter"]] for t in tiles), typed
    with page.expect_response(lambda r: r.url.endswith("/play")):
        page.keyboard.press("Enter")
    idle(page)
    game = server.get_json(f"/api/games/{game_id}")
    assert isinstance(game, dict)
    assert game["events"][0]["move"] == move.notation(alphabet)


def test_an_endgame_of_a_record_s_turn_stopped_and_of_a_position(
        page: Any, server: ServerHandle) -> None:
    from test_web_endgame import RECORD, TURN, small_endgames

    page.goto(f"{server.url}/#analyse")
    page.click('[data-testid="tab-gcg"]')
    page.fill('[data-testid="gcg-input"]', RECORD)
    page.click('[data-testid="btn-gcg-analyze"]')
    page.click(f'[data-testid="turn-item"][data-index="{TURN - 1}"]')
    page.click('[data-testid="btn-turn-endgame"]')  # exact takes seconds: stopped
    page.wait_for_url("**/#endgame")
    page.wait_for_selector('[data-testid="eg-progress"]:not([hidden])')
    assert "turn 29 of the record" in page.inner_text('[data-testid="eg-about"]')
    page.wait_for_selector('[data-testid="btn-eg-stop"]:not([disabled])')
    time.sleep(0.5)
    page.click('[data-testid="btn-eg-stop"]')
    page.wait_for_selector('[data-testid="eg-row"]', timeout=10_000)
    summary = page.inner_text('[data-testid="eg-summary"]')
    assert "not exact" in summary and "stopped" in summary, summary
    assert page.locator('[data-testid="eg-progress"]').is_hidden()
    rows = page.locator('[data-testid="eg-row"]')
    first = rows.first.get_attribute("data-move")
    assert first and "On the board: " + first in page.inner_text('[data-testid="eg-shown"]')
    if rows.count() > 1:  # the line up to a move: its tiles and those before
        rows.nth(1).click()
        assert rows.nth(1).get_attribute("data-move") in page.inner_text(
            '[data-testid="eg-shown"]')
    # a position's endgame, solved exactly: the server's value and line
    cgp = small_endgames()[0]["cgp"]
    status, data = server.request("POST", "/api/endgame", {"cgp": cgp, "wait": True})
    assert status == 200 and isinstance(data, dict) and data["result"]["exact"]
    page.goto(f"{server.url}/#analyse")
    page.click('[data-testid="tab-position"]')
    page.fill('[data-testid="cgp-input"]', cgp)
    page.click('[data-testid="btn-pos-endgame"]')
    page.wait_for_selector('[data-testid="eg-row"]', timeout=30_000)
    summary = page.inner_text('[data-testid="eg-summary"]')
    value = data["result"]["value"]
    assert f"value {'+' if value > 0 else ''}{value} for the player to move · exact" in summary
    assert [r.get_attribute("data-move") for r in rows.all()] == \
        [m["move"] for m in data["result"]["pv"]]
    page.screenshot(path=str(artifacts() / "endgame.png"))
    # the pre-endgame of turn 27 (three tiles in the bag): a row per candidate
    page.fill('[data-testid="eg-seconds"]', "0.5")
    page.fill('[data-testid="eg-candidates"]', "3")
    page.goto(f"{server.url}/#analyse")
    page.click('[data-testid="tab-gcg"]')
    page.click('[data-testid="turn-item"][data-index="26"]')
    page.click('[data-testid="btn-turn-preendgame"]')
    page.wait_for_selector('[data-testid="eg-win"]', timeout=30_000)
    assert page.text_content('[data-testid="eg-title"]') == "Pre-endgame"
    assert "3 in the bag" in page.inner_text('[data-testid="eg-about"]')
    wins = [float(w.inner_text()) for w in page.locator('[data-testid="eg-win"]').all()]
    assert 1 <= len(wins) <= 3 and all(0 <= w <= 100 for w in wins)
    page.screenshot(path=str(artifacts() / "preendgame.png"))
    # a pre-endgame refused: the reason on the analysis page, which stays
    page.goto(f"{server.url}/#analyse")
    page.click('[data-testid="tab-position"]')
    page.click('[data-testid="btn-pos-preendgame"]')
    page.wait_for_selector('[data-testid="analyse-error"]:not([hidden])')
    assert "1 to 6 tiles in the bag" in page.inner_text('[data-testid="analyse-error"]')
    assert page.url.endswith("#analyse")


# ---------------------------------------------------------------- study
RECORD = ROOT / "tests" / "data" / "gcg" / "phony_stood.gcg"


@contextmanager
def _imported_at_phone_width(browser: Any, db: Path) -> Iterator[tuple[ServerHandle, Any]]:
    """A server of its own with ``RECORD`` imported (its lessons and puzzles
    made in the background), and a page at a phone's width; no error in it."""
    server = start_server(db, args=["--search-seconds", "0.3"])
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        status, _ = server.request("POST", "/api/gcg/import", {"gcg": RECORD.read_text()})
        assert status == 201
        yield server, page
    finally:
        context.close()
        server.stop()
    assert errors == [], f"uncaught errors in the page: {errors}"


def _until(server: ServerHandle, path: str, ready: Callable[[dict[str, Any]], Any],
           seconds: float = 90) -> dict[str, Any]:
    """``GET path`` again until ``ready`` says so (the background work done)."""
    deadline = time.monotonic() + seconds
    while True:
        data = server.get_json(path)
        assert isinstance(data, dict)
        if ready(data) or time.monotonic() > deadline:
            return data
        time.sleep(0.3)


def test_study_the_lessons_of_an_imported_record(browser: Any, tmp_path: Path) -> None:
    """Issue 39: a record imported adds its people's lessons to their decks;
    the Study page, at a phone's width, asks them one at a time, grades the
    reply and counts what is left."""
    from urllib.parse import quote

    from rackety import Lexicon

    with _imported_at_phone_width(browser, tmp_path / "study.db") as (server, page):
        stats = _until(server, f"/api/study?player={quote('Ann Able')}", lambda d: d["new"])
        new = stats["new"]
        assert new >= 3
        page.goto(f"{server.url}/#study")
        page.fill('[data-testid="study-player"]', "Ann Able")
        page.click('[data-testid="btn-study-open"]')
        page.wait_for_selector('[data-testid="study-card"]', state="visible")
        assert f"{new} new" in page.inner_text('[data-testid="study-stats"]')
        prompt = page.inner_text('[data-testid="study-prompt"]').strip()
        assert "every word of these tiles" in page.inner_text('[data-testid="study-meta"]')
        words = Lexicon.load("TWL06").anagrams(prompt)
        page.fill('[data-testid="study-reply"]', " ".join(words).lower())
        page.click('[data-testid="btn-study-answer"]')
        page.wait_for_selector('[data-testid="study-verdict"]')
        assert page.inner_text('[data-testid="study-verdict"]') == "Right"
        assert page.inner_text('[data-testid="study-answers"]').split() == words
        # the progress: the record's Mistake Index as a bar, the answer counted
        page.wait_for_selector('[data-testid="study-accuracy"]:has-text("100 % of 1 (all)")')
        assert page.locator('[data-testid="mi-bar"]').count() == 1
        page.wait_for_selector(f'[data-testid="study-stats"]:has-text("{new - 1} new")')
        assert _page_width(page) <= PHONE["width"], "the Study page is too wide"
        page.click('[data-testid="btn-study-next"]')
        page.wait_for_selector('[data-testid="btn-study-next"]', state="hidden")
        assert page.inner_text('[data-testid="study-prompt"]').strip() != prompt
        # on through the deck to the worst turn's puzzle: its board and rack drawn
        for _ in range(new):
            if "a position of yours" in page.inner_text('[data-testid="study-meta"]'):
                break
            page.fill('[data-testid="study-reply"]', "pass")
            page.click('[data-testid="btn-study-answer"]')
            page.click('[data-testid="btn-study-next"]')
            page.wait_for_selector('[data-testid="btn-study-next"]', state="hidden")
        assert "a position of yours" in page.inner_text('[data-testid="study-meta"]')
        page.wait_for_selector('[data-testid="study-rack"] [data-testid="rack-tile"]')
        assert page.locator('[data-testid="study-board"] .tile').count() > 0
        assert _page_width(page) <= PHONE["width"], "a puzzle in the deck is too wide"
        page.screenshot(path=str(artifacts() / "study-phone.png"), full_page=True)
        page.fill('[data-testid="study-reply"]', "pass")
        page.click('[data-testid="btn-study-answer"]')
        page.wait_for_selector('[data-testid="study-verdict"]')
        assert page.inner_text('[data-testid="study-verdict"]') == "Not quite"


def test_solve_a_puzzle_of_an_imported_record(browser: Any, tmp_path: Path) -> None:
    """Issue 39: a record imported gives its puzzles to the Puzzles page,
    which draws one at a phone's width, grades the move typed, explains it
    and rates the attempt."""
    from urllib.parse import quote

    from rackety import Lexicon
    from rackety.game.gcg import read_gcg
    from rackety.study.puzzles import from_record

    expected = {p.cgp: p for p in from_record(read_gcg(RECORD.read_text(), source="g"),
                                              Lexicon.load("TWL06"), name="g")}
    assert expected
    with _imported_at_phone_width(browser, tmp_path / "puzzles.db") as (server, page):
        shown = _until(server, f"/api/puzzles/next?player={quote('Ann Able')}",
                       lambda d: d["puzzle"])
        puzzle = expected[shown["puzzle"]["position"]["cgp"]]
        page.goto(f"{server.url}/#puzzles")
        page.fill('[data-testid="puzzle-player"]', "Ann Able")
        page.click('[data-testid="btn-puzzle-next"]')
        page.wait_for_selector('[data-testid="puzzle-card"]', state="visible")
        page.wait_for_selector('[data-testid="puzzle-rack"] [data-testid="rack-tile"]')
        assert " · ".join(puzzle.tags) in page.inner_text('[data-testid="puzzle-meta"]')
        assert _page_width(page) <= PHONE["width"], "the Puzzles page is too wide"
        page.fill('[data-testid="puzzle-reply"]', puzzle.answers[0])
        page.click('[data-testid="btn-puzzle-answer"]')
        page.wait_for_selector('[data-testid="puzzle-verdict"]')
        assert page.inner_text('[data-testid="puzzle-verdict"]') == "Right"
        assert page.inner_text('[data-testid="puzzle-why"]') == puzzle.why
        assert page.inner_text('[data-testid="puzzle-rating"]').startswith("Your rating ")
        assert _page_width(page) <= PHONE["width"], "the Puzzles page is too wide"
        page.screenshot(path=str(artifacts() / "puzzle-phone.png"), full_page=True)
