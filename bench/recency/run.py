"""Recency scan vs the raw git log it is built on, on a large public repository.

Usage: uv run --no-sync python bench/recency/run.py [REPO] [--rounds N]

REPO is a local git directory (bare or not) with a long history, e.g. the git/git snapshot that
the search tool's ``fetch`` places under /work/.mirror/git+git/repo. Without REPO, the script uses
$SEXTANT_BENCH_REPO or that snapshot; with neither it says so and exits 0.

It prints:
- the blob-less clone time (bare, --filter=blob:none, single branch, from a file:// URL with
  uploadpack.allowFilter turned on, exactly as a scan clones),
- the raw cost: the scan's own ``git log -z --no-renames --name-status`` on that clone into /dev/null,
- the scan (ls-tree, streamed log, parse, the merge-only pass it runs alongside, map) on the same
  clone, and the ratio scan / raw (target <= 1.3),
- the same pair read in place on REPO itself (no clone).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sextant.gitsource.access import RepoSource, git_environment
from sextant.gitsource.recency import (
    clone_for_recency,
    git_log_arguments,
    merge_log_arguments,
    read_recency,
    resolve_commit,
)

DEFAULT_CANDIDATES = (Path("/work/.mirror/git+git/repo"),)
MIN_COMMITS = 50_000


def find_repository(given: str | None) -> Path | None:
    """The repository to measure: the argument, $SEXTANT_BENCH_REPO, or a known snapshot."""
    if given:
        return Path(given)
    from_env = os.environ.get("SEXTANT_BENCH_REPO")
    if from_env:
        return Path(from_env)
    return next((path for path in DEFAULT_CANDIDATES if (path / "objects").is_dir()), None)


def git_dir_of(repo: Path) -> Path:
    """The git directory of a bare repository or of a work tree."""
    return repo / ".git" if (repo / ".git").exists() else repo


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def raw_log(git_dir: Path, arguments: list[str], env: dict[str, str]) -> None:
    with open(os.devnull, "wb") as sink:
        subprocess.run(["git", "--git-dir", str(git_dir), *arguments], stdout=sink, env=env, check=True)


def compare(label: str, git_dir: Path, env: dict[str, str], rounds: int) -> None:
    """Alternate raw log and scan runs (the machine is shared) and print best and median of each."""
    head = resolve_commit(git_dir, "HEAD", env=env, secrets=(), timeout=60)
    raw_times: list[float] = []
    scan_times: list[float] = []
    result: tuple[str, dict[str, str | None], int] | None = None
    for _ in range(rounds):
        raw_times.append(timed(lambda: raw_log(git_dir, git_log_arguments(head), env)))
        started = time.perf_counter()
        result = read_recency(git_dir, "HEAD", env=env, timeout=3600)
        scan_times.append(time.perf_counter() - started)
    assert result is not None
    _, dates, commits = result
    dated = sum(1 for date in dates.values() if date is not None)
    best_raw, best_scan = min(raw_times), min(scan_times)
    merge_pass = timed(lambda: raw_log(git_dir, merge_log_arguments(head), env))
    print(f"[{label}] {commits:,} commits read, {len(dates):,} files ({dated:,} dated)")
    print(f"[{label}] raw merge-only pass alone (runs beside the main pass in the scan): {merge_pass:.2f} s")
    print(
        f"[{label}] raw git log  best {best_raw:6.2f} s  median {statistics.median(raw_times):6.2f} s"
        f"  ({', '.join(f'{t:.2f}' for t in raw_times)})"
    )
    print(
        f"[{label}] recency scan best {best_scan:6.2f} s  median {statistics.median(scan_times):6.2f} s"
        f"  ({', '.join(f'{t:.2f}' for t in scan_times)})"
    )
    print(
        f"[{label}] ratio scan/raw: best {best_scan / best_raw:.2f}x, "
        f"median {statistics.median(scan_times) / statistics.median(raw_times):.2f}x (target <= 1.3x)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", nargs="?", help="local git directory with a long history")
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    repo = find_repository(options.repo)
    if repo is None or not repo.exists():
        print(
            "bench/recency: skipped - no repository given and none found "
            "(pass a path, set SEXTANT_BENCH_REPO, or fetch github:git/git with the search tool)"
        )
        return 0
    git_dir = git_dir_of(repo.resolve())
    source = RepoSource(git_dir.as_uri())
    env = git_environment(source)
    commits = int(
        subprocess.run(
            ["git", "--git-dir", str(git_dir), "rev-list", "--count", "HEAD"],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        ).stdout
    )
    version = subprocess.run(["git", "--version"], capture_output=True, text=True, check=True).stdout.strip()
    print(f"repository {git_dir} - {commits:,} commits at HEAD; {version}; {os.cpu_count()} cores")
    if commits < MIN_COMMITS:
        print(f"warning: fewer than {MIN_COMMITS:,} commits; figures will not be representative")

    work = Path(tempfile.mkdtemp(prefix="sextant-bench-recency-"))
    try:
        clone = work / "clone.git"
        clone_seconds = timed(lambda: clone_for_recency(source, clone, window=None, env=env, secrets=(), timeout=3600))
        blobs = subprocess.run(
            ["git", "--git-dir", str(clone), "cat-file", "--batch-all-objects", "--batch-check=%(objecttype)"],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        ).stdout.count("blob")
        size = sum(path.stat().st_size for path in clone.rglob("*") if path.is_file())
        print(f"[clone] blob-less clone over file:// {clone_seconds:.2f} s, {size / 2**20:.0f} MiB, {blobs} blobs")
        compare("clone", clone, env, options.rounds)
        compare("in place", git_dir, env, options.rounds)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS of this Python process: {peak:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
