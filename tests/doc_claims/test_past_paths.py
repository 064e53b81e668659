"""A path in prose that this repository's own tree once held is contradicted, with where the file went.

Shaped on celery's contributing guide, which kept pointing at `docs/configuration.rst` for years
after the page moved to `docs/userguide/configuration.rst`; the traps are shaped on mocha's docs,
which name `test/test.spec.js` (a path mocha's own tree held until 2017) as the reader's test file.
"""

from __future__ import annotations

from sextant.doc_claims import check_docs, check_repository
from sextant.doc_claims.judging.repository_history import RepositoryHistory
from sextant.doc_claims.report.fixes import suggest_fixes
from sextant.doc_claims.sources.repository import read_snapshot
from sextant.gitsource.history_access import open_history
from sextant.gitsource.history_budget import HistoryBudget

from ..conftest import GitRepo

GUIDE = """\
Contributing
============

If your feature adds settings, document them in :file:`docs/configuration.rst`, and their defaults in
:file:`acme/app/defaults.py`; the worker's options are in :file:`docs/workers.rst`.

The `old reference <docs/reference.rst>`_ is linked here.

Run ``acmetest test/test.spec.js`` against your own suite, and keep your project's :file:`setup.py` tidy.

The old page :file:`docs/tutorial.rst` was removed in 2.0.
"""


def _moved_pages(git_repo: GitRepo) -> None:
    git_repo.write("pyproject.toml", '[project]\nname = "acme"\n')
    git_repo.write("acme/__init__.py", '"""Acme."""\n')
    git_repo.write("acme/app/__init__.py", "")
    git_repo.write("acme/app/defaults.py", "DEFAULTS = {}\n")
    git_repo.write("docs/configuration.rst", "Configuration\n=============\n\nEvery setting.\n")
    git_repo.write("docs/tutorial.rst", "Tutorial\n========\n")
    git_repo.write("test/test.spec.js", "describe('acme', () => {});\n")
    git_repo.write("setup.py", "from setuptools import setup\nsetup()\n")
    git_repo.write("docs/workers.rst", "Workers\n=======\n")
    git_repo.write("docs/reference.rst", "Reference\n=========\n\nThe API, every entry.\n")
    git_repo.commit("Start", date="2016-01-04T10:00:00+00:00")
    git_repo.move("docs/configuration.rst", "docs/userguide/configuration.rst")
    git_repo.move("docs/reference.rst", "docs/api/reference.rst")
    git_repo.commit("Docs: move the configuration reference to the user guide", date="2016-07-09T10:00:00+00:00")
    for path in ("acme/app/defaults.py", "docs/tutorial.rst", "test/test.spec.js", "setup.py"):
        git_repo.remove(path)
    git_repo.write("acme/app/settings.py", "SETTINGS = {}\n")
    git_repo.commit("Settings replace defaults; drop setup.py", date="2017-06-04T10:00:00+00:00")
    git_repo.write("CONTRIBUTING.rst", GUIDE)
    git_repo.commit("Contributing guide", date="2020-01-02T10:00:00+00:00")


def test_a_moved_doc_page_and_a_removed_package_file_are_contradicted_the_readers_files_are_not(
    git_repo: GitRepo,
) -> None:
    _moved_pages(git_repo)

    report = check_repository(git_repo.root)
    by_ref = {f.ref: f for f in report.findings}
    moved = by_ref["docs/configuration.rst"]
    assert moved.status == "contradicted"  # before: unverifiable, "it may be the reader's own file"
    assert moved.evidence.startswith(
        "docs/configuration.rst was this repository's file until 2016-07-09; moved to"
        " docs/userguide/configuration.rst by "
    )
    assert moved.replacement == "docs/userguide/configuration.rst"
    assert moved.removed_at == "2016-07-09"
    deleted = by_ref["acme/app/defaults.py"]
    assert deleted.status == "contradicted"
    assert "deleted by" in deleted.evidence
    assert deleted.replacement is None  # a new file beside it is no rename
    assert by_ref["docs/workers.rst"].status == "verified"
    linked = by_ref["docs/reference.rst"]  # the head contradicts a broken link; history says where it went
    assert linked.status == "contradicted"
    assert linked.replacement == "docs/api/reference.rst"
    # The reader's files, though this repository once held the same paths; and a history sentence.
    assert by_ref["test/test.spec.js"].status == "unverifiable"
    assert by_ref.get("setup.py") is None or by_ref["setup.py"].status == "unverifiable"
    assert by_ref["docs/tutorial.rst"].status != "contradicted"
    # `--fix` puts the new path in place of the whole old one.
    diff = suggest_fixes(report.findings, {"CONTRIBUTING.rst": GUIDE})
    assert "+If your feature adds settings, document them in :file:`docs/userguide/configuration.rst`, and" in diff


def test_on_a_history_longer_than_its_budget_the_deletion_log_walks_only_the_newest_first_parent_commits(
    git_repo: GitRepo,
) -> None:
    # git/git: the log over its 82k commits took 7.5 s, half the history step. Past `older_commits`
    # it reads the newest `between_commits` first-parent commits; the 2016 move is older than one.
    _moved_pages(git_repo)
    repo = open_history(git_repo.root)
    snapshot = read_snapshot(repo)

    def moved(budget: HistoryBudget) -> str:
        history = RepositoryHistory(repo, snapshot.doc_commits, budget=budget)
        report = check_docs(snapshot.payloads, tree_paths=snapshot.paths, history=history)
        return next(f.status for f in report.findings if f.ref == "docs/configuration.rst")

    assert moved(HistoryBudget()) == "contradicted"
    assert moved(HistoryBudget(older_commits=3, between_commits=1)) == "unverifiable"
    assert moved(HistoryBudget(older_commits=3, between_commits=3)) == "contradicted"  # the move is 2 back
