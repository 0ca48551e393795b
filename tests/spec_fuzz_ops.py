"""The map functions of the spec fuzzer (`tests/spec_fuzz_pipelines.py`), each with the static
output spec TensorFlow's shape function gives it.

An op is `(name, fits, function, rule)`: `fits(spec)` says whether the op accepts a component
of that `TensorSpec`, `function(x)` is what the map runs, and `rule(spec)` is the spec
TensorFlow infers for the result while tracing (from the op's shape function, documented on
tensorflow.org/api_docs/python/tf/<op>): a size that depends on the values is None, a size
given by Python constants is known.
"""

import numpy as np

import feedline as fl
from feedline.data.spec import TensorSpec
from feedline.data.spec import unknown_rank

INTS = ("int32", "int64")


def _name(spec):
    return "string" if spec.dtype == fl.string else np.dtype(spec.dtype).name


def _shape(spec):
    return None if unknown_rank(spec.shape) else tuple(spec.shape)


def _rank(spec):
    return None if unknown_rank(spec.shape) else len(spec.shape)


def _numeric(spec):
    return _name(spec) not in ("string", "bool")


def _known(spec):
    return not unknown_rank(spec.shape) and None not in tuple(spec.shape)


def _times(size, factor):
    return None if size is None else size * factor


def _flat_rule(spec):
    # tf.reshape(x, [-1]): the size is the product when every size is known.
    size = int(np.prod(_shape(spec))) if _known(spec) else None
    return TensorSpec((size,), spec.dtype)


def _tile_rule(spec):
    shape = _shape(spec)
    return TensorSpec((_times(shape[0], 2),) + shape[1:], spec.dtype)


def _mask(x):
    return fl.boolean_mask(x, x if x.dtype == np.bool_ else x > 0)


def _with(spec, dtype=None, shape=()):
    """A spec like `spec` with another dtype, or `shape` around its shape (None: unknown rank)."""
    dtype = spec.dtype if dtype is None else dtype
    return TensorSpec(None if unknown_rank(spec.shape) else shape, dtype)


