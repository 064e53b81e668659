"""Pages whose title says they tell history: a design note of a past change, a dated page, release notes.

A page's title says what the page is about, whatever its file is called. "Router refactoring in
0.21", "The Big Instance Refactor" and "pytest-2.3: reasoning for fixture/funcarg evolution" are
notes of a change made at one time: they name the old design beside the new one, and the code is
right to have moved on from both. A title dated by month and year ("April 2015 is adopt-a-project
month") is a page of that time. A title that says the page is release notes, a "what's new" or an
upgrade guide makes it one, as the file name would.
"""

from __future__ import annotations

import re

_CHANGE_OF_DESIGN = re.compile(
    r"\b(?:refactor|refactoring|redesign|overhaul|reorgani[sz]ation|restructuring)\b"
    # "the rationale for X" alone may explain today's design; the rationale for a change is history.
    r"|\b(?:reasoning|rationale)\s+(?:for|behind)\b.*\b(?:evolution|changes?|move|switch)\b",
    re.I,
)
_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)"
)
_DATED = re.compile(r"\b" + _MONTH + r"\b[^.!?]{0,24}?\b(?:19|20)\d\d\b")
_RELEASE_PAGE = re.compile(
    r"\brelease notes\b|\bwhat'?s new\b|\bchange ?log\b"
    r"|\b(?:upgrade|upgrading|migration|migrating|porting)\s+(?:guide|notes|to|from)\b",
    re.I,
)


def title_tells_history(title: str) -> bool:
    """Whether a page's title says the page tells history rather than describing the code today.

    Args:
        title: The text of the page's first heading.

    Returns:
        True for a title naming a change of design (a refactor, a redesign, the reasoning for a
        change), one dated by month and year, and one of release notes or an upgrade guide.
    """
    stripped = title.strip("`*_\"' ")
    return (
        _CHANGE_OF_DESIGN.search(stripped) is not None
        or _DATED.search(stripped) is not None
        or _RELEASE_PAGE.search(stripped) is not None
    )
