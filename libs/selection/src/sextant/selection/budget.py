"""How many chunks an analysis gets and how they are shared out: the constants, defined once."""

from __future__ import annotations

from fractions import Fraction
from typing import Final

ANALYSIS_LIMIT: Final = 80
"""Chunks behind a full analysis (the analyzer's 80)."""

SUMMARY_LIMIT: Final = 40
"""Chunks behind a summary (the summarizer's 40)."""

DOC_SHARE: Final = Fraction(1, 5)
"""Docs take at most this share of the limit (16 of 80, 8 of 40); an exact fraction, so no float
rounding decides whether a limit of 35 allows 6 or 7 docs."""

MAX_CHUNKS_PER_FILE: Final = 3
"""At most this many chunks of one file, so a long file cannot crowd out the rest of the repo."""

DEFAULT_PAGE_SIZE: Final = 256
"""Payloads per scroll page."""


def doc_cap(limit: int) -> int:
    """The number of doc chunks a selection of `limit` may hold while code is plentiful.

    Args:
        limit: The selection size asked for.

    Returns:
        floor(limit x DOC_SHARE): 16 for 80, 8 for 40, 0 below 5.
    """
    return limit * DOC_SHARE.numerator // DOC_SHARE.denominator
