"""A check asked to judge the head alone treats a bare absent name as it does when history is unreadable."""

from __future__ import annotations

from sextant.doc_claims import check_repository
from sextant.doc_claims.pipeline import HISTORY_OFF

from ..conftest import GitRepo

DOC = """\
# Sessions

Call `open_session()` to start one. The old `create_legacy_session()` helper still works too.
Settings live in `app/settings.py`.
"""


def test_without_history_a_bare_absent_name_is_unverifiable_and_a_missing_path_contradicted(git_repo: GitRepo) -> None:
    git_repo.write("app/sessions.py", "def open_session() -> None:\n    pass\n")
    git_repo.write("README.md", DOC)
    head = git_repo.commit("sessions")

    report = check_repository(git_repo.root, commit=head, use_history=False)
    by_ref = {f.ref: f for f in report.findings}

    assert report.history_note == HISTORY_OFF
    assert by_ref["open_session()"].status == "verified"
    assert by_ref["create_legacy_session()"].status == "unverifiable"
    assert HISTORY_OFF in by_ref["create_legacy_session()"].evidence
    assert by_ref["app/settings.py"].status == "contradicted"  # a path needs no history to be missing
