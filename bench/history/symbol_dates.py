"""What symbol dates by git blame add to a first index read in place, and to a no-change re-index.

Usage: uv run --no-sync python bench/history/symbol_dates.py [REPO] [--rounds N]

REPO is a local git directory with its history on disk (e.g. a snapshot the search tool's ``fetch``
places under /work/.mirror/<owner>+<name>/repo); default $SEXTANT_BENCH_REPO or pallets/flask's.
Each round indexes REPO read in place into a fresh embedded store twice, without and with
INDEX_SYMBOL_BLAME (payloads and sparse vectors: the first phase; the embedder answers at once, so
no model time hides the cost), then re-indexes each unchanged. It prints the medians, in wall time
and in CPU time (this process and its git children: what a shared machine's load does not blur),
and the share blame adds (targets: <= 25% of the first phase, nothing on a no-change re-index).

It also prints how much of the added CPU is git's (its children's CPU, with minus without) and how
much this process's (reading the log, dating the chunks), and checks the dates: for --check-files
files spread over the dated ones, every chunk dated by the pass must carry the newest committer
time among its lines by `git blame --first-parent` (exit status 1 when one does not).

Figures on a shared 2-core machine: CPU time this adds to the first phase (wall time there is mostly
the neighbours' load), as a share of the first phase without it.

- One `git blame` per file, four at a time: flask +216%, click +120%, celery +461%.
- One history pass for all files, read while they are parsed (a `git log --raw` walk, then git's diff
  of only the blob pairs that can still date a chunk, stopping once every chunk is dated), load 10-26,
  three rounds each: flask +43..54%, click +32..49%, celery +38..48%.
- The same pass with its one-entry trees packed ahead in few packs (celery 99 -> 12) and one echoed
  mark per batch instead of one per pair. Old and new code alternated, three rounds each, at load
  12-20 (CPU time itself inflates at such a load, so every share runs high): flask 0.55 -> 0.47 s
  (+134% -> +90% of 0.43-0.47 s), click 0.55 -> 0.35 s (+98% -> +66%; git 0.34 -> 0.29 s), celery
  3.61 -> 2.95 s (+137% -> +118%; git 2.35 -> 1.83 s). Every chunk's date unchanged (all 1,781 /
  2,094 / 11,966 chunks compared), and the checked chunks (157 / 103 / 179) equal blame.
- A file's line dates laid out in one list (not one call per line) and each chunk's newest date taken
  from a slice: celery, alternated, three rounds each (load 14-20), this process's part of the added
  CPU 1.13 -> 0.94 s (git's, the same code, 1.61 / 1.94 s with the load).

- Counting the parse process's CPU (before, the worker that parses a repository read in place was
  left out: it is no child the bench waits for, so the first index's CPU had no parsing in it and
  every share above ran high). Medians of three rounds, load 4.5-5.5: flask +15% wall, +28% CPU
  (0.64 -> 0.82 s); celery, main at ec91465 +25% / +51% (3.17 -> 4.79 s CPU), after the read-ahead
  and the worker fed ahead +24% / +45% (3.26 -> 4.73 s CPU; git +1.08 s of it). `--parse-process`
  picks the mode (default auto, as the indexer).

A no-change re-index adds nothing (no pass runs when nothing changed). The bound is met by wall, not by
CPU, and a pass built on git's diffs cannot meet it by CPU here (git alone is +33% of celery's first
index): on flask the walk (0.1 s of git) and one read of each
version that must be stepped over (0.07 s) are already ~30% of the first index.
The pass stays in the first phase all the same: the first analysis's selection is what symbol dates are
for, and off the first phase it would get file dates it could not tell apart. docs/indexing.md says where
the cost is, what did not lower it, and what taking the pass off would need.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from sextant.chunkstore import collection_name
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.contracts import RepoRef
from sextant.gitsource.commit_dates import iso_from_epoch
from sextant.gitsource.mirror import RepoMirror
from sextant.indexer import IndexerDeps, IndexerSettings, index_repository
from sextant.indexer.parse_process import shared_parse_process

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "index"))
from index_inputs import request_for, warm_up_request

_DEFAULT = Path("/work/.mirror/pallets+flask/repo")


class _InstantEmbedder:
    """Answers at once: the first phase embeds nothing, but the pipeline sizes chunks by it."""

    model_id = "bench/instant"
    dimension = 8
    max_chars = 2000
    batch_size = 64
    calls = 0

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0] + [0.0] * (self.dimension - 1) for _ in texts]

    async def embed_query(self, text: str) -> list[float]:
        return [1.0] + [0.0] * (self.dimension - 1)


def _cpu() -> tuple[float, float]:
    """CPU seconds of this process and of its finished children (the git processes): steady on a busy machine."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


_Timings = tuple[float, float, float, float, float, int]
"""(first index s, its CPU s, of which git's, no-change re-index s, its CPU s, chunks dated by blame)."""
_Dated = dict[str, dict[tuple[int, int], str]]
"""path -> (first line, last line) -> date of each chunk the pass dated."""


