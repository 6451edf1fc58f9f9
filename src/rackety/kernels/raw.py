"""Loads and stores through raw addresses, for the generator's recursion.

numba passes an array to a function that is not inlined as its whole
descriptor (data pointer, shape, strides, and more: seven to nine machine
words each), so a recursive kernel with seven arrays pushed about sixty words
on the stack at every call, a fifth of its time. The recursion takes the
addresses of its arrays instead (``array.ctypes.data``, an int64 each) and
reads and writes through these: one word per array per call. Nothing is
checked here (numba does not check bounds either); the callers own the arrays
and keep them alive for the call. With ``NUMBA_DISABLE_JIT=1`` the same loads
and stores run in Python through ctypes, so the kernels still run uncompiled.
"""

from __future__ import annotations

import ctypes

import numpy as np
from llvmlite import ir
from numba import config, types
from numba.core.extending import intrinsic

from rackety.kernels.jit import njit

_I64 = ir.IntType(64)
_I32 = ir.IntType(32)
_U8 = ir.IntType(8)
_F64 = ir.DoubleType()


def _pointer(builder: ir.IRBuilder, address: ir.Value, kind: ir.Type, index: ir.Value
             ) -> ir.Value:
    base = builder.inttoptr(address, kind.as_pointer())
    return builder.gep(base, [index])


def _loader(name: str, kind: ir.Type, result: types.Type, widen: str | None, doc: str):
    """An intrinsic ``load(address, index)``: the ``kind`` at that index,
    widened to 64 bits (``widen``: ``zext`` or ``sext``) or as it is."""
    def load(typingctx, address, index):
        def codegen(context, builder, signature, args):
            value = builder.load(_pointer(builder, args[0], kind, args[1]))
            return getattr(builder, widen)(value, _I64) if widen else value

        return result(types.int64, types.int64), codegen

    load.__doc__ = doc
    load.__name__ = load.__qualname__ = name
    return intrinsic(load)


def _storer(name: str, kind: ir.Type, value_type: types.Type, doc: str):
    """An intrinsic ``store(address, index, value)``: the value (truncated to
    ``kind`` when narrower) at that index."""
    def store(typingctx, address, index, value):
        def codegen(context, builder, signature, args):
            stored = args[2]
            if isinstance(kind, ir.IntType) and kind.width < 64:
                stored = builder.trunc(stored, kind)
            builder.store(stored, _pointer(builder, args[0], kind, args[1]))
            return context.get_dummy_value()

        return types.void(types.int64, types.int64, value_type), codegen

    store.__doc__ = doc
    store.__name__ = store.__qualname__ = name
    return intrinsic(store)


load = _loader("load", _I64, types.int64, None, "``int64[address][index]``.")
store = _storer("store", _I64, types.int64, "``int64[address][index] = value``.")
load_u32 = _loader("load_u32", _I32, types.int64, "zext",
                   "``uint32[address][index]`` as an int64 (a KWG node).")
load_i32 = _loader("load_i32", _I32, types.int64, "sext", "``int32[address][index]`` as an int64.")
store_i32 = _storer("store_i32", _I32, types.int64,
                    "``int32[address][index] = value`` (truncated).")
load_u8 = _loader("load_u8", _U8, types.int64, "zext", "``uint8[address][index]`` as an int64.")
store_u8 = _storer("store_u8", _U8, types.int64, "``uint8[address][index] = value`` (truncated).")
load_f64 = _loader("load_f64", _F64, types.float64, None, "``float64[address][index]``.")
store_f64 = _storer("store_f64", _F64, types.float64, "``float64[address][index] = value``.")


@njit(cache=True, nogil=True, inline="always")
def address(array: np.ndarray) -> np.int64:
    """The address of an array's first element, as an int64."""
    return np.int64(array.ctypes.data)


if config.DISABLE_JIT:  # the kernels run as Python: the same memory through ctypes
    def _python_access(kind: type, width: int) -> tuple:
        def get(address: int, index: int) -> int | float:
            return kind.from_address(int(address) + width * int(index)).value

        def put(address: int, index: int, value: int | float) -> None:
            kind.from_address(int(address) + width * int(index)).value = value

        return get, put

    load, store = _python_access(ctypes.c_int64, 8)
    load_u32 = _python_access(ctypes.c_uint32, 4)[0]
    load_i32, store_i32 = _python_access(ctypes.c_int32, 4)
    load_u8, store_u8 = _python_access(ctypes.c_uint8, 1)
    load_f64, store_f64 = _python_access(ctypes.c_double, 8)
