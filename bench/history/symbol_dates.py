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

Figures on a shared 2-core machine (wall time is noisy there, CPU time less so, but git's own CPU
still grows by ~10% with the load), share added to the first phase, wall / CPU. One `git blame` per
file, four at a time: pallets/flask +70% / +216%, pallets/click +63..72% / +120%, celery +204% /
+461%. One history pass for all files, read while the files are parsed and encoded: flask +17% /
+51%, click +19% / +37%, celery +21% / +33% (re-measured at load 3: flask -9% / +54%, click +37% /
+33%, celery +46% / +36%; git 0.36 / 0.27 / 1.30 s, the log's regex parsing 0.04 / 0.03 / 0.20 s).
The pass stopping once every chunk is dated, reading only followed files' hunks, git keeping its freed
memory (load 12-20, three runs each): flask -21..-5% / +24..30% (git +0.23..0.24 s, this process
+0.00..0.05 s), click +5..6% / +26..29% (git +0.22..0.23 s, +0.06..0.09 s), celery -1..+13% /
+30..33% (git +1.38..1.47 s, +0.12..0.22 s). Celery's oldest chunks need its whole first-parent
history diffed. After the first index itself got ~40% cheaper (load 10-12): flask +11% / +50% (0.52 ->
0.78 s; git +0.23 s), click +4% / +37% (0.68 -> 0.93 s; git +0.22 s), celery +34% / +48% (3.31 ->
4.92 s; git +1.39 s, this process +0.22 s): the same absolute cost, a larger share. A no-change
re-index adds nothing either way (no pass runs when nothing changed). Re-measured with the date check
(load 18-21, three runs each): flask -9..+17% / +54% (0.48 -> 0.74 s), click -12% / +43% (0.65 ->
0.93 s), celery +32% / +44% (3.17 -> 4.56 s; git +1.32 s); every checked chunk (157 / 103 / 179)
equals blame. Before the change below, at load 10-16: flask +14% / +67% (0.53 -> 0.89 s; git +0.27 s),
click -5% / +23% (0.86 -> 1.06 s; git +0.28 s), celery +28% / +61% (4.75 -> 7.64 s; git +2.29 s, this
process +0.60 s).

A `git log --raw` walk (no diff) and git's diff of only the blob pairs that can still date a chunk, through
one `git diff-tree --stdin` over one-entry trees; a file's creation dates its undated lines without a
diff; a file is diffed only once it has told its spans. Same minutes, old pass then new, three rounds
each (load 19-26): flask +13% / +43% (0.61 -> 0.87 s; git +0.26 s) -> +36% / +52% (0.56 -> 0.85 s; git
+0.21 s, this process +0.09 s), click +17% / +49% (0.60 -> 0.90 s; git +0.23 s) -> +68% / +32% (0.64
-> 0.84 s; git +0.17 s), celery +27% / +60% (2.99 -> 4.78 s; git +1.48 s) -> +12% / +38% (3.18 -> 4.39
s; git +1.16 s, this process +0.05 s). An earlier pair (load 20-31): flask +61% -> +49%, click +42% ->
+38%, celery +61% -> +42%; flask, five rounds, old / new / old / new (load 14-22): +60% / +43% / +53% /
+48%. Git diffs 1,007 / 9,344 pairs on flask / celery where the log diffed about
2,200 / 18,700. Every checked chunk (350 / 434 / 455 in 24 files each) equals blame. The bound is still
not met: the pairs that must be diffed cost git about 0.15 s on flask (54 MB of blobs read, 0.06 s of
it just inflating them), 27% of that first index by themselves.
docs/indexing.md says where the cost is and what did not lower it.
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "index"))
from index_inputs import request_for

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


async def _index_twice(home: Path, repo: str, *, blame: bool, dated: _Dated) -> _Timings:
    """Index `repo` into a fresh store, then again unchanged."""
    settings = IndexerSettings(
        mirrors_dir=home / "mirrors", store_path=home / "qdrant", allow_local_repos=True, symbol_blame=blame
    )
    embedder = _InstantEmbedder()
    store = EdgeChunkStore(settings.store_path, collection_name(embedder.model_id, embedder.dimension), 8)
    deps = IndexerDeps(settings=settings, store=store, embedder=embedder, mirrors=RepoMirror(settings.mirrors_dir))
    try:
        timings: list[float] = []
        for run in ("first", "again"):
            request, recency = request_for(repo, f"bench-{run}-{blame}")
            started, (own, children) = time.perf_counter(), _cpu()
            await index_repository(request, recency, deps)
            own_after, children_after = _cpu()
            timings += [time.perf_counter() - started, own_after - own + children_after - children]
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
    for _ in range(max(args.rounds, 1)):
        for blame in (False, True):
            with tempfile.TemporaryDirectory(prefix="sextant-bench-blame-") as home:
                results[blame].append(await _index_twice(Path(home), args.repo, blame=blame, dated=dates))
    plain, dated = ([statistics.median(r[i] for r in results[b]) for i in range(6)] for b in (False, True))
    load = os.getloadavg()[0]
    print(f"repository {args.repo}: {int(dated[5])} chunks dated by blame")
    print(f"medians of {args.rounds} rounds; load average {load:.1f} at the end")
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
    parser.add_argument("--check-files", type=int, default=8, help="files whose dates are checked against blame")
    arguments = parser.parse_args()
    if not Path(arguments.repo).exists():
        print(f"no repository at {arguments.repo}: fetch one (e.g. github:pallets/flask) or pass REPO")
        sys.exit(0)
    sys.exit(asyncio.run(main(arguments)))
