"""Check for exercise `ex-13-1`: the bytes a shuffle buffer holds."""

import numpy as np

from .._common import call_answer, check, fail, passed, rng
from ._shared import _number


@check("ex-13-1", hint="bytes = (elements the buffer holds) x (values per element) x (bytes per "
                        "value); a buffer never holds more elements than the dataset has",
       replayable=True)
def check_shuffle_buffer_bytes(shuffle_buffer_bytes):
    """ex-13-1: `shuffle_buffer_bytes(buffer_size, num_elements, element_shape, dtype)`.

    >>> import numpy as np
    >>> check_shuffle_buffer_bytes(lambda buffer_size, num_elements, element_shape, dtype:
    ...     min(buffer_size, num_elements) * int(np.prod(element_shape))
    ...     * np.dtype(dtype).itemsize)
    ex-13-1 passed: the shuffle buffer's bytes are right for every shape, dtype and size
    """
    check_id = "ex-13-1"
    generator = rng(check_id)
    dtypes = ["float32", "uint8", "float64", "int16", "int32", "float16"]
    cases = []
    for k in range(8):
        shape = tuple(int(d) for d in generator.integers(2, 40, size=int(generator.integers(1, 4))))
        buffer_size = int(generator.integers(8, 2000))
        num_elements = (int(generator.integers(buffer_size * 2, buffer_size * 5)) if k % 3
                        else int(generator.integers(1, buffer_size)))
        cases.append((buffer_size, num_elements, shape, dtypes[k % len(dtypes)]))
    for buffer_size, num_elements, shape, dtype in cases:
        values = int(np.prod(shape))
        want = min(buffer_size, num_elements) * values * np.dtype(dtype).itemsize
        got = _number(check_id, call_answer(check_id, shuffle_buffer_bytes, buffer_size,
                                            num_elements, shape, dtype, want_dataset=False),
                      "a number of bytes")
        if got == want:
            continue
        said = (f"shuffle({buffer_size}) over {num_elements} elements of shape {shape} and "
                f"dtype {dtype}: expected {want} bytes, got {got:g}")
        held = min(buffer_size, num_elements)
        if got == buffer_size * values * np.dtype(dtype).itemsize:
            fail(check_id, said + f"; the dataset has only {num_elements} elements, so the "
                                  f"buffer never holds {buffer_size}",
                 hint="a buffer holds min(buffer_size, number of elements)")
        if got == held * values:
            fail(check_id, said + f"; that counts values, not bytes: each {dtype} value "
                                  f"takes {np.dtype(dtype).itemsize} bytes",
                 hint="multiply by np.dtype(dtype).itemsize")
        if got == held * values * 4 or got == held * values * 8:
            fail(check_id, said + f"; {dtype} takes {np.dtype(dtype).itemsize} bytes per "
                                  "value, whatever the dtype of other examples",
                 hint="use np.dtype(dtype).itemsize rather than a fixed size")
        if got in (held * shape[0] * np.dtype(dtype).itemsize,
                   held * sum(shape) * np.dtype(dtype).itemsize):
            fail(check_id, said + "; an element has the product of its dimensions as "
                                  "values (every dimension counts)",
                 hint="values per element = np.prod(element_shape)")
        fail(check_id, said)
    passed(check_id, "the shuffle buffer's bytes are right for every shape, dtype and size")
