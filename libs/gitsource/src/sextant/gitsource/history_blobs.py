"""Old file contents for a blob-less mirror: the source files' past blobs, fetched within a byte budget.

A blob-less mirror holds every commit and tree but only the blobs the indexer read, so the history
look-up of doc claims (`history_definitions`: `git grep` over past trees, `git log -G` over
stretches) cannot run on it. Hydrating it fetches, through the mirror's own fetch path
(`objects.fetch_objects`: the remote `origin`, the hardened environment, the token only in git's
environment), the missing blobs of source files over the branch's history:

1. the raw diffs of the branch's history (``git log --raw -z --cc <head> --not <hydrated heads>``:
   a merge shows only what it wrote itself) name every version every file had, of which the source
   files' (`is_source_path`: what `CODE_PATHSPECS` matches) are kept here, and those the mirror's
   object list (``cat-file --batch-all-objects``) lacks are the missing ones, newest first. Nothing
   is fetched (a raw diff reads trees only, and every command runs with no transport allowed). The
   pathspecs are matched here and not by git: git matches every wildcard pathspec against every
   entry of every tree a commit changed, which cost git/git ten times the diffs themselves;
2. they are fetched in batches, each sized from the bytes per blob seen so far, until none is
   missing or the byte budget is spent. When another reader of the mirror fetches the head's files
   meanwhile (the index run reads every changed file), the head tree's blobs wait until it says it
   is done (`head_read`), and only those it left missing are fetched then: nothing is fetched twice.
   A run the budget stopped keeps what it fetched and writes down what it listed and left
   (`PENDING_FILE`: the head it listed and the blobs still to fetch), so the next run lists only the
   history added since that head and takes the rest from the list instead of listing the whole
   history again;
3. when every listed blob was fetched here or, for those left to the reader, ``rev-list
   --missing=print`` finds it present after the reader is done, a ref under
   `HYDRATED_REFS` is set to the head: every source blob reachable from it is present, so the next
   run lists only the history added since (and the pending list is dropped), and a reader knows the
   mirror can be searched like a full repository. The outcome of the last run (and the note to show
   when it stopped short) is kept beside it in `STATE_FILE`; while a hydration runs, that file
   holds `UNDER_WAY_NOTE`, so a reader that comes before its end (or after it was killed) says why
   it found no history, and that a revision follows the fetch.

`extends_hydrated` tells a caller whether a hydration of a head adds to a hydrated history (it lists
and fetches only what came since: cheap) or must fetch the whole history (a first run: the indexer
then fetches it after its run, not beside it).

The caller holds the mirror's lock (`RepoMirror.hydrate_history`), as for a sync.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from sextant.gitsource.errors import GitCommandError, GitSourceError, GitTimeoutError
from sextant.gitsource.git_process import run_git, stream_git
from sextant.gitsource.history_definitions import CODE_PATHSPECS, PARTIAL_CLONE_NOTE
from sextant.gitsource.objects import fetch_objects, present_objects

HYDRATED_REFS = "refs/sextant/history-hydrated/"
"""Refs (one per hydrated head, named by its id) to commits whose source files' whole history is
present in the mirror. Several branches may share a mirror, so a head that does not descend from an
earlier one gets its own ref; one that does replaces the refs it covers."""
STATE_FILE = "sextant-history.json"
"""The last hydration's outcome, in the mirror's git directory."""
PENDING_FILE = "sextant-history-pending"
"""What a run the budget stopped listed and left, in the mirror's git directory: the head it listed on
the first line, then the source blobs of that head's history still missing, one id a line, newest
first. Every source blob reachable from that head is present or on the list."""
DEFAULT_HISTORY_FETCH_BYTES = 64 * 1024 * 1024
"""Bytes one hydration may add to the mirror (packed, as fetched): flask's whole source history is
about a twentieth of it."""
DEFAULT_HISTORY_FETCH_SECONDS = 120.0
"""Wall time one hydration may take (it holds the mirror's lock; the indexer's ChunksIndexed waits for a
hydration of the history since a hydrated head, not for a first one): git/git's listing alone
needs about 5 s of CPU (a minute while git matched the source pathspecs itself); a corpus repository
needs well under a second."""
_FIRST_BATCH = 64
_MIN_BATCH = 16
_MAX_BATCH = 65536
"""Largest fetch: the rest in one request once the bytes per blob are known (celery's 24k blobs: one
fetch costs git 1.5 s CPU, server and client together; four of up to 8k cost 2.3 s)."""
_BYTES_PER_KIB = 1024
_SOURCE_SUFFIXES = tuple(spec.removeprefix("*").encode("ascii") for spec in CODE_PATHSPECS)
_OBJECT_ID = re.compile(rb"^(?:[0-9a-f]{40}|[0-9a-f]{64})$")
_ASKED_ONE_BY_ONE = 2048
"""Blobs whose presence is asked for one by one at most; more are looked up in the store's own list."""
UNDER_WAY_NOTE = (
    "history not searched: the blob-less clone's old file contents were still being fetched (a first run "
    "fetches them after indexing; when that ends the doc claims are judged again, and a revised analysis "
    "follows if a finding changed)"
)
"""The note `STATE_FILE` holds while a hydration runs, and after one that was stopped before its end.

It reaches a user in the history note of the first analysis of a blob-less mirror and in each
finding history would have decided, so it says what comes next: the indexer publishes
HistoryHydrated when the fetch ends and the analysis reviser judges that run's claims again,
publishing a revised analysis only when a finding changed (docs/analysis.md, "Revised with
history"). A fetch killed before its end publishes nothing; the note stays, and the next run fetches
what is missing before its own analysis reads the history. It stays under the 240 characters a
report shows of a history note (``render_findings_markdown``)."""


