"""The history look-ups stop by work done, never by time: a removal beyond the budget is unverifiable, and says why."""

from __future__ import annotations

from pathlib import Path

from sextant.doc_claims import check_docs
from sextant.doc_claims.judging.repository_history import RepositoryHistory
from sextant.doc_claims.report.summary import DocCheckReport
from sextant.doc_claims.sources.repository import read_snapshot
from sextant.gitsource.history_access import open_history
from sextant.gitsource.history_budget import HistoryBudget

from ..conftest import GitRepo

BIG = "".join(f"def helper_{n}(value):\n    return value + {n}\n\n\n" for n in range(600))  # ~24 KB of code


def _check(root: Path, budget: HistoryBudget) -> DocCheckReport:
    repo = open_history(root)
    snapshot = read_snapshot(repo)
    history = RepositoryHistory(repo, snapshot.doc_commits, budget=budget)
    return check_docs(snapshot.payloads, tree_paths=snapshot.paths, history=history)


def _finding(report: DocCheckReport, ref: str) -> tuple[str, str]:
    finding = next(f for f in report.findings if f.ref == ref)
    return finding.status, finding.evidence or ""


def test_a_class_removed_in_trees_past_the_source_budget_is_unverifiable_and_the_note_says_so(
    git_repo: GitRepo,
) -> None:
    # 40 commits: samples 8, 16 and 32 back and the root. The class lives only in the root's tree;
    # every sample holds ~24 KB of code (acme/big.py changes each commit, so each costs that much).
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/session.py", "class RetiredSession:\n    pass\n")
    git_repo.write("docs/guide.md", "# Guide\n\nOpen a `RetiredSession` first.\n")
    git_repo.commit("Start", date="2020-01-01T10:00:00+00:00")
    for index in range(1, 41):
        if index == 4:
            git_repo.write("acme/session.py", "class Session:\n    pass\n")
        git_repo.write("acme/big.py", BIG + f"VERSION = {index}\n")
        git_repo.commit(f"Commit {index}", date=f"2020-02-{index % 28 + 1:02d}T{index % 24:02d}:00:00+00:00")

    within = _finding(_check(git_repo.root, HistoryBudget()), "RetiredSession")
    beyond = _finding(_check(git_repo.root, HistoryBudget(source_bytes=30_000)), "RetiredSession")

    assert within[0] == "contradicted"
    assert within[1].startswith("defined in acme/session.py until 2020-02-")
    assert beyond[0] == "unverifiable"
    assert "history search covered the newest 1 of 4 sampled trees" in beyond[1]
    assert "more source than its work budget" in beyond[1]
    assert _check(git_repo.root, HistoryBudget(source_bytes=30_000)).history_note == (
        _check(git_repo.root, HistoryBudget(source_bytes=30_000)).history_note
    )  # the same cut on every run


def test_a_class_that_lived_between_samples_past_the_commit_budget_is_unverifiable_and_the_note_says_so(
    git_repo: GitRepo,
) -> None:
    # 20 commits: samples 8 and 16 back and the root. The class lives from commit 5 to 10 (10 to 15
    # commits back): no sample holds it, and the pass between the samples finds it in its second
    # stretch (8 to 16 commits back), which a budget of 8 commits does not reach.
    git_repo.write("acme/__init__.py", "")
    git_repo.write("docs/guide.md", "# Guide\n\nOpen a `ShortLivedPool` first.\n")
    git_repo.commit("Start", date="2020-01-01T10:00:00+00:00")
    for index in range(1, 21):
        if index == 5:
            git_repo.write("acme/pool.py", "class ShortLivedPool:\n    pass\n")
        if index == 10:
            git_repo.write("acme/pool.py", "class Pool:\n    pass\n")
        git_repo.write("acme/version.py", f"VERSION = {index}\n")
        git_repo.commit(f"Commit {index}", date=f"2020-02-{index:02d}T10:00:00+00:00")

    within = _finding(_check(git_repo.root, HistoryBudget(between_commits=16)), "ShortLivedPool")
    beyond = _finding(_check(git_repo.root, HistoryBudget(between_commits=8, older_commits=0)), "ShortLivedPool")

    assert within == ("contradicted", within[1])
    assert within[1].startswith("defined in acme/pool.py until 2020-02-10")
    assert beyond[0] == "unverifiable"
    assert "history between the sampled trees read back to 2020-02-12 (8 commits; its work budget is 8" in beyond[1]


