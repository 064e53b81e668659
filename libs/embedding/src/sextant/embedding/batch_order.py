"""Length-sorted batching: texts of similar length share a batch, so little compute goes to padding."""

from __future__ import annotations

from collections.abc import Sequence


def length_sorted_batches(texts: Sequence[str], batch_size: int) -> list[list[int]]:
    """Group text positions into batches of similar length.

    Args:
        texts: The texts to embed.
        batch_size: Largest number of texts per batch (at least 1).

    Returns:
        Batches of indices into `texts`; every index appears exactly once. Callers write each
        result back to its index, so the caller's order is kept.
    """
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    order = sorted(range(len(texts)), key=lambda position: len(texts[position]))
    return [order[start : start + batch_size] for start in range(0, len(order), batch_size)]
