"""When each symbol's own lines last changed: ``git blame`` once per changed file, carried forward after.

A file's date says when *something* in it changed; a definition can be years older than its file. For a
repository read in place (full history on disk) the run blames each changed code file once, at the
head, and a chunk gets the newest committer date among its own lines ("blame"). Unchanged files are
never blamed again: their points keep their dates. When a file changes, a chunk whose text equals one
of the file's earlier chunks keeps that chunk's date ("carried"), so on a mirror without history (a
blob-less clone, where blame would fetch every old blob) only the symbols that really changed take the
file's new date ("file"). Unknown stays None, never "now". See docs/indexing.md.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from sextant.chunkstore import ChunkPayload, SymbolDateSource
from sextant.gitsource.access import RepoSource, git_environment, secrets_of
from sextant.gitsource.commit_dates import iso_from_epoch
from sextant.gitsource.errors import GitSourceError
from sextant.gitsource.git_process import run_git
from sextant.gitsource.mirror import RepoMirror
from sextant.parsing import Chunk

logger = logging.getLogger(__name__)

BLAME_TIMEOUT_SECONDS = 60.0
"""Limit of one file's blame; past it the file's chunks fall back to the file date."""


@dataclass(frozen=True)
class SymbolDate:
    """A chunk's own date and how it was found."""

    at: str | None
    source: SymbolDateSource | None


def text_key(text: str) -> str:
    """The key chunks are matched by across versions of a file (their exact text).

    Args:
        text: A chunk's text.

    Returns:
        A short digest.
    """
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def earlier_dates(payloads: Iterable[ChunkPayload]) -> dict[str, SymbolDate]:
    """Dates of a file's stored chunks by text key, for carrying them into its next version.

    Args:
        payloads: The file's stored payloads.

    Returns:
        text key -> date; only chunks whose date is known.
    """
    dates: dict[str, SymbolDate] = {}
    for payload in payloads:
        at = payload.symbol_last_modified_at
        if isinstance(at, str):
            dates[text_key(payload.text)] = SymbolDate(at, payload.symbol_date_source)
    return dates


def line_dates(mirrors: RepoMirror, source: RepoSource, head: str, path: str) -> list[int] | None:
    """Committer time (epoch seconds) of the commit that last changed each line of ``path`` at ``head``.

    Args:
        mirrors: The mirror cache (a local repository is read in place).
        source: The repository.
        head: The commit indexed.
        path: File path at that commit.

    Returns:
        One epoch per line (index 0 = line 1), or None when blame failed.
    """
    try:
        out = run_git(
            ["blame", "--porcelain", head, "--", path],
            env=git_environment(source),
            secrets=secrets_of(source),
            timeout=BLAME_TIMEOUT_SECONDS,
            git_dir=mirrors.mirror_dir(source),
        )
    except GitSourceError as error:
        logger.warning("blame of %r failed, using the file date: %s", path, error)
        return None
    return parse_porcelain(out)


def parse_porcelain(out: bytes) -> list[int]:
    """Per-line committer times from ``git blame --porcelain`` output.

    Args:
        out: The raw output.

    Returns:
        One epoch per final line, in order.
    """
    times: dict[bytes, int] = {}
    lines: list[int] = []
    current = b""
    for line in out.split(b"\n"):
        if line.startswith(b"\t"):
            lines.append(times.get(current, 0))
            continue
        head, _, rest = line.partition(b" ")
        if len(head) in (40, 64) and rest and rest[:1].isdigit():
            current = head
        elif head == b"committer-time":
            times[current] = int(rest)
    return lines


def chunk_dates(
    chunks: Sequence[Chunk],
    *,
    epochs: Sequence[int] | None,
    carried: Mapping[str, SymbolDate],
    file_date: str | None,
) -> list[SymbolDate]:
    """The date of each chunk of one file version.

    Args:
        chunks: The version's chunks.
        epochs: Per-line committer times from blame, or None when there is no blame (no history here).
        carried: Earlier chunks' dates by text key (``earlier_dates``).
        file_date: The file's ``last_modified_at`` (None when unknown).

    Returns:
        One SymbolDate per chunk.
    """
    dates: list[SymbolDate] = []
    for chunk in chunks:
        if epochs:
            own = [epochs[n - 1] for n in range(chunk.start_line, chunk.end_line + 1) if 0 < n <= len(epochs)]
            newest = max((epoch for epoch in own if epoch), default=0)
            if newest:
                dates.append(SymbolDate(iso_from_epoch(newest), "blame"))
                continue
        earlier = carried.get(text_key(chunk.text))
        if earlier is not None:
            dates.append(SymbolDate(earlier.at, "carried"))
            continue
        dates.append(SymbolDate(file_date, "file" if file_date is not None else None))
    return dates
