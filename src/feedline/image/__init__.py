"""`feedline.image`: the parts of `tf.image` that input pipelines use, in NumPy.

Images are arrays `[height, width, channels]`, or batches `[batch, height, width, channels]`.
Names, arguments, result dtypes and errors are TensorFlow's: `resize` gives float32 (except
"nearest"), `convert_image_dtype` scales between integer and float ranges, ops that only move
pixels keep the dtype. The codecs are those of `feedline.io`.

>>> import numpy as np
>>> import feedline as fl
>>> jpeg = fl.io.encode_jpeg(np.full((8, 8, 3), 255, np.uint8))
>>> image = fl.image.convert_image_dtype(fl.image.decode_jpeg(jpeg, channels=3), fl.float32)
>>> small = fl.image.resize(image, [4, 4])
>>> small.shape, small.dtype, float(small.max())
(TensorShape([4, 4, 3]), tf.float32, 1.0)
"""

from ..io.image import decode_image, decode_jpeg, decode_png
from ..io.image_encode import encode_jpeg, encode_png
from ..io.image_formats import (decode_and_crop_jpeg, decode_bmp, decode_gif,  # tf.image spells
                                extract_jpeg_shape, is_jpeg)  # them too
from .color import (adjust_brightness, adjust_contrast, grayscale_to_rgb,
                    per_image_standardization, rgb_to_grayscale)
from .convert import convert_image_dtype
from .crop import (central_crop, crop_to_bounding_box, pad_to_bounding_box,
                   resize_with_crop_or_pad)
from .flips import flip_left_right, flip_up_down, rot90, transpose
from .random_ops import (random_brightness, random_crop, random_flip_left_right,
                         random_flip_up_down, stateless_random_brightness,
                         stateless_random_crop, stateless_random_flip_left_right,
                         stateless_random_flip_up_down)
from .resize import ResizeMethod, resize
from .boxes import draw_bounding_boxes
from .color_adjust import adjust_gamma, adjust_hue, adjust_jpeg_quality, adjust_saturation
from .color_space import hsv_to_rgb, rgb_to_hsv, rgb_to_yuv, yuv_to_rgb
from .gradients import image_gradients, sobel_edges
from .nms import non_max_suppression, non_max_suppression_with_scores
from .patches import extract_patches
from .quality import psnr, ssim, total_variation
from .random_color import (random_contrast, random_hue, random_jpeg_quality, random_saturation,
                           stateless_random_contrast, stateless_random_hue,
                           stateless_random_jpeg_quality, stateless_random_saturation)
from .resize_pad import resize_with_pad
from .color_yiq import rgb_to_yiq, yiq_to_rgb
from .crop_resize import crop_and_resize
from .glimpse import extract_glimpse
from .ssim_multiscale import ssim_multiscale
from .distorted_box import sample_distorted_bounding_box, stateless_sample_distorted_bounding_box
from .nms_combined import combined_non_max_suppression
from .nms_padded import non_max_suppression_overlaps, non_max_suppression_padded

__all__ = ["decode_image", "decode_jpeg", "decode_png", "decode_and_crop_jpeg", "decode_bmp",
           "decode_gif", "extract_jpeg_shape", "is_jpeg", "encode_jpeg", "encode_png",
           "convert_image_dtype", "resize", "ResizeMethod", "flip_left_right", "flip_up_down",
           "rot90", "transpose", "central_crop", "crop_to_bounding_box", "pad_to_bounding_box",
           "resize_with_crop_or_pad", "per_image_standardization", "rgb_to_grayscale",
           "grayscale_to_rgb", "adjust_brightness", "adjust_contrast", "random_flip_left_right",
           "random_flip_up_down", "random_crop", "random_brightness",
           "stateless_random_flip_left_right", "stateless_random_flip_up_down",
           "stateless_random_crop", "stateless_random_brightness",
           "adjust_saturation", "adjust_hue", "adjust_gamma", "adjust_jpeg_quality",
           "rgb_to_hsv", "hsv_to_rgb", "rgb_to_yuv", "yuv_to_rgb", "random_contrast",
           "random_saturation", "random_hue", "random_jpeg_quality",
           "stateless_random_contrast", "stateless_random_saturation", "stateless_random_hue",
           "stateless_random_jpeg_quality", "resize_with_pad", "extract_patches",
           "total_variation", "psnr", "ssim", "sobel_edges", "image_gradients",
           "draw_bounding_boxes", "non_max_suppression", "non_max_suppression_with_scores",
           "rgb_to_yiq", "yiq_to_rgb", "crop_and_resize", "sample_distorted_bounding_box",
           "stateless_sample_distorted_bounding_box", "combined_non_max_suppression",
           "non_max_suppression_overlaps", "non_max_suppression_padded", "ssim_multiscale",
           "extract_glimpse"]
