"""The few settings of the operator's own git config that every git we run still gets.

Git runs here with the user's and the system's config switched off (`GIT_CONFIG_GLOBAL=/dev/null`,
`GIT_CONFIG_NOSYSTEM=1`): a `~/.gitconfig` with `diff.noprefix`, `log.showRoot=false`,
`color.ui=always` or `blame.ignoreRevsFile` would otherwise change the output we parse, so the same
repository would give other findings on another machine. Credentials never come from that config
(our token travels in `GIT_CONFIG_*` entries, credential helpers and askpass are off, ssh reads its
own config), but two kinds of setting there are the operator's to give, and neither changes what we
parse: `safe.directory` (a container or CI job reading a repository its user does not own) and how
this machine reaches a host (`http.proxy`, `http.sslCAInfo`, `http.sslCAPath`). Those are read once
from the operator's config and passed on as command-line config.
"""

from __future__ import annotations

import os
import subprocess
from functools import cache

from sextant.secret_rules import child_environment

_CARRIED = r"^(safe\.directory|http\.proxy|http\.sslcainfo|http\.sslcapath)$"
_LOCATING_VARIABLES = ("HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM")
_READ_TIMEOUT = 10.0
ISOLATION = {
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_SYSTEM": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_ATTR_NOSYSTEM": "1",
}
"""What every git child gets: no user or system config, no system attributes file."""


def carried_settings() -> tuple[tuple[str, str], ...]:
    """The operator's `safe.directory` and host-reaching settings, from their system and global config.

    Returns:
        (key, value) pairs in config order; empty when git cannot say (no git, no such config).
    """
    return _read_carried(tuple(os.environ.get(name) for name in _LOCATING_VARIABLES))


@cache
def _read_carried(locating: tuple[str | None, ...]) -> tuple[tuple[str, str], ...]:
    """One `git config` read per distinct set of variables that locate the operator's config files."""
    env = child_environment(os.environ)
    env.update({name: value for name, value in zip(_LOCATING_VARIABLES, locating, strict=True) if value is not None})
    env["GIT_DIR"] = os.devnull  # outside any repository: its local config is not the operator's
    try:
        out = subprocess.run(
            ["git", "config", "--null", "--get-regexp", _CARRIED],
            capture_output=True,
            env=env,
            timeout=_READ_TIMEOUT,
            check=False,
            cwd="/",
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ()
    settings = []
    for record in out.decode("utf-8", "surrogateescape").split("\0"):
        key, newline, value = record.partition("\n")
        if key and newline:
            settings.append((key, value))
    return tuple(settings)
