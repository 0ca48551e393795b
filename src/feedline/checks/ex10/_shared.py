"""What the ex-10 checks that read a learner's pipeline share: explaining a wrong order."""


def _order_message(got, want, what):
    """Why `got` is not `want`: another order, or other elements."""
    if sorted(got) == sorted(want):
        return (f"the elements are right but their order is not: expected {want}, got {got}",
                "keep the default deterministic=True, so that the map hands out its results "
                "in the order of its input even when a later call finishes first")
    return (f"expected {what} {want}, got {got}", None)
