"""Check for exercise `ex-12-4`: flip each image of a batch with its own random draw."""

import numpy as np

from .._common import call_answer, check, fail, passed, rng
from ._shared import _as_array, _short


def _images(generator, count, height, width):
    """Random images whose rows and columns all differ, so no flip leaves one unchanged."""
    return generator.permutation(count * height * width).reshape(count, height, width) / 10.0


def _kind_of(output, image, batch, index):
    """What the learner's output is, as seen from the input image."""
    if np.array_equal(output, image):
        return "kept"
    if np.array_equal(output, image[:, ::-1]):
        return "mirrored"
    if np.array_equal(output, image[::-1, :]):
        return "upside down"
    if any(np.array_equal(output, other) or np.array_equal(output, other[:, ::-1])
           for position, other in enumerate(batch) if position != index):
        return "another image"
    return "changed"


@check("ex-12-4", hint="draw one number per image with rng.random(len(images)), turn it into a "
                        "mask, and choose per image with np.where(mask[:, None, None], "
                        "images[:, :, ::-1], images)",
       replayable=True)
def check_random_flip_batch(random_flip_batch):
    """ex-12-4: `random_flip_batch(images, rng)` mirrors each image on its own draw.

    >>> def random_flip_batch(images, rng):
    ...     flip = rng.random(len(images)) < 0.5
    ...     return np.where(flip[:, None, None], images[:, :, ::-1], images)
    >>> check_random_flip_batch(random_flip_batch)
    ex-12-4 passed: each image mirrored on its own draw, about half of them, the same for the same seed
    """
    check_id = "ex-12-4"
    generator = rng(check_id)
    height, width = int(generator.integers(3, 6)), int(generator.integers(3, 6))
    seeds = [int(seed) for seed in generator.integers(0, 2**31, size=14)]
    sizes = [16] * 12 + [1, 3]  # twelve full batches, a batch of one, a short last batch
    patterns = []
    for seed, size in zip(seeds, sizes):
        images = _images(generator, size, height, width)
        first = _flips(check_id, random_flip_batch, images, seed)
        again = _flips(check_id, random_flip_batch, images, seed)
        if first != again:
            fail(check_id, f"two calls with a generator made from the same seed ({seed}) "
                           f"flipped {_pattern(first)} and then {_pattern(again)}; the "
                           "flips must come from `rng` only",
                 hint="draw from the `rng` argument (rng.random, rng.integers), not from "
                      "np.random or a generator of your own")
        patterns.append(first)
    full = patterns[:12]
    flipped = sum(sum(pattern) for pattern in full)
    total = sum(len(pattern) for pattern in full)
    if all(len(set(pattern)) == 1 for pattern in full):
        fail(check_id, f"in every batch of 16 all the images were flipped the same way "
                       f"({', '.join(_pattern(p) for p in full[:3])}, ...): one draw for the "
                       "whole batch",
             hint="draw len(images) numbers, one per image, and choose per image with a "
                  "mask")
    if len({tuple(pattern) for pattern in full}) == 1:
        fail(check_id, f"every generator, whatever its seed, gave the same flips "
                       f"({_pattern(full[0])}): the draws do not come from `rng`")
    # Independent draws give exactly 8 of 16 in a batch about one time in 5; in all twelve
    # batches, about once in 3e8 runs: that is a fixed half (rng.choice without replacement).
    if all(sum(pattern) == len(pattern) // 2 for pattern in full):
        fail(check_id, f"every batch of 16 had exactly 8 images mirrored "
                       f"({', '.join(_pattern(p) for p in full[:3])}, ...): a fixed half of "
                       "the batch was chosen, so the images' flips depend on each other",
             hint="one independent draw per image: rng.random(len(images)) < 0.5, not a "
                  "choice of half the positions")
    if not 0.3 <= flipped / total <= 0.7:
        fail(check_id, f"{flipped} of {total} images were mirrored; each should be mirrored "
                       "with probability 1/2, so about half of them",
             hint="mirror an image when its draw rng.random() is below 0.5")
    passed(check_id, "each image mirrored on its own draw, about half of them, the same for "
                     "the same seed")


def _flips(check_id, random_flip_batch, images, seed):
    """Call the answer with a fresh generator; a list of booleans, True where mirrored."""
    got = call_answer(check_id, random_flip_batch, images.copy(), np.random.default_rng(seed),
                      want_dataset=False)
    array = _as_array(check_id, got, "the result")
    if array.shape != images.shape:
        said = f"for {len(images)} images of shape {images.shape[1:]} expected shape " \
               f"{images.shape}, got {array.shape}"
        if len(images) > 1 and array.shape == images.shape[1:]:
            fail(check_id, said + ": the function handles one image, not a batch",
                 hint="the first axis is the batch: flip along the last axis, images[:, :, "
                      "::-1]")
        fail(check_id, said)
    flips = []
    for index, (output, image) in enumerate(zip(array, images)):
        kind = _kind_of(output, image, images, index)
        if kind == "upside down":
            fail(check_id, f"image {index} of {len(images)} was turned upside down (its rows "
                           "reversed); a mirror reverses the columns, the last axis",
                 hint="for a batch of shape (batch, height, width) the columns are axis 2: "
                      "images[:, :, ::-1]")
        if kind == "another image":
            fail(check_id, f"image {index} of {len(images)} came back as another image of the "
                           "batch: the flip reversed the batch axis (axis 0)",
                 hint="for a batch of shape (batch, height, width) the columns are axis 2: "
                      "images[:, :, ::-1]")
        if kind == "changed":
            fail(check_id, f"image {index} of {len(images)} came back as "
                           f"{_short(output)}, neither the image {_short(image)} nor its "
                           "mirror")
        flips.append(kind == "mirrored")
    return flips


def _pattern(flips):
    return "".join("M" if flip else "." for flip in flips)
