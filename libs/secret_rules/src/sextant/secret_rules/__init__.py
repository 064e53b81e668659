"""What counts as a secret, defined once: the masks repository text goes through before it reaches a
hosted model or an event, and the environment a child process may inherit."""

from sextant.secret_rules.assigned_secrets import (
    redact_config_secrets,
    redact_doc_secrets,
    redact_source_secrets,
    secret_kind_of_name,
)
from sextant.secret_rules.child_environment import (
    CREDENTIAL_NAME_PARTS,
    RUNTIME_VARIABLES,
    child_environment,
    looks_like_credential,
)
from sextant.secret_rules.credentials import (
    MASK_PREFIX,
    could_be_secret,
    is_placeholder,
    looks_random,
    mask,
    redact_credentials,
)
from sextant.secret_rules.file_text import is_config_path, redact_change, redact_diff, redact_file_text

__all__ = [
    "CREDENTIAL_NAME_PARTS",
    "MASK_PREFIX",
    "RUNTIME_VARIABLES",
    "child_environment",
    "could_be_secret",
    "is_config_path",
    "is_placeholder",
    "looks_like_credential",
    "looks_random",
    "mask",
    "redact_change",
    "redact_config_secrets",
    "redact_credentials",
    "redact_diff",
    "redact_doc_secrets",
    "redact_file_text",
    "redact_source_secrets",
    "secret_kind_of_name",
]
