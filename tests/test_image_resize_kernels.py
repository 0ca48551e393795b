"""`fl.image.resize` with the kernel methods (bicubic, lanczos3/5, gaussian, mitchellcubic).

Expected values in `keras3_files/jax_image_resize_cases.json` were recorded from
`jax.image.resize` 0.10 (run beside Keras 3.15 in a throwaway venv, never a dependency): its
`scale_and_translate` builds the same spans as TensorFlow's ScaleAndTranslate kernel, which
`tf.image.resize` runs for lanczos3/5 and for antialiased bicubic. Plain bicubic is
TensorFlow's ResizeBicubic kernel, which reads Keys' cubic from a 1/1024 table: equal to the
exact cubic where the sampling positions fall on that table, within 1e-3 of the range elsewhere.
"""

import json
import pathlib

import numpy as np
import pytest

import feedline as fl
from feedline.image import resize_kernels

CASES = json.loads((pathlib.Path(__file__).parent / "keras3_files" /
                    "jax_image_resize_cases.json").read_text())
IMAGE = (np.arange(20, dtype=np.float32).reshape(4, 5, 1) * 7) % 23  # the recorded input


def resized(method, height, width, antialias):
    return fl.image.resize(IMAGE, (height, width), method=method,
                           antialias=antialias).numpy()[..., 0]


@pytest.mark.parametrize("key", sorted(key for key in CASES if not key.startswith("bicubic")))
def test_lanczos_resizes_give_the_scale_and_translate_values(key):
    method, size, antialias = key.split("|")
    height, width = map(int, size.split("x"))
    got = resized(method, height, width, antialias == "True")
    np.testing.assert_allclose(got, CASES[key], atol=2e-5)


def test_antialiased_bicubic_is_the_exact_keys_cubic_span():
    for size in ("7x3", "2x8"):
        height, width = map(int, size.split("x"))
        np.testing.assert_allclose(resized("bicubic", height, width, True),
                                   CASES[f"bicubic|{size}|True"], atol=2e-5)


def test_plain_bicubic_reads_the_cubic_from_tensorflows_1024_point_table():
    # 4 -> 2 rows and 5 -> 8 columns sample at multiples of 1/16: on the table, so exact.
    np.testing.assert_allclose(resized("bicubic", 2, 8, False), CASES["bicubic|2x8|False"],
                               atol=2e-5)
    # 4 -> 7 rows samples between table points: close to the exact cubic, but not equal.
    difference = np.abs(resized("bicubic", 7, 3, False) - CASES["bicubic|7x3|False"])
    assert 0 < difference.max() <= 1e-3 * np.ptp(IMAGE)


def test_kernel_weights_sum_to_one_and_vanish_beyond_the_radius():
    for method, (_, radius) in resize_kernels.KERNELS.items():
        weights = resize_kernels.span_weights(6, 4, method)
        np.testing.assert_allclose(weights.sum(axis=1), 1, rtol=1e-6)
        centres = (np.arange(4) + 0.5) * 1.5
        reach = np.abs(np.arange(6)[None, :] + 0.5 - centres[:, None])
        assert not weights[reach > radius].any()


def test_antialias_widens_a_shrinking_kernel_only():
    narrow = resize_kernels.span_weights(12, 3, "lanczos3")
    wide = resize_kernels.span_weights(12, 3, "lanczos3", antialias=True)
    assert np.count_nonzero(wide) > np.count_nonzero(narrow)
    np.testing.assert_array_equal(resize_kernels.span_weights(3, 12, "lanczos3", True),
                                  resize_kernels.span_weights(3, 12, "lanczos3"))


@pytest.mark.parametrize("method", ["gaussian", "mitchellcubic"])
def test_smoothing_kernels_keep_a_constant_image_and_give_float32(method):
    image = np.full((5, 6, 2), 9, np.uint8)
    out = fl.image.resize(image, (3, 8), method=method)
    assert out.dtype == fl.float32 and out.shape == (3, 8, 2)
    np.testing.assert_allclose(out.numpy(), 9, rtol=1e-6)


def test_an_unknown_method_names_the_methods_there_are():
    with pytest.raises(ValueError, match="lanczos3"):
        fl.image.resize(IMAGE, (2, 2), method="cubic")
