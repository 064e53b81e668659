"""Propose candidate `outdated` claims from history: doc lines a maintainer corrected after the definition changed.

Usage:
    uv run --no-sync python bench/doc_claims/mine_outdated.py fixes /work/.mirror/pallets+click/repo [--max-commits N]
    uv run --no-sync python bench/doc_claims/mine_outdated.py changes /work/.mirror/pallets+click/repo [--max-commits N]
    uv run --no-sync python bench/doc_claims/mine_outdated.py traps FINDINGS.jsonl [--mirrors /work/.mirror]
    uv run --no-sync python bench/doc_claims/mine_outdated.py lost-words /work/.mirror/aio-libs+aiohttp/repo

`fixes` reads the doc diffs of the repository's history. A candidate is a removed doc line that
names a callable or class `F` (`F(` or a code span) and another word `W` that the commit's added
lines of that hunk no longer hold, where at the commit's parent `P` this repository's code defines
`F` (a function, method or class) and `W` was a parameter of `F` (or a member or field of class
`F`) when the doc line was last written (`git blame` at `P`) but no longer is at `P`. At `P` the doc
line still said `W` and the definition had lost it: the state to label the claim at. Each row says
which commit wrote the line, what `F` looked like then and at `P`, and which commit fixed the doc.

`changes` starts from the code: commits whose function or method lost a parameter, and the doc
lines at that commit that still use the parameter within 12 lines of the definition's name, with
the first later commit that changed the doc for it (`doc_changed_by`; empty when none did).

`traps` reads the findings `run.py --findings-out` writes: for each `verified` symbol finding whose
evidence names a definition (`defined in path:line (type Name)`), it compares the definition's
parameters and members when the doc line was last written with those at the state and prints the
ones that changed. Those are the outdated-looking claims: a person reads each and labels it a trap
(`1-outdated-file-dates`) when the sentence still holds, or `stale-changed` when it does not.

`lost-words` is the narrow form of `fixes`: a removed doc line's signature words only (an API
directive's arguments, `w=` on a directive's continuation lines, a `:param w:` field), kept when no
code file at the commit's parent names `w` at all while the code at the line's blame commit did. It
finds far fewer candidates than `fixes`, and most of the real ones.

This only proposes. Nothing it prints is a label until someone has read the doc line, the fixing
commit and the definition at both dates (see README.md).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from doc_mining import HISTORY_DOC, git, git_run, mirror_git_dir

from sextant.doc_claims.judging.signatures import class_fields, parameter_names
from sextant.parsing import Symbol, decode_source, parse_symbols

DOC_SPECS = ["*.md", "*.rst", "*.txt", "*.markdown", "*.adoc"]
CODE_SPECS = ["*.py", "*.go", "*.js", "*.mjs", "*.cjs", "*.ts"]
_NOT_CODE = re.compile(r"(^|/)(tests?|testing|examples?|docs?|testdata|fixtures|vendor|node_modules|dist|build)/")
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_CALLED = re.compile(r"([A-Za-z_$][\w$]*)\s*\(")
_SPAN = re.compile(r"``?([^`\n]{1,120}?)``?")
_WORD = re.compile(r"[A-Za-z_$][\w$]*")
_DEFINED = re.compile(r"defined in (?P<path>[^:\s]+):(?P<line>\d+) \((?P<type>\w+) (?P<name>[\w.$]+)\)")
_COMMON = frozenset(
    [
        "self",
        "cls",
        "this",
        "None",
        "True",
        "False",
        "true",
        "false",
        "null",
        "undefined",
        "return",
        "import",
        "from",
        "def",
        "class",
        "function",
        "func",
        "new",
        "var",
        "let",
        "const",
        "str",
        "int",
        "dict",
        "list",
        "bool",
        "float",
        "bytes",
        "object",
        "type",
        "string",
        "error",
        "args",
        "kwargs",
        "options",
        "opts",
    ]
)
_CLASSES = frozenset({"class", "struct", "interface", "record"})
_CONSTRUCTORS = ("__init__", "constructor")


@dataclass(frozen=True)
class Shape:
    """What a definition declares: its parameter names, and for a class its members and fields."""

    parameters: frozenset[str]
    members: frozenset[str]
    declaration: str


@cache
def file_at(git_dir: str, commit: str, path: str) -> str | None:
    code, out = git_run(git_dir, "show", f"{commit}:{path}")
    return out if code == 0 else None


@cache
def symbols_at(git_dir: str, commit: str, path: str) -> tuple[Symbol, ...]:
    text = file_at(git_dir, commit, path)
    if text is None:
        return ()
    try:
        return tuple(parse_symbols(path, decode_source(text.encode())))
    except Exception:  # a file the parser cannot read is no candidate
        return ()


def shape_of(git_dir: str, commit: str, path: str, name: str) -> Shape | None:
    """The shape of the definition `name` (leaf or Class.member) in a file at a commit, or None."""
    symbols = symbols_at(git_dir, commit, path)
    leaf = name.rsplit(".", 1)[-1]
    parent = name.rsplit(".", 1)[0] if "." in name else None
    found = [s for s in symbols if s.name == leaf and (parent is None or s.parent == parent)]
    if not found:
        return None
    symbol = found[0]
    if symbol.symbol_type in _CLASSES:
        members = {s.name for s in symbols if s.parent == leaf and s.name}
        members |= class_fields(symbol.source)
        parameters: set[str] = set()
        for constructor in _CONSTRUCTORS:
            for s in symbols:
                if s.parent == leaf and s.name == constructor:
                    parameters |= set(parameter_names(s.signature, constructor) or ())
        return Shape(frozenset(parameters), frozenset(members - set(_CONSTRUCTORS)), symbol.signature.strip())
    parameters = set()
    for s in found:
        parameters |= set(parameter_names(s.signature, leaf) or ())
    return Shape(frozenset(parameters), frozenset(), " | ".join(s.signature.strip() for s in found))


def _shape_where_defined(git_dir: str, commit: str, path: str, name: str) -> Shape | None:
    """The definition's shape at a commit: in the same file, else wherever the code defined it then (files move)."""
    shape = shape_of(git_dir, commit, path, name)
    if shape is not None:
        return shape
    for other in definitions(git_dir, commit, {name.rsplit(".", 1)[-1]}).get(name.rsplit(".", 1)[-1], []):
        if (shape := shape_of(git_dir, commit, other, name)) is not None:
            return shape
    return None


