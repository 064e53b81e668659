"""Task-runner commands whose task the repository defined once and no longer does.

`grunt build` in a contributing guide after the Gruntfile was deleted, `npm run serveDocs` after the
script left package.json: the head alone cannot tell such a command from another project's (see
task_runners), the history can. One `git log -p` per task runner over its task files finds the
newest commit that removed a line naming the task; the file before that commit must define the task
and no task file of the head may, read whole from git. Then the command is contradicted, with the
removing commit, and, when that commit deleted the runner's last task file, that the repository no
longer has one at all.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from dataclasses import dataclass

from sextant.doc_claims.claims.claim import Claim
from sextant.doc_claims.judging.checking import Resolution
from sextant.doc_claims.judging.code_facts import CodeFacts
from sextant.doc_claims.judging.task_runners import (
    TASK_FILE_NOUNS,
    TASK_FILES,
    defined_names,
    defined_tasks,
    is_task_file,
    task_claim,
    task_nouns,
)
from sextant.doc_rules import calendar_day
from sextant.gitsource.errors import GitSourceError
from sextant.gitsource.history_access import HistoryRepository
from sextant.gitsource.history_patches import PATCH_LOG_OPTIONS, commit_file_diffs

_MAX_COMMITS = 3000
"""Commits of a runner's task files read back from the head (a work budget, not a time limit)."""
_MAX_TASKS = 40
"""Task-runner claims looked up per check: a doc of hundreds of `make` lines is not read further."""


@dataclass(frozen=True)
class _Removal:
    sha: str
    day: str
    subject: str
    path: str
    deleted: bool


def revise_with_past_tasks(
    judged: list[tuple[Claim, Resolution]], facts: CodeFacts, repo: HistoryRepository
) -> list[tuple[Claim, Resolution]]:
    """Contradict the task-runner commands whose task (or task file) the history shows removed.

    Args:
        judged: Claims with their resolutions (task commands the head lacks are unverifiable).
        facts: The head's code facts (its tree).
        repo: The repository's history.

    Returns:
        The same list, those claims revised.
    """
    wanted: dict[str, set[str]] = defaultdict(set)
    for claim, resolution in judged:
        task = task_claim(claim.command, claim.target)
        # (a task file that may define any task, the resolution's code_path, leaves it open)
        if resolution.status == "unverifiable" and task is not None and resolution.code_path is None:
            wanted[task[0]].add(task[1])
    if not wanted or sum(map(len, wanted.values())) > _MAX_TASKS or repo.partial:
        return judged
    removals: dict[tuple[str, str], tuple[_Removal, str]] = {}
    for runner, tasks in wanted.items():
        try:
            for name, removal in _removed_tasks(repo, runner, tasks, facts.files).items():
                removals[(runner, name)] = removal
        except GitSourceError:
            continue  # this runner's history unread: its commands stay unverifiable
    revised = []
    for claim, resolution in judged:
        task = task_claim(claim.command, claim.target)
        found = removals.get(task) if task is not None and resolution.status == "unverifiable" else None
        revised.append(
            (claim, resolution if task is None or found is None else _contradicted(resolution, *task, *found))
        )
    return revised


def _contradicted(resolution: Resolution, runner: str, task: str, removal: _Removal, note: str) -> Resolution:
    day = calendar_day(removal.day) or "an unknown day"
    removed_by = f"{removal.sha[:7]} {removal.subject[:100]}"
    if removal.deleted:
        how = f"{removal.path} was deleted by {removal.sha[:7]} '{removal.subject[:100]}'"
    else:
        how = f"removed by {removal.sha[:7]} '{removal.subject[:100]}'"
    evidence = f"{task_nouns(runner)} {task} was defined in {removal.path} until {day}; {how}{note}"
    return dataclasses.replace(
        resolution, status="contradicted", evidence=evidence, code_path=None, removed_by=removed_by, removed_at=day
    )


def _removed_tasks(
    repo: HistoryRepository, runner: str, tasks: set[str], files: frozenset[str] | set[str]
) -> dict[str, tuple[_Removal, str]]:
    """Task → its removal (and what the head has instead), for the tasks the history shows removed."""
    head_files = sorted(path for path in files if is_task_file(runner, path))
    head_tasks: set[str] = set()
    for path in head_files:
        text = _show(repo, repo.head, path)
        if defined_tasks(runner, text)[1]:
            return {}  # a head task file may define any task (an `include`, a `%:` rule)
        head_tasks.update(defined_names(runner, text))
    candidates = _removing_commits(repo, runner, tasks - head_tasks)
    found: dict[str, tuple[_Removal, str]] = {}
    for task, removal in candidates.items():
        if task not in set(defined_names(runner, _show(repo, f"{removal.sha}^", removal.path))):
            continue  # the removed line named the task without defining it
        if head_files:
            note = f"; no {task} in {', '.join(head_files[:3])} now"
        else:
            note = f"; the repository has no {TASK_FILE_NOUNS[runner]} now"
        found[task] = (removal, note)
    return found


def _removing_commits(repo: HistoryRepository, runner: str, tasks: set[str]) -> dict[str, _Removal]:
    """Task → the newest commit whose patch removes a task-file line naming it (one log over the task files)."""
    if not tasks:
        return {}
    pathspecs = [f":(glob,icase)**/{name}" for name in TASK_FILES[runner]]
    options = [f"--max-count={_MAX_COMMITS}", "--diff-filter=MD", "-p", *PATCH_LOG_OPTIONS]
    log = repo.git(["log", repo.head, *options, "--", *pathspecs])
    found: dict[str, _Removal] = {}
    for commit, path, removed, _ in commit_file_diffs(log.decode("utf-8", "replace")):
        if len(found) == len(tasks):
            break
        if not is_task_file(runner, path):
            continue  # a vendored package's or a test fixture's task file
        for task in tasks - found.keys():
            if any(_names(line, task) for line in removed):
                deleted = not _exists(repo, commit.sha, path)
                found[task] = _Removal(commit.sha, commit.day, commit.subject, path, deleted)
    return found


def _exists(repo: HistoryRepository, commit: str, path: str) -> bool:
    try:
        repo.git(["cat-file", "-e", f"{commit}:{path}"])
    except GitSourceError:
        return False
    return True


def _names(line: str, task: str) -> bool:
    """Whether a removed line names the task as a word (`'build'`, `"build":`, `build:`)."""
    at = line.find(task)
    while at >= 0:
        before = line[at - 1] if at > 0 else " "
        after = line[at + len(task)] if at + len(task) < len(line) else " "
        if not (before.isalnum() or before in "_-") and not (after.isalnum() or after in "_-"):
            return True
        at = line.find(task, at + 1)
    return False


def _show(repo: HistoryRepository, commit: str, path: str) -> str:
    try:
        return repo.git(["show", f"{commit}:{path}"]).decode("utf-8", "replace")
    except GitSourceError:
        return ""
