"""The ex-05 checks accept the reference answers and reject plausible wrong ones."""

import re
import struct
import zlib

import crc32c
import numpy as np
import pytest

import feedline as fl
from feedline.checks import _replay, ex05
from feedline.data import TFRecordDataset
from checkkit import assert_same_verdict_when_replayed, blank, graded


def check_rejects(check, answers, match):
    with pytest.raises(AssertionError, match=match):
        check(*answers)


# -- ex-05-1: the masked CRC of a length --------------------------------------------------------

def rotate_right_15(crc):
    return ((crc >> 15) | (crc << 17)) & 0xFFFFFFFF


def length_checksum(n):
    return (rotate_right_15(crc32c.crc32c(struct.pack("<Q", n))) + 0xA282EAD8) & 0xFFFFFFFF


def test_length_checksum_accepts_the_masked_crc_of_eight_little_endian_bytes(capsys):
    ex05.check_length_checksum(length_checksum)
    assert capsys.readouterr().out == (
        "ex-05-1 passed: the masked CRC of the 8 length bytes matches the file format for 9 "
        "lengths\n")


def test_length_checksum_agrees_with_a_real_file():
    with open("minidata/digits/tfrecord/digits-00-of-02.tfrecord", "rb") as handle:
        n, stored = struct.unpack("<QI", handle.read(12))
    assert length_checksum(n) == stored


@pytest.mark.parametrize("wrong, match", [
    (lambda n: crc32c.crc32c(struct.pack("<Q", n)), "plain CRC32C .* not masked"),
    (lambda n: ((crc32c.crc32c(struct.pack("<Q", n)) >> 15)
                | (crc32c.crc32c(struct.pack("<Q", n)) << 17)) + 0xA282EAD8,
     "more than 32 bits"),
    (lambda n: rotate_right_15(crc32c.crc32c(struct.pack("<Q", n))) + 0xA282EAD8,
     "more than 32 bits"),
    (lambda n: (((crc32c.crc32c(struct.pack("<Q", n)) << 15)
                 | (crc32c.crc32c(struct.pack("<Q", n)) >> 17)) & 0xFFFFFFFF) + 0xA282EAD8
     & 0xFFFFFFFF, "rotated left"),
    (lambda n: (rotate_right_15(crc32c.crc32c(struct.pack(">Q", n))) + 0xA282EAD8)
     & 0xFFFFFFFF, "big-endian"),
    (lambda n: (rotate_right_15(crc32c.crc32c(struct.pack("<I", n))) + 0xA282EAD8)
     & 0xFFFFFFFF, "4 bytes"),
    (lambda n: (rotate_right_15(zlib.crc32(struct.pack("<Q", n))) + 0xA282EAD8) & 0xFFFFFFFF,
     "zlib's CRC32"),
    (lambda n: (rotate_right_15(crc32c.crc32c(str(n).encode())) + 0xA282EAD8) & 0xFFFFFFFF,
     "digits as text"),
    (lambda n: str(length_checksum(n)), "should be an int"),
    (lambda n: 496989126, "expected"),
    (blank, "NotImplementedError"),
])
def test_length_checksum_rejects(wrong, match):
    check_rejects(ex05.check_length_checksum, (wrong,), match)


# -- ex-05-2: an image round trip --------------------------------------------------------------

def features_bytes(feature):
    return fl.train.Example(features=fl.train.Features(feature=feature)).SerializeToString()


def bytes_feature(value):
    return fl.train.Feature(bytes_list=fl.train.BytesList(value=[value]))


def int_feature(value):
    return fl.train.Feature(int64_list=fl.train.Int64List(value=[int(value)]))


def to_example(image, label):
    return features_bytes({"image": bytes_feature(fl.io.encode_png(image)),
                           "label": int_feature(label)})


SPEC = {"image": fl.io.FixedLenFeature([], fl.string),
        "label": fl.io.FixedLenFeature([], fl.int64)}


def parse_digit(serialized):
    parsed = fl.io.parse_single_example(serialized, SPEC)
    return fl.io.decode_png(parsed["image"]), parsed["label"]


def test_image_round_trip_accepts_png_bytes_and_a_matching_spec(capsys):
    ex05.check_image_round_trip(to_example, parse_digit)
    ex05.check_image_round_trip(  # decode_image picks the PNG decoder from the bytes
        to_example, lambda s: (fl.io.decode_image(fl.io.parse_single_example(s, SPEC)["image"]),
                               fl.io.parse_single_example(s, SPEC)["label"]))
    assert capsys.readouterr().out.splitlines() == [
        "ex-05-2 passed: 5 fresh gray and colour images of new sizes came back pixel for "
        "pixel"] * 2


