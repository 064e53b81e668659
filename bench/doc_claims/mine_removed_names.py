"""Find docs that still name a definition the code had removed, at one state, for a person to read.

Usage:
    uv run --no-sync python bench/doc_claims/mine_removed_names.py GIT_DIR COMMIT [--since 2015-01-01]

Starting from the code's history up to COMMIT (`git log -p` over code files), it collects every
definition name taken out of the code (a removed `def X` / `class X` / `func X` / `type X` /
`function X` / `obj.X = function` line), drops those still defined or still named anywhere in the code
at COMMIT (`git grep -w`), and lists every doc line at COMMIT that still names one (`git grep -w` over
Markdown and reST, changelogs left out). For each it also says which later commit changed that doc
line (the first commit after COMMIT whose version of the doc no longer has the name there), if any.

These are candidates only: each must be read (is it this repository's name, a history sentence, a
doc-local example name?) before it becomes a label (see README.md).
"""

from __future__ import annotations

import argparse
import re
import sys

from doc_mining import git, git_run, print_doc_lines_naming

CODE_SPECS = ["*.py", "*.go", "*.js", "*.mjs", "*.cjs", "*.ts"]
DOC_SPECS = ["*.md", "*.rst", "*.markdown"]
_SAMPLE_PATH = re.compile(r"(^|/)(docs?|examples?|tests?|testing|bench\w*|docs_src|__tests__|testdata)/|_test\.go$")
_DEFINITION = re.compile(
    r"^-\s*(?:async\s+def|def|class|func(?:\s*\([^)]*\))?|type|function|export\s+function|export\s+class)\s+"
    r"([A-Za-z_]\w{3,})"
    r"|^-\s*(?:[a-z]\w*\.)+([A-Za-z_]\w{3,})\s*=\s*function"
)


def removed_definitions(git_dir: str, commit: str, since: str) -> dict[str, str]:
    """Name → the commit (short id, date, subject) that last removed a definition line of it."""
    log = git(
        git_dir,
        "log",
        "--no-merges",
        f"--since={since}",
        "-p",
        "-U0",
        "--format=@@@%h %cs %s",
        commit,
        "--",
        *CODE_SPECS,
    )
    removed: dict[str, str] = {}
    header = ""
    sample = False
    for line in log.split("\n"):
        if line.startswith("@@@"):
            header = line[3:]
        elif line.startswith("--- "):
            # Names of docs' examples, tests and benchmarks are not the library's API.
            sample = bool(_SAMPLE_PATH.search(line))
        elif line.startswith("-") and not sample:
            match = _DEFINITION.match(line)
            if match:
                name = match.group(1) or match.group(2)
                removed.setdefault(name, header)  # log is newest first: keep the latest removal
    return removed


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("git_dir")
    parser.add_argument("commit")
    parser.add_argument("--since", default="2012-01-01")
    args = parser.parse_args()
    git_dir, commit = args.git_dir, args.commit
    for name, removal in sorted(removed_definitions(git_dir, commit, args.since).items()):
        still, _ = git_run(git_dir, "grep", "-q", "-w", "-F", name, commit, "--", *CODE_SPECS)
        if still == 0:
            continue
        found = {"name": name, "removed_from_code_by": removal}
        print_doc_lines_naming(git_dir, commit, name, DOC_SPECS, found, whole_word=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
