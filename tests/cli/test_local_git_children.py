"""The CLI's own git calls (checking a local repository, finding the current one) read it as gitsource does.

A repository on disk is untrusted and our environment holds secrets: the git these calls start gets
an allow-list of our variables (no provider key, chat token or bus password, no caller's GIT_DIR) and
nothing the repository's own config names runs (hooks, fsmonitor, pager, ssh command, a promisor
remote's upload-pack, diff and filter drivers). A recording ``git`` first on PATH shows what each git
really started with; a script the hostile config names writes a marker if it ever runs.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from sextant.cli.index_access import current_repository
from sextant.cli.repository_check import check_local_repository
from sextant.cli.usage_problem import UsageError

from ..conftest import GitRepo
from ..support.our_secrets import held_secrets, plant_our_secrets
from ..support.recording_git import install_recording_git, recorded_commands, recorded_environments

HOOKS = ("pre-commit", "post-checkout", "post-merge", "pre-auto-gc", "reference-transaction", "post-index-change")


def _hostile_partial_clone(tmp_path: Path) -> tuple[Path, str, Path]:
    """A blob-less clone whose config points every program it may name at a marker-writing script.

    Returns:
        (the clone, a commit its promisor remote has and it lacks, the marker file).
    """
    upstream = GitRepo(tmp_path / "upstream")
    upstream.commit_files("first", {"app.py": "print(1)\n", ".gitattributes": "* filter=planted diff=planted\n"})
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", "--no-local", "--filter=blob:none", str(upstream.root), str(clone)],
        check=True, capture_output=True,
    )  # fmt: skip
    missing = upstream.commit_files("later", {"app.py": "print(2)\n"})
    marker = tmp_path / "ran"
    script = tmp_path / "planted.sh"
    script.write_text(f'#!/bin/sh\necho "$0 $*" >> "{marker}"\nexec git-upload-pack "$@"\n')
    script.chmod(0o755)
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for hook in HOOKS:
        (hooks / hook).symlink_to(script)
    planted = {
        "core.fsmonitor": str(script), "core.hooksPath": str(hooks), "core.pager": str(script),
        "pager.rev-parse": str(script), "core.sshCommand": str(script), "core.askPass": str(script),
        "credential.helper": f"!{script}", "remote.origin.uploadpack": str(script), "gpg.program": str(script),
        "diff.external": str(script), "diff.planted.textconv": str(script), "filter.planted.process": str(script),
        "filter.planted.smudge": str(script), "filter.planted.clean": str(script), "core.editor": str(script),
    }  # fmt: skip
    for key, value in planted.items():
        subprocess.run(["git", "-C", str(clone), "config", key, value], check=True)
    return clone, missing, marker


def test_checking_a_local_repository_gives_git_no_secret_and_runs_none_of_its_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clone, missing, marker = _hostile_partial_clone(tmp_path)
    (clone / "sub").mkdir()
    plant_our_secrets(monkeypatch)
    records = install_recording_git(tmp_path, monkeypatch)

    check_local_repository(str(clone), branch="main", refs=["HEAD"])
    with pytest.raises(UsageError, match="has no commit"):  # the promisor remote has it: no fetch was tried
        check_local_repository(str(clone), refs=[missing])
    assert current_repository(clone / "sub") == clone.resolve()

    environments = recorded_environments(records)
    reads = [env for env, args in zip(environments, recorded_commands(records), strict=True) if "rev-parse" in args]
    assert len(reads) == 6, "every check went through git on PATH"
    assert [held_secrets(environment) for environment in environments] == [set()] * len(environments)
    for environment in reads:
        assert environment["GIT_ALLOW_PROTOCOL"] == ""  # read in place: no transport at all
        assert environment["GIT_CONFIG_GLOBAL"] == "/dev/null"
    assert not marker.exists(), marker.read_text()


def test_a_callers_git_dir_does_not_redirect_the_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Run from a git hook, sextant inherits GIT_DIR; the folder asked about is still the one checked.
    elsewhere = GitRepo(tmp_path / "elsewhere")
    elsewhere.commit_files("first", {"a.txt": "a\n"})
    plain = tmp_path / "plain"
    plain.mkdir()
    monkeypatch.setenv("GIT_DIR", str(elsewhere.root / ".git"))
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))

    with pytest.raises(UsageError, match="is not a git repository"):
        check_local_repository(str(plain))
    assert current_repository(plain) == plain.resolve()
