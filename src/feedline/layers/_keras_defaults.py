"""Arguments Keras 3.15 writes into every config of a layer, which feedline accepts only at
their default: so a `.keras` file or a config from Keras loads, and a value feedline cannot
honour is refused by name instead of being ignored.

>>> refuse_quantization(None, "Dense")
>>> refuse_renorm(False, None, "BatchNormalization")
"""


def refuse_quantization(quantization_config, owner):
    """Accept `quantization_config=None` (Dense, Embedding).

    Raises:
        ValueError: for a `quantization_config` other than None.
    """
    if quantization_config is not None:
        raise ValueError(f"{owner}: quantized layers are not supported by feedline; load the "
                         "float model instead (quantization_config=None)")


def refuse_renorm(renorm, renorm_clipping, owner):
    """Accept `renorm=False` and `renorm_clipping=None` (BatchNormalization).

    Raises:
        ValueError: for batch renormalization, which feedline does not implement.
    """
    if renorm or renorm_clipping is not None:
        raise ValueError(f"{owner}: batch renormalization (renorm=True) is not supported by "
                         "feedline; use renorm=False")
