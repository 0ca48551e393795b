"""Keras 3's optimizers with their defaults and update rules, applied to `fl.Variable`s in
NumPy: the base `Optimizer`, `SGD` and `Adam` here, the others in `optimizers_more`.

`apply_gradients(zip(grads, variables))` takes one step; a gradient of None (a variable the
loss does not depend on) is skipped. `iterations` counts the steps taken. The slots (momenta,
velocities) are kept per variable, created on the variable's first step.

>>> import feedline as fl
>>> w = fl.Variable([1.0, 2.0])
>>> _ = SGD(learning_rate=0.1).apply_gradients([(fl.constant([1.0, -1.0]), w)])
>>> w.numpy()
array([0.9, 2.1], dtype=float32)
"""

import math

import numpy as np

from ..variable import Variable
from .optimizer_ema import check_ema, overwrite, update_averages
from . import constraints, schedules


class Optimizer:
    """Base class: the learning rate, the step counter, the slots and `apply_gradients`.

    Args:
        learning_rate: the step size: a float, a schedule from `fl.keras.optimizers.schedules`
            (called with the step count) or a callable taking no argument.
        weight_decay: shrink each variable by `weight_decay * learning_rate` of itself
            before each step (decoupled weight decay, as Keras 3 applies it).
        clipnorm: clip each gradient to this L2 norm first.
        clipvalue: clip each gradient's values to [-clipvalue, clipvalue] first.
        global_clipnorm: clip all gradients together to this L2 norm first.
        use_ema, ema_momentum, ema_overwrite_frequency: keep a moving average of the
            weights, as Keras 3 (see `optimizer_ema`).
        name: the optimizer's name; the other Keras arguments (`loss_scale_factor`, ...) are
            kept but change nothing. Variables with a `constraint` are set to
            `constraint(variable)` after each step.
    """

    def __init__(self, learning_rate=0.001, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        if kwargs.get("lr") is not None:
            raise ValueError("Optimizer: `lr` is no longer taken (Keras 3); write "
                             "learning_rate=")
        self._learning_rate = None
        self.learning_rate = learning_rate
        self.weight_decay, self.clipnorm, self.clipvalue = weight_decay, clipnorm, clipvalue
        self.global_clipnorm = global_clipnorm
        check_ema(use_ema, ema_momentum, ema_overwrite_frequency)
        self.use_ema, self.ema_momentum = bool(use_ema), ema_momentum
        self.ema_overwrite_frequency, self._ema_averages = ema_overwrite_frequency, {}
        self.name = name or type(self).__name__.lower()
        self.iterations = Variable(np.int64(0), trainable=False, name="iteration")
        self._slots = {}

    @property
    def learning_rate(self):
        """The current rate, as Keras 3 gives it: a float rate is a `fl.Variable` (so
        `optimizer.learning_rate.assign(1e-4)` and `.numpy()` work), a schedule's or a
        callable's rate is its value now."""
        rate = self._learning_rate
        if isinstance(rate, schedules.LearningRateSchedule):
            return np.float32(rate(int(self.iterations)))
        if callable(rate) and not isinstance(rate, Variable):
            return rate()
        return rate

    @learning_rate.setter
    def learning_rate(self, value):
        if isinstance(value, schedules.LearningRateSchedule) or (
                callable(value) and not isinstance(value, Variable)):
            self._learning_rate = value
            return
        if isinstance(self._learning_rate, schedules.LearningRateSchedule):
            raise TypeError("this optimizer was made with a LearningRateSchedule as its "
                            "learning_rate, so its rate cannot be set; make it with a float "
                            "learning_rate if you need to set it")
        value = float(np.asarray(value))
        if isinstance(self._learning_rate, Variable):
            self._learning_rate.assign(np.float32(value))
        else:
            self._learning_rate = Variable(np.float32(value), trainable=False,
                                           name="learning_rate")

    def _rate(self):
        return float(np.asarray(self.learning_rate))

    def _slot(self, variable, name):
        key = (id(variable), name)
        slot = self._slots.get(key)
        if slot is None:
            slot = self._slots[key] = np.zeros(tuple(variable.shape), variable.dtype)
        return slot

    def _set_slot(self, variable, name, value):
        self._slots[(id(variable), name)] = value

    def _clip(self, grads):
        if self.clipvalue is not None:
            grads = [np.clip(g, -self.clipvalue, self.clipvalue) for g in grads]
        if self.clipnorm is not None:
            grads = [g * min(1.0, self.clipnorm / (float(np.sqrt((g * g).sum())) or 1.0))
                     for g in grads]
        if self.global_clipnorm is not None:
            norm = math.sqrt(sum(float((g * g).sum()) for g in grads))
            grads = [g * min(1.0, self.global_clipnorm / (norm or 1.0)) for g in grads]
        return grads

    def apply_gradients(self, grads_and_vars):
        """One step on every `(gradient, variable)` pair; returns the step count.

        Raises:
            ValueError: when a gradient's shape is not its variable's.
        """
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            return self.iterations
        grads = [np.asarray(getattr(g, "numpy", lambda: g)(), dtype=v.dtype) for g, v in pairs]
        for grad, (_, variable) in zip(grads, pairs):
            if grad.shape != tuple(variable.shape):
                raise ValueError(f"{self.name}: the gradient of {variable.name} has shape "
                                 f"{grad.shape}, the variable {tuple(variable.shape)}")
        grads = self._clip(grads)
        self._before_step()
        rate = self._rate()
        for grad, (_, variable) in zip(grads, pairs):
            value = variable._array
            if self.weight_decay:
                value = value - value * (self.weight_decay * rate)
            with np.errstate(all="ignore"):
                new = self._update(variable, value, grad, rate)
            variable.assign(np.asarray(new, dtype=variable.dtype))
        constraints.apply_constraints(variable for _, variable in pairs)
        if self.use_ema:
            update_averages(self, [variable for _, variable in pairs],
                            int(self.iterations.numpy()))
        self.iterations.assign_add(np.int64(1))
        return self.iterations

    def finalize_variable_values(self, var_list):
        """With `use_ema`, set the variables to their moving averages (`fit` calls this
        at its end, as Keras does); otherwise nothing."""
        if self.use_ema:
            overwrite(self, list(var_list))

    def apply(self, grads, trainable_variables=None):
        """`apply_gradients(zip(grads, trainable_variables))`, Keras 3's other spelling."""
        return self.apply_gradients(zip(grads, trainable_variables))

    def minimize(self, loss, var_list, tape=None):
        """Differentiate `loss` (a function of no argument) and take one step on `var_list`."""
        from ..autodiff.tape import GradientTape

        with GradientTape() as recorder:
            value = loss() if callable(loss) else loss
        variables = list(var_list() if callable(var_list) else var_list)
        return self.apply_gradients(zip(recorder.gradient(value, variables), variables))

    def _before_step(self):
        """Work shared by every variable of one step (Nadam's running product)."""

    def _update(self, variable, value, grad, rate):  # pragma: no cover - overridden
        raise NotImplementedError

    def get_config(self):
        rate = self._learning_rate
        return {"name": self.name,
                "learning_rate": rate if callable(rate) and not isinstance(rate, Variable)
                else float(np.asarray(rate)),
                "clipnorm": self.clipnorm, "clipvalue": self.clipvalue,
                "global_clipnorm": self.global_clipnorm, "use_ema": self.use_ema,
                "ema_momentum": self.ema_momentum,
                "ema_overwrite_frequency": self.ema_overwrite_frequency}


class SGD(Optimizer):
    """Gradient descent, with optional (Nesterov) momentum.

    Without momentum a step is `w -= lr * g`. With it, a velocity `m = momentum * m - lr * g`
    is added (`w += m`), or with Nesterov `w += momentum * m - lr * g`.

    >>> import feedline as fl
    >>> w, opt = fl.Variable(1.0), SGD(learning_rate=0.1, momentum=0.9)
    >>> for _ in range(2):
    ...     _ = opt.apply_gradients([(fl.constant(1.0), w)])
    >>> round(float(w), 4)  # 1 - 0.1, then - (0.9 * 0.1 + 0.1)
    0.71
    """

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="SGD", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        if not 0 <= momentum <= 1:
            raise ValueError(f"SGD: momentum must be in [0, 1], got {momentum!r}")
        self.momentum, self.nesterov = float(momentum), bool(nesterov)

    def _update(self, variable, value, grad, rate):
        if not self.momentum:
            return value - rate * grad
        velocity = self.momentum * self._slot(variable, "momentum") - rate * grad
        self._set_slot(variable, "momentum", velocity)
        if self.nesterov:
            return value + self.momentum * velocity - rate * grad
        return value + velocity


class Adam(Optimizer):
    """Adam: steps by running means of the gradient (`m`) and of its square (`v`), both
    corrected for starting at zero (folded into the step size).

    Defaults as Keras 3: learning_rate 0.001, beta_1 0.9, beta_2 0.999, epsilon 1e-7.

    >>> import feedline as fl
    >>> w = fl.Variable(1.0)
    >>> _ = Adam(learning_rate=0.1).apply_gradients([(fl.constant(4.0), w)])
    >>> round(float(w), 4)  # the first step is about lr * sign(g), whatever g's size
    0.9
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad=False, name="adam", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon
        self.amsgrad = bool(amsgrad)

    def _update(self, variable, value, grad, rate):
        step = int(self.iterations) + 1
        m = self._slot(variable, "momentum")
        v = self._slot(variable, "velocity")
        m = m + (grad - m) * (1 - self.beta_1)
        v = v + (grad * grad - v) * (1 - self.beta_2)
        self._set_slot(variable, "momentum", m)
        self._set_slot(variable, "velocity", v)
        if self.amsgrad:
            v = np.maximum(self._slot(variable, "velocity_hat"), v)
            self._set_slot(variable, "velocity_hat", v)
        alpha = rate * math.sqrt(1 - self.beta_2 ** step) / (1 - self.beta_1 ** step)
        return value - alpha * m / (np.sqrt(v) + self.epsilon)


from .optimizers_more import Adadelta, Adagrad, AdamW, Nadam, RMSprop  # noqa: E402,F401
from .optimizers_adamax_lion import Adamax, Lion  # noqa: E402,F401

_BY_NAME = {"sgd": SGD, "adam": Adam, "nadam": Nadam, "rmsprop": RMSprop, "adamw": AdamW,
            "adagrad": Adagrad, "adadelta": Adadelta, "adamax": Adamax, "lion": Lion}


def get(identifier):
    """An optimizer from a name ("sgd", "adam", "adamw", "nadam", "rmsprop", "adagrad",
    "adadelta", "adamax", "lion") or an optimizer.

    Raises:
        ValueError: for an unknown name, listing the known ones.
    """
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str):
        try:
            return _BY_NAME[identifier.lower()]()
        except KeyError:
            raise ValueError(f"Unknown optimizer {identifier!r}; use one of "
                             f"{sorted(_BY_NAME)} or an optimizer object") from None
    raise TypeError(f"optimizer: expected a name such as 'adam' or an Optimizer, got "
                    f"{identifier!r}")
