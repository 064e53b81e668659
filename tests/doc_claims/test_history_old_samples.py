"""Old history is seen through its samples alone: a class that lived between two distant samples is still found."""

from __future__ import annotations

import subprocess

from sextant.doc_claims import check_repository
from sextant.gitsource.history_access import open_history
from sextant.gitsource.history_budget import HistoryBudget
from sextant.gitsource.history_definitions import find_past_definitions

from ..conftest import GitRepo

_DAY = 86_400


def _fast_import(git_repo: GitRepo, commits: list[tuple[str, dict[str, str | None]]], start: int) -> None:
    """Append commits to main in one `git fast-import` (thousands of real commits in well under a second).

    Each commit is a message and the files it writes (None deletes one); commit n is dated start + n days.
    """
    stream: list[str] = []
    for index, (message, files) in enumerate(commits):
        when = start + index * _DAY
        stream += [
            "commit refs/heads/main",
            f"committer Sextant Test <test@example.com> {when} +0000",
            f"data {len(message.encode())}",
            message,
        ]
        if index == 0:
            stream.append("from refs/heads/main^0")
        for path, text in files.items():
            if text is None:
                stream.append(f"D {path}")
            else:
                stream += [f"M 100644 inline {path}", f"data {len(text.encode())}", text]
        stream.append("")
    subprocess.run(
        ["git", "-C", str(git_repo.root), "fast-import", "--quiet"], input="\n".join(stream).encode(), check=True
    )
    git_repo.git("reset", "-q", "--hard", "main")


def _bumps(count: int, first: int) -> list[tuple[str, dict[str, str | None]]]:
    return [(f"Bump {n}", {"acme/version.py": f"VERSION = '0.{n}'\n"}) for n in range(first, first + count)]


def test_a_class_that_lived_between_two_old_powers_of_two_is_found_by_the_sample_between_them(
    git_repo: GitRepo,
) -> None:
    git_repo.write("acme/__init__.py", "")
    git_repo.write(
        "docs/routing.md",
        "# Routing\n\nEach static route is a `StaticRoute`; call `StaticRoute.url_for()` to build its URL.\n",
    )
    git_repo.commit("Start", date="2014-01-01T10:00:00+00:00")
    routes = "class StaticRoute:\n    def url_for(self):\n        return '/'\n"
    resources = "class StaticResource:\n    def url_for(self):\n        return '/'\n"
    history = [
        *_bumps(100, 0),
        ("Add static routes", {"acme/routes.py": routes}),
        *_bumps(1300, 100),
        ("Routes become resources", {"acme/routes.py": None, "acme/resources.py": resources}),
        *_bumps(2100, 1400),
    ]
    _fast_import(git_repo, history, start=1_400_000_000)
    # The class lived at first-parent depths 2,101-3,400: between the samples at 2,048 and 4,096 (the
    # root, at 3,501, is older), and beyond the 1,024 commits the pass between the samples reads.

    by_ref = {f.ref: f for f in check_repository(git_repo.root).findings}
    for ref in ("StaticRoute", "StaticRoute.url_for()"):
        assert by_ref[ref].status == "contradicted", by_ref[ref].evidence
        assert by_ref[ref].removed_by is not None
        assert by_ref[ref].removed_by.endswith("Routes become resources")
        assert by_ref[ref].evidence.startswith("defined in acme/routes.py until ")
    assert by_ref["StaticRoute"].replacement == "StaticResource"


def test_the_halfway_samples_are_taken_while_their_source_fits_their_own_work_budget(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/core.py", "def run():\n    pass\n" + "# a module of some size\n" * 100)
    git_repo.commit("Start", date="2014-01-01T10:00:00+00:00")
    routes = "class StaticRoute:\n    def url_for(self):\n        return '/'\n"
    history = [
        *_bumps(100, 0),
        ("Add static routes", {"acme/routes.py": routes}),
        *_bumps(1300, 100),
        ("Drop static routes", {"acme/routes.py": None}),
        *_bumps(2100, 1400),
    ]
    _fast_import(git_repo, history, start=1_400_000_000)
    repo = open_history(git_repo.root)

    roomy = find_past_definitions(repo, ["StaticRoute"], budget=HistoryBudget(halfway_source_bytes=64 * 1024))
    assert 3072 in roomy.depths  # ~2.5 KB of code in each tree: they fit
    assert roomy.found["StaticRoute"].removed_by is not None
    # A budget smaller than one tree's code leaves the halfway samples out (git/git's 21 MB trees past
    # the first), and with them the class only they held: the cost stays bounded, the look-up finds less.
    tight = find_past_definitions(repo, ["StaticRoute"], budget=HistoryBudget(halfway_source_bytes=1024))
    assert 1536 not in tight.depths
    assert 3072 not in tight.depths
    assert 2048 in tight.depths
    assert "StaticRoute" not in tight.found
