"""Build the RepoUpdated a user or CI asks for: one builder for `sextant publish` and `sextant-publish`."""

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


class RequestError(ValueError):
    """A request that cannot be published as given; the message says what to change."""


class CredentialedUrlError(RequestError):
    """A repository URL carries a user, password or token (credentials never travel in events)."""


CREDENTIALS_ADVICE = (
    "the repository URL carries credentials: remove them and set GITHUB_TOKEN, GITLAB_TOKEN, "
    "BITBUCKET_TOKEN or GIT_TOKEN instead (tokens travel as an HTTP header, never in events)"
)


def normalize_repo_location(location: str) -> str:
    """A local path becomes absolute (so every service finds it); URLs pass through unchanged.

    Args:
        location: A repository URL or path, as typed.

    Returns:
        The location every service reads the same way.

    Raises:
        CredentialedUrlError: when the URL carries credentials (the message never repeats them).
    """
    if url_has_credentials(location):
        raise CredentialedUrlError(CREDENTIALS_ADVICE)
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

    Args:
        location: Repository URL or local path.
        provider: github, gitlab, bitbucket or generic (chooses the token variable).
        branch: Branch; None means the repository's default.
        head_sha: Head commit of the push.
        head_commit_date: ISO 8601 date of the head commit (dates the changed paths).
        changed_paths: Paths changed by the push (None: a full run).
        removed_paths: Paths the push removed.
        force: Re-index every file even if unchanged.
        run_id: Run id to use instead of the derived one.

    Returns:
        The event.

    Raises:
        CredentialedUrlError: when the URL carries credentials.
    """
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


class RepoUpdatedFile(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The JSON a CI job may hand to ``--from-json`` (fields named as the flags).

    Unknown fields are refused: this is a request someone typed, and a misspelt ``chaged_paths``
    must not silently become a full run.
    """

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
    """Build a RepoUpdated from a JSON request.

    Args:
        data: The JSON text.

    Returns:
        The event.

    Raises:
        RequestError: when the JSON is malformed, truncated or of the wrong shape (the message says
            which field), or the URL carries credentials.
    """
    try:
        request = msgspec.json.decode(data, type=RepoUpdatedFile)
    except msgspec.ValidationError as error:
        raise RequestError(f"the JSON request has the wrong shape: {error}") from None
    except msgspec.DecodeError as error:
        raise RequestError(f"the JSON request is not valid JSON ({error})") from None
    fields = msgspec.structs.asdict(request)  # the file's fields are build_repo_updated's keywords
    return build_repo_updated(fields.pop("url"), **fields)
