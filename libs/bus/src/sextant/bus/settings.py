"""Bus constants: stream, consumers, redelivery and the claim-check threshold. Defined once."""

from __future__ import annotations

from dataclasses import dataclass

ACK_WAIT_SECONDS = 60.0
"""How long a delivery may go unacknowledged; handlers send in-progress heartbeats while working."""

HEARTBEAT_SECONDS = 15.0
"""Interval of in-progress acknowledgements while a handler is busy."""

MAX_DELIVER = 5
"""Deliveries before a message is parked (recorded as EventParked and terminated)."""

REDELIVERY_BACKOFF_SECONDS = (1.0, 5.0, 15.0, 30.0)
"""Delay before each redelivery after a failure."""

DUPLICATE_WINDOW_SECONDS = 600.0
"""JetStream de-duplication window; at least the longest ack wait (with redeliveries)."""

PUBLISH_ACK_TIMEOUT_SECONDS = 30.0
"""How long a publish waits for JetStream's acknowledgement. FastStream's own default is half a
second: on a replicated stream the ack waits for a quorum of servers to write (and fsync) the
message, which on a loaded machine takes longer, so every publish from a handler timed out."""

PUBLISH_ATTEMPTS = 5
"""Tries of one publish when the stream has no leader for a moment (an election after a server
died or fell behind): the same message id each time, so a retry is stored once."""

PUBLISH_RETRY_PAUSE_SECONDS = 1.0
"""Pause between those tries: long enough for a replicated stream to elect a new leader."""

CLAIM_CHECK_THRESHOLD_BYTES = 256 * 1024
"""Events larger than this travel through the object store (NATS max_payload is 1 MiB)."""

CLAIM_BUCKET = "sextant-claims"
"""Object store bucket holding claim-checked payloads."""

CLAIM_HEADER = "Sextant-Claim"
"""Header naming the object that holds the real body."""

EVENT_TYPE_HEADER = "Sextant-Event-Type"
"""Header carrying the event name, so tools can filter without decoding bodies."""

RUN_ID_HEADER = "Sextant-Run-Id"
"""Header carrying the event's run id, so even a body nobody can decode is parked under its run."""

HANDBACK_SUBJECT_PREFIX = "sextant.handback"
"""Subjects of deliveries handed back at shutdown: ``sextant.handback.<durable>.<event>.<repo_key>``,
read only by that durable (its second filter subject)."""

EARLIER_DELIVERIES_HEADER = "Sextant-Earlier-Deliveries"
"""On a handed-back copy: deliveries of the work that counted before it (failures, crashes), so a
shutdown neither spends an attempt nor gives back the ones already spent."""

HANDED_BACK_FROM_HEADER = "Sextant-Handed-Back-From"
"""On a handed-back copy: the stream sequence of the message it replaces."""


@dataclass(frozen=True)
class DeliveryPolicy:
    """How a consumer acknowledges and retries; the constants above are the production values."""

    ack_wait_seconds: float = ACK_WAIT_SECONDS
    heartbeat_seconds: float = HEARTBEAT_SECONDS
    max_deliver: int = MAX_DELIVER
    backoff_seconds: tuple[float, ...] = REDELIVERY_BACKOFF_SECONDS