OPS = [
    ("cast_float32", lambda s: _name(s) != "string",
     lambda x: fl.cast(x, fl.float32), lambda s: TensorSpec(_shape(s), fl.float32)),
    ("cast_int64", lambda s: _numeric(s),
     lambda x: fl.cast(x, fl.int64), lambda s: TensorSpec(_shape(s), fl.int64)),
    # Not fuzzed: an unknown size beside a known 0 (the shape function's answer is unsure).
    ("reshape_flat", lambda s: _known(s) or unknown_rank(s.shape) or 0 not in tuple(s.shape),
     lambda x: fl.reshape(x, [-1]), _flat_rule),
    ("expand_dims_0", lambda s: True, lambda x: fl.expand_dims(x, 0),
     lambda s: _with(s, shape=(1,) + (_shape(s) or ()))),
    ("expand_dims_last", lambda s: True, lambda x: fl.expand_dims(x, -1),
     lambda s: _with(s, shape=(_shape(s) or ()) + (1,))),
    ("squeeze_added_axis", lambda s: _rank(s) is not None,
     lambda x: fl.squeeze(fl.expand_dims(x, 0), [0]), lambda s: s),
    ("tile_twice", lambda s: (_rank(s) or 0) >= 1,
     lambda x: fl.tile(x, [2] + [1] * (len(x.shape) - 1)), _tile_rule),
    ("fill_3", lambda s: _rank(s) == 0, lambda x: fl.fill([3], x),
     lambda s: TensorSpec((3,), s.dtype)),
    ("fill_from_value", lambda s: _rank(s) == 0 and _name(s) in INTS,
     lambda x: fl.fill([x % 3 + 1], x), lambda s: TensorSpec((None,), s.dtype)),
    ("range_from_value", lambda s: _rank(s) == 0 and _name(s) in INTS,
     lambda x: fl.range(x % 4), lambda s: TensorSpec((None,), s.dtype)),
    ("where_indices", lambda s: (_rank(s) or 0) >= 1 and _name(s) != "string",
     lambda x: fl.where(x if x.dtype == np.bool_ else x > 0),
     lambda s: TensorSpec((None, _rank(s)), fl.int64)),
    ("boolean_mask", lambda s: (_rank(s) or 0) >= 1 and _name(s) != "string",
     _mask, lambda s: TensorSpec((None,), s.dtype)),
    ("strings_split", lambda s: _rank(s) == 0 and _name(s) == "string",
     lambda x: fl.strings.split(x), lambda s: TensorSpec((None,), fl.string)),
    ("one_hot_4", lambda s: _name(s) in INTS + ("uint8",) and _rank(s) is not None,
     lambda x: fl.one_hot(x, 4), lambda s: TensorSpec(_shape(s) + (4,), fl.float32)),
    ("stack_pair", lambda s: True, lambda x: fl.stack([x, x]),
     lambda s: _with(s, shape=(2,) + (_shape(s) or ()))),
    ("concat_pair", lambda s: (_rank(s) or 0) >= 1, lambda x: fl.concat([x, x], 0),
     _tile_rule),
    ("shape", lambda s: True, lambda x: fl.shape(x),
     lambda s: TensorSpec((_rank(s),), fl.int32)),
    ("size", lambda s: True, lambda x: fl.size(x), lambda s: TensorSpec((), fl.int32)),
    ("gather_3", lambda s: (_rank(s) or 0) >= 1 and (_shape(s)[0] or 0) >= 2,
     lambda x: fl.gather(x, [0, 1, 0]), lambda s: TensorSpec((3,) + _shape(s)[1:], s.dtype)),
    ("reduce_sum", lambda s: _numeric(s), lambda x: fl.reduce_sum(x),
     lambda s: TensorSpec((), s.dtype)),
    ("as_string", lambda s: _numeric(s) and "float16" != _name(s),
     lambda x: fl.strings.as_string(x), lambda s: TensorSpec(_shape(s), fl.string)),
    ("strings_length", lambda s: _name(s) == "string", lambda x: fl.strings.length(x),
     lambda s: TensorSpec(_shape(s), fl.int32)),
    ("add_itself", lambda s: _numeric(s), lambda x: x + x, lambda s: s),
    ("first_row", lambda s: (_rank(s) or 0) >= 1 and (_shape(s)[0] or 0) >= 1,
     lambda x: x[0], lambda s: TensorSpec(_shape(s)[1:], s.dtype)),
    ("drop_first_row", lambda s: (_rank(s) or 0) >= 1, lambda x: x[1:],
     lambda s: TensorSpec((None if _shape(s)[0] is None else max(0, _shape(s)[0] - 1),)
                          + _shape(s)[1:], s.dtype)),
    ("transpose", lambda s: _rank(s) is not None, lambda x: fl.transpose(x),
     lambda s: TensorSpec(_shape(s)[::-1], s.dtype)),
    ("reduce_max_0", lambda s: (_rank(s) or 0) >= 1 and _numeric(s),
     lambda x: fl.reduce_max(x, axis=0), lambda s: TensorSpec(_shape(s)[1:], s.dtype)),
    ("argmax_0", lambda s: (_rank(s) or 0) >= 1 and _numeric(s) and (_shape(s)[0] or 0) >= 1,
     lambda x: fl.argmax(x, axis=0), lambda s: TensorSpec(_shape(s)[1:], fl.int64)),
    ("where_positive", lambda s: _numeric(s), lambda x: fl.where(x > 0, x, fl.zeros_like(x)),
     lambda s: s),
    ("pair_with_size", lambda s: True, lambda x: (x, fl.size(x)),
     lambda s: (s, TensorSpec((), fl.int32))),
    ("dict_with_shape", lambda s: True, lambda x: {"value": x, "shape": fl.shape(x)},
     lambda s: {"value": s, "shape": TensorSpec((_rank(s),), fl.int32)}),
]


def predicate_for(spec):
    """A scalar bool function of a component of `spec` that keeps some elements, drops others."""
    if _rank(spec) == 0 and _name(spec) == "bool":
        return lambda x: x
    if _rank(spec) == 0 and _name(spec) == "string":
        return lambda x: fl.strings.length(x) % 2 == 0
    if _rank(spec) == 0 and _name(spec) in INTS:
        return lambda x: x % 2 == 0
    return lambda x: fl.size(x) % 2 == 0


def int64_key_for(spec):
    """An int64 scalar function of a component of `spec` (a key for group_by_window)."""
    if _rank(spec) == 0 and _name(spec) in INTS:
        return lambda x: fl.cast(x % 2, fl.int64)
    return lambda x: fl.cast(fl.size(x) % 2, fl.int64)
