"""check_repository: a commit read straight from git, judged against its whole tree."""

from __future__ import annotations

from sextant.doc_claims import check_repository

from ..conftest import GitRepo

APP = '''\
class Session:
    """A session."""

    def refresh(self) -> None:
        """Extend it."""
'''


def test_a_commit_is_judged_against_its_own_tree_and_code(git_repo: GitRepo) -> None:
    git_repo.write("acme/session.py", APP)
    git_repo.write("scripts/deploy", "#!/bin/sh\necho deploy\n")
    git_repo.write(
        "README.md",
        "Call `Session.refresh()` after login.\n\nRun `scripts/deploy` to ship; see `acme/missing.py`.\n",
    )
    first = git_repo.commit("first")
    git_repo.write("README.md", "Nothing here.\n")
    git_repo.commit("later")

    report = check_repository(git_repo.root, commit=first)

    by_ref = {f.ref: f for f in report.findings}
    assert by_ref["Session.refresh()"].status == "verified"
    assert by_ref["scripts/deploy"].status == "verified"  # an extension-less script in the tree
    assert by_ref["acme/missing.py"].status == "contradicted"
    assert report.docs[0].doc == "README.md"
    assert report.docs[0].last_modified_at is not None
