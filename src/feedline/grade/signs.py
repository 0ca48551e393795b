"""Signs in a submission's own code that the instructor should look at (never scored).

An answer cell that reaches into `feedline.checks` calls the checks' own reference code (a
check module ships the rule it compares with, such as ex09's order of an interleave), which
passes without the student writing the answer. Copying that code by hand cannot be told from
writing it; calling it can, so the instructor is told which cells do.

>>> import nbformat
>>> cells = [nbformat.v4.new_code_cell("import feedline.checks"),
...          nbformat.v4.new_code_cell("from feedline.checks.ex09 import _simulate_order"),
...          nbformat.v4.new_code_cell("feedline.checks.ex09.check_predict_order(f)")]
>>> uses_check_code(cells, {2: "ex-09-1"})
['`from feedline.checks.ex09 import _simulate_order`']
"""

import re

# `import feedline.checks` alone (the setup cell) is fine; reaching into a module is not.
_REACHES_IN = re.compile(r"feedline\s*\.\s*checks\s*\.|from\s+feedline\.checks\b|"
                         r"from\s+feedline\s+import\s+checks\b|\bchecks\s*\.\s*(ex\d\d|_)")


# The same reach without naming the package: a function that walks up the stack while a check
# calls it finds the check's frame, and there the check module's globals (its reference rules)
# and locals; `sys.modules` and `importlib` name a module by a string the pattern above misses.
_WALKS_STACK = re.compile(r"_getframe|\bf_(back|globals|locals)\b|inspect\s*\.\s*(stack|"
                          r"currentframe|getouterframes)|\bsys\s*\.\s*modules\b|import_module"
                          r"|__import__|FEEDLINE_GRADE_SEED")


def uses_check_code(code_cells, check_cells):
    """The first line of every code cell, other than the check cells (`{number: id}`), that
    reaches into `feedline.checks`."""
    found = []
    for number, cell in enumerate(code_cells):
        source = cell.source if isinstance(cell.source, str) else ""
        found_in = next((pattern for pattern in (_REACHES_IN, _WALKS_STACK)
                         if pattern.search(source)), None)
        if number in check_cells or found_in is None:
            continue
        line = next(text for text in source.splitlines() if found_in.search(text))
        found.append(f"`{line.strip()[:80]}`")
    return found
