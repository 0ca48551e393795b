"""The weights of `resize`'s kernel methods: bicubic, Lanczos, Gaussian and Mitchell-Netravali.

Every method here resamples each axis with an (output x input) weight matrix, the same way:
output pixel `i`'s centre `(i + 0.5) * in_size / out_size` is the sampling point, each input
pixel `j` within the kernel's radius of it gets the kernel's value at the distance between
`j + 0.5` and that point, pixels outside the image get nothing, and the weights of a row are
scaled to sum to 1. With `antialias=True` and a shrinking axis, the kernel is stretched by
`in_size / out_size`, so that every input pixel reaches some output pixel. This is how
TensorFlow's scale-and-translate kernel builds its spans.

`bicubic` without antialiasing is TensorFlow's older bicubic kernel instead, which gives the
same weights except that it reads the cubic from a table of 1,025 points per unit of distance
(the fractional position is rounded to the nearest 1/1024 first), so results can differ from
the exact cubic by about 1e-3 of the pixel range.

>>> np.round(span_weights(2, 4, "lanczos3"), 3)
array([[ 1.175, -0.175],
       [ 0.767,  0.233],
       [ 0.233,  0.767],
       [-0.175,  1.175]], dtype=float32)
"""

import numpy as np

_TABLE_SIZE = 1024  # TensorFlow's bicubic table: points per unit of distance


def _keys_cubic(x, a=-0.5):
    """Keys' cubic convolution kernel with parameter `a` (radius 2)."""
    x = np.abs(x)
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    far = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return np.where(x < 1, near, np.where(x < 2, far, 0.0))


def _mitchell_cubic(x):
    """Mitchell and Netravali's cubic with B = C = 1/3 (radius 2)."""
    x = np.abs(x)
    near = ((7 / 6 * x - 2) * x) * x + 8 / 9
    far = ((-7 / 18 * x + 2) * x - 10 / 3) * x + 16 / 9
    return np.where(x < 1, near, np.where(x < 2, far, 0.0))


def _lanczos(radius):
    def kernel(x):
        x = np.abs(x)
        with np.errstate(divide="ignore", invalid="ignore"):
            value = radius * np.sin(np.pi * x) * np.sin(np.pi * x / radius) / (np.pi * x) ** 2
        return np.where(x > radius, 0.0, np.where(x <= 1e-3, 1.0, value))
    return kernel


def _gaussian(x, radius=1.5):
    """A Gaussian with standard deviation radius / 3, cut at `radius` (1.5 pixels)."""
    x = np.abs(x)
    sigma = radius / 3
    return np.where(x < radius, np.exp(-x * x / (2 * sigma * sigma)), 0.0)


def _triangle(x):
    """The tent: bilinear's kernel, used as such when antialiasing (radius 1)."""
    return np.clip(1.0 - np.abs(x), 0.0, None)


KERNELS = {  # method name -> (kernel, radius)
    "bicubic": (_keys_cubic, 2.0),
    "mitchellcubic": (_mitchell_cubic, 2.0),
    "lanczos3": (_lanczos(3.0), 3.0),
    "lanczos5": (_lanczos(5.0), 5.0),
    "gaussian": (_gaussian, 1.5),
}
_SPAN_KERNELS = dict(KERNELS, bilinear=(_triangle, 1.0))


def span_weights(in_size, out_size, method, antialias=False):
    """The (out_size x in_size) float32 weights of `method` along one axis (see the module
    docstring); "bilinear" gives the triangle kernel antialiased bilinear resizing uses."""
    kernel, radius = _SPAN_KERNELS[method]
    inverse = np.float32(in_size) / np.float32(out_size)
    stretch = max(float(inverse), 1.0) if antialias else 1.0
    samples = (np.arange(out_size, dtype=np.float64) + 0.5) * float(inverse)
    first = np.clip(np.ceil(samples - radius * stretch - 0.5), 0, in_size - 1)
    last = np.clip(np.floor(samples + radius * stretch - 0.5), 0, in_size - 1)
    pixels = np.arange(in_size, dtype=np.float64)[None, :]
    inside = (pixels >= first[:, None]) & (pixels <= last[:, None])
    weights = np.where(inside, kernel((pixels + 0.5 - samples[:, None]) / stretch), 0.0)
    return _normalised(weights)


def bicubic_weights(in_size, out_size):
    """TensorFlow's bicubic kernel with half-pixel centres (Keys' cubic, a = -0.5, read from
    its 1/1024 table), as an (out_size x in_size) float32 matrix."""
    scale = np.float32(in_size) / np.float32(out_size)
    where = (np.arange(out_size, dtype=np.float32) + np.float32(0.5)) * scale - np.float32(0.5)
    base = np.floor(where)
    steps = np.rint((where - base) * _TABLE_SIZE) / _TABLE_SIZE  # the table's nearest point
    weights = np.zeros((out_size, in_size))
    rows = np.arange(out_size)
    for tap, distance in ((-1, 1 + steps), (0, steps), (1, 1 - steps), (2, 2 - steps)):
        index = base.astype(np.int64) + tap
        valid = (index >= 0) & (index < in_size)  # taps outside the image weigh nothing
        np.add.at(weights, (rows[valid], index[valid]), _keys_cubic(distance[valid]))
    return _normalised(weights)


def _normalised(weights):
    """Rows scaled to sum to 1, except rows whose sum is too close to 0 to divide by."""
    totals = weights.sum(axis=1, keepdims=True)
    totals[np.abs(totals) < 1000 * np.finfo(np.float32).tiny] = 1.0
    return (weights / totals).astype(np.float32)
