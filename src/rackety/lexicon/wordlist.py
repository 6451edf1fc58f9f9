"""Word lists: read a text list (or strings) into sorted, unique rows of tile codes.

A list is UTF-8 text, one word per line, any case, CRLF accepted; blank lines are
ignored; composed or decomposed (NFC or NFD: ``É`` or ``E`` + U+0301), read as
composed. Every word must spell with the alphabet's tiles (after its accent
folding) and be 2 to `MAX_WORD_LENGTH` tiles long (the largest board's side). A
bad word is an error naming ``file:line``, or with ``skip_invalid`` it is dropped
and counted. The whole list is tokenized in one compiled pass of the alphabet's
own tokenizer (`rackety.alphabet.tokenize_lines`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rackety.alphabet import ERR_NONE, Alphabet, tokenize_lines
from rackety.errors import RacketyError, clip, read_error

MIN_WORD_LENGTH = 2
MAX_WORD_LENGTH = 21  # the Super board's side, the largest layout in boards.json

_tokenize_jit = None


def _compiled_tokenizer() -> Any:
    global _tokenize_jit
    if _tokenize_jit is None:
        from rackety.kernels.jit import njit

        _tokenize_jit = njit(cache=True)(tokenize_lines)
    return _tokenize_jit


@dataclass
class WordList:
    """Words as a matrix of tile codes, one row per word, padded with 0, sorted
    by code and unique. ``skipped`` counts words dropped by ``skip_invalid``
    (``first_problem`` says why the first was), ``duplicates`` repeated words."""

    tiles: np.ndarray  # uint8 [n, width]
    lengths: np.ndarray  # int64 [n]
    skipped: int = 0
    duplicates: int = 0
    first_problem: str = ""

    def __len__(self) -> int:
        return len(self.lengths)

    def flat(self) -> np.ndarray:
        """The words' tiles one after another (with `lengths`, the flat form)."""
        return self.tiles[np.arange(self.tiles.shape[1])[None, :] < self.lengths[:, None]]


