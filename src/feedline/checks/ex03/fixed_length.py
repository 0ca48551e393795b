"""Check for exercise `ex-03-3`: read fixed-length binary records.

The check writes fresh files with seeded random contents to a temporary folder, hands their paths
to the learner's answer, and compares what comes back with what it wrote. The folder is deleted
afterwards.
"""

import os
import shutil
import tempfile

import numpy as np

from .._common import (call_answer, check, describe, fail, observe, passed, pipeline_nodes,
                       read_elements, rng)


HEADER_BYTES = 6
RECORD_BYTES = 2 + 3 * 4  # a uint16 sensor id, then 3 float32 readings; big-endian


def _write_readings(path, generator):
    count = int(generator.integers(7, 15))
    sensors = generator.integers(0, 60_000, size=count).astype(np.uint16)
    sensors[count // 2] |= 0x8000  # an id above 32767 tells uint16 from a signed int16
    values = np.round(generator.uniform(-100, 100, size=(count, 3)), 3).astype(np.float32)
    with open(path, "wb") as handle:
        handle.write(b"SNSR" + np.array([count], dtype=">u2").tobytes())
        for sensor, row in zip(sensors, values):
            handle.write(np.array([sensor], dtype=">u2").tobytes() + row.astype(">f4").tobytes())
    return sensors, values


@check("ex-03-3", hint="FixedLengthRecordDataset(path, record_bytes=14, header_bytes=6), then "
                        "map: decode_raw(record[:2], np.uint16, little_endian=False) and "
                        "decode_raw(record[2:], fl.float32, little_endian=False)",
       replayable=True)
def check_read_readings(read_readings):
    """ex-03-3: `read_readings(path)` gives {"sensor", "values"} for every record of the file.

    >>> import feedline as fl
    >>> from feedline.data import FixedLengthRecordDataset
    >>> def read_readings(path):
    ...     def decode(record):
    ...         return {"sensor": fl.io.decode_raw(record[:2], np.uint16, little_endian=False)[0],
    ...                 "values": fl.io.decode_raw(record[2:], fl.float32, little_endian=False)}
    ...     return FixedLengthRecordDataset(path, 14, header_bytes=6).map(decode)
    >>> check_read_readings(read_readings)
    ex-03-3 passed: every record read, sensor ids and big-endian readings decoded
    """
    check_id = "ex-03-3"
    generator = rng(check_id)
    directory = tempfile.mkdtemp(prefix="feedline-ex-03-3-")
    try:
        path = os.path.join(directory, "readings.bin")
        sensors, values = _write_readings(path, generator)
        dataset = call_answer(check_id, read_readings, path)
        stages = observe(check_id, "stages", lambda: [node._stage
                                                      for node in pipeline_nodes(dataset)])
        if "fixed_length_record" not in stages:
            fail(check_id, f"the dataset does not read the file (its stages: {stages}): the "
                           "records were loaded before the pipeline, so a file larger than "
                           "memory would not fit",
                 hint="FixedLengthRecordDataset(path, record_bytes=14, header_bytes=6) reads "
                      "the records one by one as the pipeline runs")
        got = []
        for element in read_elements(check_id, dataset):
            got.append(element)
            if len(got) > 2 * len(sensors) + 2:
                break
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    if len(got) != len(sensors):
        fail(check_id, f"the file holds {len(sensors)} records after its 6-byte header; your "
                       f"dataset gave {len(got)}" + (" or more" if len(got) > len(sensors)
                                                    else ""))
    for number, (element, sensor, row) in enumerate(zip(got, sensors, values)):
        if not isinstance(element, dict) or set(element) != {"sensor", "values"}:
            fail(check_id, f"record {number} came out as {describe(element)}; expected a dict "
                           "with the keys 'sensor' and 'values'")
        got_sensor = np.asarray(element["sensor"])
        got_values = np.asarray(element["values"])
        if got_values.shape != (3,) or got_values.dtype != np.float32:
            fail(check_id, f"record {number}: values is {describe(got_values)}; expected 3 "
                           "float32 numbers")
        if got_sensor.size == 1 and got_sensor.shape != ():
            fail(check_id, f"record {number}: sensor is an array of shape {got_sensor.shape}; "
                           "expected a scalar",
                 hint="decode_raw gives an array: take its element [0]")
        if got_sensor.size != 1 or int(got_sensor.reshape(())) != int(sensor):
            swapped = int(sensor.byteswap())
            fail(check_id, f"record {number}: sensor {got_sensor.tolist()}, expected "
                           f"{int(sensor)}",
                 hint="the file is big-endian: little_endian=False"
                 if got_sensor.size == 1 and int(got_sensor.reshape(())) == swapped else
                 "the id is unsigned (up to 65535): np.uint16, not np.int16"
                 if got_sensor.size == 1 and int(got_sensor.reshape(())) == int(sensor) - 65536
                 else None)
        if not np.array_equal(got_values, row):
            hint = ("the file is big-endian: little_endian=False"
                    if np.array_equal(got_values, row.byteswap()) else None)
            fail(check_id, f"record {number}: values {got_values.tolist()}, expected "
                           f"{row.tolist()}", hint=hint)
    passed(check_id, "every record read, sensor ids and big-endian readings decoded")
