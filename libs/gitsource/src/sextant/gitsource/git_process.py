"""Running git: argument lists only, a time limit on every call, scrubbed errors.

Each git runs in its own process group so a timeout also stops the helpers it spawned
(index-pack, upload-pack, a lazy fetch) instead of leaving them holding our pipes.
"""

from __future__ import annotations

import logging
import os
import re
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO

from sextant.gitsource.access import scrub
from sextant.gitsource.errors import GitCommandError, GitTimeoutError, GitUnavailableError

logger = logging.getLogger(__name__)

_STDERR_TAIL = 2000  # characters of git's stderr kept in an error message
_TRANSPORT_REFUSED = re.compile(r"transport '[^']*' not allowed")


def _argv(args: Sequence[str], git_dir: Path | None) -> list[str]:
    prefix = ["git", "--git-dir", str(git_dir)] if git_dir is not None else ["git"]
    return [*prefix, *args]


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def _command_error(args: Sequence[str], returncode: int, stderr: bytes, secrets: tuple[str, ...]) -> GitCommandError:
    text = scrub(stderr.decode("utf-8", "replace").strip(), secrets)[-_STDERR_TAIL:]
    detail = f": {text}" if text else ""
    if _TRANSPORT_REFUSED.search(text):
        return GitCommandError(
            f"git {args[0]} needed objects from a remote and was refused: a local repository is read in"
            f" place with no transport, so a partial clone's missing objects cannot be fetched (index its"
            f" clone URL instead){detail}",
            returncode=returncode,
            stderr=text,
        )
    return GitCommandError(f"git {args[0]} failed (exit {returncode}){detail}", returncode=returncode, stderr=text)


def _start(
    argv: list[str],
    env: Mapping[str, str],
    *,
    stdin: int,
    stderr: int | IO[bytes],
    cwd: Path | None,
    stdout: int | IO[bytes] = subprocess.PIPE,
) -> subprocess.Popen[bytes]:
    try:
        return subprocess.Popen(
            argv,
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            env=dict(env),
            cwd=cwd,
            start_new_session=True,
        )
    except FileNotFoundError as error:
        raise GitUnavailableError("git is not installed or not on PATH") from error


def run_git(
    args: Sequence[str],
    *,
    env: Mapping[str, str],
    secrets: tuple[str, ...],
    timeout: float,
    git_dir: Path | None = None,
    stdin: bytes | None = None,
    cwd: Path | None = None,
) -> bytes:
    """Run one git command to completion and return its stdout.

    Args:
        args: Arguments after ``git`` (and ``--git-dir``); never a secret.
        env: The child environment (see ``git_environment``).
        secrets: Strings to scrub from any error text.
        timeout: Seconds before the command and its children are killed.
        git_dir: Repository to run in, passed as ``--git-dir``.
        stdin: Bytes for the command's standard input.
        cwd: Working directory for the child.

    Returns:
        The command's standard output.
    """
    logger.debug("git %s", " ".join(args[:2]))
    process = _start(
        _argv(args, git_dir),
        env,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=cwd,
    )
    try:
        out, err = process.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        process.communicate()
        raise GitTimeoutError(f"git {args[0]} timed out after {timeout:g} s") from None
    except BaseException:
        _kill_group(process)
        process.wait()
        raise
    if process.returncode != 0:
        raise _command_error(args, process.returncode, err, secrets)
    return out


