"""History-backed judging on real repositories: names the code once defined, and names it never did."""

from __future__ import annotations

import subprocess
from pathlib import Path

from sextant.doc_claims import check_repository
from sextant.gitsource.history_access import open_history
from sextant.gitsource.history_definitions import find_past_definitions

from ..conftest import GitRepo

OLD_SESSION = "class SyncSession:\n    def refresh(self) -> None:\n        pass\n"
NEW_SESSION = "class Session:\n    def refresh(self) -> None:\n        pass\n"
DOC = (
    "# Sessions\n"
    "\n"
    "Create a `SyncSession` and call `SyncSession.refresh()`.\n"
    "Then call `acme.session.Session.refresh()`.\n"
    "The `NeverWritten` class handles retries.\n"
)


def renamed_history(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/session.py", OLD_SESSION)
    git_repo.write("docs/sessions.md", DOC)
    git_repo.commit("Add sessions", date="2019-01-02T10:00:00+00:00")
    for day in range(3, 12):  # ordinary history between the doc and the rename
        git_repo.write("acme/util.py", f"VERSION = {day}\n")
        git_repo.commit(f"Bump {day}", date=f"2019-02-{day:02d}T10:00:00+00:00")
    git_repo.write("acme/session.py", NEW_SESSION)
    git_repo.commit("Rename SyncSession to Session", date="2019-05-11T22:30:00-04:00")
    for day in range(12, 22):
        git_repo.write("acme/util.py", f"VERSION = {day}\n")
        git_repo.commit(f"Bump {day}", date=f"2019-06-{day:02d}T10:00:00+00:00")


def test_a_renamed_class_is_contradicted_with_where_when_and_what_replaced_it(git_repo: GitRepo) -> None:
    renamed_history(git_repo)
    rename = git_repo.git("log", "--format=%h", "--grep=Rename").strip()

    report = check_repository(git_repo.root)

    by_ref = {f.ref: f for f in report.findings}
    stale = by_ref["SyncSession"]
    assert stale.status == "contradicted"
    assert stale.evidence == (
        f"defined in acme/session.py until 2019-05-11; removed by {rename} 'Rename SyncSession to Session'; now Session"
    )
    assert (stale.removed_by, stale.removed_at, stale.replacement) == (
        f"{rename} Rename SyncSession to Session",
        "2019-05-11",  # the committer's own day, not UTC's
        "Session",
    )
    assert by_ref["SyncSession.refresh()"].status == "contradicted"
    assert by_ref["acme.session.Session.refresh()"].status == "verified"
    never = by_ref["NeverWritten"]
    assert never.status == "unverifiable"  # no past definition: not evidence against the doc
    assert "no past definition of NeverWritten" in never.evidence
    assert report.history_note is None


def test_the_look_up_is_one_search_for_all_names_and_skips_partial_clones(git_repo: GitRepo, tmp_path: Path) -> None:
    renamed_history(git_repo)
    repo = open_history(git_repo.root)
    search = find_past_definitions(repo, ["SyncSession", "NeverWritten", "x"])
    assert set(search.found) == {"SyncSession"}
    assert search.searched == frozenset({"SyncSession", "NeverWritten"})  # too-short names are never looked up
    assert search.trees >= 2
    assert search.found["SyncSession"].removed_by is not None

    partial = tmp_path / "partial"  # a real blob-less clone of the same repository
    subprocess.run(
        ["git", "clone", "-q", "--bare", "--filter=blob:none", git_repo.url, str(partial)],
        check=True,
        capture_output=True,
    )
    skipped = find_past_definitions(open_history(partial), ["SyncSession"])
    assert skipped.found == {}
    assert "blob-less" in (skipped.note or "")


def test_a_removed_class_is_replaced_only_by_a_class_shaped_name(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/routes.py", "class PlainRoute:\n    def url(self):\n        return '/'\n")
    git_repo.write("docs/routing.md", "# Routing\n\nA fixed path is served by a `PlainRoute`.\n")
    git_repo.commit("Add routes", date="2019-01-02T10:00:00+00:00")
    git_repo.write(
        "acme/routes.py",
        "class UrlDispatcher:\n    pass\n\n\ndef router():\n    return UrlDispatcher()\n",
    )
    git_repo.commit("Routes become a dispatcher", date="2019-02-01T10:00:00+00:00")

    finding = next(f for f in check_repository(git_repo.root).findings if f.ref == "PlainRoute")
    assert finding.status == "contradicted"
    assert finding.removed_by is not None
    assert finding.removed_by.endswith("Routes become a dispatcher")
    # `router` was added by the removing commit and shares half its letters, but a function replaces no class.
    assert finding.replacement is None
    assert "; now " not in finding.evidence
