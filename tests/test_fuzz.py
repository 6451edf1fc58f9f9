"""Bounded fuzz tests (issue 12, "Hostile input"): every reader, the command
line and each group of HTTP routes get mutated real inputs and hostile inputs
made on purpose, and must keep the contract of `fuzzing` (succeed, or refuse in
one line of at most 300 characters; read back what they accept; never a
traceback, a crash, a hang or a 5xx). The regression corpus
``tests/data/fuzz/<reader>/`` (every input that ever failed) is replayed file by
file. The long fuzz is ``python tools/fuzz.py``.

KWG, KLV, word-list and command-line inputs run in a worker process
(`fuzzing.Sandbox`), so a crash or a hang fails one test instead of the run.
"""

from __future__ import annotations

import re
from pathlib import Path

import fuzzing
import pytest
from hypothesis import HealthCheck, given, settings

from rackety.errors import clip

SETTINGS = {"deadline": None, "derandomize": True, "database": None,
            "suppress_health_check": list(HealthCheck)}
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory, lexicon_cache: Path) -> fuzzing.Context:
    return fuzzing.Context(tmp_path_factory.mktemp("fuzz"))


@pytest.fixture(scope="module")
def sandbox():
    with fuzzing.Sandbox(timeout=15) as box:  # the slowest good input takes about 1 s
        yield box


def _in_process(ctx: fuzzing.Context, reader: str, case: tuple) -> None:
    payload, expect = case
    result = fuzzing.execute(reader, payload, ctx, expect)
    assert result.ok, f"{result.describe()}\ninput: {fuzzing.describe_input(payload)}"
    assert result.outcome in ("accepted", "refused")


def _sandboxed(sandbox: fuzzing.Sandbox, reader: str, case: tuple) -> None:
    payload, expect = case
    result = sandbox.run(reader, payload, expect)
    assert result.ok, f"{result.describe()}\ninput: {fuzzing.describe_input(payload)}"
    assert result.outcome in ("accepted", "refused")


# ------------------------------------------------------------ library readers
@settings(max_examples=300, **SETTINGS)
@given(case=fuzzing.strategy("cgp"))
def test_cgp(ctx, case):
    _in_process(ctx, "cgp", case)


@settings(max_examples=120, **SETTINGS)
@given(case=fuzzing.strategy("gcg"))
def test_gcg(ctx, case):
    _in_process(ctx, "gcg", case)


@settings(max_examples=250, **SETTINGS)
@given(case=fuzzing.strategy("moves"))
def test_moves_and_player_specs(ctx, case):
    _in_process(ctx, "moves", case)


@settings(max_examples=400, **SETTINGS)
@given(case=fuzzing.strategy("kwg"))
def test_kwg(sandbox, case):
    _sandboxed(sandbox, "kwg", case)


@settings(max_examples=200, **SETTINGS)
@given(case=fuzzing.strategy("klv"))
def test_klv(sandbox, case):
    _sandboxed(sandbox, "klv", case)


@settings(max_examples=80, **SETTINGS)
@given(case=fuzzing.strategy("words"))
def test_word_lists(sandbox, case):
    _sandboxed(sandbox, "words", case)


# ----------------------------------------------------------------- HTTP
@pytest.fixture(scope="module")
def http_ctx(ctx, twl06):
    ctx.client()  # the app, its store and TWL06, made once
    return ctx


@settings(max_examples=100, **SETTINGS)
@given(case=fuzzing.http_strategy("analysis"))
def test_http_analysis_routes(http_ctx, case):
    """POST /api/analyze, /api/simulate, /api/position, /api/position/edit, /api/infer."""
    _in_process(http_ctx, "http", case)


@settings(max_examples=60, **SETTINGS)
@given(case=fuzzing.http_strategy("records"))
def test_http_record_routes(http_ctx, case):
    """POST /api/gcg/analyze, /api/gcg/import."""
    _in_process(http_ctx, "http", case)


@settings(max_examples=80, **SETTINGS)
@given(case=fuzzing.http_strategy("games"))
def test_http_game_routes(http_ctx, case):
    """POST /api/games, /api/games/{id}/play, exchange, pass, challenge, undo;
    GET /api/games/{id}, hint, gcg."""
    _in_process(http_ctx, "http", case)


@settings(max_examples=60, **SETTINGS)
@given(case=fuzzing.http_strategy("listing"))
def test_http_listing_routes(http_ctx, case):
    """GET /api/health, /api/options, /api/games, /api/players, /api/rankings,
    and paths or methods that are not routes."""
    _in_process(http_ctx, "http", case)


