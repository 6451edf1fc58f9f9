"""The ``rackety`` command line: the API's mirror, for people and scripts.

Every user mistake ends in one line on stderr, ``rackety <command>: error: ...``,
and exit status 2; ``--json`` output is one JSON value on stdout and nothing
else (progress goes to stderr).

A package of thin commands, each parsing its arguments, calling the library
and printing (a table, or with ``--json`` the result's one JSON form,
`rackety.frontends.shapes`): `base` holds the group and what the commands
share, and one module holds each group of commands (`wordtools`, `positions`,
`games`, `experiments`, `search`, `analyze`, `serve`, `study`).
"""

from rackety.frontends.cli import (
    analyze,
    experiments,
    games,
    positions,
    search,
    serve,
    study,
    wordtools,
)
from rackety.frontends.cli.base import cli, compile_notice, main
from rackety.frontends.cli.wordtools import words, words_multi

__all__ = ["analyze", "cli", "compile_notice", "experiments", "games", "main", "positions",
           "search", "serve", "study", "words", "words_multi", "wordtools"]
