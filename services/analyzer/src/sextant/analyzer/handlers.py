"""On every ChunksSelected: write the analysis (AnalysisCompleted) or the summary (SummaryCompleted).

With a language model the prompt goes to it; without one — or when its call fails for good — the
same sections are written from evidence the analyzer computed over every chunk of the repository,
and the text says so on its first line. The prompt is assembled either way and kept in the event.
"""

from __future__ import annotations

import asyncio

import msgspec

from sextant.analyzer.config import AnalyzerSettings
from sextant.analyzer.evidence.gather import RepoEvidence, gather_evidence
from sextant.analyzer.prompting.context import format_context
from sextant.analyzer.prompting.prompts import Prompt, analysis_prompt, summary_prompt
from sextant.analyzer.reading.answer_sections import split_sections
from sextant.analyzer.reading.summary_answer import parse_summary
from sextant.analyzer.writing.model_report import model_report
from sextant.analyzer.writing.offline_report import offline_report
from sextant.analyzer.writing.offline_summary import offline_summary
from sextant.contracts import (
    AnalysisCompleted,
    ChunksSelected,
    DocClaim,
    Event,
    StageFailed,
    SummaryCompleted,
    TokenUsage,
    event_id_for,
    stage_failed,
    utc_now_iso,
)
from sextant.doc_claims import render_findings_markdown
from sextant.llm import Completion, LanguageModel, LanguageModelError, failure_reason, traced_completion
from sextant.selection import PayloadSource

STAGE = "analyzer"
NO_MODEL_REASON = "none is configured"
MODEL_SPAN = "analyzer.model_call"
NOTHING_INDEXED = "the index holds no chunks for this repository, so there is nothing to analyse"


async def _evidence(store: PayloadSource, event: ChunksSelected, *, check_doc_claims: bool) -> RepoEvidence:
    def scroll_and_gather() -> RepoEvidence:
        payloads = store.scroll_payloads(event.repo.repo_key)
        return gather_evidence(payloads, event.median_code, check_doc_claims=check_doc_claims)

    # The scroll and the checks are blocking work; the bus keeps heartbeating meanwhile.
    return await asyncio.to_thread(scroll_and_gather)


async def _call(model: LanguageModel, prompt: Prompt, max_tokens: int, purpose: str) -> Completion:
    return await traced_completion(
        model, system=prompt.system, prompt=prompt.user, max_tokens=max_tokens, span_name=MODEL_SPAN, purpose=purpose
    )


def _usage(completion: Completion | None) -> TokenUsage:
    if completion is None:
        return TokenUsage()
    return TokenUsage(input_tokens=completion.input_tokens, output_tokens=completion.output_tokens)


async def analyze(
    event: ChunksSelected, store: PayloadSource, model: LanguageModel | None, settings: AnalyzerSettings
) -> AnalysisCompleted:
    """Write the seven-section analysis of one analysis selection.

    Args:
        event: The analysis selection (80 chunks).
        store: The chunk store (every payload is read once for evidence and doc checks).
        model: The language model, or None.
        settings: Budgets and listing limits.

    Returns:
        The AnalysisCompleted event.
    """
    evidence = await _evidence(store, event, check_doc_claims=True)
    median = event.median_code or evidence.median_code
    context = format_context(event.chunks, median)
    prompt = analysis_prompt(
        repo=event.repo,
        head_sha=event.head_sha,
        context=context,
        median_code=median,
        findings_markdown=render_findings_markdown(evidence.doc_report, settings.claims_in_prompt),
    )
    completion: Completion | None = None
    reason = NO_MODEL_REASON
    if model is not None:
        try:
            completion = await _call(model, prompt, settings.analysis_max_tokens, "analysis")
        except LanguageModelError as error:
            reason = failure_reason(model, error)
    if completion is not None:
        markdown = model_report(completion, evidence, settings)
    else:
        markdown = offline_report(
            event.repo, event.head_sha, evidence, reason=reason, claims_limit=settings.claims_in_report
        )
    return AnalysisCompleted(
        event_id=event_id_for(AnalysisCompleted, event.run_id, event.event_id),
        run_id=event.run_id,
        occurred_at=utc_now_iso(),
        repo=event.repo,
        markdown=markdown,
        sections=split_sections(markdown),
        doc_claims=[DocClaim(**msgspec.structs.asdict(f)) for f in evidence.doc_report.findings],
        model=completion.model if completion else "none",
        provider=completion.provider if completion else "none",
        usage=_usage(completion),
        counts=event.counts,
        median_code=median,
        head_sha=event.head_sha,
        prompt=prompt.as_text(),
        warnings=[] if completion is not None or model is None else [reason],
    )


async def summarize(
    event: ChunksSelected, store: PayloadSource, model: LanguageModel | None, settings: AnalyzerSettings
) -> SummaryCompleted:
    """Write the short summary of one summary selection (purpose and summary).

    Args:
        event: The summary selection (40 chunks).
        store: The chunk store (read only when no model answers).
        model: The language model, or None.
        settings: Budgets.

    Returns:
        The SummaryCompleted event.
    """
    context = format_context(event.chunks, event.median_code)
    prompt = summary_prompt(repo=event.repo, head_sha=event.head_sha, context=context, median_code=event.median_code)
    completion: Completion | None = None
    reason = NO_MODEL_REASON
    if model is not None:
        try:
            completion = await _call(model, prompt, settings.summary_max_tokens, "summary")
        except LanguageModelError as error:
            reason = failure_reason(model, error)
    if completion is not None:
        purpose, summary = parse_summary(completion.text)
    else:
        purpose, summary = offline_summary(await _evidence(store, event, check_doc_claims=False), reason)
    return SummaryCompleted(
        event_id=event_id_for(SummaryCompleted, event.run_id, event.event_id),
        run_id=event.run_id,
        occurred_at=utc_now_iso(),
        repo=event.repo,
        purpose=purpose,
        summary=summary,
        model=completion.model if completion else "none",
        provider=completion.provider if completion else "none",
        usage=_usage(completion),
        head_sha=event.head_sha,
        warnings=[] if completion is not None or model is None else [reason],
    )


def nothing_to_analyse(event: ChunksSelected) -> StageFailed:
    """The StageFailed for a selection with no chunks (an empty or unindexed repository)."""
    return stage_failed(event, STAGE, NOTHING_INDEXED)


async def on_chunks_selected(
    event: ChunksSelected, store: PayloadSource, model: LanguageModel | None, settings: AnalyzerSettings
) -> list[Event]:
    """Answer a selection with its analysis or summary.

    Args:
        event: The selection (purpose "analysis" or "summary").
        store: The chunk store.
        model: The language model, or None for the evidence-only text.
        settings: Budgets and listing limits.

    Returns:
        One AnalysisCompleted or SummaryCompleted; a StageFailed when the selection is empty.
    """
    if not event.chunks:
        return [nothing_to_analyse(event)]
    if event.purpose == "summary":
        return [await summarize(event, store, model, settings)]
    return [await analyze(event, store, model, settings)]
