"""Live progress of a run: core NATS messages beside the stream, never part of the record."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    from sextant.bus.bus import Bus

PROGRESS_PREFIX = "sextant-progress"
"""Core NATS (not JetStream) subjects for live progress: ephemeral, never part of the record."""


class Progress(msgspec.Struct, frozen=True, kw_only=True):
    """A live progress report of one stage of one run."""

    run_id: str
    stage: str
    done: int
    total: int
    unit: str = "files"
    detail: str = ""


async def report_progress(bus: Bus, progress: Progress) -> None:
    """Publish a progress report (best effort: a lost report changes nothing)."""
    with contextlib.suppress(Exception):
        await bus.broker.connection.publish(f"{PROGRESS_PREFIX}.{progress.run_id}", msgspec.json.encode(progress))


async def watch_progress(bus: Bus, run_id: str) -> AsyncIterator[Progress]:
    """Progress reports of one run, as they come."""
    subscription = await bus.broker.connection.subscribe(f"{PROGRESS_PREFIX}.{run_id}")
    try:
        async for raw in subscription.messages:
            with contextlib.suppress(msgspec.DecodeError):
                yield msgspec.json.decode(raw.data, type=Progress)
    finally:
        with contextlib.suppress(Exception):
            await subscription.unsubscribe()
