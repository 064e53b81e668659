"""Check out one labelled state of a fetched repository and turn it into what the doc-claim checker reads.

A state is (repo, commit). Its mirror is the bare git directory the `fetch` tool writes under
``<mirrors>/<owner>+<name>/repo``. The state is checked out under ``bench/.work/`` (git-ignored) as a
shared local clone (objects borrowed from the mirror, so it costs seconds), with its full history
behind the commit, so a checker that reads history sees what a maintainer would have had then.

The payloads are built the way the indexer builds them: the same discovery rules and content checks,
`sextant.parsing.build_chunks` with the local embedder's character budget, and per-file last-commit
dates from the recency scan's own `read_recency` at that commit. Only the embedding is skipped: the
claim check never reads vectors.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sextant.chunkstore import ChunkPayload

INDEXED_AT = "2000-01-01T00:00:00Z"
"""A fixed indexing time: the checker never reads it, and fixed keeps runs comparable."""


def mirror_dir(mirrors: Path, repo: str) -> Path:
    """Where `fetch` put a repository: ``<mirrors>/<owner>+<name>/repo``."""
    return mirrors / repo.replace("/", "+") / "repo"


def _git(args: list[str], cwd: Path | None = None, git_dir: Path | None = None) -> bytes:
    argv = ["git"]
    if git_dir is not None:
        argv += ["--git-dir", str(git_dir)]
    env = {**os.environ, "LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0"}
    return subprocess.run(argv + args, cwd=cwd, env=env, check=True, capture_output=True).stdout


def check_out(mirrors: Path, work: Path, repo: str, commit: str) -> Path:
    """A work tree of the repository at the commit, made once and reused.

    Args:
        mirrors: Folder of fetched mirrors.
        work: Scratch folder (bench/.work).
        repo: owner/name.
        commit: Full commit id of the state.

    Returns:
        The checkout's folder (a normal git repository with HEAD detached at the commit).
    """
    source = mirror_dir(mirrors, repo)
    if not source.is_dir():
        raise FileNotFoundError(f"no mirror of {repo} at {source}: fetch github:{repo} first")
    target = work / f"{repo.replace('/', '+')}@{commit[:12]}"
    if not (target / ".git").is_dir():
        _clone_whole(source, target, commit)
    head = _git(["rev-parse", "HEAD"], cwd=target).decode().strip()
    if head != commit:
        _git(["-c", "advice.detachedHead=false", "checkout", "--quiet", "--force", "--detach", commit], cwd=target)
    return target


def _clone_whole(source: Path, target: Path, commit: str) -> None:
    """Clone and check out beside the target, then move it in place in one rename.

    Several corpus runs share bench/.work; a run that finds the folder sees a finished checkout,
    never one another run is still writing. The run that loses the race drops its copy.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f"{target.name}.partial-{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    _git(["clone", "--quiet", "--shared", "--no-checkout", str(source), str(partial)])
    _git(["-c", "advice.detachedHead=false", "checkout", "--quiet", "--detach", commit], cwd=partial)
    try:
        partial.rename(target)
    except OSError:
        if not (target / ".git").is_dir():
            raise
        shutil.rmtree(partial, ignore_errors=True)


def _tree(git_dir: Path, commit: str) -> list[tuple[str, str]]:
    """(path, blob id) of every regular file and symlink in the commit's tree (submodules skipped)."""
    listing = _git(["ls-tree", "-r", "-z", "--full-tree", commit], git_dir=git_dir)
    entries = []
    for record in listing.split(b"\0"):
        if not record:
            continue
        meta, path = record.split(b"\t", 1)
        _mode, kind, sha = meta.split(b" ")
        if kind == b"blob":
            entries.append((path.decode("utf-8", "surrogateescape"), sha.decode()))
    return entries


def _blobs(git_dir: Path, shas: list[str]) -> dict[str, bytes]:
    """Blob contents by id from one `git cat-file --batch`."""
    if not shas:
        return {}
    out = subprocess.run(
        ["git", "--git-dir", str(git_dir), "cat-file", "--batch"],
        input=("\n".join(shas) + "\n").encode(),
        check=True,
        capture_output=True,
    ).stdout
    blobs: dict[str, bytes] = {}
    at = 0
    for sha in shas:
        header_end = out.index(b"\n", at)
        header = out[at:header_end].split(b" ")
        if header[1] == b"missing":
            at = header_end + 1
            continue
        size = int(header[2])
        blobs[sha] = out[header_end + 1 : header_end + 1 + size]
        at = header_end + 1 + size + 1
    return blobs


def payloads_at(checkout: Path, commit: str, repo_key: str) -> Iterator[ChunkPayload]:
    """Every chunk payload the indexer would store for the repository at the commit (no vectors).

    Args:
        checkout: The state's checkout (from check_out).
        commit: The state's commit.
        repo_key: The repository key to stamp on payloads.

    Yields:
        Payloads of docs and code, file by file.
    """
    # Imported here: a run through check_repository needs none of the indexer's parts.
    from sextant.embedding.local_minilm import LOCAL_MAX_CHARS
    from sextant.gitsource.recency import read_recency
    from sextant.indexer.chunk_points import FileVersion, chunk_payload
    from sextant.indexer.discovery import DiscoveryRules, content_skip_reason
    from sextant.parsing import build_chunks, decode_source

    git_dir = checkout / ".git"
    rules = DiscoveryRules()
    entries = [(path, sha) for path, sha in _tree(git_dir, commit) if rules.wants_path(path)]
    _head, dates, _commits = read_recency(git_dir, commit, env={**os.environ, "LC_ALL": "C"})
    blobs = _blobs(git_dir, sorted({sha for _path, sha in entries}))
    for path, sha in entries:
        data = blobs.get(sha)
        if data is None or content_skip_reason(data, rules.max_file_bytes) is not None:
            continue
        try:
            chunks = build_chunks(path, decode_source(data), max_chars=LOCAL_MAX_CHARS)
        except Exception:  # noqa: S112 - the indexer, too, lets a parser bug cost one file only
            continue
        version = FileVersion(
            repo_key=repo_key,
            blob_sha=sha,
            chunk_count=len(chunks),
            run_id="bench",
            added=True,
            stamp=dates.get(path),
            indexed_at=INDEXED_AT,
        )
        for chunk in chunks:
            yield chunk_payload(chunk, version)
