"""Secrets of our own planted in the environment, to check that no child process is handed one.

Our environment holds provider keys, chat tokens, forge tokens and the bus password; a child that
reads repository text (git, nats-server, the parse worker) needs none of them. A test plants these,
starts the child, reads back the environment the child really got, and asks ``held_secrets``.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

OUR_SECRETS = {
    "ANTHROPIC_API_KEY": "sk-ant-test-planted-0123456789abcdef",
    "OPENAI_API_KEY": "sk-test-planted-openai-0123456789abcdef",
    "COHERE_API_KEY": "planted-cohere-key-0123456789abcdef",
    "SLACK_BOT_TOKEN": "xoxb-planted-0123456789-abcdef",
    "SLACK_SIGNING_SECRET": "planted-signing-secret-0123",
    "NATS_URL": "nats://sextant:planted-bus-password@127.0.0.1:4222",
    "NATS_PASSWORD": "planted-bus-password-2",
    "SEXTANT_GITHUB_TOKEN": "ghp_plantedplantedplantedplanted0000",
    "SOME_NEW_SERVICE_CREDENTIAL": "planted-unlisted-name-0123",
}
"""Name -> value, under the names we read and one nobody listed (an allow-list keeps it home too)."""


def plant_our_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Put every planted secret into this process's environment for the rest of the test."""
    for name, value in OUR_SECRETS.items():
        monkeypatch.setenv(name, value)


def held_secrets(environment: Mapping[str, str]) -> set[str]:
    """The names of a child's variables whose value holds one of the planted secrets."""
    return {name for name, value in environment.items() if any(secret in value for secret in OUR_SECRETS.values())}
