"""Keras' merging layers: combine a list of same-shaped inputs into one, value by value.

`Add`, `Subtract` (exactly two inputs: first minus second), `Multiply`, `Average`, `Maximum`
and `Minimum` work element by element (shapes must broadcast); `Dot` takes the dot product
of two batches of vectors or matrices along chosen axes. Each has Keras' functional
spelling in lower case: `add([a, b])` is `Add()([a, b])`. They are written with feedline's
ops, so a gradient reaches every input.

>>> import numpy as np
>>> add([np.ones((1, 2)), np.full((1, 2), 2.0)]).numpy().tolist()
[[3.0, 3.0]]
>>> Dot(axes=1)([np.array([[1.0, 2.0]]), np.array([[3.0, 4.0]])]).numpy().tolist()
[[11.0]]
"""

import functools

import numpy as np

from .. import ops
from ._base import Layer


class _Merge(Layer):
    """A layer combining a list of inputs; subclasses give `_combine(tensors)`."""

    _EXACTLY = None  # how many inputs the layer takes, when fixed
    _ELEMENTWISE = True  # the inputs' shapes must broadcast together

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) < 2:
            raise ValueError(f"{self.name}: {type(self).__name__} is called on a list of at "
                             f"least 2 inputs, e.g. layer([a, b]); got "
                             f"{type(inputs).__name__}")
        if self._EXACTLY is not None and len(inputs) != self._EXACTLY:
            raise ValueError(f"{self.name}: {type(self).__name__} takes exactly "
                             f"{self._EXACTLY} inputs, got {len(inputs)}")
        tensors = [self._cast(x) for x in inputs]
        shapes = [tuple(np.shape(x)) for x in tensors]
        if self._ELEMENTWISE and len({shape[0] for shape in shapes if shape}) > 1:
            # Keras broadcasts the other axes but never the batch axis.
            raise ValueError(f"{self.name}: cannot merge tensors with different batch sizes, "
                             f"got shapes {shapes}; give every input the same first axis")
        try:
            if self._ELEMENTWISE:
                np.broadcast_shapes(*shapes)
        except ValueError:
            raise ValueError(f"{self.name}: {type(self).__name__} needs inputs whose shapes "
                             f"match (or broadcast), got {shapes}") from None
        return self._combine(tensors)

    def _cast(self, x):
        x = x if isinstance(x, np.ndarray) or hasattr(x, "assign") else \
            ops.convert_to_tensor(x)
        if x.dtype.kind in "fiu" and x.dtype != np.dtype(self.compute_dtype):
            x = ops.cast(x, self.compute_dtype)
        return x

    def _combine(self, tensors):  # pragma: no cover - every merge layer overrides it
        raise NotImplementedError

    def compute_mask(self, inputs, mask=None):
        """No mask after a merge unless one came in (Keras ANDs the inputs' masks)."""
        return mask


def _fold(op, tensors):
    return functools.reduce(op, tensors)


class Add(_Merge):
    """The element-wise sum of the inputs."""

    def _combine(self, tensors):
        return _fold(ops.add, tensors)


class Subtract(_Merge):
    """The first input minus the second (exactly two inputs)."""

    _EXACTLY = 2

    def _combine(self, tensors):
        return ops.subtract(tensors[0], tensors[1])


class Multiply(_Merge):
    """The element-wise product of the inputs."""

    def _combine(self, tensors):
        return _fold(ops.multiply, tensors)


class Average(_Merge):
    """The element-wise mean of the inputs."""

    def _combine(self, tensors):
        return ops.divide(_fold(ops.add, tensors), float(len(tensors)))


class Maximum(_Merge):
    """The element-wise largest input value."""

    def _combine(self, tensors):
        return _fold(ops.maximum, tensors)


class Minimum(_Merge):
    """The element-wise smallest input value."""

    def _combine(self, tensors):
        return _fold(ops.minimum, tensors)


def _l2_normalize(x, axis):
    # Keras divides by the norm floored at sqrt(1e-12), so a zero vector stays zero.
    squares = ops.reduce_sum(ops.square(x), axis=axis, keepdims=True)
    return ops.divide(x, ops.sqrt(ops.maximum(squares, 1e-12)))


