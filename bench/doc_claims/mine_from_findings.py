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

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

CODE_SPECS = ["*.py", "*.go", "*.js", "*.mjs", "*.cjs", "*.ts", "*.pyi"]
_LEAF = re.compile(r"[A-Za-z_][\w-]*$")


def git(git_dir: str, *args: str) -> tuple[int, str]:
    result = subprocess.run(["git", "--git-dir", git_dir, *args], capture_output=True, check=False)
    return result.returncode, result.stdout.decode("utf-8", "replace")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("findings", type=Path)
    parser.add_argument("--mirrors", default="/work/.mirror")
    args = parser.parse_args()
    for raw in args.findings.read_text().splitlines():
        row = json.loads(raw)
        if row["status"] == "verified" or row["kind"] in {"path", "cli"}:
            continue
        ref = row["ref"].strip("`()*:")
        found = _LEAF.search(ref.rsplit(".", 1)[-1].lstrip("-"))
        if not found or len(found.group(0)) < 4:
            continue
        leaf = found.group(0)
        git_dir = str(Path(args.mirrors) / row["repo"].replace("/", "+") / "repo")
        commit = row["commit"]
        code, _ = git(git_dir, "grep", "-q", "-w", "-F", leaf, commit, "--", *CODE_SPECS)
        if code == 0:
            continue
        _, history = git(git_dir, "log", "-S", leaf, "--format=%h %cs %s", "-n2", commit, "--", *CODE_SPECS)
        if not history.strip():
            continue
        _, later = git(
            git_dir, "log", "--format=%h %cs %s", "--reverse", f"{commit}..HEAD", "-S", leaf, "--", row["doc"]
        )
        row.update({"leaf": leaf, "code_history": history.strip(), "doc_changed_by": later.split("\n", 1)[0]})
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
