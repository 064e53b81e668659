"""Which masks a file's text goes through, by the file's kind; a diff file by file.

A config file's unquoted values are literals (``DB_PASSWORD=hunter2`` in ``.env``), so config files
get the config rules; a doc's inline ``NAME=value`` is a literal too, so docs get the doc rules; code
gets the source rules, where only a quoted literal is a value. A unified diff is masked per file
section under the same choice, removed lines included (a secret a change removes was still committed).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from sextant.secret_rules.assigned_secrets import redact_config_secrets, redact_doc_secrets, redact_source_secrets

CONFIG_SUFFIXES = frozenset(
    {".env", ".ini", ".cfg", ".conf", ".properties", ".yaml", ".yml", ".toml", ".sh", ".bash", ".zsh", ".envrc",
     ".tfvars", ".npmrc", ".pypirc", ".netrc", ".htpasswd"}
)  # fmt: skip
"""Suffixes of files whose unquoted values are literals."""
CONFIG_NAME_STARTS = (".env", "dockerfile", "containerfile", ".npmrc", ".pypirc", ".netrc")
"""Lower-cased file-name starts that mark a config file whatever follows (``.env.local``, ``Dockerfile.dev``)."""

DOC_SUFFIXES = frozenset({".md", ".markdown", ".rst", ".txt", ".adoc", ".asciidoc", ".org", ".rdoc", ".textile"})
"""Suffixes of prose files, where an inline ``NAME=value`` is a literal (a command or a setting)."""

_DIFF_FILE = re.compile(r"(?m)^diff --git ")
_NEW_PATH = re.compile(r"(?m)^\+\+\+ (?:b/)?(.+?)\t?$")
_OLD_PATH = re.compile(r"(?m)^--- (?:a/)?(.+?)\t?$")
_PLAIN_FILE_START = re.compile(r"(?m)^--- .*\n\+\+\+ ")


def is_config_path(path: str) -> bool:
    """Whether a file's unquoted values are literals (a ``.env``, INI, YAML, TOML, shell or Docker file).

    Args:
        path: The repository path.

    Returns:
        True for config files.
    """
    name = PurePosixPath(path).name.lower()
    return name.startswith(CONFIG_NAME_STARTS) or PurePosixPath(name).suffix in CONFIG_SUFFIXES


def redact_file_text(path: str, text: str) -> str:
    """A file's text (or an excerpt of it) with its secrets masked by the rules of its kind.

    Args:
        path: The file's repository path (decides the kind).
        text: The text.

    Returns:
        The masked text.
    """
    if is_config_path(path):
        return redact_config_secrets(text)
    if PurePosixPath(path.lower()).suffix in DOC_SUFFIXES:
        return redact_doc_secrets(text)
    return redact_source_secrets(text)


def redact_diff(diff: str) -> str:
    """A unified diff with each file's section masked by the rules of that file's kind.

    Args:
        diff: ``git diff`` output, or a plain unified diff (``---``/``+++`` headers).

    Returns:
        The masked diff, line for line.
    """
    starts = [match.start() for match in _DIFF_FILE.finditer(diff)] or [
        match.start() for match in _PLAIN_FILE_START.finditer(diff)
    ]
    if not starts:
        return redact_source_secrets(diff)
    pieces = [redact_source_secrets(diff[: starts[0]])] if starts[0] else []
    for start, end in zip(starts, [*starts[1:], len(diff)], strict=True):
        section = diff[start:end]
        pieces.append(redact_file_text(_section_path(section), section))
    return "".join(pieces)


def redact_change(title: str, description: str, diff: str) -> tuple[str, str, str]:
    """A change to review (a pull request, or a diff an agent hands us) with its secrets masked.

    Args:
        title: Title of the change.
        description: Its description.
        diff: Its unified diff ("" for none).

    Returns:
        (title, description, diff): the prose by the doc rules (a token pasted as ``TOKEN=…`` is
        an inline literal there), the diff file by file (``redact_diff``).
    """
    return redact_doc_secrets(title), redact_doc_secrets(description), redact_diff(diff) if diff else diff


def _section_path(section: str) -> str:
    new = _NEW_PATH.search(section)
    if new and new.group(1) != "/dev/null":
        return new.group(1)
    old = _OLD_PATH.search(section)
    if old and old.group(1) != "/dev/null":
        return old.group(1)
    header = section.split("\n", 1)[0]
    return header.rsplit(" b/", 1)[-1] if " b/" in header else header
