"""The model's analysis as published: unwrapped, with what it left out said out loud.

When the model omits the Documentation Accuracy section, the checked findings stand in for it; when
it stops at the output budget, a closing note says the text may end early. Nothing is dropped silently.
"""

from __future__ import annotations

from sextant.analyzer.config import AnalyzerSettings
from sextant.analyzer.evidence.gather import RepoEvidence
from sextant.analyzer.reading.answer_sections import missing_sections, split_sections, strip_outer_fence
from sextant.analyzer.report_shape.section_titles import DOC_ACCURACY
from sextant.analyzer.writing.doc_accuracy import documentation_accuracy
from sextant.llm import Completion

_BUDGET_STOPS = frozenset({"max_tokens", "length"})


def model_report(completion: Completion, evidence: RepoEvidence, settings: AnalyzerSettings) -> str:
    """The analysis Markdown built from a completion.

    Args:
        completion: The model's answer.
        evidence: Evidence, for the stand-in Documentation Accuracy section.
        settings: Listing limits and the output budget (quoted in the budget note).

    Returns:
        The Markdown.
    """
    markdown = strip_outer_fence(completion.text)
    missing = missing_sections(split_sections(markdown))
    notes = []
    if DOC_ACCURACY in missing:
        markdown += (
            f"\n\n## {DOC_ACCURACY}\n\n_The model did not write this section; these are the doc-claim "
            f"findings Sextant checked against the code._\n\n"
            + documentation_accuracy(evidence, settings.claims_in_report)
        )
        missing.remove(DOC_ACCURACY)
    if missing:
        notes.append(f"The model did not write these sections: {', '.join(missing)}.")
    if completion.stop_reason in _BUDGET_STOPS:
        notes.append(
            f"The model stopped at the output budget ({settings.analysis_max_tokens} tokens); "
            "the text may end early (raise ANALYSIS_MAX_TOKENS)."
        )
    if notes:
        markdown += "\n\n---\n\n" + "\n".join(f"_{note}_" for note in notes)
    return markdown + "\n"
