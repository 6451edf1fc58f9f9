"""Pictures of a position (`rackety.game.board.Board`): plain text, rich
text in colour for a terminal, and SVG, as python-chess keeps ``chess.svg``
apart from its board. `Board.__str__`, `Board.render`, `Board.rich_text` and
`Board.svg` (Jupyter's `_repr_svg_`) call these."""

from __future__ import annotations

import io
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

import numpy as np

from rackety.alphabet import BLANK_FLAG, Alphabet
from rackety.game.move import Move

if TYPE_CHECKING:
    from rich.text import Text

    from rackety.game.position import Position

# colours of the renderings: (background, foreground)
_COLOURS = {
    "=": ("#d7263d", "#ffffff"),   # triple word: red
    "-": ("#f7a1b5", "#3a0a14"),   # double word: pink
    '"': ("#1f6fc5", "#ffffff"),   # triple letter: blue
    "'": ("#a8d4f5", "#0a2a44"),   # double letter: light blue
    "~": ("#8b1020", "#ffffff"),   # quadruple word: dark red
    "^": ("#123f7a", "#ffffff"),   # quadruple letter: dark blue
    " ": ("#e9e4d4", "#6b6b6b"),   # plain square
}
_TILE = ("#d9b77e", "#1a1208")         # tiles: tan
_BLANK_TILE = ("#f2e6c9", "#b0186a")   # blanks: pale tan, magenta letter
_HIGHLIGHT = "#f5b700"
_LABELS = {"=": "TW", "-": "DW", '"': "TL", "'": "DL", "~": "QW", "^": "QL", " ": ""}


@cache
def code_labels(alphabet: Alphabet, brackets: bool = True) -> tuple[str, ...]:
    """Text of every board/rack code 0..255 as CGP writes it (brackets for
    multi-letter), or without brackets (``NY``, ``ny`` a blank standing for it)."""
    out = []
    for c in range(256):
        code = c & ~BLANK_FLAG
        out.append(alphabet.format([c], brackets=brackets) if code < alphabet.size else "")
    return tuple(out)


def _square_text(board: Position, r: int, c: int) -> str:
    code = int(board.grid[r, c])
    if code:
        return code_labels(board.alphabet)[code]
    if (r, c) == board.layout.start:
        return "*"
    premium = board.layout.premium(r, c)
    return "." if premium == " " else premium

def _player_lines(board: Position) -> list[str]:
    labels = code_labels(board.alphabet)
    lines = []
    for i, (rack, score) in enumerate(zip(board.racks, board.scores, strict=True)):
        who = "to move" if i == 0 else f"player {i + 1}"
        text = "".join(labels[c] for c in rack) if rack else "(unknown)"
        lines.append(f"{who:>9}: {text:<12} score {score}")
    lines.append(f"{'unseen':>9}: {board.unseen_count}")
    return lines

def text(board: Position) -> str:
    """The board as plain text: coordinates, premiums, tiles, then the racks and scores."""
    labels = code_labels(board.alphabet)
    width = max(1, *(len(labels[int(c)]) for c in np.unique(board.grid)))
    size = board.layout.size
    head = "    " + " ".join(chr(65 + c).ljust(width) for c in range(size))
    lines = [head.rstrip()]
    for r in range(size):
        cells = " ".join(_square_text(board, r, c).ljust(width) for c in range(size))
        lines.append(f"{r + 1:>2}  {cells}".rstrip())
    lines.append("")
    lines.extend(_player_lines(board))
    return "\n".join(lines)