class GitOutput:
    """The standard output of a running git command, read in chunks; ``stop`` ends it early."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self._process = process
        self.stopped = False

    def chunks(self, size: int = 1 << 18) -> Iterator[bytes]:
        """Yield the output in pieces of at most ``size`` bytes until git closes it.

        Args:
            size: Largest piece to read at once.

        Returns:
            An iterator of byte chunks.
        """
        stdout = self._process.stdout
        if stdout is None:  # pragma: no cover - always a pipe here
            return
        while chunk := stdout.read(size):
            yield chunk

    def stop(self) -> None:
        """Stop git: the caller has read all it needs."""
        self.stopped = True
        _kill_group(self._process)


@contextmanager
def stream_git(
    args: Sequence[str],
    *,
    env: Mapping[str, str],
    secrets: tuple[str, ...],
    timeout: float,
    git_dir: Path | None = None,
) -> Iterator[GitOutput]:
    """Run a git command whose output is consumed while it runs (memory stays flat).

    Args:
        args: Arguments after ``git``.
        env: The child environment.
        secrets: Strings to scrub from any error text.
        timeout: Seconds before the command is killed (``GitTimeoutError`` on exit).
        git_dir: Repository to run in.

    Returns:
        A context manager yielding the ``GitOutput``; errors surface when the block ends.
    """
    logger.debug("git %s (streamed)", " ".join(args[:2]))
    with tempfile.TemporaryFile() as stderr_file:
        process = _start(_argv(args, git_dir), env, stdin=subprocess.DEVNULL, stderr=stderr_file, cwd=None)
        timed_out = threading.Event()

        def expire() -> None:
            timed_out.set()
            _kill_group(process)

        watchdog = threading.Timer(timeout, expire)
        watchdog.daemon = True
        watchdog.start()
        output = GitOutput(process)
        try:
            yield output
        except BaseException:
            _kill_group(process)
            raise
        finally:
            watchdog.cancel()
            if process.stdout is not None:
                process.stdout.close()
            if process.poll() is None and output.stopped:
                _kill_group(process)
            process.wait()
        if timed_out.is_set():
            raise GitTimeoutError(f"git {args[0]} timed out after {timeout:g} s")
        if process.returncode != 0 and not output.stopped:
            stderr_file.seek(0)
            raise _command_error(args, process.returncode, stderr_file.read(), secrets)


class BackgroundGit:
    """A git command running alongside other work, its output spooled to a temp file.

    Args:
        args: Arguments after ``git``.
        env: The child environment.
        secrets: Strings to scrub from any error text.
        timeout: Seconds from start before the command is killed.
        git_dir: Repository to run in.
    """

    def __init__(
        self,
        args: Sequence[str],
        *,
        env: Mapping[str, str],
        secrets: tuple[str, ...],
        timeout: float,
        git_dir: Path | None = None,
    ) -> None:
        logger.debug("git %s (background)", " ".join(args[:2]))
        self._args = list(args)
        self._secrets = secrets
        self._timeout = timeout
        self._deadline = time.monotonic() + timeout
        # Both files live as long as this object, which is itself the context manager closing them.
        self._stdout = tempfile.TemporaryFile()  # noqa: SIM115
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115
        try:
            self._process = _start(
                _argv(args, git_dir), env, stdin=subprocess.DEVNULL, stderr=self._stderr, cwd=None, stdout=self._stdout
            )
        except BaseException:
            self._stdout.close()
            self._stderr.close()
            raise

    def output_chunks(self, size: int = 1 << 20) -> Iterator[bytes]:
        """Wait for the command (within its time limit), then yield its output piece by piece.

        Args:
            size: Largest piece to read at once (memory stays flat however long the output).

        Returns:
            An iterator of byte chunks of the command's standard output.
        """
        try:
            self._process.wait(timeout=max(0.0, self._deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.cancel()
            raise GitTimeoutError(f"git {self._args[0]} timed out after {self._timeout:g} s") from None
        if self._process.returncode != 0:
            self._stderr.seek(0)
            raise _command_error(self._args, self._process.returncode, self._stderr.read(), self._secrets)
        self._stdout.seek(0)
        while chunk := self._stdout.read(size):
            yield chunk

    def cancel(self) -> None:
        """Stop the command if it still runs (its output is no longer needed)."""
        if self._process.poll() is None:
            _kill_group(self._process)
        self._process.wait()

    def close(self) -> None:
        """Stop the command and release its temp files."""
        self.cancel()
        self._stdout.close()
        self._stderr.close()

    def __enter__(self) -> BackgroundGit:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
