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
from numba import config, njit, types
from numba.core.extending import intrinsic

_I64 = ir.IntType(64)
_I32 = ir.IntType(32)
_U8 = ir.IntType(8)
_F64 = ir.DoubleType()


def _pointer(builder: ir.IRBuilder, address: ir.Value, kind: ir.Type, index: ir.Value
             ) -> ir.Value:
    base = builder.inttoptr(address, kind.as_pointer())
    return builder.gep(base, [index])


@intrinsic
def load(typingctx, address, index):  # noqa: ANN201
    """``int64[address][index]``."""
    def codegen(context, builder, signature, args):
        return builder.load(_pointer(builder, args[0], _I64, args[1]))

    return types.int64(types.int64, types.int64), codegen


@intrinsic
def store(typingctx, address, index, value):  # noqa: ANN201
    """``int64[address][index] = value``."""
    def codegen(context, builder, signature, args):
        builder.store(args[2], _pointer(builder, args[0], _I64, args[1]))
        return context.get_dummy_value()

    return types.void(types.int64, types.int64, types.int64), codegen


@intrinsic
def load_u32(typingctx, address, index):  # noqa: ANN201
    """``uint32[address][index]`` as an int64 (a KWG node)."""
    def codegen(context, builder, signature, args):
        value = builder.load(_pointer(builder, args[0], _I32, args[1]))
        return builder.zext(value, _I64)

    return types.int64(types.int64, types.int64), codegen


@intrinsic
def store_i32(typingctx, address, index, value):  # noqa: ANN201
    """``int32[address][index] = value`` (truncated)."""
    def codegen(context, builder, signature, args):
        builder.store(builder.trunc(args[2], _I32), _pointer(builder, args[0], _I32, args[1]))
        return context.get_dummy_value()

    return types.void(types.int64, types.int64, types.int64), codegen


@intrinsic
def load_i32(typingctx, address, index):  # noqa: ANN201
    """``int32[address][index]`` as an int64."""
    def codegen(context, builder, signature, args):
        value = builder.load(_pointer(builder, args[0], _I32, args[1]))
        return builder.sext(value, _I64)

    return types.int64(types.int64, types.int64), codegen


@intrinsic
def store_u8(typingctx, address, index, value):  # noqa: ANN201
    """``uint8[address][index] = value`` (truncated)."""
    def codegen(context, builder, signature, args):
        builder.store(builder.trunc(args[2], _U8), _pointer(builder, args[0], _U8, args[1]))
        return context.get_dummy_value()

    return types.void(types.int64, types.int64, types.int64), codegen


@intrinsic
def load_u8(typingctx, address, index):  # noqa: ANN201
    """``uint8[address][index]`` as an int64."""
    def codegen(context, builder, signature, args):
        value = builder.load(_pointer(builder, args[0], _U8, args[1]))
        return builder.zext(value, _I64)

    return types.int64(types.int64, types.int64), codegen


@intrinsic
def load_f64(typingctx, address, index):  # noqa: ANN201
    """``float64[address][index]``."""
    def codegen(context, builder, signature, args):
        return builder.load(_pointer(builder, args[0], _F64, args[1]))

    return types.float64(types.int64, types.int64), codegen


@intrinsic
def store_f64(typingctx, address, index, value):  # noqa: ANN201
    """``float64[address][index] = value``."""
    def codegen(context, builder, signature, args):
        builder.store(args[2], _pointer(builder, args[0], _F64, args[1]))
        return context.get_dummy_value()

    return types.void(types.int64, types.int64, types.float64), codegen


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
