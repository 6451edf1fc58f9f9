"""``rackety analyze``: game records against the judge's best moves."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import click

from rackety.backends import backend_options
from rackety.errors import RacketyError, clip
from rackety.files import writable_file
from rackety.frontends.cli.base import (
    FILE,
    JOBS,
    Seconds,
    Whole,
    cli,
    command_lexicons,
    emit_json,
    json_option,
    layout_name,
    leaves_option,
    load_lexicon,
    out_console,
    progress_bar,
    working,
)
from rackety.lexicon.sources import DEFAULT_LEXICON
from rackety.search.control import EXACT_SECONDS


# ------------------------------------------------------------------ analyze
def _backend_options(func: Callable[..., Any]) -> Callable[..., Any]:

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

    lexicons = command_lexicons(source)
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
                lexicon = load_lexicon(lexicon_source, alphabet, False)
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

    console = out_console()
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
    layout = layout_name(board_name)
    tasks, wanted = _analysis_tasks(paths, source, leaves, sim_seconds, player, layout,
                                    None if exact_all else budget or EXACT_SECONDS, plies)
    if len(paths) > 1:

        with progress_bar() as bar:
            task = bar.add_task("games", total=len(paths))
            results = run_tasks(analyze_task, tasks, backend=backend, address=address,
                                jobs=jobs, total=len(paths), progress=lambda done, total:
                                bar.update(task, completed=done))
    elif backend == "local":  # one record, here: its turns as they are assessed
        with progress_bar() as bar:
            task = bar.add_task("turns assessed (endgames solved, positions valued)",
                                total=None)
            results = [analyze_task(t, progress=lambda done, total: bar.update(
                task, completed=done, total=total)) for t in tasks]
    else:
        with working("analysing"):
            results = run_tasks(analyze_task, tasks, backend=backend, address=address,
                                jobs=jobs)
    games = [_record_json(r, names, layout) for r, names in zip(results, wanted, strict=True)]
    turns = [t for r, names in zip(results, wanted, strict=True) for t in r.listed(names)]
    summary = [s.as_json() for s in summarize(turns)]
    if as_json:
        emit_json({"games": games, "summary": summary})
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
