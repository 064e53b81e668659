"""Tie a child process's life to ours: it gets SIGTERM from the kernel when we die, even by SIGKILL."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys

_PR_SET_PDEATHSIG = 1
"""prctl option (linux/prctl.h): the signal the kernel sends a process when its parent thread exits."""

# Resolved here, in the parent: the child between fork and exec must do as little as possible.
_LIBC = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True) if sys.platform.startswith("linux") else None


def die_with_parent() -> None:
    """``preexec_fn`` for ``subprocess.Popen``: ask the kernel to SIGTERM the child when we exit.

    Linux only (elsewhere a no-op: ``EmbeddedNats`` still stops its server on a normal exit). The
    signal fires when the *thread* that started the child exits, so start long-lived children
    from the main thread.
    """
    if _LIBC is None:
        return
    parent = os.getppid()
    _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before prctl took effect: nobody is left to wait
        os.kill(os.getpid(), signal.SIGTERM)
