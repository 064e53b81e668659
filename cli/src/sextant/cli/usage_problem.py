"""The error a command raises for a mistake the person can fix (printed as one line, exit status 2)."""

from __future__ import annotations


class UsageError(RuntimeError):
    """A mistake in how a command was called or configured; the message says what to do."""
