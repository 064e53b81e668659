"""Indexer settings, read from the environment once at start-up."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from sextant.config import (
    ConfigError,
    TokenLookup,
    default_store_path,
    env_flag,
    env_int,
    env_str,
    mirrors_path,
    no_tokens,
    read_settings,
    setting,
)
from sextant.gitsource.history_blobs import DEFAULT_HISTORY_FETCH_BYTES, DEFAULT_HISTORY_FETCH_SECONDS
from sextant.gitsource.repo_reference import ALLOW_LOCAL_REPOS
from sextant.gitsource.tree_stream import DEFAULT_MAX_TREE_BYTES, DEFAULT_MAX_TREE_ENTRIES, TreeLimits
from sextant.indexer.discovery import DEFAULT_EXCLUDES, DEFAULT_MAX_FILE_BYTES, DiscoveryRules

DEFAULT_GIT_TIMEOUT_SECONDS = 600.0
PARSE_PROCESS_AUTO = "auto"
DEFAULT_GROUP_CHUNKS = 256
"""Chunks embedded and written together: several model batches per group keep the model busy,
and a group bounds how much work one failing file can put at risk (it is then bisected)."""


def _globs(raw: str | None) -> tuple[str, ...]:
    if raw is None:
        return ()
    return tuple(part.strip() for part in raw.replace("\n", ",").split(",") if part.strip())


@dataclass(frozen=True)
class IndexerSettings:
    """What the indexer needs to know; see .env.example."""

    mirrors_dir: Path
    """Where the per-repository blob-less mirrors live (``SEXTANT_HOME/mirrors``)."""
    store_path: Path
    """Default base folder of the embedded store (``SEXTANT_HOME/qdrant``; ``QDRANT_PATH`` wins)."""
    rules: DiscoveryRules = field(default_factory=DiscoveryRules)
    """Which files of the tree are indexed."""
    git_timeout_seconds: float = setting("INDEX_GIT_TIMEOUT_SECONDS", DEFAULT_GIT_TIMEOUT_SECONDS)
    """Limit of each git command (fetch, ls-tree, cat-file)."""
    group_chunks: int = setting("INDEX_GROUP_CHUNKS", DEFAULT_GROUP_CHUNKS)
    """Chunks embedded and upserted together."""
    tokens: TokenLookup = field(default=no_tokens, repr=False)
    """Git hosting tokens by provider (read when a run needs one; never logged)."""
    allow_local_repos: bool = setting(ALLOW_LOCAL_REPOS, False)
    """Read repositories named by a local path (the embedded runtime's default)."""
    symbol_blame: bool = setting("INDEX_SYMBOL_BLAME", True)
    """Date symbols by git blame where the history is on disk (see docs/indexing.md)."""
    history_fetch_bytes: int = setting("INDEX_HISTORY_FETCH_BYTES", DEFAULT_HISTORY_FETCH_BYTES)
    """Bytes of past source blobs one run may fetch into a blob-less mirror, so doc claims are judged
    with history (0: none; see docs/doc-claims.md)."""
    history_fetch_seconds: float = setting("INDEX_HISTORY_FETCH_SECONDS", DEFAULT_HISTORY_FETCH_SECONDS)
    """Wall time that fetch may take (a run's ChunksIndexed waits for it when it fetches only the history
    added since a hydrated head; a first run's fetch follows its ChunksIndexed)."""
    parse_process: str = setting("INDEX_PARSE_PROCESS", PARSE_PROCESS_AUTO)
    """Parse and sparse-encode in a worker process, so the store writes overlap the parsing (see
    ``parse_process``): ``true``, ``false``, or ``auto``, the worker for a run without the history
    fetch beside it (a repository read in place, a first run, whose fetch follows it; docs/indexing.md
    has the figures)."""

    def parses_in_worker(self, *, fetching_history: bool) -> bool:
        """Whether a run parses in the parse process.

        Args:
            fetching_history: The run fetches past blobs beside its indexing (not after it).

        Returns:
            True for the worker, False for the run's own process.
        """
        return self.parse_process == "true" or (self.parse_process == PARSE_PROCESS_AUTO and not fetching_history)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> IndexerSettings:
        """Read the settings from environment variables.

        Variables: INDEX_ROOT (only paths under it), INDEX_EXCLUDE (comma-separated globs, matched
        against the full path and the basename), INDEX_DEFAULT_EXCLUDES (false: drop the built-in
        vendored/generated/lock excludes), INDEX_MAX_FILE_BYTES, INDEX_MAX_TREE_ENTRIES and
        INDEX_MAX_TREE_BYTES (caps on the tree listing), INDEX_GIT_TIMEOUT_SECONDS,
        INDEX_GROUP_CHUNKS, INDEX_SYMBOL_BLAME, INDEX_HISTORY_FETCH_BYTES, INDEX_HISTORY_FETCH_SECONDS,
        INDEX_PARSE_PROCESS, SEXTANT_HOME.

        Args:
            env: Environment variables.

        Returns:
            The settings.
        """
        defaults = DEFAULT_EXCLUDES if env_flag(env, "INDEX_DEFAULT_EXCLUDES", default=True) else ()
        rules = DiscoveryRules(
            root=env_str(env, "INDEX_ROOT"),
            excludes=(*defaults, *_globs(env_str(env, "INDEX_EXCLUDE"))),
            max_file_bytes=env_int(env, "INDEX_MAX_FILE_BYTES", DEFAULT_MAX_FILE_BYTES),
            tree_limits=TreeLimits(
                max_entries=env_int(env, "INDEX_MAX_TREE_ENTRIES", DEFAULT_MAX_TREE_ENTRIES),
                max_bytes=env_int(env, "INDEX_MAX_TREE_BYTES", DEFAULT_MAX_TREE_BYTES),
            ),
        )
        computed = {"mirrors_dir": mirrors_path(env), "store_path": default_store_path(env), "rules": rules}
        settings = read_settings(cls, env, **computed)
        choice = settings.parse_process.lower()
        if choice != PARSE_PROCESS_AUTO:  # otherwise a flag, read as every flag is (1/yes/on, 0/no/off)
            try:
                choice = "true" if env_flag({"INDEX_PARSE_PROCESS": choice}, "INDEX_PARSE_PROCESS") else "false"
            except ConfigError:
                raise ConfigError(
                    f"INDEX_PARSE_PROCESS={settings.parse_process!r} is not true, false or auto"
                ) from None
        settings = dataclasses.replace(settings, parse_process=choice)
        if settings.group_chunks < 1 or rules.max_file_bytes < 1 or settings.history_fetch_bytes < 0:
            raise ValueError(
                "INDEX_GROUP_CHUNKS and INDEX_MAX_FILE_BYTES must be positive, INDEX_HISTORY_FETCH_BYTES not negative"
            )
        return settings
