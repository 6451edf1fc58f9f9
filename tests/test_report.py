"""The game report page (`rackety.frontends.report`, ``rackety analyze --html``,
``GET /api/games/{id}/report``): one self-contained page whose boards, chart
marks and totals are those of the analysis, with everything from the record
escaped."""

from __future__ import annotations

import base64
import hashlib
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from rackety.frontends.analysis import analyze_record
from rackety.frontends.cli import main
from rackety.frontends.report import game_report_html
from rackety.game.gcg import read_gcg, replay

DATA = Path(__file__).parent / "data" / "gcg"
VOID = {"meta", "input", "br", "img", "link", "hr"}
HOSTILE = """#character-encoding UTF-8
#player1 x<b>y Eve "<script>alert('name')</script>" &amp;
#player2 fay Fay
#title <img src=x onerror=alert(1)> report
#lexicon TWL06
>x<b>y: ADEHLRT 8D HALTED +28 28
#note </p><script>alert("note")</script> & more
>fay: EIOPRSW D8 .OWS +10 10
"""


class Page(HTMLParser):
    """Every element of a page: its tag, attributes and the tags and classes of
    the elements around it; the text of each element by id."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str], list[tuple[str, str]]]] = []
        self.stack: list[tuple[str, str]] = []
        self.text: list[tuple[list[tuple[str, str]], str]] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        self.elements.append((tag, values, list(self.stack)))
        if tag not in VOID:
            self.stack.append((tag, values.get("class", "")))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, {k: v or "" for k, v in attrs}, list(self.stack)))

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1][0] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append((list(self.stack), data))

    def find(self, tag: str, cls: str | None = None, inside: str | None = None
             ) -> list[dict[str, str]]:
        """The attributes of every ``tag`` (with the class ``cls``) inside an
        element of class ``inside``."""
        out = []
        for t, attrs, around in self.elements:
            if t != tag or (cls is not None and cls not in attrs.get("class", "").split()):
                continue
            if inside is not None and not any(inside in c.split() for _, c in around):
                continue
            out.append(attrs)
        return out


@pytest.fixture(scope="module")
def phony_stood(twl06: Any) -> tuple[Any, Any, str]:
    """The analysis, the replay and the report of a record with a missed bingo, an
    exchange, a pass and a phony that stood."""
    record = read_gcg((DATA / "phony_stood.gcg").read_bytes(), source="phony_stood.gcg")
    rep = replay(record)
    analysis = analyze_record(record, twl06, replayed=rep)
    return analysis, rep, game_report_html(analysis, rep)


def _policy(text: str) -> dict[str, list[str]]:
    """A Content-Security-Policy's directives: name -> sources."""
    out: dict[str, list[str]] = {}
    for part in text.split(";"):
        words = part.split()
        if words:
            assert words[0].lower() not in out, f"{words[0]} twice in {text!r}"
            out[words[0].lower()] = words[1:]
    return out


