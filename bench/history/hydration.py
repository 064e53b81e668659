"""What hydrating a blob-less mirror costs, run after run until its history is whole, and once it is.

Usage: uv run --no-sync python bench/history/hydration.py [REPO ...] [--rounds N] [--bytes B] [--seconds S]
    [--implementation FILE]

REPO is a local git directory (default: the celery and git/git snapshots the search tool's `fetch`
places under /work/.mirror). For each, a blob-less mirror is cloned once with `RepoMirror` over
file:// (as the indexer's is) and kept as a pristine copy; each round copies it afresh and hydrates
it with `history_blobs.hydrate` (the index run's budgets unless `--bytes`/`--seconds`; no other
reader, so the head's blobs are fetched too) until a run says the history is whole, then once more
(a run once complete). Printed per run, the median over the rounds: wall and CPU (this process and
the git processes it waited for), the listing alone (wall and CPU, timed inside the run), the CPU of
the client alone (the `file://` remote's upload-pack is logged through /usr/bin/time and left out:
a user of a hosted remote does not pay it), blobs missing / carried from the last run / fetched,
MiB fetched, requests; and the runs to completion. The load average is printed around each run.

`--implementation FILE` measures another history_blobs.py (e.g. the one before a change:
`git show main~1:libs/gitsource/src/sextant/gitsource/history_blobs.py > /tmp/before.py`), loaded
beside the installed package. Run under `nice -n 10` on a shared machine. Never commit the
benchmarked repository.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import shutil
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "index"))

from fetch_cpu import server_cpu, server_side_logged

from sextant.gitsource import RepoMirror, RepoSource
from sextant.gitsource import history_blobs as installed
from sextant.gitsource.access import git_environment

WORK = Path(__file__).resolve().parent.parent / ".work" / "hydration"
_DEFAULT_REPOS = ("/work/.mirror/celery+celery/repo", "/work/.mirror/git+git/repo")
_MIB = 1024 * 1024


@dataclass
class Run:
    """One hydration run's figures."""

    wall: float
    cpu: float
    client_cpu: float
    list_wall: float
    list_cpu: float
    missing: int
    carried: int
    fetched: int
    bytes_fetched: int
    fetches: int
    complete: bool
    load: str


@dataclass
class Listing:
    """The listing's wall and CPU inside one run (the module's `_listed_within`, wrapped)."""

    wall: float = 0.0
    cpu: float = 0.0
    timed: list[tuple[float, float]] = field(default_factory=list)


