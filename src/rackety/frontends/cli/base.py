"""What the ``rackety`` commands share: the ``rackety`` group, the types of
their options, the options several take, the spinner and progress bars on
stderr, the JSON on stdout, the reading of a position and of a lexicon, and
`main`, which turns every user mistake into one line."""

from __future__ import annotations

import json
import math
import os
import re
import sys
from collections.abc import Callable
from typing import Any

import click

from rackety.errors import RacketyError, clip, one_line, parse_int
from rackety.game.rules import VARIANTS
from rackety.lexicon.sources import DEFAULT_LEXICON, builtin_names

_stderr_console = None
_DECIMAL = re.compile(r"[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]{1,3})?")
MAX_SEED = (1 << 63) - 1
MAX_JOBS = 1024
MAX_SECONDS = 1_000_000.0  # eleven days


class Whole(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.2 on
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


class Seconds(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.2 on
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


class Points(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.2 on
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


class FileName(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.2 on
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


def compile_notice(lexicon: bool = False) -> str | None:
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


def working(message: str) -> Any:
    """A spinner on stderr while something runs (shown on a terminal only). On a
    command's first run its kernels compile, which takes seconds: the spinner
    says so instead of ``message``, or after it for a lexicon's first build."""
    lexicon = message.startswith(("compiling lexicon", "building lexicon"))
    notice = compile_notice(lexicon)
    if notice:
        message = (f"{message.removesuffix(' (first use)')}, and "
                   f"{notice.removeprefix('compiling ')}") if lexicon else notice
    return _console().status(message, spinner="dots")


def progress_bar(counted: bool = True) -> Any:
    """A progress bar on stderr, shown on a terminal only (in a pipe or a log it
    would leave a stray line before an error); on a command's first run, a line
    above it says that its kernels compile first."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    notice = compile_notice()
    if notice and _console().is_terminal:
        _console().print(f"rackety: {notice}", highlight=False)
    columns = ("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn()) if counted else ()
    return Progress(*columns, console=_console(), transient=True,
                    disable=not _console().is_terminal)


def store_path(db_path: str | None) -> str:
    """The SQLite store's path: ``--db``'s, or rackety.sqlite in the user data
    folder (made if missing); a folder, a FIFO or a device there is one line."""
    from rackety.files import regular_file

    if db_path is None:
        from pathlib import Path

        import platformdirs

        folder = Path(platformdirs.user_data_dir("rackety"))
        folder.mkdir(parents=True, exist_ok=True)
        db_path = str(folder / "rackety.sqlite")
    regular_file(db_path, "--db")  # a folder, a FIFO or a device there: one line, no hang
    return db_path


def emit_json(value: Any) -> None:
    click.echo(json.dumps(value, ensure_ascii=False))


def load_lexicon(source: str, alphabet: str | None, skip_invalid: bool) -> Any:
    from rackety.lexicon import Lexicon

    source, alphabet = lexicon_spec(source, alphabet)  # words.txt:catalan
    lexicon = Lexicon.load(source, alphabet, skip_invalid=skip_invalid, progress=working)
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


def read_position(cgp: str, alphabet: str | None, board_name: str | None,
              source: str = "cgp", lexicon: str | None = None) -> Any:
    """The CGP's position, in ``--alphabet``, else in the alphabet of the
    ``--lexicon`` (``lexicon``: another language's built-in, or
    ``FILE:ALPHABET``) when the CGP has no ``ld``, else as the CGP says."""
    from rackety.game.board import Board
    from rackety.lexicon.languages import language

    default = None
    if lexicon is not None:
        other = language(lexicon)
        default = other.alphabet if other is not None else lexicon_spec(lexicon, None)[1]
    return Board.from_cgp(cgp, alphabet=alphabet, layout=board_name, source=source,
                          default_alphabet=default)


def command_lexicons(source: str | None, skip_invalid: bool = False) -> Any:
    """The command line's lexicons (`rackety.frontends.common.Lexicons`): ``source``
    (``--lexicon``) wins over a position's ``lex``; any built-in or file."""
    from rackety.frontends.common import Lexicons

    return Lexicons(files=True, preferred=source,
                    load=lambda name, alphabet: load_lexicon(name, alphabet, skip_invalid))


def out_console() -> Any:
    from rich.console import Console

    return Console(highlight=False)


class PlayersHelp(click.Option):
    """An option whose help says the player specs (`rackety.players.registry.
    describe_players`, read when the help is read: the players' modules are
    not imported for every command): ``help`` holds ``{players}`` where they
    go, ``without`` the kinds it leaves out."""

    def __init__(self, *args: Any, without: tuple[str, ...] = (), **kwargs: Any) -> None:
        self.without = without
        super().__init__(*args, **kwargs)

    @property
    def help(self) -> str | None:
        text = self._template
        if text and "{players}" in text:
            from rackety.players.registry import describe_players

            return text.replace("{players}", describe_players(self.without))
        return text

    @help.setter
    def help(self, text: str | None) -> None:
        self._template = text


def lexicon_spec(source: str, alphabet: str | None) -> tuple[str, str | None]:
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


def layout_name(board: str | None) -> str | None:
    """The layout ``--board`` names, by its name or an alias (``standard``,
    ``super``: `rackety.game.layout.Layout.load`'s), as its name."""
    from rackety.game.layout import Layout

    return None if board is None else Layout.load(board).name


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
