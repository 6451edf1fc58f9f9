"""Positions: board layouts (`Layout`) and one position of a game (`Board`).

A `Board` is what a CGP line says (docs/FORMATS.md section 4): the tiles on the board,
every player's rack and score (the player to move first), the count of scoreless
turns and the CGP operations. It reads and writes CGP, reads moves in players'
notation, scores a placement (the one scorer of the package), plays a move into a
new position and draws itself as text, in a terminal (rich) and as SVG.

The grid is a uint8 array [size, size]: 0 an empty square, ``t`` the tile with
code t, ``BLANK_FLAG | t`` a blank standing for t (docs/FORMATS.md section 1).

>>> board = Board.from_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AADNPUY/ 0/0 0")
>>> move = board.parse_move("8H PANDY")
>>> board.score(move)
30
>>> board.play(move).cgp()
'15/15/15/15/15/15/15/7PANDY3/15/15/15/15/15/15/15 /AU 0/30 0'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

from rackety.alphabet import BLANK_FLAG, Alphabet, normalize
from rackety.errors import RacketyError, clip, parse_int
from rackety.game import render
from rackety.game.layout import Layout, as_layout, square_name
from rackety.game.move import Move, parse_move
from rackety.game.rules import CGP_OPCODES, Rules

if TYPE_CHECKING:
    from rich.text import Text

    from rackety.game.movegen import Generator, LeaveFunction, Mode, MoveList
    from rackety.game.rules import Variant
    from rackety.lexicon import Lexicon

def _as_alphabet(alphabet: Alphabet | str) -> Alphabet:
    return alphabet if isinstance(alphabet, Alphabet) else Alphabet.load(alphabet)


def _movegen() -> ModuleType:
    """`rackety.game.movegen`, imported on the first call (numba loads only when
    moves are asked for) and then kept: an import statement costs each call."""
    global _MOVEGEN
    if _MOVEGEN is None:
        from rackety.game import movegen

        _MOVEGEN = movegen
    return _MOVEGEN


_MOVEGEN: ModuleType | None = None


@cache
def _total_tiles(alphabet: Alphabet) -> int:
    """How many tiles the alphabet's set has."""
    return sum(tile.count for tile in alphabet.tiles)


@cache
def _distribution(alphabet: Alphabet) -> np.ndarray:
    """The full tile set, count per code (read-only: `Board.distribution` copies)."""
    counts = np.array([t.count for t in alphabet.tiles], dtype=np.int64)
    counts.flags.writeable = False
    return counts


@cache
def _points(alphabet: Alphabet) -> tuple[int, ...]:
    """Face value of every board code 0..255: a blank (flagged or not) is worth 0."""
    return tuple(alphabet.tiles[c].points if 0 < c < alphabet.size else 0
                 for c in range(256))


@lru_cache(maxsize=1024)
def _rules_of(base: Rules | None, alphabet: Alphabet, operands: tuple[str | None, ...]
              ) -> Rules:
    """The rules of positions with these rules set, alphabet and CGP rules
    operations (`CGP_OPCODES`, in order): one object for them all, so what is
    made from it (`rackety.game.state.board_consts`) is found again."""
    options = {op: text for op, text in zip(CGP_OPCODES, operands, strict=True)
               if text is not None}
    return Rules.from_options(options, base=base).of(alphabet)


_DIGITS_OR_NOT = re.compile(r"[0-9]+|[^0-9]+")  # ASCII digits only: '٣' is not a number
#: scores and the scoreless-turn count are read within these bounds (the bingo
#: bonus within alphabet.MAX_BINGO_BONUS), so that sums of them never overflow
#: the int32 and int64 of numpy and the kernels
SCORE_LIMIT = 1_000_000_000
ZERO_TURNS_LIMIT = 1_000_000
MAX_PLAYERS = 16  # racks a CGP may hold (a game has 2 to 4 players)


