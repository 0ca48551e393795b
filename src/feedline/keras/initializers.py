"""Keras' weight initializers (`glorot_uniform`, `he_normal`, `zeros`, ...), drawn with
`fl.random`, so `fl.random.set_seed(42)` makes a model start from the same weights each run.

The rules are Keras': Glorot draws with a spread set by `fan_in + fan_out`, He by `fan_in`
alone; the normal variants draw from a normal truncated at two standard deviations and
widen it by 1/0.8796 so that the truncated values keep the wanted variance. The numbers
differ from Keras' (another generator).

>>> import feedline as fl
>>> fl.random.set_seed(1)
>>> first = get("he_normal")((3, 2))
>>> fl.random.set_seed(1)
>>> bool((first == get("he_normal")((3, 2))).all()), first.dtype
(True, dtype('float32'))
>>> fl.random.set_seed(None)
"""

import math

import numpy as np

# The standard deviation of a unit normal truncated at +-2 (Keras widens by its inverse).
_TRUNCATED_STD = 0.87962566103423978


def _fans(shape):
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    receptive = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
    return shape[-2] * receptive, shape[-1] * receptive


class Initializer:
    """Base class: `initializer(shape, dtype)` returns a NumPy array of that shape."""

    def __call__(self, shape, dtype=None):  # pragma: no cover - every initializer overrides it
        raise NotImplementedError

    def get_config(self):
        return {}


class Zeros(Initializer):
    """All zeros.

    >>> Zeros()((2,)).tolist()
    [0.0, 0.0]
    """

    def __call__(self, shape, dtype=None):
        return np.zeros(shape, dtype or np.float32)


class Ones(Initializer):
    """All ones."""

    def __call__(self, shape, dtype=None):
        return np.ones(shape, dtype or np.float32)


class Constant(Initializer):
    """Every value `value`.

    >>> Constant(0.5)((2,)).tolist()
    [0.5, 0.5]
    """

    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype=None):
        return np.full(shape, self.value, dtype or np.float32)


