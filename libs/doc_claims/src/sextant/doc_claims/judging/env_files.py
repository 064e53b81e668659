"""Environment variables a repository's own settings files set or read, where no parser looks.

Init scripts without an extension (`extra/init.d/worker` starting with `#!/bin/sh`), systemd units
(`Environment=`, `${VAR}` in `ExecStart=`), `.env` files and shell-style `.conf` files name the
variables a deployment reads. They have no known language, so the code facts never hold their text;
a doc naming such a variable would otherwise be told it appears nowhere. Only upper-case names are
taken (the convention of environment variables), and only in the forms that set or read one.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

ENV_SETTINGS_LANGUAGE = "env-settings"
"""The language stamped on a payload holding a settings file's text, read for its variables only."""

_SYSTEMD_SUFFIXES = frozenset({".service", ".socket", ".timer", ".path", ".mount"})
_ASSIGNMENT_SUFFIXES = frozenset({".env", ".conf"})
_SHELL_SHEBANG = re.compile(r"#!\s*\S*?(?:/|\benv\s+)(?:ba|da|k|z)?sh\b")
_NAME = r"[A-Z][A-Z0-9_]*"
_ASSIGNMENT = re.compile(rf"^\s*(?:export\s+|readonly\s+|local\s+|declare\s+(?:-\w+\s+)?)?({_NAME})=")
_EXPORTED = re.compile(rf"^\s*export\s+((?:{_NAME}\s*)+)$")
_REFERENCE = re.compile(rf"\$\{{?({_NAME})\b")
_SYSTEMD_ENVIRONMENT = re.compile(r"^\s*Environment\s*=\s*(.*)$")
_SYSTEMD_PAIR = re.compile(rf"""(?:^|\s)["']?({_NAME})=""")


def may_hold_env_settings(path: str) -> bool:
    """Whether a file no language claims may be a settings file worth reading for its variables.

    Args:
        path: Repository-relative path of a file the code facts would not otherwise read.

    Returns:
        True for extension-less files (maybe a shell script), systemd units, `.env` and `.conf` files.
    """
    name = PurePosixPath(path).name
    suffix = PurePosixPath(path).suffix.lower()
    return suffix == "" or suffix in _SYSTEMD_SUFFIXES or suffix in _ASSIGNMENT_SUFFIXES or name.startswith(".env")


def env_settings(path: str, text: str) -> list[tuple[int, str]]:
    """The environment variables a settings file sets or reads, with their 0-based line indexes.

    Args:
        path: The file's repository-relative path (its suffix says how to read it).
        text: Its text.

    Returns:
        (line index, name) pairs in file order; empty when the file is none of the known kinds
        (an extension-less file without a shell shebang, say).
    """
    lines = text.split("\n")
    name = PurePosixPath(path).name
    suffix = PurePosixPath(path).suffix.lower()
    if suffix in _SYSTEMD_SUFFIXES:
        return _systemd_names(lines)
    if suffix in _ASSIGNMENT_SUFFIXES or name.startswith(".env"):
        return [(index, match.group(1)) for index, line in enumerate(lines) if (match := _ASSIGNMENT.match(line))]
    if suffix == "" and lines and _SHELL_SHEBANG.match(lines[0]):
        return _shell_names(lines)
    return []


def _shell_names(lines: list[str]) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for index, line in enumerate(lines):
        if line.lstrip().startswith("#"):
            continue  # a commented-out line sets and reads nothing
        if match := _ASSIGNMENT.match(line):
            found.append((index, match.group(1)))
        if match := _EXPORTED.match(line):
            found.extend((index, word) for word in match.group(1).split())
        found.extend((index, ref) for ref in _REFERENCE.findall(line))
    return found


def _systemd_names(lines: list[str]) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for index, line in enumerate(lines):
        if line.lstrip().startswith(("#", ";")):
            continue
        if match := _SYSTEMD_ENVIRONMENT.match(line):
            found.extend((index, pair) for pair in _SYSTEMD_PAIR.findall(match.group(1)))
        found.extend((index, ref) for ref in _REFERENCE.findall(line))
    return found
