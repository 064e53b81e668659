"""Who may be cloned and how: repository sources, credentials through env-only config, scrubbing.

Tokens travel only in the child process environment (``GIT_CONFIG_COUNT``/``KEY_n``/``VALUE_n`` set
``http.<origin>/.extraHeader``), never in a URL, argv, log line, exception or repr. A URL that
carries credentials is refused before git runs; git itself is told the same
(``transfer.credentialsInUrl=die``, honoured from git 2.41).
"""

from __future__ import annotations

import base64
import ipaddress
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from sextant.gitsource.errors import UnsafeSourceError
from sextant.gitsource.operator_config import ISOLATION, carried_settings
from sextant.secret_rules import child_environment

Provider = Literal["github", "gitlab", "bitbucket", "generic"]
SourceKind = Literal["local", "file", "https", "http", "ssh"]

PROVIDERS: tuple[Provider, ...] = ("github", "gitlab", "bitbucket", "generic")

# Basic-auth user names each host documents for token auth over git smart HTTP:
# GitHub installation/PAT tokens, GitLab OAuth2/personal tokens, Bitbucket access tokens.
_BASIC_USERS: dict[Provider, str] = {
    "github": "x-access-token",
    "gitlab": "oauth2",
    "bitbucket": "x-token-auth",
}

# What a git child keeps of our environment besides every child's runtime variables (secret_rules):
# git's own variables that locate it, choose its ssh or CA files or trace it, and how this machine
# reaches a host (curl's proxy variables, OpenSSL's CA files). Nothing else passes: a provider key, a
# chat token or the bus password never reaches git, ssh or a program they start, and a caller's
# GIT_DIR, GIT_CONFIG_*, GIT_ASKPASS or GIT_CURL_VERBOSE can never redirect or leak a run. The user's
# and the system's config files are never read (operator_config: what is carried over).
_INHERITED_VARIABLES = frozenset(
    {
        "GIT_EXEC_PATH",
        "GIT_SSH",
        "GIT_SSH_COMMAND",
        "GIT_SSH_VARIANT",
        "GIT_SSL_CAINFO",
        "GIT_SSL_CAPATH",
        "GIT_TRACE",
        "GIT_TRACE2",
        "GIT_TRACE2_EVENT",
        "GIT_TRACE2_PERF",
        "GIT_TRACE_PACKET",
        "GIT_TRACE_CURL",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "NO_PROXY",
        "SSL_CERT_FILE",
        "SSL_CERT_DIR",
    }
)
# The ssh agent's socket, only for a source reached over ssh (the one auth of ours that needs it).
_SSH_VARIABLES = frozenset({"SSH_AUTH_SOCK"})

# Plain http only to this machine (test servers, a local forge); git:// and remote helpers never.
_BASE_PROTOCOLS = ("file", "https", "ssh")

# A repository read in place is the only config git sees for it, and that config is untrusted: its
# promisor remote's ``uploadpack``, its ``core.sshCommand`` or an ``ext::`` URL would run commands on
# a lazy fetch. In-place reads therefore allow no transport at all (an empty allow-list), which also
# means they never fetch: a partial clone's missing objects are an error, not a download.
_IN_PLACE_CONFIG: tuple[tuple[str, str], ...] = (("protocol.allow", "never"),)

