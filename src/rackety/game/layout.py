"""Board layouts: a board's size, premium squares and start square, read
from the built-in table (`rackety/data/boards.json`, the legend of MAGPIE,
Macondo and liwords layouts) by name or alias, never from a file."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from rackety.errors import RacketyError, clip


def square_name(row: int, col: int) -> str:
    """A square as players write it: row number, then column letter (``8D``)."""
    return f"{row + 1}{chr(65 + col)}"


# premium symbols of boards.json (the legend of MAGPIE, Macondo and liwords layouts)
LETTER_PREMIUMS = {"'": 2, '"': 3, "^": 4}
WORD_PREMIUMS = {"-": 2, "=": 3, "~": 4}
_LAYOUT_ALIASES = {
    "crosswordgame": "standard15",
    "standard": "standard15",
    "supercrosswordgame": "super21",
    "standard21": "super21",
    "super": "super21",
    "wwf": "wwf15",
    "wordswithfriends": "wwf15",
    "lexulous": "lexulous15",
}
_MAX_SIZE = 26  # columns are written A..Z



# ---------------------------------------------------------------- layouts
class Layout:
    """A board's geometry: size, premium squares and start square.

    ``letter_mult`` and ``word_mult`` are read-only int8 arrays [size, size], 1 on
    plain squares; ``rows`` the premium symbols of boards.json (``=`` TWS, ``-``
    DWS, ``"`` TLS, ``'`` DLS, ``~`` QWS, ``^`` QLS).

    >>> layout = Layout.load("CrosswordGame")
    >>> layout.name, layout.size, layout.start, int(layout.word_mult[0, 0])
    ('standard15', 15, (7, 7), 3)
    """

    def __init__(self, name: str, rows: Sequence[str], start: tuple[int, int],
                 description: str = "") -> None:
        size = len(rows)
        if not 1 <= size <= _MAX_SIZE or any(len(r) != size for r in rows):
            raise RacketyError(f"layout {name}: rows must form a square of side 1 to "
                               f"{_MAX_SIZE}")
        letter = np.ones((size, size), dtype=np.int8)
        word = np.ones((size, size), dtype=np.int8)
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch in LETTER_PREMIUMS:
                    letter[r, c] = LETTER_PREMIUMS[ch]
                elif ch in WORD_PREMIUMS:
                    word[r, c] = WORD_PREMIUMS[ch]
                elif ch not in " *":
                    raise RacketyError(f"layout {name}: square {square_name(r, c)} has "
                                       f"unknown premium {ch!r}")
        if not (0 <= start[0] < size and 0 <= start[1] < size):
            raise RacketyError(f"layout {name}: start square {start} is off the board")
        letter.setflags(write=False)
        word.setflags(write=False)
        self.name: str = name
        self.description: str = description or name
        self.size: int = size
        self.rows: tuple[str, ...] = tuple(r.replace("*", " ") for r in rows)
        self.letter_mult: np.ndarray = letter
        self.word_mult: np.ndarray = word
        self.start: tuple[int, int] = (int(start[0]), int(start[1]))
        self.symmetric: bool = bool(np.array_equal(letter, letter.T)
                                    and np.array_equal(word, word.T))

    @staticmethod
    def names() -> list[str]:
        """The names of the built-in layouts."""
        return list(_layout_data())

    @staticmethod
    def load(name: str) -> Layout:
        """A built-in layout by name or alias (``standard15``, ``CrosswordGame``,
        ``super21``, ``wwf15``, ``lexulous15`` ...); the same object every time."""
        key = str(name).strip().lower()
        key = _LAYOUT_ALIASES.get(key, key)
        if key not in _layout_data():
            raise RacketyError(f"unknown board layout {clip(name)!r}; layouts: "
                               f"{', '.join(Layout.names())}")
        return _load_layout(key)

    def premium(self, row: int, col: int) -> str:
        """The premium symbol of a square (``" "`` for a plain one)."""
        return self.rows[row][col]

    def __repr__(self) -> str:
        """``Layout.load('standard15')``, which evaluates back to an equal layout;
        one made in memory shows its name in angle brackets."""
        if self.name in _layout_data() and Layout.load(self.name) == self:
            return f"Layout.load({self.name!r})"
        return f"<Layout {self.name}: {self.size}x{self.size}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return (self.name == other.name and self.start == other.start
                and self.rows == other.rows)

    def __hash__(self) -> int:
        return hash((self.name, self.rows, self.start))


@cache
def _layout_data() -> dict[str, dict[str, Any]]:
    text = (resources.files("rackety") / "data" / "boards.json").read_text(encoding="utf-8")
    data = json.loads(text)
    # the punctured experimental layout has unplayable squares, which boards here lack
    return {k: v for k, v in data.items()
            if not k.startswith("_") and not any("#" in row for row in v["rows"])}


@cache
def _load_layout(key: str) -> Layout:
    entry = _layout_data()[key]
    start = (int(entry["start"]["row"]), int(entry["start"]["col"]))
    return Layout(key, entry["rows"], start, str(entry.get("name", key)))


def as_layout(layout: Layout | str) -> Layout:
    """``layout``, or the built-in layout of that name."""
    return layout if isinstance(layout, Layout) else Layout.load(layout)


__all__ = ["LETTER_PREMIUMS", "WORD_PREMIUMS", "Layout", "as_layout", "square_name"]
