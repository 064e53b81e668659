"""The one stream that holds every event: created with bounded limits when missing, never changed after.

The stream belongs to whoever runs NATS. A service that finds it already there uses it as it is and
only warns when its limits differ from the ones it would have chosen (so an operator's R3, longer
retention or larger budget survives every service restart).
"""

from __future__ import annotations

import logging

from nats.js import JetStreamContext
from nats.js.api import DiscardPolicy, StorageType, StreamConfig
from nats.js.errors import BadRequestError, NotFoundError

from sextant.bus.settings import DUPLICATE_WINDOW_SECONDS
from sextant.bus.stream_settings import StreamSettings
from sextant.contracts import STREAM_NAME, STREAM_SUBJECTS

logger = logging.getLogger(__name__)


def stream_config(settings: StreamSettings | None = None) -> StreamConfig:
    """The SEXTANT stream: every subject under ``sextant.>``, on disk, de-duplicated, bounded.

    Args:
        settings: Limits (the bounded defaults when None).

    Returns:
        The configuration Sextant creates the stream with.
    """
    settings = settings or StreamSettings()
    return StreamConfig(
        name=STREAM_NAME,
        subjects=list(STREAM_SUBJECTS),
        storage=StorageType.FILE,
        duplicate_window=DUPLICATE_WINDOW_SECONDS,
        num_replicas=settings.replicas,
        max_age=float(settings.max_age_seconds),
        max_bytes=settings.max_bytes,
        max_msgs_per_subject=settings.max_msgs_per_subject,
        discard=DiscardPolicy.OLD,
        description="Sextant events: the system's record of every request and result",
    )


async def ensure_stream(js: JetStreamContext, settings: StreamSettings | None = None) -> None:
    """Create the stream when it is missing; leave an existing one alone (warn when it differs).

    Args:
        js: JetStream context.
        settings: Limits to create it with.
    """
    wanted = stream_config(settings)
    try:
        info = await js.stream_info(STREAM_NAME)
    except NotFoundError:
        try:
            await js.add_stream(wanted)
        except BadRequestError:  # another service created it first, with other settings
            info = await js.stream_info(STREAM_NAME)
        else:
            logger.info("created stream %s (%s)", STREAM_NAME, _limits(wanted))
            return
    differences = stream_differences(info.config, wanted)
    if differences:
        logger.warning(
            "stream %s is kept as its operator configured it; it differs from this service's settings: %s",
            STREAM_NAME,
            "; ".join(differences),
        )


def stream_differences(existing: StreamConfig, wanted: StreamConfig) -> list[str]:
    """What differs between an existing stream and the one we would create, one line per field."""
    differences = []
    for field in ("num_replicas", "max_age", "max_bytes", "max_msgs_per_subject", "duplicate_window"):
        have, want = getattr(existing, field), getattr(wanted, field)
        if _normal(have) != _normal(want):
            differences.append(f"{field} is {have}, settings say {want}")
    missing = set(wanted.subjects or ()) - set(existing.subjects or ())
    if missing:
        differences.append(f"subjects lack {sorted(missing)} (events there are not stored)")
    return differences


def _normal(value: object) -> object:
    if isinstance(value, float | int):
        return round(float(value), 3)
    return value


def _limits(config: StreamConfig) -> str:
    return (
        f"replicas {config.num_replicas}, max_age {config.max_age:g} s, max_bytes {config.max_bytes}, "
        f"max_msgs_per_subject {config.max_msgs_per_subject}"
    )
