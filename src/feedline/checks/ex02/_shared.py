"""What the checks of notebook 02 read from a learner's pipeline: its shuffle buffers."""

from .._common import pipeline_nodes


def _shuffle_buffers(dataset):
    """The buffer size of every shuffle in the pipeline."""
    return sorted(int(node._buffer_size) for node in pipeline_nodes(dataset)
                  if getattr(node, "_stage", None) == "shuffle")