class Dot(_Merge):
    """The dot product of two inputs along `axes` (batch axis 0 excluded), as Keras'
    `batch_dot`: `(batch, d) . (batch, d)` with axes=1 gives `(batch, 1)`;
    `(batch, n, d) . (batch, m, d)` with axes=2 gives `(batch, n, m)`.

    Args:
        axes: one axis for both inputs, or a pair `(axis_of_first, axis_of_second)`.
        normalize: divide each input by its L2 norm along its axis first, so the result
            is the cosine similarity.

    Inputs of any rank from 2 (and of different ranks) follow `batch_dot`: the result has the
    first input's other axes, then the second's.

    Raises:
        ValueError: for an input of rank below 2, or axes whose sizes differ.
    """

    _EXACTLY = 2
    _ELEMENTWISE = False

    def __init__(self, axes, normalize=False, name=None, **kwargs):
        super().__init__(name, **kwargs)
        if isinstance(axes, (int, np.integer)):
            axes = (int(axes), int(axes))
        if not (isinstance(axes, (list, tuple)) and len(axes) == 2):
            raise ValueError(f"Dot: axes must be an integer or a pair of integers such as "
                             f"(1, 1), got {axes!r}")
        self.axes, self.normalize = tuple(int(a) for a in axes), bool(normalize)

    def _combine(self, tensors):
        x, y = tensors
        shape_x, shape_y = tuple(np.shape(x)), tuple(np.shape(y))
        if len(shape_x) < 2 or len(shape_y) < 2:
            raise ValueError(f"{self.name}: Dot takes two batched inputs of rank 2 or more, "
                             f"got shapes {shape_x} and {shape_y}")
        ax, ay = self.axes[0] % len(shape_x), self.axes[1] % len(shape_y)
        if ax == 0 or ay == 0 or shape_x[ax] != shape_y[ay] or shape_x[0] != shape_y[0]:
            raise ValueError(f"{self.name}: Dot needs one batch size and axes past the batch "
                             f"axis with equal sizes, got axes {self.axes} for shapes "
                             f"{shape_x} and {shape_y}")
        if self.normalize:
            x, y = _l2_normalize(x, ax), _l2_normalize(y, ay)
        return _batch_dot(x, y, ax, ay)

    def _config(self):
        return {"axes": list(self.axes), "normalize": self.normalize}


def _batch_dot(x, y, ax, ay):
    """Keras' `batch_dot`: for each batch entry, contract `x`'s axis `ax` with `y`'s axis
    `ay`; the result has `x`'s other axes, then `y`'s (at least `(batch, 1)`). Done as one
    batched matmul: `x` as (batch, rows, k), `y` as (batch, k, columns)."""
    from ..ops.linalg import matmul

    shape_x, shape_y = tuple(np.shape(x)), tuple(np.shape(y))
    keep_x = [axis for axis in range(1, len(shape_x)) if axis != ax]
    keep_y = [axis for axis in range(1, len(shape_y)) if axis != ay]
    rows = [shape_x[axis] for axis in keep_x]
    columns = [shape_y[axis] for axis in keep_y]
    batch, k = shape_x[0], shape_x[ax]
    x = ops.reshape(ops.transpose(x, [0] + keep_x + [ax]), [batch, -1, k])
    y = ops.reshape(ops.transpose(y, [0, ay] + keep_y), [batch, k, -1])
    return ops.reshape(matmul(x, y), [batch] + (rows + columns or [1]))


def add(inputs, **kwargs):
    """`Add(**kwargs)(inputs)`."""
    return Add(**kwargs)(inputs)


def subtract(inputs, **kwargs):
    """`Subtract(**kwargs)(inputs)`."""
    return Subtract(**kwargs)(inputs)


def multiply(inputs, **kwargs):
    """`Multiply(**kwargs)(inputs)`."""
    return Multiply(**kwargs)(inputs)


def average(inputs, **kwargs):
    """`Average(**kwargs)(inputs)`."""
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    """`Maximum(**kwargs)(inputs)`."""
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    """`Minimum(**kwargs)(inputs)`."""
    return Minimum(**kwargs)(inputs)


def dot(inputs, axes=-1, **kwargs):
    """`Dot(axes, **kwargs)(inputs)`."""
    return Dot(axes=axes, **kwargs)(inputs)
