"""Among the checker's findings at a state, find the claims whose name the code once had and has lost.

Usage:
    uv run --no-sync python bench/doc_claims/mine_from_findings.py FINDINGS.jsonl [--mirrors /work/.mirror]

FINDINGS.jsonl is what `run.py --findings-out` writes. For every symbol, flag, env and config-key
finding that is not `verified`, the leaf name is looked for in the code at the state (`git grep -w`
over code files); when absent there, `git log -S` over code files up to the state says whether the
repository's code ever had it, and which commit last touched it. Printed: the candidates (name gone
from the code, present in its history), with the later commit that changed the doc line, if any.

Candidates only: each must be read (doc line, removing commit, the code at the state) before it is a
label (see README.md).
"""

from __future__ import annotations

import json
import re
import sys

from doc_mining import doc_changed_by, git_run, jsonl_rows_and_mirrors, mirror_git_dir

CODE_SPECS = ["*.py", "*.go", "*.js", "*.mjs", "*.cjs", "*.ts", "*.pyi"]
_LEAF = re.compile(r"[A-Za-z_][\w-]*$")


def main() -> int:
    findings, mirrors = jsonl_rows_and_mirrors("findings")
    for row in findings:
        if row["status"] == "verified" or row["kind"] in {"path", "cli"}:
            continue
        ref = str(row["ref"]).strip("`()*:")
        found = _LEAF.search(ref.rsplit(".", 1)[-1].lstrip("-"))
        if not found or len(found.group(0)) < 4:
            continue
        leaf = found.group(0)
        git_dir = mirror_git_dir(mirrors, str(row["repo"]))
        commit = str(row["commit"])
        code, _ = git_run(git_dir, "grep", "-q", "-w", "-F", leaf, commit, "--", *CODE_SPECS)
        if code == 0:
            continue
        _, history = git_run(git_dir, "log", "-S", leaf, "--format=%h %cs %s", "-n2", commit, "--", *CODE_SPECS)
        if not history.strip():
            continue
        later = doc_changed_by(git_dir, commit, leaf, str(row["doc"]))
        row.update({"leaf": leaf, "code_history": history.strip(), "doc_changed_by": later})
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
