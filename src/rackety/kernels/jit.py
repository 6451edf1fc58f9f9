"""The decorator of every kernel: numba's ``njit``, compiling less.

`njit` is numba's, with two changes that save compilation and leave the
kernels as fast as before (issue 15: the hot per-position times of the move
generator within 3 %, most 1-2 % faster):

- a kernel that another kernel calls is compiled once, for the plain types of
  its arguments: numba would compile one more copy for each literal argument
  (``0``, ``True``) a call site passes, and each copy costs as much as the
  first (about 2 s of the first `rackety moves`);
- a kernel given an explicit signature is compiled (or loaded from the cache)
  when it is first needed, not when its module is imported, so a command that
  does not use it never compiles it, and an error found before any kernel
  runs is reported before any compilation.

The first `njit` puts rackety's folder of compiled kernels (`rackety.jitcache`)
in numba's hands: a cache locator placed before numba's own, which takes the
package's modules only and stamps their entries with the version of the whole
package (`jitcache.key`) rather than their own file's content.

`compile_seconds` is how long this process has spent compiling kernels (or
loading them from the cache): `rackety.search.control` takes it off the clock
of a time budget, so that a budget is thinking time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def njit(*signatures: Any, **options: Any) -> Callable[[Callable[..., Any]], Any]:
    """``numba.njit(*signatures, **options)``, compiling lazily and for plain
    argument types (module docstring). Returns numba's own dispatcher, so
    kernels call it as any other."""
    import numba

    _install()

    def decorate(func: Callable[..., Any]) -> Any:
        compiled = numba.njit(**options)(func)
        if not hasattr(compiled, "get_call_template"):  # NUMBA_DISABLE_JIT=1: Python
            return compiled
        return _lazy(compiled, list(signatures))

    return decorate


def _lazy(dispatcher: Any, signatures: list[Any]) -> Any:
    """Hook ``dispatcher`` (on the instance: numba looks both methods up by
    name): a call from Python or from another kernel first compiles the
    explicit ``signatures``, then, as numba does for eager ones, disables
    further compilation; a call from a kernel is typed with its arguments'
    literal types made plain."""
    from numba.core.compiler_lock import global_compiler_lock
    from numba.core.types import unliteral

    template = dispatcher.get_call_template
    compile_for_args = dispatcher._compile_for_args
    pending = signatures

    def ready() -> bool:
        nonlocal pending
        if not pending:
            return False
        with global_compiler_lock:  # one thread compiles; numba's compile waits for it
            todo, pending = pending, []  # before compiling: a recursive kernel comes back
            for signature in todo:
                dispatcher.compile(signature)
            if todo:
                dispatcher.disable_compile()
        return True

    def get_call_template(args: tuple[Any, ...], kws: dict[str, Any]) -> Any:
        ready()
        return template(tuple(unliteral(a) for a in args),
                        {k: unliteral(v) for k, v in kws.items()})

    def compile_and_call(*args: Any, **kws: Any) -> Any:
        if ready():  # the call is made again, through numba's own dispatch
            return dispatcher
        return compile_for_args(*args, **kws)

    dispatcher.get_call_template = get_call_template
    dispatcher._compile_for_args = compile_and_call
    return dispatcher


_installed = False
_compiling = 0.0  # seconds spent in numba's compilations, outermost ones only
_depth = 0


def _install() -> None:
    """Place `_locator` first among numba's cache locators, and count the
    seconds numba spends compiling (once per process)."""
    global _installed
    if _installed:
        return
    from numba.core import caching, event

    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    locator = _locator(caching._CacheLocator)
    if all(c.__name__ != locator.__name__ for c in impl._locator_classes):
        impl._locator_classes.insert(0, locator)
    event.register("numba:compile", _timer(event.Listener)())
    _installed = True


def _locator(base: type) -> type:
    """The cache locator of the package's kernels (module docstring), a
    subclass of numba's ``_CacheLocator``."""
    from rackety import jitcache

    class RacketyLocator(base):  # type: ignore[misc, valid-type]
        def __init__(self, py_func: Any, path: Any) -> None:
            self._lineno = py_func.__code__.co_firstlineno
            self._path = str(path)

        def get_cache_path(self) -> str:
            return self._path

        def get_source_stamp(self) -> str:
            return jitcache.key()

        def get_disambiguator(self) -> str:
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            path = jitcache.module_folder(py_file)
            if path is None:
                return None
            self = cls(py_func, path)
            try:
                self.ensure_cache_path()
            except OSError:
                return None
            return self

    return RacketyLocator


def _timer(base: type) -> type:
    """A numba event listener (a subclass of ``event.Listener``) adding the
    seconds of each outermost compilation to `_compiling` (numba compiles
    under one lock, so the nesting is one thread's)."""

    class Timer(base):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            self._start = 0.0

        def on_start(self, event: Any) -> None:
            global _depth
            _depth += 1
            if _depth == 1:
                self._start = time.perf_counter()

        def on_end(self, event: Any) -> None:
            global _compiling, _depth
            if _depth > 0:
                _depth -= 1
                if _depth == 0:
                    _compiling += time.perf_counter() - self._start

    return Timer


def compile_seconds() -> float:
    """The seconds this process has spent compiling kernels (loading one from
    the cache is not counted: a few milliseconds)."""
    return _compiling
