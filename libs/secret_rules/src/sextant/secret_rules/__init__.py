"""What counts as a secret, defined once: the environment a child process may inherit, and the masks
repository text goes through before it reaches a hosted model or an event."""

from sextant.secret_rules.child_environment import (
    CREDENTIAL_NAME_PARTS,
    RUNTIME_VARIABLES,
    child_environment,
    looks_like_credential,
)

__all__ = [
    "CREDENTIAL_NAME_PARTS",
    "RUNTIME_VARIABLES",
    "child_environment",
    "looks_like_credential",
]
