"""The fuzz reader ``rules``: the rules a position or a record states, hostile.

Two readers take rules from text: a CGP's rules operations (``cr`` challenge
rule, ``bb`` bingo bonus, ``etl`` the tiles the bag needs for an exchange,
``mcnz`` the scoreless turns that end the game, ``var`` classic or WordSmog),
read by `Rules.from_options` when `Board.from_cgp` reads a CGP; and a GCG
record's header note ``#note Variant: NAME`` with the play-out rule its end
shows, read by `record_rules` (after `read_gcg`) and used by `replay` and
`game_of`. A payload is one of:

* ``{"target": "options", "options": {OPCODE: TEXT}, "alphabet": NAME, "base":
  {FIELD: VALUE}}``: `Rules.from_options` on the operations as the CGP reader
  hands them over, over ``base`` (a `Rules` of valid fields, default `Rules()`);
* ``{"target": "cgp", "ops": [[OPCODE, TEXT], ...], "raw": TEXT, "alphabet":
  NAME}``: `Board.from_cgp` on the alphabet's empty board followed by the
  operations ``OPCODE TEXT;`` in order, then ``raw`` as it is;
* ``{"target": "gcg", "text": TEXT}`` or ``{"target": "gcg", "content":
  BYTES}``: `read_gcg` (errors name `GCG_SOURCE`), `record_rules`, `replay`
  and `game_of` (on the context's small lexicon).

The inputs are hostile on purpose: huge, negative, signed, non-ASCII
(look-alike) and non-integer numbers, booleans as text, NUL and control
characters, empty operands, repeated operations with conflicting values,
unknown challenge rules and variants in odd case, spacing and look-alike
letters, two variant notes that differ, a note of hundreds of thousands of
characters, random bytes.

`run` checks the contract of `fuzzing` (accepted, or a `RacketyError` of one
line of at most 300 characters; never another exception), and:

* a refusal says where (else "overlong": the message breaks the contract): a
  CGP's starts with its source, and when the same CGP without its rules
  operations reads, it names a rules operation (or says "operation", or that
  a CGP is "one line": an operand holding a line break); a refusal
  of `Rules.from_options` starts with its source and names an operation whose
  operand is bad; a record's starts with its source, and `record_rules`'s with
  ``source:LINE:``, LINE the line of the variant note that is refused;
  `game_of` refuses such a record with the same message, `replay` refuses it;
* what is read is what the text says, as `reference_value` and
  `reference_record_rules` read it here on their own ("expectation": a bad
  operand or note accepted, a good one refused; "readback": other values);
* accepted rules read back ("readback"): `Rules.from_options` of
  `Rules.options`, a board given the rules (``board.rules = rules``) written as
  CGP and read again, the board's own CGP read again; a record written
  (`write_gcg`) and read again states the same rules, `replay`'s positions
  carry them (and their CGP says the variant), `game_of`'s game plays by them
  and its record (`gcg_of`) states them again.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace
from typing import Any

import fuzzing
from fuzzing import Context, ContractError, RandomChooser, clip, must

from rackety.game import rules as rules_module
from rackety.game.rules import CGP_OPCODES, CHALLENGE_RULES, PLAYOUT_RULES, VARIANTS, Rules

SANDBOXED = False  # in process, as the readers cgp and gcg: text to rules, short replays

TARGETS = ("options", "cgp", "gcg")
OPTIONS_SOURCE = "rules-options"
CGP_SOURCE = "rules-cgp"
GCG_SOURCE = "rules.gcg"
#: alphabets whose defaults differ (WWF's bingo bonus, Spanish exchanges and
#: scoreless turns) and boards of two sizes
ALPHABETS = ("english", "english", "english", "english_wwf", "spanish", "english_super",
             "polish")
RULES_OPS = tuple(CGP_OPCODES)  # cr, bb, etl, mcnz, var
#: operations that are not the rules' (other case: not a rules operation either)
OTHER_OPS = ("lex", "CR", "Var", "BB", "ETL", "tmr", "note")
LIMITS: dict[str, tuple[int, int]] = rules_module._LIMITS  # field -> (low, high)

NUMBERS = (
    "0", "1", "6", "7", "35", "50", "+5", "+0", "007", "1000", "1001", "10000", "10001",
    "-1", "-0", "-50", "9" * 5000, "18446744073709551616", "9223372036854775808",
    "-9223372036854775809", "1" * 30, "0" * 29 + "1", "0" * 30 + "1", "1e3", "5e0", "0x10",
    "0b1", "1_000", "1.0", "5.", ".5", "nan", "inf", "-inf", "\u0665\u0660", "\uff15\uff10",
    "\U0001d7d3", "\u00b2", "\u00bd", "\u2164", "\u0663", "\u0967", "5\x00", "\x005",
    "5\x1b[31m", "5\u200b", "\u200b5", "\ufeff5", "5 5", "5\t", "\t5 ", "\u00a05", "5\u2028",
    "", " ", "--5", "++5", "+-5",
)
BOOLS = ("true", "false", "True", "FALSE", "yes", "no", "on", "off", "null", "None", "T", "F")
CHALLENGE_TEXTS = (
    *CHALLENGE_RULES, "VOID", " Double ", "5PT", "10Pt", "sInGlE\t", "5 pt", "5-pt", "5",
    "10", "\uff15pt", "10pts", "doubl\u00e9", "double\u200b", "single\x00", "void\x1b[0m",
    "challenge", "d", "", "DOUBLE\u0301", "\uff56\uff4f\uff49\uff44", "v\u043eid",
    "\u0131ngle", "S\u0130NGLE", "double;", "double double", "x" * 100_000,
)
VARIANT_TEXTS = (
    *VARIANTS, "CLASSIC", "Classic", "WordSmog", "WORDSMOG", " wordsmog ", "wordsmog\t",
    "\twordsmog\u3000", "word smog", "word-smog", "word_smog", "jumbled", "Jumbled", "JUMBLE",
    "anagram", "classic\x00", "\x00", "\uff57\uff4f\uff52\uff44\uff53\uff4d\uff4f\uff47",
    "word\u017fmog", "cl\u0430ssic", "CLASS\u0130C", "cla\u017f\u017fic", "", "classic\u0301",
    "classic wordsmog", "wordsmog\u2028", "\ufeffclassic", "class\u200bic", "wordsmog;",
    "classic\r", "x" * 100_000, "w" * 301,
)
#: how a GCG header note may spell the key (some do not name the variant)
NOTE_FORMS = (
    "#note Variant: {}", "#note Variant:{}", "#note variant : {}", "#NOTE VARIANT:\t{}",
    "#note\tVariant: {}", "#note  Variant  :  {}", "#Note vARIANT: {}",
    "#note Var\u0131ant: {}", "#note Var\u0456ant: {}", "#note Variant {}",
    "#note Variants: {}", "#note The Variant: {}", "#note Variant: {}\nmore on a second line",
    "#note Variant: {} (as agreed)",
)


# ------------------------------------------------------------ references
def reference_value(op: str, text: str) -> Any:
    """What the operand ``text`` of the rules operation ``op`` states, read here
    on its own; None when it states nothing valid. Surrounding white space does
    not count; a challenge rule and a variant are read without case, a number
    is ASCII digits (an optional ``+``, at most 30 characters) within the
    field's bounds."""
    value = text.strip()
    field = CGP_OPCODES[op]
    if field == "challenge":
        return value.lower() if value.lower() in CHALLENGE_RULES else None
    if field == "variant":
        return value.lower() if value.lower() in VARIANTS else None
    low, high = LIMITS[field]
    if len(value) > 30 or not re.fullmatch(r"\+?[0-9]+", value, re.ASCII):
        return None
    number = int(value)
    return number if low <= number <= high else None


