"""select_analysis_chunks: doc-aware, recency-preferring selection."""

from sextant.selection.budget import (
    ANALYSIS_LIMIT,
    DEFAULT_PAGE_SIZE,
    DOC_SHARE,
    MAX_CHUNKS_PER_FILE,
    SUMMARY_LIMIT,
    doc_cap,
)
from sextant.selection.payload_source import PayloadSource
from sextant.selection.result import Reason, SelectedChunk, Selection
from sextant.selection.seeds import ROOT_MANIFEST_NAMES, ROOT_MANIFEST_SUFFIXES, seed_rank
from sextant.selection.select import select_analysis_chunks, select_for_limits, select_from_payloads

__all__ = [
    "ANALYSIS_LIMIT",
    "DEFAULT_PAGE_SIZE",
    "DOC_SHARE",
    "MAX_CHUNKS_PER_FILE",
    "ROOT_MANIFEST_NAMES",
    "ROOT_MANIFEST_SUFFIXES",
    "SUMMARY_LIMIT",
    "PayloadSource",
    "Reason",
    "SelectedChunk",
    "Selection",
    "doc_cap",
    "seed_rank",
    "select_analysis_chunks",
    "select_for_limits",
    "select_from_payloads",
]
