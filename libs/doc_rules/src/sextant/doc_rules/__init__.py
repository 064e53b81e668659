"""Shared rules: doc vs code classification and the staleness gap."""

from sextant.doc_rules.kinds import DOC_EXTENSIONS, ChunkKind, chunk_kind
from sextant.doc_rules.staleness import (
    STALE_DOC_GAP,
    CalendarMonths,
    age_phrase,
    is_stale_doc,
    median_date,
    months_older,
    parse_iso_date,
)

__all__ = [
    "DOC_EXTENSIONS",
    "STALE_DOC_GAP",
    "CalendarMonths",
    "ChunkKind",
    "age_phrase",
    "chunk_kind",
    "is_stale_doc",
    "median_date",
    "months_older",
    "parse_iso_date",
]
