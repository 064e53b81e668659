"""On every ChunksSelected: write the analysis (AnalysisCompleted) or the summary (SummaryCompleted).

With a language model the prompt goes to it; without one — or when its call fails for good — the
same sections are written from evidence the analyzer computed over every chunk of the repository,
and the text says so on its first line. The prompt is assembled either way and kept in the event.

Before any model is asked, the inputs are fingerprinted (`sextant.analyzer.fingerprint`); when the
last output on the repository's subject has the same fingerprint, it is published again for this
run, marked `unchanged_since`, and no model is called.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

import msgspec

from sextant.analyzer.config import AnalyzerSettings
from sextant.analyzer.evidence.gather import RepoEvidence, gather_evidence
from sextant.analyzer.fingerprint import output_fingerprint
from sextant.analyzer.previous_outputs import NoPreviousOutputs, PreviousOutputs
from sextant.analyzer.prompting.context import format_context
from sextant.analyzer.prompting.prompts import PROMPT_VERSION, Prompt, analysis_prompt, summary_prompt
from sextant.analyzer.reading.answer_sections import split_sections
from sextant.analyzer.reading.summary_answer import parse_summary
from sextant.analyzer.writing.model_report import model_report
from sextant.analyzer.writing.offline_report import offline_report
from sextant.analyzer.writing.offline_summary import offline_summary
from sextant.analyzer.writing.provenance import build_provenance, provenance_section
from sextant.analyzer.writing.summary_markdown import summary_markdown
from sextant.contracts import (
    AnalysisCompleted,
    ChunksSelected,
    Event,
    Provenance,
    StageFailed,
    SummaryCompleted,
    TokenUsage,
    event_id_for,
    stage_failed,
    utc_now_iso,
)
from sextant.doc_claims import HistoryLocations, RepositoryHistory, doc_claims, render_findings_markdown
from sextant.llm import Completion, LanguageModel, LanguageModelError, failure_reason, traced_completion
from sextant.secret_rules import redact_credentials
from sextant.selection import DEFAULT_PAGE_SIZE, PayloadSource
from sextant.telemetry import tracer

STAGE = "analyzer"
MODEL_SPAN = "analyzer.model_call"
NO_MODEL_REASON = "none is configured"
NOTHING_INDEXED = "the index holds no chunks for this repository, so there is nothing to analyse"
_NO_PREVIOUS = NoPreviousOutputs()
_HISTORY_OFF_NOTE = "history not read: turned off (ANALYSIS_DOC_HISTORY=false)"
_Output = TypeVar("_Output", AnalysisCompleted, SummaryCompleted)


async def _evidence(
    store: PayloadSource, event: ChunksSelected, *, check_doc_claims: bool, history: HistoryLocations | None = None
) -> RepoEvidence:
    def scroll_and_gather() -> RepoEvidence:
        payloads = store.scroll_payloads(event.repo.repo_key, DEFAULT_PAGE_SIZE)
        # Turned off, history is still a judge that says it read nothing: a bare name absent at the
        # head is then left open, as when history cannot be read, rather than contradicted.
        doc_history = (
            history.open(event.repo, event.head_sha) if history else RepositoryHistory.unavailable(_HISTORY_OFF_NOTE)
        )
        return gather_evidence(payloads, event.median_code, check_doc_claims=check_doc_claims, doc_history=doc_history)

    # The scroll and the checks are blocking work; the bus keeps heartbeating meanwhile.
    return await asyncio.to_thread(scroll_and_gather)


@dataclass(frozen=True)
class _Answer:
    """What asking the model gave: its completion, or None and why not."""

    completion: Completion | None
    reason: str = ""
    model_failed: bool = False
    """A model is configured but its call failed for good (the output is a stand-in)."""


@dataclass(frozen=True)
class Revision:
    """What marks an analysis as the revision of an earlier one of the same run."""

    event_id: str
    """The revision's own event id."""
    revises: str
    """event_id of the analysis it revises."""


@dataclass(frozen=True)
class Writing:
    """What writing either output takes besides the selection."""

    store: PayloadSource
    model: LanguageModel | None
    settings: AnalyzerSettings
    previous: PreviousOutputs


async def _ask(model: LanguageModel | None, prompt: Prompt, max_tokens: int, purpose: str) -> _Answer:
    """The model's completion, or None and why not (no model, or its call failed for good)."""
    if model is None:
        return _Answer(None, NO_MODEL_REASON)
    try:
        completion = await traced_completion(
            model,
            system=prompt.system,
            prompt=prompt.user,
            max_tokens=max_tokens,
            span_name=MODEL_SPAN,
            purpose=purpose,
        )
    except LanguageModelError as error:
        return _Answer(None, failure_reason(model, error), model_failed=True)
    return _Answer(completion)


