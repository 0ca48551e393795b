"""`feedline.checks`: the checks that exercise notebooks call, one module per notebook.

Each check takes the learner's function, runs it on inputs the learner has not seen (drawn from
a seeded generator, so a check gives the same verdict every run), and either prints one stable
line starting with the exercise id, or raises `AssertionError` saying what was expected and
what came back (`CheckFailed`, an `AssertionError` shown in a notebook as a short block with
the exercise's hint). The unit tests call the same functions with right and wrong answers.

>>> import feedline
>>> feedline.checks.ex01.check_make_dataset.__name__
'check_make_dataset'
"""

import importlib
import pathlib
import re

from . import _display
from ._common import CheckFailed

# One module (or package) per exercise notebook, found by name: a new notebook's checks need
# no edit here.
_MODULES = {path.stem for path in pathlib.Path(__file__).parent.glob("ex[0-9][0-9]*")
            if re.fullmatch(r"ex\d\d", path.stem)
            and (path.suffix == ".py" or (path / "__init__.py").is_file())}
_display.install()


def __getattr__(name):
    # Loaded on first use: ex08 needs feedline.perf, which ex01 does not.
    if name in _MODULES:
        module = importlib.import_module(f".{name}", __name__)
        globals()[name] = module
        return module
    raise AttributeError(f"module 'feedline.checks' has no attribute {name!r}")


__all__ = ["CheckFailed", *sorted(_MODULES)]