@pytest.mark.parametrize("op", ["ld", "lex", "bdn"])
@pytest.mark.parametrize("existing, missing", [
    ("/etc/passwd", "/etc/rackety-no-such-file"),
    (str(ROOT / "src" / "rackety" / "data" / "alphabets" / "english.json"),
     "/nonexistent/english.json"),
    (str(ROOT / "src" / "rackety" / "data" / "boards.json"), "/nonexistent/boards.json"),
])
def test_http_paths_are_refused_the_same_whether_they_exist(http_ctx, op, existing, missing):
    """A request never names a file: the answer does not depend on whether the
    path exists."""
    client = http_ctx.client()
    answers = []
    for path in (existing, missing):
        cgp = f"{fuzzing.EMPTY} AEINST?/ 0/0 0 {op} {path};"
        for url, body in (("/api/analyze", {"cgp": cgp, "top": 1}),
                          ("/api/position", {"cgp": cgp}),
                          ("/api/position/edit", {"cgp": cgp, "tiles": []})):
            assert fuzzing.check_http(client, "POST", url, json=body) in ("accepted", "refused")
            response = client.post(url, json=body)
            # the path as the message quotes it: whole, or its middle elided when
            # long (a checkout's own path may be: a temporary folder's)
            text = response.text
            for width in (200, 120, 80, 60, 40):
                text = text.replace(clip(path, width), "PATH")
            answers.append((url, response.status_code, text))
    half = len(answers) // 2
    assert answers[:half] == answers[half:]
    if op != "lex":  # ld and bdn name built-in alphabets and layouts only
        assert all(400 <= status < 500 for _, status, _ in answers)


# ------------------------------------------------------------------ CLI
@settings(max_examples=60, **SETTINGS)
@given(case=fuzzing.strategy("cli"))
def test_cli(sandbox, case):
    _sandboxed(sandbox, "cli", case)


def _printable_by_capsys(argv: list[str]) -> bool:
    """capsys writes strict UTF-8: a name holding U+DCFF is for the sandbox."""
    return all(a.encode("utf-8", "surrogatepass") == a.encode("utf-8", "ignore") for a in argv)


REFUSALS = {name: case for name, case, expect in fuzzing.hostile_cli()
            if expect == "refused" and not case.get("files") and "stdin" not in case
            and _printable_by_capsys(case["argv"])}


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_cli_refuses_in_one_line(name, capsys, monkeypatch, tmp_path):
    """In process, through `rackety.frontends.cli.main`: exit 2 and one error line."""
    from rackety.frontends.cli import main

    monkeypatch.chdir(tmp_path)
    argv = [a.replace("{tmp}", str(tmp_path)) for a in REFUSALS[name]["argv"]]
    code = main(argv)
    out, err = capsys.readouterr()
    assert fuzzing.check_cli_result(argv, code, out, err, "refused") == "refused"


def test_cli_output_folder_missing_in_a_subprocess(tmp_path):
    """The installed command, as a user runs it: one line, exit 2."""
    argv = ["show", "--cgp", fuzzing.OPENING, "--svg", "/nonexistent/dir/x.svg"]
    assert fuzzing.check_cli(argv, cwd=tmp_path, expect="refused") == "refused"


# ------------------------------------------------------------ special cases
def test_word_list_with_a_nul_fourth_byte_is_a_word_list_problem(tmp_path):
    from rackety import Lexicon, RacketyError

    path = tmp_path / "list.txt"
    path.write_bytes(b"AB@\x00CD\nEF\n")  # its first node would pass for a KWG root
    with pytest.raises(RacketyError) as info:
        Lexicon.load(path)
    message = str(info.value)
    fuzzing.check_message(message, "Lexicon.load")
    assert "KWG" not in message and "node" not in message, message


def test_a_turn_after_the_end_is_refused_at_its_line(ctx):
    from rackety import RacketyError
    from rackety.game.gcg import read_gcg, replay

    lines = ["#player1 ann Ann", "#player2 bob Bob"]
    lines += [f">{'ann' if i % 2 == 0 else 'bob'}: ABCDEFG - +0 0" for i in range(24_000)]
    record = read_gcg("\n".join(lines) + "\n")
    with pytest.raises(RacketyError) as info:
        replay(record)
    fuzzing.check_message(str(info.value), "replay")
    assert re.search(r":9\b", str(info.value)), str(info.value)  # the seventh pass, line 9


def test_the_sandbox_reports_crashes_and_hangs():
    with fuzzing.Sandbox(timeout=3) as box:
        assert box.run("_selftest", "fine").outcome == "accepted"
        crash = box.run("_selftest", "crash")
        assert (crash.outcome, crash.kind, crash.exc_type) == ("failure", "crash", "SIGSEGV")
        hang = box.run("_selftest", "hang")
        assert (hang.outcome, hang.kind) == ("failure", "hang")
        error = box.run("_selftest", "exception")
        assert (error.kind, error.exc_type) == ("exception", "KeyError")
        assert box.run("_selftest", "fine").outcome == "accepted"  # a fresh worker
        assert box.started == 3


# -------------------------------------------------------- regression corpus
CORPUS = fuzzing.corpus_files()


@pytest.mark.parametrize("path", CORPUS, ids=[f"{p.parent.name}/{p.name}" for p in CORPUS])
def test_corpus(path, ctx, sandbox):
    """Every input that ever failed, through the reader its folder names."""
    reader, payload, expect = fuzzing.load_case(path)
    if reader in fuzzing.SANDBOXED:
        _sandboxed(sandbox, reader, (payload, expect))
    else:
        if reader == "http":
            ctx.client()
        _in_process(ctx, reader, (payload, expect))


def test_corpus_covers_every_reader():
    folders = {p.parent.name for p in CORPUS}
    assert folders == set(fuzzing.READERS)