@cache
def blame(git_dir: str, commit: str, doc: str, line: int) -> tuple[str, str]:
    """The commit that last wrote the doc line at `commit`, and its committer date."""
    out = git(git_dir, "blame", "--porcelain", "-L", f"{line},{line}", commit, "--", doc)
    sha = out.split(" ", 1)[0] if out else ""
    when = re.search(r"^committer-time (\d+)", out, re.MULTILINE)
    day = git(git_dir, "show", "-s", "--format=%cs", sha).strip() if sha and when else ""
    return sha, day


def definitions(git_dir: str, commit: str, names: set[str]) -> dict[str, list[str]]:
    """Name → code files (not tests, docs or examples) at the commit that define it, in one grep."""
    if not names:
        return {}
    leaves = {n.rsplit(".", 1)[-1]: n for n in names}
    alternation = "|".join(sorted(re.escape(n) for n in leaves))
    pattern = rf"^\s*(export\s+)?(async\s+)?(def|class|function|func(\s*\([^)]*\))?|type)\s+({alternation})\b"
    out = git(git_dir, "grep", "-n", "-P", pattern, commit, "--", *CODE_SPECS)
    found: dict[str, list[str]] = defaultdict(list)
    for hit in out.splitlines():
        _rev, path, _line, text = hit.split(":", 3)
        if _NOT_CODE.search(path):
            continue
        match = re.search(pattern, text)
        if match:
            for name in names:
                if name.rsplit(".", 1)[-1] == match.group(5) and path not in found[name]:
                    found[name].append(path)
    return found


