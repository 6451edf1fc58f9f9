"""GCG game records (docs/FORMATS.md section 6): read, write and replay.

A GCG file is text, one record per line: lines starting ``#`` are pragmata
(``#player1 NICK Full Name``, ``#lexicon NWL23``, ``#note ...``), lines starting
``>`` are events (``>doug: DINNVWY 8D WINDY +32 32``). `read_gcg` reads every
variant met in the wild into a `GcgRecord` of plain dataclasses, `write_gcg`
writes it back (UTF-8, one canonical spacing), and `replay` plays it on a
`rackety.game.board.Board`, re-scoring every play and keeping each position and
what each event does (`Step`). `game_of` makes the replay a
`rackety.game.referee.Game` to look at or play on, and `record_of` a game a record
again (`game_of` and `record_of`).

>>> record = read_gcg('''#player1 ann Ann
... #player2 bob Bob
... >ann: AEHLRTD 8D HALTED +28 28
... #note the opening
... >bob: EFGOOST -FGO +0 0
... ''')
>>> [(e.nickname, e.kind, e.move, e.score, e.total) for e in record.events]
[('ann', 'play', '8D HALTED', 28, 28), ('bob', 'exchange', '-FGO', 0, 0)]
>>> record.events[0].notes, record.events[0].position
(['the opening'], (7, 3, False))
>>> game = replay(record)
>>> game.discrepancies
[]
>>> game.final.cgp()
'15/15/15/15/15/15/15/3HALTED6/15/15/15/15/15/15/15 / 28/0 1'
>>> print(write_gcg(record), end="")
#character-encoding UTF-8
#player1 ann Ann
#player2 bob Bob
>ann: AEHLRTD 8D HALTED +28 28
#note the opening
>bob: EFGOOST -FGO +0 0

Reading, in brief (the details are at each function):

* Bytes: the ``#character-encoding`` pragma names the encoding (it is a fact of the
  file, not of the game, so it is kept in `GcgRecord.encoding`, not among the
  pragmata); without it, UTF-8 when the bytes are valid UTF-8, else ISO-8859-1
  (the format's default). A declared encoding the bytes do not fit falls back
  the same way. CRLF, CR and LF line ends, a byte-order mark and blank lines are
  accepted.
* Notes: each ``#note`` after an event belongs to that event; lines that start
  with neither ``#`` nor ``>`` continue the note above them.
* Events: the rack may be missing, partial or empty; spacing is free; text after
  the total (Quackle appends the cross-words) is kept in `Event.trailing`.
* The board: ``#note BoardLayout: NAME`` in the header, as Macondo writes it
  (`record_layout`); without it, the alphabet's board. A record of a game on
  another board names it (`record_of`), and one that names none and does not fit
  the standard board is refused saying which layout it fits (`replay`).
"""

from __future__ import annotations

import codecs
import os
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from rackety.alphabet import BLANK_FLAG, Alphabet
from rackety.errors import RacketyError, clip, parse_int
from rackety.files import read_bytes, write_atomic
from rackety.game.board import MAX_PLAYERS, SCORE_LIMIT, Board, Layout
from rackety.game.move import Move, format_leave
from rackety.game.referee import Event as GameEvent
from rackety.game.referee import Game, alphabet_for
from rackety.game.rules import END_OUT, VARIANTS, Rules, Variant, is_variant

if TYPE_CHECKING:
    from rackety.lexicon import Lexicon

#: every event kind, in the order of docs/FORMATS.md section 6
KINDS = ("play", "exchange", "pass", "withdrawn", "challenge_bonus", "end_rack_points",
         "end_rack_penalty", "time_penalty", "other")
#: the kinds that are turns: after one of them the next player is to move
TURN_KINDS = frozenset({"play", "exchange", "pass", "withdrawn"})

ENCODING_PRAGMA = "character-encoding"
#: the header notes that name a record's board and its set of tiles, as Macondo and
#: Woogles write them (``#note BoardLayout: SuperCrosswordGame``, before any event)
LAYOUT_NOTE = "BoardLayout"
DISTRIBUTION_NOTE = "LetterDistribution"
#: and the variant of the rules, in the same form (``#note Variant: wordsmog``:
#: rackety's; a record without it is a classic game)
VARIANT_NOTE = "Variant"
#: the names those programs give the layouts they know (the others are rackety's)
_GCG_LAYOUT_NAMES = {"standard15": "CrosswordGame", "super21": "SuperCrosswordGame"}
_BOARD_NOTE = re.compile(rf"({LAYOUT_NOTE}|{DISTRIBUTION_NOTE}|{VARIANT_NOTE})[ \t]*:[ \t]*(.*)",
                         re.IGNORECASE)

# numbers are ASCII digits only ('176٣' is not 1763)
_COORD = re.compile(r"([0-9]+)([A-Za-z])|([A-Za-z])([0-9]+)")
_SCORE = re.compile(r"[+-][0-9]+")
_TOTAL = re.compile(r"-?[0-9]+")
_PARENS = re.compile(r"\(([^()]*)\)")
_PLAYER = re.compile(r"player([0-9]+)", re.IGNORECASE)
_RACK = re.compile(r"rack([0-9]+)", re.IGNORECASE)
MAX_GCG = 16 << 20  # bytes of a GCG file
_WENT_OUT = "a player went out with the bag empty"
#: codecs Python knows that are not character sets a file can be written in
_NOT_CHARSETS = frozenset({"undefined", "punycode", "idna", "unicode_escape",
                           "raw_unicode_escape", "unicode_internal", "mbcs", "oem"})
_LINE_ENDS = re.compile(r"\r\n|\r|\n")

# #lexicon prefixes -> alphabet (upper case; the longest prefix wins)
_LEXICON_ALPHABETS = {
    "OSPS": "polish",
    "NWL": "english", "TWL": "english", "OWL": "english", "CSW": "english",
    "CEL": "english", "ECWL": "english", "ENABLE": "english", "SOWPODS": "english",
    "COLLINS": "english", "AMERICA": "english",
    "FRA": "french", "ODS": "french",
    "RD": "german", "DEUTSCH": "german",
    "NSF": "norwegian",
    "DISC": "catalan",
    "FILE": "spanish", "FISE": "spanish",
}


# ------------------------------------------------------------------ data model
@dataclass
class Player:
    """One seat of the game: the nickname events use and the full name."""

    nickname: str
    name: str = ""


@dataclass
class Pragma:
    """One ``#`` line other than an event's note: ``name`` without the ``#``
    (``player1``, ``title``, ``lexicon``, ``rack1``, ``incomplete``, ``tile`` ...),
    ``value`` the rest of the line, ``after`` how many events precede it (0: in the
    header), so the writer puts it back where it was."""

    name: str
    value: str = ""
    after: int = 0
    line_number: int = field(default=0, compare=False)

    @property
    def text(self) -> str:
        """The pragma as a line (more lines for a multi-line note)."""
        return _with_continuation(f"#{self.name} {self.value}" if self.value
                                  else f"#{self.name}")


