"""Which files of a tree are indexed, and why each other one is not (docs/sources.md).

Every regular text file under the size cap is indexed: code in a language with a grammar becomes
symbols, docs become sections, everything else (manifests, configs, scripts, data) line windows.
A file is left out only for a reason that is reported in ``ChunksIndexed.skipped``: outside the
root or matched by an exclude glob, vendored or generated, a binary extension, not a regular file
(symlink, submodule), or — once read — binary content, too large, or not UTF-8.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from fnmatch import translate

from sextant.contracts import SkippedFiles
from sextant.gitsource import TreeEntry, TreeLimits
from sextant.indexer.content_checks import (
    BINARY_PROBE_BYTES,  # noqa: F401 - also read from here
    SKIP_BINARY,
    SKIP_NOT_TEXT,  # noqa: F401 - also read from here
    SKIP_TOO_LARGE,  # noqa: F401 - also read from here
    ContentSkip,  # noqa: F401 - also read from here
    content_skip,  # noqa: F401 - also read from here
    content_skip_reason,  # noqa: F401 - also read from here
)

DEFAULT_MAX_FILE_BYTES = 512 * 1024
"""Files above this are skipped (reported): hand-written source rarely passes it, generated data does."""

SKIP_EXCLUDED = "excluded"
SKIP_VENDORED = "vendored or generated"
SKIP_NOT_REGULAR = "not a regular file"

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

BINARY_EXTENSIONS: frozenset[str] = frozenset(
    {
        *(".png", ".jpg", ".jpeg", ".gif", ".bmp", ".ico", ".icns", ".webp", ".tif", ".tiff", ".psd", ".heic"),
        *(".mp3", ".wav", ".ogg", ".flac", ".m4a", ".mp4", ".mov", ".avi", ".mkv", ".webm"),
        *(".ttf", ".otf", ".woff", ".woff2", ".eot"),
        *(".zip", ".gz", ".tgz", ".bz2", ".xz", ".zst", ".7z", ".rar", ".tar", ".jar", ".war", ".whl", ".egg"),
        *(".so", ".dylib", ".dll", ".exe", ".o", ".a", ".lib", ".obj", ".class", ".pyc", ".pyo", ".wasm"),
        *(".pdf", ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".odt", ".ods", ".key", ".pages"),
        *(".sqlite", ".sqlite3", ".db", ".mdb", ".parquet", ".npy", ".npz", ".pkl", ".pickle", ".h5", ".onnx"),
        *(".pt", ".pth", ".ckpt", ".safetensors", ".bin", ".dat", ".iso", ".dmg", ".deb", ".rpm", ".apk"),
    }
)
"""Extensions whose files are binary by convention: skipped without fetching their blobs."""


_WILDCARDS = frozenset("*?[")


class GlobSet:
    """Globs matched against a full path and its basename, as ``fnmatch`` does, but fast.

    The usual shapes (``dir/*``, ``*/dir/*``, ``*.ext``, an exact name) become string tests; only
    the rest go through one combined regex. The check runs on every entry of a tree.

    Args:
        globs: fnmatch patterns (case-sensitive).
    """

    def __init__(self, globs: Iterable[str]) -> None:
        self.exact: set[str] = set()
        self.prefixes: list[str] = []
        self.infixes: list[str] = []
        self.suffixes: list[str] = []
        general: list[str] = []
        for glob in globs:
            head, tail = glob[:-2], glob[-2:]
            if not _WILDCARDS.intersection(glob):
                self.exact.add(glob)
            elif len(glob) > 2 and glob[0] == glob[-1] == "*" and not _WILDCARDS.intersection(glob[1:-1]):
                self.infixes.append(glob[1:-1])  # "*x*" on the full path also covers the basename
            elif glob.startswith("*") and not _WILDCARDS.intersection(glob[1:]) and "/" not in glob:
                self.suffixes.append(glob[1:])
            elif tail == "/*" and head.startswith("*/") and not _WILDCARDS.intersection(head[2:]):
                self.infixes.append(f"/{head[2:]}/")
            elif tail == "/*" and not _WILDCARDS.intersection(head):
                self.prefixes.append(f"{head}/")
            else:
                general.append(translate(glob))
        self._suffixes = tuple(self.suffixes)
        self._prefixes = tuple(self.prefixes)
        self._general = re.compile("|".join(f"(?:{part})" for part in general)) if general else None

    def matches(self, path: str) -> bool:
        """Whether any glob matches the path or its basename.

        Args:
            path: Repository-relative path.

        Returns:
            True on a match.
        """
        basename = path.rsplit("/", 1)[-1]
        if path in self.exact or basename in self.exact:
            return True
        if path.endswith(self._suffixes) or path.startswith(self._prefixes):
            return True
        if any(infix in path for infix in self.infixes):
            return True
        return self._general is not None and bool(self._general.match(path) or self._general.match(basename))


@dataclass(frozen=True)
class DiscoveryRules:
    """Path and content rules a file must pass to be indexed."""

    root: str | None = None
    """Only paths under this folder ("src" or "src/"); None = the whole tree."""
    excludes: tuple[str, ...] = DEFAULT_EXCLUDES
    """Globs (fnmatch, case-sensitive) matched against the full path and against the basename."""
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    """Larger files are skipped with a reason."""
    tree_limits: TreeLimits = field(default_factory=TreeLimits)
    """Caps on the tree listing (INDEX_MAX_TREE_ENTRIES, INDEX_MAX_TREE_BYTES): a git bomb fails the run."""

    @functools.cached_property
    def _globs(self) -> tuple[GlobSet, GlobSet]:
        builtin = set(DEFAULT_EXCLUDES)
        vendored = GlobSet(glob for glob in self.excludes if glob in builtin)
        excluded = GlobSet(glob for glob in self.excludes if glob not in builtin)
        return vendored, excluded

    def path_skip_reason(self, path: str) -> str | None:
        """Why a path is not indexed, judged from the path alone; None when it is read.

        Args:
            path: Repository-relative path in its text form.

        Returns:
            SKIP_EXCLUDED, SKIP_VENDORED, SKIP_BINARY, or None.
        """
        if self.root is not None:
            prefix = self.root.strip("/") + "/"
            if prefix != "/" and not path.startswith(prefix):
                return SKIP_EXCLUDED
        vendored, excluded = self._globs
        if excluded.matches(path):
            return SKIP_EXCLUDED
        if vendored.matches(path):
            return SKIP_VENDORED
        if not is_indexable_extension(path):
            return SKIP_BINARY
        return None

    def wants_path(self, path: str) -> bool:
        """Whether a path passes the root, exclude and binary-extension rules (content not looked at).

        Args:
            path: Repository-relative path as git names it.

        Returns:
            True when the file should be read and indexed.
        """
        return self.path_skip_reason(path) is None


def is_indexable_extension(path: str) -> bool:
    """Whether a file may hold text worth indexing, judged by its extension.

    Args:
        path: Repository-relative path.

    Returns:
        False for a binary extension (BINARY_EXTENSIONS), True for every other file.
    """
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return dot <= 0 or name[dot:].lower() not in BINARY_EXTENSIONS  # ".bashrc" has no extension


class SkipLog:
    """Files left out of a run, grouped by reason (memory: one path string per file)."""

    def __init__(self) -> None:
        self._paths: dict[str, list[str]] = {}

    def add(self, reason: str, path: str) -> None:
        """Record one file left out.

        Args:
            reason: One of the SKIP_* reasons.
            path: The file's path.
        """
        self._paths.setdefault(reason, []).append(path)

    def counts(self) -> dict[str, int]:
        """Files per reason."""
        return {reason: len(paths) for reason, paths in self._paths.items()}

    def to_event(self) -> list[SkippedFiles]:
        """The ``ChunksIndexed.skipped`` field: one entry per reason, paths sorted."""
        return [
            SkippedFiles(reason=reason, count=len(paths), paths=sorted(paths))
            for reason, paths in sorted(self._paths.items())
        ]


@dataclass
class Discovery:
    """What a run will look at: path → blob SHA of the files to read, and the files left out."""

    tree: dict[str, str]
    skipped: SkipLog
    entries: int
    """Entries of the tree listing, every kind."""


def discover_files(entries: Iterable[TreeEntry], rules: DiscoveryRules) -> Discovery:
    """Filter a tree listing as it streams: keep the files to read, log the rest with a reason.

    Args:
        entries: The tree (e.g. ``RepoMirror.iter_tree``), consumed once.
        rules: Root, excludes and caps.

    Returns:
        The files to read and the skip log.
    """
    tree: dict[str, str] = {}
    skipped = SkipLog()
    count = 0
    for entry in entries:
        count += 1
        reason = rules.path_skip_reason(entry.path)
        if reason is None and not entry.is_regular_file:
            reason = SKIP_NOT_REGULAR
        if reason is None:
            tree[entry.path] = entry.blob_sha
        else:
            skipped.add(reason, entry.path)
    return Discovery(tree=tree, skipped=skipped, entries=count)
