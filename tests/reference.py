"""Small, obviously correct references for the lexicon: plain Python over word
lists, no graph. The tests check the graph walks against these."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

SEP = 0  # the GADDAG separator tile


def gaddag_strings(words: list[tuple[int, ...]]) -> set[tuple[int, ...]]:
    """Gordon's GADDAG strings: rev(prefix) + SEP + suffix for every split, and rev(word)."""
    out = set()
    for w in words:
        for k in range(1, len(w)):
            out.add(tuple(reversed(w[:k])) + (SEP,) + tuple(w[k:]))
        out.add(tuple(reversed(w)))
    return out


def minimal_kwg_nodes(words: list[tuple[int, ...]], gaddag: bool = True) -> int:
    """Node count of the smallest KWG for these words: states are distinct right
    languages, a state is the list of its edges (tile, accepts, child state), and a
    list that is a proper suffix of another list costs nothing (tail sharing)."""
    lists: set[tuple] = set()

    def state(language: frozenset) -> tuple:
        firsts = sorted({s[0] for s in language if s})
        edges = []
        for c in firsts:
            rest = frozenset(s[1:] for s in language if s and s[0] == c)
            child = state(frozenset(r for r in rest if r)) if any(rest) else ()
            edges.append((c, () in rest, child))
        key = tuple(edges)
        if key:
            lists.add(key)
        return key

    state(frozenset(words))
    if gaddag:
        state(frozenset(gaddag_strings(words)))
    suffixes = {lst[k:] for lst in lists for k in range(1, len(lst))}
    return (2 if gaddag else 1) + sum(len(lst) for lst in lists if lst not in suffixes)


def can_spell(word: str, rack: str) -> bool:
    """Whether ``rack`` ('?' blanks) holds the tiles of ``word`` (single-letter tiles)."""
    need = Counter(word)
    have = Counter(rack)
    short = sum(max(0, n - have[c]) for c, n in need.items())
    return short <= have["?"]


#: what is made of a word list once (`_once_a_list`), by the list's id, kept
#: with the list so that its id is not reused
_MADE: dict[tuple[str, int], tuple[list[str], Any]] = {}


def _once_a_list(what: str, words: list[str], make: Callable[[list[str]], Any]) -> Any:
    """``make(words)``, made once a list (the references that scan a whole list)."""
    made = _MADE.get((what, id(words)))
    if made is None or made[0] is not words:
        made = _MADE[(what, id(words))] = (words, make(words))
    return made[1]


def _counts_of(words: list[str]) -> tuple[dict[str, int], np.ndarray, np.ndarray]:
    column = {c: i for i, c in enumerate(sorted({c for w in words for c in w}))}
    lengths = np.array([len(w) for w in words], np.int64)
    # one count of every (word, letter) pair of the list
    which = np.repeat(np.arange(len(words)), lengths)
    letters = np.array([column[c] for w in words for c in w], np.int64)
    counts = np.bincount(which * len(column) + letters, minlength=len(words) * len(column))
    return column, counts.reshape(len(words), len(column)).astype(np.int16), lengths


def _letter_counts(words: list[str]) -> tuple[dict[str, int], np.ndarray, np.ndarray]:
    """The letters of ``words`` (a column each), how many of each letter every
    word holds (a row a word) and each word's length; made once a list."""
    return _once_a_list("counts", words, _counts_of)


def anagrams(words: list[str], rack: str, subsets: bool = False) -> set[str]:
    """The words ``rack`` spells (`can_spell`: the letters it lacks are at most
    its blanks), all its tiles or, with ``subsets``, some; every word at once,
    by its letter counts."""
    column, counts, lengths = _letter_counts(words)
    have = np.zeros(counts.shape[1], np.int16)
    for c in rack:
        if c in column:
            have[column[c]] += 1
    # the words of the rack's length (with ``subsets``, of no more letters)
    rows = np.flatnonzero(lengths <= len(rack) if subsets else lengths == len(rack))
    short = np.maximum(counts[rows] - have, 0).sum(axis=1)
    return {words[i] for i in rows[short <= rack.count("?")]}


@functools.lru_cache(maxsize=256)
def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile("".join(".*" if c == "*" else "." if c == "?" else re.escape(c)
                              for c in pattern))


def matches(word: str, pattern: str) -> bool:
    """Whether ``word`` matches ``pattern`` ('?' one letter, '*' any run of letters)."""
    return _regex(pattern).fullmatch(word) is not None


def _lines_by_length(words: list[str]) -> dict[int, str]:
    """The words of each length, one a line."""
    out: dict[int, list[str]] = {}
    for w in words:
        out.setdefault(len(w), []).append(w)
    return {length: "\n".join(some) for length, some in out.items()}


def matching(words: list[str], pattern: str) -> list[str]:
    """The words that match ``pattern`` (`matches`), sorted. One search, with
    the pattern's regex as a line, of the lines of the words of each length
    it can match: its own length without a '*', else any length of at least
    its letters and '?'s (the list's words by length made once a list)."""
    texts = _once_a_list("lines by length", words, _lines_by_length)
    least = sum(c != "*" for c in pattern)
    line = re.compile(f"^(?:{_regex(pattern).pattern})$", re.MULTILINE)
    return sorted(w for length, text in texts.items()
                  if length == least or (length > least and "*" in pattern)
                  for w in line.findall(text))


def pattern_with_rack(word: str, pattern: str, rack: str) -> bool:
    """Whether ``word`` matches ``pattern`` with its wildcards filled from ``rack``
    (the pattern's own letters are on the board). However the word aligns with
    the pattern, the wildcards take the word's letters minus the pattern's."""
    fixed = [c for c in pattern if c not in "?*"]
    if len(word) - len(fixed) > len(rack):  # more wildcards filled than tiles
        return False
    if not matches(word, pattern):
        return False
    return can_spell("".join((Counter(word) - Counter(fixed)).elements()), rack)


def hooks(words: set[str], word: str, letters: str) -> tuple[list[str], list[str]]:
    front = [c for c in letters if c + word in words]
    back = [c for c in letters if word + c in words]
    return front, back


def multi_anagrams(words: list[str], phrase: str, min_length: int = 2,
                   max_words: int | None = None) -> set[str]:
    """Every multiset of words spelling exactly the letters of ``phrase``."""
    target = Counter(phrase)
    usable = sorted({w for w in words if len(w) >= min_length and not Counter(w) - target})
    total = sum(target.values())
    out = set()
    limit = max_words or total
    for k in range(1, limit + 1):
        for combo in combinations_with_replacement(usable, k):
            if sum(map(len, combo)) == total and Counter("".join(combo)) == target:
                out.add(" ".join(combo))
    return out


def levenshtein(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]
