"""A SparseTensor prints as TensorFlow prints one: each part as the eager tensor it is."""

import feedline as fl


def test_sparse_tensor_prints_its_parts_as_tensors():
    sparse = fl.SparseTensor(indices=[[0], [1]], values=[b"a@b.com", b"c@d.com"],
                             dense_shape=[2])
    assert repr(sparse) == (
        "SparseTensor(indices=tf.Tensor(\n[[0]\n [1]], shape=(2, 1), dtype=int64), "
        "values=tf.Tensor([b'a@b.com' b'c@d.com'], shape=(2,), dtype=string), "
        "dense_shape=tf.Tensor([2], shape=(1,), dtype=int64))")
