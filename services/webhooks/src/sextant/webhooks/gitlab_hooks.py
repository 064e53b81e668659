"""GitLab ``Push Hook`` and ``Merge Request Hook`` deliveries, translated to Sextant events (others: ignored)."""

from __future__ import annotations

import msgspec

from sextant.webhooks.hook_events import hook_repo, push_updated, review_requested, unindexed_push
from sextant.webhooks.hook_result import HookEvent, Ignored
from sextant.webhooks.push_changes import PushedCommit

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
    ignored = unindexed_push(push.ref, push.after, push.project.default_branch)
    if ignored is not None:
        return ignored
    # GitLab lists at most 20 commits: when some are missing, their paths are unknown, so index in full.
    complete = bool(push.commits) and push.total_commits_count <= len(push.commits)
    return push_updated(
        PROVIDER, delivery_id, hook_repo(push.project.git_http_url, PROVIDER),
        head_sha=push.checkout_sha or push.after, commits=push.commits, complete=complete,
    )  # fmt: skip


def _merge_request(hook: _MergeRequestHook, delivery_id: str) -> HookEvent | Ignored:
    request = hook.object_attributes
    if request.action not in REVIEWED_ACTIONS:
        return Ignored(f"merge request {request.action!r} needs no review")
    if request.action == "update" and not request.oldrev:
        return Ignored("merge request edited without new commits")
    if request.draft or request.work_in_progress:
        return Ignored("draft merge requests are reviewed when marked ready")
    return review_requested(
        PROVIDER, delivery_id, hook_repo(hook.project.git_http_url, PROVIDER),
        number=request.iid, title=request.title, description=request.description,
        base_ref=request.target_branch, head_ref=request.last_commit.id,
    )  # fmt: skip
