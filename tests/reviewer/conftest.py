"""The scripted provider server, for the reviewer's model path."""

from ..scripted_http import provider_server

__all__ = ["provider_server"]
