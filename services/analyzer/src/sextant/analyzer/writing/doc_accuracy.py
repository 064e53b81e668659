"""The Documentation Accuracy section written from Sextant's own doc-claim findings and the docs' ages.

The offline report uses it as its seventh section; the model report uses it when the model left the
section out, so the checked findings are never lost.
"""

from __future__ import annotations

from sextant.analyzer.evidence.gather import RepoEvidence
from sextant.analyzer.writing.markdown_text import code_span, listing
from sextant.doc_claims import render_findings_markdown
from sextant.doc_rules import STALE_DOC_GAP, age_phrase, calendar_day

NO_DOCS_LINE = "No documentation was provided."
"""The seventh section when the repository has no docs (said in one line, as the prompt asks)."""


def documentation_accuracy(ev: RepoEvidence, limit: int) -> str:
    """The seventh section from the doc-claim findings and the docs' ages.

    Args:
        ev: The evidence.
        limit: Findings listed at most.

    Returns:
        The section's text (without its heading).
    """
    report = ev.doc_report
    if report.totals.docs == 0 and not report.skipped_docs:
        return NO_DOCS_LINE
    text = render_findings_markdown(report, limit).rstrip()
    median = calendar_day(ev.median_code)
    stale = [
        f"{code_span(d.doc)} (last modified {calendar_day(d.last_modified_at)} — {phrase})"
        for d in report.docs
        if (phrase := age_phrase(d.last_modified_at, ev.median_code))
    ]
    if stale:
        text += (
            f"\n\nDocs more than {STALE_DOC_GAP.count} months older than typical code (median code-file date "
            f"{median}): {listing(stale)}."
        )
    return text