@dataclass(frozen=True)
class Hydration:
    """What one hydration of a mirror did."""

    head: str
    """The commit whose history was hydrated."""
    complete: bool
    """True when every source blob reachable from the head is present."""
    missing: int = 0
    """Source blobs the mirror lacked when the run began."""
    fetched: int = 0
    """Blobs fetched by this run."""
    bytes_fetched: int = 0
    """Bytes the mirror grew by (packed objects, as transferred)."""
    fetches: int = 0
    """Fetch requests made."""
    seconds: float = 0.0
    note: str | None = None
    """Why the history is not complete (the budget), None when it is."""
    carried: int = 0
    """Of `missing`, the blobs an earlier run listed and left (`PENDING_FILE`), not listed again."""


def hydrate(
    git_dir: Path,
    head: str,
    *,
    env: dict[str, str],
    secrets: tuple[str, ...],
    timeout: float,
    max_bytes: int = DEFAULT_HISTORY_FETCH_BYTES,
    max_seconds: float = DEFAULT_HISTORY_FETCH_SECONDS,
    head_read: threading.Event | None = None,
) -> Hydration:
    """Fetch the missing past blobs of source files reachable from `head`, within `max_bytes` and `max_seconds`.

    Args:
        git_dir: A blob-less mirror whose promisor remote is `origin`.
        head: Full commit id of the branch head to hydrate.
        env: Child environment of the mirror's source (carries the credentials, if any).
        secrets: Strings to scrub from errors.
        timeout: Seconds allowed for each git command.
        max_bytes: Bytes the mirror may grow by in this run.
        max_seconds: Wall time for this run: the listing is cut at it, and no batch starts after it.
        head_read: Set by another reader of the mirror once it has fetched the head's files it reads
            (their blobs are left out until then, and fetched afterwards only if still missing); None
            when nobody else reads them.

    Returns:
        What was fetched, and whether the history is now complete.
    """
    started = time.monotonic()
    deadline = started + max_seconds
    stopped = f"{max_seconds:g} s budget"
    record_under_way(git_dir, head)
    listing = _listed_within(git_dir, head, env=env, seconds=min(timeout, max_seconds))
    if listing is None:
        unlisted = f"{PARTIAL_CLONE_NOTE} (listing them stopped at its {stopped})"
        return _record(git_dir, Hydration(head, complete=False, seconds=time.monotonic() - started, note=unlisted))
    missing, carried = listing
    fetching = _Fetching(git_dir, env, secrets, timeout, max_bytes, deadline)
    if head_read is None:
        left = fetching.fetch(missing)
    else:
        in_head = _head_blobs(git_dir, head, env=env, timeout=timeout)
        left = fetching.fetch([blob for blob in missing if blob not in in_head])
        later = [blob for blob in missing if blob in in_head]
        head_read.wait(max(0.0, deadline - time.monotonic()))
        if head_read.is_set():
            present = present_objects(git_dir, later, with_objects=True, env=_no_transport(env), timeout=timeout)
            later = fetching.fetch([blob for blob in later if blob not in present])
        left += later
    complete = not left  # each listed blob was fetched here, or rev-list found it present after the reader
    note = None
    if complete:
        _record_hydrated(git_dir, head, env=env, timeout=timeout)
        _drop_pending(git_dir)
    else:
        _write_pending(git_dir, head, left)
        if fetching.grown >= max_bytes:
            stopped = f"{max_bytes / 1024 / 1024:g} MiB budget"
        note = (
            f"history not searched: a blob-less clone holds only part of its old file contents (fetching them "
            f"stopped at its {stopped}, {len(missing) - len(left):,} of {len(missing):,} blobs)"
        )
    outcome = Hydration(
        head=head,
        complete=complete,
        missing=len(missing),
        fetched=fetching.fetched,
        bytes_fetched=max(fetching.grown, 0),
        fetches=fetching.fetches,
        seconds=time.monotonic() - started,
        note=note,
        carried=carried,
    )
    return _record(git_dir, outcome)


