"""The blame budget goes to the docs where a line's date can make an alarm, not to the first docs by path.

A repository whose blame budget reaches one doc: the first doc by path names a definition only by
what it still takes, the second writes a parameter the definition dropped after the line, and was
edited elsewhere later (so without blame its last commit, after the drop, would hide the change).
"""

from __future__ import annotations

from pathlib import Path

from sextant.doc_claims import check_docs
from sextant.doc_claims.judging.repository_history import RepositoryHistory
from sextant.doc_claims.report.summary import DocCheckReport
from sextant.doc_claims.sources.repository import read_snapshot
from sextant.gitsource.history_access import open_history
from sextant.gitsource.history_budget import HistoryBudget

from ..conftest import GitRepo

POOL_BEFORE = "def connect(host, retries=3):\n    return host\n\n\ndef close(pool):\n    return pool\n"
POOL_AFTER = "def connect(host):\n    return host\n\n\ndef close(pool):\n    return pool\n"
ABOUT_DOC = "About\n=====\n\n:func:`acme.pool.connect` takes a ``host``. So does :func:`acme.pool.close`.\n"
POOL_DOC = "Pools\n=====\n\nCall :func:`~acme.pool.connect` with ``retries`` to try again.\n"


def _check(root: Path, budget: HistoryBudget) -> DocCheckReport:
    repo = open_history(root)
    snapshot = read_snapshot(repo)
    history = RepositoryHistory(repo, snapshot.doc_commits, budget=budget)
    return check_docs(snapshot.payloads, tree_paths=snapshot.paths, history=history)


def _repo(root: Path) -> GitRepo:
    repo = GitRepo(root)
    repo.write("pyproject.toml", '[project]\nname = "acme"\n')
    repo.write("acme/__init__.py", "")
    repo.write("acme/pool.py", POOL_BEFORE)
    # First by path: its claims write only what the definitions still take.
    repo.write("docs/about.rst", ABOUT_DOC)
    repo.write("docs/pool.rst", POOL_DOC)
    repo.commit("Pools and docs", date="2024-01-02T10:00:00+00:00")
    repo.write("acme/pool.py", POOL_AFTER)
    repo.commit("connect tries once", date="2024-03-05T09:00:00+00:00")
    repo.write("docs/pool.rst", POOL_DOC + "\nSee also the guide.\n")
    repo.write("docs/about.rst", ABOUT_DOC + "\nMore.\n")
    repo.commit("Docs: point to the guide", date="2024-04-01T09:00:00+00:00")
    return repo


def test_the_blame_budget_goes_to_a_doc_whose_claim_can_be_outdated(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    one_doc = HistoryBudget(blame_commits=3)  # three first-parent commits: one doc's blame
    found = next(f for f in _check(repo.root, one_doc).findings if f.doc == "docs/pool.rst")
    assert found.status == "outdated"
    assert found.changed is not None
    assert found.changed.startswith("connect lost parameter retries on 2024-03-05")
    assert "(doc line last changed 2024-01-02)" in found.changed


def test_a_doc_whose_claims_name_only_what_the_definitions_take_is_not_blamed(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    for budget in (HistoryBudget(blame_commits=3), HistoryBudget()):
        about = [f for f in _check(repo.root, budget).findings if f.doc == "docs/about.rst"]
        assert about
        assert {f.status for f in about} == {"verified"}
