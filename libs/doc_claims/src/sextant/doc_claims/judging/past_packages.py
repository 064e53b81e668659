"""Dotted names under a package this repository once had: a renamed or removed package is stale news.

`jinja.exceptions`, `jinja.datastructure.Context` and the `jinja.use_memcache` setting, written when
`jinja/` was this repository's package, point readers at a package that is gone (renamed to
`jinja2/`). At the head the root `jinja` is nobody's, so without history such a name would only be
"another library's, perhaps". The history tells: the commit that deleted the package's
`__init__.py` makes the claim contradicted, with the removal as evidence and, where one is close,
today's package as the replacement. Which roots ever were packages is read from the history
look-up's sampled trees (one path-limited `ls-tree` per sample), and the deleting commit from one
`git log --diff-filter=D` over the stretch of history after the newest sample holding the package,
limited to those paths: the cost grows with neither the number of names nor the history's length.

Only a package at the top of the repository or of its `src/` or `lib/` folder counts: a deeper
folder of the same name was a sub-package, which a doc's dotted name would not start with. A module
of one of today's packages works the same way (`aiohttp.websocket.MSG_CLOSE` when `aiohttp/` has no
`websocket` module any more): the commit that deleted `aiohttp/websocket.py` is the evidence, for
the claims history found no removed definition for.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections import defaultdict
from collections.abc import Iterable, Sequence

from sextant.doc_claims.claims.claim import Claim
from sextant.doc_claims.judging.checking import Resolution
from sextant.doc_claims.judging.code_facts import CodeFacts
from sextant.doc_rules import calendar_day
from sextant.gitsource.errors import GitSourceError
from sextant.gitsource.history_access import HistoryRepository
from sextant.gitsource.history_definitions import CommitRef, sample_commits

_IMPORT_ROOTS = ("", "src/", "lib/")
_CLOSE_PACKAGE = 0.6


@dataclasses.dataclass(frozen=True)
class PastPackage:
    """A top-level package the repository deleted."""

    name: str
    path: str
    """The deleted `__init__.py` (or single-module file)."""
    removed_by: CommitRef


def removed_packages(
    repo: HistoryRepository, roots: Iterable[str], samples: Sequence[tuple[str, CommitRef]] | None = None
) -> dict[str, PastPackage]:
    """Which of these names were top-level packages of the repository, and the commit that deleted each.

    A package lives for many commits, so the sampled trees of the history look-up tell which names
    ever were one (one path-limited `ls-tree` per sample); only for
    those is history read, and only the stretch between the newest sample holding the package and
    the next newer one (or the head), where its deletion lies: on a long history with no such
    package, no log runs at all.

    Args:
        repo: The opened repository (the names are no package at its head).
        roots: Candidate package names (identifiers), or dotted modules of today's packages.
        samples: The sampled first-parent commits, newest first (`sample_commits`); read when None.

    Returns:
        Name → its deletion; names that were never a package in a sampled tree are absent.
    """
    wanted = sorted({root for root in roots if all(part.isidentifier() for part in root.split("."))})
    if not wanted:
        return {}
    paths = {f"{base}{root.replace('.', '/')}/__init__.py": root for root in wanted for base in _IMPORT_ROOTS}
    paths |= {f"{base}{root.replace('.', '/')}.py": root for root in wanted for base in _IMPORT_ROOTS}
    try:
        samples = sample_commits(repo) if samples is None else samples
        stretches = _stretches_holding(repo, samples, paths)
        found: dict[str, PastPackage] = {}
        for index, held in sorted(stretches.items()):
            newer = samples[index - 1][0] if index > 0 else repo.head
            out = repo.git(
                [
                    "log",
                    "--no-renames",  # a package renamed by `git mv` is deleted under its old name
                    "--diff-filter=D",
                    "--name-only",
                    "--format=%x00%H%x00%cI%x00%s",
                    f"{samples[index][0]}..{newer}",
                    "--",
                    *sorted(held),
                ]
            )
            for commit, files in _deletions(out):
                for file in files:
                    root = paths.get(file)
                    if root is not None and root not in found:
                        found[root] = PastPackage(root, file, commit)
    except GitSourceError:
        return {}  # history unreadable or over its time limit: the names stay as the head judged them
    return found


def _stretches_holding(
    repo: HistoryRepository, samples: Sequence[tuple[str, CommitRef]], paths: dict[str, str]
) -> dict[int, set[str]]:
    """Sample index → the candidate paths whose newest sampled tree holding them is that one.

    One `ls-tree` per sample, limited to the candidate paths: trees only, so a blob-less clone
    answers too.
    """
    newest: dict[str, int] = {}
    for index, (sha, _) in enumerate(samples):  # newest sample first
        listed = repo.git(["ls-tree", "-r", "--name-only", "-z", sha, "--", *sorted(paths)])
        for path in listed.decode("utf-8", "replace").split("\0"):
            if path in paths and path not in newest:
                newest[path] = index
    stretches: dict[int, set[str]] = defaultdict(set)
    for path, index in newest.items():
        stretches[index].add(path)
    return stretches


def _deletions(out: bytes) -> list[tuple[CommitRef, list[str]]]:
    """(commit, files) of a `--name-only --format=%x00%H%x00%cI%x00%s` log, newest first."""
    fields = out.decode("utf-8", "replace").split("\0")[1:]
    records = []
    for index in range(0, len(fields) - 2, 3):
        sha, day, rest = fields[index : index + 3]
        subject, _, body = rest.partition("\n")
        records.append((CommitRef(sha, day, subject), [line for line in body.split("\n") if line.strip()]))
    return records


def revise_with_past_packages(
    judged: list[tuple[Claim, Resolution]],
    facts: CodeFacts,
    repo: HistoryRepository,
    samples: Sequence[tuple[str, CommitRef]] | None = None,
) -> list[tuple[Claim, Resolution]]:
    """Contradict dotted names whose first part was a package of this repository that a commit deleted.

    Args:
        judged: Claims with their resolutions.
        facts: The head's code facts (for the replacement package).
        repo: The opened repository.
        samples: The history look-up's sampled commits (read when None).

    Returns:
        The claims with revised resolutions, in the same order.
    """
    roots = {r.absent_package for _, r in judged if r.absent_package and r.status != "verified"}
    past = removed_packages(repo, roots, samples) if roots else {}
    if not past:
        return judged
    revised = []
    for claim, resolution in judged:
        package = past.get(resolution.absent_package or "")
        if package is None or resolution.status == "verified" or claim.kind not in {"symbol", "config_key"}:
            revised.append((claim, resolution))
            continue
        module = "." in package.name
        if module and resolution.status == "contradicted":
            revised.append((claim, resolution))  # the member's own removal already says more
            continue
        replacement = _replacement(package.name, facts)
        day = calendar_day(package.removed_by.day) or "an unknown day"
        evidence = (
            f"{package.name} was this repository's {'module' if module else 'package'} until {day} "
            f"({package.path} removed by {package.removed_by.sha[:7]} '{package.removed_by.subject[:100]}')"
        )
        if replacement:
            evidence += f"; now {claim.target.replace(package.name, replacement, 1)}?"
        revised.append(
            (
                claim,
                dataclasses.replace(
                    resolution,
                    status="contradicted",
                    evidence=evidence,
                    removed_by=f"{package.removed_by.sha[:7]} {package.removed_by.subject[:100]}",
                    removed_at=calendar_day(package.removed_by.day),
                    replacement=replacement,
                ),
            )
        )
    return revised


def _replacement(name: str, facts: CodeFacts) -> str | None:
    """Today's package (or, for a module, a sibling module of its package) closest to the removed one."""
    parent, _, last = name.rpartition(".")
    if not parent:
        today = sorted({module.split(".", 1)[0] for module in facts.import_modules})
        close = difflib.get_close_matches(name, today, n=1, cutoff=_CLOSE_PACKAGE)
        return close[0] if close else None
    siblings = sorted({m.rpartition(".")[2] for m in facts.import_modules if m.rpartition(".")[0] == parent})
    close = difflib.get_close_matches(last, siblings, n=1, cutoff=_CLOSE_PACKAGE)
    return f"{parent}.{close[0]}" if close else None
