"""``rackety quiz`` and ``rackety study``: word quizzes in the terminal, one
question a line (`rackety.study.quiz`), and a player's deck of them scheduled
by spaced repetition in the store (`rackety.study.schedule`; docs/STUDY.md)."""

from __future__ import annotations

import sys
import time
from typing import Any

import click

from rackety.errors import RacketyError, clip
from rackety.frontends.cli.base import (
    FILE,
    SEED,
    Seconds,
    Whole,
    cli,
    emit_json,
    json_option,
    lexicon_options,
    load_lexicon,
    progress_bar,
    store_path,
    working,
)
from rackety.frontends.cli.wordtools import ranks_option, read_ranks
from rackety.study.quiz import (
    MAX_QUESTIONS,
    Order,
    Question,
    anagram_questions,
    hook_questions,
    judge_questions,
    question_for,
)

#: the most bytes of a list of words given to a quiz
MAX_LIST_BYTES = 64 << 20
#: the most bytes of a reply read (the rest of a longer line is another reply)
MAX_REPLY_BYTES = 1 << 16
#: the clock an answer's seconds are read on
answer_clock = time.monotonic


@cli.group()
def quiz() -> None:
    """Word quizzes: anagrams of alphagrams in probability order, hooks, and
    the word judge. Each question is asked on a line and answered on the
    next (an empty line passes, the end of the input stops); --json prints
    the questions and their answers instead of asking."""


def _list_options(func: Any) -> Any:
    func = click.option("--games", type=Whole(1, 10_000_000), default=None,
                        help="Self-play games that count playability (default 10,000; "
                             "counted once and kept).")(func)
    func = click.option("--order", type=click.Choice(["probability", "playability"]),
                        default="probability", show_default=True,
                        help="Rank a length's alphagrams by their chance on a rack, or by "
                             "how often self-play plays them.")(func)
    func = click.option("--file", "file", type=FILE, default=None,
                        help="Words or alphagrams to ask, one a line (a word list).")(func)
    func = click.option("--pattern", default=None,
                        help="The words matching this pattern ('?' one tile, '*' any run).")(func)
    func = ranks_option(func)
    func = click.option("--length", "length", type=Whole(2, 21), default=None,
                        help="Words of this many tiles.")(func)
    return func


def _order(order: str) -> Order:
    return "playability" if order == "playability" else "probability"


def _file_words(path: str, lexicon: Any) -> list[str]:
    from rackety.files import read_bytes
    from rackety.lexicon.wordlist import parse_bytes

    listed = parse_bytes(read_bytes(path, "word list", MAX_LIST_BYTES), lexicon.alphabet,
                         source=path)
    words: list[str] = lexicon.alphabet.decode_many(listed.flat(), listed.lengths)
    return words


@quiz.command("anagrams")
@lexicon_options
@_list_options
@click.option("--blanks", type=Whole(0, 1000), default=None,
              help="Blanks in the bag, for the probability order (default: the tile set's).")
@json_option
def quiz_anagrams(source: str, alphabet: str | None, skip_invalid: bool, length: int | None,
                  ranks: str | None, pattern: str | None, file: str | None, order: str,
                  games: int | None, blanks: int | None, as_json: bool) -> int:
    """Find every word of each alphagram: by --length (and --ranks in
    probability order, or playability with --order), a --pattern or a
    --file of words."""
    lex = load_lexicon(source, alphabet, skip_invalid)
    first, last = read_ranks(ranks)
    with working("making the questions" if order == "probability"
                 else "counting what self-play plays (once)"):
        words = _file_words(file, lex) if file is not None else None
        questions = anagram_questions(lex, length=length, ranks=(first, last), pattern=pattern,
                                      words=words, blanks=blanks, order=_order(order),
                                      games=games)
    return _run(questions, lex, as_json)


