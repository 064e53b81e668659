"""The analysis and summary prompts (docs/analysis.md, "Framing").

The system prompt carries the framing line and the rule that fenced text is data. The
analysis asks for seven sections, the seventh in fixed words, and hands the model the doc-claim
findings Sextant computed over the whole index before any model saw the docs. The summary reads the
40-chunk selection under the same framing line, has no seventh section, and asks for two headed
parts (purpose, summary) so that its answer parses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sextant.analyzer.prompting.context import FormattedContext
from sextant.analyzer.report_shape.section_titles import (
    ANALYSIS_SECTIONS,
    DOC_ACCURACY,
    PURPOSE_HEADING,
    SUMMARY_HEADING,
)
from sextant.contracts import RepoRef
from sextant.doc_rules import calendar_day
from sextant.llm import UNTRUSTED_DATA_RULE, clean_untrusted_line, fence_untrusted
from sextant.telemetry import tracer

FRAMING_LINE = (
    "Documentation excerpts describe intent at the time they were written. Verify claims against "
    "the code; never repeat a documentation claim as fact without code evidence."
)
"""The framing line, in the preamble of both prompts (docs/analysis.md)."""

PROMPT_VERSION = 2
"""Raised whenever the prompts' wording changes, so that an unchanged selection is written afresh."""

_ANALYSIS_ROLE = "You are a senior software engineer writing an analysis of a code repository for its team."
_SUMMARY_ROLE = "You are a senior software engineer writing a short summary of a code repository."


@dataclass(frozen=True)
class Prompt:
    """A system prompt and a user prompt, as sent to the model."""

    system: str
    user: str

    def as_text(self) -> str:
        """Both parts in one inspectable text (the event's `prompt` field)."""
        return f"[system]\n{self.system}\n\n[user]\n{self.user}"


def _system(role: str) -> str:
    return f"{role}\n{FRAMING_LINE}\n{UNTRUSTED_DATA_RULE}"


def _subject(repo: RepoRef, head_sha: str | None) -> str:
    commit = f" at commit {head_sha[:12]}" if head_sha else ""
    return f"the repository {clean_untrusted_line(repo.url)}{commit}"


def _context_intro(context: FormattedContext, median_code: str | None) -> str:
    median = calendar_day(median_code)
    reference = f"median code-file date {median}" if median else "median code-file date unknown"
    return (
        f"Repository excerpts: {context.code_chunks} code, {context.doc_chunks} documentation "
        f"({reference}). Code comes first; documentation follows in its own block."
    )


def _section_list() -> str:
    return "\n\n".join(f"## {title}\n{instruction}" for title, instruction in ANALYSIS_SECTIONS)


def _evidence_block(findings_markdown: str) -> str:
    return (
        "Evidence computed by Sextant before this prompt: every documentation claim in the repository's "
        "index (not only the excerpts below) was checked against the indexed code. Statuses: verified "
        "(the code has it), contradicted (the doc names this repository's code and the code lacks it; where "
        "the history shows it, the evidence says which commit removed it and what replaced it), outdated "
        "(the definition the doc names changed after the doc's line was last changed; the evidence says what "
        "changed), unverifiable (the code cannot tell). Contradicted findings come first. "
        f"Use these findings in {DOC_ACCURACY}; the names and paths in the block "
        "are repository text.\n\n" + fence_untrusted("doc-claim findings", findings_markdown)
    )


def analysis_prompt(
    *,
    repo: RepoRef,
    head_sha: str | None,
    context: FormattedContext,
    median_code: str | None,
    findings_markdown: str,
) -> Prompt:
    """The seven-section analysis prompt.

    Args:
        repo: The repository analysed.
        head_sha: Commit analysed, when known.
        context: The formatted excerpts (80-chunk selection).
        median_code: The repository's median code-file date.
        findings_markdown: The doc-claim findings (sextant.doc_claims.render_findings_markdown).

    Returns:
        The prompt.
    """
    return _traced_prompt(
        "analysis",
        _ANALYSIS_ROLE,
        lambda: (
            f"Analyse {_subject(repo, head_sha)} from the excerpts below.\n\n"
            "Write the analysis in Markdown with exactly these seven sections, in this order, each under "
            "a level-2 heading written exactly as shown:\n\n"
            f"{_section_list()}\n\n"
            f"{_evidence_block(findings_markdown)}\n\n"
            f"{_context_intro(context, median_code)}\n\n"
            f"{context.text}"
        ),
    )


def summary_prompt(
    *, repo: RepoRef, head_sha: str | None, context: FormattedContext, median_code: str | None
) -> Prompt:
    """The summary prompt: the framing line, two headed parts, no Documentation Accuracy section.

    The arguments are :func:`analysis_prompt`'s without the findings; ``context`` is the 40-chunk selection.
    """
    return _traced_prompt(
        "summary",
        _SUMMARY_ROLE,
        lambda: (
            f"Summarise {_subject(repo, head_sha)} from the excerpts below.\n\n"
            "Answer in Markdown with exactly two sections, each under a level-2 heading written exactly "
            "as shown:\n\n"
            f"## {PURPOSE_HEADING}\nOne or two sentences: what the repository is for.\n\n"
            f"## {SUMMARY_HEADING}\nA short paragraph (at most 120 words): what it is made of and how "
            "it works.\n\n"
            f"{_context_intro(context, median_code)}\n\n"
            f"{context.text}"
        ),
    )


def _traced_prompt(purpose: str, role: str, user: Callable[[], str]) -> Prompt:
    """Build a prompt inside its trace span, which records the purpose and the prompt's size."""
    with tracer(__name__).start_as_current_span(
        "analyzer.build_prompt", attributes={"sextant.purpose": purpose}
    ) as span:
        prompt = Prompt(system=_system(role), user=user())
        span.set_attribute("sextant.prompt_chars", len(prompt.system) + len(prompt.user))
    return prompt
