"""``rackety compile``: every kernel compiled ahead of its first use.

numba compiles a kernel for the types it is first called with, so the way to
compile what the commands will call, for the types they will call it with, is
to run the commands. Each group of `EXERCISES` is a few of them on small
positions of the default lexicon (TWL06, built on the way if the lexicon cache
has not got it), short enough that the compilation is nearly all the cost; a
group runs in its own process (``rackety compile --group NAME``, its output
thrown away), up to ``--jobs`` at once. What they compile goes to
`rackety.jitcache.folder`, beside the code, where every later command finds it
(``docs/MEASUREMENTS.md``, "Start-up", and ``docs/BENCHMARKS.md`` have the figures).

`warm` runs a group in the calling process: the web app and the UCGI engine
warm the kernels of their searches before their first request.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

EMPTY = "/".join(["15"] * 15)
OPENING = f"{EMPTY} AADNPUY/ 0/0 0 lex TWL06;"
_PANDY = "15/15/15/15/15/15/15/7PANDY3/15/15/15/15/15/15/15"
MIDGAME = f"{_PANDY} AEINRSQ/ 0/30 1 lex TWL06;"
#: seven tiles a side, the bag empty (minutes to solve; here a fraction of a
#: second of thinking, which compiles all the solver)
ENDGAME = ("7QI3R1I/8SHIVAHS/11AG1B/11G2A/10NA3/4BOP2PELF2/5V4O3L/4WAUK2TAMMY/4OR1AGUE1ION/"
           "1JERRY4n1TAX/1E2D5I1T2/1TORSION2C1E2/1T4FEE3N2/1E10e2/EDUCT2ENWIND2 DELLORS/AEIIOUZ "
           "343/391 0 lex TWL06;")
PEG = ENDGAME.replace("DELLORS/AEIIOUZ", "DELLORS/AEIIOU")  # one tile in the bag

#: the groups of commands (as typed after ``rackety``; ``{tmp}`` a private
#: folder, ``{gcg}`` the first game record written there) that compile the
#: kernels of every command
EXERCISES: dict[str, list[list[str]]] = {
    "moves": [
        ["moves", "--cgp", OPENING],
        ["moves", "--cgp", MIDGAME, "--best"],
        ["moves", "--cgp", MIDGAME, "--count-only"],
        ["moves", "--cgp", MIDGAME, "--leaves", "h3"],
        ["autoplay", "--players", "static,greedy", "--games", "1", "--jobs", "1"],
    ],
    "words": [
        ["words", "check", "QI"],
        ["words", "anagram", "AEINST?"],
        ["words", "pattern", "C?T*"],
        ["words", "hooks", "QI"],
        ["words", "multi", "DORMITORY"],
        ["words", "suggest", "QUIXOTIK"],
        ["words", "decode", "XQZZX"],
        ["words", "acrostic", "A STITCH IN TIME", "--length", "5", "--first", "S"],
        ["words", "list"],
        ["words", "alphagrams", "--length", "7", "--ranks", "1-3"],
        ["lexicon", "build", "{tmp}/words.txt", "--output", "{tmp}/words.kwg"],
    ],
    # the other generator and the other variant: their own kernels, compiled
    # beside "moves" (on a second core, after the words), not after it
    "variants": [
        ["moves", "--cgp", MIDGAME, "--generator", "dawg"],
        ["moves", "--cgp", MIDGAME.replace(";", "; var wordsmog;")],
    ],
    "games": [
        ["autoplay", "--players", "static,greedy", "--games", "2", "--jobs", "1",
         "--gcg-dir", "{tmp}"],
        ["autoplay", "--players", "static,h3", "--games", "2", "--jobs", "1", "--variant",
         "wordsmog"],
        ["analyze", "{gcg}"],
        ["gcg", "check", "{gcg}"],
    ],
    "sim": [
        ["sim", "--cgp", MIDGAME, "--iterations", "2", "--jobs", "1", "--candidates", "3"],
        ["sim", "--cgp", f"{EMPTY} /AEINRSQ 0/0 0 lex TWL06;", "--iterations", "2", "--jobs",
         "1", "--candidates", "3", "--infer", "8G PANDY"],
        ["infer", "--cgp", f"{EMPTY} AADNPUY/ 0/0 0 lex TWL06;", "--move", "8G PANDY",
         "--jobs", "1"],
    ],
    "endgame": [
        ["endgame", "--cgp", ENDGAME, "--seconds", "0.2"],
        ["preendgame", "--cgp", PEG, "--seconds", "0.5", "--jobs", "1", "--candidates", "2"],
    ],
    "training": [
        ["leaves", "train", "--games", "2", "--generations", "1", "--jobs", "1",
         "--method", "racks", "-o", "{tmp}/racks.klv2"],
        ["leaves", "train", "--games", "2", "--generations", "1", "--jobs", "1",
         "--method", "td", "-o", "{tmp}/td.klv2"],
    ],
}

#: the groups that need the move generator compiled first (their own first
#: step generates moves): run after "moves", not beside it
AFTER_MOVES = ("sim", "games", "endgame", "training")


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Standard output and error thrown away (the commands' own prints)."""
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink), \
            contextlib.redirect_stderr(io.StringIO()):
        yield


