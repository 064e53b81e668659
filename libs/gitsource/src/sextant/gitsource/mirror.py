"""A cache of bare blob-less clones, one per repository, kept current with ``git fetch``.

The indexer discovers files with ``list_tree`` (paths and blob SHAs straight from the tree: git
never truncates), reads only changed files with ``read_blobs`` (their blobs fetched in one batch),
and a no-change re-sync costs one fetch (nothing transferred) plus the ``ls-tree``. The reviewer
reads ``diff``. ``hydrate_history`` fetches the source files' past blobs within a byte budget, for
the doc-claim history look-up (``history_blobs``). A local path is used in place: nothing is
cloned or written.

The folder of a mirror is named from a hash of the URL (never the token); the token lives only in
the environment of each git call, so the mirror's config holds no secret.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import threading
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import msgspec

from sextant.gitsource.access import RepoSource, git_environment, local_path, secrets_of
from sextant.gitsource.clone import branch_missing, clone_blobless
from sextant.gitsource.commit_dates import iso_from_epoch
from sextant.gitsource.errors import BranchNotFoundError, GitCommandError, GitSourceError
from sextant.gitsource.git_process import run_git, stream_git
from sextant.gitsource.history_blobs import (
    DEFAULT_HISTORY_FETCH_BYTES,
    DEFAULT_HISTORY_FETCH_SECONDS,
    Hydration,
    extends_hydrated,
    hydrate,
    record_under_way,
)
from sextant.gitsource.local_repository import resolve_local_git_dir
from sextant.gitsource.objects import (
    blob_contents,
    check_object_ids,
    fetch_objects,
    object_sizes,
    present_objects,
)
from sextant.gitsource.paths import path_text
from sextant.gitsource.tree_stream import TreeLimits, tree_records

DEFAULT_MIRROR_TIMEOUT = 600.0
DEFAULT_BRANCH_REF = "refs/sextant/default-head"
"""Where a mirror keeps the remote's default branch head when no branch was asked for."""

_REGULAR_FILE_MODES = frozenset({"100644", "100755"})
DEFAULT_TREE_LIMITS = TreeLimits()
_SLUG = re.compile(r"[^A-Za-z0-9._-]+")


class MirrorState(msgspec.Struct, frozen=True, kw_only=True):
    """Where a mirror stands after a sync."""

    head_sha: str
    """Commit at the head of the branch."""
    head_commit_date: str
    """Committer date of the head commit, ISO 8601 UTC."""
    path: str
    """The mirror's git directory (for a local source: the repository's own)."""
    in_place: bool = False
    """True when the source is a local repository read without a mirror."""


class TreeEntry(msgspec.Struct, frozen=True):
    """An entry of a tree: a file, a symlink or a submodule."""

    path: str
    """Path in the repository in its text form (``sextant.gitsource.paths``: exact, always UTF-8)."""
    blob_sha: str
    """Object id: the file's (or the symlink's) blob, or the submodule's commit."""
    mode: str
    """``100644`` or ``100755`` for a regular file, ``120000`` a symlink, ``160000`` a submodule."""

    @property
    def is_regular_file(self) -> bool:
        """Whether the entry is a regular file (the only kind with content to index)."""
        return self.mode in _REGULAR_FILE_MODES


