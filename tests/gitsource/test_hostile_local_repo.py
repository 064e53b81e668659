"""A local repository read in place runs nothing its own config asks for, and reaches no remote.

Each hostile repository is built for real: its config points every command-running setting git has
(promisor ``uploadpack``, ``core.sshCommand``, an ``ext::`` remote, ``core.fsmonitor``, hooks,
filters, ``textconv``, ``diff.external``) at a script that writes a marker file. Every read the
indexer, the reviewer and the recency scanner make is run on it; no marker may appear.
"""

from __future__ import annotations

import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest

from sextant.contracts import RepoRef
from sextant.gitsource import GitSourceError, RepoMirror, RepoSource, scan_recency
from sextant.gitsource.errors import UnsafeSourceError
from sextant.gitsource.repo_reference import LocalRepositoryRefusedError, source_for_repo

HOOKS = ("pre-auto-gc", "post-checkout", "reference-transaction", "post-index-change", "fsmonitor-watchman")


class Markers:
    """A script that records each time it runs, by name, in a folder the test watches."""

    def __init__(self, root: Path) -> None:
        self.folder = root / "markers"
        self.folder.mkdir()
        self.script = root / "evil.sh"
        self.script.write_text(f'#!/bin/sh\ntouch "{self.folder}/$1"\nexit 1\n')
        self.script.chmod(self.script.stat().st_mode | stat.S_IEXEC)

    def command(self, name: str) -> str:
        return f"{self.script} {name}"

    def fired(self) -> list[str]:
        return sorted(path.name for path in self.folder.iterdir())


def _git(*args: str, cwd: Path | None = None) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def _arm(repo: Path, markers: Markers, *, bare: bool) -> None:
    """Point every command-running setting of the repository's own config at the marker script."""
    settings = {
        "core.fsmonitor": markers.command("fsmonitor"),
        "core.sshCommand": markers.command("sshCommand"),
        "core.pager": markers.command("pager"),
        "core.editor": markers.command("editor"),
        "core.askPass": markers.command("askPass"),
        "core.alternateRefsCommand": markers.command("alternateRefsCommand"),
        "credential.helper": markers.command("credentialHelper"),
        "gpg.program": markers.command("gpg"),
        "log.showSignature": "true",
        "diff.external": markers.command("diffExternal"),
        "diff.evil.textconv": markers.command("textconv"),
        "diff.evil.command": markers.command("diffDriver"),
        "filter.evil.clean": markers.command("filterClean"),
        "filter.evil.smudge": markers.command("filterSmudge"),
        "filter.evil.process": markers.command("filterProcess"),
        "protocol.allow": "always",
        "protocol.file.allow": "always",
        "protocol.ext.allow": "always",
        "uploadpack.packObjectsHook": markers.command("packObjectsHook"),
        "gc.auto": "1",
        "core.hooksPath": str(repo / "evil-hooks"),
    }
    for key, value in settings.items():
        _git("config", key, value, cwd=repo)
    hooks = repo / "evil-hooks"
    hooks.mkdir()
    for hook in HOOKS:
        (hooks / hook).write_text(f"#!/bin/sh\n{markers.command('hook-' + hook)}\n")
        (hooks / hook).chmod(0o755)
    attributes = "* diff=evil filter=evil\n"
    info = (repo if bare else repo / ".git") / "info"
    info.mkdir(exist_ok=True)
    (info / "attributes").write_text(attributes)
    if not bare:
        (repo / ".gitattributes").write_text(attributes)


@pytest.fixture
def markers(tmp_path: Path) -> Markers:
    return Markers(tmp_path)


@pytest.fixture
def upstream(git_repo: Any) -> Any:
    git_repo.commit_files(
        "one", {"src/app.py": "def main():\n    return 1\n", "README.md": "# App\n"}, date="2025-01-01T00:00:00+00:00"
    )
    git_repo.commit_files("two", {"src/app.py": "def main():\n    return 2\n"}, date="2026-01-01T00:00:00+00:00")
    return git_repo


def _partial_clone(upstream: Any, dest: Path, *, url: str | None = None, uploadpack: str | None = None) -> Path:
    _git("clone", "-q", "--bare", "--filter=blob:none", upstream.url, str(dest))
    if url is not None:
        _git("config", "remote.origin.url", url, cwd=dest)
    if uploadpack is not None:
        _git("config", "remote.origin.uploadpack", uploadpack, cwd=dest)
    return dest