def run_group(name: str, invoke: Callable[[list[str]], int]) -> list[str]:
    """Run group ``name``'s commands through ``invoke`` (the CLI's `main`,
    called in this process: an exit status), in a private folder; returns what
    went wrong, one line a command that failed (empty when all ran)."""
    problems = []
    with tempfile.TemporaryDirectory(prefix="rackety-compile-") as tmp:
        Path(tmp, "words.txt").write_text("QI\nQIS\nZA\nZAS\nAX\n", encoding="utf-8")
        for command in EXERCISES[name]:
            records = sorted(Path(tmp).glob("*.gcg"))
            gcg = str(records[0]) if records else "{gcg}"
            args = [a.replace("{tmp}", tmp).replace("{gcg}", gcg) for a in command]
            with _quiet():
                status = invoke(args)
            if status:
                problems.append(f"rackety {' '.join(command[:2])} exited {status}")
    return problems


#: the modules that define kernels (a test holds this to the source)
KERNEL_MODULES = (
    "rackety.kernels.crosssets", "rackety.kernels.generate", "rackety.kernels.inference",
    "rackety.kernels.leaves", "rackety.kernels.multisets", "rackety.kernels.nodes",
    "rackety.kernels.raw", "rackety.kernels.rollouts", "rackety.kernels.rules",
    "rackety.kernels.selfplay", "rackety.kernels.verify", "rackety.kernels.wordsmog",
    "rackety.lexicon.build", "rackety.lexicon.graph", "rackety.lexicon.probability",
    "rackety.lexicon.query", "rackety.search.endgame", "rackety.experiments.training",
)
#: the groups a server of games and analyses (the web app, the UCGI engine) uses
SERVING = ("moves", "variants", "games", "sim", "endgame")


def missing(groups: tuple[str, ...]) -> list[str]:
    """The ``groups`` that ``rackety compile`` has not compiled for this
    version of the code and this CPU."""
    from rackety import jitcache

    done = set(jitcache.manifest().get(jitcache.cpu(), []))
    return [g for g in groups if g not in done]


def compile_groups(groups: list[str]) -> bool:
    """Compile ``groups`` in another process, as ``rackety compile --group``
    does (its output thrown away); whether it succeeded."""
    import subprocess
    import sys

    args = [sys.executable, "-m", "rackety", "compile", "--jobs", "1"]
    for group in groups:
        args += ["--group", group]
    run = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         check=False)
    return run.returncode == 0


def bytecode() -> bool:
    """Write the bytecode of every module of the package beside it (what pip
    does when it installs a wheel, not an editable install), so that no
    process compiles the modules it imports, even where
    ``PYTHONDONTWRITEBYTECODE`` keeps Python from writing it on import; False
    where the package's folder is not writable (nothing lost: Python compiles
    at import, as before)."""
    import compileall

    import rackety

    with contextlib.redirect_stdout(io.StringIO()):
        try:
            return bool(compileall.compile_dir(Path(rackety.__file__).parent, quiet=2))
        except OSError:
            return False


def preload() -> int:
    """Load into this process every kernel compiled for this machine in
    `rackety.jitcache.folder` (from numba's index of each kernel), so that no
    request pays for it; returns how many were loaded. Kernels not compiled
    yet are left to their first use. Reads numba's cache through its private
    names: on a numba that has others, loads nothing."""
    import importlib

    from numba.core.registry import CPUDispatcher

    loaded = 0
    for name in KERNEL_MODULES:
        module = importlib.import_module(name)
        for value in list(vars(module).values()):
            if not isinstance(value, CPUDispatcher):
                continue
            kernel: Any = value  # read through numba's private names, which it does not type
            if kernel._cache is None:
                continue
            try:
                index = kernel._cache._cache_file._load_index()
                magic = kernel.targetctx.codegen().magic_tuple()
            except (AttributeError, OSError, EOFError, ValueError, TypeError):
                continue
            for key in index:
                if isinstance(key, tuple) and len(key) == 3 and key[1] == magic:
                    try:
                        kernel.compile(key[0])
                    except Exception:  # a stale entry: compiled again at its first use
                        continue
                    loaded += 1
    return loaded


def warm(groups: tuple[str, ...] = SERVING, say: Callable[[str], None] | None = None,
         compile_missing: bool = True) -> float:
    """Make this process ready to serve ``groups`` without compiling: with
    ``compile_missing``, compile what ``rackety compile`` has not (in another
    process; skipped while another process of this version compiles), then
    `preload`; ``say`` is told what happens. Returns the seconds it took."""
    import time

    from rackety import jitcache

    t0 = time.perf_counter()
    todo = missing(groups) if compile_missing else []
    lock = jitcache.folder() / "compiling.lock"
    if todo:
        try:
            if lock.exists() and time.time() - lock.stat().st_mtime > 1800:
                lock.unlink()  # left by a process that died
            lock.touch(exist_ok=False)
        except OSError:  # another process compiles them: they are used as they come
            todo = []
    if todo:
        try:
            if say is not None:
                say(f"compiling the kernels of {', '.join(todo)} (one time; `rackety "
                    "compile` does it at install)")
            compile_groups(todo)
        finally:
            lock.unlink(missing_ok=True)
    count = preload()
    seconds = time.perf_counter() - t0
    if say is not None:
        say(f"{count} kernels ready in {seconds:.1f} s")
    return seconds
