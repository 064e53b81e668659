"""Doc vs code classification of a file path: the one shared definition."""

import re
from typing import Literal

# Prose formats whose chunks are documentation; everything else (config included) is code.
DOC_EXTENSIONS: frozenset[str] = frozenset({".md", ".mdx", ".txt", ".rst", ".adoc"})

# Build and dependency files that merely end in ".txt": they are configuration, so code. Without this,
# CMakeLists.txt or requirements.txt would be held to "documentation" rules (age caps, claim checks).
CONFIG_TXT_NAMES = re.compile(
    r"^(cmakelists|(dev-|test-)?requirements([-_.][\w.-]*)?|constraints([-_.][\w.-]*)?)\.txt$"
)

# Prose files whose name says what they are and which carry no extension (click's `examples/*/README`,
# git's `contrib/README`): documentation, not code a security scan or a code rule should read.
PROSE_NAMES = frozenset({"readme", "changes", "changelog", "history", "news", "contributing", "authors"})

ChunkKind = Literal["doc", "code"]


def chunk_kind(path: str) -> ChunkKind:
    """Classify a repository path as documentation or code by its extension.

    Args:
        path: Repository-relative path (either slash style); only the suffix matters, case-insensitively,
            except for build files such as ``CMakeLists.txt`` and ``requirements*.txt``, which are code,
            and extension-less prose files named in PROSE_NAMES (``README``), which are docs.

    Returns:
        "doc" when the extension is in DOC_EXTENSIONS or the name in PROSE_NAMES, otherwise "code".
    """
    name = path.rsplit("/", 1)[-1].rsplit("\\", 1)[-1].lower()
    if name in PROSE_NAMES:
        return "doc"
    dot = name.rfind(".")
    if dot <= 0 or name[dot:] not in DOC_EXTENSIONS:
        return "code"
    return "code" if CONFIG_TXT_NAMES.match(name) else "doc"
