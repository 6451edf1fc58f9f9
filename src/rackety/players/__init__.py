"""Computer (and human) players: each decides on a move for the position it sees.

- `GreedyPlayer` (Appel and Jacobson 1988): the highest-scoring placement.
- `StaticPlayer` (Gordon 1993): the best placement by equity, score plus the
  value of the leave under a `rackety.game.movegen.LeaveModel` (Gordon's heuristics
  `H1`/`H2`/`H3` of `rackety.game.heuristics`, or a KLV2 file), and Gordon's
  exchange rule.
- `SimPlayer`: Monte Carlo simulation of the best static candidates
  (`rackety.search.simulation`).
- `HumanPlayer`: reads moves in players' notation.
- `EndgamePlayer`: another player, except that with the bag empty it solves
  the endgame exactly (`rackety.search.endgame`).
- `BestPlayer`: the championship player, within a time budget a move: the
  simulation with inference, the pre-endgame and the exact endgame, each in
  its phase (`rackety.players.best`).
- `UcgiPlayer`: any engine that speaks UCGI, run as a process
  (`rackety.players.ucgi`).

Every player has ``decide(board, lexicon)``, which returns a `Decision`: the
move and what the player found (the top placement score, the endgame
solver's or the simulation's result), and ``choose(board, lexicon)``, the
decision's move. The computer players but `UcgiPlayer` keep to a
`rackety.search.control.Control` (a deadline and a stop signal) given to
``decide`` as ``control=``, and say so (``controlled``;
`rackety.players.base.decide_under`).

`make_player` makes one from a short spec (``static``, ``greedy``, ``h1``,
``h2``, ``h3``, ``leaves:FILE.klv2``, ``sim``, ``best``, ``human``, ``ucgi:COMMAND``; a
computer player with ``+endgame``), the words the command line uses. ``static`` is the default
computer opponent: a `StaticPlayer` with the leave table shipped for the
lexicon (``rackety/data/leaves/<lexicon name>.klv2``, trained by
``rackety leaves train``; see `rackety.Leaves.builtin`), or H3 when none is shipped.

>>> from rackety import Board, Lexicon
>>> lexicon = Lexicon.from_words(["PANDY", "PAY", "AY", "YA", "DAY", "PA"])
>>> board = Board.from_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AADNPUY/ 0/0 0")
>>> make_player("greedy", lexicon).choose(board, lexicon)
Move('8H PANDY', score=30, equity=30.0)
>>> make_player("h2", lexicon).decide(board, lexicon)
Decision(move=Move('8H PANDY', score=30, equity=27.3), best_score=30, endgame=None, simulation=None)
"""

from rackety.game.heuristics import H1, H2, H3, Balance, RackHeuristic, leave_model
from rackety.players.base import Decision, Player, PlayerBase
from rackety.players.best import BestPlayer
from rackety.players.endgame import ENDGAME_SUFFIX, EndgamePlayer
from rackety.players.greedy import GreedyPlayer
from rackety.players.human import HumanPlayer
from rackety.players.registry import PLAYER_SPECS, make_player
from rackety.players.sim import SimPlayer
from rackety.players.static import StaticPlayer, static_choice, static_decision
from rackety.players.ucgi import UcgiPlayer

__all__ = [
    "ENDGAME_SUFFIX",
    "H1",
    "H2",
    "H3",
    "PLAYER_SPECS",
    "Balance",
    "BestPlayer",
    "Decision",
    "EndgamePlayer",
    "GreedyPlayer",
    "HumanPlayer",
    "Player",
    "PlayerBase",
    "RackHeuristic",
    "SimPlayer",
    "StaticPlayer",
    "UcgiPlayer",
    "leave_model",
    "make_player",
    "static_choice",
    "static_decision",
]
