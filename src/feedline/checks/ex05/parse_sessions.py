"""Check for exercise `ex-05-4`: parse a batch of sessions with fixed and variable-length
features.
"""

import numpy as np

from ... import train
from ...io import RaggedTensor, SparseTensor
from .._common import CheckFailed, call_answer, check, fail, passed, rng


MISSING_COUNTRY = b"??"
_COUNTRIES = (b"fr", b"de", b"jp", b"br", b"ke", b"ca", b"in", b"nz")


def _fresh_sessions(generator):
    """Serialized Examples: `user` always, `clicks` of any length, `country` sometimes."""
    size = int(generator.integers(6, 11))
    users, clicks, countries, serialized = [], [], [], []
    for number in range(size):
        user = int(generator.integers(1000, 99999))
        # The first two records always differ in length, and one record has no clicks.
        count = 0 if number == 2 else int(generator.integers(1, 7)) if number else 7
        items = [int(x) for x in generator.integers(1, 500, size=count)]
        country = (None if number in (1, 4) or generator.random() < 0.2
                   else _COUNTRIES[int(generator.integers(0, len(_COUNTRIES)))])
        feature = {"user": train.Feature(int64_list=train.Int64List(value=[user])),
                   "clicks": train.Feature(int64_list=train.Int64List(value=items))}
        if country is not None:
            feature["country"] = train.Feature(bytes_list=train.BytesList(value=[country]))
        example = train.Example(features=train.Features(feature=feature))
        serialized.append(example.SerializeToString())
        users.append(user)
        clicks.append(items)
        countries.append(MISSING_COUNTRY if country is None else country)
    return np.array(serialized, dtype=object), users, clicks, countries


def _plain(value):
    """A parsed value as plain data the grader can replay: arrays as they are, sparse and
    ragged tensors as a tagged dict of their parts."""
    if isinstance(value, RaggedTensor):
        return {"ragged": [np.asarray(row).tolist() for row in value.to_list()]}
    if isinstance(value, SparseTensor):
        return {"sparse": (np.asarray(value.indices), np.asarray(value.values),
                           np.asarray(value.dense_shape))}
    if isinstance(value, (np.ndarray, np.generic, int, float, bytes)):
        return {"array": np.asarray(value)}
    if isinstance(value, (list, tuple)):
        return {"other": f"a {type(value).__name__}"}
    return {"other": type(value).__name__}


def _plain_result(parse_batch):
    """`parse_batch` with its result turned into plain data inside the answer's call."""
    def run(serialized):
        result = parse_batch(serialized)
        if isinstance(result, dict):
            return {key: _plain(value) for key, value in result.items()}
        return result

    run.__name__ = getattr(parse_batch, "__name__", "parse_batch")
    return run


def _rows(check_id, plain, size):
    """The clicks of each record from a ragged or sparse plain value, or a failure."""
    if "ragged" in plain:
        return plain["ragged"]
    if "sparse" in plain:
        indices, values, dense_shape = plain["sparse"]
        rows = [[] for _ in range(size)]
        for (row, _), value in zip(np.asarray(indices).reshape(-1, 2).tolist(),
                                   np.asarray(values).tolist()):
            rows[row].append(value)
        return rows
    if "array" in plain and np.ndim(plain["array"]) == 2:
        fail(check_id, f"'clicks' came back as a dense {np.shape(plain['array'])} array: the "
                       "padding zeros look like real clicks on item 0",
             hint="keep the clicks variable-length: VarLenFeature (a SparseTensor) or "
                  "RaggedFeature (a RaggedTensor), without to_dense()")
    fail(check_id, f"'clicks' should be a SparseTensor or a RaggedTensor, got "
                   f"{plain.get('other') or 'an array of shape ' + str(np.shape(plain['array']))}",
         hint="VarLenFeature(fl.int64) or RaggedFeature(fl.int64) for a list of any length")


_SPEC_HINT = ("user: FixedLenFeature([], fl.int64); clicks: VarLenFeature(fl.int64) or "
              "RaggedFeature(fl.int64); country: FixedLenFeature([], fl.string, "
              "default_value=b'??'); one call to fl.io.parse_example on the whole batch")


@check("ex-05-4", hint=_SPEC_HINT, replayable=True)
def check_parse_sessions(parse_batch):
    """ex-05-4: `parse_batch(serialized)` parses a batch with variable and missing features.

    >>> import feedline as fl
    >>> spec = {"user": fl.io.FixedLenFeature([], fl.int64),
    ...         "clicks": fl.io.RaggedFeature(fl.int64),
    ...         "country": fl.io.FixedLenFeature([], fl.string, default_value=b"??")}
    >>> check_parse_sessions(lambda serialized: fl.io.parse_example(serialized, spec))
    ex-05-4 passed: users dense, clicks of every length kept without padding, missing countries b'??'
    """
    check_id = "ex-05-4"
    generator = rng(check_id)
    serialized, users, clicks, countries = _fresh_sessions(generator)
    size = len(users)
    try:
        result = call_answer(check_id, _plain_result(parse_batch), serialized,
                             want_dataset=False)
    except CheckFailed as failure:
        raise _explain_parse_error(failure) from None
    if not isinstance(result, dict) or set(result) != {"user", "clicks", "country"}:
        fail(check_id, "parse_batch should return the dict parse_example gives, with the keys "
                       f"'user', 'clicks' and 'country'; got "
                       f"{sorted(result) if isinstance(result, dict) else type(result).__name__}")
    for key in ("user", "country"):
        if "array" not in result[key] or np.shape(result[key]["array"]) != (size,):
            shape = (np.shape(result[key]["array"]) if "array" in result[key]
                     else next(iter(result[key])))
            fail(check_id, f"'{key}' should be a dense array of shape ({size},), one value per "
                           f"record, got {shape}",
                 hint=f"FixedLenFeature([], ...) for '{key}': exactly one value per record")
    if np.asarray(result["user"]["array"]).tolist() != users:
        fail(check_id, "'user' does not hold the records' user ids in order")
    rows = _rows(check_id, result["clicks"], size)
    if [list(map(int, row)) for row in rows] != clicks:
        fail(check_id, f"'clicks' gave {rows}, expected {clicks}")
    got_countries = [bytes(c) if not isinstance(c, bytes) else c
                     for c in np.asarray(result["country"]["array"]).tolist()]
    if got_countries != countries:
        wrong = next(i for i, (a, b) in enumerate(zip(got_countries, countries)) if a != b)
        fail(check_id, f"record {wrong} has no country, so 'country' should be "
                       f"{MISSING_COUNTRY!r}, got {got_countries[wrong]!r}"
             if countries[wrong] == MISSING_COUNTRY else
             f"'country' of record {wrong} is {got_countries[wrong]!r}, expected "
             f"{countries[wrong]!r}",
             hint="FixedLenFeature([], fl.string, default_value=b'??') fills the records "
                  "that lack the feature")
    passed(check_id, "users dense, clicks of every length kept without padding, missing "
                     "countries b'??'")


def _explain_parse_error(failure):
    """The learner's parse raised: say which part of the spec does not fit the records."""
    message = failure.message
    if "Key: clicks" in message or ("clicks" in message and "values" in message):
        failure.hint = ("records have different numbers of clicks, so a FixedLenFeature cannot "
                        "hold them: use VarLenFeature(fl.int64) or RaggedFeature(fl.int64)")
    elif "country" in message and "required" in message:
        failure.hint = ("some records have no country: give its FixedLenFeature a "
                        "default_value=b'??'")
    return failure
