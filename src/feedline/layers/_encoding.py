"""Turn integer indices into one-hot, multi-hot or count vectors (Keras' categorical encoding).

`one_hot` adds an axis of size `depth` (replacing a last axis of size 1); `multi_hot` and
`count` treat the last axis of a 1-D or 2-D input as the sample and replace it by `depth`.
A scalar is one sample. Indices outside `[0, depth)` contribute nothing. For inputs of rank 3
or more Keras 3 one-hot encodes and then reduces axis 1 (not the last axis): `(2, 3, 2)`
becomes `(2, 2, depth)`; this follows it.

>>> encode([[0, 2, 2]], "count", 4, np.float32).tolist()
[[1.0, 0.0, 2.0, 0.0]]
"""

import numpy as np


def encode(indices, output_mode, depth, dtype, count_weights=None):
    """Encode int `indices` as `output_mode` ("one_hot", "multi_hot", "count") vectors."""
    idx = np.asarray(indices, dtype=np.int64)
    if idx.ndim == 0:
        idx = idx.reshape(1)
    if output_mode == "one_hot":
        if idx.ndim > 1 and idx.shape[-1] == 1:
            idx = idx[..., 0]
        out = np.zeros(idx.shape + (depth,), dtype=dtype)
        flat_idx = idx.reshape(-1)
        rows = np.flatnonzero((flat_idx >= 0) & (flat_idx < depth))
        out.reshape(-1, depth)[rows, flat_idx[rows]] = 1
        return out
    if idx.ndim > 2:
        hot = encode(idx, "one_hot", depth, dtype)
        if output_mode == "multi_hot":
            return hot.max(axis=1)
        if count_weights is not None:
            hot = hot * np.broadcast_to(np.asarray(count_weights), idx.shape)[..., None]
        return hot.sum(axis=1).astype(dtype)
    lead = idx.shape[:-1]
    samples = int(np.prod(lead, dtype=np.int64))
    length = idx.shape[-1]
    flat_idx = idx.reshape(-1)
    valid = (flat_idx >= 0) & (flat_idx < depth)
    positions = np.repeat(np.arange(samples, dtype=np.int64), length)[valid] * depth
    positions += flat_idx[valid]
    if output_mode == "multi_hot":
        out = np.zeros(samples * depth, dtype=dtype)
        out[positions] = 1
    elif count_weights is not None:
        weights = np.broadcast_to(np.asarray(count_weights), idx.shape).reshape(-1)[valid]
        out = np.bincount(positions, weights=weights, minlength=samples * depth).astype(dtype)
    else:
        out = np.bincount(positions, minlength=samples * depth).astype(dtype)
    return out.reshape(lead + (depth,))
