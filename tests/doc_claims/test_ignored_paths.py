"""Paths the repository's own .gitignore says are never committed are not contradicted by their absence."""

from __future__ import annotations

from sextant.doc_claims import check_docs, check_repository
from sextant.doc_claims.judging.ignored_paths import IgnoredPaths

from ..conftest import GitRepo
from .conftest import MakeChunk

GITIGNORE = "# build output\n/dist/\n\n*.log\n!docs/keep.log\n.work/\n/bench/out.js\n"

DOC = """\
# Building

Checkouts go to `bench/.work/`; the bundle is `bench/out.js`.
Debug output goes to `docs/debug.log`; kept notes are in `docs/keep.log`.
The HTML is written to `docs/generated/`.
The old entry point was `acme/cli_old.py`.
"""


def test_an_ignored_path_is_unverifiable_and_says_which_pattern(git_repo: GitRepo) -> None:
    git_repo.write(".gitignore", GITIGNORE)
    git_repo.write("docs/.gitignore", "generated/\n")
    git_repo.write("acme/__init__.py", "VERSION = '1.0'\n")
    git_repo.write("bench/run.py", "ROUNDS = 3\n")
    git_repo.write("docs/index.md", "See the README.\n")
    git_repo.write("README.md", DOC)
    head = git_repo.commit("docs")

    by_ref = {f.ref: f for f in check_repository(git_repo.root, commit=head).findings}

    # Each sits in a folder the tree holds, so only the ignore rules tell it is never committed.
    assert by_ref["bench/.work/"].status == "unverifiable"
    assert "`.work/` in .gitignore" in by_ref["bench/.work/"].evidence
    assert by_ref["bench/out.js"].status == "unverifiable"  # an anchored pattern
    assert by_ref["docs/debug.log"].status == "unverifiable"
    assert by_ref["docs/generated/"].status == "unverifiable"
    assert "docs/.gitignore" in by_ref["docs/generated/"].evidence  # the nested file's rule
    # Re-included by a later `!` pattern: the repository may commit it, so its absence counts.
    assert by_ref["docs/keep.log"].status == "contradicted"
    # Nothing ignores it: a file the code had is still a finding.
    assert by_ref["acme/cli_old.py"].status == "contradicted"


def test_indexed_gitignore_windows_serve_the_index_road(chunk: MakeChunk) -> None:
    payloads = [
        chunk(".gitignore", "/dist/\n*_local.py\n"),
        chunk(".gitignore", "!acme/kept_local.py\n", start_line=3),
        chunk("acme/__init__.py", "VERSION = '1.0'\n"),
        chunk("docs/index.md", "See the README.\n"),
        chunk("README.md", "Put overrides in `acme/dev_local.py`; defaults are in `acme/kept_local.py`.\n"),
    ]

    by_ref = {f.ref: f for f in check_docs(payloads).findings}

    assert by_ref["acme/dev_local.py"].status == "unverifiable"
    assert by_ref["acme/kept_local.py"].status == "contradicted"  # the later window's `!` is read in order


def test_git_semantics_of_the_rules() -> None:
    rules = IgnoredPaths({".gitignore": "build\n/only-root\n", "pkg/.gitignore": "!build\n"})

    assert rules.reason("build/") is not None
    assert rules.reason("src/build/out.o") is not None  # an unanchored pattern matches at any depth
    assert rules.reason("only-root/x") is not None
    assert rules.reason("src/only-root/x") is None  # a leading `/` anchors it to its file's folder
    assert rules.reason("pkg/build/") is None  # the deeper file re-includes it
    assert rules.reason("../outside") is None
    assert not IgnoredPaths({})


def test_a_pattern_the_tree_shows_is_not_kept_is_no_evidence(chunk: MakeChunk) -> None:
    # `lib/` from a language template, yet the repository commits files in acme/lib/: an absent file
    # there is as much a finding as anywhere else. A file matched on its own name still is not.
    payloads = [
        chunk(".gitignore", "lib/\n*.log\n"),
        chunk("acme/lib/kept.py", "VERSION = '1.0'\n"),
        chunk("docs/index.md", "See the README.\n"),
        chunk("README.md", "The parser was `acme/lib/old_parser.py`; its log is `acme/lib/parse.log`.\n"),
    ]

    by_ref = {f.ref: f for f in check_docs(payloads).findings}

    assert by_ref["acme/lib/old_parser.py"].status == "contradicted"
    assert by_ref["acme/lib/parse.log"].status == "unverifiable"
    assert "`*.log` in .gitignore" in by_ref["acme/lib/parse.log"].evidence


def test_only_a_tracked_folder_the_rules_ignore_lifts_them() -> None:
    rules = IgnoredPaths({".gitignore": "build/\n"}, tracked_folders={"src", "src/build"})

    assert rules.reason("src/build/gone.py") is None  # the tree holds src/build/ despite the rule
    assert rules.reason("build/gone.py") is not None  # no build/ is tracked at the root
    # A file ignored by its own name inside that folder is still never committed.
    by_name = IgnoredPaths({".gitignore": "build/\n*.log\n"}, tracked_folders={"build"})
    assert by_name.reason("build/run.log") is not None
