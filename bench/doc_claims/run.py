"""Documentation Accuracy against a hand-labelled corpus: precision, recall and false alarms.

Usage:
    uv run --no-sync python bench/doc_claims/run.py [--mirrors /work/.mirror] [--repo owner/name]
        [--corpus all|main|outdated] [--alarms-out FILE] [--json FILE]

Two corpora are run, and their figures printed apart: the main one (states.jsonl / claims.jsonl,
or --states / --claims) and the outdated one (outdated_states.jsonl / outdated_claims.jsonl: doc
lines whose definition changed after they were written, stale or still true). Last come the
`outdated` figures over both: precision of `outdated`, recall of `stale-changed` claims, and the
false alarms on `1-outdated-file-dates` traps.

For every state in states.jsonl (a repository at a commit), the state is checked out under
bench/.work/ from the mirror the `fetch` tool made (see state_checkout), Sextant's doc-claim checker
runs on it, and its findings are matched to the labels in claims.jsonl by doc path, doc line and
name. Printed:

- precision of `contradicted` and of `outdated` over the alarms that carry a label (an alarm on a
  claim labelled stale is right, on one labelled ok is a false alarm), per claim kind;
- recall: the share of claims labelled stale that got an alarm (either status), per kind and per
  category, and how many got the expected status;
- per trap category: false alarms / labelled claims of that category (target: none above 2%);
- alarms per 1,000 claims checked;
- every alarm that matches no label: it has not been read, so it counts in no figure above; read it
  and add a label (the README says how).

The checker is reached through `sextant.doc_claims.check_repository(path, commit=...)` when the
library has it, else through `check_docs` on payloads built from the checkout exactly as the indexer
builds them. `--checker payloads` forces the second way.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from state_checkout import check_out, payloads_at

from sextant import doc_claims

HERE = Path(__file__).resolve().parent
WORK = HERE.parent / ".work"
ALARMS = frozenset({"contradicted", "outdated"})


@dataclass(frozen=True)
class Finding:
    """One checker finding, in the fields the corpus is matched on."""

    doc: str
    line: int
    ref: str
    kind: str
    status: str
    evidence: str


@dataclass
class Label:
    """One hand-read claim of the corpus."""

    repo: str
    commit: str
    doc: str
    line: int
    name: str
    kind: str
    label: str
    expected: str
    category: str
    reason: str
    matched: Finding | None = field(default=None, compare=False)


def load_jsonl(path: Path) -> list[dict[str, Any]]:
    """Rows of a jsonl file (blank lines and lines starting with // are skipped)."""
    rows = []
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        text = raw.strip()
        if not text or text.startswith("//"):
            continue
        try:
            rows.append(json.loads(text))
        except json.JSONDecodeError as error:
            raise SystemExit(f"{path}:{number}: {error}") from None
    return rows


def run_checker(checkout: Path, commit: str, repo: str, how: str) -> list[Finding]:
    """The checker's findings on one state, whichever entry point the library offers.

    Args:
        checkout: The state's work tree.
        commit: The state's commit.
        repo: owner/name (the repo key stamped on payloads).
        how: "auto" (check_repository when present), or "payloads" (always check_docs).

    Returns:
        Every finding, whatever its status.
    """
    entry = getattr(doc_claims, "check_repository", None)
    if how == "auto" and entry is not None:
        parameters = inspect.signature(entry).parameters
        report = entry(checkout, commit=commit) if "commit" in parameters else entry(checkout)
    else:
        report = doc_claims.check_docs(payloads_at(checkout, commit, repo.replace("/", "-")))
    raw = getattr(report, "findings", report)
    return [
        Finding(doc=f.doc, line=f.line, ref=f.ref, kind=f.kind, status=f.status, evidence=getattr(f, "evidence", ""))
        for f in raw
    ]


def _names_match(name: str, ref: str) -> bool:
    if name == ref:
        return True
    strip = "`'\"()[]<>* "
    a, b = name.strip(strip), ref.strip(strip)
    return a == b or (len(a) > 2 and a in b) or (len(b) > 2 and b in a)


def match(labels: list[Label], findings: list[Finding]) -> None:
    """Attach to each label the finding on its doc line and name (an alarm preferred, exact name first).

    A finding goes to one label only: labels whose name and kind equal the finding's are served first,
    so a label of a longer claim on the same line (`./svc.js help`) does not take a path's finding.
    """
    by_line: dict[tuple[str, int], list[Finding]] = defaultdict(list)
    for finding in findings:
        by_line[(finding.doc, finding.line)].append(finding)
    taken: set[int] = set()

    def exact(label: Label) -> bool:
        return any(f.ref == label.name and f.kind == label.kind for f in by_line.get((label.doc, label.line), []))

    for label in sorted(labels, key=lambda label: not exact(label)):
        candidates = [
            f
            for f in by_line.get((label.doc, label.line), [])
            if id(f) not in taken and _names_match(label.name, f.ref)
        ]
        if not candidates:
            continue
        candidates.sort(key=lambda f: (f.status not in ALARMS, f.kind != label.kind, f.ref != label.name, len(f.ref)))
        label.matched = candidates[0]
        taken.add(id(candidates[0]))


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}% ({part}/{whole})" if whole else "    - (0/0)"


