"""`Dataset.save` and `Dataset.load`: a dataset's elements in files, read back as a dataset.

The layout of a saved dataset at `path` (a directory):
- `shard-00000.tfrecord`, `shard-00001.tfrecord`, ...: TFRecord files (optionally GZIP or ZLIB
  compressed); each record is one element, serialized by `feedline.data.state.codec` (a JSON
  header with the structure, dtypes and shapes, then the raw bytes: no pickle);
- `DONE`: JSON with the format, the shard names, the element count, the compression and the
  element spec. It is written last, so a directory without it is an interrupted write.

The files are written in a temporary directory beside `path`, which is renamed to `path` only
once complete, so a crash never leaves a `path` that looks complete. Elements go to shard
`shard_func(element)` (default: all to shard 0); `load` reads the shards in index order, so by
default the elements come back in their original order, and its iterators can be checkpointed.
"""

import itertools
import json
import os
import shutil

import numpy as np

from ... import dtypes
from ...errors import DataLossError, NotFoundError
from ...io import TFRecordOptions, TFRecordWriter
from .. import structure
from ..dataset import Dataset
from ..spec import TensorSpec, spec_of, unknown_rank
from ..state import codec, protocol
from . import _call

FORMAT = "feedline-saved-dataset-1"
DONE = "DONE"
_COMPRESSIONS = {None: None, "": None, "NONE": None, "GZIP": "GZIP", "ZLIB": "ZLIB"}
_temporaries = itertools.count()


def check_compression(compression, what):
    """`None`, "GZIP" or "ZLIB" from what the caller wrote."""
    key = compression.upper() if isinstance(compression, str) else compression
    if key not in _COMPRESSIONS:
        raise ValueError(f"{what}: compression must be None, 'GZIP' or 'ZLIB', got "
                         f"{compression!r}")
    return _COMPRESSIONS[key]


def save(dataset, path, compression=None, shard_func=None, checkpoint_args=None):
    """Write every element of `dataset` under the directory `path` (see the module docstring).

    Raises:
        ValueError: for an unknown compression, a bad shard index, or `checkpoint_args`.
    """
    if checkpoint_args is not None:
        raise ValueError("Dataset.save: checkpoint_args is not supported by feedline; save "
                         "runs to the end in one go (an interrupted save leaves no dataset)")
    writer = Writer(os.fspath(path), check_compression(compression, "Dataset.save"), shard_func)
    upstream = dataset._iterator()
    try:
        for element in upstream:
            writer.write(element)
        writer.commit()
    finally:
        _call.close(upstream)
        writer.abandon()


class Writer:
    """Writes elements into shards in a temporary directory; `commit` writes `DONE` and moves
    the directory to `path`; `abandon` (after an incomplete write) deletes it."""

    def __init__(self, path, compression, shard_func, replace=True):
        self.path, self.compression, self.shard_func = path, compression, shard_func
        self.replace = replace
        parent = os.path.dirname(os.path.abspath(path))
        os.makedirs(parent, exist_ok=True)
        self.temporary = f"{os.path.abspath(path)}.tmp-{os.getpid()}-{next(_temporaries)}"
        os.makedirs(self.temporary)
        self.shards, self.count, self.spec, self.committed = {}, 0, None, False

    def write(self, element):
        index = 0 if self.shard_func is None else _shard_index(self.shard_func, element)
        shard = self.shards.get(index)
        if shard is None:
            name = os.path.join(self.temporary, f"shard-{index:05d}.tfrecord")
            shard = self.shards[index] = TFRecordWriter(
                name, TFRecordOptions(compression_type=self.compression))
        shard.write(codec.to_bytes(element))
        spec = spec_of(element)
        self.spec = spec if self.spec is None else structure.map_structure(
            TensorSpec.most_specific_common, self.spec, spec)
        self.count += 1

    def commit(self):
        """Finish: close the shards, write `DONE` last, move the directory into place.

        Returns:
            False when another writer completed `path` first (its files are kept).
        """
        for shard in self.shards.values():
            shard.close()
        done = {"format": FORMAT, "count": self.count, "compression": self.compression,
                "shards": [f"shard-{index:05d}.tfrecord" for index in sorted(self.shards)],
                "element_spec": spec_to_json(self.spec)}
        with open(os.path.join(self.temporary, DONE), "w", encoding="utf-8") as handle:
            json.dump(done, handle)
        if os.path.exists(self.path):
            if not self.replace:
                return False
            _remove_saved(self.path)
        os.rename(self.temporary, self.path)
        self.committed = True
        return True

    def abandon(self):
        """Delete the temporary directory unless it was committed."""
        if self.committed:
            return
        for shard in self.shards.values():
            shard.close()
        shutil.rmtree(self.temporary, ignore_errors=True)
        self.committed = True


