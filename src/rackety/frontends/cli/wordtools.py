"""``rackety lexicon``, ``alphabets`` and ``words``: lexicons and the word tools."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import click

from rackety.errors import parse_int
from rackety.files import writable_file
from rackety.frontends.cli.base import (
    FILE,
    Whole,
    cli,
    emit_json,
    json_option,
    lexicon_options,
    load_lexicon,
    working,
)
from rackety.lexicon.sources import DEFAULT_LEXICON


def ranks_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--ranks FIRST-LAST``: a range of ranks in probability order (`read_ranks`)."""
    return click.option("--ranks", default=None, metavar="FIRST-LAST",
                        help="Only these ranks in probability order (1 the likeliest), "
                             "as 1-100 (or 50, or 50- to the end).")(func)


def read_ranks(text: str | None) -> tuple[int, int | None]:
    """``--ranks FIRST-LAST`` read (``FIRST``, or ``FIRST-``, to the end; none: all)."""
    if text is None:
        return 1, None
    first, dash, last = text.partition("-")
    low = parse_int(first, "--ranks: first", 1, 10**9)
    return low, parse_int(last, "--ranks: last", low, 10**9) if last else (None if dash else low)


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
    lex = load_lexicon(source, alphabet, skip_invalid)
    if dawg_only or lex.report is None:  # from a KWG, or asked for a DAWG alone: rebuild
        with working(f"building {output}"):
            flat, lengths = lex.word_tiles()
            lex = Lexicon.from_tiles(flat, lengths, lex.alphabet, name=lex.name,
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
    info = load_lexicon(source, alphabet, skip_invalid).info()
    if as_json:
        emit_json(info)
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
        emit_json(rows)
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
        emit_json(rows)
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
    lex = load_lexicon(source, alphabet, skip_invalid)
    all_valid = True
    for w in word_list:
        ok = w in lex
        all_valid &= ok
        click.echo(f"{w} {'valid' if ok else 'invalid'}")
    return 0 if all_valid else 1


def _print_words(words: list[str], as_json: bool) -> None:
    if as_json:
        emit_json(words)
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
    lex = load_lexicon(source, alphabet, skip_invalid)
    with working("searching"):
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
    lex = load_lexicon(source, alphabet, skip_invalid)
    with working("searching"):
        found = lex.pattern(pattern, rack=rack, mark_blanks=not as_json)
    _print_words(found, as_json)


@words.command("hooks")
@lexicon_options
@click.argument("word")
@json_option
def words_hooks(source: str, alphabet: str | None, skip_invalid: bool, word: str,
                as_json: bool) -> None:
    """Front and back hooks of WORD."""
    hooks = load_lexicon(source, alphabet, skip_invalid).hooks(word)
    if as_json:
        emit_json(hooks.as_dict())
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
    lex = load_lexicon(source, alphabet, skip_invalid)
    with working("searching"):
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
    lex = load_lexicon(source, alphabet, skip_invalid)
    with working("searching"):
        found = lex.suggest(word, distance=distance)
    if as_json:
        emit_json([w for w, _ in found])
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
    lex = load_lexicon(source, alphabet, skip_invalid)
    with working("searching"):
        found = lex.decode(ciphers, limit=limit)
    if as_json:
        emit_json(found.as_dict())
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
    lex = load_lexicon(source, alphabet, skip_invalid)
    with working("searching"):
        found = lex.acrostic(quotation, used=used).words(length, first)
    _print_words(found, as_json)


@words.command("alphagrams")
@lexicon_options
@click.option("--length", "length", type=Whole(2, 21), required=True,
              help="The words' length in tiles.")
@ranks_option
@click.option("--blanks", type=Whole(0, 1000), default=None,
              help="Blanks in the bag (default: the tile set's).")
@json_option
def words_alphagrams(source: str, alphabet: str | None, skip_invalid: bool, length: int,
                     ranks: str | None, blanks: int | None, as_json: bool) -> None:
    """The alphagrams of the lexicon's words of --length tiles in probability
    order, as Zyzzyva ranks them: by the draws of that many tiles from a full
    bag that hold them, blanks standing for any letter; each with its rank,
    its draws and its words (docs/STUDY.md)."""
    first, last = read_ranks(ranks)
    lex = load_lexicon(source, alphabet, skip_invalid)
    with working("ranking"):
        found = lex.probability_order(length, blanks=blanks).ranks(first, last)
    if as_json:
        emit_json([a.as_dict() for a in found])
        return
    click.echo("\n".join(f"{a.rank:>6} {a.alphagram:<{length}} {a.ways:>14,} "
                          f"{' '.join(a.words)}" for a in found) if found else "")


@words.command("list")
@lexicon_options
@json_option
def words_list(source: str, alphabet: str | None, skip_invalid: bool, as_json: bool) -> None:
    """Every word of the lexicon, in order."""
    lex = load_lexicon(source, alphabet, skip_invalid)
    with working("listing"):
        found = lex.words()
    _print_words(found, as_json)
