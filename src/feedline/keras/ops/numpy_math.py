"""`keras.ops` elementwise math: one input or two, each result dtype by Keras' rules.

Three rules cover the one-input functions: *float* functions (sin, exp, sqrt ...) compute
integers and bools in `floatx()` and keep a float's dtype; *same* functions (abs, negative ...)
keep the dtype; *tests* (isnan ...) give bool. Two-input functions promote both inputs on
Keras' lattice (`_dtypes.result_type`, Python scalars weak); divisions and the functions
that only make sense for floats add `float` to the promotion, comparisons give bool. Where
feedline has the op (`fl.math.sin`, `fl.add` ...) it runs that op, so a `GradientTape` sees it.

>>> import feedline as fl
>>> ops = fl.keras.ops
>>> ops.sqrt(fl.constant([4, 9])), ops.add(fl.constant([1, 2], fl.int8), 1)
(<tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 3.], dtype=float32)>,
 <tf.Tensor: shape=(2,), dtype=int8, numpy=array([2, 3], dtype=int8)>)
>>> ops.divide(fl.constant([1, 2]), 2).dtype.name, ops.greater(1.5, fl.constant([1, 2])).dtype.name
('float32', 'bool')
"""

import numpy as np

from ... import math as fl_math
from ... import ops as fl_ops
from . import _dtypes
from ._apply import array, binary, operands, plain, same, tensor, to_float, unary

_IMPORTED = set(globals())  # what the module's exports leave out


def _numpy_unary(function, rule):
    def compute(x):
        x = array(x)
        dtype = rule(x.dtype)
        # a test (isnan, signbit ...) looks at x as it is; the others compute in `dtype`
        operand = x if dtype == "bool" else x.astype(dtype)
        with np.errstate(all="ignore"):
            return np.asarray(function(operand)).astype(dtype)
    return plain(compute)


def _to_bool(dtype):
    return "bool"


def _square_dtype(dtype):
    return "int32" if _dtypes.standardize_dtype(dtype) == "bool" else dtype


def _signbit(x):
    """np.signbit, which refuses bools (Keras gives False for them)."""
    return np.zeros(x.shape, bool) if x.dtype == np.bool_ else np.signbit(x)


def _sinc(x):
    return np.sinc(x)


