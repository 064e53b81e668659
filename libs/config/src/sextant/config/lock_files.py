"""An exclusive lock on a lock file, taken without waiting: the one way Sextant says "one process here"."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


def try_lock_file(path: Path, mode: int = 0o600) -> int | None:
    """Take an exclusive ``flock`` on ``path`` (created, with its folder, when missing) without waiting.

    The kernel releases the lock when every holder of the descriptor has closed it or exited, so a
    killed holder never leaves a stale lock behind. The descriptor is not inherited by child processes.

    Args:
        path: The lock file.
        mode: Permissions of a newly created lock file.

    Returns:
        The descriptor holding the lock (close it to release), or None when another process holds it.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, mode)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        return None
    return descriptor
