"""The environment a child process of ours starts with: what a program needs to run, never our secrets.

Our own environment holds the provider keys (``ANTHROPIC_API_KEY``, ``OPENAI_API_KEY``), chat tokens,
forge tokens and the bus password. A child that reads repository text (git and the ssh it starts, the
parse worker) needs none of them, and whatever it holds could leak: to a crash report, a trace, a
program the repository names, anything it starts in turn. So a child gets an allow-list, never our
environment minus a deny-list: a secret under a new name stays home by default.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

RUNTIME_VARIABLES = frozenset(
    {"PATH", "HOME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TEMP", "TMP", "LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH",
     "SYSTEMROOT", "WINDIR", "COMSPEC"}
)  # fmt: skip
"""What any program needs to run on this machine: where programs, libraries, temporary files and home
are, the locale and the time zone (every ``LC_*`` too), and the few names Windows cannot start without."""

CREDENTIAL_NAME_PARTS = ("KEY", "TOKEN", "SECRET", "PASSW", "CRED", "AUTH")
"""A variable whose name holds one of these is taken for a credential even under a kept prefix
(``PYTHONANYWHERE_API_TOKEN`` is not Python's)."""


def child_environment(
    env: Mapping[str, str], *, keep: Collection[str] = (), keep_prefixes: tuple[str, ...] = ()
) -> dict[str, str]:
    """The part of an environment a child process is started with.

    Names are compared upper-cased (Windows names are case-blind; ``http_proxy`` matches ``HTTP_PROXY``).

    Args:
        env: Our environment.
        keep: Upper-case names this child needs besides ``RUNTIME_VARIABLES`` (git's own, a proxy).
        keep_prefixes: Upper-case prefixes whose variables this child reads (``PYTHON``), kept unless
            named like a credential.

    Returns:
        The runtime variables, every ``LC_*``, the ``keep`` names and the prefixed variables; nothing else.
    """
    return {name: value for name, value in env.items() if _kept(name.upper(), keep, keep_prefixes)}


def _kept(name: str, keep: Collection[str], keep_prefixes: tuple[str, ...]) -> bool:
    if name in RUNTIME_VARIABLES or name in keep or name.startswith("LC_"):
        return True
    return name.startswith(keep_prefixes) and not looks_like_credential(name)


def looks_like_credential(name: str) -> bool:
    """Whether a variable's name says it holds a credential.

    Args:
        name: An upper-case variable name.

    Returns:
        True for names such as ``OPENAI_API_KEY``, ``GITHUB_TOKEN``, ``NATS_PASSWORD``.
    """
    return any(part in name for part in CREDENTIAL_NAME_PARTS)
