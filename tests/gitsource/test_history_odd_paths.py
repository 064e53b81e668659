"""The history look-ups on paths git quotes or splits badly, and on a root commit the log would hide."""

from __future__ import annotations

from sextant.gitsource.history_access import open_history
from sextant.gitsource.history_between import search_between_samples
from sextant.gitsource.history_definitions import code_pathspecs_among, diffs_naming, find_past_definitions
from sextant.gitsource.history_patches import commit_file_diffs
from sextant.gitsource.history_trees import last_commits

from ..conftest import GitRepo


def test_the_root_commits_files_have_a_last_commit_whatever_log_show_root_says(git_repo: GitRepo) -> None:
    git_repo.write("docs/guide.md", "# Guide\n")
    root = git_repo.commit("Start", date="2020-01-01T10:00:00+00:00")
    git_repo.write("acme/app.py", "VALUE = 1\n")
    git_repo.commit("Code", date="2020-01-02T10:00:00+00:00")
    git_repo.git("config", "log.showRoot", "false")  # the repository's own config; a user's would do the same

    commits = last_commits(open_history(git_repo.root), ["docs/guide.md", "acme/app.py"])

    assert commits["docs/guide.md"] == (root, "2020-01-01T10:00:00+00:00")
    assert set(commits) == {"docs/guide.md", "acme/app.py"}


def test_an_older_sample_grepped_in_its_changed_files_keeps_a_path_that_starts_with_a_newline(
    git_repo: GitRepo,
) -> None:
    # As in the changed-files test of test_history_definitions, but the file is "\nold.py" at the root:
    # reading diff-tree's -z output, or grep's rows, by lines would make it "old.py", which holds nothing.
    odd = "\nold.py"
    git_repo.write("acme/__init__.py", "")
    git_repo.write(odd, "def zz_legacy_parse(text):\n    return text\n")
    git_repo.commit("Start", date="2020-01-01T10:00:00+00:00")
    removal = ""
    for day in range(2, 41):
        if day == 5:
            git_repo.write(odd, "def parse(text):\n    return text\n")
        git_repo.write("acme/version.py", f"VERSION = {day}\n")
        sha = git_repo.commit(f"Commit {day}", date=f"2020-02-{day % 28 + 1:02d}T{day % 24:02d}:00:00+00:00")
        removal = sha if day == 5 else removal

    search = find_past_definitions(open_history(git_repo.root), ["zz_legacy_parse"], used={"parse"})

    found = search.found["zz_legacy_parse"]
    assert (found.path, found.defined) == (odd, True)
    assert found.removed_by is not None
    assert found.removed_by.sha == removal
    assert search.trees_whole == 1  # the older trees were grepped in their changed files only


def _lived_between_samples(git_repo: GitRepo, path: str) -> str:
    """20 commits (samples 8 and 16 back, and the root); `zz_short_lived` is defined in `path` from 5 to 10 only."""
    git_repo.write("acme/__init__.py", "")
    git_repo.commit("Start", date="2020-01-01T10:00:00+00:00")
    removal = ""
    for index in range(1, 21):
        if index == 5:
            git_repo.write(path, "def zz_short_lived(value):\n    return value\n")
        if index == 10:
            git_repo.write(path, "def other(value):\n    return value\n")
        git_repo.write("acme/version.py", f"VERSION = {index}\n")
        sha = git_repo.commit(f"Commit {index}", date=f"2020-02-{index:02d}T10:00:00+00:00")
        removal = sha if index == 10 else removal
    return removal


def test_the_pass_between_samples_reads_a_path_holding_space_b_slash_whole(git_repo: GitRepo) -> None:
    # `diff --git a/d b/x.py b/d b/x.py` read with `a/(.*) b/(.*)` gave "x.py".
    removal = _lived_between_samples(git_repo, "d b/x.py")
    repo = open_history(git_repo.root)
    search = find_past_definitions(repo, ["zz_short_lived"])
    assert "zz_short_lived" not in search.found  # no sampled tree holds it

    found = search_between_samples(repo, search).found["zz_short_lived"]

    assert found.path == "d b/x.py"
    assert found.removed_by is not None
    assert found.removed_by.sha == removal


def test_the_pass_between_samples_reads_a_path_git_quotes(git_repo: GitRepo) -> None:
    # A tab makes git quote the path ("a/acme/tab\there.py"), which `diff --git a/(.*) b/(.*)` never matched.
    removal = _lived_between_samples(git_repo, "acme/tab\there.py")
    repo = open_history(git_repo.root)
    search = find_past_definitions(repo, ["zz_short_lived"])

    found = search_between_samples(repo, search).found["zz_short_lived"]

    assert found.path == "acme/tab\there.py"
    assert found.removed_by is not None
    assert found.removed_by.sha == removal


def test_a_patch_is_read_file_by_file_with_each_path_whole_and_its_code_lines_only(git_repo: GitRepo) -> None:
    files = {
        "d b/x.py": "def gone():\n    pass\n",
        "acme/tab\there.py": "def tabbed():\n    pass\n",
        "acme/\u00e9t\u00e9.py": "def summer():\n    pass\n",
        "acme/script.lua": "-- a comment\nlocal gone = 1\n",
        "acme/blob.bin": b"\x00\x01gone\x00",
    }
    git_repo.commit_files("Add", files, date="2020-01-01T10:00:00+00:00")
    for path in files:
        git_repo.remove(path)
    git_repo.commit("Remove", date="2020-01-02T10:00:00+00:00")
    repo = open_history(git_repo.root)

    log = diffs_naming(repo, ["gone", "tabbed", "summer", "comment"], list(files), repo.head).decode()
    by_path = {
        path: (removed, added) for commit, path, removed, added in commit_file_diffs(log) if commit.sha == repo.head
    }

    assert by_path["d b/x.py"] == (["def gone():", "    pass"], [])
    assert by_path["acme/tab\there.py"] == (["def tabbed():", "    pass"], [])
    assert by_path["acme/\u00e9t\u00e9.py"] == (["def summer():", "    pass"], [])
    assert by_path["acme/script.lua"] == (["-- a comment", "local gone = 1"], [])  # "--- a comment" is code
    assert by_path.get("acme/blob.bin", ([], [])) == ([], [])  # a binary file has no lines to read


def test_the_pathspecs_a_stretch_needs_are_those_its_changed_paths_or_their_folders_end_with_in_any_case() -> None:
    changed = ["Documentation/git.adoc", "builtin/log.c", "t/t0001-init.sh", "LIB.RS", "tools/gen.py/README", "x.sh"]

    assert code_pathspecs_among(changed) == ("*.py", "*.rs", "*.c", "*.sh")
    assert code_pathspecs_among(["README.md", "po/de.po"]) == ()