def _scripts_run_only_by_hash(text: str, policy: str) -> None:
    """Every inline script of the page is allowed by ``policy`` through its
    SHA-256, and nothing else runs: no 'unsafe-inline' (or eval) for scripts, no
    script loaded from anywhere, no event-handler attribute, no javascript: URL."""
    directives = _policy(policy)
    sources = directives.get("script-src", directives.get("default-src"))
    assert sources is not None, policy
    assert not {"'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "*"} & set(sources)
    assert all(s.startswith("'sha256-") for s in sources), sources
    assert directives["default-src"] == ["'none'"]
    page = Page(text)
    inline = [data for around, data in page.text if around and around[-1][0] == "script"]
    assert len(inline) == len(page.find("script")) >= 1
    for attrs in page.find("script"):
        assert "src" not in attrs
    for script in inline:
        digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
        assert f"'sha256-{digest}'" in sources
    for tag, attrs, _around in page.elements:
        assert not [a for a in attrs if a.lower().startswith("on")], (tag, attrs)
        assert not any("javascript:" in v.lower() for v in attrs.values()), (tag, attrs)


def _meta_policy(text: str) -> str:
    metas = [a for a in Page(text).find("meta")
             if a.get("http-equiv", "").lower() == "content-security-policy"]
    assert len(metas) == 1
    return metas[0]["content"]


def _self_contained(text: str) -> None:
    assert not re.search(r"https?:|//[a-z]", text, re.IGNORECASE)
    assert "url(" not in text and "@import" not in text
    page = Page(text)
    for _tag, attrs, _around in page.elements:
        for name in ("src", "href", "action", "xlink:href"):
            assert attrs.get(name, "#").startswith("#"), (name, attrs[name])
    assert not page.find("link") and not page.find("iframe") and not page.find("object")


def test_the_page_is_self_contained(phony_stood: tuple[Any, Any, str]) -> None:
    _analysis, _rep, text = phony_stood
    assert text.startswith("<!DOCTYPE html>")
    _self_contained(text)
    page = Page(text)
    assert page.stack == []  # every element closed
    assert len(page.find("script")) == 1 and len(page.find("style")) == 1
    # the saved page keeps its policy (offline, in a meta element): its script by hash
    _scripts_run_only_by_hash(text, _meta_policy(text))


def test_another_script_would_not_run(phony_stood: tuple[Any, Any, str]) -> None:
    _analysis, _rep, text = phony_stood
    policy = _meta_policy(text)
    injected = text.replace("</body>", "<script>alert(1)</script></body>")
    with pytest.raises(AssertionError):
        _scripts_run_only_by_hash(injected, policy)
    head, rest = text.split("<script>", 1)
    assert "\"change\"" in rest
    tampered = head + "<script>" + rest.replace("\"change\"", "\"input\"", 1)
    with pytest.raises(AssertionError):  # the page's own script, changed, is not its hash
        _scripts_run_only_by_hash(tampered, policy)


def flagged(t: Any) -> bool:
    """A turn the report draws a board for: a graded mistake, a missed bingo or
    a phony."""
    return t.mistake in ("small", "medium", "large") or t.missed_bingo or bool(t.phonies)


def test_a_board_for_each_mistake_and_a_chart_mark_per_turn(
        phony_stood: tuple[Any, Any, str]) -> None:
    analysis, rep, text = phony_stood
    turns = analysis.listed()
    assert len(turns) == 6  # 4 plays, an exchange, a pass
    page = Page(text)
    boards = page.find("svg", inside="board")
    shown = [t for t in turns if flagged(t)]
    assert 0 < len(shown) < len(turns) and len(boards) == len(shown)
    # each board is the position after its turn: its tiles are that board's
    tiles = [a for a in page.find("rect", "tile", inside="board")]
    want = sum(int((rep.positions[t.index + 1].grid != 0).sum()) for t in shown)
    assert len(tiles) == want
    # the tiles a play put down are outlined
    highlights = page.find("rect", "highlight", inside="board")
    assert len(highlights) == sum(t.move.n_placed for t in shown if t.kind == "play")
    marks = page.find("rect", "mark", inside="chart")
    assert [int(m["data-turn"]) for m in marks] == list(range(1, len(turns) + 1))
    for mark, turn in zip(marks, turns, strict=True):
        if turn.assessed:
            assert float(mark["data-lost"]) == pytest.approx(turn.equity_lost, abs=1e-3)
        else:
            assert "unassessed" in mark["class"].split()
    # two missed bingos (RETSINA, VAULTIER) and the phony RETZ are flagged
    assert len(page.find("text", "missed-bingo", inside="chart")) == \
        sum(t.missed_bingo for t in turns) == 2
    assert len(page.find("text", "phony", inside="chart")) == 1
    assert len(page.find("li", "missed-bingo", inside="turn")) == 2
    assert len(page.find("li", "phony", inside="turn")) == 1
    # the sections are links the chart's bars go to
    ids = {a["id"] for a in page.find("section", "turn")}
    assert {a["href"][1:] for a in page.find("a", inside="chart")} == ids


def test_the_totals_are_the_analysis(phony_stood: tuple[Any, Any, str]) -> None:
    analysis, _rep, text = phony_stood
    page = Page(text)
    rows = [r for r in page.find("tr", inside="totals") if "data-player" in r]
    summary = analysis.summary()
    assert [r["data-player"] for r in rows] == [s.player for s in summary] == ["ann", "bob"]
    lost = [data for around, data in page.text
            if around and "total-lost" in around[-1][1].split()]
    assert [float(x) for x in lost] == [round(s.equity_lost, 1) for s in summary]
    assert summary[0].bingos_missed == 2 and summary[1].bingos == 1


def test_one_player_s_turns(twl06: Any) -> None:
    record = read_gcg((DATA / "phony_stood.gcg").read_bytes(), source="phony_stood.gcg")
    rep = replay(record)
    analysis = analyze_record(record, twl06, replayed=rep, seats=[1])
    page = Page(game_report_html(analysis, rep, players={"bob"}))
    assert len(page.find("svg", inside="board")) == sum(
        flagged(t) for t in analysis.listed({"bob"}))
    assert len(page.find("rect", "mark", inside="chart")) == 3
    assert [r["data-player"] for r in page.find("tr", inside="totals")
            if "data-player" in r] == ["bob"]


def test_text_from_the_record_is_escaped(twl06: Any) -> None:
    record = read_gcg(HOSTILE, source="<hostile>.gcg")
    rep = replay(record)
    text = game_report_html(analyze_record(record, twl06, replayed=rep), rep)
    page = Page(text)
    assert len(page.find("script")) == 1 and not page.find("img") and not page.find("b")
    for raw in ("<script>alert", "<img src", "x<b>y", "</p><script>"):
        assert raw not in text
    assert "x&lt;b&gt;y" in text and "&lt;img src=x onerror=alert(1)&gt;" in text
    assert "&lt;/p&gt;&lt;script&gt;alert(&quot;note&quot;)&lt;/script&gt; &amp; more" in text
    assert "&amp;amp;" in text  # the name's "&amp;" is text, not an entity
    _self_contained(text)
    _scripts_run_only_by_hash(text, _meta_policy(text))


# ------------------------------------------------------------------- CLI
def test_analyze_html_writes_the_report(tmp_path: Path, capsys: Any,
                                        phony_stood: tuple[Any, Any, str]) -> None:
    out = tmp_path / "report.html"
    assert main(["analyze", str(DATA / "phony_stood.gcg"), "--html", str(out)]) == 0
    assert "6 turns" in capsys.readouterr().out
    written = out.read_text(encoding="utf-8")
    _scripts_run_only_by_hash(written, _meta_policy(written))
    page = Page(written)
    assert len(page.find("svg", inside="board")) == sum(flagged(t) for t in
                                                         phony_stood[0].listed())
    assert len(page.find("rect", "mark", inside="chart")) == 6
    assert not list(tmp_path.glob(".*.tmp"))  # written atomically: no leftovers


@pytest.mark.parametrize("extra", [["--json"], ["--csv", "x.csv"],
                                   [str(DATA / "five_point.gcg")]])
def test_analyze_html_refusals_are_one_line(tmp_path: Path, capsys: Any,
                                            extra: list[str]) -> None:
    out = tmp_path / "r.html"
    code = main(["analyze", str(DATA / "phony_stood.gcg"), "--html", str(out), *extra])
    err = capsys.readouterr().err
    assert code != 0 and len(err.strip().splitlines()) == 1 and "--html" in err
    assert not out.exists()


def test_analyze_html_into_a_missing_folder(tmp_path: Path, capsys: Any) -> None:
    code = main(["analyze", str(DATA / "phony_stood.gcg"), "--html",
                 str(tmp_path / "nowhere" / "r.html")])
    err = capsys.readouterr().err
    assert code != 0 and len(err.strip().splitlines()) == 1 and "no such folder" in err


# ------------------------------------------------------------------- web
@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory, twl06: Any) -> Any:
    from fastapi.testclient import TestClient

    from rackety.frontends.web.app import create_app

    app = create_app(tmp_path_factory.mktemp("web") / "app.sqlite", warm=False)
    with TestClient(app) as c:
        yield c


