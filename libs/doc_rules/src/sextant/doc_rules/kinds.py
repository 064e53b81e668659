"""Doc vs code classification of a file path: the one shared definition."""

from pathlib import PurePosixPath
from typing import Literal

# Prose formats whose chunks are documentation; everything else (config included) is code.
DOC_EXTENSIONS: frozenset[str] = frozenset({".md", ".mdx", ".txt", ".rst", ".adoc"})

ChunkKind = Literal["doc", "code"]


def chunk_kind(path: str) -> ChunkKind:
    """Classify a repository path as documentation or code by its extension.

    Args:
        path: Repository-relative path (either slash style); only the suffix matters, case-insensitively.

    Returns:
        "doc" when the extension is in DOC_EXTENSIONS, otherwise "code".
    """
    suffix = PurePosixPath(path.replace("\\", "/")).suffix.lower()
    return "doc" if suffix in DOC_EXTENSIONS else "code"
