"""Shared machinery of the fuzz tests (``tests/test_fuzz.py``) and of the long
fuzzer (``tools/fuzz.py``), issue 12 ("Hostile input").

The contract every reader, command and endpoint meets:

* a library reader (CGP, GCG + replay + `game_of`, KWG, KLV, word
  lists, move strings, player specs) succeeds or raises `rackety.RacketyError`
  whose message is one line of at most 300 characters; whatever it accepts can
  be used (word tools, move generation, leave values: success or
  `RacketyError`) and reads back (a board's CGP, a replay's positions, a
  written GCG);
* the command line exits 0, 1 or 2; a refusal (2) is exactly one line on
  stderr starting ``rackety`` and holding ``error:``, at most 300 characters;
  never a traceback;
* every HTTP route answers below 500, and a 4xx is JSON with a one-line
  ``detail``.

Here: seeds (real inputs), mutations, hostile inputs made on purpose (named,
they become the regression corpus ``tests/data/fuzz/<reader>/``), generators
that draw from a "chooser" (a `random.Random` for the long fuzz, hypothesis'
``draw`` for the tests), the checkers (`check_library`, `check_cli`,
`check_http`), one runner per reader (`run_case`), and `Sandbox`, a worker
process that runs inputs one at a time and reports a crash (signal) or a hang
(timeout) instead of dying with them.

Run as ``python tests/fuzzing.py --worker DIR``, this file is that worker.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import gzip
import hashlib
import io
import json
import json as _json
import os
import pickle
import random
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPUS = HERE / "data" / "fuzz"
EXPECTED = CORPUS / "expected.json"  # corpus files whose input must be refused
SHARED_GCG = ROOT.parent / "shared" / "corpus" / "gcg"
#: the readers that are a module of their own, ``tests/fuzz_<reader>.py``, with
#: ``hostile()``, ``generate(ch)``, ``run(payload, ctx)`` and ``SANDBOXED`` (see
#: `plugin`): the surfaces of issue 33 (the engine protocol both ways, the store's
#: names, file targets, Unicode)
PLUGIN_READERS = tuple(sorted(p.stem.removeprefix("fuzz_") for p in HERE.glob("fuzz_*.py")))
READERS = ("cgp", "gcg", "kwg", "klv", "words", "moves", "http", "cli", *PLUGIN_READERS)
#: readers whose inputs reach compiled kernels or spawn commands: run in a `Sandbox`
SANDBOXED_BASE = frozenset({"kwg", "klv", "words", "cli"})
MAX_MESSAGE = 300
MAX_MUTANT = 400_000  # characters (or bytes) of a mutated input, at most
RACKETY = Path(sys.executable).parent / "rackety"

EMPTY = "/".join(["15"] * 15)
OPENING = f"{EMPTY} AADNPUY/ 0/0 0"
HALTED_ROW = "3HALTED6"
HALTED = "/".join(["15"] * 7 + [HALTED_ROW] + ["15"] * 7)
HALTED_CGP = f"{HALTED} EIOPRSW/EFGOQVX 28/0 0 lex TWL06;"
SUPER_EMPTY = "/".join(["21"] * 21)
SUPER_CGP = f"{SUPER_EMPTY} EOPRSTT/ 0/0 0 lex TWL06; bdn super21; ld english_super;"
CATALAN_CGP = f"{EMPTY} AC[L·L]NRTT/ 0/0 0 ld catalan;"
SPANISH_CGP = f"{EMPTY} A[CH]E[LL]O3?/ 0/0 0 ld spanish;"  # 3: the digit of RR

_SMALL_WORDS_TEXT = (
    "AA AB AD AE AT BA TA ET TE IS SI IT TI NE EN NA AN IN OX OW GO "
    "ATE EAT TEA ETA SAT SEA TAN NIT TIN SIN INS TIE SIT ITS OWS GOX PIT YET CAB TAB BAT "
    "SATE SEAT EAST EATS TEAS ETAS SATIN STAIN SAINT ANTIS TAINS TINEA ENTIA ANISE INSET "
    "STEIN TINES SATINE STANIE TINEAS ENTIAS SATINET HALTED LATHED RUSE GONE CARE RACE "
    "ACRE SCARE CARES RACES ABS DAB QI ZA"
)
SMALL_WORDS = tuple(_SMALL_WORDS_TEXT.split())

GAME_GCG = """#character-encoding UTF-8
#player1 ann Ann Able
#player2 bob Bob Baker
#lexicon TWL06
>ann: ADEHLRT 8D HALTED +28 28
>bob: EFGOQVX -FQV +0 0
>ann: EIOPRSW D8 .OWS +10 38
>bob: EGNOOXY H5 GOX. +12 12
>bob: EGNOOXY -- -12 0
>ann: EIPRRTU - +0 38
>bob: EGNOOXY 9I OX +14 14
"""


# ------------------------------------------------------------------ outcomes
class ContractError(AssertionError):
    """A broken contract: ``kind`` is crash, hang, exception (any exception
    other than `RacketyError`, a traceback, an HTTP 5xx, exit status 70),
    overlong (an error that is not one line of at most 300 characters),
    readback (accepted, but it does not read back or cannot be used) or
    expectation (accepted where the issue says it must be refused). A
    `Result` may also say "harness": the fuzzing code itself failed."""

    def __init__(self, kind: str, detail: str, where: str = "", exc_type: str = "") -> None:
        self.kind, self.detail, self.where, self.exc_type = kind, detail, where, exc_type
        super().__init__(f"{kind}: {detail}" + (f" [raised at {where}]" if where else ""))


@dataclass
class Result:
    """What running one input gave: ``outcome`` accepted, refused or failure."""

    outcome: str
    kind: str = ""
    detail: str = ""
    where: str = ""
    exc_type: str = ""
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.outcome != "failure"

    def signature(self) -> tuple[str, str, str]:
        """What groups failures of the same cause."""
        return (self.kind, self.exc_type, self.where)

    def describe(self) -> str:
        text = f"{self.kind}: {self.detail}"
        return text + (f" [raised at {self.where}]" if self.where else "")


def clip(value: Any, width: int = 200) -> str:
    """A short printable form of an input or a message."""
    text = value if isinstance(value, str) else repr(value)
    if len(text) <= width:
        return text
    return f"{text[:width * 2 // 3]}...{text[-(width // 3):]} ({len(text):,} chars)"


def describe_input(payload: Any) -> str:
    if isinstance(payload, bytes | str):
        return f"{clip(payload, 160)!r}" if len(payload) > 160 else repr(payload)
    return clip(repr(payload), 240)


def where_raised(exc: BaseException) -> str:
    """``src/rackety/FILE.py:LINE (function)`` of the innermost rackety frame
    of the traceback (or its innermost frame)."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "/rackety/" in f.filename.replace("\\", "/")
            and "/tests/" not in f.filename]
    frame = ours[-1] if ours else (frames[-1] if frames else None)
    if frame is None:
        return ""
    path = frame.filename.replace("\\", "/")
    at = path.rfind("/rackety/")
    short = "src" + path[at:] if at >= 0 else os.path.basename(path)
    return f"{short}:{frame.lineno} ({frame.name})"


def check_message(message: str, what: str) -> None:
    """An error message must be one line of at most `MAX_MESSAGE` characters."""
    if len(message.splitlines()) > 1:
        raise ContractError("overlong", f"{what}: the error is not one line: {clip(message)!r}")
    if len(message) > MAX_MESSAGE:
        raise ContractError("overlong", f"{what}: an error line of {len(message):,} characters: "
                                        f"{clip(message)!r}")


def attempt(call: Any, what: str) -> tuple[str, Any]:
    """("accepted", value) or ("refused", None) when ``call`` raises
    `RacketyError` with a good message; any other exception is a `ContractError`."""
    from rackety import RacketyError

    try:
        value = call()
    except ContractError:
        raise
    except RacketyError as exc:
        check_message(str(exc), what)
        return "refused", None
    except Exception as exc:
        raise ContractError("exception", f"{what}: {type(exc).__name__}: {clip(str(exc))}",
                            where_raised(exc), type(exc).__name__) from exc
    return "accepted", value


def check_library(call: Any, what: str = "input") -> str:
    """Run ``call``: "accepted" or "refused" (a one-line `RacketyError` of at most
    300 characters); anything else raises `ContractError` (an AssertionError)."""
    return attempt(call, what)[0]


def use(call: Any, what: str) -> Any:
    """Use something a reader accepted: success or `RacketyError`, nothing else."""
    return attempt(call, what)[1]


def must(call: Any, what: str) -> Any:
    """Read back something a reader accepted: it must succeed."""
    try:
        return call()
    except ContractError:
        raise
    except Exception as exc:
        raise ContractError("readback", f"{what}: {type(exc).__name__}: {clip(str(exc))}",
                            where_raised(exc), type(exc).__name__) from exc


# --------------------------------------------------------------------- CLI
def check_cli_result(argv: list[str], code: Any, out: str, err: str,
                     expect: str | None = None) -> str:
    """The command line's contract on one run: "accepted" (exit 0 or 1) or
    "refused" (exit 2 with one error line); else a `ContractError`."""
    what = f"rackety {clip(' '.join(argv), 160)}"
    if "Traceback" in out or "Traceback" in err:
        raise ContractError("exception", f"{what}: a traceback: {clip(err or out)}")
    if code == 70 or (isinstance(code, int) and code < 0):
        line = err.strip().splitlines()[-1] if err.strip() else ""
        kind = "crash" if isinstance(code, int) and code < 0 else "exception"
        raise ContractError(kind, f"{what}: exit status {code}: {clip(line)}")
    if code not in (0, 1, 2):
        raise ContractError("exception", f"{what}: exit status {code!r}: {clip(err.strip())}")
    if code == 2:
        text = err.strip()
        lines = text.splitlines()
        if len(lines) != 1 or not text.startswith("rackety") or "error:" not in text:
            raise ContractError("overlong", f"{what}: exit 2 without exactly one 'rackety ... "
                                            f"error:' line on stderr: {clip(text)!r}")
        if len(text) > MAX_MESSAGE:
            raise ContractError("overlong", f"{what}: an error line of {len(text):,} characters")
        return "refused"
    if expect == "refused":
        raise ContractError("expectation", f"{what}: exit {code}, but it must be refused (exit 2)")
    return "accepted"


@contextlib.contextmanager
def _environment(**values: str) -> Any:
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def run_cli_inprocess(argv: list[str], stdin: bytes | str | None = None
                      ) -> tuple[Any, str, str]:
    """``rackety.frontends.cli.main(argv)`` with stdin, stdout and stderr captured;
    RACKETY_DEBUG is set, so an internal error raises (and shows where)."""
    from rackety.frontends.cli import main

    data = stdin.encode() if isinstance(stdin, str) else (stdin or b"")
    out, err = io.StringIO(), io.StringIO()
    old_in = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        # the user's data folder (the study deck's default store) is the case's own
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                _environment(RACKETY_DEBUG="1", XDG_DATA_HOME=os.getcwd()):
            try:
                code = main(list(argv))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
            except ContractError:
                raise
            except Exception as exc:
                raise ContractError("exception", f"rackety {clip(' '.join(argv), 160)}: "
                                                 f"{type(exc).__name__}: {clip(str(exc))}",
                                    where_raised(exc), type(exc).__name__) from exc
    finally:
        sys.stdin = old_in
    return code, out.getvalue(), err.getvalue()


def check_cli(argv: list[str], stdin: bytes | str | None = None, timeout: float = 60.0,
              cwd: str | Path | None = None, env: dict[str, str] | None = None,
              expect: str | None = None) -> str:
    """Run the installed ``rackety`` command in a subprocess and check its exit
    status and output; a signal is a crash, running past ``timeout`` a hang."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    full_env = {**os.environ, **(env or {})}
    full_env.pop("RACKETY_DEBUG", None)
    if cwd is not None:  # the user's data folder (the study deck's store) is the case's own
        full_env["XDG_DATA_HOME"] = str(cwd)
    what = f"rackety {clip(' '.join(argv), 160)}"
    try:
        proc = subprocess.run([str(RACKETY), *argv], input=data or b"", capture_output=True,
                              timeout=timeout, cwd=cwd, env=full_env, check=False)
    except subprocess.TimeoutExpired:
        raise ContractError("hang", f"{what}: still running after {timeout:g} s") from None
    out = proc.stdout.decode("utf-8", "replace")
    err = proc.stderr.decode("utf-8", "replace")
    if proc.returncode < 0:
        raise ContractError("crash", f"{what}: killed by {signal.Signals(-proc.returncode).name}: "
                                     f"{clip(err.strip())}")
    return check_cli_result(argv, proc.returncode, out, err, expect)


# -------------------------------------------------------------------- HTTP
def check_http(client: Any, method: str, url: str, *, json: Any = None,
               content: bytes | str | None = None, headers: dict[str, str] | None = None,
               expect: str | None = None) -> str:
    """One request: "accepted" (2xx/3xx) or "refused" (4xx with a JSON body whose
    ``detail`` is one line of at most 300 characters); a 5xx or an exception
    is a `ContractError`."""
    what = f"{method} {clip(url, 120)}"
    kwargs: dict[str, Any] = {}
    if content is None and json is not None:
        # encoded here, not by the client: a lone surrogate is sent escaped
        content = _json.dumps(json, ensure_ascii=True)
    if content is not None:
        kwargs["content"] = content
        kwargs["headers"] = {"content-type": "application/json", **(headers or {})}
    elif headers:
        kwargs["headers"] = headers
    try:
        response = client.request(method, url, **kwargs)
    except Exception as exc:
        raise ContractError("exception", f"{what}: {type(exc).__name__}: {clip(str(exc))}",
                            where_raised(exc), type(exc).__name__) from exc
    status = response.status_code
    if status >= 500:
        raise ContractError("exception", f"{what}: HTTP {status}: {clip(response.text)}")
    if status >= 400:
        try:
            body = response.json()
        except ValueError:
            raise ContractError("overlong", f"{what}: HTTP {status} whose body is not JSON: "
                                            f"{clip(response.text)!r}") from None
        detail = body.get("detail") if isinstance(body, dict) else None
        if not isinstance(detail, str):
            raise ContractError("overlong", f"{what}: HTTP {status} without a text detail: "
                                            f"{clip(response.text)!r}")
        check_message(detail, f"{what}: HTTP {status} detail")
        return "refused"
    if expect == "refused":
        raise ContractError("expectation", f"{what}: HTTP {status}, but it must be refused (4xx)")
    return "accepted"


# ------------------------------------------------------------------ choosers
class RandomChooser:
    """Choices from a seeded `random.Random` (the long fuzz)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def below(self, n: int) -> int:
        return self.rng.randrange(n) if n > 1 else 0

    def choice(self, seq: Any) -> Any:
        return seq[self.below(len(seq))]

    def chance(self, percent: int) -> bool:
        return self.below(100) < percent


class DrawChooser(RandomChooser):
    """Choices drawn by hypothesis (the tests: shrinkable, reproducible)."""

    def __init__(self, draw: Any) -> None:
        from hypothesis import strategies as st

        self.draw, self.st = draw, st

    def below(self, n: int) -> int:
        return self.draw(self.st.integers(0, n - 1)) if n > 1 else 0


# ----------------------------------------------------------------- mutation
NUMBER_TOKENS = (
    "9" * 5000, "99999999999999999999", "9223372036854775807", "9223372036854775808",
    "18446744073709551616", "-9223372036854775809", "4294967296", "2147483648", "1e400",
    "0", "00", "-0", "-1", "+1", "٣", "176٣", "²", "１５", "①", "𝟗", "٠", "1_000", " 1",
    "0x10", "nan", "inf", "1.5", "٢٨", "१५",
)
TEXT_TOKENS = (
    *NUMBER_TOKENS, "/", " ", ";", "?", "??", "\n", "\r", "\r\n", "\t", "\x00", "\x1b[31m",
    "(", ")", "((", "))", "[", "]", "[[", ".", "..", "-", "--", "+", "#", ">", ":", "\ufeff",
    "\u2028", "\x85", "\ud800", "é", "É", "L·L", "[CH]", "[NY]", "ß", "ﬁ", "ǅ", "İ",
    "x" * 5000, "A" * 10000, "a", "z", "Q", "lex x;", "ld catalan;", "bdn super21;", "bb 0;",
    "ld /etc/passwd;", "lex /etc/hostname;", "bdn ../x;", "ld " + "x" * 5000 + ";",
    "#character-encoding base64", "#player99999999999999 a A", "#note ", ">a: ", " +0 0",
    "\"", "'", "\\", "%s", "{}", "8D", "D8", "exch", "pass", "(exch A)",
)
BYTE_TOKENS = (*(t.encode("utf-8", "surrogatepass") for t in TEXT_TOKENS),
               b"\xff", b"\xfe", b"\x80", b"\xc0\xaf", b"\xed\xa0\x80", b"\xef\xbb\xbf",
               b"\x00\x00", b"\xff\xfe", b"\xfe\xff\x00", b"\xf4\x90\x80\x80")
FLIP_CHARS = ("0", "9", "A", "a", "?", "/", " ", ";", ".", "(", ")", "[", "]", "-", "\n",
              "\x00", "٣", "²", "é", "\ud800", "#", ">", ":", "+", "Z")