def test_the_web_app_serves_a_stored_game_s_report(client: Any) -> None:
    text = (DATA / "double_challenge.gcg").read_text(encoding="utf-8")
    state = client.post("/api/gcg/import", json={"gcg": text}).json()
    response = client.get(f"/api/games/{state['id']}/report")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    _self_contained(response.text)
    page = Page(response.text)
    turns = [e for e in read_gcg(text).events if e.kind in ("play", "exchange", "pass")]
    shown = page.find("figure", "board")
    assert len(page.find("svg", inside="board")) == len(shown) < len(turns)
    assert len(page.find("rect", "mark", inside="chart")) == len(turns)
    assert len(page.find("li", "phony", inside="turn")) >= 1  # GOXE, challenged off
    assert len(page.find("figcaption", inside="board")) == 1  # shown before it went
    _served_with_its_policy(response)


def _served_with_its_policy(response: Any) -> None:
    """The report as the web app serves it: a Content-Security-Policy header that
    runs the page's scripts by hash only, the same as the page's own meta policy,
    and no framing."""
    header = response.headers.get("content-security-policy")
    assert header, dict(response.headers)
    _scripts_run_only_by_hash(response.text, header)
    _scripts_run_only_by_hash(response.text, _meta_policy(response.text))
    directives = _policy(header)
    assert directives["frame-ancestors"] == ["'none'"]
    assert {k: v for k, v in directives.items() if k != "frame-ancestors"} == \
        _policy(_meta_policy(response.text))
    assert response.headers.get("x-content-type-options") == "nosniff"


