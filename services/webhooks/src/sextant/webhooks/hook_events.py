"""The Sextant events a hook becomes, built alike for every code host: the host's module only reads its
own payload shape and says which values go where."""

from __future__ import annotations

from collections.abc import Sequence

from sextant.contracts import RepoRef, RepoUpdated, ReviewRequested, event_id_for, url_has_credentials, utc_now_iso
from sextant.webhooks.hook_result import Ignored, run_id_for_delivery
from sextant.webhooks.push_changes import BRANCH_PREFIX, NULL_SHA, PushedCommit, changed_and_removed


def hook_repo(clone_url: str, provider: str) -> RepoRef:
    """The repository a hook names; a URL with credentials in it is refused (a 400)."""
    if url_has_credentials(clone_url):
        raise ValueError("the repository URL carries credentials")
    return RepoRef.for_url(clone_url, provider=provider)


def unindexed_push(ref: str, after: str, default_branch: str | None, *, deleted: bool = False) -> Ignored | None:
    """Why a push is not indexed (a tag, another branch, a deleted branch), or None when it is."""
    if not ref.startswith(BRANCH_PREFIX):
        return Ignored("tag pushes are not indexed")
    branch = ref.removeprefix(BRANCH_PREFIX)
    if default_branch and branch != default_branch:
        return Ignored(f"push to {branch!r}, not the default branch")
    if deleted or after == NULL_SHA:
        return Ignored("branch deleted")
    return None


def push_updated(
    provider: str,
    delivery_id: str,
    repo: RepoRef,
    *,
    head_sha: str,
    commits: Sequence[PushedCommit],
    complete: bool,
    head_commit: PushedCommit | None = None,
) -> RepoUpdated:
    """The RepoUpdated of an indexed push.

    Args:
        provider: "github" or "gitlab".
        delivery_id: The host's delivery id (the run id derives from it).
        repo: The pushed repository.
        head_sha: The branch's new head.
        commits: The commits the hook lists, oldest first.
        complete: Whether they are all of the push's commits (else the changed paths are unknown).
        head_commit: The head commit when the hook names it apart (else it is looked up in `commits`).

    Returns:
        The event; without a complete commit list it asks for a full index.
    """
    changed, removed = changed_and_removed(commits)
    head = head_commit or next((commit for commit in commits if commit.id == head_sha), None)
    run_id = run_id_for_delivery(provider, delivery_id)
    return RepoUpdated(
        event_id=event_id_for(RepoUpdated, run_id), run_id=run_id, occurred_at=utc_now_iso(),
        repo=repo, head_sha=head_sha, head_commit_date=head.timestamp if head else None,
        changed_paths=changed if complete else None, removed_paths=removed if complete else None,
    )  # fmt: skip


def review_requested(
    provider: str,
    delivery_id: str,
    repo: RepoRef,
    *,
    number: int,
    title: str,
    description: str | None,
    base_ref: str,
    head_ref: str,
) -> ReviewRequested:
    """The ReviewRequested of a pull or merge request worth reviewing (its number, text and both ends)."""
    run_id = run_id_for_delivery(provider, delivery_id)
    return ReviewRequested(
        event_id=event_id_for(ReviewRequested, run_id), run_id=run_id, occurred_at=utc_now_iso(),
        repo=repo, pr_number=number, title=title, description=description or "", base_ref=base_ref,
        head_ref=head_ref,
    )  # fmt: skip