def _missed_statuses(stale: list[Label]) -> dict[str, int]:
    """What the checker said of the stale claims it raised no alarm on, by status."""
    return dict(
        Counter(
            label.matched.status if label.matched else "not extracted"
            for label in stale
            if label.matched is None or label.matched.status not in ALARMS
        )
    )


def _report_suggestions(stale: list[Label], out: Any) -> dict[str, int]:
    """A name the code never had is a doc error, not a stale claim: how many are left unverifiable with a suggestion."""
    never = [label for label in stale if label.category == "stale-never-existed"]
    suggested = [
        label
        for label in never
        if label.matched is not None and label.matched.status not in ALARMS and "did you mean" in label.matched.evidence
    ]
    print(f"  stale-never-existed left unverifiable with a did-you-mean: {len(suggested)} of {len(never)}", file=out)
    return {"suggested": len(suggested), "never_existed": len(never)}


def report(labels: list[Label], findings_by_state: dict[tuple[str, str], list[Finding]], out: Any) -> dict[str, Any]:
    """Print the figures and return them as a dict (for --json)."""
    all_findings = [f for fs in findings_by_state.values() for f in fs]
    alarms = [f for f in all_findings if f.status in ALARMS]
    labelled_alarm_ids = {id(label.matched) for label in labels if label.matched is not None}
    stale = [label for label in labels if label.label == "stale"]
    ok = [label for label in labels if label.label == "ok"]
    figures: dict[str, Any] = {}

    print(
        f"states {len(findings_by_state)}, repos {len({r for r, _ in findings_by_state})}, "
        f"claims checked {len(all_findings)}, alarms {len(alarms)} "
        f"({1000 * len(alarms) / max(1, len(all_findings)):.1f} per 1,000 claims)",
        file=out,
    )
    print(f"labels {len(labels)}: stale {len(stale)}, ok {len(ok)}", file=out)
    figures["claims_checked"] = len(all_findings)
    figures["alarms"] = len(alarms)
    figures["alarms_per_1000"] = round(1000 * len(alarms) / max(1, len(all_findings)), 1)

    print("\nprecision over labelled alarms (unlabelled alarms are listed below, in no figure)", file=out)
    figures["precision"] = {}
    for status in ("contradicted", "outdated"):
        hits = [label for label in labels if label.matched is not None and label.matched.status == status]
        right = sum(label.label == "stale" for label in hits)
        unlabelled = sum(1 for f in alarms if f.status == status and id(f) not in labelled_alarm_ids)
        print(f"  {status:13} {_pct(right, len(hits))}   unlabelled alarms: {unlabelled}", file=out)
        figures["precision"][status] = {"right": right, "labelled": len(hits), "unlabelled": unlabelled}
        per_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for label in hits:
            per_kind[label.matched.kind if label.matched else label.kind][0] += label.label == "stale"
            per_kind[label.matched.kind if label.matched else label.kind][1] += 1
        for kind, (r, n) in sorted(per_kind.items()):
            print(f"      {kind:11} {_pct(r, n)}", file=out)

    print("\nrecall over claims labelled stale (alarm of either status; expected status in brackets)", file=out)
    figures["recall"] = {}
    for title, key in (("kind", lambda label: label.kind), ("category", lambda label: label.category)):
        groups: dict[str, list[Label]] = defaultdict(list)
        for label in stale:
            groups[key(label)].append(label)
        for name, group in sorted(groups.items()):
            found = sum(1 for label in group if label.matched is not None and label.matched.status in ALARMS)
            exact = sum(1 for label in group if label.matched is not None and label.matched.status == label.expected)
            print(f"  {title} {name:24} {_pct(found, len(group))}  [{exact} as expected]", file=out)
            figures["recall"][f"{title}:{name}"] = {"found": found, "exact": exact, "stale": len(group)}
    found = sum(1 for label in stale if label.matched is not None and label.matched.status in ALARMS)
    print(f"  all{'':30} {_pct(found, len(stale))}", file=out)
    figures["recall"]["all"] = {"found": found, "stale": len(stale)}
    # Names the code never had (doc typos) are stale, but a checker that only trusts the repository's own
    # history is designed to leave a bare one unverifiable: shown apart so both readings are visible.
    named_once = [label for label in stale if label.category != "stale-never-existed"]
    found_once = sum(1 for label in named_once if label.matched is not None and label.matched.status in ALARMS)
    print(f"  all but stale-never-existed{'':6} {_pct(found_once, len(named_once))}", file=out)
    figures["recall"]["all_but_never_existed"] = {"found": found_once, "stale": len(named_once)}
    print(f"  missed stale claims came out as: {_missed_statuses(stale)}", file=out)
    figures["recall"]["never_existed_suggested"] = _report_suggestions(stale, out)

    print("\nfalse alarms per category of claims labelled ok (target: none above 2%)", file=out)
    figures["false_alarms"] = {}
    groups = defaultdict(list)
    for label in ok:
        groups[label.category].append(label)
    for name, group in sorted(groups.items()):
        false = sum(1 for label in group if label.matched is not None and label.matched.status in ALARMS)
        extracted = sum(1 for label in group if label.matched is not None)
        print(f"  {name:26} {_pct(false, len(group))}  (extracted as a claim: {extracted})", file=out)
        figures["false_alarms"][name] = {"false": false, "labelled": len(group), "extracted": extracted}

    figures["per_state"] = _print_per_state(labels, findings_by_state, out)
    figures["unlabelled_alarms"] = _print_reading_lists(labels, findings_by_state, labelled_alarm_ids, out)
    return figures


