"""rackety: a crossword-game engine for Python.

>>> import rackety
>>> lexicon = rackety.Lexicon.from_words(["QI", "QIS", "ZA", "ZAS"])
>>> "QI" in lexicon, len(lexicon)
(True, 4)
"""

from rackety.alphabet import Alphabet, Tile
from rackety.errors import RacketyError
from rackety.game.board import Board, Layout
from rackety.game.leaves import Leaves
from rackety.game.move import Move
from rackety.game.referee import Game, IllegalMoveError
from rackety.game.rules import Rules
from rackety.lexicon import Hooks, Lexicon

__all__ = ["Alphabet", "Board", "Game", "Hooks", "IllegalMoveError", "Layout", "Leaves", "Lexicon",
           "Move",
           "RacketyError", "Rules", "Tile"]
__version__ = "0.1.0"
