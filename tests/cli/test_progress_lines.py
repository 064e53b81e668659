"""Progress without a terminal: a stage line per tenth of the work, and one at least every 10 s.

The reports are driven one by one, as a stage publishes them, and the clock is the test's: the
assertions are on the lines' content, never on how long anything took.
"""

from __future__ import annotations

from sextant.bus import Progress
from sextant.cli.progress_lines import ProgressLines
from sextant.contracts import ChunksEmbedded, ChunksIndexed, RepoRef


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def report(stage: str, done: int, total: int, unit: str = "files") -> Progress:
    return Progress(run_id="run-1", stage=stage, done=done, total=total, unit=unit)


def test_one_line_per_tenth_of_the_work() -> None:
    lines: list[str] = []
    progress = ProgressLines(echo=lines.append, clock=Clock())
    for done in range(201):  # every file reports; the clock never moves
        progress.on_progress(report("indexer", done, 200))
    assert lines == [f"  {'indexer':<19} {20 * step}/200 files ({10 * step}%)" for step in range(11)]


def test_a_slow_stage_gets_a_line_every_ten_seconds_while_it_moves() -> None:
    lines: list[str] = []
    clock = Clock()
    progress = ProgressLines(echo=lines.append, clock=clock)
    progress.on_progress(report("indexer", 0, 1000))
    for done in (1, 2, 3):  # 4 s apart: under a tenth of the work and under 10 s between lines
        clock.now += 4
        progress.on_progress(report("indexer", done, 1000))
    clock.now += 30
    progress.on_progress(report("indexer", 3, 1000))  # silent for 30 s but not moving: no line
    progress.on_progress(report("indexer", 4, 1000))
    assert [line.split()[1] for line in lines] == ["0/1000", "3/1000", "4/1000"]


def test_stages_count_separately_and_vectors_read_as_the_cli_promises() -> None:
    lines: list[str] = []
    progress = ProgressLines(echo=lines.append, clock=Clock())
    for done in range(0, 11):
        progress.on_progress(report("indexer", done, 10))
        progress.on_progress(report("embedder", done * 2, 20, unit="vectors"))
    repo = RepoRef.for_url("https://example.com/a/b.git")
    progress.on_event(
        ChunksEmbedded(event_id="e", run_id="run-1", occurred_at="2026-01-01T00:00:00Z", repo=repo, points_total=20)
    )
    vectors = [line for line in lines if "vectors" in line]
    assert vectors == [f"  vectors for review search: {2 * step}/20" for step in range(11)]  # the event adds none
    assert sum("indexer" in line for line in lines) == 11


def test_a_stage_that_stops_moving_still_gets_a_line_every_ten_seconds() -> None:
    lines: list[str] = []
    clock = Clock()
    progress = ProgressLines(echo=lines.append, clock=clock)
    progress.on_progress(report("embedder", 256, 995, unit="vectors"))  # a page written, the next one slow
    for _ in range(25):  # the CLI ticks every second; nothing is reported for 25 s
        clock.now += 1
        progress.tick()
    assert lines == [
        "  vectors for review search: 256/995",
        "  vectors for review search: 256/995, still working (10 s since it last moved)",
        "  vectors for review search: 256/995, still working (20 s since it last moved)",
    ]


def test_between_stages_the_lines_say_what_was_heard_last() -> None:
    lines: list[str] = []
    clock = Clock()
    progress = ProgressLines(echo=lines.append, clock=clock)
    clock.now = 9
    progress.tick()  # the run just started: nothing to say yet
    clock.now = 12
    progress.tick()
    progress.on_progress(report("indexer", 10, 10))  # a finished stage is not "still working"
    repo = RepoRef.for_url("https://example.com/a/b.git")
    progress.heard(ChunksEmbedded(event_id="e", run_id="run-1", occurred_at="2026-01-01T00:00:00Z", repo=repo))
    clock.now = 27
    progress.tick()
    assert lines == [
        "  still working (12 s since the run started)",
        f"  {'indexer':<19} 10/10 files (100%)",
        "  still working (15 s since chunks.embedded)",
    ]


def test_ticks_add_nothing_while_lines_come_often_enough() -> None:
    lines: list[str] = []
    clock = Clock()
    progress = ProgressLines(echo=lines.append, clock=clock)
    for done in range(0, 1001, 50):  # a tenth every 2 s: a line each time, no tick ever speaks
        clock.now += 2
        progress.on_progress(report("indexer", done, 1000))
        progress.tick()
    assert not any("still working" in line for line in lines)


def test_the_index_result_gives_the_vectors_first_figure() -> None:
    lines: list[str] = []
    clock = Clock()
    progress = ProgressLines(echo=lines.append, clock=clock)
    repo = RepoRef.for_url("https://example.com/a/b.git")
    indexed = ChunksIndexed(
        event_id="i", run_id="run-1", occurred_at="2026-01-01T00:00:00Z", repo=repo, points_total=40,
        points_missing_dense=30,
    )  # fmt: skip
    progress.heard(indexed)
    progress.on_progress(report("embedder", 10, 40, unit="vectors"))  # the embedder's own first report: no repeat
    clock.now = 10
    progress.tick()
    assert lines == [
        "  vectors for review search: 10/40",
        "  vectors for review search: 10/40, still working (10 s since it last moved)",
    ]


def test_a_stage_s_report_that_comes_after_its_result_is_not_printed() -> None:
    # Progress travels apart from the events: the indexer's last report can arrive after ChunksIndexed.
    lines: list[str] = []
    clock = Clock()
    progress = ProgressLines(echo=lines.append, clock=clock)
    repo = RepoRef.for_url("https://example.com/a/b.git")
    progress.on_progress(report("indexer", 35, 99))
    progress.heard(ChunksIndexed(event_id="i", run_id="run-1", occurred_at="2026-01-01T00:00:00Z", repo=repo))
    progress.on_progress(report("indexer", 99, 99))
    clock.now = 10
    progress.tick()  # and the finished stage is not "still working" either
    assert lines == [
        f"  {'indexer':<19} 35/99 files (35%)",
        "  still working (10 s since chunks.indexed)",
    ]
