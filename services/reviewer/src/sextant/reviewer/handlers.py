"""Review a change: retrieve context, apply the recency rules, ask a model or report the evidence."""

from __future__ import annotations

import asyncio
import logging

import msgspec

from sextant.contracts import (
    ContextItem,
    ReviewCompleted,
    ReviewFinding,
    ReviewRequested,
    StageFailed,
    TokenUsage,
    event_id_for,
    stage_failed,
    utc_now_iso,
)
from sextant.doc_rules import payload_date
from sextant.gitsource.errors import GitSourceError
from sextant.gitsource.repo_reference import source_for_repo
from sextant.llm import LanguageModelError, traced_completion
from sextant.reviewer.deps import ReviewerDeps
from sextant.reviewer.diff_reading import read_diff
from sextant.reviewer.doc_drift import find_doc_drift
from sextant.reviewer.findings import parse_findings
from sextant.reviewer.prompt import REVIEW_SYSTEM_PROMPT, build_review_prompt
from sextant.reviewer.recency_context import ContextDecision, apply_recency_to_context
from sextant.reviewer.report import render_review
from sextant.reviewer.retrieval import build_query, retrieve
from sextant.reviewer.review_provenance import review_provenance
from sextant.secret_rules import redact_credentials, redact_diff
from sextant.telemetry import tracer

STAGE = "reviewer"
MODEL_SPAN = "reviewer.model_call"
DRIFT_SCROLL_PAGE = 256
"""Payloads read per store page while looking for docs that mention the change."""
logger = logging.getLogger(__name__)
_tracer = tracer(__name__)


class ReviewInputError(ValueError):
    """The request cannot be reviewed as given (no diff, unknown refs)."""


async def on_review_requested(event: ReviewRequested, deps: ReviewerDeps) -> list[ReviewCompleted | StageFailed]:
    """Review one change.

    Args:
        event: What to review: a diff, or base/head refs of the repository.
        deps: Store, embedders, reranker, model (or None) and the git mirror.

    Returns:
        A ReviewCompleted, or a StageFailed saying why the change could not be read.
    """
    try:
        diff = event.diff if event.diff else await asyncio.to_thread(_diff_from_refs, event, deps)
    except (GitSourceError, ReviewInputError) as error:
        return [stage_failed(event, STAGE, str(error))]
    summary = read_diff(diff)
    query = build_query(event.title, event.description, summary, deps.settings.query_max_chars)
    retrieval = await retrieve(
        store=deps.store, embedder=deps.embedder, sparse=deps.sparse, reranker=deps.reranker,
        repo_key=event.repo.repo_key, query=query, limit=deps.settings.retrieval_limit,
    )  # fmt: skip
    warnings = list(retrieval.warnings)
    if not retrieval.chunks:
        warnings.append(f"nothing is indexed for {event.repo.repo_key}: run `sextant index` first")
    with _tracer.start_as_current_span("reviewer.recency") as span:
        decisions, median = apply_recency_to_context(retrieval.chunks)
        span.set_attribute("sextant.dropped", sum(1 for d in decisions if not d.kept))
    with _tracer.start_as_current_span("reviewer.prompt") as span:
        prompt = build_review_prompt(title=event.title, description=event.description, diff=diff, decisions=decisions)
        span.set_attribute("sextant.prompt_chars", len(prompt))
    with _tracer.start_as_current_span("reviewer.doc_drift") as span:
        # Streamed in the worker thread: only the chunks of docs that mention the change are kept.
        payloads = deps.store.scroll_payloads(event.repo.repo_key, DRIFT_SCROLL_PAGE)
        found = await asyncio.to_thread(find_doc_drift, payloads, summary)
        span.set_attributes({"sextant.docs_read": found.docs_read, "sextant.docs_left_out": found.docs_left_out})
    drift = found.findings
    if found.docs_left_out:
        warnings.append(
            f"doc drift: {found.docs_left_out} more docs mention what this change removes or rewrites; "
            f"the first {found.docs_read} were checked"
        )
    review, usage, model, provider = await _model_review(deps, prompt, warnings)
    context = [_context_item(decision) for decision in decisions]
    # Findings quote the model and the docs; what is published carries no credential either way.
    findings = [_masked(finding) for finding in (*review, *drift)]
    return [
        ReviewCompleted(
            event_id=event_id_for(ReviewCompleted, event.run_id, event.event_id),
            run_id=event.run_id,
            occurred_at=utc_now_iso(),
            repo=event.repo,
            request_id=event.event_id,
            pr_number=event.pr_number,
            findings=findings,
            context=context,
            markdown=redact_credentials(
                render_review(
                    title=event.title,
                    findings=findings,
                    context=context,
                    median_code=median,
                    model=model,
                    warnings=warnings,
                    search=retrieval.search,
                )
            ),
            model=model,
            provider=provider,
            usage=usage,
            warnings=warnings,
            prompt=prompt,
            provenance=review_provenance(
                decisions, median, search=retrieval.search, model=model, provider=provider, usage=usage
            ),
        )
    ]


async def _model_review(
    deps: ReviewerDeps, prompt: str, warnings: list[str]
) -> tuple[list[ReviewFinding], TokenUsage, str, str]:
    if deps.model is None:
        return [], TokenUsage(), "none", "none"
    try:
        completion = await traced_completion(
            deps.model,
            system=REVIEW_SYSTEM_PROMPT,
            prompt=prompt,
            max_tokens=deps.settings.max_tokens,
            span_name=MODEL_SPAN,
            purpose="review",
        )
    except LanguageModelError as error:
        warnings.append(f"the language model failed ({error}); this review is evidence only")
        logger.warning("review model call failed: %s", error)
        return [], TokenUsage(), "none", "none"
    usage = TokenUsage(input_tokens=completion.input_tokens, output_tokens=completion.output_tokens)
    return parse_findings(completion.text), usage, completion.model, completion.provider


def _diff_from_refs(event: ReviewRequested, deps: ReviewerDeps) -> str:
    if not (event.base_ref and event.head_ref):
        raise ReviewInputError("a ReviewRequested needs a diff, or both base_ref and head_ref")
    settings = deps.settings
    token = settings.tokens(event.repo.provider)
    source = source_for_repo(event.repo, token=token, allow_local=settings.allow_local_repos)
    deps.mirror.sync(source)
    # Masked per file (config, doc or code rules) before it reaches the prompt, the query or an event.
    return redact_diff(deps.mirror.diff(source, event.base_ref, event.head_ref))


def _masked(finding: ReviewFinding) -> ReviewFinding:
    message = redact_credentials(finding.message)
    return finding if message == finding.message else msgspec.structs.replace(finding, message=message)


def _context_item(decision: ContextDecision) -> ContextItem:
    payload = decision.chunk.payload
    return ContextItem(
        path=payload.path,
        kind="doc" if payload.kind == "doc" else "code",
        score=decision.chunk.score,
        last_modified_at=payload_date(payload),
        kept=decision.kept,
        reason=decision.reason,
        start_line=payload.start_line,
        end_line=payload.end_line,
    )
