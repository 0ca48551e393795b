"""fl.image.resize gives TensorFlow 2's results: half-pixel centres, clamped edges, float32.

Values below are worked out by hand from the rules on
https://www.tensorflow.org/api_docs/python/tf/image/resize and the kernels
(resize_bilinear with half_pixel_centers=True, resize_nearest_neighbor's floor of
(i + 0.5) * scale, resize_area's box average, scale_and_translate's triangle kernel).
"""

import numpy as np
import pytest

import feedline as fl
from feedline.errors import InvalidArgumentError


def gray(rows, dtype=np.float32):
    return np.array(rows, dtype=dtype)[:, :, None]


def test_bilinear_2x2_to_4x4_uses_half_pixel_centres_and_clamps_at_the_edges():
    """Output centres map to -0.25, 0.25, 0.75, 1.25: the outer ones clamp to the edge pixel."""
    out = fl.image.resize(gray([[0, 4], [8, 12]]), [4, 4])
    assert out.shape == (4, 4, 1) and out.dtype == np.float32
    assert out[..., 0].tolist() == [[0, 1, 3, 4], [2, 3, 5, 6], [6, 7, 9, 10], [8, 9, 11, 12]]


def test_bilinear_halving_averages_neighbouring_pairs():
    out = fl.image.resize(gray([[0, 2, 4, 6]]), [1, 2])
    assert out[..., 0].tolist() == [[1.0, 5.0]]


def test_bilinear_gives_float32_for_every_input_dtype():
    for image in (gray([[0, 255]], np.uint8), gray([[0, 1]], np.float64), [[[0], [1]]]):
        assert fl.image.resize(image, [2, 2]).dtype == np.float32


def test_nearest_keeps_the_dtype_and_picks_floor_of_the_scaled_centre():
    """Upscaling 2 -> 4 reads pixels 0, 0, 1, 1; downscaling 4 -> 2 reads 1 and 3."""
    up = fl.image.resize(gray([[10, 20]], np.uint8), [1, 4], method="nearest")
    down = fl.image.resize(gray([[10, 20, 30, 40]], np.uint8), [1, 2],
                           method=fl.image.ResizeMethod.NEAREST_NEIGHBOR)
    assert up.dtype == np.uint8 and up[..., 0].tolist() == [[10, 10, 20, 20]]
    assert down[..., 0].tolist() == [[20, 40]]


def test_area_averages_the_covered_fraction_of_each_pixel():
    """3 -> 2: each output box is 1.5 pixels wide: (a + b/2) / 1.5 and (b/2 + c) / 1.5."""
    out = fl.image.resize(gray([[0, 3, 6]]), [1, 2], method="area")
    np.testing.assert_allclose(out[..., 0], [[1.0, 5.0]], rtol=1e-6)
    assert out.dtype == np.float32


def test_antialias_widens_the_bilinear_filter_when_shrinking():
    """4 -> 2 with a triangle two pixels wide: weights 0.75, 0.75, 0.25 over 1.75."""
    image = gray([[0, 0, 7, 0]])
    plain = fl.image.resize(image, [1, 2])
    smooth = fl.image.resize(image, [1, 2], antialias=True)
    assert plain[..., 0].tolist() == [[0.0, 3.5]]
    np.testing.assert_allclose(smooth[..., 0], [[1.0, 3.0]], rtol=1e-6)


def test_a_batch_is_resized_image_by_image():
    batch = np.stack([gray([[0, 4], [8, 12]]), gray([[1, 1], [1, 1]])])
    out = fl.image.resize(batch, [4, 4])
    assert out.shape == (2, 4, 4, 1)
    np.testing.assert_array_equal(out[0], fl.image.resize(batch[0], [4, 4]))
    assert (out[1] == 1).all()


def test_preserve_aspect_ratio_fits_inside_the_size_without_distortion():
    assert fl.image.resize(np.zeros((10, 20, 3)), [8, 8], preserve_aspect_ratio=True).shape == \
        (4, 8, 3)
    assert fl.image.resize(np.zeros((10, 20, 3)), [100, 30],
                           preserve_aspect_ratio=True).shape == (15, 30, 3)


def test_images_must_be_3_or_4_dimensional():
    with pytest.raises(ValueError, match="'images' .* must have either 3 or 4 dimensions"):
        fl.image.resize(np.zeros((4, 4)), [2, 2])


@pytest.mark.parametrize("size", [[4], [4, 4, 4], [2.0, 2.0], "4x4"])
def test_size_must_be_two_ints(size):
    with pytest.raises(ValueError, match="'size' must be a 1-D int32 tensor of 2 elements"):
        fl.image.resize(np.zeros((4, 4, 1)), size)


def test_a_method_tensorflow_lacks_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown method='cubic'"):
        fl.image.resize(np.zeros((4, 4, 1)), [2, 2], method="cubic")


def test_a_zero_output_size_is_an_invalid_argument():
    with pytest.raises(InvalidArgumentError, match="output dimensions must be positive"):
        fl.image.resize(np.zeros((4, 4, 1)), [0, 2])
