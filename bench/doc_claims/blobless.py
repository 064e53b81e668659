"""Documentation Accuracy on the road remote repositories take: a blob-less mirror, hydrated or not.

Usage (from the repository root):
    uv run --no-sync python bench/doc_claims/blobless.py [--road mirror|hydrated] [--budget BYTES]
        [run.py options: --repo owner/name, --json FILE, --alarms-out FILE, ...]

A remote repository is indexed from the indexer's bare blob-less mirror, and the analyzer judges doc
claims with the history it finds there (`HistoryLocations.open`, pinned to the indexed commit). This
runs run.py's corpus the same way: for each state, a blob-less mirror of its repository is made with
`RepoMirror` over file:// from the mirror the `fetch` tool wrote (one per repository, under
bench/.work/blobless-mirrors, made afresh each run), and the checker judges the state's docs and
code (read from its checkout, as the index holds them) with that mirror's history:

- `--road mirror`: the mirror as synced, whose old file contents are absent: history is not searched
  and the fallback for absent names applies;
- `--road hydrated` (default): first `RepoMirror.hydrate_history(state commit, budget)`, as the
  indexer does after its sync; printed per repository: blobs fetched, bytes, requests, wall and CPU
  seconds, and whether the history was whole.

run.py reads the history in place; the two together show both roads on the same labels.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import run as bench_run  # noqa: E402 - run.py sits beside this file, not in a package
from state_checkout import mirror_dir  # noqa: E402

from sextant.contracts import RepoRef  # noqa: E402
from sextant.doc_claims import HistoryLocations, check_docs  # noqa: E402
from sextant.doc_claims.sources.repository import read_snapshot  # noqa: E402
from sextant.gitsource import RepoMirror, RepoSource  # noqa: E402
from sextant.gitsource.history_access import open_history  # noqa: E402
from sextant.gitsource.history_blobs import DEFAULT_HISTORY_FETCH_BYTES  # noqa: E402

MIRRORS = bench_run.WORK / "blobless-mirrors"


@dataclass
class FetchCost:
    """What hydrating one repository's mirror cost, over all its states."""

    blobs: int = 0
    bytes: int = 0
    requests: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    whole: list[bool] = field(default_factory=list)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class BloblessChecker:
    """run.py's checker, judging with the history of a blob-less mirror of the state's repository."""

    def __init__(self, fetched_from: Path, road: str, budget: int) -> None:
        self.fetched_from = fetched_from
        self.road = road
        self.budget = budget
        self.mirror = RepoMirror(MIRRORS)
        self.locations = HistoryLocations(MIRRORS)
        self.costs: dict[str, FetchCost] = {}
        self.synced: set[str] = set()

    def __call__(self, checkout: Path, commit: str, repo: str, how: str) -> list[bench_run.Finding]:
        url = mirror_dir(self.fetched_from, repo).resolve().as_uri()
        source = RepoSource(url=url)
        if repo not in self.synced:
            self.mirror.sync(source)
            self.synced.add(repo)
        if self.road == "hydrated":
            cost = self.costs.setdefault(repo, FetchCost())
            started, cpu = time.perf_counter(), _children_cpu()
            hydration = self.mirror.hydrate_history(source, commit, max_bytes=self.budget)
            cost.seconds += time.perf_counter() - started
            cost.cpu_seconds += _children_cpu() - cpu
            if hydration is not None:
                cost.blobs += hydration.fetched
                cost.bytes += hydration.bytes_fetched
                cost.requests += hydration.fetches
                cost.whole.append(hydration.complete)
        payloads = read_snapshot(open_history(checkout, commit)).payloads  # docs and code as the index holds them
        report = check_docs(payloads, history=self.locations.open(RepoRef.for_url(url), commit))
        return [
            bench_run.Finding(doc=f.doc, line=f.line, ref=f.ref, kind=f.kind, status=f.status, evidence=f.evidence)
            for f in report.findings
        ]

    def print_costs(self) -> None:
        """The fetch cost per repository and in all (hydrated road only)."""
        if not self.costs:
            return
        print(f"\nhistory fetched into the blob-less mirrors (budget per run: {self.budget / 2**20:g} MiB)")
        total = FetchCost()
        for repo, cost in sorted(self.costs.items()):
            whole = "whole" if all(cost.whole) else "CUT BY THE BUDGET"
            print(
                f"  {repo:28} {cost.blobs:7,} blobs {cost.bytes / 2**20:7.1f} MiB {cost.requests:3} requests "
                f"{cost.seconds:6.1f} s wall {cost.cpu_seconds:6.1f} s git CPU  {whole}"
            )
            total.blobs += cost.blobs
            total.bytes += cost.bytes
            total.requests += cost.requests
            total.seconds += cost.seconds
            total.cpu_seconds += cost.cpu_seconds
        print(
            f"  {'all':28} {total.blobs:7,} blobs {total.bytes / 2**20:7.1f} MiB {total.requests:3} requests "
            f"{total.seconds:6.1f} s wall {total.cpu_seconds:6.1f} s git CPU"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0], add_help=False)
    parser.add_argument("--road", choices=("mirror", "hydrated"), default="hydrated")
    parser.add_argument("--budget", type=int, default=DEFAULT_HISTORY_FETCH_BYTES, help="bytes per hydration")
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"), help="folder of fetched mirrors")
    ours, rest = parser.parse_known_args(argv)
    shutil.rmtree(MIRRORS, ignore_errors=True)  # every run fetches from scratch: the cost is a first run's
    checker = BloblessChecker(ours.mirrors, ours.road, ours.budget)
    bench_run.run_checker = checker
    print(f"road: blob-less mirror, {'hydrated' if ours.road == 'hydrated' else 'not hydrated'}")
    status = bench_run.main(["--mirrors", str(ours.mirrors), *rest])
    checker.print_costs()
    return status


if __name__ == "__main__":
    raise SystemExit(main())
