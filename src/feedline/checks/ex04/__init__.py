"""Checks of notebook 04, protocol buffers: a varint, a field's key, a message, decoding fields."""

# Importing the package registers every check of the notebook, in the order of the exercises.
from ._shared import NAMES
from .varint import check_encode_varint
from .tag_bytes import WIRE_TYPES, check_tag_bytes
from .measurement import MEASUREMENT_PROTO, check_encode_measurement
from .decode_fields import EXAMPLE_MESSAGES, PROBE_MESSAGES, PROBE_PROTO, check_decode_fields

__all__ = ["check_encode_varint", "check_tag_bytes", "check_encode_measurement",
           "check_decode_fields", "WIRE_TYPES", "MEASUREMENT_PROTO", "NAMES", "PROBE_PROTO",
           "EXAMPLE_MESSAGES", "PROBE_MESSAGES"]
