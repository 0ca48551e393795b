"""Checks of notebook 05, TFRecord and Example: length CRC, image round trip, damage, sessions."""

# Importing the package registers every check of the notebook, in the order of the exercises.
from .length_checksum import check_length_checksum
from .image_round_trip import check_image_round_trip
from .find_damage import check_find_damage
from .parse_sessions import check_parse_sessions

__all__ = ["check_length_checksum", "check_image_round_trip", "check_find_damage",
           "check_parse_sessions"]
