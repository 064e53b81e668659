"""The sixth blind set's candidate states: doc-only commits that took out names the code at their parent lacked.

Usage:
    python bench/doc_claims/blind6_select_states.py OWNER/NAME [--mirrors /work/.mirror] [--since 2016-01-01]

For every doc-only commit (`blind5_doc_only_fixes.py`'s reading of the removed lines) whose parent
lies at least 183 days from every state of the same repository in every earlier corpus, blind 5
included (`select_common.py`), it prints the commit, its parent (the candidate state) and the
code-shaped names its removed lines held that the code at the parent lacked. It proposes and ranks
nothing: each fixing diff is read before its state is kept (README.md, "Sixth blind set").
It reads git history only, never the checker's output.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from blind5_doc_only_fixes import _DOC_FILE, removed_and_added
from doc_mining import git, mirror_git_dir
from mine_candidates import CODE_SPECS, names_in
from select_common import CORPORA, commit_date, earlier_dates, too_close


def names_gone(git_dir: str, parent: str, removed: list[str], added: str) -> list[str]:
    """Names on removed doc lines, not put back, whose leaf (4+ characters) the code at `parent` lacks."""
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
    return sorted(gone)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("repo")
    parser.add_argument("--mirrors", default="/work/.mirror")
    parser.add_argument("--since", default="2016-01-01")
    args = parser.parse_args()
    git_dir = mirror_git_dir(args.mirrors, args.repo)
    taken = earlier_dates(CORPORA)
    log = git(git_dir, "log", "--no-merges", f"--since={args.since}", "--format=@@@%H %P %cI %s", "--name-only", "HEAD")
    for block in log.split("@@@")[1:]:
        head, *names = block.strip().split("\n")
        files = [name for name in names if name]
        parts = head.split(" ", 3)
        if len(parts) < 4 or not files or not all(_DOC_FILE.search(name) for name in files):
            continue
        commit, parent, _, subject = parts
        if too_close(args.repo, commit_date(git_dir, parent), taken):
            continue
        removed, added = removed_and_added(git_dir, parent, commit, files)
        gone = names_gone(git_dir, parent, removed, added)
        if gone:
            row = {"repo": args.repo, "fix": commit[:10], "state": parent[:10], "subject": subject}
            print(json.dumps({**row, "date": commit_date(git_dir, parent).isoformat()[:10], "names": gone}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
