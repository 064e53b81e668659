"""The analysis context (docs/analysis.md, "Framing"): code first, then docs in a framed block.

Each excerpt is headed `// path (last modified 2026-05-28)` — the date only when known — and docs
that are stale by the shared rule carry the relative age note when the median code date is known.
Every excerpt's text is repository content, so it is fenced as untrusted data, with the secrets it
holds masked by the rules of its file's kind (a key committed by mistake does not go to the hosted
model); the heading's path is cleaned so that it cannot break the line it sits on or forge a fence
marker.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sextant.contracts import SelectedChunk
from sextant.doc_rules import age_phrase, calendar_day, payload_date
from sextant.llm import clean_untrusted_line, fence_untrusted
from sextant.secret_rules import redact_file_text
from sextant.telemetry import tracer

DOCS_BANNER = "--- Documentation excerpts (prose may be outdated; the code is the source of truth) ---"
"""The line that opens the documentation block, kept word for word (docs/analysis.md)."""
NO_DOCS_LINE = "(No documentation excerpts were selected.)"
"""Stands in the documentation block when the selection holds no doc, so the model can say so."""


@dataclass(frozen=True)
class FormattedContext:
    """The context text and what went into it (for span attributes and the prompt's intro line)."""

    text: str
    code_chunks: int
    doc_chunks: int
    stale_doc_chunks: int
    dated_chunks: int


def chunk_heading(chunk: SelectedChunk, median_code: str | None) -> str:
    """The `// path (last modified …)` line above one excerpt.

    Args:
        chunk: The excerpt.
        median_code: The repository's median code-file date, None when unknown.

    Returns:
        `// path` alone when the date is unknown; with the date otherwise; for a stale doc, with the
        age note too (`— 14 months older than typical code in this repo`).
    """
    heading = f"// {clean_untrusted_line(chunk.path)}"
    date = calendar_day(payload_date(chunk))
    if date is None:
        return heading
    phrase = age_phrase(chunk.last_modified_at, median_code) if chunk.kind == "doc" else None
    note = f"last modified {date}" + (f" — {phrase}" if phrase else "")
    return f"{heading} ({note})"


def _excerpt(chunk: SelectedChunk, median_code: str | None) -> str:
    label = f"{chunk.path}:{chunk.start_line}-{chunk.end_line}"
    # Masked again here: a selection from another publisher (or an older one) may not have been.
    text = redact_file_text(chunk.path, chunk.text)
    return f"{chunk_heading(chunk, median_code)}\n{fence_untrusted(label, text)}"


def format_context(chunks: Sequence[SelectedChunk], median_code: str | None) -> FormattedContext:
    """Lay out the selected chunks for the prompt: code excerpts, then the documentation block.

    Args:
        chunks: The selection, in the selector's order (kept within each kind).
        median_code: The repository's median code-file date, None when unknown.

    Returns:
        The context text and its counts.
    """
    code = [chunk for chunk in chunks if chunk.kind != "doc"]
    docs = [chunk for chunk in chunks if chunk.kind == "doc"]
    stale = sum(1 for chunk in docs if age_phrase(chunk.last_modified_at, median_code) is not None)
    with tracer(__name__).start_as_current_span(
        "analyzer.format_context",
        attributes={
            "sextant.code_chunks": len(code),
            "sextant.doc_chunks": len(docs),
            "sextant.stale_doc_chunks": stale,
            "sextant.median_code_known": median_code is not None,
        },
    ) as span:
        blocks = [_excerpt(chunk, median_code) for chunk in code]
        blocks.append(DOCS_BANNER)
        blocks.extend(_excerpt(chunk, median_code) for chunk in docs)
        if not docs:
            blocks.append(NO_DOCS_LINE)
        text = "\n\n".join(blocks) + "\n"
        span.set_attribute("sextant.context_chars", len(text))
    return FormattedContext(
        text=text,
        code_chunks=len(code),
        doc_chunks=len(docs),
        stale_doc_chunks=stale,
        dated_chunks=sum(1 for chunk in chunks if payload_date(chunk) is not None),
    )
