"""Find candidate stale doc claims in a repository's history, for a person to read and label.

Usage:
    uv run --no-sync python bench/doc_claims/mine_candidates.py /work/.mirror/pallets+click/repo [--max-commits N]

A candidate is a name a maintainer's commit took out of a doc (a backticked name on a removed doc
line, not put back on an added line of the same file), which the repository's code no longer had at
the commit before (`git grep -w` over code files at the parent finds nothing) but had at some earlier
commit (`git log -S` over code files finds a commit that touched it). At the parent commit the doc
still made the claim and the code no longer backed it: the state to label it at.

This only proposes. Nothing it prints is a label until someone has read the doc line, the fixing
commit and the code at that state (see README.md).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import defaultdict

DOC_SPECS = ["*.md", "*.rst", "*.txt", "*.markdown"]
CODE_SPECS = ["*.py", "*.go", "*.js", "*.mjs", "*.cjs", "*.ts", "*.pyi"]
# A code span, not a reST link (`text <url>`_) nor a role's target text.
_TICKS = re.compile(r"(?<![`\w])``?([^`\n<>]{2,80}?)``?(?![_`])")
# Names that look like code: dotted, snake_case, camelCase, called, or a long flag.
_CODE_SHAPE = re.compile(r"[._]|\(|[a-z][A-Z]|^--?[a-z]")
_NAME = re.compile(r"--?[A-Za-z][\w-]+|[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*")
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_HISTORY_DOC = re.compile(r"(?i)(^|/)(changes|changelog|history|news|release|upgrad|migrat|whatsnew)[^/]*$")
_COMMON = frozenset(
    {"True", "False", "None", "self", "cls", "str", "int", "dict", "list", "return", "import", "from", "def", "class"}
)


def git(git_dir: str, *args: str, check: bool = True) -> str:
    result = subprocess.run(["git", "--git-dir", git_dir, *args], capture_output=True, check=check)
    return result.stdout.decode("utf-8", "replace")


def names_in(text: str) -> set[str]:
    out = set()
    for tick in _TICKS.findall(text):
        for name in _NAME.findall(tick):
            if len(name) >= 4 and name not in _COMMON and _CODE_SHAPE.search(tick):
                out.add(name)
    return out


def doc_changes(
    git_dir: str, max_commits: int
) -> list[tuple[str, str, str, str, dict[str, list[tuple[int, str]]], dict[str, str]]]:
    """(commit, parent, date, subject, removed lines per doc, added text per doc) of doc-editing commits."""
    log = git(
        git_dir,
        "log",
        "--no-merges",
        f"-n{max_commits}",
        "-p",
        "-U0",
        "--no-renames",
        "--format=@@@COMMIT %H %P%n%cI%n%s",
        "HEAD",
        "--",
        *DOC_SPECS,
    )
    commits = []
    for block in log.split("@@@COMMIT ")[1:]:
        header, _, body = block.partition("\n")
        ids = header.split()
        if len(ids) < 2:
            continue
        date, _, rest = body.partition("\n")
        subject, _, diff = rest.partition("\n")
        removed: dict[str, list[tuple[int, str]]] = defaultdict(list)
        added: dict[str, str] = defaultdict(str)
        path = None
        old_line = 0
        for line in diff.split("\n"):
            if line.startswith("--- "):
                path = line[6:] if line.startswith("--- a/") else None
            elif line.startswith("+++ "):
                continue
            elif (m := _HUNK.match(line)) is not None:
                old_line = int(m.group(1))
            elif path and line.startswith("-"):
                removed[path].append((old_line, line[1:]))
                old_line += 1
            elif path and line.startswith("+"):
                added[path] += line[1:] + "\n"
        commits.append((ids[0], ids[1], date, subject, removed, added))
    return commits


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("git_dir")
    parser.add_argument("--max-commits", type=int, default=600)
    args = parser.parse_args()
    git_dir = args.git_dir
    for commit, parent, date, subject, removed, added in doc_changes(git_dir, args.max_commits):
        # A name put back anywhere in the commit moved (a doc split, a format change): not a fix.
        kept = names_in("".join(added.values()))
        for doc, lines in removed.items():
            if _HISTORY_DOC.search(doc):
                continue  # changelogs record history; their names are not claims about today's code
            seen: set[str] = set()
            for line_no, text in lines:
                for name in names_in(text) - kept - seen:
                    seen.add(name)
                    leaf = name.lstrip("-").rsplit(".", 1)[-1]
                    if len(leaf) < 4:
                        continue
                    grep = subprocess.run(
                        ["git", "--git-dir", git_dir, "grep", "-q", "-w", "-F", leaf, parent, "--", *CODE_SPECS],
                        capture_output=True,
                        check=False,
                    )
                    if grep.returncode == 0:
                        continue  # the code at the parent still has it: not stale there
                    history = git(git_dir, "log", "-S", leaf, "--format=%h %cs %s", "-n1", parent, "--", *CODE_SPECS)
                    if not history.strip():
                        continue  # never in this repository's code: not a claim about it
                    row = {
                        "state": parent,
                        "doc": doc,
                        "line": line_no,
                        "name": name,
                        "fixed_by": commit[:12],
                        "fixed_at": date,
                        "fix_subject": subject,
                        "code_last_touched": history.strip(),
                        "text": text.strip()[:200],
                    }
                    print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