def reference_rules(options: dict[str, str], base: Rules) -> tuple[Rules | None, list[str]]:
    """The rules ``options`` state over ``base``, or None and the operations
    whose operand is bad."""
    changes, bad = {}, []
    for op, field in CGP_OPCODES.items():
        if op in options:
            value = reference_value(op, options[op])
            if value is None:
                bad.append(op)
            changes[field] = value
    if bad:
        return None, bad
    return replace(base, **changes), []


_NOTE = re.compile(r"([^:]*):(.*)")


def reference_record_rules(record: Any) -> tuple[Rules | None, int]:
    """The rules a record states, read here on its own, or None and the line
    where its variant notes stop making sense. A variant note is a ``#note``
    of the header (before any event) whose first line, stripped, is ``KEY:
    VALUE`` with KEY ``Variant`` in any case (its lower case ``variant``: not
    ``Var\u0131ant``) and spaces or tabs; VALUE, stripped and in lower case, must
    be a variant, the same in every note. The play-out rule is ``subtract``
    when an end-of-game penalty counts the tiles of a play-out bonus."""
    found: str | None = None
    for pragma in record.pragmata:
        if pragma.after != 0 or pragma.name.lower() != "note":
            continue
        match = _NOTE.fullmatch(pragma.value.split("\n", 1)[0].strip())
        if not match or match.group(1).rstrip(" \t").lower() != "variant":
            continue
        value = match.group(2).strip().lower()
        if value not in VARIANTS or (found is not None and value != found):
            return None, pragma.line_number
        found = value
    bonuses = [sorted(e.tiles) for e in record.events if e.kind == "end_rack_points"]
    subtract = any(e.kind == "end_rack_penalty" and sorted(e.tiles) in bonuses
                   for e in record.events)
    return Rules(variant=found or "classic", playout="subtract" if subtract else "twice"), 0


# ------------------------------------------------------------------ running
def _try(call: Any, what: str) -> tuple[str, Any]:
    """("accepted", value) or ("refused", the message) when ``call`` raises a
    `RacketyError` of one short line; any other exception is a `ContractError`
    (as `fuzzing.attempt`, keeping the message)."""
    from rackety import RacketyError

    try:
        value = call()
    except ContractError:
        raise
    except RacketyError as exc:
        message = str(exc)
        fuzzing.check_message(message, what)
        return "refused", message
    except Exception as exc:
        raise ContractError("exception", f"{what}: {type(exc).__name__}: {clip(str(exc))}",
                            fuzzing.where_raised(exc), type(exc).__name__) from exc
    return "accepted", value