def rich_text(board: Position, highlight: Iterable[tuple[int, int]] | Move | None = None, *,
              bare: bool | None = None, players: bool = True) -> Text:
    """The board in colour (`render`): with ``bare`` (by default, when
    the tile set has tiles of several letters), those tiles are written
    without their brackets (``NY``, ``L·L``, ``ny`` for a blank standing
    for NY), so that a square stays three columns wide for the labels of
    every shipped tile set; with ``players``, the racks and scores below."""
    from rich.text import Text

    if bare is None:
        bare = any(len(tile.label) > 1 for tile in board.alphabet.tiles)
    marked = _highlight_set(highlight)
    labels = code_labels(board.alphabet, brackets=not bare)
    widest = max(Text(labels[int(c)]).cell_len for c in np.unique(board.grid))
    cell = max(3, widest) if bare else max(2, widest) + 1
    size = board.layout.size
    text = Text()
    text.append("   " + "".join(chr(65 + c).center(cell) for c in range(size)) + "\n")
    for r in range(size):
        text.append(f"{r + 1:>2} ")
        for c in range(size):
            code = int(board.grid[r, c])
            if code:
                bg, fg = _BLANK_TILE if code & BLANK_FLAG else _TILE
                label = labels[code]
                style = f"bold {fg} on {bg}"
            else:
                premium = board.layout.premium(r, c)
                bg, fg = _COLOURS[premium]
                label = "**" if (r, c) == board.layout.start else (
                    _LABELS[premium] or ".")
                style = f"{fg} on {bg}"
            if (r, c) in marked:
                style = f"bold #000000 on {_HIGHLIGHT}"
            if bare:  # an odd space on the left: NY's N under its column's letter
                pad = max(cell - Text(label).cell_len, 0)
                label = " " * (pad - pad // 2) + label + " " * (pad // 2)
            text.append(label if bare else label.center(cell), style=style)
        text.append("\n")
    if players:
        text.append("\n" + "\n".join(_player_lines(board)))
    return text

def terminal(board: Position, color: bool = True,
             highlight: Iterable[tuple[int, int]] | Move | None = None) -> str:
    """The board for a terminal: premium colours, tan tiles, blanks in magenta,
    ``highlight`` squares (or a move's new tiles) in gold. Without ``color``,
    plain text of the same shape."""
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=color, no_color=not color,
                      color_system="truecolor" if color else None,
                      width=max(80, 4 + 4 * board.layout.size), highlight=False)
    console.print(rich_text(board, highlight))
    return buffer.getvalue()

def svg(board: Position, size: int = 400,
        highlight: Iterable[tuple[int, int]] | Move | None = None) -> str:
    """The board as an SVG picture ``size`` pixels wide: premium squares in
    colour with their labels, tiles with letter and points (none on blanks),
    ``highlight`` squares (or a move's new tiles) outlined in gold."""
    layout, tiles = svg_layers(board, size, highlight)
    return "\n".join([svg_open(size), layout, tiles, "</svg>"])


