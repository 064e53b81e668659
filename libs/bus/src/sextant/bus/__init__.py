"""JetStream bus: broker factory, stream, claim check, durable consumers, embedded nats-server."""

from sextant.bus.broker import build_broker
from sextant.bus.bus import (
    Bus,
    EventHandler,
    Progress,
    durable_consumer_config,
    report_progress,
    watch_progress,
)
from sextant.bus.consumers import consume
from sextant.bus.nats_server import EmbeddedNats, NatsServerError, find_nats_server
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
    "NatsServerError",
    "Progress",
    "RouterFactory",
    "ServiceSpec",
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
