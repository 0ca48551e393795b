"""`keras.ops.numpy` counting and mapping: histogram, bincount and vectorize.

`histogram` splits [min, max] (or `range`) into `bins` equal bins, the last closed, and
counts in `x`'s dtype, as Keras' TensorFlow backend; `bincount` counts integers (int32, or
the promoted dtype of `weights`). `vectorize` calls a function of tensors once per element
(or per core slice, by a NumPy-style `signature`) and stacks the results.

>>> import feedline as fl
>>> ops = fl.keras.ops
>>> ops.bincount(fl.constant([0, 1, 1, 3])).numpy().tolist()
[1, 2, 0, 1]
>>> counts, edges = ops.histogram(fl.constant([0.0, 1.0, 1.0, 4.0]), bins=2)
>>> counts.numpy().tolist(), edges.numpy().tolist()
([3.0, 1.0], [0.0, 2.0, 4.0])
>>> ops.vectorize(lambda a, b: a + b)(fl.constant([1, 2]), fl.constant([10, 20])).numpy().tolist()
[11, 22]
"""

import functools
import re

import numpy as np

from . import _dtypes
from ._apply import array, plain, tensor

_IMPORTED = set(globals())  # what the module's exports leave out


@plain
def histogram(x, bins=10, range=None):
    """(counts, bin_edges) of a 1-D `x` over `bins` equal bins (both in `x`'s dtype).

    Raises:
        TypeError: for a `bins` that is not an int.
        ValueError: for negative `bins`, a bad `range` or `x` of more than one axis.
    """
    if not isinstance(bins, int):
        raise TypeError(f"histogram: bins must be an int, got {bins!r}")
    if bins < 0:
        raise ValueError(f"histogram: bins must be non-negative, got {bins}")
    if range and (not isinstance(range, tuple) or len(range) < 2 or range[1] < range[0]):
        raise ValueError(f"histogram: range must be a tuple (low, high) with low <= high, got "
                         f"{range!r}")
    x = array(x)
    if x.ndim > 1:
        raise ValueError(f"histogram: x must be 1-D, got shape {x.shape}; flatten it first")
    low, high = (x.min(), x.max()) if range is None else range
    x = x[(x >= low) & (x <= high)]
    edges = np.linspace(np.float64(low), np.float64(high), bins + 1).astype(x.dtype)
    counts = np.bincount(np.searchsorted(edges[1:-1], x, side="right"), minlength=bins)
    return counts.astype(x.dtype), edges


@plain
def bincount(x, weights=None, minlength=0, sparse=False):
    """How often each value 0, 1, ... occurs in `x` (summing `weights` when given), along
    the last axis; int32 without weights, else the dtype `x` and `weights` promote to.

    Raises:
        ValueError: for `sparse=True` (not supported here) or negative values.
    """
    if sparse:
        raise ValueError("bincount: sparse=True is not supported here; use sparse=False")
    x = array(x)
    dtype = "int32" if weights is None else _dtypes.result_type(
        x.dtype.name, _dtypes.dtype_of(weights))
    values = x.astype("int64")
    if values.size and values.min() < 0:
        raise ValueError("bincount: x must hold non-negative integers")
    length = max(int(minlength or 0), int(values.max()) + 1 if values.size else 0)
    w = None if weights is None else np.broadcast_to(array(weights), values.shape)
    rows = values.reshape(-1, values.shape[-1]) if values.ndim > 1 else values[None]
    rows_w = None if w is None else w.reshape(rows.shape)
    counts = np.stack([np.bincount(row, None if rows_w is None else rows_w[i], length)
                       for i, row in enumerate(rows)])
    return counts.reshape(values.shape[:-1] + (length,)).astype(dtype)


def _core_dims(signature):
    """A signature "(m,n),(n)->(m)" as the inputs' core dimension names and the outputs'."""
    match = re.fullmatch(r"\s*(.*?)\s*->\s*(.*?)\s*", signature or "")
    if not match:
        raise ValueError(f"vectorize: signature must look like '(m,n),(n)->(m)', got "
                         f"{signature!r}")
    def groups(text):
        return [tuple(n.strip() for n in g.split(",") if n.strip())
                for g in re.findall(r"\(([^)]*)\)", text)]
    return groups(match.group(1)), groups(match.group(2))


def vectorize(pyfunc, *, excluded=None, signature=None):
    """`pyfunc` turned into a function that maps over the leading (broadcast) axes.

    Raises:
        ValueError: when `pyfunc` is not callable or `signature` cannot be read.
    """
    if not callable(pyfunc):
        raise ValueError(f"vectorize: pyfunc must be callable, got {pyfunc!r}")
    excluded = set(excluded or ())
    inputs_core = _core_dims(signature)[0] if signature is not None else None

    @functools.wraps(pyfunc)
    def wrapped(*args, **kwargs):
        mapped = [i for i in range(len(args)) if i not in excluded and args[i] is not None]
        values = [array(tensor(args[i])) for i in mapped]
        cores = inputs_core or [()] * len(values)
        loops = [v.shape[:v.ndim - len(core)] for v, core in zip(values, cores)]
        shape = np.broadcast_shapes(*loops) if loops else ()
        values = [np.broadcast_to(v, shape + v.shape[len(loop):])
                  for v, loop in zip(values, loops)]
        results = []
        for index in np.ndindex(*shape):
            call = list(args)
            for i, v in zip(mapped, values):
                call[i] = tensor(v[index])
            results.append(pyfunc(*call, **kwargs))
        return _stack(results, shape)
    return wrapped


def _stack(results, shape):
    if results and isinstance(results[0], tuple):
        return tuple(_stack([r[i] for r in results], shape) for i in range(len(results[0])))
    stacked = np.stack([array(r) for r in results]) if results else np.zeros(0, "float32")
    return plain(lambda: stacked.reshape(shape + stacked.shape[1:]))()


__all__ = [name for name in globals() if name not in _IMPORTED and not name.startswith("_")]
