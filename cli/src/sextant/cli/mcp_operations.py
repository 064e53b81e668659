"""What each MCP tool does, as plain async functions of the backend; every answer says what to trust.

Repository text in an answer is masked (``mcp_masks``): the agent reading it is most often a hosted model.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import msgspec
from mcp.server.mcpserver.exceptions import ToolError
from nats.js.errors import NotFoundError

from sextant.cli.index_access import repo_keys_for, repo_refs_for
from sextant.cli.mcp_backend import McpBackend
from sextant.cli.mcp_masks import masked_chunk_text, masked_hits
from sextant.cli.services import local_machine_env
from sextant.contracts import (
    STREAM_NAME,
    AnalysisCompleted,
    ChunksEmbedded,
    ChunksIndexed,
    Event,
    EventParked,
    StageFailed,
    event_name,
    new_run_id,
    subject_pattern,
)
from sextant.doc_claims import DocCheckReport, HistoryLocations, check_docs
from sextant.doc_claims.report.secrets import redact_finding
from sextant.doc_rules import STALE_DOC_GAP, calendar_day, payload_date
from sextant.publish import build_repo_updated
from sextant.search import SearchRequest, age_words
from sextant.secret_rules import redact_change

ProgressReport = Callable[[float, float, str], Coroutine[Any, Any, None]]
"""Where progress goes: (done, total, message)."""

TRUST_RULE = (
    "Code is authoritative. Each hit carries the date of its last change and its age. Documentation is "
    "marked '(documentation — verify against code)'; a doc marked stale is more than "
    f"{STALE_DOC_GAP.count} months older than the code found with it: check it against the code before relying on it."
)
"""Sent with every answer, so that an agent is told how to weigh what it reads."""


def _keys(repo: str | None) -> list[str]:
    return repo_keys_for([repo] if repo else [])


def _builtins(value: Any) -> Any:
    return msgspec.to_builtins(value)


async def search_code(
    backend: McpBackend, query: str, repo: str | None, *, kind: str | None, path: str | None, limit: int
) -> dict[str, Any]:
    """Hybrid (or, while dense vectors are incomplete, sparse) search of one repository.

    Args:
        backend: The backend.
        query: Words, an identifier or a question.
        repo: Repository URL or path; None for the server's working directory.
        kind: "code", "doc" or None.
        path: A path glob or None.
        limit: Hits wanted.

    Returns:
        The outcome as JSON-ready data, with the trust rule.
    """
    if kind not in (None, "code", "doc"):
        raise ToolError("kind is 'code' or 'doc'")
    request = SearchRequest(query=query, repo_keys=_keys(repo), kind=kind, path_glob=path, limit=max(1, min(limit, 50)))
    outcome = await backend.searcher.search(request)
    outcome = msgspec.structs.replace(outcome, hits=masked_hits(outcome.hits))
    return {"trust": TRUST_RULE, **_builtins(outcome)}


async def find_symbol(backend: McpBackend, name: str, repo: str | None) -> dict[str, Any]:
    """Definitions of a symbol (exact) and the symbols it prefixes.

    Args:
        backend: The backend.
        name: The symbol name.
        repo: Repository or None.

    Returns:
        Definitions and prefix matches, with ages.
    """
    report = await backend.symbols.definitions(_keys(repo), name)
    report = msgspec.structs.replace(
        report, definitions=masked_hits(report.definitions), prefix_matches=masked_hits(report.prefix_matches)
    )
    return {"trust": TRUST_RULE, **_builtins(report)}


async def find_usages(backend: McpBackend, name: str, repo: str | None, limit: int) -> dict[str, Any]:
    """Where an identifier is used (its declarations excluded).

    Args:
        backend: The backend.
        name: The identifier.
        repo: Repository or None.
        limit: Most usages.

    Returns:
        Usages with lines and ages.
    """
    usages = await backend.symbols.usages(_keys(repo), name, limit=max(1, min(limit, 200)))
    return {"trust": TRUST_RULE, "name": name, "usages": _builtins(masked_hits(usages))}


async def get_analysis(backend: McpBackend, repo: str | None) -> dict[str, Any]:
    """The current analysis of a repository, read from the event stream, and where it came from.

    Args:
        backend: The backend.
        repo: Repository or None.

    Returns:
        The analysis Markdown and its provenance, or a note saying there is none yet.
    """
    key = _keys(repo)[0]
    try:
        raw = await backend.session.bus.js.get_last_msg(STREAM_NAME, subject_pattern(AnalysisCompleted, key))
    except NotFoundError:
        return {
            "repo_key": key,
            "analysis": None,
            "note": "no analysis yet: call index_repository with until='analysed'",
        }
    event = await backend.session.bus.decode(raw.data or b"", dict(raw.headers or {}))
    if not isinstance(event, AnalysisCompleted):
        return {"repo_key": key, "analysis": None, "note": "the stream holds no readable analysis"}
    provenance = analysis_provenance(event, raw.seq)
    claims = [_builtins(claim) for claim in event.doc_claims if claim.status != "verified"]
    return {"trust": TRUST_RULE, "repo_key": key, "analysis": event.markdown, "provenance": provenance,
            "doc_claims_to_check": claims}  # fmt: skip


def analysis_provenance(event: AnalysisCompleted, stream_sequence: int | None) -> dict[str, Any]:
    """What an agent needs to weigh an analysis: which run wrote it and when, what it read, how its
    doc claims were judged, which model at what cost, and whether dense vectors found anything.

    Args:
        event: The analysis.
        stream_sequence: Its sequence in the stream.

    Returns:
        The provenance, JSON-ready.
    """
    p = event.provenance
    return {
        "run_id": event.run_id, "event_id": event.event_id, "produced_at": event.occurred_at,
        "age": age_words(event.occurred_at), "head_sha": event.head_sha, "model": event.model,
        "provider": event.provider, "median_code": event.median_code, "stream_sequence": stream_sequence,
        "selection": _builtins(event.counts), "warnings": event.warnings,
        "chunks_read": len(p.chunks), "code_chunks": p.code_chunks, "doc_chunks": p.doc_chunks,
        "doc_share": p.doc_share, "stale_docs": _builtins(p.stale_docs), "claims_checked": p.claims_checked,
        "claims_by_status": p.claims_by_status, "input_tokens": p.input_tokens, "output_tokens": p.output_tokens,
        "dense_vectors": p.dense_vectors, "search": p.search, "unchanged_since": event.unchanged_since,
        "doc_history_note": p.doc_history_note, "revision_of": p.revision_of,
    }  # fmt: skip


async def check_doc_claims(backend: McpBackend, repo: str | None, path: str | None) -> dict[str, Any]:
    """Doc claims judged against the indexed code and the repository's history, for one doc (or folder) or all.

    Args:
        backend: The backend.
        repo: Repository or None.
        path: A doc path, a folder prefix, or None for every doc.

    Returns:
        Per-doc summaries and the findings, with each doc's date and age, and why history was not
        read or was cut short (`history_note`, None when it was read in full).
    """
    ref = repo_refs_for([repo] if repo else [])[0]
    key = ref.repo_key
    history = HistoryLocations.from_env(local_machine_env(backend.env))

    def check() -> DocCheckReport:
        # The history at the repository's current head: a local one read in place, else the mirror.
        return check_docs(list(backend.store.scroll_payloads(key)), history=history.open(ref, None))

    report = await asyncio.to_thread(check)

    def wanted(doc: str) -> bool:
        return path is None or doc == path or doc.startswith(path.rstrip("/") + "/")

    docs = [
        {**_builtins(summary), "age": age_words(summary.last_modified_at)}
        for summary in report.docs
        if wanted(summary.doc)
    ]
    findings = [_builtins(redact_finding(finding)) for finding in report.findings if wanted(finding.doc)]
    return {
        "trust": TRUST_RULE,
        "repo_key": key,
        "docs": docs,
        "findings": findings,
        "history_note": report.history_note,
    }


async def review_context(
    backend: McpBackend, diff: str, repo: str | None, title: str, description: str
) -> dict[str, Any]:
    """The recency-aware context the reviewer would give a model for this diff: same query, same retrieval,
    same rerank, same recency helper.

    Args:
        backend: The backend.
        diff: A unified diff.
        repo: Repository or None.
        title: Title of the change.
        description: Description of the change.

    Returns:
        One entry per retrieved chunk: kept or dropped, why, its header (path, doc note, date) and text.
    """
    from sextant.reviewer.diff_reading import read_diff
    from sextant.reviewer.recency_context import apply_recency_to_context
    from sextant.reviewer.retrieval import build_query, retrieve

    key = _keys(repo)[0]
    title, description, diff = redact_change(title, description, diff)  # the query reaches hosted models
    summary = read_diff(diff)
    query = build_query(title, description, summary, backend.review_settings.query_max_chars)
    retrieval = await retrieve(
        store=backend.store, embedder=backend.embedder, sparse=backend.sparse, reranker=backend.reranker,
        repo_key=key, query=query, limit=backend.review_settings.retrieval_limit,
    )  # fmt: skip
    decisions, median = apply_recency_to_context(retrieval.chunks)
    context = [
        {
            "header": decision.header,
            "path": decision.chunk.payload.path,
            "kind": decision.chunk.payload.kind,
            "start_line": decision.chunk.payload.start_line,
            "end_line": decision.chunk.payload.end_line,
            "last_modified_at": payload_date(decision.chunk.payload),
            "day": calendar_day(payload_date(decision.chunk.payload)),
            "age": age_words(payload_date(decision.chunk.payload)),
            "rerank_score": decision.chunk.score,
            "kept": decision.kept,
            "reason": decision.reason,
            "text": masked_chunk_text(decision.chunk.payload.path, decision.chunk.payload.text)
            if decision.kept
            else None,
        }
        for decision in decisions
    ]
    return {"trust": TRUST_RULE, "repo_key": key, "median_code": median, "rerank_model": retrieval.rerank_model,
            "warnings": retrieval.warnings, "context": context}  # fmt: skip


RUN_ENDS: dict[str, tuple[type[Event], ...]] = {
    "indexed": (ChunksIndexed, ChunksEmbedded),
    "analysed": (AnalysisCompleted, ChunksEmbedded),
}
"""The events that end a followed run: the index (or the analysis) and the dense vectors, so that search
right after it is hybrid."""
EXPECTED_STAGES = {"indexed": 4.0, "analysed": 7.0}
"""Events a run usually publishes up to its end (for the progress total; a run may publish more)."""


async def index_repository(backend: McpBackend, repo: str, until: str, report: ProgressReport) -> dict[str, Any]:
    """Publish RepoUpdated for a repository and follow its run, reporting each stage as progress.

    Args:
        backend: The backend.
        repo: Repository URL or local path.
        until: "indexed" (the index and its dense vectors) or "analysed" (the analysis too).
        report: Progress sink (done, total, message).

    Returns:
        What the run produced (its last awaited event), or why it failed.
    """
    if until not in RUN_ENDS:
        raise ToolError("until is 'indexed' or 'analysed'")
    from sextant.cli.describe import summarize

    bus = backend.session.bus
    request = build_repo_updated(repo, run_id=new_run_id())
    pending = set(RUN_ENDS[until])
    total = EXPECTED_STAGES[until]
    stages: list[str] = []
    ends: dict[type[Event], Event] = {}
    after = await bus.last_sequence()
    await bus.publish(request)
    async for _, event, _ in bus.read(f"sextant.*.*.{request.repo.repo_key}", follow=True, after_sequence=after):
        if event is None or event.run_id != request.run_id:
            continue
        stages.append(f"{event_name(type(event))}: {summarize(event)}")
        await report(min(len(stages), total), max(total, len(stages)), stages[-1])
        if isinstance(event, StageFailed | EventParked):
            return {"repo_key": request.repo.repo_key, "run_id": request.run_id, "ok": False,
                    "error": summarize(event), "stages": stages}  # fmt: skip
        if type(event) in pending:
            pending.discard(type(event))
            ends[type(event)] = event
        if not pending:
            break
    result = ends.get(RUN_ENDS[until][0])
    fields = {} if result is None else msgspec.structs.asdict(result)
    summary = {k: _builtins(v) for k, v in fields.items() if k not in ("markdown", "prompt", "sections")}
    return {"repo_key": request.repo.repo_key, "run_id": request.run_id, "ok": not pending, "stages": stages,
            "result": summary}  # fmt: skip