def _says_where(message: str, source: str, what: str, names: Any = ()) -> None:
    """A refusal starts with ``source`` and, when ``names`` are given, names
    one of them (a word of the message)."""
    if not message.startswith(f"{source}:"):
        raise ContractError("overlong", f"{what}: the error does not start with {source!r}: "
                                        f"{clip(message)!r}")
    if names and not any(re.search(rf"(?<![A-Za-z]){re.escape(n)}(?![A-Za-z])", message)
                         for n in names):
        raise ContractError("overlong", f"{what}: the error names none of "
                                        f"{', '.join(names)}: {clip(message)!r}")


@functools.cache
def _alphabet(name: str) -> Any:
    from rackety import Alphabet

    return Alphabet.load(name, files=False)


@functools.cache
def _empty_cgp(name: str) -> str:
    from rackety import Board

    return Board.empty(_alphabet(name)).cgp()


def _reads_back(rules: Rules, alphabet: Any, what: str) -> None:
    """Resolved ``rules`` come back from their CGP operations, and from the
    CGP of a board given them."""
    from rackety import Board

    written = must(lambda: rules.options(alphabet), f"{what}: Rules.options")
    back = must(lambda: Rules.from_options(written, base=Rules(playout=rules.playout))
                .of(alphabet), f"{what}: Rules.from_options(rules.options())")
    if back != rules:
        raise ContractError("readback", f"{what}: {rules} written as {written} reads back as "
                                        f"{back}")
    board = Board.empty(alphabet)
    must(lambda: setattr(board, "rules", rules), f"{what}: board.rules = rules")
    if must(lambda: board.rules, f"{what}: board.rules") != rules:
        raise ContractError("readback", f"{what}: a board given {rules} has {board.rules}")
    cgp = must(board.cgp, f"{what}: cgp() of a board given the rules")
    again = must(lambda: Board.from_cgp(cgp, files=False), f"{what}: Board.from_cgp({cgp!r})")
    if again.rules != replace(rules, playout="twice"):  # CGP does not say the play-out rule
        raise ContractError("readback", f"{what}: {rules} written as CGP "
                                        f"{clip(cgp[-80:])!r} reads back as {again.rules}")
    if must(again.cgp, f"{what}: cgp() read back") != cgp:
        raise ContractError("readback", f"{what}: the rules' CGP is not a fixed point: "
                                        f"{clip(cgp[-80:])!r}")


def _run_options(payload: dict[str, Any], ctx: Context) -> str:
    options, alphabet = payload["options"], _alphabet(payload.get("alphabet", "english"))
    base = Rules(**payload.get("base", {}))
    what = f"Rules.from_options({clip(repr(options), 120)})"
    outcome, got = _try(lambda: Rules.from_options(options, base=base, source=OPTIONS_SOURCE),
                        what)
    expected, bad = reference_rules(options, base)
    if outcome == "refused":
        if expected is not None:
            raise ContractError("expectation", f"{what} refused valid operations: {got}")
        _says_where(got, OPTIONS_SOURCE, what, bad)
        return outcome
    if expected is None:
        raise ContractError("expectation", f"{what} accepted the bad operand(s) of "
                                           f"{', '.join(bad)}: {got}")
    if got != expected:
        raise ContractError("readback", f"{what} reads {got}, the operations say {expected}")
    _reads_back(must(lambda: got.of(alphabet), f"{what}: of({alphabet.name})"), alphabet, what)
    return outcome


def _cgp_texts(payload: dict[str, Any]) -> tuple[str, str]:
    """The payload's CGP, and the same CGP without its rules operations."""
    base = _empty_cgp(payload.get("alphabet", "english"))
    ops = [(str(op), str(text)) for op, text in payload.get("ops", [])]
    raw = payload.get("raw", "")

    def text(keep: Any) -> str:
        parts = [f"{op} {operand};" for op, operand in ops if keep(op)]
        return " ".join([base, *parts]) + (" " + raw if raw else "")

    return text(lambda op: True), text(lambda op: op not in CGP_OPCODES)


