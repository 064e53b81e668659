"""Per-file last-commit dates from one ``git log`` pass over a bare, blob-less clone (docs/design.md §2).

A URL source is cloned bare with ``--filter=blob:none --single-branch`` (and ``--shallow-since`` for
a window) into a temp folder removed in ``finally``; rename detection is off (``--no-renames``), so
no blob is ever fetched and a rename reads as delete + add: the new path gets the rename's date.
With a window the clone is then deepened by one generation, so the oldest commits inside the
window show their real changes and only commits outside it are shallow boundaries.

A local path is read in place, read-only and without a clone; there the window is ``--since``,
which selects the same commits (the full history is present, so no boundary exists).

Merges: a file gets the date of the newest ordinary commit that changed it (a side-branch commit,
not the merge that brought it in). A path no ordinary commit ever touched under its current name
(a subtree merge, a file created while resolving a merge) gets the date of the newest first-parent
merge that changed it, from a merge-only pass that runs beside the main one and is cancelled when
the main pass has dated every path.

Dates are the committer date in UTC ISO 8601. The map holds exactly the paths of the branch's tree
at head; a path whose last change is older than the window (or unknown) maps to None.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

import msgspec

from sextant.gitsource.access import RepoSource, git_environment, local_path, secrets_of
from sextant.gitsource.clone import WindowBeforeHistoryError, clone_blobless, deepen_past_boundary
from sextant.gitsource.commit_dates import iso_from_epoch, normalize_iso
from sextant.gitsource.errors import BranchNotFoundError, GitCommandError
from sextant.gitsource.git_process import BackgroundGit, run_git, stream_git
from sextant.gitsource.local_repository import resolve_local_git_dir
from sextant.gitsource.log_parser import LOG_FORMAT, NameStatusParser
from sextant.gitsource.paths import path_text, text_path
from sextant.gitsource.tree_stream import TreeLimits, tree_records
from sextant.telemetry import tracer

DEFAULT_SCAN_TIMEOUT = 600.0
DEFAULT_LIMITS = TreeLimits()

_tracer = tracer(__name__)


class RecencyScan(msgspec.Struct, frozen=True, kw_only=True):
    """Result of a recency scan: path → last commit date, plus what it cost."""

    dates: dict[str, str | None]
    """Every path of the branch's tree at head → ISO 8601 UTC date of its last commit, or None when
    that commit is older than the window."""
    commits_read: int
    """Commits the git log pass read (fewer than the history when every path was dated early)."""
    files: int
    """Paths in the map (the tree at head)."""
    dated: int
    """Paths with a date (the rest are None)."""
    seconds: float
    """Wall time of the whole scan, clone included."""
    head_sha: str
    """Commit whose tree the map describes."""
    window: str | None = None
    """The history window the scan honoured, as given."""
    in_place: bool = False
    """True when a local repository was read without cloning."""


def git_log_arguments(head: str, since: str | None = None) -> list[str]:
    """The exact ``git log`` arguments of a scan (the benchmark times the same command raw).

    Args:
        head: Commit to start from.
        since: Optional ``--since`` date for in-place reads with a window.

    Returns:
        Arguments after ``git``.
    """
    args = [
        "log",
        "-z",
        "--no-renames",
        "--name-status",
        "--root",  # git's default, given so a repository read in place cannot hide its first commit's files
        "--diff-merges=off",
        "--no-show-signature",
        "--no-ext-diff",
        "--no-textconv",
        f"--format={LOG_FORMAT}",
    ]
    if since is not None:
        args.append(f"--since={since}")
    return [*args, head, "--"]


def merge_log_arguments(head: str, since: str | None = None) -> list[str]:
    """The second, merge-only pass: first-parent merges with their diff against the first parent.

    A path that no ordinary commit ever touched under its current name (brought in by a subtree
    merge, or created while resolving a merge) gets the date of the newest first-parent merge that
    changed it. Along the first-parent chain such a change can only come from a merge, so these
    merges are all that is needed.

    Args:
        head: Commit to start from.
        since: Optional ``--since`` date for in-place reads with a window.

    Returns:
        Arguments after ``git``.
    """
    args = git_log_arguments(head, since)
    at = args.index("--diff-merges=off")
    return [*args[:at], "--first-parent", "--merges", "--diff-merges=first-parent", *args[at + 1 :]]


def read_recency(
    git_dir: Path,
    ref: str,
    *,
    env: Mapping[str, str],
    secrets: tuple[str, ...] = (),
    timeout: float = DEFAULT_SCAN_TIMEOUT,
    since: str | None = None,
    limits: TreeLimits = DEFAULT_LIMITS,
) -> tuple[str, dict[str, str | None], int]:
    """Date every path of ``ref``'s tree from one streamed ``git log`` pass in ``git_dir``.

    Args:
        git_dir: A repository (a blob-less clone or a local repository).
        ref: Branch ref or commit to describe.
        env: Child environment.
        secrets: Strings to scrub from errors.
        timeout: Seconds allowed for each git command.
        since: Optional ``--since`` limit (in-place reads with a window).
        limits: Caps on the tree's entries and listing bytes.

    Returns:
        (head sha, path → date or None, commits read); paths in their text form (``paths.path_text``).
    """
    head = resolve_commit(git_dir, ref, env=env, secrets=secrets, timeout=timeout)
    tree = _tree_paths(git_dir, head, env=env, secrets=secrets, timeout=timeout, limits=limits)
    boundary = shallow_boundary(git_dir)
    parser = NameStatusParser(tree, boundary)
    first_seen = parser.first_seen
    if tree:
        # The merge pass runs beside the main pass (a second core) and is used only for paths the
        # main pass never saw; it is cancelled as soon as every path is dated.
        with BackgroundGit(
            merge_log_arguments(head, since), env=env, secrets=secrets, timeout=timeout, git_dir=git_dir
        ) as merge_pass:
            _read_main_log(parser, head, since, git_dir=git_dir, env=env, secrets=secrets, timeout=timeout)
            undated = tree.difference(first_seen)
            if undated:
                merge_parser = NameStatusParser(undated, boundary)
                for chunk in merge_pass.output_chunks():
                    merge_parser.feed(chunk)
                merge_parser.finish()
                first_seen = {**first_seen, **merge_parser.first_seen}
    iso_by_time: dict[bytes, str] = {}
    dates: dict[str, str | None] = {}
    for path in sorted(tree):
        seen = first_seen.get(path)
        if seen is not None and seen not in iso_by_time:
            iso_by_time[seen] = iso_from_epoch(int(seen))
        dates[path_text(path)] = iso_by_time[seen] if seen is not None else None
    return head, dates, parser.commits_read


def _tree_paths(
    git_dir: Path,
    head: str,
    *,
    env: Mapping[str, str],
    secrets: tuple[str, ...],
    timeout: float,
    limits: TreeLimits,
) -> set[bytes]:
    """The paths of head's tree, streamed and capped like the indexer's listing (a git bomb stops here)."""
    with stream_git(
        ["ls-tree", "-r", "-z", "--name-only", "--full-tree", head],
        env=env,
        secrets=secrets,
        timeout=timeout,
        git_dir=git_dir,
    ) as output:
        return set(tree_records(output.chunks(), limits))


def _read_main_log(
    parser: NameStatusParser,
    head: str,
    since: str | None,
    *,
    git_dir: Path,
    env: Mapping[str, str],
    secrets: tuple[str, ...],
    timeout: float,
) -> None:
    with stream_git(
        git_log_arguments(head, since), env=env, secrets=secrets, timeout=timeout, git_dir=git_dir
    ) as output:
        for chunk in output.chunks():
            parser.feed(chunk)
            if parser.complete:
                output.stop()  # every path dated: older history cannot change the map
                return
        parser.finish()


def shallow_boundary(git_dir: Path) -> frozenset[bytes]:
    """The shallow boundary commits of a repository (empty for a full history).

    Args:
        git_dir: The repository's git directory.

    Returns:
        Commit SHAs as hex bytes.
    """
    try:
        return frozenset(line.strip() for line in (git_dir / "shallow").read_bytes().splitlines() if line.strip())
    except FileNotFoundError:
        return frozenset()


def resolve_commit(git_dir: Path, ref: str, *, env: Mapping[str, str], secrets: tuple[str, ...], timeout: float) -> str:
    """The commit SHA a ref points to, or ``BranchNotFoundError``.

    Args:
        git_dir: The repository.
        ref: A full ref name, ``HEAD`` or a SHA.
        env: Child environment.
        secrets: Strings to scrub from errors.
        timeout: Seconds allowed.

    Returns:
        The full commit SHA.
    """
    try:
        out = run_git(
            ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"],
            env=env,
            secrets=secrets,
            timeout=timeout,
            git_dir=git_dir,
        )
    except GitCommandError:
        raise BranchNotFoundError(
            f"{ref!r} does not name a commit of the repository (no such branch, tag or commit, or no commit yet)"
        ) from None
    return out.decode("ascii").strip()


def scan_recency(
    source: RepoSource,
    window: str | None = None,
    timeout: float = DEFAULT_SCAN_TIMEOUT,
    *,
    work_dir: Path | None = None,
    limits: TreeLimits = DEFAULT_LIMITS,
) -> RecencyScan:
    """Scan a repository's history for the last commit date of every file at the branch head.

    Args:
        source: Repository and branch (None: the default branch, or HEAD of a local repository).
        window: Optional history cap git understands, e.g. ``2 years ago`` or ``2024-01-01``.
        timeout: Seconds allowed for each git command (clone, log, ...).
        work_dir: Where the temp clone goes (default: the system temp folder).
        limits: Caps on the tree's entries and listing bytes (``TreeTooLargeError`` past them).

    Returns:
        The map and what the scan cost.
    """
    started = time.perf_counter()
    env = git_environment(source)
    secrets = secrets_of(source)
    local = local_path(source)
    if local is not None:
        with _tracer.start_as_current_span("recency.clone_or_open", attributes={"sextant.in_place": True}):
            git_dir = resolve_local_git_dir(local, env=env, timeout=timeout)
        ref = f"refs/heads/{source.branch}" if source.branch else "HEAD"
        with _tracer.start_as_current_span("recency.git_log") as span:
            head, dates, commits = read_recency(
                git_dir, ref, env=env, secrets=secrets, timeout=timeout, since=window, limits=limits
            )
            span.set_attributes({"sextant.commits_read": commits, "sextant.files": len(dates)})
        return _summarise(dates, commits, head, window, started, in_place=True)
    temp = Path(tempfile.mkdtemp(prefix="sextant-recency-", dir=work_dir))
    try:
        git_dir = temp / "repo.git"
        attributes: dict[str, str | bool] = {"sextant.in_place": False, "sextant.window": window or "(none)"}
        with _tracer.start_as_current_span("recency.clone_or_open", attributes=attributes):
            clone_for_recency(source, git_dir, window=window, env=env, secrets=secrets, timeout=timeout)
        with _tracer.start_as_current_span("recency.git_log") as span:
            head, dates, commits = read_recency(
                git_dir, "HEAD", env=env, secrets=secrets, timeout=timeout, limits=limits
            )
            span.set_attributes({"sextant.commits_read": commits, "sextant.files": len(dates)})
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    return _summarise(dates, commits, head, window, started, in_place=False)


def clone_for_recency(
    source: RepoSource,
    git_dir: Path,
    *,
    window: str | None,
    env: Mapping[str, str],
    secrets: tuple[str, ...],
    timeout: float,
) -> None:
    """Make the bare blob-less clone a scan reads (shallow to the window when one is given).

    Args:
        source: The repository (a URL).
        git_dir: Folder to create.
        window: Optional ``--shallow-since`` date.
        env: Child environment.
        secrets: Strings to scrub from errors.
        timeout: Seconds allowed for each git command.
    """
    if window is None:
        clone_blobless(source, git_dir, env=env, secrets=secrets, timeout=timeout)
        return
    try:
        clone_blobless(source, git_dir, env=env, secrets=secrets, timeout=timeout, shallow_since=window)
    except WindowBeforeHistoryError:
        # Every commit predates the window: keep just the head (a boundary), so all paths are None.
        shutil.rmtree(git_dir, ignore_errors=True)
        clone_blobless(source, git_dir, env=env, secrets=secrets, timeout=timeout, depth=1)
        return
    if (git_dir / "shallow").exists():
        deepen_past_boundary(git_dir, env=env, secrets=secrets, timeout=timeout)


def _summarise(
    dates: dict[str, str | None],
    commits: int,
    head: str,
    window: str | None,
    started: float,
    *,
    in_place: bool,
) -> RecencyScan:
    return RecencyScan(
        dates=dates,
        commits_read=commits,
        files=len(dates),
        dated=sum(1 for date in dates.values() if date is not None),
        seconds=round(time.perf_counter() - started, 3),
        head_sha=head,
        window=window,
        in_place=in_place,
    )


def describe_scan(scan: RecencyScan) -> str:
    """One summary line for a person (the CLI prints it on stderr).

    Args:
        scan: A finished scan.

    Returns:
        e.g. ``recency: 82,104 commits read, 4,312 files (4,001 dated) in 4.21 s at 1a2b3c4d5e6f``.
    """
    window = f", window {scan.window!r}" if scan.window else ""
    return (
        f"recency: {scan.commits_read:,} commits read, {scan.files:,} files ({scan.dated:,} dated)"
        f" in {scan.seconds:.2f} s at {scan.head_sha[:12]}{window}"
    )


def incremental_recency(changed_paths: Iterable[str], head_commit_date: str | None) -> dict[str, str | None]:
    """The recency map of a push: each changed path gets the head commit's date (no clone).

    Args:
        changed_paths: Paths the push added or modified.
        head_commit_date: ISO 8601 date-time of the head commit, or None when the caller has none.

    Returns:
        Path → the date in UTC ISO 8601, or None for every path when no date was given (never now).
    """
    date = normalize_iso(head_commit_date) if head_commit_date is not None else None
    return dict.fromkeys((text_path(path) for path in changed_paths), date)
