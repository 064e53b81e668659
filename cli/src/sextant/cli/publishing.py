"""The requests a user or CI makes: built by the CI publisher's code, so both take the same input.

`sextant publish repo-updated` and the small `sextant-publish` distribution share one flag parser and
one builder (``sextant.publish``); this module only names them for the CLI's commands.
"""

from __future__ import annotations

from sextant.publish import (
    CredentialedUrlError,
    RepoUpdatedFile,
    RequestError,
    build_repo_updated,
    normalize_repo_location,
    repo_updated_from_json,
)

__all__ = [
    "CredentialedUrlError",
    "RepoUpdatedFile",
    "RequestError",
    "build_repo_updated",
    "normalize_repo_location",
    "repo_updated_from_json",
]
