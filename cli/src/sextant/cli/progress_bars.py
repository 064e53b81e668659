"""Live progress bars for a terminal: one bar per stage, with elapsed time and an estimate, in 80 columns.

Stage lines printed while the bars are live (``print`` to stderr) appear above them: rich's live
display takes over stderr for as long as it runs. Logs and CI get ``ProgressLines`` instead.
"""

from __future__ import annotations

from types import TracebackType
from typing import Self

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from sextant.bus import Progress as StageProgress

STAGE_WIDTH = 19
"""Columns for the stage name (the stage lines use the same width)."""
BAR_WIDTH = 16
"""Columns for the bar itself: with the name, counts, unit, elapsed and estimate, a line fits 80."""


class LiveBars:
    """One live bar per stage of a run, fed by the stages' progress reports."""

    def __init__(self, console: Console | None = None, *, auto_refresh: bool = True) -> None:
        self._progress = Progress(
            TextColumn(f"  {{task.description:<{STAGE_WIDTH}}}"),
            BarColumn(bar_width=BAR_WIDTH),
            MofNCompleteColumn(),
            TextColumn("{task.fields[unit]}"),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            console=console or Console(stderr=True),
            auto_refresh=auto_refresh,
            transient=True,  # the stage lines stay; the bars go when the run has its result
        )
        self._tasks: dict[str, TaskID] = {}
        self._finished: set[str] = set()

    def __enter__(self) -> Self:
        self._progress.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._progress.stop()

    def on_progress(self, report: StageProgress) -> None:
        """Move the stage's bar (a report that comes after the stage's result is ignored)."""
        if report.stage in self._finished or not report.total:
            return
        task = self._tasks.get(report.stage)
        if task is None:
            self._tasks[report.stage] = self._progress.add_task(
                report.stage[:STAGE_WIDTH], total=report.total, completed=report.done, unit=report.unit
            )
            return
        self._progress.update(task, total=report.total, completed=report.done)

    def finish(self, stage: str) -> None:
        """The stage published its result: its bar is full and stops moving."""
        self._finished.add(stage)
        task = self._tasks.get(stage)
        if task is not None:
            total = self._progress.tasks[task].total
            self._progress.update(task, completed=total)
            self._progress.stop_task(task)

    def refresh(self) -> None:
        """Draw now (the display also redraws by itself unless made with ``auto_refresh=False``)."""
        self._progress.refresh()
