"""Waiting for a run: publish its request, follow its events, stop at the result, a failure or silence."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from typing import TypeVar, cast

from nats.js.api import ConsumerInfo

from sextant.bus.bus import Bus
from sextant.bus.progress import Progress, watch_progress
from sextant.contracts import STREAM_NAME, AnyEvent, Event, EventParked, StageFailed, event_name, subject_for

ResultT = TypeVar("ResultT", bound=Event)
EventCallback = Callable[[AnyEvent], None]
ProgressCallback = Callable[[Progress], None]

News = AnyEvent | Progress | Exception | None
"""What the waiting side hears: an event of the run, a progress report, a reader's error, or the end."""


class RunFailedError(RuntimeError):
    """The run cannot finish: a stage reported StageFailed, or a message of the run was parked.

    ``event`` is that StageFailed or EventParked (None for a run that went quiet instead).
    """

    def __init__(self, event: StageFailed | EventParked | None, message: str | None = None) -> None:
        super().__init__(message or (describe_failure(event) if event is not None else "the run failed"))
        self.event = event


class RunStalledError(RunFailedError):
    """Nothing was heard of the run for the whole deadline; the message says which stage went quiet."""

    def __init__(self, message: str, *, last_event: Event, quiet_consumers: tuple[str, ...]) -> None:
        super().__init__(None, message)
        self.last_event = last_event
        self.quiet_consumers = quiet_consumers


def describe_failure(event: StageFailed | EventParked) -> str:
    """One line saying which stage gave up and why."""
    if isinstance(event, StageFailed):
        return f"{event.stage}: {event.reason}"
    where = f"seq {event.stream_sequence} after {event.deliveries} deliveries"
    return f"{event.consumer} parked {where}: {event.reason}"


async def await_result(
    bus: Bus,
    request: Event,
    result_type: type[ResultT],
    *,
    on_event: EventCallback | None = None,
    on_progress: ProgressCallback | None = None,
    quiet_seconds: float | None = None,
) -> ResultT:
    """Publish ``request`` and wait for the ``result_type`` event of its run.

    Args:
        bus: Connected bus.
        request: The event that starts the run.
        result_type: The event that ends the wait.
        on_event: Called for each event of the run.
        on_progress: Called for each live progress report of the run.
        quiet_seconds: Give up after this many seconds without any event or progress report of the run
            (a long stage that reports progress is not quiet); None waits for as long as it takes.

    Returns:
        The awaited event.

    Raises:
        RunFailedError: when a stage reports StageFailed or a message of the run is parked.
        RunStalledError: when the run goes quiet for ``quiet_seconds``.
    """
    found = await await_events(
        bus,
        request,
        (result_type,),
        after=await bus.last_sequence(),
        publish=True,
        on_event=on_event,
        on_progress=on_progress,
        quiet_seconds=quiet_seconds,
    )
    return cast("ResultT", found[result_type])


async def await_events(
    bus: Bus,
    heard: Event,
    wanted: Sequence[type[Event]],
    *,
    after: int,
    publish: bool = False,
    on_event: EventCallback | None = None,
    on_progress: ProgressCallback | None = None,
    quiet_seconds: float | None = None,
) -> dict[type[Event], Event]:
    """Wait until the run of ``heard`` has published one event of each ``wanted`` type, in any order.

    Args:
        bus: Connected bus.
        heard: The run's last event known to the caller (its request, or a result already shown): the
            run and repository followed, and where a stall diagnosis starts.
        wanted: The events to wait for.
        after: Stream sequence to read the run's events after.
        publish: Publish ``heard`` once the readers are listening (it is the run's request).
        on_event: Called for each event of the run.
        on_progress: Called for each live progress report of the run.
        quiet_seconds: Give up after this many seconds without any event or progress report of the run;
            None waits for as long as it takes.

    Returns:
        The first event of each wanted type, by type.

    Raises:
        RunFailedError: when a stage reports StageFailed or a message of the run is parked.
        RunStalledError: when the run goes quiet for ``quiet_seconds`` (it names the awaited events
            and the consumers of the last event heard).
    """
    news: asyncio.Queue[News] = asyncio.Queue()
    tasks = [
        asyncio.create_task(_pump_events(bus, heard, after, news)),
        asyncio.create_task(_pump_progress(bus, heard.run_id, news)),
    ]
    last_event: Event = heard
    found: dict[type[Event], Event] = {}
    try:
        if publish:
            await bus.publish(heard)
        while len(found) < len(wanted):
            try:
                event = await _next_event(news, quiet_seconds, on_progress)
            except TimeoutError:
                missing = [event_name(kind) for kind in wanted if kind not in found]
                raise await _stalled(bus, last_event, quiet_seconds or 0.0, missing) from None
            last_event = event
            if on_event is not None:
                on_event(event)
            if isinstance(event, StageFailed | EventParked):
                raise RunFailedError(event)
            for kind in wanted:
                if isinstance(event, kind):
                    found.setdefault(kind, event)
        return found
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