@quiz.command("hooks")
@lexicon_options
@_list_options
@json_option
def quiz_hooks(source: str, alphabet: str | None, skip_invalid: bool, length: int | None,
               ranks: str | None, pattern: str | None, file: str | None, order: str,
               games: int | None, as_json: bool) -> int:
    """Find every word one tile before or after each word makes: the words of
    --length (and --ranks), a --pattern or a --file."""
    lex = load_lexicon(source, alphabet, skip_invalid)
    first, last = read_ranks(ranks)
    with working("making the questions"):
        if file is not None:
            words = _file_words(file, lex)
        else:
            listed = anagram_questions(lex, length=length, ranks=(first, last), pattern=pattern,
                                       order=_order(order), games=games)
            words = [w for q in listed for w in q.answers]
        questions = hook_questions(lex, words)
    return _run(questions, lex, as_json)


@quiz.command("judge")
@lexicon_options
@click.option("--length", "length", type=Whole(2, 21), required=True,
              help="Words of this many tiles.")
@ranks_option
@click.option("--count", type=Whole(1, MAX_QUESTIONS), default=20, show_default=True,
              help="Questions to ask.")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="The same seed, the same questions.")
@click.option("--seconds", type=Whole(1, 3600), default=None,
              help="A time limit: an answer slower than this counts as wrong.")
@json_option
def quiz_judge(source: str, alphabet: str | None, skip_invalid: bool, length: int,
               ranks: str | None, count: int, seed: int, seconds: int | None,
               as_json: bool) -> int:
    """Valid or phony? Words of --length (from --ranks in probability order),
    about half of them phonies one tile away from a word; each answer timed,
    and with --seconds held to a limit."""
    lex = load_lexicon(source, alphabet, skip_invalid)
    first, last = read_ranks(ranks)
    with working("making the questions"):
        questions = judge_questions(lex, length, count, seed=seed, ranks=(first, last))
    return _run(questions, lex, as_json, limit=seconds)


def _ask(question: Question, number: int, total: int) -> str:
    rank = f"#{question.rank} " if question.rank is not None else ""
    if question.kind == "puzzle":
        return f"[{number}/{total}] a position of yours: your move?"
    if question.kind == "judge":
        return f"[{number}/{total}] {question.prompt}  valid? (y/n)"
    what = "word" if len(question.answers) == 1 else "words"
    if question.kind == "hooks":
        return f"[{number}/{total}] {question.prompt}  hooks: {len(question.answers)} {what}"
    return f"[{number}/{total}] {rank}{question.prompt}  {len(question.answers)} {what}"


def _reply() -> str:
    """A line of stdin ("" at its end), bytes that are not UTF-8 replaced (they
    spell no tile: the reply says so)."""
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # a text stream (a test's)
        return sys.stdin.readline(MAX_REPLY_BYTES)
    line: bytes = buffer.readline(MAX_REPLY_BYTES)
    return line.decode("utf-8", "replace")


def _ask_one(question: Question, number: int, total: int, lexicon: Any,
             limit: float | None = None) -> tuple[bool, float] | None:
    """Ask one question and say how the reply did: (right, seconds), or None
    at the end of the input; past ``limit`` seconds a right answer is too
    slow. A puzzle's board is drawn first."""
    if question.kind == "puzzle":
        from rackety.game.board import Board
        from rackety.game.render import terminal

        click.echo(terminal(Board.from_cgp(question.prompt), color=sys.stdout.isatty()))
    click.echo(_ask(question, number, total))
    started = answer_clock()
    line = _reply()
    if not line:
        return None  # the end of the input: the quiz stops here
    seconds = answer_clock() - started
    grade = question.grade(line, lexicon)
    if grade.correct and limit is not None and seconds > limit:
        click.echo(f"  right, but too slow: {seconds:.1f} s of {limit:g}")
        return False, seconds
    if grade.correct:
        click.echo("  right" + (f": {' '.join(grade.found)}" if question.kind != "judge"
                                else ""))
        return True, seconds
    joined = " or ".join(question.answers) if question.kind == "puzzle" \
        else " ".join(question.answers)
    said = [f"the answer: {joined or '(none)'}"]
    if grade.wrong and question.kind != "judge":
        said.append(f"not answers: {' '.join(grade.wrong)}")
    if grade.unreadable:
        said.append(f"not of the alphabet: {' '.join(grade.unreadable)}")
    click.echo("  " + "; ".join(said))
    return False, seconds


def _summary(right: int, asked: int, seconds: float) -> None:
    if asked:
        click.echo(f"{right} of {asked} right ({100 * right / asked:.0f} %), "
                   f"{seconds / asked:.1f} s a question")


