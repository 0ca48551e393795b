"""The one compiled piece: `feedline.io._walk`, TFRecord CRCs and slicing in C (see its source).

It is optional: where it cannot be built (no C compiler), pip installs feedline without it and
`feedline.io.batch_walk` walks the records in Python, with the same results and errors.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("feedline.io._walk", ["src/feedline/io/_walk.c"], optional=True)])
