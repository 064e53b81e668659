"""The outdated check is bounded by the source it parses, not by a clock, and says where the bound cut it.

Two definitions lost a parameter the doc writes, after the doc's line. With a budget that holds only
the first old file (files are read in path order), the first claim is outdated, and the second stays
verified with evidence that says the budget left its old file unread; the same budget gives the same
findings on every run, since the cut counts bytes, whatever the machine's speed.
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

ALPHA_BEFORE = "def connect(host, retries=3):\n    return host\n"
BETA_BEFORE = "def listen(port, backlog=5):\n    return port\n"
DOC = (
    "Network\n=======\n\n"
    "Call :func:`acme.alpha.connect` with ``retries`` to try again.\n\n"
    "Call :func:`acme.beta.listen` with ``backlog`` to queue more.\n"
)


def _repo(root: Path) -> GitRepo:
    repo = GitRepo(root)
    repo.write("pyproject.toml", '[project]\nname = "acme"\n')
    repo.write("acme/__init__.py", "")
    repo.write("acme/alpha.py", ALPHA_BEFORE)
    repo.write("acme/beta.py", BETA_BEFORE)
    repo.write("docs/network.rst", DOC)
    repo.commit("Network and docs", date="2024-01-02T10:00:00+00:00")
    repo.write("acme/alpha.py", "def connect(host):\n    return host\n")
    repo.write("acme/beta.py", "def listen(port):\n    return port\n")
    repo.commit("connect tries once, listen queues nothing", date="2024-03-05T09:00:00+00:00")
    return repo


def _check(root: Path, budget: HistoryBudget) -> DocCheckReport:
    repo = open_history(root)
    snapshot = read_snapshot(repo)
    history = RepositoryHistory(repo, snapshot.doc_commits, budget=budget)
    return check_docs(snapshot.payloads, tree_paths=snapshot.paths, history=history)


def _by_target(report: DocCheckReport) -> dict[str, tuple[str, str]]:
    return {f.ref: (f.status, f.evidence) for f in report.findings if f.ref.endswith(("connect", "listen"))}


def test_the_source_budget_cuts_at_the_same_file_and_says_so(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    first_file_only = HistoryBudget(definition_source_bytes=len(ALPHA_BEFORE.encode()))
    found = _by_target(_check(repo.root, first_file_only))
    assert found["acme.alpha.connect"][0] == "outdated"
    assert "connect lost parameter retries on 2024-03-05" in found["acme.alpha.connect"][1]
    status, evidence = found["acme.beta.listen"]
    assert status == "verified"
    assert "budget of source the outdated check parses was spent" in evidence
    assert _by_target(_check(repo.root, first_file_only)) == found  # bytes decide, so every run agrees


def test_the_default_budget_compares_both(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    found = _by_target(_check(repo.root, HistoryBudget()))
    assert found["acme.alpha.connect"][0] == "outdated"
    assert found["acme.beta.listen"][0] == "outdated"
    assert "budget" not in found["acme.beta.listen"][1]
