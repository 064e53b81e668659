"""Git children start with what git needs, never our provider keys, chat tokens or bus password.

A ``git`` earlier on PATH records the environment the operating system handed it and then runs the real
git, so every git our code starts (a mirror clone and fetch, a scan read in place, a clone over HTTP
with a token, the read of the operator's config) is seen as it really started.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path
from typing import Any

import pytest

from sextant.gitsource import operator_config
from sextant.gitsource.access import RepoSource, git_environment
from sextant.gitsource.errors import GitSourceError
from sextant.gitsource.mirror import RepoMirror
from sextant.gitsource.recency import scan_recency

from ..conftest import GitRepo

OUR_SECRETS = {
    "ANTHROPIC_API_KEY": "sk-ant-test-planted-0123456789abcdef",
    "OPENAI_API_KEY": "sk-test-planted-openai-0123456789abcdef",
    "SLACK_BOT_TOKEN": "xoxb-planted-0123456789-abcdef",
    "SLACK_SIGNING_SECRET": "planted-signing-secret-0123",
    "NATS_URL": "nats://sextant:planted-bus-password@127.0.0.1:4222",
    "SEXTANT_GITHUB_TOKEN": "ghp_plantedplantedplantedplanted0000",
}
TOKEN = "ghs_PlantedInstallationToken42"


def _install_recording_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Put a ``git`` on PATH that appends its environment to a file, then execs the real git."""
    real_git = shutil.which("git")
    assert real_git is not None
    records = tmp_path / "environments"
    records.mkdir()
    wrapper_dir = tmp_path / "bin"
    wrapper_dir.mkdir()
    wrapper = wrapper_dir / "git"
    wrapper.write_text(f'#!/bin/sh\nenv -0 > "{records}/$$.env"\nexec "{real_git}" "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{wrapper_dir}{os.pathsep}{os.environ['PATH']}")
    return records


def _recorded(records: Path) -> list[dict[str, str]]:
    environments = []
    for path in sorted(records.iterdir()):
        entries = path.read_bytes().decode("utf-8", "replace").split("\0")
        environments.append(dict(entry.split("=", 1) for entry in entries if "=" in entry))
    return environments


def test_no_git_child_gets_our_secrets_and_the_token_still_reaches_the_forge(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_forge: Any
) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.commit_files("first", {"src/app.py": "def main():\n    return 1\n", "README.md": "# app\n"})
    records = _install_recording_git(tmp_path, monkeypatch)
    for name, value in OUR_SECRETS.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("LC_CTYPE", "C.UTF-8")
    operator_config._read_carried.cache_clear()  # the operator's config is read once per process

    RepoMirror(tmp_path / "cache").sync(RepoSource(repo.url))
    scan_recency(RepoSource(str(repo.root)), work_dir=tmp_path / "work")
    with pytest.raises(GitSourceError):  # the forge refuses; what matters is what git sent and held
        scan_recency(RepoSource(fake_forge.url, token=TOKEN, provider="github"), timeout=30, work_dir=tmp_path)

    environments = _recorded(records)
    assert len(environments) >= 4, "not every git went through PATH"
    for environment in environments:
        held = {name for name, value in environment.items() if any(s in value for s in OUR_SECRETS.values())}
        assert held == set()
        assert environment["PATH"] == os.environ["PATH"]
        assert environment["HOME"] == os.environ["HOME"]
    with_config = [environment for environment in environments if "GIT_CONFIG_COUNT" in environment]
    assert len(with_config) >= 3
    assert all(environment["LC_CTYPE"] == "C.UTF-8" for environment in environments)
    assert fake_forge.seen_headers, "git never reached the forge"
    assert fake_forge.seen_headers[0]["Authorization"].startswith("Basic ")
    operator_config._read_carried.cache_clear()


def test_the_ssh_agent_socket_goes_only_to_a_git_reaching_an_ssh_source(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSH_AUTH_SOCK", "/run/agent.sock")
    monkeypatch.setenv("https_proxy", "http://proxy.internal:3128")
    over_ssh = git_environment(RepoSource("git@example.com:org/repo.git"))
    over_https = git_environment(RepoSource("https://example.com/org/repo.git"))
    assert over_ssh["SSH_AUTH_SOCK"] == "/run/agent.sock"
    assert "SSH_AUTH_SOCK" not in over_https
    assert over_https["https_proxy"] == over_ssh["https_proxy"] == "http://proxy.internal:3128"
