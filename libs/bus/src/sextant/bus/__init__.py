"""JetStream bus: broker factory, stream, publishing, delivery, reading a run, embedded nats-server."""

from sextant.bus.broker import build_broker
from sextant.bus.bus import Bus
from sextant.bus.claim_check import MissingClaimError
from sextant.bus.connection import NatsConnectionSettings, NatsSettingsError, nats_connection_settings
from sextant.bus.consumers import consume
from sextant.bus.delivery import DeliveryAbandoned, EventHandler, durable_consumer_config
from sextant.bus.leases import Lease, Leases
from sextant.bus.nats_server import EmbeddedNats, NatsServerError, StoreInUseError, find_nats_server
from sextant.bus.progress import Progress, ProgressSender, report_progress, throttled_progress_sender, watch_progress
from sextant.bus.publishing import UnpublishableEventError
from sextant.bus.run_wait import RunFailedError, RunStalledError, await_events, await_result
from sextant.bus.serve import (
    RouterFactory,
    ServiceSpec,
    serve,
    start_routers,
    wait_for_stop_signal,
)
from sextant.bus.settings import DeliveryPolicy
from sextant.bus.stream_settings import StreamSettings, stream_settings_from_env

__all__ = [
    "Bus",
    "DeliveryAbandoned",
    "DeliveryPolicy",
    "EmbeddedNats",
    "EventHandler",
    "Lease",
    "Leases",
    "MissingClaimError",
    "NatsConnectionSettings",
    "NatsServerError",
    "NatsSettingsError",
    "Progress",
    "ProgressSender",
    "RouterFactory",
    "RunFailedError",
    "RunStalledError",
    "ServiceSpec",
    "StoreInUseError",
    "StreamSettings",
    "UnpublishableEventError",
    "await_events",
    "await_result",
    "build_broker",
    "consume",
    "durable_consumer_config",
    "find_nats_server",
    "nats_connection_settings",
    "report_progress",
    "serve",
    "start_routers",
    "stream_settings_from_env",
    "throttled_progress_sender",
    "wait_for_stop_signal",
    "watch_progress",
]
