"""Gordon's rack evaluations H1, H2 and H3 as leave models.

Steven Gordon, "A Comparison Between Probabilistic Search and Weighted
Heuristics in a Game with Incomplete Information" (AAAI Fall Symposium 1993;
summarised by him on the word-game-programmers mailing list, 1997). A play's
equity is its
score plus the value of the tiles it keeps (the leave):

- **H1** (Ballard's rule of thumb, 1992): the sum of one weight per tile kept.
- **H2**: another weight per tile, plus a duplication penalty that is re-applied
  for each additional copy: the second copy of a letter costs the penalty once,
  the third twice, and so on, so k copies cost k(k-1)/2 penalties. Gordon's own
  example: IIISS is -0.5 + (-0.5 - 4.0) + (-0.5 - 4.0 - 4.0) + 7.5 + (7.5 - 4.0)
  = -2.5 (H1: +10.5). Letters without a penalty (J K Q X Z) have none.
- **H3**: H2 plus "an additional factor accounting for vowel-consonant mix",
  which the source does not give. Ours (`Balance`): with ``n`` letters kept
  (blanks are neutral: neither vowels nor consonants, and not counted) of which
  ``v`` are vowels (the alphabet's vowel flags: A E I O U in English),

      excess = v - share * n
      H3 = H2 - weight * max(0, |excess| - tolerance) ** power

  with ``weight = vowel_excess`` when ``excess > 0`` (too many vowels) and
  ``vowel_shortage`` otherwise. Defaults: share 0.45, tolerance 0.5, power 2,
  both weights 2.0, the best of twelve settings (share 0.4 or 0.45, tolerance
  0.5 or 1, weights 1, 2 or 4) over 1,000 paired games each against greedy
  (`tools/tune_h3.py`): 64.1 % wins [61.1, 67.0]; all twelve were within 62-64 %,
  so the term matters less than its presence. With these, one kept letter is
  never penalised and five consonants cost 6.1 points, five vowels 10.1. Make
  another with
  ``RackHeuristic("h3", H2_VALUES, H2_DUPLICATION, Balance(share=0.45, ...))``.

**Other alphabets.** Gordon's weights are for English's tile set, and the
table is used as it is for an alphabet that has that tile set (`gordon_applies`:
the letters A-Z with English's points and vowels, each letter's share of the
letters in the bag within three percentage points of English's: ``english``,
``english_super`` and ``english_hong_kong``; the widest gap among these is
Super's I, 6.6 % of its bag against 9.2 %). Every other alphabet (Catalan,
Spanish, French, German ..., and the English variants with other points, WWF
and Lexulous) gets weights from its tile data by a model fitted to Gordon's
table (`TileModel`, fitted once per heuristic):

- a letter's weight is ``a + b * share + c * vowel``, with ``share`` its count
  over the number of letters in the bag (blanks left out) and ``vowel`` its
  vowel flag (1 or 0); ``a, b, c`` are the least-squares fit of Gordon's 26
  weights on English's tiles. For H2: -3.40 + 82.15 share - 3.64 vowel (R^2
  0.23, leave-one-out error 3.26 against a spread of 3.41); for H1: -3.44 +
  75.72 share - 3.85 vowel (R^2 0.17). Common letters are worth keeping,
  vowels less than consonants, rare letters cost about 2.6.
- a letter's duplication penalty is the mean of Gordon's penalties over the
  English letters that have two copies or more (-3.07 for H2; H1 has none).
- the blank keeps Gordon's weight (24.5) and penalty (-15).

The features were chosen by leave-one-out error over every set of up to three
of points, its square root, share, log share, points x share, vowel flag and
single-copy flag: share and vowel came out best for H1 and H2, and adding the
tile's points made it worse (3.79 for H2; its coefficient is -0.13 a point, the
fit's R^2 0.23 either way); for the penalties no feature beat their mean.
The low R^2 says what the table is: most of it is English's (S's hooks +7.5,
Q without its U -11.5, V -5.5), which no count or score carries to another
language; the fitted part is what transfers. Gordon's
weight is not given to the letters another alphabet shares with English (a
French E or an S) for the same reason: the weight of a shared label reflects
English words, not that tile set. Points and counts of every alphabet are
read from its data, so tables are cached per tile set (labels, counts, points,
vowel flags).

In play (Catalan, the real word list of tests/data, 3,000 compiled games
each, seats swapped on every bag, 95 % intervals +-1.8): H3 so made won 56.6 %
against greedy; with Gordon's weight for every label Catalan shares with
English and the model for the others 54.0 %, and it lost to the fitted H3
(47.9 %); one mean weight for every letter 54.8 %; the fit with points as well
57.0 %, no better within the noise. (English's H3 wins 62-64 %.)

H3's ideal vowel share scales with the alphabet's: ``share * v / v_english``,
``v`` the vowels' share of the letters in the bag (English 42/98, so English
keeps 0.45 exactly; Spanish 44/98 gives 0.471, Italian 0.507, Swedish 0.375).

A model's `rack_values` gives the value of every leave of a rack at
once, in the order of `rackety.game.movegen.leave_subsets` (one compiled loop over
the leave indices), and is cached per rack.

>>> from rackety import Alphabet
>>> english = Alphabet.load("english")
>>> H1.value("IIISS"), H2.value("IIISS"), H3.value("IIISS")
(10.5, -2.5, -2.625)
>>> H2.rack_values(english, english.tokenize("SS")).tolist()  # "", S, SS
[0.0, 7.5, 11.0]
>>> spanish = Alphabet.load("spanish")  # the fitted model: [RR] is rare, E common
>>> H2.value("[RR]", spanish), H2.value("E", spanish), H2.value("EE", spanish)
(-2.56..., 3.01..., 2.96...)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from rackety.alphabet import Alphabet, Tile
from rackety.errors import RacketyError, clip
from rackety.game.leaves import Leaves
from rackety.kernels.leaves import heuristic_value

if TYPE_CHECKING:
    from rackety.lexicon import Lexicon

# Gordon's table, per letter: H1, H2 and H2's duplication penalty ("?" is the blank).
H1_VALUES: dict[str, float] = {
    "A": 0.5, "B": -3.5, "C": -0.5, "D": -1.0, "E": 4.0, "F": -3.0, "G": -3.5, "H": 0.5,
    "I": -1.5, "J": -2.5, "K": -1.5, "L": -1.5, "M": -0.5, "N": 0.0, "O": -2.5, "P": -1.5,
    "Q": -11.5, "R": 1.0, "S": 7.5, "T": -1.0, "U": -4.5, "V": -6.5, "W": -4.0, "X": 3.5,
    "Y": -2.5, "Z": 3.0, "?": 24.5,
}
H2_VALUES: dict[str, float] = {
    "A": 1.0, "B": -3.5, "C": -0.5, "D": 0.0, "E": 4.0, "F": -2.0, "G": -2.0, "H": 0.5,
    "I": -0.5, "J": -3.0, "K": -2.5, "L": -1.0, "M": -1.0, "N": 0.5, "O": -1.5, "P": -1.5,
    "Q": -11.5, "R": 1.5, "S": 7.5, "T": 0.0, "U": -3.0, "V": -5.5, "W": -4.0, "X": 3.5,
    "Y": -2.0, "Z": 2.0, "?": 24.5,
}
H2_DUPLICATION: dict[str, float] = {
    "A": -3.0, "B": -3.0, "C": -3.5, "D": -2.5, "E": -2.5, "F": -2.0, "G": -2.5, "H": -3.5,
    "I": -4.0, "L": -2.0, "M": -2.0, "N": -2.5, "O": -3.5, "P": -2.5, "R": -3.5, "S": -4.0,
    "T": -2.5, "U": -3.0, "V": -3.5, "W": -4.5, "Y": -4.5, "?": -15.0,
}
GORDON_ALPHABET = "english"  # the tile set Gordon's weights were made for
SHARE_TOLERANCE = 0.03  # how far a letter's share of the bag may be from English's


def _letter_shares(alphabet: Alphabet) -> dict[str, float]:
    """Each letter's count over the number of letters in the bag (blanks left
    out), by upper-case label."""
    total = sum(t.count for t in alphabet.letters)
    return {t.label.upper(): (t.count / total if total else 0.0) for t in alphabet.letters}


def vowel_share(alphabet: Alphabet) -> float:
    """The vowels' share of the letters in the bag (blanks left out): 42/98 in
    English."""
    total = sum(t.count for t in alphabet.letters)
    return sum(t.count for t in alphabet.letters if t.vowel) / total if total else 0.0


def gordon_applies(alphabet: Alphabet) -> bool:
    """Whether ``alphabet`` has English's tile set, for which Gordon's weights
    were made: the letters A-Z, each with English's points and vowel flag and
    a share of the letters in the bag within `SHARE_TOLERANCE` of English's.

    >>> [gordon_applies(Alphabet.load(n)) for n in ("english_super", "english_wwf", "french")]
    [True, False, False]
    """
    english = Alphabet.load(GORDON_ALPHABET)
    if alphabet is english:
        return True
    ours = {t.label.upper(): t for t in alphabet.letters}
    theirs = {t.label.upper(): t for t in english.letters}
    if set(ours) != set(theirs):
        return False
    share, english_share = _letter_shares(alphabet), _letter_shares(english)
    return all(ours[k].points == theirs[k].points
               and ours[k].vowel == theirs[k].vowel
               and abs(share[k] - english_share[k]) <= SHARE_TOLERANCE for k in ours)


def tile_features(alphabet: Alphabet) -> np.ndarray:
    """The model's features of each letter of ``alphabet`` (rows in code order
    1..n): 1, its share of the letters in the bag, its vowel flag."""
    shares = _letter_shares(alphabet)
    return np.array([[1.0, shares[t.label.upper()], 1.0 if t.vowel else 0.0]
                     for t in alphabet.letters], np.float64).reshape(-1, 3)


@dataclass(frozen=True)
class TileModel:
    """A heuristic's per-letter weights and duplication penalty as functions of
    a tile's data, fitted to its English table (module docstring): a letter's
    weight is ``value @ [1, share, vowel]``, its penalty ``duplication``; ``r2``
    is the share of the English weights' variance the fit explains."""

    value: tuple[float, float, float]
    duplication: float
    r2: float

    @classmethod
    def fit(cls, values: Mapping[str, float],
            duplication: Mapping[str, float] | None = None) -> TileModel:
        """Least squares of ``values`` (by English label) on `tile_features`
        of English's tiles; the penalty is the mean of ``duplication`` over the
        English letters with two copies or more (0 without penalties)."""
        english = Alphabet.load(GORDON_ALPHABET)
        rows = [i for i, t in enumerate(english.letters) if t.label in values]
        if len(rows) < 3:
            raise RacketyError("a heuristic's fitted model needs the weights of at least "
                               "three English letters")
        x = tile_features(english)[rows]
        y = np.array([values[english.letters[i].label] for i in rows], np.float64)
        coef = np.linalg.lstsq(x, y, rcond=None)[0]
        spread = float(((y - y.mean()) ** 2).sum())
        r2 = 1.0 - float(((y - x @ coef) ** 2).sum()) / spread if spread else 1.0
        penalty = 0.0
        if duplication:
            many = [t.label for t in english.letters if t.count >= 2]
            penalty = float(np.mean([duplication.get(k, 0.0) for k in many]))
        return cls((float(coef[0]), float(coef[1]), float(coef[2])), penalty, r2)


