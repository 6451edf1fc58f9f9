"""``rackety autoplay`` and ``leaves train``: computer players against each other,
leave values trained by self-play."""

from __future__ import annotations

import time
from typing import Any

import click

from rackety.backends import backend_options
from rackety.files import writable_file, writable_folder
from rackety.frontends.cli.base import (
    FILE,
    JOBS,
    SEED,
    VARIANT_OPTION,
    PlayersHelp,
    Whole,
    cli,
    emit_json,
    json_option,
    layout_name,
    lexicon_spec,
    load_lexicon,
    out_console,
    progress_bar,
)
from rackety.game.rules import Variant
from rackety.lexicon.sources import DEFAULT_LEXICON


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
                     variant: Variant, backend: str, address: str | None,
                     as_json: bool) -> None:
    """Computer players against each other: Gordon's table of results."""

    from rackety.experiments.autoplay import tournament
    from rackety.game.rules import Rules

    names = [s.strip() for s in specs.split(",") if s.strip()]
    if gcg_dir is not None:
        writable_folder(gcg_dir, "--gcg-dir")
    source, alphabet = lexicon_spec(source, alphabet)
    lexicon = load_lexicon(source, alphabet, False)  # compile and cache once, before the workers
    from rackety.players import make_player

    for spec in names:
        make_player(spec, lexicon)  # a bad player spec fails here, in one line
    with progress_bar() as bar:
        task = bar.add_task("games", total=games + (games % 2 if len(names) == 2 else 0))
        result = tournament(source, names, games, seed=seed, jobs=jobs,
                            layout=layout_name(board_name), alphabet=alphabet,
                            gcg_dir=gcg_dir, backend=backend, address=address,
                            rules=Rules(variant=variant),
                            progress=lambda k: bar.advance(task, k), keep_results=False)
    if as_json:
        emit_json(result.as_json())
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
    out_console().print(table)


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
    load_lexicon(source, alphabet, False)  # compile and cache once, before the workers
    started = time.perf_counter()
    lines: list[dict[str, Any]] = []
    with progress_bar() as bar:
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
        emit_json({"output": output, "leaves": len(result.klv), "seconds": round(seconds, 2),
                    "generations": lines})
        return
    click.echo(f"wrote {click.format_filename(output)}: {len(result.klv):,} leaves, "
               f"{generations} generation(s) of "
               f"{games:,} games, {seconds:.1f} s")
