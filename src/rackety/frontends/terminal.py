"""Playing in the terminal: a person against one to three computer players.

Each turn is one screen that fits a terminal of 80x24: the board (its 15 rows
and the column letters), beside it the scores, the bag, your rack, the tiles
you have not seen and the last moves, below it what the last command and the
computer's answer said, then the prompt. The loop reads commands and writes
through callables, so tests drive it with a script of lines. Commands: a move
in notation (``8D WORD``, ``D8 WORD``), ``exchange ABC``, ``pass``,
``challenge`` (the last play), ``hint`` (the best moves, one placement of each
word), ``unseen`` (the tiles you have not seen, by letter, as the side panel
lists them while they fit in it), ``undo`` (back to your previous turn), ``save
FILE.gcg`` (your rack only: the others stay hidden), ``load FILE.gcg``,
``help``, ``quit``.

Tiles of several letters (Catalan ``L·L``, ``NY``, ``QU``, Spanish ``CH``,
``LL``, ``RR``) are one square of three columns on the board, written bare
(``NY``, ``L·L``; a blank standing for one in lower case, ``ny``), and one tile
on the rack. They are typed as the move notation reads them: ``[NY]`` always
(``[ny]`` for a blank standing for NY), the label bare where plain text reads
it as that tile (Catalan ``CANYA``, ``COL·LA``, not Spanish ``CH``, which reads
as C + H) and the digits the alphabet reads as one (Spanish ``1`` ``2`` ``3``);
the help says which (`rackety.frontends.common.tile_keys`).
"""

from __future__ import annotations

import re
import textwrap
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text

from rackety.errors import RacketyError
from rackety.frontends.common import hint, resolve_leave, tile_keys
from rackety.game.gcg import game_of, read_gcg, record_of, save_gcg
from rackety.game.heuristics import leave_label
from rackety.game.move import format_leave
from rackety.game.referee import Event, Game, IllegalMoveError, describe
from rackety.game.render import unseen_groups, unseen_text
from rackety.game.rules import Rules
from rackety.players.base import decide_on_clock

if TYPE_CHECKING:
    from rackety.alphabet import Alphabet
    from rackety.lexicon import Lexicon

HELP = ("play: 8D WORD across, D8 WORD down (lower case: a blank; (X) or .: a board tile)",
        "or: exchange ABC, pass, challenge, hint, unseen, undo, save FILE, load FILE, help, "
        "quit")
PROMPT = "your move> "
SCREEN = (80, 24)  # the smallest terminal a screen is drawn for: columns, lines
HINT_ROWS = 5  # moves in a hint, at most
UNSEEN_LINES = 3  # the side panel's lines of unseen tiles, at most (else only the count)
_GAP = 2  # columns between the board and the side panel
_PANEL_MIN = 26  # columns the side panel needs beside the board, else it goes below
_TILE_STYLE = "bold #1a1208 on #d9b77e"  # the rack's tiles, as the board draws tiles
_KINDS = {"pass": "pass", "withdrawn": "withdrawn", "lost_turn": "lost turn",
          "challenge_bonus": "challenge bonus", "end_points": "tiles left",
          "end_penalty": "rack left", "time_penalty": "time"}


