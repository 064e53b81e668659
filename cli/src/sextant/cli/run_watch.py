"""Follow one run through the stream: print a line per stage, stop at the awaited result or a failure."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from typing import TypeVar

from sextant.bootstrap import result_stages
from sextant.bus import Bus, Progress, RunFailedError, RunStalledError
from sextant.bus import await_result as wait_for_result
from sextant.cli.describe import summarize
from sextant.cli.progress_bars import LiveBars
from sextant.contracts import AnyEvent, Event, event_name

__all__ = ["RunFailedError", "RunStalledError", "await_result", "print_stage"]

EventCallback = Callable[[AnyEvent], None]
ResultT = TypeVar("ResultT", bound=Event)

RUN_QUIET_SECONDS = 900.0
"""How long the CLI waits without any event or progress report of its run before saying which stage
went quiet. Generous: a first analysis of a large repository embeds for minutes between events, but
its progress reports count as news."""


def print_stage(event: AnyEvent) -> None:
    """The default progress line: the event name and what it says."""
    print(f"  {event_name(type(event)):<19} {summarize(event)}", file=sys.stderr)  # noqa: T201


async def await_result(
    bus: Bus,
    request: Event,
    result_type: type[ResultT],
    *,
    on_event: EventCallback = print_stage,
    show_progress: bool = True,
    progress_lines: Callable[[Progress], None] | None = None,
    quiet_seconds: float | None = RUN_QUIET_SECONDS,
) -> ResultT:
    """``sextant.bus.await_result`` for a terminal: each stage printed as it reports, live progress bars.

    Args:
        bus, request, result_type: As for ``sextant.bus.await_result`` (the event returned is the same,
            and so are its RunFailedError and RunStalledError, which names the stage that went quiet).
        on_event: Called for each event of the run (progress lines).
        show_progress: Draw live progress bars from the stages' progress reports.
        progress_lines: Without bars, where progress reports go instead (``ProgressLines.on_progress``).
        quiet_seconds: Give up after this many seconds without news of the run (None: never).
    """

    with LiveBars() if show_progress else contextlib.nullcontext() as bars:

        def on_run_event(event: AnyEvent) -> None:
            if bars is not None:
                bars.finish(result_stages().get(event_name(type(event)), ""))
            on_event(event)

        return await wait_for_result(
            bus,
            request,
            result_type,
            on_event=on_run_event,
            on_progress=bars.on_progress if bars is not None else progress_lines,
            quiet_seconds=quiet_seconds,
        )