@dataclass(frozen=True)
class Balance:
    """H3's vowel-consonant term (formula in the module docstring). ``share``
    is for English's bag; another alphabet's is scaled by its vowel share
    (`RackHeuristic.params_for`)."""

    share: float = 0.45  # the ideal fraction of vowels among the letters kept
    tolerance: float = 0.5  # distance from the ideal count that costs nothing
    power: float = 2.0
    vowel_excess: float = 2.0  # weight when there are too many vowels
    vowel_shortage: float = 2.0  # weight when there are too few


class RackHeuristic:
    """A leave model from per-letter values, duplication penalties (applied
    k(k-1)/2 times for k copies) and an optional `Balance` term. Letters are
    keyed by their English label, ``?`` for the blank; an alphabet without
    English's tile set gets its letters' values from the `TileModel` fitted to
    them (module docstring)."""

    def __init__(self, name: str, values: Mapping[str, float],
                 duplication: Mapping[str, float] | None = None,
                 balance: Balance | None = None) -> None:
        self.name = name
        self.letter_values = dict(values)
        self.duplication = dict(duplication or {})
        self.balance = balance
        self._model: TileModel | None = None
        self._tables: dict[tuple[str, tuple[Tile, ...]],
                           tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def __repr__(self) -> str:
        return f"<RackHeuristic {self.name}>"

    @property
    def balance(self) -> Balance | None:
        """The vowel-consonant term (None: none). Setting it makes another table (`table`)."""
        return self._balance

    @balance.setter
    def balance(self, balance: Balance | None) -> None:
        self._balance = balance
        b = balance or Balance()
        self._params = np.array([balance is not None, b.share, b.tolerance, b.power,
                                 b.vowel_excess, b.vowel_shortage], np.float64)

    @property
    def model(self) -> TileModel:
        """The weights as functions of the tiles' data, fitted to this
        heuristic's English table (fitted on first use)."""
        if self._model is None:
            self._model = TileModel.fit(self.letter_values, self.duplication)
        return self._model

    def tables(self, alphabet: Alphabet) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per tile code of ``alphabet``: value, duplication penalty and vowel flag
        (float64 arrays of 64): Gordon's by label for English's tile set
        (`gordon_applies`), else from `model`; the blank's by ``?`` either way."""
        key = (alphabet.identity, alphabet.tiles)  # labels, counts, points, vowels
        hit = self._tables.get(key)
        if hit is not None:
            return hit
        value = np.zeros(64, np.float64)
        penalty = np.zeros(64, np.float64)
        vowel = np.zeros(64, np.float64)
        value[0] = self.letter_values.get("?", 0.0)
        penalty[0] = self.duplication.get("?", 0.0)
        if gordon_applies(alphabet):
            for tile in alphabet.letters:
                value[tile.code] = self.letter_values.get(tile.label.upper(), 0.0)
                penalty[tile.code] = self.duplication.get(tile.label.upper(), 0.0)
        else:
            model = self.model
            codes = [t.code for t in alphabet.letters]
            value[codes] = tile_features(alphabet) @ np.array(model.value, np.float64)
            penalty[codes] = model.duplication
        for tile in alphabet.letters:
            vowel[tile.code] = 1.0 if tile.vowel else 0.0
        hit = (value, penalty, vowel)
        self._tables[key] = hit
        return hit

    @property
    def params(self) -> np.ndarray:
        """The balance term as the kernels read it for English: [on, share,
        tolerance, power, vowel_excess, vowel_shortage] (`params_for` another
        alphabet)."""
        return self._params

    def params_for(self, alphabet: Alphabet) -> np.ndarray:
        """`params` for ``alphabet``: the ideal vowel share scaled by the
        alphabet's vowel share over English's (English's own, exactly)."""
        english = vowel_share(Alphabet.load(GORDON_ALPHABET))
        ours = vowel_share(alphabet)
        if ours == english:
            return self._params
        params = self._params.copy()
        params[1] = self._params[1] * ours / english
        return params

    def value(self, leave: Sequence[int] | str, alphabet: Alphabet | None = None) -> float:
        """The value of one leave (tile codes, or text with ``?`` for a blank),
        by the formula (any number of tiles)."""
        alphabet = alphabet or Alphabet.load("english")
        if isinstance(leave, str):
            codes = alphabet.tokenize(leave.upper(), blanks=True, what="leave")
        else:
            codes = [int(c) for c in leave]
        value, penalty, vowel = self.tables(alphabet)
        hist = np.bincount(np.array(codes, np.int64), minlength=64).astype(np.int64)
        return float(heuristic_value(hist, value, penalty, vowel, self.params_for(alphabet)))

    def table(self, alphabet: Alphabet) -> Leaves:
        """The heuristic as a leave table over every leave of ``alphabet`` (the
        one form leaves take in the kernels; cached, `Leaves.heuristic`)."""
        return Leaves.heuristic(self, alphabet)

    def rack_values(self, alphabet: Alphabet, rack: Sequence[int]) -> np.ndarray:
        """The value of every leave of ``rack``, by leave index (see
        `rackety.game.movegen.leave_subsets`), from the heuristic's table."""
        return self.table(alphabet).rack_values(alphabet, rack)

    def values_into(self, alphabet: Alphabet, counts: np.ndarray, out: np.ndarray) -> int:
        """As `Leaves.values_into`, from the heuristic's table."""
        return self.table(alphabet).values_into(alphabet, counts, out)


H1 = RackHeuristic("h1", H1_VALUES)
H2 = RackHeuristic("h2", H2_VALUES, H2_DUPLICATION)
H3 = RackHeuristic("h3", H2_VALUES, H2_DUPLICATION, Balance())
HEURISTICS: dict[str, RackHeuristic] = {"h1": H1, "h2": H2, "h3": H3}


STATIC = "static"  # the lexicon's shipped table, H3 where there is none


class LeaveSpecError(RacketyError):
    """A leave spec that names no leave model (`leave_model`)."""


def leave_model(spec: str, lexicon: Lexicon, *, named: Mapping[str, str] | None = None,
                files: bool = True) -> RackHeuristic | Leaves:
    """The leave model of a spec, the one reading of a leave spec (players,
    searches, the front ends through `rackety.frontends.common.resolve_leave`,
    which adds ``none``): ``static`` (the table shipped for the lexicon,
    `Leaves.builtin`, or H3 where there is none: what the ``static`` player,
    ``rackety moves``, hints and analysis use by default), ``h1``, ``h2``,
    ``h3``, ``leaves:NAME`` for a table in ``named`` (name to file: the web
    app's tables), or, when ``files`` allows it, ``leaves:FILE.klv2`` or the
    file alone (``FILE.klv2``, or any path with a slash): a KLV2 or KLV file
    in the lexicon's alphabet. A spec that is none of these is refused in one
    line that lists what it may be."""
    named = named or {}
    key = spec.strip()
    low = key.lower()
    if low == STATIC:
        table = Leaves.builtin(lexicon)
        return table if table is not None else HEURISTICS["h3"]
    if low in HEURISTICS:
        return HEURISTICS[low]
    if low.startswith("leaves:"):
        name = key[len("leaves:"):].strip()
        if not name:
            raise RacketyError("leaves 'leaves:': give the leave file, as leaves:FILE.klv2")
        if name in named or name.lower() in named:
            return Leaves.load(named.get(name) or named[name.lower()], lexicon.alphabet)
        if files:
            return Leaves.load(name, lexicon.alphabet)
    elif files and (low.endswith((".klv2", ".klv")) or "/" in key or "\\" in key):
        return Leaves.load(key, lexicon.alphabet)
    raise LeaveSpecError(f"{clip(spec)!r} is not a leave model: expected "
                         f"{', '.join(leave_specs(named, files=files))}")


def leave_specs(named: Mapping[str, str] | None = None, *, files: bool = True) -> list[str]:
    """The leave specs `leave_model` takes, as a person writes them."""
    return [STATIC, *HEURISTICS, *(f"leaves:{n}" for n in named or {}),
            *(["FILE.klv2"] if files else [])]


def leave_label(model: RackHeuristic | Leaves | None, lexicon: Lexicon) -> str:
    """What a leave model is, in a few words, for a report's header: ``none``,
    ``H3``, ``TWL06's shipped table``, or a table file's name."""
    if model is None:
        return "none"
    if isinstance(model, RackHeuristic):
        return model.name.upper()
    if model is Leaves.builtin(lexicon):
        return f"{lexicon.name}'s shipped table"
    return f"table {model.source.replace(chr(92), '/').rsplit('/', 1)[-1]}"
