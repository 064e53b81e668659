"""The scripted provider server, for the rerank tests."""

from ..scripted_http import provider_server

__all__ = ["provider_server"]