@dataclass
class Event:
    """One ``>`` line: ``>NICK: RACK MOVE +SCORE TOTAL [TRAILING]``.

    ``kind`` is one of `KINDS`: ``play`` (``8D WINDY``), ``exchange`` (``-ABC``, or
    ``-2`` when only the count is known), ``pass`` (``-``), ``withdrawn`` (``--``,
    the previous play taken back), ``challenge_bonus`` (``(challenge)``),
    ``end_rack_points`` (``(TILES)`` with a score of 0 or more: the play-out
    bonus), ``end_rack_penalty`` (``(TILES)`` with a negative score), ``time_penalty``
    (``(time)``) and ``other`` (anything else in parentheses, kept as written).
    ``move`` is the move as written, ``rack`` the rack as written (may be empty or
    partial), ``score`` and ``total`` the signed numbers as written, ``trailing``
    any text after the total (cross-words), ``notes`` the ``#note`` lines after the
    event. ``seat`` is the player's index in `GcgRecord.players` (see `read_gcg`
    for shared nicknames); ``line`` and ``line_number`` say where it was read.
    """

    nickname: str
    kind: str
    move: str
    score: int
    total: int
    rack: str = ""
    trailing: str = ""
    notes: list[str] = field(default_factory=list)
    seat: int = 0
    line: str = field(default="", compare=False)
    line_number: int = field(default=0, compare=False)

    @property
    def coordinates(self) -> str | None:
        """The square of a play as written (``8D``, ``h2``), else None."""
        return self.move.split(None, 1)[0] if self.kind == "play" else None

    @property
    def word(self) -> str | None:
        """The word of a play as written (``JAVE..N``), else None."""
        return self.move.split(None, 1)[1] if self.kind == "play" else None

    @property
    def position(self) -> tuple[int, int, bool] | None:
        """``(row, col, down)`` of a play, 0-based (``8D`` -> ``(7, 3, False)``)."""
        coordinates = self.coordinates
        return _parse_coordinates(coordinates) if coordinates else None

    @property
    def tiles(self) -> str:
        """The tiles of an exchange (``-ABC`` -> ``ABC``, empty when only the count
        is known) or of an end-of-game rack (``(OPEG)`` -> ``OPEG``); else empty."""
        if self.kind == "exchange":
            body = self.move[1:]
            return "" if _is_count(body) else body
        if self.kind in ("end_rack_points", "end_rack_penalty"):
            return self.move[1:-1]
        return ""

    @property
    def exchange_count(self) -> int | None:
        """How many tiles an exchange gave back, else None."""
        if self.kind != "exchange":
            return None
        body = self.move[1:]
        return int(body) if _is_count(body) else len(body)

    @property
    def text(self) -> str:
        """The event in canonical form: single spaces, the rack field always
        present (so an empty rack leaves two spaces after the colon)."""
        score = "-0" if self.score == 0 and self.kind == "end_rack_penalty" else \
            f"{self.score:+d}"
        out = f">{self.nickname}: {self.rack} {self.move} {score} {self.total}"
        return f"{out} {self.trailing}" if self.trailing else out


@dataclass(repr=False)
class GcgRecord:
    """A game record: ``players`` in seat order (player 1 moves first), ``events``
    in order (each with its notes), ``pragmata`` every other ``#`` line in order.

    ``encoding`` is the encoding the file declared (``#character-encoding``), if
    any, and ``source`` the name errors use; neither takes part in equality.
    """

    players: list[Player] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    pragmata: list[Pragma] = field(default_factory=list)
    encoding: str | None = field(default=None, compare=False)
    source: str = field(default="<gcg>", compare=False)

    def __repr__(self) -> str:
        """``read_gcg('...')`` of the record's text (`write_gcg`): it evaluates
        back to an equal record (``GcgRecord(...)`` for one with no player and
        no event, which is no GCG file)."""
        if not self.players and not self.events:
            return f"GcgRecord(pragmata={self.pragmata!r})" if self.pragmata else "GcgRecord()"
        return f"read_gcg({write_gcg(self)!r})"

    def pragma(self, name: str) -> str | None:
        """The value of the first pragma called ``name`` (case-insensitive), or None."""
        key = name.lower()
        return next((p.value for p in self.pragmata if p.name.lower() == key), None)

    @property
    def lexicon(self) -> str | None:
        """The ``#lexicon`` pragma, if any."""
        return self.pragma("lexicon")

    @property
    def title(self) -> str | None:
        """The ``#title`` pragma, if any."""
        return self.pragma("title")

    @property
    def description(self) -> str | None:
        """The ``#description`` pragma, if any."""
        return self.pragma("description")

    @property
    def incomplete(self) -> bool:
        """Whether the record says it is unfinished (``#incomplete``)."""
        return self.pragma("incomplete") is not None

    @property
    def racks(self) -> dict[int, str]:
        """Seat -> rack of the ``#rack1``, ``#rack2`` ... pragmata (the racks at the
        end of an unfinished record)."""
        out = {}
        for p in self.pragmata:
            seat = _seat_number(_RACK, p.name)
            if seat is not None:
                out[seat - 1] = p.value.strip()
        return out


# --------------------------------------------------------------------- reading
def read_gcg(path_or_text: str | os.PathLike[str] | bytes, *,
             source: str | None = None) -> GcgRecord:
    """Read a GCG record from a file (a path), from its bytes, or from text (a
    string holding a newline, starting with ``#`` or ``>``, or blank).

    Players come from the ``#playerN`` pragmata in the order of N; a nickname
    used by events but never declared becomes a further player. When players
    share a nickname (it happens: ``#player1 NoName ...`` / ``#player2 NoName ...``)
    each of their events goes to the seat whose running total plus the event's
    score equals the event's written total; when that does not decide (both
    match, as at 0-0, or neither), a withdrawal, challenge bonus or play-out bonus
    goes to the seat of the event before it, and anything else to the next of
    those seats after it (alternation, in ``#playerN`` order).

    Bad input raises a one-line `RacketyError` naming ``file:line`` and what is
    wrong. ``source`` names the record in errors (default: the path, or
    ``<gcg>``).
    """
    text, name, declared = _load_text(path_or_text, source)
    return _parse(text, name, declared)


def _load_text(path_or_text: str | os.PathLike[str] | bytes,
               source: str | None) -> tuple[str, str, str | None]:
    if isinstance(path_or_text, bytes):
        name = source or "<gcg>"
        text, declared = _decode(path_or_text, name)
        return text, name, declared
    if isinstance(path_or_text, str) and (
            not path_or_text.strip() or "\n" in path_or_text or "\r" in path_or_text
            or path_or_text.lstrip("\ufeff").startswith(("#", ">"))):
        text = path_or_text.lstrip("\ufeff")
        name = source or "<gcg>"
        found = re.match(r"#character-encoding[ \t]+(\S+)", text, re.IGNORECASE)
        if found:
            _charset(found.group(1), f"{name}:1")
        return text, name, found.group(1) if found else None
    if not isinstance(path_or_text, (str, os.PathLike)):
        raise RacketyError(f"a GCG record is a path, bytes or text, not "
                           f"{type(path_or_text).__name__}")
    data = read_bytes(path_or_text, "GCG file", MAX_GCG)
    name = source or str(path_or_text)
    text, declared = _decode(data, name)
    return text, name, declared


def _decode(data: bytes, source: str) -> tuple[str, str | None]:
    """The text of a GCG file and the encoding it declares (if any).

    Declared UTF-8 (or no declaration, or a declaration the bytes do not fit:
    one file in the wild says ISO8859-6 and is UTF-8): UTF-8 if the bytes are valid
    UTF-8, else ISO-8859-1, which every byte string is. Macondo reads an
    undeclared file as ISO-8859-1 even when it is valid UTF-8; valid UTF-8 with
    non-ASCII text is hardly ever meant as Latin-1, so we prefer it. A declared
    name that is a codec but not a character set (base64, rot13, zip ...) is
    refused, naming its line; a name Python does not know is passed over.
    """
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    found = re.search(rb"(?m)^#character-encoding[ \t]+(\S+)", data[:4096], re.IGNORECASE)
    declared = found.group(1).decode("ascii", "replace") if found else None
    attempts = []
    if found and declared:
        line = len(re.findall(rb"\r\n|\r|\n", data[:found.start()])) + 1
        charset = _charset(declared, f"{source}:{line}")
        if charset:
            attempts.append(charset)
    attempts += ["utf-8", "iso8859-1"]
    for encoding in attempts:
        try:
            return data.decode(encoding), declared
        except (UnicodeError, ValueError, LookupError):
            continue
    raise AssertionError("ISO-8859-1 decodes every byte string")  # pragma: no cover