def _read_everything(path: Path, tmp_path: Path) -> list[str]:
    """Every read Sextant makes of a repository; returns the errors (each must be a clear one)."""
    source = RepoSource(str(path))
    mirror = RepoMirror(tmp_path / "cache", timeout=30)
    errors: list[str] = []
    try:
        state = mirror.sync(source)
        entries = mirror.list_tree(source, state.head_sha)
        first = _git("--git-dir", state.path, "rev-list", "--max-parents=0", "HEAD").strip()
        mirror.changed_paths(source, first, state.head_sha)
        mirror.diff(source, first, state.head_sha)
        mirror.read_blobs(source, [entry.blob_sha for entry in entries], 1 << 20)
    except GitSourceError as error:
        errors.append(str(error))
    try:
        scan_recency(source, timeout=30)
    except GitSourceError as error:
        errors.append(str(error))
    return errors


def test_promisor_uploadpack_of_a_partial_clone_never_runs(upstream: Any, markers: Markers, tmp_path: Path) -> None:
    hostile = _partial_clone(upstream, tmp_path / "hostile.git", uploadpack=markers.command("uploadpack"))
    errors = _read_everything(hostile, tmp_path)
    assert markers.fired() == []
    # The blobs are missing and in-place reads never fetch: a clear refusal, not a lazy fetch.
    assert errors
    assert all("in place" in error or "not in the local repository" in error for error in errors), errors


@pytest.mark.parametrize(
    "url",
    ["ssh://git@127.0.0.1:1/org/repo.git", "ext::sh -c touch% /tmp/never", "http://127.0.0.1:1/org/repo.git"],
)
def test_no_transport_at_all_from_an_in_place_read(upstream: Any, markers: Markers, tmp_path: Path, url: str) -> None:
    hostile = _partial_clone(upstream, tmp_path / "hostile.git", url=url)
    _arm(hostile, markers, bare=True)
    errors = _read_everything(hostile, tmp_path)
    assert markers.fired() == []
    assert errors


def test_config_driven_commands_never_run_on_a_full_work_tree(upstream: Any, markers: Markers, tmp_path: Path) -> None:
    _arm(upstream.root, markers, bare=False)
    upstream.write("src/app.py", "def main():\n    return 3\n")
    safe = ["-c", "core.hooksPath=/dev/null", "-c", "filter.evil.clean=cat", "-c", "filter.evil.process=",
            "-c", "core.fsmonitor=false", "-c", "gc.auto=0"]  # fmt: skip
    for args in (["add", "-A"], ["commit", "-q", "-m", "three"]):
        argv = ["git", "-C", str(upstream.root), *safe, *args]
        subprocess.run(argv, check=True, capture_output=True, stdin=subprocess.DEVNULL)
    markers_before = markers.fired()
    assert markers_before == []  # building the repository itself ran nothing
    errors = _read_everything(upstream.root, tmp_path)
    assert errors == []  # a complete repository reads fine in place
    assert markers.fired() == []


def test_local_paths_are_refused_unless_allowed(upstream: Any) -> None:
    repo = RepoRef.for_url(str(upstream.root))
    with pytest.raises(LocalRepositoryRefusedError, match="SEXTANT_ALLOW_LOCAL_REPOS"):
        source_for_repo(repo, token=None, allow_local=False)
    assert source_for_repo(repo, token=None, allow_local=True).url == str(upstream.root)
    # A URL is unaffected by the setting; a refused local path is an UnsafeSourceError like any other.
    remote = RepoRef.for_url(upstream.url, branch="main")
    assert source_for_repo(remote, token=None, allow_local=False).branch == "main"
    assert issubclass(LocalRepositoryRefusedError, UnsafeSourceError)


def test_source_for_repo_carries_token_and_provider() -> None:
    repo = RepoRef.for_url("https://github.com/acme/widgets.git", provider="github", branch="dev")
    source = source_for_repo(repo, token="t0ken", allow_local=False)
    assert (source.url, source.branch, source.token, source.provider) == (repo.url, "dev", "t0ken", "github")
    unknown = RepoRef.for_url("https://x.example/a.git", provider="sourceforge")
    with pytest.raises(UnsafeSourceError, match="provider"):
        source_for_repo(unknown, token=None, allow_local=False)
