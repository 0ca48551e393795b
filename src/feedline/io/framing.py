"""TFRecord framing: how each record sits in a file, and the masked CRC32C that guards it.

A record is four parts, all little-endian:

    uint64  length of the data
    uint32  masked CRC32C of those 8 length bytes
    bytes   the data
    uint32  masked CRC32C of the data

Masking rotates the CRC right by 15 bits and adds a constant, so that a CRC of data that
itself holds CRCs does not look like a match by accident.

>>> masked_crc(b"")
2726488792
>>> frame(b"hi").hex()
'0200000000000000...6869...'
"""

import struct

import crc32c

MASK_DELTA = 0xA282EAD8
HEADER = struct.Struct("<QI")     # length, masked CRC of the length
FOOTER = struct.Struct("<I")      # masked CRC of the data
LENGTH = struct.Struct("<Q")
HEADER_SIZE = HEADER.size         # 12
FOOTER_SIZE = FOOTER.size         # 4
OVERHEAD = HEADER_SIZE + FOOTER_SIZE

_crc = crc32c.crc32c


def masked_crc(data):
    """The masked CRC32C of `data` (any bytes-like object), as TFRecord files store it."""
    crc = _crc(data)
    return (((crc >> 15) | (crc << 17)) + MASK_DELTA) & 0xFFFFFFFF


def unmask(masked):
    """The plain CRC32C that `masked` was made from (the inverse of the mask)."""
    rotated = (masked - MASK_DELTA) & 0xFFFFFFFF
    return ((rotated >> 17) | (rotated << 15)) & 0xFFFFFFFF


def frame(data):
    """`data` wrapped as one complete record: header, data, footer."""
    length = LENGTH.pack(len(data))
    return b"".join((length, FOOTER.pack(masked_crc(length)), data,
                     FOOTER.pack(masked_crc(data))))


def walk(buffer, start, records, limit=None):
    """Append every complete, verified record of `buffer` from `start` to `records` (at most
    `limit` of them when given).

    Returns `(position, problem)`: where the first incomplete record begins (or the end), and
    `None`, or `("corrupted", offset, what, start)` at the first record whose CRC does not
    match (offset: the record's start for a bad length CRC, its data's start for a bad data
    CRC; start: the record's start; see `describe`).
    The loop keeps CRC and unpack lookups local: it is the hot path of every reader.
    """
    view = memoryview(buffer)
    unpack_header, unpack_footer, crc = HEADER.unpack_from, FOOTER.unpack_from, _crc
    append = records.append
    end = len(buffer)
    position = start
    stop = len(records) + (limit if limit is not None else end)
    while position + HEADER_SIZE <= end and len(records) < stop:
        length, length_crc = unpack_header(buffer, position)
        plain = (length_crc - MASK_DELTA) & 0xFFFFFFFF
        if crc(view[position:position + 8]) != ((plain >> 17) | (plain << 15)) & 0xFFFFFFFF:
            return position, ("corrupted", position, "length CRC does not match", position)
        data_end = position + HEADER_SIZE + length
        if data_end + FOOTER_SIZE > end:
            break
        data = buffer[position + HEADER_SIZE:data_end]
        plain = (unpack_footer(buffer, data_end)[0] - MASK_DELTA) & 0xFFFFFFFF
        if crc(data) != ((plain >> 17) | (plain << 15)) & 0xFFFFFFFF:
            # TensorFlow names where the data starts for this one, so we do too.
            return position, ("corrupted", position + HEADER_SIZE, "data CRC does not match",
                              position)
        append(data)
        position = data_end + FOOTER_SIZE
    return position, None


def describe(problem, base):
    """A problem `walk` found in a buffer that starts at stream offset `base`: the offset to
    name and the words for it.

    >>> describe(("corrupted", 12, "data CRC does not match", 0), 100)
    (112, 'data CRC does not match (the record starts at byte 100)')
    """
    _, offset, what, start = problem
    if offset != start:
        what = f"{what} (the record starts at byte {base + start})"
    return base + offset, what


def needed_bytes(buffer, position):
    """Bytes the record starting at `position` needs in total (header only when unknown)."""
    if len(buffer) - position < HEADER_SIZE:
        return HEADER_SIZE
    length, length_crc = HEADER.unpack_from(buffer, position)
    if masked_crc(memoryview(buffer)[position:position + 8]) != length_crc:
        return HEADER_SIZE  # a damaged length: let `walk` report it rather than wait for it
    return OVERHEAD + length