def _run_cgp(payload: dict[str, Any], ctx: Context) -> str:
    from rackety import Board

    text, plain = _cgp_texts(payload)
    what = f"Board.from_cgp({clip(text[text.find(' '):], 120)!r})"
    outcome, board = _try(lambda: Board.from_cgp(text, source=CGP_SOURCE, files=False), what)
    if outcome == "refused":
        _says_where(board, CGP_SOURCE, what)
        if _try(lambda: Board.from_cgp(plain, source=CGP_SOURCE, files=False),
                f"{what} without its rules operations")[0] == "accepted":
            # a rules operation, or the line break a CGP may not hold
            _says_where(board, CGP_SOURCE, what, [*RULES_OPS, "operation", "one line"])
        return outcome
    alphabet = board.alphabet
    rules = must(lambda: board.rules, f"{what}: board.rules")
    stated = {op: board.options[op] for op in RULES_OPS if op in board.options}
    expected, bad = reference_rules(stated, Rules())
    if expected is None:
        raise ContractError("expectation", f"{what} accepted the bad operand(s) of "
                                           f"{', '.join(bad)}: {clip(repr(stated))}")
    expected = expected.of(alphabet)
    if rules != expected:
        raise ContractError("readback", f"{what} has rules {rules}, its operations "
                                        f"{clip(repr(stated))} say {expected}")
    written = must(board.cgp, f"{what}: board.cgp()")
    again = must(lambda: Board.from_cgp(written, files=False), f"{what}: its cgp() read again")
    if again.rules != rules:
        raise ContractError("readback", f"{what}: its cgp() reads back with {again.rules}")
    _reads_back(rules, alphabet, what)
    return outcome


def _gcg_input(payload: dict[str, Any]) -> str | bytes:
    """The payload as `read_gcg` takes it: bytes, or text that reads as a
    record's text (a string without a line break that does not start with
    ``#`` or ``>`` would name a file: it goes as its UTF-8 bytes)."""
    if "content" in payload:
        return payload["content"]
    text = payload["text"]
    if not text.strip() or "\n" in text or "\r" in text or \
            text.lstrip("\ufeff").startswith(("#", ">")):
        return text
    return text.encode("utf-8", "surrogatepass")


def _run_gcg(payload: dict[str, Any], ctx: Context) -> str:
    from rackety import Board
    from rackety.game.gcg import (
        game_of,
        gcg_of,
        read_gcg,
        record_layout,
        record_rules,
        replay,
        write_gcg,
    )

    data = _gcg_input(payload)
    what = "read_gcg"
    outcome, record = _try(lambda: read_gcg(data, source=GCG_SOURCE), what)
    if outcome == "refused":
        _says_where(record, GCG_SOURCE, what)
        return outcome
    outcome, rules = _try(lambda: record_rules(record), "record_rules")
    expected, line = reference_record_rules(record)
    written = must(lambda: write_gcg(record), "write_gcg of an accepted record")
    again = must(lambda: read_gcg(written, source=GCG_SOURCE), "read_gcg(write_gcg(record))")
    again_outcome, again_rules = _try(lambda: record_rules(again), "record_rules, read again")
    lexicon = ctx.small_lexicon()
    if outcome == "refused":
        message = rules
        if expected is not None:
            raise ContractError("expectation", f"record_rules refused a record whose notes "
                                               f"state {expected}: {message}")
        if not message.startswith(f"{GCG_SOURCE}:{line}: "):
            raise ContractError("overlong", f"record_rules: the error does not name "
                                            f"{GCG_SOURCE}:{line}, the variant note it "
                                            f"refuses: {clip(message)!r}")
        if again_outcome != "refused":
            raise ContractError("readback", "record_rules refuses the record but reads it "
                                            f"written and read again: {again_rules}")
        if _try(lambda: replay(record), "replay")[0] != "refused":
            raise ContractError("expectation", f"replay accepts a record whose rules are "
                                               f"refused: {message}")
        if _try(lambda: record_layout(record), "record_layout")[0] == "accepted":
            got = _try(lambda: game_of(record, lexicon), "game_of")
            if got != ("refused", message):
                raise ContractError("readback", f"game_of does not refuse as record_rules "
                                                f"({message}): {got[0]} "
                                                f"{clip(str(got[1]), 120)}")
        return outcome
    if expected is None:
        raise ContractError("expectation", f"record_rules accepted {rules}; line {line} "
                                           "names no variant, or another one")
    if rules != expected:
        raise ContractError("readback", f"record_rules reads {rules}, the record says "
                                        f"{expected}")
    if (again_outcome, again_rules) != ("accepted", rules):
        raise ContractError("readback", f"record_rules reads {rules}, and {again_outcome} "
                                        f"{clip(str(again_rules))} once written and read again")
    replayed, done = _try(lambda: replay(record), "replay")
    if replayed == "accepted":
        for i in (0, -1):
            board = done.positions[i]
            got = must(lambda b=board: b.rules, f"replay position {i}: rules")
            if (got.variant, got.playout) != (rules.variant, rules.playout):
                raise ContractError("readback", f"replay position {i} plays by {got}, the "
                                                f"record says {rules}")
        cgp = must(done.final.cgp, "replay's last position: cgp()")
        back = must(lambda: Board.from_cgp(cgp), "replay's last position's CGP read again")
        if back.rules.variant != rules.variant:
            raise ContractError("readback", f"replay's last position's CGP "
                                            f"{clip(cgp[-80:])!r} says {back.rules.variant}")
    played, game = _try(lambda: game_of(record, lexicon), "game_of")
    if played == "accepted":
        if (game.rules.variant, game.rules.playout) != (rules.variant, rules.playout):
            raise ContractError("readback", f"game_of's game plays by {game.rules}, the "
                                            f"record says {rules}")
        text = must(lambda: gcg_of(game), "gcg_of(game_of(record))")
        stated = must(lambda: record_rules(read_gcg(text, source="game.gcg")),
                      "record_rules of gcg_of(game_of(record))")
        if stated.variant != rules.variant:
            raise ContractError("readback", f"gcg_of(game_of(record)) states {stated}, the "
                                            f"record {rules}")
    return outcome