def read_wordlist(path: str | Path, alphabet: Alphabet, *, skip_invalid: bool = False) -> WordList:
    """Read a text word list file."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise read_error(path, exc, "word list") from None
    return parse_bytes(data, alphabet, source=str(path), skip_invalid=skip_invalid)


def parse_bytes(data: bytes, alphabet: Alphabet, *, source: str = "<words>",
                skip_invalid: bool = False) -> WordList:
    """Parse the bytes of a word list file (UTF-8, a byte-order mark allowed)."""
    nul = data.find(b"\0")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or 0 <= nul < 4:
        raise RacketyError(f"{source}: not UTF-8 text (UTF-16 or UTF-32, it seems: save it "
                           "as UTF-8)")
    if nul >= 0:
        line = data[:nul].count(b"\n") + 1
        raise RacketyError(f"{source}:{line}: not text (a NUL byte, byte {nul})")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise RacketyError(f"{source}:{line}: not UTF-8 text (byte {exc.start})") from None
    return parse_words(text, alphabet, source=source, skip_invalid=skip_invalid)


def parse_words(text: str, alphabet: Alphabet, *, source: str = "<words>",
                skip_invalid: bool = False) -> WordList:
    """Parse newline-separated words (see the module docstring)."""
    folded = alphabet.fold(text)  # composed, upper case, folded: the whole list at once
    # a lone surrogate (from strings, never from UTF-8 bytes) is a code point no tile has
    cps = np.frombuffer(folded.encode("utf-32-le", "surrogatepass"), dtype="<u4").astype(
        np.int64)
    n_lines = folded.count("\n") + 1
    codes = np.empty(len(cps), dtype=np.uint8)
    start = np.empty(n_lines, dtype=np.int64)
    length = np.empty(n_lines, dtype=np.int64)
    line = np.empty(n_lines, dtype=np.int64)
    err = np.empty(n_lines, dtype=np.int64)
    kind = np.empty(n_lines, dtype=np.int64)
    tokenize = _compiled_tokenizer()
    n = tokenize(cps, np.zeros(0, np.uint8), False, *alphabet.trie_arrays(), codes, start,
                 length, line, err, kind)
    start, length, line, err, kind = start[:n], length[:n], line[:n], err[:n], kind[:n]
    if n == 0:
        raise RacketyError(f"{source}: no words (the list is empty)")

    bad = (kind != ERR_NONE) | (length < MIN_WORD_LENGTH) | (length > MAX_WORD_LENGTH)
    skipped = int(bad.sum())
    first_problem = ""
    if skipped:
        i = int(np.argmax(bad))
        first_problem = _problem(text, cps, alphabet, source, int(line[i]),
                                 int(err[i]), int(kind[i]), int(length[i]))
        if not skip_invalid:
            raise RacketyError(first_problem)
        keep = ~bad
        start, length = start[keep], length[keep]
        if len(length) == 0:
            raise RacketyError(f"{source}: no valid words ({skipped} skipped; first: "
                               f"{first_problem})")

    return _sorted_unique(codes, start, length, skipped, first_problem)


def from_tiles(flat: np.ndarray, lengths: np.ndarray) -> WordList:
    """A `WordList` from tile strings stored one after another (``flat``), with
    their ``lengths``."""
    lengths = np.asarray(lengths, dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
    return _sorted_unique(np.asarray(flat, dtype=np.uint8), starts, lengths, 0, "")


def _sorted_unique(codes: np.ndarray, start: np.ndarray, length: np.ndarray, skipped: int,
                   first_problem: str) -> WordList:
    """Rows of tile codes padded with 0 (which sorts first, so a word comes before
    its extensions), sorted and without repeats."""
    if len(length) == 0:
        raise RacketyError("no words")
    width = int(length.max())
    cols = np.arange(width)
    mask = cols[None, :] < length[:, None]
    index = np.minimum(start[:, None] + cols[None, :], max(len(codes) - 1, 0))
    tiles = np.where(mask, codes[index], 0).astype(np.uint8)
    order = np.lexsort(tiles.T[::-1])
    tiles, length = tiles[order], length[order]
    duplicates = 0
    if len(tiles) > 1:
        fresh = np.ones(len(tiles), dtype=bool)
        fresh[1:] = (tiles[1:] != tiles[:-1]).any(axis=1)
        duplicates = int((~fresh).sum())
        if duplicates:
            tiles, length = tiles[fresh], length[fresh]
    return WordList(np.ascontiguousarray(tiles), length, skipped, duplicates, first_problem)


def words_from_strings(words: list[str] | tuple[str, ...], alphabet: Alphabet, *,
                       source: str = "<words>", skip_invalid: bool = False) -> WordList:
    """A `WordList` from Python strings (each must be one word)."""
    for i, w in enumerate(words):
        if "\n" in w:
            raise RacketyError(f"{source}:{i + 1}: word {clip(w)!r} contains a line break")
    return parse_words("\n".join(words), alphabet, source=source, skip_invalid=skip_invalid)


def _problem(text: str, cps: np.ndarray, alphabet: Alphabet, source: str,
             line: int, pos: int, kind: int, length: int) -> str:
    word = text.split("\n")[line].strip() if line < text.count("\n") + 1 else "?"
    where = f"{source}:{line + 1}"
    if kind != ERR_NONE:
        breaks = np.flatnonzero(cps == 10)
        line_start = int(breaks[line - 1]) + 1 if line else 0
        line_end = int(breaks[line]) if line < len(breaks) else len(cps)
        return f"{where}: " + alphabet.error_message(
            "word", word, cps[line_start:line_end].tolist(), pos - line_start, kind)
    if length < MIN_WORD_LENGTH:
        return f"{where}: word {clip(word)!r} is shorter than {MIN_WORD_LENGTH} tiles"
    return (f"{where}: word {clip(word)!r} is longer than {MAX_WORD_LENGTH} tiles "
            f"(the largest board)")