def _run(questions: list[Question], lexicon: Any, as_json: bool,
         limit: float | None = None) -> int:
    """Ask ``questions`` on stdin and stdout, or print them (``as_json``);
    exit 0, or 1 when an answer was wrong, missing or (past ``limit``
    seconds) too slow."""
    if as_json:
        emit_json([q.as_dict() for q in questions])
        return 0
    if not questions:
        click.echo("no questions: nothing in the lexicon matches", err=True)
        return 0
    right = asked = 0
    seconds = 0.0
    for number, question in enumerate(questions, 1):
        done = _ask_one(question, number, len(questions), lexicon, limit)
        if done is None:
            break
        asked += 1
        right += done[0]
        seconds += done[1]
    _summary(right, asked, seconds)
    return 0 if right == asked else 1


# ------------------------------------------------------------------ study
@cli.group()
def study() -> None:
    """A player's study deck in the store (the web app's), scheduled by
    spaced repetition (FSRS): add quiz lists to it, review what is due with
    new items mixed in, and see the counts and the days ahead."""


def _db_option(func: Any) -> Any:
    func = click.option("--player", required=True, metavar="NICK",
                        help="Whose deck (a person of the store).")(func)
    return click.option("--db", "db_path", default=None, type=FILE, metavar="PATH",
                        help="The SQLite store (default: the web app's, rackety.sqlite in "
                             "the user data folder).")(func)


def _open(db_path: str | None, player: str) -> tuple[Any, int]:
    from rackety.frontends.web.store import Store

    store = Store(store_path(db_path))
    return store, store.player(player).id


@study.command("add")
@lexicon_options
@_db_option
@click.argument("records", nargs=-1, type=FILE, metavar="[FILE.gcg]...")
@click.option("--kind", type=click.Choice(["anagrams", "hooks"]), default="anagrams",
              show_default=True, help="The questions a list's items ask.")
@_list_options
def study_add(source: str, alphabet: str | None, skip_invalid: bool, db_path: str | None,
              player: str, records: tuple[str, ...], kind: str, length: int | None,
              ranks: str | None, pattern: str | None, file: str | None, order: str,
              games: int | None) -> None:
    """Add to a player's deck, as new items: what their games say they should
    study (FILE.gcg: the bingos they missed, the phonies they played or let
    stand, the hooks they missed), or a list: the alphagrams (or for hooks the
    words) of --length and --ranks, of a --pattern or of a --file."""
    from datetime import UTC, datetime

    if records:
        if any(x is not None for x in (length, ranks, pattern, file)):
            raise RacketyError("study add: give records or a list, not both")
        items, studied = _record_items(records, player, source, alphabet)
    else:
        lex = load_lexicon(source, alphabet, skip_invalid)
        first, last = read_ranks(ranks)
        with working("making the items"):
            words = _file_words(file, lex) if file is not None else None
            listed = anagram_questions(lex, length=length, ranks=(first, last),
                                       pattern=pattern, words=words, order=_order(order),
                                       games=games)
            prompts = [q.prompt for q in listed] if kind == "anagrams" else \
                list(dict.fromkeys(w for q in listed for w in q.answers))
        where = (f"file {file}" if file is not None else f"pattern {pattern}"
                 if pattern is not None else f"length {length}, {order} ranks {ranks or 'all'}")
        spec = source if alphabet is None else f"{source}:{alphabet}"  # as review loads it
        items = [(kind, spec, p, where) for p in prompts]
        studied = []
    store, player_id = _open(db_path, player)
    with store:
        added = store.study_add(player_id, items)
        for name, turns, index in studied:  # the progress: each game's Mistake Index
            store.study_game(player_id, name, turns=turns, mistake_index=index,
                             when=datetime.now(UTC))
    kinds = sorted({k for k, _, _, _ in items}) or [kind]
    click.echo(f"{added} new items ({', '.join(kinds)}) for {player} "
               f"({len(items) - added} already in the deck)")