@dataclass
class _Fetching:
    """Batched fetches within one hydration's byte and time budget (the bytes: the mirror's growth
    across its own fetches, not what another reader fetches between them)."""

    git_dir: Path
    env: dict[str, str]
    secrets: tuple[str, ...]
    timeout: float
    max_bytes: int
    deadline: float
    fetched: int = 0
    fetches: int = 0
    grown: int = 0
    batch: int = _FIRST_BATCH

    def fetch(self, ids: list[str]) -> list[str]:
        """Fetch `ids` in batches, each sized from the bytes per blob so far, while the budget lasts.

        Returns:
            The ids it did not get to (the budget ran out first).
        """
        done = 0
        while done < len(ids) and self.grown < self.max_bytes and time.monotonic() < self.deadline:
            batch = ids[done : done + self.batch]
            size_before = _object_bytes(self.git_dir, self.env, self.timeout)
            fetch_objects(self.git_dir, batch, env=self.env, secrets=self.secrets, timeout=self.timeout)
            self.grown += _object_bytes(self.git_dir, self.env, self.timeout) - size_before
            done += len(batch)
            self.fetches += 1
            self.fetched += len(batch)
            per_blob = max(self.grown / self.fetched, 1.0)
            self.batch = int(min(_MAX_BATCH, max(_MIN_BATCH, (self.max_bytes - self.grown) / per_blob)))
        return ids[done:]


def _head_blobs(git_dir: Path, head: str, *, env: dict[str, str], timeout: float) -> set[str]:
    """Ids of the blobs of `head`'s tree (trees only: nothing is fetched)."""
    out = _git(git_dir, ["ls-tree", "-r", "-z", "--full-tree", head], env=_no_transport(env), timeout=timeout)
    return {record.split(b"\t", 1)[0].split(b" ")[2].decode("ascii") for record in out.split(b"\0") if record}


def _listed_within(git_dir: Path, head: str, *, env: dict[str, str], seconds: float) -> tuple[list[str], int] | None:
    """`_missing_since_last_run` within a time limit; None when it ran out (or there was none)."""
    if seconds <= 0:
        return None
    try:
        return _missing_since_last_run(git_dir, head, env=env, timeout=seconds)
    except GitTimeoutError:
        return None