def run(payload: dict[str, Any], ctx: Context) -> str:
    """One input through its reader: "accepted" or "refused", else a
    `ContractError` (see the module's docstring)."""
    target = payload.get("target") if isinstance(payload, dict) else None
    if target == "options":
        return _run_options(payload, ctx)
    if target == "cgp":
        return _run_cgp(payload, ctx)
    if target == "gcg":
        return _run_gcg(payload, ctx)
    raise ValueError(f"not a rules payload: {fuzzing.describe_input(payload)}")


# ------------------------------------------------------------ the inputs
def _opts(alphabet: str = "english", base: dict[str, Any] | None = None,
          **options: str) -> dict[str, Any]:
    payload: dict[str, Any] = {"target": "options", "alphabet": alphabet, "options": options}
    if base:
        payload["base"] = base
    return payload


def _cgp(*ops: tuple[str, str], raw: str = "", alphabet: str = "english") -> dict[str, Any]:
    payload: dict[str, Any] = {"target": "cgp", "alphabet": alphabet,
                               "ops": [list(op) for op in ops]}
    if raw:
        payload["raw"] = raw
    return payload


@functools.cache
def _records() -> dict[str, str]:
    """Records to put notes in: short, over (play-out bonus twice, or
    subtract: the bonus once and the matching penalty), with a challenge, not
    over."""
    texts = {p.stem: p.read_text(encoding="utf-8")
             for p in sorted((fuzzing.HERE / "data" / "gcg").glob("*.gcg"))}
    out = {"game": fuzzing.GAME_GCG, **texts}
    if "double_challenge" in texts:
        out["subtract"] = texts["double_challenge"].replace(
            ">bob:  (ERU) +6 81\n", ">bob:  (ERU) +3 78\n>ann: ERU (ERU) -3 56\n")
    return out


def with_notes(text: str, notes: list[str], after_event: list[str] | None = None) -> str:
    """``text`` with ``notes`` (lines) just before its first event, and
    ``after_event`` just after it (notes of the event, not of the header)."""
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.startswith(">")), len(lines))
    return "\n".join([*lines[:first], *notes, *lines[first:first + 1], *(after_event or []),
                      *lines[first + 1:]])


def _gcg(text: str) -> dict[str, Any]:
    return {"target": "gcg", "text": text}


def _gcg_bytes(data: bytes) -> dict[str, Any]:
    return {"target": "gcg", "content": data}


