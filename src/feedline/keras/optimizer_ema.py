"""Keras 3's exponential moving average of the weights (`use_ema=True` on an optimizer).

After each step the optimizer keeps, per variable, `average = m * average + (1 - m) * value`
(`m` = `ema_momentum`, 0.99; the first step copies the value). With
`ema_overwrite_frequency=n` the variables are set to their averages every n steps (when the
step count after the step is a multiple of n); `finalize_variable_values`, which `fit` calls
at its end, sets them to their averages.

>>> import numpy as np
>>> import feedline as fl
>>> w = fl.Variable([0.0])
>>> opt = fl.keras.optimizers.SGD(1.0, use_ema=True, ema_momentum=0.5)
>>> for _ in range(2):
...     _ = opt.apply_gradients([(np.array([-1.0], np.float32), w)])
>>> opt.finalize_variable_values([w]); w.numpy().tolist()  # values 1, 2: averages 1, 1.5
[1.5]
"""

import numpy as np


def check_ema(use_ema, ema_momentum, ema_overwrite_frequency):
    """Keras 3's checks of the EMA arguments.

    Raises:
        ValueError: a momentum outside [0, 1] or a frequency that is not an int >= 1.
    """
    if not use_ema:
        return
    if not 0 <= ema_momentum <= 1:
        raise ValueError(f"`ema_momentum` must be in the range [0, 1]; received "
                         f"ema_momentum={ema_momentum}")
    if ema_overwrite_frequency and (not isinstance(ema_overwrite_frequency, int)
                                    or ema_overwrite_frequency < 1):
        raise ValueError(f"`ema_overwrite_frequency` must be an integer >= 1 or None; "
                         f"received ema_overwrite_frequency={ema_overwrite_frequency}")


def update_averages(optimizer, variables, step):
    """Move each variable's average towards its value after optimizer step `step` (0-based)."""
    averages = optimizer._ema_averages
    momentum = optimizer.ema_momentum if step else 0.0
    for variable in variables:
        value = np.asarray(variable._array, dtype=np.float64)
        previous = averages.get(id(variable), (variable, value))[1]
        averages[id(variable)] = (variable, momentum * previous + (1 - momentum) * value)
    frequency = optimizer.ema_overwrite_frequency
    if frequency and (step + 1) % frequency == 0:
        overwrite(optimizer, variables)


def overwrite(optimizer, variables):
    """Set each variable that has an average to it."""
    for variable in variables:
        entry = optimizer._ema_averages.get(id(variable))
        if entry is not None:
            variable.assign(np.asarray(entry[1], dtype=variable._array.dtype))