def test_a_hostile_record_s_report_on_the_web_is_escaped_and_locked(client: Any) -> None:
    state = client.post("/api/gcg/import", json={"gcg": HOSTILE})
    assert state.status_code == 201, state.text
    response = client.get(f"/api/games/{state.json()['id']}/report")
    assert response.status_code == 200
    text = response.text
    for raw in ("<script>alert", "<img src", "x<b>y", "</p><script>"):
        assert raw not in text
    assert len(Page(text).find("script")) == 1 and not Page(text).find("img")
    _served_with_its_policy(response)


def test_a_game_without_turns_has_an_empty_report(client: Any) -> None:
    state = client.post("/api/games", json={"human_first": True, "seed": 3}).json()
    response = client.get(f"/api/games/{state['id']}/report")
    assert response.status_code == 200
    page = Page(response.text)
    assert page.find("svg", inside="board") == [] and page.find("svg", "chart")


def test_a_game_in_play_keeps_the_computer_s_racks_hidden(client: Any) -> None:
    state = client.post("/api/games", json={"seed": 5, "opponents": [{"level": "greedy"}]})
    state = state.json()
    for _ in range(2):
        hint = client.get(f"/api/games/{state['id']}/hint?top=1").json()["moves"][0]
        state = client.post(f"/api/games/{state['id']}/play", json={"move": hint["move"]})
        state = state.json()
    response = client.get(f"/api/games/{state['id']}/report")
    assert response.status_code == 200
    page = Page(response.text)
    marks = page.find("rect", "mark", inside="chart")
    assert len(marks) == 4 and len(page.find("svg", inside="board")) <= 2
    human = state["human"]
    for mark in marks:  # the person's turns assessed, the computer's not (rack unknown)
        seat = (int(mark["data-turn"]) - 1) % 2
        assert ("unassessed" in mark["class"].split()) == (seat != human)
    assert human == 0 and "data-lost" in marks[0]
    computer = [data for around, data in page.text
                if around and around[-1] == ("span", "rack")][1::2]
    assert computer == ["?", "?"]


@pytest.mark.parametrize(("path", "status"), [("999999", 404), ("0", 422), ("abc", 422),
                                              ("1%2F..%2F..%2Fetc", 404), (str(2**70), 422)])
def test_a_bad_game_id_is_a_short_json_error(client: Any, path: str, status: int) -> None:
    response = client.get(f"/api/games/{path}/report")
    assert response.status_code == status
    detail = response.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail


def test_a_whole_game_s_report_stays_small(twl06: Any) -> None:
    """A game of thirty-odd turns: boards for its mistakes only, the page well
    under 300 KB (a board is about 15 KB)."""
    from rackety.experiments.autoplay import play_game
    from rackety.game.gcg import gcg_of
    from rackety.players import make_player

    game, _ = play_game(twl06, [make_player("greedy", twl06), make_player("static", twl06)],
                        seed=11, names=["greedy", "static"])
    record = read_gcg(gcg_of(game).encode("utf-8"), source="game.gcg")
    rep = replay(record)
    analysis = analyze_record(record, twl06, replayed=rep, plies=1)
    text = game_report_html(analysis, rep)
    turns = analysis.listed()
    assert len(turns) >= 20
    assert len(Page(text).find("svg", inside="board")) == sum(flagged(t) for t in turns)
    assert len(text.encode("utf-8")) < 300_000
