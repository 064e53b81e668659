"""With no history to search (a blob-less clone), a bare absent name is not an alarm; firm claims still are.

The docs and code come from the repository's head, as the index holds them; the history is a real
blob-less clone of the same repository over file://, as the indexer's mirror is.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from sextant.doc_claims import RepositoryHistory, check_docs, check_repository
from sextant.doc_claims.sources.repository import read_snapshot
from sextant.gitsource.history_access import open_history

from ..conftest import GitRepo

DOC = (
    "# Sessions\n"
    "\n"
    "Create a `SyncSession()` with `make_session()`.\n"
    "The `NeverWritten` class handles retries.\n"
    "Call `acme.session.SyncPool` or `Session.close()`.\n"
    "Call `make_sesion()` to start.\n"
    "See [the guide](guide/missing.md) and [the logo](images/logo.png).\n"
)


def sessions_history(git_repo: GitRepo) -> None:
    git_repo.commit_files(
        "Add sessions",
        {
            "acme/__init__.py": '"""Sessions."""\n',
            "acme/session.py": "class SyncSession:\n    pass\n\n\ndef make_session():\n    return SyncSession()\n",
            "docs/sessions.md": DOC,
            "images/logo.png": b"\x89PNG\r\n\x1a\n\0\0",
        },
        date="2019-01-02T10:00:00+00:00",
    )
    git_repo.commit_files(
        "Rename SyncSession to Session",
        {"acme/session.py": "class Session:\n    pass\n\n\ndef make_session():\n    return Session()\n"},
        date="2019-05-11T10:00:00+00:00",
    )


def blobless_clone(git_repo: GitRepo, target: Path) -> Path:
    subprocess.run(
        ["git", "clone", "-q", "--bare", "--filter=blob:none", git_repo.url, str(target)],
        check=True,
        capture_output=True,
    )
    assert not (target / "objects" / "info" / "alternates").exists()
    return target


def test_without_history_a_bare_absent_name_is_unverifiable_and_firm_claims_stay_contradicted(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    sessions_history(git_repo)
    snapshot = read_snapshot(open_history(git_repo.root))
    mirror = open_history(blobless_clone(git_repo, tmp_path / "mirror.git"))
    assert mirror.partial

    report = check_docs(snapshot.payloads, history=RepositoryHistory(mirror))  # the mirror's tree, as the analyzer

    by_ref = {f.ref: f for f in report.findings}
    removed = by_ref["SyncSession()"]
    assert removed.status == "unverifiable"  # removed, in truth, but nothing here can tell it from another's name
    assert "absent at the head; history not searched: a blob-less clone" in removed.evidence
    assert removed.removed_by is None
    assert by_ref["NeverWritten"].status == "unverifiable"
    assert by_ref["acme.session.SyncPool"].status == "contradicted"  # a member of our module
    assert by_ref["Session.close()"].status == "contradicted"  # a member of our class
    slip = by_ref["make_sesion()"]  # one letter away from one of ours
    assert (slip.status, slip.replacement) == ("contradicted", "make_session")
    assert "absent at the head; did you mean make_session?" in slip.evidence
    assert by_ref["guide/missing.md"].status == "contradicted"  # the tree is there, blob-less too
    assert by_ref["images/logo.png"].status == "verified"  # in the tree, though no index holds it
    assert by_ref["make_session()"].status == "verified"
    assert report.history_note is not None
    assert "blob-less" in report.history_note


def test_read_in_place_the_same_names_are_judged_by_history(git_repo: GitRepo) -> None:
    sessions_history(git_repo)

    by_ref = {f.ref: f for f in check_repository(git_repo.root).findings}

    assert by_ref["SyncSession()"].status == "contradicted"
    assert by_ref["SyncSession()"].removed_by is not None
    assert by_ref["NeverWritten"].status == "unverifiable"
    assert "no past definition of NeverWritten" in by_ref["NeverWritten"].evidence