def _record_items(paths: tuple[str, ...], player: str, source: str, alphabet: str | None
                  ) -> tuple[list[tuple[str, str, str, str]], list[tuple[str, int, float]]]:
    """The study items of ``player``'s turns in each record, its lessons
    (`rackety.frontends.lessons.record_study`), and each record's name, turns
    assessed and Mistake Index of theirs. A record's own #lexicon is used when
    it is built in, else --lexicon."""
    from pathlib import Path

    from rackety.files import read_bytes
    from rackety.frontends.analysis import seats_of
    from rackety.frontends.lessons import record_study
    from rackety.game.gcg import MAX_GCG, read_gcg, replay
    from rackety.lexicon.sources import builtin_names, is_builtin

    items: list[tuple[str, str, str, str]] = []
    games: list[tuple[str, int, float]] = []
    for path in paths:
        record = read_gcg(read_bytes(path, "GCG file", MAX_GCG), source=path)
        rep = replay(record)
        seats = seats_of(record, player) or []
        if not seats:
            raise RacketyError(f"{path}: no player {clip(player, 40)!r} in the record; players: "
                               f"{', '.join(p.nickname for p in record.players)}")
        name = record.lexicon if record.lexicon in builtin_names() else source
        lexicon = load_lexicon(name, alphabet or rep.alphabet.name, False)
        with working(f"analysing {Path(path).name}"):
            by_seat = record_study(record, lexicon, seats, Path(path).name, replayed=rep)
            found = list({(x.kind, x.prompt): x for seat in seats
                          for x in by_seat[seat].lessons}.values())
        spec = name if is_builtin(name) else f"{name}:{lexicon.alphabet.name}"  # as review loads
        items += [(x.kind, spec, x.prompt, x.source) for x in found]
        first = by_seat[seats[0]]
        games.append((Path(path).name, first.turns, first.mistake_index))
    return items, games


@study.command("review")
@_db_option
@click.option("--new", "new", type=Whole(0, 10_000), default=10, show_default=True,
              help="New items mixed in with those due.")
@click.option("--limit", type=Whole(1, 10_000), default=100, show_default=True,
              help="Items due asked at the most.")
def study_review(db_path: str | None, player: str, new: int, limit: int) -> int:
    """Today's items: those due, most overdue first, with --new new ones
    mixed in; each answer reschedules its item (wrong: again soon; right:
    later, the quicker the later)."""
    import random
    from datetime import UTC, datetime

    store, player_id = _open(db_path, player)
    with store:
        items = store.study_due(player_id, datetime.now(UTC), limit=limit, new=new)
        due = [i for i in items if i.due is not None]
        fresh = [i for i in items if i.due is None]
        mixed = list(due)
        rng = random.Random(player_id)
        for item in fresh:  # new items spread among the due ones
            mixed.insert(rng.randint(0, len(mixed)), item)
        if not mixed:
            click.echo(f"nothing due for {player}: add a list with rackety study add")
            return 0
        lexicons: dict[str, Any] = {}
        right = asked = 0
        seconds = 0.0
        for number, item in enumerate(mixed, 1):
            try:
                if item.lexicon not in lexicons:
                    lexicons[item.lexicon] = load_lexicon(item.lexicon, None, False)
                lexicon = lexicons[item.lexicon]
                question = question_for(lexicon, item.kind, item.prompt)
            except RacketyError as exc:  # an item that cannot be asked now: passed over
                click.echo(f"[{number}/{len(mixed)}] passed over: {exc}")
                continue
            done = _ask_one(question, number, len(mixed), lexicon)
            if done is None:
                break
            correct, took = done
            store.study_answered(item.id, correct=correct, seconds=round(took, 3),
                                 when=datetime.now(UTC))
            asked += 1
            right += correct
            seconds += took
        _summary(right, asked, seconds)
    return 0 if right == asked else 1