class TerminalGame:
    """A game with the human in seat 0 and computer players elsewhere.

    ``write`` gets each screen (a `rich.text.Text`; ``str()`` of it is plain
    text), ``clear`` (if given) is called before each screen, and ``size``
    gives the terminal's columns and lines (80x24 when not given)."""

    def __init__(self, lexicon: Lexicon, opponents: Sequence[Any], *, human_name: str = "you",
                 seed: int | None = None, layout: str | None = None,
                 alphabet: str | None = None, rules: Rules | None = None,
                 read_line: Callable[[str], str] = input,
                 write: Callable[[Any], None] = print,
                 clear: Callable[[], None] | None = None,
                 size: Callable[[], tuple[int, int]] | None = None,
                 clock: float | None = None) -> None:
        self.lexicon = lexicon
        self.opponents = list(opponents)
        names = [human_name] + [getattr(p, "name", f"computer{i + 1}")
                                for i, p in enumerate(self.opponents)]
        if len(set(names)) != len(names):
            names = [human_name] + [f"{n}-{i + 1}" for i, n in enumerate(names[1:])]
        self.game = Game(lexicon, names, seed=seed, layout=layout, alphabet=alphabet,
                         rules=rules)
        self.read_line = read_line
        self.write = write
        self.clear = clear
        self.size = size or (lambda: SCREEN)
        self.human = 0
        self.messages: list[str | Text] = []  # what to say below the next board
        self._leave: Any = False  # the hints' leave model (None: none), made on the first hint
        self.help = HELP + tiles_help(self.game.alphabet)
        # a game clock of ``clock`` seconds a player (None: none), and each one's time used
        self.clock = clock
        self.used = [0.0] * len(names)

    def say(self, message: str | Text) -> None:
        """Say something below the next board."""
        self.messages.append(message)

    # ---------------------------------------------------------------- views
    def screen(self) -> Text:
        """The board with the side panel, then the messages (which are used up)."""
        columns, lines = self.size()
        board = self._board_lines()
        board_width = max(line.cell_len for line in board)
        room = columns - board_width - _GAP
        rows: list[Text] = []
        if room >= _PANEL_MIN:
            panel = self._panel(min(room, 34), len(board))
            for i, line in enumerate(board):
                row = line.copy()
                if i < len(panel) and panel[i].plain:
                    row.pad_right(board_width - row.cell_len + _GAP)
                    row.append_text(panel[i])
                rows.append(row)
        else:  # a wide board (super21): the panel goes below it, shortened
            rows.extend(board)
            rows.extend(self._status(columns))
        said = [line for message in self.messages for line in _lines(message, columns)]
        self.messages = []
        room = max(lines - len(rows) - 1, 6)  # a screen too tall scrolls the board's top off
        if len(said) > room:
            said = said[len(said) - room:]
        rows.extend(said)
        for row in rows:
            row.truncate(columns)
        return Text("\n").join(rows)

    def _board_lines(self) -> list[Text]:
        """The board as rich draws it (the last play's tiles marked), tiles of
        several letters bare in squares of three columns (``NY``, ``L·L``, ``ny``
        for a blank standing for NY), without the racks and scores under it:
        the panel says those, with the players' names."""
        game = self.game
        last = next((e.move for e in reversed(game.events)
                     if e.kind == "play" and e.move is not None), None)
        view = game.view(self.human)
        text = view.rich_text(last, bare=True, players=False)
        return list(text.split("\n"))[:view.layout.size + 1]

    def _panel(self, width: int, height: int) -> list[Text]:
        """The side panel: the players and scores (the player to move marked),
        the bag, your rack, the tiles you have not seen (`unseen_lines`), then as
        many of the last moves as fit."""
        game = self.game
        lines = [Text(f"{self.lexicon.name}, {game.rules.challenge} challenge", style="dim")]
        for seat, (name, score) in enumerate(zip(game.players, game.scores, strict=True)):
            mark = "» " if seat == game.turn and not game.over else "  "
            row = Text(mark)
            row.append(name, style="bold" if seat == self.human else "")
            if seat != self.human:
                row.append(" (computer)", style="dim")
            row.truncate(width - 5, overflow="ellipsis")
            row.pad_right(width - 5 - row.cell_len)
            row.append(f"{score:>5}", style="bold")
            lines.append(row)
            if self.clock is not None:
                lines.append(Text(f"    clock {self.clock_text(seat)}",
                                  style="red" if self.used[seat] > self.clock else "dim"))
        lines.append(Text(f"  bag {len(game.bag)}   unseen by you "
                          f"{game.view(self.human).unseen_count}"))
        if not game.over:
            lines += [Text(""), Text("your rack", style="bold"), Text("  ") + self._rack()]
            lines += self.unseen_lines(width)
        events = [e for e in game.events if e.kind != "other" or e.written]
        left = height - len(lines) - 2
        if left > 0 and events:
            lines += [Text(""), Text("last moves", style="bold")]
            name_width = min(8, max(len(n) for n in game.players))
            what_width = width - name_width - 2 - 5 - 1
            for event in events[-left:]:
                row = Text(f"  {game.players[event.seat]:<{name_width}.{name_width}} ")
                what = Text(self._what(event))
                what.truncate(what_width, overflow="ellipsis")
                what.pad_right(what_width - what.cell_len)
                row.append_text(what)
                row.append(f"{event.score:>5}")
                lines.append(row)
        return lines

    def unseen_lines(self, width: int) -> list[Text]:
        """The tiles the person has not seen, by letter (``AA B EEE ?``), in
        lines of ``width`` columns under a title: no more than `UNSEEN_LINES`
        of them, else the title says to type ``unseen``."""
        groups = unseen_groups(self.game.view(self.human), brackets=False)
        if not groups:
            return []
        wrapped = textwrap.wrap(" ".join(groups), width - 2)
        if len(wrapped) > UNSEEN_LINES:
            return [Text(""), Text("unseen (type unseen to list)", style="bold")]
        return [Text(""), Text("unseen", style="bold")] + [Text(f"  {line}") for line in wrapped]

    def _status(self, width: int) -> list[Text]:
        """The panel in two lines, under a board too wide to have it beside."""
        game = self.game
        scores = Text()
        for seat, (name, score) in enumerate(zip(game.players, game.scores, strict=True)):
            scores.append(("» " if seat == game.turn and not game.over else "  ") + name)
            scores.append(f" {score}   ", style="bold")
            if self.clock is not None:
                scores.append(f"({self.clock_text(seat)})   ", style="dim")
        bag = Text(f"  bag {len(game.bag)}   unseen by you {game.view(self.human).unseen_count}")
        if not game.over:
            bag += Text("   your rack ", style="bold") + self._rack()
        return [scores, bag]

    def clock_text(self, seat: int) -> str:
        """What is left on ``seat``'s clock, ``m:ss`` (``-m:ss`` past it)."""
        left = (self.clock or 0.0) - self.used[seat]
        whole = int(abs(left))
        return f"{'-' if left < 0 else ''}{whole // 60}:{whole % 60:02d}"

    def _rack(self) -> Text:
        """The person's rack as tiles: in alphabet order, blanks (``?``) last."""
        rack = self.game.racks[self.human]
        text = Text()
        for code in sorted(c for c in rack if c) + [0] * sum(1 for c in rack if not c):
            text.append(f" {self.game.alphabet.format([code])} ", style=_TILE_STYLE)
        return text

    def _what(self, event: Event) -> str:
        """An event in a few characters: the move, or what happened."""
        alphabet = self.game.alphabet
        if event.kind == "play" and event.move is not None:
            return event.move.notation(alphabet)
        if event.kind == "exchange":
            if event.seat == self.human:
                return f"exch {alphabet.format(event.tiles, brackets=True)}"
            return f"exch {len(event.tiles)}"  # which tiles is the computer's secret
        return _KINDS.get(event.kind, event.written or event.kind)

    def show(self) -> None:
        """Draw the screen."""
        if self.clear is not None:
            self.clear()
        self.write(self.screen())

    # ----------------------------------------------------------------- loop
    def run(self) -> Game:
        """Play until the game ends or the person quits."""
        for line in self.help:
            self.say(line)
        while not self.game.over:
            if self.game.turn == self.human:
                self.show()
                started = time.perf_counter()
                try:
                    line = self.read_line(PROMPT).strip()
                except EOFError:
                    self.write("bye")
                    return self.game
                finally:
                    self.used[self.human] += time.perf_counter() - started
                if not self.command(line):
                    return self.game
            else:
                self.computer_turn()
        self.overtime()
        self.say(self.result())
        self.show()
        return self.game

    def overtime(self) -> None:
        """At the end, the rules' points off each player past the clock
        (`rackety.game.referee.Game.charge_overtime`), as time-penalty events."""
        if self.clock is None:
            return
        for event in self.game.charge_overtime(self.used, self.clock):
            self.say(f"{self.game.players[event.seat]} went over the clock: {event.score}")

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
            assert event is not None  # a phony comes off the board under every rule
            self.say(f"{game.players[seat]} challenges: {describe(game, event)}")
            return
        started = time.perf_counter()
        left = None if self.clock is None else self.clock - self.used[seat]
        move = decide_on_clock(player, game.view(), self.lexicon, left).move
        self.used[seat] += time.perf_counter() - started
        event = game.play(move, check=False)
        self.say(describe(game, event))

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
                for text in self.help:
                    self.say(text)
            elif word == "hint":
                self.hint()
            elif word == "unseen":
                self.say(unseen_text(game.view(self.human)))
            elif word == "undo":
                self.undo()
            elif word == "challenge":
                event = game.challenge()
                self.say("the play stands" if event is None else describe(game, event))
            elif word == "save":
                self.save(rest.strip())
            elif word == "load":
                self.load(rest.strip())
            else:
                if word == "exchange" or word == "exch":
                    # a rack has no lower case (a blank is ?): [ch] is the tile CH
                    line = f"exch {rest.upper()}"
                event = game.play(line)
                self.say(describe(game, event))
        except RacketyError as exc:  # IllegalMoveError included: say why, ask again
            self.say(f"not done: {exc}{_spelling_note(game.alphabet, line)}")
        return True

    def hint(self) -> None:
        """The best moves as the judge sees them (the exact endgame with the bag
        empty, the pre-endgame with one or two tiles in it, else equity), one
        placement of each word, as a table."""
        game = self.game
        if self._leave is False:  # the shipped table, else H3 (any alphabet)
            self._leave = resolve_leave("static", self.lexicon)
        view = game.view(self.human)
        verdict = hint(view, self.lexicon, self._leave, HINT_ROWS)
        if verdict.phase == "static":
            how = ("equity = score (no leave values for " + game.alphabet.name + ")"
                   if self._leave is None else "equity = score + leave value ("
                   + leave_label(self._leave, self.lexicon) + ")")
        else:
            how = f"{verdict.valued_by}: value = spread to the end of the game" \
                if verdict.unit == "spread" else verdict.valued_by
        self.say(Text(f"best moves, {how}", style="bold"))
        rows = [(v.move.notation(game.alphabet), str(v.move.score or 0),
                 format_leave(game.alphabet, v.move.leave_codes or ()) or "-", f"{v.value:.1f}",
                 f"{v.win_pct:.1f}") for v in verdict.ranked[:HINT_ROWS]]
        width = max([len("move")] + [len(r[0]) for r in rows])
        self.say(Text(f"  {'move':<{width}}  score  {'leave':<7}   value   win %", style="dim"))
        for move, score, leave, value, win in rows:
            self.say(f"  {move:<{width}}  {score:>5}  {leave:<7}  {value:>6}  {win:>6}")

    def undo(self) -> None:
        """Back to the person's previous turn."""
        game = self.game
        if not game.can_undo:
            raise IllegalMoveError("nothing to undo")
        game.undo()
        while game.turn != self.human and game.can_undo:
            game.undo()
        self.say("back to your turn")

    def save(self, path: str) -> None:
        """Save the game as GCG with only the racks the person has seen."""
        if not path:
            raise RacketyError("save: give a file name, e.g. save game.gcg")

        save_gcg(record_of(self.game, seen_by=self.human), path)
        self.say(f"saved {path}")

    def load(self, path: str) -> None:
        """Go on with a saved game: the racks the record gives (yours, from a
        save here), the others drawn from the tiles you have not seen."""
        if not path:
            raise RacketyError("load: give a file name, e.g. load game.gcg")

        record = read_gcg(path)
        game = game_of(record, self.lexicon, rules=self.game.rules)
        if len(game.players) != len(self.game.players):
            raise RacketyError(f"{path}: a game of {len(game.players)} players, this one has "
                               f"{len(self.game.players)}")
        self.game = game
        self.say(f"loaded {path}: {game.players[self.human]} is you")