def _usage(completion: Completion | None) -> TokenUsage:
    if completion is None:
        return TokenUsage()
    return TokenUsage(input_tokens=completion.input_tokens, output_tokens=completion.output_tokens)


def model_identity(model: LanguageModel | None) -> str:
    """The model part of a fingerprint: "provider/model", or "none" for the evidence-only text."""
    return "none" if model is None else f"{model.provider}/{model.model}"


def _fingerprint(
    purpose: str,
    event: ChunksSelected,
    median_code: str | None,
    model: LanguageModel | None,
    max_tokens: int,
    *,
    evidence: RepoEvidence | None,
    findings: Iterable[msgspec.Struct] = (),
) -> str:
    """The output's fingerprint; `evidence` is given when the text is written from it (its digest counts)."""
    return output_fingerprint(
        purpose=purpose,
        prompt_version=PROMPT_VERSION,
        model=model_identity(model),
        max_tokens=max_tokens,
        chunks=event.chunks,
        median_code=median_code,
        findings=findings,
        index_digest=evidence.index_digest if evidence is not None else None,
    )


def _still_stands(purpose: str, fingerprint: str, last: AnalysisCompleted | SummaryCompleted | None) -> bool:
    """Whether the last output was written from the same inputs (noted in a trace span either way)."""
    reused = last is not None and last.fingerprint == fingerprint
    with tracer(__name__).start_as_current_span(
        "analyzer.fingerprint",
        attributes={"sextant.purpose": purpose, "sextant.fingerprint": fingerprint[:16], "sextant.reused": reused},
    ):
        pass
    return reused


def repeated(last: _Output, event: ChunksSelected, **changes: Any) -> _Output:
    """The last output, published again for this run: same text, no tokens spent, and since when.

    Args:
        last: The analysis or summary whose fingerprint matches.
        event: This run's selection.
        **changes: Further fields this run sets (the analysis takes this run's counts).

    Returns:
        The output event of this run.
    """
    return msgspec.structs.replace(
        last,
        event_id=event_id_for(type(last), event.run_id, event.event_id),
        run_id=event.run_id,
        occurred_at=utc_now_iso(),
        head_sha=event.head_sha,
        usage=TokenUsage(),
        warnings=[],
        unchanged_since=last.unchanged_since or last.occurred_at,
        **changes,
    )


def _output_fields(
    output: type[Event],
    event: ChunksSelected,
    answer: _Answer,
    fingerprint: str,
    provenance: Provenance,
) -> dict[str, Any]:
    """The fields an analysis and a summary share besides the model's: identity, warnings, fingerprint."""
    return {
        "event_id": event_id_for(output, event.run_id, event.event_id),
        "run_id": event.run_id,
        "occurred_at": utc_now_iso(),
        "repo": event.repo,
        "head_sha": event.head_sha,
        "warnings": [answer.reason] if answer.model_failed else [],
        # A stand-in for a failed model call is not the output the inputs ask for: never reuse it.
        "fingerprint": "" if answer.model_failed else fingerprint,
        "provenance": provenance,
    }


@dataclass(frozen=True)
class JudgedAnalysis:
    """What an analysis is written from, before any model is asked: evidence, prompt, fingerprint."""

    evidence: RepoEvidence
    median: str | None
    prompt: Prompt
    fingerprint: str


async def judge_analysis(event: ChunksSelected, writing: Writing) -> JudgedAnalysis:
    """Read every payload once (evidence and doc checks, with the history as it is now) and fingerprint it.

    Args:
        event: The analysis selection.
        writing: Store, model and settings.

    Returns:
        The evidence, the prompt it makes and the fingerprint of every input.
    """
    settings, model = writing.settings, writing.model
    evidence = await _evidence(writing.store, event, check_doc_claims=True, history=settings.doc_history)
    median = event.median_code or evidence.median_code
    context = format_context(event.chunks, median)
    prompt = analysis_prompt(
        repo=event.repo,
        head_sha=event.head_sha,
        context=context,
        median_code=median,
        findings_markdown=render_findings_markdown(evidence.doc_report, settings.claims_in_prompt),
    )
    # Without a model the text is written from the evidence, so the index's digest counts too.
    written_from = evidence if model is None else None
    fingerprint = _fingerprint(
        "analysis",
        event,
        median,
        model,
        settings.analysis_max_tokens,
        evidence=written_from,
        findings=evidence.doc_report.findings,
    )
    return JudgedAnalysis(evidence, median, prompt, fingerprint)


async def analyze(event: ChunksSelected, writing: Writing) -> AnalysisCompleted:
    """Write the seven-section analysis of one analysis selection (80 chunks), unless the last one still stands.

    Every payload of the repository is read once, for evidence and doc checks.
    """
    judged = await judge_analysis(event, writing)
    last = await writing.previous.last_analysis(event.repo.repo_key)
    if _still_stands("analysis", judged.fingerprint, last) and last is not None:
        return repeated(last, event, counts=event.counts)
    return await write_analysis(event, writing, judged)