# name: (feedline op or None, NumPy function, rule, what it computes)
_UNARY = {
    "sin": (fl_math.sin, None, to_float, "sine"), "cos": (fl_math.cos, None, to_float, "cosine"),
    "tan": (fl_math.tan, None, to_float, "tangent"),
    "arcsin": (fl_math.asin, None, to_float, "inverse sine"),
    "arccos": (fl_math.acos, None, to_float, "inverse cosine"),
    "arctan": (fl_math.atan, None, to_float, "inverse tangent"),
    "sinh": (fl_math.sinh, None, to_float, "hyperbolic sine"),
    "cosh": (fl_math.cosh, None, to_float, "hyperbolic cosine"),
    "tanh": (fl_math.tanh, None, to_float, "hyperbolic tangent"),
    "arcsinh": (fl_math.asinh, None, to_float, "inverse hyperbolic sine"),
    "arccosh": (fl_math.acosh, None, to_float, "inverse hyperbolic cosine"),
    "arctanh": (fl_math.atanh, None, to_float, "inverse hyperbolic tangent"),
    "exp": (fl_math.exp, None, to_float, "e to the power x"),
    "expm1": (fl_math.expm1, None, to_float, "exp(x) - 1, exact for small x"),
    "log": (fl_math.log, None, to_float, "natural logarithm"),
    "log1p": (fl_math.log1p, None, to_float, "log(1 + x), exact for small x"),
    "sqrt": (fl_math.sqrt, None, to_float, "square root"),
    "ceil": (fl_math.ceil, None, to_float, "smallest whole number >= x, as a float"),
    "floor": (fl_math.floor, None, to_float, "largest whole number <= x, as a float"),
    "exp2": (None, np.exp2, to_float, "2 to the power x"),
    "log2": (None, np.log2, to_float, "base-2 logarithm"),
    "log10": (None, np.log10, to_float, "base-10 logarithm"),
    "cbrt": (None, np.cbrt, to_float, "cube root"),
    "deg2rad": (None, np.deg2rad, to_float, "degrees converted to radians"),
    "rad2deg": (None, np.rad2deg, to_float, "radians converted to degrees"),
    "sinc": (None, _sinc, to_float, "sin(pi x) / (pi x), 1 at 0"),
    "i0": (None, np.i0, to_float, "modified Bessel function of the first kind, order 0"),
    "reciprocal": (None, np.reciprocal, to_float, "1 / x"),
    "fabs": (None, np.fabs, to_float, "absolute value, as a float"),
    "angle": (None, np.angle, to_float, "argument of a complex number (0 or pi for reals)"),
    "abs": (fl_math.abs, None, same, "absolute value"),
    "negative": (fl_math.negative, None, same, "-x"),
    "sign": (None, np.sign, same, "-1, 0 or 1 by the sign of x"),
    "square": (None, np.square, _square_dtype, "x * x (bools count as int32)"),
    "trunc": (None, np.trunc, same, "x rounded toward zero"),
    "conj": (None, np.conj, same, "complex conjugate (reals unchanged)"),
    "real": (None, np.real, same, "real part"),
    "imag": (None, np.imag, same, "imaginary part (zeros for reals)"),
    "isfinite": (None, np.isfinite, _to_bool, "True where x is neither inf nor nan"),
    "isinf": (None, np.isinf, _to_bool, "True where x is +inf or -inf"),
    "isnan": (None, np.isnan, _to_bool, "True where x is nan"),
    "isneginf": (None, np.isneginf, _to_bool, "True where x is -inf"),
    "isposinf": (None, np.isposinf, _to_bool, "True where x is +inf"),
    "isreal": (None, np.isreal, _to_bool, "True where the imaginary part is 0"),
    "signbit": (None, _signbit, _to_bool, "True where the sign bit is set (-0.0 too)"),
    "logical_not": (None, np.logical_not, _to_bool, "not x (nonzero counts as True)"),
    "bitwise_not": (None, np.invert, same, "bits of x flipped (integers and bools)"),
}
_UNARY["absolute"], _UNARY["conjugate"] = _UNARY["abs"], _UNARY["conj"]
_UNARY["bitwise_invert"] = _UNARY["bitwise_not"]

for _name, (_fl_op, _np_fn, _rule, _what) in _UNARY.items():
    _doc = f"Elementwise {_what} (keras.ops.{_name})."
    if _fl_op is not None:
        # TensorFlow's backend returns bools unchanged from abs; tf.negative refuses them
        globals()[_name] = unary(_fl_op, _rule, _name, _doc,
                                 for_bool=None if _name == "negative" else np.copy)
    else:
        _op = _numpy_unary(_np_fn, _rule)
        _op.__name__ = _op.__qualname__ = _name
        _op.__doc__ = _doc
        globals()[_name] = _op


def _numpy_binary(function, result=None, extra=(), strong=False, bool_as=None):
    def compute(x1, x2):
        if strong:
            x1, x2 = array(x1), array(x2)
        dtype = _dtypes.result_type(_dtypes.dtype_of(x1), _dtypes.dtype_of(x2), *extra)
        if bool_as and dtype == "bool":
            dtype = bool_as  # Keras computes these arithmetic ops on bools as int32
        a, b = array(x1, dtype), array(x2, dtype)
        with np.errstate(all="ignore"):
            value = np.asarray(function(a, b))
        return value.astype(result or dtype)
    return plain(compute)


def _floor_divide(x1, x2):
    if np.dtype(x1.dtype).kind in "iu":  # division by zero gives 0 rather than a warning
        return np.floor_divide(x1, np.where(x2 == 0, 1, x2)) * (x2 != 0)
    return np.floor_divide(x1, x2)