def _shard_index(shard_func, element):
    index = _call.call(shard_func, element)
    try:
        index = int(np.asarray(index))
    except (TypeError, ValueError):
        raise ValueError(f"shard_func must return an integer shard index, got "
                         f"{index!r}") from None
    if index < 0:
        raise ValueError(f"shard_func returned the negative shard index {index}")
    return index


def _remove_saved(path):
    """Remove an earlier saved dataset at `path`, refusing anything else."""
    names = set(os.listdir(path)) if os.path.isdir(path) else None
    if names is None or not all(name == DONE or name.startswith("shard-") for name in names):
        raise FileExistsError(f"{path} exists and is not a dataset written by Dataset.save; "
                              "choose another path or remove it")
    shutil.rmtree(path)


def read_done(path, what="Dataset.load"):
    """The `DONE` record of the saved dataset at `path`.

    Raises:
        NotFoundError: when `path` does not exist.
        DataLossError: when the write into `path` never completed.
    """
    if not os.path.isdir(path):
        raise NotFoundError(f"{what}: no saved dataset at {path}")
    try:
        with open(os.path.join(path, DONE), encoding="utf-8") as handle:
            done = json.load(handle)
    except FileNotFoundError:
        raise DataLossError(f"{what}: {path} has no {DONE} marker, so writing it never "
                            "completed; save the dataset again") from None
    if done.get("format") != FORMAT:
        raise DataLossError(f"{what}: {path}/{DONE} is not a feedline saved dataset")
    return done


def load(path, element_spec=None, compression=None, reader_func=None):
    """The dataset saved at `path` (see the module docstring)."""
    return LoadDataset(os.fspath(path), element_spec, compression, reader_func)


def _decode(record):
    return codec.from_bytes(record)


class _ShardDatasets(Dataset):
    """A dataset whose elements are the shards' datasets: what a `reader_func` receives."""

    _stage = "load_shards"

    def __init__(self, shards):
        self._shards = shards

    def _make_iterator(self):
        return iter(self._shards)

    def _cardinality(self):
        return len(self._shards)


class LoadDataset(Dataset):
    _stage = "load"

    def __init__(self, path, element_spec=None, compression=None, reader_func=None):
        done = read_done(path)
        stored = done["compression"]
        if compression is not None and check_compression(compression, "Dataset.load") != stored:
            raise ValueError(f"Dataset.load: {path} was saved with compression {stored!r}, not "
                             f"{compression!r}; leave compression=None to use the saved one")
        files = [os.path.join(path, name) for name in done["shards"]]
        if reader_func is None:
            from .tfrecord import TFRecordDataset

            self._reader = TFRecordDataset(files, compression_type=stored).map(_decode)
        else:
            from .tfrecord import TFRecordDataset

            shards = [TFRecordDataset(name, compression_type=stored).map(_decode)
                      for name in files]
            self._reader = reader_func(_ShardDatasets(shards))
            if not isinstance(self._reader, Dataset):
                raise TypeError(f"reader_func must return a Dataset, got "
                                f"{type(self._reader).__name__}")
        self._inputs = (self._reader,)
        self._path, self._count = path, int(done["count"])
        self._spec = element_spec if element_spec is not None else spec_from_json(
            done["element_spec"])

    def _make_iterator(self):
        return self._reader._iterator()

    def _restore_iterator(self, state, skip):
        return protocol.restore(self._reader, dict(state, stage=self._reader._stage), skip)

    def _cardinality(self):
        return self._count

    def _element_spec(self):
        if self._spec is None:
            raise ValueError(f"Dataset.load: {self._path} holds no elements, so its "
                             "element_spec is unknown; pass element_spec=")
        return self._spec


def spec_to_json(spec):
    """A spec structure as JSON-ready data (None for no spec)."""
    if spec is None:
        return None
    if isinstance(spec, dict):
        return {"dict": [[key, spec_to_json(value)] for key, value in spec.items()]}
    if isinstance(spec, tuple):
        return {"tuple": [spec_to_json(item) for item in spec]}
    dtype = "string" if spec.dtype == dtypes.string else spec.dtype.str
    return {"shape": None if unknown_rank(spec.shape) else list(spec.shape), "dtype": dtype}


def spec_from_json(data):
    """The spec structure `spec_to_json` described."""
    if data is None:
        return None
    if "dict" in data:
        return {key: spec_from_json(value) for key, value in data["dict"]}
    if "tuple" in data:
        return tuple(spec_from_json(item) for item in data["tuple"])
    return TensorSpec(data["shape"], data["dtype"])
