"""Signs that code in the student's kernel replaced what the checks rely on (best effort).

They go to the instructor only and never change a score (the grader's replay decides that):
builtins the checks use, IPython's error display and input transformers, the checks themselves
(on their defining module or on their exercise's package) and the helpers of `_common`.
"""

import builtins

_ORIGINAL_BUILTINS = {name: getattr(builtins, name) for name in
                      ("print", "isinstance", "len", "AssertionError", "Exception", "open")}


_ORIGINAL_HELPERS = {}  # name -> the helper checks use, as feedline.checks._common defined it
HELPER_NAMES = ("fail", "passed", "call_answer", "read_elements", "take_elements", "rng",
                "observe", "check", "seconds")


def remember_helpers(namespace):
    """Called once by _common: the helpers as defined, to notice later replacements."""
    _ORIGINAL_HELPERS.update({name: namespace[name] for name in HELPER_NAMES
                              if name in namespace})


def tampering_signs():
    """What in the kernel is not as IPython and Python set it up (best effort)."""
    from ._replay import REGISTRY  # here: _replay imports this module as it loads

    signs = []
    for name, original in _ORIGINAL_BUILTINS.items():
        if getattr(builtins, name, None) is not original:
            signs.append(f"builtins.{name} was replaced")
    try:
        from IPython import get_ipython
        shell = get_ipython()
    except ImportError:
        shell = None
    if shell is not None:
        signs += _shell_signs(shell)
    modules = {"feedline.checks._common"}
    for check_id, function in REGISTRY.items():
        modules.add(function.__module__)
        # A check defined in a submodule (checks/ex09/order.py) is called through its
        # exercise's package (feedline.checks.ex09): a replacement on either counts.
        package = "feedline.checks.ex" + check_id[3:5]
        for name in dict.fromkeys((function.__module__, package)):
            try:
                module = __import__(name, fromlist=["_"])
            except ImportError:
                continue
            missing = None if name == function.__module__ else function
            if getattr(module, function.__name__, missing) is not function:
                signs.append(f"the check for {check_id} was replaced")
                break
    for module_name in sorted(modules):
        module = __import__(module_name, fromlist=["_"])
        for name, original in _ORIGINAL_HELPERS.items():
            if hasattr(module, name) and getattr(module, name) is not original:
                signs.append(f"{module_name}.{name} was replaced")
    return signs


def _shell_signs(shell):
    """What in IPython is not as it set itself up."""
    signs = []
    if "showtraceback" in vars(shell):
        signs.append("IPython's showtraceback was replaced")
    for attribute in ("input_transformers_cleanup", "input_transformers_post"):
        for transformer in getattr(shell, attribute, []):
            module = getattr(transformer, "__module__", "") or ""
            if not module.startswith("IPython."):
                signs.append(f"an input transformer from {module or 'a notebook cell'} "
                             f"({attribute})")
    handled = getattr(shell, "custom_exceptions", ())
    if handled and handled != (NameError,):
        signs.append(f"a custom exception handler for {handled}")
    return signs
