"""`Discretization`: bucket numbers by boundaries, learned as approximate quantiles by `adapt`.

Buckets are `(-inf, b0), [b0, b1), ..., [bn, inf)`. `adapt` follows Keras' quantile summary:
each batch is sorted and thinned to about `1/epsilon` weighted points, summaries are merged and
re-compressed by interpolating cumulative weights, and the final boundaries interpolate the
summary at `1/num_bins` steps. On data smaller than `1/epsilon` values this is exact
interpolated quantiles, and a streamed adapt gives the same summary Keras would.

>>> layer = Discretization(bin_boundaries=[0.0, 1.0])
>>> layer(np.array([-0.5, 0.0, 0.5, 1.0, 7.0])).tolist()
[0, 1, 1, 2, 2]
"""

import numpy as np

from ._base import Layer, NotAdaptedError, check_choice, is_batch_stream, iter_batches
from ._base import to_float_array
from ._encoding import encode

_MODES = ("int", "one_hot", "multi_hot", "count")


def summarize(values, epsilon):
    """A 2 x k summary (values, weights) of a batch: its sorted values thinned by 1/epsilon."""
    values = np.sort(np.reshape(values, -1))
    # Keras divides by the bucket count 1/epsilon; `size * epsilon` rounds differently
    # (1800 * 0.03 is 54.0, 1800 / (1 / 0.03) is 53.99...), which moves every kept value.
    increment = values.size / (1.0 / epsilon)
    step = max(increment, 1)
    kept = values[int(increment)::int(step)]
    return np.stack([kept, np.full(kept.shape, step, dtype=kept.dtype)])


def compress_summary(summary, epsilon):
    """Re-sample a summary at cumulative-weight fractions epsilon, 2*epsilon, ..., 1."""
    if summary.shape[1] * epsilon < 1:
        return summary
    fractions = epsilon + np.arange(0.0, 1.0, epsilon)
    cumulative = summary[1].cumsum()
    positions = cumulative / cumulative[-1]
    values = np.interp(fractions, positions, summary[0])
    new_cumulative = np.interp(fractions, positions, cumulative)
    weights = np.diff(new_cumulative, prepend=0.0)
    return np.stack((values, weights)).astype(np.float32)


def merge_summaries(first, second, epsilon):
    """Merge two summaries (weighted merge by value) and compress the result."""
    merged = np.concatenate((first, second), axis=1)
    merged = np.take(merged, np.argsort(merged[0]), axis=1)
    return compress_summary(merged, epsilon)


class Discretization(Layer):
    """Map each number to the index of its bucket (int32), or encode the bucket index.

    The int32 is what Keras 3.15.1 returns (its `output_dtype` is int32 in "int" mode
    whatever the layer's dtype, which defaults to float32 and is what encodings use); Keras 2
    (the one HOML3 ran) gave int64. Pass `dtype="int64"` to get int64 ids (a feedline
    extension: Keras 3 would still give int32).

    >>> layer = Discretization(num_bins=4, epsilon=0.01)
    >>> layer.adapt(np.array([[-1.5, 1.0, 3.4, .5], [0.0, 3.0, 1.3, 0.0]]))
    >>> layer(np.array([[-1.5, 1.0, 3.4, .5], [0.0, 3.0, 1.3, 0.0]])).tolist()
    [[0, 2, 3, 2], [1, 3, 3, 1]]
    """

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int",
                 sparse=False, name=None, dtype=None, **kwargs):
        if dtype is None:  # Keras 3.15's default: floatx, written so in the config
            dtype = "float32"
        super().__init__(name, dtype, **kwargs)
        check_choice(output_mode, _MODES, "output_mode", "Discretization")
        if sparse:
            raise ValueError("feedline layers return dense arrays; `sparse=True` is not supported")
        if num_bins is not None and num_bins < 0:
            raise ValueError(f"`num_bins` must be greater than or equal to 0. "
                             f"Received: num_bins={num_bins}")
        if num_bins is not None and bin_boundaries is not None:
            raise ValueError("Both `num_bins` and `bin_boundaries` should not be set. "
                             f"Received: num_bins={num_bins} and bin_boundaries={bin_boundaries}")
        if num_bins is None and bin_boundaries is None:
            raise ValueError("You need to set either `num_bins` or `bin_boundaries`.")
        self.bin_boundaries = None if bin_boundaries is None else [float(b) for b in
                                                                   bin_boundaries]
        self.num_bins = num_bins
        self.epsilon = epsilon
        self.output_mode = output_mode
        self.sparse = False

    def adapt(self, data, steps=None):
        """Learn `num_bins - 1` boundaries from the quantiles of an array or batches."""
        if self.num_bins is None:
            raise ValueError("Cannot adapt a Discretization layer that has been initialized "
                             "with `bin_boundaries`, use `num_bins` instead.")
        summary = np.zeros((2, 0), dtype=np.float32)
        batches = iter_batches(data, steps) if is_batch_stream(data) else [data]
        for batch in batches:
            batch = to_float_array(batch, self.name)
            summary = merge_summaries(summarize(batch, self.epsilon), summary, self.epsilon)
        if summary.shape[1] == 0:
            raise ValueError(f"Cannot adapt layer {self.name} on empty data")
        self.bin_boundaries = compress_summary(summary, 1.0 / self.num_bins)[0, :-1].tolist()

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise NotAdaptedError("You need to either pass the `bin_boundaries` argument at "
                                  "construction time or call `adapt(dataset)` before you can "
                                  f"start using layer {self.name}.")
        x = to_float_array(inputs, self.name)
        boundaries = np.asarray(self.bin_boundaries, dtype=np.float32)
        indices = np.searchsorted(boundaries, x, side="right")
        if self.output_mode == "int":
            integer = np.dtype(self.compute_dtype).kind in "iu"
            return indices.astype(self.compute_dtype if integer else np.int32)
        return encode(indices, self.output_mode, len(boundaries) + 1, self.compute_dtype)

    def _base_config(self):
        # Keras' Discretization writes `name` and `dtype` (a plain name) and no `trainable`
        return {"name": self.name, "dtype": self.dtype}

    def _config(self):
        return {"bin_boundaries": self.bin_boundaries, "num_bins": self.num_bins,
                "epsilon": self.epsilon, "output_mode": self.output_mode, "sparse": self.sparse}

    @classmethod
    def from_config(cls, config):
        """Rebuild the layer; an adapted layer's config holds both `num_bins` and boundaries."""
        config = cls._config_arguments(config)
        if config.get("bin_boundaries") is not None and config.get("num_bins") is not None:
            boundaries = config.pop("bin_boundaries")
            layer = cls(**config)
            layer.bin_boundaries = list(boundaries)
            return layer
        return cls(**config)
