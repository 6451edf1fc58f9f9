"""``rackety quiz``: word quizzes in the terminal, one question a line
(`rackety.study.quiz`; docs/STUDY.md)."""

from __future__ import annotations

import sys
import time
from typing import Any

import click

from rackety.frontends.cli.base import (
    FILE,
    SEED,
    Whole,
    cli,
    emit_json,
    json_option,
    lexicon_options,
    load_lexicon,
    working,
)
from rackety.frontends.cli.wordtools import ranks_option, read_ranks
from rackety.study.quiz import (
    MAX_QUESTIONS,
    Question,
    anagram_questions,
    hook_questions,
    judge_questions,
)

#: the most bytes of a list of words given to a quiz
MAX_LIST_BYTES = 64 << 20
#: the most bytes of a reply read (the rest of a longer line is another reply)
MAX_REPLY_BYTES = 1 << 16


@cli.group()
def quiz() -> None:
    """Word quizzes: anagrams of alphagrams in probability order, hooks, and
    the word judge. Each question is asked on a line and answered on the
    next (an empty line passes, the end of the input stops); --json prints
    the questions and their answers instead of asking."""


def _list_options(func: Any) -> Any:
    func = click.option("--file", "file", type=FILE, default=None,
                        help="Words or alphagrams to ask, one a line (a word list).")(func)
    func = click.option("--pattern", default=None,
                        help="The words matching this pattern ('?' one tile, '*' any run).")(func)
    func = ranks_option(func)
    func = click.option("--length", "length", type=Whole(2, 21), default=None,
                        help="Words of this many tiles.")(func)
    return func


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
                  ranks: str | None, pattern: str | None, file: str | None, blanks: int | None,
                  as_json: bool) -> int:
    """Find every word of each alphagram: by --length (and --ranks in
    probability order), a --pattern or a --file of words."""
    lex = load_lexicon(source, alphabet, skip_invalid)
    first, last = read_ranks(ranks)
    with working("making the questions"):
        words = _file_words(file, lex) if file is not None else None
        questions = anagram_questions(lex, length=length, ranks=(first, last), pattern=pattern,
                                      words=words, blanks=blanks)
    return _run(questions, lex, as_json)


@quiz.command("hooks")
@lexicon_options
@_list_options
@json_option
def quiz_hooks(source: str, alphabet: str | None, skip_invalid: bool, length: int | None,
               ranks: str | None, pattern: str | None, file: str | None,
               as_json: bool) -> int:
    """Find every word one tile before or after each word makes: the words of
    --length (and --ranks), a --pattern or a --file."""
    lex = load_lexicon(source, alphabet, skip_invalid)
    first, last = read_ranks(ranks)
    with working("making the questions"):
        if file is not None:
            words = _file_words(file, lex)
        else:
            listed = anagram_questions(lex, length=length, ranks=(first, last), pattern=pattern)
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
@json_option
def quiz_judge(source: str, alphabet: str | None, skip_invalid: bool, length: int,
               ranks: str | None, count: int, seed: int, as_json: bool) -> int:
    """Valid or phony? Words of --length (from --ranks in probability order),
    about half of them phonies one tile away from a word; each answer timed."""
    lex = load_lexicon(source, alphabet, skip_invalid)
    first, last = read_ranks(ranks)
    with working("making the questions"):
        questions = judge_questions(lex, length, count, seed=seed, ranks=(first, last))
    return _run(questions, lex, as_json)


def _ask(question: Question, number: int, total: int) -> str:
    rank = f"#{question.rank} " if question.rank is not None else ""
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


def _run(questions: list[Question], lexicon: Any, as_json: bool) -> int:
    """Ask ``questions`` on stdin and stdout, or print them (``as_json``);
    exit 0, or 1 when an answer was wrong or missing."""
    if as_json:
        emit_json([q.as_dict() for q in questions])
        return 0
    if not questions:
        click.echo("no questions: nothing in the lexicon matches", err=True)
        return 0
    right = asked = 0
    seconds = 0.0
    for number, question in enumerate(questions, 1):
        click.echo(_ask(question, number, len(questions)))
        started = time.monotonic()
        line = _reply()
        if not line:
            break  # the end of the input: the quiz stops here
        seconds += time.monotonic() - started
        asked += 1
        grade = question.grade(line, lexicon)
        right += grade.correct
        if grade.correct:
            click.echo("  right" + (f": {' '.join(grade.found)}" if question.kind != "judge"
                                    else ""))
            continue
        said = [f"the answer: {' '.join(question.answers) or '(none)'}"]
        if grade.wrong and question.kind != "judge":
            said.append(f"not answers: {' '.join(grade.wrong)}")
        if grade.unreadable:
            said.append(f"not of the alphabet: {' '.join(grade.unreadable)}")
        click.echo("  " + "; ".join(said))
    if asked:
        click.echo(f"{right} of {asked} right ({100 * right / asked:.0f} %), "
                   f"{seconds / asked:.1f} s a question")
    return 0 if right == asked else 1
