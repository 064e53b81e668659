"""Connect to NATS the way the nats CLI does: NATS_URL plus credentials from the environment."""

from __future__ import annotations

import ssl
from collections.abc import Mapping
from typing import Any

from sextant.config import env_str

CONNECT_TIMEOUT_SECONDS = 5.0
"""How long one connection attempt may take; a publisher never retries for long (CI must fail fast)."""


class ConnectionSettingsError(ValueError):
    """The NATS settings are incomplete or contradictory; the message names the variable."""


def _tls_context(env: Mapping[str, str]) -> ssl.SSLContext | None:
    ca, cert, key = env_str(env, "NATS_CA"), env_str(env, "NATS_CERT"), env_str(env, "NATS_KEY")
    if not (ca or cert or key):
        return None
    if bool(cert) != bool(key):
        raise ConnectionSettingsError("set both NATS_CERT and NATS_KEY (a client certificate needs its key)")
    context = ssl.create_default_context(cafile=ca)
    if cert and key:
        context.load_cert_chain(cert, key)
    return context


def connect_options(env: Mapping[str, str]) -> dict[str, Any]:
    """Keyword arguments for ``nats.connect`` from NATS_* variables (the nats CLI's names).

    NATS_CREDS (JWT creds file), NATS_NKEY (nkey seed file), NATS_USER and NATS_PASSWORD, NATS_TOKEN,
    and TLS with NATS_CA, NATS_CERT and NATS_KEY. Values are passed to the client, never logged.

    Args:
        env: Environment variables.

    Returns:
        Options (servers, timeouts, credentials).

    Raises:
        ConnectionSettingsError: when NATS_URL is unset or a setting is half given.
    """
    url = env_str(env, "NATS_URL")
    if url is None:
        raise ConnectionSettingsError("NATS_URL is not set: point it at the NATS server Sextant consumes from")
    options: dict[str, Any] = {
        "servers": [part.strip() for part in url.split(",") if part.strip()],
        "connect_timeout": CONNECT_TIMEOUT_SECONDS,
        "allow_reconnect": False,
        "max_reconnect_attempts": 0,
    }
    if creds := env_str(env, "NATS_CREDS"):
        options["user_credentials"] = creds
    if seed := env_str(env, "NATS_NKEY"):
        options["nkeys_seed"] = seed
    user, password = env_str(env, "NATS_USER"), env_str(env, "NATS_PASSWORD")
    if bool(user) != bool(password):
        raise ConnectionSettingsError("set both NATS_USER and NATS_PASSWORD, or neither")
    if user and password:
        options["user"], options["password"] = user, password
    if token := env_str(env, "NATS_TOKEN"):
        options["token"] = token
    if context := _tls_context(env):
        options["tls"] = context
    return options