def _missing_since_last_run(git_dir: Path, head: str, *, env: dict[str, str], timeout: float) -> tuple[list[str], int]:
    """The missing source blobs reachable from `head`, newest first, and how many came from `PENDING_FILE`.

    When an earlier run's pending list is of an ancestor of `head` (or of `head` itself), only the
    history since that ancestor is listed, and the list's blobs still missing are added after it.
    """
    closed = _no_transport(env)
    covered = hydrated_commits(git_dir, env=closed, timeout=timeout)
    pending = _read_pending(git_dir)
    carried: list[str] = []
    if pending is not None and _is_ancestor(git_dir, pending[0], head, closed, timeout):
        covered.append(pending[0])
        carried = pending[1]
    written = _written_source_blobs(git_dir, head, covered, env=closed, timeout=timeout)
    listed = list(dict.fromkeys([*written, *carried]))
    present = _present(git_dir, listed, env=closed, timeout=timeout)
    missing = [blob for blob in listed if blob not in present]
    new = {blob for blob in written if blob not in present}
    return missing, sum(1 for blob in missing if blob not in new)


def record_under_way(git_dir: Path, head: str) -> None:
    """Note in `STATE_FILE` that a hydration of `head` has begun (`UNDER_WAY_NOTE`, until its outcome replaces it).

    Args:
        git_dir: The mirror.
        head: Full commit id being hydrated.

    Raises:
        OSError: The note could not be written.
    """
    _record(git_dir, Hydration(head, complete=False, note=UNDER_WAY_NOTE))


def _record(git_dir: Path, outcome: Hydration) -> Hydration:
    (git_dir / STATE_FILE).write_text(json.dumps(asdict(outcome)) + "\n")
    return outcome


def missing_source_blobs(git_dir: Path, head: str, *, env: dict[str, str], timeout: float) -> list[str]:
    """Ids of the source files' blobs reachable from `head` that the mirror lacks, newest first.

    Every version of a file was written by some commit, so the blob ids the raw diffs of the
    branch's history name (a merge's own resolutions included, the root's files too) are every
    version.
    Nothing is fetched: a raw diff compares tree entries only, presence is read from the object
    store's own list, and every command runs with no transport allowed. History already hydrated
    (`HYDRATED_REFS`) is not listed again.

    Args:
        git_dir: The mirror.
        head: Full commit id.
        env: Child environment.
        timeout: Seconds allowed.

    Returns:
        Blob ids, each once.
    """
    closed = _no_transport(env)
    covered = hydrated_commits(git_dir, env=closed, timeout=timeout)
    written = _written_source_blobs(git_dir, head, covered, env=closed, timeout=timeout)
    present = _present(git_dir, written, env=closed, timeout=timeout)
    return [blob for blob in written if blob not in present]


def _written_source_blobs(
    git_dir: Path, head: str, covered: list[str], *, env: dict[str, str], timeout: float
) -> list[str]:
    """The source blobs the commits reachable from `head` and not from `covered` wrote, newest first, each once.

    One raw log of every file (`-z`: paths exactly as stored), read as it streams; the source files
    are picked here (`is_source_path`), so git compares tree entries by id and matches no pattern.
    """
    args = [
        "log",
        "--format=",
        "--raw",
        "-z",
        "--no-abbrev",
        "--no-renames",
        "--diff-merges=dense-combined",  # a merge's own writes only: what it took from a parent, that parent wrote
        "--root",
        head,
    ]
    if covered:
        args += ["--not", *covered]
    written: dict[str, None] = {}
    rest = b""
    with stream_git([*args, "--"], env=env, secrets=(), timeout=timeout, git_dir=git_dir) as output:
        for chunk in output.chunks():
            fields = (rest + chunk).split(b"\0")
            rest = fields.pop()
            rest = b"\0".join([*_raw_records(fields, written), rest])
    _raw_records(rest.split(b"\0"), written)
    return list(written)


