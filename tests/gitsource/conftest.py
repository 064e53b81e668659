"""Fixtures for gitsource tests: object counting; trace2 capture and the smart-HTTP stand-in from tests/support."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from ..support.git_forge import FakeForge, fake_forge
from ..support.git_trace import Trace2, trace2

__all__ = ["FakeForge", "Trace2", "fake_forge", "trace2"]


def _count_objects(git_dir: Path, kind: str) -> int:
    # --batch-all-objects enumerates the local store only: it never triggers a lazy fetch.
    out = subprocess.run(
        ["git", "--git-dir", str(git_dir), "cat-file", "--batch-all-objects", "--batch-check=%(objecttype)"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return sum(1 for line in out.splitlines() if line == kind)


@pytest.fixture
def count_objects() -> Callable[[Path, str], int]:
    """Count objects of one type ("blob", "tree", "commit") in a repository's local store."""
    return _count_objects
