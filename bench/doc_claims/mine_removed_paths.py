"""Find doc lines that still name a file or folder the repository had deleted, at one state, for reading.

Usage:
    uv run --no-sync python bench/doc_claims/mine_removed_paths.py GIT_DIR COMMIT

Every path deleted by a commit up to COMMIT (`git log --diff-filter=D`) and absent from COMMIT's tree
is looked for, as written with its folder (`docs/examples/app.py`) or, for a root file, by its name
(`tox.ini`), in the Markdown, reST and text docs at COMMIT (`git grep -F`), changelogs left out. For
each hit it prints the deleting commit and the later commit that changed that doc line, if any.

Candidates only: a doc may name a path the reader creates, a file of another project, or say that the
file was removed; each must be read before it becomes a label (see README.md).
"""

from __future__ import annotations

import argparse
import sys

from doc_mining import git, print_doc_lines_naming

DOC_SPECS = ["*.md", "*.rst", "*.txt", "*.markdown"]
_MIN_NAME = 6


def deleted_paths(git_dir: str, commit: str) -> dict[str, str]:
    """Deleted path → the commit (short id, date, subject) that deleted it last."""
    log = git(git_dir, "log", "--no-renames", "--diff-filter=D", "--name-only", "--format=@@@%h %cs %s", commit)
    deleted: dict[str, str] = {}
    header = ""
    for line in log.split("\n"):
        if line.startswith("@@@"):
            header = line[3:]
        elif line.strip():
            deleted.setdefault(line.strip(), header)
    present = set(git(git_dir, "ls-tree", "-r", "--name-only", commit).split("\n"))
    folders = {p.rsplit("/", 1)[0] for p in present if "/" in p}
    return {p: h for p, h in deleted.items() if p not in present and p not in folders}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("git_dir")
    parser.add_argument("commit")
    args = parser.parse_args()
    git_dir, commit = args.git_dir, args.commit
    for path, removal in sorted(deleted_paths(git_dir, commit).items()):
        if len(path) < _MIN_NAME or path.endswith((".png", ".jpg", ".gif", ".svg", ".ico")):
            continue
        print_doc_lines_naming(git_dir, commit, path, DOC_SPECS, {"path": path, "deleted_by": removal}, skip_doc=path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
