"""Progress as plain lines, for logs and CI (no terminal): a line per stage per tenth, or every 10 s.

On a terminal the CLI draws live bars instead (``sextant.cli.run_watch``). Without one, a bar's
carriage returns would be noise, and silence for minutes would look like a hang; so each stage gets a
line when its work crosses the next tenth, and at least every ``EVERY_SECONDS`` while it moves.
The dense phase's line reads "vectors for review search: N/M", whether a progress report or the
final ChunksEmbedded said it first (one line per figure).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import typer

from sextant.bus import Progress
from sextant.contracts import AnyEvent, ChunksEmbedded

EVERY_SHARE = 0.1
"""Share of a stage's work between two lines."""
EVERY_SECONDS = 10.0
"""Longest time between two lines of a stage that is still moving."""
DENSE_STAGE = "embedder"
"""The stage whose work is the dense vectors."""


def _stderr_line(line: str) -> None:
    typer.echo(line, err=True)


@dataclass
class _StageState:
    step: int = -1
    """Tenths already shown (``-1``: nothing yet)."""
    done: int = -1
    at: float = -math.inf


@dataclass
class ProgressLines:
    """Turns a run's progress reports (and its ChunksEmbedded) into stage lines."""

    echo: Callable[[str], None] = _stderr_line
    clock: Callable[[], float] = time.monotonic
    every_share: float = EVERY_SHARE
    every_seconds: float = EVERY_SECONDS
    _stages: dict[str, _StageState] = field(default_factory=dict)
    _last_vectors: str = ""

    def on_progress(self, report: Progress) -> None:
        """Print a line if the stage crossed the next tenth, finished, or moved and was silent for 10 s."""
        if not report.total:
            return
        state = self._stages.setdefault(report.stage, _StageState())
        parts = round(1 / self.every_share)
        step = min(report.done * parts // report.total, parts)
        now = self.clock()
        moved = report.done != state.done
        if step > state.step or (moved and now - state.at >= self.every_seconds):
            state.step, state.done, state.at = max(step, state.step), report.done, now
            self._line(report)

    def on_event(self, event: AnyEvent) -> None:
        """The final vectors figure, from the event that ends the dense phase."""
        if isinstance(event, ChunksEmbedded):
            self._vectors(event.points_total - event.points_missing, event.points_total)

    def _line(self, report: Progress) -> None:
        if report.stage == DENSE_STAGE:
            self._vectors(report.done, report.total)
            return
        percent = 100 * report.done // report.total
        self.echo(f"  {report.stage:<19} {report.done}/{report.total} {report.unit} ({percent}%)")

    def _vectors(self, done: int, total: int) -> None:
        line = f"  vectors for review search: {done}/{total}"
        if line != self._last_vectors:
            self.echo(line)
            self._last_vectors = line
