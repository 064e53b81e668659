"""Live bars on a terminal: one per stage, counts, elapsed time and an estimate, within 80 columns."""

from __future__ import annotations

import io

from rich.console import Console

from sextant.bus import Progress
from sextant.cli.progress_bars import LiveBars

RUN = "run-1"


def _terminal() -> Console:
    return Console(file=io.StringIO(), force_terminal=True, width=80, record=True, color_system=None)


def _screen(console: Console) -> list[str]:
    return [line for line in console.export_text().splitlines() if line.strip()]


def test_each_stage_has_one_bar_with_counts_elapsed_and_an_estimate_in_80_columns() -> None:
    console = _terminal()
    with LiveBars(console, auto_refresh=False) as bars:
        for done in range(0, 15_441, 1_000):
            bars.on_progress(Progress(run_id=RUN, stage="indexer", done=done, total=15_441, unit="chunks"))
        bars.on_progress(Progress(run_id=RUN, stage="recency-scanner", done=775, total=775, unit="files"))
        bars.refresh()

    screen = _screen(console)
    indexer = [line for line in screen if "indexer" in line]
    scanner = [line for line in screen if "recency-scanner" in line]
    assert indexer
    assert scanner
    assert "15000/15441" in indexer[-1]
    assert "chunks" in indexer[-1]
    assert "eta" in indexer[-1]
    assert "0:00:" in indexer[-1]
    assert "775/775" in scanner[-1]
    assert all(console.measure(line).maximum <= 80 for line in screen)


def test_a_finished_stage_shows_full_and_ignores_late_reports() -> None:
    console = _terminal()
    with LiveBars(console, auto_refresh=False) as bars:
        bars.on_progress(Progress(run_id=RUN, stage="indexer", done=3, total=10, unit="files"))
        bars.finish("indexer")
        bars.on_progress(Progress(run_id=RUN, stage="indexer", done=4, total=10, unit="files"))
        bars.finish("selector")  # a stage that never reported has no bar to fill
        bars.refresh()

    indexer = [line for line in _screen(console) if "indexer" in line]
    assert "10/10" in indexer[-1]
    assert not any("selector" in line for line in _screen(console))
