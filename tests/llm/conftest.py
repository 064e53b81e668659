"""The scripted provider server, for the language-model tests."""

from ..scripted_http import provider_server

__all__ = ["provider_server"]
