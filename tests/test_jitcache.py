"""Compiling the kernels: `rackety.jitcache.njit` compiles a kernel when it is
first needed and once for plain argument types, and the front ends can tell a
command's first run (issue 15: the first run took 15-20 s, most of it compiling
what the command did not need)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit as numba_njit
from numba import types

from rackety import jitcache
from rackety.kernels.jit import njit

EMPTY = "/".join(["15"] * 15)


@njit(cache=False)
def _callee(a, k, flag):
    return a[k] + (1 if flag else 0)


@njit(cache=False)
def _caller(a):
    return _callee(a, 0, True) + _callee(a, 1, False) + _callee(a, 2, True)


@numba_njit(cache=False)
def _plain_callee(a, k, flag):
    return a[k] + (1 if flag else 0)


@numba_njit(cache=False)
def _plain_caller(a):
    return _plain_callee(a, 0, True) + _plain_callee(a, 1, False) + _plain_callee(a, 2, True)


def test_a_callee_compiles_once_for_plain_types():
    a = np.arange(5, dtype=np.int64)
    assert _caller(a) == _plain_caller(a) == 0 + 1 + 1 + 2 + 1
    assert _callee.signatures == [(types.Array(types.int64, 1, "C"), types.int64, types.boolean)]
    # numba alone compiles a copy per literal argument: what this saves
    assert len(_plain_callee.signatures) > 1


_SIG = types.int64(types.int64, types.int64)


@njit(_SIG, cache=False)
def _depth(n, acc):
    """Self-recursive, with an explicit signature (docs/NUMBA.md trap 2)."""
    if n <= 0:
        return acc
    m = n - 1
    return _depth(m, acc + n)


@njit(_SIG, cache=False)
def _never_called(n, acc):
    return n + acc


@njit(cache=False)
def _calls_depth(n):
    return _depth(n, 0)


def test_an_explicit_signature_compiles_on_first_use_not_at_import():
    assert _never_called.signatures == [] and _depth.signatures == []
    assert _calls_depth(10) == 55  # first needed by another kernel's typing
    assert _depth.signatures == [(types.int64, types.int64)]
    assert _depth(4, 1) == 11
    assert _never_called(2, 3) == 5  # first needed from Python
    assert _never_called.signatures == [(types.int64, types.int64)]


def test_a_lazy_signature_rejects_other_types_as_an_eager_one_does():
    @njit(types.int64(types.int64), cache=False)
    def lazy(n):
        return n + 1

    @numba_njit(types.int64(types.int64), cache=False)
    def eager(n):
        return n + 1

    for f in (lazy, eager):
        assert f(np.int32(2)) == 3  # converted to the signature's int64
        with pytest.raises(TypeError):
            f(np.zeros(2))
        assert len(f.signatures) == 1


def _nbi(root: Path, *names: str) -> None:
    folder = root / jitcache.key() / "kernels"
    for name in names:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}-100.py311.nbi").write_bytes(b"")


def test_the_compile_notice_is_shown_until_the_kernels_are_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("RACKETY_KERNEL_CACHE", str(tmp_path / "numba"))
    notice = jitcache.compile_notice("moves")
    assert notice is not None and notice.startswith("compiling the move generator (one time, "
                                                    "about ")
    _nbi(tmp_path / "numba", "generate.moves_of_gaddag")
    assert jitcache.compile_notice("moves") is not None  # the cross sets still compile
    _nbi(tmp_path / "numba", "crosssets.of_grid")
    assert jitcache.compile_notice("moves") is None
    assert jitcache.compile_notice("show") is None  # compiles nothing
    assert jitcache.compile_notice("endgame") is not None


def test_every_notice_names_kernels_that_exist():
    """A renamed kernel would leave its command's notice on for good."""
    root = Path(jitcache.__file__).parent
    for _what, kernels, seconds in jitcache.COMPILES.values():
        assert 1 <= seconds <= 60
        for kernel in kernels:  # numba names a cache file after the module's file
            module, name = kernel.split(".")
            assert any(f"def {name}(" in p.read_text(encoding="utf-8")
                       for p in root.rglob(f"{module}.py")), kernel


def _fresh(args: list[str], cache: Path) -> tuple[int, str]:
    """Run ``python ARGS`` in a new process with empty private caches."""
    env = {**os.environ, "RACKETY_KERNEL_CACHE": str(cache / "numba"),
           "RACKETY_CACHE_DIR": str(cache / "lex")}
    run = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                         timeout=300)
    return run.returncode, run.stdout + run.stderr


