"""The scripted provider server, for the language-model tests."""

from ..support.provider_server import provider_server

__all__ = ["provider_server"]
