"""Declare the one stream that holds every event, idempotently."""

from __future__ import annotations

from nats.js import JetStreamContext
from nats.js.api import StorageType, StreamConfig
from nats.js.errors import NotFoundError

from sextant.bus.settings import DUPLICATE_WINDOW_SECONDS
from sextant.contracts import STREAM_NAME, STREAM_SUBJECTS


def stream_config() -> StreamConfig:
    """The SEXTANT stream: every subject under ``sextant.>``, on disk, with de-duplication."""
    return StreamConfig(
        name=STREAM_NAME,
        subjects=list(STREAM_SUBJECTS),
        storage=StorageType.FILE,
        duplicate_window=DUPLICATE_WINDOW_SECONDS,
        description="Sextant events: the system's record of every request and result",
    )


async def ensure_stream(js: JetStreamContext) -> None:
    """Create the stream, or bring an existing one's settings up to date. Safe to call repeatedly."""
    config = stream_config()
    try:
        await js.stream_info(STREAM_NAME)
    except NotFoundError:
        await js.add_stream(config)
        return
    await js.update_stream(config)