def _print_per_state(
    labels: list[Label], findings_by_state: dict[tuple[str, str], list[Finding]], out: Any
) -> dict[str, dict[str, int]]:
    """Print, per state, claims checked, alarms, right alarms and stale claims found; return the same."""
    print("\nper state: claims checked, alarms, stale claims alarmed / stale claims labelled", file=out)
    rows: dict[str, dict[str, int]] = {}
    for (repo, commit), findings in findings_by_state.items():
        mine = [label for label in labels if (label.repo, label.commit) == (repo, commit)]
        alarmed = [label for label in mine if label.matched is not None and label.matched.status in ALARMS]
        row = {
            "claims": len(findings),
            "alarms": sum(f.status in ALARMS for f in findings),
            "right": sum(label.label == "stale" for label in alarmed),
            "stale": sum(label.label == "stale" for label in mine),
        }
        rows[f"{repo}@{commit[:10]}"] = row
        print(
            f"  {repo + '@' + commit[:10]:40} {row['claims']:5} {row['alarms']:4} {row['right']:4}/{row['stale']}",
            file=out,
        )
    return rows


def _print_reading_lists(
    labels: list[Label], findings_by_state: dict[tuple[str, str], list[Finding]], labelled: set[int], out: Any
) -> int:
    """Print the missed stale claims, the false alarms and the unlabelled alarms; return the count of the last."""
    stale = [label for label in labels if label.label == "stale"]
    misses = [label for label in stale if label.matched is None or label.matched.status not in ALARMS]
    print(f"\nmissed stale claims ({len(misses)}): what the checker said", file=out)
    for label in misses:
        said = f"{label.matched.status}: {label.matched.evidence}" if label.matched else "no claim extracted"
        where = f"{label.repo}@{label.commit[:10]} {label.doc}:{label.line}"
        print(f"  {where} {label.kind} {label.name!r} — {said}", file=out)

    wrong = [label for label in labels if label.label == "ok" and label.matched and label.matched.status in ALARMS]
    print(f"\nfalse alarms ({len(wrong)}): the alarm, and what the label says", file=out)
    for label in wrong:
        f = label.matched
        where = f"{label.repo}@{label.commit[:10]} {label.doc}:{label.line}"
        said = f"[{label.category}: {label.reason[:120]}]"
        print(f"  {where} {f.kind} {f.status} {f.ref!r} {said} — {f.evidence}", file=out)

    unlabelled = [
        (state, f)
        for state, fs in findings_by_state.items()
        for f in fs
        if f.status in ALARMS and id(f) not in labelled
    ]
    print(f"\nunlabelled alarms ({len(unlabelled)}): read each and label it", file=out)
    for (repo, commit), f in unlabelled:
        print(f"  {repo}@{commit[:10]} {f.doc}:{f.line} {f.kind} {f.status} {f.ref!r} — {f.evidence}", file=out)
    return len(unlabelled)


