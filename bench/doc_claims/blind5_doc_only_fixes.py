"""Doc-only commits whose removed lines named something the code at their parent lacked, for a person to read.

Usage:
    python bench/doc_claims/blind5_doc_only_fixes.py OWNER/NAME [--mirrors /work/.mirror] [--since 2016-01-01]

For every commit since `--since` that touched only doc files (`.md`, `.rst`, `.txt`, `.markdown`,
`.mdx`) and whose date passes the fifth blind set's 183-day rule (`blind5_select_states.py`), it
takes the code-shaped names on the removed lines of non-changelog docs (`mine_candidates.names_in`),
keeps those not put back on an added line and whose leaf the code at the parent lacks (`git grep
-w`), and prints the commit, its parent (the candidate state) and those names. Unlike
`mine_candidates.py` it does not ask whether the code ever had the name, so doc typos fixed later
(`stale-never-existed`) show up too. It proposes; every row was read before it became a label.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from datetime import datetime

from blind5_select_states import EARLIER
from mine_candidates import _HISTORY_DOC, CODE_SPECS, names_in
from select_common import earlier_dates, too_close

_DOC_FILE = re.compile(r"\.(md|rst|txt|markdown|mdx)$")


def git(git_dir: str, *args: str) -> str:
    result = subprocess.run(["git", "--git-dir", git_dir, *args], capture_output=True, check=False)
    return result.stdout.decode("utf-8", "replace")


def removed_and_added(git_dir: str, parent: str, commit: str, files: list[str]) -> tuple[list[str], str]:
    """The removed lines of non-changelog docs, and all added text, of one commit."""
    removed: list[str] = []
    added = ""
    path = None
    for line in git(git_dir, "diff", "-U0", parent, commit, "--", *files).split("\n"):
        if line.startswith("--- "):
            path = line[6:] if line.startswith("--- a/") else None
        elif line.startswith("+++"):
            continue
        elif line.startswith("-") and path and not _HISTORY_DOC.search(path):
            removed.append(line[1:])
        elif line.startswith("+"):
            added += line[1:] + "\n"
    return removed, added


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("repo")
    parser.add_argument("--mirrors", default="/work/.mirror")
    parser.add_argument("--since", default="2016-01-01")
    args = parser.parse_args()
    git_dir = f"{args.mirrors}/{args.repo.replace('/', '+')}/repo"
    taken = earlier_dates(EARLIER)
    log = git(git_dir, "log", "--no-merges", f"--since={args.since}", "--format=@@@%H %P %cI %s", "--name-only", "HEAD")
    for block in log.split("@@@")[1:]:
        head, *names = block.strip().split("\n")
        files = [name for name in names if name]
        parts = head.split(" ", 3)
        if len(parts) < 4 or not files or not all(_DOC_FILE.search(name) for name in files):
            continue
        commit, parent, date, subject = parts
        if too_close(args.repo, datetime.fromisoformat(date), taken):
            continue
        removed, added = removed_and_added(git_dir, parent, commit, files)
        kept = names_in(added)
        gone = set()
        for text in removed:
            for name in names_in(text) - kept:
                leaf = name.lstrip("-").rsplit(".", 1)[-1]
                if len(leaf) < 4:
                    continue
                grep = subprocess.run(
                    ["git", "--git-dir", git_dir, "grep", "-q", "-w", "-F", leaf, parent, "--", *CODE_SPECS],
                    check=False,
                )
                if grep.returncode != 0:
                    gone.add(name)
        if gone:
            row = {"repo": args.repo, "fix": commit[:10], "state": parent[:10], "date": date[:10], "subject": subject}
            print(json.dumps({**row, "names": sorted(gone)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
