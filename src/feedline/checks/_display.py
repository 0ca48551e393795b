"""How a failed check looks in a notebook: a short block instead of a traceback.

JupyterLab shows an error's "traceback" lines with their ANSI colours, so a failed check
becomes three or four styled lines: the exercise id, what was wrong, and the hint. In a
terminal or a grader's log the same failure is plain text (`str(CheckFailed)`).

Also here: a check cell that runs before its answer cell stops with a `NameError`; that
becomes "run the answer cell above first" instead of a bare traceback.

>>> from feedline.checks._common import CheckFailed
>>> for line in render_failure(CheckFailed("ex-08-1", "two lines\\nof message", "a hint")):
...     print(strip_ansi(line))
✗ ex-08-1 failed
two lines
of message
Hint: a hint
"""

import re

_RED_BOLD, _BOLD, _CYAN, _RESET = "\x1b[1;31m", "\x1b[1m", "\x1b[36m", "\x1b[0m"
_CHECK_CALL = re.compile(r"feedline\.checks\.(ex\d{2})\.(check_\w+)\s*\(")


def render_failure(failure):
    """The lines IPython shows for a `CheckFailed`, styled with ANSI colours."""
    lines = [f"{_RED_BOLD}✗ {failure.check_id} failed{_RESET}"]
    lines += failure.message.splitlines()
    if failure.hint:
        lines.append(f"{_CYAN}{_BOLD}Hint:{_RESET}{_CYAN} {failure.hint}{_RESET}")
    return lines


def strip_ansi(text):
    """`text` without colour codes."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def check_of_cell(source):
    """The check function a check cell calls (None when `source` is not a check cell)."""
    import importlib

    match = _CHECK_CALL.search(source or "")
    if not match:
        return None
    try:
        module = importlib.import_module(f"feedline.checks.{match.group(1)}")
        return getattr(module, match.group(2), None)
    except ImportError:
        return None


def name_error_lines(error, cell_source):
    """The short block for a check cell that names something not defined yet, or None."""
    function = check_of_cell(cell_source)
    check_id = getattr(function, "check_id", None)
    if check_id is None:
        return None
    name = getattr(error, "name", None) or str(error)
    return [f"{_RED_BOLD}✗ {check_id} cannot run yet{_RESET}",
            f"`{name}` is not defined: run the answer cell above first (and the setup cell at "
            "the top of the notebook if the kernel restarted), then run this check again."]


def _name_error_handler(shell, etype, value, tb, tb_offset=None):
    import linecache
    import traceback

    frames = list(traceback.walk_tb(tb))
    # The cell's own code is the first frame after IPython's run_code.
    cell_frames = [frame for frame, _ in frames if frame.f_code.co_name == "<module>"]
    source = ""
    if cell_frames:
        filename = cell_frames[0].f_code.co_filename
        source = "".join(linecache.getlines(filename))
    lines = name_error_lines(value, source)
    if lines is None:
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
    else:
        shell._showtraceback(etype, value, lines)


def install():
    """In IPython, show check cells' NameErrors as a short message (no-op elsewhere)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is not None and hasattr(shell, "set_custom_exc"):
        shell.set_custom_exc((NameError,), _name_error_handler)
