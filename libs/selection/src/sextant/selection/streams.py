"""The order in which chunks of one kind are offered: seed files, then a round-robin over
top-level directories, newest files first within each directory."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from itertools import chain, islice

from sextant.selection.inventory import ChunkKey, FileChunks

Offer = tuple[FileChunks, ChunkKey]

RecencyKey = tuple[int, float, str]


def recency_key(entry: FileChunks) -> RecencyKey:
    """Newest file first, undated files after every dated one, then by path.

    Args:
        entry: A file of the inventory.

    Returns:
        A sort key.
    """
    if entry.newest is None:
        return (1, 0.0, entry.path)
    return (0, -entry.newest, entry.path)


def offer_order(files: Iterable[FileChunks], start: int, stop: int | None) -> Iterator[Offer]:
    """Offer each file's kept chunks [start:stop] in selection order.

    Seed files come first, taking turns chunk by chunk (every seed's first chunk before any second
    one), README before manifest. The other files are grouped by top-level directory (root files
    are one group); groups take turns one chunk at a time, the group holding the newest file first;
    inside a group files go newest first and each file's chunks stay together in in-file order.

    Args:
        files: The files of one kind.
        start: First kept index to offer (0, or MAX_CHUNKS_PER_FILE for the overflow past the cap).
        stop: End of the kept slice (MAX_CHUNKS_PER_FILE, or None for all of it).

    Returns:
        An iterator of (file, chunk) offers.
    """
    seeds: list[FileChunks] = []
    buckets: defaultdict[str, list[FileChunks]] = defaultdict(list)
    for entry in files:
        if entry.seed_rank is not None:
            seeds.append(entry)
        else:
            buckets[entry.bucket].append(entry)
    seeds.sort(key=lambda entry: (entry.seed_rank or 0, len(entry.path), entry.path))
    for members in buckets.values():
        members.sort(key=recency_key)
    ordered = sorted(buckets.items(), key=lambda item: (recency_key(item[1][0])[:2], item[0]))
    seed_offers = [[(entry, kept) for kept in entry.kept[start:stop]] for entry in seeds]
    bucket_offers = [
        chain.from_iterable([(entry, kept) for kept in entry.kept[start:stop]] for entry in members)
        for _, members in ordered
    ]
    return chain(take_turns(seed_offers), take_turns(bucket_offers))


def take_turns(sources: Iterable[Iterable[Offer]]) -> Iterator[Offer]:
    """Round-robin: one item from each source in turn until all are exhausted.

    Args:
        sources: The sources, in the order they take turns.

    Returns:
        An iterator over all items.
    """
    iterators = [iter(source) for source in sources]
    while iterators:
        alive = []
        for iterator in iterators:
            item = next(iterator, None)
            if item is not None:
                alive.append(iterator)
                yield item
        iterators = alive


def take(offers: Iterator[Offer], count: int) -> list[Offer]:
    """The next `count` offers (fewer when the iterator runs out).

    Args:
        offers: An offer iterator, advanced in place.
        count: How many to take; zero or less takes none.

    Returns:
        The offers taken.
    """
    return list(islice(offers, max(count, 0)))
