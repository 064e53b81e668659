"""Reading ``git ls-tree -r -z`` as it streams, with caps on entries and bytes.

A tree is untrusted input: a repository of a few hundred kilobytes can hold millions of paths (one
subtree referenced ten times, ten levels deep). Its listing is therefore never held whole: records
are parsed from fixed-size chunks as git writes them, the caller filters each one at once, and the
listing stops with ``TreeTooLargeError`` as soon as it passes either cap.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from sextant.gitsource.errors import GitSourceError

DEFAULT_MAX_TREE_ENTRIES = 200_000
"""Entries (files, symlinks, submodules) one listing may hold; large monorepos stay well below."""
DEFAULT_MAX_TREE_BYTES = 64 * 1024 * 1024
"""Bytes of listing one tree may produce (about 100 bytes per entry: far above the entry cap)."""


class TreeTooLargeError(GitSourceError):
    """The tree has more entries or listing bytes than this run allows."""


@dataclass(frozen=True)
class TreeLimits:
    """How much of a tree one run may read."""

    max_entries: int = DEFAULT_MAX_TREE_ENTRIES
    """INDEX_MAX_TREE_ENTRIES: entries of the listing, every kind counted."""
    max_bytes: int = DEFAULT_MAX_TREE_BYTES
    """INDEX_MAX_TREE_BYTES: bytes of the listing."""

    def __post_init__(self) -> None:
        if self.max_entries < 1 or self.max_bytes < 1:
            raise ValueError("tree limits must be positive")


def tree_records(chunks: Iterable[bytes], limits: TreeLimits) -> Iterator[bytes]:
    """Split a ``-z`` listing into its NUL-terminated records while it is read.

    Args:
        chunks: The command's output in pieces of any size.
        limits: Caps on records and bytes.

    Returns:
        An iterator of records (without the NUL); memory holds one chunk and one partial record.

    Raises:
        TreeTooLargeError: Past ``limits.max_entries`` records or ``limits.max_bytes`` bytes.
    """
    carry = b""
    read = 0
    entries = 0
    for chunk in chunks:
        read += len(chunk)
        if read > limits.max_bytes:
            raise TreeTooLargeError(
                f"the tree's listing passed {limits.max_bytes:,} bytes (INDEX_MAX_TREE_BYTES); not read further"
            )
        records = (carry + chunk).split(b"\0")
        carry = records.pop()
        for record in records:
            if not record:
                continue
            entries += 1
            if entries > limits.max_entries:
                raise TreeTooLargeError(
                    f"the tree has more than {limits.max_entries:,} entries (INDEX_MAX_TREE_ENTRIES); not read further"
                )
            yield record
    if carry:
        raise GitSourceError("the tree listing ended in the middle of a record")