def _raw_records(fields: list[bytes], written: dict[str, None]) -> list[bytes]:
    """Add the source blobs of complete `<raw line>\\0<path>` pairs to `written`; return an unpaired tail."""
    index = 0
    while index < len(fields):
        line = fields[index].lstrip(b"\n")
        if not line.startswith(b":"):
            index += 1  # the separator between two commits' records
            continue
        if index + 1 >= len(fields):
            return fields[index:]
        if is_source_path(fields[index + 1]) and (blob := _new_blob(line.decode("ascii", "replace"))) is not None:
            written.setdefault(blob, None)
        index += 2
    return []


def is_source_path(path: bytes) -> bool:
    """Whether a path is one `CODE_PATHSPECS` matches in git's tree diffs: it ends with a source suffix
    (git's `*` spans slashes; a folder whose name ends so is not matched for what it holds).

    Args:
        path: The path as git stores it.

    Returns:
        True for a source file's path.
    """
    return path.endswith(_SOURCE_SUFFIXES)


def _new_blob(raw_line: str) -> str | None:
    """The blob a raw diff line writes, None for a deletion or a submodule.

    A commit's line is `:<old mode> <new mode> <old> <new> <status>`; a merge's combined line has
    one colon, mode and id per parent before the result's (`::100644 100644 100644 <p1> <p2> <new> MM`).
    """
    parents = len(raw_line) - len(raw_line.lstrip(":"))
    fields = raw_line[parents:].split(" ")
    if parents == 0 or len(fields) != 2 * parents + 3:
        return None
    mode, blob = fields[parents], fields[2 * parents + 1]
    return None if mode == "160000" or not blob.strip("0") else blob


def _present(git_dir: Path, ids: list[str], *, env: dict[str, str], timeout: float) -> set[str]:
    """Which of `ids` the mirror holds (nothing is fetched).

    A few are asked for one by one (``rev-list --missing=print``); many are looked up in the list of
    every object the store holds, which costs a blob-less mirror a tenth of a second where asking
    for each cost git/git's 119k missing blobs 2.9 s of git CPU (mostly rescanning the pack folder
    for each absent one).
    """
    if len(ids) <= _ASKED_ONE_BY_ONE:
        return present_objects(git_dir, ids, with_objects=True, env=env, timeout=timeout)
    wanted = {blob.encode("ascii") for blob in ids}
    found: set[bytes] = set()
    rest = b""
    listing = ["cat-file", "--batch-all-objects", "--batch-check=%(objectname)", "--unordered"]
    with stream_git(listing, env=env, secrets=(), timeout=timeout, git_dir=git_dir) as output:
        for chunk in output.chunks():
            lines = (rest + chunk).split(b"\n")
            rest = lines.pop()
            found |= wanted.intersection(lines)  # memory for the ids asked about, not the whole store
    found |= wanted.intersection([rest])
    return {blob.decode("ascii") for blob in found}


def _read_pending(git_dir: Path) -> tuple[str, list[str]] | None:
    """The head an earlier run listed and the blobs it left (`PENDING_FILE`); None when absent or unreadable."""
    try:
        lines = (git_dir / PENDING_FILE).read_bytes().split(b"\n")
    except OSError:
        return None
    ids = [line for line in lines if line]
    if not ids or not all(_OBJECT_ID.match(line) for line in ids):
        return None
    return ids[0].decode("ascii"), [line.decode("ascii") for line in ids[1:]]


def _write_pending(git_dir: Path, head: str, left: list[str]) -> None:
    partial = git_dir / f"{PENDING_FILE}.tmp"
    partial.write_text("".join(f"{line}\n" for line in [head, *left]))
    os.replace(partial, git_dir / PENDING_FILE)


def _drop_pending(git_dir: Path) -> None:
    (git_dir / PENDING_FILE).unlink(missing_ok=True)


