"""What the benchmarks feed the indexer: a run's request events (recency skipped or scanned), the chunks at head."""

from __future__ import annotations

import argparse
import pickle
from collections.abc import Iterable, Mapping

import msgspec

from sextant.contracts import FileRecencyComputed, RepoRef, RepoUpdated, event_id_for, utc_now_iso
from sextant.embedding import SparseEncoder
from sextant.gitsource.access import RepoSource
from sextant.gitsource.mirror import TreeEntry
from sextant.gitsource.recency import scan_recency
from sextant.indexer import DiscoveryRules
from sextant.indexer.discovery import content_skip_reason
from sextant.indexer.parse_process import BlobToParse, ParseRequest
from sextant.parsing import Chunk, build_chunks, decode_source


def request_for(url: str, run_id: str) -> tuple[RepoUpdated, FileRecencyComputed]:
    """A full-index request for `url` and its recency answer with the scan skipped."""
    repo = RepoRef.for_url(url)
    request = RepoUpdated(
        event_id=event_id_for(RepoUpdated, run_id), run_id=run_id, occurred_at=utc_now_iso(), repo=repo
    )
    recency = FileRecencyComputed(
        event_id=event_id_for(FileRecencyComputed, run_id),
        run_id=run_id,
        occurred_at=utc_now_iso(),
        repo=repo,
        request=request,
        status="skipped",
    )
    return request, recency


def scanned_request_for(url: str, run_id: str) -> tuple[RepoUpdated, FileRecencyComputed]:
    """A full-index request for `url` and its recency answer from a real scan (every file's date)."""
    request, skipped = request_for(url, run_id)
    return request, msgspec.structs.replace(skipped, status="computed", dates=scan_recency(RepoSource(url=url)).dates)


def head_chunks(
    entries: Iterable[TreeEntry], blobs: Mapping[str, bytes], rules: DiscoveryRules, max_chars: int
) -> list[Chunk]:
    """The chunks of every indexable file read, exactly as the pipeline builds them."""
    chunks: list[Chunk] = []
    for entry in entries:
        data = blobs.get(entry.blob_sha)
        if data is None or content_skip_reason(data, rules.max_file_bytes):
            continue
        chunks.extend(build_chunks(entry.path, decode_source(data), max_chars=max_chars))
    return chunks


def warm_up_request() -> ParseRequest:
    """A parse-process request of one tiny file: once it is answered the worker has imported its modules,
    so the worker's CPU counted from then on is the runs' own (a service starts its worker once)."""
    return ParseRequest(
        files=[BlobToParse("warm.py", b"def f():\n    return 1\n")],
        max_file_bytes=1 << 20,
        max_chars=2000,
        encoder=pickle.dumps(SparseEncoder()),
    )


def bench_arguments(description: str | None, *, model_sample: int | None) -> argparse.Namespace:
    """The command line both benchmarks take: the repository, an optional INDEX_ROOT, the model sample."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--repo", required=True, help="path of a (bare) git repository to index")
    parser.add_argument("--root", default=None, help="INDEX_ROOT: index only this folder")
    if model_sample is not None:  # None: the bench times the model on all its texts
        parser.add_argument(
            "--model-sample", type=int, default=model_sample, help="dense texts timed on the bare model"
        )
    return parser.parse_args()
