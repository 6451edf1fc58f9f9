"""``rackety play``: a game against the computer in the terminal."""

from __future__ import annotations

from typing import Any

import click

from rackety.frontends.cli.base import (
    SEED,
    VARIANT_OPTION,
    PlayersHelp,
    Whole,
    cli,
    layout_name,
    lexicon_spec,
    load_lexicon,
    out_console,
)
from rackety.game.rules import CHALLENGE_RULES, DEFAULT_CHALLENGE, ChallengeRule, Variant
from rackety.lexicon.sources import DEFAULT_LEXICON


def _opponent(spec: str, lexicon: Any) -> tuple[Any, str]:
    """The computer player of a spec (`make_player`) and what it plays by, in a
    line (the leave values of a static player: the lexicon's shipped table, or
    H3 where there is none, in any alphabet)."""
    from rackety.game.heuristics import leave_label
    from rackety.players import make_player

    player = make_player(spec, lexicon)
    model = getattr(player, "leave_model", None)
    how = f", equity with {leave_label(model, lexicon)} leave values" if model else ""
    return player, f"the computer plays {player.name}{how}"


@cli.command("play")
@click.option("--lexicon", "source", default=DEFAULT_LEXICON, show_default=True,
              metavar="SOURCE[:ALPHABET]",
              help="A built-in name, a word list or a .kwg file (words.txt:catalan: a list "
                   "in that alphabet).")
@click.option("--opponent", default="static", show_default=True, metavar="PLAYER",
              cls=PlayersHelp, help="The computer's level: {players}.")
@click.option("--players", default=2, show_default=True, type=Whole(2, 4),
              help="Players in the game, you included.")
@click.option("--board", "board_name", default=None, metavar="NAME",
              help="standard (default), super, or a layout name (super21, wwf15, ...).")
@click.option("--alphabet", default=None, metavar="NAME",
              help="Alphabet of the lexicon and the tiles (default: english).")
@click.option("--challenge", type=click.Choice(CHALLENGE_RULES), default=DEFAULT_CHALLENGE,
              show_default=True, help="Challenge rule.")
@VARIANT_OPTION
@click.option("--seed", type=SEED, default=None, help="Seed of the bag.")
@click.option("--name", default="you", show_default=True, help="Your name in the game.")
@click.option("--clock", type=click.FloatRange(1, 86_400), default=None, metavar="SECONDS",
              help="A game clock of SECONDS for each player (25 minutes: 1500): the "
                   "computer splits its own over its turns (best:clock=SECONDS is the "
                   "player made for it), and each minute or part of one past it costs "
                   "10 points at the end.")
def play_command(source: str, opponent: str, players: int, board_name: str | None,
                 alphabet: str | None, challenge: ChallengeRule, variant: Variant,
                 seed: int | None, name: str, clock: float | None) -> None:
    """Play against the computer in the terminal.

    One screen a turn, for a terminal of 80x24 or more: the board, the scores,
    your rack and the last moves beside it, then what was said. "hint" lists
    the best moves, "help" the commands.

    In another language (--lexicon SPANISH, or words.txt:catalan) the game has
    its alphabet and bag. A tile of several letters is one square, written bare
    (NY, L·L; ny a blank standing for NY); type it [NY] ([ny] a blank), as
    spelled where that reads as the tile (Catalan CANYA), or by its digit
    (Spanish 1 2 3 for CH LL RR): "help" says which."""
    from rackety.frontends.terminal import TerminalGame
    from rackety.game.rules import Rules

    source, alphabet = lexicon_spec(source, alphabet)
    lexicon = load_lexicon(source, alphabet, False)
    made = [_opponent(opponent, lexicon) for _ in range(players - 1)]
    console = out_console()

    def read(prompt: str) -> str:
        return str(console.input(prompt, markup=False))

    session = TerminalGame(lexicon, [player for player, _ in made], human_name=name, seed=seed,
                           layout=layout_name(board_name), alphabet=alphabet,
                           rules=Rules(challenge=challenge, variant=variant), read_line=read,
                           write=console.print, clear=console.clear,
                           size=lambda: (console.width, console.height), clock=clock)
    session.say(made[0][1])
    session.run()
