"""The ``rackety`` command line: the API's mirror, for people and scripts.

Every user mistake ends in one line on stderr, ``rackety <command>: error: ...``,
and exit status 2; ``--json`` output is one JSON value on stdout and nothing
else (progress goes to stderr).
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import click

from rackety.backends import backend_options
from rackety.errors import RacketyError, clip, one_line, parse_int
from rackety.files import writable_file, writable_folder
from rackety.game.rules import CHALLENGE_RULES, DEFAULT_CHALLENGE, VARIANTS
from rackety.lexicon.sources import DEFAULT_LEXICON, builtin_names
from rackety.search.control import EXACT_SECONDS

_stderr_console = None
_DECIMAL = re.compile(r"[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]{1,3})?")
MAX_SEED = (1 << 63) - 1
MAX_JOBS = 1024
MAX_SECONDS = 1_000_000.0  # eleven days


class Whole(click.ParamType):
    """A whole number in ASCII digits from ``low`` to ``high`` (click's own int
    reads '٣' as 3 and has no bound a kernel can rely on)."""

    name = "integer"

    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        try:
            return parse_int(value if isinstance(value, str) else str(int(value)), "", self.low,
                             self.high)
        except RacketyError as exc:
            self.fail(str(exc).strip(), param, ctx)


class Seconds(click.ParamType):
    """A finite number of seconds above ``low`` (or at it, unless ``open_low``)
    and at most `MAX_SECONDS`, written in ASCII."""

    name = "seconds"

    def __init__(self, low: float, *, open_low: bool = False) -> None:
        self.low, self.open_low = low, open_low

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        text = str(value).strip()
        number = float(text) if _DECIMAL.fullmatch(text) else math.nan
        below = number <= self.low if self.open_low else number < self.low
        if math.isnan(number) or below or number > MAX_SECONDS:
            bound = f"more than {self.low:g}" if self.open_low else f"{self.low:g} or more"
            self.fail(f"{clip(text, 30)!r} is not a number of seconds ({bound}, at most "
                      f"{MAX_SECONDS:,.0f})", param, ctx)
        return number


class Points(click.ParamType):
    """A finite number of points from ``low`` to ``high``, written in ASCII."""

    name = "points"

    def __init__(self, low: float, high: float) -> None:
        self.low, self.high = low, high

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        text = str(value).strip()
        number = float(text) if _DECIMAL.fullmatch(text) else math.nan
        if math.isnan(number) or not self.low <= number <= self.high:
            self.fail(f"{clip(text, 30)!r} is not a number of points from {self.low:g} to "
                      f"{self.high:g}", param, ctx)
        return number


class FileName(click.ParamType):
    """A file or folder name, kept as given: the commands check it where they read
    or write (`rackety.files`); here only what no system takes (a NUL) is refused
    (click's own Path type lets the system's ValueError through)."""

    name = "path"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        text = str(value)
        if not text:  # given, but empty: not the same as not given
            self.fail("an empty file name", param, ctx)
        if "\x00" in text:
            self.fail(f"{clip(text)!r} is not a file name (it holds a NUL)", param, ctx)
        return text


class FirstName(click.Option):
    """An option whose help shows its first name only: the others are old
    spellings, still taken (``--leaves``, once ``--leave``)."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        names = self.opts
        self.opts = names[:1]
        try:
            return super().get_help_record(ctx)
        finally:
            self.opts = names


