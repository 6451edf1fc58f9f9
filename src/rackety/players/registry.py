"""Players by name: `make_player` from the short specs the command line uses
(a static player's leave model by `rackety.game.heuristics.leave_model`)."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from rackety import reprs
from rackety.errors import RacketyError, clip, parse_float, parse_int
from rackety.game.heuristics import HEURISTICS, leave_model
from rackety.players.base import Player, PlayerBase
from rackety.players.best import BestPlayer
from rackety.players.endgame import ENDGAME_SUFFIX, EndgamePlayer
from rackety.players.greedy import GreedyPlayer
from rackety.players.human import HumanPlayer
from rackety.players.sim import SimPlayer
from rackety.players.static import StaticPlayer
from rackety.players.ucgi import UCGI_PREFIX, UcgiPlayer

if TYPE_CHECKING:
    from rackety.lexicon import Lexicon

#: the player specs `make_player` takes, each kind with what it is, said for people
#: (the command line's help and the UCGI engine's take it from here)
PLAYER_KINDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("static",), "the lexicon's shipped leave table, H3 where there is none"),
    (("greedy",), "the highest score"),
    (("h1", "h2", "h3"), "Gordon's heuristics; weights fitted from the tiles for alphabets "
                         "other than English"),
    (("leaves:FILE.klv2",), "a leave table"),
    (("sim", "sim:N"), "simulation, N rollouts a candidate, default 100"),
    (("best", "best:SECONDS", "best:clock=SECONDS"),
     "the championship player: simulation with inference, pre-endgame and exact endgame, "
     "SECONDS a move (default 2) or a game clock of SECONDS for the whole game"),
    (("human",), "asks on the terminal"),
    (("ucgi:COMMAND",), "a UCGI engine started with COMMAND, no commas, e.g. "
                        "'ucgi:rackety ucgi --player sim'"),
    (("PLAYER+endgame",), "any computer player but ucgi, with exact endgames once the bag "
                          "is empty, e.g. static+endgame"),
)
PLAYER_SPECS = tuple(spec for specs, _ in PLAYER_KINDS for spec in specs)
#: the computer players a person picks from a menu (the web app's levels), with
#: a short label each: the same players as `PLAYER_KINDS` says them in help
PLAYER_LABELS: dict[str, str] = {
    "static": "Static equity: the trained leave table (H3 where there is none)",
    "greedy": "Greedy: the highest score",
    "h1": "Gordon H1: score and rack balance",
    "h2": "Gordon H2: H1 with duplicate and Q penalties",
    "h3": "Gordon H3: H2 with vowel balance",
    "sim": "Simulation (static candidates, 2 plies) within a time budget",
    "best": "Championship: simulation with inference, pre-endgame and exact endgame, "
            "within a time budget",
}


def describe_players(without: tuple[str, ...] = ()) -> str:
    """The player specs and what each is, in one sentence for a help text
    (``without`` the kinds named by one of their specs)."""
    parts = [f"{(' or ' if len(specs) == 2 else ', ').join(specs)} ({what})"
             for specs, what in PLAYER_KINDS if not set(specs) & set(without)]
    return ", ".join(parts[:-1]) + (", and " if len(parts) > 1 else "") + parts[-1]


def _write_stdout(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def make_player(spec: str, lexicon: Lexicon, *, name: str | None = None,
                named: Mapping[str, str] | None = None, files: bool = True) -> Player:
    """A player from its spec: ``static`` (the shipped leave table of the
    lexicon, `rackety.Leaves.builtin`, else H3), ``greedy``, ``h1``, ``h2``,
    ``h3`` (Gordon's heuristics, in any alphabet: `rackety.game.heuristics`),
    ``leaves:FILE.klv2`` (static with a KLV2 file), ``sim`` or ``sim:N`` (Monte
    Carlo simulation over H3, N rollouts a candidate, 100 by default), ``best``,
    ``best:SECONDS`` or ``best:clock=SECONDS`` (the championship player,
    `BestPlayer`: SECONDS a move, 2 by default, or a game clock of SECONDS),
    ``human`` (standard input and output) or ``ucgi:COMMAND`` (a UCGI engine
    started with COMMAND, `rackety.players.ucgi.UcgiPlayer`; all of COMMAND is
    the engine's, so no suffix follows it). The name defaults to the spec (the
    file's stem for ``leaves:``, ``ucgi`` for an engine). A ``+endgame`` suffix
    wraps the player in an `EndgamePlayer` (``h3+endgame``). A static player's
    leave spec is read by `rackety.game.heuristics.leave_model`, with ``named``
    (``leaves:NAME``, the web app's tables) and ``files`` (whether a spec may
    name a file) as it takes them."""
    player = _make(spec, lexicon, name=name, named=named, files=files)
    if isinstance(player, PlayerBase):
        extra: dict[str, object] = {} if name is None else {"name": name}
        if named is not None:
            extra["named"] = dict(named)
        if not files:
            extra["files"] = False
        player.made = reprs.call("make_player", spec, lexicon, **extra)
    return player


def _make(spec: str, lexicon: Lexicon, *, name: str | None,
          named: Mapping[str, str] | None, files: bool) -> Player:
    key = spec.strip().lower()
    if key.startswith(UCGI_PREFIX):
        return UcgiPlayer(spec.strip()[len(UCGI_PREFIX):], name=name or "ucgi")
    if key.endswith(ENDGAME_SUFFIX):
        base = spec.strip()[:-len(ENDGAME_SUFFIX)]
        if base.strip().lower() in ("human", "") or \
                base.strip().lower().endswith(ENDGAME_SUFFIX):
            raise RacketyError(f"player {clip(spec)!r}: +endgame goes once, after a computer "
                               "player (static, greedy, h1, h2, h3, leaves:FILE.klv2, sim)")
        inner = make_player(base, lexicon, named=named, files=files)
        return EndgamePlayer(inner, name=name or f"{inner.name}{ENDGAME_SUFFIX}")
    if key == "static":
        return StaticPlayer(leave_model("static", lexicon), name or "static")
    if key == "greedy":
        return GreedyPlayer(name or "greedy")
    if key == "human":
        return HumanPlayer(input, _write_stdout, name=name or "human")
    if key.startswith("best:clock="):
        total = parse_float(key[11:], f"player {clip(spec.strip())!r}: clock seconds", 0.1,
                            864_000.0)
        return BestPlayer(clock=total, name=name or key)
    if key == "best" or key.startswith("best:"):
        seconds = parse_float(key[5:] or "2", f"player {clip(spec.strip())!r}: seconds",
                              0.01, 86_400.0)
        return BestPlayer(seconds, name=name or ("best" if key == "best" else key))
    if key == "sim" or key.startswith("sim:"):
        rollouts = parse_int(key[4:] or "100", f"player {clip(spec.strip())!r}: rollouts", 1,
                             1_000_000_000)
        return SimPlayer("static", iterations=rollouts, name=name or "sim")
    if key in HEURISTICS or key.startswith("leaves:"):
        model = leave_model(spec, lexicon, named=named, files=files)
        if name is None:
            name = key if key in HEURISTICS else f"leaves:{Path(spec.strip()[7:]).stem}"
        return StaticPlayer(model, name)
    raise RacketyError(f"unknown player {clip(spec)!r}; players: {', '.join(PLAYER_SPECS)}")