def _compiled(cache: Path) -> list[str]:
    return sorted(p.name for p in (cache / "numba").rglob("*.nbi"))


def test_importing_the_engine_compiles_nothing(tmp_path):
    code = ("import rackety.kernels.generate, rackety.kernels.selfplay, "
            "rackety.kernels.rollouts, rackety.search.endgame, rackety.game.movegen")
    status, out = _fresh(["-c", code], tmp_path)
    assert status == 0, out
    assert _compiled(tmp_path) == []


def test_an_endgame_with_tiles_in_the_bag_fails_before_compiling(tmp_path):
    status, out = _fresh(["-m", "rackety", "endgame", "--cgp", f"{EMPTY} AADNPUY/EEIORST 0/0 0"],
                         tmp_path)
    assert status == 2 and "bag" in out, out
    assert _compiled(tmp_path) == []


def test_the_command_line_names_the_command_that_compiles(tmp_path, monkeypatch):
    import click

    from rackety.frontends import cli

    monkeypatch.setenv("RACKETY_KERNEL_CACHE", str(tmp_path / "numba"))
    with click.Context(cli.cli, info_name="rackety") as root, \
            click.Context(cli.words, info_name="words", parent=root) as words, \
            click.Context(cli.words_multi, info_name="multi", parent=words):
        assert cli.compile_notice() == jitcache.compile_notice("words multi")
        assert "multi-word anagram" in (cli.compile_notice() or "")
        assert "lexicon builder" in (cli.compile_notice(lexicon=True) or "")
    with click.Context(cli.cli, info_name="rackety") as root, \
            click.Context(cli.positions.moves_command, info_name="moves", parent=root):
        assert "the move generator (one time" in (cli.compile_notice() or "")
        _nbi(tmp_path / "numba", "generate.moves_of_gaddag", "crosssets.of_grid")
        assert cli.compile_notice() is None


