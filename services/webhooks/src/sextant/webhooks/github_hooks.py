"""GitHub ``push`` and ``pull_request`` deliveries, translated to Sextant events (other events: ignored)."""

from __future__ import annotations

import msgspec

from sextant.contracts import RepoRef, RepoUpdated, ReviewRequested, event_id_for, url_has_credentials, utc_now_iso
from sextant.webhooks.hook_result import HookEvent, Ignored, run_id_for_delivery
from sextant.webhooks.push_changes import BRANCH_PREFIX, NULL_SHA, PushedCommit, changed_and_removed

PROVIDER = "github"
REVIEWED_ACTIONS = frozenset({"opened", "synchronize", "reopened", "ready_for_review"})
"""A new or updated head is worth a review; labels, edits, assignments and closes are not."""


class _Repository(msgspec.Struct, kw_only=True):
    clone_url: str
    default_branch: str | None = None
    full_name: str = ""


class _Push(msgspec.Struct, kw_only=True):
    ref: str
    after: str
    repository: _Repository
    deleted: bool = False
    commits: list[PushedCommit] = msgspec.field(default_factory=list)
    head_commit: PushedCommit | None = None


class _Side(msgspec.Struct, kw_only=True):
    sha: str
    ref: str = ""


class _PullRequest(msgspec.Struct, kw_only=True):
    number: int
    title: str = ""
    body: str | None = None
    draft: bool = False
    base: _Side
    head: _Side


class _PullRequestHook(msgspec.Struct, kw_only=True):
    action: str
    pull_request: _PullRequest
    repository: _Repository


def _repo(repository: _Repository) -> RepoRef:
    if url_has_credentials(repository.clone_url):
        raise ValueError("the repository URL carries credentials")
    return RepoRef.for_url(repository.clone_url, provider=PROVIDER)


def github_event(event: str, delivery_id: str, body: bytes) -> HookEvent | Ignored:
    """Translate one verified GitHub delivery.

    Args:
        event: The ``X-GitHub-Event`` header (push, pull_request, ping, ...).
        delivery_id: The ``X-GitHub-Delivery`` header (stays the same when GitHub redelivers).
        body: The raw JSON body.

    Returns:
        RepoUpdated for a push to the default branch, ReviewRequested for an opened or updated pull
        request, or Ignored with the reason.

    Raises:
        msgspec.ValidationError: for a body that is not the shape GitHub sends (a 400, not a crash).
    """
    if event == "push":
        return _push(msgspec.json.decode(body, type=_Push), delivery_id)
    if event == "pull_request":
        return _pull_request(msgspec.json.decode(body, type=_PullRequestHook), delivery_id)
    return Ignored(f"GitHub {event!r} events are not used")


def _push(push: _Push, delivery_id: str) -> HookEvent | Ignored:
    if not push.ref.startswith(BRANCH_PREFIX):
        return Ignored("tag pushes are not indexed")
    branch = push.ref.removeprefix(BRANCH_PREFIX)
    if push.repository.default_branch and branch != push.repository.default_branch:
        return Ignored(f"push to {branch!r}, not the default branch")
    if push.deleted or push.after == NULL_SHA:
        return Ignored("branch deleted")
    changed, removed = changed_and_removed(push.commits)
    head = push.head_commit or next((c for c in push.commits if c.id == push.after), None)
    run_id = run_id_for_delivery(PROVIDER, delivery_id)
    return RepoUpdated(
        event_id=event_id_for(RepoUpdated, run_id), run_id=run_id, occurred_at=utc_now_iso(),
        repo=_repo(push.repository), head_sha=push.after, head_commit_date=head.timestamp if head else None,
        changed_paths=changed if push.commits else None, removed_paths=removed if push.commits else None,
    )  # fmt: skip


def _pull_request(hook: _PullRequestHook, delivery_id: str) -> HookEvent | Ignored:
    if hook.action not in REVIEWED_ACTIONS:
        return Ignored(f"pull request {hook.action!r} needs no review")
    pull = hook.pull_request
    if pull.draft:
        return Ignored("draft pull requests are reviewed when marked ready")
    run_id = run_id_for_delivery(PROVIDER, delivery_id)
    return ReviewRequested(
        event_id=event_id_for(ReviewRequested, run_id), run_id=run_id, occurred_at=utc_now_iso(),
        repo=_repo(hook.repository), pr_number=pull.number, title=pull.title, description=pull.body or "",
        base_ref=pull.base.sha, head_ref=pull.head.sha,
    )  # fmt: skip
