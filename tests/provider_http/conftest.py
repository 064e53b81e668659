"""The scripted provider server, for the retry policy's own tests."""

from ..scripted_http import provider_server

__all__ = ["provider_server"]
