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
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def njit(*signatures: Any, **options: Any) -> Callable[[Callable[..., Any]], Any]:
    """``numba.njit(*signatures, **options)``, compiling lazily and for plain
    argument types (module docstring). Returns numba's own dispatcher, so
    kernels call it as any other."""
    import numba

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
