"""Progress as plain lines, for logs and CI (no terminal): a line per stage per tenth, or every 10 s.

On a terminal the CLI draws live bars instead (``sextant.cli.run_watch``). Without one, a bar's
carriage returns would be noise, and silence for minutes would look like a hang; so each stage gets a
line when its work crosses the next tenth, and at least every ``EVERY_SECONDS`` while it moves. When
nothing moves for that long (a page of vectors on a slow model, a model call, a clone), ``tick`` says
the run is still working and since when nothing moved, so a log never goes quiet for more than 10 s.
The dense phase's line reads "vectors for review search: N/M", whether a progress report or the
final ChunksEmbedded said it first (one line per figure). A stage whose result event was heard is
done: a report of it that arrives later (progress travels apart from the events) is not printed, so
no "indexer 99/99 files (100%)" comes after "chunks.indexed".
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import typer

from sextant.bootstrap import result_stages
from sextant.bus import Progress
from sextant.contracts import AnyEvent, ChunksEmbedded, ChunksIndexed, event_name

EVERY_SHARE = 0.1
"""Share of a stage's work between two lines."""
EVERY_SECONDS = 10.0
"""Longest time between two lines of a stage that is still moving."""
DENSE_STAGE = "embedder"
"""The stage whose work is the dense vectors."""
_stage_of_result = functools.cache(result_stages)


def _stderr_line(line: str) -> None:
    typer.echo(line, err=True)


@dataclass
class _StageState:
    step: int = -1
    """Tenths already shown (``-1``: nothing yet)."""
    done: int = -1
    at: float = -math.inf
    moved_at: float = -math.inf
    latest: Progress | None = None


@dataclass
class ProgressLines:
    """Turns a run's progress reports (and its ChunksEmbedded) into stage lines."""

    echo: Callable[[str], None] = _stderr_line
    clock: Callable[[], float] = time.monotonic
    every_share: float = EVERY_SHARE
    every_seconds: float = EVERY_SECONDS
    _stages: dict[str, _StageState] = field(default_factory=dict)
    _last_vectors: str = ""
    _said_at: float = field(default=-math.inf)
    """When the last line of the run was printed (here, or a stage's event line, see ``heard``)."""
    _heard: str = ""
    _heard_at: float = field(default=-math.inf)
    _finished: set[str] = field(default_factory=set)
    """Stages whose result event was heard: their late reports are not printed."""

    def __post_init__(self) -> None:
        self._said_at = self._heard_at = self.clock()

    def on_progress(self, report: Progress) -> None:
        """Print a line if the stage crossed the next tenth, finished, or moved and was silent for 10 s."""
        if not report.total or report.stage in self._finished:
            return
        state = self._stages.setdefault(report.stage, _StageState())
        parts = round(1 / self.every_share)
        step = min(report.done * parts // report.total, parts)
        now = self.clock()
        moved = report.done != state.done
        if moved or state.latest is None:
            state.moved_at = now
        state.latest = report
        if step > state.step or (moved and now - state.at >= self.every_seconds):
            state.step, state.done, state.at = max(step, state.step), report.done, now
            self._line(report)

    def on_event(self, event: AnyEvent) -> None:
        """The final vectors figure, from the event that ends the dense phase."""
        if isinstance(event, ChunksEmbedded):
            self._stages.pop(DENSE_STAGE, None)
            self._vectors(event.points_total - event.points_missing, event.points_total)

    def heard(self, event: AnyEvent) -> None:
        """Note an event of the run that was printed elsewhere (its stage line), for ``tick``.

        ``ChunksIndexed`` also gives the vectors' first figure: the embedder's own first report may
        come before anyone listens for it (the command listens anew once it has shown its result).
        """
        self._heard, self._said_at = event_name(type(event)), self.clock()
        self._heard_at = self._said_at
        stage = _stage_of_result().get(self._heard)
        if stage is not None and stage != DENSE_STAGE:  # the vectors' own figure ends with ChunksEmbedded
            self._finished.add(stage)
            self._stages.pop(stage, None)
        if isinstance(event, ChunksIndexed) and event.points_missing_dense and DENSE_STAGE not in self._stages:
            done = event.points_total - event.points_missing_dense
            self.on_progress(
                Progress(run_id=event.run_id, stage=DENSE_STAGE, done=done, total=event.points_total, unit="vectors")
            )

    def tick(self) -> None:
        """Say the run is still working if nothing was printed for ``every_seconds`` (call it every second)."""
        now = self.clock()
        if now - self._said_at < self.every_seconds:
            return
        unfinished = [
            (state.moved_at, state.latest)
            for state in self._stages.values()
            if state.latest is not None and state.latest.done < state.latest.total
        ]
        if unfinished:
            moved_at, latest = max(unfinished, key=lambda pair: pair[0])
            self._say(f"{self._text(latest)}, still working ({now - moved_at:.0f} s since it last moved)")
        else:
            after = f"since {self._heard}" if self._heard else "since the run started"
            self._say(f"  still working ({now - self._heard_at:.0f} s {after})")

    def _line(self, report: Progress) -> None:
        if report.stage == DENSE_STAGE:
            self._vectors(report.done, report.total)
            return
        self._say(self._text(report))

    @staticmethod
    def _text(report: Progress) -> str:
        if report.stage == DENSE_STAGE:
            return _vectors_text(report.done, report.total)
        percent = 100 * report.done // report.total
        return f"  {report.stage:<19} {report.done}/{report.total} {report.unit} ({percent}%)"

    def _vectors(self, done: int, total: int) -> None:
        line = _vectors_text(done, total)
        if line != self._last_vectors:
            self._say(line)
            self._last_vectors = line

    def _say(self, line: str) -> None:
        self.echo(line)
        self._said_at = self.clock()


def _vectors_text(done: int, total: int) -> str:
    return f"  vectors for review search: {done}/{total}"