def _charset(name: str, where: str) -> str | None:
    """The codec of a declared character set; None for a name Python does not
    know; a `RacketyError` for a codec that does not encode text."""
    try:
        info = codecs.lookup(name)
    except (LookupError, ValueError):
        return None
    if not getattr(info, "_is_text_encoding", True) or \
            info.name.replace("-", "_") in _NOT_CHARSETS:
        raise RacketyError(f"{where}: #character-encoding {clip(name, 40)!r} is not a "
                           "character set (the record is UTF-8 or ISO-8859-1 text)")
    return info.name


def _with_continuation(text: str) -> str:
    """A multi-line note as lines: continuation lines that would read as a pragma
    or an event (or a blank line that would end the note) get a leading space."""
    lines = text.split("\n")
    rest = [" " + line if line.startswith(("#", ">")) else line for line in lines[1:]]
    return "\n".join([lines[0], *rest])


def _parse(text: str, source: str, declared: str | None) -> GcgRecord:
    pragmata: list[Pragma] = []
    events: list[Event] = []
    players: dict[int, tuple[Player, int]] = {}
    note_owner: list[str] | Pragma | None = None  # what a continuation line extends
    blanks = 0
    seen_any = False
    for number, raw in enumerate(_LINE_ENDS.split(text), 1):
        line = raw.rstrip()
        if not line.strip():
            blanks += 1
            continue
        if line.startswith("#"):
            seen_any = True
            found = re.match(r"#(\S*)\s*(.*)", line)
            assert found is not None
            name, value = found.group(1), found.group(2)
            note_owner = None
            if name.lower() == ENCODING_PRAGMA:
                continue
            if name.lower() == "note" and events:
                events[-1].notes.append(value)
                note_owner = events[-1].notes
            else:
                pragma = Pragma(name, value, len(events), number)
                pragmata.append(pragma)
                player = _PLAYER.fullmatch(name)
                if player:
                    seat = parse_int(player.group(1), f"{source}:{number}: #player number",
                                     1, MAX_PLAYERS)
                    parts = value.split(None, 1)
                    if not parts:
                        raise RacketyError(f"{source}:{number}: #{name} names no player "
                                           "(write '#player1 NICK Full Name')")
                    if seat in players:
                        raise RacketyError(f"{source}:{number}: #{name} given twice (first "
                                           f"on line {players[seat][1]})")
                    players[seat] = (Player(parts[0], parts[1] if len(parts) > 1 else ""),
                                     number)
                if name.lower() == "note":
                    note_owner = pragma
        elif line.startswith(">"):
            seen_any = True
            events.append(_parse_event(line, source, number))
            note_owner = None
        elif note_owner is not None:
            # a note's continuation line; blank lines inside a note are kept
            extra = "\n" * blanks + line
            if isinstance(note_owner, Pragma):
                note_owner.value += "\n" + extra
            else:
                note_owner[-1] += "\n" + extra
        elif not seen_any:
            raise RacketyError(f"{source}:{number}: not a GCG record (its lines start with "
                               f"'#' or '>'): {clip(line)!r}")
        else:
            raise RacketyError(f"{source}:{number}: neither a pragma ('#') nor an event "
                               f"('>') nor a note's continuation: {clip(line)!r}")
        blanks = 0
    if not seen_any:
        raise RacketyError(f"{source}: empty, not a GCG record")
    seated = [players[k][0] for k in sorted(players)]
    known = {p.nickname for p in seated}
    for event in events:
        if event.nickname not in known:
            if len(seated) == MAX_PLAYERS:
                raise RacketyError(f"{source}:{event.line_number}: a player "
                                   f"{clip(event.nickname, 30)!r} beyond the {MAX_PLAYERS} a "
                                   "record may have")
            seated.append(Player(event.nickname, ""))
            known.add(event.nickname)
    _assign_seats(events, seated)
    return GcgRecord(seated, events, pragmata, declared, source)


def _parse_coordinates(text: str) -> tuple[int, int, bool] | None:
    found = _COORD.fullmatch(text)
    if not found:
        return None
    if found.group(1):
        return _row(found.group(1)), ord(found.group(2).upper()) - 65, False
    return _row(found.group(4)), ord(found.group(3).upper()) - 65, True


def _row(digits: str) -> int:
    """A 0-based row from its number (any row beyond the largest board is 999)."""
    return int(digits) - 1 if len(digits) <= 3 else 999


def _is_count(text: str) -> bool:
    """Whether an exchange's body is a count of tiles (``-2``), not tiles."""
    return 0 < len(text) <= 2 and text.isascii() and text.isdigit()


def _seat_number(pattern: re.Pattern[str], name: str) -> int | None:
    """N of a ``#playerN`` or ``#rackN`` pragma's name, if it is 1 to `MAX_PLAYERS`."""
    found = pattern.fullmatch(name)
    digits = found.group(1).lstrip("0") if found else ""
    if not found or len(digits) > 3:
        return None
    seat = int(digits or "0")
    return seat if 1 <= seat <= MAX_PLAYERS else None


def _parse_event(line: str, source: str, number: int) -> Event:
    where = f"{source}:{number}"
    found = re.match(r">(\S*?):(?=\s|$)(.*)", line) or re.match(r">([^:\s]+):(.*)", line)
    if not found or not found.group(1):
        raise RacketyError(f"{where}: event {clip(line)!r} does not start with '>NICK:'")
    nickname, rest = found.group(1), found.group(2)
    tokens = list(re.finditer(r"\S+", rest))
    words = [t.group() for t in tokens]
    at = next((i for i in range(len(words) - 1)
               if _SCORE.fullmatch(words[i]) and _TOTAL.fullmatch(words[i + 1])), None)
    if at is None:
        raise RacketyError(f"{where}: event {clip(line)!r} has no '+SCORE TOTAL' (an event "
                           "is '>NICK: RACK MOVE +SCORE TOTAL')")
    score_text = words[at]
    score = parse_int(score_text, f"{where}: score", -SCORE_LIMIT, SCORE_LIMIT)
    total = parse_int(words[at + 1], f"{where}: total", -SCORE_LIMIT, SCORE_LIMIT)
    trailing = rest[tokens[at + 1].end():].strip()
    before = words[:at]
    if not before:
        raise RacketyError(f"{where}: event {clip(line)!r} has no move")
    last = before[-1]
    parens = _PARENS.fullmatch(last)
    if (len(before) >= 2 and _COORD.fullmatch(before[-2]) and not last.startswith("-")
            and not parens):
        kind, move, racks = "play", f"{before[-2]} {last}", before[:-2]
        row = (_parse_coordinates(before[-2]) or (0, 0, False))[0]
        if row < 0:
            raise RacketyError(f"{where}: square {before[-2]!r} has row 0; rows start at 1")
    elif last == "--":
        kind, move, racks = "withdrawn", last, before[:-1]
    elif last == "-":
        kind, move, racks = "pass", last, before[:-1]
    elif last.startswith("-"):
        kind, move, racks = "exchange", last, before[:-1]
    elif parens:
        inner = parens.group(1)
        if inner.lower() == "challenge":
            kind = "challenge_bonus"
        elif inner.lower() == "time":
            kind = "time_penalty"
        elif inner and inner == inner.upper() and not any(c.isspace() for c in inner):
            kind = "end_rack_penalty" if score_text.startswith("-") else "end_rack_points"
        else:
            kind = "other"
        move, racks = last, before[:-1]
    elif len(before) >= 2 and _COORD.fullmatch(before[-2]):
        kind, move, racks = "play", f"{before[-2]} {last}", before[:-2]
    else:
        raise RacketyError(f"{where}: cannot read the move of {clip(line)!r} (a play is "
                           "'8D WORD' or 'D8 WORD'; '-' passes, '-TILES' exchanges, '--' "
                           "withdraws)")
    if len(racks) > 1:
        raise RacketyError(f"{where}: event {clip(line)!r}: {clip(' '.join(racks))!r} is more "
                           "than one rack before the move")
    return Event(nickname, kind, move, score, total, racks[0] if racks else "", trailing,
                 [], 0, line, number)


