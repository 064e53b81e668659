"""The summary as one Markdown text: its two parts under their headings, then what it read."""

from __future__ import annotations

from sextant.analyzer.report_shape.section_titles import PURPOSE_HEADING, SUMMARY_HEADING


def summary_markdown(purpose: str, summary: str, provenance: str) -> str:
    """Purpose, summary and the closing provenance section.

    Args:
        purpose: What the repository is for.
        summary: The short summary.
        provenance: The closing section (`provenance_section`).

    Returns:
        The Markdown, ending in a newline.
    """
    return f"## {PURPOSE_HEADING}\n\n{purpose.strip()}\n\n## {SUMMARY_HEADING}\n\n{summary.strip()}\n\n{provenance}\n"
