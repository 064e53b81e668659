"""How a file's diff drops a definition's name: in the form a parameter or a member is written.

A parameter is dropped where a parameter slot starts (`(name`, `, name:`, a signature line
`name=None,`), not `x = name` nor `theme.name`; a member where its `def` or its assignment starts.
A commit drops a name when its diff of the file removes the name in that form and adds none in it:
a deprecation that only stops using a parameter names nothing.
"""

from __future__ import annotations

import re
from functools import lru_cache

LOSSES = ("parameter", "member")
"""What a definition can lose."""


@lru_cache(maxsize=4096)
def lost_form(name: str, what: str) -> re.Pattern[str]:
    """The pattern of a diff line that writes `name` as a parameter or as a member.

    Args:
        name: The lost name.
        what: `parameter` or `member`.

    Returns:
        The compiled pattern.
    """
    word = re.escape(name)
    if what == "parameter":
        return re.compile(rf"(?:^[\s*]*|[(,]\s*\**){word}\s*(?:[:=,)]|$)")
    return re.compile(rf"(?:\b(?:def|function|func)\s+{word}\b|^\s*(?:self\.|this\.)?{word}\s*[:=(](?!=))")


def drops(pattern: re.Pattern[str], removed: list[str], added: list[str]) -> bool:
    """Whether a file's diff removes a line of the form and adds none.

    Args:
        pattern: A lost_form pattern.
        removed: The diff's removed lines.
        added: Its added lines.

    Returns:
        True when the diff drops the name in that form.
    """
    return any(pattern.search(line) for line in removed) and not any(pattern.search(line) for line in added)
