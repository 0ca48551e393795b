"""`fit`, `evaluate` and `predict`: the loops that feed batches to the model's steps.

As in Keras 3, every batch goes through `train_step`, `test_step` or `predict_step` (see
`training`), so overriding a step changes what the loops do. A step returns its logs; the
callbacks see them flattened (a "compile_metrics" dict opened into its metrics) with Python
floats. At the end of an epoch the loops report the model's own metric results when their names
are the step's log keys (the usual case), and otherwise the last step's logs as returned, which
is what Keras does for an override that reports other keys.

>>> import feedline as fl
>>> model = fl.keras.Sequential([fl.keras.layers.Dense(1, kernel_initializer="ones")])
>>> model.compile(loss="mae", metrics=["mse"])
>>> model.evaluate(np.ones((4, 2)), np.full((4, 1), 3.0), verbose=0)
[1.0, 1.0]
"""

import contextlib
import functools
import time
import warnings

import numpy as np

from ..layers._symbolic import flatten
from . import callbacks as callbacks_module
from .compile_metrics import flat_logs
from .data_adapter import Batches


def _one_blas_thread(method):
    """Run `method` with NumPy's BLAS on one thread (through `threadpoolctl`, when installed).

    A small model's matrix products take microseconds: BLAS threads gain nothing there, and
    on a machine with few cores they fight the input pipeline's threads for them. Measured on
    two cores: 13 ms per step with BLAS' default threads, 3 ms with one.
    """
    @functools.wraps(method)
    def run(*args, **kwargs):
        try:
            from threadpoolctl import threadpool_limits
        except ImportError:  # pragma: no cover - an optional speed-up
            limits = contextlib.nullcontext()
        else:
            limits = threadpool_limits(limits=1, user_api="blas")
        with limits:
            return method(*args, **kwargs)
    return run