def _assign_seats(events: list[Event], players: list[Player]) -> None:
    seats_of: dict[str, list[int]] = {}
    for seat, player in enumerate(players):
        seats_of.setdefault(player.nickname, []).append(seat)
    scores = [0] * len(players)
    previous: int | None = None
    for event in events:
        seats = seats_of[event.nickname]
        if len(seats) == 1:
            seat = seats[0]
        else:
            fits = [s for s in seats if scores[s] + event.score == event.total]
            if len(fits) == 1:
                seat = fits[0]
            elif (event.kind in ("withdrawn", "challenge_bonus", "end_rack_points")
                  and previous in seats):
                seat = previous
            else:
                later = [s for s in seats if previous is not None and s > previous]
                seat = later[0] if later else seats[0]
        event.seat = seat
        scores[seat] = event.total
        previous = seat


# --------------------------------------------------------------------- writing
def write_gcg(record: GcgRecord) -> str:
    """The record as GCG text: ``#character-encoding UTF-8`` first, then the
    pragmata and events in their order, each event followed by its notes, single
    spaces, LF line ends and a final newline. ``#playerN`` lines are written from
    `GcgRecord.players`, numbered by seat; a player without one gets one after
    the encoding line."""
    out = [f"#{ENCODING_PRAGMA} UTF-8"]
    # the reader seats declared players by the order of their numbers, then the
    # undeclared ones: each seat is written as #player(seat + 1), so the numbers
    # run 1, 2, ... (a record's #player2 #player9 read back the same way)
    numbers = sorted({n for p in record.pragmata
                      if (n := _seat_number(_PLAYER, p.name)) is not None})
    seat_of = {n: seat for seat, n in enumerate(numbers)}
    for seat, player in enumerate(record.players):
        if seat >= len(numbers):
            out.append(_player_line(f"player{seat + 1}", player))
    by_after: dict[int, list[Pragma]] = {}
    for p in record.pragmata:
        if p.name.lower() != ENCODING_PRAGMA:
            by_after.setdefault(min(max(p.after, 0), len(record.events)), []).append(p)

    def pragmata_after(count: int) -> None:
        for p in by_after.get(count, []):
            number = _seat_number(_PLAYER, p.name)
            seat = -1 if number is None else seat_of[number]
            if 0 <= seat < len(record.players):
                out.append(_player_line(f"player{seat + 1}", record.players[seat]))
            else:
                out.append(p.text)

    pragmata_after(0)
    for i, event in enumerate(record.events):
        out.append(event.text)
        out.extend(_with_continuation(f"#note {note}" if note else "#note")
                   for note in event.notes)
        pragmata_after(i + 1)
    return "\n".join(out) + "\n"


def _player_line(name: str, player: Player) -> str:
    return f"#{name} {player.nickname} {player.name}".rstrip()


def save_gcg(record: GcgRecord, path: str | os.PathLike[str]) -> None:
    """Write the record to ``path`` as UTF-8, atomically."""

    write_atomic(path, write_gcg(record).encode("utf-8"))


# ---------------------------------------------------------------------- replay
@dataclass(frozen=True)
class Discrepancy:
    """Something in the record that does not add up.

    ``kind`` ``"score"``: the event's written score differs from the re-scored one
    (``computed``); ``"total"``: the written total differs from the player's
    previous total plus the written score (``computed``). ``index`` is the event's
    0-based index in `GcgRecord.events`.
    """

    index: int
    kind: str
    written: int
    computed: int
    line_number: int = 0
    event: str = ""

    def describe(self) -> str:
        """What does not add up, without the line: ``event 7 (Pakorn: --): written
        score +0, re-scored -45``."""
        if self.kind == "score":
            return (f"event {self.index + 1} ({self.event}): written score "
                    f"{self.written:+d}, re-scored {self.computed:+d}")
        return (f"event {self.index + 1} ({self.event}): written total {self.written}, "
                f"running sum {self.computed}")

    def __str__(self) -> str:
        return f"line {self.line_number}: {self.describe()}"


@dataclass(frozen=True)
class Step:
    """What one event of a record does, as `replay` reads it (and `game_of`
    applies it to a `Game`: the meaning of each event is decided here only).

    ``index`` is the event's 0-based index in `GcgRecord.events`, ``seat`` its
    player, ``kind`` one of `KINDS`, ``score`` and ``total`` as written,
    ``computed`` the re-scored points (None where nothing can be computed:
    challenge bonuses, time penalties, other events). ``rack`` is the rack as
    written (tile codes, a blank as 0; None when the record does not give it).
    ``tiles``: for a play, the tiles it takes from the rack (a blank as 0); for a
    withdrawal, those tiles going back; for an exchange, the tiles given back
    (empty when the record gives only their number, ``count``); for end-of-game
    points or a penalty, the rack counted.
    ``move`` is a play's placement, ``takes`` a withdrawal's play (the index of
    the event it takes back), ``over`` whether the game is over after the event.
    """

    index: int
    seat: int
    kind: str
    score: int
    total: int
    computed: int | None = None
    rack: tuple[int, ...] | None = None
    tiles: tuple[int, ...] = ()
    count: int = 0
    move: Move | None = None
    takes: int | None = None
    over: bool = False


@dataclass
class Replay:
    """A record played on a board.

    ``positions[i]`` is the position before event i, its player first (their
    rack from the event when written, the other racks unknown; before a ``--`` the
    rack written less the tiles of the phony, which are still on the board), and
    ``positions[-1]`` the position after the last event, the next player to move
    first (racks from ``#rackN`` pragmata where given). Racks that would hold
    more tiles than the game has (with the board) are left out, the mover's last,
    so every position is a valid CGP. Scores follow the
    written scores: a play whose written score differs from the re-scored one
    counts as written (the difference is an adjustment), and a written total that
    differs from the running sum is reported and then taken as the player's score.
    ``steps[i]`` is what event i does (`Step`), ``to_move`` the seat of the next
    player to move after the last event; ``moves[i]`` is event i's placement
    (None for other kinds), ``computed[i]`` its re-scored points (None where
    nothing can be computed: challenge bonuses, time penalties), ``withdrawn``
    the indices of plays taken back by ``--``, ``scores`` every player's final
    score in seat order, ``over`` whether the game ended (by the rules or with
    its play-out bonus).
    """

    record: GcgRecord
    alphabet: Alphabet
    layout: Layout
    positions: list[Board]
    steps: list[Step]
    discrepancies: list[Discrepancy]
    scores: list[int] = field(default_factory=list)
    over: bool = False
    to_move: int = 0

    @property
    def final(self) -> Board:
        """The position after the last event."""
        return self.positions[-1]

    @property
    def ok(self) -> bool:
        """Whether every score and total adds up."""
        return not self.discrepancies

    @property
    def moves(self) -> list[Move | None]:
        """Each event's placement (None for other kinds)."""
        return [step.move for step in self.steps]

    @property
    def computed(self) -> list[int | None]:
        """Each event's re-scored points (None where nothing can be computed)."""
        return [step.computed for step in self.steps]

    @property
    def withdrawn(self) -> list[int]:
        """The indices of the plays taken back by ``--``, in order."""
        return [step.takes for step in self.steps if step.takes is not None]


