"""Builders for events as the services publish them: ids derived the way production derives them."""

from __future__ import annotations

from typing import Any, TypeVar

from sextant.contracts import (
    ChunksSelected,
    DocClaim,
    FileRecencyComputed,
    RecencyStatus,
    RepoRef,
    RepoUpdated,
    ReviewCompleted,
    ReviewFinding,
    ReviewRequested,
    event_id_for,
    utc_now_iso,
)
from sextant.contracts.events import Event

E = TypeVar("E", bound=Event)


def event(event_type: type[E], repo: RepoRef, run_id: str, *key: object, **fields: Any) -> E:
    """Any event, with its envelope filled in.

    Args:
        event_type: The event class.
        repo: The repository it is about.
        run_id: The run it belongs to.
        *key: What distinguishes it within the run (as the producing handler passes to ``event_id_for``).
        **fields: The event's own fields.

    Returns:
        The event, ``occurred_at`` now.
    """
    return event_type(
        event_id=event_id_for(event_type, run_id, *key),
        run_id=run_id,
        occurred_at=utc_now_iso(),
        repo=repo,
        **fields,
    )


def repo_updated(repo: RepoRef, run_id: str = "run-1", **fields: Any) -> RepoUpdated:
    """The RepoUpdated a CLI run or a webhook starts a run with."""
    return event(RepoUpdated, repo, run_id, repo.repo_key, **fields)


def review_requested(repo: RepoRef, run_id: str = "r", **fields: Any) -> ReviewRequested:
    """A ReviewRequested (title, diff, pr_number... as keyword fields)."""
    return event(ReviewRequested, repo, run_id, **fields)


def chunks_selected(
    repo: RepoRef, purpose: Any = "analysis", limit: int = 80, run_id: str = "run-1", **fields: Any
) -> ChunksSelected:
    """A ChunksSelected for one purpose (chunks, counts, median_code... as keyword fields)."""
    return event(ChunksSelected, repo, run_id, purpose, purpose=purpose, limit=limit, **fields)


def file_recency_computed(
    request: RepoUpdated, status: RecencyStatus = "computed", dates: dict[str, str | None] | None = None, **fields: Any
) -> FileRecencyComputed:
    """The recency scanner's answer to a RepoUpdated (``dates`` None: no map, as a skipped scan sends)."""
    return event(
        FileRecencyComputed, request.repo, request.run_id, request.event_id, request=request, status=status,
        dates=dates, **fields,
    )  # fmt: skip


def review_completed(repo: RepoRef, run_id: str, request_id: str, **fields: Any) -> ReviewCompleted:
    """The reviewer's answer to the ReviewRequested ``request_id`` (pr_number, markdown... as keyword fields)."""
    return event(ReviewCompleted, repo, run_id, request_id, request_id=request_id, **fields)


def doc_claim(ref: str, status: Any = "verified", evidence: str = "ok", **fields: Any) -> DocClaim:
    """A doc-claim finding as the analyzer's report carries it: a symbol named at ``docs/design.md:3`` unless told."""
    place = {"doc": "docs/design.md", "line": 3, "kind": "symbol"} | fields
    return DocClaim(ref=ref, status=status, evidence=evidence, **place)


def doc_drift_finding(doc: str, line: int, message: str) -> ReviewFinding:
    """A review finding that a doc has drifted from the code, placed on the doc's line."""
    return ReviewFinding(path=doc, line=line, severity="info", message=message, kind="doc_drift", doc=doc)
