"""The front ends' one layer (`rackety.frontends.common`): the CLI and the web
app answer moves in one shape, and read leave specs by one rule."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rackety import Board, Leaves, Lexicon, RacketyError
from rackety.alphabet import BLANK_FLAG
from rackety.frontends import common
from rackety.frontends.cli import main
from rackety.frontends.web.app import create_app
from rackety.game.heuristics import H2

DATA = Path(__file__).parent / "data"
OPENING = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0"


def test_the_cli_and_the_web_answer_moves_in_one_shape(capsys, tmp_path: Path, twl06):
    assert main(["moves", "--lexicon", "TWL06", "--cgp", OPENING, "--json", "--top", "5",
                 "--leaves", "none"]) == 0
    cli = json.loads(capsys.readouterr().out)
    with TestClient(create_app(tmp_path / "app.sqlite", warm=False)) as client:
        web = client.post("/api/analyze", json={"cgp": OPENING, "lexicon": "TWL06", "top": 5,
                                                "leave": "none"}).json()
    board = Board.from_cgp(OPENING)
    moves = board.moves(twl06, leave=None)
    expected = [common.move_json(board, m) for m in moves[:5]]
    assert cli["moves"] == expected == web["moves"]
    assert set(expected[0]) == {"move", "score", "leave", "equity"}
    detail = common.move_json(board, moves[0], detail=True)
    assert {k: detail[k] for k in expected[0]} == expected[0]
    assert len(detail["tiles"]) == moves[0].n_placed == len(detail["squares"])


def test_a_position_in_json(twl06):
    board = Board.from_cgp("15/15/15/15/15/15/15/7CAT5/15/15/15/15/15/15/15 AEINRS?/ 10/3 0")
    shape = common.position_json(board)
    assert shape["cgp"] == board.cgp() and shape["scores"] == [10, 3]
    assert shape["bag"] == board.bag_count
    assert [t["letter"] for t in shape["racks"][0]] == list("AEINRS?")
    square = shape["board"]["squares"][7][7]
    assert square == {"letter": "C", "points": 3, "blank": False}
    assert shape["board"]["premiums"][7][7] == "DW" and shape["board"]["columns"][0] == "A"


def test_leave_specs_are_read_by_one_rule(tmp_path: Path, twl06):
    assert common.resolve_leave("none", twl06) is None
    assert common.resolve_leave(" H2 ", twl06) is H2
    # the default: the lexicon's shipped table (H3 where there is none)
    assert common.resolve_leave(None, twl06) is common.resolve_leave("static", twl06) \
        is Leaves.builtin(twl06)
    plain = Lexicon.from_words(["AB", "BA"])
    assert common.resolve_leave(None, plain) is common.resolve_leave("h3", plain)
    path = tmp_path / "mine.klv2"
    path.write_bytes(common.resolve_leave("h1", twl06).table(twl06.alphabet).to_bytes())
    by_file = common.resolve_leave(f"leaves:{path}", twl06)
    by_name = common.resolve_leave("leaves:mine", twl06, named={"mine": str(path)}, files=False)
    assert by_file is not None and by_name is not None
    assert by_file.to_bytes() == by_name.to_bytes() == path.read_bytes()
    assert common.resolve_leave(str(path), twl06).to_bytes() == path.read_bytes()  # a path
    for spec, files in (("h4", True), (f"leaves:{path}", False), ("leaves:other", False)):
        with pytest.raises(RacketyError) as err:
            common.resolve_leave(spec, twl06, named={"mine": str(path)}, files=files)
        message = str(err.value)
        assert "\n" not in message and message.startswith("leave ")
        assert ("FILE.klv2" in message) == files and "leaves:mine" in message


# ---------------------------------------------------------------- unseen tiles
def unseen_reference(board: Board) -> dict[str, int]:
    """The tiles the player to move has not seen, by label, counted plainly: the
    tile set less the board's tiles (a blank played as a blank) and the racks."""
    alphabet = board.alphabet
    left = Counter({t.code: t.count for t in alphabet.tiles})
    left -= Counter(0 if c & BLANK_FLAG else c for c in board.grid.ravel().tolist() if c)
    for rack in board.racks:
        left -= Counter(rack)
    order = [*range(1, alphabet.size), 0]
    return {alphabet.tiles[c].label if c else "?": left[c] for c in order if left[c]}


def _oracle_boards(name: str, alphabet: str | None, every: int) -> list[Board]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()[::every]
    return [Board.from_cgp(json.loads(line)["cgp"], alphabet=alphabet) for line in lines]


UNSEEN_BOARDS = _oracle_boards("twl06_public.jsonl", None, 40) + \
    _oracle_boards("catalan_wcat_public.jsonl", "catalan", 40)


@pytest.mark.parametrize("opponent", ["unknown", "known"])
def test_the_unseen_tiles_by_letter(opponent: str) -> None:
    """`unseen_json` and `render.unseen_text` against a plain count, on oracle
    positions (English, and Catalan with its tiles of several letters), with the
    opponent's rack unknown and known (drawn from the unseen tiles)."""
    seen = 0
    for board in UNSEEN_BOARDS:
        alphabet = board.alphabet
        if opponent == "known":
            pool = [c for c, k in enumerate(board.unseen().tolist()) for _ in range(k)]
            board = board.copy(racks=[board.racks[0], tuple(pool[::3][:alphabet.rack_size])])
        expected = unseen_reference(board)
        out = common.unseen_json(board)
        assert list(out["tiles"].items()) == list(expected.items())  # alphabet order, ? last
        count = sum(expected.values())
        assert out["count"] == count == board.unseen_count
        on_racks = 0 if opponent == "known" else min(alphabet.rack_size, count)
        assert (out["racks"], out["bag"]) == (on_racks, count - on_racks)
        summary, _, groups = out["text"].partition("): ")
        where = f"{on_racks} on the opponent's rack, " if opponent == "unknown" else ""
        assert summary == f"{count} unseen ({where}{count - on_racks} in the bag"
        # each group: one letter's tiles, as a rack reads them
        read = [alphabet.tokenize(group, what="group") for group in groups.split(" ")]
        assert [len(set(codes)) for codes in read] == [1] * len(read)
        assert {alphabet.tiles[c[0]].label if c[0] else "?": len(c) for c in read} == expected
        seen += any(len(label) > 1 for label in expected)
    assert seen  # a tile of several letters was among them


def test_the_unseen_tiles_without_the_mover_s_rack() -> None:
    board = Board.from_cgp(f"{'/'.join(['15'] * 15)} / 0/0 0")
    out = common.unseen_json(board)
    assert out["count"] == 100 and out["tiles"]["?"] == 2 and list(out["tiles"])[-1] == "?"
    assert (out["bag"], out["racks"]) == (None, None)  # where they are is not known
    assert out["text"].startswith("100 unseen: AAAAAAAAA BB ")
