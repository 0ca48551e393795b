"""Check for exercise `ex-16-1`: pick the reader that suits a format and a need."""

import itertools

from .._common import call_answer, check, fail, passed, rng


# Formats a reader can open at any record (an index of offsets exists or can be built) ...
RANDOM_ACCESS_FORMATS = ("array_record", "tfrecord")
# ... and formats that can only be read from the start.
STREAM_FORMATS = ("tfrecord_gzip", "csv_stream")
FORMATS = RANDOM_ACCESS_FORMATS + STREAM_FORMATS


def _best_reader(record_format, global_shuffle, exact_resume):
    if record_format in STREAM_FORMATS:
        return "dataset"
    return "random_access" if global_shuffle or exact_resume else "dataset"


@check("ex-16-1", hint="first ask whether the format can be read at record i without reading "
                        "the ones before; only then does a need for a global shuffle or an exact "
                        "resume call for the random-access loader",
       replayable=True)
def check_choose_reader(choose_reader):
    """ex-16-1: `choose_reader(record_format, global_shuffle, exact_resume)` picks the reader.

    >>> check_choose_reader(lambda fmt, shuffle, resume: "dataset"
    ...     if fmt in ("tfrecord_gzip", "csv_stream") or not (shuffle or resume)
    ...     else "random_access")
    ex-16-1 passed: the right reader for all 16 combinations of format and needs
    """
    check_id = "ex-16-1"
    cases = list(itertools.product(FORMATS, (False, True), (False, True)))
    rng(check_id).shuffle(cases)
    wrong = []
    for record_format, shuffle, resume in cases:
        got = call_answer(check_id, choose_reader, record_format, shuffle, resume,
                          want_dataset=False)
        if got not in ("dataset", "random_access"):
            fail(check_id, f"choose_reader({record_format!r}, {shuffle}, {resume}) returned "
                           f"{got!r}; return the string 'dataset' or 'random_access'")
        if got != _best_reader(record_format, shuffle, resume):
            wrong.append((record_format, shuffle, resume, got))
    if wrong:
        _explain_reader(check_id, wrong)
    passed(check_id, "the right reader for all 16 combinations of format and needs")


def _explain_reader(check_id, wrong):
    """Fail on the most basic mistake among the `wrong` choices."""
    def said(case):
        record_format, shuffle, resume, got = case
        want = _best_reader(record_format, shuffle, resume)
        return (f"choose_reader({record_format!r}, global_shuffle={shuffle}, "
                f"exact_resume={resume}) returned {got!r}, expected {want!r}")

    for case in wrong:
        if case[0] in STREAM_FORMATS:
            fail(check_id, said(case) + f": a {case[0]} can only be read from its start, so a "
                                        "loader cannot ask it for record i",
                 hint="GZIP-compressed TFRecord and CSV streams have no index of record "
                      "offsets: read them with a Dataset, whatever you need")
    for case in wrong:
        if case[3] == "dataset" and case[0] != "tfrecord":
            fail(check_id, said(case) + ": a stream cannot shuffle globally nor resume at an "
                                        "exact record; a format readable at random can")
    for case in wrong:
        if case[0] == "tfrecord" and case[3] == "dataset":
            fail(check_id, said(case) + ": an uncompressed TFRecord file can be read at random "
                                        "once an index of record offsets is built "
                                        "(TFRecordDataSource does that)")
    fail(check_id, said(wrong[0]) + ": with neither a global shuffle nor an exact resume "
                                    "needed, a Dataset reads the file in order, the simplest "
                                    "way",
         hint="the loader earns its place only when you need what a stream cannot do well")
