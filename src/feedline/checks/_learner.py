"""Turn an error raised by the learner's code into one plain paragraph.

A check that runs the learner's function must not answer with a traceback through feedline:
it says which of the learner's functions raised what, on which input, and the line of the
learner's own cell where it happened.

>>> def rebatch_rows(chunks, size):
...     return chunks // size
>>> try:
...     rebatch_rows("abc", 2)
... except TypeError as error:
...     print(error_report(error, "your `rebatch_rows`",
...                        called_as=describe_call("rebatch_rows", ("abc", 2))))
your `rebatch_rows` raised TypeError: unsupported operand type(s) for //: 'str' and 'int'
  called as rebatch_rows('abc', 2)
  at line 2 of <doctest ...>: return chunks // size
"""

import linecache
import os
import sysconfig
import traceback

import numpy as np

_FEEDLINE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_LIBRARY_DIRS = tuple({os.path.abspath(path) for path in (
    sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"],
    sysconfig.get_paths()["platlib"], os.path.dirname(np.__file__), _FEEDLINE_DIR)})


def error_report(error, who, called_as=None, while_doing=None):
    """`who raised Type: message`, then where: the call, and the learner's own line."""
    message = str(error).strip() or "(no message)"
    lines = [f"{who} raised {type(error).__name__}: {message}"]
    if while_doing:
        lines.append(f"  {while_doing}")
    if called_as:
        lines.append(f"  called as {called_as}")
    where = learner_line(error.__traceback__)
    if where:
        lines.append(f"  at {where}")
    return "\n".join(lines)


def learner_line(tb):
    """`line N of <cell or file>: code` for the deepest frame of the learner's, or None."""
    found = None
    for frame, lineno in traceback.walk_tb(tb):
        filename = frame.f_code.co_filename
        if _is_learner_file(filename):
            found = (filename, lineno)
    if found is None:
        return None
    filename, lineno = found
    code = linecache.getline(filename, lineno).strip()
    return f"line {lineno} of {_place(filename)}" + (f": {code}" if code else "")


def _is_learner_file(filename):
    if filename.startswith("<") and not filename.startswith("<doctest"):
        return False  # <frozen ...>, <string>: not code the learner can open
    path = os.path.abspath(filename)
    return not path.startswith(_LIBRARY_DIRS)


def _place(filename):
    """`your cell In [5]` for a notebook cell, the file's name otherwise."""
    try:
        from IPython import get_ipython

        shell = get_ipython()
        number = shell.compile._filename_map.get(filename) if shell is not None else None
    except (ImportError, AttributeError):
        number = None
    if number is not None:
        return f"your cell In [{number}]"
    if filename.startswith("<doctest"):
        return "<doctest ...>"
    return os.path.basename(filename)


def describe_call(name, args):
    """`name(arg, ...)` with each argument described in a few words."""
    return f"{name}({', '.join(describe_value(arg) for arg in args)})"


def describe_value(value):
    """A few words for one argument: short values as they are, big ones by their shape."""
    from ..data import Dataset

    if isinstance(value, Dataset):
        try:
            return f"<a Dataset of {value.element_spec}>"
        except Exception:  # noqa: BLE001 - describing must never raise
            return "<a Dataset>"
    if isinstance(value, np.ndarray):
        if value.size <= 6:
            return f"np.array({value.tolist()!r})"
        return f"<array of shape {value.shape}, dtype {value.dtype}>"
    if callable(value):
        return f"<function {getattr(value, '__name__', '?')}>"
    if isinstance(value, (list, tuple)) and len(value) > 6:
        return f"<{type(value).__name__} of {len(value)} items>"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