def hostile() -> tuple[tuple[str, dict[str, Any], str | None], ...]:
    """The named inputs: (name, payload, "refused" where it must be)."""
    refused = "refused"
    game = fuzzing.GAME_GCG
    records = _records()
    cases: list[tuple[str, dict[str, Any], str | None]] = []
    # ---- Rules.from_options: operands as the CGP reader hands them over
    cases += [
        ("options-all-valid", _opts(cr="void", bb="35", etl="1", mcnz="12", var="wordsmog"),
         None),
        ("options-odd-case-and-space", _opts(cr=" 10PT\t", bb="+0", var="\u3000WordSmog "),
         None),
        ("options-bounds-low", _opts(bb="0", etl="0", mcnz="1"), None),
        ("options-bounds-high", _opts(bb=str(LIMITS["bingo_bonus"][1]),
                                      etl=str(LIMITS["exchange_min_bag"][1]),
                                      mcnz=str(LIMITS["max_scoreless"][1])), None),
        ("options-bb-above", _opts(bb=str(LIMITS["bingo_bonus"][1] + 1)), refused),
        ("options-mcnz-zero", _opts(mcnz="0"), refused),
        ("options-etl-negative", _opts(etl="-1"), refused),
        ("options-bb-minus-zero", _opts(bb="-0"), refused),
        ("options-bb-5000-digits", _opts(bb="9" * 5000), refused),
        ("options-bb-31-chars-of-one", _opts(bb="0" * 30 + "1"), refused),
        ("options-bb-beyond-int64", _opts(bb="18446744073709551616"), refused),
        ("options-bb-exponent", _opts(bb="1e3"), refused),
        ("options-bb-float", _opts(bb="50.0"), refused),
        ("options-bb-hex", _opts(bb="0x10"), refused),
        ("options-bb-underscore", _opts(bb="1_000"), refused),
        ("options-bb-nan", _opts(bb="nan"), refused),
        ("options-bb-true", _opts(bb="true"), refused),
        ("options-cr-true", _opts(cr="True"), refused),
        ("options-var-false", _opts(var="false"), refused),
        ("options-bb-arabic-indic", _opts(bb="\u0665\u0660"), refused),
        ("options-bb-fullwidth", _opts(bb="\uff15\uff10"), refused),
        ("options-etl-math-bold", _opts(etl="\U0001d7d5"), refused),
        ("options-mcnz-superscript", _opts(mcnz="\u00b2"), refused),
        ("options-mcnz-roman", _opts(mcnz="\u2165"), refused),
        ("options-bb-nul", _opts(bb="5\x00"), refused),
        ("options-bb-newline-inside", _opts(bb="5\n0"), refused),
        ("options-bb-newline-around", _opts(bb="\n50\n"), None),
        ("options-cr-newline-inside", _opts(cr="void\nbb 5"), refused),
        ("options-cr-escape", _opts(cr="void\x1b[31m"), refused),
        ("options-bb-empty", _opts(bb=""), refused),
        ("options-cr-empty", _opts(cr=""), refused),
        ("options-var-empty", _opts(var=""), refused),
        ("options-var-spaces-only", _opts(var="   "), refused),
        ("options-var-jumbled", _opts(var="JUMBLED"), refused),
        ("options-var-long-s", _opts(var="word\u017fmog"), refused),
        ("options-var-cyrillic-a", _opts(var="cl\u0430ssic"), refused),
        ("options-var-dotted-capital-i", _opts(var="CLASS\u0130C"), refused),
        ("options-var-fullwidth", _opts(var="\uff57\uff4f\uff52\uff44\uff53\uff4d\uff4f\uff47"),
         refused),
        ("options-var-zero-width", _opts(var="word\u200bsmog"), refused),
        ("options-var-100k", _opts(var="x" * 100_000), refused),
        ("options-cr-100k", _opts(cr="d" * 100_000), refused),
        ("options-cr-5-pt", _opts(cr="5 pt"), refused),
        ("options-every-operand-bad", _opts(cr="x", bb="x", etl="x", mcnz="x", var="x"),
         refused),
        ("options-upper-case-opcodes-ignored", _opts(CR="junk", VAR="junk", BB="-1"), None),
        ("options-over-a-base", _opts(base={"challenge": "void", "playout": "subtract",
                                            "variant": "wordsmog", "bingo_bonus": 0},
                                      var="classic", cr="single"), None),
        ("options-wwf-default-bonus", _opts("english_wwf", bb="50"), None),
        ("options-spanish-defaults", _opts("spanish", etl="7", mcnz="6"), None),
    ]
    # ---- Board.from_cgp: the operations in a CGP
    cases += [
        ("cgp-all-valid", _cgp(("cr", "5pt"), ("bb", "35"), ("etl", "0"), ("mcnz", "1000"),
                               ("var", "WordSmog")), None),
        ("cgp-odd-case", _cgp(("cr", "DOUBLE"), ("var", "wordSMOG")), None),
        ("cgp-repeated-same", _cgp(("bb", "50"), ("bb", "50")), refused),
        ("cgp-repeated-conflict", _cgp(("cr", "void"), ("cr", "double")), refused),
        ("cgp-var-conflict", _cgp(("var", "classic"), ("var", "wordsmog")), refused),
        ("cgp-bb-huge", _cgp(("bb", "9" * 5000)), refused),
        ("cgp-bb-negative", _cgp(("bb", "-50")), refused),
        ("cgp-mcnz-above", _cgp(("mcnz", str(LIMITS["max_scoreless"][1] + 1))), refused),
        ("cgp-etl-above", _cgp(("etl", str(LIMITS["exchange_min_bag"][1] + 1))), refused),
        ("cgp-bb-fullwidth", _cgp(("bb", "\uff15\uff10")), refused),
        ("cgp-bb-arabic-indic", _cgp(("bb", "\u0665\u0660")), refused),
        ("cgp-bb-nul", _cgp(("bb", "\x00")), refused),
        ("cgp-etl-empty", _cgp(("etl", "")), refused),
        ("cgp-cr-bool", _cgp(("cr", "false")), refused),
        ("cgp-var-unknown", _cgp(("var", "Jumbled")), refused),
        ("cgp-var-nbsp", _cgp(("var", "\u00a0wordsmog\u00a0")), None),
        ("cgp-var-zero-width", _cgp(("var", "\u200bwordsmog")), refused),
        ("cgp-var-greek-question-mark", _cgp(raw="var wordsmog\u037e"), None),  # NFC: ';'
        ("cgp-var-combining-mark", _cgp(("var", "classic\u0301")), refused),
        ("cgp-var-100k", _cgp(("var", "w" * 100_000)), refused),
        ("cgp-bb-newline", _cgp(raw="bb 5\n0;"), refused),
        ("cgp-bb-vertical-tab", _cgp(("bb", "5\x0b")), None),  # white space around
        ("cgp-opcode-without-semicolon", _cgp(raw="mcnz 6"), refused),
        ("cgp-empty-operation", _cgp(raw="cr void;;"), refused),
        ("cgp-opcode-alone", _cgp(raw="var;"), refused),
        ("cgp-upper-case-opcode", _cgp(("VAR", "jumbled"), ("CR", "x")), None),
        ("cgp-operand-holds-an-operation", _cgp(("cr", "void; bb 0")), None),
        ("cgp-wwf-bonus", _cgp(("bb", "50"), alphabet="english_wwf"), None),
        ("cgp-spanish-defaults", _cgp(("etl", "7"), ("mcnz", "6"), alphabet="spanish"), None),
        ("cgp-super-wordsmog", _cgp(("var", "WORDSMOG"), alphabet="english_super"), None),
        ("cgp-with-lexicon", _cgp(("lex", "TWL06"), ("cr", "10pt"), ("bb", "+7")), None),
    ]
    # ---- GCG: the variant note and the play-out rule
    note = "#note Variant: {}".format
    cases += [
        ("gcg-wordsmog", _gcg(with_notes(game, [note("wordsmog")])), None),
        ("gcg-classic-upper", _gcg(with_notes(game, [note("CLASSIC")])), None),
        ("gcg-odd-spacing", _gcg(with_notes(game, ["#note\tVARIANT :\t WordSmog \t"])), None),
        ("gcg-same-twice", _gcg(with_notes(game, [note("wordsmog"), note("WordSmog")])), None),
        ("gcg-two-that-differ", _gcg(with_notes(game, [note("classic"), note("wordsmog")])),
         refused),
        ("gcg-two-that-differ-far-apart", _gcg(with_notes(
            game.replace("#player1", note("wordsmog") + "\n#player1"), [note("classic")])),
         refused),
        ("gcg-unknown", _gcg(with_notes(game, [note("jumbled")])), refused),
        ("gcg-unknown-after-a-good-one", _gcg(with_notes(game, [note("wordsmog"),
                                                                note(" Jumbled ")])), refused),
        ("gcg-empty", _gcg(with_notes(game, ["#note Variant:"])), refused),
        ("gcg-nul", _gcg(with_notes(game, [note("wordsmog\x00")])), refused),
        ("gcg-escape", _gcg(with_notes(game, [note("classic\x1b[31m")])), refused),
        ("gcg-fullwidth", _gcg(with_notes(game, [note("\uff43\uff4c\uff41\uff53\uff53\uff49"
                                                      "\uff43")])), refused),
        ("gcg-cyrillic-a", _gcg(with_notes(game, [note("cl\u0430ssic")])), refused),
        ("gcg-long-s", _gcg(with_notes(game, [note("word\u017fmog")])), refused),
        ("gcg-zero-width", _gcg(with_notes(game, [note("word\u200dsmog")])), refused),
        ("gcg-dotless-i-key-not-a-variant-note", _gcg(with_notes(
            game, ["#note Var\u0131ant: jumbled"])), None),
        ("gcg-cyrillic-i-key-not-a-variant-note", _gcg(with_notes(
            game, ["#note Var\u0456ant: jumbled"])), None),
        ("gcg-no-colon-not-a-variant-note", _gcg(with_notes(game, ["#note Variant jumbled"])),
         None),
        ("gcg-variant-note-after-an-event", _gcg(with_notes(game, [], [note("jumbled")])),
         None),
        ("gcg-very-long-variant", _gcg(with_notes(game, [note("w" * 300_000)])), refused),
        ("gcg-very-long-note-then-variant", _gcg(with_notes(
            game, ["#note " + "x" * 300_000, note("wordsmog")])), None),
        ("gcg-variant-and-10000-continuation-lines", _gcg(with_notes(
            game, [note("wordsmog") + "\nmore" * 10_000])), None),
        ("gcg-continuation-is-not-the-value", _gcg(with_notes(
            game, ["#note Variant: wordsmog\njumbled"])), None),
        ("gcg-crlf", _gcg(with_notes(game, [note("wordsmog")]).replace("\n", "\r\n")), None),
        ("gcg-cr-only", _gcg(with_notes(game, [note("wordsmog")]).replace("\n", "\r")), None),
        ("gcg-line-separator-value", _gcg(with_notes(game, [note("wordsmog\u2028jumbled")])),
         refused),
        ("gcg-latin-1-bytes", _gcg_bytes(with_notes(game, [note("wordsm\u00f6g")])
                                         .encode("latin-1")), refused),
        ("gcg-bom-bytes", _gcg_bytes(b"\xef\xbb\xbf" + with_notes(
            game, [note("wordsmog")]).encode()), None),
        ("gcg-random-bytes-after-the-key", _gcg_bytes(
            b"#note Variant: \xff\xfe\x00\x9b\xc0\xaf\n" + game.encode()), refused),
        ("gcg-only-a-note", _gcg(note("wordsmog") + "\n"), None),
        ("gcg-only-a-bad-note", _gcg(note("jumbled") + "\n"), refused),
        ("gcg-variant-and-bad-layout", _gcg(with_notes(game, [
            "#note BoardLayout: Klingon64", note("jumbled")])), refused),
    ]
    if "subtract" in records:
        cases += [
            ("gcg-playout-twice", _gcg(records["double_challenge"]), None),
            ("gcg-playout-subtract", _gcg(records["subtract"]), None),
            ("gcg-playout-subtract-wordsmog", _gcg(with_notes(records["subtract"],
                                                              [note("wordsmog")])), None),
            ("gcg-playout-subtract-tiles-in-another-order", _gcg(
                records["subtract"].replace(">ann: ERU (ERU) -3", ">ann: URE (URE) -3")), None),
            ("gcg-playout-penalty-of-other-tiles", _gcg(
                records["subtract"].replace(">ann: ERU (ERU) -3", ">ann: ER (ER) -2")), None),
            ("gcg-playout-subtract-two-variants", _gcg(with_notes(
                records["subtract"], [note("wordsmog"), note("classic")])), refused),
        ]
    return tuple(cases)