def infer_alphabet(record: GcgRecord) -> Alphabet:
    """The record's alphabet: from ``#lexicon`` (``OSPS...`` -> polish; ``NWL``,
    ``TWL``, ``CSW``, ``CEL``, ``ENABLE`` ... -> english; ``FRA`` french; ``RD``
    german; ``NSF`` norwegian; ``DISC`` catalan; ``FILE`` spanish) when its tiles
    spell every rack and word of the record (each rack within its rack size), else
    the first built-in alphabet that does (english first, then the other
    languages, then their variants: 8-tile racks read as english_lexulous), else
    english."""
    texts = _tile_texts(record)
    candidates: list[str] = []
    lexicon = (record.lexicon or "").strip().upper()
    for prefix in sorted(_LEXICON_ALPHABETS, key=len, reverse=True):
        if lexicon.startswith(prefix):
            candidates.append(_LEXICON_ALPHABETS[prefix])
            break
    names = Alphabet.names()
    variants = sorted((n for n in names if "_" in n), key=lambda n: Alphabet.load(n).rack_size)
    candidates += ["english"] + [n for n in names if "_" not in n] + variants
    racks = [e.rack for e in record.events if e.rack] + list(record.racks.values())
    seen = set()
    for name in candidates:
        if name in seen:
            continue
        seen.add(name)
        alphabet = Alphabet.load(name)
        if all(_spells(alphabet, t) for t in texts) and all(
                _spells(alphabet, r, alphabet.rack_size) for r in racks):
            return alphabet
    return Alphabet.load(candidates[0])


def _tile_texts(record: GcgRecord) -> list[str]:
    texts = []
    for e in record.events:
        if e.rack:
            texts.append(e.rack)
        if e.kind == "play" and e.word:
            texts.append(e.word.replace(".", "").replace("(", "").replace(")", ""))
        elif e.tiles:
            texts.append(e.tiles)
    texts.extend(record.racks.values())
    return [t for t in texts if t]


def _spells(alphabet: Alphabet, text: str, most: int | None = None) -> bool:
    """Whether ``alphabet`` spells ``text`` (in at most ``most`` tiles)."""
    try:
        codes = alphabet.tokenize(text, blanks=True)
    except RacketyError:
        return False
    return most is None or len(codes) <= most


def record_layout(record: GcgRecord) -> Layout | None:
    """The board layout the record names in its header, or None when it names
    none: ``#note BoardLayout: NAME`` before the first event, as Macondo and
    Woogles write it, NAME a layout or an alias `Layout.load` knows
    (``SuperCrosswordGame``, ``super21``, ``wwf15`` ...). The name is only looked
    up among the built-in layouts, never read as a file. A name rackety does not
    know, or a second note naming another layout, raises a one-line
    `RacketyError` naming the line (the same layout twice is fine)."""
    found: tuple[Layout, Pragma] | None = None
    for key, value, pragma in _board_notes(record):
        if key != LAYOUT_NOTE.lower():
            continue
        where = f"{record.source}:{pragma.line_number}" if pragma.line_number else \
            record.source
        if not value:
            raise RacketyError(f"{where}: #note {LAYOUT_NOTE}: names no layout (layouts: "
                               f"{', '.join(Layout.names())})")
        try:
            layout = Layout.load(value)
        except RacketyError as exc:
            raise RacketyError(f"{where}: #note {LAYOUT_NOTE}: {exc}") from None
        if found is not None and found[0].name != layout.name:
            first = found[1].line_number
            raise RacketyError(f"{where}: a second board layout, {layout.name}, where "
                               f"{f'line {first}' if first else 'the record'} gives "
                               f"{found[0].name}")
        found = found or (layout, pragma)
    return found[0] if found else None


def record_rules(record: GcgRecord) -> Rules:
    """The rules a record states: its variant (``#note Variant: wordsmog`` in
    its header; classic without one), and the play-out rule its end shows
    (``subtract`` when a play-out bonus and a penalty count the same tiles, as
    `replay` scores them; else ``twice``). An unknown variant, or two
    notes that differ, raise a one-line `RacketyError` naming the line."""
    found: tuple[Variant, Pragma] | None = None
    for key, value, pragma in _board_notes(record):
        if key != VARIANT_NOTE.lower():
            continue
        where = f"{record.source}:{pragma.line_number}" if pragma.line_number else \
            record.source
        variant = value.lower()
        if not is_variant(variant):
            raise RacketyError(f"{where}: #note {VARIANT_NOTE}: {clip(value, 30)!r} is not a "
                               f"variant ({', '.join(VARIANTS)})")
        if found is not None and found[0] != variant:
            raise RacketyError(f"{where}: a second variant, {variant}, where line "
                               f"{found[1].line_number} gives {found[0]}")
        found = found or (variant, pragma)
    # the play-out rule: a record that takes the out-player's gain off the other
    # rack as well (the same tiles as a penalty) plays each rack once
    gains = [sorted(e.tiles) for e in record.events if e.kind == "end_rack_points"]
    subtract = any(e.kind == "end_rack_penalty" and sorted(e.tiles) in gains
                   for e in record.events)
    return Rules(variant=found[0] if found else "classic",
                 playout="subtract" if subtract else "twice")


def _board_notes(record: GcgRecord) -> list[tuple[str, str, Pragma]]:
    """The header's ``#note BoardLayout: NAME`` and ``#note LetterDistribution:
    NAME``: (the key in lower case, NAME, the pragma)."""
    out = []
    for p in record.pragmata:
        if p.after == 0 and p.name.lower() == "note":
            found = _BOARD_NOTE.fullmatch(p.value.split("\n", 1)[0].strip())
            if found:
                out.append((found.group(1).lower(), found.group(2).strip(), p))
    return out


def replay(record: GcgRecord, *, alphabet: Alphabet | str | None = None,
           layout: Layout | str | None = None, rules: Rules | None = None) -> Replay:
    """Play the record on a board, re-scoring every play (see `Replay`).

    The board: ``layout`` when given, else the one the record names
    (`record_layout`), else the alphabet's. ``alphabet`` wins over
    `infer_alphabet`; an inferred alphabet is the variant of its tiles made for
    the board (English on ``super21`` is ``english_super``, on ``wwf15``
    ``english_wwf``). When neither ``layout`` nor the record names the board and
    the record does not fit the alphabet's (a play off the board or on a square
    that is taken, more tiles than the set has: the error; or plays that re-score
    differently while every score matches another layout), the one-line
    `RacketyError` says which layout to give (``give --board super21``).

    A withdrawn phony (``--``) takes the play just before it off the board
    again, and its points. The play-out bonus ``(TILES)`` re-scores as twice the
    tiles' value, or once when the record also has the matching penalty event
    (``>NICK: TILES (TILES) -N``: each side gains or loses the rack once).
    Words are not checked against a lexicon.

    The game ends as ``rules`` say (`rackety.game.rules.Rules.ending`; default:
    the alphabet's, docs/FORMATS.md section 7): after the rules' consecutive
    scoreless turns (``max_scoreless``, 6 in most sets), or when a play
    empties its player's rack with the bag empty (the tiles on each rack are
    counted, as the bag deals them),
    or at the play-out bonus or a rack's end-of-game penalty (a record that
    writes them ends there); after the end only end-of-game events follow
    (end-of-rack points and penalties, time penalties, a challenge bonus; a
    withdrawn last play opens the game again). A play that does not fit the
    board (a square holding another tile, off the board, a ``.`` on an empty
    square, more tiles of a letter than the game has), a rack of more tiles than
    a rack holds, a withdrawal or a challenge bonus that follows no play, or a
    turn after the end raises a one-line `RacketyError` naming ``file:line``.
    """
    chosen = layout if layout is not None else record_layout(record)
    if alphabet is None:
        alpha = infer_alphabet(record)
        if chosen is not None:
            alpha = alphabet_for(alpha, chosen)
    else:
        alpha = alphabet if isinstance(alphabet, Alphabet) else Alphabet.load(alphabet)
    return _replay_on(record, alpha, chosen, variants=alphabet is None,
                      rules=record_rules(record) if rules is None else rules)