def leaves_option(*, none: bool, what: str = "The leave values in equity"
                  ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--leaves SPEC`` (``--leave`` too, the old spelling) of every command that
    takes a leave table: a spec of `rackety.frontends.common.resolve_leave`
    (``none``, equity = score, where ``none`` allows it)."""
    choices = "static|h1|h2|h3|FILE" + ("|none" if none else "")
    return click.option(
        "--leaves", "--leave", "leaves", cls=FirstName, default="static", show_default=True,
        metavar=choices,
        help=f"{what}: static is the lexicon's shipped table (H3 where there is none); h1, "
             "h2, h3 Gordon's heuristics; FILE (or leaves:FILE) a .klv2 table"
             + ("; none: the score alone." if none else "."))


FILE = FileName()
SEED = Whole(0, MAX_SEED)
JOBS = Whole(1, MAX_JOBS)


def _console() -> Any:
    global _stderr_console
    if _stderr_console is None:
        from rich.console import Console

        _stderr_console = Console(stderr=True)
    return _stderr_console


def _compile_notice(lexicon: bool = False) -> str | None:
    """"compiling the move generator (one time, about 10 s)" while the kernels
    the running command (or, with ``lexicon``, a lexicon's first build) needs
    are not in numba's cache yet (`rackety.jitcache.compile_notice`); else None."""
    from rackety import jitcache

    names = []
    ctx = click.get_current_context(silent=True)
    while ctx is not None and ctx.parent is not None:
        names.append(ctx.info_name or "")
        ctx = ctx.parent
    return jitcache.compile_notice("lexicon" if lexicon else " ".join(reversed(names)))


def _status(message: str) -> Any:
    """A spinner on stderr while something runs (shown on a terminal only). On a
    command's first run its kernels compile, which takes seconds: the spinner
    says so instead of ``message``, or after it for a lexicon's first build."""
    lexicon = message.startswith(("compiling lexicon", "building lexicon"))
    notice = _compile_notice(lexicon)
    if notice:
        message = (f"{message.removesuffix(' (first use)')}, and "
                   f"{notice.removeprefix('compiling ')}") if lexicon else notice
    return _console().status(message, spinner="dots")


def _progress(counted: bool = True) -> Any:
    """A progress bar on stderr, shown on a terminal only (in a pipe or a log it
    would leave a stray line before an error); on a command's first run, a line
    above it says that its kernels compile first."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    notice = _compile_notice()
    if notice and _console().is_terminal:
        _console().print(f"rackety: {notice}", highlight=False)
    columns = ("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn()) if counted else ()
    return Progress(*columns, console=_console(), transient=True,
                    disable=not _console().is_terminal)


def _emit_json(value: Any) -> None:
    click.echo(json.dumps(value, ensure_ascii=False))


def _load(source: str, alphabet: str | None, skip_invalid: bool) -> Any:
    from rackety.lexicon import Lexicon

    source, alphabet = _lexicon_spec(source, alphabet)  # words.txt:catalan
    lexicon = Lexicon.load(source, alphabet, skip_invalid=skip_invalid, progress=_status)
    report = lexicon.report
    if report is not None and report.skipped:
        click.echo(f"rackety: skipped {report.skipped:,} invalid words (first: "
                   f"{report.first_problem})", err=True)
    return lexicon


def lexicon_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--lexicon, --alphabet and --skip-invalid, shared by the word tools."""
    func = click.option("--skip-invalid", is_flag=True,
                        help="Drop words the alphabet cannot spell or that are too short "
                             "or long, and say how many.")(func)
    func = click.option("--alphabet", "alphabet", default=None, metavar="NAME",
                        help="Alphabet of a word list or KWG file (default: english).")(func)
    func = click.option("--lexicon", "source", default=DEFAULT_LEXICON, show_default=True,
                        metavar="SOURCE",
                        help=f"A built-in name ({', '.join(builtin_names())}), a word list "
                             "or a .kwg file.")(func)
    return func


VARIANT_OPTION = click.option(
    "--variant", type=click.Choice(VARIANTS), default="classic", show_default=True,
    help="classic, or wordsmog: every word a play forms is an anagram of a word.")
json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print one JSON value and nothing else.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rackety")
def cli() -> None:
    """rackety: a crossword-game engine: lexicons and word tools, positions and
    every legal move, games against the computer, self-play, simulation,
    endgames, game analysis and a local web app."""


# ---------------------------------------------------------------- lexicon
@cli.group()
def lexicon() -> None:
    """Build and inspect lexicons (DAWG + GADDAG in KWG files)."""


@lexicon.command("build")
@click.argument("source")
@click.option("-o", "--output", required=True, type=FILE, metavar="OUT.kwg",
              help="The KWG file to write.")
@click.option("--alphabet", default=None, metavar="NAME", help="Alphabet (default: english).")
@click.option("--skip-invalid", is_flag=True, help="Drop invalid words and say how many.")
@click.option("--dawg-only", is_flag=True, help="Write only the DAWG (no GADDAG).")
def lexicon_build(source: str, output: str, alphabet: str | None, skip_invalid: bool,
                  dawg_only: bool) -> None:
    """Compile SOURCE (a built-in name, a word list or a .kwg) into OUT.kwg."""
    from rackety.lexicon import Lexicon

    writable_file(output, "-o")
    start = time.perf_counter()
    lex = _load(source, alphabet, skip_invalid)
    if dawg_only or lex.report is None:  # from a KWG, or asked for a DAWG alone: rebuild
        with _status(f"building {output}"):
            lex = Lexicon.from_tiles(*lex.word_tiles(), lex.alphabet, name=lex.name,
                                     gaddag=not dawg_only)
    lex.save(output)
    click.echo(f"wrote {click.format_filename(output)}: {len(lex):,} words, "
               f"{lex.node_count:,} nodes, "
               f"{lex.nbytes:,} bytes ({time.perf_counter() - start:.2f} s)")


@lexicon.command("info")
@click.argument("source", default=DEFAULT_LEXICON)
@click.option("--alphabet", default=None, metavar="NAME", help="Alphabet (default: english).")
@click.option("--skip-invalid", is_flag=True, help="Drop invalid words and say how many.")
@json_option
def lexicon_info(source: str, alphabet: str | None, skip_invalid: bool, as_json: bool) -> None:
    """Words, nodes and bytes of a lexicon."""
    info = _load(source, alphabet, skip_invalid).info()
    if as_json:
        _emit_json(info)
        return
    for key, value in info.items():
        if isinstance(value, bool):
            value = "yes" if value else "no"
        elif isinstance(value, int):
            value = f"{value:,}"
        click.echo(f"{key:<9} {value}")


@lexicon.command("list")
@json_option
def lexicon_list(as_json: bool) -> None:
    """Every built-in lexicon: language, source, licence, words, and whether it
    is installed (else the command that installs it)."""
    from rackety.lexicon.sources import catalogue

    rows = catalogue()
    if as_json:
        _emit_json(rows)
        return
    for r in rows:
        state = "installed" if r["installed"] else f"not installed: {r['install']}"
        click.echo(f"{r['name']:<11} {r['language']:<22} {r['words']:>9,} words  {state}")
        click.echo(f"{'':<11} {r['source']}; licence {r['licence']}")


@cli.command("alphabets")
@json_option
def alphabets(as_json: bool) -> None:
    """The built-in alphabets."""
    from rackety.alphabet import Alphabet

    rows = []
    for name in Alphabet.names():
        a = Alphabet.load(name)
        rows.append({"name": name, "description": a.description, "tiles": a.size - 1,
                     "total": sum(t.count for t in a.tiles), "board": a.board,
                     "rack_size": a.rack_size})
    if as_json:
        _emit_json(rows)
        return
    for r in rows:
        click.echo(f"{r['name']:<18} {r['description']}")


# ------------------------------------------------------------------ words
@cli.group()
def words() -> None:
    """Word tools: check, anagram, pattern, hooks, multi-word anagrams, suggestions,
    code breaking (decode) and an acrostic assistant."""


@words.command("check")
@lexicon_options
@click.argument("word_list", metavar="WORD...", nargs=-1, required=True)
def words_check(source: str, alphabet: str | None, skip_invalid: bool,
                word_list: tuple[str, ...]) -> int:
    """Say of each WORD whether it is valid; exit 1 if any is not."""
    lex = _load(source, alphabet, skip_invalid)
    all_valid = True
    for w in word_list:
        ok = w in lex
        all_valid &= ok
        click.echo(f"{w} {'valid' if ok else 'invalid'}")
    return 0 if all_valid else 1


def _print_words(words: list[str], as_json: bool) -> None:
    if as_json:
        _emit_json(words)
    elif words:
        click.echo("\n".join(words))  # one write: a million words print in a second


@words.command("anagram")
@lexicon_options
@click.argument("rack")
@click.option("--subsets", is_flag=True, help="Every word the rack spells, not only those "
                                              "using every tile.")
@json_option
def words_anagram(source: str, alphabet: str | None, skip_invalid: bool, rack: str,
                  subsets: bool, as_json: bool) -> None:
    """Anagrams of RACK ('?' is a blank, and the letters it stands for are shown
    in lower case, as in moves; --json gives the words without marks)."""
    lex = _load(source, alphabet, skip_invalid)
    with _status("searching"):
        found = lex.anagrams(rack, subsets=subsets, mark_blanks=not as_json)
    _print_words(found, as_json)


@words.command("pattern")
@lexicon_options
@click.argument("pattern")
@click.option("--rack", default=None, help="Tiles that must fill the '?' and '*' of the "
                                           "pattern ('?' is a blank).")
@json_option
def words_pattern(source: str, alphabet: str | None, skip_invalid: bool, pattern: str,
                  rack: str | None, as_json: bool) -> None:
    """Words matching PATTERN: '?' one tile, '*' zero or more (C?T*). The letters
    the rack's blanks stand for are shown in lower case (not with --json)."""
    lex = _load(source, alphabet, skip_invalid)
    with _status("searching"):
        found = lex.pattern(pattern, rack=rack, mark_blanks=not as_json)
    _print_words(found, as_json)


@words.command("hooks")
@lexicon_options
@click.argument("word")
@json_option
def words_hooks(source: str, alphabet: str | None, skip_invalid: bool, word: str,
                as_json: bool) -> None:
    """Front and back hooks of WORD."""
    hooks = _load(source, alphabet, skip_invalid).hooks(word)
    if as_json:
        _emit_json(hooks.as_dict())
        return
    front = " ".join(hooks.front) or "-"
    back = " ".join(hooks.back) or "-"
    valid = "" if hooks.valid else "   (not a word)"
    click.echo(f"{front}  {hooks.word}  {back}{valid}")


@words.command("multi")
@lexicon_options
@click.argument("phrase")
@click.option("--min-length", default=2, show_default=True, type=Whole(1, 64),
              help="Shortest word to use.")
@click.option("--max-words", default=None, type=Whole(1, 64),
              help="Most words in one anagram (default: no limit).")
@click.option("--limit", default=None, type=Whole(1, 10**9), help="Stop after this many.")
@json_option
def words_multi(source: str, alphabet: str | None, skip_invalid: bool, phrase: str,
                min_length: int, max_words: int | None, limit: int | None,
                as_json: bool) -> None:
    """Multi-word anagrams of PHRASE (spaces ignored, '?' a blank, the letters it
    stands for shown in lower case but not with --json)."""
    lex = _load(source, alphabet, skip_invalid)
    with _status("searching"):
        found = lex.multi_anagrams(phrase, min_length=min_length, max_words=max_words,
                                   limit=limit, mark_blanks=not as_json)
    _print_words(found, as_json)


@words.command("suggest")
@lexicon_options
@click.argument("word")
@click.option("--distance", default=2, show_default=True, type=Whole(1, 3),
              help="Most edits (insert, delete or change a tile).")
@json_option
def words_suggest(source: str, alphabet: str | None, skip_invalid: bool, word: str,
                  distance: int, as_json: bool) -> None:
    """Spelling suggestions for WORD, nearest first."""
    lex = _load(source, alphabet, skip_invalid)
    with _status("searching"):
        found = lex.suggest(word, distance=distance)
    if as_json:
        _emit_json([w for w, _ in found])
        return
    for w, d in found:
        click.echo(f"{w}\t{d}")


@words.command("decode")
@lexicon_options
@click.argument("ciphers", metavar="PATTERN...", nargs=-1, required=True)
@click.option("--limit", default=1000, show_default=True, type=Whole(1, 10**9),
              help="Most answers to list (at most 100,000); a search stopped by it says so "
                   "on stderr.")
@json_option
def words_decode(source: str, alphabet: str | None, skip_invalid: bool,
                 ciphers: tuple[str, ...], limit: int, as_json: bool) -> None:
    """Break a substitution cipher: the words each PATTERN can stand for (XQZZX,
    or ABCA: the same letter where a pattern letter repeats, different ones
    where they differ). Several patterns share one key; each answer is a line
    of words, one per pattern. --json prints {"ciphers", "answers", "keys",
    "complete", "stopped"}."""
    lex = _load(source, alphabet, skip_invalid)
    with _status("searching"):
        found = lex.decode(ciphers, limit=limit)
    if as_json:
        _emit_json(found.as_dict())
    elif found.answers:
        click.echo("\n".join(" ".join(answer) for answer in found.answers))
    if found.stopped == "limit":
        click.echo(f"rackety: stopped at --limit {limit:,}: there may be more answers",
                   err=True)
    elif found.stopped == "budget":
        click.echo(f"rackety: the search stopped at its budget of steps with "
                   f"{len(found.answers):,} answers; there may be more (try fewer cipher "
                   "words at once)", err=True)


@words.command("acrostic")
@lexicon_options
@click.argument("quotation")
@click.option("--length", required=True, type=Whole(1, 10**6),
              help="Tiles in the answer (2 to 21).")
@click.option("--first", required=True, metavar="LETTER", help="The answer's first letter.")
@click.option("--used", multiple=True, metavar="WORD",
              help="An answer already chosen, whose letters leave the pool (repeatable).")
@json_option
def words_acrostic(source: str, alphabet: str | None, skip_invalid: bool, quotation: str,
                   length: int, first: str, used: tuple[str, ...], as_json: bool) -> None:
    """Acrostic assistant: the words of --length tiles starting with --first that
    the letters of QUOTATION (spaces and punctuation left out, accents folded)
    can spell, less the letters of each --used answer."""
    lex = _load(source, alphabet, skip_invalid)
    with _status("searching"):
        found = lex.acrostic(quotation, used=used).words(length, first)
    _print_words(found, as_json)


@words.command("list")
@lexicon_options
@json_option
def words_list(source: str, alphabet: str | None, skip_invalid: bool, as_json: bool) -> None:
    """Every word of the lexicon, in order."""
    lex = _load(source, alphabet, skip_invalid)
    with _status("listing"):
        found = lex.words()
    _print_words(found, as_json)


# --------------------------------------------------------- positions and moves
def position_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--alphabet and --board, which win over the CGP's ``ld`` and ``bdn``."""
    func = click.option("--board", "board_name", default=None, metavar="NAME",
                        help="Board layout (standard15, super21, wwf15, ...); wins over the "
                             "CGP's bdn.")(func)
    func = click.option("--alphabet", default=None, metavar="NAME",
                        help="Alphabet (english, catalan, english_super, ...); wins over the "
                             "CGP's ld. Default: english.")(func)
    return func


def _position(cgp: str, alphabet: str | None, board_name: str | None,
              source: str = "cgp", lexicon: str | None = None) -> Any:
    """The CGP's position, in ``--alphabet``, else in the alphabet of the
    ``--lexicon`` (``lexicon``: another language's built-in, or
    ``FILE:ALPHABET``) when the CGP has no ``ld``, else as the CGP says."""
    from rackety.game.board import Board
    from rackety.lexicon.languages import language

    default = None
    if lexicon is not None:
        other = language(lexicon)
        default = other.alphabet if other is not None else _lexicon_spec(lexicon, None)[1]
    return Board.from_cgp(cgp, alphabet=alphabet, layout=board_name, source=source,
                          default_alphabet=default)


def _lexicons(source: str | None, skip_invalid: bool = False) -> Any:
    """The command line's lexicons (`rackety.frontends.common.Lexicons`): ``source``
    (``--lexicon``) wins over a position's ``lex``; any built-in or file."""
    from rackety.frontends.common import Lexicons

    return Lexicons(files=True, preferred=source,
                    load=lambda name, alphabet: _load(name, alphabet, skip_invalid))


def _analyse(board: Any, lexicon: Any, cgp: str, top: int, count_only: bool, best: bool,
             generator: str, leaves: str) -> dict[str, Any]:
    """A position's moves as ``rackety moves`` reports them: equity = score +
    the value of the leave under ``leaves`` (a `resolve_leave` spec; ``none``:
    the score alone), which the result names."""
    from rackety.frontends.common import move_json, resolve_leave
    from rackety.game.heuristics import leave_label

    if count_only:
        moves = board.moves(lexicon, mode="count", generator=generator, leave=None)
        return {"cgp": cgp, "count": moves.count, "best_score": moves.best_score}
    model = resolve_leave(leaves, lexicon)
    label = leave_label(model, lexicon)
    extra: dict[str, Any] = {}
    if model is not None:
        from rackety.game.movegen import static_note

        note = static_note(board)
        if note:
            extra["adjustment"] = note
    if best:
        moves = board.moves(lexicon, mode="best", generator=generator, leave=model)
        chosen = moves.best()
        return {"cgp": cgp, "leaves": label, **extra,
                "moves": [move_json(board, chosen)] if chosen else []}
    moves = board.moves(lexicon, generator=generator, leave=model)
    return {"cgp": cgp, "leaves": label, **extra, "count": moves.count,
            "best_score": moves.best_score,
            "best_moves": sorted(board.notation(m) for m in moves.top_scoring()),
            "moves": [move_json(board, m) for m in moves[:top]]}


def _print_analysis(board: Any, result: dict[str, Any]) -> None:
    from rich.table import Table

    console = _out_console()
    console.print(board)
    if "count" in result:
        console.print(f"{result['count']:,} tile placements; best score "
                      f"{result['best_score'] if result['best_score'] is not None else '-'}")
    if result.get("moves"):
        scored = result.get("leaves", "none") == "none"
        console.print("moves by score (no leave values)" if scored else
                      f"moves by equity = score + leave value ({result['leaves']})")
        if result.get("adjustment"):
            console.print(f"static equity: {result['adjustment']}")
        table = Table(box=None, pad_edge=False)
        columns = [("#", "right"), ("move", "left"), ("score", "right"), ("leave", "left")]
        if not scored:
            columns.append(("equity", "right"))
        for name, justify in columns:
            table.add_column(name, justify=justify)  # type: ignore[arg-type]
        for i, m in enumerate(result["moves"], 1):
            row = [str(i), m["move"], str(m["score"]), m["leave"]]
            if not scored:
                row.append(f"{m['equity']:.1f}")
            table.add_row(*row)
        console.print(table)


def _out_console() -> Any:
    from rich.console import Console

    return Console(highlight=False)


def _think(board: Any, lexicon: Any, leaves: str, seconds: float, top: int, as_json: bool,
           source: str) -> None:
    """``rackety moves --think``: the judge's verdict within ``seconds``."""
    from rich.table import Table

    from rackety.search.judge import Budget, Judge

    if not board.rack:
        raise RacketyError("cgp: the player to move has no rack")
    judge = Judge(lexicon, leave=leaves, candidates=max(1, min(top, 15)), source=source)
    with _progress(counted=False) as bar:
        task = bar.add_task(f"thinking for {seconds:g} s", total=None)
        verdict = judge.verdict(board, Budget.clock(seconds), progress=lambda what, done, total:
                                bar.update(task, description=what, completed=done,
                                           total=total))
    if as_json:
        _emit_json({"cgp": board.cgp(), **verdict.as_json(board, top),
                    "seconds": round(verdict.seconds, 3)})
        return
    console = _out_console()
    console.print(board)
    unit = "spread to the end of the game" if verdict.unit == "spread" else "equity"
    table = Table(title=f"{verdict.valued_by} ({unit}), {verdict.seconds:.1f} s", box=None)
    for col in ("#", "move", "score", "win %", "value", "rollouts"):
        table.add_column(col, justify="left" if col == "move" else "right")
    for i, v in enumerate(verdict.ranked[:top], 1):
        table.add_row(str(i), board.notation(v.move), str(v.move.score or 0),
                      f"{v.win_pct:.1f}", f"{v.value:+.1f}" if verdict.unit == "spread"
                      else f"{v.value:.1f}", str(v.rollouts) if v.rollouts else "-")
    console.print(table)
    if verdict.note:
        console.print(verdict.note)


@cli.command("moves")
@click.option("--lexicon", "source", default=None, metavar="SOURCE",
              help="A built-in name, a word list or a .kwg file; wins over the CGP's lex "
                   f"(default: the CGP's lex, else {DEFAULT_LEXICON}).")
@click.option("--cgp", default=None, metavar="CGP", help="The position, one CGP line.")
@click.option("--cgp-file", default=None, type=FILE,
              metavar="FILE", help="One CGP per line ('-': standard input); one result per "
                                   "line out.")
@position_options
@click.option("--top", default=10, show_default=True, type=Whole(0, 10**6),
              help="How many moves to list, best equity first.")
@click.option("--count-only", is_flag=True, help="Only the count and the best score.")
@click.option("--best", is_flag=True, help="Only the best move by equity (pruned search).")
@leaves_option(none=True)
@click.option("--generator", type=click.Choice(["gaddag", "dawg"]), default="gaddag",
              show_default=True, help="Gordon's GADDAG or Appel and Jacobson's DAWG algorithm.")
@click.option("--think", default=None, metavar="SECONDS", type=Seconds(0, open_low=True),
              help="Ask the judge for this long: the exact endgame with the bag empty, the "
                   "pre-endgame with one or two tiles in it, else a simulation of the best "
                   "static moves ranked by win %.")
@click.option("--skip-invalid", is_flag=True, help="Drop invalid words from a word list.")
@json_option
def moves_command(source: str | None, cgp: str | None, cgp_file: str | None,
                  alphabet: str | None, board_name: str | None, top: int, count_only: bool,
                  best: bool, leaves: str, generator: str, think: float | None,
                  skip_invalid: bool, as_json: bool) -> None:
    """The moves of the player to move in a position: the number of tile
    placements, the best score and the top moves by equity (score + the value
    of the tiles kept, from the lexicon's shipped leave table by default).
    With --think, the judge's verdict for that long."""
    if (cgp is None) == (cgp_file is None):
        raise click.UsageError("give exactly one of --cgp and --cgp-file")
    if count_only and best:
        raise click.UsageError("--count-only and --best do not go together")
    if think is not None and (count_only or best or cgp_file is not None):
        raise click.UsageError("--think takes one --cgp, without --count-only or --best")
    lexicons = _lexicons(source, skip_invalid)
    if cgp is not None:
        board = _position(cgp, alphabet, board_name, lexicon=source)
        lexicon = lexicons.for_board(board, strict=True)
        if think is not None:
            _think(board, lexicon, leaves, think, top, as_json,
                   lexicons.name_for(None, board.lexicon_name, strict=True))
            return
        with _status("generating"):
            result = _analyse(board, lexicon, cgp.strip(), top, count_only, best, generator,
                              leaves)
        if as_json:
            _emit_json(result)
        else:
            _print_analysis(board, result)
        return
    assert cgp_file is not None
    name = "<stdin>" if cgp_file == "-" else cgp_file
    if cgp_file == "-":
        opened: Any = click.open_file(cgp_file, encoding="utf-8", errors="strict")
    else:  # a regular file of bounded size (a FIFO or /dev/zero would never end)
        import io

        from rackety.files import read_bytes

        opened = io.TextIOWrapper(io.BytesIO(read_bytes(cgp_file, "CGP file", 1 << 30)),
                                  encoding="utf-8", errors="strict")
    with opened as f, _status(f"positions of {name}") as status:
        try:
            for number, line in enumerate(f, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                board = _position(line, alphabet, board_name, source=f"{name}:{number}",
                                  lexicon=source)
                lexicon = lexicons.for_board(board, strict=True)
                result = _analyse(board, lexicon, line, top, count_only, best, generator,
                                  leaves)
                if as_json:
                    _emit_json(result)
                else:
                    _print_analysis(board, result)
                if number % 50 == 0:
                    status.update(f"positions of {name}: {number:,} lines done")
        except UnicodeDecodeError as exc:
            raise RacketyError(f"{name}: not UTF-8 text ({exc.reason})") from None


@cli.command("show")
@click.option("--cgp", required=True, metavar="CGP", help="The position, one CGP line.")
@position_options
@click.option("--svg", "svg_path", default=None, type=FILE,
              metavar="FILE", help="Also write the board as an SVG picture.")
@click.option("--no-color", is_flag=True, help="Plain text, no colours.")
def show_command(cgp: str, alphabet: str | None, board_name: str | None, svg_path: str | None,
                 no_color: bool) -> None:
    """Print a position's board, racks and scores."""
    if svg_path:
        writable_file(svg_path, "--svg")
    board = _position(cgp, alphabet, board_name)
    if no_color:
        click.echo(str(board))
    else:
        _out_console().print(board)
    if svg_path:
        from rackety.files import write_atomic

        write_atomic(svg_path, board.svg().encode("utf-8"))


# -------------------------------------------------------------------- gcg
@cli.group()
def gcg() -> None:
    """Game records (GCG): show a game's positions, check its scores."""


def gcg_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--alphabet and --board of a game record, which win over what the record implies."""
    func = click.option("--board", "board_name", default=None, metavar="NAME",
                        help="Board layout (standard15, super21, wwf15, ...); wins over "
                             "the record's ('#note BoardLayout: NAME'). Default: the "
                             "record's, else the alphabet's board.")(func)
    func = click.option("--alphabet", default=None, metavar="NAME",
                        help="Alphabet (english, polish, ...). Default: from the record's "
                             "#lexicon and tiles, else english.")(func)
    return func


def _gcg_replay(path: str, alphabet: str | None, board_name: str | None) -> Any:
    from rackety.game.gcg import read_gcg, replay

    return replay(read_gcg(path), alphabet=alphabet, layout=board_name)


def _gcg_event_json(number: int, event: Any) -> dict[str, Any]:
    return {"event": number, "nickname": event.nickname, "rack": event.rack,
            "kind": event.kind, "move": event.move, "score": event.score,
            "total": event.total}


@gcg.command("show")
@click.argument("path", metavar="FILE.gcg")
@click.option("--turn", type=Whole(1, 10**6), default=None, metavar="N",
              help="Show the position before event N (1-based, as numbered in the move "
                   "list): event N not played yet, its player to move with the rack the "
                   "record gives. N = events + 1 is the final position. Default: the final "
                   "position, after every event.")
@click.option("--cgp", "as_cgp", is_flag=True,
              help="Print only the position, as one CGP line.")
@gcg_options
@click.option("--no-color", is_flag=True, help="Plain text, no colours.")
@json_option
def gcg_show(path: str, turn: int | None, as_cgp: bool, alphabet: str | None,
             board_name: str | None, no_color: bool, as_json: bool) -> None:
    """Print a game's board, the tiles its player to move has not seen and the
    move list (the final position, or with --turn N the position before event N)."""
    from rackety.frontends.common import unseen_json
    from rackety.game.render import unseen_text

    game = _gcg_replay(path, alphabet, board_name)
    events = game.record.events
    if turn is not None and turn > len(events) + 1:
        raise RacketyError(f"--turn {turn}: {path} has {len(events)} events, so N is 1 to "
                           f"{len(events) + 1} (N = {len(events) + 1}: after the last one)")
    index = len(events) if turn is None else turn - 1
    board = game.positions[index]
    if as_cgp:
        click.echo(board.cgp())
        return
    if as_json:
        _emit_json({"file": path, "turn": index + 1, "final": index == len(events),
                    "cgp": board.cgp(), "unseen": unseen_json(board),
                    "players": [{"nickname": p.nickname, "name": p.name, "score": s}
                                for p, s in zip(game.record.players, game.scores,
                                                strict=False)],
                    "events": [_gcg_event_json(i, e) for i, e in enumerate(events, 1)],
                    "discrepancies": len(game.discrepancies)})
        return
    title = game.record.title or game.record.description or path
    click.echo(title)
    click.echo("   ".join(f"{i}. {p.nickname}" + (f" ({p.name})" if p.name and
                                                     p.name != p.nickname else "")
                          for i, p in enumerate(game.record.players, 1)))
    if index == len(events):
        click.echo(f"after the last event ({len(events)} events)")
    else:
        e = events[index]
        click.echo(f"before event {index + 1} ({e.nickname}: {e.rack} {e.move})"
                   .replace(":  ", ": "))
    if no_color:
        click.echo(str(board))
    else:
        _out_console().print(board)
    who = f"{events[index].nickname} to move" if index < len(events) else "after the end"
    click.echo(f"\n{who}: {unseen_text(board)}")
    click.echo("")
    nick = max([len(e.nickname) for e in events] + [6])
    rack = max([len(e.rack) for e in events] + [4])
    move = max([len(e.move) for e in events] + [4])
    click.echo(f"     {'#':>3} {'player':<{nick}} {'rack':<{rack}} {'move':<{move}} "
               f"{'score':>5} {'total':>5}")
    for i, e in enumerate(events):
        mark = "->" if i == index else "  "
        click.echo(f"  {mark} {i + 1:>3} {e.nickname:<{nick}} {e.rack:<{rack}} "
                   f"{e.move:<{move}} {e.score:>+5d} {e.total:>5}"
                   + (f"  {e.trailing}" if e.trailing else ""))
    if game.discrepancies:
        click.echo(f"{len(game.discrepancies)} scores or totals do not add up "
                   f"(rackety gcg check {path})")


@gcg.command("check")
@click.argument("path", metavar="FILE.gcg")
@gcg_options
@json_option
def gcg_check(path: str, alphabet: str | None, board_name: str | None,
              as_json: bool) -> int:
    """Re-score every play and add up every total; list what does not add up.

    Exit status 0 when everything adds up, 1 otherwise."""
    game = _gcg_replay(path, alphabet, board_name)
    record = game.record
    if as_json:
        _emit_json({"file": path, "events": len(record.events), "ok": game.ok,
                    "alphabet": game.alphabet.name, "layout": game.layout.name,
                    "scores": [{"nickname": p.nickname, "score": s}
                               for p, s in zip(record.players, game.scores, strict=False)],
                    "discrepancies": [{"event": d.index + 1, "line": d.line_number,
                                       "kind": d.kind, "written": d.written,
                                       "computed": d.computed}
                                      for d in game.discrepancies]})
        return 0 if game.ok else 1
    for d in game.discrepancies:
        click.echo(f"{path}:{d.line_number}: {d.describe()}")
    final = ", ".join(f"{p.nickname} {s}" for p, s in zip(record.players, game.scores,
                                                             strict=False))
    if game.ok:
        click.echo(f"{path}: {len(record.events)} events, every score and total adds up "
                   f"({final})")
        return 0
    click.echo(f"{path}: {len(record.events)} events, {len(game.discrepancies)} "
               f"discrepancies ({final})")
    return 1


# ------------------------------------------------------------ play, autoplay
class PlayersHelp(click.Option):
    """An option whose help says the player specs (`rackety.players.registry.
    describe_players`, read when the help is shown: the players' modules are
    not imported for every command): ``help`` holds ``{players}`` where they
    go, ``without`` the kinds it leaves out."""

    def __init__(self, *args: Any, without: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.without = without

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        if self.help and "{players}" in self.help:
            from rackety.players.registry import describe_players

            self.help = self.help.replace("{players}", describe_players(self.without))
        return super().get_help_record(ctx)


def _lexicon_spec(source: str, alphabet: str | None) -> tuple[str, str | None]:
    """``--lexicon SOURCE[:ALPHABET]`` and ``--alphabet`` as a source and an
    alphabet: ``words.txt:catalan`` is the list in Catalan (a source that is
    itself an existing file or built-in name stays whole)."""
    from rackety.alphabet import Alphabet
    from rackety.files import exists
    from rackety.lexicon.sources import is_builtin

    head, sep, tail = source.rpartition(":")
    if not sep or not head or is_builtin(source) or exists(source):
        return source, alphabet
    key = tail.strip().lower()
    if key not in Alphabet.names():
        return source, alphabet  # loading says what is wrong with it
    if alphabet is not None and Alphabet.load(alphabet).identity != Alphabet.load(key).identity:
        raise RacketyError(f"--lexicon {clip(source)} is in {key}, not in {clip(alphabet)}")
    return head, alphabet or key


def _opponent(spec: str, lexicon: Any) -> tuple[Any, str]:
    """The computer player of a spec (`make_player`) and what it plays by, in a
    line (the leave values of a static player: the lexicon's shipped table, or
    H3 where there is none, in any alphabet)."""
    from rackety.game.heuristics import leave_label
    from rackety.players import make_player

    player = make_player(spec, lexicon)
    model = getattr(player, "leave_model", None)
    how = f", equity with {leave_label(model, lexicon)} leave values" if model else ""
    return player, f"the computer plays {player.name}{how}"


def _board_name(board: str | None) -> str | None:
    """The layout ``--board`` names, by its name or an alias (``standard``,
    ``super``: `rackety.game.layout.Layout.load`'s), as its name."""
    from rackety.game.layout import Layout

    return None if board is None else Layout.load(board).name


@cli.command("play")
@click.option("--lexicon", "source", default=DEFAULT_LEXICON, show_default=True,
              metavar="SOURCE[:ALPHABET]",
              help="A built-in name, a word list or a .kwg file (words.txt:catalan: a list "
                   "in that alphabet).")
@click.option("--opponent", default="static", show_default=True, metavar="PLAYER",
              cls=PlayersHelp, help="The computer's level: {players}.")
@click.option("--players", default=2, show_default=True, type=Whole(2, 4),
              help="Players in the game, you included.")
@click.option("--board", "board_name", default=None, metavar="NAME",
              help="standard (default), super, or a layout name (super21, wwf15, ...).")
@click.option("--alphabet", default=None, metavar="NAME",
              help="Alphabet of the lexicon and the tiles (default: english).")
@click.option("--challenge", type=click.Choice(CHALLENGE_RULES), default=DEFAULT_CHALLENGE,
              show_default=True, help="Challenge rule.")
@VARIANT_OPTION
@click.option("--seed", type=SEED, default=None, help="Seed of the bag.")
@click.option("--name", default="you", show_default=True, help="Your name in the game.")
def play_command(source: str, opponent: str, players: int, board_name: str | None,
                 alphabet: str | None, challenge: str, variant: str, seed: int | None,
                 name: str) -> None:
    """Play against the computer in the terminal.

    One screen a turn, for a terminal of 80x24 or more: the board, the scores,
    your rack and the last moves beside it, then what was said. "hint" lists
    the best moves, "help" the commands.

    In another language (--lexicon SPANISH, or words.txt:catalan) the game has
    its alphabet and bag. A tile of several letters is one square, written bare
    (NY, L·L; ny a blank standing for NY); type it [NY] ([ny] a blank), as
    spelled where that reads as the tile (Catalan CANYA), or by its digit
    (Spanish 1 2 3 for CH LL RR): "help" says which."""
    from rackety.frontends.terminal import TerminalGame
    from rackety.game.rules import Rules

    source, alphabet = _lexicon_spec(source, alphabet)
    lexicon = _load(source, alphabet, False)
    made = [_opponent(opponent, lexicon) for _ in range(players - 1)]
    console = _out_console()

    def read(prompt: str) -> str:
        return console.input(prompt, markup=False)

    session = TerminalGame(lexicon, [player for player, _ in made], human_name=name, seed=seed,
                           layout=_board_name(board_name), alphabet=alphabet,
                           rules=Rules(challenge=challenge, variant=variant), read_line=read,
                           write=console.print, clear=console.clear,
                           size=lambda: (console.width, console.height))
    session.say(made[0][1])
    session.run()


@cli.command("autoplay")
@click.option("--lexicon", "source", default=DEFAULT_LEXICON, show_default=True,
              metavar="SOURCE[:ALPHABET]",
              help="A built-in name, a word list or a .kwg file (words.txt:catalan: a list "
                   "in that alphabet).")
@click.option("--players", "specs", default="h3,greedy", show_default=True,
              metavar="P1,P2[,...]",
              cls=PlayersHelp, help="2 to 4 players, each one of: {players}.")
@click.option("--games", default=100, show_default=True, type=Whole(1, 10**9),
              help="Games to play (rounded up to pairs with seats swapped).")
@click.option("--seed", default=1, show_default=True, type=SEED, help="Seed of the bags.")
@click.option("--jobs", default=None, type=JOBS,
              help="Processes (default: every core); with Ray, CPUs of a local instance.")
@click.option("--board", "board_name", default=None, metavar="NAME",
              help="standard (default), super, or a layout name.")
@click.option("--alphabet", default=None, metavar="NAME", help="Alphabet (default: english).")
@click.option("--gcg-dir", default=None, type=FILE,
              help="Write every game there as GCG.")
@VARIANT_OPTION
@backend_options
@json_option
def autoplay_command(source: str, specs: str, games: int, seed: int, jobs: int | None,
                     board_name: str | None, alphabet: str | None, gcg_dir: str | None,
                     variant: str, backend: str, address: str | None, as_json: bool) -> None:
    """Computer players against each other: Gordon's table of results."""

    from rackety.experiments.autoplay import tournament
    from rackety.game.rules import Rules

    names = [s.strip() for s in specs.split(",") if s.strip()]
    if gcg_dir is not None:
        writable_folder(gcg_dir, "--gcg-dir")
    source, alphabet = _lexicon_spec(source, alphabet)
    lexicon = _load(source, alphabet, False)  # compile and cache once, before the workers
    from rackety.players import make_player

    for spec in names:
        make_player(spec, lexicon)  # a bad player spec fails here, in one line
    with _progress() as bar:
        task = bar.add_task("games", total=games + (games % 2 if len(names) == 2 else 0))
        result = tournament(source, names, games, seed=seed, jobs=jobs,
                            layout=_board_name(board_name), alphabet=alphabet,
                            gcg_dir=gcg_dir, backend=backend, address=address,
                            rules=Rules(variant=variant),
                            progress=lambda k: bar.advance(task, k), keep_results=False)
    if as_json:
        _emit_json(result.as_json())
        return
    from rich.table import Table

    table = Table(title=f"{result.games:,} games, {result.games_per_second:.1f} games/s",
                  box=None, pad_edge=False,
                  caption=("95% CI from the pairs of games (seats swapped, same bag)"
                           if result.players[0].interval == "pairs" else None))
    for col in ("player", "win %", "95% CI", "avg", "moves", "sacr.", "exch.", "bingos",
                "ms/move"):
        table.add_column(col, justify="left" if col == "player" else "right")
    places = 2 if result.games >= 10_000 else 1  # a share of many games moves by 0.1 %
    for p in result.players:
        row = p.as_json()
        lo, hi = row["win_ci95"]
        table.add_row(p.name, f"{row['win_pct']:.{places}f}", f"{lo:.{places}f}-{hi:.{places}f}",
                      f"{row['avg_score']:.1f}", f"{p.moves:,}", f"{p.sacrifices:,}",
                      f"{p.exchanges:,}", f"{p.bingos:,}",
                      f"{1000 * row['seconds_per_move']:.2f}")
    _out_console().print(table)


# ---------------------------------------------------------------- simulation
@cli.command("sim")
@click.option("--lexicon", "source", default=None, metavar="SOURCE",
              help="A built-in name, a word list or a .kwg file; wins over the CGP's lex.")
@click.option("--cgp", required=True, metavar="CGP", help="The position, one CGP line.")
@position_options
@click.option("--plies", default=2, show_default=True, type=Whole(0, 10),
              help="Moves played out after each candidate.")
@click.option("--candidates", default=15, show_default=True, type=Whole(1, 200),
              help="How many of the best static moves to simulate.")
@click.option("--iterations", default=None, type=Whole(1, 10**9),
              help="Rollouts per candidate (default 1,000 without --seconds).")
@click.option("--seconds", default=None, type=Seconds(0.01),
              help="Stop after this long.")
@click.option("--seed", default=0, show_default=True, type=SEED, help="Seed of the rollouts.")
@leaves_option(none=False, what="The leave values of the candidates' and the rollouts' "
                                "static equity")
@click.option("--no-drop", "keep_all", is_flag=True,
              help="Keep every candidate to the end (by default one that falls behind the "
                   "leader at 99 % confidence is dropped, and the simulation stops when one "
                   "is left).")
@click.option("--infer", "infer_move", default=None, metavar="MOVE",
              help="The opponent's last play: the CGP is then the position before it (the "
                   "opponent to move, their rack unknown; yours second). The simulation "
                   "starts after it, with the opponent's racks drawn from what the play says "
                   "they kept (as rackety infer finds it).")
@click.option("--infer-margin", default=0.0, show_default=True, type=Points(0, 1000),
              help="With --infer: keep the racks from which the play is within this many "
                   "points of the best static equity.")
@click.option("--jobs", default=None, type=JOBS,
              help="Processes (default: every core); with Ray, tasks per batch (default 8).")
@backend_options
@json_option
def sim_command(source: str | None, cgp: str, alphabet: str | None, board_name: str | None,
                plies: int, candidates: int, iterations: int | None, seconds: float | None,
                seed: int, leaves: str, keep_all: bool, infer_move: str | None,
                infer_margin: float, jobs: int | None, backend: str, address: str | None,
                as_json: bool) -> None:
    """Monte Carlo simulation of the best static moves of a position: each
    candidate played out over the same random racks, ranked by win % (from
    the win-% table measured on rackety's self-play), then by mean spread
    change (equity). Says how many rollouts each candidate ran and
    why it stopped. With --infer, the opponent's racks come from what their
    last play says they kept."""

    from rackety.search.simulation import simulate

    board = _position(cgp, alphabet, board_name, lexicon=source)
    lexicons = _lexicons(source)
    lexicon = lexicons.for_board(board, strict=True)
    lexicon_source = lexicons.name_for(None, board.lexicon_name, strict=True)
    inferred = None
    opponent_leaves: Any = ()
    if infer_move is not None:
        from rackety.search.inference import position_after

        inferred = _run_inference(board, lexicon, infer_move, infer_margin, leaves, jobs)
        board = position_after(board, inferred)
        opponent_leaves = inferred.kept
        if not inferred.kept:
            click.echo(f"rackety: no rack makes {inferred.move} the static play within "
                       f"{infer_margin:g} points (--infer-margin); the opponent's racks are "
                       "drawn at random", err=True)
    total = iterations if iterations is not None else (None if seconds else 1000)
    with _progress(counted=False) as bar:
        task = bar.add_task("rollouts", total=total)
        result = simulate(board, lexicon, leave=leaves, candidates=candidates, plies=plies,
                          iterations=iterations, seconds=seconds, seed=seed, jobs=jobs,
                          drop=not keep_all, source=lexicon_source, backend=backend,
                          address=address, opponent_leaves=opponent_leaves,
                          progress=lambda done, alive: bar.update(
                              task, completed=done,
                              description=f"rollouts ({alive} candidates left)"))
    if as_json:
        from rackety.frontends.shapes import simulation_json

        _emit_json(simulation_json(board, result, inferred=inferred))
        return
    from rich.table import Table

    ran = [c.iterations for c in result.candidates]
    per = f"{min(ran):,}" if min(ran) == max(ran) else f"{min(ran):,} to {max(ran):,}"
    why = (f"{result.iterations:,} rollouts done" if result.stopped == "iterations" else
           f"the {seconds or 0:g} s limit" if result.stopped == "seconds" else
           "one candidate left, the others dropped")
    table = Table(title=f"{per} rollouts per candidate ({result.rollouts:,} in all, "
                        f"{result.iterations_per_second:,.0f}/s); stopped: {why}", box=None)
    for col in ("move", "win %", "equity", "rollouts", "stderr", "static"):
        table.add_column(col, justify="left" if col == "move" else "right")
    for c in result.candidates:
        table.add_row(board.notation(c.move) + (" (dropped)" if c.dropped else ""),
                      f"{c.win_pct:.1f}", f"{c.equity:.2f}", str(c.iterations),
                      "-" if c.iterations < 2 else f"{c.stderr:.2f}",
                      f"{c.static_equity:.1f}")
    if inferred is not None:
        likeliest = ", ".join(f"{text or '-'} {p:.0%}" for text, p in inferred.leaves[:5])
        _out_console().print(f"after {inferred.move}: the opponent kept {likeliest or '?'} ... "
                             f"({len(inferred.leaves):,} leaves from {inferred.consistent:,} "
                             "racks, rackety infer)")
    _out_console().print(table)


# -------------------------------------------------------------------- inference
def _run_inference(board: Any, lexicon: Any, move: str, margin: float, leaves: str,
                   jobs: int | None) -> Any:
    """`rackety.search.inference.infer` with a progress bar: every rack the
    unseen tiles allow gets the static player's decision, tens of thousands
    of them, so it says so."""
    from rackety.frontends.common import resolve_leave
    from rackety.search.inference import infer

    model = resolve_leave(leaves, lexicon)
    if model is None:
        raise RacketyError(f"leaves {clip(leaves)!r}: inference needs a leave model (static, "
                           "h1, h2, h3 or a table): the static player's equity is score "
                           "plus leave")
    with _progress() as bar:
        task = bar.add_task("racks (the static player's decision for each)", total=None)
        return infer(board, lexicon, move, margin=margin, leave=model, jobs=jobs,
                     progress=lambda done, total: bar.update(task, completed=done,
                                                             total=total))


@cli.command("infer")
@click.option("--lexicon", "source", default=None, metavar="SOURCE",
              help="A built-in name, a word list or a .kwg file; wins over the CGP's lex "
                   f"(default: the CGP's lex, else {DEFAULT_LEXICON}).")
@click.option("--cgp", required=True, metavar="CGP",
              help="The position before the play: its player to move made it (their rack "
                   "unknown, or the tiles known to be on it); the other racks, when given, "
                   "are the observer's.")
@position_options
@click.option("--move", "move", required=True, metavar="MOVE",
              help="The play: a placement (8D HALTED) or an exchange of N tiles "
                   "(exchange N, or -N).")
@click.option("--margin", default=0.0, show_default=True, type=Points(0, 1000),
              help="Keep a rack when the play is within this many points of the rack's best "
                   "static equity.")
@leaves_option(none=False, what="The leave values of the static equity")
@click.option("--top", default=None, type=Whole(1, 10**6),
              help="How many leaves to list, likeliest first (default: 20 in the table, all "
                   "in JSON).")
@click.option("--jobs", default=None, type=JOBS, help="Threads (default: every core).")
@json_option
def infer_command(source: str | None, cgp: str, alphabet: str | None, board_name: str | None,
                  move: str, margin: float, leaves: str, top: int | None, jobs: int | None,
                  as_json: bool) -> None:
    """What a player kept, from the play they made: every rack the unseen tiles
    allow, weighted by its draw probability, kept when the static player makes
    the play from it (within --margin of the rack's best static equity); the
    distribution of the tiles kept. An exchange's tiles are not seen: the
    player is taken to keep the best leave of the size left."""
    from rackety.frontends.common import inference_json

    board = _position(cgp, alphabet, board_name, lexicon=source)
    lexicon = _lexicons(source).for_board(board, strict=True)
    result = _run_inference(board, lexicon, move, margin, leaves, jobs)
    if as_json:
        _emit_json(inference_json(result, top=top))
        return
    from rich.table import Table

    alphabet_ = result.alphabet
    console = _out_console()
    rate = f", {result.racks_per_second:,.0f} racks/s" if result.racks >= 1000 else ""
    console.print(f"{result.move}: {result.consistent:,} of {result.racks:,} racks consistent "
                  f"({result.consistent_probability:.2%} of the draws; margin {result.margin:g}, "
                  f"leaves: {result.leave_model}) in {result.seconds:.1f} s{rate}")
    console.print(f"racks of {result.rack_size} drawn from the {len(result.unseen)} unseen "
                  f"tiles" + (f", holding {alphabet_.format(result.known)}" if result.known
                              else ""))
    if not result.leaves:
        console.print(f"no rack makes {result.move} the static player's play within "
                      f"{result.margin:g} points: try a --margin")
        return
    table = Table(box=None, pad_edge=False)
    for name, justify in (("#", "right"), ("kept", "left"), ("probability", "right")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for i, (text, p) in enumerate(result.leaves[:top or 20], 1):
        table.add_row(str(i), text or "(nothing)", f"{p:.2%}")
    console.print(table)
    if len(result.leaves) > (top or 20):
        console.print(f"... {len(result.leaves) - (top or 20):,} more leaves")
    letters = sorted(result.letters.items(), key=lambda kv: -kv[1])
    console.print("kept at least one: " + ", ".join(f"{k} {v:.0%}" for k, v in letters))


# ------------------------------------------------------------------- endgame
@cli.command("endgame")
@click.option("--lexicon", "source", default=None, metavar="SOURCE",
              help="A built-in name, a word list or a .kwg file; wins over the CGP's lex "
                   f"(default: the CGP's lex, else {DEFAULT_LEXICON}).")
@click.option("--cgp", required=True, metavar="CGP",
              help="The position, one CGP line with the bag empty and the mover's rack "
                   "(ABC/DEF; with the opponent's left empty, ABC/, it is the unseen tiles).")
@position_options
@click.option("--seconds", default=None, type=Seconds(0, open_low=True),
              help="Stop deepening after this long and give the best line of the last depth "
                   "searched (default: solve exactly).")
@click.option("--tt-bits", default=22, show_default=True, type=Whole(10, 30),
              help="Transposition table of at most 2^N entries (16 bytes each).")
@json_option
def endgame_command(source: str | None, cgp: str, alphabet: str | None,
                    board_name: str | None, seconds: float | None, tt_bits: int,
                    as_json: bool) -> None:
    """Solve an endgame (bag empty): the value for the player to move (the
    change in spread to the end of the game under best play) and a principal
    variation. An opponent's rack the CGP leaves unknown is the unseen tiles."""
    from rackety.frontends.shapes import endgame_json
    from rackety.search.endgame import known_racks, solve

    given = _position(cgp, alphabet, board_name, lexicon=source)
    board = known_racks(given)
    lexicon = _lexicons(source).for_board(board, strict=True)
    with _status("solving"):
        result = solve(board, lexicon, seconds=seconds, tt_bits=tt_bits)
    shape = endgame_json(board, result, given=given)
    if as_json:
        _emit_json(shape)
        return
    opponent, origin = shape["opponent_rack"], shape["opponent_rack_from"]
    how = "exact" if result.exact else f"not exact: stopped after {result.depth} plies"
    click.echo(f"value {result.value:+d} for the player to move ({how})")
    if origin == "unseen":
        click.echo(f"the opponent's rack: {opponent}, the unseen tiles (the bag is empty)")
    width = max([len(board.notation(m)) for m in result.pv] + [4])
    for i, move in enumerate(result.pv):
        who = "to move" if i % 2 == 0 else "opponent"
        click.echo(f"  {i + 1:>2}. {board.notation(move):<{width}} {move.score:>4}   {who}")
    click.echo(f"{result.nodes:,} nodes in {result.seconds:.3f} s "
               f"({result.nodes_per_second:,.0f} nodes/s), depth {result.depth}")


# ---------------------------------------------------------------- preendgame
@cli.command("preendgame")
@click.option("--lexicon", "source", default=None, metavar="SOURCE",
              help="A built-in name, a word list or a .kwg file; wins over the CGP's lex.")
@click.option("--cgp", required=True, metavar="CGP",
              help="The position: 1 to 6 tiles in the bag (the opponent's rack may be "
                   "given).")
@position_options
@click.option("--candidates", default=10, show_default=True, type=Whole(1, 100),
              help="How many of the best static placements to solve.")
@click.option("--seconds", default=None, type=Seconds(0.01),
              help="Time budget of the whole pre-endgame (default 20): "
                   "the endgames not solved exactly by then give the value of the deepest "
                   "search that finished and are marked not exact.")
@click.option("--exact", "exact", is_flag=True,
              help="Solve every endgame exactly, however long it takes (no time budget); "
                   "with 3 or more tiles in the bag, a play that leaves tiles in it is still "
                   "estimated by rollouts.")
@click.option("--jobs", default=None, type=JOBS, help="Processes (default: every core).")
@json_option
def preendgame_command(source: str | None, cgp: str, alphabet: str | None,
                       board_name: str | None, candidates: int, seconds: float | None,
                       exact: bool, jobs: int | None, as_json: bool) -> None:
    """1 to 6 tiles in the bag: every candidate over every possible draw, solved
    by endgames (two in the bag and a one-tile play: every reply of the opponent
    too); with 3 or more, a play that leaves tiles in the bag estimated by
    rollouts. Win %, expected spread change (the mover's spread at the end of the
    game minus now) and the best move."""
    from rackety.frontends.shapes import preendgame_json
    from rackety.search.preendgame import preendgame

    if exact and seconds is not None:
        raise RacketyError("--exact and --seconds: give one (--exact has no time budget)")
    board = _position(cgp, alphabet, board_name, lexicon=source)
    lexicons = _lexicons(source)
    lexicon = lexicons.for_board(board, strict=True)
    lexicon_source = lexicons.name_for(None, board.lexicon_name, strict=True)
    budget = None if exact else seconds or 20.0
    with _progress() as bar:
        task = bar.add_task("endgames solved", total=None)
        result = preendgame(board, lexicon, candidates=candidates, seconds=budget, jobs=jobs,
                            source=lexicon_source,
                            progress=lambda done, total, what: bar.update(
                                task, completed=done, total=total, description=what))
    shape = preendgame_json(board, result)
    if as_json:
        _emit_json(shape)
        return
    rows = shape["candidates"]
    from rich.table import Table

    if not result.endgames:
        note = "no endgame searched"
    elif result.exact_endgames == result.endgames:
        note = f"all {result.endgames} endgames solved exactly"
    else:
        note = (f"{result.exact_endgames} of {result.endgames} endgames solved exactly; the "
                f"others searched as deep as the {budget:g} s budget allowed (--exact: all, "
                "however long it takes)")
    if any(o.method == "rollouts" for o in result.outcomes):
        note += (f"; {result.bag} tiles in the bag: the plays that leave some are estimated by "
                 "rollouts to the end of the game")
    table = Table(title=f"best: {rows[0]['move']} ({result.bag} in the bag)", box=None)
    for col in ("move", "win %", "spread change", "draws", "exact", "how"):
        table.add_column(col, justify="left" if col in ("move", "how") else "right")
    for row in rows:
        if row["method"] == "rollouts":
            draws, exact_text = f"{row['rollouts']} rollouts", "no"
        else:
            draws = str(row["draws"]) if row["draws"] == row["worlds"] else \
                f"{row['draws']} of {row['worlds']}"
            exact_text = "yes" if row["exact"] else f"{row['exact_draws']} of {row['worlds']}"
        table.add_row(row["move"], f"{row['win_pct']:.1f}", f"{row['spread_change']:+.2f}",
                      draws, exact_text, row["method"])
    _out_console().print(table)
    click.echo(f"{note}, in {result.seconds:.1f} s")


# ------------------------------------------------------------------ leaves
@cli.group()
def leaves() -> None:
    """Leave values: train them by self-play."""


@leaves.command("train")
@click.option("--lexicon", "source", default=DEFAULT_LEXICON, show_default=True,
              metavar="SOURCE", help="A built-in name, a word list or a .kwg file.")
@click.option("--games", required=True, type=Whole(1, 10**9),
              help="Self-play games per generation.")
@click.option("--generations", default=1, show_default=True, type=Whole(1, 10_000),
              help="Generations: each plays with the table the one before made.")
@click.option("--init", default="h3", show_default=True, metavar="h3|none|FILE.klv2",
              help="The first table and prior: h1, h2, h3, none (every leave 0) or a "
                   "KLV2/KLV file.")
@click.option("--seed", default=1, show_default=True, type=SEED, help="Seed of the bags.")
@click.option("--min-count", default=50, show_default=True, type=Whole(0, 10**9),
              help="K: a leave seen K times is halfway between its prior and its mean.")
@click.option("--method", default="racks", show_default=True,
              type=click.Choice(["racks", "td"], case_sensitive=False),
              help="racks: each leave valued by the mean equity of the racks holding it; "
                   "td: by the next turn's score and leave.")
@click.option("--horizon", default=1, show_default=True, type=Whole(1, 2),
              help="Turns a rack's equity spans (racks): 1, the move's score and leave; "
                   "2, its score, the next turn's score and that turn's leave.")
@click.option("--jobs", default=None, type=JOBS,
              help="Processes (default: every core); with Ray, CPUs of a local instance.")
@click.option("--alphabet", default=None, metavar="NAME", help="Alphabet (default: english).")
@click.option("-o", "--output", required=True, type=FILE,
              metavar="OUT.klv2", help="The KLV2 file to write.")
@backend_options
@json_option
def leaves_train_command(source: str, games: int, generations: int, init: str, seed: int,
                         min_count: int, method: str, horizon: int, jobs: int | None,
                         alphabet: str | None, output: str, backend: str, address: str | None,
                         as_json: bool) -> None:
    """Train leave values by self-play (the mean equity of the racks holding
    each leave, or TD targets; shrunk toward the prior; see
    rackety.experiments.training) and write them as KLV2."""

    from rackety.experiments.training import train

    writable_file(output, "-o")
    _load(source, alphabet, False)  # compile and cache once, before the workers
    started = time.perf_counter()
    lines: list[dict[str, Any]] = []
    with _progress() as bar:
        tasks: dict[int, Any] = {}

        def progress(generation: int, done: int, total: int) -> None:
            if generation not in tasks:
                tasks[generation] = bar.add_task(f"generation {generation}", total=total)
            # the games are played; the leaves are valued next (up to a minute)
            label = f"generation {generation}" + (": valuing the leaves" if done == total else "")
            bar.update(tasks[generation], completed=done, description=label)

        def report(stats: Any) -> None:
            lines.append(stats.as_json())
            line = stats.summary(min_count)
            if as_json:  # stdout holds the JSON only
                bar.console.print(line, markup=False, highlight=False)
            else:
                click.echo(line)

        result = train(source, games, generations, init=init, seed=seed,
                       min_count=min_count, method=method.lower(), horizon=horizon,
                       backend=backend,
                       address=address, jobs=jobs,
                       alphabet=alphabet, progress=progress, report=report)
    result.save(output)
    seconds = time.perf_counter() - started
    if as_json:
        _emit_json({"output": output, "leaves": len(result.klv), "seconds": round(seconds, 2),
                    "generations": lines})
        return
    click.echo(f"wrote {click.format_filename(output)}: {len(result.klv):,} leaves, "
               f"{generations} generation(s) of "
               f"{games:,} games, {seconds:.1f} s")


# ------------------------------------------------------------------ analyze
def _backend_options(func: Callable[..., Any]) -> Callable[..., Any]:
    from rackety.backends import backend_options

    return backend_options(func)


#: the columns of ``rackety analyze --csv``: one row per assessed turn
ANALYSIS_CSV_FIELDS = ("file", "event", "line", "player", "rack", "kind", "played",
                       "played_score", "played_equity", "played_win_pct", "best",
                       "best_score", "best_equity", "best_win_pct", "equity_lost",
                       "win_pct_lost", "mistake", "bingo", "bingo_available", "missed_bingo",
                       "best_bingo", "phonies", "phony_fate", "valued_by", "unit")


def _analysis_tasks(paths: tuple[str, ...], source: str | None, leave: str,
                    sim_seconds: float | None, player: str | None, layout: str | None,
                    budget: float | None, plies: int | None
                    ) -> tuple[Iterator[Any], list[set[str] | None]]:
    """Read and replay every record here (a bad one fails at once, in one line;
    so does one whose #lexicon is not built in, unless --lexicon names one),
    load each lexicon once (so the workers find it compiled); the tasks, made
    (each record read again) as workers free up, so that many records are
    never all in memory; with ``player``, the nicknames it matches in each
    record."""
    from rackety.files import read_bytes
    from rackety.frontends.analysis import AnalysisTask, seats_of
    from rackety.frontends.common import resolve_leave
    from rackety.game.gcg import MAX_GCG, read_gcg, replay

    lexicons = _lexicons(source)
    where: list[tuple[str, str]] = []  # each record's lexicon and alphabet
    wanted: list[set[str] | None] = []
    checked: set[tuple[str, str]] = set()
    players: list[str] = []
    for path in paths:
        data = read_bytes(path, "GCG file", MAX_GCG)
        record = read_gcg(data, source=path)
        rep = replay(record, layout=layout)
        try:
            lexicon_source = lexicons.name_for(None, record.lexicon, strict=True)
        except RacketyError:
            raise RacketyError(
                f"{path}: the record's lexicon {clip(record.lexicon or '', 20)!r} is not built "
                f"in ({', '.join(lexicons.names())}); name one with --lexicon NAME or "
                "--lexicon FILE (a word list or a .kwg)") from None
        alphabet = rep.alphabet.name
        if (lexicon_source, alphabet) not in checked:
            try:
                lexicon = _load(lexicon_source, alphabet, False)
            except RacketyError:
                if source is not None or record.lexicon:
                    raise
                raise RacketyError(
                    f"{path}: the record is in alphabet {alphabet} and names no lexicon, and "
                    f"the default, {lexicon_source}, is not in it; name one with --lexicon "
                    "NAME or --lexicon FILE (a word list or a .kwg)") from None
            resolve_leave(leave, lexicon)  # a bad leave spec fails here, in one line
            checked.add((lexicon_source, alphabet))
        seats = seats_of(record, player)
        wanted.append(None if seats is None else {record.players[s].nickname for s in seats})
        players += [p.nickname for p in record.players if p.nickname not in players]
        where.append((lexicon_source, alphabet))
    if player is not None and not any(wanted):
        raise RacketyError(f"--player {player}: no such player in "
                           f"{'the record' if len(paths) == 1 else 'the records'}; players: "
                           f"{', '.join(players)}")

    def tasks() -> Iterator[Any]:
        for path, (lexicon_source, alphabet) in zip(paths, where, strict=True):
            yield AnalysisTask(read_bytes(path, "GCG file", MAX_GCG), path, lexicon_source,
                               alphabet, leave, sim_seconds, player, layout, budget, plies)

    return tasks(), wanted


def _record_json(analysis: Any, players: set[str] | None, layout: str | None) -> Any:
    """A record's analysis in its JSON form (`shapes.record_analysis_json`),
    the record read and replayed again here as the analysis replayed it."""
    from rackety.files import read_bytes
    from rackety.frontends.shapes import record_analysis_json
    from rackety.game.gcg import MAX_GCG, read_gcg, replay

    path = analysis.source
    record = read_gcg(read_bytes(path, "GCG file", MAX_GCG), source=path)
    return record_analysis_json(analysis, record, replay(record, layout=layout),
                                players=players)


def _analysis_row(path: str, turn: dict[str, Any]) -> list[Any]:
    """A turn of the JSON form (`shapes.TurnShape`) as a row of the CSV."""
    played, best = turn["played"] or {}, turn["best"] or {}
    row = {**turn, "file": path, "phonies": " ".join(turn["phonies"]),
           "played": played.get("move"), "played_score": played.get("score"),
           "played_equity": played.get("value"), "played_win_pct": played.get("win_pct"),
           "best": best.get("move"), "best_score": best.get("score"),
           "best_equity": best.get("value"), "best_win_pct": best.get("win_pct")}
    return ["" if row[k] is None else int(row[k]) if isinstance(row[k], bool) else row[k]
            for k in ANALYSIS_CSV_FIELDS]


def _analysis_notes(turn: dict[str, Any]) -> str:
    notes = []
    if turn["bingo"]:
        notes.append("bingo")
    if turn["missed_bingo"]:
        notes.append(f"missed bingo {turn['best_bingo']}")
    if turn["phonies"]:
        notes.append(f"phony {', '.join(turn['phonies'])} ({turn['phony_fate']})")
    if turn["mistake"] not in (None, "none"):
        notes.append(f"{turn['mistake']} mistake")
    if not turn["assessed"] and turn.get("why_not"):
        notes.append(f"not assessed: {turn['why_not']}")
    elif turn["valued_by"] not in (None, "static"):
        notes.append(turn["valued_by"])
    return "; ".join(notes)


def _print_record_analyses(games: list[dict[str, Any]], summary: list[dict[str, Any]],
                           how: str) -> None:
    from rich.console import Console
    from rich.table import Table

    console = _out_console()
    if not console.is_terminal:
        console = Console(highlight=False, width=120)  # a file or a pipe: no wrapping

    def number(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f}"

    from rackety.frontends.analysis import ASSESSED_KINDS

    for game in games:
        scores = ", ".join(f"{p} {s}" for p, s in zip(game["players"], game["scores"],
                                                      strict=False))
        console.print(f"[bold]{game['file']}[/bold]: {scores} ({game['lexicon']}, {how})")
        turns = [t for t in game["turns"] if t["kind"] in ASSESSED_KINDS]
        if not turns:
            console.print("  no turns of this player")
            continue
        table = Table(box=None, pad_edge=False)
        for name in ("#", "player", "rack", "played", "value", "best", "value", "lost",
                     "win % lost", "notes"):
            text = name in ("player", "rack", "played", "best", "notes")
            table.add_column(name, justify="left" if text else "right",
                             no_wrap=name != "notes")
        for t in turns:
            played, best = t["played"] or {}, t["best"] or {}
            table.add_row(str(t["event"]), t["player"], t["rack"],
                          played.get("move") or t["written"], number(played.get("value")),
                          best.get("move") or "-", number(best.get("value")),
                          number(t["equity_lost"]), number(t["win_pct_lost"]),
                          _analysis_notes(t))
        console.print(table)
    table = Table(title="summary" if len(games) == 1 else f"summary of {len(games)} games",
                  box=None, pad_edge=False)
    for name in ("player", "turns", "not assessed", "lost/turn", "lost", "win % lost",
                 "mistakes S/M/L", "Mistake Index", "bingos", "missed", "phonies",
                 "challenged off", "stood"):
        table.add_column(name, justify="left" if name == "player" else "right")
    for s in summary:
        sizes = "/".join(str(s["mistakes"][k]) for k in ("small", "medium", "large"))
        table.add_row(s["player"], str(s["turns"]), str(s["not_assessed"]),
                      f"{s['average_lost']:.1f}", f"{s['equity_lost']:.1f}",
                      f"{s['win_pct_lost']:.1f}", sizes, f"{s['mistake_index']:.1f}",
                      str(s["bingos"]), str(s["bingos_missed"]), str(s["phonies"]),
                      str(s["phonies_challenged"]), str(s["phonies_stood"]))
    console.print(table)
    from rackety.search.judge import grading

    console.print(grading())


@cli.command("analyze")
@click.argument("paths", metavar="FILE.gcg...", nargs=-1, required=True)
@click.option("--lexicon", "source", default=None, metavar="SOURCE",
              help="A built-in name, a word list or a .kwg file (default: the record's "
                   f"#lexicon when it is built in, else {DEFAULT_LEXICON}).")
@click.option("--player", default=None, metavar="NICK",
              help="Only this player's turns (nickname or full name, any case).")
@click.option("--sim", "sim_seconds", default=None, metavar="SECONDS",
              type=Seconds(0, open_low=True),
              help="Value the best static moves and the move played by simulating each "
                   "position this long, ranked by win % (default: static equity).")
@click.option("--budget", default=None, metavar="SECONDS", type=Seconds(0, open_low=True),
              help="Seconds of each endgame and pre-endgame search (default "
                   f"{EXACT_SECONDS:g}); a search cut short says so (valued_by).")
@click.option("--exact", "exact_all", is_flag=True,
              help="Solve every endgame and pre-endgame exactly, however long it takes.")
@click.option("--plies", default=None, type=Whole(1, 100), metavar="N",
              help="Search each endgame N plies deep at most, whatever the time: the same "
                   "analysis on any machine (instead of --budget).")
@leaves_option(none=True)
@_backend_options
@click.option("--jobs", default=None, type=JOBS,
              help="Processes (default: every core).")
@json_option
@click.option("--csv", "csv_path", default=None, type=FILE,
              metavar="OUT", help="Write one CSV row per assessed turn to OUT.")
@click.option("--html", "html_path", default=None, type=FILE, metavar="OUT.html",
              help="Write a report of the game to look at (one GCG file): the board after "
                   "every turn, the move played against the best, a chart of the equity "
                   "lost; one self-contained page.")
@click.option("--board", "board_name", default=None, metavar="NAME",
              help="The board of records that name none (standard, super, or a layout "
                   "name: super21, wwf15, ...); wins over a record's #note BoardLayout.")
def analyze_command(paths: tuple[str, ...], source: str | None, player: str | None,
                    sim_seconds: float | None, budget: float | None, exact_all: bool,
                    plies: int | None, leaves: str, backend: str, address: str | None,
                    jobs: int | None, as_json: bool, csv_path: str | None,
                    html_path: str | None, board_name: str | None) -> None:
    """Every turn of the games against the best move, as the judge sees it by
    the phase of the game (the exact endgame with the bag empty, the
    pre-endgame with one or two tiles in it, simulation with --sim, else
    static equity): the points and win % lost, mistakes by size and the
    Mistake Index, missed bingos, phonies and whether they were challenged
    off; a summary per player. Turns whose rack the record gives only partly
    are not assessed. Games are analysed in parallel."""
    from rackety.backends import run_tasks
    from rackety.frontends.analysis import analyze_task, summarize

    if sum(map(bool, (as_json, csv_path, html_path))) > 1:
        raise click.UsageError("give one of --json, --csv and --html")
    if html_path and len(paths) != 1:
        raise click.UsageError(f"--html writes the report of one game: give one FILE.gcg, "
                               f"not {len(paths)}")
    if csv_path:
        writable_file(csv_path, "--csv")
    if html_path:
        writable_file(html_path, "--html")
    if sim_seconds is not None and leaves.strip().lower() == "none":
        raise click.UsageError("--sim needs a leave model (--leaves static, h1, h2, h3 or "
                               "FILE.klv2)")
    if sum((exact_all, budget is not None, plies is not None)) > 1:
        raise click.UsageError("give one of --exact, --budget and --plies")
    layout = _board_name(board_name)
    tasks, wanted = _analysis_tasks(paths, source, leaves, sim_seconds, player, layout,
                                    None if exact_all else budget or EXACT_SECONDS, plies)
    if len(paths) > 1:

        with _progress() as bar:
            task = bar.add_task("games", total=len(paths))
            results = run_tasks(analyze_task, tasks, backend=backend, address=address,
                                jobs=jobs, total=len(paths), progress=lambda done, total:
                                bar.update(task, completed=done))
    elif backend == "local":  # one record, here: its turns as they are assessed
        with _progress() as bar:
            task = bar.add_task("turns assessed (endgames solved, positions valued)",
                                total=None)
            results = [analyze_task(t, progress=lambda done, total: bar.update(
                task, completed=done, total=total)) for t in tasks]
    else:
        with _status("analysing"):
            results = run_tasks(analyze_task, tasks, backend=backend, address=address,
                                jobs=jobs)
    games = [_record_json(r, names, layout) for r, names in zip(results, wanted, strict=True)]
    turns = [t for r, names in zip(results, wanted, strict=True) for t in r.listed(names)]
    summary = [s.as_json() for s in summarize(turns)]
    if as_json:
        _emit_json({"games": games, "summary": summary})
        return
    if html_path:
        from rackety.files import read_bytes, write_atomic
        from rackety.frontends.report import game_report_html
        from rackety.game.gcg import MAX_GCG, read_gcg, replay

        path = paths[0]  # replayed as the analysis replayed it
        rep = replay(read_gcg(read_bytes(path, "GCG file", MAX_GCG), source=path),
                     layout=layout)
        page = game_report_html(results[0], rep, players=wanted[0])
        write_atomic(html_path, page.encode("utf-8"))
        click.echo(f"rackety: the report of {click.format_filename(path)} "
                   f"({len(results[0].listed(wanted[0]))} turns) written to "
                   f"{click.format_filename(html_path)}")
        return
    if csv_path:
        import csv
        import io

        from rackety.files import write_atomic

        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(ANALYSIS_CSV_FIELDS)
        rows = 0
        for game in games:
            for turn in game["turns"]:
                if turn["assessed"]:
                    writer.writerow(_analysis_row(game["file"], turn))
                    rows += 1
        # a record's name as its bytes, even when they are not UTF-8
        write_atomic(csv_path, out.getvalue().encode("utf-8", "surrogateescape"))
        click.echo(f"rackety: {rows} assessed turns of {len(games)} game(s) written to "
                   f"{click.format_filename(csv_path)}")
        return
    how = f"simulated {sim_seconds:g} s a turn" if sim_seconds else \
        f"equity by {leaves} leaves" if leaves.strip().lower() != "none" else "equity = score"
    how += ", endgames solved " + (
        "exactly" if exact_all else f"{plies} plies deep at most" if plies else
        f"within {budget or EXACT_SECONDS:g} s a search")
    _print_record_analyses(games, summary, how)


# ------------------------------------------------------------------ serve
@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (localhost only by default).")
@click.option("--port", default=8000, show_default=True, type=Whole(0, 65535),
              help="Port to listen on (0: any free port).")
@click.option("--db", "db_path", default=None, type=FILE,
              metavar="PATH", help="The SQLite store of players, games and ratings "
                                   "(default: rackety.sqlite in the user data folder).")
@click.option("--lexicon", "extra", multiple=True, metavar="SOURCE[:ALPHABET]",
              help="Also offer this word list or KWG file (repeatable).")
@click.option("--leaves", "leave_files", multiple=True,
              type=FILE, metavar="FILE.klv2",
              help="Offer a static player with this leave table (repeatable).")
@click.option("--search-seconds", default=3.0, show_default=True, type=Seconds(0.05),
              help="Seconds of each endgame and pre-endgame search the analyses make "
                   "(a record's, a position's, a hint's).")
def serve_command(host: str, port: int, db_path: str | None, extra: tuple[str, ...],
                  leave_files: tuple[str, ...], search_seconds: float) -> None:
    """Start the web app to play and analyse, and print its address."""
    import socket
    from pathlib import Path

    import uvicorn

    from rackety.frontends.web.app import create_app

    if db_path is None:
        import platformdirs

        folder = Path(platformdirs.user_data_dir("rackety"))
        folder.mkdir(parents=True, exist_ok=True)
        db_path = str(folder / "rackety.sqlite")
    from rackety.files import read_bytes, regular_file

    regular_file(db_path, "--db")  # a folder, a FIFO or a device there: one line, no hang

    for f in leave_files:  # a missing or unreadable table fails now, not at a request
        read_bytes(f, "KLV file", 1 << 30)
    leaves = {Path(f).stem.lower(): str(Path(f).resolve()) for f in leave_files}
    app = create_app(db_path, lexicons=list(extra), leaves=leaves,
                     search_seconds=search_seconds)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        raise RacketyError(f"--host {host} --port {port}: cannot listen there "
                           f"({exc.strerror or exc})") from None
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"rackety: serving on http://{shown}:{bound} (database "
               f"{click.format_filename(db_path)}); Ctrl-C stops", err=False)
    sys.stdout.flush()
    _warm_in_background()
    config = uvicorn.Config(app, log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])


def _warm_in_background() -> None:
    """The kernels of the web app's requests loaded (compiled first, once, if
    ``rackety compile`` has not) in a thread while the server starts, each
    step said on stderr: the first request of each kind pays nothing for them."""
    import threading

    from rackety.frontends.compile import warm

    def say(message: str) -> None:
        click.echo(f"rackety: {message}", err=True)

    def run() -> None:
        try:
            warm(say=say)
        except Exception as exc:  # the requests compile what they need instead
            say(one_line(f"warming the kernels failed ({type(exc).__name__}: {exc}); "
                         "each request compiles what it needs"))

    say("loading the kernels in the background")
    threading.Thread(target=run, name="warm", daemon=True).start()


# ------------------------------------------------------------------- ucgi
@cli.command("ucgi")
@click.option("--player", default="static", show_default=True, metavar="PLAYER",
              cls=PlayersHelp, without=("human", "ucgi:COMMAND"),
              help="What the engine plays by: {players}; sim and best search for the move "
                   "time when the GUI gives one. UCGI: setoption name Player value PLAYER.")
@click.option("--lexicon", "source", default=None, metavar="SOURCE",
              help="A built-in name, a word list or a .kwg file; wins over a position's lex "
                   "(default: the position's lex if built in, else TWL06). UCGI: setoption "
                   "name Lexicon value SOURCE.")
def ucgi_command(player: str, source: str | None) -> None:
    """Be an engine of the Universal Crossword Game Interface (UCGI) on stdin and
    stdout, for a GUI or another program: ucgi, isready, setoption,
    ucginewgame, position cgp CGP [moves ...], go (with any of movetime MS,
    depth N, infinite, searchmoves ...), stop, quit. Moves are written 8h.WORD
    (across), h8.WORD (down), ex.ABC, pass."""
    from rackety.frontends.ucgi import serve

    serve(_lexicons(source), player=player, stdin=sys.stdin.buffer, stdout=sys.stdout,
          end_process=True, warm=True)


@cli.command("compile")
@click.option("--jobs", default=None, type=JOBS, help="Processes (default: every core).")
@click.option("--group", "groups", multiple=True, metavar="NAME",
              help="Only these groups of kernels (moves, words, variants, games, sim, "
                   "endgame, training; default: all).")
@click.option("--here", is_flag=True, hidden=True,
              help="Run the groups in this process (what each of the processes does).")
def compile_command(jobs: int | None, groups: tuple[str, ...], here: bool) -> None:
    """Compile every kernel now, so that no command compiles at its first use:
    a minute or two of CPU, once for each version of rackety and each machine
    (the README's install command runs it). The kernels go beside the code,
    and so does the bytecode of the package's modules."""
    import contextlib
    import subprocess
    import tempfile
    import time

    from rackety import jitcache
    from rackety.frontends.compile import AFTER_MOVES, EXERCISES, bytecode, run_group

    unknown = [g for g in groups if g not in EXERCISES]
    if unknown:
        raise click.BadParameter(f"no group {clip(unknown[0])!r} (one of "
                                 f"{', '.join(EXERCISES)})", param_hint="--group")
    todo = list(groups or EXERCISES)
    if here:
        problems = [line for g in todo for line in run_group(g, main)]
        for line in problems:
            click.echo(one_line(line), err=True)
        sys.exit(1 if problems else 0)
    if not jitcache.writable():
        raise RacketyError(f"{click.format_filename(str(jitcache.folder()))}: cannot write the "
                           "compiled kernels there (RACKETY_KERNEL_CACHE names another folder)")
    jobs = jobs or os.cpu_count() or 1
    t0 = time.perf_counter()
    bytecode()  # first: the groups' processes import the package too
    running: dict[str, tuple[subprocess.Popen[bytes], Any]] = {}
    failed: list[str] = []
    done: list[str] = []
    with _progress() as progress, contextlib.ExitStack() as files:
        task = progress.add_task("compiling the kernels", total=len(todo))
        while todo or running:
            ready = [g for g in todo if g not in AFTER_MOVES or
                     ("moves" not in todo and "moves" not in running)]
            while ready and len(running) < jobs:
                group = ready.pop(0)
                todo.remove(group)
                # its stderr to a file, not a pipe: no size to fill
                said = files.enter_context(tempfile.TemporaryFile())
                running[group] = (subprocess.Popen(
                    [sys.executable, "-m", "rackety", "compile", "--here", "--group", group],
                    stdout=subprocess.DEVNULL, stderr=said), said)
            time.sleep(0.05)
            for group, (process, said) in list(running.items()):
                if process.poll() is None:
                    continue
                del running[group]
                said.seek(0)
                lines = said.read().decode(errors="replace").strip().splitlines()
                if process.returncode:
                    failed.append(f"{group}: {(lines or [f'exit {process.returncode}'])[-1]}")
                else:
                    done.append(group)
                progress.advance(task)
    if done:
        jitcache.record(done)
    size = sum(p.stat().st_size for p in jitcache.folder().rglob("*") if p.is_file())
    click.echo(f"compiled {len(done)} group{'s' if len(done) != 1 else ''} of kernels in "
               f"{time.perf_counter() - t0:.0f} s into {jitcache.folder()} "
               f"({size / 1e6:.0f} MB)")
    if failed:
        for line in failed:
            click.echo(one_line(f"rackety compile: {line}"), err=True)
        sys.exit(1)


# ------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    """Entry point: run the command, turning every user mistake into one line."""
    try:
        result = cli.main(args=argv, prog_name="rackety", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code or 0)
    except click.ClickException as exc:
        ctx = getattr(exc, "ctx", None)
        where = ctx.command_path if ctx is not None else "rackety"
        click.echo(one_line(f"{where}: error: {exc.format_message()}"), err=True)
        return 2
    except click.exceptions.Abort:
        click.echo("rackety: aborted", err=True)
        return 130
    except RacketyError as exc:
        click.echo(one_line(f"rackety: error: {exc}"), err=True)
        return 2
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (rackety ... | head): not an error
        return 0
    except KeyboardInterrupt:
        click.echo("rackety: interrupted", err=True)
        return 130
    except Exception as exc:  # a bug, not a user mistake: still one line, and a way to see it
        if os.environ.get("RACKETY_DEBUG"):
            raise
        click.echo(one_line(f"rackety: internal error: {type(exc).__name__}: {exc} (a bug; "
                            "RACKETY_DEBUG=1 shows where)"), err=True)
        return 70
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    sys.exit(main())