def _heaviside(x1, x2):
    return np.heaviside(x1, x2)


def _divide_no_nan(x1, x2):
    safe = np.where(x2 == 0, 1, x2)
    return np.where(x2 == 0, 0, x1 / safe)


_FLOAT = (float,)
# name: (feedline op or None, NumPy function, result dtype or None, extra promotion, what)
_BINARY = {
    "add": (fl_ops.add, None, None, (), "x1 + x2"),
    "subtract": (fl_ops.subtract, None, None, (), "x1 - x2"),
    "multiply": (fl_ops.multiply, None, None, (), "x1 * x2"),
    "maximum": (fl_ops.maximum, None, None, (), "the larger of x1 and x2"),
    "minimum": (fl_ops.minimum, None, None, (), "the smaller of x1 and x2"),
    "divide": (fl_ops.truediv, None, None, _FLOAT, "x1 / x2, integers divided as floats"),
    "arctan2": (fl_math.atan2, None, None, _FLOAT, "angle of the point (x2, x1)"),
    "power": (None, np.power, None, (), "x1 to the power x2"),
    "mod": (None, np.mod, None, (), "remainder of x1 / x2 with x2's sign"),
    "fmod": (None, np.fmod, None, (), "remainder of x1 / x2 with x1's sign"),
    "floor_divide": (None, _floor_divide, None, (), "x1 / x2 rounded down"),
    "divide_no_nan": (None, _divide_no_nan, None, _FLOAT, "x1 / x2, and 0 where x2 is 0"),
    "logaddexp": (None, np.logaddexp, None, _FLOAT, "log(exp(x1) + exp(x2))"),
    "logaddexp2": (None, np.logaddexp2, None, _FLOAT, "log2(2**x1 + 2**x2)"),
    "hypot": (None, np.hypot, None, _FLOAT, "sqrt(x1**2 + x2**2)"),
    "ldexp": (None, lambda a, b: a * np.exp2(b), None, _FLOAT, "x1 * 2**x2"),
    "heaviside": (None, _heaviside, None, _FLOAT, "step function: 0 below 0, x2 at 0, 1 above"),
    "nextafter": (None, np.nextafter, None, _FLOAT, "next float after x1 toward x2"),
    "fmax": (None, np.fmax, None, (), "the larger of x1 and x2, ignoring nan"),
    "fmin": (None, np.fmin, None, (), "the smaller of x1 and x2, ignoring nan"),
    "gcd": (None, np.gcd, None, (), "greatest common divisor"),
    "lcm": (None, np.lcm, None, (), "least common multiple"),
    "equal": (None, np.equal, "bool", (), "x1 == x2"),
    "not_equal": (None, np.not_equal, "bool", (), "x1 != x2"),
    "less": (None, np.less, "bool", (), "x1 < x2"),
    "less_equal": (None, np.less_equal, "bool", (), "x1 <= x2"),
    "greater": (None, np.greater, "bool", (), "x1 > x2"),
    "greater_equal": (None, np.greater_equal, "bool", (), "x1 >= x2"),
    "logical_and": (None, np.logical_and, "bool", (), "x1 and x2 (nonzero counts as True)"),
    "logical_or": (None, np.logical_or, "bool", (), "x1 or x2"),
    "logical_xor": (None, np.logical_xor, "bool", (), "x1 xor x2"),
    "bitwise_and": (None, np.bitwise_and, None, (), "bits set in both"),
    "bitwise_or": (None, np.bitwise_or, None, (), "bits set in either"),
    "bitwise_xor": (None, np.bitwise_xor, None, (), "bits set in exactly one"),
    "bitwise_left_shift": (None, np.left_shift, None, (), "x1 shifted left by x2 bits"),
    "bitwise_right_shift": (None, np.right_shift, None, (), "x1 shifted right by x2 bits"),
}
for _alias, _name in (("true_divide", "divide"), ("left_shift", "bitwise_left_shift"),
                      ("right_shift", "bitwise_right_shift")):
    _BINARY[_alias] = _BINARY[_name]

