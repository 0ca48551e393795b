"""Check for exercise `ex-03-4`: find the bad lines of CSV files.

The check writes fresh files with seeded random contents to a temporary folder, hands their paths
to the learner's answer, and compares what comes back with what it wrote. The folder is deleted
afterwards.
"""

import os
import pathlib
import shutil
import tempfile

import numpy as np

from ... import io as fl_io
from ...errors import InvalidArgumentError
from .._common import call_answer, check, fail, listed_if_iterator, normalised_answer, passed, rng


def _write_with_bad_lines(directory, generator):
    """Shards of `id,score,label` lines, some broken; returns (paths, [(file, number, line)])."""
    paths, numbered = [], []
    breakers = [lambda f: [f[0], "", f[2]], lambda f: [f[0], "oops", f[2]],
                lambda f: f[:2], lambda f: f + ["extra"], lambda f: ["", f[1], f[2]],
                lambda f: [f[0], f[1], ""]]
    for shard in range(int(generator.integers(3, 6))):
        name = f"log-{shard:02d}.csv"
        lines = ["id,score,label"]
        for row in range(int(generator.integers(8, 20))):
            fields = [str(int(generator.integers(1000))), f"{generator.uniform(0, 1):.3f}",
                      str(generator.choice(["cat", "dog", "eel"]))]
            if generator.uniform() < 0.25:
                fields = breakers[int(generator.integers(len(breakers)))](fields)
            lines.append(",".join(fields))
            numbered.append((name, len(lines), lines[-1]))
        path = os.path.join(directory, name)
        with open(path, "w") as handle:
            handle.write("\n".join(lines) + "\n")
        paths.append(path)
    return paths, numbered


def _refused(numbered, record_defaults):
    """The (file, line number) of every line decode_csv refuses with these defaults."""
    bad = []
    for name, number, line in numbered:
        try:
            fl_io.decode_csv(line, record_defaults)
        except InvalidArgumentError:
            bad.append((name, number))
    return sorted(bad)


# The notebook's schema, then another (score optional, label required): an answer that
# ignores `record_defaults` and decodes with the schema it saw finds the wrong lines.
BAD_LINE_DEFAULTS = [np.array([], np.int64), np.array([], np.float32), ""]
OTHER_DEFAULTS = [np.array([], np.int64), 0.0, np.array([], object)]


@check("ex-03-4", hint="read each file on its own with its line numbers (the header is line "
                        "1), try decode_csv on every data line, and collect (file name, line) "
                        "for each InvalidArgumentError instead of stopping at the first",
       replayable=True)
def check_bad_lines(bad_lines):
    """ex-03-4: `bad_lines(filepaths, record_defaults)` lists every (file name, line) refused.

    >>> import os
    >>> import feedline as fl
    >>> def bad_lines(filepaths, record_defaults):
    ...     found = []
    ...     for path in filepaths:
    ...         with open(path) as handle:
    ...             for number, line in enumerate(handle.read().splitlines()[1:], start=2):
    ...                 try:
    ...                     fl.io.decode_csv(line, record_defaults)
    ...                 except fl.errors.InvalidArgumentError:
    ...                     found.append((os.path.basename(path), number))
    ...     return sorted(found)
    >>> check_bad_lines(bad_lines)
    ex-03-4 passed: every refused line found, named by file and line number
    """
    check_id = "ex-03-4"
    generator = rng(check_id)
    directory = tempfile.mkdtemp(prefix="feedline-ex-03-4-")
    try:
        paths, numbered = _write_with_bad_lines(directory, generator)
        lengths = {os.path.basename(path): len(pathlib.Path(path).read_text().splitlines())
                   for path in paths}
        # A generator of pairs, or a Path as a name, is not plain data: normalised here, the
        # grader judges the same list the kernel does.
        bad_lines = normalised_answer(bad_lines, _plain_pairs)
        answers = [call_answer(check_id, bad_lines, paths, defaults, want_dataset=False)
                   for defaults in (BAD_LINE_DEFAULTS, OTHER_DEFAULTS)]
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    for got, defaults in zip(answers, (BAD_LINE_DEFAULTS, OTHER_DEFAULTS)):
        _judge_bad_lines(check_id, got, _refused(numbered, defaults), lengths,
                         defaults is OTHER_DEFAULTS)
    passed(check_id, "every refused line found, named by file and line number")


def _plain_pairs(value):
    """`value` listed if it is an iterator, a path-like name in a pair as its string."""
    value = listed_if_iterator(value)
    if not isinstance(value, (list, tuple)):
        return value
    def plain(item):
        if not isinstance(item, (list, tuple)):
            return item
        parts = [os.fspath(part) if isinstance(part, os.PathLike) else part for part in item]
        return tuple(parts) if isinstance(item, tuple) else parts

    return [plain(item) for item in value]


def _judge_bad_lines(check_id, got, want, lengths, other_schema):
    try:
        pairs = [(os.path.basename(os.fsdecode(name)), int(line)) for name, line in got]
    except (TypeError, ValueError):
        fail(check_id, f"expected a list of (file name, line number) pairs, got {got!r}")
    got = sorted(pairs)
    if got == want:
        if pairs != got:
            fail(check_id, "the right lines, but not sorted", hint="return sorted(found)")
        return
    if other_schema:
        fail(check_id, "with record_defaults=[fl.int64, 0.0, fl.string] (score optional, "
                       f"label required) you gave {got}, expected {want}",
             hint="call decode_csv with the record_defaults argument, not the notebook's "
                  "schema")
    if want in (sorted((name, line + 1) for name, line in got),
                sorted((name, line - 1) for name, line in got)):
        fail(check_id, f"the line numbers are off by one: you gave {got[:3]}..., expected "
                       f"{want[:3]}...",
             hint="count lines from 1 and count the header: the first data line is line 2")
    if got and set(got) < set(want):
        fail(check_id, f"found {len(got)} of the {len(want)} bad lines: {got}; missing "
                       f"{sorted(set(want) - set(got))}",
             hint="catch the error of each line and go on; a missing required field, text in "
                  "a number column and a wrong number of fields all count")
    if any(name not in lengths or line > lengths[name] for name, line in got):
        fail(check_id, f"you gave {got}, expected {want}: some of your lines are past the end "
                       "of their file",
             hint="number the lines of each file separately: TextLineDataset(all files) runs "
                  "the files together")
    fail(check_id, f"you gave {got}, expected {want}")