async def write_analysis(
    event: ChunksSelected, writing: Writing, judged: JudgedAnalysis, *, revision: Revision | None = None
) -> AnalysisCompleted:
    """Ask the model (or write from the evidence) and build the AnalysisCompleted.

    Args:
        event: The analysis selection.
        writing: Store, model and settings.
        judged: Its evidence, prompt and fingerprint.
        revision: Set when this analysis revises an earlier one of the run (its own id, what it revises).

    Returns:
        The analysis.
    """
    model, settings = writing.model, writing.settings
    evidence, median, prompt, fingerprint = judged.evidence, judged.median, judged.prompt, judged.fingerprint
    answer = await _ask(model, prompt, settings.analysis_max_tokens, "analysis")
    completion = answer.completion
    if completion is not None:
        markdown = model_report(completion, evidence, settings)
    else:
        markdown = offline_report(
            event.repo, event.head_sha, evidence, reason=answer.reason, claims_limit=settings.claims_in_report
        )
    provenance = build_provenance(
        event.chunks,
        median,
        completion=completion,
        totals=evidence.doc_report.totals,
        doc_history_note=evidence.doc_report.history_note,
        revision_of=revision.revises if revision else None,
    )
    markdown = redact_credentials(markdown)  # the text is published: no key the model or evidence quoted
    sections = split_sections(markdown)  # the seven sections; provenance has its own structured field
    markdown = markdown.rstrip("\n") + "\n\n" + provenance_section(provenance, what="analysis") + "\n"
    fields = _output_fields(AnalysisCompleted, event, answer, fingerprint, provenance)
    if revision is not None:
        fields["event_id"] = revision.event_id
    return AnalysisCompleted(
        **fields,
        markdown=markdown,
        sections=sections,
        doc_claims=doc_claims(evidence.doc_report.findings),
        model=completion.model if completion else "none",
        provider=completion.provider if completion else "none",
        usage=_usage(completion),
        counts=event.counts,
        median_code=median,
        prompt=redact_credentials(prompt.as_text()),
    )


async def summarize(event: ChunksSelected, writing: Writing) -> SummaryCompleted:
    """Write the short summary (purpose and summary) of one summary selection (40 chunks), unless the last one
    stands; the store is read only when no model answers."""
    store, model, settings = writing.store, writing.model, writing.settings
    context = format_context(event.chunks, event.median_code)
    prompt = summary_prompt(repo=event.repo, head_sha=event.head_sha, context=context, median_code=event.median_code)
    evidence = await _evidence(store, event, check_doc_claims=False) if model is None else None
    fingerprint = _fingerprint(
        "summary", event, event.median_code, model, settings.summary_max_tokens, evidence=evidence
    )
    last = await writing.previous.last_summary(event.repo.repo_key)
    if _still_stands("summary", fingerprint, last) and last is not None:
        return repeated(last, event)
    answer = await _ask(model, prompt, settings.summary_max_tokens, "summary")
    completion = answer.completion
    if completion is not None:
        purpose, summary = parse_summary(completion.text)
    else:
        evidence = evidence or await _evidence(store, event, check_doc_claims=False)
        purpose, summary = offline_summary(evidence, answer.reason)
    purpose, summary = redact_credentials(purpose), redact_credentials(summary)
    provenance = build_provenance(event.chunks, event.median_code, completion=completion)
    return SummaryCompleted(
        **_output_fields(SummaryCompleted, event, answer, fingerprint, provenance),
        purpose=purpose,
        summary=summary,
        markdown=summary_markdown(purpose, summary, provenance_section(provenance, what="summary")),
        model=completion.model if completion else "none",
        provider=completion.provider if completion else "none",
        usage=_usage(completion),
    )


def nothing_to_analyse(event: ChunksSelected) -> StageFailed:
    """The StageFailed for a selection with no chunks (an empty or unindexed repository)."""
    return stage_failed(event, STAGE, NOTHING_INDEXED)


async def on_chunks_selected(
    event: ChunksSelected,
    store: PayloadSource,
    model: LanguageModel | None,
    settings: AnalyzerSettings,
    previous: PreviousOutputs = _NO_PREVIOUS,
) -> list[Event]:
    """Answer a selection with its analysis or summary.

    Args:
        event: The selection (purpose "analysis" or "summary").
        store: The chunk store.
        model: The language model, or None for the evidence-only text.
        settings: Budgets and listing limits.
        previous: Where the last outputs of the repository are found (none: always write afresh).

    Returns:
        One AnalysisCompleted or SummaryCompleted; a StageFailed when the selection is empty.
    """
    if not event.chunks:
        return [nothing_to_analyse(event)]
    write = summarize if event.purpose == "summary" else analyze
    return [await write(event, Writing(store, model, settings, previous))]
