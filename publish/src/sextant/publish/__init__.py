"""A small publisher for CI: build a RepoUpdated from flags or JSON and publish it once to NATS."""

from sextant.publish.connection import ConnectionSettingsError, connect_options
from sextant.publish.flags import read_name_status, repo_updated_parser, request_from_arguments
from sextant.publish.request import (
    CredentialedUrlError,
    RepoUpdatedFile,
    RequestError,
    build_repo_updated,
    normalize_repo_location,
    repo_updated_from_json,
)
from sextant.publish.sending import fitting_request, publish_once

__all__ = [
    "ConnectionSettingsError",
    "CredentialedUrlError",
    "RepoUpdatedFile",
    "RequestError",
    "build_repo_updated",
    "connect_options",
    "fitting_request",
    "normalize_repo_location",
    "publish_once",
    "read_name_status",
    "repo_updated_from_json",
    "repo_updated_parser",
    "request_from_arguments",
]