class RandomUniform(Initializer):
    """Uniform in `[minval, maxval)` (Keras' defaults: -0.05, 0.05)."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=None):
        from .. import random

        return random.uniform(shape, self.minval, self.maxval, dtype or np.float32,
                              seed=self.seed).numpy()


class RandomNormal(Initializer):
    """Normal with `mean` and `stddev` (Keras' defaults: 0, 0.05)."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=None):
        from .. import random

        return random.normal(shape, self.mean, self.stddev, dtype or np.float32,
                             seed=self.seed).numpy()


class VarianceScaling(Initializer):
    """Values whose variance is `scale / n`, n the fan chosen by `mode`
    ("fan_in", "fan_out", "fan_avg"); `distribution` "truncated_normal" ("normal" is Keras 3's
    alias of it), "untruncated_normal" or "uniform". `input_axes` and `output_axes` (Keras
    3) name the axes whose sizes multiply into the fans; by default the fans come from the
    shape as for a dense or convolution kernel."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None,
                 input_axes=None, output_axes=None):
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"VarianceScaling: mode must be 'fan_in', 'fan_out' or 'fan_avg', "
                             f"got {mode!r}")
        if distribution not in ("truncated_normal", "untruncated_normal", "normal", "uniform"):
            raise ValueError(f"VarianceScaling: distribution must be 'truncated_normal', "
                             f"'untruncated_normal' or 'uniform', got {distribution!r}")
        if distribution == "normal":
            distribution = "truncated_normal"
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed
        self.input_axes, self.output_axes = input_axes, output_axes

    def _fans(self, shape):
        if self.input_axes is None or self.output_axes is None:
            return _fans(shape)
        return (int(np.prod([shape[a] for a in self.input_axes])),
                int(np.prod([shape[a] for a in self.output_axes])))

    def __call__(self, shape, dtype=None):
        from .. import random

        dtype = dtype or np.float32
        fan_in, fan_out = self._fans(tuple(shape))
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[self.mode]
        variance = self.scale / max(1.0, fan)
        if self.distribution == "uniform":
            limit = math.sqrt(3.0 * variance)
            return random.uniform(shape, -limit, limit, dtype, seed=self.seed).numpy()
        if self.distribution == "truncated_normal":
            stddev = math.sqrt(variance) / _TRUNCATED_STD
            return random.truncated_normal(shape, 0.0, stddev, dtype, seed=self.seed).numpy()
        return random.normal(shape, 0.0, math.sqrt(variance), dtype, seed=self.seed).numpy()

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "seed": self.seed, "input_axes": self.input_axes,
                "output_axes": self.output_axes}


class Orthogonal(Initializer):
    """A matrix with orthonormal rows or columns (times `gain`), Keras' default for recurrent
    kernels: the Q of a QR factorisation of a normal draw, its signs fixed by R's diagonal;
    a shape of more than 2 axes is flattened to (product of all but the last, last)."""

    def __init__(self, gain=1.0, seed=None):
        self.gain, self.seed = float(gain), seed

    def __call__(self, shape, dtype=None):
        from .. import random

        dtype = dtype or np.float32
        shape = tuple(shape)
        if len(shape) < 2:
            raise ValueError(f"Orthogonal: the shape must have at least 2 axes, got {shape}")
        rows, columns = math.prod(shape[:-1]), shape[-1]
        flat = random.normal((max(rows, columns), min(rows, columns)), seed=self.seed,
                             dtype="float64").numpy()
        q, r = np.linalg.qr(flat)
        q *= np.sign(np.diag(r))
        if rows < columns:
            q = q.T
        return (self.gain * q).reshape(shape).astype(dtype)

    def get_config(self):
        return {"gain": self.gain, "seed": self.seed}


def _variance_scaling(scale, mode, distribution):
    class Named(VarianceScaling):
        def __init__(self, seed=None, input_axes=None, output_axes=None):
            super().__init__(scale, mode, distribution, seed, input_axes, output_axes)

        def get_config(self):
            return {"seed": self.seed, "input_axes": self.input_axes,
                    "output_axes": self.output_axes}
    return Named


GlorotUniform = type("GlorotUniform", (_variance_scaling(1.0, "fan_avg", "uniform"),),
                     {"__doc__": "Uniform in +-sqrt(6 / (fan_in + fan_out)): Keras' default "
                                 "for Dense kernels."})
GlorotNormal = type("GlorotNormal", (_variance_scaling(1.0, "fan_avg", "truncated_normal"),),
                    {"__doc__": "Truncated normal with variance 2 / (fan_in + fan_out)."})
HeNormal = type("HeNormal", (_variance_scaling(2.0, "fan_in", "truncated_normal"),),
                {"__doc__": "Truncated normal with variance 2 / fan_in (for ReLU layers)."})
HeUniform = type("HeUniform", (_variance_scaling(2.0, "fan_in", "uniform"),),
                 {"__doc__": "Uniform in +-sqrt(6 / fan_in)."})
LecunNormal = type("LecunNormal", (_variance_scaling(1.0, "fan_in", "truncated_normal"),),
                   {"__doc__": "Truncated normal with variance 1 / fan_in (for SELU layers)."})

_BY_NAME = {"zeros": Zeros, "zero": Zeros, "ones": Ones, "one": Ones, "constant": Constant,
            "random_uniform": RandomUniform, "uniform": RandomUniform,
            "random_normal": RandomNormal, "normal": RandomNormal,
            "glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal,
            "he_normal": HeNormal, "he_uniform": HeUniform, "lecun_normal": LecunNormal,
            "variance_scaling": VarianceScaling, "orthogonal": Orthogonal}
# Keras also accepts the class names ("GlorotUniform", "HeNormal", ...).
_BY_NAME.update({cls.__name__.lower(): cls for cls in set(_BY_NAME.values())})

# Keras 3 exports each class under its snake-case name too (`kernel_initializer=
# tf.initializers.zeros`, `keras.initializers.he_normal(seed=1)`): the same classes.
zeros, ones, constant = Zeros, Ones, Constant
random_uniform, random_normal = RandomUniform, RandomNormal
glorot_uniform, glorot_normal = GlorotUniform, GlorotNormal
he_normal, he_uniform, lecun_normal = HeNormal, HeUniform, LecunNormal
variance_scaling, orthogonal = VarianceScaling, Orthogonal


def get(identifier):
    """An initializer from a name ("he_normal"), an initializer, or a callable.

    Raises:
        ValueError: for an unknown name, listing the known ones.
    """
    if identifier is None:
        return Zeros()
    if isinstance(identifier, str):
        cls = _BY_NAME.get(identifier.lower())
        if cls is None:
            raise ValueError(f"Unknown initializer {identifier!r}; use one of "
                             f"{sorted(k for k in _BY_NAME if '_' in k or k.islower())}")
        return cls()
    if isinstance(identifier, type) and issubclass(identifier, Initializer):
        return identifier()
    if isinstance(identifier, dict):  # a Keras config: {"class_name": ..., "config": {...}}
        cls = _BY_NAME[identifier["class_name"].lower()]
        return cls(**identifier.get("config", {}))
    if callable(identifier):
        return identifier
    raise TypeError(f"initializer: expected a name such as 'glorot_uniform' or an "
                    f"initializer, got {identifier!r}")
