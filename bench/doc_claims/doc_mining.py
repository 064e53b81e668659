"""What the candidate miners and the label aid share: git at a mirror, the rows they read, the doc lines they print.

Imported by the scripts beside it (run as `python bench/doc_claims/<script>.py`, so this folder is on
`sys.path`).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path

HISTORY_DOC = re.compile(r"(?i)(^|/)(changes|changelog|history|news|release|upgrad|migrat|whatsnew)[^/]*$")


def git_run(git_dir: str, *args: str) -> tuple[int, str]:
    """Git's exit code and its output as text."""
    result = subprocess.run(["git", "--git-dir", git_dir, *args], capture_output=True, check=False)
    return result.returncode, result.stdout.decode("utf-8", "replace")


def git(git_dir: str, *args: str) -> str:
    return git_run(git_dir, *args)[1]


def mirror_git_dir(mirrors: str, repo: str) -> str:
    """The git directory of `owner/name`'s mirror below the mirrors folder."""
    return str(Path(mirrors) / repo.replace("/", "+") / "repo")


def doc_changed_by(git_dir: str, commit: str, term: str, doc: str) -> str:
    """The first commit after the state that added or took out `term` in the doc (short id, date, subject)."""
    later = git(git_dir, "log", "--format=%h %cs %s", "--reverse", f"{commit}..HEAD", "-S", term, "--", doc)
    return later.split("\n", 1)[0]


def jsonl_rows_and_mirrors(rows_argument: str) -> tuple[list[dict[str, object]], str]:
    """Parse `ROWS.jsonl [--mirrors DIR]` from the command line: the non-blank rows and the mirrors folder."""
    parser = argparse.ArgumentParser()
    parser.add_argument(rows_argument, type=Path)
    parser.add_argument("--mirrors", default="/work/.mirror")
    args = parser.parse_args()
    lines = getattr(args, rows_argument).read_text().splitlines()
    return [json.loads(raw) for raw in lines if raw.strip()], args.mirrors


def print_doc_lines_naming(
    git_dir: str,
    commit: str,
    term: str,
    doc_specs: list[str],
    found: dict[str, str],
    *,
    whole_word: bool = False,
    skip_doc: str | None = None,
) -> None:
    """Print a JSON row for each doc line at the state that names `term` (`git grep -F`), changelogs left out.

    `found` (what was looked for, and why) goes between the line's place and the later doc change.
    """
    flags = ["-n", "-w"] if whole_word else ["-n"]
    hits = git(git_dir, "grep", *flags, "-F", term, commit, "--", *doc_specs)
    for hit in hits.splitlines():
        _rev, doc, line_no, text = hit.split(":", 3)
        if HISTORY_DOC.search(doc) or doc == skip_doc:
            continue
        row = {
            "state": commit,
            "doc": doc,
            "line": int(line_no),
            **found,
            "doc_changed_by": doc_changed_by(git_dir, commit, term, doc),
            "text": text.strip()[:220],
        }
        print(json.dumps(row), flush=True)
