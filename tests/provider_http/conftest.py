"""The scripted provider server, for the retry policy's own tests."""

from ..support.provider_server import provider_server

__all__ = ["provider_server"]