def raw_to_example(image, label):
    return features_bytes({"image": bytes_feature(image.tobytes()), "label": int_feature(label)})


def raw_parse(serialized):
    parsed = fl.io.parse_single_example(serialized, SPEC)
    return fl.io.decode_raw(parsed["image"], fl.uint8).reshape(8, 8, 1), parsed["label"]


def float_label_example(image, label):
    return features_bytes({"image": bytes_feature(fl.io.encode_png(image)), "label":
                           fl.train.Feature(float_list=fl.train.FloatList(value=[label]))})


@pytest.mark.parametrize("answers, match", [
    ((raw_to_example, raw_parse), "not a PNG file"),
    ((to_example, lambda s: (parse_digit(s)[0][:, :, 0], parse_digit(s)[1])),
     "the channel axis is missing"),
    ((to_example, lambda s: (fl.io.decode_png(fl.io.parse_single_example(s, SPEC)["image"],
                                              channels=3), parse_digit(s)[1])),
     "channels=0 keeps the file's channels"),
    ((to_example, lambda s: (parse_digit(s)[0].astype(np.float32) / 255, parse_digit(s)[1])),
     "expected the uint8 pixels back exactly"),
    ((lambda image, label: fl.train.Example.FromString(to_example(image, label)),
      parse_digit), "returned an Example message, not its bytes"),
    ((float_label_example, parse_digit), "'label' should be an int64_list"),
    ((lambda image, label: to_example(image, label + 1), parse_digit), "stored the label"),
    ((lambda image, label: features_bytes({"png": bytes_feature(fl.io.encode_png(image)),
                                           "label": int_feature(label)}), parse_digit),
     "should have the features 'image' and 'label'"),
    ((to_example, lambda s: parse_digit(s)[0]), "should return a pair"),
    ((blank, parse_digit), "NotImplementedError"),
    ((to_example, blank), "NotImplementedError"),
])
def test_image_round_trip_rejects(answers, match):
    check_rejects(ex05.check_image_round_trip, answers, match)


# -- ex-05-3: find the damage ------------------------------------------------------------------

def find_damage(path):
    good, offset = 0, 0
    try:
        for record in TFRecordDataset(path):
            good, offset = good + 1, offset + 16 + len(record)
    except fl.errors.DataLossError:
        pass
    return good, offset


def test_find_damage_accepts_counting_records_and_their_framing(capsys):
    ex05.check_find_damage(find_damage)
    assert capsys.readouterr().out == (
        "ex-05-3 passed: found the damaged record and its offset in 5 freshly damaged files\n")


def test_find_damage_accepts_a_walk_by_hand_with_the_crcs():
    def by_hand(path):
        data = open(path, "rb").read()
        good = position = 0
        while position < len(data):
            n, n_crc = struct.unpack_from("<QI", data, position)
            if length_checksum(n) != n_crc:
                break
            body = data[position + 12:position + 12 + n]
            (body_crc,) = struct.unpack_from("<I", data, position + 12 + n)
            if (rotate_right_15(crc32c.crc32c(body)) + 0xA282EAD8) & 0xFFFFFFFF != body_crc:
                break
            good, position = good + 1, position + 16 + n
        return good, position

    ex05.check_find_damage(by_hand)


def offset_from_the_message(path):
    good = 0
    try:
        for _ in TFRecordDataset(path):
            good += 1
    except fl.errors.DataLossError as error:
        return good, int(re.search(r"at (\d+)", str(error)).group(1))
    return good, sum(16 + len(r) for r in TFRecordDataset(path))


def data_bytes_only(path):
    good, offset = 0, 0
    try:
        for record in TFRecordDataset(path):
            good, offset = good + 1, offset + len(record)
    except fl.errors.DataLossError:
        pass
    return good, offset


def counts_the_damaged_one(path):
    good, offset = find_damage(path)
    return (good + 1, offset) if offset < len(open(path, "rb").read()) else (good, offset)


def never_catches(path):
    return len(list(TFRecordDataset(path))), 0


@pytest.mark.parametrize("wrong, match", [
    (offset_from_the_message, "where the damaged record's data starts"),
    (data_bytes_only, "16 bytes of framing"),
    (counts_the_damaged_one, "the count includes the damaged record"),
    (never_catches, "DataLossError"),
    (lambda path: find_damage(path)[0], "should return a pair"),
    (blank, "NotImplementedError"),
])
def test_find_damage_rejects(wrong, match):
    check_rejects(ex05.check_find_damage, (wrong,), match)


