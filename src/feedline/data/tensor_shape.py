"""`TensorShape`: a shape with TensorFlow's methods, and `TensorShape(None)`, whose rank is
unknown.

A known-rank shape is a tuple of sizes (`None` for an unknown size), so it compares equal to
the plain tuple NumPy code expects; an unknown-rank shape has no length at all, as in
TensorFlow.
"""


class TensorShape(tuple):
    """A known-rank shape: a tuple of sizes (`None` for any size) with TensorFlow's
    `TensorShape` methods. It compares equal to the plain tuple; `str` gives the tuple, `repr`
    TensorFlow's form.

    >>> shape = TensorShape([None, 3])
    >>> shape.as_list(), shape.rank, shape.is_fully_defined(), shape == (None, 3), shape
    ([None, 3], 2, False, True, TensorShape([None, 3]))
    >>> TensorShape([2, 3]).num_elements()
    6
    """

    __slots__ = ()

    def __new__(cls, dims=()):
        if dims is None or isinstance(dims, UnknownShape):
            return UNKNOWN_SHAPE  # TensorShape(None): the rank itself is unknown
        return super().__new__(cls, (None if size is None else int(size) for size in dims))

    @property
    def rank(self):
        return len(self)

    ndims = rank

    @property
    def dims(self):
        return list(self)

    def as_list(self):
        """The sizes as a list."""
        return list(self)

    def __getitem__(self, index):  # a slice of a shape is a shape, as in TensorFlow
        item = super().__getitem__(index)
        return TensorShape(item) if isinstance(index, slice) else item

    def is_fully_defined(self):
        """True when every size is known."""
        return None not in self

    def num_elements(self):
        """The number of elements, or None when a size is unknown."""
        if not self.is_fully_defined():
            return None
        count = 1
        for size in self:
            count *= size
        return count

    def is_compatible_with(self, other):
        """True when `other` has this rank and no known size differs."""
        other = tuple(other)
        return len(other) == len(self) and all(
            a is None or b is None or a == b for a, b in zip(self, other))

    def concatenate(self, other):
        other = TensorShape(other)
        if other.rank is None:
            return UNKNOWN_SHAPE
        return TensorShape(tuple(self) + tuple(other))

    def merge_with(self, other):
        """The shape with every size either shape knows.

        Raises:
            ValueError: when the shapes are not compatible.
        """
        other = TensorShape(other)
        if other.rank is None:
            return self
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        return TensorShape(a if a is not None else b for a, b in zip(self, other))

    def most_specific_compatible_shape(self, other):
        """The most specific shape both shapes are compatible with (a size both agree on,
        else None; unknown rank when the ranks differ)."""
        other = TensorShape(other)
        if other.rank is None or len(other) != len(self):
            return UNKNOWN_SHAPE
        return TensorShape(a if a == b else None for a, b in zip(self, other))

    def with_rank(self, rank):
        """This shape, checked to have `rank` dimensions.

        Raises:
            ValueError: for another rank.
        """
        if len(self) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")
        return self

    def assert_has_rank(self, rank):
        """Raise `ValueError` unless this shape has `rank` dimensions."""
        self.with_rank(rank)

    def __str__(self):
        return str(tuple(self))

    def __repr__(self):
        return f"TensorShape({list(self)})"


class UnknownShape(TensorShape):
    """`TensorShape(None)`: a shape whose rank is unknown. Like TensorFlow's, it has no length
    and no sizes to list, is compatible with every shape, and merges into the other shape.

    >>> shape = TensorShape(None)
    >>> shape, str(shape), shape.rank, shape.is_compatible_with([2, 3])
    (TensorShape(None), '<unknown>', None, True)
    >>> shape.merge_with([None, 3])
    TensorShape([None, 3])
    """

    __slots__ = ()

    def __new__(cls):
        return tuple.__new__(cls, ())

    @property
    def rank(self):
        return None

    ndims = rank

    @property
    def dims(self):
        return None

    def as_list(self):
        raise ValueError("as_list() is not defined on an unknown TensorShape")

    def __len__(self):
        raise ValueError("Cannot take the length of shape with unknown rank.")

    def __bool__(self):  # as TensorFlow's: an unknown shape is falsy (it has no dimensions)
        return False

    def __iter__(self):
        raise ValueError("Cannot iterate over a shape with unknown rank.")

    def __getitem__(self, index):
        return self if isinstance(index, slice) else None

    def __eq__(self, other):
        return isinstance(other, UnknownShape) or other is None

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(None)

    def is_fully_defined(self):
        return False

    def num_elements(self):
        return None

    def is_compatible_with(self, other):
        return True

    def concatenate(self, other):
        return self

    def merge_with(self, other):
        return TensorShape(other)

    def most_specific_compatible_shape(self, other):
        return self

    def with_rank(self, rank):
        return TensorShape([None] * rank)

    def assert_has_rank(self, rank):
        pass

    def __str__(self):
        return "<unknown>"

    def __repr__(self):
        return "TensorShape(None)"


UNKNOWN_SHAPE = UnknownShape()
