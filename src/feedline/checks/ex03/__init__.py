"""Checks of notebook 03, reading files: CSV defaults, a CSV reader, binary records, bad lines."""

# Importing the package registers every check of the notebook, in the order of the exercises.
from .weather_defaults import WEATHER_COLUMNS, check_weather_defaults
from .csv_reader import FEATURES, check_csv_reader_dataset
from .fixed_length import HEADER_BYTES, RECORD_BYTES, check_read_readings
from .bad_lines import BAD_LINE_DEFAULTS, OTHER_DEFAULTS, check_bad_lines

__all__ = ["check_weather_defaults", "check_csv_reader_dataset", "check_read_readings",
           "check_bad_lines", "WEATHER_COLUMNS", "FEATURES", "HEADER_BYTES", "RECORD_BYTES",
           "BAD_LINE_DEFAULTS", "OTHER_DEFAULTS"]
