"""Claim check: bodies over the threshold live in the JetStream object store; the message carries a name."""

from __future__ import annotations

import hashlib

from nats.js import JetStreamContext
from nats.js.api import ObjectStoreConfig, StorageType
from nats.js.errors import NotFoundError
from nats.js.object_store import ObjectStore

from sextant.bus.buckets import LazyBucket
from sextant.bus.settings import CLAIM_BUCKET


class MissingClaimError(LookupError):
    """A message names a claim-check object that is not in the store (expired, deleted, never written)."""


class ClaimCheck:
    """Stores large bodies in an object store bucket under their content hash.

    Objects expire after ``ttl_seconds`` (the stream's max age: an object goes when the event naming
    it goes). The TTL and replicas apply when the bucket is created; an existing bucket is kept.

    Args:
        js: JetStream context.
        bucket: Bucket name.
        ttl_seconds: Object lifetime (None keeps objects until deleted).
        replicas: Copies on a NATS cluster.
    """

    def __init__(
        self,
        js: JetStreamContext,
        bucket: str = CLAIM_BUCKET,
        *,
        ttl_seconds: float | None = None,
        replicas: int = 1,
    ) -> None:
        config = ObjectStoreConfig(storage=StorageType.FILE, ttl=ttl_seconds, replicas=replicas)
        self._bucket: LazyBucket[ObjectStore] = LazyBucket(
            lambda: js.object_store(bucket), lambda: js.create_object_store(bucket, config=config)
        )

    async def put(self, body: bytes) -> str:
        """Store a body and return its claim (the object name: a content hash, so retries are idempotent)."""
        name = hashlib.sha256(body).hexdigest()
        store = await self._bucket.get()
        await store.put(name, body)
        return name

    async def get(self, claim: str) -> bytes:
        """Fetch the body a claim names.

        Raises:
            MissingClaimError: when the object is gone (a permanent condition, not worth a retry).
        """
        store = await self._bucket.get()
        try:
            result = await store.get(claim)
        except NotFoundError as error:  # ObjectNotFoundError and a vanished bucket both land here
            raise MissingClaimError(f"claim-check object {claim} is missing") from error
        return result.data or b""
