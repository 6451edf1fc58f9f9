"""`rackety moves` and `rackety show`, in the exact forms scripts call, checked
against the oracle positions (tests/data) and the library."""

from __future__ import annotations

import json
import lzma
from pathlib import Path

import pytest
from static_reference import opening_penalty, static_equity

from rackety import Board, Leaves
from rackety.frontends.cli import main
from rackety.game.heuristics import H3

DATA = Path(__file__).parent / "data"
EMPTY = "/".join(["15"] * 15)
PANDY = f"{EMPTY} AADNPUY/ 0/0 0 lex TWL06;"


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _oracle(name: str, n: int) -> list[dict]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines[:n]]


def test_moves_json_for_one_position(capsys, twl06):
    code, out, err = run(capsys, "moves", "--lexicon", "TWL06", "--cgp", PANDY, "--json",
                         "--leaves", "none")
    assert code == 0, err
    result = json.loads(out)
    assert set(result) == {"cgp", "leaves", "count", "best_score", "best_moves", "moves"}
    assert (result["cgp"], result["count"], result["best_score"], result["best_moves"]) == \
        (PANDY, 116, 30, ["8H PANDY"])
    assert result["leaves"] == "none"
    assert result["moves"][0] == {"move": "8H PANDY", "score": 30, "leave": "AU",
                                  "equity": 30.0}
    assert len(result["moves"]) == 10
    assert [m["equity"] for m in result["moves"]] == sorted(
        (m["equity"] for m in result["moves"]), reverse=True)
    _, out, _ = run(capsys, "moves", "--cgp", PANDY, "--json", "--top", "3")
    assert len(json.loads(out)["moves"]) == 3


def test_equity_is_score_plus_the_shipped_leave_by_default(capsys, twl06):
    table = Leaves.builtin(twl06)
    assert table is not None
    board = Board.from_cgp(PANDY)
    code, out, err = run(capsys, "moves", "--cgp", PANDY, "--json", "--top", "5")
    assert code == 0, err
    result = json.loads(out)
    assert result["leaves"] == "TWL06's shipped table"
    for m in result["moves"]:
        move = board.parse_move(m["move"])
        kept = board.alphabet.rack(m["leave"]) if m["leave"] else ()
        assert m["equity"] == pytest.approx(
            static_equity(board, move, kept, lambda _kept, m=m: table.value(m["leave"])),
            abs=1e-3)
    assert result["moves"][0]["equity"] != result["moves"][0]["score"]
    _, out, _ = run(capsys, "moves", "--cgp", PANDY, "--json", "--leaves", "h3", "--top", "1")
    (first,) = json.loads(out)["moves"]
    move = board.parse_move(first["move"])
    assert first["equity"] == pytest.approx(
        first["score"] + opening_penalty(board, move) + H3.value(first["leave"]), abs=1e-3)
    assert json.loads(out)["leaves"] == "H3"


def test_text_output_says_which_leave_values(capsys, twl06):
    code, out, _ = run(capsys, "moves", "--cgp", PANDY, "--top", "3")
    assert code == 0
    assert "equity = score + leave value (TWL06's shipped table)" in out
    assert out.splitlines()[-4].split() == ["#", "move", "score", "leave", "equity"]
    code, out, _ = run(capsys, "moves", "--cgp", PANDY, "--top", "3", "--leaves", "none")
    assert code == 0 and "moves by score (no leave values)" in out
    assert "equity" not in out
    assert out.splitlines()[-4].split() == ["#", "move", "score", "leave"]
    code, _, err = run(capsys, "moves", "--cgp", PANDY, "--leaves", "h9")
    assert code == 2 and err.count("\n") == 1 and "h9" in err and "static" in err


