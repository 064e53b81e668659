"""Errors raised by gitsource; their messages are scrubbed and safe to log or put in an event."""

from __future__ import annotations


class GitSourceError(Exception):
    """A git operation failed; the message never carries a token, header or URL credentials."""


class UnsafeSourceError(GitSourceError):
    """The source was refused before git ran (credentials in the URL, a forbidden protocol, ...)."""


class BranchNotFoundError(GitSourceError):
    """The requested branch (or the default branch) does not exist or has no commits."""


class GitTimeoutError(GitSourceError):
    """A git command ran past its time limit and was killed."""


class GitUnavailableError(GitSourceError):
    """The git executable could not be found or started."""


class GitCommandError(GitSourceError):
    """A git command exited with an error; ``stderr`` is already scrubbed of secrets."""

    def __init__(self, message: str, *, returncode: int, stderr: str) -> None:
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr
