"""Leave tables: every leave model as one table before it reaches a kernel.

`Leaves` is a table of leave values (a `rackety.lexicon.klv.Klv`: a KLV2
file's graph and values) with the ways to get one: a KLV2 or KLV file
(`Leaves.load`), the table shipped for a lexicon (`Leaves.builtin`), or
Gordon's heuristics H1-H3 made into a table over every leave of the alphabet
(`Leaves.heuristic`, built once and cached on disk beside the lexicons). A
`Bank` puts several tables in one set of arrays, so players with different
tables play in one compiled game.

>>> from rackety import Alphabet
>>> table = Leaves.from_values(Alphabet.load("english"), {"S": 8.0, "?": 25.5})
>>> table.value("S"), type(table).__name__
(8.0, 'Leaves')
"""

from __future__ import annotations

import contextlib
import hashlib
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from rackety import reprs
from rackety.errors import RacketyError, clip
from rackety.files import exists, write_atomic
from rackety.kernels.bits import arc_of, with_arc
from rackety.lexicon.cache import cache_dir
from rackety.lexicon.klv import Klv

if TYPE_CHECKING:
    from rackety.alphabet import Alphabet
    from rackety.lexicon import Lexicon

TABLE_VERSION = "1"  # of the heuristic tables cached on disk


class Leaves(Klv):
    """A table of leave values (a `Klv`): ``board.moves(lexicon, leave=...)``
    and the static players take one. Leaves not in the table (the empty leave,
    and the whole rack) are worth 0."""

    @classmethod
    def builtin(cls, lexicon: Lexicon) -> Leaves | None:
        """The table shipped for ``lexicon`` (``rackety/data/leaves/<name>.klv2``,
        trained by ``rackety leaves train``), or None (also for a lexicon of
        that name in another tile set than the built-in's). Loaded once per
        process."""
        return _shipped_table(lexicon.name, lexicon.alphabet)

    @classmethod
    def load(cls, source: str | Path, alphabet: Alphabet | str | None = None) -> Leaves:
        """A table by the name of the lexicon it is shipped for (``TWL06``,
        ``CSW19``, ``CATALAN``, ``SPANISH``: `shipped_names`; the table
        `builtin` gives), or a KLV2 or KLV file's path, read in ``alphabet``
        (default: the lexicon's own for a name, English for a file).

        >>> Leaves.load("TWL06")
        Leaves.load('TWL06')
        """
        name = str(source).strip().upper()
        if isinstance(source, str) and name in shipped_names() and not exists(source):
            from rackety.alphabet import Alphabet

            own = _own_alphabet(name)
            alpha = own if alphabet is None else (
                Alphabet.load(alphabet) if isinstance(alphabet, str) else alphabet)
            table = _shipped_table(name, alpha)
            if table is None:
                raise RacketyError(f"leaves {name}: the shipped table is in alphabet "
                                   f"{own.name}, not {alpha.name}")
            return table
        if not exists(source) and not str(source).lower().endswith((".klv2", ".klv")):
            raise RacketyError(f"leaves {clip(str(source))!r}: no such file, nor a shipped "
                               f"table ({', '.join(shipped_names())})")
        table = super().load(source, alphabet)
        assert isinstance(table, Leaves)
        return table

    def __repr__(self) -> str:
        """``Leaves.load('TWL06')`` for a shipped table, ``Leaves.load(PATH)`` for
        a file (``alphabet=`` when it is not English): both evaluate back to an
        equal table; one made in memory is ``Leaves.from_values`` of its leaves
        and values, up to 1,000 of them (`rackety.reprs.LITERAL_LIMIT`), else a
        summary in angle brackets."""
        shipped = Path(self.source)
        if shipped.parent == _leaves_folder() and shipped.stem in shipped_names() \
                and _own_alphabet(shipped.stem).identity == self.alphabet.identity:
            return f"Leaves.load({shipped.stem!r})"
        if self.source.lower().endswith((".klv2", ".klv")) and exists(self.source):
            extra = "" if self.alphabet.name == "english" else \
                f", alphabet={self.alphabet.name!r}"
            return f"Leaves.load({self.source!r}{extra})"
        if len(self) <= reprs.LITERAL_LIMIT:  # numpy's limit for writing out an array
            values = {self.alphabet.format(leave, brackets=True): float(value)
                      for leave, value in self.items()}
            return f"Leaves.from_values({self.alphabet.name!r}, {values!r})"
        return f"<Leaves {self.source}: {len(self):,} leaves>"

    @classmethod
    def heuristic(cls, model: Any, alphabet: Alphabet) -> Leaves:
        """The table of a rack heuristic (`rackety.game.heuristics.RackHeuristic`:
        it gives ``name``, ``params_for(alphabet)`` and ``tables(alphabet)``)
        over every leave of 1 to rack size - 1 tiles of ``alphabet``; in memory
        once per process and on disk in the lexicon cache (about 2 s to build
        for English). The key is the values, penalties, vowel flags and balance
        the heuristic gives this alphabet (which follow its points and counts)
        and the alphabet's `set_key` (which leaves there are)."""
        value, penalty, vowel = model.tables(alphabet)
        params = model.params_for(alphabet)
        digest = hashlib.sha256(b"".join(a.tobytes() for a in (value, penalty, vowel,
                                                                 params)))
        digest.update(f"{TABLE_VERSION} {set_key(alphabet)}".encode())
        key = digest.hexdigest()[:24]
        hit = _heuristic.get(key)
        if hit is not None:
            return hit
        path = cache_dir() / f"leaves-{model.name}-{key}.klv2"
        table = None
        if path.is_file():
            try:
                table = cls.load(path, alphabet)
            except RacketyError:
                table = None  # damaged: build it again
        if table is None:
            from rackety.kernels import leaves as _lv  # numba only when a table is built

            leaves = leave_set(alphabet)
            values = _lv.heuristic_table(leaves.tiles, leaves.lengths, value, penalty, vowel,
                                         params)
            table = cls(leaves.nodes, values.astype(np.float32), alphabet,
                        source=f"<{model.name}>")
            with contextlib.suppress(RacketyError, OSError):  # a read-only cache: the
                write_atomic(path, table.to_bytes())  # table is still good for this process
        table.source = f"<{model.name}>"
        _heuristic[key] = table
        return table


