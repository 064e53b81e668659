"""On a real 80-column terminal: the live bars fit, and no stage line is drawn into a bar's row.

The command runs on a pseudo-terminal of 80 columns (what a person's terminal is to it), and the test
reads back the screen output: each bar frame (the text between rich's cursor moves) must fit in 80
columns and hold nothing but the bar.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios

import pytest

from ..conftest import GitRepo
from .holding_provider import HoldingProvider, held_from_the_start
from .test_no_wait_shutdown import build_shop

__all__ = ["held_from_the_start"]

COLUMNS = 80
SGR = re.compile(r"\x1b\[[0-9;?]*m")
"""Colours and styles: no width."""
CURSOR = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
"""Cursor moves and erases: a live display redrawing its rows."""


def run_on_terminal(command: list[str], env: dict[str, str]) -> str:
    """Run ``command`` with a pseudo-terminal of ``COLUMNS`` columns as its stdin, stdout and stderr."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, COLUMNS, 0, 0))
    process = subprocess.Popen(command, env=env, stdin=follower, stdout=follower, stderr=follower)
    os.close(follower)
    output = bytearray()
    try:
        while True:
            try:
                piece = os.read(leader, 65536)
            except OSError:  # the terminal closed: every process holding it has ended
                break
            if not piece:
                break
            output += piece
        assert process.wait(timeout=180) == 0, output.decode(errors="replace")
    finally:
        os.close(leader)
        if process.poll() is None:
            process.kill()
    return output.decode(errors="replace")


def screen_rows(output: str) -> list[str]:
    return [row for row in re.split(r"[\r\n]", CURSOR.sub("\n", SGR.sub("", output))) if row.strip()]


@pytest.mark.process
def test_bars_fit_80_columns_and_stage_lines_never_land_in_them(
    sextant_env: dict[str, str], git_repo: GitRepo, held_from_the_start: tuple[HoldingProvider, dict[str, str]]
) -> None:
    _, settings = held_from_the_start
    build_shop(git_repo)
    output = run_on_terminal(
        [sys.executable, "-m", "sextant.cli", "index", str(git_repo.root), "--no-wait"],
        {**sextant_env, **settings, "TERM": "xterm-256color", "COLUMNS": str(COLUMNS)},
    )
    rows = screen_rows(output)
    # A bar frame shows only when one of rich's refreshes falls inside a stage; a quick stage on a busy
    # machine may draw none, so their number is not asserted (that would depend on timing). Every frame
    # drawn must fit and hold nothing but its bar, and the stage lines must still be printed.
    bars = [row for row in rows if " eta " in row]
    assert any(row.startswith("sextant: run ") for row in rows), rows
    assert all(len(row) <= COLUMNS for row in bars), [row for row in bars if len(row) > COLUMNS]
    assert not [row for row in bars if "vectors for review search" in row or "chunks.indexed" in row]
    assert any(row.startswith("  vectors for review search: 0/") for row in rows), rows
