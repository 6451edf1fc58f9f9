"""What the type checker is told holds at run time: the package ships its
``py.typed`` marker, the ``Literal`` types of the public signatures are the
values the code accepts, and the kernels' state names declared for the
checker (`rackety.kernels.fields`) are the ones its tables make."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path
from typing import get_args

import pytest

import rackety
from rackety import Board, Lexicon, RacketyError, Rules
from rackety.game import movegen, rules
from rackety.kernels import fields

ROOT = Path(__file__).resolve().parent.parent


def test_py_typed_ships():
    assert (Path(rackety.__file__).parent / "py.typed").is_file()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "py.typed" in config["tool"]["setuptools"]["package-data"]["rackety"]


def test_literal_tuples_are_their_types():
    assert movegen.MODES == get_args(movegen.Mode) == ("all", "top", "best", "count")
    assert movegen.GENERATORS == get_args(movegen.Generator) == ("gaddag", "dawg")
    assert rules.CHALLENGE_RULES == get_args(rules.ChallengeRule) == (
        "void", "single", "double", "5pt", "10pt")
    assert rules.VARIANTS == get_args(rules.Variant) == ("classic", "wordsmog")
    assert rules.PLAYOUT_RULES == get_args(rules.Playout) == ("twice", "subtract")
    assert rules.DEFAULT_CHALLENGE in rules.CHALLENGE_RULES


@pytest.fixture(scope="module")
def opening():
    lexicon = Lexicon.from_words(["PANDY", "PAY", "AY", "YA", "DAY"])
    board = Board.from_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AADNPUY/ 0/0 0")
    return board, lexicon


def test_every_mode_and_generator_is_taken(opening):
    board, lexicon = opening
    for mode in movegen.MODES:
        for generator in movegen.GENERATORS:
            moves = board.moves(lexicon, mode=mode, generator=generator)
            assert moves.best_score == 30, (mode, generator)
    for variant in rules.VARIANTS:
        assert board.moves(lexicon, variant=variant).count > 0


@pytest.mark.parametrize("option", ["mode", "generator", "variant"])
def test_other_values_are_refused_in_one_line(opening, option):
    board, lexicon = opening
    with pytest.raises(RacketyError) as error:
        board.moves(lexicon, **{option: "bogus"})
    assert "bogus" in str(error.value) and "\n" not in str(error.value)


def test_rules_take_their_literals_and_refuse_others():
    for rule in rules.CHALLENGE_RULES:
        assert Rules(challenge=rule).challenge == rule
    for variant in rules.VARIANTS:
        assert Rules(variant=variant).variant == variant
    for playout in rules.PLAYOUT_RULES:
        assert Rules(playout=playout).playout == playout
    for field in ("challenge", "variant", "playout"):
        with pytest.raises(RacketyError, match="bogus"):
            Rules(**{field: "bogus"})
    assert rules.is_variant("wordsmog") and not rules.is_variant("WordSmog")


def test_state_names_declared_for_the_checker_are_the_tables():
    tree = ast.parse(Path(fields.__file__).read_text())
    declared = [node.target.id for stmt in tree.body if isinstance(stmt, ast.If)
                and isinstance(stmt.test, ast.Name) and stmt.test.id == "TYPE_CHECKING"
                for node in stmt.body if isinstance(node, ast.AnnAssign)]
    tables = (fields.ST_LAYOUT, fields.FS_LAYOUT, fields.G_LAYOUT, fields.GS_LAYOUT)
    made = [region.name for table in tables for region in table]
    assert declared == made
    assert all(isinstance(getattr(fields, name), int) for name in made)
