"""`sextant analyze` on a repository known through a blob-less mirror reports the doc claims judged again.

A first run's history fetch follows its indexing, so the analysis printed first may judge doc claims
before the history is in; the command, waiting for the vectors anyway, also waits for the run's
DocClaimsRejudged and says what it changed. Whether the fetch ended before the first analysis
or after it depends on the machine, so both reports are accepted; what the stream holds at the end
does not depend on it.
"""

from __future__ import annotations

import json

import pytest

from sextant.cli.analyze_revision import NO_WAIT_REVISION_NOTE, FetchFollows, rejudged_line
from sextant.contracts import ChunksIndexed, DocClaimsRejudged, RepoRef

from ..conftest import GitRepo
from ..doc_claims.test_blobless_fallback import sessions_history
from ..support.events import event
from .conftest import SextantRunner


@pytest.mark.model
def test_analyze_reports_the_doc_claims_judged_again_and_show_prints_the_current_analysis(
    sextant: SextantRunner, git_repo: GitRepo
) -> None:
    sessions_history(git_repo)

    result = sextant("analyze", git_repo.url)

    revised = "doc claims revised with history: +1 contradicted" in result.stderr
    unchanged = "doc claims judged again with history: nothing changed" in result.stderr
    assert revised or unchanged, result.stderr
    if revised:
        assert "the revised analysis is now the current one" in result.stderr
    current = json.loads(sextant("show", git_repo.url, "--json").stdout)
    removed = next(claim for claim in current["doc_claims"] if claim["ref"] == "SyncSession()")
    assert removed["status"] == "contradicted"
    assert "Rename SyncSession to Session" in removed["removed_by"]


def rejudged(**fields: object) -> DocClaimsRejudged:
    return event(DocClaimsRejudged, RepoRef.for_url("https://example.com/a/b.git"), "run-1", "x", **fields)


def test_the_line_names_what_changed_or_why_nothing_did() -> None:
    before = {"verified": 3, "contradicted": 1, "outdated": 0, "unverifiable": 2}
    after = {"verified": 3, "contradicted": 3, "outdated": 0, "unverifiable": 0}
    assert rejudged_line(rejudged(revised=True, claims_before=before, claims_after=after)) == (
        "doc claims revised with history: +2 contradicted, -2 unverifiable"
    )
    same = rejudged(claims_before=before, claims_after=before, reason="the doc-claim findings are unchanged")
    assert rejudged_line(same) == "doc claims judged again with history: nothing changed"
    later = rejudged(reason="a later run indexed the repository since; its analysis reads the history")
    assert rejudged_line(later).startswith("doc claims not judged again: a later run")
    partial = rejudged(revised=True, claims_before=before, claims_after=after, history_note="budget reached")
    assert rejudged_line(partial).endswith("(history: budget reached)")
    searched = rejudged(
        revised=True, claims_before=before, claims_after=after, history_note="history read back to 2013"
    )
    assert rejudged_line(searched).endswith("(history read back to 2013)")  # not "(history: history read …)"


def test_no_wait_hears_whether_a_history_fetch_follows_and_waits_for_nothing_more() -> None:
    repo = RepoRef.for_url("https://example.com/a/b.git")
    watch = FetchFollows()
    assert watch.wanted([event(ChunksIndexed, repo, "run-1", "i")]) == ()
    assert not watch.follows
    assert watch.wanted([event(ChunksIndexed, repo, "run-1", "i", history_fetch_follows=True)]) == ()
    assert watch.follows
    assert "judged again once its history fetch ends, which may be after this command" in NO_WAIT_REVISION_NOTE


@pytest.mark.model
def test_analyze_no_wait_says_when_the_revision_can_come_and_show_says_what_it_prints(
    sextant: SextantRunner, git_repo: GitRepo
) -> None:
    sessions_history(git_repo)

    result = sextant("analyze", git_repo.url, "--no-wait")

    assert f"sextant: {NO_WAIT_REVISION_NOTE}" in result.stderr  # a first run of a blob-less mirror
    shown = sextant("show", git_repo.url)
    origin = next(line for line in shown.stderr.splitlines() if line.startswith("sextant: analysis of "))
    revised = "it revises the run's first analysis" in origin
    early = "judged without the whole history (see Provenance): a revision may follow" in origin
    assert revised or early, origin  # whether the reviser finished before the command stopped depends on the machine
    again = sextant("analyze", str(git_repo.root), "--no-wait")  # read in place: no fetch follows, nothing said
    assert NO_WAIT_REVISION_NOTE not in again.stderr