def cpu_now() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def load_implementation(path: str | None) -> ModuleType:
    if path is None:
        return installed
    spec = importlib.util.spec_from_file_location("sextant.gitsource.history_blobs_measured", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def time_listing(module: ModuleType, listing: Listing) -> None:
    inner: Callable[..., Any] = module._listed_within

    def timed(*args: Any, **kwargs: Any) -> Any:
        wall, cpu = time.perf_counter(), cpu_now()
        try:
            return inner(*args, **kwargs)
        finally:
            listing.timed.append((time.perf_counter() - wall, cpu_now() - cpu))

    module._listed_within = timed


def pristine(repo: Path) -> tuple[Path, RepoSource]:
    """A blob-less mirror of `repo`, cloned once over file:// (the cache folder holding it)."""
    source = RepoSource(url=repo.resolve().as_uri())
    cache = WORK / f"pristine-{repo.parent.name}"
    if not RepoMirror(cache).mirror_dir(source).exists():
        RepoMirror(cache).sync(source)
    return cache, source


def one_round(module: ModuleType, cache: Path, source: RepoSource, args: argparse.Namespace) -> list[Run]:
    scratch = WORK / args.scratch
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(cache, scratch, symlinks=True)
    mirror = RepoMirror(scratch)
    git_dir = mirror.mirror_dir(source)
    head = mirror.sync(source).head_sha
    log = WORK / f"{args.scratch}-upload-pack.log"
    log.unlink(missing_ok=True)
    server_side_logged(git_dir, log)
    listing = Listing()
    time_listing(module, listing)
    runs: list[Run] = []
    once_complete = 0
    while len(runs) < args.max_runs and once_complete < 2:  # the completing run, then one more
        before_load = load()
        listing.timed.clear()
        server_before = server_cpu(log)[1]
        wall, cpu = time.perf_counter(), cpu_now()
        outcome = module.hydrate(
            git_dir,
            head,
            env=git_environment(source),
            secrets=(),
            timeout=max(args.seconds, 600.0),
            max_bytes=args.bytes,
            max_seconds=args.seconds,
        )
        wall, cpu = time.perf_counter() - wall, cpu_now() - cpu
        list_wall, list_cpu = map(sum, zip(*listing.timed, strict=True)) if listing.timed else (0.0, 0.0)
        run = Run(
            wall=wall,
            cpu=cpu,
            client_cpu=cpu - (server_cpu(log)[1] - server_before),
            list_wall=list_wall,
            list_cpu=list_cpu,
            missing=outcome.missing,
            carried=getattr(outcome, "carried", 0),
            fetched=outcome.fetched,
            bytes_fetched=outcome.bytes_fetched,
            fetches=outcome.fetches,
            complete=outcome.complete,
            load=f"{before_load} -> {load()}",
        )
        runs.append(run)
        print(f"    run {len(runs)}: {describe(run)}", flush=True)
        once_complete += outcome.complete
    return runs


def describe(run: Run) -> str:
    return (
        f"{run.wall:6.2f} s wall, {run.cpu:6.2f} s CPU (client {run.client_cpu:6.2f} s); listing {run.list_wall:6.2f} s"
        f" wall, {run.list_cpu:6.2f} s CPU; missing {run.missing:,} (carried {run.carried:,}), fetched {run.fetched:,},"
        f" {run.bytes_fetched / _MIB:.1f} MiB, {run.fetches} requests; {'complete' if run.complete else 'not complete'}"
        f"; load {run.load}"
    )


def print_medians(name: str, rounds: list[list[Run]]) -> None:
    to_complete = [next((n for n, run in enumerate(runs, 1) if run.complete), None) for runs in rounds]
    print(f"  {name}: runs to completion per round {to_complete}")
    for index in range(max(len(runs) for runs in rounds)):
        at = [runs[index] for runs in rounds if len(runs) > index]

        def median(attribute: str, at: list[Run] = at) -> float:
            return statistics.median(getattr(run, attribute) for run in at)

        print(
            f"  run {index + 1} (median of {len(at)}): {median('wall'):.2f} s wall, {median('cpu'):.2f} s CPU"
            f" (client {median('client_cpu'):.2f} s); listing {median('list_wall'):.2f} s wall,"
            f" {median('list_cpu'):.2f} s CPU; missing {median('missing'):,.0f} (carried {median('carried'):,.0f}),"
            f" fetched {median('fetched'):,.0f}, {median('bytes_fetched') / _MIB:.1f} MiB,"
            f" {median('fetches'):.0f} requests; complete in {sum(run.complete for run in at)} of {len(at)}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("repos", nargs="*", default=list(_DEFAULT_REPOS))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bytes", type=int, default=installed.DEFAULT_HISTORY_FETCH_BYTES)
    parser.add_argument("--seconds", type=float, default=installed.DEFAULT_HISTORY_FETCH_SECONDS)
    parser.add_argument("--max-runs", type=int, default=8, help="runs per round at most (a budget may never finish)")
    parser.add_argument("--implementation", help="a history_blobs.py to measure instead of the installed one")
    parser.add_argument("--scratch", default="round", help="folder under bench/.work/hydration for the rounds' copies")
    args = parser.parse_args()
    module = load_implementation(args.implementation)
    budgets = f"{args.bytes / _MIB:g} MiB, {args.seconds:g} s"
    print(f"implementation: {module.__file__}; budgets {budgets}; pid {os.getpid()}")
    for repo in map(Path, args.repos):
        if not repo.exists():
            print(f"no repository at {repo}: skipped")
            continue
        cache, source = pristine(repo)
        print(f"{repo}:", flush=True)
        rounds = []
        for number in range(args.rounds):
            print(f"  round {number + 1}:", flush=True)
            rounds.append(one_round(module, cache, source, args))
        print_medians(repo.parent.name, rounds)
    shutil.rmtree(WORK / args.scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
