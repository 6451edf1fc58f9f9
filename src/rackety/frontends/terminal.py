"""Playing in the terminal: a person against one to three computer players.

The loop reads commands and writes through two callables, so tests drive it
with a script of lines. Commands: a move in notation (``8D WORD``, ``D8
WORD``), ``exchange ABC``, ``pass``, ``challenge`` (the last play),
``hint`` (the best moves), ``undo`` (back to your previous turn), ``save
FILE.gcg``, ``load FILE.gcg``, ``help``, ``quit``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rackety.errors import RacketyError
from rackety.game.gcg import game_of, read_gcg, record_of, save_gcg
from rackety.game.move import format_leave
from rackety.game.referee import Game, IllegalMoveError, Rules, describe

if TYPE_CHECKING:
    from rackety.lexicon import Lexicon

HELP = ("commands: a move (8D WORD across, D8 WORD down, (X) or . for tiles on the board, "
        "lower case for a blank), exchange ABC, pass, challenge, hint, undo, "
        "save FILE.gcg, load FILE.gcg, help, quit")


class TerminalGame:
    """A game with the human in seat ``human`` and computer players elsewhere."""

    def __init__(self, lexicon: Lexicon, opponents: Sequence[Any], *, human_name: str = "you",
                 seed: int | None = None, layout: str | None = None,
                 alphabet: str | None = None, rules: Rules | None = None,
                 read_line: Callable[[str], str] = input,
                 write: Callable[[Any], None] = print) -> None:
        self.lexicon = lexicon
        self.opponents = list(opponents)
        names = [human_name] + [getattr(p, "name", f"computer{i + 1}")
                                for i, p in enumerate(self.opponents)]
        if len(set(names)) != len(names):
            names = [human_name] + [f"{n}-{i + 1}" for i, n in enumerate(names[1:])]
        self.game = Game(lexicon, names, seed=seed, layout=layout, alphabet=alphabet,
                         rules=rules or Rules(challenge="double"))
        self.read_line = read_line
        self.write = write
        self.human = 0

    # ---------------------------------------------------------------- views
    def show(self) -> None:
        game = self.game
        last = next((e.move for e in reversed(game.events)
                     if e.kind == "play" and e.move is not None), None)
        self.write(_Rendered(game.view(self.human), last))  # the other racks hidden
        scores = "   ".join(f"{name} {score}" for name, score in
                            zip(game.players, game.scores, strict=True))
        rack = format_leave(game.alphabet, game.racks[self.human])
        self.write(f"{scores}   tiles in the bag: {len(game.bag)}")
        if not game.over:
            self.write(f"your rack: {rack}")

    # ----------------------------------------------------------------- loop
    def run(self) -> Game:
        """Play until the game ends or the person quits."""
        self.write(HELP)
        while not self.game.over:
            if self.game.turn == self.human:
                self.show()
                try:
                    line = self.read_line("> ").strip()
                except EOFError:
                    self.write("bye")
                    return self.game
                if not self.command(line):
                    return self.game
            else:
                self.computer_turn()
        self.show()
        self.write(self.result())
        return self.game

    def result(self) -> str:
        game = self.game
        best = max(game.scores)
        winners = [n for n, s in zip(game.players, game.scores, strict=True) if s == best]
        return f"game over: {' and '.join(winners)} {'tie' if len(winners) > 1 else 'wins'} " \
               f"with {best}"

    def computer_turn(self) -> None:
        game = self.game
        seat = game.turn
        player = self.opponents[seat - 1]
        # a computer player challenges a phony at once (it knows the lexicon)
        if game.rules.challenge != "void" and game.last_play_phonies():
            event = game.challenge()
            self.write(f"{game.players[seat]} challenges: {describe(game, event)}")
            return
        move = player.choose(game.view(), self.lexicon)
        event = game.play(move, check=False)
        self.write(describe(game, event))

    def command(self, line: str) -> bool:
        """Carry out one command; False to stop."""
        game = self.game
        word, _, rest = line.partition(" ")
        word = word.lower()
        try:
            if not line:
                return True
            if word in ("quit", "exit", "q"):
                self.write("bye")
                return False
            if word in ("help", "?"):
                self.write(HELP)
            elif word == "hint":
                moves = game.view().moves(self.lexicon, mode="top", top=5)
                for m in moves[:5]:
                    self.write(f"  {m.notation(game.alphabet):<20} {m.score:>4}")
            elif word == "undo":
                self.undo()
            elif word == "challenge":
                event = game.challenge()
                self.write("the play stands" if event is None else
                           describe(game, event))
            elif word == "save":
                self.save(rest.strip())
            elif word == "load":
                self.load(rest.strip())
            else:
                if word == "exchange" or word == "exch":
                    line = f"exch {rest}"
                event = game.play(line)
                self.write(describe(game, event))
        except RacketyError as exc:  # IllegalMoveError included: say why, ask again
            self.write(f"not done: {exc}")
        return True

    def undo(self) -> None:
        """Back to the person's previous turn."""
        game = self.game
        if not game.can_undo:
            raise IllegalMoveError("nothing to undo")
        game.undo()
        while game.turn != self.human and game.can_undo:
            game.undo()

    def save(self, path: str) -> None:
        if not path:
            raise RacketyError("save: give a file name, e.g. save game.gcg")

        save_gcg(record_of(self.game), path)
        self.write(f"saved {path}")

    def load(self, path: str) -> None:
        if not path:
            raise RacketyError("load: give a file name, e.g. load game.gcg")

        record = read_gcg(path)
        game = game_of(record, self.lexicon, rules=self.game.rules)
        if len(game.players) != len(self.game.players):
            raise RacketyError(f"{path}: a game of {len(game.players)} players, this one has "
                               f"{len(self.game.players)}")
        self.game = game
        self.write(f"loaded {path}: {game.players[self.human]} is you")


class _Rendered:
    """The board as rich renders it (colours in a terminal, plain text in a pipe)."""

    def __init__(self, board: Any, last: Any) -> None:
        self.board = board
        self.last = last

    def __rich__(self) -> Any:
        return self.board.rich_text(self.last)

    def __str__(self) -> str:
        return str(self.board)