_shipped: dict[tuple[str, str], Leaves | None] = {}
_heuristic: dict[str, Leaves] = {}


def _leaves_folder() -> Path:
    return Path(str(resources.files("rackety") / "data" / "leaves"))


def shipped_names() -> tuple[str, ...]:
    """The lexicons a leave table is shipped for."""
    return tuple(sorted(p.stem for p in _leaves_folder().glob("*.klv2")))


def _own_alphabet(name: str) -> Alphabet:
    """The tile set a built-in lexicon of that name is in (its table's)."""
    from rackety.alphabet import Alphabet
    from rackety.lexicon.languages import language

    other = language(name)
    return Alphabet.load(other.alphabet if other is not None else "english")


def _shipped_table(name: str, alphabet: Alphabet) -> Leaves | None:
    """The table shipped for lexicon ``name`` read in ``alphabet``, or None when
    there is none or it is for another tile set (loaded once per process)."""
    key = (name, alphabet.identity)
    if key not in _shipped:
        path = _leaves_folder() / f"{name}.klv2"
        table = None
        if path.is_file() and _own_alphabet(name).identity == alphabet.identity:
            try:
                table = Leaves.from_bytes(path.read_bytes(), alphabet, source=str(path))
            except RacketyError:  # a lexicon of that name in another alphabet
                table = None
        _shipped[key] = table
    return _shipped[key]


def as_table(model: Any, alphabet: Alphabet) -> Klv:
    """The table of a leave model: a `Klv` (or `Leaves`) as it is, anything
    with ``table(alphabet)`` (the heuristics) through it."""
    if isinstance(model, Klv):
        return model
    table = getattr(model, "table", None)
    if callable(table):
        made: Klv = table(alphabet)
        return made
    raise RacketyError(f"{model!r} is not a leave table (h1, h2, h3 or a KLV file)")


