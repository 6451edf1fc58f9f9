"""``rackety serve``, ``ucgi`` and ``compile``: the web app, the UCGI engine, the kernels."""

from __future__ import annotations

import os
import sys
import time
from typing import Any

import click

from rackety.errors import RacketyError, clip, one_line
from rackety.frontends.cli.base import (
    FILE,
    JOBS,
    PlayersHelp,
    Seconds,
    Whole,
    cli,
    command_lexicons,
    main,
    progress_bar,
    store_path,
)


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

    db_path = store_path(db_path)
    from rackety.files import read_bytes

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

    serve(command_lexicons(source), player=player, stdin=sys.stdin.buffer, stdout=sys.stdout,
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
    with progress_bar() as progress, contextlib.ExitStack() as files:
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
