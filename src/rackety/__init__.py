"""rackety: a crossword-game engine for Python.

>>> import rackety
>>> lexicon = rackety.Lexicon.from_words(["QI", "QIS", "ZA", "ZAS"])
>>> "QI" in lexicon, len(lexicon)
(True, 4)

What needs the compiled kernels (`MoveList`, the players) and the GCG reader
are imported on first use, so that ``import rackety`` stays quick.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from rackety.alphabet import Alphabet, Tile
from rackety.errors import RacketyError
from rackety.game.board import Board, Layout
from rackety.game.leaves import Leaves
from rackety.game.move import Move
from rackety.game.referee import Event, Game, IllegalMoveError
from rackety.game.rules import Rules
from rackety.lexicon import Hooks, Lexicon

if TYPE_CHECKING:
    from rackety.game.gcg import GcgRecord, Pragma, read_gcg, save_gcg, write_gcg
    from rackety.game.movegen import MoveList
    from rackety.lexicon.probability import Alphagram, ProbabilityList
    from rackety.players import (
        BestPlayer,
        Decision,
        GreedyPlayer,
        Player,
        SimPlayer,
        StaticPlayer,
        make_player,
    )

#: names made on first use, and the module that holds each
_LAZY = {"MoveList": "rackety.game.movegen", "make_player": "rackety.players",
         "Player": "rackety.players", "Decision": "rackety.players",
         "GreedyPlayer": "rackety.players", "StaticPlayer": "rackety.players",
         "SimPlayer": "rackety.players", "BestPlayer": "rackety.players",
         "GcgRecord": "rackety.game.gcg", "read_gcg": "rackety.game.gcg",
         "write_gcg": "rackety.game.gcg", "save_gcg": "rackety.game.gcg",
         "Pragma": "rackety.game.gcg", "ProbabilityList": "rackety.lexicon.probability",
         "Alphagram": "rackety.lexicon.probability"}

__all__ = ["Alphabet", "Alphagram", "BestPlayer", "Board", "Decision", "Event", "Game",
           "GcgRecord", "GreedyPlayer", "Hooks", "IllegalMoveError", "Layout", "Leaves",
           "Lexicon", "Move", "MoveList", "Player", "Pragma", "ProbabilityList", "RacketyError",
           "Rules", "SimPlayer", "StaticPlayer", "Tile", "make_player", "read_gcg", "save_gcg",
           "write_gcg"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'rackety' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
