"""Sextant's data folders are its user's alone: the one rule for creating SEXTANT_HOME and what is in it.

The home holds clones of private repositories, the chunk store (the raw text of every indexed file,
secrets included), the bus's stored events and the runtime's lock and record. On a shared machine
the usual umask (022) would leave all of it readable by every other user, so each data folder is
made owner-only (0700) when it is created, and tightened when it already exists with looser modes
(left by an older Sextant, or made by hand). Tightening, not refusing: the folder is Sextant's own,
an upgrade should not stop on it, and the log line says what changed. What is inside a private
folder needs no modes of its own (nobody else can reach it), so git, nats-server and the store
engine keep writing with theirs.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

from sextant.config.env import ConfigError

logger = logging.getLogger(__name__)

PRIVATE_FOLDER_MODE = 0o700
"""Owner may read, write and enter; group and others nothing."""
_OPEN_TO_OTHERS = stat.S_IRWXG | stat.S_IRWXO


class PrivateFolderError(ConfigError):
    """A data folder cannot be made private (not a folder, or another user's); the message says what to do."""


def private_folder(path: Path) -> Path:
    """Make ``path`` an owner-only folder: create it (and any missing parent) 0700, or tighten it.

    Args:
        path: One of Sextant's data folders (SEXTANT_HOME, its ``nats``, ``qdrant`` and ``mirrors``,
            QDRANT_PATH, a store shard).

    Returns:
        ``path``.

    Raises:
        PrivateFolderError: when it exists but is no folder, or its modes cannot be changed by us.
    """
    missing = [folder for folder in (path, *path.parents) if not folder.exists()]
    for folder in reversed(missing):  # every folder we create is ours alone, parents included
        try:
            folder.mkdir(mode=PRIVATE_FOLDER_MODE)
        except FileExistsError:
            continue  # another process created it at the same moment: checked below like any other
        except OSError as error:
            raise PrivateFolderError(f"cannot create the data folder {folder}: {error.strerror or error}") from None
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError as error:
        raise PrivateFolderError(f"cannot use the data folder {path}: {error.strerror or error}") from None
    if not path.is_dir():
        raise PrivateFolderError(f"{path} is not a folder: point SEXTANT_HOME (or QDRANT_PATH) at a folder")
    if mode & _OPEN_TO_OTHERS:
        _tighten(path, mode)
    return path


def _tighten(path: Path, mode: int) -> None:
    tight = mode & ~_OPEN_TO_OTHERS
    try:
        os.chmod(path, tight)
    except PermissionError:
        raise PrivateFolderError(
            f"{path} is open to other users (mode {mode:o}) and only its owner may change that: "
            f"run `chmod go-rwx {path}` as its owner, or set SEXTANT_HOME to a folder of your own"
        ) from None
    logger.warning("%s was open to other users (mode %o); made it owner-only (%o)", path, mode, tight)
