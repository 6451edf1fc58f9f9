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
    """Self-recursive, with an explicit signature (NUMBA.md, trap 2)."""
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


def _nbi(folder: Path, *names: str) -> None:
    for name in names:
        (folder / "kernels_0123").mkdir(parents=True, exist_ok=True)
        (folder / "kernels_0123" / f"{name}-100.py311.nbi").write_bytes(b"")


def test_the_compile_notice_is_shown_until_the_kernels_are_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
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
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache / "numba"),
           "RACKETY_CACHE_DIR": str(cache / "lex")}
    run = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                         timeout=300)
    return run.returncode, run.stdout + run.stderr


def _compiled(cache: Path) -> list[str]:
    return sorted(p.name for p in (cache / "numba").glob("*/*.nbi"))


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

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    with click.Context(cli.cli, info_name="rackety") as root, \
            click.Context(cli.words, info_name="words", parent=root) as words, \
            click.Context(cli.words_multi, info_name="multi", parent=words):
        assert cli._compile_notice() == jitcache.compile_notice("words multi")
        assert "multi-word anagram" in (cli._compile_notice() or "")
        assert "lexicon builder" in (cli._compile_notice(lexicon=True) or "")
    with click.Context(cli.cli, info_name="rackety") as root, \
            click.Context(cli.moves_command, info_name="moves", parent=root):
        assert "the move generator (one time" in (cli._compile_notice() or "")
        _nbi(tmp_path / "numba", "generate.moves_of_gaddag", "crosssets.of_grid")
        assert cli._compile_notice() is None