class LoopsMixin:
    """Keras' loops over a model's steps (the steps live in `training.TrainingMixin`)."""

    def _epoch_logs(self, last_logs):
        """The model's metric results when the step's logs name the same metrics, else the
        last step's logs (an override reporting keys of its own), as Keras 3 chooses."""
        results = flat_logs(self.get_metrics_result())
        if last_logs is None or set(last_logs) == set(results):
            return results
        return dict(last_logs)

    @_one_blas_thread
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, class_weight=None,
            sample_weight=None, initial_epoch=0, steps_per_epoch=None, validation_steps=None,
            validation_batch_size=None, validation_freq=1):
        """Train for `epochs` epochs; returns the `History` (its `.history` holds each epoch's
        logs: "loss", the metrics, and "val_..." ones with `validation_data`)."""
        self._require_compiled("fit")
        if validation_split and validation_data is None:
            x, y, sample_weight, validation_data = _split(x, y, sample_weight,
                                                          validation_split)
        source = Batches(x, y, sample_weight, batch_size, shuffle, steps_per_epoch)
        verbose = 1 if verbose == "auto" else int(verbose)
        history = callbacks_module.History()
        chosen = list(callbacks or [])
        if verbose:
            chosen.append(callbacks_module.ProgressPrinter(time.perf_counter))
        params = {"epochs": epochs, "steps": source.known_steps(), "verbose": verbose}
        hooks = callbacks_module.CallbackList(chosen + [history], self, params)
        self.history, self.stop_training = history, False
        hooks.on_train_begin()
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            hooks.on_epoch_begin(epoch)
            steps, logs = 0, None
            for step, data in enumerate(source.epoch()):
                hooks.on_train_batch_begin(step)
                logs = flat_logs(self.train_step(data))
                hooks.on_train_batch_end(step, logs)
                steps += 1
                if self.stop_training:  # as Keras: a callback (TerminateOnNaN) stops mid-epoch
                    break
            params["seen_steps"] = steps
            logs = self._epoch_logs(logs)
            if validation_data is not None and (epoch + 1) % validation_freq == 0:
                val = self._evaluate_logs(validation_data, validation_batch_size or batch_size,
                                          validation_steps)
                logs.update({f"val_{key}": value for key, value in val.items()})
            hooks.on_epoch_end(epoch, logs)
            if self.stop_training or source.exhausted:
                if source.exhausted:
                    print("Your input ran out of data; training stops here (give the dataset "
                          "enough batches for steps_per_epoch * epochs, e.g. with .repeat())")
                break
        finalize = getattr(self.optimizer, "finalize_variable_values", None)
        if finalize is not None and epochs > 0:  # Keras: EMA weights replace the trained ones
            finalize(self.trainable_weights)
        hooks.on_train_end()
        history.params = {key: params[key] for key in ("epochs", "steps", "verbose")}
        history.model = self
        return history

    def _evaluate_logs(self, data, batch_size, steps):
        """The validation logs of `data` (`(x, y[, sample_weight])` or a dataset)."""
        if isinstance(data, (tuple, list)):
            x, y, weight = (list(data) + [None])[:3]
            source = Batches(x, y, weight, batch_size, False, steps)
        else:
            source = Batches(data, batch_size=batch_size, steps=steps)
        # Keras 3 leaves the validation counts in the metric objects after fit; feedline puts
        # the training epoch's back (tests/test_keras_metrics_more.py relies on it). The logs
        # are the same either way: the epoch's were read before validation.
        saved = [(metric, metric._total, metric._count) for metric in self._all_metrics()]
        logs, seen = self._test_loop(source)
        for metric, total, count in saved:
            metric._total, metric._count = total, count
        if not seen:
            # No validation batch, no validation logs (rather than zeros that look measured).
            warnings.warn("fit: validation_data gave no batch; no val_ logs this epoch",
                          stacklevel=3)
            return {}
        return logs

    def _all_metrics(self):
        """Every metric object, the compiled ones opened up."""
        found = []
        for metric in self.metrics:
            found += list(getattr(metric, "metrics", None) or []) \
                if hasattr(metric, "_specs") else [metric]
        return [metric for metric in found if hasattr(metric, "_total")]

    def _test_loop(self, source):
        """Every batch of `source` through `test_step`; the logs and the batch count."""
        self.reset_metrics()
        logs, count = None, 0
        for data in source.epoch():
            logs = flat_logs(self.test_step(data))
            count += 1
        return self._epoch_logs(logs), count

    @_one_blas_thread
    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None,
                 steps=None, callbacks=None, return_dict=False):
        """The loss (a float) on the data, or `[loss, metric, ...]` when metrics were
        compiled (a dict by name with `return_dict=True`)."""
        self._require_compiled("evaluate")
        source = Batches(x, y, sample_weight, batch_size, False, steps)
        start = time.perf_counter()
        logs, count = self._test_loop(source)
        if verbose == "auto" or verbose:
            print(callbacks_module.progress_line(count, time.perf_counter() - start, logs))
        return logs if return_dict else self._in_metric_order(logs)

    @_one_blas_thread
    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """The model's outputs for every sample, batches joined into one NumPy array (a list
        of arrays for a model with several outputs)."""
        source = Batches(x, None, None, batch_size, False, steps)
        start, outputs = time.perf_counter(), []
        for data in source.epoch():
            outputs.append(_single(self.predict_step(data)))
        if verbose == "auto" or verbose:
            print(callbacks_module.progress_line(len(outputs), time.perf_counter() - start, {}))
        if not outputs:
            raise ValueError("predict: the data gave no batch")
        if isinstance(outputs[0], (list, tuple)):
            return [np.concatenate([np.asarray(o[i]) for o in outputs])
                    for i in range(len(outputs[0]))]
        return np.concatenate([np.asarray(o) for o in outputs])


def _single(value):
    return value[0] if isinstance(value, (list, tuple)) and len(value) == 1 else value


def _split(x, y, sample_weight, fraction):
    """The last `fraction` of the rows held out for validation, as Keras' validation_split."""
    from ..layers._symbolic import map_structure

    count = len(flatten(x)[0])
    cut = int(count * (1 - fraction))
    head = lambda v: None if v is None else map_structure(lambda a: np.asarray(a)[:cut], v)  # noqa: E731
    tail = lambda v: None if v is None else map_structure(lambda a: np.asarray(a)[cut:], v)  # noqa: E731
    return head(x), head(y), head(sample_weight), (tail(x), tail(y), tail(sample_weight))
