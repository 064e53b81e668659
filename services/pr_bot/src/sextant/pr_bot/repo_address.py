"""Where a repository lives on its host: the API base and the project path, from its clone URL."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

_SCP_LIKE = re.compile(r"^[\w.-]+@(?P<host>[^:]+):(?P<path>.+)$")


@dataclass(frozen=True)
class RepoAddress:
    """``host`` and ``path`` (``owner/name`` or ``group/sub/name``) of a hosted repository."""

    host: str
    path: str
    scheme: str = "https"


def repo_address(url: str) -> RepoAddress | None:
    """Parse an https or scp-like clone URL.

    Args:
        url: e.g. https://github.com/octo/shop.git or git@gitlab.example:group/shop.git.

    Returns:
        The address, or None for a local path or an unparsable URL.
    """
    scp = _SCP_LIKE.match(url)
    if scp:
        return RepoAddress(host=scp["host"], path=scp["path"].removesuffix(".git").strip("/"))
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    path = parts.path.removesuffix(".git").strip("/")
    host = parts.hostname + (f":{parts.port}" if parts.port else "")
    return RepoAddress(host=host, path=path, scheme=parts.scheme) if path.count("/") >= 1 else None