for _name, (_fl_op, _np_fn, _result, _extra, _what) in _BINARY.items():
    _doc = f"Elementwise {_what}, broadcast, dtypes promoted as Keras does (keras.ops.{_name})."
    if _name == "arctan2":  # Keras converts its Python scalars first: they are not weak here
        globals()[_name] = _numpy_binary(np.arctan2, None, _extra, strong=True)
    elif _fl_op is not None:
        _bool = {"add": np.logical_or, "multiply": np.logical_and, "maximum": np.logical_or,
                 "minimum": np.logical_and}.get(_name)
        globals()[_name] = binary(_fl_op, _name, _doc, _extra, for_bool=_bool)
    else:
        _op = _numpy_binary(_np_fn, _result, _extra, strong=_name in ("logaddexp",),
                            bool_as="int32" if _name in ("power", "mod", "floor_divide") else None)
        _op.__name__ = _op.__qualname__ = _name
        _op.__doc__ = _doc
        globals()[_name] = _op
globals()["arctan2"].__name__ = globals()["arctan2"].__qualname__ = "arctan2"
globals()["arctan2"].__doc__ = "Elementwise angle of the point (x2, x1) (keras.ops.arctan2)."


@plain
def round(x, decimals=0):
    """`x` rounded to `decimals` places, halves to even; integers keep their dtype.

    >>> import feedline as fl
    >>> fl.keras.ops.round(fl.constant([0.5, 1.5, 2.26]), decimals=0).numpy().tolist()
    [0.0, 2.0, 2.0]
    """
    x = array(x)
    if x.dtype == np.bool_:  # tf.round takes no bools (Keras' TensorFlow backend calls it)
        return fl_math.round(x)
    return np.round(x, decimals).astype(x.dtype)


@plain
def clip(x, x_min, x_max):
    """`x` with values below `x_min` raised to it and above `x_max` lowered to it; bools clip
    as int32 (Keras' rule).

    >>> import feedline as fl
    >>> fl.keras.ops.clip(fl.constant([-2, 0, 5]), 0, 3).numpy().tolist()
    [0, 0, 3]
    """
    x = array(x)
    dtype = "int32" if x.dtype == np.bool_ else x.dtype
    return np.clip(x.astype(dtype), x_min, x_max).astype(dtype)


@plain
def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """`x` with nan replaced by `nan` and infinities by `posinf`/`neginf` (the dtype's largest
    and smallest values when None).

    >>> import feedline as fl
    >>> fl.keras.ops.nan_to_num(fl.constant([float("nan"), 1.0]), nan=-1.0).numpy().tolist()
    [-1.0, 1.0]
    """
    x = array(x)
    return np.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf).astype(x.dtype)


def isclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    """True where |x1 - x2| <= atol + rtol * |x2|, after Keras' promotion.

    >>> import feedline as fl
    >>> fl.keras.ops.isclose([1.0, 2.0], [1.0, 2.1]).numpy().tolist()
    [True, False]
    """
    _, (a, b) = operands(x1, x2)
    return plain(np.isclose)(array(a), array(b), rtol=rtol, atol=atol, equal_nan=equal_nan)


def allclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    """True when `isclose` holds everywhere (a bool scalar tensor).

    >>> import feedline as fl
    >>> bool(fl.keras.ops.allclose([1.0, 2.0], [1.0, 2.0 + 1e-7]))
    True
    """
    return plain(np.all)(array(isclose(x1, x2, rtol, atol, equal_nan)))


def copy(x):
    """A copy of `x`, same dtype (keras.ops.copy)."""
    return plain(np.array)(array(x))

__all__ = [name for name in globals() if name not in _IMPORTED and not name.startswith("_")]