def test_a_name_a_side_branch_defined_and_renamed_before_its_merge_is_found_in_the_older_history(
    git_repo: GitRepo,
) -> None:
    # aiohttp's `TCPConnector.dns_cache`: a branch added it and renamed it `use_dns_cache` the same
    # day, then was merged, so no first-parent diff and no sampled tree holds it. Past the first-parent
    # pass's 8 commits, one pass over every older commit's own diff finds it, within `older_commits`.
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/connector.py", "class Connector:\n    pass\n")
    git_repo.write("docs/guide.md", "# Guide\n\nCall `dns_cache()` to see the cache.\n")
    git_repo.commit("Start", date="2020-01-01T10:00:00+00:00")
    git_repo.git("checkout", "-q", "-b", "dns")
    git_repo.write("acme/connector.py", "class Connector:\n    def dns_cache(self):\n        return {}\n")
    git_repo.commit("cache_dns -> dns_cache", date="2020-01-02T10:00:00+00:00")
    git_repo.write("acme/connector.py", "class Connector:\n    def use_dns_cache(self):\n        return {}\n")
    git_repo.commit("Rename to use_dns_cache", date="2020-01-02T12:00:00+00:00")
    git_repo.git("checkout", "-q", "main")
    git_repo.git("merge", "-q", "--no-ff", "-m", "Merge dns", "dns", date="2020-01-03T10:00:00+00:00")
    for index in range(1, 21):
        git_repo.write("acme/version.py", f"VERSION = {index}\n")
        git_repo.commit(f"Commit {index}", date=f"2020-02-{index:02d}T10:00:00+00:00")

    read = _finding(_check(git_repo.root, HistoryBudget(between_commits=8)), "dns_cache()")
    unread = _finding(_check(git_repo.root, HistoryBudget(between_commits=8, older_commits=16)), "dns_cache()")

    assert read[0] == "contradicted"
    assert read[1] == (
        "defined in acme/connector.py until 2020-01-02; removed by "
        f"{git_repo.git('rev-parse', '--short=7', 'dns').strip()} 'Rename to use_dns_cache'; now use_dns_cache"
    )
    assert unread[0] == "unverifiable"  # 23 commits are more than its 16: the cut says where it stopped
    assert "history between the sampled trees read back to" in unread[1]


def test_a_vendored_project_s_old_class_is_not_the_other_package_s_name_a_sample_imports(git_repo: GitRepo) -> None:
    # celery once held `celerymon/`, a project with its own `class Site`; its docs' sample imports
    # Django's `Site`, and `celery/contrib/django/` makes `django` one of its package names.
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/fixups/django.py", "def fixup(app):\n    return app\n")
    git_repo.write("acme/contrib/django/__init__.py", "")
    git_repo.write("acme/contrib/django/task.py", "class DjangoTask:\n    pass\n")
    git_repo.write("docs/tasks.rst", "Tasks\n=====\n\nUse ``django.contrib.sites.models.Site`` for the domain.\n")
    git_repo.commit("Start", date="2010-01-01T10:00:00+00:00")
    git_repo.write("monitor/monitor/web.py", "class Site:\n    pass\n")
    git_repo.commit("Add monitor", date="2010-01-02T10:00:00+00:00")
    git_repo.remove("monitor/monitor/web.py")
    git_repo.commit("Removed monitor, moved elsewhere", date="2010-02-01T10:00:00+00:00")
    for index in range(1, 21):
        git_repo.write("acme/version.py", f"VERSION = {index}\n")
        git_repo.commit(f"Commit {index}", date=f"2020-02-{index:02d}T10:00:00+00:00")

    status, evidence = _finding(
        _check(git_repo.root, HistoryBudget(between_commits=8)), "django.contrib.sites.models.Site"
    )

    assert status == "unverifiable", evidence  # before: "defined in monitor/monitor/web.py until 2010-02-01"


def test_a_name_never_defined_stays_unverifiable_when_the_removal_pass_outgrows_its_output_budget(
    git_repo: GitRepo,
) -> None:
    # The removal pass reads the diffs that drop `RetiredSession`; an output budget smaller than they
    # are cuts it short. The doc's `acme.pages.LoginPage`, a sample project's class the code never had,
    # must not come out contradicted for that (before: contradicted, "(history search read only …)").
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/session.py", "class RetiredSession:\n    pass\n" + BIG)
    git_repo.write("docs/guide.md", "# Guide\n\nOpen a `RetiredSession`, then the `LoginPage()` class.\n")
    git_repo.commit("Start", date="2020-01-01T10:00:00+00:00")
    git_repo.write("acme/session.py", "class Session:\n    pass\n")
    git_repo.commit("Rename", date="2020-02-01T10:00:00+00:00")

    report = _check(git_repo.root, HistoryBudget(output_bytes=2_000))
    status, evidence = _finding(report, "LoginPage()")
    assert status == "unverifiable"
    assert "absent at the head and in the history read" in evidence
    assert "output budget" in evidence