def doc_hunks(git_dir: str, max_commits: int) -> list[tuple[str, str, str, str, str, list[tuple[int, str]], str]]:
    """(commit, parent, date, subject, doc, removed lines with old numbers, added text) per doc hunk."""
    log = git(
        git_dir,
        "log",
        "--no-merges",
        f"-n{max_commits}",
        "-p",
        "-U0",
        "--no-renames",
        "--format=@@@COMMIT %H %P%n%cs%n%s",
        "HEAD",
        "--",
        *DOC_SPECS,
    )
    hunks = []
    for block in log.split("@@@COMMIT ")[1:]:
        header, _, body = block.partition("\n")
        ids = header.split()
        if len(ids) != 2:
            continue
        date, _, rest = body.partition("\n")
        subject, _, diff = rest.partition("\n")
        path: str | None = None
        removed: list[tuple[int, str]] = []
        added: list[str] = []
        old_line = 0
        head = (ids[0], ids[1], date, subject)
        for line in diff.split("\n"):
            boundary = line.startswith("--- ") or _HUNK.match(line) is not None
            if boundary and path and removed:
                hunks.append((*head, path, removed, "\n".join(added)))
            if line.startswith("--- "):
                removed, added = [], []
                path = line[6:] if line.startswith("--- a/") else None
            elif line.startswith("+++ "):
                continue
            elif (m := _HUNK.match(line)) is not None:
                removed, added = [], []
                old_line = int(m.group(1))
            elif path and line.startswith("-"):
                removed.append((old_line, line[1:]))
                old_line += 1
            elif path and line.startswith("+"):
                added.append(line[1:])
        if path and removed:
            hunks.append((*head, path, removed, "\n".join(added)))
    return hunks


_KEYWORD = re.compile(r"[(,]\s*([A-Za-z_$][\w$]*)\s*=(?!=)")
_DIRECTIVE = re.compile(r"^\s*\.\. (?:py:)?(?:function|method|class|attribute)::(.*)$")


def code_words(text: str) -> set[str]:
    """Words a doc line writes as code: keyword arguments, words of code spans and API directives.

    A call example's positional arguments are the example's variables, so they count only inside an
    inline code span or a directive, where a call's shape is the signature the doc states.
    """
    words = set(_KEYWORD.findall(text))
    for span in _SPAN.findall(text):
        words |= set(_WORD.findall(span))
    if (directive := _DIRECTIVE.match(text)) is not None:
        words |= set(_WORD.findall(directive.group(1)))
    return {w for w in words if len(w) > 1 and w not in _COMMON}


def defined_anywhere(git_dir: str, commit: str, word: str) -> bool:
    """Whether the code at the commit defines or assigns the word as a name (a member moved elsewhere)."""
    pattern = (
        rf"^\s*((async\s+)?(def|class|function|func(\s*\([^)]*\))?)\s+{re.escape(word)}\b"
        rf"|(self\.|this\.)?{re.escape(word)}\s*[:=][^=])"
    )
    code, _ = git_run(git_dir, "grep", "-q", "-P", pattern, commit, "--", *CODE_SPECS)
    return code == 0


def named_definitions(text: str) -> set[str]:
    """Callables and code spans a doc line names (leaves of dotted names, three letters or more)."""
    names = set(_CALLED.findall(text))
    for span in _SPAN.findall(text):
        for word in re.findall(r"[\w.$]+", span):
            parts = [part for part in word.split(".") if part]
            if parts:
                names.add(".".join(parts[-2:]) if len(parts) > 1 and parts[-2][:1].isupper() else parts[-1])
    return {n for n in names if len(n.rsplit(".", 1)[-1]) >= 3 and n.rsplit(".", 1)[-1] not in _COMMON}