def hydrated_commits(git_dir: Path, *, env: dict[str, str], timeout: float) -> list[str]:
    """The commits whose source history is whole in the mirror (the refs under `HYDRATED_REFS`)."""
    out = _git(git_dir, ["for-each-ref", "--format=%(objectname)", HYDRATED_REFS], env=env, timeout=timeout)
    return [line for line in out.decode("ascii").split() if line]


def history_present(git_dir: Path, head: str, *, env: dict[str, str], timeout: float) -> bool:
    """Whether every source blob reachable from `head` is in the mirror (it is an ancestor of a hydrated head).

    Args:
        git_dir: The mirror.
        head: Full commit id.
        env: Child environment.
        timeout: Seconds allowed.

    Returns:
        True when the history look-up can read the mirror like a full repository.
    """
    return any(
        _is_ancestor(git_dir, head, hydrated, env, timeout)
        for hydrated in hydrated_commits(git_dir, env=env, timeout=timeout)
    )


def extends_hydrated(git_dir: Path, head: str, *, env: dict[str, str], timeout: float) -> bool:
    """Whether `head` descends from (or is) a hydrated head: hydrating it adds only the history since.

    Args:
        git_dir: The mirror.
        head: Full commit id.
        env: Child environment.
        timeout: Seconds allowed.

    Returns:
        False when no part of `head`'s history is hydrated (the whole history would be fetched).
    """
    closed = _no_transport(env)
    return any(
        _is_ancestor(git_dir, hydrated, head, closed, timeout)
        for hydrated in hydrated_commits(git_dir, env=closed, timeout=timeout)
    )


def _record_hydrated(git_dir: Path, head: str, *, env: dict[str, str], timeout: float) -> None:
    """Add a ref for `head` and drop the refs of the heads it covers (its ancestors)."""
    covered = [
        c for c in hydrated_commits(git_dir, env=env, timeout=timeout) if _is_ancestor(git_dir, c, head, env, timeout)
    ]
    _git(git_dir, ["update-ref", f"{HYDRATED_REFS}{head}", head], env=env, timeout=timeout)
    for commit in covered:
        if commit != head:
            _git(git_dir, ["update-ref", "-d", f"{HYDRATED_REFS}{commit}"], env=env, timeout=timeout)


def _is_ancestor(git_dir: Path, older: str, newer: str, env: dict[str, str], timeout: float) -> bool:
    try:
        _git(git_dir, ["merge-base", "--is-ancestor", older, newer], env=env, timeout=timeout)
    except GitCommandError:
        return False  # exit 1: not an ancestor
    return True


def last_hydration_note(git_dir: Path) -> str | None:
    """The note of the last hydration when it stopped short (None when it completed or never ran)."""
    try:
        state = json.loads((git_dir / STATE_FILE).read_text())
    except (OSError, ValueError):
        return None
    note = state.get("note") if isinstance(state, dict) else None
    return note if isinstance(note, str) else None


def _object_bytes(git_dir: Path, env: dict[str, str], timeout: float) -> int:
    """Bytes of the object store (packs and loose objects), from `git count-objects -v`."""
    out = _git(git_dir, ["count-objects", "-v"], env=env, timeout=timeout)
    fields = dict(line.split(": ", 1) for line in out.decode("ascii").splitlines() if ": " in line)
    try:
        return (int(fields["size"]) + int(fields["size-pack"])) * _BYTES_PER_KIB
    except (KeyError, ValueError) as error:
        raise GitSourceError(f"unexpected count-objects output: {out[:200]!r}") from error


def _no_transport(env: dict[str, str]) -> dict[str, str]:
    return {**env, "GIT_ALLOW_PROTOCOL": "", "GIT_NO_LAZY_FETCH": "1"}


def _git(
    git_dir: Path, args: list[str], *, env: dict[str, str], timeout: float, secrets: tuple[str, ...] = ()
) -> bytes:
    return run_git(args, env=env, secrets=secrets, timeout=timeout, git_dir=git_dir)
