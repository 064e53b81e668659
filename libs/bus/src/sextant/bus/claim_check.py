"""Claim check: bodies over the threshold live in the JetStream object store; the message carries a name."""

from __future__ import annotations

import hashlib

from nats.js import JetStreamContext
from nats.js.api import ObjectStoreConfig, StorageType
from nats.js.errors import BucketNotFoundError, NotFoundError
from nats.js.object_store import ObjectStore

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
        self._js = js
        self._bucket_name = bucket
        self._ttl_seconds = ttl_seconds
        self._replicas = replicas
        self._store: ObjectStore | None = None

    async def _bucket(self) -> ObjectStore:
        if self._store is None:
            try:
                self._store = await self._js.object_store(self._bucket_name)
            except BucketNotFoundError:
                config = ObjectStoreConfig(storage=StorageType.FILE, ttl=self._ttl_seconds, replicas=self._replicas)
                self._store = await self._js.create_object_store(self._bucket_name, config=config)
        return self._store

    async def put(self, body: bytes) -> str:
        """Store a body and return its claim (the object name: a content hash, so retries are idempotent)."""
        name = hashlib.sha256(body).hexdigest()
        store = await self._bucket()
        await store.put(name, body)
        return name

    async def get(self, claim: str) -> bytes:
        """Fetch the body a claim names.

        Raises:
            MissingClaimError: when the object is gone (a permanent condition, not worth a retry).
        """
        store = await self._bucket()
        try:
            result = await store.get(claim)
        except NotFoundError as error:  # ObjectNotFoundError and a vanished bucket both land here
            raise MissingClaimError(f"claim-check object {claim} is missing") from error
        return result.data or b""
