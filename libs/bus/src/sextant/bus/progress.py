"""Live progress of a run: core NATS messages beside the stream, never part of the record."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Protocol

import msgspec

if TYPE_CHECKING:
    from sextant.bus.bus import Bus

PROGRESS_PREFIX = "sextant-progress"
"""Core NATS (not JetStream) subjects for live progress: ephemeral, never part of the record."""
PROGRESS_INTERVAL_SECONDS = 0.5
"""Least time between two throttled progress reports (the last one is always sent)."""


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


class ProgressSender(Protocol):
    """Sends ``done`` of ``total`` in the background unless a report went out too recently (``last`` always goes)."""

    def __call__(self, done: int, total: int, detail: str, *, last: bool) -> None: ...


def throttled_progress_sender(
    bus: Bus, run_id: str, stage: str, unit: str, interval_seconds: float = PROGRESS_INTERVAL_SECONDS
) -> ProgressSender:
    """A throttled, best-effort publisher of one stage's progress reports of a run (called in the event loop).

    Args:
        bus: The bus to publish on.
        run_id: The run reported on.
        stage: The reporting stage.
        unit: What ``done`` and ``total`` count.
        interval_seconds: Least time between two reports; a report marked ``last`` is always sent.

    Returns:
        ``send(done, total, detail, last=...)``; each report is a task kept referenced until it is published.
    """
    pending: set[asyncio.Task[None]] = set()
    last_sent = 0.0

    def send(done: int, total: int, detail: str, *, last: bool) -> None:
        nonlocal last_sent
        now = time.monotonic()
        if not last and now - last_sent < interval_seconds:
            return
        last_sent = now
        progress = Progress(run_id=run_id, stage=stage, done=done, total=total, unit=unit, detail=detail)
        task = asyncio.get_running_loop().create_task(report_progress(bus, progress))
        pending.add(task)  # keep a reference until it is sent
        task.add_done_callback(pending.discard)

    return send


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
