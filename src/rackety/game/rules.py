"""The rules of a game, written once: `Rules`.

A `Rules` is the user's choices (challenge rule, bingo bonus, the tiles the
bag needs for an exchange, the scoreless turns that end the game, the
play-out rule, the variant) over the tile set's own values (`Alphabet`:
``bingo_bonus``, ``exchange_min_bag``, ``max_scoreless``, ``rack_size``).
`Rules.of` resolves them for an alphabet: every field a value. A position
carries its rules (`rackety.game.board.Board.rules`, read from and written to
CGP's ``cr``, ``etl``, ``mcnz``, ``bb`` and ``var`` operations), a game its own
(`rackety.game.referee.Game.rules`), and the kernels read the constants made
from them (`rackety.game.state.kernel_consts`). Nothing else reads a rule
from the alphabet.

The end of the game (docs/FORMATS.md section 7) is decided here for Python
(`Rules.ending`, `Rules.end_points`: GCG replay) and in one kernel for the
compiled game (`rackety.kernels.rules.end_turn`, its play-out values from
`rackety.kernels.rules.out_spread`): a player who plays out with the bag empty
ends it, gaining twice the value of the other racks (``playout="twice"``, two
players) or their sum while each other player loses their own
(``"subtract"``; with more than two players always); after ``max_scoreless``
scoreless turns in a row (passes, exchanges, challenges lost) each player
loses the value of their own rack. In a two-player game both play-out rules
move the spread by twice the rack left: they differ in the scores only.

>>> from rackety.alphabet import Alphabet
>>> english = Alphabet.load("english")
>>> rules = Rules().of(english)
>>> rules.challenge, rules.bingo_bonus, rules.exchange_min_bag, rules.max_scoreless
('double', 50, 7, 6)
>>> Rules(exchange_min_bag=1, playout="subtract").end_points(0, [0, 12], END_OUT)
[12, -12]
>>> Rules().of(english).ending(went_out=False, scoreless=6) == END_SCORELESS
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Literal, TypeGuard, get_args

from rackety.alphabet import MAX_BINGO_BONUS
from rackety.errors import RacketyError, clip, parse_int
from rackety.kernels.fields import END_NONE, END_OUT, END_SCORELESS

if TYPE_CHECKING:
    from rackety.alphabet import Alphabet

#: the challenge rules, and the one default (North American club play's, and
#: what a record of a game between people needs: a phony may be played)
ChallengeRule = Literal["void", "single", "double", "5pt", "10pt"]
CHALLENGE_RULES: tuple[str, ...] = get_args(ChallengeRule)
DEFAULT_CHALLENGE: ChallengeRule = "double"
#: what playing out earns (the module docstring)
Playout = Literal["twice", "subtract"]
PLAYOUT_RULES: tuple[str, ...] = get_args(Playout)
#: ``classic``: every word formed is in the lexicon; ``wordsmog``: every word
#: formed is an anagram of a word in the lexicon (MAGPIE's, wolges' and
#: Macondo's "jumbled" rules)
Variant = Literal["classic", "wordsmog"]
VARIANTS: tuple[str, ...] = get_args(Variant)


def is_variant(text: str) -> TypeGuard[Variant]:
    """Whether ``text`` names a variant (`VARIANTS`, as written)."""
    return text in VARIANTS


#: CGP operations of the rules (docs/FORMATS.md section 4), opcode -> field
CGP_OPCODES = {"cr": "challenge", "bb": "bingo_bonus", "etl": "exchange_min_bag",
               "mcnz": "max_scoreless", "var": "variant"}
_CGP_VARIANTS = {"classic": "classic", "wordsmog": "wordsmog"}  # read without case
MAX_SCORELESS = 1000
#: a game clock's overtime: points lost for each period of seconds, or part of
#: one, past the clock (NASPA's rule; MAGPIE's autoplay counts it so too)
OVERTIME_POINTS = 10
OVERTIME_PERIOD = 60.0


def overtime_penalty(used: float, clock: float) -> int:
    """The points a player loses for ``used`` seconds on a game clock of
    ``clock`` seconds (0 within it)."""
    over = used - clock
    return 0 if not over > 0 else OVERTIME_POINTS * math.ceil(over / OVERTIME_PERIOD)

_LIMITS = {"bingo_bonus": (0, MAX_BINGO_BONUS), "exchange_min_bag": (0, 1000),
           "max_scoreless": (1, MAX_SCORELESS)}


@dataclass(frozen=True)
class Rules:
    """The rules of a game. A field left ``None`` is the alphabet's value
    (`of` fills it in); the others are the user's choices."""

    challenge: ChallengeRule = DEFAULT_CHALLENGE
    bingo_bonus: int | None = None
    exchange_min_bag: int | None = None
    max_scoreless: int | None = None
    playout: Playout = "twice"
    variant: Variant = "classic"

    def __post_init__(self) -> None:
        if self.challenge not in CHALLENGE_RULES:
            raise RacketyError(f"challenge rule {clip(str(self.challenge), 20)!r}: expected "
                               f"one of {', '.join(CHALLENGE_RULES)}")
        if self.playout not in PLAYOUT_RULES:
            raise RacketyError(f"play-out rule {clip(str(self.playout), 20)!r}: expected one "
                               f"of {', '.join(PLAYOUT_RULES)}")
        if self.variant not in VARIANTS:
            raise RacketyError(f"variant {clip(str(self.variant), 20)!r}: expected one of "
                               f"{', '.join(VARIANTS)}")
        for name, (low, high) in _LIMITS.items():
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not low <= value <= high):
                raise RacketyError(f"{name} {clip(repr(value), 20)}: expected a whole "
                                   f"number from {low} to {high}")

    # ------------------------------------------------------------ resolving
    def of(self, alphabet: Alphabet) -> Rules:
        """These rules for a game in ``alphabet``: each field left ``None``
        takes the alphabet's value."""
        if self.resolved:
            return self
        return replace(
            self,
            bingo_bonus=alphabet.bingo_bonus if self.bingo_bonus is None else self.bingo_bonus,
            exchange_min_bag=(alphabet.exchange_min_bag if self.exchange_min_bag is None
                              else self.exchange_min_bag),
            max_scoreless=(alphabet.max_scoreless if self.max_scoreless is None
                           else self.max_scoreless))

    @property
    def resolved(self) -> bool:
        """Whether every field has a value (`of` was applied)."""
        return None not in (self.bingo_bonus, self.exchange_min_bag, self.max_scoreless)

    def _need(self) -> Rules:
        if not self.resolved:
            raise RacketyError("these rules are not made for a tile set yet (Rules.of)")
        return self

    # ---------------------------------------------------------------- CGP
    @classmethod
    def from_options(cls, options: Mapping[str, str], *, base: Rules | None = None,
                     source: str = "cgp") -> Rules:
        """The rules a position's CGP operations state (``cr``, ``bb``, ``etl``,
        ``mcnz``, ``var``) over ``base`` (default: `Rules()`); a bad operand
        raises a one-line `RacketyError` naming ``source``."""
        rules = base or cls()
        changes: dict[str, object] = {}
        for opcode, name in CGP_OPCODES.items():
            text = options.get(opcode)
            if text is None:
                continue
            text = text.strip()
            if name == "challenge":
                value: object = text.lower()
                if value not in CHALLENGE_RULES:
                    raise RacketyError(f"{source}: cr operand {clip(text, 20)!r}: expected one "
                                       f"of {', '.join(CHALLENGE_RULES)}")
            elif name == "variant":
                value = _CGP_VARIANTS.get(text.lower())
                if value is None:
                    raise RacketyError(f"{source}: var operand {clip(text, 20)!r}: expected "
                                       "classic or wordsmog")
            else:
                low, high = _LIMITS[name]
                value = parse_int(text, f"{source}: {opcode} operand", low, high)
            changes[name] = value
        if not changes:
            return rules
        try:
            return replace(rules, **changes)  # type: ignore[arg-type]
        except RacketyError as exc:
            raise RacketyError(f"{source}: {exc}") from None

    def options(self, alphabet: Alphabet) -> dict[str, str]:
        """The CGP operations that state these rules where they differ from the
        alphabet's defaults (`from_options` reads them back)."""
        default = Rules().of(alphabet)
        mine = self.of(alphabet)
        out: dict[str, str] = {}
        for opcode, name in CGP_OPCODES.items():
            value = getattr(mine, name)
            if value != getattr(default, name):
                out[opcode] = "WordSmog" if value == "wordsmog" else str(value)
        return out

    # ------------------------------------------------------------ the game
    def may_exchange(self, bag: int, tiles: int = 1) -> bool:
        """Whether ``tiles`` may be exchanged with ``bag`` tiles in the bag."""
        return bag >= max(self._need().exchange_min_bag or 0, tiles)

    def twice(self, players: int) -> bool:
        """Whether the player who plays out gains twice the other racks (the
        ``twice`` rule, two players), rather than their sum while each other
        player loses their own."""
        return self.playout == "twice" and players == 2

    def ending(self, *, went_out: bool, scoreless: int) -> int:
        """How the game ends after a turn: `END_OUT` when the turn emptied its
        player's rack with the bag empty (``went_out``), `END_SCORELESS` after
        ``max_scoreless`` scoreless turns in a row, else `END_NONE`. The
        kernels' `end_turn` is the same rule, compiled."""
        if went_out:
            return END_OUT
        if scoreless >= (self._need().max_scoreless or 0):
            return END_SCORELESS
        return END_NONE

    def end_points(self, seat: int, rack_values: Sequence[int], ending: int) -> list[int]:
        """The points each seat gains (negative: loses) when the game ends by
        ``ending`` after ``seat``'s turn, ``rack_values[s]`` the face value of
        seat s's rack."""
        n = len(rack_values)
        out = [0] * n
        if ending == END_OUT:
            left = sum(v for s, v in enumerate(rack_values) if s != seat)
            if self.twice(n):
                out[seat] = 2 * left
            else:
                out[seat] = left
                for s in range(n):
                    if s != seat:
                        out[s] = -rack_values[s]
        elif ending == END_SCORELESS:
            out = [-v for v in rack_values]
        return out

    def describe(self) -> str:
        """One line for people: the rules that are set."""
        parts = [f"{f.name.replace('_', ' ')} {getattr(self, f.name)}" for f in fields(self)
                 if getattr(self, f.name) is not None]
        return ", ".join(parts)


__all__ = [
    "CGP_OPCODES",
    "CHALLENGE_RULES",
    "DEFAULT_CHALLENGE",
    "END_NONE",
    "END_OUT",
    "END_SCORELESS",
    "PLAYOUT_RULES",
    "VARIANTS",
    "ChallengeRule",
    "Playout",
    "Rules",
    "Variant",
    "is_variant",
]
