"""Keras 3's `Adamax` and `Lion`, on the base `Optimizer` of `optimizers.py`.

- `Adamax` is Adam with the infinity norm: `m` is the running mean of the gradient, `u` the
  running maximum of `|g|` (each step `u = max(beta_2 * u, |g|)`), and a step is
  `lr * m / ((1 - beta_1 ** t) * (u + epsilon))`.
- `Lion` steps by the sign of a blend of momentum and gradient,
  `lr * sign(beta_1 * m + (1 - beta_1) * g)`, then moves the momentum
  `m = beta_2 * m + (1 - beta_2) * g`: every weight moves by exactly `lr` (or 0).

>>> import feedline as fl
>>> w = fl.Variable([1.0, 1.0])
>>> _ = Lion(learning_rate=0.1).apply_gradients([(fl.constant([3.0, -0.5]), w)])
>>> [round(value, 4) for value in w.numpy().tolist()]  # each weight moves by lr
[0.9, 1.1]
"""

import numpy as np

from .optimizers import Optimizer


class Adamax(Optimizer):
    """Adamax (Keras 3's defaults: learning_rate 0.001, beta_1 0.9, beta_2 0.999,
    epsilon 1e-7)."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="adamax", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

    def _update(self, variable, value, grad, rate):
        step = int(self.iterations) + 1
        m = self._slot(variable, "m")
        m = m + (grad - m) * (1 - self.beta_1)
        u = np.maximum(self.beta_2 * self._slot(variable, "u"), np.abs(grad))
        self._set_slot(variable, "m", m)
        self._set_slot(variable, "u", u)
        return value - rate * m / ((1 - self.beta_1 ** step) * (u + self.epsilon))


class Lion(Optimizer):
    """Lion (Keras 3's defaults: learning_rate 0.001, beta_1 0.9, beta_2 0.99).

    Raises:
        ValueError: for a `beta_1` outside (0, 1], as Keras refuses it.
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.99, name="lion", **kwargs):
        if not 0 < beta_1 <= 1:
            raise ValueError(f"Lion: beta_1 must be in (0, 1], got beta_1={beta_1}")
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.beta_1, self.beta_2 = beta_1, beta_2

    def _update(self, variable, value, grad, rate):
        m = self._slot(variable, "momentum")
        step = rate * np.sign(m * self.beta_1 + grad * (1 - self.beta_1))
        self._set_slot(variable, "momentum", m * self.beta_2 + grad * (1 - self.beta_2))
        return value - step