_WINDOW = 12
"""How far from the corrected line the doc is read for the definition it is about (the checker's reach)."""


def mine_fixes(git_dir: str, max_commits: int) -> None:
    by_commit: dict[str, list[tuple[str, str, str, str, list[tuple[int, str]], str]]] = defaultdict(list)
    for commit, parent, date, subject, doc, removed, added in doc_hunks(git_dir, max_commits):
        if not HISTORY_DOC.search(doc):
            by_commit[commit].append((parent, date, subject, doc, removed, added))
    for commit, hunks in by_commit.items():
        parent = hunks[0][0]
        windows = []
        for _parent, date, subject, doc, removed, added in hunks:
            gone = {w for _, text in removed for w in code_words(text)} - set(_WORD.findall(added))
            if not gone:
                continue
            lines = (file_at(git_dir, parent, doc) or "").split("\n")
            first, last = removed[0][0], removed[-1][0]
            window = {
                number: lines[number - 1]
                for number in range(max(1, first - _WINDOW), min(len(lines), last + _WINDOW) + 1)
            }
            windows.append((date, subject, doc, removed, gone, window))
        wanted = {name for *_, window in windows for text in window.values() for name in named_definitions(text)}
        defined = definitions(git_dir, parent, wanted)
        if not defined:
            continue
        for date, subject, doc, removed, gone, window in windows:
            for line_no, text in window.items():
                for name in sorted(named_definitions(text) & defined.keys()):
                    fixed = next((t for n, t in removed if gone & code_words(t)), removed[0][1])
                    context = Candidate(commit, parent, date, subject, doc, line_no, text, fixed)
                    _propose(git_dir, context, name, defined[name], gone)


@dataclass(frozen=True)
class Candidate:
    """A doc line naming a definition, near a line a later commit corrected."""

    commit: str
    parent: str
    date: str
    subject: str
    doc: str
    line: int
    text: str
    fixed_text: str


def _propose(git_dir: str, found: Candidate, name: str, paths: list[str], gone: set[str]) -> None:
    if not gone - {name}:
        return
    parent = found.parent
    written, written_day = blame(git_dir, parent, found.doc, found.line)
    if not written or written == parent:
        return
    for path in paths:
        now = shape_of(git_dir, parent, path, name)
        then = _shape_where_defined(git_dir, written, path, name)
        if now is None or then is None:
            continue
        lost = sorted(
            w
            for w in gone - {name}
            if (w in then.parameters and w not in now.parameters)
            or (w in then.members and w not in now.members and not defined_anywhere(git_dir, parent, w))
        )
        if not lost:
            continue
        changed_by = git(
            git_dir, "log", "--format=%h %cs %s", f"{written}..{parent}", "-G", r"\b" + lost[0] + r"\b", "--", path
        ).strip()
        row = {
            "state": parent,
            "doc": found.doc,
            "line": found.line,
            "name": name,
            "lost": lost,
            "path": path,
            "line_written": f"{written[:10]} {written_day}",
            "declaration_then": then.declaration[:200],
            "declaration_at_state": now.declaration[:200],
            "definition_changed_by": changed_by.split("\n")[-1] if changed_by else "",
            "doc_fixed_by": f"{found.commit[:10]} {found.date} {found.subject[:80]}",
            "text": found.text.strip()[:220],
            "fixed_line": found.fixed_text.strip()[:220],
        }
        print(json.dumps(row), flush=True)


_DEF_LINE = r"^[-+]\s*(export\s+)?(async\s+)?(def|function|func(\s*\([^)]*\))?)\s+\w+\s*\("


