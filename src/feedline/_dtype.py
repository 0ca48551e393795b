"""`DType`: the element type of a tensor, with TensorFlow's names and questions.

A `DType` wraps one NumPy dtype (its `.dtype`). NumPy accepts any object with a `.dtype`
attribute wherever it wants a dtype, so `np.zeros(3, fl.float32)` and `x.astype(fl.int64)`
work unchanged; what TensorFlow code asks of a dtype (`is_floating`, `max`, `name`, printing
as `tf.float32`) is answered here. Attributes TensorFlow's class lacks (`kind`, `itemsize`,
`type`, `char`) are NumPy's, so code written against NumPy dtypes keeps working.

One object exists per dtype (`dtypes.as_dtype` hands out the interned ones), and a dtype
equals whatever `as_dtype` turns into it: a NumPy dtype, a NumPy scalar type or a name.

>>> import numpy as np
>>> from feedline import dtypes
>>> dtypes.float32, str(dtypes.float32), dtypes.float32 == np.float32, dtypes.string.name
(tf.float32, "<dtype: 'float32'>", True, 'string')
"""

import numpy as np

# `dtypes.as_dtype`, set by `dtypes` when it has made the dtypes (it imports this module).
_as_dtype = None

# TensorFlow's DataType numbers (tensorflow/core/framework/types.proto), by dtype name.
DATATYPE_ENUMS = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6,
                  "string": 7, "complex64": 8, "int64": 9, "bool": 10, "uint16": 17,
                  "complex128": 18, "float16": 19, "uint32": 22, "uint64": 23}

# What `limits` reports: TensorFlow's table of intensity ranges (its `dtype_range`), which
# gives floats the range of an image's intensities, -1..1, rather than their finite range.
_INTENSITY_RANGES = {"bool": (False, True), "uint8": (0, 255), "uint16": (0, 65535),
                     "uint32": (0, 2**32 - 1), "uint64": (0, 2**64 - 1), "int8": (-128, 127),
                     "int16": (-32768, 32767), "int32": (-2**31, 2**31 - 1),
                     "int64": (-2**63, 2**63 - 1), "float32": (-1, 1), "float64": (-1, 1)}