def test_find_damage_leaves_no_file_behind(tmp_path, monkeypatch):
    monkeypatch.setattr(ex05.find_damage.tempfile, "tempdir", str(tmp_path))
    ex05.check_find_damage(find_damage)
    assert list(tmp_path.iterdir()) == []


# -- ex-05-4: a spec for variable-length and missing features ----------------------------------

def spec_with(clicks, country):
    return {"user": fl.io.FixedLenFeature([], fl.int64), "clicks": clicks, "country": country}


RIGHT_COUNTRY = fl.io.FixedLenFeature([], fl.string, default_value=b"??")


@pytest.mark.parametrize("clicks", [fl.io.RaggedFeature(fl.int64), fl.io.VarLenFeature(fl.int64)])
def test_parse_sessions_accepts_ragged_or_sparse_clicks(clicks, capsys):
    ex05.check_parse_sessions(lambda s: fl.io.parse_example(s, spec_with(clicks, RIGHT_COUNTRY)))
    assert capsys.readouterr().out == (
        "ex-05-4 passed: users dense, clicks of every length kept without padding, missing "
        "countries b'??'\n")


def densified(serialized):
    parsed = fl.io.parse_example(serialized, spec_with(fl.io.VarLenFeature(fl.int64),
                                                      RIGHT_COUNTRY))
    return {**parsed, "clicks": parsed["clicks"].to_dense()}


def one_at_a_time(serialized):
    parts = [fl.io.parse_single_example(s, spec_with(fl.io.VarLenFeature(fl.int64),
                                                     RIGHT_COUNTRY)) for s in serialized]
    return {key: [part[key] for part in parts] for key in ("user", "clicks", "country")}


@pytest.mark.parametrize("wrong, match", [
    (lambda s: fl.io.parse_example(s, spec_with(fl.io.FixedLenFeature([], fl.int64),
                                                RIGHT_COUNTRY)), "different numbers of clicks"),
    (lambda s: fl.io.parse_example(s, spec_with(fl.io.FixedLenFeature([3], fl.int64),
                                                RIGHT_COUNTRY)), "different numbers of clicks"),
    (lambda s: fl.io.parse_example(s, spec_with(fl.io.RaggedFeature(fl.int64),
                                                fl.io.FixedLenFeature([], fl.string))),
     "default_value=b'\\?\\?'"),
    (lambda s: fl.io.parse_example(s, spec_with(
        fl.io.RaggedFeature(fl.int64), fl.io.FixedLenFeature([], fl.string, default_value=b""))),
     "has no country, so 'country' should be b'\\?\\?'"),
    (lambda s: fl.io.parse_example(s, spec_with(fl.io.RaggedFeature(fl.int64),
                                                fl.io.VarLenFeature(fl.string))),
     "'country' should be a dense array"),
    (densified, "dense .* array: the padding zeros"),
    (one_at_a_time, "should be a dense array|SparseTensor or a RaggedTensor"),
    (lambda s: fl.io.parse_example(s, {"user": fl.io.FixedLenFeature([], fl.int64)}),
     "with the keys 'user', 'clicks' and 'country'"),
    (blank, "NotImplementedError"),
])
def test_parse_sessions_rejects(wrong, match):
    check_rejects(ex05.check_parse_sessions, (wrong,), match)


# -- replay: the grader gives the same verdict outside the kernel ------------------------------

CASES = [
    (ex05.check_length_checksum, (length_checksum,),
     (lambda n: crc32c.crc32c(struct.pack("<Q", n)),)),
    (ex05.check_image_round_trip, (to_example, parse_digit), (raw_to_example, raw_parse)),
    (ex05.check_find_damage, (find_damage,), (offset_from_the_message,)),
    (ex05.check_parse_sessions,
     (lambda s: fl.io.parse_example(s, spec_with(fl.io.RaggedFeature(fl.int64),
                                                 RIGHT_COUNTRY)),),
     (densified,)),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_tfrecord_checks_give_the_same_verdict_when_replayed(monkeypatch, case):
    check, right, wrong = CASES[case]
    assert_same_verdict_when_replayed(monkeypatch, check, right, wrong)


def test_a_record_for_another_seed_fails_in_the_grader(monkeypatch):
    _, observation = graded(monkeypatch, ex05.check_find_damage, find_damage, seed="aaaa")
    assert _replay.judge("ex-05-3", observation, "bbbb")[0] == "failed"
