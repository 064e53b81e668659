"""What an analysis or summary stands on, as event fields and as its short closing section.

A Slack reader should see, under the text, which chunks were read (path, lines, kind, age), how
much of the context was documentation, which docs were framed as possibly outdated and why, how
many doc claims were checked, which model wrote it at what token cost, and that no dense vectors
were involved (selection is a payload scroll). See docs/analysis.md, "Provenance".
"""

from __future__ import annotations

from collections.abc import Sequence

from sextant.analyzer.report_shape.section_titles import PROVENANCE_HEADING
from sextant.analyzer.writing.markdown_text import code_span, listing, number, plural
from sextant.contracts import Provenance, ReadChunk, SelectedChunk, StaleDocFraming
from sextant.doc_claims import CheckTotals
from sextant.doc_rules import age_phrase, calendar_day, payload_date
from sextant.llm import Completion

PAYLOAD_SCROLL = "payload scroll"
"""How analyses and summaries find what they read: a scroll of payloads, no vector search."""
_CHUNKS_LISTED = 12


def read_chunks(chunks: Sequence[SelectedChunk]) -> list[ReadChunk]:
    """The provenance entry of every chunk, code first then docs (the prompt's order).

    Args:
        chunks: The selection.

    Returns:
        One ReadChunk per chunk.
    """
    ordered = [c for c in chunks if c.kind != "doc"] + [c for c in chunks if c.kind == "doc"]
    return [ReadChunk.of(c, payload_date(c)) for c in ordered]


def stale_doc_framings(chunks: Sequence[SelectedChunk], median_code: str | None) -> list[StaleDocFraming]:
    """The docs of the selection that the prompt framed as possibly outdated, one per doc file.

    Args:
        chunks: The selection.
        median_code: The median code-file date the framing used.

    Returns:
        One entry per stale doc, in selection order.
    """
    framed: dict[str, StaleDocFraming] = {}
    for chunk in chunks:
        if chunk.kind != "doc" or chunk.path in framed:
            continue
        phrase = age_phrase(chunk.last_modified_at, median_code)
        if phrase is None:
            continue
        reason = f"last modified {calendar_day(chunk.last_modified_at)}, {phrase} (median {calendar_day(median_code)})"
        framed[chunk.path] = StaleDocFraming(path=chunk.path, last_modified_at=chunk.last_modified_at, reason=reason)
    return list(framed.values())


def build_provenance(
    chunks: Sequence[SelectedChunk],
    median_code: str | None,
    *,
    completion: Completion | None,
    totals: CheckTotals | None = None,
    doc_history_note: str | None = None,
    revision_of: str | None = None,
) -> Provenance:
    """The structured provenance of one analysis or summary.

    Args:
        chunks: The selection the text was written from.
        median_code: The median code-file date.
        completion: The model's answer, or None for the evidence-only text.
        totals: The doc-claim totals (the analysis), or None (the summary).
        doc_history_note: Why the doc claims were judged without the whole history (None: with it).
        revision_of: The analysis this one revises once the run's history fetch ended, if any.

    Returns:
        The provenance.
    """
    read = read_chunks(chunks)
    docs = sum(1 for chunk in read if chunk.kind == "doc")
    by_status = (
        {
            "verified": totals.verified,
            "contradicted": totals.contradicted,
            "outdated": totals.outdated,
            "unverifiable": totals.unverifiable,
        }
        if totals is not None
        else {}
    )
    return Provenance(
        chunks=read,
        code_chunks=len(read) - docs,
        doc_chunks=docs,
        doc_share=round(docs / len(read), 3) if read else 0.0,
        stale_docs=stale_doc_framings(chunks, median_code),
        median_code=median_code,
        claims_checked=totals.claims if totals is not None else 0,
        claims_by_status=by_status,
        model=completion.model if completion else "none",
        provider=completion.provider if completion else "none",
        input_tokens=completion.input_tokens if completion else 0,
        output_tokens=completion.output_tokens if completion else 0,
        dense_vectors=False,
        search=PAYLOAD_SCROLL,
        doc_history_note=doc_history_note,
        revision_of=revision_of,
    )


def _chunk_line(chunk: ReadChunk) -> str:
    day = calendar_day(chunk.last_modified_at) or "age unknown"
    return f"{code_span(f'{chunk.path}:{chunk.start_line}-{chunk.end_line}')} ({chunk.kind}, {day})"


def provenance_section(provenance: Provenance, *, what: str = "analysis") -> str:
    """The closing section: a few lines a reader can check the text against.

    Args:
        provenance: The provenance.
        what: "analysis" or "summary", for the wording.

    Returns:
        Markdown, heading included, without a trailing newline.
    """
    p = provenance
    total = p.code_chunks + p.doc_chunks
    dense = "used" if p.dense_vectors else "not used"
    lines = [
        f"## {PROVENANCE_HEADING}",
        "",
        f"- Read: {plural(total, 'chunk')} ({number(p.code_chunks)} code, {number(p.doc_chunks)} documentation, "
        f"doc share {p.doc_share:.0%}), found by {p.search}; dense vectors {dense}.",
    ]
    if p.chunks:
        lines.append(f"- Chunks: {listing([_chunk_line(chunk) for chunk in p.chunks], _CHUNKS_LISTED)}.")
    median = calendar_day(p.median_code)
    if p.stale_docs:
        framed = [f"{code_span(d.path)} ({d.reason})" for d in p.stale_docs]
        lines.append(f"- Framed as possibly outdated: {listing(framed)}.")
    else:
        lines.append(
            "- No doc was framed as possibly outdated"
            + (f" (median code-file date {median})." if median else " (file dates unknown).")
        )
    if what == "analysis":
        counts = ", ".join(f"{n} {status}" for status, n in p.claims_by_status.items() if n)
        lines.append(f"- Doc claims checked: {number(p.claims_checked)}" + (f" ({counts})." if counts else "."))
        if p.revision_of is not None:
            # The note may be the fetch's limit or the history search's own budget: it is quoted, not
            # read as saying the fetch stopped short.
            history = (
                f"the history now fetched (history: {p.doc_history_note})"
                if p.doc_history_note
                else "the whole history, now fetched"
            )
            lines.append(
                f"- Revised: the doc claims were judged again with {history}; this replaces the run's first analysis."
            )
        elif p.doc_history_note:
            lines.append(f"- Doc history: {p.doc_history_note}.")
    if p.model == "none":
        lines.append(f"- Model: none; the {what} was computed from the index.")
    else:
        lines.append(
            f"- Model: {p.provider} {code_span(p.model)}, {number(p.input_tokens)} input and "
            f"{number(p.output_tokens)} output tokens."
        )
    return "\n".join(lines)
