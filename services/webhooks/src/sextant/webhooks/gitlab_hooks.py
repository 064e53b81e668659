"""GitLab ``Push Hook`` and ``Merge Request Hook`` deliveries, translated to Sextant events (others: ignored)."""

from __future__ import annotations

import msgspec

from sextant.contracts import RepoRef, RepoUpdated, ReviewRequested, event_id_for, url_has_credentials, utc_now_iso
from sextant.webhooks.hook_result import HookEvent, Ignored, run_id_for_delivery
from sextant.webhooks.push_changes import BRANCH_PREFIX, NULL_SHA, PushedCommit, changed_and_removed

PROVIDER = "gitlab"
PUSH_HOOK = "Push Hook"
MERGE_REQUEST_HOOK = "Merge Request Hook"
REVIEWED_ACTIONS = frozenset({"open", "reopen", "update"})


class _Project(msgspec.Struct, kw_only=True):
    git_http_url: str
    default_branch: str | None = None
    path_with_namespace: str = ""


class _Push(msgspec.Struct, kw_only=True):
    ref: str
    after: str
    project: _Project
    checkout_sha: str | None = None
    commits: list[PushedCommit] = msgspec.field(default_factory=list)
    total_commits_count: int = 0


class _LastCommit(msgspec.Struct, kw_only=True):
    id: str


class _MergeRequest(msgspec.Struct, kw_only=True):
    iid: int
    title: str = ""
    description: str | None = None
    action: str | None = None
    oldrev: str | None = None
    target_branch: str
    last_commit: _LastCommit
    draft: bool = False
    work_in_progress: bool = False


class _MergeRequestHook(msgspec.Struct, kw_only=True):
    object_attributes: _MergeRequest
    project: _Project


def _repo(project: _Project) -> RepoRef:
    if url_has_credentials(project.git_http_url):
        raise ValueError("the repository URL carries credentials")
    return RepoRef.for_url(project.git_http_url, provider=PROVIDER)


def gitlab_event(event: str, delivery_id: str, body: bytes) -> HookEvent | Ignored:
    """Translate one verified GitLab delivery.

    Args:
        event: The ``X-Gitlab-Event`` header.
        delivery_id: The ``X-Gitlab-Event-UUID`` header (the same on a retried delivery).
        body: The raw JSON body.

    Returns:
        RepoUpdated, ReviewRequested or Ignored.

    Raises:
        msgspec.ValidationError: for a body that is not the shape GitLab sends.
    """
    if event == PUSH_HOOK:
        return _push(msgspec.json.decode(body, type=_Push), delivery_id)
    if event == MERGE_REQUEST_HOOK:
        return _merge_request(msgspec.json.decode(body, type=_MergeRequestHook), delivery_id)
    return Ignored(f"GitLab {event!r} events are not used")


def _push(push: _Push, delivery_id: str) -> HookEvent | Ignored:
    if not push.ref.startswith(BRANCH_PREFIX):
        return Ignored("tag pushes are not indexed")
    branch = push.ref.removeprefix(BRANCH_PREFIX)
    if push.project.default_branch and branch != push.project.default_branch:
        return Ignored(f"push to {branch!r}, not the default branch")
    if push.after == NULL_SHA:
        return Ignored("branch deleted")
    # GitLab lists at most 20 commits: when some are missing, their paths are unknown, so index in full.
    complete = bool(push.commits) and push.total_commits_count <= len(push.commits)
    changed, removed = changed_and_removed(push.commits)
    head_sha = push.checkout_sha or push.after
    head = next((c for c in push.commits if c.id == head_sha), None)
    run_id = run_id_for_delivery(PROVIDER, delivery_id)
    return RepoUpdated(
        event_id=event_id_for(RepoUpdated, run_id), run_id=run_id, occurred_at=utc_now_iso(),
        repo=_repo(push.project), head_sha=head_sha, head_commit_date=head.timestamp if head else None,
        changed_paths=changed if complete else None, removed_paths=removed if complete else None,
    )  # fmt: skip


def _merge_request(hook: _MergeRequestHook, delivery_id: str) -> HookEvent | Ignored:
    request = hook.object_attributes
    if request.action not in REVIEWED_ACTIONS:
        return Ignored(f"merge request {request.action!r} needs no review")
    if request.action == "update" and not request.oldrev:
        return Ignored("merge request edited without new commits")
    if request.draft or request.work_in_progress:
        return Ignored("draft merge requests are reviewed when marked ready")
    run_id = run_id_for_delivery(PROVIDER, delivery_id)
    return ReviewRequested(
        event_id=event_id_for(ReviewRequested, run_id), run_id=run_id, occurred_at=utc_now_iso(),
        repo=_repo(hook.project), pr_number=request.iid, title=request.title,
        description=request.description or "", base_ref=request.target_branch, head_ref=request.last_commit.id,
    )  # fmt: skip
