"""`Options`: settings that apply to a whole pipeline, merged from every `with_options`."""

import dataclasses


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
