"""Calling user functions on elements the way tf.data does.

A function gets its element as tensors (`fl.Tensor` views of the NumPy values, strings as
`StringTensor`s), as a TensorFlow function gets symbolic tensors, so its operators follow
TensorFlow's dtype rules; what it returns becomes a plain element again (Python numbers with
TensorFlow's dtypes), so the stages between functions pass plain NumPy values.

>>> mapper(lambda x: x / 255)(np.uint8(51)).dtype
dtype('float32')
"""

import numpy as np

from .. import structure
from ...tensor import StringTensor, Tensor, as_tensors

# Leaf types that need no conversion: returned as they are, for speed.
_READY = frozenset({np.int64, np.int32, np.int16, np.int8, np.uint8, np.uint16, np.uint32,
                    np.uint64, np.float64, np.float32, np.float16, np.bool_, bytes})
_SCALARS = _READY - {bytes}
_view, _asarray = np.ndarray.view, np.asarray


def _tensor(leaf):
    """One leaf as a TensorFlow function receives it: a `Tensor` (a NumPy value seen through
    TensorFlow's operator rules, so `x / 255` on uint8 gives float32 and `x + 0.5` on int64
    raises, as in TensorFlow), strings as `StringTensor`s; sparse and ragged values as they
    are. Arrays become views (no copy); NumPy scalars 0-d tensors."""
    kind = type(leaf)
    if kind is np.ndarray and leaf.dtype.kind != "O":
        return _view(leaf, Tensor)
    if kind in _SCALARS:
        return _view(_asarray(leaf), Tensor)
    if kind is bytes:
        return StringTensor(leaf)
    return as_tensors(leaf)


def _arguments(element):
    """The element as a user function receives it: every leaf a tensor (see `_tensor`)."""
    kind = type(element)
    if kind is tuple:
        return tuple(map(_tensor, element))
    if kind is dict:
        return {key: _tensor(leaf) for key, leaf in element.items()}
    return _tensor(element)


def call(function, element):
    """Call `function` with the element, unpacking a plain tuple into arguments (as tf does)."""
    element = _arguments(element)
    if type(element) is tuple:
        return function(*element)
    return function(element)


def as_element(value):
    """Convert a user function's result to an element (Python numbers get tf's dtypes).

    A list returned by the function is a tuple of components, as in TensorFlow (which warns
    about it); a list nested inside the result is one array.

    >>> as_element([np.int64(1), b"a"])
    (np.int64(1), b'a')
    """
    if type(value) in _READY:
        return value
    if type(value) is list:
        value = tuple(value)
    return structure.to_element(value)


def mapper(function):
    """A one-argument function: call `function` on an element and convert its result."""
    def apply(element):
        if type(element) in _SCALARS:  # the commonest element, without the general path
            arguments = _view(_asarray(element), Tensor)
            value = function(arguments)
        else:
            arguments = _arguments(element)
            value = function(*arguments) if type(arguments) is tuple else function(arguments)
        kind = type(value)
        if kind in _READY:
            return value
        if value is arguments:  # handed back unchanged: the element it was made from
            return element
        if kind is Tensor:  # an op's result: `to_leaf` turns it back cheaply
            return structure.to_leaf(value)
        return as_element(value)
    return apply


def predicate(function, what="predicate"):
    """A one-argument function returning a Python bool; a non-scalar-boolean result is an error."""
    from ...errors import InvalidArgumentError

    def test(element):
        if type(element) in _SCALARS:  # the commonest element, without the general path
            value = function(_view(_asarray(element), Tensor))
        else:
            element = _arguments(element)
            value = function(*element) if type(element) is tuple else function(element)
        if value is True or value is False:
            return value
        if type(value) is np.bool_:
            return bool(value)
        array = np.asarray(value)
        if array.dtype == np.bool_ and array.ndim == 0:
            return bool(array)
        raise InvalidArgumentError(
            f"the {what} must return a scalar boolean, but returned {type(value).__name__} "
            f"with dtype {array.dtype} and shape {list(array.shape)}")
    return test


def close(iterator):
    """Close an iterator if it can be closed (generators and feedline iterators can)."""
    closer = getattr(iterator, "close", None)
    if closer is not None:
        closer()
