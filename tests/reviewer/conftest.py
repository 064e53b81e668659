"""The scripted provider server, for the reviewer's model path."""

from ..support.provider_server import provider_server

__all__ = ["provider_server"]
