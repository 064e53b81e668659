"""Source classification, credential refusal, the child environment and scrubbing."""

from __future__ import annotations

import base64

import pytest

from sextant.gitsource.access import (
    RepoSource,
    authorization_header,
    git_environment,
    scrub,
    secrets_of,
    source_kind,
)
from sextant.gitsource.errors import UnsafeSourceError

TOKEN = "ghs_SuperSecretToken123"


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("https://github.com/org/repo.git", "https"),
        ("ssh://git@github.com/org/repo.git", "ssh"),
        ("git@github.com:org/repo.git", "ssh"),
        ("file:///tmp/repo", "file"),
        ("/tmp/repo", "local"),
        ("relative/repo", "local"),
        ("http://127.0.0.1:8080/repo.git", "http"),
        ("http://localhost/repo.git", "http"),
    ],
)
def test_source_kinds(url: str, kind: str) -> None:
    assert source_kind(url) == kind


@pytest.mark.parametrize(
    "url",
    [
        f"https://x-access-token:{TOKEN}@github.com/org/repo.git",
        f"https://{TOKEN}@github.com/org/repo.git",
        f"ssh://git:{TOKEN}@github.com/org/repo.git",
        f"git:{TOKEN}@github.com:org/repo.git",
        f"file://user:{TOKEN}@/tmp/repo",
    ],
)
def test_credentials_in_url_are_refused_without_echoing_them(url: str) -> None:
    with pytest.raises(UnsafeSourceError) as caught:
        RepoSource(url)
    assert TOKEN not in str(caught.value)
    assert TOKEN not in repr(caught.value)


@pytest.mark.parametrize(
    "url",
    [
        "git://github.com/org/repo.git",
        "http://example.com/repo.git",
        "ext::sh -c touch% /tmp/pwned",
        "fd::17",
        "ftp://example.com/repo.git",
        "--upload-pack=touch /tmp/pwned",
        "https://github.com/org/repo.git\nfoo",
        "",
    ],
)
def test_unsafe_locations_are_refused(url: str) -> None:
    with pytest.raises(UnsafeSourceError):
        RepoSource(url)


@pytest.mark.parametrize("branch", ["-x", "a..b", "a b", "main.lock", "x@{1}", "a:b", "", "a\nb"])
def test_bad_branch_names_are_refused(branch: str) -> None:
    with pytest.raises(UnsafeSourceError):
        RepoSource("https://github.com/org/repo.git", branch=branch)


def test_repr_hides_the_token() -> None:
    source = RepoSource("https://github.com/org/repo.git", branch="main", token=TOKEN, provider="github")
    assert TOKEN not in repr(source)
    assert TOKEN not in str(source)
    assert "token='***'" in repr(source)


@pytest.mark.parametrize(
    ("provider", "expected"),
    [
        ("github", "Basic " + base64.b64encode(f"x-access-token:{TOKEN}".encode()).decode()),
        ("gitlab", "Basic " + base64.b64encode(f"oauth2:{TOKEN}".encode()).decode()),
        ("bitbucket", "Basic " + base64.b64encode(f"x-token-auth:{TOKEN}".encode()).decode()),
        ("generic", f"Bearer {TOKEN}"),
    ],
)
def test_authorization_header_per_provider(provider: str, expected: str) -> None:
    source = RepoSource("https://host.example/org/repo.git", token=TOKEN, provider=provider)  # type: ignore[arg-type]
    assert authorization_header(source) == expected


def test_environment_carries_the_token_only_in_scoped_config() -> None:
    source = RepoSource("https://github.com/org/repo.git", token=TOKEN, provider="github")
    env = git_environment(source)
    assert env["GIT_TERMINAL_PROMPT"] == "0"
    assert env["GIT_ALLOW_PROTOCOL"] == "file:https:ssh"
    config = {
        env[f"GIT_CONFIG_KEY_{index}"]: env[f"GIT_CONFIG_VALUE_{index}"]
        for index in range(int(env["GIT_CONFIG_COUNT"]))
    }
    assert config["http.https://github.com/.extraHeader"] == f"Authorization: {authorization_header(source)}"
    assert config["transfer.credentialsInUrl"] == "die"
    assert config["credential.helper"] == ""
    assert config["fetch.recurseSubmodules"] == "false"
    encoded = base64.b64encode(f"x-access-token:{TOKEN}".encode()).decode()
    holders = [name for name, value in env.items() if TOKEN in value or encoded in value]
    header_index = next(i for i in range(int(env["GIT_CONFIG_COUNT"])) if "extraHeader" in env[f"GIT_CONFIG_KEY_{i}"])
    assert holders == [f"GIT_CONFIG_VALUE_{header_index}"]  # nowhere but the header's config value


def test_environment_drops_inherited_git_redirections(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_DIR", "/elsewhere")
    monkeypatch.setenv("GIT_ASKPASS", "/bin/echo")
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", "'core.sshcommand'='touch /tmp/x'")
    env = git_environment(RepoSource("/tmp/repo"))
    assert "GIT_DIR" not in env
    assert "GIT_ASKPASS" not in env
    assert "GIT_CONFIG_PARAMETERS" not in env


def test_plain_http_allowed_only_to_loopback() -> None:
    env = git_environment(RepoSource("http://127.0.0.1:9/repo.git"))
    assert env["GIT_ALLOW_PROTOCOL"].split(":") == ["file", "https", "ssh", "http"]


def test_scrub_masks_tokens_headers_and_url_userinfo() -> None:
    source = RepoSource("https://github.com/org/repo.git", token=TOKEN, provider="github")
    header = authorization_header(source)
    assert header is not None
    text = (
        f"fatal: remote error: bad {TOKEN}\n"
        f"> Authorization: {header}\n"
        f"fatal: unable to access 'https://someone:{TOKEN}x@github.com/org/repo.git/'\n"
        f"seen {header.split(' ')[1]}"
    )
    cleaned = scrub(text, secrets_of(source))
    assert TOKEN not in cleaned
    assert header.split(" ")[1] not in cleaned
    assert "Authorization: ***" in cleaned
    assert "https://***@github.com" in cleaned
