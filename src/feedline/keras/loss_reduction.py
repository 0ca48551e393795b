"""How a Keras 3 `Loss` object turns per-sample losses into what it returns.

Sample weights and a mask (the entries a loss says to ignore, such as
`SparseCategoricalCrossentropy(ignore_class=...)`'s) are merged into one weight; its rank is
matched to the losses' by dropping or adding a trailing axis of size 1; then the reduction:

- "sum_over_batch_size" and "mean": the weighted sum divided by the number of loss values
  (masked ones included: the mask's weight is scaled by `total / valid` so that the result
  is the mean over the valid entries);
- "mean_with_sample_weight": the weighted sum divided by the sum of the weights;
- "sum": the weighted sum;
- "none" or None: the weighted losses themselves.

Division by zero gives 0 (`divide_no_nan`), as in Keras.

>>> import numpy as np
>>> losses = np.array([1.0, 3.0], np.float32)
>>> float(reduce_weighted(losses, np.array([1.0, 0.0], np.float32), None, "mean_with_sample_weight"))
1.0
>>> float(reduce_weighted(losses, None, np.array([True, False]), "sum_over_batch_size"))
1.0
"""

import numpy as np

from .. import ops

REDUCTIONS = ("sum_over_batch_size", "sum", "none", None, "mean", "mean_with_sample_weight")


def check_reduction(reduction, owner):
    """`reduction` when Keras 3 accepts it.

    Raises:
        ValueError: naming the allowed values.
    """
    if reduction not in REDUCTIONS:
        raise ValueError(f"{owner}: reduction must be one of {REDUCTIONS}, got {reduction!r}")
    return reduction


def _same_rank(values, weight):
    """Keras 3's squeeze-or-expand: when the ranks differ by one and the longer has a last
    axis of size 1, drop that axis, or add one to a rank-1 partner instead."""
    v_rank, w_rank = len(np.shape(values)), len(np.shape(weight))
    if v_rank == w_rank + 1 and np.shape(values)[-1] == 1:
        if w_rank == 1:
            weight = ops.expand_dims(weight, -1)
        else:
            values = ops.squeeze(values, -1)
    elif w_rank == v_rank + 1 and np.shape(weight)[-1] == 1:
        if v_rank == 1:
            values = ops.expand_dims(values, -1)
        else:
            weight = ops.squeeze(weight, -1)
    return values, weight


def _mask_weight(mask, dtype, reduction):
    mask = np.asarray(mask, dtype=bool)
    if reduction in ("mean", "sum_over_batch_size"):
        valid = int(mask.sum())
        scale = mask.size / valid if valid else 0.0  # so that the mean is over valid entries
        return np.where(mask, scale, 0.0).astype(dtype)
    return mask.astype(dtype)


def reduce_weighted(losses, sample_weight, mask, reduction):
    """Weight `losses` by `sample_weight` and `mask` (either may be None), then reduce."""
    losses = ops.convert_to_tensor(losses)
    dtype = np.dtype(losses.numpy().dtype)
    weight = None if sample_weight is None else ops.cast(sample_weight, dtype)
    if mask is not None:
        mask_weight = ops.convert_to_tensor(_mask_weight(mask, dtype, reduction))
        if weight is None:
            weight = mask_weight
        else:
            mask_weight, weight = _same_rank(mask_weight, weight)
            weight = ops.multiply(weight, mask_weight)
    if weight is not None:
        losses, weight = _same_rank(losses, weight)
        losses = ops.multiply(losses, weight)
    if reduction in ("none", None) or tuple(np.shape(losses)) in ((), (0,)):
        return losses
    total = ops.reduce_sum(losses)
    if reduction == "sum":
        return total
    if reduction == "mean_with_sample_weight" and weight is not None:
        divisor = ops.reduce_sum(weight)
    else:
        divisor = ops.cast(np.size(losses), dtype)
    return ops.divide_no_nan(total, divisor)
