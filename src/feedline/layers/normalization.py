"""`Normalization`: shift and scale features to zero mean and unit variance.

`adapt` makes one streaming pass: each batch contributes its count, mean and sum of squared
deviations, merged exactly into the running totals (Chan et al.'s parallel update, in float64),
so a Dataset of batches gives the statistics of the whole array without holding it.

>>> layer = Normalization(axis=None)
>>> layer.adapt(np.array([1., 2., 3., 4., 5.]))
>>> layer(np.array([1., 2., 3.]))
<tf.Tensor: shape=(3,), dtype=float32, numpy=array([-1.4142135 , -0.70710677,  0.        ], dtype=float32)>
"""

import numpy as np

from .. import data as _data
from ._base import Layer, NotAdaptedError, is_batch_stream, iter_batches, to_float_array

_EPSILON = 1e-7  # Keras' backend.epsilon(): the floor under the standard deviation


class Normalization(Layer):
    """Feature-wise `(x - mean) / sqrt(variance)`, or its inverse with `invert=True`.

    Called before `adapt` (and without `mean` and `variance`) it raises `NotAdaptedError`,
    where Keras 3 would return the inputs unchanged (its initial mean 0 and variance 1).

    >>> layer = Normalization(mean=3.0, variance=2.0)
    >>> layer(np.array([[1.], [2.], [3.]])).numpy().ravel()
    array([-1.4142135 , -0.70710677,  0.        ], dtype=float32)
    """

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, name=None, **kwargs):
        super().__init__(name, **kwargs)
        if axis is None:
            axis = ()
        elif isinstance(axis, (int, np.integer)):
            axis = (int(axis),)
        else:
            axis = tuple(int(a) for a in axis)
        self.axis = axis
        self.invert = bool(invert)
        if (mean is None) != (variance is None):
            raise ValueError("When setting values directly, both `mean` and `variance` must be "
                             f"set. Received: mean={mean} and variance={variance}")
        if mean is not None:
            if np.shape(mean) != np.shape(variance):
                raise ValueError("`mean` and `variance` must have the same shape. Received: "
                                 f"{np.shape(mean)} and {np.shape(variance)}")
            if np.ndim(mean) > len(self.axis):
                raise ValueError(f"The rank of `mean` must be at most the number of axes "
                                 f"({len(self.axis)}). Received shape {np.shape(mean)}")
        self.input_mean = mean
        self.input_variance = variance
        self.mean = None
        self.variance = None
        self._input_shape = None
        self._adapted_mean = None
        self._adapted_variance = None

    # -- shapes -----------------------------------------------------------------------------

    def build(self, input_shape):
        """Fix the kept and reduced axes for inputs of `input_shape` (the batch axis may vary)."""
        ndim = len(input_shape)
        if any(a < -ndim or a >= ndim for a in self.axis):
            raise ValueError(f"All `axis` values must be in the range [-ndim, ndim). Received "
                             f"inputs with ndim={ndim}, while axis={self.axis}")
        self._keep = tuple(sorted(a % ndim for a in self.axis))
        self._reduce = tuple(d for d in range(ndim) if d not in self._keep)
        self._broadcast_shape = tuple(input_shape[d] if d in self._keep else 1
                                      for d in range(ndim))
        self._stat_shape = tuple(input_shape[d] for d in self._keep)
        self._input_shape = tuple(input_shape)
        if self.input_mean is not None:
            self.mean = self._expand(self.input_mean)
            self.variance = self._expand(self.input_variance)

    def _expand(self, value):
        value = np.asarray(value, dtype=np.float32)
        shape = [1] * len(self._broadcast_shape)
        for i in range(1, value.ndim + 1):
            shape[self._keep[-i]] = value.shape[-i]
        return np.broadcast_to(value.reshape(shape), self._broadcast_shape).copy()

    def _check_shape(self, shape):
        if self._input_shape is None:
            self.build(shape)
            return
        if len(shape) != len(self._input_shape) or any(
                shape[d] != self._input_shape[d] for d in self._keep):
            raise ValueError(f"Layer {self.name} was built for inputs of shape "
                             f"{self._input_shape} (kept axes {self._keep}); received shape "
                             f"{tuple(shape)}")

    # -- adapt ------------------------------------------------------------------------------

    def adapt(self, data, steps=None):
        """Learn mean and variance from an array, or from a Dataset (or iterable) of batches."""
        if self.input_mean is not None:
            raise ValueError(f"Cannot adapt layer {self.name}: `mean` and `variance` were given")
        if isinstance(data, _data.Dataset):
            spec = data.element_spec
            spec = spec[0] if isinstance(spec, tuple) else spec
            if getattr(spec, "shape", None) is not None and len(spec.shape) == 1:
                data = data.batch(128)  # a Dataset of single feature vectors, as Keras does
        if is_batch_stream(data) or (isinstance(data, list) and data
                                     and all(isinstance(b, np.ndarray) for b in data)):
            batches = iter_batches(data, steps)  # a list of arrays is a list of batches
        else:
            batches = [data]
        count, mean, squares = 0, None, None
        for batch in batches:
            batch = to_float_array(batch, self.name, np.float64)
            if self._input_shape is None:
                self.build(batch.shape)
            self._check_shape(batch.shape)
            n = int(np.prod([batch.shape[d] for d in self._reduce], dtype=np.int64))
            if n == 0:
                continue
            centre = batch.mean(axis=self._reduce, keepdims=True)
            batch_mean = centre.reshape(self._stat_shape)
            batch_squares = np.square(batch - centre).sum(axis=self._reduce)
            if count == 0:
                count, mean, squares = n, batch_mean, batch_squares
                continue
            total = count + n
            delta = batch_mean - mean
            mean = mean + delta * (n / total)
            squares = squares + batch_squares + delta ** 2 * (count * n / total)
            count = total
        if count == 0:
            raise ValueError(f"Cannot adapt layer {self.name} on empty data")
        self._adapted_mean = mean.astype(np.float32)
        self._adapted_variance = (squares / count).astype(np.float32)
        self.mean = self._adapted_mean.reshape(self._broadcast_shape)
        self.variance = self._adapted_variance.reshape(self._broadcast_shape)

    # -- call -------------------------------------------------------------------------------

    def call(self, inputs):
        x = to_float_array(inputs, self.name, self.compute_dtype)
        if self.input_mean is None and self._adapted_mean is None:
            # Keras 3 would pass the inputs through (its initial mean 0, variance 1); feedline
            # says what is missing instead: the exercise checks rely on this error.
            raise NotAdaptedError(f"Layer {self.name} has no mean and variance yet: call "
                                  "adapt(data) first, or pass `mean` and `variance`")
        if self._input_shape is None:
            self.build(x.shape)
        scale = np.maximum(np.sqrt(self.variance), np.float32(_EPSILON))
        try:
            if self.invert:
                return (self.mean + x * scale).astype(self.compute_dtype, copy=False)
            return ((x - self.mean) / scale).astype(self.compute_dtype, copy=False)
        except ValueError:  # NumPy's broadcast error names no layer: say what does not fit
            raise ValueError(
                f"Layer {self.name} holds statistics of shape {np.shape(self.mean)} (built for "
                f"inputs of shape {self._input_shape}, axis={self.axis}), which do not fit "
                f"inputs of shape {x.shape}; for a 1-D column of values, use "
                "Normalization(axis=None)") from None

    def _config(self):
        if self._adapted_mean is not None:
            mean, variance = self._adapted_mean.tolist(), self._adapted_variance.tolist()
        else:
            mean = None if self.input_mean is None else np.asarray(self.input_mean).tolist()
            variance = (None if self.input_variance is None
                        else np.asarray(self.input_variance).tolist())
        # Keras writes `axis` as the tuple it keeps (`()` for axis=None). It keeps adapted
        # statistics in weights, not in the config; feedline has no weights file, so an
        # adapted layer's config carries them as `mean` and `variance`.
        return {"axis": self.axis, "invert": self.invert, "mean": mean, "variance": variance}
