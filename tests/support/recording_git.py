"""A ``git`` first on PATH that writes down the environment each git child started with, then runs git.

The operating system hands a child its environment; reading it back from the child is the one way to
know what our code really gave git (and whatever git starts in turn), without trusting the code that
built it. Every git started through PATH while the wrapper is installed leaves one record.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest


def install_recording_git(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Put a recording ``git`` first on PATH for the rest of the test.

    Args:
        folder: A scratch folder for the wrapper and its records.
        monkeypatch: Restores PATH after the test.

    Returns:
        The folder the records are written to (read them with ``recorded_environments``).
    """
    real_git = shutil.which("git")
    assert real_git is not None
    records = folder / "git-environments"
    records.mkdir(parents=True)
    wrapper_dir = folder / "recording-bin"
    wrapper_dir.mkdir()
    wrapper = wrapper_dir / "git"
    wrapper.write_text(
        f'#!/bin/sh\nprintf "%s\\0" "$@" > "{records}/$$.args"\nenv -0 > "{records}/$$.env"\nexec "{real_git}" "$@"\n'
    )
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{wrapper_dir}{os.pathsep}{os.environ['PATH']}")
    return records


def recorded_environments(records: Path) -> list[dict[str, str]]:
    """The environment of every git that ran through the wrapper, one dict each."""
    environments = []
    for path in sorted(records.glob("*.env")):
        entries = path.read_bytes().decode("utf-8", "replace").split("\0")
        environments.append(dict(entry.split("=", 1) for entry in entries if "=" in entry))
    return environments


def recorded_commands(records: Path) -> list[list[str]]:
    """The arguments of every git that ran through the wrapper (after ``git``), in the order of
    ``recorded_environments``."""
    return [path.read_bytes().decode("utf-8", "replace").split("\0")[:-1] for path in sorted(records.glob("*.args"))]
