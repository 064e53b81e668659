"""Many names as one prefix-factored alternation: the same names match, in the greps of real history."""

from __future__ import annotations

import re

from sextant.gitsource.history_access import open_history
from sextant.gitsource.history_definitions import find_past_definitions
from sextant.gitsource.name_alternation import ere_alternation, name_alternation

from ..conftest import GitRepo


def test_the_alternation_matches_each_name_and_nothing_between_them() -> None:
    names = ["BATCH", "BATCHING", "BATCH_FILE", "gitx", "git", "a$b", "x" * 150]
    whole = re.compile(f"^{name_alternation(names)}$")

    assert all(whole.match(name) for name in names)
    assert not any(whole.match(text) for text in ["BATC", "BATCHI", "BATCH_", "gi", "ab", "a$", "x" * 149])


def test_names_sharing_a_prefix_are_each_found_where_their_past_code_defined_or_used_them(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "")
    jobs = "def load_batch(rows):\n    return rows\n\n\ndef load_batching(rows):\n    return rows\n"
    git_repo.write("acme/jobs.py", jobs)
    git_repo.write("lib/queue.c", "struct batch_file {\n\tint fd;\n};\nint use(void) { return batch_files; }\n")
    git_repo.commit("Add batches", date="2020-01-02T10:00:00+00:00")
    for day in range(3, 20):
        git_repo.write("acme/version.py", f"VERSION = {day}\n")
        git_repo.commit(f"Bump {day}", date=f"2020-02-{day:02d}T10:00:00+00:00")
    git_repo.write("acme/jobs.py", "def load(rows):\n    return rows\n")
    git_repo.write("lib/queue.c", "int use(void) { return 0; }\n")
    git_repo.commit("Drop the batch helpers", date="2020-03-01T10:00:00+00:00")
    for day in range(2, 12):
        git_repo.write("acme/version.py", f"VERSION = {day + 100}\n")
        git_repo.commit(f"Bump {day + 100}", date=f"2020-03-{day:02d}T10:00:00+00:00")
    repo = open_history(git_repo.root)

    search = find_past_definitions(
        repo, ["load_batch", "load_batching", "load_batchings", "batch_file", "batch_files"], used={"load"}
    )

    found = {name: (past.path, past.line, past.defined) for name, past in search.found.items()}
    assert found == {
        "load_batch": ("acme/jobs.py", 1, True),
        "load_batching": ("acme/jobs.py", 5, True),
        "batch_file": ("lib/queue.c", 1, True),
        "batch_files": ("lib/queue.c", 4, False),
    }


def test_the_extended_regex_alternation_matches_each_name_and_nothing_between_them_in_git(git_repo: GitRepo) -> None:
    # git's own POSIX engine (`git log -G` takes no PCRE), so the groups and escapes are read as git reads them.
    names = ["BATCH", "BATCHING", "BATCH_FILE", "gitx", "git", "a$b", "a.b", "x" * 150]
    others = ["BATC", "BATCHI", "BATCH_", "gi", "ab", "a$", "aXb", "x" * 149]
    git_repo.write("lines.txt", "".join(f"{text}\n" for text in names + others))
    head = git_repo.commit("Lines")

    out = git_repo.git("grep", "-h", "-E", "-e", f"^{ere_alternation(names)}$", head, "--", "lines.txt")

    assert out.splitlines() == names
