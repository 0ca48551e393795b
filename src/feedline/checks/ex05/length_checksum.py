"""Check for exercise `ex-05-1`: the length and its masked CRC at the head of a TFRecord."""

import struct
import zlib

import crc32c

from ...io.framing import masked_crc
from .._common import call_answer, check, fail, passed, rng
from ._shared import _as_int


_MASK = 0xA282EAD8


def _mask(crc):
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + _MASK) & 0xFFFFFFFF


def _length_mistakes(length):
    """(value, what it means) for the usual ways to get the length checksum wrong."""
    little = struct.pack("<Q", length)
    crc = crc32c.crc32c(little)
    rotated_left = ((crc << 15) | (crc >> 17)) & 0xFFFFFFFF
    return [
        (crc, "that is the plain CRC32C of the length bytes, not masked: rotate it right by "
              "15 bits, then add 0xA282EAD8 (modulo 2**32)"),
        (((crc >> 15) | (crc << 17)) + _MASK,
         "the value has more than 32 bits: keep only the low 32 bits (& 0xFFFFFFFF) after "
         "rotating and after adding the constant"),
        ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + _MASK,
         "the value has more than 32 bits: keep only the low 32 bits (& 0xFFFFFFFF) after "
         "adding the constant too"),
        ((rotated_left + _MASK) & 0xFFFFFFFF,
         "the CRC was rotated left; the mask rotates it right by 15 bits"),
        (masked_crc(struct.pack(">Q", length)),
         "the length was packed big-endian; TFRecord writes it little-endian ('<Q')"),
        (masked_crc(struct.pack("<I", length)) if length < 1 << 32 else None,
         "the length was packed in 4 bytes; it is a 64-bit integer, 8 bytes ('<Q')"),
        (_mask(zlib.crc32(little)),
         "that is zlib's CRC32; TFRecord uses CRC32C (Castagnoli), crc32c.crc32c"),
        (masked_crc(str(length).encode()),
         "the CRC was of the digits as text; it is of the 8 bytes struct.pack('<Q', n)"),
    ]


@check("ex-05-1", hint="pack the length into 8 little-endian bytes, struct.pack('<Q', n), "
                        "compute crc32c.crc32c of them, then mask: rotate right by 15 bits "
                        "and add 0xA282EAD8, keeping 32 bits",
       replayable=True)
def check_length_checksum(length_checksum):
    """ex-05-1: `length_checksum(n)` is the masked CRC32C a record of n data bytes stores.

    >>> import struct
    >>> from feedline.io.framing import masked_crc
    >>> check_length_checksum(lambda n: masked_crc(struct.pack("<Q", n)))
    ex-05-1 passed: the masked CRC of the 8 length bytes matches the file format for 9 lengths
    """
    check_id = "ex-05-1"
    generator = rng(check_id)
    lengths = [0, int(generator.integers(1, 256)), int(generator.integers(256, 1 << 16)),
               int(generator.integers(1 << 16, 1 << 31))]
    lengths += [int(n) for n in generator.integers(1, 5000, size=4)]
    lengths.append(int(generator.integers(1 << 33, 1 << 40)))
    for length in lengths:
        got = _as_int(check_id, call_answer(check_id, length_checksum, length,
                                            want_dataset=False),
                      f"length_checksum({length})")
        want = masked_crc(struct.pack("<Q", length))
        if got == want:
            continue
        message = f"length_checksum({length}) returned {got}, expected {want}"
        for value, meaning in _length_mistakes(length):
            if value == got:
                fail(check_id, message + f": {meaning}", hint=meaning)
        fail(check_id, message)
    passed(check_id, f"the masked CRC of the 8 length bytes matches the file format for "
                     f"{len(lengths)} lengths")