def _operand(op: str, ch: RandomChooser) -> str:
    """An operand for ``op``: a good one in some spelling, any hostile one, or a
    mutated good one."""
    field = CGP_OPCODES.get(op)
    good = {"challenge": CHALLENGE_RULES, "variant": VARIANTS}.get(
        field or "", ("0", "1", "6", "7", "35", "50", "1000"))
    roll = ch.below(100)
    if roll < 30:
        text = ch.choice(good)
        spelling = ch.below(5)
        if spelling == 1:
            text = text.upper()
        elif spelling == 2:
            text = text.title()
        elif spelling == 3:
            text = ch.choice((" ", "\t", "\u00a0", "")) + text + ch.choice((" ", "\t", ""))
        return text
    if roll < 75:
        pool = ch.choice((NUMBERS, BOOLS, CHALLENGE_TEXTS, VARIANT_TEXTS) if ch.chance(30) else
                         ((CHALLENGE_TEXTS,) if field == "challenge" else
                          (VARIANT_TEXTS,) if field == "variant" else (NUMBERS, BOOLS)))
        return ch.choice(pool)
    return fuzzing.mutate(ch.choice(good), ch, steps=1 + ch.below(2))


def _ops(ch: RandomChooser) -> list[list[str]]:
    """Up to 6 operations: mostly the rules', sometimes one given again with
    another operand, sometimes another opcode."""
    ops: list[list[str]] = []
    for _ in range(ch.below(7)):
        if ops and ch.chance(12):
            op = ch.choice(ops)[0]
        else:
            op = ch.choice(RULES_OPS) if ch.chance(88) else ch.choice(OTHER_OPS)
        ops.append([op, _operand(op, ch)])
    return ops