def _copy(tmp_path: Path):
    """A copy of the package's jitcache module over a copy of its sources."""
    import importlib.util
    import shutil

    copy = tmp_path / "rackety"
    shutil.copytree(Path(jitcache.__file__).parent, copy,
                    ignore=shutil.ignore_patterns("__pycache__", "data", "_kernels"))
    spec = importlib.util.spec_from_file_location("jitcache_copy", copy / "jitcache.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return copy, module


def test_compiled_kernels_are_kept_per_version_of_the_code(tmp_path, monkeypatch):
    """numba's cache checks only a kernel's own file (docs/NUMBA.md trap 5): the
    folder is keyed by the content of every module, so an edit anywhere means
    a new one, and a file's time alone does not."""
    monkeypatch.delenv("RACKETY_KERNEL_CACHE", raising=False)
    copy, module = _copy(tmp_path)
    before = module.folder()
    assert before == copy / "_kernels" / module.key() and before.is_dir()
    kernel = copy / "kernels" / "rules.py"
    stat = kernel.stat()
    os.utime(kernel, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # touched only
    _, again = _copy(tmp_path / "again")
    assert again.key() == module.key()
    edited = tmp_path / "edited"
    copy2, module2 = _copy(edited)
    (copy2 / "kernels" / "rules.py").write_text(kernel.read_text() + "\n# an edit\n")
    module2._key = None
    assert module2.key() != module.key()
    monkeypatch.setenv("RACKETY_KERNEL_CACHE", str(tmp_path / "mine"))
    assert module.folder() == tmp_path / "mine" / module.key()


def test_a_read_only_install_seeds_the_user_cache(tmp_path, monkeypatch):
    """Where the folder beside the code cannot be written (a system-wide
    install; made so here, as root could write a read-only one), the user's
    cache is used, starting from the kernels compiled beside the code."""
    monkeypatch.delenv("RACKETY_KERNEL_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    _copy_root, module = _copy(tmp_path)
    beside = module.beside()
    (beside / "kernels").mkdir(parents=True)
    (beside / "kernels" / "generate.moves_of_gaddag-1.py311.nbi").write_bytes(b"x")
    writable = module._writable
    monkeypatch.setattr(module, "_writable",
                        lambda path, days: path != beside and writable(path, days))
    chosen = module.folder()
    assert chosen == tmp_path / "cache" / "rackety" / "kernels" / module.key()
    assert (chosen / "kernels" / "generate.moves_of_gaddag-1.py311.nbi").read_bytes() == b"x"


def test_kernels_compiled_for_another_cpu_show_the_notice(tmp_path, monkeypatch):
    monkeypatch.setenv("RACKETY_KERNEL_CACHE", str(tmp_path / "k"))
    _nbi(tmp_path / "k", "generate.moves_of_gaddag", "crosssets.of_grid")
    assert jitcache.compile_notice("moves") is None  # compiled at first use: no manifest
    jitcache.record(["moves"])
    assert jitcache.manifest() == {jitcache.cpu(): ["moves"]}
    assert jitcache.compile_notice("moves") is None
    monkeypatch.setenv("NUMBA_CPU_NAME", "another-cpu")
    assert jitcache.cpu() != next(iter(jitcache.manifest()))
    assert jitcache.compile_notice("moves") is not None


def test_a_time_budget_does_not_count_compilation():
    """`Control`'s clock stops while a kernel compiles (issue 35: a budget is
    thinking time, not the first compilation of the process)."""
    import time

    from rackety.kernels.jit import compile_seconds
    from rackety.search.control import Control

    @njit(cache=False)
    def fresh(a):
        total = 0
        for x in a:
            total += x * x
        return total

    t0 = time.perf_counter()
    control = Control.within(1.0)
    before = compile_seconds()
    assert fresh(np.arange(4)) == 14
    compiling = compile_seconds() - before
    assert compiling > 0.01  # it compiled, and that was counted
    thought = (time.perf_counter() - t0) - compiling
    assert abs(control.left() - (1.0 - thought)) < 0.02
    assert control.left() > 1.0 - (time.perf_counter() - t0) + compiling / 2


def test_the_kernel_modules_are_listed_for_preloading():
    from rackety.frontends.compile import KERNEL_MODULES

    root = Path(jitcache.__file__).parent
    defining = {".".join(("rackety", *p.relative_to(root).with_suffix("").parts))
                for p in root.rglob("*.py") if "@njit(" in p.read_text(encoding="utf-8")}
    assert defining == set(KERNEL_MODULES)


def test_compiled_ahead_a_command_compiles_nothing(tmp_path):
    """``rackety compile`` (a group of it here) fills the folder; a new process
    then loads the kernels (preload, as the web app does) and runs the command
    without compiling, whatever ``NUMBA_CACHE_DIR`` says."""
    env = {**os.environ, "RACKETY_KERNEL_CACHE": str(tmp_path / "k"),
           "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    run = subprocess.run([sys.executable, "-m", "rackety", "compile", "--group", "words",
                          "--jobs", "1"], capture_output=True, text=True, env=env, timeout=240)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("compiled 1 group of kernels in "), run.stdout
    code = ("from rackety import jitcache\n"
            "from rackety.frontends.compile import missing, preload\n"
            "from rackety.frontends.cli import main\n"
            "from rackety.kernels.jit import compile_seconds\n"
            "assert missing(('words', 'moves')) == ['moves']\n"
            "assert jitcache.compile_notice('words anagram') is None\n"
            "loaded = preload()\n"
            "status = main(['words', 'anagram', 'AEINST?'])\n"
            "print(loaded, status, compile_seconds())\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         timeout=240)
    assert run.returncode == 0, run.stderr
    loaded, status, seconds = run.stdout.split()[-3:]
    assert int(loaded) >= 5 and status == "0" and float(seconds) == 0.0
    assert not list((tmp_path / "numba").rglob("*.nbi"))  # nothing went there


def test_compile_refuses_an_unknown_group_in_one_line(capsys):
    from rackety.frontends.cli import main

    assert main(["compile", "--group", "nope", "--jobs", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no group 'nope'" in err[0] and "moves" in err[0], err


def test_compile_refuses_a_folder_it_cannot_write_before_compiling(tmp_path, monkeypatch, capsys):
    from rackety.frontends.cli import main

    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("RACKETY_KERNEL_CACHE", str(blocker / "kernels"))
    assert main(["compile", "--group", "words", "--jobs", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot write the compiled kernels there" in err[0], err
    assert str(blocker) in err[0]


def test_compile_writes_the_package_s_bytecode():
    """`bytecode` (the first step of ``rackety compile``) writes every module's
    bytecode beside it, whatever ``PYTHONDONTWRITEBYTECODE`` says."""
    import importlib.util

    import rackety
    from rackety.frontends.compile import bytecode

    modules = sorted(Path(rackety.__file__).parent.rglob("*.py"))
    gone = Path(importlib.util.cache_from_source(str(modules[0])))
    gone.unlink(missing_ok=True)
    assert bytecode()
    assert all(Path(importlib.util.cache_from_source(str(m))).is_file() for m in modules)
