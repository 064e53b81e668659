"""Listing what a remote advertises (real git repositories over file:// and a loopback HTTP forge)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sextant.gitsource.access import RepoSource
from sextant.gitsource.remote_refs import RemoteUnreadableError, list_remote_refs

from ..conftest import GitRepo

TOKEN = "ghs_RemoteRefsSecret123"


def test_head_branches_and_tags_of_a_real_repository(git_repo: GitRepo) -> None:
    git_repo.write("a.py", "x = 1\n")
    head = git_repo.commit("one")
    git_repo.git("branch", "feature")
    git_repo.git("tag", "v1")
    remote = list_remote_refs(RepoSource(url=f"file://{git_repo.root}"), ["feature", "v1", "gone", head])
    assert remote.head == head
    assert remote.has_branch("feature")
    assert not remote.has_branch("gone")
    assert remote.resolves("v1")
    assert remote.resolves("refs/heads/main") is False  # not asked about, so not listed
    assert remote.resolves(head)  # a commit id cannot be checked remotely: accepted
    assert not remote.resolves("gone")


def test_an_empty_repository_has_no_head(tmp_path: Path) -> None:
    empty = GitRepo(tmp_path / "empty")
    assert list_remote_refs(RepoSource(url=f"file://{empty.root}")).head is None


def test_a_missing_repository_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(RemoteUnreadableError) as raised:
        list_remote_refs(RepoSource(url=f"file://{tmp_path / 'nowhere.git'}"))
    assert "does not appear to be a git repository" in str(raised.value)
    assert "\n" not in str(raised.value)


def test_a_refused_token_is_never_shown(fake_forge: Any) -> None:
    fake_forge.status = 404
    with pytest.raises(RemoteUnreadableError) as raised:
        list_remote_refs(RepoSource(url=fake_forge.url, token=TOKEN, provider="github"))
    assert "not found" in str(raised.value)
    assert TOKEN not in str(raised.value)
    assert any(h.get("Authorization", "").startswith("Basic ") for h in fake_forge.seen_headers)


def test_a_local_path_is_not_listed(git_repo: GitRepo) -> None:
    with pytest.raises(ValueError, match="local path"):
        list_remote_refs(RepoSource(url=str(git_repo.root)))