class DType:
    """The element type of a tensor: `fl.float32`, `fl.int64`, `fl.string`, ...

    Prints as TensorFlow's (`tf.float32`; `str` gives `<dtype: 'float32'>`), hashes as its
    NumPy dtype, and compares equal to anything `fl.as_dtype` turns into it.

    >>> from feedline import dtypes
    >>> dtypes.int32.is_integer, dtypes.int32.max, dtypes.uint8.limits, dtypes.int64.size
    (True, 2147483647, (0, 255), 8)
    """

    __slots__ = ("dtype", "_name", "_canonical", "_hash")

    def __init__(self, numpy_dtype, name, canonical=None):
        self.dtype = np.dtype(numpy_dtype)  # NumPy reads this wherever it takes a dtype
        self._name = name
        # A NumPy dtype TensorFlow has no separate DType for (a '<U5' array's) gets its own
        # wrapper that stands for the TensorFlow one (string): equal to it, hashed like it.
        self._canonical = self if canonical is None else canonical
        self._hash = hash(self._canonical.dtype)

    @property
    def __numpy_dtype__(self):  # NumPy 2.4's protocol; also spares it a failing lookup
        return self.dtype

    # -- what TensorFlow's DType answers -------------------------------------------------------

    @property
    def name(self):
        """TensorFlow's name: `'float32'`, `'int64'`, `'bool'`, `'string'`."""
        return self._name

    @property
    def as_datatype_enum(self):
        """TensorFlow's DataType number (types.proto): 1 for float32, 7 for string.

        Raises:
            TypeError: for a NumPy dtype TensorFlow has no DType for (datetime64, say).
        """
        try:
            return DATATYPE_ENUMS[self._name]
        except KeyError:
            raise TypeError(f"{self!r} has no TensorFlow DataType number; cast to a TensorFlow "
                            "dtype such as fl.float32 first") from None

    @property
    def as_numpy_dtype(self):
        """The NumPy scalar type: `np.float32`, `np.object_` for strings."""
        return self._canonical.dtype.type

    @property
    def base_dtype(self):
        """The dtype itself (TensorFlow 1's reference dtypes do not exist here)."""
        return self._canonical

    @property
    def real_dtype(self):
        """The dtype of the real part: float32 for complex64, float64 for complex128, else
        the dtype itself."""
        kind = self._canonical.dtype
        if kind.kind == "c":
            return _as_dtype(np.finfo(kind).dtype)
        return self._canonical

    @property
    def is_bool(self):
        return self._canonical.dtype.kind == "b"

    @property
    def is_complex(self):
        return self._canonical.dtype.kind == "c"

    @property
    def is_floating(self):
        """True for real floating-point dtypes (float16/32/64), not complex ones."""
        return self._canonical.dtype.kind == "f"

    @property
    def is_integer(self):
        """True for signed and unsigned integers (not bool)."""
        return self._canonical.dtype.kind in "iu"

    @property
    def is_unsigned(self):
        """True for uint8/16/32/64 only."""
        return self._canonical.dtype.kind == "u"

    @property
    def is_quantized(self):
        """False: feedline has no quantized dtypes (qint8, ...)."""
        return False

    @property
    def is_numpy_compatible(self):
        """True: every feedline dtype has a NumPy dtype."""
        return True

    @property
    def size(self):
        """Bytes per element; 0 for string, whose elements have no fixed size (TensorFlow's
        DataTypeSize gives 0 for types it cannot size)."""
        return 0 if self._name == "string" else self._canonical.dtype.itemsize

    @property
    def min(self):
        """The smallest value of the dtype (a NumPy scalar for floats, an int for integers).

        Raises:
            TypeError: for bool, string and complex dtypes, which have no order or range.
        """
        return self._range("minimum")[0]

    @property
    def max(self):
        """The largest value of the dtype (see `min`)."""
        return self._range("maximum")[1]

    def _range(self, what):
        kind = self._canonical.dtype
        if kind.kind == "f":
            info = np.finfo(kind)
            return info.min, info.max
        if kind.kind in "iu":
            info = np.iinfo(kind)
            return info.min, info.max
        raise TypeError(f"Cannot find {what} value of {self}: it has no ordered range of "
                        "numbers; use an integer or floating dtype")

    @property
    def limits(self):
        """TensorFlow's intensity limits `(0, max)`: `(0, 255)` for uint8, `(0, 1)` for
        float32 (the minimum is always clipped to 0, as TensorFlow's property does).

        Raises:
            ValueError: for a dtype without a defined range (float16, complex, string).
        """
        try:
            return 0, _INTENSITY_RANGES[self._name][1]
        except KeyError:
            raise ValueError(f"{self} does not have defined limits") from None

    def is_compatible_with(self, other):
        """True when values of dtype `other` may be used where this dtype is wanted (the
        same dtype: TensorFlow converts no dtype into another implicitly)."""
        return _as_dtype(other)._canonical is self._canonical

    # -- comparing, hashing, printing ----------------------------------------------------------

    def __eq__(self, other):
        if type(other) is DType:
            return other._canonical is self._canonical
        if other is None:
            return False
        try:
            return _as_dtype(other)._canonical is self._canonical
        except TypeError:
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return f"tf.{self._name}"

    def __str__(self):
        return f"<dtype: {self._name!r}>"

    def __reduce__(self):  # pickles as the interned object (or the wrapper of its NumPy dtype)
        from . import dtypes

        if self._canonical is self:
            return dtypes.as_dtype, (self._name,)
        return dtypes.from_numpy, (self.dtype,)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __getattr__(self, attribute):
        # NumPy's own attributes (kind, itemsize, type, char, str, ...), for code written
        # against NumPy dtypes. Dunder lookups are not forwarded (copy and pickle probe them).
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        return getattr(object.__getattribute__(self, "dtype"), attribute)
