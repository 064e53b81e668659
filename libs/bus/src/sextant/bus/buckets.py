"""A JetStream bucket (object store or key-value) opened on first use, and created only where it is missing.

The settings given at creation (TTL, replicas, history) apply to a new bucket; an existing one is
kept as its operator configured it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

from nats.js.errors import BucketNotFoundError

B = TypeVar("B")


class LazyBucket(Generic[B]):
    """Opens the bucket once, on the first ``get``; creates it when opening finds none."""

    def __init__(self, open_bucket: Callable[[], Awaitable[B]], create_bucket: Callable[[], Awaitable[B]]) -> None:
        self._open = open_bucket
        self._create = create_bucket
        self._bucket: B | None = None

    async def get(self) -> B:
        """The bucket (opened, or created, on the first call)."""
        if self._bucket is None:
            try:
                self._bucket = await self._open()
            except BucketNotFoundError:
                self._bucket = await self._create()
        return self._bucket
