"""One JSON form per result (`rackety.frontends.shapes`): the CLI's ``--json``
and the web API answer the same dict for the same search (a simulation, an
endgame, a record's analysis), only the ``seconds`` they took apart, and the
web's OpenAPI schema names every field of the shape."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rackety.frontends import shapes
from rackety.frontends.cli import main
from rackety.frontends.web.app import create_app
from rackety.search.judge import ValuationShape, VerdictShape

DATA = Path(__file__).parent / "data"
BUDGET = 4.0  # seconds of each search of an analysis (the app's, the CLI's --budget)
# a mid-game position (as tests/test_simulation.py's)
POSITION = ("15/15/15/15/15/11P2D/6CEE2I2I/7FROCK2R/10OI2G/7ThROSTLE/10E4/1ALMA1QAT1E3Z/"
            "2AUREI1WIDTH1O/BOX5OF2APO/4RAJAS5N EILLRTY/ 206/275 0 lex TWL06;")
OPENING = f"{'/'.join(['15'] * 15)} AADNPUY/ 0/0 0"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory, twl06: Any) -> Iterator[TestClient]:
    app = create_app(tmp_path_factory.mktemp("shapes") / "app.sqlite", warm=False,
                     search_seconds=BUDGET)
    with TestClient(app) as c:
        yield c


def _cli(capsys: Any, *args: str) -> Any:
    code = main([*args, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def _web(client: TestClient, path: str, body: dict[str, Any]) -> Any:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.text
    return response.json()


def _untimed(value: Any) -> Any:
    """``value`` without its ``seconds`` (the time a search took), at any depth."""
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def _fields(shape: Any) -> set[str]:
    return set(shape.__required_keys__) | set(shape.__optional_keys__)


def _schema(client: TestClient, ref: dict[str, Any]) -> dict[str, Any]:
    """A component of the OpenAPI schema, through its ``$ref`` (and a
    nullable's ``anyOf``)."""
    components = client.get("/openapi.json").json()["components"]["schemas"]
    if "anyOf" in ref:
        ref = next(r for r in ref["anyOf"] if "$ref" in r)
    return components[ref["$ref"].rsplit("/", 1)[1]]


def _response_schema(client: TestClient, path: str) -> dict[str, Any]:
    paths = client.get("/openapi.json").json()["paths"]
    ok = paths[path]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    return _schema(client, ok)


# -------------------------------------------------------------------- moves
@pytest.mark.parametrize("cgp", [POSITION, OPENING], ids=["middle", "opening"])
def test_a_position_s_moves_read_the_same_in_the_cli_and_the_web(capsys: Any,
                                                                 client: TestClient,
                                                                 cgp: str) -> None:
    cli = _cli(capsys, "moves", "--cgp", cgp, "--top", "7")
    web = _web(client, "/api/analyze", {"cgp": cgp, "top": 7})
    assert cli.pop("cgp") == cgp.strip() and web.pop("verdict")["phase"] == "static"
    assert cli == web
    always = {"count", "best_score", "best_moves", "leaves", "moves"}
    assert always <= set(cli) <= _fields(shapes.MovesShape)
    assert ("adjustment" in cli) == (cgp == OPENING)  # the opening's vowel rule
    assert len(cli["moves"]) == 7 and cli["count"] > 7
    schema = _response_schema(client, "/api/analyze")
    assert set(schema["properties"]) == _fields(shapes.MovesShape)


def test_a_verdict_has_one_shape_and_the_schema_names_it(capsys: Any,
                                                         client: TestClient) -> None:
    # an endgame (the bag empty): the judge solves it exactly, in the CLI and the web
    cgp = _endgame_case()["cgp"]
    cli = _cli(capsys, "moves", "--cgp", cgp, "--top", "3", "--think", "5")
    web = _web(client, "/api/analyze", {"cgp": cgp, "top": 3})["verdict"]
    assert cli.pop("cgp") == cgp.strip()
    assert cli == web and web["valued_by"] == "exact endgame"
    assert set(web) == _fields(VerdictShape)
    assert all(set(m) == _fields(ValuationShape) for m in web["moves"])
    schema = _response_schema(client, "/api/analyze")
    verdict = _schema(client, schema["properties"]["verdict"])
    assert set(verdict["properties"]) == _fields(VerdictShape)
    valuation = _schema(client, verdict["properties"]["moves"]["items"])
    assert set(valuation["properties"]) == _fields(ValuationShape)


# --------------------------------------------------------------- simulation
def test_a_simulation_reads_the_same_in_the_cli_and_the_web(capsys: Any,
                                                            client: TestClient) -> None:
    cli = _cli(capsys, "sim", "--cgp", POSITION, "--candidates", "4", "--iterations", "40",
               "--jobs", "1", "--seed", "3")
    # the web's budget in seconds is far more than 40 rollouts take: both stop at 40
    web = _web(client, "/api/simulate", {"cgp": POSITION, "candidates": 4,
                                         "iterations": 40, "seconds": 60, "seed": 3})
    assert _untimed(cli) == _untimed(web)
    assert set(cli) == _fields(shapes.SimulationShape) - {"cgp", "inference"}
    assert len(cli["moves"]) == 4
    assert {"win_pct", "iterations", "static_equity", "squares"} <= set(cli["moves"][0])
    assert cli["iterations"] == sum(m["iterations"] for m in cli["moves"]) > 0
    # another seed is another simulation: the comparison can tell them apart
    other = _web(client, "/api/simulate", {"cgp": POSITION, "candidates": 4,
                                           "iterations": 40, "seconds": 60, "seed": 4})
    assert _untimed(other) != _untimed(cli)


def test_the_openapi_schema_names_the_simulation_s_fields(client: TestClient) -> None:
    schema = _response_schema(client, "/api/simulate")
    assert set(schema["properties"]) == _fields(shapes.SimulationShape)
    move = _schema(client, schema["properties"]["moves"]["items"])
    assert set(move["properties"]) == _fields(shapes.SimMoveShape)
    assert {"win_pct", "iterations", "static_equity", "dropped"} <= set(move["properties"])


# ------------------------------------------------------------------ endgame
def _endgame_case() -> dict[str, Any]:
    lines = (DATA / "endgame_twl06_small.jsonl").read_text().splitlines()
    cases = [json.loads(line) for line in lines if line.strip()]
    return next(c for c in cases if len(c["pv"]) >= 3 and c["magpie_time_s"] < 0.5)


@pytest.mark.parametrize("unknown", [False, True], ids=["racks-given", "rack-unseen"])
def test_an_endgame_reads_the_same_in_the_cli_and_the_web(capsys: Any, client: TestClient,
                                                          unknown: bool) -> None:
    cgp = _endgame_case()["cgp"]
    if unknown:  # the opponent's rack left out: the unseen tiles
        fields = cgp.split(" ")
        fields[1] = fields[1].split("/")[0] + "/"
        cgp = " ".join(fields)
    cli = _cli(capsys, "endgame", "--cgp", cgp)
    state = _web(client, "/api/endgame", {"cgp": cgp, "seconds": 60, "wait": True})
    assert state["status"] == "done", state
    web = state["result"]
    assert _untimed(cli) == _untimed(web)
    assert set(cli) == _fields(shapes.EndgameShape)
    assert cli["exact"] and len(cli["pv"]) >= 3 and cli["best"] == cli["pv"][0]
    assert cli["opponent_rack_from"] == ("unseen" if unknown else "cgp")


def test_the_openapi_schema_names_the_endgame_s_fields(client: TestClient) -> None:
    state = _response_schema(client, "/api/endgame")
    result = _schema(client, state["properties"]["result"])
    assert set(result["properties"]) == _fields(shapes.EndgameShape)
    state = _response_schema(client, "/api/preendgame")
    result = _schema(client, state["properties"]["result"])
    assert set(result["properties"]) == _fields(shapes.PreEndgameShape)


# --------------------------------------------------------- record analysis
def test_a_record_s_analysis_reads_the_same_in_the_cli_and_the_web(
        capsys: Any, client: TestClient, tmp_path: Path, monkeypatch: Any) -> None:
    # the record under the name the web app gives a record sent as text
    shutil.copy(DATA / "gcg" / "phony_stood.gcg", tmp_path / "gcg")
    monkeypatch.chdir(tmp_path)
    cli = _cli(capsys, "analyze", "gcg", "--jobs", "1", "--budget", str(BUDGET))
    web = _web(client, "/api/gcg/analyze",
               {"gcg": (tmp_path / "gcg").read_text(encoding="utf-8")})
    assert len(cli["games"]) == 1
    assert _untimed(cli["games"][0]) == _untimed(web)
    assert cli["summary"] == web["summary"]
    assert set(web) == _fields(shapes.RecordAnalysisShape)
    assert set(web["turns"][0]) == _fields(shapes.TurnShape)
    assessed = [t for t in web["turns"] if t["assessed"]]
    assert assessed and all(t["played"]["move"] and t["best"]["move"] for t in assessed)
    assert any(t["missed_bingo"] for t in assessed) and any(t["phonies"] for t in assessed)


def test_the_openapi_schema_names_the_analysis_s_fields(client: TestClient) -> None:
    schema = _response_schema(client, "/api/gcg/analyze")
    assert set(schema["properties"]) == _fields(shapes.RecordAnalysisShape)
    turn = _schema(client, schema["properties"]["turns"]["items"])
    assert set(turn["properties"]) == _fields(shapes.TurnShape)
    state = _response_schema(client, "/api/gcg/analysis")
    result = _schema(client, state["properties"]["result"])
    assert set(result["properties"]) == _fields(shapes.RecordAnalysisShape)


# ----------------------------------------- one spelling of leaves and boards
def test_leaves_is_the_option_and_leave_its_old_spelling(capsys: Any) -> None:
    """Every command that takes a leave table takes ``--leaves`` (its help says
    that name only) and still ``--leave``, to the same answer."""
    from rackety.frontends.cli import cli

    takers = sorted(name for name, command in _commands(cli)
                    if any("--leaves" in p.opts for p in command.params
                           if p.name == "leaves"))
    assert {"moves", "infer", "sim", "analyze"} <= set(takers)
    for name, command in _commands(cli):
        option = next((p for p in command.params if p.name == "leaves"), None)
        if option is None:
            continue
        assert option.opts[0] == "--leaves" and "--leave" in option.opts, name
        code = main([*name.split(), "--help"])
        out, _ = capsys.readouterr()
        assert code == 0 and "--leaves" in out and "--leave " not in out, name
    cgp = POSITION
    answers = []
    for spelling in ("--leaves", "--leave"):
        answers.append(_cli(capsys, "moves", "--cgp", cgp, spelling, "h1", "--top", "3"))
    assert answers[0] == answers[1] and answers[0]["leaves"] == "H1"
    code = main(["moves", "--cgp", cgp, "--leaves", "h9"])
    _, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1
    assert "static, none, h1, h2, h3, FILE.klv2" in err


def _commands(group: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    import click

    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            yield from _commands(command, f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}", command


def test_one_reading_of_a_leave_spec(twl06: Any, tmp_path: Path) -> None:
    """`leave_model` reads every leave spec: the front ends' `resolve_leave`
    adds ``none``, a player's spec is read by it, the web app's named tables
    are found by it, and a file is refused where files are not allowed."""
    from rackety.errors import RacketyError
    from rackety.frontends.common import resolve_leave
    from rackety.game.heuristics import H2, leave_model
    from rackety.players import make_player

    assert resolve_leave("none", twl06) is None
    assert resolve_leave("H2", twl06) is leave_model("h2", twl06) is H2
    assert make_player("h2", twl06).leave_model is H2
    table = tmp_path / "mine.klv2"
    leave_model("static", twl06).save(str(table))
    named = {"mine": str(table)}
    by_name = leave_model("leaves:mine", twl06, named=named, files=False)
    assert by_name.source == leave_model(str(table), twl06).source == str(table)
    assert make_player("leaves:mine", twl06, named=named, files=False).leave_model.source == \
        str(table)
    for spec in (str(table), f"leaves:{table}"):
        with pytest.raises(RacketyError, match="is not a leave model: expected static, h1, "
                                               "h2, h3, leaves:mine$"):
            leave_model(spec, twl06, named=named, files=False)


def test_board_aliases_are_the_layout_s(capsys: Any) -> None:
    """``--board standard`` / ``super`` are `Layout.load`'s aliases: one table."""
    from rackety.frontends.cli.base import layout_name
    from rackety.game.layout import Layout

    assert layout_name("super") == Layout.load("super").name == "super21"
    assert layout_name("CrosswordGame") == "standard15" and layout_name(None) is None
    code = main(["analyze", str(DATA / "gcg" / "phony_stood.gcg"), "--board", "nowhere"])
    _, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1 and "unknown board layout 'nowhere'" in err


# ------------------------------------------------------------------- games
@pytest.mark.parametrize("name", ["double_challenge.gcg", "five_point.gcg"])
def test_a_game_s_events_read_the_same_in_the_cli_and_the_web(capsys: Any,
                                                              client: TestClient,
                                                              name: str) -> None:
    path = DATA / "gcg" / name
    cli = _cli(capsys, "gcg", "show", str(path))["events"]
    imported = client.post("/api/gcg/import", json={"gcg": path.read_text(encoding="utf-8")})
    assert imported.status_code == 201, imported.text
    web = client.get(f"/api/games/{imported.json()['id']}").json()["events"]
    fields = _fields(shapes.GameEventShape)
    assert all(set(e) == fields for e in cli + web)
    # the web game names players by the record's full names, the CLI by nickname;
    # the CLI shows a rack as the record writes it, the web the rack the game held
    # (five_point.gcg writes one that lacks a tile its play uses)
    same = [k for k in sorted(fields) if k not in ("player", "rack")]
    assert [{k: e[k] for k in same} for e in cli] == [{k: e[k] for k in same} for e in web]
    assert any(e["squares"] for e in cli) and any(e["kind"] == "end_points" for e in cli)
    if name == "double_challenge.gcg":  # a phony taken back: its play named, as the web does
        assert any(e["kind"] == "withdrawn" and e["move"] and e["squares"] for e in cli)
