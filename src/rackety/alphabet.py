"""Alphabets: tiles, their codes, scores and counts, and text <-> tile codes.

A tile's code is its index in the alphabet (docs/FORMATS.md section 1): 0 is the
blank, 1..n the letters in the order of the data file. On a board or in a move a
blank standing for letter t is ``BLANK_FLAG | t``. The data files in
``rackety/data/alphabets`` are facts, not code: adding a language adds a file.

Text becomes tiles by one rule, implemented once in `tokenize_lines`:

* ``[LABEL]`` is the tile with that label (``[CH]``, ``[L·L]``); lower case inside
  the brackets is a blank standing for it.
* otherwise the longest label that matches at this point, case-insensitively.
  A multi-letter label takes part only where it is unambiguous, that is where it
  cannot also be spelled with other tiles: Catalan ``L·L``, ``NY`` and ``QU`` read
  from plain text, Spanish ``CH`` reads as C + H and needs ``[CH]`` (or its alias).
* where blanks are allowed (racks, moves), ``?`` is an undesignated blank and a
  lower-case letter is a blank standing for that letter.

The same function runs interpreted for a rack or a word, and compiled by numba
for a whole word list (`rackety.lexicon.wordlist`), so the two cannot disagree.

Before that, text is read as people type it, by `Alphabet.fold` (a whole word
list at once) and `Alphabet.tokenize` (a word, a rack, a move's word, a board
row), the two doors every reader goes through: first Unicode's composed form
(`normalize`: NFC, so ``E`` + U+0301 is ``É`` and a decomposed list reads as a
composed one), then upper case, then the alphabet's ``fold`` (French ``É`` is
``E``; Catalan reads the look-alikes of its middle dot, such as ``•`` and
``∙``, as ``·``). Compatibility forms are not folded (no NFKC): a fullwidth
``Ａ`` or a superscript ``²`` is not a letter of any set, and a digit of
another script is not a Spanish alias. The labels of an alphabet file are
composed the same way when it is loaded.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Protocol

from rackety.errors import RacketyError, clip
from rackety.files import exists, read_bytes

BLANK = 0
BLANK_FLAG = 0x80
MAX_TILES = 64  # codes stay below 64 so a set of tiles fits one 64-bit mask
MAX_BINGO_BONUS = 10_000  # a move's score, bonus included, stays far inside an int32

# error kinds reported by tokenize_lines
ERR_NONE = 0
ERR_UNKNOWN = 1
ERR_UNCLOSED = 2
ERR_BAD_LABEL = 3


class Ints(Protocol):
    """What `tokenize_lines` reads and writes: a list or a numpy array of ints."""

    def __len__(self) -> int: ...
    def __getitem__(self, index: int, /) -> Any: ...
    def __setitem__(self, index: int, value: int, /) -> None: ...

_ALIASES = {
    "super_english": "english_super",
    "super_catalan": "catalan_super",
    "hong_kong_english": "english_hong_kong",
    "en": "english",
    "fr": "french",
    "de": "german",
    "es": "spanish",
    "ca": "catalan",
    "it": "italian",
    "nl": "dutch",
    "pl": "polish",
    "no": "norwegian",
    "nb": "norwegian",
    "sv": "swedish",
    "pt": "portuguese",
    "sl": "slovene",
}


def normalize(text: str) -> str:
    """``text`` in Unicode's composed form (NFC), as every reader reads text:
    text that is already composed (ASCII, most files) is returned as it is,
    after a quick check."""
    return unicodedata.normalize("NFC", text)


def tokenize_lines(cps: Ints, lower: Ints, blanks: bool, t_char: Ints, t_first: Ints,
                   t_next: Ints, t_plain: Ints, t_any: Ints, out_codes: Ints, out_start: Ints,
                   out_len: Ints, out_line: Ints, out_err: Ints, out_kind: Ints) -> int:
    """Split code points into lines and each line into tile codes.

    Written for numba: every argument is an int, a bool or an indexable of ints.
    ``cps`` are upper-cased, folded code points; ``lower[i]`` says whether the
    original character was lower case (read only when ``blanks``). The label
    trie: node 0 is the root; ``t_first``/``t_next`` link children; ``t_plain``
    is the code a label ending at the node has in plain text (-1: none or
    ambiguous), ``t_any`` its code inside brackets. Lines are separated by
    newlines, trimmed of spaces, tabs and carriage returns; empty lines are
    skipped. For each line kept: its first code in ``out_codes``, its length, its
    0-based line number, and on error the offending position in ``cps`` and the
    kind (``out_kind``; 0 = no error). Returns the number of lines kept.
    """
    n = len(cps)
    n_lines = 0
    n_codes = 0
    line_no = 0
    pos = 0
    while pos <= n:
        end = pos
        while end < n and cps[end] != 10:
            end += 1
        a = pos
        b = end
        while a < b and (cps[a] == 32 or cps[a] == 9 or cps[a] == 13):
            a += 1
        while b > a and (cps[b - 1] == 32 or cps[b - 1] == 9 or cps[b - 1] == 13):
            b -= 1
        if b > a:
            out_start[n_lines] = n_codes
            out_line[n_lines] = line_no
            out_err[n_lines] = -1
            out_kind[n_lines] = ERR_NONE
            count = 0
            i = a
            while i < b:
                c = cps[i]
                code = -1
                step = 1
                flag = 0
                if c == 91:  # '[': a bracketed label, matched whole
                    j = i + 1
                    while j < b and cps[j] != 93:
                        j += 1
                    if j >= b:
                        out_err[n_lines] = i
                        out_kind[n_lines] = ERR_UNCLOSED
                        break
                    node = 0
                    k = i + 1
                    while k < j and node >= 0:
                        child = t_first[node]
                        while child >= 0 and t_char[child] != cps[k]:
                            child = t_next[child]
                        node = child
                        k += 1
                    if node > 0:
                        code = t_any[node]
                    if code < 0:
                        out_err[n_lines] = i
                        out_kind[n_lines] = ERR_BAD_LABEL
                        break
                    if blanks and j > i + 1 and lower[i + 1]:
                        flag = 128
                    step = j + 1 - i
                elif blanks and c == 63:  # '?': an undesignated blank
                    code = 0
                else:  # the longest plain label starting here
                    node = 0
                    k = i
                    while k < b:
                        child = t_first[node]
                        while child >= 0 and t_char[child] != cps[k]:
                            child = t_next[child]
                        if child < 0:
                            break
                        node = child
                        k += 1
                        if t_plain[node] >= 0:
                            code = t_plain[node]
                            step = k - i
                    if code < 0:
                        out_err[n_lines] = i
                        out_kind[n_lines] = ERR_UNKNOWN
                        break
                    if blanks and lower[i]:
                        flag = 128
                out_codes[n_codes + count] = code | flag
                count += 1
                i += step
            out_len[n_lines] = count
            n_codes += count
            n_lines += 1
        line_no += 1
        pos = end + 1
    return n_lines


@dataclass(frozen=True)
class Tile:
    """One tile of an alphabet: its code, labels, count in the bag, points, vowel flag."""

    code: int
    label: str
    blank_label: str
    count: int
    points: int
    vowel: bool


class Alphabet:
    """A language's tiles, loaded from a data file by name.

    >>> catalan = Alphabet.load("catalan")
    >>> catalan.format(catalan.word("COL·LEGI"), brackets=True)
    'CO[L·L]EGI'
    >>> catalan.tokenize("EN[ny]?")  # lower case: a blank standing for NY
    [6, 15, 144, 0]
    """

    def __init__(self, data: dict[str, Any], source: str = "<alphabet>") -> None:
        def number(value: Any, what: str, low: int, high: int) -> int:
            if type(value) is not int or not low <= value <= high:
                raise RacketyError(f"{source}: {what} {clip(repr(value))} is not a whole "
                                   f"number from {low} to {high}")
            return value

        try:
            rows = data["tiles"]
            # labels are read as text is: composed (a file written decomposed works)
            self.tiles: tuple[Tile, ...] = tuple(
                Tile(code, normalize(str(t["label"])), normalize(str(t["blank_label"])),
                     number(t["count"], "count", 0, 1000),
                     number(t["points"], "points", -1000, 1000), bool(t["vowel"]))
                for code, t in enumerate(rows)
            )
            self.name: str = str(data["name"])
            self.description: str = str(data.get("description", self.name))
            self.board: str = str(data.get("board", "standard15"))
            self.rack_size: int = number(data.get("rack_size", 7), "rack_size", 1, 21)
            self.bingo_bonus: int = number(data.get("bingo_bonus", 50), "bingo_bonus", 0,
                                           MAX_BINGO_BONUS)
            self.exchange_min_bag: int = number(data.get("exchange_min_bag", 7),
                                                "exchange_min_bag", 0, 1000)
            # consecutive scoreless turns (passes and exchanges) that end a game
            self.max_scoreless: int = number(data.get("max_scoreless", 6), "max_scoreless",
                                             1, 1000)
            # where the rules' values come from, by field (facts, not code)
            self.rules_sources: dict[str, str] = {
                str(k): str(v) for k, v in data.get("rules_sources", {}).items()}
            aliases = {normalize(str(k)): normalize(str(v))
                       for k, v in data.get("aliases", {}).items()}
            fold = {normalize(str(k)): normalize(str(v)) for k, v in data.get("fold", {}).items()}
            self._fold = str.maketrans(fold) if fold else None
            # the same folding for a whole list: a regex finds the few characters
            # to fold (str.translate looks up every character of a non-ASCII text)
            self._fold_map = fold
            self._fold_re = re.compile("[" + "".join(map(re.escape, fold)) + "]") \
                if fold else None
            texts = [self.name, self.description, self.board, *aliases.items(),
                     *self.rules_sources.items(),
                     *fold.items(), *((t.label, t.blank_label) for t in self.tiles)]
            json.dumps(texts, ensure_ascii=False).encode()  # lone surrogates are not text
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            if isinstance(exc, RacketyError):
                raise
            raise RacketyError(f"{source}: bad alphabet data ({clip(repr(exc))})") from None
        if not 2 <= len(self.tiles) <= MAX_TILES or self.tiles[0].label != "?":
            raise RacketyError(f"{source}: an alphabet has the blank '?' first and 1 to 63 letters")
        labels = [t.label.upper() for t in self.tiles[1:]]
        if len(set(labels)) != len(labels) or any(not lab or "[" in lab or "]" in lab
                                                  or lab.isspace() for lab in labels):
            raise RacketyError(f"{source}: tile labels must be distinct, non-empty and "
                               "bracket-free")
        # what a compiled lexicon depends on: the labels, their order, folding, aliases
        ident = json.dumps([labels, sorted(fold.items()), sorted(aliases.items())],
                           ensure_ascii=False)
        self.identity: str = hashlib.blake2b(ident.encode(), digest_size=8).hexdigest()
        self.source = source
        self._hash = int(self.identity, 16)  # alphabets key many caches (and cross processes)
        self._by_label = {lab: code for code, lab in enumerate(labels, start=1)}
        self._build_trie(labels, aliases, source)

    # ------------------------------------------------------------------ loading
    @staticmethod
    def names() -> list[str]:
        """The names of the built-in alphabets."""
        folder = resources.files("rackety") / "data" / "alphabets"
        return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))

    @staticmethod
    @cache
    def load(name: str = "english", *, files: bool = True) -> Alphabet:
        """A built-in alphabet by name (``english``, ``catalan``, ``english_super`` ...)
        or, unless ``files`` is false, a path to an alphabet JSON file (the web app
        reads names only: a name that is a path is unknown there, whether the
        file exists or not)."""
        key = name.strip().lower().replace("-", "_")
        key = _ALIASES.get(key, key)
        if key in Alphabet.names():
            path = resources.files("rackety") / "data" / "alphabets" / f"{key}.json"
            return Alphabet(json.loads(path.read_text(encoding="utf-8")), source=f"{key}.json")
        if files and name.endswith(".json") and exists(name):
            data = read_bytes(name, "alphabet file", 1 << 20)
            try:
                table = json.loads(data)
            except (ValueError, RecursionError) as exc:
                raise RacketyError(f"{clip(name)}: cannot read alphabet ({exc})") from None
            return Alphabet(table, source=name)
        raise RacketyError(f"unknown alphabet {clip(name)!r}; built-in alphabets: "
                           f"{', '.join(Alphabet.names())}")

    def _build_trie(self, labels: list[str], aliases: dict[str, str], source: str) -> None:
        chars = [0]
        first = [-1]
        nxt = [-1]
        plain = [-1]
        anyc = [-1]

        def node_for(text: str) -> int:
            node = 0
            for ch in text:
                child = first[node]
                while child >= 0 and chars[child] != ord(ch):
                    child = nxt[child]
                if child < 0:
                    child = len(chars)
                    chars.append(ord(ch))
                    first.append(-1)
                    nxt.append(first[node])
                    plain.append(-1)
                    anyc.append(-1)
                    first[node] = child
                node = child
            return node

        self.ambiguous: frozenset[str] = frozenset(
            lab for lab in labels if len(lab) > 1 and _spellable(lab, set(labels) - {lab}))
        for code, lab in enumerate(labels, start=1):
            node = node_for(lab)
            anyc[node] = code
            if lab not in self.ambiguous:
                plain[node] = code
        for alias, target in aliases.items():
            if target.upper() not in self._by_label:
                raise RacketyError(f"{source}: alias {alias!r} names no tile {target!r}")
            plain[node_for(alias.upper())] = self._by_label[target.upper()]
        self._trie = (chars, first, nxt, plain, anyc)
        self._trie_arrays: tuple[Any, ...] | None = None

    def trie_arrays(self) -> tuple[Any, ...]:
        """The label trie as numpy int64 arrays, for the compiled tokenizer."""
        if self._trie_arrays is None:
            import numpy as np

            self._trie_arrays = tuple(np.asarray(a, dtype=np.int64) for a in self._trie)
        return self._trie_arrays

    # ------------------------------------------------------------- properties
    @property
    def size(self) -> int:
        """Number of tile codes, the blank included."""
        return len(self.tiles)

    @property
    def letters(self) -> tuple[Tile, ...]:
        """The tiles other than the blank."""
        return self.tiles[1:]

    def fold(self, text: str) -> str:
        """``text`` as the tokenizer reads it: composed (`normalize`), upper-cased,
        and folded as this alphabet says (the accents it ignores, the look-alikes
        of a character of its labels). Done once for a whole word list."""
        up = normalize(text).upper()
        return self._fold_re.sub(self._fold_match, up) if self._fold_re else up

    def _fold_match(self, found: re.Match[str]) -> str:
        return self._fold_map[found.group()]

    def __repr__(self) -> str:
        """``Alphabet.load('english')``, which evaluates back to an equal
        alphabet; one made from data in memory shows its name in angle brackets."""
        if self.source == f"{self.name}.json" and self.name in Alphabet.names():
            return f"Alphabet.load({self.name!r})"
        if self.source.endswith(".json") and self.source != f"{self.name}.json":
            return f"Alphabet.load({self.source!r})"
        return f"<Alphabet {self.name} from {self.source}>"

    def __eq__(self, other: object) -> bool:
        """The same name, tiles (labels, counts, points) and rules."""
        if not isinstance(other, Alphabet):
            return NotImplemented
        return self is other or (
            (self.name, self.identity, self.tiles, self.board, self.rack_size,
             self.bingo_bonus, self.exchange_min_bag, self.max_scoreless)
            == (other.name, other.identity, other.tiles, other.board, other.rack_size,
                other.bingo_bonus, other.exchange_min_bag, other.max_scoreless))

    def __hash__(self) -> int:
        return self._hash

    # ------------------------------------------------------------ text <-> codes
    def rack(self, text: str, *, what: str = "rack") -> tuple[int, ...]:
        """The tiles of a rack (or of tiles exchanged) written as on a rack: a
        blank is ``?``, never a lower-case letter, and no more tiles than a rack
        holds. Errors name ``what``."""
        codes = self.tokenize(text, blanks=True, what=what)
        if any(c & BLANK_FLAG for c in codes):
            raise RacketyError(f"{what} {clip(text)!r}: a blank on a rack is '?', not a "
                               "lower-case letter")
        if len(codes) > self.rack_size:
            raise RacketyError(f"{what} {clip(text)!r}: {len(codes)} tiles, more than the "
                               f"rack size {self.rack_size}")
        return tuple(codes)

    def tokenize(self, text: str, *, blanks: bool = True, what: str = "text") -> list[int]:
        """Tile codes of ``text``. With ``blanks``, ``?`` is an undesignated blank
        (code 0) and a lower-case letter a blank standing for it (``BLANK_FLAG | code``);
        without, case does not matter. Text is read composed (`normalize`): ``E``
        + U+0301 is ``É``, and a lower-case ``é`` so written is a blank. Raises
        `RacketyError` naming ``what``."""
        text = normalize(text)
        if "\n" in text:
            raise RacketyError(f"{what} {clip(text)!r}: one line expected")
        cps: list[int] = []
        low: list[int] = []
        for ch in text:
            up = ch.upper()
            is_lower = 1 if ch != up else 0
            for c in up.translate(self._fold) if self._fold else up:
                cps.append(ord(c))
                low.append(is_lower)
        codes = [0] * len(cps)
        length, err, kind = [0], [0], [0]
        if tokenize_lines(cps, low, blanks, *self._trie, codes, [0], length, [0], err,
                           kind) == 0:
            return []
        if kind[0] != ERR_NONE:
            raise RacketyError(self.error_message(what, text.strip(), cps, err[0], kind[0]))
        return codes[: length[0]]

    def word(self, text: str) -> list[int]:
        """Tile codes of a word, case-insensitive (no blanks)."""
        return self.tokenize(text, blanks=False, what="word")

    def error_message(self, what: str, text: str, cps: Sequence[int], pos: int,
                      kind: int) -> str:
        """The message for a tokenizer error at ``cps[pos]`` of kind ``kind``."""
        if kind == ERR_UNCLOSED:
            return f"{what} {clip(text)!r}: '[' without a closing ']'"
        if kind == ERR_BAD_LABEL:
            end = pos + 1
            while end < len(cps) and cps[end] != 93:
                end += 1
            label = "".join(map(chr, cps[pos:end + 1]))
            return f"{what} {clip(text)!r}: {clip(label)} is not a tile of alphabet {self.name}"
        char = chr(cps[pos])
        return (f"{what} {clip(text)!r} has letter {char!r}, which is not in alphabet "
                f"{self.name}{self._hint(char)}")

    def _hint(self, char: str) -> str:
        """What a message adds about a character that is not a letter here: its
        code point and name when it cannot be seen (a combining mark alone, a
        zero-width joiner, a direction mark, a space other than ' '), and how a
        label's own punctuation is written when it is punctuation (Catalan
        ``L.L``: the tile is ``L·L``)."""
        kind = unicodedata.category(char)
        if kind[0] in "MCZ" and char != " ":
            name = unicodedata.name(char, "")
            return f" (U+{ord(char):04X}{' ' + name if name else ''})"
        marks = sorted({ch for t in self.letters for ch in t.label if not ch.isalnum()})
        if kind[0] in "PS" and marks and char not in marks:
            label = next(t.label for t in self.letters if marks[0] in t.label)
            return (f"; its tile {label} is written with {marks[0]!r} "
                    f"(U+{ord(marks[0]):04X} {unicodedata.name(marks[0], '')})")
        return ""

    def decode_many(self, flat: Any, lengths: Any, *, brackets: bool = False) -> list[str]:
        """`format` for many tile strings at once: ``flat`` holds their codes one
        after another, ``lengths`` how many each has."""
        import numpy as np

        table = self._decode_table(brackets)
        cuts = np.cumsum(lengths)
        codes = np.insert(np.asarray(flat, dtype=np.int64), cuts, 256)
        text = "".join(table[c] for c in codes.tolist()) if self._multi else \
            np.asarray(self._cp_table(table), dtype=np.uint32)[codes].tobytes().decode(
                "utf-32-le")
        return text.split("\n")[:-1]

    @property
    def _multi(self) -> bool:
        return any(len(t.label) > 1 or len(t.blank_label) > 1 for t in self.tiles)

    def _decode_table(self, brackets: bool) -> list[str]:
        table = ["\ufffd"] * 257
        for c in range(256):
            tile_code = c & ~BLANK_FLAG
            if tile_code < len(self.tiles):
                tile = self.tiles[tile_code]
                text = tile.blank_label if c & BLANK_FLAG else tile.label
                table[c] = f"[{text}]" if brackets and len(text) > 1 else text
        table[256] = "\n"
        return table

    @staticmethod
    def _cp_table(table: list[str]) -> list[int]:
        return [ord(t) for t in table]

    def format(self, codes: Sequence[int], *, brackets: bool = False) -> str:
        """Text of tile codes: labels, blank-designated tiles in lower case, ``?``
        for an undesignated blank. With ``brackets``, multi-letter tiles are written
        ``[NY]`` (the notation of CGP and moves)."""
        out = []
        for c in codes:
            c = int(c)
            tile = self.tiles[c & ~BLANK_FLAG]
            text = tile.blank_label if c & BLANK_FLAG else tile.label
            if brackets and len(text) > 1:
                text = f"[{text}]"
            out.append(text)
        return "".join(out)


def _spellable(label: str, others: set[str]) -> bool:
    """Whether ``label`` can be written as a sequence of the ``others`` labels."""
    reach = [True] + [False] * len(label)
    for i in range(len(label)):
        if reach[i]:
            for other in others:
                if label.startswith(other, i):
                    reach[i + len(other)] = True
    return reach[len(label)]
