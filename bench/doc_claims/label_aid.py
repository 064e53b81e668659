"""Put next to each `outdated` alarm what a reader needs to judge it: did the definition itself change?

Usage:
    uv run --no-sync python bench/doc_claims/label_aid.py ALARMS.jsonl [--mirrors /work/.mirror] > AIDED.jsonl

ALARMS.jsonl is what `run.py --alarms-out` writes. For each `outdated` alarm whose evidence names a
definition (`defined in path:line (type Name)`), this finds the date the doc's line was last changed
(`git blame` at the state), the definition's declaration at the state, and the same declaration at
the last commit on or before that date, and prints both. An `outdated` alarm is real only when the
definition changed after the doc line (its signature, parameters, fields or members) in a way the
doc's sentence misstates; identical declarations are the first sign it is not, but the reader
still decides (a class's members can change under an unchanged `class` line).

Alarms of other kinds pass through with the doc line's text and date added, to be read by hand.
"""

from __future__ import annotations

import json
import re
import sys
from functools import cache

from doc_mining import git, jsonl_rows_and_mirrors, mirror_git_dir

_DEFINED = re.compile(r"defined in (?P<path>[^:\s]+):(?P<line>\d+) \((?P<type>\w+) (?P<name>[\w.]+)\)")


@cache
def blame_time(git_dir: str, commit: str, doc: str, line: int) -> tuple[int, str]:
    """Committer time and commit of the doc line's last change at the state."""
    out = git(git_dir, "blame", "--porcelain", "-L", f"{line},{line}", commit, "--", doc)
    sha = out.split(" ", 1)[0] if out else ""
    when = re.search(r"^committer-time (\d+)", out, re.MULTILINE)
    return (int(when.group(1)) if when else 0), sha


@cache
def file_at(git_dir: str, commit: str, path: str) -> list[str]:
    return git(git_dir, "show", f"{commit}:{path}").split("\n")


def declaration(lines: list[str], start: int) -> str:
    """The declaration starting at a 1-based line, up to its end (`:` or `{` closing it), whitespace-normalised."""
    out = []
    for text in lines[start - 1 : start + 15]:
        out.append(text.strip())
        joined = " ".join(out)
        if joined.endswith((":", "{")) and joined.count("(") == joined.count(")"):
            break
    return re.sub(r"\s+", " ", " ".join(out))


def find_declaration(lines: list[str], name: str) -> str | None:
    leaf = re.escape(name.rsplit(".", 1)[-1])
    pattern = re.compile(rf"^\s*(async\s+def|def|class|func(\s*\([^)]*\))?|function|type|const|let|var)\s+{leaf}\b")
    for number, text in enumerate(lines, 1):
        if pattern.search(text):
            return declaration(lines, number)
    return None


def aid(row: dict[str, object], mirrors: str) -> dict[str, object]:
    git_dir = mirror_git_dir(mirrors, str(row["repo"]))
    commit, doc, line = str(row["commit"]), str(row["doc"]), int(str(row["line"]))
    when, sha = blame_time(git_dir, commit, doc, line)
    row["doc_line_text"] = file_at(git_dir, commit, doc)[line - 1].strip()[:240] if line > 0 else ""
    row["doc_line_commit"] = sha[:10]
    row["doc_line_date"] = git(git_dir, "show", "-s", "--format=%cs", sha).strip() if sha else ""
    match = _DEFINED.search(str(row.get("evidence", "")))
    if row["status"] != "outdated" or match is None:
        return row
    path, def_line = match.group("path"), int(match.group("line"))
    now = declaration(file_at(git_dir, commit, path), def_line)
    then_commit = git(git_dir, "rev-list", "-1", f"--before={when}", commit).strip()
    then = find_declaration(file_at(git_dir, then_commit, path), match.group("name")) if then_commit else None
    row["declaration_now"] = now
    row["declaration_at_doc_date"] = then
    row["declaration_changed"] = then is None or then != now
    return row


def main() -> int:
    alarms, mirrors = jsonl_rows_and_mirrors("alarms")
    for alarm in alarms:
        print(json.dumps(aid(alarm, mirrors)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
