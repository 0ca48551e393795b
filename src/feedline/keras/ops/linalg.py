"""`keras.ops.linalg`: matrix decompositions and solvers on float matrices (NumPy's LAPACK).

Integer inputs compute in floatx(), floats keep their dtype (Keras converts the same way).

>>> import feedline as fl
>>> fl.keras.ops.linalg.inv(fl.constant([[2.0, 0.0], [0.0, 4.0]])).numpy().tolist()
[[0.5, 0.0], [0.0, 0.25]]
"""

import collections

import numpy as np

from . import _dtypes
from ._apply import array, plain

_IMPORTED = set(globals())  # what the module's exports leave out


def _float(x):
    x = array(x)
    return x.astype(_dtypes.floating(x.dtype))


def _cast(value, like):
    return np.asarray(value).astype(like.dtype)


def _matrix_op(function, doc):
    def op(x, *args, **kwargs):
        x = _float(x)
        result = function(x, *args, **kwargs)
        if isinstance(result, tuple):
            return tuple(_cast(part, x) for part in result)
        return _cast(result, x)
    op.__doc__ = doc
    return plain(op)


cholesky = _matrix_op(lambda x, upper=False: np.swapaxes(np.linalg.cholesky(x), -1, -2)
                      if upper else np.linalg.cholesky(x),
                      "The lower (or `upper`) triangular factor L with L L^T = x.")
det = _matrix_op(np.linalg.det, "The determinant of each matrix.")
inv = _matrix_op(np.linalg.inv, "The inverse of each matrix.")
pinv = _matrix_op(lambda x, rtol=1e-15: np.linalg.pinv(x, rtol),
                  "The Moore-Penrose pseudo-inverse of each matrix.")
eigh = _matrix_op(lambda x: tuple(np.linalg.eigh(x)),
                  "Eigenvalues (ascending) and eigenvectors of symmetric matrices.")
eig = _matrix_op(lambda x: tuple(np.linalg.eig(x)), "Eigenvalues and eigenvectors.")
logdet = _matrix_op(lambda x: np.linalg.slogdet(x)[1],
                    "log(det(x)) of positive definite matrices.")
slogdet = _matrix_op(lambda x: tuple(np.linalg.slogdet(x)),
                     "The sign and log of |det(x)| of each matrix.")
cholesky_inverse = _matrix_op(
    lambda factor, upper=False: np.linalg.inv(
        (np.swapaxes(factor, -1, -2) @ factor) if upper else factor @ np.swapaxes(factor, -1, -2)),
    "The inverse of the matrix whose Cholesky factor is given.")


@plain
def matrix_rank(x, rtol=None):
    """The number of singular values above the tolerance, int32."""
    return np.asarray(np.linalg.matrix_rank(_float(x), rtol=rtol)).astype("int32")


@plain
def norm(x, ord=None, axis=None, keepdims=False):
    """The vector or matrix norm of `x` (NumPy's `ord`s); integers give floatx()."""
    x = _float(x)
    return _cast(np.linalg.norm(x, ord, axis if not isinstance(axis, list) else tuple(axis),
                                keepdims), x)


@plain
def solve(a, b):
    """x with a x = b."""
    a, b = _float(a), _float(b)
    return _cast(np.linalg.solve(a, b), a)


@plain
def solve_triangular(a, b, lower=False):
    """x with a x = b for triangular `a` (its lower or upper triangle)."""
    a, b = _float(a), _float(b)
    a = np.tril(a) if lower else np.triu(a)
    return _cast(np.linalg.solve(a, b), a)


@plain
def lstsq(a, b, rcond=None):
    """The least-squares solution x of a x = b."""
    a, b = _float(a), _float(b)
    return _cast(np.linalg.lstsq(a, b, rcond=rcond)[0], a)


QRResult = collections.namedtuple("QRResult", ["Q", "R"])
SVDResult = collections.namedtuple("SVDResult", ["U", "S", "Vh"])


@plain
def qr(x, mode="reduced"):
    """Q and R with x = Q R ("reduced" or "complete")."""
    x = _float(x)
    q, r = np.linalg.qr(x, mode=mode)
    return QRResult(_cast(q, x), _cast(r, x))


@plain
def svd(x, full_matrices=True, compute_uv=True):
    """U, S, Vh with x = U diag(S) Vh (only S when not `compute_uv`)."""
    x = _float(x)
    if not compute_uv:
        return _cast(np.linalg.svd(x, compute_uv=False), x)
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    return SVDResult(_cast(u, x), _cast(s, x), _cast(vh, x))


@plain
def lu_factor(x):
    """(lu, permutation) of a square `x`, as Keras' TensorFlow backend returns them.

    `lu` packs L (unit diagonal, below) and U (on and above); the second result is
    `tf.math.invert_permutation` of the row order `tf.linalg.lu` gives (JAX's backend returns
    LAPACK pivots instead). For a 2 x 2 matrix with one row swap both are [1, 0].

    Raises:
        ValueError: for a matrix that is not 2-D and square (TensorFlow's backend needs it).
    """
    x = _float(x)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"lu_factor: LU decomposition is only supported for square "
                         f"matrices on TensorFlow's backend, got shape {x.shape}")
    from ... import linalg as fl_linalg
    lu, order = fl_linalg.lu(x)
    order = np.asarray(order)
    inverse = np.empty_like(order)
    np.put_along_axis(inverse, order, np.arange(order.shape[-1], dtype=order.dtype)
                      * np.ones_like(order), axis=-1)
    return np.asarray(lu).astype(x.dtype), inverse


__all__ = [name for name in globals() if name not in _IMPORTED and not name.startswith("_")]
