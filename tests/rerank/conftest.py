"""The scripted provider server, for the rerank tests."""

from ..support.provider_server import provider_server

__all__ = ["provider_server"]
