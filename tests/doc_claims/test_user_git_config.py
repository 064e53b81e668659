"""The user's own git config (HOME, XDG_CONFIG_HOME) cannot change what the checks read from git."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from sextant.doc_claims import check_repository
from sextant.doc_claims.judging.definition_changes import line_commits
from sextant.gitsource.access import RepoSource, git_environment
from sextant.gitsource.history_access import in_place_environment, open_history
from sextant.gitsource.history_between import search_between_samples
from sextant.gitsource.history_definitions import find_past_definitions
from sextant.gitsource.history_trees import last_commits
from sextant.gitsource.recency import read_recency

from ..conftest import GitRepo

HOSTILE = """\
[diff]
\tnoprefix = true
\tmnemonicPrefix = true
\talgorithm = patience
\tcontext = 7
\tinterHunkContext = 9
\trenames = copies
[log]
\tshowRoot = false
\tdecorate = full
\tfollow = true
\tabbrevCommit = true
\tdate = relative
[color]
\tui = always
\tdiff = always
\tgrep = always
[blame]
\tignoreRevsFile = {ignored}
\tmarkIgnoredLines = true
[grep]
\tcolumn = true
\tfullName = true
\tpatternType = fixed
[core]
\tquotePath = false
\tabbrev = 5
\tattributesFile = {attributes}
[i18n]
\tlogOutputEncoding = ISO-8859-1
[format]
\tpretty = oneline
"""


def _history(git_repo: GitRepo) -> None:
    """A class renamed (with a non-ASCII subject), a parameter dropped after the doc, a doc written in the root."""
    git_repo.write("README.md", "# Acme\n\nCall `acme.pool.connect(host, retries=3)`.\n")
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/pool.py", "def connect(host, retries):\n    return host\n")
    git_repo.write("acme/session.py", "class SyncSession:\n    pass\n")
    git_repo.write("docs/sessions.md", "# Sessions\n\nCreate a `SyncSession` first.\n")
    git_repo.commit("Start", date="2019-01-02T10:00:00+00:00")
    for day in range(3, 14):
        git_repo.write("acme/util.py", f"VERSION = {day}\n")
        git_repo.commit(f"Bump {day}", date=f"2019-02-{day:02d}T10:00:00+00:00")
    git_repo.write("acme/session.py", "class Session:\n    pass\n")
    git_repo.commit("Rename SyncSession to Session (caf\u00e9)", date="2019-05-11T10:00:00+00:00")
    git_repo.write("acme/pool.py", "def connect(host):\n    return host\n")
    git_repo.commit("connect: no retries", date="2019-05-12T10:00:00+00:00")
    for day in range(14, 24):
        git_repo.write("acme/util.py", f"VERSION = {day}\n")
        git_repo.commit(f"Bump {day}", date=f"2019-06-{day:02d}T10:00:00+00:00")


def _outputs(root: Path) -> dict[str, object]:
    """Everything the checks read from git here, in comparable form."""
    repo = open_history(root)
    report = check_repository(root)
    search = find_past_definitions(repo, ["SyncSession"], used={"Session", "connect", "host"})
    search = search_between_samples(repo, search)
    head, dates, commits = read_recency(repo.git_dir, repo.head, env=in_place_environment(root))
    return {
        "findings": sorted((f.doc, f.line, f.ref, f.status, f.evidence or "") for f in report.findings),
        "past": {name: (p.path, p.removed_by) for name, p in search.found.items()},
        "last_commits": last_commits(repo, ["README.md", "docs/sessions.md"]),
        "blame": line_commits(repo, {"README.md": {3}, "docs/sessions.md": {3}}, max_docs=2),
        "recency": (head, dates, commits),
    }


def _home(tmp_path: Path, name: str, config: str) -> Path:
    home = tmp_path / name
    (home / ".config" / "git").mkdir(parents=True)
    (home / ".gitconfig").write_text(config, encoding="utf-8")
    (home / ".config" / "git" / "config").write_text(config, encoding="utf-8")
    return home


def test_a_hostile_global_config_changes_nothing_we_read(
    git_repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _history(git_repo)
    rename = git_repo.git("log", "--format=%H", "--grep=Rename").strip()
    start = git_repo.git("rev-list", "--max-parents=0", "HEAD").strip()
    clean = _home(tmp_path, "clean", "")
    monkeypatch.setenv("HOME", str(clean))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(clean / ".config"))
    expected = _outputs(git_repo.root)

    ignored = tmp_path / "ignored-revs"
    ignored.write_text(f"{start}\n{rename}\n", encoding="utf-8")
    attributes = tmp_path / "attributes"
    attributes.write_text("*.py -diff\n*.md -diff\n", encoding="utf-8")
    hostile = _home(tmp_path, "hostile", HOSTILE.format(ignored=ignored, attributes=attributes))
    monkeypatch.setenv("HOME", str(hostile))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(hostile / ".config"))
    shown = subprocess.run(
        ["git", "-C", str(git_repo.root), "show", rename], capture_output=True, check=True, env=dict(os.environ)
    ).stdout
    assert b"\x1b[" in shown  # the config is in force for a git that is not isolated: colour, no prefixes
    assert b"diff --git acme/session.py" in shown or b"Binary" in shown

    assert _outputs(git_repo.root) == expected
    contradicted = [f for f in expected["findings"] if f[2] == "SyncSession"]  # type: ignore[union-attr]
    assert contradicted[0][3] == "contradicted"  # the outputs compared say something
    assert "caf\u00e9" in contradicted[0][4]


def test_the_operators_safe_directory_and_proxy_settings_are_carried_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A container reading a repository its user does not own needs safe.directory; a proxy is the machine's.
    home = _home(
        tmp_path, "operator", "[safe]\n\tdirectory = /srv/repos/acme\n[http]\n\tproxy = http://proxy.example:3128\n"
    )
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))

    env = git_environment(RepoSource("/srv/repos/acme"))

    config = [
        (env[f"GIT_CONFIG_KEY_{index}"], env[f"GIT_CONFIG_VALUE_{index}"])
        for index in range(int(env["GIT_CONFIG_COUNT"]))
    ]
    assert ("safe.directory", "/srv/repos/acme") in config
    assert ("http.proxy", "http://proxy.example:3128") in config
    assert (env["GIT_CONFIG_GLOBAL"], env["GIT_CONFIG_NOSYSTEM"]) == ("/dev/null", "1")
    assert not any(key.startswith(("diff.", "color.", "user.")) for key, _ in config)  # nothing else of theirs


def _ignored_reformat(git_repo: GitRepo) -> str:
    """A doc line written in January, a parameter dropped in March, the line reworded in May: the May
    commit is the line's, so the line knows the change; a later edit elsewhere dates the doc in June."""
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/pool.py", "def connect(host, retries):\n    return host\n")
    git_repo.write("docs/pool.rst", "Pools\n=====\n\nCall :func:`acme.pool.connect` with ``retries``.\n")
    git_repo.write("docs/other.rst", "Other\n=====\n\nCall :func:`acme.pool.connect` with ``retries``.\n")
    git_repo.commit("Pools and docs", date="2024-01-02T10:00:00+00:00")
    git_repo.write("acme/pool.py", "def connect(host):\n    return host\n")
    git_repo.commit("connect tries once", date="2024-03-05T10:00:00+00:00")
    git_repo.write("docs/pool.rst", "Pools\n=====\n\nCall  :func:`acme.pool.connect` with ``retries``.\n")
    reworded = git_repo.commit("Docs: reword", date="2024-05-06T10:00:00+00:00")
    git_repo.write("docs/other.rst", "Other\n=====\n\nCall :func:`acme.pool.connect` with ``retries``.\n\nMore.\n")
    git_repo.commit("Docs: more", date="2024-06-07T10:00:00+00:00")
    return reworded


