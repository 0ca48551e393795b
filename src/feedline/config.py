"""`feedline.config`: the device and threading settings of `tf.config` that setup cells call.

Feedline computes with NumPy on the CPU, so there is exactly one device, the CPU, and no GPU.
Code that configures GPUs only when it finds some (the usual `for gpu in
list_physical_devices("GPU"): ...`) therefore runs and does nothing.

>>> import feedline as fl
>>> fl.config.list_physical_devices()
[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]
>>> fl.config.list_physical_devices("GPU"), fl.executing_eagerly()
([], True)
"""

import collections
import types

#: A device as `list_physical_devices` describes it (TensorFlow's fields).
PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
#: A device as `list_logical_devices` describes it.
LogicalDevice = collections.namedtuple("LogicalDevice", ["name", "device_type"])

_CPU = PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU")
_LOGICAL_CPU = LogicalDevice(name="/device:CPU:0", device_type="CPU")
_threads = {"inter_op": 0, "intra_op": 0}  # 0: "let the system choose", TensorFlow's default


def executing_eagerly():
    """True, except while a function is being traced for its output spec (a `Dataset.map`
    function asked for its `element_spec`, or `fl.function`), where TensorFlow also says
    False. TensorFlow says False whenever a dataset function runs, because it only ever runs
    as a graph; Feedline then runs the Python function on each element, eagerly, and says True.

    >>> executing_eagerly()
    True
    """
    from .data import tracing  # the data package imports this module

    return not tracing.active()


def list_physical_devices(device_type=None):
    """The devices of `device_type` ("CPU", "GPU", ...; all when None): only the CPU here.

    >>> [device.device_type for device in list_physical_devices("CPU")]
    ['CPU']
    """
    return [device for device in (_CPU,) if device_type in (None, device.device_type)]


def list_logical_devices(device_type=None):
    """The logical devices of `device_type`: only the CPU, "/device:CPU:0".

    >>> list_logical_devices("GPU")
    []
    """
    return [device for device in (_LOGICAL_CPU,)
            if device_type in (None, device.device_type)]


def get_visible_devices(device_type=None):
    """The devices ops may use: the same as `list_physical_devices`.

    >>> len(get_visible_devices())
    1
    """
    return list_physical_devices(device_type)


def _set_memory_growth(device, enable):
    """Accept a request to let a GPU's memory grow as needed: there is no GPU, so nothing
    to do. As in TensorFlow, only a GPU takes the setting: the CPU device is refused.

    Raises:
        ValueError: for anything but a GPU from `list_physical_devices("GPU")` (which is
            empty here), e.g. the CPU device, as TensorFlow refuses it.

    >>> _set_memory_growth(list_physical_devices()[0], True)
    Traceback (most recent call last):
    ...
    ValueError: set_memory_growth: memory growth is a GPU setting; this device is ...
    """
    if device not in list_physical_devices():
        raise ValueError(f"set_memory_growth: unrecognized device {device!r}; pass one from "
                         "fl.config.list_physical_devices('GPU')")
    raise ValueError(f"set_memory_growth: memory growth is a GPU setting; this device is "
                     f"{device.device_type}. Loop over fl.config.list_physical_devices('GPU') "
                     "(empty here) to set it only where it applies")


def _get_memory_growth(device):
    """Whether memory growth is on for `device`: it is never set here, so False."""
    return False


def _thread_setter(key):
    def set_threads(num_threads):
        _threads[key] = int(num_threads)
    set_threads.__doc__ = (f"Remember the {key.replace('_', '-')} thread count. It does not "
                           "change NumPy, which sizes its own thread pool (its BLAS library "
                           "reads OMP_NUM_THREADS when it starts).")
    set_threads.__name__ = f"set_{key}_parallelism_threads"
    return set_threads


def _thread_getter(key):
    def get_threads():
        return _threads[key]
    get_threads.__doc__ = f"The {key.replace('_', '-')} thread count set before (0: unset)."
    get_threads.__name__ = f"get_{key}_parallelism_threads"
    return get_threads


#: `fl.config.experimental`: memory growth, and the device listing's older spelling.
experimental = types.SimpleNamespace(
    set_memory_growth=_set_memory_growth, get_memory_growth=_get_memory_growth,
    list_physical_devices=list_physical_devices, list_logical_devices=list_logical_devices)

#: `fl.config.threading`: thread counts, remembered only (see the setters' docstrings).
threading = types.SimpleNamespace(
    set_inter_op_parallelism_threads=_thread_setter("inter_op"),
    get_inter_op_parallelism_threads=_thread_getter("inter_op"),
    set_intra_op_parallelism_threads=_thread_setter("intra_op"),
    get_intra_op_parallelism_threads=_thread_getter("intra_op"))

__all__ = ["PhysicalDevice", "LogicalDevice", "executing_eagerly", "list_physical_devices",
           "list_logical_devices", "get_visible_devices", "experimental", "threading"]