async def _index_twice(home: Path, repo: str, *, blame: bool, dated: _Dated, parse_process: str) -> _Timings:
    """Index `repo` into a fresh store, then again unchanged.

    The CPU counts the parse process's (by its answers): it is no child the bench waits for, so the
    children's CPU leaves it out.
    """
    settings = IndexerSettings(
        mirrors_dir=home / "mirrors",
        store_path=home / "qdrant",
        allow_local_repos=True,
        symbol_blame=blame,
        parse_process=parse_process,
    )
    embedder = _InstantEmbedder()
    store = EdgeChunkStore(settings.store_path, collection_name(embedder.model_id, embedder.dimension), 8)
    deps = IndexerDeps(settings=settings, store=store, embedder=embedder, mirrors=RepoMirror(settings.mirrors_dir))
    try:
        timings: list[float] = []
        for run in ("first", "again"):
            request, recency = request_for(repo, f"bench-{run}-{blame}")
            worker = shared_parse_process().cpu_seconds
            started, (own, children) = time.perf_counter(), _cpu()
            await index_repository(request, recency, deps)
            own_after, children_after = _cpu()
            worker = shared_parse_process().cpu_seconds - worker
            timings += [time.perf_counter() - started, own_after - own + children_after - children + worker]
            if run == "first":
                timings.append(children_after - children)
        key = RepoRef.for_url(repo).repo_key
        blamed = 0
        for payload in store.scroll_payloads(key):
            if payload.symbol_date_source == "blame" and isinstance(payload.symbol_last_modified_at, str):
                blamed += 1
                spans = dated.setdefault(payload.path, {})
                spans[payload.start_line, payload.end_line] = payload.symbol_last_modified_at
    finally:
        store.close()
    return timings[0], timings[1], timings[2], timings[3], timings[4], blamed


def _blame_mismatches(repo: str, dated: _Dated, files: int) -> tuple[int, int, list[str]]:
    """Check the dates of ``files`` dated files (spread over them) against `git blame --first-parent`.

    Returns:
        (files checked, chunks checked, a description of each chunk whose date differs).
    """
    paths = sorted(dated)
    sample = paths[:: max(len(paths) // files, 1)][:files] if files > 0 else []
    checked, mismatches = 0, []
    for path in sample:
        blamed = subprocess.run(
            ["git", "-C", repo, "blame", "--first-parent", "--line-porcelain", "HEAD", "--", path],
            check=True, capture_output=True,
        ).stdout  # fmt: skip
        times = [int(line.split()[1]) for line in blamed.splitlines() if line.startswith(b"committer-time ")]
        for (start, end), date in sorted(dated[path].items()):
            checked += 1
            expected = iso_from_epoch(max(times[start - 1 : end]))
            if date != expected:
                mismatches.append(f"{path}:{start}-{end} dated {date}, blame says {expected}")
    return len(sample), checked, mismatches


async def main(args: argparse.Namespace) -> int:
    """Run the benchmark and print the figures."""
    results: dict[bool, list[_Timings]] = {False: [], True: []}
    dates: _Dated = {}
    if args.parse_process != "false":
        # Started before the rounds and kept, as the indexer service does: its start is no run's cost.
        shared_parse_process().start()
        await asyncio.to_thread(shared_parse_process().submit(warm_up_request()).result)
    for _ in range(max(args.rounds, 1)):
        for blame in (False, True):
            with tempfile.TemporaryDirectory(prefix="sextant-bench-blame-") as home:
                results[blame].append(
                    await _index_twice(
                        Path(home), args.repo, blame=blame, dated=dates, parse_process=args.parse_process
                    )
                )
    plain, dated = ([statistics.median(r[i] for r in results[b]) for i in range(6)] for b in (False, True))
    load = os.getloadavg()[0]
    print(f"repository {args.repo}: {int(dated[5])} chunks dated by blame")
    print(
        f"medians of {args.rounds} rounds; load average {load:.1f} at the end; INDEX_PARSE_PROCESS={args.parse_process}"
    )
    print("                                 wall s     CPU s (this process and its git children; git alone)")
    print(f"first index without blame        {plain[0]:6.2f}    {plain[1]:6.2f}  ({plain[2]:.2f})")
    print(f"first index with blame           {dated[0]:6.2f}    {dated[1]:6.2f}  ({dated[2]:.2f})")
    wall, cpu = (100 * (dated[i] - plain[i]) / plain[i] for i in (0, 1))
    git = dated[2] - plain[2]
    print(f"  blame adds                     {wall:+5.0f}%    {cpu:+5.0f}%   (target <= 25%)")
    print(f"    of which git (the history log) {git:+.2f} s CPU, this process {dated[1] - plain[1] - git:+.2f} s CPU")
    print(f"no-change re-index without       {plain[3]:6.2f}    {plain[4]:6.2f}")
    print(f"no-change re-index with blame    {dated[3]:6.2f}    {dated[4]:6.2f}   (target: nothing added)")
    files, chunks, mismatches = _blame_mismatches(args.repo, dates, args.check_files)
    print(f"dates of {chunks} chunks in {files} files against git blame --first-parent: {len(mismatches)} differ")
    for mismatch in mismatches[:20]:
        print(f"  {mismatch}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("repo", nargs="?", default=os.environ.get("SEXTANT_BENCH_REPO") or str(_DEFAULT))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--parse-process", default="auto", choices=["auto", "true", "false"], help="INDEX_PARSE_PROCESS"
    )
    parser.add_argument("--check-files", type=int, default=8, help="files whose dates are checked against blame")
    arguments = parser.parse_args()
    if not Path(arguments.repo).exists():
        print(f"no repository at {arguments.repo}: fetch one (e.g. github:pallets/flask) or pass REPO")
        sys.exit(0)
    sys.exit(asyncio.run(main(arguments)))
