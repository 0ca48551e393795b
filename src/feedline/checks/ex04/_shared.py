"""What the checks of notebook 04 share: reference message classes, varints, byte helpers.

`_classes` builds message classes from small `.proto` texts with feedline's own reader
(`feedline.train._proto`), in a private descriptor pool; the varint helpers re-encode a number
with the usual mistakes (big-endian groups, a missing continuation bit, ...) to say which one
an answer made.
"""

from google.protobuf import descriptor_pool

from ...train._proto import message_classes, parse_proto
from .._common import fail


def _classes(text, name):
    """{name: message class} for the messages of `text`, in a pool of their own."""
    return message_classes(parse_proto(text, name), pool=descriptor_pool.DescriptorPool())


def _plain_varint(number):
    """The reference varint (protobuf's rule, written out to build the wrong variants)."""
    out = bytearray()
    while number >= 0x80:
        out.append(number & 0x7F | 0x80)
        number >>= 7
    out.append(number)
    return bytes(out)


def _groups(number):
    """`number` cut into 7-bit groups, lowest first (at least one group)."""
    groups = [number & 0x7F]
    while number >= 0x80:
        number >>= 7
        groups.append(number & 0x7F)
    return groups


def _with_bits(groups, last_bit):
    return bytes(g | 0x80 for g in groups[:-1]) + bytes([groups[-1] | last_bit])


# The mistakes a hand-written varint encoder makes, and what to say about each.
_VARINT_MISTAKES = [
    (lambda n: _with_bits(_groups(n)[::-1], 0),
     "the 7-bit groups are in the wrong order: the first byte holds the lowest 7 bits"),
    (lambda n: bytes(_groups(n)),
     "the bytes lack the continuation bit: every byte but the last needs its top bit (0x80) set"),
    (lambda n: bytes(g | 0x80 for g in _groups(n)),
     "the last byte has its top bit set too: only bytes that more bytes follow get 0x80"),
    (lambda n: b"" if n == 0 else _plain_varint(n),
     "0 is written as one byte, 00, not as nothing"),
    (lambda n: n.to_bytes(max(1, -(-n.bit_length() // 8)), "little"),
     "those are 8-bit bytes: a varint carries 7 bits of the number per byte"),
]


def _name_varint_mistake(number, got):
    for variant, why in _VARINT_MISTAKES:
        if got == variant(number):
            return why
    return None


def _as_bytes(check_id, value, what):
    if isinstance(value, bytearray):
        value = bytes(value)
    if not isinstance(value, bytes):
        fail(check_id, f"{what} should return bytes, got {type(value).__name__}",
             hint="build a bytearray, append one int (0 to 255) per byte, return bytes(it)")
    return value


def _hexed(data):
    return data.hex(" ") or "(no bytes)"


NAMES = ["Zürich", "Kraków", "東京", "Ōsaka", "Reykjavík", "Oslo", "Lima", "São Paulo", "Köln"]
