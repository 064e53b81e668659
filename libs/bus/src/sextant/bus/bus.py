"""The bus: one connection, acting as one service; publishing, delivery and reading live in their modules."""

from __future__ import annotations

import asyncio
import copy
import os
from collections.abc import AsyncIterator, Mapping

from faststream.nats import NatsBroker, NatsRouter
from faststream.nats.opentelemetry import NatsTelemetryMiddleware
from nats.aio.msg import Msg
from nats.js import JetStreamContext

from sextant.bus.claim_check import ClaimCheck
from sextant.bus.handback import read_handbacks
from sextant.bus.leases import Leases
from sextant.bus.publishing import publish_event
from sextant.bus.reading import decode_body, last_sequence, read_stream
from sextant.bus.settings import CLAIM_CHECK_THRESHOLD_BYTES, DeliveryPolicy
from sextant.bus.stream import ensure_stream
from sextant.bus.stream_settings import StreamSettings, stream_settings_from_env
from sextant.contracts import AnyEvent, Event
from sextant.telemetry import current_tracing
from sextant.telemetry.tracing import DEFAULT_SERVICE


class Bus:
    """Publishing and consuming Sextant events over one FastStream NATS broker.

    Args:
        broker: A connected (or about to be started) FastStream ``NatsBroker``.
        claim_threshold: Body size above which the claim check is used.
        delivery: Acknowledgement and redelivery settings of the consumers it runs.
        service: The service it acts as (spans report under this name).
        stream: Limits to create the stream and the claim-check bucket with when they are missing
            (None: from ``SEXTANT_STREAM_*`` in the environment, see ``sextant.bus.stream_settings``).
    """

    def __init__(
        self,
        broker: NatsBroker,
        *,
        claim_threshold: int = CLAIM_CHECK_THRESHOLD_BYTES,
        delivery: DeliveryPolicy | None = None,
        service: str = DEFAULT_SERVICE,
        stream: StreamSettings | None = None,
    ) -> None:
        self.broker = broker
        self.stream = stream or stream_settings_from_env(os.environ)
        self.claim_threshold = claim_threshold
        self.delivery = delivery or DeliveryPolicy()
        self.service = service
        self._claims: ClaimCheck | None = None
        self._leases: Leases | None = None
        self.durables: set[str] = set()
        """Durable consumers this process runs (shared by every view); ``connect`` makes each one
        made before hand-backs existed read its handed-back copies too."""
        self.stopping = asyncio.Event()
        """Set when ``close`` begins (shared by every view of this bus): a long handler checks it
        between units of work and gives its delivery back (``DeliveryAbandoned``) instead of being
        cut short mid-write."""

    def for_service(self, service: str) -> Bus:
        """The same connection, acting as ``service`` (its spans report under that name)."""
        view = copy.copy(self)
        view.service = service
        return view

    def router(self) -> NatsRouter:
        """A router for this service, with FastStream's telemetry middleware on its provider."""
        tracing = current_tracing()
        if tracing is None:
            return NatsRouter()
        provider = tracing.provider(self.service)
        return NatsRouter(middlewares=(NatsTelemetryMiddleware(tracer_provider=provider),))

    @property
    def js(self) -> JetStreamContext:
        """JetStream context of the broker's connection (after connect)."""
        return self.broker.connection.jetstream()

    @property
    def claims(self) -> ClaimCheck:
        """The claim-check object store."""
        if self._claims is None:
            self._claims = ClaimCheck(
                self.js, ttl_seconds=float(self.stream.max_age_seconds), replicas=self.stream.replicas
            )
        return self._claims

    @property
    def leases(self) -> Leases:
        """Leases shared by every process on this bus (see ``sextant.bus.leases``)."""
        if self._leases is None:
            self._leases = Leases(self.js, replicas=self.stream.replicas)
        return self._leases

    async def connect(self) -> None:
        """Connect the broker, make sure the stream exists and every durable reads its hand-backs."""
        await self.broker.connect()
        await ensure_stream(self.js, self.stream)
        for durable in sorted(self.durables):
            await read_handbacks(self.js, durable)

    async def publish(self, event: Event) -> bool:
        """Publish an event on its subject, once (see ``sextant.bus.publishing.publish_event``).

        Returns:
            False when JetStream reported the event as a duplicate of one already stored.
        """
        return await publish_event(
            self.broker, self.claims, event, service=self.service, claim_threshold=self.claim_threshold
        )

    async def decode(self, data: bytes, headers: Mapping[str, str] | None) -> AnyEvent:
        """Decode a message body, resolving a claim check transparently."""
        return await decode_body(self.claims, data, headers)

    async def last_sequence(self) -> int:
        """Sequence of the newest message in the stream (0 when empty)."""
        return await last_sequence(self.js)

    def read(
        self, subject: str = "sextant.>", *, follow: bool = False, after_sequence: int | None = None
    ) -> AsyncIterator[tuple[int, AnyEvent | None, Msg]]:
        """Read the stream in order (see ``sextant.bus.reading.read_stream``)."""
        return read_stream(self.js, self.claims, subject, follow=follow, after_sequence=after_sequence)

    async def close(self) -> None:
        """Stop consuming, let the deliveries in flight settle, then close the broker connection."""
        self.stopping.set()
        await self.broker.stop()
