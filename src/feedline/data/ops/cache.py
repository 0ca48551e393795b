"""`Dataset.cache`: keep the elements of the first complete epoch and replay them afterwards.

`cache()` keeps them in memory (in this dataset object). `cache(filename)` writes them to
`<filename>.cache`, which later epochs and later runs (other processes) read instead of
recomputing. Guarantees:
- only a complete epoch becomes a cache: an iterator stopped early discards what it collected,
  and the next epoch recomputes (with a warning saying why);
- a file cache is written under a temporary name and renamed when complete, so a crash never
  leaves a file that reads as a complete cache;
- while one iterator writes `<filename>.cache`, a second writer (in this or another process)
  gets a clear error; the lock file of a writer that crashed is detected and replaced.
The file holds pickled elements: read only caches you wrote.
"""

import os
import pickle
import warnings

from ..dataset import UnaryDataset
from . import _call

_MAGIC = b"feedline-cache-1\n"
_locks_held = set()  # lock files that writers in this process hold


class CacheDataset(UnaryDataset):
    _stage = "cache"
    _same_spec = _same_cardinality = True

    def __init__(self, input_dataset, filename=""):
        super().__init__(input_dataset)
        self._filename = os.fspath(filename)
        self._memory = None
        self._discarded = False

    @property
    def cache_path(self):
        """The file a file cache is read from (None for a memory cache)."""
        return self._filename + ".cache" if self._filename else None

    def _make_iterator(self):
        if not self._filename:
            if self._memory is not None:
                return iter(self._memory)
            self._warn_if_recomputing()
            return self._fill(None)
        if os.path.exists(self.cache_path):
            return _read_file(self.cache_path)
        self._warn_if_recomputing()
        return self._fill(_Writer(self.cache_path))

    def _warn_if_recomputing(self):
        if self._discarded:
            self._discarded = False
            warnings.warn(
                "cache: an earlier iterator stopped before the end of the dataset, so its "
                "partial cache was discarded and this epoch recomputes the elements. Read a "
                "whole epoch once to fill the cache; to cache only the first k elements, "
                "write take(k).cache(), not cache().take(k).",
                stacklevel=4)

    def _fill(self, writer):
        upstream = self._input._iterator()
        elements, complete = [], False
        try:
            for element in upstream:
                if writer is None:
                    elements.append(element)
                else:
                    writer.write(element)
                yield element
            if writer is None:
                self._memory = elements
            else:
                writer.commit()
            complete = True
        finally:
            _call.close(upstream)
            if not complete:
                self._discarded = True
                if writer is not None:
                    writer.abandon()



class _Writer:
    """Writes `<path>.tmp-<pid>` under the lock `<path>.lock`, renamed to `path` on commit."""

    def __init__(self, path):
        self.path, self.lock = path, path + ".lock"
        self.temporary = f"{path}.tmp-{os.getpid()}"
        _acquire(self.lock)
        try:
            self.file = open(self.temporary, "wb")
            self.file.write(_MAGIC)
        except BaseException:
            _release(self.lock)
            raise
        self.count = 0

    def write(self, element):
        pickle.dump(element, self.file, protocol=pickle.HIGHEST_PROTOCOL)
        self.count += 1

    def commit(self):
        pickle.dump(_End(self.count), self.file, protocol=pickle.HIGHEST_PROTOCOL)
        self.file.close()
        os.replace(self.temporary, self.path)
        _release(self.lock)

    def abandon(self):
        self.file.close()
        try:
            os.remove(self.temporary)
        except FileNotFoundError:
            pass
        _release(self.lock)


class _End:
    def __init__(self, count):
        self.count = count


def _acquire(lock):
    for _ in range(2):
        try:
            descriptor = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            if _is_stale(lock):
                _remove(lock)
                continue
            raise RuntimeError(
                f"cache: another iterator is already writing the cache file {lock[:-5]!r} "
                f"(lock file {lock!r}). Only one iterator may fill a cache: finish or close "
                "the first one, or give each pipeline its own cache filename.") from None
        with os.fdopen(descriptor, "w") as handle:
            handle.write(str(os.getpid()))
        _locks_held.add(lock)
        return
    raise RuntimeError(f"cache: could not take the lock file {lock!r}")


def _is_stale(lock):
    """True when the process that wrote `lock` no longer runs (it crashed mid-write)."""
    try:
        with open(lock) as handle:
            pid = int(handle.read().strip() or 0)
    except (OSError, ValueError):
        return False
    if pid == os.getpid():
        return lock not in _locks_held
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def _release(lock):
    _locks_held.discard(lock)
    _remove(lock)


def _remove(path):
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def _read_file(path):
    from ...errors import DataLossError

    with open(path, "rb") as handle:
        if handle.read(len(_MAGIC)) != _MAGIC:
            raise DataLossError(f"{path} is not a feedline cache file")
        count = 0
        while True:
            try:
                element = pickle.load(handle)
            except EOFError:
                raise DataLossError(f"cache file {path} is truncated after {count} "
                                    "elements; delete it to recompute") from None
            if type(element) is _End:
                return
            count += 1
            yield element