def test_moves_file_one_line_per_position(capsys, tmp_path, twl06):
    cases = _oracle("twl06_public.jsonl", 12) + _oracle("super21_twl06_public.jsonl", 4)
    path = tmp_path / "positions.cgp"
    path.write_text("".join(c["cgp"] + "\n" for c in cases), encoding="utf-8")
    code, out, err = run(capsys, "moves", "--lexicon", "TWL06", "--cgp-file", str(path),
                         "--json")
    assert code == 0, err
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == len(cases)
    for case, result in zip(cases, results, strict=True):
        assert (result["cgp"], result["count"], result["best_score"], result["best_moves"]) \
            == (case["cgp"], case["num_moves"], case["best_score"], case["best_moves"])
    _, out, _ = run(capsys, "moves", "--cgp-file", str(path), "--json", "--count-only",
                    "--generator", "dawg")
    for case, line in zip(cases, out.splitlines(), strict=True):
        assert json.loads(line) == {"cgp": case["cgp"], "count": case["num_moves"],
                                    "best_score": case["best_score"]}
    _, out, _ = run(capsys, "moves", "--cgp-file", str(path), "--json", "--best",
                    "--leaves", "none")
    for case, line in zip(cases, out.splitlines(), strict=True):
        (best,) = json.loads(line)["moves"]
        assert best["score"] == case["best_score"]  # no leave values: equity is the score


def test_no_placement_at_all(capsys):
    # the oracle README's example: no word of TWL06 can be made from CCFGRRR
    cgp = "/".join(["21"] * 21) + " CCFGRRR/ 0/0 0 lex TWL06; bdn super21; ld english_super;"
    code, out, _ = run(capsys, "moves", "--cgp", cgp, "--json")
    result = json.loads(out)
    assert code == 0 and (result["count"], result["best_score"], result["best_moves"]) == \
        (0, None, [])


def test_catalan_with_alphabet_and_lexicon_options(capsys, tmp_path):
    words = tmp_path / "catalan.txt"
    words.write_bytes(lzma.decompress((DATA / "catalan_wcat.txt.xz").read_bytes()))
    case = _oracle("catalan_wcat_public.jsonl", 1)[0]
    # the CGP says lex DISC_WCAT, which is not built in: --lexicon wins
    code, out, err = run(capsys, "moves", "--lexicon", str(words), "--alphabet", "catalan",
                         "--cgp", case["cgp"], "--json")
    assert code == 0, err
    result = json.loads(out)
    assert (result["count"], result["best_moves"]) == (case["num_moves"], case["best_moves"])
    code, _, err = run(capsys, "moves", "--alphabet", "catalan", "--cgp", case["cgp"])
    assert code == 2 and "DISC_WCAT" in err and "--lexicon" in err


def test_board_option_wins_over_the_cgp(capsys):
    empty21 = "/".join(["21"] * 21)
    cgp = f"{empty21} AADNPUY/ 0/0 0 bdn standard15;"
    code, out, err = run(capsys, "moves", "--board", "super21", "--cgp", cgp, "--json")
    assert code == 0, err
    assert json.loads(out)["best_moves"] == ["11K PANDY"]  # the Super board's start square
    code, _, err = run(capsys, "moves", "--cgp", cgp, "--json")
    assert code == 2 and err.count("\n") == 1 and "rows" in err


def test_text_output_and_show(capsys, tmp_path):
    code, out, _ = run(capsys, "moves", "--cgp", PANDY, "--top", "2")
    assert code == 0 and "116 tile placements" in out and "8H PANDY" in out
    svg = tmp_path / "board.svg"
    code, out, _ = run(capsys, "show", "--cgp", PANDY, "--no-color", "--svg", str(svg))
    assert code == 0 and out == str(Board.from_cgp(PANDY)) + "\n"
    assert svg.read_text().startswith("<svg")


@pytest.mark.parametrize(("args", "message"), [
    (["--cgp", "15/15 A/ 0/0 0"], "cgp: "),
    (["--cgp", PANDY, "--cgp-file", "x"], "exactly one"),
    (["--cgp", PANDY, "--best", "--count-only"], "do not go together"),
    (["--cgp", PANDY, "--generator", "trie"], "trie"),
    (["--cgp", PANDY, "--board", "hexagonal"], "hexagonal"),
    (["--cgp", PANDY, "--alphabet", "klingon"], "klingon"),
])
def test_bad_input_is_one_line(capsys, args, message):
    code, out, err = run(capsys, "moves", *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err


def test_bad_line_in_a_file_names_the_line(capsys, tmp_path):
    path = tmp_path / "positions.cgp"
    path.write_text(f"{PANDY}\n{EMPTY} AADNPUYZZ/ 0/0 0\n", encoding="utf-8")
    code, out, err = run(capsys, "moves", "--cgp-file", str(path), "--json")
    assert code == 2 and len(out.splitlines()) == 1
    assert f"{path}:2" in err and err.count("\n") == 1
