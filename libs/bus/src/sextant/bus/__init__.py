"""JetStream bus: broker factory, stream, publishing, delivery, reading a run, embedded nats-server."""

from sextant.bus.broker import build_broker
from sextant.bus.bus import Bus
from sextant.bus.claim_check import MissingClaimError
from sextant.bus.consumers import consume
from sextant.bus.delivery import EventHandler, durable_consumer_config
from sextant.bus.nats_server import EmbeddedNats, NatsServerError, find_nats_server
from sextant.bus.progress import Progress, report_progress, watch_progress
from sextant.bus.publishing import UnpublishableEventError
from sextant.bus.run_wait import RunFailedError, RunStalledError, await_result
from sextant.bus.serve import (
    RouterFactory,
    ServiceSpec,
    run_service,
    serve,
    start_routers,
    wait_for_stop_signal,
)
from sextant.bus.settings import DeliveryPolicy

__all__ = [
    "Bus",
    "DeliveryPolicy",
    "EmbeddedNats",
    "EventHandler",
    "MissingClaimError",
    "NatsServerError",
    "Progress",
    "RouterFactory",
    "RunFailedError",
    "RunStalledError",
    "ServiceSpec",
    "UnpublishableEventError",
    "await_result",
    "build_broker",
    "consume",
    "durable_consumer_config",
    "find_nats_server",
    "report_progress",
    "run_service",
    "serve",
    "start_routers",
    "wait_for_stop_signal",
    "watch_progress",
]