def svg_open(size: int) -> str:
    """The opening tag of a board's SVG picture ``size`` pixels wide."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
            f'viewBox="0 0 {size} {size}" font-family="Helvetica, Arial, sans-serif">')


def svg_layers(board: Position, size: int = 400,
               highlight: Iterable[tuple[int, int]] | Move | None = None
               ) -> tuple[str, str]:
    """`svg`'s two layers, without the ``<svg>`` tags: the empty board (the
    background, the coordinates, every square with its premium label), the
    same for every position of a layout, and what is on it (the tiles and the
    highlight). The first has no premium label where a tile lies; a page of
    many boards draws the first of the empty board once and refers to it (the
    tiles cover the labels)."""
    marked = _highlight_set(highlight)
    n = board.layout.size
    cell = size / (n + 1)
    margin = cell
    points = [tile.points for tile in board.alphabet.tiles]

    def num(x: float) -> str:
        return f"{x:.2f}".rstrip("0").rstrip(".")

    back = [f'<rect class="background" width="{size}" height="{size}" fill="#f7f4ea"/>']
    out: list[str] = []
    for i in range(n):
        centre = margin + (i + 0.5) * cell
        back.append(f'<text class="coord" x="{num(centre)}" y="{num(margin * 0.7)}" '
                    f'font-size="{num(cell * 0.45)}" text-anchor="middle" '
                    f'fill="#555">{chr(65 + i)}</text>')
        back.append(f'<text class="coord" x="{num(margin * 0.5)}" '
                    f'y="{num(centre + cell * 0.16)}" font-size="{num(cell * 0.45)}" '
                    f'text-anchor="middle" fill="#555">{i + 1}</text>')
    for r in range(n):
        for c in range(n):
            x, y = margin + c * cell, margin + r * cell
            premium = board.layout.premium(r, c)
            bg, fg = _COLOURS[premium]
            back.append(f'<rect class="square" x="{num(x)}" y="{num(y)}" '
                        f'width="{num(cell)}" height="{num(cell)}" fill="{bg}" '
                        f'stroke="#ffffff" stroke-width="{num(cell * 0.04)}"/>')
            cx, cy = x + cell / 2, y + cell / 2
            code = int(board.grid[r, c])
            if not code:
                label = "★" if (r, c) == board.layout.start else _LABELS[premium]
                if label:
                    back.append(f'<text class="premium" x="{num(cx)}" '
                                f'y="{num(cy + cell * 0.12)}" '
                                f'font-size="{num(cell * 0.34)}" text-anchor="middle" '
                                f'fill="{fg}">{label}</text>')
                continue
            tile_bg, tile_fg = _BLANK_TILE if code & BLANK_FLAG else _TILE
            pad = cell * 0.06
            out.append(f'<rect class="tile" x="{num(x + pad)}" y="{num(y + pad)}" '
                       f'width="{num(cell - 2 * pad)}" height="{num(cell - 2 * pad)}" '
                       f'rx="{num(cell * 0.12)}" fill="{tile_bg}" stroke="#8a6d3b" '
                       f'stroke-width="{num(cell * 0.03)}"/>')
            text = board.alphabet.format([code])
            font = cell * (0.58 if len(text) == 1 else 0.9 / (len(text) + 0.4))
            out.append(f'<text class="letter" x="{num(cx - cell * 0.06)}" '
                       f'y="{num(cy + font * 0.36)}" font-size="{num(font)}" '
                       f'font-weight="bold" text-anchor="middle" fill="{tile_fg}">'
                       f'{escape(text)}</text>')
            if not code & BLANK_FLAG:
                out.append(f'<text class="points" x="{num(x + cell * 0.84)}" '
                           f'y="{num(y + cell * 0.86)}" font-size="{num(cell * 0.24)}" '
                           f'text-anchor="end" fill="{tile_fg}">{points[code]}</text>')
    for r, c in sorted(marked):
        if 0 <= r < n and 0 <= c < n:
            out.append(f'<rect class="highlight" x="{num(margin + c * cell)}" '
                       f'y="{num(margin + r * cell)}" width="{num(cell)}" '
                       f'height="{num(cell)}" fill="none" stroke="{_HIGHLIGHT}" '
                       f'stroke-width="{num(cell * 0.12)}"/>')
    return "\n".join(back), "\n".join(out)


def unseen_tiles(board: Position) -> list[tuple[int, int]]:
    """The tiles ``board``'s player to move has not seen (`Board.unseen`: not
    on the board, not on a known rack) by letter: ``(code, count)`` in
    alphabet order, the blank (code 0) last, letters none of which is unseen
    left out."""
    unseen = board.unseen()
    return [(code, int(unseen[code])) for code in (*range(1, len(unseen)), 0)
            if unseen[code] > 0]


def unseen_groups(board: Position, *, brackets: bool = True) -> list[str]:
    """`unseen_tiles` as text, a word a letter: ``["AA", "B", "EEE", "?"]``
    (a tile of several letters ``[CH][CH]`` with ``brackets``, else ``CHCH``)."""
    alphabet = board.alphabet
    return [alphabet.format([code] * count, brackets=brackets)
            for code, count in unseen_tiles(board)]


def unseen_summary(board: Position) -> str:
    """How many tiles are unseen and where: ``14 unseen (7 on the opponent's
    rack, 7 in the bag)``, each other player whose rack is unknown holding a
    full one or what is left (`Board.bag_count`). Without the mover's rack
    the split is not known: only the count."""
    count = int(board.unseen_count)
    if count <= 0 or not board.rack:
        return f"{max(count, 0)} unseen"
    bag = min(int(board.bag_count), count)
    unknown = sum(1 for rack in board.racks[1:] if not rack)
    where = "the opponent's rack" if unknown == 1 else f"the {unknown} unknown racks"
    on_racks = f"{count - bag} on {where}, " if unknown else ""
    return f"{count} unseen ({on_racks}{bag} in the bag)"


def unseen_text(board: Position) -> str:
    """The unseen tiles in one line: `unseen_summary`, then the tiles by
    letter (`unseen_groups`): ``14 unseen (7 on the opponent's rack, 7 in
    the bag): AA B EEE ?``."""
    groups = " ".join(unseen_groups(board))
    return unseen_summary(board) + (f": {groups}" if groups else "")


def _highlight_set(highlight: Iterable[tuple[int, int]] | Move | None) -> set[tuple[int, int]]:
    if highlight is None:
        return set()
    if isinstance(highlight, Move):
        return set(highlight.placed_squares())
    return {(int(r), int(c)) for r, c in highlight}


__all__ = ["code_labels", "rich_text", "svg", "svg_layers", "svg_open", "terminal", "text",
           "unseen_groups",
           "unseen_summary", "unseen_text", "unseen_tiles"]
