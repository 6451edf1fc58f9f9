"""Moves: a tile placement, an exchange or a pass, and the notation players write.

Notation (docs/FORMATS.md section 5): ``8D WORD`` is across (row number first), ``D8 WORD``
down (column letter first); the square named holds the first letter of the whole
main word. Tiles already on the board are written in parentheses by maximal runs
(``N6 OV(E)RLADE``, Quackle and MAGPIE), as ``.`` each (``E3 JAVE..N``, GCG), or as
bare letters; a blank placed by the move is lower case; multi-letter tiles are in
brackets (``8D CA[NY]OT``). Exchanges are ``exch ABC`` (``-ABC`` in GCG), passes
``pass`` (``-``). `parse_move` reads all of these against a board.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rackety.alphabet import BLANK_FLAG, Alphabet, normalize
from rackety.errors import RacketyError, clip
from rackety.game.layout import square_name

if TYPE_CHECKING:
    from rackety.game.position import Position

KINDS = ("place", "exchange", "pass")
THROUGH_STYLES = ("parens", "dots", "bare")

_ACROSS = re.compile(r"([0-9]+)([A-Za-z])")  # ASCII digits and letters only
_DOWN = re.compile(r"([A-Za-z])([0-9]+)")
_MAX_SIZE = 26  # the columns A to Z: the edge of a placement read without a board


def coordinates(row: int, col: int, down: bool) -> str:
    """The start of a placement: ``8D`` across, ``D8`` down."""
    return f"{chr(65 + col)}{row + 1}" if down else f"{row + 1}{chr(65 + col)}"


@dataclass(frozen=True, init=False)
class Move:
    """One move. Equality and hash are the move itself (kind, square, direction,
    tiles); ``score``, ``equity``, ``leave`` and ``alphabet`` are annotations.

    A move is made from its notation, as its ``repr`` shows it (so a repr pastes
    back), or from its fields:
    >>> Move("8H PANDY", score=30, equity=28.0)
    Move('8H PANDY', score=30, equity=28.0)
    >>> Move("8H PANDY") == Move("place", 7, 7, tiles=(16, 1, 14, 4, 25))
    True

    Notation without a board: tiles already on the board are in parentheses
    (``N6 OV(E)RLADE``; bare letters are placed, and ``.`` needs a board, see
    `parse_move`), a blank is lower case, multi-letter tiles are in brackets,
    and ``exch ABC`` (or ``-ABC``) and ``pass`` (or ``-``) are the other kinds.
    ``alphabet`` is an `Alphabet` or its name; without it, English:
    >>> move = Move("N6 OV(E)RLAdE")
    >>> move.down, move.through[:3], move.n_placed
    (True, (False, False, True), 7)
    >>> Move("8D CA[ny]OT", alphabet="catalan")
    Move('8D CA[ny]OT', alphabet='catalan')
    >>> Move("exch ?AB"), Move("-")
    (Move('exch ?AB'), Move('pass'))

    For a placement ``tiles`` are the codes of the whole main word from
    (``row``, ``col``), a blank as ``BLANK_FLAG | letter``, and ``through[i]`` says
    whether tile i was already on the board. For an exchange ``tiles`` are the
    tiles given back (0 = blank). ``alphabet``, when set, is used by ``str`` and
    ``repr``; without it they use English.

    >>> move = Move("place", 7, 7, tiles=(16, 1, 14, 4, 25), score=30)
    >>> move
    Move('8H PANDY', score=30)
    >>> move.squares()[:2], move.n_placed
    ([(7, 7), (7, 8)], 5)

    A move whose tiles have no notation that reads back (codes outside the
    alphabet) shows its fields instead:
    >>> Move("place", 0, 0, tiles=(40, 1))
    Move('place', row=0, col=0, down=False, tiles=(40, 1))
    """

    kind: str
    row: int = 0
    col: int = 0
    down: bool = False
    tiles: tuple[int, ...] = ()
    through: tuple[bool, ...] = ()
    score: int | None = field(default=None, compare=False)
    equity: float | None = field(default=None, compare=False)
    leave_codes: tuple[int, ...] | None = field(default=None, compare=False)
    alphabet: Alphabet | None = field(default=None, compare=False, repr=False)

    def __init__(self, kind: str, row: int = 0, col: int = 0, down: bool = False,
                 tiles: Iterable[int] = (), through: Iterable[bool] = (),
                 score: int | None = None, equity: float | None = None,
                 leave: str | Iterable[int] | None = None,
                 alphabet: Alphabet | str | None = None, *,
                 leave_codes: Iterable[int] | None = None) -> None:
        """``kind`` is ``"place"``, ``"exchange"`` or ``"pass"`` with the fields
        that follow, or a whole move in notation (``"8D OV(E)RLADE"``, read in
        ``alphabet``, an `Alphabet` or its name) with no other field. ``leave``
        is the tiles kept, as text (``"AEU?"``) or tile codes (``leave_codes``
        takes codes only, and gives way to ``leave``)."""
        if isinstance(alphabet, str):
            alphabet = Alphabet.load(alphabet)
        if leave is None:
            leave = leave_codes
        if isinstance(leave, str):
            leave = (alphabet or Alphabet.load("english")).rack(leave, what="leave")
        elif leave is not None and type(leave) is not tuple:  # the generator's are tuples
            leave = tuple(int(c) for c in leave)
        if kind not in KINDS and isinstance(kind, str) and _notation_like(kind):
            if row or col or down or tuple(tiles) or tuple(through):
                raise RacketyError(f"move {clip(kind)!r}: a move in notation takes no row, "
                                   "col, down, tiles or through")
            parsed = _parse_text(kind, None, alphabet or Alphabet.load("english"), "move")
            kind, row, col, down = parsed.kind, parsed.row, parsed.col, parsed.down
            tiles, through = parsed.tiles, parsed.through
        put = object.__setattr__
        put(self, "kind", kind)
        put(self, "row", row)
        put(self, "col", col)
        put(self, "down", down)
        put(self, "tiles", tiles)
        put(self, "through", through)
        put(self, "score", score)
        put(self, "equity", equity)
        put(self, "leave_codes", leave)
        put(self, "alphabet", alphabet)
        self.__post_init__()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise RacketyError(f"move kind {self.kind!r} is not one of {', '.join(KINDS)}")
        tiles = tuple(int(t) for t in self.tiles)
        object.__setattr__(self, "tiles", tiles)
        if self.kind == "place":
            if not tiles:
                raise RacketyError("a placement needs at least one tile")
            through = tuple(bool(t) for t in self.through) or (False,) * len(tiles)
            if len(through) != len(tiles):
                raise RacketyError(f"a placement of {len(tiles)} tiles has {len(through)} "
                                   "through flags")
            if any(t & ~BLANK_FLAG == 0 for t in tiles):
                raise RacketyError("a placed blank must stand for a letter (BLANK_FLAG | code)")
            object.__setattr__(self, "through", through)
        else:
            if self.through:
                raise RacketyError("an exchange or a pass has no through flags")
            if self.kind == "pass" and tiles:
                raise RacketyError("a pass has no tiles")

    # ---------------------------------------------------------------- helpers
    @property
    def leave(self) -> str | None:
        """The tiles the mover keeps, as text (``"AEU?"``: alphabet order, blanks
        last), when the move came from a move list; ``leave_codes`` holds their
        codes."""
        if self.leave_codes is None:
            return None
        return format_leave(self.alphabet or Alphabet.load("english"), self.leave_codes)

    @property
    def placed(self) -> tuple[int, ...]:
        """The codes of the tiles this move puts on the board (blank flag included)."""
        return tuple(t for t, th in zip(self.tiles, self.through, strict=True) if not th)

    @property
    def n_placed(self) -> int:
        """How many tiles the move puts on the board."""
        return len(self.through) - sum(self.through)

    def squares(self) -> list[tuple[int, int]]:
        """The (row, col) squares of the whole main word, in order."""
        if self.kind != "place":
            return []
        dr, dc = (1, 0) if self.down else (0, 1)
        return [(self.row + dr * i, self.col + dc * i) for i in range(len(self.tiles))]

    def placed_squares(self) -> list[tuple[int, int]]:
        """The squares of the newly placed tiles."""
        return [sq for sq, th in zip(self.squares(), self.through, strict=True) if not th]

    # --------------------------------------------------------------- notation
    def notation(self, alphabet: Alphabet | None = None, *, through: str = "parens") -> str:
        """The move as players write it. ``through`` is how tiles already on the board
        are shown: ``"parens"`` (``N6 OV(E)RLADE``), ``"dots"`` (``E3 JAVE..N``) or
        ``"bare"`` (``N6 OVERLADE``)."""
        alphabet = alphabet or self.alphabet or Alphabet.load("english")
        if self.kind == "pass":
            return "pass"
        if self.kind == "exchange":
            return f"exch {alphabet.format(self.tiles, brackets=True)}"
        if through not in THROUGH_STYLES:
            raise RacketyError(f"through style {through!r} is not one of "
                               f"{', '.join(THROUGH_STYLES)}")
        parts: list[str] = []
        i = 0
        n = len(self.tiles)
        while i < n:
            j = i
            while j < n and self.through[j] == self.through[i]:
                j += 1
            text = alphabet.format(self.tiles[i:j], brackets=True)
            if self.through[i] and through == "parens":
                text = f"({text})"
            elif self.through[i] and through == "dots":
                text = "." * (j - i)
            parts.append(text)
            i = j
        return f"{coordinates(self.row, self.col, self.down)} {''.join(parts)}"

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        """``Move('8H PANDY', score=30, equity=28.0)``: pastes back to an equal move
        with the same annotations (``leave`` aside; the equity to two decimals);
        ``alphabet='catalan'`` when the alphabet is not English. A move without a
        notation that reads back to it shows its fields."""
        alphabet = self.alphabet or Alphabet.load("english")
        extra = []
        if self.score is not None:
            extra.append(f"score={int(self.score)!r}")
        if self.equity is not None:
            equity = float(self.equity)
            extra.append(f"equity={round(equity, 2)!r}" if math.isfinite(equity)
                         else f"equity=float({str(equity)!r})")
        if alphabet.name != "english":
            extra.append(f"alphabet={alphabet.name!r}")
        text = self._pasteable_notation(alphabet)
        if text is not None:
            return f"Move({', '.join([repr(text), *extra])})"
        fields = [repr(self.kind)]
        if self.kind == "place":
            fields += [f"row={int(self.row)!r}", f"col={int(self.col)!r}",
                       f"down={bool(self.down)!r}"]
        if self.tiles:
            fields.append(f"tiles={self.tiles!r}")
        if any(self.through):
            fields.append(f"through={self.through!r}")
        return f"Move({', '.join(fields + extra)})"

    def _pasteable_notation(self, alphabet: Alphabet) -> str | None:
        """The notation, if it reads back (without a board) to this move."""
        if any((t & ~BLANK_FLAG) >= alphabet.size for t in self.tiles):
            return None
        text = self.notation(alphabet)
        try:
            back = _parse_text(text, None, alphabet, "move")
        except RacketyError:
            return None
        if back != self or back.through != self.through:
            return None  # e.g. Catalan N then Y, which reads back as the tile NY
        return text


# ------------------------------------------------------------------ parsing
def format_leave(alphabet: Alphabet, codes: Sequence[int]) -> str:
    """A leave as text: tiles in alphabet order, blanks (``?``) last."""
    ordered = sorted(int(c) for c in codes if c) + [0] * sum(1 for c in codes if not c)
    return alphabet.format(ordered, brackets=True)


def parse_move(text: str, board: Position, *, source: str = "move") -> Move:
    """Read a move written by a player (any of the notations above) on ``board``.

    Checks the notation against the board (squares, played-through tiles, the
    word's ends) but not the lexicon or the rack. Raises `RacketyError` with a
    one-line message naming the text.
    """
    return _parse_text(text, board, board.alphabet, source)


def _notation_like(text: str) -> bool:
    """Whether a `Move` kind that is not one is meant as notation: a word alone
    (``swap``) is a wrong kind, anything with a square, a space or a dash is
    notation."""
    stripped = text.strip()
    return (any(ch.isspace() or ch.isdigit() for ch in stripped)
            or stripped.startswith(("-", "(")) or stripped.lower() == "pass")


def _parse_text(text: str, board: Position | None, alphabet: Alphabet, source: str) -> Move:
    """`parse_move`, on ``board`` or, when it is None, without one (in ``alphabet``)."""
    if not isinstance(text, str):
        raise RacketyError(f"{source} {text!r}: a move is text")
    stripped = normalize(text).strip()  # composed, as tiles are read (U+212A is K too)
    where = f"{source} {clip(stripped)!r}"
    if not stripped:
        raise RacketyError(f"{where}: empty")
    lowered = stripped.lower()
    if lowered in ("-", "pass", "(pass)"):
        return Move("pass", alphabet=alphabet)
    opened, closed = stripped.startswith("("), stripped.endswith(")")
    inner = stripped[1:-1] if opened and closed else stripped
    head, *body = inner.split(None, 1) or [""]
    if head.lower() in ("exch", "exchange") and opened == closed:
        return _parse_exchange(body[0].strip() if body else "", alphabet, where)
    if stripped.startswith("--"):
        raise RacketyError(f"{where}: '--' (a withdrawn phony) is a game event, not a move")
    if stripped.startswith("-"):
        return _parse_exchange(stripped[1:].strip(), alphabet, where)
    return _parse_placement(stripped, board, alphabet, where)


def _parse_exchange(body: str, alphabet: Alphabet, where: str) -> Move:
    if not body:
        raise RacketyError(f"{where}: an exchange needs the tiles exchanged")
    codes = alphabet.rack(body, what=f"{where}: tiles exchanged")
    return Move("exchange", tiles=codes, alphabet=alphabet)


def _split_word(word: str, where: str) -> list[tuple[str, str]]:
    """The word as segments: (text, "bare" | "paren" | "dot")."""
    segments: list[tuple[str, str]] = []
    buf = ""
    i = 0
    while i < len(word):
        ch = word[i]
        if ch == "(":
            if buf:
                segments.append((buf, "bare"))
                buf = ""
            close = word.find(")", i)
            if close < 0:
                raise RacketyError(f"{where}: '(' without a closing ')'")
            inside = word[i + 1:close]
            if not inside or "(" in inside or "." in inside:
                raise RacketyError(f"{where}: parentheses hold the letters already on the "
                                   "board")
            segments.append((inside, "paren"))
            i = close + 1
        elif ch == ")":
            raise RacketyError(f"{where}: ')' without an opening '('")
        elif ch == ".":
            if buf:
                segments.append((buf, "bare"))
                buf = ""
            segments.append((".", "dot"))
            i += 1
        elif ch == "[":
            close = word.find("]", i)
            if close < 0:
                raise RacketyError(f"{where}: '[' without a closing ']'")
            buf += word[i:close + 1]
            i = close + 1
        else:
            buf += ch
            i += 1
    if buf:
        segments.append((buf, "bare"))
    return segments


def _parse_placement(text: str, board: Position | None, alphabet: Alphabet, where: str) -> Move:
    """A placement on ``board``, or without one: then only parentheses mark the
    tiles already on the board and the board's edges are not known (26 columns)."""
    size = board.layout.size if board is not None else _MAX_SIZE
    parts = text.split(None, 1)
    coord = parts[0]
    word = parts[1].strip() if len(parts) > 1 else ""
    if not word:
        # GCG's last-move op writes 8D.WORD: a '.' right after the square separates
        found = _ACROSS.match(coord) or _DOWN.match(coord)
        if found and coord[found.end():found.end() + 1] == ".":
            coord, word = coord[:found.end()], coord[found.end() + 1:]
    across = _ACROSS.fullmatch(coord)
    down_m = _DOWN.fullmatch(coord)
    if not (across or down_m):
        raise RacketyError(f"{where}: {clip(coord, 20)!r} is not a square (8D is across, D8 "
                           "down)")
    if across:
        row_text, col_text, down = across.group(1), across.group(2), False
    else:
        assert down_m is not None
        col_text, row_text, down = down_m.group(1), down_m.group(2), True
    row = int(row_text) - 1 if len(row_text) <= 4 else size  # off the board either way
    col = ord(col_text.upper()) - 65
    if not 0 <= col < size:
        raise RacketyError(f"{where}: column {col_text.upper()} is off the {size}x{size} board")
    if not 0 <= row < size:
        raise RacketyError(f"{where}: row {clip(row_text, 12)} is off the {size}x{size} board")
    if not word:
        raise RacketyError(f"{where}: no word after the square")

    dr, dc = (1, 0) if down else (0, 1)
    grid = board.grid if board is not None else None
    tiles: list[int] = []
    through: list[bool] = []
    for segment, mode in _split_word(word, where):
        if mode == "dot":
            codes = [-1]
        else:
            codes = alphabet.tokenize(segment, blanks=True, what=f"{where}: word")
        for code in codes:
            i = len(tiles)
            r, c = row + dr * i, col + dc * i
            if r >= size or c >= size:
                raise RacketyError(f"{where}: the word runs off the {size}x{size} board")
            if code == 0:
                raise RacketyError(f"{where}: '?' in a word; a blank is written as the "
                                   "lower-case letter it stands for")
            held = int(grid[r, c]) if grid is not None else 0
            name = square_name(r, c)
            if mode == "dot":
                if grid is None:
                    raise RacketyError(f"{where}: '.' needs a board to say which tile it is; "
                                       "write the tile in parentheses")
                if not held:
                    raise RacketyError(f"{where}: '.' at square {name}, which is empty")
                tiles.append(held)
                through.append(True)
                continue
            if held:
                if held & ~BLANK_FLAG != code & ~BLANK_FLAG:
                    raise RacketyError(
                        f"{where}: square {name} holds {alphabet.format([held])}, not "
                        f"{alphabet.format([code & ~BLANK_FLAG])}")
                tiles.append(held)
                through.append(True)
            elif mode == "paren" and grid is None:
                tiles.append(code)
                through.append(True)
            elif mode == "paren":
                raise RacketyError(f"{where}: square {name} is empty, but "
                                   f"({alphabet.format([code])}) says it holds a tile")
            else:
                tiles.append(code)
                through.append(False)
    if not tiles:
        raise RacketyError(f"{where}: no word after the square")
    before = (row - dr, col - dc)
    end = len(tiles)
    after = (row + dr * end, col + dc * end)
    if grid is not None and before[0] >= 0 and before[1] >= 0 and grid[before]:
        raise RacketyError(f"{where}: square {square_name(*before)} before the word holds "
                           f"{alphabet.format([int(grid[before])])}; the named square is the "
                           "first letter of the whole main word")
    if grid is not None and after[0] < size and after[1] < size and grid[after]:
        raise RacketyError(f"{where}: square {square_name(*after)} after the word holds "
                           f"{alphabet.format([int(grid[after])])}; write the whole main word")
    if all(through):
        raise RacketyError(f"{where}: places no tile")
    return Move("place", row, col, down, tuple(tiles), tuple(through), alphabet=alphabet)
