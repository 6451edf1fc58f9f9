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

The weights are Gordon's for English: an alphabet whose letters are not A-Z is
refused. A model's `rack_values` gives the value of every leave of a rack at
once, in the order of `rackety.game.movegen.leave_subsets` (one compiled loop over
the leave indices), and is cached per rack.

>>> from rackety import Alphabet
>>> english = Alphabet.load("english")
>>> H1.value("IIISS"), H2.value("IIISS"), H3.value("IIISS")
(10.5, -2.5, -2.625)
>>> H2.rack_values(english, english.tokenize("SS")).tolist()  # "", S, SS
[0.0, 7.5, 11.0]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from rackety.alphabet import Alphabet
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
_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


@dataclass(frozen=True)
class Balance:
    """H3's vowel-consonant term (formula in the module docstring)."""

    share: float = 0.45  # the ideal fraction of vowels among the letters kept
    tolerance: float = 0.5  # distance from the ideal count that costs nothing
    power: float = 2.0
    vowel_excess: float = 2.0  # weight when there are too many vowels
    vowel_shortage: float = 2.0  # weight when there are too few


class RackHeuristic:
    """A leave model from per-letter values, duplication penalties (applied
    k(k-1)/2 times for k copies) and an optional `Balance` term. Letters are
    keyed by their English label, ``?`` for the blank."""

    def __init__(self, name: str, values: Mapping[str, float],
                 duplication: Mapping[str, float] | None = None,
                 balance: Balance | None = None) -> None:
        self.name = name
        self.letter_values = dict(values)
        self.duplication = dict(duplication or {})
        self.balance = balance
        self._tables: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

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

    def tables(self, alphabet: Alphabet) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per tile code of ``alphabet``: value, duplication penalty and vowel flag
        (float64 arrays of 64). Raises `RacketyError` unless the letters are A-Z."""
        hit = self._tables.get(alphabet.identity)
        if hit is not None:
            return hit
        odd = [t.label for t in alphabet.tiles[1:] if t.label.upper() not in _LETTERS]
        if odd:
            raise RacketyError(f"leave heuristic {self.name} has Gordon's weights for English "
                               f"tiles A-Z; alphabet {alphabet.name} has {odd[0]!r}")
        value = np.zeros(64, np.float64)
        penalty = np.zeros(64, np.float64)
        vowel = np.zeros(64, np.float64)
        for tile in alphabet.tiles:
            label = "?" if tile.code == 0 else tile.label.upper()
            value[tile.code] = self.letter_values.get(label, 0.0)
            penalty[tile.code] = self.duplication.get(label, 0.0)
            vowel[tile.code] = 1.0 if tile.vowel and tile.code else 0.0
        hit = (value, penalty, vowel)
        self._tables[alphabet.identity] = hit
        return hit

    @property
    def params(self) -> np.ndarray:
        """The balance term as the kernels read it: [on, share, tolerance, power,
        vowel_excess, vowel_shortage]."""
        return self._params

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
        return float(heuristic_value(hist, value, penalty, vowel, self._params))

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


def leave_model(spec: str, lexicon: Lexicon) -> RackHeuristic | Leaves:
    """The leave model of a static player's spec: ``static`` (the table shipped
    for the lexicon, `Leaves.builtin`, or H3 where there is none: what the
    ``static`` player, ``rackety moves``, hints and analysis use by default),
    ``h1``, ``h2``, ``h3`` or ``leaves:FILE.klv2`` (a KLV2 or KLV file in the
    lexicon's alphabet)."""
    key = spec.strip()
    if key.lower() == STATIC:
        table = Leaves.builtin(lexicon)
        return table if table is not None else leave_model("h3", lexicon)
    if key.lower() in HEURISTICS:
        model = HEURISTICS[key.lower()]
        model.tables(lexicon.alphabet)  # refuses an alphabet that is not A-Z now
        return model
    if key.lower().startswith("leaves:"):
        path = key[len("leaves:"):].strip()
        if not path:
            raise RacketyError("player 'leaves:': give the leave file, as leaves:FILE.klv2")
        return Leaves.load(path, lexicon.alphabet)
    raise RacketyError(f"{clip(spec)!r} is not a leave model: expected static, h1, h2, h3 "
                       "or leaves:FILE.klv2")


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
