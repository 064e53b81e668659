"""The CPU of a history fetch split between the client (git fetch, index-pack) and the server side.

Over a `file://` remote, git runs the server's `upload-pack` (and its `pack-objects`) as a child of
the client's `git fetch`, so this process's children CPU counts both sides, though a user of a hosted
remote pays only the client's. `server_side_logged` wraps a mirror's `remote.origin.uploadpack` command in
`/usr/bin/time`, which appends each request's user and system CPU to a log;
`server_cpu` sums it. Client CPU = children CPU - server CPU.
"""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

TIME_PROGRAM = "/usr/bin/time"


def server_side_logged(git_dir: Path, log: Path) -> None:
    """Make every fetch of `git_dir` from its origin append the upload-pack's CPU seconds to `log`."""
    git = ["git", "--git-dir", str(git_dir), "config"]
    configured = subprocess.run(
        [*git, "--get", "remote.origin.uploadpack"], check=False, capture_output=True, text=True
    )
    current = configured.stdout.strip()
    command = f"{TIME_PROGRAM} -a -o {shlex.quote(str(log))} -f '%U %S' {current or 'git-upload-pack'}"
    subprocess.run([*git, "remote.origin.uploadpack", command], check=True)


def server_cpu(log: Path) -> tuple[int, float]:
    """(upload-pack requests logged, their user + system CPU seconds)."""
    if not log.exists():
        return 0, 0.0
    requests, seconds = 0, 0.0
    for line in log.read_text().splitlines():
        fields = line.split()
        if len(fields) == 2:
            try:
                user, system = float(fields[0]), float(fields[1])
            except ValueError:
                continue  # "Command exited with non-zero status" lines
            requests += 1
            seconds += user + system
    return requests, seconds