class Bank:
    """Several tables in one set of arrays for the compiled players: the graphs
    one after another (arcs moved by each table's offset), the per-node counts
    and the values likewise; table i is rooted at pseudo-node ``base[i]`` with
    its values from ``voff[i]``. The same table given twice is stored once."""

    def __init__(self, tables: list[Klv]) -> None:
        nodes, counts, values = [], [], []
        self.base = np.zeros(max(1, len(tables)), np.int64)
        self.voff = np.zeros(max(1, len(tables)), np.int64)
        seen: dict[int, int] = {}
        at = vat = 0
        for i, table in enumerate(tables):
            j = seen.get(id(table))
            if j is not None:
                self.base[i], self.voff[i] = self.base[j], self.voff[j]
                continue
            seen[id(table)] = i
            block = table.nodes.astype(np.int64)
            arcs = arc_of(block)
            block = np.where(arcs != 0, with_arc(block, arcs + at), block)
            nodes.append(block.astype(np.uint32))
            counts.append(table.counts.astype(np.int64))
            values.append(table.values.astype(np.float32))
            self.base[i], self.voff[i] = at, vat
            at += len(block)
            vat += len(table.values)
        self.nodes = np.concatenate(nodes) if nodes else np.zeros(2, np.uint32)
        self.counts = np.concatenate(counts) if counts else np.zeros(2, np.int64)
        self.values = np.concatenate(values) if values else np.zeros(1, np.float32)


class LeaveSet:
    """Every leave of 1 to ``rack_size - 1`` tiles of an alphabet's
    distribution, in KLV order: the tiles one after another (``tiles``), their
    ``lengths``, their sorted ``keys`` (`rackety.kernels.leaves.leave_key`), and
    the KLV graph holding them (``nodes``, built once)."""

    def __init__(self, alphabet: Alphabet) -> None:
        self.alphabet = alphabet
        self.size = alphabet.size
        if self.size >= 64:
            raise RacketyError(f"alphabet {alphabet.name}: {self.size} tiles; leave tables "
                               "handle at most 63")
        self.max_len = alphabet.rack_size - 1
        from rackety.kernels import leaves as _lv  # numba only when a set is built

        dist = np.zeros(self.size, np.int64)
        for tile in alphabet.tiles:
            dist[tile.code] = tile.count
        count, total = _lv.enumerate_leaves(dist, self.max_len, False, np.zeros(0, np.uint8),
                                            np.zeros(0, np.int64))
        self.tiles = np.zeros(total, np.uint8)
        self.lengths = np.zeros(count, np.int64)
        _lv.enumerate_leaves(dist, self.max_len, True, self.tiles, self.lengths)
        self.keys = _lv.leave_keys(self.tiles, self.lengths, self.max_len)
        template = Klv.from_arrays(alphabet, self.tiles, self.lengths,
                                   np.zeros(count, np.float32), source="<leaves>")
        self.nodes = template.nodes

    def __len__(self) -> int:
        return len(self.lengths)

    def klv(self, values: np.ndarray, source: str = "<trained>") -> Leaves:
        """A table with one value per leave (in this set's order)."""
        return Leaves(self.nodes, np.asarray(values, np.float32), self.alphabet, source=source)

    def values_of(self, model: Any) -> np.ndarray:
        """The value of every leave under ``model`` (any leave model `as_table`
        takes; 0 for a leave a table does not store)."""
        from rackety.kernels import leaves as _lv

        table = as_table(model, self.alphabet)
        values: np.ndarray = _lv.lookup_table(self.tiles, self.lengths, table.nodes,
                                              table.counts, table.values.astype(np.float64))
        return values


_leave_sets: dict[str, LeaveSet] = {}


def set_key(alphabet: Alphabet) -> str:
    """What an alphabet's leaves depend on: its identity (the labels) and its
    tile counts and rack size (two alphabets with the same letters in other
    numbers have other leaves)."""
    counts = ",".join(str(t.count) for t in alphabet.tiles)
    return f"{alphabet.identity}/{counts}/{alphabet.rack_size}"


def leave_set(alphabet: Alphabet) -> LeaveSet:
    """The `LeaveSet` of an alphabet (built once per process)."""
    key = set_key(alphabet)
    hit = _leave_sets.get(key)
    if hit is None:
        hit = _leave_sets[key] = LeaveSet(alphabet)
    return hit


__all__ = ["Bank", "LeaveSet", "Leaves", "as_table", "leave_set", "set_key"]
