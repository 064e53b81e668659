"""Follow one run through the stream: print a line per stage, stop at the awaited result or a failure."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable
from typing import TypeVar

from sextant.bootstrap import result_stages
from sextant.bus import Bus, Progress, watch_progress
from sextant.cli.describe import summarize
from sextant.contracts import AnyEvent, Event, EventParked, StageFailed, event_name

EventCallback = Callable[[AnyEvent], None]
ResultT = TypeVar("ResultT", bound=Event)


class RunFailedError(RuntimeError):
    """A stage reported that the run cannot finish."""

    def __init__(self, event: StageFailed | EventParked) -> None:
        super().__init__(summarize(event))
        self.event = event


def print_stage(event: AnyEvent) -> None:
    """The default progress line: the event name and what it says."""
    print(f"  {event_name(type(event)):<19} {summarize(event)}", file=sys.stderr)  # noqa: T201


class _ProgressLine:
    """Whether a progress bar is on screen (it must be cleared before a stage line), and which
    stages have already reported their result (late progress reports of those are ignored)."""

    drawn = False
    finished: set[str] = set()  # noqa: RUF012 — process-wide display state of one CLI command


def _clear_progress() -> None:
    if _ProgressLine.drawn:
        print("\r\033[K", end="", file=sys.stderr)  # noqa: T201
        _ProgressLine.drawn = False


def _print_progress(progress: Progress) -> None:
    if progress.stage in _ProgressLine.finished:
        return
    width = 30
    filled = int(width * progress.done / progress.total) if progress.total else 0
    bar = "#" * filled + "-" * (width - filled)
    detail = f" {progress.detail}" if progress.detail else ""
    line = f"\r  {progress.stage:<19} [{bar}] {progress.done}/{progress.total} {progress.unit}{detail}"
    print(line[:160], end="", file=sys.stderr, flush=True)  # noqa: T201
    _ProgressLine.drawn = True


async def _show_progress(bus: Bus, run_id: str) -> None:
    with contextlib.suppress(asyncio.CancelledError):
        async for progress in watch_progress(bus, run_id):
            _print_progress(progress)


async def await_result(
    bus: Bus,
    request: Event,
    result_type: type[ResultT],
    *,
    on_event: EventCallback = print_stage,
    show_progress: bool = True,
) -> ResultT:
    """Publish ``request`` and wait for the ``result_type`` event of its run.

    Args:
        bus: Connected bus.
        request: The event that starts the run.
        result_type: The event that ends the wait.
        on_event: Called for each event of the run (progress lines).
        show_progress: Draw live progress bars from the stages' progress reports.

    Returns:
        The awaited event.

    Raises:
        RunFailedError: when a stage reports StageFailed or a message of the run is parked.
    """
    after = await bus.last_sequence()
    progress_task = asyncio.create_task(_show_progress(bus, request.run_id)) if show_progress else None
    try:
        await bus.publish(request)
        subject = f"sextant.*.*.{request.repo.repo_key}"
        async for _, event, _ in bus.read(subject, follow=True, after_sequence=after):
            if event is None or event.run_id != request.run_id:
                continue
            _clear_progress()
            _ProgressLine.finished.add(result_stages().get(event_name(type(event)), ""))
            on_event(event)
            if isinstance(event, StageFailed | EventParked):
                raise RunFailedError(event)
            if isinstance(event, result_type):
                return event
    finally:
        if progress_task is not None:
            progress_task.cancel()
        _clear_progress()
    raise RuntimeError("the event stream ended before the run finished")
