"""The win-% table: the probability that the player who has just moved wins,
the opponent to move, by their spread and the tiles unseen to them.

``win_pct(spread, unseen)`` is the probability (in %) that the player who
has just moved (and drawn), ``spread`` points ahead (their score less the
opponent's) with ``unseen`` tiles unseen to them (the bag and the
opponent's rack), wins (a tie half a win). The table was measured on
rackety's own self-play (`rackety.experiments.winpct`, ``docs/WINPCT.md``)
and ships as data, ``data/winpct/100x7.csv``: a CSV whose header names the
spreads of its columns (``unseen,-300,...,300``) and whose rows are the
unseen counts 0, 1, ... (first field), values in % with two decimals; lines
starting with ``#`` are comments. Every row is non-decreasing in spread and
symmetric (P(s) + P(-s) = 100, 50 at 0); spreads beyond the last column
take its value (99 to 100 % in the shipped table, 0 to 1 % behind).

`WinTable.for_alphabet` gives the table for a tile set: the shipped one for
tile sets of 100 tiles and 7-tile racks (English, TWL06 and CSW19 alike),
else the same table with its rows stretched to the set's unseen counts
(`WinTable.scaled`): the bag-empty rows (1 to a rack) onto the rack's, the
rest linearly onto the rest, spreads as they are.
"""

from __future__ import annotations

import functools
import math
import os
import re
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

import numpy as np

from rackety.errors import RacketyError, clip
from rackety.files import read_bytes, write_atomic

if TYPE_CHECKING:
    from rackety.alphabet import Alphabet

MAX_SPREAD = 300  # the table's columns: spreads -MAX_SPREAD to MAX_SPREAD
SHIPPED = "100x7.csv"  # tile sets of 100 tiles, 7-tile racks
MAX_BYTES = 4 << 20
_NUMBER = re.compile(r"-?[0-9]{1,3}(?:\.[0-9]{1,6})?")
_TOLERANCE = 0.011  # two decimals: P(s) + P(-s) may miss 100 by a rounding


