"""The line `sextant show` prints before a stored analysis or summary: which run wrote it, when, and at what commit.

The text itself says what it read (its Provenance section); what it cannot say is where it sits in
the stream: written when, by which run, and whether it is the run's first word on the doc claims or
the revision judged once the history was fetched. A reader of a stored output needs both.
"""

from __future__ import annotations

from sextant.contracts import AnalysisCompleted, SummaryCompleted


def origin_line(output: AnalysisCompleted | SummaryCompleted) -> str:
    """One line on where a stored output comes from.

    Args:
        output: The repository's current analysis or summary, read from the stream.

    Returns:
        ``analysis of <key> at commit 0123456789ab, written 2026-12-04T18:56:18Z by run 472d9ea27b74``,
        then what a reader must know first: reused unchanged, a revision, or claims judged without the
        whole history (a revision may follow).
    """
    what = "analysis" if isinstance(output, AnalysisCompleted) else "summary"
    commit = f"commit {output.head_sha[:12]}" if output.head_sha else "an unknown commit"
    line = f"{what} of {output.repo.repo_key} at {commit}, written {output.occurred_at} by run {output.run_id[:12]}"
    if output.unchanged_since:
        line += f"; inputs unchanged, its text stands since {output.unchanged_since}"
    if not isinstance(output, AnalysisCompleted):
        return line
    if output.provenance.revision_of is not None:
        first = output.provenance.revision_of[:12]
        line += f"; it revises the run's first analysis ({first}): doc claims judged again with the history"
    elif output.provenance.doc_history_note:
        line += "; its doc claims were judged without the whole history (see Provenance): a revision may follow"
    return line