def run_corpus(
    states_path: Path, claims_path: Path, args: argparse.Namespace
) -> tuple[list[Label], dict[tuple[str, str], list[Finding]], list[str]]:
    """Check every state of one corpus and match its labels: (labels, findings per state, failed states)."""
    states = [s for s in load_jsonl(states_path) if not args.repo or s["repo"] in args.repo]
    wanted = {(s["repo"], s["commit"]) for s in states}
    labels = [
        Label(**{k: row[k] for k in Label.__dataclass_fields__ if k != "matched"})
        for row in load_jsonl(claims_path)
        if (row["repo"], row["commit"]) in wanted
    ]
    unknown = {(label.repo, label.commit) for label in labels} - wanted
    if unknown:
        raise SystemExit(f"labels at states not in {states_path}: {sorted(unknown)}")

    findings_by_state: dict[tuple[str, str], list[Finding]] = {}
    failed: list[str] = []
    seconds = 0.0
    for state in states:
        repo, commit = state["repo"], state["commit"]
        checkout = check_out(args.mirrors, args.work, repo, commit)
        started = time.perf_counter()
        try:
            findings = run_checker(checkout, commit, repo, args.checker)
        except Exception as error:  # one broken state must not hide the figures of the others
            failed.append(f"{repo}@{commit[:10]}: {type(error).__name__}: {error}")
            print(f"checker FAILED on {repo}@{commit[:10]}: {error}", file=sys.stderr)
            labels = [label for label in labels if (label.repo, label.commit) != (repo, commit)]
            continue
        seconds += time.perf_counter() - started
        findings_by_state[(repo, commit)] = findings
        match([label for label in labels if (label.repo, label.commit) == (repo, commit)], findings)
        alarms = sum(f.status in ALARMS for f in findings)
        print(f"checked {repo}@{commit[:10]}: {len(findings)} claims, {alarms} alarms", file=sys.stderr)
    print(f"checker time {seconds:.1f} s over {len(states)} states of {states_path.name}\n")
    for failure in failed:
        print(f"CHECKER FAILED (state and its labels left out of every figure): {failure}")
    return labels, findings_by_state, failed