@dataclass(frozen=True, eq=False)
class WinTable:
    """``array``: float64 [unseen_max + 1, 2 * max_spread + 1], read-only, the
    win % of row ``unseen`` and column ``spread + max_spread`` (what the
    kernels take); ``name``: where it came from."""

    array: np.ndarray
    max_spread: int
    name: str = "<table>"

    @property
    def unseen_max(self) -> int:
        return int(self.array.shape[0]) - 1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WinTable) and self.max_spread == other.max_spread and \
            np.array_equal(self.array, other.array)

    def __hash__(self) -> int:
        return hash((self.max_spread, self.array.shape, self.array.tobytes()))

    # ------------------------------------------------------------ look-ups
    def pct(self, spread: float, unseen: int) -> float:
        """The win % (0 to 100) of the player who just moved ``spread`` ahead
        with ``unseen`` tiles unseen: spread and unseen clamped to the table,
        a fractional spread interpolated linearly."""
        if not math.isfinite(spread):
            raise RacketyError(f"win %: spread {spread!r} is not a number")
        u = min(max(int(unseen), 0), self.unseen_max)
        x = min(max(float(spread), -self.max_spread), self.max_spread) + self.max_spread
        i = min(math.floor(x), 2 * self.max_spread - 1)
        frac = x - i
        row = self.array[u]
        return float(row[i] + (row[i + 1] - row[i]) * frac)

    def pcts(self, spreads: np.ndarray, unseens: np.ndarray) -> np.ndarray:
        """`pct` of every (spread, unseen) pair, as float64."""
        s = np.asarray(spreads, np.float64)
        u = np.clip(np.asarray(unseens).astype(np.int64), 0, self.unseen_max)
        if not np.all(np.isfinite(s)):
            raise RacketyError("win %: a spread is not a number")
        x = np.clip(s, -self.max_spread, self.max_spread) + self.max_spread
        i = np.minimum(np.floor(x).astype(np.int64), 2 * self.max_spread - 1)
        frac = x - i
        lo = self.array[u, i]
        pcts: np.ndarray = lo + (self.array[u, i + 1] - lo) * frac
        return pcts

    # ------------------------------------------------------------ making
    @classmethod
    def from_array(cls, array: np.ndarray, name: str = "<table>") -> WinTable:
        """A table of ``array`` (in %), checked: else a `RacketyError` naming
        ``name`` and what is wrong."""
        a = np.array(array, dtype=np.float64)
        where = clip(name, 120)
        if a.ndim != 2 or a.shape[0] < 1 or a.shape[1] < 3 or a.shape[1] % 2 == 0:
            raise RacketyError(f"{where}: a win-% table has rows of unseen counts and an odd "
                               f"number (3 or more) of spread columns, not shape {a.shape}")
        if not np.all(np.isfinite(a)) or a.min() < 0 or a.max() > 100:
            raise RacketyError(f"{where}: a win % is outside 0 to 100")
        m = (a.shape[1] - 1) // 2
        bad = np.flatnonzero(np.any(np.diff(a, axis=1) < 0, axis=1))
        if len(bad):
            raise RacketyError(f"{where}: the row of unseen {bad[0]} falls as the spread grows")
        off = np.abs(a + a[:, ::-1] - 100.0) > _TOLERANCE
        if np.any(off):
            u, s = np.argwhere(off)[0]
            raise RacketyError(f"{where}: unseen {u}, spread {s - m} and {m - s} do not add "
                               "up to 100 %")
        a.setflags(write=False)
        return cls(a, m, name)

    @classmethod
    def parse(cls, text: str, name: str = "<table>") -> WinTable:
        """The table a CSV of `text` writes (the module's docstring)."""
        where = clip(name, 120)
        lines = [line.strip() for line in text.splitlines()]
        lines = [line for line in lines if line and not line.startswith("#")]
        if not lines:
            raise RacketyError(f"{where}: no win-% table (no header line)")
        head = lines[0].split(",")
        if head[0] != "unseen" or len(head) < 4:
            raise RacketyError(f"{where}: the header should be 'unseen,-MAX,...,MAX'")
        m = (len(head) - 2) // 2
        if len(head) % 2 != 0 or head[1:] != [str(s) for s in range(-m, m + 1)]:
            raise RacketyError(f"{where}: the header's spreads are not -MAX to MAX by 1")
        rows = []
        for number, line in enumerate(lines[1:]):
            fields = line.split(",")
            if len(fields) != len(head):
                raise RacketyError(f"{where}: row {number}: {len(fields)} fields, not "
                                   f"{len(head)}")
            if fields[0] != str(number):
                raise RacketyError(f"{where}: row {number} says unseen {clip(fields[0], 20)!r}, "
                                   f"not {number}")
            for field in fields[1:]:
                if not _NUMBER.fullmatch(field):
                    raise RacketyError(f"{where}: row {number}: {clip(field, 20)!r} is not a "
                                       "win % (0 to 100, a decimal point)")
            rows.append([float(f) for f in fields[1:]])
        if not rows:
            raise RacketyError(f"{where}: no rows under the header")
        return cls.from_array(np.array(rows), name)

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> WinTable:
        """The table in the file ``path`` (`parse`)."""
        data = read_bytes(path, "win-% table", MAX_BYTES)
        try:
            text = data.decode("ascii")
        except UnicodeDecodeError:
            raise RacketyError(f"{clip(path, 120)}: a win-% table is ASCII text") from None
        return cls.parse(text, str(path))

    def text(self, comments: tuple[str, ...] = ()) -> str:
        """The CSV of the table (`parse` reads it back equal, the values in %
        with two decimals)."""
        m = self.max_spread
        out = [f"# {c}" for c in comments]
        out.append(",".join(["unseen", *(str(s) for s in range(-m, m + 1))]))
        for u, row in enumerate(self.array):
            out.append(",".join([str(u), *(f"{v:.2f}" for v in row.tolist())]))
        return "\n".join(out) + "\n"

    def write(self, path: str | os.PathLike[str], comments: tuple[str, ...] = ()) -> None:
        write_atomic(path, self.text(comments).encode("ascii"))

    def scaled(self, unseen_max: int, rack_size: int, own_rack: int = 7) -> WinTable:
        """This table (of racks of ``own_rack``) for a tile set with
        ``unseen_max`` unseen tiles at most and racks of ``rack_size``: row u
        is this table's at the unseen count u maps to (interpolated), the
        bag-empty rows 1 to ``rack_size`` onto 1 to ``own_rack``, the others
        linearly onto the rest."""
        if unseen_max < 1 or rack_size < 1:
            raise RacketyError(f"win %: no table for {unseen_max} unseen tiles, racks of "
                               f"{rack_size}")
        top = self.unseen_max
        rows = np.empty((unseen_max + 1, self.array.shape[1]))
        for u in range(unseen_max + 1):
            if u <= rack_size:
                x = u * min(own_rack, top) / rack_size
            else:
                span = max(1, unseen_max - rack_size)
                x = own_rack + (u - rack_size) * (top - own_rack) / span
            x = min(max(x, 0.0), top)
            i = min(int(x), top - 1) if top > 0 else 0
            f = x - i
            rows[u] = self.array[i] if top == 0 else \
                self.array[i] * (1 - f) + self.array[min(i + 1, top)] * f
        return WinTable.from_array(np.round(rows, 6), f"{self.name} scaled to {unseen_max} "
                                   "unseen")

    @staticmethod
    def for_alphabet(alphabet: Alphabet) -> WinTable:
        """The table for the tile set ``alphabet`` (the module's docstring)."""
        total = sum(tile.count for tile in alphabet.tiles)
        return _for_tiles(total, alphabet.rack_size)


@functools.cache
def shipped() -> WinTable:
    """The table measured for 100 tiles and 7-tile racks (``data/winpct``)."""
    path = resources.files("rackety") / "data" / "winpct" / SHIPPED
    return WinTable.read(str(path))


@functools.cache
def _for_tiles(total: int, rack_size: int) -> WinTable:
    table = shipped()
    if total - rack_size == table.unseen_max and rack_size == 7:
        return table
    return table.scaled(total - rack_size, rack_size)
