"""How to authenticate to NATS and encrypt the connection, from the nats CLI's environment variables.

One place reads them, and every connection uses the result: the FastStream broker of each service
and the CLI (``build_broker``) and any plain nats-py client (``nats_py_options``).

| variable | meaning |
|---|---|
| ``NATS_CREDS`` | a JWT credentials file (``.creds``: user JWT + nkey seed), decentralized auth |
| ``NATS_NKEY`` | an nkey seed file (a server that lists the user's public nkey) |
| ``NATS_USER`` / ``NATS_PASSWORD`` | user and password |
| ``NATS_TOKEN`` | a token |
| ``NATS_CA`` | CA certificate file(s) to verify the server with (turns TLS on) |
| ``NATS_CERT`` / ``NATS_KEY`` | client certificate and key, for servers that verify clients |

Only one way of authenticating may be set. Secrets are read from files or the environment and
passed to the client, never put in a URL, an argument list or a log line.
"""

from __future__ import annotations

import os
import ssl
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from faststream.nats.security import NatsCredentials, NatsNKey, NatsSecurity, NatsToken, NatsUserPassword

from sextant.config import env_str

AUTH_VARIABLES = ("NATS_CREDS", "NATS_NKEY", "NATS_USER", "NATS_TOKEN")
TLS_VARIABLES = ("NATS_CA", "NATS_CERT", "NATS_KEY")


class NatsSettingsError(ValueError):
    """The NATS_* variables contradict each other or name a file that is not there."""


@dataclass(frozen=True, repr=False)
class NatsConnectionSettings:
    """Credentials and TLS for NATS connections (``repr`` hides the secrets).

    Attributes:
        creds_file: JWT credentials file.
        nkey_seed_file: Nkey seed file.
        user: User name.
        password: Password of ``user``.
        token: Token.
        ca_file: CA certificate(s) for the server.
        cert_file: Client certificate.
        key_file: Client key.
    """

    creds_file: Path | None = None
    nkey_seed_file: Path | None = None
    user: str | None = None
    password: str | None = None
    token: str | None = None
    ca_file: Path | None = None
    cert_file: Path | None = None
    key_file: Path | None = None

    def __repr__(self) -> str:
        shown = [name for name in ("creds_file", "nkey_seed_file", "user", "token", "ca_file") if getattr(self, name)]
        return f"NatsConnectionSettings({', '.join(shown) or 'anonymous'})"

    @property
    def method(self) -> str:
        """How this connection authenticates (for messages): creds, nkey, user, token or none."""
        if self.creds_file:
            return "creds"
        if self.nkey_seed_file:
            return "nkey"
        if self.user:
            return "user"
        return "token" if self.token else "none"

    def ssl_context(self) -> ssl.SSLContext | None:
        """A TLS context when NATS_CA or NATS_CERT is set; None leaves TLS to the server URL."""
        if self.ca_file is None and self.cert_file is None:
            return None
        context = ssl.create_default_context(
            ssl.Purpose.SERVER_AUTH, cafile=str(self.ca_file) if self.ca_file else None
        )
        if self.cert_file is not None:
            context.load_cert_chain(str(self.cert_file), str(self.key_file) if self.key_file else None)
        return context

    def broker_security(self) -> NatsSecurity | None:
        """The same settings as FastStream's ``security=`` argument of ``NatsBroker``."""
        context = self.ssl_context()
        if self.creds_file:
            return NatsCredentials.from_file(self.creds_file, ssl_context=context)
        if self.nkey_seed_file:
            return NatsNKey.from_file(self.nkey_seed_file, ssl_context=context)
        if self.user:
            return NatsUserPassword(self.user, self.password or "", ssl_context=context)
        if self.token:
            return NatsToken(self.token, ssl_context=context)
        return NatsSecurity(ssl_context=context) if context else None

    def nats_py_options(self) -> dict[str, Any]:
        """The same settings as keyword arguments of ``nats.connect``."""
        options: dict[str, Any] = {}
        if self.creds_file:
            options["user_credentials"] = str(self.creds_file)
        elif self.nkey_seed_file:
            options["nkeys_seed"] = str(self.nkey_seed_file)
        elif self.user:
            options["user"], options["password"] = self.user, self.password or ""
        elif self.token:
            options["token"] = self.token
        context = self.ssl_context()
        if context is not None:
            options["tls"] = context
        return options


def nats_connection_settings(env: Mapping[str, str] | None = None) -> NatsConnectionSettings:
    """Read NATS credentials and TLS files from the environment (the nats CLI's names).

    Args:
        env: The environment (None: this process's).

    Returns:
        The settings; anonymous and plain TCP when nothing is set.

    Raises:
        NatsSettingsError: when two ways of authenticating are set, a user has no password (or the
            reverse), a certificate has no key, or a named file does not exist.
    """
    env = os.environ if env is None else env
    chosen = [name for name in AUTH_VARIABLES if env_str(env, name)]
    if len(chosen) > 1:
        raise NatsSettingsError(f"set only one way of authenticating to NATS; found {', '.join(chosen)}")
    user, password = env_str(env, "NATS_USER"), env_str(env, "NATS_PASSWORD")
    if (user is None) != (password is None):
        raise NatsSettingsError("NATS_USER and NATS_PASSWORD go together")
    if (env_str(env, "NATS_CERT") is None) != (env_str(env, "NATS_KEY") is None):
        raise NatsSettingsError("NATS_CERT and NATS_KEY go together")
    return NatsConnectionSettings(
        creds_file=_existing_file(env, "NATS_CREDS"),
        nkey_seed_file=_existing_file(env, "NATS_NKEY"),
        user=user,
        password=password,
        token=env_str(env, "NATS_TOKEN"),
        ca_file=_existing_file(env, "NATS_CA"),
        cert_file=_existing_file(env, "NATS_CERT"),
        key_file=_existing_file(env, "NATS_KEY"),
    )


def _existing_file(env: Mapping[str, str], name: str) -> Path | None:
    value = env_str(env, name)
    if value is None:
        return None
    path = Path(value).expanduser()
    if not path.is_file():
        raise NatsSettingsError(f"{name} names {path}, which is not a readable file")
    return path
