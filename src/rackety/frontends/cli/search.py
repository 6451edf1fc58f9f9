"""``rackety sim``, ``infer``, ``endgame`` and ``preendgame``: the searches of a position."""

from __future__ import annotations

from typing import Any

import click

from rackety.backends import backend_options
from rackety.errors import RacketyError, clip
from rackety.frontends.cli.base import (
    JOBS,
    SEED,
    Points,
    Seconds,
    Whole,
    cli,
    command_lexicons,
    emit_json,
    json_option,
    leaves_option,
    out_console,
    position_options,
    progress_bar,
    read_position,
    working,
)
from rackety.lexicon.sources import DEFAULT_LEXICON


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

    board = read_position(cgp, alphabet, board_name, lexicon=source)
    lexicons = command_lexicons(source)
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
    with progress_bar(counted=False) as bar:
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

        emit_json(simulation_json(board, result, inferred=inferred))
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
        out_console().print(f"after {inferred.move}: the opponent kept {likeliest or '?'} ... "
                             f"({len(inferred.leaves):,} leaves from {inferred.consistent:,} "
                             "racks, rackety infer)")
    out_console().print(table)


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
    with progress_bar() as bar:
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

    board = read_position(cgp, alphabet, board_name, lexicon=source)
    lexicon = command_lexicons(source).for_board(board, strict=True)
    result = _run_inference(board, lexicon, move, margin, leaves, jobs)
    if as_json:
        emit_json(inference_json(result, top=top))
        return
    from rich.table import Table

    alphabet_ = result.alphabet
    console = out_console()
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

    given = read_position(cgp, alphabet, board_name, lexicon=source)
    board = known_racks(given)
    lexicon = command_lexicons(source).for_board(board, strict=True)
    with working("solving"):
        result = solve(board, lexicon, seconds=seconds, tt_bits=tt_bits)
    shape = endgame_json(board, result, given=given)
    if as_json:
        emit_json(shape)
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
    board = read_position(cgp, alphabet, board_name, lexicon=source)
    lexicons = command_lexicons(source)
    lexicon = lexicons.for_board(board, strict=True)
    lexicon_source = lexicons.name_for(None, board.lexicon_name, strict=True)
    budget = None if exact else seconds or 20.0
    with progress_bar() as bar:
        task = bar.add_task("endgames solved", total=None)
        result = preendgame(board, lexicon, candidates=candidates, seconds=budget, jobs=jobs,
                            source=lexicon_source,
                            progress=lambda done, total, what: bar.update(
                                task, completed=done, total=total, description=what))
    shape = preendgame_json(board, result)
    if as_json:
        emit_json(shape)
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
    out_console().print(table)
    click.echo(f"{note}, in {result.seconds:.1f} s")