# Hardening that applies to every git call; later entries of GIT_CONFIG_* beat repository config.
_SAFE_CONFIG: tuple[tuple[str, str], ...] = (
    ("credential.helper", ""),  # only our token: no stored or prompting helper
    ("core.askPass", ""),
    ("core.hooksPath", "/dev/null"),
    ("core.fsmonitor", "false"),
    ("protocol.version", "2"),
    ("transfer.credentialsInUrl", "die"),
    ("submodule.recurse", "false"),
    ("fetch.recurseSubmodules", "false"),
    ("gc.autoDetach", "false"),  # no background gc outliving our call
    ("gc.auto", "0"),  # and no gc at all: its pre-auto-gc hook and repacks are not ours to run
    ("maintenance.auto", "false"),
    ("log.showSignature", "false"),  # would run gpg.program from a repository's config
    ("core.attributesFile", "/dev/null"),  # the user's attributes (`*.py -diff`) would hide code from grep and -G
)

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_TRANSPORT_HELPER = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*::")
_SCP_LIKE = re.compile(r"^(?:[^@/:\s]+@)?[^@/:\s]+:(?!//)")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True, slots=True)
class RepoSource:
    """A repository to read: where it is, which branch, and the token to reach it (if any).

    Args:
        url: https/ssh/file URL, scp-like ``git@host:org/repo.git``, or a local path.
        branch: Branch to read; None means the remote's default branch (or HEAD of a local repo).
        token: Access token, sent only as an HTTP header through the environment.
        provider: Decides the header's shape (GitHub, GitLab, Bitbucket basic auth; generic bearer).
    """

    url: str
    branch: str | None = None
    token: str | None = field(default=None, repr=False)
    provider: Provider = "generic"

    def __post_init__(self) -> None:
        if self.provider not in PROVIDERS:
            raise UnsafeSourceError(f"unknown provider {self.provider!r}; expected one of {PROVIDERS}")
        if self.token is not None and (not self.token or _CONTROL.search(self.token)):
            raise UnsafeSourceError("the token is empty or contains control characters")
        if self.branch is not None:
            check_branch_name(self.branch)
        source_kind(self.url)  # refuses credentials in the URL and unknown protocols

    def __repr__(self) -> str:
        token = "'***'" if self.token else "None"
        return f"RepoSource(url={self.url!r}, branch={self.branch!r}, token={token}, provider={self.provider!r})"


def check_branch_name(branch: str) -> None:
    """Refuse branch names git would reject or that could be read as an option.

    Args:
        branch: A short branch name such as ``main`` or ``release/1.2``.
    """
    bad = (
        not branch
        or branch.startswith(("-", "/"))
        or branch.endswith(("/", ".lock", "."))
        or ".." in branch
        or "@{" in branch
        or "//" in branch
        or _CONTROL.search(branch)
        or any(char in branch for char in " ~^:?*[\\")
    )
    if bad:
        raise UnsafeSourceError(f"invalid branch name {branch!r}")


def source_kind(url: str) -> SourceKind:
    """Classify a repository location, refusing anything unsafe.

    Args:
        url: The source URL or local path.

    Returns:
        "local" for a path on this machine, else the transport git will use.
    """
    if not url or _CONTROL.search(url) or url.startswith("-"):
        raise UnsafeSourceError("the repository location is empty, starts with '-' or has control characters")
    scheme_match = _SCHEME.match(url)
    if scheme_match:
        return _url_kind(url, scheme_match.group(1).lower())
    if _TRANSPORT_HELPER.match(url):
        raise UnsafeSourceError("remote-helper locations (transport::address) are not allowed")
    if _SCP_LIKE.match(url):
        if "@" in url.split(":", 1)[1].split("/", 1)[0]:
            raise UnsafeSourceError("the repository location carries a password; pass a token instead")
        return "ssh"
    if ":" in url.split("/", 1)[0]:
        raise UnsafeSourceError("unrecognised repository location (user:password@host form is refused)")
    return "local"


def _url_kind(url: str, scheme: str) -> SourceKind:
    parts = urlsplit(url)
    if scheme in {"ssh", "git+ssh", "ssh+git"}:
        if parts.password is not None:
            raise UnsafeSourceError("the repository URL carries a password; pass a token instead")
        return "ssh"
    if "@" in parts.netloc:
        raise UnsafeSourceError("the repository URL carries credentials; remove them and pass the token separately")
    if scheme == "https":
        return "https"
    if scheme == "file":
        return "file"
    if scheme == "http":
        if _is_loopback(parts.hostname or ""):
            return "http"
        raise UnsafeSourceError("plain http is allowed only to this machine; use https")
    raise UnsafeSourceError(f"protocol {scheme!r} is not allowed (https, ssh, file or a local path)")


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def local_path(source: RepoSource) -> Path | None:
    """The on-disk path of a local source (read in place), or None for anything reached by URL.

    Args:
        source: The repository source.

    Returns:
        The absolute path, or None.
    """
    if source_kind(source.url) != "local":
        return None
    return Path(source.url).expanduser().resolve()


