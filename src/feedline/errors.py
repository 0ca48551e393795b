"""Error classes named like TensorFlow's, so `except` clauses transfer unchanged."""


class OpError(Exception):
    """Base class of the errors a pipeline or a parser raises about its data."""


class InvalidArgumentError(OpError, ValueError):
    """An argument or a parsed value is not what the operation accepts."""


class DataLossError(OpError):
    """A record is corrupt or truncated (bad CRC, short read)."""


class OutOfRangeError(OpError, IndexError):
    """Reading past the end of a sequence or file."""


class NotFoundError(OpError, FileNotFoundError):
    """A file or pattern matched nothing."""
