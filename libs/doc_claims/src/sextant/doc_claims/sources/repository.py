"""A repository read straight from git at one commit: the docs, the code, and their dates.

`sextant docs-check` and the corpus benchmark judge a commit without an index: the tree is listed
once, docs and code files (of known languages, under a size cap) are read in one `cat-file`
batch and parsed into the same payload shape the indexer writes, so one set of facts serves both
roads. Dates come from one `git log` pass over the docs (their last commit and its day); code
dates are only needed where a definition is compared over time, which the judging step asks git
for itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath

import msgspec

from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_claims.judging.env_files import ENV_SETTINGS_LANGUAGE, may_hold_env_settings
from sextant.doc_rules.kinds import DOC_EXTENSIONS, chunk_kind
from sextant.gitsource.history_access import HistoryRepository
from sextant.gitsource.history_trees import TreeFile, last_commits, list_tree, read_objects
from sextant.parsing import decode_source, language_for_path, parse_symbols

MAX_CHECKED_FILE_BYTES = 512 * 1024
"""Files larger than this are listed (their paths exist) but not read: generated or vendored."""

_READ_AT = "1970-01-01T00:00:00Z"  # payloads want an indexing time; nothing here reads it


@dataclass(frozen=True)
class RepositorySnapshot:
    """What one commit of a repository holds, ready for the claim check."""

    payloads: list[ChunkPayload]
    """Code symbols and whole docs, in the indexer's payload shape."""
    paths: frozenset[str]
    """Every file of the tree, read or not (folders follow from them)."""
    doc_commits: dict[str, tuple[str, str]]
    """Doc path → (its last commit, that commit's date)."""


def read_snapshot(repo: HistoryRepository) -> RepositorySnapshot:
    """Read the docs and code of the repository's head commit.

    Args:
        repo: The opened repository (its head is the commit judged).

    Returns:
        The snapshot.
    """
    tree = list_tree(repo)
    wanted = [f for f in tree if _worth_reading(f)]
    contents = read_objects(repo, [f.blob for f in wanted])
    docs = [f.path for f in wanted if chunk_kind(f.path) == "doc"]
    doc_commits = last_commits(repo, docs)
    payloads: list[ChunkPayload] = []
    for file in wanted:
        data = contents.get(file.blob)
        if data is None or b"\0" in data[:8000]:
            continue
        date = doc_commits.get(file.path, (None, None))[1]
        payloads.extend(_payloads(file, decode_source(data), date))
    return RepositorySnapshot(payloads, frozenset(f.path for f in tree), doc_commits)


def _worth_reading(file: TreeFile) -> bool:
    if not 0 <= file.size <= MAX_CHECKED_FILE_BYTES:
        return False
    suffix = PurePosixPath(file.path).suffix.lower()
    return suffix in DOC_EXTENSIONS or language_for_path(file.path) is not None or may_hold_env_settings(file.path)


def _payloads(file: TreeFile, text: str, date: str | None) -> list[ChunkPayload]:
    kind = chunk_kind(file.path)
    if language_for_path(file.path) is None and kind == "code":  # a settings file: read for its variables
        settings = _whole(file, text, date, kind, ENV_SETTINGS_LANGUAGE)
        if text.startswith("#!"):
            # A program run by its shebang (`bin/_mocha`, `#!/usr/bin/env node`) is code like any `.js`
            # file: the options it defines count, as in the index, which keeps such files as text windows.
            return [settings, _whole(file, text, date, kind, "text")]
        return [settings]
    whole = _whole(file, text, date, kind, language_for_path(file.path) or "text")
    if kind == "doc":
        return [whole]
    return [
        msgspec.structs.replace(
            whole,
            symbol=symbol.name,
            symbol_type=symbol.symbol_type,
            parent=symbol.parent,
            package=symbol.package,
            signature=symbol.signature or None,
            start_line=symbol.start_line,
            end_line=symbol.end_line,
            text=symbol.source,
        )
        for symbol in parse_symbols(file.path, text)
    ]


def _whole(file: TreeFile, text: str, date: str | None, kind: str, language: str) -> ChunkPayload:
    return ChunkPayload(
        repo_key="local",
        path=file.path,
        blob_sha=file.blob,
        kind=kind,
        language=language,
        start_line=1,
        end_line=text.count("\n") + 1,
        text=text,
        indexed_at=_READ_AT,
        last_modified_at=date,
    )