def mine_changes(git_dir: str, max_commits: int) -> None:
    """Code first: commits whose definitions lost a parameter, and the doc lines that still used it."""
    log = git(
        git_dir,
        "log",
        "--no-merges",
        f"-n{max_commits}",
        "--format=@@@COMMIT %H %P",
        "--name-only",
        "-G",
        _DEF_LINE[5:],
        "HEAD",
        "--",
        *CODE_SPECS,
    )
    for block in log.split("@@@COMMIT ")[1:]:
        header, _, names = block.partition("\n")
        ids = header.split()
        if len(ids) != 2:
            continue
        commit, parent = ids
        for path in (p for p in names.split("\n") if p.strip() and not _NOT_CODE.search(p)):
            before = {(s.parent, s.name): s for s in symbols_at(git_dir, parent, path) if s.name}
            after = {(s.parent, s.name): s for s in symbols_at(git_dir, commit, path) if s.name}
            for key, old in before.items():
                new = after.get(key)
                if new is None or old.symbol_type not in {"function", "method", "constructor"}:
                    continue
                lost = set(parameter_names(old.signature, old.name or "") or ()) - set(
                    parameter_names(new.signature, new.name or "") or ()
                )
                lost = {w for w in lost if len(w) > 2 and w not in _COMMON}
                if lost:
                    _docs_still_using(git_dir, commit, path, key, lost)


def _docs_still_using(git_dir: str, commit: str, path: str, key: tuple[str | None, str | None], lost: set[str]) -> None:
    """Doc lines at `commit` that use a lost parameter near the definition's name, and the later doc fix."""
    parent_name, name = key
    owner = name if name not in _CONSTRUCTORS else parent_name
    if not owner:
        return
    args = [a for w in sorted(lost) for a in ("-e", w)]
    hits = git(git_dir, "grep", "-n", "-w", *args, commit, "--", *DOC_SPECS)
    described = f"{commit[:10]} {git(git_dir, 'show', '-s', '--format=%cs %s', commit)[:80]}".strip()
    for hit in hits.splitlines():
        _rev, doc, line_no, text = hit.split(":", 3)
        if HISTORY_DOC.search(doc):
            continue
        lines = (file_at(git_dir, commit, doc) or "").split("\n")
        number = int(line_no)
        window = "\n".join(lines[max(0, number - 1 - _WINDOW) : number + _WINDOW])
        if not re.search(rf"\b{re.escape(owner)}\b", window):
            continue
        used = sorted(w for w in lost if re.search(rf"\b{re.escape(w)}\b", text))
        fixed = git(git_dir, "log", "--format=%h %cs %s", "--reverse", f"{commit}..HEAD", "-S", used[0], "--", doc)
        print(
            json.dumps(
                {
                    "code_commit": described,
                    "definition": f"{path} {parent_name or ''}.{name}",
                    "lost": used,
                    "doc": doc,
                    "line": number,
                    "text": text.strip()[:200],
                    "doc_changed_by": fixed.split("\n", 1)[0],
                }
            ),
            flush=True,
        )


def mine_traps(findings: Path, mirrors: str) -> None:
    for raw in findings.read_text().splitlines():
        row = json.loads(raw)
        match = _DEFINED.search(row.get("evidence", ""))
        if row.get("status") != "verified" or row.get("kind") != "symbol" or match is None:
            continue
        git_dir = mirror_git_dir(mirrors, row["repo"])
        written, written_day = blame(git_dir, row["commit"], row["doc"], int(row["line"]))
        if not written:
            continue
        path, name = match.group("path"), match.group("name")
        now = shape_of(git_dir, row["commit"], path, name)
        then = _shape_where_defined(git_dir, written, path, name)
        if now is None or then is None or now == then:
            continue
        text = (file_at(git_dir, row["commit"], row["doc"]) or "").split("\n")
        number = int(row["line"])
        window = set(_WORD.findall("\n".join(text[max(0, number - 1 - _WINDOW) : number + _WINDOW])))
        lost = (then.parameters - now.parameters) | (then.members - now.members)
        print(
            json.dumps(
                {
                    "repo": row["repo"],
                    "state": row["commit"],
                    "doc": row["doc"],
                    "line": row["line"],
                    "name": row["ref"],
                    "path": path,
                    "line_written": f"{written[:10]} {written_day}",
                    "lost_parameters": sorted(then.parameters - now.parameters),
                    "new_parameters": sorted(now.parameters - then.parameters),
                    "lost_members": sorted(then.members - now.members),
                    "lost_named_nearby": sorted(lost & window),
                    "declaration_then": then.declaration[:200],
                    "declaration_at_state": now.declaration[:200],
                    "text": text[int(row["line"]) - 1].strip()[:220] if int(row["line"]) <= len(text) else "",
                }
            ),
            flush=True,
        )


