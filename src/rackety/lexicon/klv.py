"""Leave values: the KLV2 file (docs/FORMATS.md section 3), and the older KLV.

A file is ``u32 N``, N uint32 nodes of a DAWG-only KWG holding every stored
leave as its tiles sorted by code (the blank, code 0, first), ``u32 M``, then M
values, all little-endian: float32 points in a KLV2, int16 / 256 in a KLV (the
reader tells them apart by the bytes left after ``M``). A leave's value is at
its *word index*, the number of stored leaves that sort before it; the empty
leave and any leave not stored are worth 0.

The word index comes from a per-node count, ``count[p] = accepts(p) +
count[arc(p)] + count[p + 1 if p is not the last of its run]`` (docs/FORMATS.md
section 2): reading tile t from a node r whose child run starts at s and holds
t at node q passes ``accepts(r)`` (r's own string) and ``count[s] - count[q]``
strings (those under the siblings before q).

`Klv.rack_values` gives every leave of a rack at once, in the leave-index order
of `rackety.game.movegen.leave_subsets` (the `rackety.game.movegen.LeaveModel` protocol):
one compiled walk that enumerates the sub-multisets of the rack as an odometer
over its distinct tiles, the smallest code turning slowest, so consecutive
leaves share their prefix and each step reads one more tile from a KWG state
already reached (wolges' ``MultiLeaves::init`` and MAGPIE's
``generate_exchange_moves`` share prefixes the same way); behind a small cache
keyed by the sorted rack.

>>> from rackety import Alphabet
>>> english = Alphabet.load("english")
>>> klv = Klv.from_values(english, {"?": 25.5, "S": 8.0, "?S": 30.25, "Q": -7.0})
>>> klv.value("S?"), klv.value(""), klv.value("QU")
(30.25, 0.0, 0.0)
>>> klv.rack_values(english, english.tokenize("QS?")).tolist()
[0.0, 25.5, -7.0, 0.0, 8.0, 30.25, 0.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Self

import numpy as np

from rackety.alphabet import BLANK_FLAG, Alphabet
from rackety.errors import RacketyError
from rackety.files import read_bytes, write_atomic
from rackety.kernels.bits import TILE_SHIFT, arc_of, is_word
from rackety.lexicon import kwg as _kwg
from rackety.lexicon.wordlist import MAX_WORD_LENGTH

_CACHE_SIZE = 4096  # racks whose leave values are kept, per Klv
MAX_LEAVES = 1 << 26  # values a KLV file may hold (English has 914,624 leaves)


# -------------------------------------------------------------------- Klv
class Klv:
    """Leave values: a DAWG-only KWG of leaves (tiles sorted by code, the blank
    first) and one float32 value per leave, at the leave's word index.

    Make one with `Klv.load` (a KLV2 or KLV file), `Klv.from_bytes` or
    `Klv.from_values`; `save` writes KLV2. It is a `rackety.game.movegen.LeaveModel`:
    pass it as ``leave=`` to `Board.moves`.
    """

    def __init__(self, nodes: np.ndarray, values: np.ndarray, alphabet: Alphabet, *,
                 source: str = "<klv>") -> None:
        """Wrap the arrays, validated here (`rackety.lexicon.kwg.validate`); use the
        class methods to read or build them."""
        self.nodes = np.ascontiguousarray(nodes, dtype=np.uint32)
        self.nodes.flags.writeable = False
        self.values = np.ascontiguousarray(values, dtype=np.float32)
        self.values.flags.writeable = False
        self.alphabet = alphabet
        self.source = source
        counts = _kwg.validate(self.nodes, source, alphabet.size, leaves=True)
        if not np.all(np.isfinite(self.values)):
            raise RacketyError(f"{source}: value {int(np.argmax(~np.isfinite(self.values)))} "
                               "is not a finite number")
        self.counts = counts
        root = arc_of(int(self.nodes[_kwg.DAWG_ROOT]))
        stored = int(counts[root]) if root else 0
        if stored != len(self.values):
            raise RacketyError(f"{source}: {len(self.values):,} values for {stored:,} leaves "
                               "in the graph")
        self._cache: dict[tuple[int, ...], np.ndarray] = {}

    # ------------------------------------------------------------- reading
    @classmethod
    def load(cls, path: str | Path, alphabet: Alphabet | str | None = None) -> Self:
        """Read a KLV2 (float32 values) or KLV (int16 / 256) file."""
        data = read_bytes(path, "KLV file", 8 + 8 * _kwg.MAX_NODES + 4 * MAX_LEAVES)
        return cls.from_bytes(data, alphabet, source=str(path))

    @classmethod
    def from_bytes(cls, data: bytes, alphabet: Alphabet | str | None = None, *,
                   source: str = "<klv>") -> Self:
        """Read the bytes of a KLV2 or KLV file."""
        alpha = _as_alphabet(alphabet)
        size = len(data)
        if size < 8:
            raise RacketyError(f"{source}: {size} bytes, too short for a KLV file")
        n = int.from_bytes(data[:4], "little")
        if not 0 < n <= _kwg.MAX_NODES or 4 + 4 * n + 4 > size:
            raise RacketyError(f"{source}: header says {n:,} nodes, which {size:,} bytes cannot "
                               "hold; not a KLV file?")
        m = int.from_bytes(data[4 + 4 * n:8 + 4 * n], "little")
        rest = size - 8 - 4 * n
        body = data[8 + 4 * n:]
        if rest == 4 * m:
            values = np.frombuffer(body, dtype="<f4").astype(np.float32)
        elif rest == 2 * m:
            values = (np.frombuffer(body, dtype="<i2").astype(np.float64) / 256.0).astype(
                np.float32)
        else:
            raise RacketyError(f"{source}: {m:,} values need {4 * m:,} bytes (KLV2) or "
                               f"{2 * m:,} (KLV), but {rest:,} follow the graph")
        nodes = _kwg.nodes_from_bytes(data[4:4 + 4 * n], source)
        return cls(nodes, values, alpha, source=source)

    @classmethod
    def from_values(cls, alphabet: Alphabet | str,
                    values: Mapping[Sequence[int] | str, float], *,
                    source: str = "<values>") -> Self:
        """A KLV holding ``values``: leave (tile codes in any order, or text with
        ``?`` for a blank) -> points. The empty leave is always worth 0 and is
        not stored.

        The word graph is built by `rackety.lexicon.build.build_kwg` over the
        leaves with every code shifted up by one, then shifted back: the builder
        pads word rows with code 0, so a leave of blanks (``?`` and ``??``)
        would otherwise collide with its own padding."""
        alpha = _as_alphabet(alphabet)
        table: dict[tuple[int, ...], float] = {}
        for leave, value in values.items():
            codes = _leave_codes(alpha, leave, source)
            if not codes:
                continue
            v = float(value)
            if not np.isfinite(v):
                raise RacketyError(f"{source}: leave {alpha.format(codes)}: value {v} is not "
                                   "finite")
            if table.get(codes, v) != v:
                raise RacketyError(f"{source}: leave {alpha.format(codes)} given two values "
                                   f"({table[codes]} and {v})")
            table[codes] = v
        leaves = sorted(table)
        flat = np.fromiter((c for leave in leaves for c in leave), np.uint8)
        lengths = np.fromiter((len(leave) for leave in leaves), np.int64, len(leaves))
        ordered = np.array([table[leave] for leave in leaves], np.float32)
        return cls.from_arrays(alpha, flat, lengths, ordered, source=source)

    @classmethod
    def from_arrays(cls, alphabet: Alphabet | str, tiles: np.ndarray, lengths: np.ndarray,
                    values: np.ndarray, *, source: str = "<values>") -> Self:
        """A KLV from leaves already in order: ``tiles`` (uint8 codes) holds the
        leaves one after another, each sorted by code, ``lengths`` their lengths
        (none 0), the leaves distinct and in increasing order (a prefix first, as
        the word index counts), ``values`` one per leave. The fast path for large
        tables (leave training writes ~915,000 leaves); `from_values` checks its
        input and comes here. The graph is built with every code shifted up by
        one (see `from_values`)."""
        from rackety.lexicon.build import build_kwg
        from rackety.lexicon.wordlist import from_tiles

        alpha = _as_alphabet(alphabet)
        tiles = np.asarray(tiles)
        lengths = np.asarray(lengths)
        values = np.asarray(values, np.float32)
        if len(values) != len(lengths):
            raise RacketyError(f"{source}: {len(values):,} values for {len(lengths):,} leaves")
        if (tiles.ndim != 1 or lengths.ndim != 1
                or not np.issubdtype(tiles.dtype, np.integer)
                or not np.issubdtype(lengths.dtype, np.integer)
                or (len(lengths) and not 0 < int(lengths.min()) <= int(lengths.max())
                    <= MAX_WORD_LENGTH) or int(lengths.sum()) != len(tiles)
                or (len(tiles) and not 0 <= int(tiles.min()) <= int(tiles.max()) < alpha.size)):
            raise RacketyError(f"{source}: leaves are codes 0 to {alpha.size - 1} of "
                               f"{alpha.name}, each 1 to {MAX_WORD_LENGTH} long, one after "
                               "another (lengths summing to their count)")
        lengths = lengths.astype(np.int64)
        if not len(lengths):
            nodes = np.array([_kwg.IS_END], np.uint32)
            return cls(nodes, np.zeros(0, np.float32), alpha, source=source)
        flat = np.asarray(tiles, np.uint8) + np.uint8(1)
        nodes = build_kwg(from_tiles(flat, lengths), gaddag=False)
        nodes[1:] -= np.uint32(1 << TILE_SHIFT)  # back to the alphabet's codes
        return cls(nodes, values, alpha, source=source)

    # ------------------------------------------------------------- writing
    def to_bytes(self) -> bytes:
        """The KLV2 file's bytes."""
        n, m = len(self.nodes), len(self.values)
        return b"".join((n.to_bytes(4, "little"), self.nodes.astype("<u4").tobytes(),
                         m.to_bytes(4, "little"), self.values.astype("<f4").tobytes()))

    def save(self, path: str | Path) -> None:
        """Write a KLV2 file, atomically."""
        write_atomic(path, self.to_bytes())

    # ------------------------------------------------------------- values
    def __repr__(self) -> str:
        return f"<Klv {self.source}: {len(self):,} leaves, {len(self.nodes):,} nodes>"

    def __eq__(self, other: object) -> bool:
        """The same leaves with the same values, in the same tile set."""
        if not isinstance(other, Klv):
            return NotImplemented
        return self is other or (self.alphabet.identity == other.alphabet.identity
                                 and np.array_equal(self.nodes, other.nodes)
                                 and np.array_equal(self.values, other.values))

    def __hash__(self) -> int:
        return hash((self.alphabet.identity, len(self.nodes), len(self.values)))

    def __len__(self) -> int:
        return len(self.values)

    def index(self, leave: Sequence[int] | str) -> int:
        """The word index of a leave (its tiles in any order), or -1 if it is not
        stored."""
        codes = _leave_codes(self.alphabet, leave, "leave")
        if not codes:
            return -1
        nodes, counts = self.nodes, self.counts
        r, w = _kwg.DAWG_ROOT, 0
        for t in codes:
            head = int(nodes[r])
            s = arc_of(head)
            q = _kwg.seek(nodes, s, t)
            if q < 0:
                return -1
            w += (1 if is_word(head) else 0) + int(counts[s]) - int(counts[q])
            r = q
        return w if is_word(int(nodes[r])) else -1

    def value(self, leave: Sequence[int] | str) -> float:
        """The value of a leave (tile codes in any order, or text with ``?`` for a
        blank); 0 for the empty leave or one not stored."""
        i = self.index(leave)
        return float(self.values[i]) if i >= 0 else 0.0

    def leaves(self) -> list[tuple[int, ...]]:
        """Every stored leave, by word index."""
        from rackety.lexicon.query import enumerate_strings

        root = arc_of(int(self.nodes[_kwg.DAWG_ROOT]))
        flat, lens = enumerate_strings(self.nodes, root, 64)
        out = []
        at = 0
        for length in lens.tolist():
            out.append(tuple(flat[at:at + length].tolist()))
            at += length
        return out

    def items(self) -> Iterator[tuple[tuple[int, ...], float]]:
        """(leave, value) for every stored leave, by word index."""
        return zip(self.leaves(), self.values.tolist(), strict=True)

    def values_into(self, alphabet: Alphabet, counts: np.ndarray, out: np.ndarray) -> int:
        """The value of every leave of the rack ``counts`` (copies per code, int64
        [64]) into ``out`` by leave index, through the kernels' one leave walk
        (`rackety.kernels.leaves.table_values`); returns the number of leaves."""
        if alphabet is not self.alphabet and alphabet.identity != self.alphabet.identity:
            raise RacketyError(f"{self.source}: leave values are in alphabet "
                               f"{self.alphabet.name}, the rack in {alphabet.name}")
        from rackety.kernels.leaves import table_values  # numba when values are asked for

        return int(table_values(self.nodes, self.counts, self.values, 0, 0, counts, out))

    def rack_values(self, alphabet: Alphabet, rack: Sequence[int]) -> np.ndarray:
        """The value of every leave of ``rack``, by leave index (see
        `rackety.game.movegen.leave_subsets`); a read-only float64 array, cached per
        rack."""
        if alphabet is not self.alphabet and alphabet.identity != self.alphabet.identity:
            raise RacketyError(f"{self.source}: leave values are in alphabet "
                               f"{self.alphabet.name}, the rack in {alphabet.name}")
        key = tuple(sorted(rack))
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        if key and not 0 <= key[0] <= key[-1] < alphabet.size:
            raise RacketyError(f"rack {list(rack)}: tile codes of alphabet {alphabet.name} are "
                               f"0 to {alphabet.size - 1} (no blank flag)")
        counts = np.bincount(np.array(key, np.int64), minlength=64).astype(np.int64)
        out = np.zeros(int(np.prod(counts + 1)), np.float64)
        self.values_into(alphabet, counts, out)
        out.flags.writeable = False
        if len(self._cache) >= _CACHE_SIZE:
            del self._cache[next(iter(self._cache))]
        self._cache[key] = out
        return out


def _as_alphabet(alphabet: Alphabet | str | None) -> Alphabet:
    if isinstance(alphabet, Alphabet):
        return alphabet
    return Alphabet.load(alphabet or "english")


def _leave_codes(alphabet: Alphabet, leave: Sequence[int] | str, source: str
                 ) -> tuple[int, ...]:
    """A leave as sorted tile codes, checked against the alphabet."""
    if isinstance(leave, str):
        codes = alphabet.tokenize(leave.upper(), blanks=True, what=f"{source}: leave")
    else:
        codes = [int(c) for c in leave]
    for c in codes:
        if c & BLANK_FLAG or not 0 <= c < alphabet.size:
            raise RacketyError(f"{source}: leave {leave!r}: tile code {c} is not a rack tile "
                               f"of alphabet {alphabet.name}")
    return tuple(sorted(codes))
