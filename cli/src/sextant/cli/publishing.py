"""Building and publishing the requests a user or CI makes (RepoUpdated, ReviewRequested)."""

from __future__ import annotations

from pathlib import Path

import msgspec

from sextant.contracts import (
    RepoRef,
    RepoUpdated,
    event_id_for,
    new_run_id,
    stable_id,
    url_has_credentials,
    utc_now_iso,
)


def normalize_repo_location(location: str) -> str:
    """A local path becomes absolute (so every service finds it); URLs pass through unchanged."""
    if "://" in location or location.startswith("git@"):
        return location
    return str(Path(location).expanduser().resolve())


def build_repo_updated(
    location: str,
    *,
    provider: str = "generic",
    branch: str | None = None,
    head_sha: str | None = None,
    head_commit_date: str | None = None,
    changed_paths: list[str] | None = None,
    removed_paths: list[str] | None = None,
    force: bool = False,
    run_id: str | None = None,
) -> RepoUpdated:
    """A RepoUpdated with a deterministic id.

    When the publisher names the head commit, the run id is derived from the request itself, so a CI
    job that retries its publish is de-duplicated; otherwise every request is a new run.
    """
    if url_has_credentials(location):
        raise ValueError(
            "the repository URL carries credentials: remove them and set GITHUB_TOKEN, GITLAB_TOKEN, "
            "BITBUCKET_TOKEN or GIT_TOKEN instead (tokens travel as an HTTP header, never in events)"
        )
    repo = RepoRef.for_url(normalize_repo_location(location), provider=provider, branch=branch)
    if run_id is None:
        if head_sha:
            run_id = stable_id(repo.repo_key, branch, head_sha, changed_paths, removed_paths, force)
        else:
            run_id = new_run_id()
    return RepoUpdated(
        event_id=event_id_for(RepoUpdated, run_id),
        run_id=run_id,
        occurred_at=utc_now_iso(),
        repo=repo,
        head_sha=head_sha,
        head_commit_date=head_commit_date,
        changed_paths=changed_paths,
        removed_paths=removed_paths,
        force=force,
    )


class RepoUpdatedFile(msgspec.Struct, kw_only=True):
    """The JSON a CI job may hand to `sextant publish repo-updated --from-json`."""

    url: str
    provider: str = "generic"
    branch: str | None = None
    head_sha: str | None = None
    head_commit_date: str | None = None
    changed_paths: list[str] | None = None
    removed_paths: list[str] | None = None
    force: bool = False
    run_id: str | None = None


def repo_updated_from_json(data: bytes) -> RepoUpdated:
    """Build a RepoUpdated from a JSON request file (fields as the CLI flags)."""
    request = msgspec.json.decode(data, type=RepoUpdatedFile)
    return build_repo_updated(
        request.url,
        provider=request.provider,
        branch=request.branch,
        head_sha=request.head_sha,
        head_commit_date=request.head_commit_date,
        changed_paths=request.changed_paths,
        removed_paths=request.removed_paths,
        force=request.force,
        run_id=request.run_id,
    )
