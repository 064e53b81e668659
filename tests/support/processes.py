"""What a test reads about a process from /proc (Linux)."""

from __future__ import annotations

from pathlib import Path


def is_gone(pid: int) -> bool:
    """Whether ``pid`` has exited (an unreaped zombie counts as exited)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state in {"Z", "X"}


def child_pids(pid: int) -> list[int]:
    """Direct children of ``pid``."""
    try:
        listed = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    return [int(child) for child in listed]
