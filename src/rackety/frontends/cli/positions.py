"""``rackety moves``, ``show`` and ``gcg``: a position's moves, its board, a game record."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from rackety.errors import RacketyError
from rackety.files import writable_file
from rackety.frontends.cli.base import (
    FILE,
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


def _analyse(board: Any, lexicon: Any, cgp: str, top: int, count_only: bool, best: bool,
             generator: str, leaves: str) -> dict[str, Any]:
    """A position's moves as ``rackety moves`` reports them: equity = score +
    the value of the leave under ``leaves`` (a `resolve_leave` spec; ``none``:
    the score alone), which the result names."""
    from rackety.frontends.common import move_json, resolve_leave
    from rackety.frontends.shapes import moves_json
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
    return {"cgp": cgp, **moves_json(board, moves, top=top, leaves=label,
                                     adjustment=extra.get("adjustment"))}


def _print_analysis(board: Any, result: dict[str, Any]) -> None:
    from rich.table import Table

    console = out_console()
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


def _think(board: Any, lexicon: Any, leaves: str, seconds: float, top: int, as_json: bool,
           source: str) -> None:
    """``rackety moves --think``: the judge's verdict within ``seconds``."""
    from rich.table import Table

    from rackety.frontends.common import position_verdict
    from rackety.search.judge import Budget

    if not board.rack:
        raise RacketyError("cgp: the player to move has no rack")
    with progress_bar(counted=False) as bar:
        task = bar.add_task(f"thinking for {seconds:g} s", total=None)
        verdict = position_verdict(
            board, lexicon, leaves, top, Budget.clock(seconds), source=source,
            progress=lambda what, done, total: bar.update(task, description=what,
                                                         completed=done, total=total))
    if as_json:  # the verdict's one shape, as the web app gives it
        emit_json({"cgp": board.cgp(), **verdict.as_json(board, top)})
        return
    console = out_console()
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
    lexicons = command_lexicons(source, skip_invalid)
    if cgp is not None:
        board = read_position(cgp, alphabet, board_name, lexicon=source)
        lexicon = lexicons.for_board(board, strict=True)
        if think is not None:
            _think(board, lexicon, leaves, think, top, as_json,
                   lexicons.name_for(None, board.lexicon_name, strict=True))
            return
        with working("generating"):
            result = _analyse(board, lexicon, cgp.strip(), top, count_only, best, generator,
                              leaves)
        if as_json:
            emit_json(result)
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
    with opened as f, working(f"positions of {name}") as status:
        try:
            for number, line in enumerate(f, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                board = read_position(line, alphabet, board_name, source=f"{name}:{number}",
                                  lexicon=source)
                lexicon = lexicons.for_board(board, strict=True)
                result = _analyse(board, lexicon, line, top, count_only, best, generator,
                                  leaves)
                if as_json:
                    emit_json(result)
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
    board = read_position(cgp, alphabet, board_name)
    if no_color:
        click.echo(str(board))
    else:
        out_console().print(board)
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


def _gcg_event_json(game: Any, step: Any) -> Any:
    """A record's event as its replay reads it, in the one form of a game's
    event (as the web app lists a game's): the player by nickname, the move in
    notation (a play's tiles on the board in parentheses, ``exch ABC``,
    ``pass``), the rack in alphabet order."""
    from rackety.frontends.shapes import game_event_json
    from rackety.game.gcg import game_kind
    from rackety.game.move import Move, format_leave

    alphabet = game.alphabet
    move = step.move
    if step.kind == "withdrawn" and step.takes is not None:  # the play taken back
        move = game.steps[step.takes].move
    if step.kind == "exchange":
        move = Move("exchange", tiles=step.tiles, alphabet=alphabet) if step.tiles else None
    text = move.notation(alphabet) if move is not None else \
        {"exchange": f"exch {step.count}", "pass": "pass"}.get(step.kind)
    event = game.record.events[step.index]
    return game_event_json(step.index, step.seat, game.record.players[step.seat].nickname,
                           game_kind(step.kind), move, text, step.score, step.total,
                           "" if step.rack is None else format_leave(alphabet, step.rack),
                           event.notes)


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
        emit_json({"file": path, "turn": index + 1, "final": index == len(events),
                    "cgp": board.cgp(), "unseen": unseen_json(board),
                    "players": [{"nickname": p.nickname, "name": p.name, "score": s}
                                for p, s in zip(game.record.players, game.scores,
                                                strict=False)],
                    "events": [_gcg_event_json(game, step) for step in game.steps],
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
        out_console().print(board)
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
        emit_json({"file": path, "events": len(record.events), "ok": game.ok,
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
