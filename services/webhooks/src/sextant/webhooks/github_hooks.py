"""GitHub ``push`` and ``pull_request`` deliveries, translated to Sextant events (other events: ignored)."""

from __future__ import annotations

import msgspec

from sextant.webhooks.hook_events import hook_repo, push_updated, review_requested, unindexed_push
from sextant.webhooks.hook_result import HookEvent, Ignored
from sextant.webhooks.push_changes import PushedCommit

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
    repository = push.repository
    ignored = unindexed_push(push.ref, push.after, repository.default_branch, deleted=push.deleted)
    if ignored is not None:
        return ignored
    return push_updated(
        PROVIDER, delivery_id, hook_repo(repository.clone_url, PROVIDER),
        head_sha=push.after, commits=push.commits, complete=bool(push.commits), head_commit=push.head_commit,
    )  # fmt: skip


def _pull_request(hook: _PullRequestHook, delivery_id: str) -> HookEvent | Ignored:
    if hook.action not in REVIEWED_ACTIONS:
        return Ignored(f"pull request {hook.action!r} needs no review")
    pull = hook.pull_request
    if pull.draft:
        return Ignored("draft pull requests are reviewed when marked ready")
    return review_requested(
        PROVIDER, delivery_id, hook_repo(hook.repository.clone_url, PROVIDER),
        number=pull.number, title=pull.title, description=pull.body, base_ref=pull.base.sha, head_ref=pull.head.sha,
    )  # fmt: skip