def _generate_gcg(ch: RandomChooser) -> dict[str, Any]:
    records = _records()
    roll = ch.below(100)
    if roll < 5:
        return _gcg_bytes(bytes(ch.below(256) for _ in range(ch.below(200))))
    if roll < 10:
        noise = bytes(ch.below(256) for _ in range(ch.below(40)))
        return _gcg_bytes(b"#note Variant: " + noise + b"\n" + fuzzing.GAME_GCG.encode())
    notes = []
    for _ in range(ch.below(4)):
        value = ch.choice(VARIANT_TEXTS) if ch.chance(50) else \
            ch.choice(VARIANTS) if ch.chance(60) else fuzzing.mutate(ch.choice(VARIANTS), ch)
        notes.append(ch.choice(NOTE_FORMS).format(value))
    later = [ch.choice(NOTE_FORMS).format(ch.choice(VARIANT_TEXTS))] if ch.chance(15) else []
    text = with_notes(records[ch.choice(sorted(records))], notes, later)
    if ch.chance(25):
        text = fuzzing.mutate(text, ch, tuple(records.values()))
    if ch.chance(20):
        return _gcg_bytes(text.encode("utf-8", "surrogatepass"))
    return _gcg(text)


def generate(ch: RandomChooser) -> tuple[dict[str, Any], str | None]:
    """One input: a named one as made (12 in 100), else operations for
    `Rules.from_options` or in a CGP (sometimes the operations' text mutated
    whole), or a record with variant notes (sometimes mutated whole, or
    random bytes)."""
    if ch.chance(12):
        _, payload, expect = ch.choice(hostile())
        return payload, expect
    target = ch.choice(TARGETS)
    alphabet = ch.choice(ALPHABETS)
    if target == "options":
        payload = _opts(alphabet, **{op: text for op, text in _ops(ch)})
        if ch.chance(25):
            payload["base"] = {"challenge": ch.choice(CHALLENGE_RULES),
                               "playout": ch.choice(PLAYOUT_RULES),
                               "variant": ch.choice(VARIANTS),
                               "bingo_bonus": ch.choice((None, 0, 35, LIMITS["bingo_bonus"][1])),
                               "max_scoreless": ch.choice((None, 1, 12))}
        return payload, None
    if target == "cgp":
        ops = _ops(ch)
        if ch.chance(20):  # the operations' text, mutated whole
            text = " ".join(f"{op} {operand};" for op, operand in ops)
            return _cgp(raw=fuzzing.mutate(text or "cr void;", ch), alphabet=alphabet), None
        return _cgp(*[(op, operand) for op, operand in ops], alphabet=alphabet), None
    return _generate_gcg(ch), None