def _replay_on(record: GcgRecord, alpha: Alphabet, layout: Layout | str | None,
               variants: bool, rules: Rules | None = None) -> Replay:
    """`replay` on ``layout``; with no layout, on the alphabet's board, and a record
    that does not fit it is refused saying which layout it fits (the alphabet
    made for that layout when ``variants``, else ``alpha`` itself)."""
    if layout is not None:
        return _replay(record, alpha, layout, rules)
    implied = Layout.load(alpha.board)
    try:
        done = _replay(record, alpha, implied, rules)
    except RacketyError as exc:
        fits = _fits_elsewhere(record, alpha, implied, variants, clean=False)
        if fits is None:
            raise
        hint = f"the record names no board and fits {fits}: {_give(fits)}"
        raise RacketyError(f"{clip(str(exc), 296 - len(hint))}; {hint}") from None
    rescored = sum(d.kind == "score" for d in done.discrepancies)
    if rescored:
        fits = _fits_elsewhere(record, alpha, implied, variants, clean=True)
        if fits is not None:
            raise RacketyError(
                f"{record.source}: scores match the {fits} layout, not {implied.name} "
                f"({rescored} {'play re-scores' if rescored == 1 else 'plays re-score'} "
                f"differently on {implied.name}); the record names no board: {_give(fits)}")
    return done


def _give(layout: str) -> str:
    """How to give a record its layout."""
    return f"give --board {layout} (or add the line '#note {LAYOUT_NOTE}: {layout}')"


def _fits_elsewhere(record: GcgRecord, alpha: Alphabet, implied: Layout, variants: bool,
                    clean: bool) -> str | None:
    """The name of the other built-in layout the record replays on without an
    error, its first play on that layout's start square, and with the fewest
    plays that re-score differently (none, when ``clean``); None when there is
    none."""
    best: tuple[int, str] | None = None
    for name in Layout.names():
        if name == implied.name:
            continue
        try:
            other = _replay(record, alphabet_for(alpha, name) if variants else alpha, name)
        except RacketyError:
            continue
        first = next((m for m in other.moves if m is not None), None)
        if first is None or other.layout.start not in first.squares():
            continue
        rescored = sum(d.kind == "score" for d in other.discrepancies)
        if (rescored == 0 or not clean) and (best is None or rescored < best[0]):
            best = (rescored, name)
    return best[1] if best else None


def _replay(record: GcgRecord, alpha: Alphabet, layout: Layout | str,
            rules: Rules | None = None) -> Replay:
    """`replay` with its alphabet, board and rules decided."""
    source = record.source
    n = max(len(record.players), 2)  # a game has two players at least (and CGP needs two)
    base = Board.empty(alpha, layout, players=n)
    if rules is not None:
        base.rules = rules
    game_rules = base.rules
    lexicon = (record.lexicon or "").strip()
    if re.fullmatch(r"[^\s;]+", lexicon):
        base.options = {"lex": lexicon, **base.options}
    lay = base.layout
    points = [t.points for t in alpha.tiles]
    penalised = [sorted(e.tiles) for e in record.events if e.kind == "end_rack_penalty"]
    distribution = [t.count for t in alpha.tiles]
    rack_size = alpha.rack_size

    grid = base.grid.copy()
    scores = [0] * n
    zero_turns = 0
    to_move = record.events[0].seat if record.events else 0
    on_board = [0] * alpha.size  # tiles on the board per code, a blank as code 0
    # tiles on each rack, as the bag deals them: known racks or not, a game's
    # racks hold these many, which says when a play goes out with the bag empty
    held = [0] * n
    for seat in range(n):
        held[seat] = min(rack_size, sum(distribution) - sum(held))
    ended: tuple[str, int, int] | None = None  # why the game ended, its line and event
    last_turn, bonus_given = "", False  # the kind of the last turn; its challenge bonus
    between = 0  # events since the last turn
    # the play just before this event, if it was one (a '--' takes it back): its
    # index, move, points, the scoreless turns before it, the racks' tile counts
    # before it and whether the game had ended
    played: tuple[int, Move, int, int, list[int], tuple[str, int, int] | None] | None = None
    positions: list[Board] = []
    steps: list[Step] = []
    discrepancies: list[Discrepancy] = []

    def position(mover: int, racks: dict[int, tuple[int, ...]]) -> Board:
        board = base.copy()
        board.grid = grid.copy()
        order = [(mover + k) % n for k in range(n)]
        board.racks = [racks.get(s, ()) for s in order]
        board.scores = [scores[s] for s in order]
        board.zero_turns = zero_turns
        # a record's racks may claim more tiles than the bag holds (one in the wild
        # does): keep the mover's rack alone then, or none, so the CGP reads back
        for keep in (1, 0):
            if not (board.unseen() < 0).any():
                break
            board.racks = board.racks[:keep] + [()] * (n - keep)
        return board

    for index, event in enumerate(record.events):
        where = f"{source}:{event.line_number}" if event.line_number else \
            f"{source}: event {index + 1}"
        seat = event.seat % n
        # after a play goes out, its opponent may still challenge it: the phony
        # comes off (--), or the challenge fails and costs a turn (a pass, at once)
        if ended is not None and (event.kind in ("play", "exchange") or (
                event.kind in ("withdrawn", "pass") and ended[0] != _WENT_OUT) or (
                event.kind == "pass" and index != ended[2] + 1)):
            why, line, _ = ended
            raise RacketyError(f"{where}: the game ended on line {line} ({why}); no turn "
                               "comes after the end")
        written = _rack_codes(alpha, event.rack, f"{where}: rack")
        rack = written
        if event.kind == "withdrawn" and played is not None:
            # the rack written is the one before the phony, whose tiles are still on
            # the board: the rack in this position is what is left of it
            rack = _without(rack, played[1].placed)
        positions.append(position(seat, {seat: rack} if rack else {}))
        move: Move | None = None
        value: int | None = None
        tiles: tuple[int, ...] = ()
        count, takes = 0, None
        previous, played = played, None
        if event.kind == "play":
            board = positions[-1]
            try:
                move = board.parse_move(event.move)
                value = board.score(move)
            except RacketyError as exc:
                raise RacketyError(f"{where}: {exc}") from None
            tiles = tuple(0 if t & BLANK_FLAG else t for t in move.placed)
            if len(tiles) > rack_size:
                raise RacketyError(f"{where}: the play places {len(tiles)} tiles; a rack "
                                   f"holds {rack_size}")
            for code in tiles:
                on_board[code] += 1
                if on_board[code] > distribution[code]:
                    raise RacketyError(
                        f"{where}: the board would hold {on_board[code]} "
                        f"{alpha.tiles[code].label}, and {alpha.name} has "
                        f"{distribution[code]}")
            played = (index, move, event.score, zero_turns, list(held), ended)
            grid = grid.copy()
            for (r, c), tile in zip(move.placed_squares(), move.placed, strict=True):
                grid[r, c] = tile
            zero_turns = 0
            if len(tiles) > held[seat]:
                raise RacketyError(f"{where}: the play places {len(tiles)} tiles, and the "
                                   f"player holds {held[seat]} (the bag is empty)")
            held[seat] -= len(tiles)
            bag = sum(distribution) - sum(on_board) - sum(held)
            held[seat] += min(rack_size - held[seat], bag)
            if game_rules.ending(went_out=held[seat] == 0, scoreless=0) == END_OUT:
                ended = (_WENT_OUT, event.line_number, index)
        elif event.kind == "withdrawn":
            if previous is None:
                raise RacketyError(
                    f"{where}: '--' withdraws a play, but no play is on the board"
                    if index == 0 or not any(e.kind == "play" for e in record.events[:index])
                    else f"{where}: '--' withdraws the play just before it, and the event "
                         f"before it ({clip(record.events[index - 1].move, 30)}) is not a play")
            takes, taken_move, taken_points, zero_before, held_before, ended = previous
            value = -taken_points
            tiles = tuple(0 if t & BLANK_FLAG else t for t in taken_move.placed)
            grid = grid.copy()
            for r, c in taken_move.placed_squares():
                grid[r, c] = 0
            for code in tiles:
                on_board[code] -= 1
            held = held_before
            zero_turns = zero_before + 1
        elif event.kind in ("pass", "exchange"):
            value = 0
            zero_turns += 1
            if event.kind == "exchange":
                tiles = _rack_codes(alpha, event.tiles, f"{where}: tiles")
                count = len(tiles) if tiles else event.exchange_count or 0
        elif event.kind in ("end_rack_points", "end_rack_penalty"):
            tiles = _rack_codes(alpha, event.tiles, f"{where}: tiles")
            worth = sum(points[c] for c in tiles)
            if event.kind == "end_rack_penalty":
                value = -worth
                if ended is None:  # a rack counted against its player: the game is over
                    ended = ("a rack's end-of-game penalty", event.line_number, index)
            else:
                # twice the rack, unless the record also takes the same rack off its
                # owner (the rule where each side gains or loses the rack once)
                value = worth if sorted(event.tiles) in penalised else 2 * worth
                if ended is None:
                    ended = ("the play-out bonus", event.line_number, index)
        elif event.kind == "challenge_bonus":
            # the play challenged in vain is the last turn (end-of-game events may
            # come between: a play that went out, then its bonus), and earns one
            if last_turn != "play" or bonus_given:
                raise RacketyError(f"{where}: a challenge bonus, but the turn before it is "
                                   "not a play" if last_turn != "play" else
                                   f"{where}: a second challenge bonus for one play")
            bonus_given = True
        label = f"{event.nickname}: {event.move}"
        if value is not None and value != event.score:
            discrepancies.append(Discrepancy(index, "score", event.score, value,
                                             event.line_number, label))
        running = scores[seat] + event.score
        if running != event.total:
            discrepancies.append(Discrepancy(index, "total", event.total, running,
                                             event.line_number, label))
        scores[seat] = event.total
        if event.kind in TURN_KINDS:
            last_turn, bonus_given, between = event.kind, False, 0
            to_move = (seat + 1) % n
            if ended is None and game_rules.ending(went_out=False, scoreless=zero_turns):
                ended = (f"{game_rules.max_scoreless} scoreless turns in a row", event.line_number,
                         index)
        else:
            # a bonus, then each player's end-of-game points and time: no more than
            # that comes between two turns (so a record's length bounds its game)
            between += 1
            if between > 2 * n + 2:
                raise RacketyError(f"{where}: {between} events in a row that are not turns; "
                                   f"at most {2 * n + 2} come between two turns")
        steps.append(Step(index, seat, event.kind, event.score, event.total, value,
                          written if event.rack else None, tiles, count, move, takes,
                          ended is not None))
    final_racks = {}
    for seat, text in record.racks.items():
        if seat < n and text:
            pragma = next((p for p in record.pragmata if p.name.lower() == f"rack{seat + 1}"),
                          None)
            line = pragma.line_number if pragma else 0
            final_racks[seat] = _rack_codes(alpha, text, f"{source}:{line}: #rack{seat + 1}")
    positions.append(position(to_move, final_racks))
    return Replay(record, alpha, lay, positions, steps, discrepancies, scores, ended is not None,
                  to_move)