_DIGITS = re.compile(r"[0-9]+")
_DIGITS_B = re.compile(rb"[0-9]+")
_FIELD = re.compile(r"\S+")
_FIELD_B = re.compile(rb"\S+")
MUTATIONS = ("flip", "insert", "delete", "splice", "truncate", "dup_line", "swap_lines",
             "number", "field", "repeat", "case", "insert", "number", "field")


def _as_type(value: Any, token: Any) -> Any:
    if isinstance(value, str):
        return token if isinstance(token, str) else token.decode("utf-8", "replace")
    return token if isinstance(token, bytes) else token.encode("utf-8", "surrogatepass")


def mutate(value: Any, ch: RandomChooser, others: Any = (), steps: int | None = None) -> Any:
    """``value`` (str or bytes) after ``steps`` random mutations: byte or
    character flips, insertions of hostile tokens, deletions, splices with
    ``others``, truncations, duplicated or swapped lines, numbers replaced by
    huge or non-ASCII ones, fields replaced, slices repeated, case changed."""
    steps = steps if steps is not None else 1 + ch.below(3)
    for _ in range(steps):
        value = _mutate_once(value, ch, others)
        if len(value) > MAX_MUTANT:
            value = value[:MAX_MUTANT]
    return value


def _mutate_once(value: Any, ch: RandomChooser, others: Any) -> Any:
    is_text = isinstance(value, str)
    op = ch.choice(MUTATIONS)
    n = len(value)
    pos = ch.below(n + 1)
    if op == "flip" and n:
        i = min(pos, n - 1)
        if is_text:
            new = ch.choice(FLIP_CHARS)
        elif ch.chance(50):
            new = bytes([value[i] ^ (1 << ch.below(8))])
        else:
            new = bytes([ch.below(256)])
        return value[:i] + new + value[i + 1:]
    if op == "delete" and n:
        k = 1 + ch.below(min(n, 40))
        return value[:pos] + value[pos + k:]
    if op == "splice" and others:
        other = _as_type(value, ch.choice(others))
        return value[:pos] + other[ch.below(len(other) + 1):]
    if op == "truncate" and n:
        return value[:pos]
    if op in ("dup_line", "swap_lines"):
        lines = value.splitlines(keepends=True)
        if len(lines) >= 1:
            i = ch.below(len(lines))
            if op == "dup_line":
                lines[i:i + 1] = [lines[i]] * (1 + ch.choice((1, 2, 6, 50, 1000)))
            else:
                j = ch.below(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
            return value[:0].join(lines)
    if op == "number":
        spans = [m.span() for m in (_DIGITS if is_text else _DIGITS_B).finditer(value)]
        if spans:
            a, b = ch.choice(spans)
            return value[:a] + _as_type(value, ch.choice(NUMBER_TOKENS)) + value[b:]
    if op == "field":
        spans = [m.span() for m in (_FIELD if is_text else _FIELD_B).finditer(value)]
        if spans:
            a, b = ch.choice(spans)
            return value[:a] + _as_type(value, ch.choice(TEXT_TOKENS)) + value[b:]
    if op == "repeat" and n:
        i = min(pos, n - 1)
        piece = value[i:i + 1 + ch.below(min(8, n - i))]
        return value[:i] + piece * ch.choice((2, 10, 1000)) + value[i:]
    if op == "case" and n:
        i = min(pos, n - 1)
        return value[:i] + value[i:i + 1 + ch.below(20)].swapcase() + value[i + 21:]
    token = ch.choice(TEXT_TOKENS) if is_text else ch.choice(BYTE_TOKENS)
    return value[:pos] + token + value[pos:]


# ---------------------------------------------------------------- KWG, KLV
TILE = {c: i + 1 for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZ")}
A, B, C = TILE["A"], TILE["B"], TILE["C"]


def node(tile: int, arc: int = 0, accepts: bool = False, end: bool = False) -> int:
    """One KWG node: tile in bits 24-31, accepts bit 23, is_end bit 22, arc 0-21."""
    return (tile & 0xFF) << 24 | int(accepts) << 23 | int(end) << 22 | (arc & 0x3FFFFF)


def kwg_bytes(nodes: list[int]) -> bytes:
    return struct.pack(f"<{len(nodes)}I", *(n & 0xFFFFFFFF for n in nodes))


def klv_bytes(nodes: list[int], values: list[float], *, klv2: bool = True,
              n: int | None = None, m: int | None = None) -> bytes:
    """A KLV2 (float32 values) or KLV (int16 / 256) file; ``n`` and ``m``
    override the counts written in the header."""
    body = (struct.pack(f"<{len(values)}f", *values) if klv2 else
            struct.pack(f"<{len(values)}h", *(max(-32768, min(32767, int(v * 256)))
                                              for v in values)))
    return (struct.pack("<I", len(nodes) if n is None else n) + kwg_bytes(nodes)
            + struct.pack("<I", len(values) if m is None else m) + body)


def _chain(length: int, start: int, last_accepts: bool = True) -> list[int]:
    """A run-of-one chain of ``length`` nodes from index ``start`` (A, B, C, ...)."""
    out = []
    for i in range(length):
        last = i == length - 1
        out.append(node(1 + i % 26, 0 if last else start + i + 1,
                        accepts=last and last_accepts, end=True))
    return out


def exponential_graph(levels: int, width: int = 26, gaddag: bool = False) -> list[int]:
    """``levels`` runs of ``width`` siblings, each pointing at the next run:
    width**levels words in about levels*width nodes."""
    first = 2 if gaddag else 1
    nodes = [node(0, first, end=True)]
    if gaddag:
        nodes.append(node(0, first, end=True))  # the GADDAG root: the same graph
    for level in range(levels):
        start = first + level * width
        nxt = start + width if level < levels - 1 else 0
        for t in range(width):
            nodes.append(node(1 + t, nxt, accepts=level == levels - 1, end=t == width - 1))
    return nodes


def _valid_nodes(words: tuple[str, ...] = ("AB", "BA", "CAB"), gaddag: bool = True) -> list[int]:
    from rackety import Lexicon

    lexicon = Lexicon.from_words(list(words), gaddag=gaddag)
    return [int(x) for x in lexicon.nodes]


@functools.cache
def hostile_kwgs() -> dict[str, bytes]:
    """KWG files made to break a reader: cycles, arcs past the end, paths longer
    than 21 tiles, one-tile words, misplaced separators, bad sizes, exponential
    graphs (name -> bytes)."""
    out: dict[str, list[int] | bytes] = {}
    root = node(0, 1, end=True)
    out["two-letter-cycle"] = [root, node(A, 1), node(B, accepts=True, end=True)]
    out["self-loop"] = [root, node(A, 2, end=True), node(B, 2, accepts=True, end=True)]
    cycle = [root] + [node(1 + i % 26, i + 2, end=True) for i in range(39)]
    cycle.append(node(B, 1, accepts=True, end=True))
    out["long-cycle-40"] = cycle
    out["arc-past-end"] = [root, node(A, 1000, end=True), node(B, accepts=True, end=True)]
    out["arc-one-past-end"] = [root, node(A, 3, end=True), node(B, accepts=True, end=True)]
    out["arc-max"] = [root, node(A, 0x3FFFFF, end=True)]
    out["root-arc-past-end"] = [node(0, 50, end=True), node(A, accepts=True, end=True)]
    out["chain-22-tiles"] = [root, *_chain(22, 1)]
    out["chain-21-tiles-valid"] = [root, *_chain(21, 1)]
    out["chain-100000-tiles"] = [root, *_chain(100_000, 1)]
    out["one-letter-word"] = [root, node(A, 2, accepts=True, end=True),
                              node(B, accepts=True, end=True)]
    out["separator-in-dawg"] = [root, node(A, 2, end=True), node(0, 3, end=True),
                                node(B, accepts=True, end=True)]
    out["dawg-arc-into-gaddag-pseudo"] = [node(0, 2, end=True), node(0, 4, end=True),
                                          node(A, 1, end=True), node(B, accepts=True, end=True),
                                          node(B, 5, end=True), node(A, accepts=True, end=True)]
    # a GADDAG for AB: root run [A -> [^ -> [B*]], B -> [A*]]
    dawg_ab = [node(A, 3, end=True), node(B, accepts=True, end=True)]  # nodes 2, 3

    def gaddag(run: list[int]) -> list[int]:
        return [node(0, 2, end=True), node(0, 4, end=True), *dawg_ab, *run]

    out["gaddag-separator-first"] = gaddag([node(0, 6), node(A, 7, end=True),
                                            node(B, accepts=True, end=True),
                                            node(B, accepts=True, end=True)])
    out["gaddag-separator-twice"] = gaddag([node(A, 5, end=True), node(0, 6, end=True),
                                            node(0, 7, end=True), node(B, accepts=True, end=True)])
    out["gaddag-ends-with-separator"] = gaddag([node(A, 5, end=True),
                                                node(0, accepts=True, end=True)])
    out["gaddag-cycle"] = gaddag([node(A, 4, end=True)])
    out["gaddag-arc-past-end"] = gaddag([node(A, 99, end=True)])
    out["gaddag-chain-30"] = gaddag(_chain(30, 4))
    out["gaddag-root-zero"] = [node(0, 2, end=True), node(0, 0, end=True), *dawg_ab]
    out["size-not-multiple-of-4-plus1"] = kwg_bytes(_valid_nodes()) + b"\x00"
    out["size-not-multiple-of-4-plus3"] = kwg_bytes(_valid_nodes()) + b"\x00\x00\x00"
    out["size-2-bytes"] = b"\x00\x00"
    out["empty"] = b""
    out["exponential-21x26"] = exponential_graph(21)
    out["exponential-21x26-gaddag"] = exponential_graph(21, gaddag=True)
    out["exponential-6x26"] = exponential_graph(6)
    out["exponential-64x2"] = exponential_graph(64, 2)
    out["node0-not-a-root"] = [node(A, 1, end=True), node(B, accepts=True, end=True)]
    out["node0-arc-zero"] = [node(0, 0, end=True), node(A, accepts=True, end=True)]
    out["node0-not-end"] = [node(0, 1), node(A, 2, end=True), node(B, accepts=True, end=True)]
    out["only-node0"] = [node(0, 0, end=True)]
    out["unordered-siblings"] = [root, node(B, 3), node(A, 3, end=True),
                                 node(C, accepts=True, end=True)]
    out["repeated-sibling"] = [root, node(A, 3), node(A, 3, end=True),
                               node(C, accepts=True, end=True)]
    out["last-node-not-end"] = [root, node(A, 2, end=True), node(B, accepts=True)]
    out["tile-27"] = [root, node(A, 2, end=True), node(27, accepts=True, end=True)]
    out["tile-255"] = [root, node(A, 2, end=True), node(255, accepts=True, end=True)]
    out["dead-end"] = [root, node(A, 2), node(B, end=True), node(C, accepts=True, end=True)]
    out["all-ones"] = b"\xff" * 64
    out["text-file"] = b"AB\nBA\nCAB\n"
    return {k: v if isinstance(v, bytes) else kwg_bytes(v) for k, v in out.items()}


def stress_kwgs() -> dict[str, bytes]:
    """KWG files a reader accepts by design that make using them costly: 532
    bytes, 23,762,752 words (26**5 * 2, under the 2**25 limit). For the long
    fuzz only, not the corpus: listing the words takes seconds and gigabytes."""
    nodes = exponential_graph(5)
    last = 1 + 4 * 26  # the fifth run: each of its nodes now leads to two more tiles
    for i in range(last, last + 26):
        nodes[i] = (nodes[i] & ~0x3FFFFF & ~(1 << 23)) | len(nodes)
    nodes += [node(A, accepts=True), node(B, accepts=True, end=True)]
    return {"exponential-5x26-then-2": kwg_bytes(nodes)}


def _klv_seed_parts() -> tuple[list[int], list[float]]:
    from rackety import Alphabet
    from rackety.lexicon.klv import Klv

    klv = Klv.from_values(Alphabet.load("english"),
                          {"?": 25.5, "S": 8.0, "?S": 30.25, "Q": -7.0, "QU": -1.0, "AEI": -2.5})
    return [int(x) for x in klv.nodes], [float(v) for v in klv.values]


@functools.cache
def hostile_klvs() -> dict[str, bytes]:
    """KLV/KLV2 files made to break a reader (name -> bytes)."""
    nodes, values = _klv_seed_parts()
    root = node(0, 1, end=True)
    out = {
        "n-huge": klv_bytes(nodes, values, n=0xFFFFFFFF),
        "n-zero": klv_bytes(nodes, values, n=0),
        "n-one-too-many": klv_bytes(nodes, values, n=len(nodes) + 1),
        "m-huge": klv_bytes(nodes, values, m=0xFFFFFFFF),
        "m-one-more": klv_bytes(nodes, values, m=len(values) + 1),
        "m-one-less": klv_bytes(nodes, values, m=len(values) - 1),
        "m-zero-values-follow": klv_bytes(nodes, values, m=0),
        "values-truncated": klv_bytes(nodes, values)[:-3],
        "nan-value": klv_bytes(nodes, [float("nan"), *values[1:]]),
        "inf-value": klv_bytes(nodes, [*values[:-1], float("inf")]),
        "minus-inf-value": klv_bytes(nodes, [float("-inf"), *values[1:]]),
        "huge-float": klv_bytes(nodes, [3.4e38, *values[1:]]),
        "klv-int16": klv_bytes(nodes, values, klv2=False),
        "klv-int16-m-mismatch": klv_bytes(nodes, values, klv2=False, m=len(values) + 3),
        "cycle-in-leave-graph": klv_bytes([root, node(A, 1), node(B, accepts=True, end=True)],
                                          [1.0, 2.0]),
        "self-loop-leave-graph": klv_bytes([root, node(A, 1, accepts=True, end=True)], [1.0]),
        "arc-past-end-leave-graph": klv_bytes([root, node(A, 77, accepts=True, end=True)], [1.0]),
        "chain-30-leave-graph": klv_bytes([root, *_chain(30, 1)], [1.0]),
        "exponential-leave-graph": klv_bytes(exponential_graph(21), [1.0]),
        "tile-64-leave-graph": klv_bytes([root, node(64, accepts=True, end=True)], [1.0]),
        "blank-leaves": klv_bytes([root, node(0, 2, accepts=True, end=True),
                                   node(0, accepts=True, end=True)], [25.0, 40.0]),
        "only-root": klv_bytes([node(0, 0, end=True)], []),
        "root-not-end": klv_bytes([node(0, 1), node(A, accepts=True, end=True)], [1.0]),
        "header-only": struct.pack("<II", 0, 0),
        "four-bytes": b"\x01\x00\x00\x00",
        "empty": b"",
        "kwg-not-klv": kwg_bytes(_valid_nodes()),
    }
    return out


def random_graph(ch: RandomChooser) -> bytes:
    """A small random KWG (most are broken somewhere)."""
    n = 1 + ch.below(24)
    gaddag = n > 2 and ch.chance(40)
    nodes = [node(0, ch.choice((1, 2, ch.below(n + 2))), end=ch.chance(95))]
    if gaddag:
        nodes.append(node(0, ch.below(n + 2), end=True))
    while len(nodes) < n:
        tile = ch.choice((0, 1, 2, 3, 4, 5, 19, 26, 27, 63, 255, 1 + ch.below(26)))
        arc = ch.choice((0, 0, ch.below(n + 1), len(nodes) + 1, len(nodes), n, n + 1, 0x3FFFFF))
        nodes.append(node(tile, arc, accepts=ch.chance(40), end=ch.chance(60)))
    data = kwg_bytes(nodes)
    if ch.chance(3):
        data += b"\x00" * (1 + ch.below(3))
    return data


def mutate_nodes(data: bytes, ch: RandomChooser, others: Any = ()) -> bytes:
    """A KWG's bytes with a few nodes changed (arcs, flags, tiles, order), or
    byte-level mutations when the size is not whole nodes."""
    if not data or len(data) % 4 or ch.chance(15):
        return mutate(data, ch, others)
    nodes = list(struct.unpack(f"<{len(data) // 4}I", data))
    for _ in range(1 + ch.below(3)):
        n = len(nodes)
        i = ch.below(n)
        v = nodes[i]
        op = ch.below(9)
        if op == 0:
            arc = ch.choice((0, 1, 2, i, i + 1, n - 1, n, n + 1, 0x3FFFFF, ch.below(n + 2)))
            v = (v & ~0x3FFFFF) | (arc & 0x3FFFFF)
        elif op == 1:
            v ^= 1 << 22
        elif op == 2:
            v ^= 1 << 23
        elif op == 3:
            tile = ch.choice((0, 1, 26, 27, 63, 64, 255, ((v >> 24) + 1) & 0xFF,
                              ((v >> 24) - 1) & 0xFF))
            v = (v & 0x00FFFFFF) | tile << 24
        elif op == 4 and n > 1:
            j = ch.below(n)
            nodes[j], v = v, nodes[j]
        elif op == 5:
            nodes.insert(i, v)
        elif op == 6 and n > 1:
            del nodes[i]
            continue
        elif op == 7:
            nodes.append(node(ch.below(28), ch.below(n + 2), ch.chance(50), ch.chance(50)))
        else:
            v ^= 1 << ch.below(32)
        if i < len(nodes):
            nodes[i] = v & 0xFFFFFFFF
    return kwg_bytes(nodes)


def mutate_klv(data: bytes, ch: RandomChooser, others: Any = ()) -> bytes:
    """A KLV's bytes with its header counts, its graph or its values changed."""
    if len(data) < 8 or ch.chance(20):
        return mutate(data, ch, others)
    n = struct.unpack_from("<I", data)[0]
    if 4 + 4 * n + 4 > len(data):
        return mutate(data, ch, others)
    graph = data[4:4 + 4 * n]
    m = struct.unpack_from("<I", data, 4 + 4 * n)[0]
    values = data[8 + 4 * n:]
    op = ch.below(4)
    if op == 0:
        n = ch.choice((0, 1, n - 1, n + 1, 0xFFFFFFFF, 1 << 22, ch.below(n + 3)))
    elif op == 1:
        m = ch.choice((0, m - 1, m + 1, 2 * m, m // 2, 0xFFFFFFFF, 1 << 26)) & 0xFFFFFFFF
    elif op == 2:
        graph = mutate_nodes(graph, ch)
    elif len(values) >= 4:
        i = 4 * ch.below(len(values) // 4)
        special = ch.choice((float("nan"), float("inf"), -float("inf"), 3.4e38, -0.0))
        values = values[:i] + struct.pack("<f", special) + values[i + 4:]
    return struct.pack("<I", n & 0xFFFFFFFF) + graph + struct.pack("<I", m) + values


def _alphabet_data(name: str) -> dict[str, Any]:
    return json.loads((ROOT / "src" / "rackety" / "data" / "alphabets" / f"{name}.json")
                      .read_text(encoding="utf-8"))


def mutate_alphabet(ch: RandomChooser) -> str:
    """An alphabet file's text: a built-in one with a field or a tile changed,
    or its text mutated."""
    data = _alphabet_data(ch.choice(("english", "catalan", "spanish", "polish")))
    if ch.chance(30):
        return mutate(json.dumps(data, ensure_ascii=False), ch)
    values = (None, True, -1, 0, 1, 21, 22, 1000, 1001, 2**63, 1e308, "", "?", "A", "a",
              "[", "]", "L·L", "A" * 1000, "\x00", "\ud800", "é", [], {}, {"A": "B"},
              {"AB": "C"}, {"": "A"}, {"A": ""}, {"A": "A" * 100})
    op = ch.below(4)
    if op == 0:
        key = ch.choice(("name", "board", "rack_size", "bingo_bonus", "exchange_min_bag",
                         "aliases", "fold", "tiles", "description"))
        data[key] = ch.choice(values)
    elif op == 1:
        tile = ch.choice(data["tiles"])
        tile[ch.choice(("label", "blank_label", "count", "points", "vowel"))] = \
            ch.choice(values)
    elif op == 2:
        tiles = data["tiles"]
        if ch.chance(50):
            tiles.append(dict(ch.choice(tiles)))
        elif len(tiles) > 2:
            del tiles[1 + ch.below(len(tiles) - 1)]
    else:
        data["tiles"] = [data["tiles"][0]] + [
            {"label": chr(0x4E00 + i), "blank_label": chr(0x5E00 + i), "count": 1000,
             "points": 1000, "vowel": i % 2 == 0} for i in range(1, 1 + ch.choice((1, 62, 63)))]
    return json.dumps(data, ensure_ascii=False)


# --------------------------------------------------------------------- seeds
@functools.cache
def cgp_seeds() -> tuple[str, ...]:
    lines = (ROOT / "bench" / "data" / "midgame400_twl06.cgp").read_text().splitlines()
    picked = [line for line in lines[::10] if line.strip()]
    return (OPENING, HALTED_CGP, SUPER_CGP, CATALAN_CGP, f"{EMPTY} / 0 0",
            f"{EMPTY} ?/ 0/0 0 bb 50; lex TWL06;", f"{EMPTY} A/B/C/D 1/2/3/4 5", *picked)


@functools.cache
def gcg_seeds(shared: bool = False) -> tuple[bytes, ...]:
    """GCG records: the repository's (``tests/data/gcg``), the game above, and
    with ``shared`` the records of ``../shared/corpus/gcg``."""
    paths = sorted((HERE / "data" / "gcg").glob("*.gcg"))
    if shared and SHARED_GCG.is_dir():
        paths += sorted(SHARED_GCG.glob("*.gcg"))
    return (GAME_GCG.encode(), *(p.read_bytes() for p in paths))


@functools.cache
def kwg_seeds() -> tuple[bytes, ...]:
    words = tuple(SMALL_WORDS)
    return (kwg_bytes(_valid_nodes(words)), kwg_bytes(_valid_nodes(words, gaddag=False)),
            kwg_bytes(_valid_nodes(("AB", "BA"))), kwg_bytes(_valid_nodes(("AB",), False)),
            kwg_bytes(_valid_nodes(("QI", "ZA", "ZAS", "QIS", "AZAN"))))


@functools.cache
def klv_seeds() -> tuple[bytes, ...]:
    nodes, values = _klv_seed_parts()
    return (klv_bytes(nodes, values), klv_bytes(nodes, values, klv2=False))


@functools.cache
def words_seeds() -> tuple[bytes, ...]:
    text = "\n".join(SMALL_WORDS) + "\n"
    return (text.encode(), text.replace("\n", "\r\n").encode(), b"\xef\xbb\xbf" + text.encode(),
            text.lower().encode(), b"AB\nBA\nCAB\n", b"QI\n\nZA\n  \nAZAN\n")


MOVE_SEEDS = ("8D HALTED", "D8 .OWS", "H5 GOX.", "8H PANDY", "N6 OV(E)RLADE", "E3 JAVE..N",
              "exch ABC", "-ABC", "pass", "-", "(exch ABC)", "(pass)", "8D CA[NY]OT", "8D hALTED",
              "D8 (O)WS", "9I OX", "8D.HALTED", "11A PIT.", "E8 .GONE", "H8 A", "8H AB",
              "exchange ??", "--", "K5 lYD(D)ITE",
              # tiles of several letters: brackets, Spanish digits, Catalan as spelled,
              # blanks standing for one, and labels that are not one
              "8D [CH]ICO", "8D 1ICO", "8H [ch]E", "8H 2AMA", "H8 PE[rr]O", "8D CO[L·L]A",
              "8D COL·LA", "8D COŀLA", "8D [l·l]A", "8H ANy", "8H QUE", "exch [CH]2",
              "exch [ch]", "8D [CH", "8D [C H]", "8D []", "8D [[CH]]", "8D [NY]]",
              "8D C[H]ICO")


@functools.cache
def move_seeds() -> tuple[dict[str, str], ...]:
    """Move strings, alone (read on every board of `move_boards`) or with the
    position of a replayed record they were played on."""
    from rackety.game.gcg import read_gcg, replay

    out = [{"move": m} for m in MOVE_SEEDS]
    for data in gcg_seeds()[:3]:
        with contextlib.suppress(Exception):
            game = replay(read_gcg(data))
            for board, move in zip(game.positions, game.moves):
                if move is not None:
                    for style in ("parens", "dots"):
                        out.append({"move": board.notation(move, through=style),
                                    "cgp": board.cgp()})
    return tuple(out)


def _http_seeds() -> tuple[dict[str, Any], ...]:
    gcg = GAME_GCG
    return (
        {"method": "GET", "url": "/api/health"},
        {"method": "GET", "url": "/api/options"},
        {"method": "GET", "url": "/api/games?limit=5&offset=0"},
        {"method": "GET", "url": "/api/players"},
        {"method": "GET", "url": "/api/rankings"},
        {"method": "GET", "url": "/api/games/{game}"},
        {"method": "GET", "url": "/api/games/{game}/hint?top=3"},
        {"method": "GET", "url": "/api/games/{game}/gcg"},
        {"method": "POST", "url": "/api/analyze",
         "json": {"cgp": OPENING, "lexicon": "TWL06", "top": 3, "leave": "h3", "detail": True}},
        {"method": "POST", "url": "/api/analyze", "json": {"cgp": HALTED_CGP, "top": 2}},
        {"method": "POST", "url": "/api/simulate",
         "json": {"cgp": OPENING, "candidates": 2, "seconds": 0.05, "plies": 1}},
        {"method": "POST", "url": "/api/position", "json": {"cgp": HALTED_CGP}},
        {"method": "POST", "url": "/api/position", "json": {"cgp": OPENING, "lexicon": "TWL06"}},
        {"method": "POST", "url": "/api/position/edit",
         "json": {"cgp": HALTED_CGP, "lexicon": "TWL06", "racks": ["EIO?", ""],
                  "tiles": [{"row": 7, "col": 7, "letter": "S", "blank": True}],
                  "scores": [10, -3]}},
        {"method": "POST", "url": "/api/position/edit", "json": {}},
        {"method": "POST", "url": "/api/infer",
         "json": {"cgp": HALTED_CGP, "move": "7C WOP", "margin": 2.5, "top": 5}},
        {"method": "POST", "url": "/api/infer",
         "json": {"cgp": HALTED_CGP.replace("EIOPRSW/", "EIO/"), "move": "7C WOP"}},
        {"method": "POST", "url": "/api/gcg/analyze",
         "json": {"gcg": gcg, "lexicon": "TWL06", "leave": "none"}},
        {"method": "POST", "url": "/api/games",
         "json": {"opponents": [{"level": "greedy"}], "seed": 7, "lexicon": "TWL06"}},
        {"method": "POST", "url": "/api/gcg/import", "json": {"gcg": gcg}},
        {"method": "POST", "url": "/api/analyze", "json": {"cgp": SPANISH_CGP, "top": 2}},
        {"method": "POST", "url": "/api/games/{game}/play",
         "json": {"tiles": [{"row": 7, "col": 7, "letter": "CH", "blank": True}]}},
        {"method": "POST", "url": "/api/games/{game}/play", "json": {"move": "8H [ch]E"}},
        {"method": "POST", "url": "/api/games/{game}/exchange", "json": {"tiles": "[CH]1?"}},
        {"method": "POST", "url": "/api/gcg/import",
         "json": {"gcg": gcg, "play_as": "ann", "opponents": [{"level": "greedy"}],
                  "challenge": "void"}},
        {"method": "POST", "url": "/api/games/{game}/play", "json": {"move": "8D HALTED"}},
        {"method": "POST", "url": "/api/games/{game}/play",
         "json": {"tiles": [{"row": 7, "col": 7, "letter": "A"},
                            {"row": 7, "col": 8, "letter": "T", "blank": True}]}},
        {"method": "POST", "url": "/api/games/{game}/exchange", "json": {"tiles": "AB"}},
        {"method": "POST", "url": "/api/games/{game}/pass"},
        {"method": "POST", "url": "/api/games/{game}/challenge"},
        {"method": "POST", "url": "/api/games/{game}/undo"},
        {"method": "POST", "url": "/api/games/{record}/pass"},
        {"method": "GET", "url": "/api/study?player=ann"},
        {"method": "GET", "url": "/api/study/next?player=ann&new=3"},
        {"method": "POST", "url": "/api/study/answer",
         "json": {"player": "ann", "item": 1, "reply": "QI ZA", "seconds": 2.5}},
        {"method": "GET", "url": "/api/puzzles/next?player=ann&tag=BINGO"},
        {"method": "POST", "url": "/api/puzzles/answer",
         "json": {"player": "ann", "puzzle": 1, "reply": "8D HALTED", "seconds": 9.5}},
    )


HTTP_SEEDS = _http_seeds()

CLI_SEEDS: tuple[dict[str, Any], ...] = (
    {"argv": ["words", "anagram", "AEINST?", "--lexicon", "{tmp}/list.txt"],
     "files": {"list.txt": "\n".join(SMALL_WORDS)}},
    {"argv": ["words", "pattern", "A*", "--lexicon", "{tmp}/list.txt", "--json"],
     "files": {"list.txt": "\n".join(SMALL_WORDS)}},
    {"argv": ["words", "check", "--lexicon", "{tmp}/list.txt", "QI", "QX"],
     "files": {"list.txt": "\n".join(SMALL_WORDS)}},
    {"argv": ["words", "hooks", "AB", "--lexicon", "{tmp}/list.txt"],
     "files": {"list.txt": "\n".join(SMALL_WORDS)}},
    {"argv": ["words", "list", "--lexicon", "{tmp}/list.txt"],
     "files": {"list.txt": "\n".join(SMALL_WORDS)}},
    {"argv": ["words", "alphagrams", "--length", "3", "--ranks", "1-5", "--lexicon",
              "{tmp}/list.txt", "--json"], "files": {"list.txt": "\n".join(SMALL_WORDS)}},
    {"argv": ["quiz", "anagrams", "--length", "3", "--lexicon", "{tmp}/list.txt"],
     "files": {"list.txt": "\n".join(SMALL_WORDS)}, "stdin": "CAT ACT\n\nqi\n"},
    {"argv": ["quiz", "judge", "--length", "2", "--count", "3", "--lexicon", "{tmp}/list.txt"],
     "files": {"list.txt": "\n".join(SMALL_WORDS)}, "stdin": "y\nn\nmaybe\n"},
    {"argv": ["study", "add", "--db", "{tmp}/deck.sqlite", "--player", "ann", "--length", "3",
              "--lexicon", "{tmp}/list.txt"], "files": {"list.txt": "\n".join(SMALL_WORDS)}},
    {"argv": ["study", "review", "--db", "{tmp}/deck.sqlite", "--player", "ann", "--new", "2"],
     "stdin": "CAT\n\n"},
    {"argv": ["study", "stats", "--db", "{tmp}/deck.sqlite", "--player", "ann", "--json"]},
    {"argv": ["puzzles", "make", "{tmp}/game.gcg", "-o", "{tmp}/p.jsonl"],
     "files": {"game.gcg": GAME_GCG}},
    {"argv": ["puzzles", "solve", "{tmp}/p.jsonl", "--no-color"],
     "files": {"p.jsonl": "{}\n"}, "stdin": "8D QI\n"},
    {"argv": ["quiz", "hooks", "--file", "{tmp}/mine.txt", "--lexicon", "{tmp}/list.txt"],
     "files": {"list.txt": "\n".join(SMALL_WORDS), "mine.txt": "AB\nQI\n"},
     "stdin": "ABA CAB\n"},
    {"argv": ["words", "suggest", "SATNE", "--lexicon", "{tmp}/list.txt", "--distance", "1"],
     "files": {"list.txt": "\n".join(SMALL_WORDS)}},
    {"argv": ["words", "decode", "ABCA", "XQZZX", "--lexicon", "{tmp}/list.txt", "--limit",
              "5"], "files": {"list.txt": "\n".join(SMALL_WORDS)}},
    {"argv": ["words", "acrostic", "A stitch in time saves nine.", "--length", "3", "--first",
              "T", "--used", "SIT", "--lexicon", "{tmp}/list.txt", "--json"],
     "files": {"list.txt": "\n".join(SMALL_WORDS)}},
    {"argv": ["lexicon", "build", "{tmp}/list.txt", "-o", "{tmp}/out.kwg"],
     "files": {"list.txt": "\n".join(SMALL_WORDS)}},
    {"argv": ["lexicon", "info", "{tmp}/list.txt", "--json"],
     "files": {"list.txt": "\n".join(SMALL_WORDS)}},
    {"argv": ["moves", "--cgp", OPENING, "--top", "3", "--lexicon", "{tmp}/list.txt"],
     "files": {"list.txt": "\n".join(SMALL_WORDS)}},
    {"argv": ["moves", "--cgp", HALTED_CGP, "--top", "3", "--json"]},
    {"argv": ["moves", "--cgp", OPENING, "--count-only"]},
    {"argv": ["moves", "--cgp", OPENING, "--top", "2", "--leaves", "h3"]},
    {"argv": ["moves", "--cgp-file", "-", "--json", "--top", "1"], "stdin": OPENING + "\n"},
    {"argv": ["show", "--cgp", HALTED_CGP, "--no-color", "--svg", "{tmp}/board.svg"]},
    {"argv": ["gcg", "show", "{tmp}/game.gcg", "--turn", "3", "--cgp"],
     "files": {"game.gcg": GAME_GCG}},
    {"argv": ["gcg", "check", "{tmp}/game.gcg"], "files": {"game.gcg": GAME_GCG}},
    {"argv": ["analyze", "{tmp}/game.gcg", "--jobs", "1", "--csv", "{tmp}/out.csv"],
     "files": {"game.gcg": GAME_GCG}},
    {"argv": ["analyze", "{tmp}/game.gcg", "--jobs", "1", "--html", "{tmp}/out.html"],
     "files": {"game.gcg": GAME_GCG}},
    {"argv": ["autoplay", "--players", "greedy,h3", "--games", "2", "--jobs", "1",
              "--gcg-dir", "{tmp}/games"]},
    {"argv": ["sim", "--cgp", OPENING, "--iterations", "8", "--candidates", "2", "--plies",
              "1", "--jobs", "1"]},
    {"argv": ["sim", "--cgp", OPENING, "--iterations", "8", "--candidates", "2", "--plies",
              "1", "--jobs", "1", "--no-drop", "--json"]},
    {"argv": ["alphabets", "--json"]},
)


# ------------------------------------------------------------ hostile inputs
def _cgp(rack: str = "AEINST?", scores: str = "0/0", zero: str = "0", ops: str = "",
         board: str = EMPTY) -> str:
    racks = rack if "/" in rack else f"{rack}/"
    return f"{board} {racks} {scores} {zero}" + (f" {ops}" if ops else "")


def _row_board(row: str, index: int = 0) -> str:
    rows = ["15"] * 15
    rows[index] = row
    return "/".join(rows)


@functools.cache
def hostile_cgps() -> tuple[tuple[str, str, str | None], ...]:
    """(name, CGP, expectation): numbers of thousands of digits, beyond int64,
    non-ASCII digits (which must be refused: they are not numbers), names too
    long for a file system, paths as operands."""
    big = "9" * 5000
    refused = "refused"
    return (
        ("square-run-5000-digits", _cgp(board=_row_board(big)), refused),
        ("square-run-beyond-int64", _cgp(board=_row_board("18446744073709551616")), refused),
        ("square-run-arabic-indic-digit", _cgp(board=_row_board("1٣")), refused),
        ("square-run-fullwidth-digits", _cgp(board=_row_board("１５")), refused),
        ("square-run-superscript", _cgp(board=_row_board("1²")), refused),
        ("square-run-zero", _cgp(board=_row_board("0ABCDEFGHIJKLMN")), refused),
        ("score-5000-digits", _cgp(scores=f"{big}/0"), refused),
        ("score-beyond-int64", _cgp(scores="18446744073709551616/0"), refused),
        ("score-below-int64", _cgp(scores="-9223372036854775809/0"), refused),
        ("score-arabic-indic-digit", _cgp(scores="176٣/0"), refused),
        ("score-superscript", _cgp(scores="²/0"), refused),
        ("score-fullwidth", _cgp(scores="１０/0"), refused),
        ("zero-turns-5000-digits", _cgp(zero=big), refused),
        ("zero-turns-arabic-indic", _cgp(zero="٣"), refused),
        ("zero-turns-beyond-int64", _cgp(zero="18446744073709551616"), refused),
        ("bb-5000-digits", _cgp(ops=f"bb {big};"), refused),
        ("bb-beyond-int64", _cgp(ops="bb 18446744073709551616;"), refused),
        ("bb-negative", _cgp(ops="bb -5;"), refused),
        ("bb-arabic-indic", _cgp(ops="bb ٥٠;"), refused),
        ("lex-5000-chars", _cgp(ops="lex " + "x" * 5000 + ";"), None),
        ("ld-5000-chars", _cgp(ops="ld " + "x" * 5000 + ";"), refused),
        ("bdn-5000-chars", _cgp(ops="bdn " + "x" * 5000 + ";"), refused),
        ("ld-etc-passwd", _cgp(ops="ld /etc/passwd;"), refused),
        ("ld-dotdot", _cgp(ops="ld ../x;"), refused),
        ("bdn-dotdot", _cgp(ops="bdn ../x;"), refused),
        ("bdn-etc-passwd", _cgp(ops="bdn /etc/passwd;"), refused),
        ("lex-etc-hostname", _cgp(ops="lex /etc/hostname;"), None),
        ("ops-5000-semicolons", _cgp(ops=";" * 5000), refused),
        ("ops-no-semicolon", _cgp(ops="lex TWL06"), refused),
        ("opcode-twice", _cgp(ops="lex A; lex B;"), refused),
        ("rack-10000-tiles", _cgp(rack="A" * 10000), refused),
        ("rack-lower-case", _cgp(rack="abc"), refused),
        ("racks-five-players", _cgp(rack="A/B/C/D/E", scores="0/0/0/0/0"), None),
        ("racks-17-players", _cgp(rack="/".join("ABCDEFGHIJKLMNOPQ"), scores="/".join(
            ["0"] * 17)), refused),
        ("racks-1000-players", _cgp(rack="/".join(["A"] * 1000), scores="/".join(["0"] * 1000)),
         refused),
        ("lone-unknown-rack", f"{EMPTY}  0 0", None),
        ("one-player-empty-rack", f"{EMPTY} / 0 0", None),
        ("one-player", f"{EMPTY} AB 0 0", None),
        ("too-many-tiles", _cgp(board=_row_board("ZZZ12")), refused),
        ("blank-question-on-board", _cgp(board=_row_board("?14")), refused),
        ("board-5000-rows", _cgp(board="/".join(["15"] * 5000)), refused),
        ("board-row-10000-letters", _cgp(board=_row_board("A" * 10000)), refused),
        ("nul-in-cgp", _cgp(rack="AB\x00C"), refused),
        ("newline-in-cgp", _cgp(ops="lex TWL06;\nbb 5;"), refused),
        ("line-separator-in-cgp", _cgp(ops="lex TW\u2028L06;"), None),
        ("lone-surrogate-rack", _cgp(rack="A\ud800"), refused),
        ("bidi-override-rack", _cgp(rack="\u202eAB"), refused),
        ("multi-letter-unclosed-bracket", _cgp(rack="[CH", ops="ld spanish;"), refused),
        ("empty-string", "", refused),
        ("only-spaces", "     ", refused),
    )


_ENCODINGS = ("base64", "hex", "rot13", "zip", "punycode", "undefined", "bz2", "quopri",
              "uu", "idna", "unicode_escape", "raw_unicode_escape", "base64_codec",
              "zlib_codec", "utf-16", "utf-32", "utf-7", "cp037", "mbcs", "x" * 5000,
              "..\\..\\x", "utf-8\x00")


def _gcg_with(lines: list[str], header: str = "#player1 ann Ann\n#player2 bob Bob\n") -> bytes:
    return (header + "".join(line + "\n" for line in lines)).encode("utf-8", "surrogatepass")


@functools.cache
def hostile_gcgs() -> tuple[tuple[str, bytes, str | None], ...]:
    """(name, GCG bytes, expectation)."""
    big = "9" * 5000
    refused = "refused"
    out: list[tuple[str, bytes, str | None]] = []
    for enc in _ENCODINGS:
        name = enc if len(enc) < 30 else "5000-chars"
        name = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-")
        expect = refused if enc in ("base64", "hex", "rot13", "zip", "punycode", "undefined",
                                    "bz2", "quopri", "uu", "base64_codec", "zlib_codec",
                                    "unicode_escape", "raw_unicode_escape") else None
        out.append((f"encoding-{name}", f"#character-encoding {enc}\n".encode()
                    + GAME_GCG.split("\n", 1)[1].encode(), expect))
    passes = [f">{'ann' if i % 2 == 0 else 'bob'}: ABCDEFG - +0 0" for i in range(24_000)]
    out += [
        ("score-5000-digits", _gcg_with([f">ann: ADEHLRT 8D HALTED +{big} {big}"]), refused),
        ("score-beyond-int64", _gcg_with([">ann: ADEHLRT 8D HALTED +18446744073709551616 28"]),
         refused),
        ("total-5000-digits", _gcg_with([f">ann: ADEHLRT 8D HALTED +28 {big}"]), refused),
        ("total-beyond-int64", _gcg_with([">ann: ADEHLRT 8D HALTED +28 -9223372036854775809"]),
         refused),
        ("score-arabic-indic", _gcg_with([">ann: ADEHLRT 8D HALTED +٢٨ 28"]), refused),
        ("total-fullwidth", _gcg_with([">ann: ADEHLRT 8D HALTED +28 ２８"]), refused),
        ("row-5000-digits", _gcg_with([f">ann: ADEHLRT {big}D HALTED +28 28"]), refused),
        ("row-99999", _gcg_with([">ann: ADEHLRT D99999 HALTED +28 28"]), refused),
        ("row-arabic-indic", _gcg_with([">ann: ADEHLRT ٨D HALTED +28 28"]), refused),
        ("player-number-5000-digits", f"#player{big} ann Ann\n>ann: ADEHLRT 8D HALTED +28 28\n"
         .encode(), refused),
        ("player-number-99999999999", b"#player99999999999 ann Ann\n#player1 bob Bob\n"
         b">ann: ADEHLRT 8D HALTED +28 28\n", refused),
        ("player-number-superscript", "#player² ann Ann\n>ann: ADEHLRT 8D HALTED +28 28\n"
         .encode(), None),
        ("rack-number-5000-digits", _gcg_with([">ann: ADEHLRT 8D HALTED +28 28",
                                               f"#rack{big} ABC"]), None),
        ("passes-24000", _gcg_with(passes), refused),
        ("play-after-six-passes", _gcg_with([*passes[:6], ">ann: ADEHLRT 8D HALTED +28 28"]),
         refused),
        ("rack-100-tiles", _gcg_with([">ann: " + "A" * 100 + " 8D HALTED +28 28"]), refused),
        ("play-off-board", _gcg_with([">ann: ADEHLRT 8M HALTED +28 28"]), refused),
        ("play-row-16", _gcg_with([">ann: ADEHLRT 16A HALTED +28 28"]), refused),
        ("play-row-0", _gcg_with([">ann: ADEHLRT 0A HALTED +28 28"]), refused),
        ("dot-on-empty-square", _gcg_with([">ann: ADEHLRT 8D .ALTED +28 28"]), refused),
        ("word-10000-letters", _gcg_with([">ann: ADEHLRT 8D " + "A" * 10000 + " +28 28"]),
         refused),
        ("twenty-Zs", _gcg_with([">ann: ZZZZZZZ 8D ZZZZZZZ +28 28",
                                 ">bob: ZZZZZZZ D8 .ZZZZZZ +28 28"]), refused),
        ("withdrawn-first", _gcg_with([">ann: ADEHLRT -- -28 0"]), None),
        ("challenge-bonus-first", _gcg_with([">ann: ADEHLRT (challenge) +5 5"]), None),
        ("end-rack-points-first", _gcg_with([">ann:  (ERU) +6 6"]), None),
        ("note-1mb", _gcg_with([">ann: ADEHLRT 8D HALTED +28 28", "#note " + "x" * 1_000_000]),
         None),
        ("line-1mb-no-newline", b">ann: " + b"A" * 1_000_000, refused),
        ("players-1000", ("".join(f"#player{i} p{i} P{i}\n" for i in range(1, 1001))
                          + ">p1: ADEHLRT 8D HALTED +28 28\n").encode(), refused),
        ("nicknames-5000-chars", _gcg_with([">" + "n" * 5000 + ": ADEHLRT 8D HALTED +28 28"]),
         None),
        ("invalid-utf8", b"#player1 \xff\xfe Ann\n>\xff\xfe: ADEHLRT 8D HALTED +28 28\n", None),
        ("utf16-with-bom", GAME_GCG.encode("utf-16"), None),
        ("utf16-without-bom", GAME_GCG.encode("utf-16-le"), None),
        ("nul-bytes", GAME_GCG.replace("HALTED", "HAL\x00TED").encode(), None),
        ("cr-only-line-ends", GAME_GCG.replace("\n", "\r").encode(), None),
        ("bom-in-the-middle", GAME_GCG.replace("#lexicon", "\ufeff#lexicon").encode(), None),
        ("control-characters", GAME_GCG.replace("Ann Able", "A\x1b[2Jnn\x07").encode(), None),
        ("lexicon-osps-english-tiles", GAME_GCG.replace("TWL06", "OSPS44").encode(), None),
        ("lexicon-5000-chars", GAME_GCG.replace("TWL06", "x" * 5000).encode(), None),
        ("lexicon-path", GAME_GCG.replace("TWL06", "/etc/passwd").encode(), None),
        # the board a record names (issue 33, point 5): a built-in name or refused
        *[(f"layout-{name}", GAME_GCG.replace("TWL06\n", "TWL06\n" + "".join(
            f"#note BoardLayout: {n}\n" for n in notes)).encode("utf-8", "surrogatepass"),
           expect) for name, notes, expect in (
            ("unknown", ["Klingon64"], refused),
            ("path", ["/etc/passwd"], refused),
            ("relative-path", ["../../shared/spec/boards.json"], refused),
            ("file-url", ["file:///dev/zero"], refused),
            ("empty", [""], refused),
            ("5000-chars", ["x" * 5000], refused),
            ("nul-and-escape", ["super21\x00\x1b[2J"], refused),
            ("lone-surrogate", ["super\ud80021"], refused),
            ("conflicting", ["super21", "wwf15"], refused),
            ("conflicting-far-apart", ["wwf15", *["CrosswordGame"] * 500, "super21"],
             refused),
            ("duplicated", ["super21", "SuperCrosswordGame", "SUPER21"], None),
            ("wwf15-on-a-standard-game", ["wwf15"], None),
            ("lexulous15-on-a-7-tile-game", ["lexulous15"], None))],
        ("layout-note-after-an-event", GAME_GCG.replace(
            "+28 28\n", "+28 28\n#note BoardLayout: Klingon64\n").encode(), None),
        ("layout-missing-super21-game", _gcg_with([
            ">ann: ADEHLRT 11G HALTED +28 28", ">bob: AEINRST J5 RETAIN.S +70 70",
            ">ann: EIOPRSW 16J SOW +12 40"]), refused),
        ("empty", b"", None),
        ("only-hash", b"#\n", None),
        ("only-gt", b">\n", refused),
    ]
    return tuple(out)


def _alphabet_with(label: str | None = None, count: int | None = None,
                   aliases: dict[str, str] | None = None,
                   fold: dict[str, str] | None = None) -> str:
    data = _alphabet_data("english")
    if label is not None:
        data["tiles"][-1]["label"] = label
    if count is not None:
        for tile in data["tiles"]:
            tile["count"] = count
    if aliases is not None:
        data["aliases"] = aliases
    if fold is not None:
        data["fold"] = fold
    return json.dumps(data, ensure_ascii=False)


def _alphabet_wide(letters: int) -> str:
    data = _alphabet_data("english")
    data["tiles"] = [data["tiles"][0]] + [
        {"label": chr(0x4E00 + i), "blank_label": chr(0x4E00 + i) + "*", "count": 1000,
         "points": 1000, "vowel": i % 2 == 0} for i in range(letters)]
    return json.dumps(data, ensure_ascii=False)


@functools.cache
def hostile_words() -> tuple[tuple[str, dict[str, Any], str | None], ...]:
    """(name, word-list payload, expectation): {"name": file name, "data": bytes}."""
    text = "\n".join(SMALL_WORDS) + "\n"
    refused = "refused"

    def w(name: str, data: bytes, file: str = "list.txt") -> tuple[str, dict[str, Any], str]:
        return name, {"name": file, "data": data}, refused

    return (
        w("nul-fourth-byte-txt", b"AB@\x00CD\nEF\n"),
        w("nul-fourth-byte-kwg-like-txt", b"\x01\x00\x40\x00\x02\x00\xc0\x00"),
        w("nul-fourth-byte-no-suffix", b"AB@\x00CD\nEF\n", "list"),
        w("utf16-le-with-bom", text.encode("utf-16")),
        w("utf16-le-without-bom", text.encode("utf-16-le")),
        w("utf16-be-without-bom", text.encode("utf-16-be")),
        w("utf32", text.encode("utf-32")),
        w("single-line-5mb", b"A" * 5_000_000),
        w("single-line-5mb-letters-and-digits", b"AB1" * 1_700_000),
        w("nul-in-the-middle", text.encode()[:40] + b"\x00" + text.encode()[40:]),
        w("control-characters", b"AB\nC\x07D\nE\x1bF\n"),
        w("lone-surrogate-bytes", b"AB\n\xed\xa0\x80\nCD\n"),
        w("overlong-utf8", b"AB\n\xc0\xaf\nCD\n"),
        w("latin1-bytes", b"AB\nCAF\xc9\n"),
        ("cr-only-line-ends", {"name": "list.txt", "data": text.replace("\n", "\r").encode()},
         None),
        w("word-22-letters", b"AB\n" + b"A" * 22 + b"\n"),
        w("word-one-letter", b"AB\nA\n"),
        w("empty-file", b""),
        w("only-blank-lines", b"\n\n  \n\r\n"),
        w("only-bom", b"\xef\xbb\xbf"),
        w("accented", "AB\nCAFÉ\n".encode()),
        w("emoji", "AB\n\U0001F600\n".encode()),
        w("zero-width-joiner", "AB\nA\u200dB\n".encode()),
        w("digits-arabic-indic", "AB\n٣٣\n".encode()),
        ("word-list-named-kwg", {"name": "list.kwg", "data": text.encode()}, refused),
        ("lines-200000", {"name": "list.txt", "data": b"AB\n" * 200_000}, None),
        ("alphabet-label-1000-chars", {"name": "list.txt", "data": b"AB\nBA\n",
                                       "alphabet_json": _alphabet_with(label="A" * 1000)},
         None),
        ("alphabet-long-label-of-short-ones", {
            "name": "list.txt", "data": b"AB\nBA\n",
            "alphabet_json": _alphabet_with(label="AB" * 50_000)}, None),
        ("alphabet-tile-count-1000", {"name": "list.txt", "data": b"AB\nBA\n",
                                      "alphabet_json": _alphabet_with(count=1000)}, None),
        ("alphabet-63-letters-1000-each", {"name": "list.txt", "data": "一丁\n".encode(),
                                           "alphabet_json": _alphabet_wide(63)}, None),
        ("alphabet-64-letters", {"name": "list.txt", "data": "一丁\n".encode(),
                                 "alphabet_json": _alphabet_wide(64)}, refused),
        ("alphabet-alias-to-nothing", {"name": "list.txt", "data": b"AB\nBA\n",
                                       "alphabet_json": _alphabet_with(aliases={"": "A"})},
         None),
        ("alphabet-fold-to-nothing", {"name": "list.txt", "data": b"AB\nBA\n",
                                      "alphabet_json": _alphabet_with(fold={"A": ""})}, None),
        ("alphabet-fold-key-of-two-letters", {
            "name": "list.txt", "data": b"AB\nBA\n",
            "alphabet_json": _alphabet_with(fold={"AB": "C"})}, refused),
        ("alphabet-label-lone-surrogate", {
            "name": "list.txt", "data": b"AB\nBA\n",
            "alphabet_json": _alphabet_with(label="Z\ud800")}, None),
        ("alphabet-not-json", {"name": "list.txt", "data": b"AB\n",
                               "alphabet_json": "{" * 100_000}, refused),
        ("cache-damaged-arcs-past-end", {"name": "list.txt", "data": text.encode(),
                                         "damage": "arcs-past-end"}, None),
        ("cache-damaged-zeroes", {"name": "list.txt", "data": text.encode(),
                                  "damage": "zeroes"}, None),
        ("cache-damaged-truncated", {"name": "list.txt", "data": text.encode(),
                                     "damage": "truncate"}, None),
        ("cache-damaged-json", {"name": "list.txt", "data": text.encode(),
                                "damage": "json"}, None),
        ("cache-damaged-json-nested", {"name": "list.txt", "data": text.encode(),
                                       "damage": "json-nested"}, None),
    )


@functools.cache
def hostile_moves() -> tuple[tuple[str, dict[str, str], str | None], ...]:
    big = "9" * 5000
    refused = "refused"
    out = [
        ("row-5000-digits", {"move": f"{big}A WORD"}, refused),
        ("row-5000-digits-down", {"move": f"A{big} WORD"}, refused),
        ("row-beyond-int64", {"move": "18446744073709551616A AB"}, refused),
        ("row-arabic-indic", {"move": "٨D HALTED"}, refused),
        ("row-fullwidth", {"move": "８D HALTED"}, refused),
        ("row-superscript", {"move": "²D HALTED"}, refused),
        ("column-non-ascii", {"move": "8É HALTED"}, refused),
        ("word-10000-letters", {"move": "8A " + "A" * 10000}, refused),
        ("exchange-10000-tiles", {"move": "exch " + "A" * 10000}, refused),
        ("dashes-10000", {"move": "-" * 10000}, refused),
        ("unbalanced-open-paren", {"move": "8D HAL(TED"}, refused),
        ("unbalanced-close-paren", {"move": "8D HAL)TED"}, refused),
        ("nested-parens", {"move": "8D H((AL))TED"}, refused),
        ("parens-1000-deep", {"move": "8D " + "(" * 1000 + "A" + ")" * 1000}, refused),
        ("unbalanced-bracket", {"move": "8D HAL[TED"}, refused),
        ("stray-close-bracket", {"move": "8D HAL]TED"}, refused),
        ("empty-brackets", {"move": "8D HA[]LTED"}, refused),
        ("question-mark-in-word", {"move": "8D HAL?ED"}, refused),
        ("nul-in-move", {"move": "8D HAL\x00TED"}, refused),
        ("only-coordinates", {"move": "8D"}, refused),
        ("exchange-nothing", {"move": "exch"}, refused),
        ("withdrawn-marker", {"move": "--"}, refused),
        ("paren-exch-unbalanced", {"move": "(exch ABC"}, refused),
        ("dots-on-empty", {"move": "8D ......."}, refused),
        ("lone-surrogate", {"move": "8D HA\ud800"}, refused),
        ("empty", {"move": ""}, refused),
        ("empty-parens", {"move": "()"}, refused),
        ("parens-around-space", {"move": "( )"}, refused),
        ("player-sim-superscript", {"player": "sim:²"}, refused),
        ("player-sim-beyond-int64", {"player": "sim:99999999999999999999"}, refused),
        ("player-sim-arabic-indic", {"player": "sim:٣"}, refused),
        ("player-sim-zero", {"player": "sim:0"}, refused),
        ("player-leaves-empty", {"player": "leaves:"}, refused),
        ("player-leaves-missing-file", {"player": "leaves:/nonexistent.klv2"}, refused),
        ("player-leaves-directory", {"player": "leaves:/etc"}, refused),
        ("player-leaves-dev-zero", {"player": "leaves:/dev/zero"}, refused),
        ("player-leaves-5000-chars", {"player": "leaves:" + "x" * 5000}, refused),
        ("player-endgame-twice", {"player": "h3+endgame+endgame"}, refused),
        ("player-human-endgame", {"player": "human+endgame"}, refused),
        ("player-only-endgame", {"player": "+endgame"}, refused),
        ("player-unknown-5000-chars", {"player": "x" * 5000}, refused),
        ("player-empty", {"player": ""}, refused),
    ]
    return tuple(out)


def _nested(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = [value]
    return value


@functools.cache
def hostile_http() -> tuple[tuple[str, dict[str, Any], str | None], ...]:
    refused = "refused"
    big = "9" * 5000
    passes = "".join(f">{'ann' if i % 2 == 0 else 'bob'}: ABCDEFG - +0 0\n" for i in range(24_000))
    passes_gcg = "#player1 ann Ann\n#player2 bob Bob\n" + passes
    after_end = ("#player1 ann Ann\n#player2 bob Bob\n"
                 + "".join(f">{'ann' if i % 2 == 0 else 'bob'}: ABCDEFG - +0 0\n"
                           for i in range(6)) + ">ann: ADEHLRT 8D HALTED +28 28\n")
    alphabet_json = str(ROOT / "src" / "rackety" / "data" / "alphabets" / "english.json")

    def analyze(cgp: str) -> dict[str, Any]:
        return {"method": "POST", "url": "/api/analyze", "json": {"cgp": cgp, "top": 2}}

    def post(url: str, body: Any) -> dict[str, Any]:
        return {"method": "POST", "url": url, "json": body}

    out: list[tuple[str, dict[str, Any], str | None]] = [
        ("ld-etc-passwd", analyze(_cgp(ops="ld /etc/passwd;")), refused),
        ("ld-existing-json-file", analyze(_cgp(ops=f"ld {alphabet_json};")), refused),
        ("ld-missing-json-file", analyze(_cgp(ops="ld /nonexistent/english.json;")), refused),
        ("lex-etc-hostname", analyze(_cgp(ops="lex /etc/hostname;")), None),
        ("bdn-dotdot", analyze(_cgp(ops="bdn ../x;")), refused),
        ("bdn-etc-passwd", analyze(_cgp(ops="bdn /etc/passwd;")), refused),
        ("position-ld-existing-json-file",
         post("/api/position", {"cgp": _cgp(ops=f"ld {alphabet_json};")}), refused),
        ("position-edit-ld-existing-json-file",
         post("/api/position/edit", {"cgp": _cgp(ops=f"ld {alphabet_json};"), "tiles": []}),
         refused),
        ("simulate-ld-existing-json-file",
         post("/api/simulate", {"cgp": _cgp(ops=f"ld {alphabet_json};"), "seconds": 0.05}),
         refused),
        ("cgp-bb-5000-digits", analyze(_cgp(ops=f"bb {big[:3000]};")), refused),
        ("cgp-score-beyond-int64", analyze(_cgp(scores="18446744073709551616/0")), refused),
        ("cgp-score-arabic-indic", analyze(_cgp(scores="176٣/0")), refused),
        ("cgp-ld-3000-chars", analyze(_cgp(ops="ld " + "x" * 3000 + ";")), refused),
        ("gcg-24000-passes-analyze", post("/api/gcg/analyze", {"gcg": passes_gcg}), refused),
        ("gcg-24000-passes-import", post("/api/gcg/import", {"gcg": passes_gcg}), refused),
        ("gcg-play-after-the-end-analyze", post("/api/gcg/analyze", {"gcg": after_end}),
         refused),
        ("gcg-play-after-the-end-import", post("/api/gcg/import", {"gcg": after_end}), refused),
        ("gcg-encoding-base64", post("/api/gcg/analyze", {
            "gcg": "#character-encoding base64\n" + GAME_GCG.split("\n", 1)[1]}), refused),
        ("gcg-score-5000-digits", post("/api/gcg/import", {
            "gcg": f"#player1 ann Ann\n#player2 bob Bob\n>ann: ADEHLRT 8D HALTED +{big} 28\n"}),
         refused),
        ("gcg-lone-surrogate", post("/api/gcg/import", {"gcg": "#player1 a\ud800 A\n"}), None),
        ("gcg-near-body-limit", post("/api/gcg/analyze", {"gcg": "#" + "x" * 499_990}), None),
        ("body-just-under-limit", {"method": "POST", "url": "/api/analyze",
                                   "content": '{"cgp": "' + "x" * 999_980 + '"}'}, refused),
        ("body-over-limit", {"method": "POST", "url": "/api/analyze",
                             "content": '{"cgp": "' + "x" * 1_000_001 + '"}'}, refused),
        ("json-nested-100000", {"method": "POST", "url": "/api/analyze",
                                "content": "[" * 100_000 + "]" * 100_000}, refused),
        ("json-nested-object-100000", {"method": "POST", "url": "/api/analyze",
                                       "content": '{"a":' * 100_000 + "1" + "}" * 100_000},
         refused),
        ("json-nested-in-field", {"method": "POST", "url": "/api/analyze",
                                  "content": '{"cgp": ' + "[" * 5000 + "]" * 5000 + "}"},
         refused),
        ("json-nested-play-tiles", {"method": "POST", "url": "/api/games/{game}/play",
                                    "content": '{"tiles": ' + "[" * 5000 + "]" * 5000 + "}"},
         refused),
        ("json-invalid-utf8", {"method": "POST", "url": "/api/analyze",
                               "content": b'{"cgp": "\xff\xfe"}'}, refused),
        ("json-nan", {"method": "POST", "url": "/api/simulate",
                      "content": '{"cgp": "' + OPENING + '", "seconds": NaN}'}, refused),
        ("json-infinity", {"method": "POST", "url": "/api/simulate",
                           "content": '{"cgp": "' + OPENING + '", "seconds": Infinity}'},
         refused),
        ("json-huge-integer", {"method": "POST", "url": "/api/analyze",
                               "content": '{"cgp": "' + OPENING + '", "top": ' + big + "}"},
         refused),
        ("json-empty-body", {"method": "POST", "url": "/api/analyze", "content": ""}, refused),
        ("json-array-body", {"method": "POST", "url": "/api/analyze", "content": "[]"}, refused),
        ("cgp-wrong-type-int", post("/api/analyze", {"cgp": 5}), refused),
        ("cgp-wrong-type-list", post("/api/position", {"cgp": ["a"]}), refused),
        ("top-as-string", post("/api/analyze", {"cgp": OPENING, "top": "10"}), None),
        ("top-beyond-int64", post("/api/analyze", {"cgp": OPENING, "top": 2**64}), refused),
        ("top-float", post("/api/analyze", {"cgp": OPENING, "top": 1e308}), refused),
        ("detail-string", post("/api/analyze", {"cgp": OPENING, "detail": "yes"}), None),
        ("leave-path", post("/api/analyze", {"cgp": OPENING, "leave": "leaves:/etc/passwd"}),
         refused),
        ("lexicon-path", post("/api/analyze", {"cgp": OPENING, "lexicon": "/etc/hostname"}),
         refused),
        ("simulate-seconds-zero", post("/api/simulate", {"cgp": OPENING, "seconds": 0}),
         refused),
        ("simulate-seconds-huge", post("/api/simulate", {"cgp": OPENING, "seconds": 1e308}),
         refused),
        ("game-id-zero", {"method": "GET", "url": "/api/games/0"}, refused),
        ("game-id-negative", {"method": "GET", "url": "/api/games/-1"}, refused),
        ("game-id-beyond-int64", {"method": "GET", "url": "/api/games/" + "9" * 30}, refused),
        ("game-id-5000-digits", {"method": "GET", "url": "/api/games/" + big}, refused),
        ("game-id-arabic-indic", {"method": "GET", "url": "/api/games/١"}, refused),
        ("game-id-fullwidth", {"method": "GET", "url": "/api/games/１"}, refused),
        ("game-id-superscript", {"method": "GET", "url": "/api/games/²"}, refused),
        ("game-id-text", {"method": "GET", "url": "/api/games/abc/hint"}, refused),
        ("hint-top-arabic-indic", {"method": "GET", "url": "/api/games/{game}/hint?top=٣"},
         refused),
        ("games-limit-5000-digits", {"method": "GET", "url": "/api/games?limit=" + big},
         refused),
        ("games-offset-negative", {"method": "GET", "url": "/api/games?offset=-1"}, refused),
        ("play-row-5000-digits", post("/api/games/{game}/play", {"move": "9" * 190 + "A AB"}),
         refused),
        ("play-row-arabic-indic", post("/api/games/{game}/play", {"move": "٨H AB"}), refused),
        ("play-unbalanced-paren", post("/api/games/{game}/play", {"move": "8H A(B"}), refused),
        ("play-empty-parens", post("/api/games/{game}/play", {"move": "()"}), refused),
        ("play-tiles-off-board", post("/api/games/{game}/play", {
            "tiles": [{"row": 40, "col": 40, "letter": "A"}]}), refused),
        ("play-tiles-nul-letter", post("/api/games/{game}/play", {
            "tiles": [{"row": 7, "col": 7, "letter": "\x00"}]}), refused),
        ("play-tiles-blank-question", post("/api/games/{game}/play", {
            "tiles": [{"row": 7, "col": 7, "letter": "?", "blank": True}]}), refused),
        ("play-move-and-tiles", post("/api/games/{game}/play", {
            "move": "8H AB", "tiles": [{"row": 7, "col": 7, "letter": "A"}]}), refused),
        ("play-empty-body", post("/api/games/{game}/play", {}), refused),
        ("exchange-unknown-letters", post("/api/games/{game}/exchange", {"tiles": "ÄÖ٣"}),
         refused),
        ("exchange-lower-case", post("/api/games/{game}/exchange", {"tiles": "ab"}), None),
        ("record-play", post("/api/games/{record}/play", {"move": "8H AB"}), refused),
        ("record-undo", {"method": "POST", "url": "/api/games/{record}/undo"}, refused),
        ("new-game-level-path",
         post("/api/games", {"opponents": [{"level": "leaves:/etc/passwd"}]}), refused),
        ("new-game-sim-seconds-nan", {"method": "POST", "url": "/api/games", "content":
                                      '{"opponents": [{"level": "sim", "seconds": NaN}]}'},
         refused),
        ("new-game-sim-seconds-huge", post("/api/games", {"opponents": [
            {"level": "sim", "seconds": 1e308}]}), refused),
        ("new-game-lexicon-path", post("/api/games", {"lexicon": "/etc/hostname"}), refused),
        ("new-game-layout-dotdot", post("/api/games", {"layout": "../x"}), refused),
        ("new-game-human-newline", post("/api/games", {"human": "a\nb"}), None),
        ("new-game-human-computer-name", post("/api/games", {"human": "greedy"}), refused),
        ("new-game-seed-beyond", post("/api/games", {"seed": 2**64}), refused),
        ("new-game-four-opponents", post("/api/games", {"opponents": [{"level": "greedy"}] * 4}),
         refused),
        ("import-play-as-unknown", post("/api/gcg/import", {"gcg": GAME_GCG,
                                                            "play_as": "x" * 40}), refused),
        ("import-three-opponents", post("/api/gcg/import", {
            "gcg": GAME_GCG, "play_as": "ann", "opponents": [{"level": "greedy"}] * 3}),
         refused),
        ("method-put", {"method": "PUT", "url": "/api/analyze"}, refused),
        ("unknown-route", {"method": "GET", "url": "/api/" + "x" * 5000}, refused),
    ]
    return tuple(out)


@functools.cache
def hostile_cli() -> tuple[tuple[str, dict[str, Any], str | None], ...]:
    refused = "refused"
    big = "9" * 5000
    words = {"list.txt": "\n".join(SMALL_WORDS)}
    game = {"game.gcg": GAME_GCG}
    cycle = base64.b64encode(hostile_kwgs()["two-letter-cycle"]).decode()

    def case(argv: list[str], files: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"argv": argv, **({"files": files} if files else {})}

    def players(spec: str) -> dict[str, Any]:
        return case(["autoplay", "--players", f"{spec},greedy", "--games", "1", "--jobs", "1",
                     "--lexicon", "{tmp}/list.txt"], words)

    return (
        ("svg-missing-folder", case(["show", "--cgp", OPENING, "--svg",
                                     "/nonexistent/dir/x.svg"]), refused),
        ("svg-is-a-folder", case(["show", "--cgp", OPENING, "--svg", "{tmp}"]), refused),
        ("csv-missing-folder", case(["analyze", "{tmp}/game.gcg", "--jobs", "1", "--csv",
                                     "/nonexistent/x.csv"], game), refused),
        ("gcg-dir-cannot-be-made", case(["autoplay", "--games", "2", "--jobs", "1",
                                         "--gcg-dir", "/proc/rackety-nonexistent/a/b"]),
         refused),
        ("gcg-dir-under-a-file", case(["autoplay", "--games", "2", "--jobs", "1", "--gcg-dir",
                                       "{tmp}/file.txt/a/b"], {"file.txt": "x"}), refused),
        ("kwg-output-missing-folder", case(["lexicon", "build", "{tmp}/list.txt", "-o",
                                            "/nonexistent/x.kwg"], words), refused),
        ("klv2-output-missing-folder", case(["leaves", "train", "--games", "1", "--jobs", "1",
                                             "-o", "/nonexistent/x.klv2"]), refused),
        ("player-sim-superscript", players("sim:²"), refused),
        ("player-sim-beyond-int64", players("sim:99999999999999999999"), refused),
        ("player-leaves-empty", players("leaves:"), refused),
        ("player-leaves-missing-file", players("leaves:/nonexistent.klv2"), refused),
        ("player-endgame-twice", players("h3+endgame+endgame"), refused),
        ("lexicon-name-5000-chars", case(["words", "anagram", "AEINST", "--lexicon",
                                          "x" * 5000]), refused),
        ("lexicon-kwg-name-5000-chars", case(["words", "anagram", "AEINST", "--lexicon",
                                              "x" * 5000 + ".kwg"]), refused),
        ("lexicon-dev-zero", case(["lexicon", "info", "/dev/zero"]), refused),
        ("lexicon-a-folder", case(["lexicon", "info", "/etc"]), refused),
        ("lexicon-two-letter-cycle-kwg", case(["words", "anagram", "AEINST", "--lexicon",
                                               "{tmp}/cycle.kwg"],
                                              {"cycle.kwg": {"base64": cycle}}), refused),
        ("cgp-lex-5000-chars", case(["moves", "--top", "1", "--cgp",
                                     _cgp(ops="lex " + "x" * 5000 + ";")]), None),
        ("cgp-ld-5000-chars", case(["moves", "--cgp", _cgp(ops="ld " + "x" * 5000 + ";")]),
         refused),
        ("cgp-bdn-5000-chars", case(["show", "--cgp", _cgp(ops="bdn " + "x" * 5000 + ";")]),
         refused),
        ("cgp-bb-5000-digits", case(["moves", "--cgp", _cgp(ops=f"bb {big};")]), refused),
        ("cgp-score-beyond-int64", case(["moves", "--cgp",
                                         _cgp(scores="18446744073709551616/0")]), refused),
        ("cgp-row-arabic-indic", case(["show", "--cgp", _cgp(board=_row_board("1٣"))]),
         refused),
        ("top-beyond-int64", case(["moves", "--cgp", OPENING, "--top",
                                   "99999999999999999999"]), refused),
        ("top-arabic-indic", case(["moves", "--cgp", OPENING, "--top", "٣"]), refused),
        ("seed-superscript", case(["autoplay", "--games", "1", "--jobs", "1", "--seed", "²"]),
         refused),
        ("games-fullwidth", case(["autoplay", "--games", "２", "--jobs", "1"]), refused),
        ("jobs-5000-digits", case(["autoplay", "--games", "1", "--jobs", big]), refused),
        ("seconds-nan", case(["sim", "--cgp", OPENING, "--seconds", "nan"]), refused),
        ("seconds-infinity", case(["sim", "--cgp", OPENING, "--seconds", "inf"]), refused),
        ("seconds-1e400", case(["sim", "--cgp", OPENING, "--seconds", "1e400"]), refused),
        ("seconds-arabic-indic", case(["endgame", "--cgp", OPENING, "--seconds", "٣"]),
         refused),
        ("turn-5000-digits", case(["gcg", "show", "{tmp}/game.gcg", "--turn", big], game),
         refused),
        ("gcg-encoding-base64", case(["gcg", "check", "{tmp}/b64.gcg"], {
            "b64.gcg": "#character-encoding base64\n" + GAME_GCG.split("\n", 1)[1]}), refused),
        ("gcg-24000-passes", case(["gcg", "check", "{tmp}/passes.gcg"], {
            "passes.gcg": {"repeat": ">ann: ABCDEFG - +0 0\n>bob: ABCDEFG - +0 0\n",
                           "times": 12_000, "prefix": "#player1 ann Ann\n#player2 bob Bob\n"}}),
         refused),
        ("words-nul-fourth-byte", case(["words", "anagram", "AEINST", "--lexicon",
                                        "{tmp}/nul.txt"], {"nul.txt": {"base64": base64
                                        .b64encode(b"AB@\x00CD\nEF\n").decode()}}), refused),
        ("words-utf16", case(["words", "list", "--lexicon", "{tmp}/u16.txt"], {
            "u16.txt": {"base64": base64.b64encode("AB\nBA\n".encode("utf-16")).decode()}}),
         refused),
        ("words-5mb-line", case(["words", "list", "--lexicon", "{tmp}/long.txt"], {
            "long.txt": {"repeat": "A", "times": 5_000_000}}), refused),
        ("cgp-file-missing", case(["moves", "--cgp-file", "/nonexistent/x.cgp"]), refused),
        ("cgp-file-directory", case(["moves", "--cgp-file", "/etc"]), refused),
        ("cgp-file-stdin-garbage", {"argv": ["moves", "--cgp-file", "-"],
                                    "stdin": "x" * 100_000 + "\n\x00\xff"}, refused),
        ("quiz-stdin-garbage", {"argv": ["quiz", "anagrams", "--length", "3", "--lexicon",
                                         "{tmp}/list.txt"], "files": words,
                                "stdin": "x" * 100_000 + "\n\x00\xff[]?" + "\n" * 50}, None),
        ("quiz-file-5mb-line", case(["quiz", "hooks", "--file", "{tmp}/long.txt", "--lexicon",
                                     "{tmp}/list.txt"], {**words, "long.txt": {
                                         "repeat": "A", "times": 5_000_000}}), refused),
        ("study-db-a-folder", case(["study", "stats", "--db", "{tmp}", "--player", "ann"]),
         refused),
        ("study-db-not-sqlite", case(["study", "stats", "--db", "{tmp}/x.db", "--player", "ann"],
                                     {"x.db": "not a database"}), refused),
        ("study-player-empty", case(["study", "stats", "--db", "{tmp}/d.db", "--player", " "]),
         refused),
        ("quiz-judge-no-words", case(["quiz", "judge", "--length", "9", "--lexicon",
                                      "{tmp}/list.txt"], words), refused),
        ("endgame-bag-not-empty", case(["endgame", "--cgp", OPENING]), refused),
        ("alphabet-path", case(["moves", "--cgp", OPENING, "--alphabet", "/etc/passwd"]),
         refused),
        ("board-dotdot", case(["moves", "--cgp", OPENING, "--board", "../x"]), refused),
        ("unknown-option-5000-chars", case(["moves", "--" + "x" * 5000]), refused),
        # a file name with a byte that is not UTF-8 (on Linux argv holds it as U+DCFF)
        ("svg-name-not-utf8", case(["show", "--cgp", OPENING, "--svg", "{tmp}/x\udcff.svg"]),
         None),
        ("csv-name-not-utf8", case(["analyze", "{tmp}/game.gcg", "--jobs", "1", "--csv",
                                    "{tmp}/x\udcff.csv"], game), None),
        ("kwg-output-name-not-utf8", case(["lexicon", "build", "{tmp}/list.txt", "-o",
                                           "{tmp}/x\udcff.kwg"], words), None),
        ("gcg-dir-name-not-utf8", case(["autoplay", "--games", "1", "--jobs", "1", "--lexicon",
                                        "{tmp}/list.txt", "--gcg-dir", "{tmp}/d\udcff"], words),
         None),
        ("lexicon-name-not-utf8", case(["words", "list", "--lexicon", "{tmp}/x\udcff.txt"]),
         refused),
        ("gcg-name-not-utf8", case(["gcg", "check", "{tmp}/x\udcff.gcg"]), refused),
        ("gcg-dir-1000-levels", case(["autoplay", "--games", "1", "--jobs", "1", "--lexicon",
                                      "{tmp}/list.txt", "--gcg-dir", "{tmp}/" + "d/" * 1000],
                                     words), None),
        # word tools whose work explodes with the input (TWL06): a hang within the contract
        ("words-pattern-8-stars", case(["words", "pattern", "*?" * 8]), None),
        ("words-multi-27-letters", case(["words", "multi", "dirtyroomdirtyroomdirtyroom"]),
         None),
        ("svg-1000-levels-missing", case(["show", "--cgp", OPENING, "--svg",
                                          "{tmp}/" + "d/" * 1000 + "x.svg"]), refused),
    )


def hostile(reader: str) -> tuple[tuple[str, Any, str | None], ...]:
    """Every named hostile input of ``reader``: (name, payload, expectation)."""
    if reader == "cgp":
        return hostile_cgps()
    if reader == "gcg":
        return hostile_gcgs()
    if reader == "kwg":
        ok = {"chain-21-tiles-valid", "only-node0"}
        return tuple((k, v, None if k in ok else "refused") for k, v in hostile_kwgs().items())
    if reader == "klv":
        ok = {"klv-int16", "huge-float", "blank-leaves", "only-root"}
        return tuple((k, v, None if k in ok else "refused") for k, v in hostile_klvs().items())
    if reader == "words":
        return hostile_words()
    if reader == "moves":
        return hostile_moves()
    if reader == "http":
        return hostile_http()
    if reader == "cli":
        return hostile_cli()
    if reader in PLUGIN_READERS:
        return tuple(plugin(reader).hostile())
    raise ValueError(reader)


def plugin(reader: str) -> Any:
    """The module of one of `PLUGIN_READERS`, ``tests/fuzz_<reader>.py``: its
    ``hostile()`` gives (name, payload, expectation) triples, ``generate(ch)``
    one (payload, expectation) from a chooser, ``run(payload, ctx)`` runs one
    input and answers "accepted" or "refused" (or raises `ContractError`), and
    ``SANDBOXED`` says whether its inputs run in a worker process. Payloads are
    dicts of JSON values (bytes under the keys ``data`` or ``content``), so that
    the corpus keeps them as ``<reader>/<name>.case.json``."""
    import importlib

    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    return importlib.import_module(f"fuzz_{reader}")


def __getattr__(name: str) -> Any:
    """``SANDBOXED``: the readers whose inputs run in a `Sandbox`, the plugins'
    read when first asked (their modules import rackety)."""
    if name == "SANDBOXED":
        return SANDBOXED_BASE | {r for r in PLUGIN_READERS if plugin(r).SANDBOXED}
    raise AttributeError(name)


# ---------------------------------------------------------------- generators
def _mutate_json(value: Any, ch: RandomChooser, text_seeds: dict[str, tuple[Any, ...]]) -> Any:
    """A JSON body with one field changed: a string mutated (CGP and GCG fields
    from their readers' seeds), a value of another type, a field dropped or an
    unknown one added."""
    hostile_values = (None, True, False, 0, -1, 2**31, 2**63, 2**64, 10**30, 1e308, -0.0, 0.5,
                      "", "x" * 5000, "9" * 5000, "١٢", "²", [], {}, [[[]]], {"a": 1},
                      _nested(60), ["a"] * 50)
    if not isinstance(value, dict) or not value or ch.chance(10):
        return ch.choice(hostile_values)
    body = dict(value)
    key = ch.choice(sorted(body))
    op = ch.below(5)
    if op == 0:
        del body[key]
    elif op == 1:
        body[ch.choice(("extra", "cgp", "gcg", "move", "tiles", "x" * 100))] = \
            ch.choice(hostile_values)
    elif isinstance(body[key], str):
        seeds = text_seeds.get(key, ())
        base = body[key] if not seeds or ch.chance(50) else ch.choice(seeds)
        if isinstance(base, bytes):
            base = base.decode("utf-8", "replace")
        body[key] = mutate(base, ch, seeds)
    elif isinstance(body[key], list) and body[key] and isinstance(body[key][0], dict):
        items = list(body[key])
        i = ch.below(len(items))
        items[i] = _mutate_json(items[i], ch, text_seeds)
        body[key] = items
    else:
        body[key] = ch.choice(hostile_values)
    return body


_PATH_PIECES = ("0", "-1", "99999999999999999999", "9" * 400, "abc", "１", "٣", "²", "%00",
                "1.5", "1e3", "%201", "4611686018427387905", "..", "%2e%2e", "x" * 300)


def _sanitize_http(case: dict[str, Any]) -> dict[str, Any]:
    """Keep a mutated request fast: a simulation's valid seconds become 0.05,
    a sim opponent's 0.1, sizes small."""
    body = case.get("json")
    if isinstance(body, dict):
        body = dict(body)
        seconds = body.get("seconds")
        if case["url"].endswith("/simulate") and isinstance(seconds, int | float) \
                and not isinstance(seconds, bool) and 0 < seconds <= 60:
            body["seconds"] = 0.05
        if isinstance(body.get("candidates"), int) and not isinstance(body["candidates"], bool):
            body["candidates"] = min(body["candidates"], 3)
        opponents = body.get("opponents")
        if isinstance(opponents, list):
            fixed = []
            for o in opponents:
                if isinstance(o, dict) and isinstance(o.get("level"), str) \
                        and o["level"].strip().lower() == "sim":
                    o = {**o, "seconds": 0.1}
                fixed.append(o)
            body["opponents"] = fixed
        case = {**case, "json": body}
    return case


def generate(reader: str, ch: RandomChooser) -> tuple[Any, str | None]:
    """One input for ``reader`` and its expectation: a hostile input as made,
    a mutated hostile input, or a mutated seed (for KWG also a random graph)."""
    named = hostile(reader)
    roll = ch.below(100)
    if roll < 12:
        _, payload, expect = ch.choice(named)
        return payload, expect
    if reader == "cgp":
        seeds = cgp_seeds() + tuple(p for _, p, _ in named if len(p) < 2000)
        return mutate(ch.choice(seeds), ch, seeds), None
    if reader == "gcg":
        seeds = gcg_seeds()
        pool = seeds if roll < 85 else tuple(p for _, p, _ in named if len(p) < 20000)
        return mutate(ch.choice(pool), ch, seeds), None
    if reader == "kwg":
        if roll < 45:
            return random_graph(ch), None
        pool = kwg_seeds() if roll < 85 else tuple(hostile_kwgs()[k] for k in (
            "two-letter-cycle", "self-loop", "one-letter-word", "gaddag-separator-twice",
            "dawg-arc-into-gaddag-pseudo", "chain-22-tiles", "unordered-siblings"))
        return mutate_nodes(ch.choice(pool), ch, kwg_seeds()), None
    if reader == "klv":
        return mutate_klv(ch.choice(klv_seeds()), ch, klv_seeds()), None
    if reader == "words":
        data = mutate(ch.choice(words_seeds()), ch, words_seeds())
        name = ch.choice(("list.txt", "list.txt", "list.txt", "list", "list.dic", "list.kwg"))
        payload: dict[str, Any] = {"name": name, "data": data}
        if ch.chance(5):
            payload["damage"] = ch.choice(("arcs-past-end", "zeroes", "truncate", "json"))
        elif ch.chance(12):
            payload["alphabet_json"] = mutate_alphabet(ch)
        return payload, None
    if reader == "moves":
        if roll < 22:
            specs = ("greedy", "h1", "h2", "h3", "static", "sim", "sim:10", "h3+endgame",
                     "leaves:/nonexistent.klv2", "human", "best", "best:2", "best:0.5")
            return {"player": mutate(ch.choice(specs), ch, specs)}, None
        seed = dict(ch.choice(move_seeds()))
        seed["move"] = mutate(seed["move"], ch, MOVE_SEEDS)
        return seed, None
    if reader == "http":
        return _generate_http(ch), None
    if reader == "cli":
        return _generate_cli(ch), None
    if reader in PLUGIN_READERS:
        return plugin(reader).generate(ch)
    raise ValueError(reader)


HTTP_GROUPS = {
    "analysis": ("/api/analyze", "/api/simulate", "/api/position", "/api/infer"),
    "records": ("/api/gcg/",),
    "games": ("/api/games/{", "/api/games/{record}"),
    "listing": ("/api/health", "/api/options", "/api/players", "/api/rankings", "/api/games"),
}


def http_group(case: dict[str, Any]) -> str:
    """The route group of a request: analysis, records, games or listing (the
    study routes are listing's)."""
    url = case["url"]
    for group in ("analysis", "records", "games"):
        if url.startswith(HTTP_GROUPS[group]):
            return group
    if url.startswith("/api/games") and case.get("method") == "POST":
        return "games"
    return "listing"


def _generate_http(ch: RandomChooser, group: str | None = None) -> dict[str, Any]:
    seeds = [c for c in HTTP_SEEDS if group is None or http_group(c) == group]
    if group is not None and ch.chance(12):
        named = [c for _, c, _ in hostile_http() if http_group(c) == group]
        return dict(ch.choice(named))
    case = dict(ch.choice(seeds))
    op = ch.below(100)
    texts = {"cgp": cgp_seeds(), "gcg": gcg_seeds(), "move": MOVE_SEEDS}
    if op < 60 and "json" in case:
        case["json"] = _mutate_json(case["json"], ch, texts)
    elif op < 70:
        case.pop("json", None)
        case["content"] = ch.choice(("", "[", "null", "[]", "1", '"x"', "{", "{}}", "\x00",
                                     "[" * 2000, '{"cgp": "' + "x" * 10000 + '"}',
                                     '{"cgp": 1e999}', '{"top": -0}', "NaN"))
    elif op < 85:
        pieces = case["url"].split("/")
        i = ch.below(len(pieces))
        pieces[i] = ch.choice(_PATH_PIECES) if ch.chance(70) else mutate(pieces[i], ch)
        case["url"] = "/".join(pieces)
    elif op < 93:
        if "?" in case["url"]:
            base, query = case["url"].split("?", 1)
            case["url"] = base + "?" + mutate(query, ch)
        else:
            case["url"] += ch.choice(("?top=", "?top=٣", "?limit=" + "9" * 50, "?offset=-1",
                                      "?top=1&top=2", "?x=" + "y" * 3000))
    else:
        case["method"] = ch.choice(("GET", "POST", "PUT", "DELETE", "PATCH"))
    return _sanitize_http(_sendable(case))


def _sendable(case: dict[str, Any]) -> dict[str, Any]:
    """A request an HTTP client can send: the URL percent-encoded where it
    holds what a URL cannot (a client refuses those before the server sees
    them) and at most 8,000 characters long."""
    from urllib.parse import quote

    url = quote(case["url"], safe="/?&=%{}:+,;@!$'()*-._~", errors="surrogatepass")
    return {**case, "url": "/" + url.lstrip("/")[:8000]}  # "//x" would name a host


_OUTPUT_OPTIONS = frozenset({"-o", "--output", "--svg", "--csv", "--gcg-dir", "--db"})
_SAFE_OUTPUT = ("{tmp}", "/proc/", "/dev/null/", "/nonexistent/")
_SLOW_LIMITS = {"--games": 2, "--iterations": 20, "--candidates": 3, "--tt-bits": 16,
                "--generations": 1, "--plies": 2, "--max-words": 2, "--limit": 50}


def sanitize_argv(argv: list[str]) -> list[str] | None:
    """A mutated command line made safe and quick, or None to skip it: never
    ``serve`` or ``play``; outputs only in the case's folder (or where nothing
    can be written); game counts, iterations and seconds kept small; one job."""
    if not argv or any(a in ("serve", "play", "train") for a in argv[:2]):
        return None
    # what a process gets from bytes that are not UTF-8: surrogates U+DC80-U+DCFF;
    # and no NUL, which no argument of a process can hold
    out = [a.encode("utf-8", "surrogatepass").decode("utf-8", "surrogateescape")
           .replace("\x00", "") for a in argv]
    for i in range(len(out) - 1):
        option, value = out[i], out[i + 1]
        if option in _OUTPUT_OPTIONS and not value.startswith(_SAFE_OUTPUT):
            out[i + 1] = "{tmp}/out-" + re.sub(r"[^A-Za-z0-9._-]", "_", value)[:40]
        if option == "--gcg-dir" and value.startswith("/nonexistent/"):
            out[i + 1] = "/proc/rackety-nonexistent" + value[12:]
        small = value.isascii() and value.isdigit() and len(value) < 30
        if option in _SLOW_LIMITS and small and int(value) > _SLOW_LIMITS[option]:
            out[i + 1] = str(_SLOW_LIMITS[option])
        if option == "--seconds" and re.fullmatch(r"[0-9]{1,20}[.]?[0-9]{0,20}", value) \
                and float(value) > 0.2:
            out[i + 1] = "0.1"
        if option == "--jobs" and small and int(value) > 1:
            out[i + 1] = "1"
        if option == "--backend":
            out[i + 1] = "local"
    command = out[0]
    if command in ("autoplay", "analyze", "sim", "preendgame") and "--jobs" not in out:
        out += ["--jobs", "1"]
    if command in ("endgame", "preendgame") and "--seconds" not in out and \
            "--exact" not in out:
        out += ["--seconds", "0.5"]
    if command == "sim" and "--iterations" not in out and "--seconds" not in out:
        out += ["--iterations", "8"]
    if command == "autoplay" and "--games" not in out:
        out += ["--games", "1"]
    return out


def _generate_cli(ch: RandomChooser) -> dict[str, Any]:
    while True:
        case = dict(ch.choice(CLI_SEEDS))
        argv = list(case["argv"])
        op = ch.below(100)
        if op < 55:
            i = ch.below(len(argv))
            argv[i] = mutate(argv[i], ch, [a for a in argv if len(a) < 5000])
        elif op < 70:
            argv.insert(ch.below(len(argv) + 1), ch.choice(
                ("--json", "--top", "--lexicon", "--alphabet", "--board", "--seed", "--", "-",
                 "--help", "--skip-invalid", "9" * 5000, "٣", "--cgp", "x" * 5000, "")))
        elif op < 80 and len(argv) > 1:
            del argv[ch.below(len(argv))]
        elif op < 90 and case.get("files"):
            files = dict(case["files"])
            name = ch.choice(sorted(files))
            text = files[name] if isinstance(files[name], str) else ""
            seeds = gcg_seeds() if name.endswith(".gcg") else words_seeds()
            files[name] = {"base64": base64.b64encode(
                mutate(text.encode(), ch, seeds)).decode()}
            case["files"] = files
        else:
            argv[ch.below(len(argv))] = ch.choice(TEXT_TOKENS)
        fixed = sanitize_argv(argv)
        if fixed is not None:
            case["argv"] = fixed
            return case


def strategy(reader: str) -> Any:
    """A hypothesis strategy of (payload, expectation) for ``reader``."""
    from hypothesis import strategies as st

    return st.composite(lambda draw: generate(reader, DrawChooser(draw)))()


def http_strategy(group: str) -> Any:
    """A hypothesis strategy of requests to one route group (`HTTP_GROUPS`);
    hostile requests of the group come with their expectation."""
    from hypothesis import strategies as st

    expected = {json.dumps(c, sort_keys=True, default=str): e for _, c, e in hostile_http()}

    def build(draw: Any) -> tuple[dict[str, Any], str | None]:
        case = _generate_http(DrawChooser(draw), group)
        return case, expected.get(json.dumps(case, sort_keys=True, default=str))

    return st.composite(build)()


# ------------------------------------------------------------------ runners
class Context:
    """What the runners share in one process: a scratch folder, a small
    lexicon, the boards moves are read on, and (made on first use) the web
    app's test client with a game to act on."""

    def __init__(self, tmp: str | Path) -> None:
        self.tmp = Path(tmp)
        self.tmp.mkdir(parents=True, exist_ok=True)
        self._count = 0
        self._small: Any = None
        self._boards: Any = None
        self._client: Any = None
        self._record: int | None = None

    def case_dir(self) -> Path:
        """A fresh folder for one input (the one before it is removed)."""
        old = self.tmp / f"case{self._count}"
        self._count += 1
        shutil.rmtree(old, ignore_errors=True)
        folder = self.tmp / f"case{self._count}"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        return folder

    def small_lexicon(self) -> Any:
        if self._small is None:
            from rackety import Lexicon

            self._small = Lexicon.from_words(SMALL_WORDS, name="small")
        return self._small

    def move_boards(self) -> list[Any]:
        if self._boards is None:
            from rackety import Board

            self._boards = [Board.from_cgp(c) for c in (OPENING, HALTED_CGP, SUPER_CGP,
                                                        CATALAN_CGP, SPANISH_CGP)]
        return self._boards

    def client(self) -> Any:
        if self._client is None:
            from fastapi.testclient import TestClient

            from rackety.frontends.web.app import create_app

            app = create_app(self.tmp / "web.sqlite", warm=False)
            self._client = TestClient(app, raise_server_exceptions=True)
        return self._client

    def new_game(self) -> int:
        """A new game in play (the person to move) against greedy."""
        self._count += 1
        response = self.client().post("/api/games", json={
            "opponents": [{"level": "greedy"}], "seed": self._count, "lexicon": "TWL06"})
        assert response.status_code == 201, response.text
        return int(response.json()["id"])

    def record_game(self) -> int:
        if self._record is None:
            response = self.client().post("/api/gcg/import", json={"gcg": GAME_GCG})
            assert response.status_code == 201, response.text
            self._record = int(response.json()["id"])
        return self._record


def _use_lexicon(lexicon: Any, ctx: Context, what: str) -> None:
    """Everything one does with a lexicon, on one that a reader accepted."""
    from rackety import Board

    use(lambda: len(lexicon), f"len({what})")
    use(lexicon.words, f"{what}.words()")
    use(lambda: "AB" in lexicon, f"'AB' in {what}")
    use(lambda: lexicon.anagrams("AEINST?"), f"{what}.anagrams('AEINST?')")
    use(lambda: lexicon.anagrams("AEINST?", subsets=True), f"{what}.anagrams(subsets)")
    use(lambda: lexicon.pattern("A*"), f"{what}.pattern('A*')")
    use(lambda: lexicon.pattern("??", rack="AB"), f"{what}.pattern('??')")
    use(lambda: lexicon.hooks("AB"), f"{what}.hooks('AB')")
    use(lambda: lexicon.suggest("AB", distance=1), f"{what}.suggest('AB')")
    use(lambda: lexicon.multi_anagrams("AEINST", max_words=2, limit=50),
        f"{what}.multi_anagrams")
    for cgp in (f"{EMPTY} AEINST?/ 0/0 0", f"{HALTED} AEINST?/ 28/0 0"):
        board = Board.from_cgp(cgp)
        use(lambda b=board: b.moves(lexicon), f"Board.moves({what})")
        use(lambda b=board: b.moves(lexicon, generator="dawg"), f"Board.moves({what}, dawg)")


def run_cgp(text: str, ctx: Context) -> str:
    from rackety import Board

    outcome, board = attempt(lambda: Board.from_cgp(text), "Board.from_cgp")
    outcome2, _ = attempt(lambda: Board(text), "Board(cgp)")
    if outcome != outcome2:
        raise ContractError("readback", f"Board.from_cgp {outcome} the CGP, Board() {outcome2} it")
    if outcome == "refused":
        return outcome
    written = must(board.cgp, "Board.cgp() of an accepted CGP")
    again = must(lambda: Board.from_cgp(written), "Board.from_cgp(board.cgp())")
    if again != board:
        raise ContractError("readback", f"cgp() reads back as another board: {clip(written)!r}")
    if must(again.cgp, "cgp() of the board read back") != written:
        raise ContractError("readback", f"cgp() is not a fixed point: {clip(written)!r}")
    must(lambda: repr(board), "repr(board)")
    must(lambda: str(board), "str(board)")
    use(board.svg, "board.svg()")
    use(lambda: board.bag_count, "board.bag_count")
    if board.alphabet.name == "english" and board.layout.size == 15:
        use(lambda: board.moves(ctx.small_lexicon()), "board.moves(small lexicon)")
    return outcome


def _gcg_source(payload: Any) -> Any:
    return payload if isinstance(payload, bytes | str | Path) else payload["data"]


def run_gcg(payload: Any, ctx: Context) -> str:
    from rackety import Board
    from rackety.game.gcg import game_of, read_gcg, replay, write_gcg

    data = _gcg_source(payload)
    outcome, record = attempt(lambda: read_gcg(data), "read_gcg")
    if isinstance(data, bytes):
        path = ctx.case_dir() / "record.gcg"
        path.write_bytes(data)
        outcome2, _ = attempt(lambda: read_gcg(path), "read_gcg(path)")
        if outcome2 != outcome:
            raise ContractError("readback", f"read_gcg {outcome} the bytes but {outcome2} the file")
    if outcome == "refused":
        return outcome
    text = must(lambda: write_gcg(record), "write_gcg of an accepted record")
    again = must(lambda: read_gcg(text), "read_gcg(write_gcg(record))")
    if must(lambda: write_gcg(again), "write_gcg of the record read back") != text:
        raise ContractError("readback", "write_gcg(read_gcg(write_gcg(record))) differs from "
                                        "write_gcg(record)")
    replay_outcome, game = attempt(lambda: replay(record), "replay")
    if replay_outcome == "refused":
        return "refused"
    for i, position in enumerate(game.positions):
        cgp = must(position.cgp, f"replay position {i}: cgp()")
        back = must(lambda c=cgp: Board.from_cgp(c), f"replay position {i}: Board.from_cgp")
        if back != position:
            raise ContractError("readback", f"replay position {i} reads back as another board: "
                                            f"{clip(cgp)!r}")
    use(lambda: replay(again), "replay(read_gcg(write_gcg(record)))")
    from_record, _ = attempt(lambda: game_of(record, ctx.small_lexicon()),
                             "game_of")
    return "accepted" if from_record == "accepted" else "refused"


def run_kwg(payload: Any, ctx: Context) -> str:
    from rackety import Lexicon

    data = payload if isinstance(payload, bytes) else payload["data"]
    name = "case.kwg" if isinstance(payload, bytes) else payload.get("name", "case.kwg")
    path = ctx.case_dir() / name
    path.write_bytes(data)
    outcome, lexicon = attempt(lambda: Lexicon.load(path), "Lexicon.load(KWG)")
    outcome2, lexicon2 = attempt(lambda: Lexicon.from_kwg(path), "Lexicon.from_kwg")
    for lex, what in ((lexicon, "Lexicon.load"), (lexicon2, "Lexicon.from_kwg")):
        if lex is not None:
            _use_lexicon(lex, ctx, what)
    if lexicon is not None:
        copy = ctx.case_dir() / "copy.kwg"
        must(lambda: lexicon.save(copy), "Lexicon.save of an accepted KWG")
        must(lambda: Lexicon.load(copy), "Lexicon.load of the KWG saved back")
    return "accepted" if "accepted" in (outcome, outcome2) else "refused"


def run_klv(payload: Any, ctx: Context) -> str:
    from rackety import Alphabet, Board
    from rackety.lexicon.klv import Klv

    data = payload if isinstance(payload, bytes) else payload["data"]
    outcome, klv = attempt(lambda: Klv.from_bytes(data), "Klv.from_bytes")
    path = ctx.case_dir() / "case.klv2"
    path.write_bytes(data)
    outcome2, _ = attempt(lambda: Klv.load(path), "Klv.load")
    if outcome != outcome2:
        raise ContractError("readback", f"Klv.from_bytes {outcome} the bytes, Klv.load {outcome2} "
                                        "the file")
    if klv is None:
        return outcome
    english = Alphabet.load("english")
    for leave in ("AB", "?", "??", "S?", "QU", "AEINST"):
        use(lambda leave=leave: klv.value(leave), f"klv.value({leave!r})")
    for rack in ("AEINST?", "??QZ", "", "EEEEEEE"):
        use(lambda rack=rack: klv.rack_values(english, english.tokenize(rack, blanks=True)),
            f"klv.rack_values({rack!r})")
    use(lambda: len(klv), "len(klv)")
    if len(klv) <= 200_000:
        use(klv.leaves, "klv.leaves()")
    back = must(klv.to_bytes, "Klv.to_bytes of an accepted KLV")
    must(lambda: Klv.from_bytes(back), "Klv.from_bytes(klv.to_bytes())")
    board = Board.from_cgp(f"{HALTED} AEINST?/ 28/0 0")
    use(lambda: board.moves(ctx.small_lexicon(), mode="top", top=5, leave=klv),
        "board.moves(leave=klv)")
    return outcome


def _damage_cache(ctx: Context, data: bytes, how: str) -> None:
    """Damage the cache entry of the word list ``data`` (English) in place."""
    from rackety import Alphabet
    from rackety.lexicon import cache

    key = cache.cache_key(data, Alphabet.load("english").identity, False)
    kwg = cache.cache_dir() / f"{key}.kwg"
    meta = cache.cache_dir() / f"{key}.json"
    if not kwg.exists():
        return
    raw = kwg.read_bytes()
    if how == "arcs-past-end":
        nodes = list(struct.unpack(f"<{len(raw) // 4}I", raw))
        raw = kwg_bytes([(v & ~0x3FFFFF) | 0x3FFFFF for v in nodes])
    elif how == "zeroes":
        raw = b"\x00" * len(raw)
    elif how == "truncate":
        raw = raw[: len(raw) // 2 + 1]
    elif how == "json":
        meta.write_text("{not json")
    elif how == "json-nested":
        meta.write_text("[" * 100_000 + "]" * 100_000)
    with open(kwg, "r+b") as f:  # in place: same inode
        f.write(raw)
        f.truncate(len(raw))


def _use_alphabet(alphabet: Any, path: Path) -> None:
    """What one does with an alphabet a file gave: tokenize, format, boards."""
    from rackety import Board

    for text in ("AEINST?", "aeinst", "[CH]", "L·L", "QU", "?" * 30, "é" * 5, "\x00"):
        codes = use(lambda t=text: alphabet.tokenize(t), f"alphabet.tokenize({text!r})")
        if codes:
            use(lambda c=codes: alphabet.format(c, brackets=True), "alphabet.format")
    use(lambda: alphabet.fold("Ça"), "alphabet.fold")
    board = use(lambda: Board.empty(alphabet), "Board.empty(alphabet)")
    if board is not None:
        use(board.cgp, "cgp() of an empty board in the alphabet")
        use(board.svg, "svg() of an empty board in the alphabet")
        cgp = f"{'/'.join([str(board.size)] * board.size)} / 0 0 ld {path};"
        use(lambda: Board.from_cgp(cgp), "Board.from_cgp with ld naming the file")


def _use_alphabet_lexicon(lexicon: Any, alphabet: Any) -> None:
    """A lexicon in an alphabet from a file: word tools and moves on its board."""
    from rackety import Board

    use(lexicon.words, "words() in a file's alphabet")
    rack = alphabet.format(list(range(1, min(alphabet.size, 7))) + [0])
    use(lambda: lexicon.anagrams(rack), "anagrams in a file's alphabet")
    use(lambda: lexicon.pattern("*"), "pattern('*') in a file's alphabet")
    board = use(lambda: Board.empty(alphabet), "Board.empty(alphabet)")
    if board is not None:
        board.racks = [tuple(range(1, min(alphabet.size, alphabet.rack_size + 1))), ()]
        use(lambda: board.moves(lexicon), "moves in a file's alphabet")


def run_words(payload: Any, ctx: Context) -> str:
    from rackety import Alphabet, Lexicon

    if isinstance(payload, bytes):
        payload = {"name": "list.txt", "data": payload}
    folder = ctx.case_dir()
    name = re.sub(r"[/\x00]", "_", payload.get("name", "list.txt"))[:200] or "list.txt"
    path = folder / name
    data = payload["data"]
    path.write_bytes(data)
    alphabet = None
    if payload.get("alphabet_json") is not None:
        alphabet_path = folder / "alphabet.json"
        alphabet_path.write_bytes(_file_content(payload["alphabet_json"]))
        outcome, alphabet = attempt(lambda: Alphabet.load(str(alphabet_path)),
                                    "Alphabet.load(an alphabet file)")
        if alphabet is None:
            return outcome
        _use_alphabet(alphabet, alphabet_path)
    outcome, lexicon = attempt(lambda: Lexicon.load(path, alphabet), "Lexicon.load(word list)")
    if lexicon is not None and alphabet is not None:
        _use_alphabet_lexicon(lexicon, alphabet)
    elif lexicon is not None:
        _use_lexicon(lexicon, ctx, "the word list's lexicon")
        again = must(lambda: Lexicon.load(path), "Lexicon.load(word list) from the cache")
        if len(again) != len(lexicon):
            raise ContractError("readback", f"the cached lexicon has {len(again)} words, the list "
                                            f"{len(lexicon)}")
    damage = payload.get("damage")
    if damage:
        _damage_cache(ctx, data, damage)
        _, damaged = attempt(lambda: Lexicon.load(path), "Lexicon.load after cache damage")
        if damaged is not None:
            _use_lexicon(damaged, ctx, "the lexicon of a damaged cache entry")
        for argv in (["words", "anagram", "AEINST", "--lexicon", str(path)],
                     ["words", "pattern", "A*", "--lexicon", str(path)],
                     ["words", "list", "--lexicon", str(path)]):
            _damage_cache(ctx, data, damage)
            code, out, err = run_cli_inprocess(argv)
            check_cli_result(argv, code, out, err)
    return outcome


def run_moves(payload: Any, ctx: Context) -> str:
    from rackety import Board
    from rackety.game.move import parse_move

    if isinstance(payload, str):
        payload = {"move": payload}
    if "player" in payload:
        return run_player(payload["player"], ctx)
    text = payload["move"]
    boards = ctx.move_boards()
    if payload.get("cgp"):
        board_outcome, board = attempt(lambda: Board.from_cgp(payload["cgp"]), "the move's board")
        if board is None:
            return board_outcome
        boards = [board]
    outcomes = []
    for board in boards:
        outcome, move = attempt(lambda b=board: b.parse_move(text), "Board.parse_move")
        outcome2, _ = attempt(lambda b=board: parse_move(text, b), "rackety.game.move.parse_move")
        if outcome != outcome2:
            raise ContractError("readback", f"Board.parse_move {outcome}, parse_move {outcome2}")
        outcomes.append(outcome)
        if move is None:
            continue
        for style in ("parens", "dots"):
            written = must(lambda b=board, s=style, m=move: b.notation(m, through=s),
                           f"notation(through={style}) of an accepted move")
            back = must(lambda b=board, w=written: b.parse_move(w),
                        f"parse_move(notation(through={style}))")
            if back != move:
                raise ContractError("readback", f"{written!r} reads back as another move")
        use(lambda b=board, m=move: b.score(m), "board.score(move)")
        use(lambda m=move: str(m), "str(move)")
    return "accepted" if "accepted" in outcomes else "refused"


def run_player(spec: str, ctx: Context) -> str:
    from rackety.players import make_player

    outcome, player = attempt(lambda: make_player(spec, ctx.small_lexicon()),
                              f"make_player({clip(spec, 60)!r})")
    if player is not None:
        must(lambda: str(player.name), "the player's name")
    return outcome


def run_http(payload: dict[str, Any], ctx: Context) -> str:
    client = ctx.client()
    url = payload["url"]
    if "{game}" in url:
        url = url.replace("{game}", str(ctx.new_game()))
    if "{record}" in url:
        url = url.replace("{record}", str(ctx.record_game()))
    return check_http(client, payload.get("method", "GET"), url, json=payload.get("json"),
                      content=payload.get("content"), headers=payload.get("headers"))


def _file_content(spec: Any) -> bytes:
    if isinstance(spec, str):
        return spec.encode("utf-8", "surrogatepass")
    if isinstance(spec, bytes):
        return spec
    if "base64" in spec:
        return base64.b64decode(spec["base64"])
    return (spec.get("prefix", "") + spec["repeat"] * int(spec["times"])).encode()


def run_cli(payload: dict[str, Any], ctx: Context, *, subprocess_run: bool = False,
            timeout: float = 60.0) -> str:
    folder = ctx.case_dir()
    for name, spec in (payload.get("files") or {}).items():
        (folder / name).write_bytes(_file_content(spec))
    argv = [a.replace("{tmp}", str(folder)) for a in payload["argv"]]
    expect = payload.get("expect")
    if subprocess_run:
        return check_cli(argv, payload.get("stdin"), timeout=timeout, cwd=folder, expect=expect)
    here = os.getcwd()
    os.chdir(folder)
    try:
        code, out, err = run_cli_inprocess(argv, payload.get("stdin"))
    finally:
        os.chdir(here)
    return check_cli_result(argv, code, out, err, expect)


def _run_selftest(payload: str, ctx: Context) -> str:
    """What a crash and a hang look like to a `Sandbox` (its own test)."""
    if payload == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if payload == "hang":
        time.sleep(3600)
    if payload == "exception":
        return check_library(lambda: {}["missing"], "selftest")
    return check_library(lambda: None, "selftest")


RUNNERS = {"_selftest": _run_selftest, "cgp": run_cgp, "gcg": run_gcg, "kwg": run_kwg,
           "klv": run_klv, "words": run_words, "moves": run_moves, "http": run_http,
           "cli": run_cli}


def run_case(reader: str, payload: Any, ctx: Context, expect: str | None = None) -> str:
    """Run one input through ``reader`` and check the contract: "accepted" or
    "refused", or a `ContractError`. ``expect="refused"``: it must be refused."""
    if isinstance(payload, dict) and payload.get("expect"):
        expect = payload["expect"]
    runner = RUNNERS.get(reader) or plugin(reader).run
    outcome = runner(payload, ctx)
    if expect == "refused" and outcome != "refused":
        raise ContractError("expectation", f"{reader} input {describe_input(payload)} was "
                                           "accepted; it must be refused")
    return outcome


def execute(reader: str, payload: Any, ctx: Context, expect: str | None = None) -> Result:
    """`run_case` as a `Result` (a failure does not raise)."""
    start = time.perf_counter()
    try:
        outcome = run_case(reader, payload, ctx, expect)
    except ContractError as failure:
        return Result("failure", failure.kind, failure.detail, failure.where, failure.exc_type,
                      time.perf_counter() - start)
    except Exception as exc:  # the harness's own trouble (a game it could not start ...)
        return Result("failure", "harness", f"{reader}: {type(exc).__name__}: {clip(str(exc))}",
                      where_raised(exc), type(exc).__name__, time.perf_counter() - start)
    return Result(outcome, seconds=time.perf_counter() - start)


# ------------------------------------------------------------------- corpus
def _load_expected() -> dict[str, str]:
    try:
        return json.loads(EXPECTED.read_text())
    except FileNotFoundError:
        return {}


def corpus_files(reader: str | None = None) -> list[Path]:
    """Every file of the regression corpus (of one reader's folder)."""
    folders = [CORPUS / reader] if reader else [CORPUS / r for r in READERS]
    return sorted(p for f in folders if f.is_dir() for p in f.iterdir() if p.is_file())


def load_case(path: Path) -> tuple[str, Any, str | None]:
    """(reader, payload, expectation) of a corpus file; its folder names the
    reader; ``.gz`` files are read decompressed; ``.json`` in ``http/`` and
    ``cli/`` and ``*.case.json`` elsewhere hold a structured case."""
    reader = path.parent.name
    data = path.read_bytes()
    name = path.name
    if name.endswith(".gz"):
        data, name = gzip.decompress(data), name[:-3]
    expect = _load_expected().get(f"{reader}/{path.name}")
    if reader in ("http", "cli") or name.endswith(".case.json"):
        payload = json.loads(data)
        if isinstance(payload, dict) and "expect" in payload:
            expect = payload.pop("expect") or expect
        for key in ("data", "content"):
            if isinstance(payload, dict) and f"{key}_base64" in payload:
                payload[key] = base64.b64decode(payload.pop(f"{key}_base64"))
        return reader, payload, expect
    if reader == "cgp":
        return reader, data.decode("utf-8", "surrogatepass"), expect
    if reader == "moves":
        return reader, {"move": data.decode("utf-8", "surrogatepass")}, expect
    if reader == "words":
        return reader, {"name": name, "data": data}, expect
    return reader, data, expect


_EXTENSIONS = {"cgp": ".cgp", "gcg": ".gcg", "kwg": ".kwg", "klv": ".klv2", "moves": ".txt"}


def save_case(reader: str, name: str, payload: Any, expect: str | None = None, *,
              overwrite: bool = False) -> Path | None:
    """Write one input into the corpus as ``<reader>/<name><ext>`` (``.gz``
    when large); returns the path, or None when it exists already."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-")[:80] or "case"
    folder = CORPUS / reader
    folder.mkdir(parents=True, exist_ok=True)
    structured = isinstance(payload, dict) and not (
        reader == "words" and set(payload) <= {"name", "data"}) and not (
        reader == "moves" and set(payload) == {"move"})
    if reader in ("http", "cli") or structured:
        if reader == "words":
            payload = {**{k: v for k, v in payload.items() if k != "data"},
                       "data_base64": base64.b64encode(payload["data"]).decode()}
        suffix = ".json" if reader in ("http", "cli") else ".case.json"
        body = dict(payload) if isinstance(payload, dict) else payload
        if isinstance(body, dict) and isinstance(body.get("content"), bytes):
            body["content_base64"] = base64.b64encode(body.pop("content")).decode()
        if expect and isinstance(body, dict):
            body["expect"] = expect
        data = json.dumps(body, ensure_ascii=True, indent=1).encode()
        expect = None
    elif reader == "words":  # the name keeps the list's suffix (or its lack of one)
        suffix = Path(payload.get("name", "list.txt")).suffix
        data = payload["data"]
    elif reader == "moves":
        suffix, data = ".txt", payload["move"].encode("utf-8", "surrogatepass")
    else:
        suffix = _EXTENSIONS[reader]
        data = payload.encode("utf-8", "surrogatepass") if isinstance(payload, str) else payload
    if len(data) > 64_000:
        suffix += ".gz"
        data = gzip.compress(data, 9, mtime=0)
    path = folder / f"{name}{suffix}"
    if path.exists() and not overwrite:
        return None
    path.write_bytes(data)
    if expect:
        expected = _load_expected()
        expected[f"{reader}/{path.name}"] = expect
        EXPECTED.write_text(json.dumps(dict(sorted(expected.items())), indent=1) + "\n")
    return path


def fingerprint(payload: Any) -> str:
    return hashlib.sha256(pickle.dumps(payload)).hexdigest()[:10]


# ------------------------------------------------------------------ sandbox
class Sandbox:
    """A worker process (this file, ``--worker``) that runs inputs one at a
    time with its own scratch folder and lexicon cache. A worker killed by a
    signal is a crash; one that does not answer within ``timeout`` seconds is
    a hang (it is killed). Either way the next input gets a new worker."""

    def __init__(self, timeout: float = 20.0) -> None:
        self.timeout = timeout
        self.tmp = Path(tempfile.mkdtemp(prefix="rackety-fuzz-"))
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = self.tmp / "worker.log"
        self.started = 0

    def start(self) -> None:
        self.close_process()
        env = {**os.environ, "RACKETY_CACHE_DIR": str(self.tmp / "cache"),
               "PYTHONFAULTHANDLER": "1"}
        env.pop("RACKETY_DEBUG", None)
        self.log = open(self.log_path, "ab")  # noqa: SIM115 - kept open while the worker runs
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", str(self.tmp / "work"),
             str(self.timeout)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, env=env,
            cwd=str(self.tmp))
        self.started += 1

    def run(self, reader: str, payload: Any, expect: str | None = None) -> Result:
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        assert self.proc is not None and self.proc.stdin is not None
        try:
            blob = pickle.dumps((reader, payload, expect))
        except (pickle.PicklingError, RecursionError, TypeError) as exc:
            return Result("failure", "harness", f"{reader}: cannot send the input: {exc}")
        log_start = self.log_path.stat().st_size if self.log_path.exists() else 0
        start = time.perf_counter()
        try:
            self.proc.stdin.write(len(blob).to_bytes(8, "little") + blob)
            self.proc.stdin.flush()
            answer = self._read(start)
        except (BrokenPipeError, OSError):
            answer = None
        elapsed = time.perf_counter() - start
        if answer is not None:
            return Result(*answer[:5], seconds=elapsed)
        return self._died(elapsed, log_start, reader)

    def _read(self, start: float) -> Any:
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        buf = b""
        need = 8
        size = None
        while True:
            left = self.timeout + 5 - (time.perf_counter() - start)
            if left <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                return None
            chunk = os.read(fd, max(need - len(buf), 1 << 16))
            if not chunk:
                return None
            buf += chunk
            if size is None and len(buf) >= 8:
                size = int.from_bytes(buf[:8], "little")
                need = 8 + size
            if size is not None and len(buf) >= need:
                return pickle.loads(buf[8:need])

    def _died(self, elapsed: float, log_start: int, reader: str) -> Result:
        assert self.proc is not None
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        if code is None:
            self.proc.kill()
            self.proc.wait()
        self.close_process()
        log = b""
        with contextlib.suppress(OSError), open(self.log_path, "rb") as f:
            f.seek(log_start)
            log = f.read()[-20000:]
        text = log.decode("utf-8", "replace")
        where = _fault_location(text)
        # faulthandler's watchdog ends a worker that runs past the timeout
        hang = code is None or elapsed >= self.timeout - 1 or "Timeout (" in text
        if hang:
            return Result("failure", "hang", f"{reader}: no answer within {self.timeout:g} s",
                          where, "Timeout", elapsed)
        name = signal.Signals(-code).name if code and code < 0 else f"exit {code}"
        return Result("failure", "crash", f"{reader}: the worker died ({name})", where, name,
                      elapsed)

    def close_process(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(OSError):
                if self.proc.stdin:
                    self.proc.stdin.close()
            if self.proc.poll() is None:
                try:
                    self.proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
            self.proc = None
        if getattr(self, "log", None) is not None:
            self.log.close()
            self.log = None

    def close(self) -> None:
        self.close_process()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _fault_location(log: str) -> str:
    """Where faulthandler's dump (crash or timeout) shows the worker was: the
    innermost rackety frame of the current thread."""
    at = max(log.rfind("Fatal Python error"), log.rfind("Timeout ("))
    text = log[at:] if at >= 0 else log
    for line in text.splitlines():
        found = re.search(r'File "([^"]*/rackety/[^"]*)", line (\d+) in (\S+)', line)
        if found and "/tests/" not in found.group(1):
            path = found.group(1)
            return f"src{path[path.rfind('/rackety/'):]}:{found.group(2)} ({found.group(3)})"
    return ""


def worker_main(folder: str, timeout: float) -> None:
    """The worker loop: read (reader, payload, expectation), answer a `Result`."""
    import faulthandler

    proto_in = os.fdopen(os.dup(0), "rb")
    proto_out = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)  # stray output goes to the log, not into the answers
    sys.stdin = open(os.devnull)  # noqa: SIM115
    faulthandler.enable(file=sys.stderr)
    ctx = Context(folder)
    os.chdir(ctx.tmp)
    while True:
        header = proto_in.read(8)
        if len(header) < 8:
            break
        reader, payload, expect = pickle.loads(proto_in.read(int.from_bytes(header, "little")))
        faulthandler.dump_traceback_later(max(timeout - 1, 1), exit=True, file=sys.stderr)
        try:
            result = execute(reader, payload, ctx, expect)
        finally:
            faulthandler.cancel_dump_traceback_later()
        answer = pickle.dumps((result.outcome, result.kind, result.detail, result.where,
                               result.exc_type))
        proto_out.write(len(answer).to_bytes(8, "little") + answer)
        proto_out.flush()


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--worker":
        sys.modules["fuzzing"] = sys.modules[__name__]  # plugins raise this ContractError
        worker_main(sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 20.0)
    else:
        print(__doc__)
