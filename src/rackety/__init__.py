"""rackety: a crossword-game engine for Python.

>>> import rackety
>>> lexicon = rackety.Lexicon.from_words(["QI", "QIS", "ZA", "ZAS"])
>>> "QI" in lexicon, len(lexicon)
(True, 4)
"""

from rackety import jitcache

jitcache.configure()  # before numba is imported anywhere

from rackety.alphabet import Alphabet, Tile  # noqa: E402
from rackety.errors import RacketyError  # noqa: E402
from rackety.game.board import Board, Layout  # noqa: E402
from rackety.game.leaves import Leaves  # noqa: E402
from rackety.game.move import Move  # noqa: E402
from rackety.game.referee import Game, IllegalMoveError  # noqa: E402
from rackety.game.rules import Rules  # noqa: E402
from rackety.lexicon import Hooks, Lexicon  # noqa: E402

__all__ = ["Alphabet", "Board", "Game", "Hooks", "IllegalMoveError", "Layout", "Leaves", "Lexicon",
           "Move",
           "RacketyError", "Rules", "Tile"]
__version__ = "0.1.0"