def tiles_help(alphabet: Alphabet) -> tuple[str, ...]:
    """A line of help on typing the alphabet's tiles of several letters (none
    when it has none): ``tiles CH LL RR: [CH] or 1, ...; a blank as one:
    [ch]``."""
    multi = [t for t in alphabet.letters if len(t.label) > 1]
    if not multi:
        return ()
    keys = tile_keys(alphabet)
    ways = []
    for tile in multi:
        typed = [k for k, label in keys.items() if label == tile.label]
        bare = [k for k in typed if k == tile.label]
        ways.append(" or ".join(bare + [f"[{tile.label}]"] + [k for k in typed if k not in bare]))
    return (f"tiles {' '.join(t.label for t in multi)}: {', '.join(ways)}; "
            f"a blank as one: [{multi[0].blank_label}]",)


def _spelling_note(alphabet: Alphabet, line: str) -> str:
    """For a move refused, how to type a tile of several letters its word
    spells letter by letter where plain text does not read it as that tile
    (Spanish CH, read as C + H): empty when there is none."""
    parts = line.split()
    if len(parts) < 2 or not parts[0][:1].isalnum() or parts[0].lower().startswith("exch"):
        return ""
    word = re.sub(r"\[[^\]]*\]", "", parts[-1]).upper()
    keys = tile_keys(alphabet)
    for tile in alphabet.letters:
        if len(tile.label) > 1 and tile.label in word and tile.label not in keys:
            aliases = "".join(f" or {k}" for k, label in keys.items() if label == tile.label)
            return (f" (the tile {tile.label} is typed [{tile.label}]{aliases}; "
                    f"{tile.label} is {' + '.join(tile.label)})")
    return ""


def _lines(message: str | Text, width: int) -> list[Text]:
    """A message as screen lines of at most ``width`` columns."""
    if isinstance(message, Text):
        return [message.copy()]
    return [Text(line) for line in textwrap.wrap(message, width, subsequent_indent="  ")] \
        or [Text("")]