_API_DIRECTIVE = re.compile(
    r"^\s*\.\. (?:py:)?(?:auto)?(?:function|method|class|attribute|exception|decorator"
    r"|coroutinefunction|coroutinemethod|comethod|classmethod|staticmethod)::(.*)$"
)
_PARAM_FIELD = re.compile(r":param\s+(?:[\w.\[\], |]+\s+)?([A-Za-z_]\w*)\s*:")
_ASSIGNED = re.compile(r"([A-Za-z_]\w*)\s*=(?!=)")


def signature_words(text: str) -> set[str]:
    """Parameter names a doc line gives an API: directive arguments, `w=` of a continued signature, `:param w:`."""
    words = set(_PARAM_FIELD.findall(text))
    if (directive := _API_DIRECTIVE.match(text)) is not None:
        # the arguments only: a definition whose own name is gone lost no parameter
        words |= set(_WORD.findall(directive.group(1).partition("(")[2]))
    elif text.rstrip().endswith("\\"):
        words |= set(_ASSIGNED.findall(text))
    return {w for w in words if len(w) > 2 and w not in _COMMON}


@cache
def named_in_code(git_dir: str, commit: str, word: str) -> bool:
    """Whether any code file (not tests, docs or examples) at the commit has the word."""
    out = git(git_dir, "grep", "-l", "-w", "-F", word, commit, "--", *CODE_SPECS)
    return any(not _NOT_CODE.search(hit.split(":", 1)[-1]) for hit in out.splitlines())


def mine_lost_words(git_dir: str, max_commits: int) -> None:
    for commit, parent, date, subject, doc, removed, added in doc_hunks(git_dir, max_commits):
        if HISTORY_DOC.search(doc):
            continue
        kept = set(_WORD.findall(added))
        for number, text in removed:
            for word in sorted(signature_words(text) - kept):
                if named_in_code(git_dir, parent, word):
                    continue
                written, day = blame(git_dir, parent, doc, number)
                if not written or not named_in_code(git_dir, written, word):
                    continue
                row = {
                    "state": parent,
                    "doc": doc,
                    "line": number,
                    "lost": word,
                    "line_written": f"{written[:10]} {day}",
                    "doc_fixed_by": f"{commit[:10]} {date} {subject}",
                    "text": text.strip(),
                }
                print(json.dumps(row), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    fixes = sub.add_parser("fixes")
    fixes.add_argument("git_dir")
    fixes.add_argument("--max-commits", type=int, default=3000)
    changes = sub.add_parser("changes")
    changes.add_argument("git_dir")
    changes.add_argument("--max-commits", type=int, default=3000)
    lost = sub.add_parser("lost-words")
    lost.add_argument("git_dir")
    lost.add_argument("--max-commits", type=int, default=20000)
    traps = sub.add_parser("traps")
    traps.add_argument("findings", type=Path)
    traps.add_argument("--mirrors", default="/work/.mirror")
    args = parser.parse_args()
    if args.mode == "fixes":
        mine_fixes(args.git_dir, args.max_commits)
    elif args.mode == "changes":
        mine_changes(args.git_dir, args.max_commits)
    elif args.mode == "lost-words":
        mine_lost_words(args.git_dir, args.max_commits)
    else:
        mine_traps(args.findings, args.mirrors)
    return 0


if __name__ == "__main__":
    sys.exit(main())