def _status(root: Path, doc: str) -> tuple[str, str]:
    found = next(f for f in check_repository(root).findings if f.doc == doc)
    return found.status, found.evidence or ""


def test_the_repositorys_own_ignore_revs_file_does_not_date_the_blamed_lines(git_repo: GitRepo) -> None:
    reworded = _ignored_reformat(git_repo)
    (git_repo.root / ".git" / "ignored-revs").write_text(f"{reworded}\n", encoding="utf-8")
    git_repo.git("config", "blame.ignoreRevsFile", str(git_repo.root / ".git" / "ignored-revs"))
    assert git_repo.git("blame", "-s", "-L", "4,4", "--", "docs/pool.rst").startswith("^")  # in force for git
    # Blamed as git's defaults do, the line is May's: written after the change, it is no alarm.
    assert _status(git_repo.root, "docs/pool.rst")[0] == "verified"


def test_a_relative_ignore_revs_file_of_the_repository_does_not_stop_blame(git_repo: GitRepo) -> None:
    _ignored_reformat(git_repo)
    git_repo.write(".git-blame-ignore-revs", "")
    git_repo.commit("Blame config", date="2024-06-08T10:00:00+00:00")
    git_repo.git("config", "blame.ignoreRevsFile", ".git-blame-ignore-revs")
    # Read from another folder, the relative path names no file; the doc's June commit would hide
    # that the other doc's January line lost `retries` in March.
    status, evidence = _status(git_repo.root, "docs/other.rst")
    assert status == "outdated"
    assert "connect lost parameter retries on 2024-03-05" in evidence
    assert "(doc line last changed 2024-01-02)" in evidence
