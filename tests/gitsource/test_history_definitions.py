"""The history look-up on real repositories: definitions over uses, many names in one search, stretches."""

from __future__ import annotations

from sextant.gitsource.history_access import open_history
from sextant.gitsource.history_definitions import (
    _LANGUAGES,
    _SYMBOL_TEMPLATES,
    _each_an_e,
    _grep,
    _language_patterns,
    _parse_hits,
    find_past_definitions,
)

from ..conftest import GitRepo


def _history(git_repo: GitRepo) -> str:
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/net.py", "def zz_open_socket(host, port):\n    return host, port\n")
    git_repo.write("acme/app.py", "from acme.net import zz_open_socket\n\nSERVER = zz_open_socket('a', 1)\n")
    git_repo.commit("Add the socket helper", date="2020-01-02T10:00:00+00:00")
    for day in range(3, 20):  # ordinary history, so the sampled trees lie on both sides of the removal
        git_repo.write("acme/version.py", f"VERSION = {day}\n")
        git_repo.commit(f"Bump {day}", date=f"2020-02-{day:02d}T10:00:00+00:00")
    git_repo.write("acme/net.py", "def connect(host, port):\n    return host, port\n")
    git_repo.write("acme/app.py", "from acme.net import connect\n\nSERVER = connect('a', 1)\n")
    removal = git_repo.commit("Rename zz_open_socket to connect", date="2020-03-01T10:00:00+00:00")
    for day in range(2, 20):
        git_repo.write("acme/version.py", f"VERSION = {day + 100}\n")
        git_repo.commit(f"Bump {day + 100}", date=f"2020-03-{day:02d}T10:00:00+00:00")
    return removal


def test_a_name_the_head_still_uses_counts_only_where_it_was_defined(git_repo: GitRepo) -> None:
    _history(git_repo)
    repo = open_history(git_repo.root)

    # `host` is a parameter, then and now: with the head's uses known, its past uses are no news.
    assert "host" not in find_past_definitions(repo, ["host"], used={"host", "port"}).found
    assert find_past_definitions(repo, ["host"]).found["host"].defined is False  # a use, without that knowledge


def test_thousands_of_names_are_one_search_and_the_removal_is_found(git_repo: GitRepo) -> None:
    removal = _history(git_repo)
    repo = open_history(git_repo.root)
    names = [f"generatedName{n:05d}" for n in range(3000)] + ["zz_open_socket"]  # more than one pattern holds

    search = find_past_definitions(repo, names, used={"connect", "host", "port"})

    found = search.found["zz_open_socket"]
    assert (found.path, found.defined) == ("acme/net.py", True)
    assert found.removed_by is not None
    assert found.removed_by.sha == removal
    assert "connect" in found.added_by_removal
    assert set(search.found) == {"zz_open_socket"}
    assert search.note is None


def test_an_older_sample_is_searched_in_the_files_that_changed_since_and_still_finds_the_removal(
    git_repo: GitRepo,
) -> None:
    # 40 commits: the samples are 8, 16 and 32 commits back and the root. Only acme/old.py and
    # acme/version.py change between them, so below the newest sample each tree is grepped in
    # those files alone; the name lived only in old.py's early versions.
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/stable.py", "def kept_helper(value):\n    return value\n")
    git_repo.write("acme/old.py", "def zz_legacy_parse(text):\n    return text\n")
    git_repo.commit("Start", date="2020-01-01T10:00:00+00:00")
    removal = ""
    for day in range(2, 41):
        if day == 5:
            git_repo.write("acme/old.py", "def parse(text):\n    return text\n")
        git_repo.write("acme/version.py", f"VERSION = {day}\n")
        sha = git_repo.commit(f"Commit {day}", date=f"2020-02-{day % 28 + 1:02d}T{day % 24:02d}:00:00+00:00")
        removal = sha if day == 5 else removal
    repo = open_history(git_repo.root)

    search = find_past_definitions(repo, ["zz_legacy_parse", "never_defined_anywhere"], used={"parse"})

    found = search.found["zz_legacy_parse"]
    assert (found.path, found.defined) == ("acme/old.py", True)
    assert found.removed_by is not None
    assert found.removed_by.sha == removal
    assert "parse" in found.added_by_removal
    assert "never_defined_anywhere" not in search.found
    assert search.trees == 4
    assert search.trees_whole == 1  # the newest sample; the three older ones only in their changed files
    assert search.note is None


def test_the_repositorys_own_grep_and_diff_settings_do_not_hide_a_removal(git_repo: GitRepo) -> None:
    # Git reads the repository's config (and the user's): a column in grep's output, headers without a/ b/.
    removal = _history(git_repo)
    for key, value in [("grep.column", "true"), ("diff.noprefix", "true"), ("diff.interHunkContext", "10")]:
        git_repo.git("config", key, value)
    repo = open_history(git_repo.root)

    found = find_past_definitions(repo, ["zz_open_socket"], used={"connect", "host", "port"}).found["zz_open_socket"]

    assert (found.path, found.defined) == ("acme/net.py", True)
    assert found.removed_by is not None
    assert found.removed_by.sha == removal


def test_each_defining_form_is_its_own_grep_pattern_and_a_line_of_any_form_is_a_hit(git_repo: GitRepo) -> None:
    # One pattern per form lets PCRE start an anchored form only at line starts; the lines hit must be
    # those of every form: a definition, a symbol definition, a use of a name the head does not use.
    git_repo.write("lib/queue.c", "struct zz_batch {\n\tint fd;\n};\nint zz_use(void) { return zz_word; }\n")
    git_repo.write("lib/other.c", "static int zz_kept(void) { return 0; }\nstruct zz_use {\n\tint fd;\n};\n")
    head = git_repo.commit("Add queues", date="2020-01-02T10:00:00+00:00")
    repo = open_history(git_repo.root)
    templates, specs = _LANGUAGES[-1]  # C and the other languages without forms of their own

    patterns = _language_patterns(templates, ["zz_batch", "zz_use", "zz_word"], {"zz_batch"}, frozenset({"zz_use"}))
    out = _grep(repo, ["-P", *_each_an_e(patterns)], [head], specs)

    assert len(patterns) == len(templates) + len(_SYMBOL_TEMPLATES[templates]) + 1
    assert [(path, line) for _, path, line, _ in _parse_hits(out)] == [
        ("lib/other.c", 2),
        ("lib/queue.c", 1),
        ("lib/queue.c", 4),
    ]