# ---------------------------------------------------------------- positions
class Board:
    """One position: tiles, racks, scores, scoreless turns and CGP operations.

    ``racks[0]`` and ``scores[0]`` belong to the player to move, then the others
    in turn order; a rack is a tuple of tile codes (0 = blank) in the order read,
    an empty rack is unknown. ``options`` are the CGP operations in their order,
    opcode -> operand. ``Board(cgp)`` is ``Board.from_cgp(cgp)``; ``repr`` pastes
    back. Two boards are equal when alphabet, layout, tiles, racks (as multisets),
    scores, scoreless turns and options are.
    """

    __hash__ = None  # type: ignore[assignment]  # mutable, like python-chess boards

    def __init__(self, cgp: str | None = None, *, alphabet: Alphabet | str | None = None,
                 layout: Layout | str | None = None, source: str = "cgp",
                 files: bool = True, default_alphabet: Alphabet | str | None = None) -> None:
        if cgp is None:
            alpha = _as_alphabet(alphabet or "english")
            lay = as_layout(layout or alpha.board)
            self._set(alpha, lay, np.zeros((lay.size, lay.size), dtype=np.uint8),
                      [(), ()], [0, 0], 0, {})
        else:
            self._parse(cgp, alphabet, layout, source, files, default_alphabet)

    def _set(self, alphabet: Alphabet, layout: Layout, grid: np.ndarray,
             racks: list[tuple[int, ...]], scores: list[int], zero_turns: int,
             options: dict[str, str]) -> None:
        self.alphabet: Alphabet = alphabet
        self.layout: Layout = layout
        self.grid: np.ndarray = grid
        self.racks: list[tuple[int, ...]] = racks
        self.scores: list[int] = scores
        self.zero_turns: int = zero_turns
        self.options: dict[str, str] = options
        self._rules: Rules | None = None  # rules set in code (their CGP operations in options)
        # `rules`, and what it was made of
        self._rules_made: tuple[tuple[Rules | None, Alphabet, tuple[str | None, ...]],
                                Rules] | None = None

    # ---------------------------------------------------------- constructors
    @classmethod
    def from_cgp(cls, text: str, *, alphabet: Alphabet | str | None = None,
                 layout: Layout | str | None = None, source: str = "cgp",
                 files: bool = True, default_alphabet: Alphabet | str | None = None
                 ) -> Board:
        """Read a CGP line. An ``alphabet`` or ``layout`` given here wins over the
        CGP's ``ld``/``bdn`` operations; without either, English on standard15 (or
        the ``ld`` alphabet's own board; without ``ld``, ``default_alphabet``,
        else a ``lex`` naming another language's built-in lexicon, ``CATALAN``,
        names its tile set). ``files=False`` takes ``ld`` as a built-in
        alphabet's name only, never a file's (what a server reads).
        Errors name ``source``."""
        return cls(text, alphabet=alphabet, layout=layout, source=source, files=files,
                   default_alphabet=default_alphabet)

    @classmethod
    def empty(cls, alphabet: Alphabet | str = "english", layout: Layout | str | None = None,
              players: int = 2) -> Board:
        """An empty board, every rack unknown, every score 0. A non-English alphabet
        or a layout other than the alphabet's own is recorded as ``ld``/``bdn``
        operations, so the CGP reads back as the same position."""
        if players < 1:
            raise RacketyError(f"players: {players}, at least 1 expected")
        alpha = _as_alphabet(alphabet)
        lay = as_layout(layout or alpha.board)
        board = cls(alphabet=alpha, layout=lay)
        board.racks = [()] * players
        board.scores = [0] * players
        if alpha.name != "english":
            board.options["ld"] = alpha.name
        if lay.name != alpha.board:
            board.options["bdn"] = lay.name
        return board

    def _parse(self, text: str, alphabet: Alphabet | str | None,
               layout: Layout | str | None, source: str, files: bool,
               default_alphabet: Alphabet | str | None = None) -> None:
        if not isinstance(text, str):
            raise RacketyError(f"{source}: a CGP is text, not {type(text).__name__}")
        text = normalize(text)  # composed, as tiles are read (U+037E is ';' too)
        if "\n" in text.strip():
            raise RacketyError(f"{source}: a CGP is one line")
        fields = text.split(None, 4)
        names = ("board", "racks", "scores", "zero-turns")
        if len(fields) < 4:
            missing = ", ".join(names[len(fields):])
            raise RacketyError(f"{source}: missing field(s) {missing} (a CGP is "
                               "'<board> <racks> <scores> <zero-turns> [ops]')")
        options = self._parse_options(fields[4] if len(fields) > 4 else "", source)
        if alphabet is None and "ld" not in options and default_alphabet is not None:
            alphabet = default_alphabet
        if alphabet is not None:
            alpha = _as_alphabet(alphabet)
        else:
            name = options.get("ld")
            if name is None:  # a lexicon of another language names its tile set
                from rackety.lexicon.languages import language

                other = language(options["lex"]) if "lex" in options else None
                name = other.alphabet if other is not None else "english"
            try:
                alpha = Alphabet.load(name, files=files)
            except RacketyError as exc:
                raise RacketyError(f"{source}: ld: {exc}") from None
        if layout is not None:
            lay = as_layout(layout)
        else:
            try:
                lay = Layout.load(options.get("bdn", alpha.board))
            except RacketyError as exc:
                raise RacketyError(f"{source}: bdn: {exc}") from None
        grid = self._parse_grid(fields[0], alpha, lay, source)
        rack_texts = fields[1].split("/")
        if len(rack_texts) > MAX_PLAYERS:
            raise RacketyError(f"{source}: {len(rack_texts)} racks, more than {MAX_PLAYERS} "
                               "players")
        racks = [alpha.rack(r, what=f"{source}: rack") for r in rack_texts]
        score_texts = fields[2].split("/")
        if len(score_texts) != len(racks):
            raise RacketyError(f"{source}: {len(racks)} racks but {len(score_texts)} scores")
        scores = [parse_int(s, f"{source}: score", -SCORE_LIMIT, SCORE_LIMIT)
                  for s in score_texts]
        zero_turns = parse_int(fields[3], f"{source}: zero-turns field", 0, ZERO_TURNS_LIMIT)
        Rules.from_options(options, source=source)  # the rules' operations, checked now
        self._set(alpha, lay, grid, racks, scores, zero_turns, options)
        self._check_counts(source)

    @staticmethod
    def _parse_options(text: str, source: str) -> dict[str, str]:
        options: dict[str, str] = {}
        pieces = text.split(";")
        if pieces[-1].strip():
            raise RacketyError(f"{source}: operation {clip(pieces[-1].strip())!r} does not end "
                               "with ';'")
        for piece in pieces[:-1]:
            parts = piece.split(None, 1)
            if not parts:
                raise RacketyError(f"{source}: an empty operation (';' twice)")
            opcode = parts[0]
            if opcode in options:
                raise RacketyError(f"{source}: operation {clip(opcode)!r} given twice")
            options[opcode] = parts[1].strip() if len(parts) > 1 else ""
        return options

    @staticmethod
    def _parse_grid(text: str, alphabet: Alphabet, layout: Layout,
                    source: str) -> np.ndarray:
        size = layout.size
        rows = text.split("/")
        if len(rows) != size:
            raise RacketyError(f"{source}: board has {len(rows)} rows, expected {size} for "
                               f"layout {layout.name}")
        grid = np.zeros((size, size), dtype=np.uint8)
        for r, row in enumerate(rows):
            squares: list[int] = []
            count = 0
            for piece in _DIGITS_OR_NOT.findall(row):
                if piece[0] in "0123456789":
                    run = int(piece) if len(piece) <= 4 else size + 1  # too many either way
                    if run == 0:
                        raise RacketyError(f"{source}: board row {r + 1} has {clip(piece)!r}, not "
                                           "a run of empty squares")
                    count += run
                    if count <= size:
                        squares.extend([0] * run)
                    continue
                codes = alphabet.tokenize(piece, blanks=True,
                                          what=f"{source}: board row {r + 1}")
                if 0 in codes:
                    raise RacketyError(f"{source}: board row {r + 1} has '?'; a blank on the "
                                       "board is the lower-case letter it stands for")
                count += len(codes)
                squares.extend(codes)
            if count != size:
                raise RacketyError(f"{source}: board row {r + 1} has {count} squares, "
                                   f"expected {size}")
            grid[r] = squares
        return grid

    def _used(self) -> np.ndarray:
        """Tiles on the board and on the known racks, counted per code (a blank on
        the board counts as a blank)."""
        on_board = np.bincount(self.grid.ravel(), minlength=256)
        used = on_board[:max(self.alphabet.size, 1)].copy()
        used[0] = on_board[BLANK_FLAG:].sum()  # blanks (code 0 counts empty squares)
        for rack in self.racks:
            for code in rack:
                used[code] += 1
        return used

    def _check_counts(self, source: str) -> None:
        used = self._used()
        dist = self.distribution()
        over = np.nonzero(used > dist)[0]
        if len(over):
            code = int(over[0])
            raise RacketyError(f"{source}: {used[code]} {self.alphabet.tiles[code].label} on "
                               f"board and racks, the distribution has {dist[code]}")

    # ------------------------------------------------------------- writing
    def cgp(self) -> str:
        """The position as one CGP line."""
        if len(self.racks) == 1 and not self.racks[0]:
            raise RacketyError("cgp: a lone player's unknown (empty) rack cannot be written; "
                               "CGP needs a rack or a second player")
        labels = render.code_labels(self.alphabet)
        rows = []
        for row in self.grid.tolist():
            out = []
            run = 0
            for code in row:
                if code:
                    if run:
                        out.append(str(run))
                        run = 0
                    out.append(labels[code])
                else:
                    run += 1
            if run:
                out.append(str(run))
            rows.append("".join(out))
        racks = "/".join("".join(labels[c] for c in rack) for rack in self.racks)
        scores = "/".join(str(s) for s in self.scores)
        text = f"{'/'.join(rows)} {racks} {scores} {self.zero_turns}"
        if self.options:
            text += " " + " ".join(f"{op} {arg};" if arg else f"{op};"
                                   for op, arg in self.options.items())
        return text

    def _cgp_implies_setup(self) -> bool:
        """Whether the CGP alone (its ``ld``/``bdn``) names this alphabet and layout."""
        try:
            alphabet = Alphabet.load(self.options.get("ld", "english"))
            layout = Layout.load(self.options.get("bdn", alphabet.board))
        except RacketyError:
            return False
        return alphabet.name == self.alphabet.name and layout == self.layout

    def __repr__(self) -> str:
        if len(self.racks) == 1 and not self.racks[0]:
            return f"<Board {self.alphabet.name} on {self.layout.name}, one unknown rack>"
        if self._cgp_implies_setup():
            return f"Board({self.cgp()!r})"
        return (f"Board({self.cgp()!r}, alphabet={self.alphabet.name!r}, "
                f"layout={self.layout.name!r})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.alphabet.name == other.alphabet.name
                and self.alphabet.identity == other.alphabet.identity
                and self.layout == other.layout
                and np.array_equal(self.grid, other.grid)
                and [sorted(r) for r in self.racks] == [sorted(r) for r in other.racks]
                and self.scores == other.scores
                and self.zero_turns == other.zero_turns
                and self.options == other.options)

    def copy(self, *, racks: Sequence[Sequence[int]] | None = None) -> Board:
        """An independent copy. With ``racks``, the same position holding those
        racks instead (a player's view)."""
        board = object.__new__(Board)
        board._set(self.alphabet, self.layout, self.grid.copy(),
                   list(self.racks) if racks is None else [tuple(r) for r in racks],
                   list(self.scores), self.zero_turns, dict(self.options))
        board._rules, board._rules_made = self._rules, self._rules_made
        return board

    @property
    def size(self) -> int:
        """The side of the board."""
        return self.layout.size

    @property
    def rack(self) -> tuple[int, ...]:
        """The rack of the player to move (tile codes; empty if unknown)."""
        return self.racks[0]

    @property
    def tiles_on_board(self) -> int:
        """How many tiles are on the board."""
        return int(np.count_nonzero(self.grid))

    @property
    def is_empty(self) -> bool:
        """Whether no tile is on the board."""
        return not self.grid.any()

    def distribution(self) -> np.ndarray:
        """The full tile set: count per code (int64)."""
        return _distribution(self.alphabet).copy()

    def unseen(self) -> np.ndarray:
        """Tiles not on the board and not on a known rack, counted per code."""
        unseen: np.ndarray = _distribution(self.alphabet) - self._used()
        return unseen

    @property
    def unseen_count(self) -> int:
        """How many tiles are unseen: in the bag or on unknown racks."""
        return _total_tiles(self.alphabet) - int(np.count_nonzero(self.grid)) - \
            sum(len(rack) for rack in self.racks)

    @property
    def bag_count(self) -> int:
        """Tiles in the bag, assuming each other player whose rack is empty
        (unknown) holds a full rack: ``unseen_count`` minus ``rack_size`` per such
        player, at least 0."""
        racks = self.racks
        held = unknown = 0
        for rack in racks:
            held += len(rack)
        for rack in racks[1:]:
            unknown += not rack
        alphabet = self.alphabet
        return max(0, _total_tiles(alphabet) - int(np.count_nonzero(self.grid)) - held
                   - unknown * alphabet.rack_size)

    @property
    def lexicon_name(self) -> str | None:
        """The ``lex`` operation, if any."""
        return self.options.get("lex")

    @property
    def rules(self) -> Rules:
        """The rules of this position (`rackety.game.rules.Rules`, every field
        a value): its CGP operations (``cr``, ``bb``, ``etl``, ``mcnz``, ``var``)
        over the rules set on it, over the alphabet's. Setting them writes the
        operations that differ from the alphabet's."""
        options = self.options
        key = (self._rules, self.alphabet, tuple(map(options.get, CGP_OPCODES)))
        made = self._rules_made
        if made is not None and made[0] == key:
            return made[1]
        rules = _rules_of(*key)
        self._rules_made = (key, rules)
        return rules

    @rules.setter
    def rules(self, rules: Rules) -> None:
        for opcode in CGP_OPCODES:
            self.options.pop(opcode, None)
        self.options.update(rules.options(self.alphabet))
        self._rules, self._rules_made = rules, None
        self.rules  # made now, and kept by the copies  # noqa: B018

    # --------------------------------------------------------------- moves
    def parse_move(self, text: str) -> Move:
        """Read a move in players' notation on this board (see `rackety.game.move`)."""
        return parse_move(text, self)

    def notation(self, move: Move, *, through: str = "parens") -> str:
        """A move in players' notation, in this board's alphabet."""
        return move.notation(self.alphabet, through=through)

    def moves(self, lexicon: Lexicon, *, mode: Mode = "all", top: int = 10,
              leave: LeaveFunction | str | None = "static", generator: Generator = "gaddag",
              exchanges: bool = True, exact_best_score: bool = False,
              static: bool = True, variant: Variant | None = None) -> MoveList:
        """The legal moves of the player to move, best first, by the equity
        ``rackety moves`` shows (`rackety.game.movegen.generate`).

        ``mode``: ``all``, ``top`` (the ``top`` best), ``best`` or ``count``.
        ``leave``: by default ``"static"``, the table shipped for the lexicon
        (`Leaves.builtin`, Gordon's H3 where there is none); ``None`` ranks by
        score alone; otherwise a `rackety.Leaves`, another spec (``"h1"``,
        ``"h2"``, ``"h3"``, ``"leaves:FILE.klv2"``), a function of the leave's
        text or a mapping. With a leave, ``static`` counts full static equity:
        the empty bag's rack points and the opening's vowel placement.
        ``variant``: classic or wordsmog, by default the position's rules'."""
        # the call, for the list's repr (one tuple: this runs for every position)
        made = (self, lexicon, (mode, top, leave, generator, exchanges, exact_best_score,
                                static, variant))
        if isinstance(leave, str):
            from rackety.game.heuristics import leave_model

            leave = leave_model(leave, lexicon)
        moves: MoveList = _movegen().generate(
            self, lexicon, mode=mode, top=top, leave=leave, generator=generator,
            exchanges=exchanges, exact_best_score=exact_best_score, static=static,
            variant=variant)
        moves.made = made
        return moves

    def check_shape(self, move: Move) -> None:
        """Check a placement's shape on this board: on it, each tile marked as
        already there is there and each other square empty; raises
        `RacketyError` naming the square."""
        size = self.layout.size

        def where() -> str:
            return f"move {move.notation(self.alphabet)!r}"

        for (r, c), tile, through in zip(move.squares(), move.tiles, move.through,
                                         strict=True):
            if not (0 <= r < size and 0 <= c < size):
                raise RacketyError(f"{where()}: runs off the {size}x{size} board")
            held = int(self.grid[r, c])
            if through and (held & ~BLANK_FLAG) != (tile & ~BLANK_FLAG):
                raise RacketyError(f"{where()}: square {square_name(r, c)} does not hold "
                                   f"{self.alphabet.format([tile])}")
            if not through and held:
                raise RacketyError(f"{where()}: square {square_name(r, c)} is taken")

    def score(self, move: Move) -> int:
        """The score of ``move`` on this board: new tiles times letter premiums,
        board tiles at face value, the main word times the word premiums under new
        tiles, plus each cross word a new tile forms, plus the bingo bonus for a
        full rack. A one-tile main word scores only its cross word. Words are not
        checked."""
        if move.kind != "place":
            return 0
        self.check_shape(move)
        points = _points(self.alphabet)
        grid = self.grid
        size = self.layout.size
        lm = self.layout.letter_mult
        wm = self.layout.word_mult
        dr, dc = (1, 0) if move.down else (0, 1)
        main = 0
        word_mult = 1
        crosses = 0
        for (r, c), tile, through in zip(move.squares(), move.tiles, move.through,
                                         strict=True):
            if through:
                main += points[int(grid[r, c])]
                continue
            value = points[tile] * int(lm[r, c])
            square_mult = int(wm[r, c])
            main += value
            word_mult *= square_mult
            # the cross word runs perpendicular to the main word through (r, c)
            side = 0
            found = False
            rr, cc = r - dc, c - dr
            while rr >= 0 and cc >= 0 and grid[rr, cc]:
                side += points[int(grid[rr, cc])]
                found = True
                rr, cc = rr - dc, cc - dr
            rr, cc = r + dc, c + dr
            while rr < size and cc < size and grid[rr, cc]:
                side += points[int(grid[rr, cc])]
                found = True
                rr, cc = rr + dc, cc + dr
            if found:
                crosses += (side + value) * square_mult
        total = crosses + (main * word_mult if len(move.tiles) > 1 else 0)
        if move.n_placed == self.alphabet.rack_size:
            total += self.rules.bingo_bonus or 0
        return total

    def play(self, move: Move | str) -> Board:
        """The position after ``move`` (a `Move`, or a move in players'
        notation read by `parse_move`): tiles placed, the mover's score raised by
        the move's score on this board (`score`, always computed: a move whose
        stated ``score`` differs is refused), the placed tiles taken from a
        known rack, the turn passed on (racks and scores rotate). Exchanges and
        passes change only the turn and the scoreless-turn count; nothing is
        drawn (there is no bag)."""
        if isinstance(move, str):
            move = self.parse_move(move)
        grid = self.grid
        rack = self.racks[0]
        points = 0
        if move.kind == "place":
            points = self.score(move)
            if move.score is not None and move.score != points:
                raise RacketyError(f"move {move.notation(self.alphabet)!r} scores {points} "
                                   f"here, not {move.score}")
            grid = grid.copy()
            for (r, c), tile in zip(move.placed_squares(), move.placed, strict=True):
                grid[r, c] = tile
            if rack:
                left = list(rack)
                for tile in move.placed:
                    code = 0 if tile & BLANK_FLAG else tile
                    if code not in left:
                        raise RacketyError(
                            f"move {move.notation(self.alphabet)!r}: tile "
                            f"{self.alphabet.format([code])} is not on the rack "
                            f"{self.alphabet.format(rack, brackets=True)!r}")
                    left.remove(code)
                rack = tuple(left)
            zero_turns = 0
        else:
            grid = grid.copy()
            zero_turns = self.zero_turns + 1
        racks = self.racks[1:] + [rack]
        scores = self.scores[1:] + [self.scores[0] + points]
        child = object.__new__(Board)
        child._set(self.alphabet, self.layout, grid, racks, scores, zero_turns,
                   dict(self.options))
        child._rules, child._rules_made = self._rules, self._rules_made
        return child

    # ---------------------------------------------------------- rendering
    def __str__(self) -> str:
        return render.text(self)

    def rich_text(self, highlight: Iterable[tuple[int, int]] | Move | None = None, *,
                  bare: bool | None = None, players: bool = True) -> Text:
        """The board in colour (`rackety.game.render.rich_text`)."""
        return render.rich_text(self, highlight, bare=bare, players=players)

    def __rich__(self) -> Text:
        return render.rich_text(self)

    def render(self, color: bool = True,
               highlight: Iterable[tuple[int, int]] | Move | None = None) -> str:
        """The board for a terminal (`rackety.game.render.terminal`)."""
        return render.terminal(self, color, highlight)

    def svg(self, size: int = 400,
            highlight: Iterable[tuple[int, int]] | Move | None = None) -> str:
        """The board as an SVG picture (`rackety.game.render.svg`)."""
        return render.svg(self, size, highlight)

    def _repr_svg_(self) -> str:
        return render.svg(self)


__all__ = ["Board", "Layout"]
