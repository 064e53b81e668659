"""Shared rules: doc vs code classification, the staleness gap, and which day a date names."""

from sextant.doc_rules.dates import DatedPayload, calendar_day, file_date, known_date, payload_date
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
    "DatedPayload",
    "age_phrase",
    "calendar_day",
    "chunk_kind",
    "file_date",
    "is_stale_doc",
    "known_date",
    "median_date",
    "months_older",
    "parse_iso_date",
    "payload_date",
]