def _without(rack: tuple[int, ...], placed: tuple[int, ...]) -> tuple[int, ...]:
    """``rack`` less the tiles of ``placed`` (a placed blank is a ``?``); the rack
    unchanged when it does not hold them all."""
    left = list(rack)
    for tile in placed:
        code = 0 if tile & BLANK_FLAG else tile
        if code not in left:
            return rack
        left.remove(code)
    return tuple(left)


def _rack_codes(alphabet: Alphabet, text: str, what: str) -> tuple[int, ...]:
    """Tile codes of a rack as written; a lower-case letter reads as the letter."""
    if not text:
        return ()
    codes = alphabet.tokenize(text, blanks=True, what=what)
    if len(codes) > alphabet.rack_size:
        raise RacketyError(f"{what} {clip(text, 30)!r} has {len(codes)} tiles; a rack holds "
                           f"{alphabet.rack_size}")
    return tuple(c & ~BLANK_FLAG for c in codes)


# ------------------------------------------------------------ records <-> games
def nickname(name: str) -> str:
    """A GCG nickname: the name without spaces."""
    return "_".join(name.split()) or "player"


def record_of(game: Game, *, lexicon_name: str | None = None,
              seen_by: int | None = None) -> GcgRecord:
    """The game as a GCG record: every event with its rack, score, total and
    notes; the racks of an unfinished game as ``#rackN`` pragmata. A game on
    another board than the standard 15x15 one names it and its set of tiles in
    the header, as Macondo does (``#note BoardLayout: SuperCrosswordGame``,
    ``#note LetterDistribution: english_super``), so the record reads back on
    that board (`record_layout`).

    ``seen_by``: a seat, for a record that player may keep (a save during play):
    only its own racks are written. The other seats' turns have an empty rack
    and their exchanges a count (``-3``), and there is no ``#rackN`` for them;
    `game_of` draws their racks from the tiles that player has not seen."""

    alphabet = game.alphabet
    nicks = [nickname(name) for name in game.players]
    record = GcgRecord(players=[Player(nick, name) for nick, name
                                in zip(nicks, game.players, strict=True)])
    record.pragmata.append(Pragma("lexicon", lexicon_name or game.lexicon.name))
    layout = game.position.layout.name
    if layout != "standard15":
        record.pragmata += [
            Pragma("note", f"{LAYOUT_NOTE}: {_GCG_LAYOUT_NAMES.get(layout, layout)}"),
            Pragma("note", f"{DISTRIBUTION_NOTE}: {alphabet.name}")]
    if game.rules.variant != "classic":
        record.pragmata.append(Pragma("note", f"{VARIANT_NOTE}: {game.rules.variant}"))
    record.pragmata.extend(game.pragmata)
    kinds = {"play": "play", "exchange": "exchange", "pass": "pass",
             "withdrawn": "withdrawn", "challenge_bonus": "challenge_bonus",
             "lost_turn": "pass", "end_points": "end_rack_points",
             "end_penalty": "end_rack_penalty", "time_penalty": "time_penalty"}
    for event in game.events:
        hidden = seen_by is not None and event.seat != seen_by and \
            event.kind in ("play", "exchange", "pass", "withdrawn", "lost_turn")
        rack = "" if hidden else format_leave(alphabet, event.rack)
        if event.kind == "play" and event.move is not None:
            text = event.move.notation(alphabet, through="dots")
        elif event.kind == "exchange" and hidden:
            text = f"-{len(event.tiles)}"
        elif event.kind == "exchange":
            text = "-" + alphabet.format(event.tiles, brackets=True)
        elif event.kind in ("pass", "lost_turn"):
            text = "-"
        elif event.kind == "withdrawn":
            text = "--"
        elif event.kind == "challenge_bonus":
            text = "(challenge)"
        elif event.kind in ("end_points", "end_penalty"):
            text = f"({alphabet.format(event.tiles, brackets=True)})"
            if event.kind == "end_points":
                rack = ""
        elif event.kind == "time_penalty":
            text = "(time)"
        else:
            text = event.written or f"({event.kind})"
        record.events.append(Event(nicks[event.seat], kinds.get(event.kind, "other"),
                                   text, event.score, event.total, rack,
                                   notes=list(event.notes), seat=event.seat))
    if not game.over:
        for seat, rack_codes in enumerate(game.racks):
            if seen_by is not None and seat != seen_by:
                continue
            record.pragmata.append(Pragma(f"rack{seat + 1}", format_leave(alphabet, rack_codes),
                                          after=len(record.events)))
    return record


def gcg_of(game: Game) -> str:
    """The game as GCG text."""
    return write_gcg(record_of(game))


def save_game(game: Game, path: str | os.PathLike[str]) -> None:
    """Write the game's record to ``path`` as UTF-8, atomically."""
    save_gcg(record_of(game), path)