class RepoMirror:
    """Bare, blob-less clones under ``cache_dir``; every method takes the source it works on.

    Args:
        cache_dir: Folder holding the mirrors (created when missing).
        timeout: Seconds allowed for each git command.
    """

    def __init__(self, cache_dir: Path, *, timeout: float = DEFAULT_MIRROR_TIMEOUT) -> None:
        self.cache_dir = cache_dir
        self.timeout = timeout
        self._local_git_dirs: dict[Path, Path] = {}

    def mirror_dir(self, source: RepoSource) -> Path:
        """The git directory a source is read from (a cache folder, or a local repository).

        Args:
            source: The repository.

        Returns:
            The git directory (it may not exist before the first ``sync``).
        """
        local = local_path(source)
        if local is not None:
            if local not in self._local_git_dirs:
                self._local_git_dirs[local] = resolve_local_git_dir(
                    local, env=git_environment(source), timeout=self.timeout
                )
            return self._local_git_dirs[local]
        digest = hashlib.sha256(source.url.rstrip("/").encode()).hexdigest()[:20]
        tail = source.url.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1].removesuffix(".git")
        slug = _SLUG.sub("-", tail)[:40].strip("-.") or "repo"
        return self.cache_dir / f"{slug}-{digest}.git"

    def sync(self, source: RepoSource) -> MirrorState:
        """Bring the source's branch up to date: clone the first time, ``git fetch`` afterwards.

        Args:
            source: Repository and branch (None: the remote's default branch / a local HEAD).

        Returns:
            The head commit, its date and the git directory.
        """
        env, secrets = git_environment(source), secrets_of(source)
        git_dir = self.mirror_dir(source)
        if local_path(source) is not None:
            ref = f"refs/heads/{source.branch}" if source.branch else "HEAD"
            return self._state(git_dir, ref, source, in_place=True)
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        ref = f"refs/heads/{source.branch}" if source.branch else DEFAULT_BRANCH_REF
        with self._locked(git_dir):
            if git_dir.exists():
                self._fetch_branch(git_dir, source, ref, env=env, secrets=secrets)
            else:
                self._clone(git_dir, source, env=env, secrets=secrets)
        return self._state(git_dir, ref, source, in_place=False)

    def hydrate_history(
        self,
        source: RepoSource,
        head_sha: str,
        max_bytes: int = DEFAULT_HISTORY_FETCH_BYTES,
        max_seconds: float = DEFAULT_HISTORY_FETCH_SECONDS,
        head_read: threading.Event | None = None,
    ) -> Hydration | None:
        """Fetch the past blobs of the source files reachable from a synced head, within a byte budget.

        So the doc-claim history look-up can read the mirror like a full repository (see
        ``history_blobs``). Under the mirror's lock, as a sync; only new history is fetched once the
        mirror is hydrated.

        Args:
            source: The repository (synced).
            head_sha: The head commit of the sync (``MirrorState.head_sha``).
            max_bytes: Bytes this call may add to the mirror.
            max_seconds: Wall time this call may take (the lock is held meanwhile).
            head_read: Set once the caller has read the head's files it needs (``read_blobs``): the
                head tree's blobs are fetched after that, only those still missing (see ``hydrate``).

        Returns:
            What was fetched; None for a local repository (read in place, nothing to fetch).
        """
        _check_revision(head_sha)
        if local_path(source) is not None:
            return None
        git_dir = self.mirror_dir(source)
        with self._locked(git_dir):
            return hydrate(
                git_dir,
                head_sha,
                env=git_environment(source),
                secrets=secrets_of(source),
                timeout=self.timeout,
                max_bytes=max_bytes,
                max_seconds=max_seconds,
                head_read=head_read,
            )

    def extends_hydrated_history(self, source: RepoSource, head_sha: str) -> bool:
        """Whether hydrating a synced head adds to a history already hydrated (fetching only what came since).

        Args:
            source: The repository (synced).
            head_sha: The head commit of the sync.

        Returns:
            False when the whole history would be fetched (a first hydration, or one an earlier budget
            stopped), and for a local repository (nothing to fetch).
        """
        _check_revision(head_sha)
        if local_path(source) is not None:
            return False
        return extends_hydrated(self.mirror_dir(source), head_sha, env=git_environment(source), timeout=self.timeout)

    def note_history_under_way(self, source: RepoSource, head_sha: str) -> None:
        """Note in the mirror that a hydration of this head is about to run, so a reader that comes first
        says the history was still being fetched and that the doc claims are judged again once it ends
        (``history_blobs.UNDER_WAY_NOTE``: the indexer then publishes HistoryHydrated, and the analysis
        reviser publishes a revised analysis of the run if a finding changed).

        Args:
            source: The repository (synced).
            head_sha: The head commit to be hydrated.

        Raises:
            OSError: The note could not be written.
        """
        _check_revision(head_sha)
        if local_path(source) is None:
            record_under_way(self.mirror_dir(source), head_sha)

    def iter_tree(self, source: RepoSource, ref: str, limits: TreeLimits = DEFAULT_TREE_LIMITS) -> Iterator[TreeEntry]:
        """Every entry of a commit's tree, streamed from git as it lists them (no blob is fetched).

        Memory stays flat however large the tree: the caller filters each entry as it comes, and
        the listing stops with ``TreeTooLargeError`` past either cap of ``limits``.

        Args:
            source: The repository (synced).
            ref: Commit SHA or ref, e.g. ``MirrorState.head_sha``.
            limits: Caps on entries and listing bytes.

        Returns:
            Entries in path order: regular files, symlinks (``120000``) and submodules (``160000``).
        """
        _check_revision(ref)
        with stream_git(
            ["ls-tree", "-r", "-z", "--full-tree", ref],
            env=git_environment(source),
            secrets=secrets_of(source),
            timeout=self.timeout,
            git_dir=self.mirror_dir(source),
        ) as output:
            for record in tree_records(output.chunks(), limits):
                meta, _, raw_path = record.partition(b"\t")
                mode, _kind, sha = meta.decode("ascii").split(" ")
                yield TreeEntry(path_text(raw_path), sha, mode)

    def list_tree(self, source: RepoSource, ref: str, limits: TreeLimits = DEFAULT_TREE_LIMITS) -> list[TreeEntry]:
        """Every regular file of a commit's tree with its blob SHA (no blob is fetched).

        Args:
            source: The repository (synced).
            ref: Commit SHA or ref, e.g. ``MirrorState.head_sha``.
            limits: Caps on entries and listing bytes (see ``iter_tree``).

        Returns:
            Entries sorted by path; symlinks and submodules are left out (nothing to index there).
        """
        return [entry for entry in self.iter_tree(source, ref, limits) if entry.is_regular_file]

    def read_blobs(self, source: RepoSource, shas: Iterable[str], max_bytes: int) -> dict[str, bytes | None]:
        """Contents of blobs, fetching the missing ones in one batch first.

        Git has no way to learn a blob's size before fetching it, so an oversized blob is still
        downloaded once; it is just not read or returned.

        Args:
            source: The repository (synced).
            shas: Blob ids, e.g. of the changed files.
            max_bytes: Largest content to return; bigger blobs map to None.

        Returns:
            Blob id → content, or None when larger than ``max_bytes``.
        """
        ids = check_object_ids(shas)
        if not ids:
            return {}
        env = git_environment(source)
        git_dir = self.mirror_dir(source)
        self._ensure_present(git_dir, ids, source, with_objects=True)
        sizes = object_sizes(git_dir, ids, env=env, timeout=self.timeout)
        small = [object_id for object_id in ids if sizes[object_id] <= max_bytes]
        contents = blob_contents(git_dir, small, env=env, timeout=self.timeout)
        return {object_id: contents.get(object_id) for object_id in ids}

    def changed_paths(self, source: RepoSource, base: str, head: str) -> list[str]:
        """Paths added, modified or deleted between two commits (trees only, no blob).

        Args:
            source: The repository (synced).
            base: Older commit.
            head: Newer commit.

        Returns:
            Sorted paths; a rename appears as its old and its new path.
        """
        self._ensure_commits(source, [base, head])
        out = self._git(source, ["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", base, head, "--"])
        return sorted(path_text(path) for path in out.split(b"\0") if path)

    def diff(self, source: RepoSource, base: str, head: str) -> str:
        """Unified diff between two commits, for review.

        git prefetches the blobs a diff needs in one batch (measured: 100 changed files, one fetch).

        Args:
            source: The repository (synced).
            base: Older commit.
            head: Newer commit.

        Returns:
            The patch text (undecodable bytes replaced).
        """
        self._ensure_commits(source, [base, head])
        out = self._git(
            source,
            [
                "diff",
                "--no-color",
                "--no-ext-diff",
                "--no-textconv",
                "--find-renames",
                "--submodule=short",
                "--src-prefix=a/",  # a repository read in place cannot change the headers its readers parse
                "--dst-prefix=b/",
                base,
                head,
                "--",
            ],
        )
        return out.decode("utf-8", "replace")

    def _git(self, source: RepoSource, args: list[str]) -> bytes:
        return run_git(
            args,
            env=git_environment(source),
            secrets=secrets_of(source),
            timeout=self.timeout,
            git_dir=self.mirror_dir(source),
        )

    def _clone(self, git_dir: Path, source: RepoSource, *, env: dict[str, str], secrets: tuple[str, ...]) -> None:
        # Clone beside the final folder and rename: an interrupted clone never looks like a mirror.
        staging = git_dir.with_name(f".{git_dir.name}.{uuid.uuid4().hex}.tmp")
        try:
            clone_blobless(source, staging, env=env, secrets=secrets, timeout=self.timeout)
            if source.branch is None:
                run_git(
                    ["update-ref", DEFAULT_BRANCH_REF, "HEAD"],
                    env=env,
                    secrets=secrets,
                    timeout=self.timeout,
                    git_dir=staging,
                )
            os.rename(staging, git_dir)
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    def _fetch_branch(
        self, git_dir: Path, source: RepoSource, ref: str, *, env: dict[str, str], secrets: tuple[str, ...]
    ) -> None:
        remote_ref = ref if source.branch else "HEAD"
        try:
            run_git(
                [
                    "fetch",
                    "--quiet",
                    "--no-tags",
                    "--no-write-fetch-head",
                    "--filter=blob:none",
                    "origin",
                    f"+{remote_ref}:{ref}",
                ],
                env=env,
                secrets=secrets,
                timeout=self.timeout,
                git_dir=git_dir,
            )
        except GitCommandError as error:
            if branch_missing(error):
                raise BranchNotFoundError(f"branch {source.branch!r} does not exist in the repository") from None
            raise

    def _state(self, git_dir: Path, ref: str, source: RepoSource, *, in_place: bool) -> MirrorState:
        try:
            out = run_git(
                ["log", "-1", "--no-show-signature", "--format=%H %ct", ref, "--"],
                env=git_environment(source),
                secrets=secrets_of(source),
                timeout=self.timeout,
                git_dir=git_dir,
            )
        except GitCommandError:
            raise BranchNotFoundError(f"{ref} has no commit (missing branch or empty repository)") from None
        sha, _, seconds = out.decode("ascii").strip().partition(" ")
        return MirrorState(
            head_sha=sha, head_commit_date=iso_from_epoch(int(seconds)), path=str(git_dir), in_place=in_place
        )

    def _ensure_commits(self, source: RepoSource, revisions: list[str]) -> None:
        for revision in revisions:
            _check_revision(revision)
        shas = [revision for revision in revisions if re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", revision)]
        self._ensure_present(self.mirror_dir(source), shas, source, with_objects=False)

    def _ensure_present(self, git_dir: Path, ids: list[str], source: RepoSource, *, with_objects: bool) -> None:
        env = git_environment(source)
        present = present_objects(git_dir, ids, with_objects=with_objects, env=env, timeout=self.timeout)
        missing = [object_id for object_id in ids if object_id not in present]
        if not missing:
            return
        if local_path(source) is not None:
            raise GitSourceError(f"{len(missing)} object(s) not in the local repository, e.g. {missing[0]}")
        fetch_objects(git_dir, missing, env=env, secrets=secrets_of(source), timeout=self.timeout)
        still = set(missing) - present_objects(
            git_dir, missing, with_objects=with_objects, env=env, timeout=self.timeout
        )
        if still:
            raise GitSourceError(f"the remote did not send {len(still)} object(s), e.g. {sorted(still)[0]}")

    @contextmanager
    def _locked(self, git_dir: Path) -> Iterator[None]:
        # One sync per mirror at a time (several indexer workers may share a cache folder).
        lock_path = git_dir.with_name(f"{git_dir.name}.lock")
        with lock_path.open("a") as lock_file:
            fcntl.flock(lock_file, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock_file, fcntl.LOCK_UN)


def _check_revision(revision: str) -> None:
    if not revision or revision.startswith("-") or re.search(r"[\x00-\x20\x7f]", revision):
        raise GitSourceError(f"invalid revision {revision[:80]!r}")
