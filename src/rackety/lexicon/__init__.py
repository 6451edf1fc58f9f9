"""Lexicons: word lists compiled into a DAWG + GADDAG in the KWG layout, and the
word tools that walk them."""

from rackety.lexicon.lexicon import BuildReport, Hooks, Lexicon
from rackety.lexicon.sources import BUILT_INS, DEFAULT_LEXICON

__all__ = ["BUILT_INS", "DEFAULT_LEXICON", "BuildReport", "Hooks", "Lexicon"]