def game_of(record: GcgRecord, lexicon: Lexicon, *, rules: Rules | None = None,
            layout: Layout | str | None = None, seed: int = 0) -> Game:
    """The game a GCG record tells, to look at or play on: the `replay` of the
    record (which refuses a record that does not fit the board, naming the line,
    and any turn after the end) applied to a `Game`, step by step.

    Each event's rack, where the record gives it, is drawn from the bag before
    the event (the rest of the bag is shuffled by ``seed``: the record does not
    say its order). Scores are as written: a play's or a withdrawal's score that
    differs from the score the rules give is kept, the difference as the event's
    ``adjustment``, and a total that does not add up as its ``carry``. The game
    ends as the record says: at its end-of-game events where it has them, else
    where the rules end it. A game not over goes on as the record leaves it: the
    racks its ``#rackN`` lines give (the rest of the unseen tiles in the bag and on
    the racks it does not give), the scores, the player to move.

    The board is ``layout`` when given, else the record's (`record_layout`), else
    the lexicon's alphabet's; the game's tiles are the lexicon's alphabet made for
    that board. A record that names no board and does not fit that one is
    refused saying which layout it fits, as by `replay`."""
    names: list[str] = []
    for player in record.players:
        name = player.name or player.nickname
        names.append(name if name not in names else f"{name}-{len(names) + 1}")
    chosen = layout if layout is not None else record_layout(record)
    stated = record_rules(record)  # a bad variant note is refused, given rules or not
    if rules is None:
        rules = stated
    game = Game(lexicon, names, rules=rules, layout=chosen, seed=seed)
    replayed = _replay_on(record, game.alphabet,
                          None if chosen is None else game.position.layout, variants=True,
                          rules=game.rules)
    board_notes = {id(p) for _, _, p in _board_notes(record)}
    game.pragmata = [p for p in record.pragmata
                     if p.name.lower() not in ("lexicon", "incomplete")
                     and not p.name.lower().startswith(("rack", "player"))
                     and id(p) not in board_notes]
    made: list[GameEvent] = []  # the game's event for each of the record's
    for step, ev in zip(replayed.steps, record.events, strict=True):
        try:
            event = _apply(game, step, ev, made)
        except RacketyError as exc:
            where = f"{record.source}:{ev.line_number or step.index + 1}"
            raise RacketyError(f"{where}: {exc}") from None
        _in_order(game.events, event, made[-1] if made else None)
        game.amend(event, total=step.total)  # a written total that does not add up: kept
        event.notes = list(ev.notes)
        made.append(event)
    if replayed.over:  # the record's end-of-game events may end it before the rules do
        game.over = True
    if not game.over:
        n = len(replayed.final.racks)
        known = {(replayed.to_move + k) % n: rack
                 for k, rack in enumerate(replayed.final.racks) if rack}
        try:
            _hold_racks(game, known)
        except RacketyError as exc:
            raise RacketyError(f"{record.source}: #rack: {exc}") from None
    return game


def _hold_racks(game: Game, known: dict[int, tuple[int, ...]]) -> None:
    """Give each seat in ``known`` that rack (a record's ``#rackN``) from the
    unseen tiles; every other seat keeps the tiles it drew that are still free
    and draws the rest from the bag's end (the record does not say its rack)."""
    if not known:
        return
    seats = range(len(game.players))
    drawn = {seat: game.racks[seat] for seat in seats if seat not in known}
    for seat in seats:  # every rack back into the bag, then the known ones out
        game.set_rack(seat, ())
    for seat, rack in known.items():
        game.set_rack(seat, rack)
    for seat, rack in drawn.items():
        free = Counter(game.bag)
        keep = []
        for tile in rack:
            if free[tile]:
                free[tile] -= 1
                keep.append(tile)
        taken = Counter(keep)
        rest = []
        for tile in reversed(game.bag):  # drawn from the end
            if taken[tile]:
                taken[tile] -= 1
            else:
                rest.append(tile)
        game.set_rack(seat, keep + rest[:len(rack) - len(keep)])


_GAME_KINDS = {"challenge_bonus": "challenge_bonus", "end_rack_points": "end_points",
               "end_rack_penalty": "end_penalty", "time_penalty": "time_penalty"}


def game_kind(kind: str) -> str:
    """A record event's kind (`KINDS`) as a game names its event
    (`rackety.game.referee.Event`): ``end_rack_points`` is ``end_points``,
    ``end_rack_penalty`` ``end_penalty``; the others are the same."""
    return _GAME_KINDS.get(kind, kind)


def _apply(game: Game, step: Step, ev: Event, made: list[GameEvent]) -> GameEvent:
    """Play one step of a replayed record on ``game``; ``made`` the game's events
    of the steps before. The game ends by its rules, with the end-of-game events
    they give; the record's end-of-game events are matched to those (their
    scores as written), and what the rules did not give is added."""
    seat = step.seat
    if game.over and step.kind == "pass":  # a challenge of the play that went out, lost
        return game.add_event(seat, "lost_turn", 0, step.rack or ())
    if step.kind in ("play", "exchange", "pass") and game.turn != seat:
        game.set_turn(seat)  # a record may skip a turn (a lost challenge)
    if step.kind == "play":
        assert step.move is not None
        game.hold(seat, step.rack, step.tiles)
        event = game.play(replace(step.move, score=None), check=False)
        game.amend(event, score=step.score)  # a score the record wrote otherwise: kept
        return event
    if step.kind in ("exchange", "pass"):
        game.hold(seat, step.rack, step.tiles)
        tiles = step.tiles or tuple(game.racks[seat][:step.count])
        move = Move("exchange", tiles=tiles) if step.kind == "exchange" else Move("pass")
        return game.play(move, check=False)
    if step.kind == "withdrawn":
        assert step.takes is not None and step.computed is not None
        event = game.withdraw(made[step.takes])
        game.amend(event, score=step.score)
        return event
    kind = _GAME_KINDS.get(step.kind, "other")
    ruled = next((e for e in _after(game.events, made[-1] if made else None)
                  if e.seat == seat and e.kind == kind and kind in ("end_points", "end_penalty")
                  and not any(e is m for m in made)), None) if game.over else None
    if ruled is not None:  # the rules' end of the game, as the record writes it
        game.amend(ruled, score=step.score)
        if step.tiles:
            ruled.tiles = tuple(step.tiles)
        if step.rack is not None:
            ruled.rack = tuple(step.rack)
        return ruled
    event = game.add_event(seat, kind, step.score, step.rack or (), tiles=step.tiles)
    if kind == "other":
        event.written = ev.move
    if step.over:
        game.over = True  # the record ends the game (a rack counted against its player)
    return event


def _after(events: list[GameEvent], last: GameEvent | None) -> list[GameEvent]:
    """The events after ``last`` (all when None)."""
    if last is None:
        return list(events)
    at = next((i for i, e in enumerate(events) if e is last), len(events) - 1)
    return events[at + 1:]


def _in_order(events: list[GameEvent], event: GameEvent, last: GameEvent | None) -> None:
    """Put ``event`` just after ``last`` (the event of the record's step before),
    ahead of end-of-game events the rules gave that the record has not come to
    yet, so the game's events run in the record's order."""
    at = 0 if last is None else next(
        (i + 1 for i, e in enumerate(events) if e is last), len(events))
    where = next(i for i, e in enumerate(events) if e is event)
    for passed in events[at:where]:  # the totals as the events now run
        if passed.seat == event.seat:
            event.total -= passed.score + passed.carry
            passed.total += event.score + event.carry
    if where > at:
        events.insert(at, events.pop(where))


__all__ = ["KINDS", "TURN_KINDS", "Discrepancy", "Event", "GcgRecord", "Player", "Pragma",
           "Replay", "Step", "game_of", "gcg_of", "infer_alphabet", "nickname", "read_gcg",
           "record_layout", "record_of", "record_rules", "replay", "save_game", "save_gcg",
           "write_gcg"]
