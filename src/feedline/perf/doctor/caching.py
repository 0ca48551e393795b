"""Suggest a memory cache after the bottleneck: after the first epoch it and every stage
before it cost nothing, if the elements fit in the memory budget and the data is finite."""

import math

import numpy as np

from ...data import structure
from ...data.spec import unknown_rank
from . import model
from .advice import Suggestion, node_of, price, rebuilder, segment_of, upstream
from .report import duration

#: `apply_top` fills a cache before measuring it only when that takes at most this long.
MAX_FILL_SECONDS = 10.0


def cache(context):
    """A cache right after the bottleneck stage, when its data is finite and fits."""
    stage = context.bottleneck
    node = node_of(context, stage)
    if node is None:
        return []
    count = int(node.cardinality())
    if count < 0:  # infinite or unknown: there is no complete epoch to keep
        return []
    size = bytes_per_element(node.element_spec)
    if size is None or size * count > context.memory_budget:
        return []
    freed = upstream(context, stage)
    after = model.scaled(context.segments, {s: 0.0 for s in freed})
    # Replaying an element costs about what the cheapest measured stage costs per element.
    replay = min((c for seg in context.segments for c in seg.costs.values() if c > 0),
                 default=0.0)
    home = segment_of(context, stage)
    after = [seg._replace(costs={**seg.costs, "cache": replay}) if seg.name == home.name
             else seg for seg in after]
    rate, gain = price(context, after)
    row = context.rows[stage]
    filling = count / row.rate if row.rate > 0 else math.inf
    reason = (f"{count} elements of {size} bytes ({size * count / 2**20:.1f} MiB) fit in memory; "
              f"after a first epoch of about {duration(filling)}, {', '.join(sorted(freed))} cost "
              "nothing (only if they give the same elements every epoch)")
    # Measuring the change means filling the cache first: only when that is quick.
    quick = filling <= max(MAX_FILL_SECONDS, 5 * context.run.wall)
    return [Suggestion("cache", stage, rate, gain, reason, f"after {stage}: .cache()",
                       rebuilder(context.dataset, node, lambda n: n.cache()) if quick
                       else None)]


def bytes_per_element(spec):
    """Bytes of one element from its spec, or None when a size or a string length is unknown.

    >>> from feedline.data.spec import TensorSpec
    >>> bytes_per_element((TensorSpec((2, 3), "float32"), TensorSpec((), "int64")))
    32
    """
    total = 0
    for leaf in structure.flatten(spec):
        shape, dtype = getattr(leaf, "shape", None), getattr(leaf, "dtype", None)
        if unknown_rank(shape) or dtype is None or any(size is None for size in shape):
            return None
        dtype = np.dtype(dtype)
        if dtype == object:  # strings: their lengths are not in the spec
            return None
        total += int(math.prod(shape)) * dtype.itemsize
    return total
