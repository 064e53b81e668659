"""Stale-doc framing of hits, by the same rule as review context: docs are measured against the retrieved code.

The median is taken over the code files among the hits (one date per file), exactly as the review
context does; a doc more than the shared staleness gap older than it is marked stale, never hidden —
a person searching asked for it. Every doc carries the review's documentation note; a hit without a
date is never called stale.
"""

from __future__ import annotations

from collections.abc import Sequence

from sextant.chunkstore import ChunkPayload
from sextant.doc_rules import calendar_day, is_stale_doc, median_date, months_older, payload_date


def retrieved_code_median(payloads: Sequence[ChunkPayload]) -> str | None:
    """Median date over the distinct code files among the hits.

    Args:
        payloads: Payloads of the hits.

    Returns:
        The median ISO date, or None when no code hit is dated.
    """
    dates = {p.path: payload_date(p) for p in payloads if p.kind == "code"}
    return median_date(dates.values())


def trust_note(payload: ChunkPayload, median: str | None, doc_note: str) -> tuple[bool, str]:
    """Whether a hit is a stale doc, and the note a reader sees beside it.

    Args:
        payload: The hit's payload.
        median: Median code date of the hits (see ``retrieved_code_median``).
        doc_note: The documentation framing the review context uses.

    Returns:
        (stale, note): "" for code; the doc note for a doc; the doc note and the gap for a stale doc.
    """
    if payload.kind != "doc":
        return False, ""
    date = payload_date(payload)
    if not is_stale_doc(date, median):
        return False, doc_note
    months = months_older(date, median)
    return True, f"{doc_note} stale: {months} months older than the retrieved code (median {calendar_day(median)})"
