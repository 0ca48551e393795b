"""One step of each optimizer equals Keras 3's update rule worked out by hand
(keras/src/optimizers/{sgd,adam,nadam,rmsprop}.py in keras-team/keras)."""

import math

import numpy as np
import pytest

import feedline as fl
from feedline.keras import optimizers

GRAD = np.array([0.5, -2.0], np.float32)


def step(optimizer, start=(1.0, 1.0), grads=(GRAD,)):
    w = fl.Variable(np.array(start, np.float32))
    for grad in grads:
        optimizer.apply_gradients([(fl.constant(grad), w)])
    return w.numpy()


def test_keras_3_defaults():
    assert optimizers.SGD().learning_rate == 0.01 and optimizers.SGD().momentum == 0.0
    adam = optimizers.Adam()
    assert (adam.learning_rate, adam.beta_1, adam.beta_2, adam.epsilon) == (0.001, 0.9, 0.999,
                                                                           1e-7)
    rms = optimizers.RMSprop()
    assert (rms.learning_rate, rms.rho, rms.momentum, rms.epsilon) == (0.001, 0.9, 0.0, 1e-7)
    assert optimizers.Nadam().learning_rate == 0.001


def test_sgd_steps_against_the_gradient():
    np.testing.assert_allclose(step(optimizers.SGD(learning_rate=0.1)), 1 - 0.1 * GRAD)


def test_sgd_momentum_and_nesterov_over_two_steps():
    lr, mu = 0.1, 0.9
    velocity = -lr * GRAD
    velocity2 = mu * velocity - lr * GRAD
    expected = 1 + velocity + velocity2
    np.testing.assert_allclose(step(optimizers.SGD(lr, momentum=mu), grads=(GRAD, GRAD)),
                               expected, rtol=1e-6)
    nesterov = 1 + (mu * velocity - lr * GRAD) + (mu * velocity2 - lr * GRAD)
    np.testing.assert_allclose(step(optimizers.SGD(lr, momentum=mu, nesterov=True),
                                    grads=(GRAD, GRAD)), nesterov, rtol=1e-6)


def test_adam_first_step():
    lr, b1, b2, eps = 0.01, 0.9, 0.999, 1e-7
    m, v = (1 - b1) * GRAD, (1 - b2) * GRAD ** 2
    alpha = lr * math.sqrt(1 - b2) / (1 - b1)
    np.testing.assert_allclose(step(optimizers.Adam(learning_rate=lr)),
                               1 - alpha * m / (np.sqrt(v) + eps), rtol=1e-6)


def test_nadam_first_step():
    lr, b1, b2, eps = 0.01, 0.9, 0.999, 1e-7
    mu1 = b1 * (1 - 0.5 * 0.96 ** 1)
    mu2 = b1 * (1 - 0.5 * 0.96 ** 2)
    product1, product2 = mu1, mu1 * mu2
    m, v = (1 - b1) * GRAD, (1 - b2) * GRAD ** 2
    m_hat = mu2 * m / (1 - product2) + (1 - mu1) * GRAD / (1 - product1)
    v_hat = v / (1 - b2)
    np.testing.assert_allclose(step(optimizers.Nadam(learning_rate=lr)),
                               1 - lr * m_hat / (np.sqrt(v_hat) + eps), rtol=1e-6)


def test_rmsprop_first_step_plain_and_centered():
    lr, rho, eps = 0.01, 0.9, 1e-7
    velocity = (1 - rho) * GRAD ** 2
    np.testing.assert_allclose(step(optimizers.RMSprop(learning_rate=lr)),
                               1 - lr * GRAD / np.sqrt(velocity + eps), rtol=1e-6)
    average = (1 - rho) * GRAD
    np.testing.assert_allclose(step(optimizers.RMSprop(learning_rate=lr, centered=True)),
                               1 - lr * GRAD / np.sqrt(velocity - average ** 2 + eps),
                               rtol=1e-5)


def test_a_missing_gradient_is_skipped_and_iterations_count_steps():
    opt = optimizers.SGD(0.1)
    a, b = fl.Variable(1.0), fl.Variable(1.0)
    opt.apply_gradients([(None, a), (fl.constant(1.0), b)])
    assert float(a) == 1.0 and abs(float(b) - 0.9) < 1e-7 and int(opt.iterations) == 1


def test_names_resolve_to_fresh_optimizers():
    assert isinstance(optimizers.get("nadam"), optimizers.Nadam)
    with pytest.raises(ValueError, match="Unknown optimizer 'adamw2'"):
        optimizers.get("adamw2")


def test_minimize_differentiates_a_loss_function():
    w = fl.Variable(3.0)
    optimizers.SGD(0.25).minimize(lambda: w * w, [w])
    assert float(w) == 1.5


def test_a_float_learning_rate_is_a_variable_that_code_can_assign_as_in_keras_3():
    optimizer = fl.keras.optimizers.Adam(1e-3)
    assert optimizer.learning_rate.numpy() == np.float32(1e-3)
    optimizer.learning_rate.assign(1e-4)
    assert float(optimizer.learning_rate) == pytest.approx(1e-4)
    optimizer.learning_rate = 0.5  # setting assigns the same variable
    assert float(optimizer.learning_rate) == 0.5 and optimizer.get_config()["learning_rate"] == 0.5


def test_a_schedules_rate_is_its_value_now_and_cannot_be_set():
    schedule = fl.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5)
    optimizer = fl.keras.optimizers.SGD(schedule)
    assert float(optimizer.learning_rate) == pytest.approx(0.1)
    with pytest.raises(TypeError, match="cannot be set"):
        optimizer.learning_rate = 0.01


def test_ema_overwrites_the_variables_with_their_average_every_n_steps():
    """keras.io/api/optimizers/ (use_ema, ema_momentum, ema_overwrite_frequency): values
    1, 2, 3 give averages 1, 1.5, 2.25; the third step writes 2.25 back."""
    w = fl.Variable([0.0])
    opt = fl.keras.optimizers.SGD(1.0, use_ema=True, ema_momentum=0.5, ema_overwrite_frequency=3)
    seen = []
    for _ in range(4):
        opt.apply_gradients([(np.array([-1.0], np.float32), w)])
        seen.append(float(w.numpy()[0]))
    assert seen == [1.0, 2.0, 2.25, 3.25]  # values from Keras 3.15, JAX backend


def test_ema_momentum_outside_zero_one_is_refused():
    with pytest.raises(ValueError, match="ema_momentum"):
        fl.keras.optimizers.Adam(use_ema=True, ema_momentum=1.5)


@pytest.mark.parametrize("name, expected", [  # values from Keras 3.15, JAX backend
    ("Adamax", [0.835526, -1.865755]),
    ("Lion", [1.0, -2.0]),  # two opposite signs: the second step undoes the first
])
def test_adamax_and_lion_take_kerass_steps(name, expected):
    """keras.io/api/optimizers/adamax/ and .../lion/ with learning_rate 0.1."""
    w = fl.Variable(np.array([1.0, -2.0], np.float32))
    opt = fl.keras.optimizers.get(name.lower())
    opt.learning_rate = 0.1
    for grad in ([0.5, -1.0], [2.0, 0.25] if name == "Adamax" else [-2.0, 0.25]):
        opt.apply_gradients([(np.array(grad, np.float32), w)])
    np.testing.assert_allclose(w.numpy(), expected, rtol=1e-5)