def outdated_figures(labels: list[Label], out: Any) -> dict[str, Any]:
    """Print `outdated` precision, recall of `stale-changed` claims and the outdated-looking traps' false alarms."""
    alarmed = [label for label in labels if label.matched is not None and label.matched.status == "outdated"]
    right = sum(label.label == "stale" for label in alarmed)
    changed = [label for label in labels if label.category == "stale-changed"]
    found = sum(1 for label in changed if label.matched is not None and label.matched.status in ALARMS)
    exact = sum(1 for label in changed if label.matched is not None and label.matched.status == "outdated")
    traps = [label for label in labels if label.category == "1-outdated-file-dates"]
    false = sum(1 for label in traps if label.matched is not None and label.matched.status in ALARMS)
    print("\noutdated, over every corpus run", file=out)
    print(f"  precision of outdated      {_pct(right, len(alarmed))}", file=out)
    print(f"  recall of stale-changed    {_pct(found, len(changed))}  [{exact} as outdated]", file=out)
    print(f"  1-outdated-file-dates      {_pct(false, len(traps))} false alarms", file=out)
    return {
        "precision": {"right": right, "labelled": len(alarmed)},
        "recall": {"found": found, "exact": exact, "stale": len(changed)},
        "traps": {"false": false, "labelled": len(traps)},
    }


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"), help="folder of fetched mirrors")
    parser.add_argument("--states", type=Path, default=HERE / "states.jsonl")
    parser.add_argument("--claims", type=Path, default=HERE / "claims.jsonl")
    parser.add_argument("--outdated-states", type=Path, default=HERE / "outdated_states.jsonl")
    parser.add_argument("--outdated-claims", type=Path, default=HERE / "outdated_claims.jsonl")
    parser.add_argument(
        "--corpus",
        choices=("all", "main", "outdated"),
        default="all",
        help="main: --states/--claims; outdated: the outdated corpus; all: both, figures printed apart",
    )
    parser.add_argument("--work", type=Path, default=WORK, help="scratch folder for checkouts")
    parser.add_argument("--repo", action="append", help="only these repositories (owner/name)")
    parser.add_argument("--checker", choices=("auto", "payloads"), default="auto")
    parser.add_argument("--alarms-out", type=Path, help="write every alarm (labelled or not) as jsonl")
    parser.add_argument("--findings-out", type=Path, help="write every finding (any status) as jsonl")
    parser.add_argument("--json", type=Path, help="write the figures as JSON")
    args = parser.parse_args(list(argv) if argv is not None else None)

    corpora = []
    if args.corpus in {"all", "main"}:
        corpora.append(("main", args.states, args.claims))
    if args.corpus in {"all", "outdated"} and args.outdated_states.exists():
        corpora.append(("outdated", args.outdated_states, args.outdated_claims))
    figures: dict[str, Any] = {}
    every_label: list[Label] = []
    every_state: dict[tuple[str, str], list[Finding]] = {}
    for name, states_path, claims_path in corpora:
        labels, findings_by_state, failed = run_corpus(states_path, claims_path, args)
        print(f"=== corpus {name}: {states_path.name} / {claims_path.name}")
        figures[name] = report(labels, findings_by_state, sys.stdout)
        figures[name]["failed_states"] = failed
        print()
        every_label += labels
        every_state.update(findings_by_state)
    figures["outdated"] = outdated_figures(every_label, sys.stdout)
    if args.corpus == "main":
        figures = {**figures["main"], "outdated": figures["outdated"]}  # the shape earlier runs wrote
    if args.alarms_out is not None:
        with args.alarms_out.open("w") as out:
            for (repo, commit), fs in every_state.items():
                for f in fs:
                    if f.status in ALARMS:
                        row = {"repo": repo, "commit": commit, **f.__dict__}
                        out.write(json.dumps(row) + "\n")
    if args.findings_out is not None:
        with args.findings_out.open("w") as out:
            for (repo, commit), fs in every_state.items():
                for f in fs:
                    out.write(json.dumps({"repo": repo, "commit": commit, **f.__dict__}) + "\n")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
