"""One module per transformation; `feedline.data.Dataset` methods build these objects."""
