"""A class and its bases, nearest first: the one walk every member look-up shares.

Bases are read from the declarations of the repository's own classes (`CodeFacts.class_bases`);
the walk is breadth-first, visits each name once (a cycle of same-named classes ends), and stops
after MAX_BASE_DEPTH generations, deeper than real hierarchies go.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

MAX_BASE_DEPTH = 6
"""Generations of bases a member look-up climbs."""


def class_ancestry(cls: str, class_bases: Mapping[str, tuple[str, ...]]) -> Iterator[str]:
    """The class's simple name, then its bases' generation by generation.

    Args:
        cls: A class's simple name.
        class_bases: Class name → the simple names of its bases.

    Yields:
        Each class name once, nearest first.
    """
    seen: set[str] = set()
    frontier = [cls]
    for _ in range(MAX_BASE_DEPTH):
        following: list[str] = []
        for name in frontier:
            if name in seen:
                continue
            seen.add(name)
            yield name
            following.extend(class_bases.get(name, ()))
        frontier = following