def authorization_header(source: RepoSource) -> str | None:
    """The ``Authorization`` header value for the source's token, per provider.

    Args:
        source: The repository source.

    Returns:
        e.g. ``Basic eC1hY2Nlc3MtdG9rZW46…`` for GitHub; None without a token.
    """
    if source.token is None:
        return None
    user = _BASIC_USERS.get(source.provider)
    if user is None:
        return f"Bearer {source.token}"
    encoded = base64.b64encode(f"{user}:{source.token}".encode()).decode("ascii")
    return f"Basic {encoded}"


def secrets_of(source: RepoSource) -> tuple[str, ...]:
    """Every string derived from the token that must never be shown.

    Args:
        source: The repository source.

    Returns:
        The token, the header value and its encoded credential (empty without a token).
    """
    header = authorization_header(source)
    if source.token is None or header is None:
        return ()
    return (source.token, header, header.split(" ", 1)[1])


def git_environment(source: RepoSource) -> dict[str, str]:
    """The complete environment for a git child process reading this source.

    Args:
        source: The repository source.

    Returns:
        An allow-list of the caller's environment (what a program needs to run, git's own locating
        and tracing variables, proxies; never a provider key or token of ours), plus no
        prompts, no user or system config (only the operator's `safe.directory` and proxy and CA
        settings, carried as command-line config), a protocol allow-list (empty for a local path
        read in place: no transport at all), hardening config and (with a token) the auth header.
    """
    kind = source_kind(source.url)
    env = child_environment(os.environ, keep=_INHERITED_VARIABLES | (_SSH_VARIABLES if kind == "ssh" else set()))
    protocols: tuple[str, ...] = _BASE_PROTOCOLS
    if kind == "http":
        protocols = (*_BASE_PROTOCOLS, "http")
    elif kind == "local":
        protocols = ()
    env.update(
        {
            "GIT_TERMINAL_PROMPT": "0",
            "GCM_INTERACTIVE": "never",
            "GIT_ALLOW_PROTOCOL": ":".join(protocols),
            "GIT_PROTOCOL_FROM_USER": "0",
            "GIT_TRACE_REDACT": "1",
            "LC_ALL": "C",  # stable English messages for the few errors we recognise
            "LANGUAGE": "C",
        }
    )
    if "GIT_SSH" not in env and "GIT_SSH_COMMAND" not in env:
        env["GIT_SSH_COMMAND"] = "ssh -o BatchMode=yes"
    env.update(ISOLATION)
    config = [*carried_settings(), *_SAFE_CONFIG, *(_IN_PLACE_CONFIG if kind == "local" else ())]
    header = authorization_header(source)
    if header is not None and kind in {"https", "http"}:
        # Scoped to the source's origin so the header never follows the run to another host.
        config.append((f"http.{_origin(source.url)}/.extraHeader", f"Authorization: {header}"))
    env["GIT_CONFIG_COUNT"] = str(len(config))
    for index, (key, value) in enumerate(config):
        env[f"GIT_CONFIG_KEY_{index}"] = key
        env[f"GIT_CONFIG_VALUE_{index}"] = value
    return env


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc}"


_HEADER_LINE = re.compile(r"(?i)(authorization:\s*)[^\r\n]*")
_URL_USERINFO = re.compile(r"(://)[^/\s@]+@")


def scrub(text: str, secrets: tuple[str, ...]) -> str:
    """Remove secrets, auth headers and URL credentials from text meant for a log or an error.

    Args:
        text: Text such as git's stderr.
        secrets: Strings to mask (see ``secrets_of``).

    Returns:
        The text with each secret replaced by ``***``.
    """
    for secret in sorted(secrets, key=len, reverse=True):
        if secret:
            text = text.replace(secret, "***")
    text = _HEADER_LINE.sub(r"\1***", text)
    return _URL_USERINFO.sub(r"\1***@", text)