async def _next_event(
    news: asyncio.Queue[News], quiet_seconds: float | None, on_progress: ProgressCallback | None
) -> AnyEvent:
    """The run's next event, handing progress reports on; TimeoutError after ``quiet_seconds`` of silence."""
    while True:
        item = await asyncio.wait_for(news.get(), quiet_seconds)
        if item is None:
            raise RuntimeError("the event stream ended before the run finished")
        if isinstance(item, Exception):
            raise item
        if not isinstance(item, Progress):
            return item
        if on_progress is not None:
            on_progress(item)


async def _pump_events(bus: Bus, request: Event, after: int, news: asyncio.Queue[News]) -> None:
    try:
        subject = f"sextant.*.*.{request.repo.repo_key}"
        async for _, event, _ in bus.read(subject, follow=True, after_sequence=after):
            if event is not None and event.run_id == request.run_id:
                await news.put(event)
    except Exception as error:  # handed to the waiting side, which raises it
        await news.put(error)
    await news.put(None)


async def _pump_progress(bus: Bus, run_id: str, news: asyncio.Queue[News]) -> None:
    async for progress in watch_progress(bus, run_id):
        await news.put(progress)


async def _stalled(bus: Bus, last_event: Event, quiet_seconds: float, waiting_for: Sequence[str]) -> RunStalledError:
    """Say which stage went quiet: the durable consumers of the last event heard, and their state."""
    name = event_name(type(last_event))
    consumers = [info for info in await _durable_consumers(bus) if _consumes(info, subject_for(last_event))]
    heard = f"no news of run {last_event.run_id} for {quiet_seconds:g} s after {name}"
    if waiting_for:
        heard += f" (waiting for {', '.join(waiting_for)})"
    if not consumers:
        message = f"{heard}: nothing on this bus consumes {name} (is the service that handles it running?)"
    else:
        states = ", ".join(
            f"{info.name} ({info.num_pending or 0} waiting, {info.num_ack_pending or 0} in hand, "
            f"{info.num_waiting or 0} pulls open)"
            for info in consumers
        )
        message = f"{heard}: quiet stage {states}"
    names = tuple(info.name for info in consumers)
    return RunStalledError(message, last_event=last_event, quiet_consumers=names)


async def _durable_consumers(bus: Bus) -> list[ConsumerInfo]:
    with contextlib.suppress(Exception):  # a diagnosis is best effort; the stall is reported anyway
        return [info for info in await bus.js.consumers_info(STREAM_NAME) if info.config.durable_name]
    return []


def _consumes(info: ConsumerInfo, subject: str) -> bool:
    filters = [info.config.filter_subject] if info.config.filter_subject else []
    filters += info.config.filter_subjects or []
    return any(subject_matches(pattern, subject) for pattern in filters) or not filters


def subject_matches(pattern: str, subject: str) -> bool:
    """Whether a NATS subject filter (``*`` one token, ``>`` the rest) matches ``subject``."""
    wanted, tokens = pattern.split("."), subject.split(".")
    for index, part in enumerate(wanted):
        if part == ">":
            return len(tokens) > index
        if index >= len(tokens) or part not in ("*", tokens[index]):
            return False
    return len(wanted) == len(tokens)
