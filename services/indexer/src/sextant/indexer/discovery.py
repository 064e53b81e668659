"""Which files of a tree are indexed: extension, root prefix, exclude globs, size and binary checks."""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import PurePosixPath

from sextant.doc_rules.kinds import DOC_EXTENSIONS
from sextant.parsing import language_for_path

DEFAULT_MAX_FILE_BYTES = 512 * 1024
"""Files above this are skipped (reported): hand-written source rarely passes it, generated data does."""

BINARY_PROBE_BYTES = 8000
"""Bytes inspected for a NUL, as git itself does to call a file binary."""

# Vendored trees, build output, lock files and generated code: indexing them drowns the real code.
# fnmatch's "*" crosses "/", so "x/*" matches x at the root and "*/x/*" anywhere below it.
_VENDORED_DIRECTORIES = (
    "node_modules",
    "vendor",
    "third_party",
    "bower_components",
    "dist",
    ".git",
    "__pycache__",
    ".venv",
    "site-packages",
)
DEFAULT_EXCLUDES: tuple[str, ...] = (
    *(f"{name}/*" for name in _VENDORED_DIRECTORIES),
    *(f"*/{name}/*" for name in _VENDORED_DIRECTORIES),
    "*.lock",
    "package-lock.json",
    "npm-shrinkwrap.json",
    "pnpm-lock.yaml",
    "*.min.js",
    "*.min.css",
    "*.map",
    "*.pb.go",
    "*_pb2.py",
    "*_pb2_grpc.py",
    "*.pb.h",
    "*.pb.cc",
    "*.generated.*",
    "*_generated.*",
)
"""Built-in excludes (INDEX_DEFAULT_EXCLUDES=false turns them off; INDEX_EXCLUDE adds more)."""


@dataclass(frozen=True)
class DiscoveryRules:
    """Path and content rules a file must pass to be indexed."""

    root: str | None = None
    """Only paths under this folder ("src" or "src/"); None = the whole tree."""
    excludes: tuple[str, ...] = DEFAULT_EXCLUDES
    """Globs (fnmatch, case-sensitive) matched against the full path and against the basename."""
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    """Larger files are skipped with a reason."""

    def wants_path(self, path: str) -> bool:
        """Whether a path passes the extension, root and exclude rules (content not looked at).

        Args:
            path: Repository-relative path as git names it.

        Returns:
            True when the file should be read and indexed.
        """
        if not is_indexable_extension(path):
            return False
        if self.root is not None:
            prefix = self.root.strip("/") + "/"
            if prefix != "/" and not path.startswith(prefix):
                return False
        basename = path.rsplit("/", 1)[-1]
        return not any(fnmatchcase(path, glob) or fnmatchcase(basename, glob) for glob in self.excludes)


def is_indexable_extension(path: str) -> bool:
    """Whether the parser knows the file's language, or the file is documentation.

    Args:
        path: Repository-relative path.

    Returns:
        True for a known language or a doc extension (sextant.doc_rules.kinds.DOC_EXTENSIONS).
    """
    return language_for_path(path) is not None or PurePosixPath(path).suffix.lower() in DOC_EXTENSIONS


def content_skip_reason(data: bytes | None, max_file_bytes: int) -> str | None:
    """Why a file's content is not indexed, or None when it is fine.

    Args:
        data: The blob's bytes; None when the reader left it out for being over ``max_file_bytes``.
        max_file_bytes: The size cap.

    Returns:
        A reason for ``ChunksIndexed.failed_files``, or None.
    """
    if data is None or len(data) > max_file_bytes:
        size = "" if data is None else f" ({len(data):,} bytes)"
        return f"skipped: larger than the {max_file_bytes:,}-byte limit{size} (INDEX_MAX_FILE_BYTES)"
    if b"\0" in data[:BINARY_PROBE_BYTES]:
        return "skipped: binary content (NUL bytes)"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "skipped: binary or non-UTF-8 content"
    return None