@study.command("stats")
@_db_option
@json_option
def study_stats(db_path: str | None, player: str, as_json: bool) -> None:
    """A player's deck: items due now, learned and new, and those falling
    due on each of the next 7 days."""
    from datetime import UTC, datetime

    store, player_id = _open(db_path, player)
    with store:
        counts = store.study_counts(player_id, datetime.now(UTC))
        progress = store.study_progress(player_id)
    if as_json:
        emit_json({"due": counts.due, "learned": counts.learned, "new": counts.new,
                   "forecast": counts.forecast, "progress": progress})
        return
    click.echo(f"{player}: {counts.due} due, {counts.learned} learned, {counts.new} new")
    click.echo("next days: " + " ".join(str(n) for n in counts.forecast))
    games = progress["games"]
    if games:
        click.echo("Mistake Index by game, oldest first: "
                   + " ".join(f"{g['mistake_index']:g}" for g in games[-12:]))
    quiz = progress["quiz"]
    if quiz["all"]["reviews"]:
        click.echo("answered right: " + ", ".join(
            f"{q['right']:g} % of {q['reviews']} ({label})" for label, q in quiz.items()
            if q["reviews"]))
    puzzles = progress["puzzles"]
    if puzzles["attempts"]:
        click.echo(f"puzzles: {puzzles['solved']} of {puzzles['attempts']} solved, rating "
                   f"{puzzles['rating']:.0f} (± {puzzles['rd']:.0f})")


# ---------------------------------------------------------------- puzzles
#: the most bytes of a puzzle file read
MAX_PUZZLE_BYTES = 256 << 20


@cli.group()
def puzzles() -> None:
    """Puzzles cut from games: positions whose best move, by the judge, is
    clearly best, tagged (BINGO, ONLY_BINGO, BINGO_NINE_OR_MORE, EQUITY,
    ENDGAME, PHONY_CHALLENGE); make them from records or self-play, and solve
    them in the terminal."""


@puzzles.command("make")
@lexicon_options
@click.argument("records", nargs=-1, type=FILE, metavar="[FILE.gcg]...")
@click.option("--selfplay", type=Whole(1, 1_000_000), default=None, metavar="N",
              help="Cut them from N games of the static player against itself.")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="The self-play games' seed.")
@click.option("--margin", type=Whole(1, 1000), default=10, show_default=True,
              help="The points the best move that is no answer is behind, at least.")
@click.option("--seconds", type=Seconds(0.0), default=0.0, show_default=True,
              help="Judge the middle game by this much simulation a position (0: by "
                   "static equity, far quicker).")
@click.option("-o", "--output", "output", type=FILE, default=None, metavar="OUT.jsonl",
              help="Write them here, one JSON object a line (default: print them).")
def puzzles_make(source: str, alphabet: str | None, skip_invalid: bool,
                 records: tuple[str, ...], selfplay: int | None, seed: int, margin: int,
                 seconds: float, output: str | None) -> None:
    """Cut puzzles from records (FILE.gcg) or from --selfplay N games."""
    import json
    from pathlib import Path

    from rackety.files import read_bytes, writable_file, write_atomic
    from rackety.game.gcg import MAX_GCG, read_gcg
    from rackety.search.judge import Judge
    from rackety.study.puzzles import from_record, from_selfplay

    if bool(records) == (selfplay is not None):
        raise RacketyError("puzzles make: give records or --selfplay N, one of them")
    if output is not None:
        writable_file(output, "-o")
    lex = load_lexicon(source, alphabet, skip_invalid)
    judge = Judge(lex)
    found = []
    started = time.process_time()
    with progress_bar() as bar:
        if records:
            task = bar.add_task("cutting puzzles from the records", total=len(records))
            for path in records:
                record = read_gcg(read_bytes(path, "GCG file", MAX_GCG), source=path)
                found += from_record(record, lex, name=Path(path).name, margin=margin,
                                     judge=judge, seconds=seconds)
                bar.advance(task)
        else:
            assert selfplay is not None
            task = bar.add_task("cutting puzzles from self-play", total=selfplay)
            found += from_selfplay(lex, selfplay, seed=seed, margin=margin, judge=judge,
                                   seconds=seconds,
                                   progress=lambda g: bar.update(task, completed=g))
    seconds = time.process_time() - started
    lines = "".join(json.dumps(p.as_dict(), ensure_ascii=False) + "\n" for p in found)
    if output is None:
        click.echo(lines, nl=False)
    else:
        write_atomic(output, lines.encode("utf-8"))
    click.echo(f"{len(found)} puzzles in {seconds:.1f} CPU s", err=True)


