"""`keras.ops` core: conversion, casting, shapes, control flow, scatter and slices.

Keras' TensorFlow backend answers `shape(x)` with a tuple of ints (not a tensor) and
`dtype(x)` with a name ("float32"); `convert_to_tensor` converts as TensorFlow does (Python
ints int32, floats float32), and with a `dtype` casts. The loops run eagerly in Python.

>>> import feedline as fl
>>> ops = fl.keras.ops
>>> ops.shape(fl.zeros([2, 3])), ops.dtype([1, 2]), ops.cast([1.7, -1.7], "int32").numpy().tolist()
((2, 3), 'int32', [1, -1])
>>> int(ops.fori_loop(0, 4, lambda i, total: total + i, 0))
6
"""

import builtins

import numpy as np

from ... import ops as fl_ops
from ...autodiff import custom_gradient as _custom_gradient
from ...autodiff.tape import stop_gradient as _stop_gradient
from ...tensor import Tensor
from ...variable import Variable
from . import _dtypes
from ._apply import array, plain, tensor

_IMPORTED = set(globals())  # what the module's exports leave out


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """`x` as a tensor: converted by TensorFlow's rules, then cast to `dtype` when given."""
    return tensor(x, dtype)


def convert_to_numpy(x):
    """`x` as a plain NumPy array."""
    return np.array(array(x))


def is_tensor(x):
    """True for a feedline tensor (what the TensorFlow backend calls a tensor)."""
    return isinstance(x, (Tensor, Variable))


def cast(x, dtype):
    """`x` converted to `dtype` (floats to ints drop the fraction)."""
    return tensor(x, _dtypes.standardize_dtype(dtype))


def saturate_cast(x, dtype):
    """`x` converted to `dtype`, values first clipped to the range `dtype` can hold."""
    x, dtype = array(x), np.dtype(_dtypes.standardize_dtype(dtype))
    if dtype.kind in "iu" and x.dtype.kind in "iuf":
        info = np.iinfo(dtype)
        x = np.clip(x, info.min, info.max)
    elif dtype.kind == "f" and x.dtype.kind == "f":
        info = np.finfo(dtype)
        x = np.clip(x, info.min, info.max)
    return plain(lambda: x.astype(dtype))()


def shape(x):
    """The shape of `x` as a tuple of ints."""
    return tuple(int(size) for size in np.shape(array(x)))


def dtype(x):
    """Keras' name of `x`'s dtype ("float32")."""
    return _dtypes.standardize_dtype(array(x).dtype)


def cond(pred, true_fn, false_fn):
    """`true_fn()` when `pred` holds, else `false_fn()` (both take no arguments)."""
    return true_fn() if bool(array(pred)) else false_fn()


def switch(index, branches, *operands):
    """`branches[index](*operands)`, `index` clipped into range as Keras does."""
    index = int(np.clip(int(array(index)), 0, len(branches) - 1))
    return branches[index](*operands)


def fori_loop(lower, upper, body_fun, init_val):
    """`body_fun(i, value)` applied for i in range(lower, upper), starting from `init_val`."""
    value = init_val
    for i in range(int(array(lower)), int(array(upper))):
        value = body_fun(i, value)
    return value


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """`body(*loop_vars)` repeated while `cond(*loop_vars)` holds (at most
    `maximum_iterations` times); a tuple of values is unpacked into both functions."""
    single = not isinstance(loop_vars, (list, tuple))
    values = (loop_vars,) if single else tuple(loop_vars)
    count = 0
    while bool(array(cond(*values))):
        if maximum_iterations is not None and count >= maximum_iterations:
            break
        values = body(*values)
        values = (values,) if single else tuple(values)
        count += 1
    return values[0] if single else type(loop_vars)(values)


def map(f, xs):
    """`f` applied to each slice of `xs` along axis 0, the results stacked."""
    return fl_ops.stack([tensor(f(item)) for item in _slices(xs)])


def _slices(xs):
    return [value for value in array(xs)] if not isinstance(xs, (Tensor, Variable)) else \
        [xs[i] for i in range(xs.shape[0])]


def vectorized_map(function, elements):
    """`function` applied to each slice of `elements` along axis 0, the results stacked."""
    if isinstance(elements, (tuple, list)) and not isinstance(elements[0], (int, float)):
        columns = [array(element) for element in elements]
        results = [function(tuple(column[i] for column in columns))
                   for i in range(columns[0].shape[0])]
    else:
        results = [function(item) for item in _slices(elements)]
    return fl_ops.stack([tensor(result) for result in results])


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """Carry `init` through `f(carry, x)` for each slice of `xs` (or `length` times with x
    None); returns the last carry and the stacked outputs."""
    items = [None] * int(length) if xs is None else list(array(xs))
    if reverse:
        items = items[::-1]
    carry, outputs = init, []
    for item in items:
        carry, output = f(carry, item)
        outputs.append(array(output))
    if reverse:
        outputs = outputs[::-1]
    return carry, plain(lambda: np.stack(outputs))() if outputs else None


def associative_scan(f, elems, reverse=False, axis=0):
    """Running results of the associative `f` along `axis` (prefix sums for an adding `f`)."""
    values = np.moveaxis(array(elems), axis, 0)
    if reverse:
        values = values[::-1]
    out = [values[0]]
    for value in values[1:]:
        out.append(array(f(out[-1], value)))
    out = np.stack(out)
    return plain(lambda: np.moveaxis(out[::-1] if reverse else out, 0, axis))()


@plain
def scatter(indices, values, shape):
    """A zero tensor of `shape` with `values` added at `indices` (the last axis of `indices`
    holds coordinates); repeated indices add up."""
    indices, values = array(indices), array(values)
    result = np.zeros(tuple(shape), values.dtype)
    np.add.at(result, tuple(np.moveaxis(indices, -1, 0)), values)
    return result


@plain
def scatter_update(inputs, indices, updates):
    """A copy of `inputs` with `updates` written at `indices` (coordinates on the last axis)."""
    result = np.array(array(inputs))
    updates = array(updates)
    result[tuple(np.moveaxis(array(indices), -1, 0))] = updates
    return result


@plain
def slice(inputs, start_indices, shape):
    """The block of `inputs` that starts at `start_indices` and has `shape`."""
    inputs = array(inputs)
    starts = [int(start) for start in array(start_indices).reshape(-1)]
    sizes = [int(size) for size in array(shape).reshape(-1)]
    return inputs[tuple(builtins.slice(start, start + size)
                        for start, size in zip(starts, sizes))].copy()


@plain
def slice_update(inputs, start_indices, updates):
    """A copy of `inputs` with the block starting at `start_indices` replaced by `updates`."""
    result, updates = np.array(array(inputs)), array(updates)
    starts = [int(start) for start in array(start_indices).reshape(-1)]
    block = tuple(builtins.slice(start, start + size) for start, size in zip(starts, updates.shape))
    result[block] = updates
    return result


def stop_gradient(variable):
    """`variable`'s value, through which a GradientTape passes no gradient."""
    return _stop_gradient(tensor(variable))


def custom_gradient(f):
    """Decorate `f(*args)` returning `(value, grad_fn)` so the tape uses `grad_fn`."""
    return _custom_gradient(f)


def unstack(x, num=None, axis=0):
    """`x` cut along `axis` into a list of tensors."""
    return fl_ops.unstack(tensor(x), num=num, axis=axis)


__all__ = [name for name in globals() if name not in _IMPORTED and not name.startswith("_")]
