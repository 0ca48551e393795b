"""Verify a run of equal-length TFRecord records with NumPy instead of one loop turn each.

Files of fixed-size Examples (images, feature vectors) hold records of one length, so the
headers sit at arithmetic offsets and are byte-for-byte equal (same length, same length CRC).
`walk_batch` checks that with one vectorised comparison and one length CRC, then computes one
CRC32C per record's data (C code) and compares all footers at once. At the first record that
differs or fails, it hands over to `framing.walk`, which gives the exact same records and the
exact same error as the per-record reader.

Where the optional compiled walker was built (`_walk.c`: `pip install -e .` builds it when a C
compiler is there, and it runs when the CPU has the CRC32C instruction), `walk_batch` hands the
whole buffer to it instead: one call verifies every record's CRCs and makes their `bytes`,
three records at a time, with the same results (`tests/test_batch_walk.py` compares both with
`framing.walk` on random damaged buffers). `NATIVE` is that walker, or None.

>>> from feedline.io.framing import frame
>>> buffer = b"".join(frame(bytes([n]) * 5) for n in range(4)) + frame(b"longer")
>>> records = []
>>> walk_batch(buffer, 0, records, 10)
(106, None)
>>> records[0], records[-1]
(b'\\x00\\x00\\x00\\x00\\x00', b'longer')
"""

import numpy as np

from . import framing

try:  # the compiled walker, where it was built and the CPU has a CRC32C instruction
    from . import _walk
    NATIVE = _walk.walk if _walk.HARDWARE else None
except ImportError:
    NATIVE = None

_SHORTEST_RUN = 4  # below this, the per-record loop is cheaper than NumPy's fixed costs
_STRETCH = 32  # records walked singly where lengths vary, before trying a run again


_SHIFT_RIGHT, _SHIFT_LEFT = np.uint32(15), np.uint32(17)
_DELTA = np.uint32(framing.MASK_DELTA)


def _masked(crcs):
    """Mask an array of uint32 CRCs as TFRecord stores them (vectorised `masked_crc`)."""
    rotated = crcs >> _SHIFT_RIGHT
    rotated |= crcs << _SHIFT_LEFT
    rotated += _DELTA
    return rotated


def _records(buffer, first, count, stride, length):
    """`count` records of `length` bytes, `stride` apart from `first`, as a list of `bytes`.
    Read as fixed-size void items, NumPy makes the `bytes` objects in one C loop (about twice
    as fast as slicing `buffer` once per record)."""
    if length == 0:
        return [b""] * count
    items = np.ndarray((count,), f"V{length}", buffer, first, (stride,))
    return items.astype(object).tolist()


def walk_batch(buffer, start, records, limit, runs=None):
    """Append up to `limit` verified records of `buffer` (bytes) from `start` to `records`.
    Returns `(position, problem)` exactly as `framing.walk` does. With `runs` (a list), append `(index in records, count, data offset, stride, length)`
    for each equal-length run verified at once: those records are a 2-D view of `buffer`.
    Where the compiled walker was built (`_walk`, see `NATIVE`), it does all of this."""
    if NATIVE is not None:
        found, position, problem, found_runs = NATIVE(buffer, start, limit)
        if runs is not None:
            base = len(records)
            runs.extend((base + index, *run) for index, *run in found_runs)
        records.extend(found)
        return position, problem
    end, position, wanted = len(buffer), start, len(records) + limit
    crc, unpack = framing._crc, framing.LENGTH.unpack_from
    while len(records) < wanted and position + framing.HEADER_SIZE <= end:
        length = unpack(buffer, position)[0]
        stride = length + framing.OVERHEAD
        run = min(wanted - len(records), (end - position) // stride)
        if run < _SHORTEST_RUN or framing.masked_crc(buffer[position:position + 8]) != \
                framing.FOOTER.unpack_from(buffer, position + 8)[0]:
            return framing.walk(buffer, position, records, wanted - len(records))
        # Zero-copy views of the headers' fields and of the footers, `stride` bytes apart.
        headers = np.ndarray((run, framing.HEADER_SIZE), np.uint8, buffer, position,
                             (stride, 1))
        header = buffer[position:position + framing.HEADER_SIZE]
        if headers.tobytes() != header * run:  # one C-level compare for the usual case
            same = (headers == headers[0]).all(axis=1)
            run = int(np.argmin(same))  # the first record with another length: stop before it
            if run < _SHORTEST_RUN:  # lengths vary here: walk a stretch record by record
                before = position
                position, problem = framing.walk(buffer, position, records,
                                                 min(_STRETCH, wanted - len(records)))
                if problem is not None or position == before:
                    return position, problem
                continue
        first = position + framing.HEADER_SIZE
        found = _records(buffer, first, run, stride, length)
        computed = np.fromiter(map(crc, found), dtype=np.uint32, count=run)
        footers = np.ndarray((run,), "<u4", buffer, first + length, (stride,))
        masked = _masked(computed)
        if masked.tobytes() != footers.tobytes():  # one C-level compare for the usual case
            run = int(np.argmin(masked == footers))
            records.extend(found[:run])
            # The per-record walk words the error (and the offsets) for the bad record.
            return framing.walk(buffer, position + run * stride, records, 1)
        if runs is not None:
            runs.append((len(records), run, first, stride, length))
        records.extend(found)
        position += run * stride
        if len(records) < wanted and position + framing.HEADER_SIZE <= end:
            # A record of another length (or an incomplete one) follows: take it singly.
            position, problem = framing.walk(buffer, position, records, 1)
            if problem is not None:
                return position, problem
            if framing.needed_bytes(buffer, position) > end - position:
                break
    return position, None