def _read_puzzles(path: str) -> list[Any]:
    import json

    from rackety.files import read_bytes
    from rackety.study.puzzles import Puzzle

    data = read_bytes(path, "puzzle file", MAX_PUZZLE_BYTES)
    out = []
    for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError:
            raise RacketyError(f"{path}:{number}: not JSON") from None
        out.append(Puzzle.from_dict(value, f"{path}:{number}"))
    return out


@puzzles.command("solve")
@click.argument("path", type=FILE, metavar="PUZZLES.jsonl")
@click.option("--tag", default=None, help="Only the puzzles of this tag.")
@click.option("--color/--no-color", default=None, help="Colours (default: on a terminal).")
@click.option("--player", default=None, metavar="NICK",
              help="Rate the attempts: this person's and each puzzle's Glicko-2 rating, "
                   "kept in the store.")
@click.option("--db", "db_path", default=None, type=FILE, metavar="PATH",
              help="The SQLite store (default: the web app's).")
def puzzles_solve(path: str, tag: str | None, color: bool | None, player: str | None,
                  db_path: str | None) -> int:
    """Solve puzzles in the terminal: the board and your rack, your move on
    the next line (players' notation: 8D WORD, (A) for a tile on the board,
    a lower-case letter for a blank; pass; -ABC to exchange; challenge),
    graded by the puzzle's answers and explained; with --player, each
    attempt rates you and the puzzle (Glicko-2)."""
    from rackety.study.puzzles import TAGS

    if tag is not None and tag.upper() not in TAGS:
        raise RacketyError(f"--tag {tag!r}: expected one of {', '.join(TAGS)}")
    chosen = [p for p in _read_puzzles(path) if tag is None or tag.upper() in p.tags]
    if not chosen:
        click.echo("no puzzles to solve", err=True)
        return 0
    store, player_id = _open(db_path, player) if player is not None else (None, 0)
    try:
        return _solve(chosen, color, store, player_id)
    finally:
        if store is not None:
            store.close()


def _solve(chosen: list[Any], color: bool | None, store: Any, player_id: int) -> int:
    from datetime import UTC, datetime

    from rackety.game.board import Board
    from rackety.game.render import terminal
    from rackety.study.puzzles import attempt

    lexicons: dict[str, Any] = {}
    right = asked = 0
    seconds = 0.0
    for number, puzzle in enumerate(chosen, 1):
        board = Board.from_cgp(puzzle.cgp)
        if puzzle.lexicon not in lexicons:
            lexicons[puzzle.lexicon] = load_lexicon(puzzle.lexicon, board.alphabet.name, False)
        click.echo(terminal(board, color=sys.stdout.isatty() if color is None else color))
        click.echo(f"[{number}/{len(chosen)}] {' '.join(puzzle.tags)}: your move?")
        started = answer_clock()
        line = _reply()
        if not line:
            break
        took = answer_clock() - started
        seconds += took
        graded = attempt(puzzle, line, lexicons[puzzle.lexicon])
        asked += 1
        right += graded.correct
        if store is not None:
            puzzle_id = store.puzzle(puzzle.lexicon, puzzle.cgp, puzzle.as_dict())
            before, _ = store.ratings(player_id, puzzle_id)
            solver, rated = store.puzzle_attempt(player_id, puzzle_id, reply=line.strip(),
                                                 correct=graded.correct,
                                                 seconds=round(took, 3), when=datetime.now(UTC))
            click.echo(f"  your rating {before.rating:.0f} -> {solver.rating:.0f} "
                       f"(± {solver.rd:.0f}); the puzzle's {rated.rating:.0f}")
            # a puzzle met is in the deck from now on, scheduled by this attempt
            store.study_met(player_id, "puzzle", puzzle.lexicon, puzzle.cgp, puzzle.source,
                            correct=graded.correct, seconds=round(took, 3),
                            when=datetime.now(UTC))
        if graded.error:
            click.echo(f"  not a move here: {graded.error}")
        click.echo(("  right: " if graded.correct else "  the answer: ")
                   + " or ".join(puzzle.answers[:3]))
        click.echo(f"  {puzzle.why}")
        if puzzle.alternatives:
            click.echo("  next: " + ", ".join(f"{m} {v:+.1f}" for m, v in puzzle.alternatives))
    _summary(right, asked, seconds)
    return 0 if right == asked else 1
