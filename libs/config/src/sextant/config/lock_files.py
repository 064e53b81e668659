"""An exclusive lock on a lock file, taken without waiting: the one way Sextant says "one process here"."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from sextant.config.private_folders import private_folder


def try_lock_file(path: Path, mode: int = 0o600) -> int | None:
    """Take an exclusive ``flock`` on ``path`` (created, with its folder, when missing) without waiting.

    Every lock file sits in one of Sextant's data folders (the home, the bus's store, a chunk store
    shard), so its folder is made owner-only here (``private_folder``): nothing opens one of them
    without passing this door.

    The kernel releases the lock when every holder of the descriptor has closed it or exited, so a
    killed holder never leaves a stale lock behind. The descriptor is not inherited by child processes.

    Args:
        path: The lock file.
        mode: Permissions of a newly created lock file.

    Returns:
        The descriptor holding the lock (close it to release), or None when another process holds it.

    Raises:
        PrivateFolderError: when the folder cannot be made owner-only.
    """
    private_folder(path.parent)
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, mode)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        return None
    return descriptor
