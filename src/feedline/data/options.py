"""`Options`: settings that apply to a whole pipeline, merged from every `with_options`."""

import dataclasses
import threading


@dataclasses.dataclass
class Options:
    """Pipeline-wide settings. `None` means "not set here", so merging keeps the earlier value.

    Attributes:
        deterministic: when False, parallel transformations may yield elements in completion
            order instead of input order. `None` (the default) means deterministic.

    >>> merged = Options(deterministic=False).merge(Options())
    >>> merged.deterministic
    False
    """

    deterministic: object = None

    def merge(self, other):
        """A copy of `self` with every field that `other` sets taken from `other`."""
        values = {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}
        for field in dataclasses.fields(other):
            value = getattr(other, field.name)
            if value is not None:
                values[field.name] = value
        return Options(**values)


# -- the options of the running pipeline ------------------------------------------------------
# `with_options` may come after the transformations it affects (`ds.map(...).with_options(o)`),
# so a transformation cannot see them through its inputs. While a pipeline whose options are
# not the defaults runs, its merged options are available here to the stages it creates
# (worker threads inherit them).

_running = threading.local()


def current_options():
    """The merged options of the pipeline running on this thread, or None."""
    return getattr(_running, "options", None)


def set_current_options(options):
    """Make `options` current on this thread; returns the previous value to restore."""
    previous = getattr(_running, "options", None)
    _running.options = options
    return previous


class OptionsScopedIterator:
    """Runs a pipeline's iterator with its options current (only used for non-default ones)."""

    def __init__(self, dataset, options):
        self._options = options
        previous = set_current_options(options)
        try:
            self._iterator = dataset._iterator()
        finally:
            set_current_options(previous)

    def __iter__(self):
        return self

    def __next__(self):
        previous = set_current_options(self._options)
        try:
            return next(self._iterator)
        finally:
            set_current_options(previous)

    def close(self):
        closer = getattr(self._iterator, "close", None)
        if closer is not None:
            closer()
