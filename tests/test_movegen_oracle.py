"""Move generation against the oracle (../shared/oracle, copied to tests/data):
counts, best scores and best moves from an independent engine, and five + three
+ four positions with every move and its score. Both generators must agree."""

from __future__ import annotations

import json
import lzma
from pathlib import Path
from typing import Any

import pytest

from rackety import Board, Lexicon

DATA = Path(__file__).parent / "data"
GENERATORS = ("gaddag", "dawg")


def _cases(name: str) -> list[dict[str, Any]]:
    with open(DATA / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(scope="module")
def catalan(tmp_path_factory: pytest.TempPathFactory) -> Lexicon:
    path = tmp_path_factory.mktemp("catalan") / "catalan_wcat.txt"
    path.write_bytes(lzma.decompress((DATA / "catalan_wcat.txt.xz").read_bytes()))
    return Lexicon.load(path, alphabet="catalan")


def _lexicon(kind: str, request: pytest.FixtureRequest) -> Lexicon:
    return request.getfixturevalue("catalan" if kind == "catalan" else "twl06")


def _board(cgp: str, kind: str) -> Board:
    # the Catalan CGPs name no alphabet (`lex DISC_WCAT;` only)
    return Board.from_cgp(cgp, alphabet="catalan" if kind == "catalan" else None)


SETS = {"twl06": "twl06_public.jsonl", "super21": "super21_twl06_public.jsonl",
        "catalan": "catalan_wcat_public.jsonl"}


def _summary(board: Board, lexicon: Lexicon, generator: str) -> tuple[int, Any, list[str], int]:
    # the exchanges as the list counts them (`test_full_move_lists` holds the
    # ones it iterates to the oracle's own list)
    moves = board.moves(lexicon, generator=generator)
    best = sorted(m.notation(board.alphabet) for m in moves.top_scoring())
    return moves.count, moves.best_score, best, moves.exchange_count


@pytest.mark.parametrize("kind", list(SETS))
def test_oracle_positions(kind: str, request: pytest.FixtureRequest) -> None:
    lexicon = _lexicon(kind, request)
    wrong = []
    cases = _cases(SETS[kind])
    for case in cases:
        board = _board(case["cgp"], kind)
        want = (case["num_moves"], case["best_score"], sorted(case["best_moves"]),
                case["num_exchanges"])
        for generator in GENERATORS:
            got = _summary(board, lexicon, generator)
            if got != want:
                wrong.append((case["cgp"], generator, got, want))
    assert not wrong, f"{len(wrong)} of {2 * len(cases)} differ; first: {wrong[0]}"


def _full_example(path: Path) -> tuple[str, dict[str, int], list[str]]:
    """The position, its placements with their scores, and its exchanges (the
    tiles of each, sorted)."""
    cgp = ""
    moves: dict[str, int] = {}
    exchanges: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# cgp: "):
            cgp = line[len("# cgp: "):]
        elif line.startswith("(exch "):
            exchanges.append("".join(sorted(line[len("(exch "):line.index(")")])))
        elif line and not line.startswith("#") and not line.startswith("pass"):
            text, score = line.rsplit(" ", 1)
            assert text not in moves
            moves[text] = int(score)
    return cgp, moves, sorted(exchanges)


FULL = [(kind, p.name) for kind, folder in (("twl06", "twl06_full_examples"),
                                            ("super21", "super21_full_examples"),
                                            ("catalan", "catalan_full_examples"))
        for p in sorted((DATA / folder).glob("pos_*.txt"))]


@pytest.mark.parametrize(("kind", "name"), FULL)
def test_full_move_lists(kind: str, name: str, request: pytest.FixtureRequest) -> None:
    folder = {"twl06": "twl06_full_examples", "super21": "super21_full_examples",
              "catalan": "catalan_full_examples"}[kind]
    cgp, want, want_exchanges = _full_example(DATA / folder / name)
    lexicon = _lexicon(kind, request)
    board = _board(cgp, kind)
    for generator in GENERATORS:
        moves = board.moves(lexicon, generator=generator)
        got = {m.notation(board.alphabet): m.score for m in moves.placements()}
        assert len(got) == moves.count
        missing = sorted(set(want) - set(got))[:5]
        extra = sorted(set(got) - set(want))[:5]
        assert not missing and not extra, (generator, missing, extra)
        wrong = [(k, got[k], v) for k, v in want.items() if got[k] != v][:5]
        assert not wrong, (generator, wrong)
        exchanges = sorted("".join(sorted(m.notation(board.alphabet).split(" ", 1)[1]))
                           for m in moves if m.kind == "exchange")
        assert exchanges == want_exchanges and moves.exchange_count == len(exchanges)
