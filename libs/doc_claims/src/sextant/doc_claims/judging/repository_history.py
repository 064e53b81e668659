"""The repository's history as a judge of claims: one object holding the repository and its budgets.

Every door to the check can bring history: `sextant docs-check` opens the repository it is given,
and the analyzer and the MCP tool, which judge an index, find the repository through
`HistoryLocations` (a local repository read in place, or the indexer's mirror). When no history
can be read, the report's `history_note` and each finding history would have decided say why.
"""

from __future__ import annotations

import dataclasses
import resource
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from sextant.config import env_flag, mirrors_path
from sextant.contracts import RepoRef
from sextant.doc_claims.claims.claim import Claim
from sextant.doc_claims.judging.checking import Resolution
from sextant.doc_claims.judging.code_facts import CodeFacts
from sextant.doc_claims.judging.definition_changes import DocLines, revise_with_definition_changes
from sextant.doc_claims.judging.past_names import absent_names, mentioned_names, revise_with_past_names
from sextant.doc_claims.judging.past_packages import revise_with_past_packages
from sextant.doc_claims.judging.past_paths import revise_with_past_paths
from sextant.doc_claims.judging.task_history import revise_with_past_tasks
from sextant.gitsource.access import local_path
from sextant.gitsource.errors import GitSourceError
from sextant.gitsource.history_access import HistoryRepository, open_history
from sextant.gitsource.history_between import search_between_samples
from sextant.gitsource.history_blobs import history_present, last_hydration_note
from sextant.gitsource.history_budget import DEFAULT_BUDGET, HistoryBudget
from sextant.gitsource.history_definitions import PARTIAL_CLONE_NOTE, DefinitionSearch, find_past_definitions
from sextant.gitsource.history_trees import last_commits, tree_paths
from sextant.gitsource.mirror import RepoMirror
from sextant.gitsource.repo_reference import ALLOW_LOCAL_REPOS, source_for_repo


@dataclass
class RepositoryHistory:
    """Judges claims with a repository's history (see docs/doc-claims.md for the rules and budgets)."""

    repo: HistoryRepository | None
    """The opened repository; None when it could not be read (`note` says why)."""
    doc_commits: dict[str, tuple[str, str]] | None = None
    """Doc path → (its last commit, that commit's date): the doc's side of "changed since". None:
    read from git when judging, for the docs being checked."""
    budget: HistoryBudget = DEFAULT_BUDGET
    """The work the look-ups may do: counted in bytes and commits, so the answer does not depend on the machine."""
    doc_texts: dict[str, DocLines] = field(default_factory=dict)
    """Doc path → its text, so a lost parameter counts only where the doc uses it."""
    note: str | None = None
    """Why the history look-up was skipped or cut short, once judge has run."""
    cost: dict[str, float] = field(default_factory=dict)
    """What the look-ups cost: trees searched, bytes read, seconds of the name look-up, and
    judge_seconds for everything history added (look-up, past names, definition changes, the last
    run beside the others: definition_seconds), and judge_cpu_seconds, the CPU time of the same
    (this process and the git processes it ran)."""

    @classmethod
    def unavailable(cls, note: str) -> RepositoryHistory:
        """No history to read: the claims are judged at the head alone, and the note says why.

        Args:
            note: Why (shown as the report's history note and beside the findings it leaves open).

        Returns:
            A history that judges nothing.
        """
        return cls(None, note=note)

    def tree_paths(self) -> list[str] | None:
        """Every file path of the head's tree (None without a repository), so paths are judged against it all."""
        if self.repo is None:
            return None
        try:
            return tree_paths(self.repo)  # the tree alone: a blob-less mirror lists its paths too
        except GitSourceError:
            return None  # the index's own paths still judge them

    def judge(self, judged: list[tuple[Claim, Resolution]], facts: CodeFacts) -> list[tuple[Claim, Resolution]]:
        """Revise resolutions with history: absent names once defined, definitions changed since the doc.

        Args:
            judged: Claims with their resolutions at the head.
            facts: The head's code facts.

        Returns:
            The revised claims and resolutions, in the same order.
        """
        started = time.monotonic()
        cpu_started = _cpu_seconds()
        if self.repo is None:
            # Nothing to search: the names history would have decided say why they stay as they are.
            search = DefinitionSearch(searched=frozenset(absent_names(judged)), note=self.note)
            return revise_with_past_names(judged, facts, search)
        repo = self.repo
        self.cost = {}
        # The two halves touch disjoint claims (names the head lacks; definitions the head verifies)
        # and read history independently, so the definition changes run beside the name look-up:
        # each waits on its own git processes, and a 2-core machine runs both at once.
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="definition-changes") as lane:
            changes = None if repo.partial else lane.submit(self._definition_changes, repo, judged, facts)
            revised = self._past_names(repo, judged, facts)
            if changes is not None:
                revised = _merged(revised, judged, changes.result())
        self.cost["judge_seconds"] = time.monotonic() - started
        self.cost["judge_cpu_seconds"] = _cpu_seconds() - cpu_started
        return revised

    def _past_names(
        self, repo: HistoryRepository, judged: list[tuple[Claim, Resolution]], facts: CodeFacts
    ) -> list[tuple[Claim, Resolution]]:
        """Names the head lacks, judged by the sampled trees, the pass between them and the past packages."""
        used = facts.identifiers.keys()
        if repo.partial and self.note is not None:
            # A mirror not (fully) hydrated: nothing to search, for the reason the note gives.
            search = DefinitionSearch(searched=frozenset(absent_names(judged)), note=self.note)
        else:
            mentioned = mentioned_names(judged)
            search = find_past_definitions(
                repo, absent_names(judged), used=used, mentioned=mentioned, qualifiers=mentioned, budget=self.budget
            )
        sampled_seconds = search.seconds
        search = search_between_samples(repo, search, used=used)
        self.note = search.note or search.between_note
        self.cost.update(
            trees=search.trees,
            trees_whole=search.trees_whole,
            bytes=search.bytes_read,
            source_bytes=search.source_bytes,
            seconds=search.seconds,
            between_seconds=search.seconds - sampled_seconds,
        )
        judged = revise_with_past_names(judged, facts, search)
        judged = revise_with_past_tasks(judged, facts, repo)  # task-runner commands: their task files' history
        judged = revise_with_past_paths(
            judged, facts, repo, self.budget
        )  # paths in prose: files this repository deleted
        return revise_with_past_packages(judged, facts, repo, search.samples)  # trees suffice, blob-less too

    def _definition_changes(
        self, repo: HistoryRepository, judged: list[tuple[Claim, Resolution]], facts: CodeFacts
    ) -> list[tuple[Claim, Resolution]]:
        """Verified claims whose definition lost what the doc uses since the line was written."""
        started = time.monotonic()
        if self.doc_commits is None:
            self.doc_commits = _doc_commits(repo, {claim.doc for claim, _ in judged})
        revised = revise_with_definition_changes(
            judged,
            facts,
            repo,
            self.doc_commits,
            self.doc_texts,
            max_bytes=self.budget.output_bytes,
            blame_commits=self.budget.blame_commits,
            max_source_bytes=self.budget.definition_source_bytes,
        )
        self.cost["definition_seconds"] = time.monotonic() - started
        return revised


def _merged(
    past: list[tuple[Claim, Resolution]], head: list[tuple[Claim, Resolution]], changed: list[tuple[Claim, Resolution]]
) -> list[tuple[Claim, Resolution]]:
    """The past-names revision with the definition changes laid over it.

    The definition changes revise only claims the head verifies, which the past-names rules never
    touch, so the two revisions of the same judged list combine claim by claim.
    """
    return [
        changed_pair if changed_pair is not head_pair else past_pair
        for past_pair, head_pair, changed_pair in zip(past, head, changed, strict=True)
    ]


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _doc_commits(repo: HistoryRepository, docs: set[str]) -> dict[str, tuple[str, str]]:
    try:
        return last_commits(repo, docs)
    except GitSourceError:
        return {}  # no doc dates: no definition is compared with its state at the doc


@dataclass(frozen=True)
class HistoryLocations:
    """Where a service that judges an index finds the repository's history.

    A local repository is read in place (when local paths are allowed at all); any other is read
    from the indexer's mirror under `mirrors_dir`, pinned to the commit that was indexed. The
    mirrors are blob-less clones: the indexer fetches the source files' old blobs after its sync
    (`RepoMirror.hydrate_history`, within a byte budget), and a mirror hydrated through the commit
    is searched like a full repository; otherwise history is not searched and the findings say
    why. Opening never fetches: git runs here with no transport at all (see docs/doc-claims.md).
    """

    mirrors_dir: Path
    allow_local: bool = False

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> HistoryLocations:
        """The locations the indexer of this deployment uses (SEXTANT_HOME/mirrors, SEXTANT_ALLOW_LOCAL_REPOS).

        Args:
            env: Environment variables.

        Returns:
            The locations.
        """
        return cls(mirrors_path(env), allow_local=env_flag(env, ALLOW_LOCAL_REPOS))

    def open(self, repo: RepoRef, head_sha: str | None) -> RepositoryHistory:
        """The history of a repository at the indexed commit, or an unavailable one saying why.

        Args:
            repo: The repository reference the index run carried.
            head_sha: The commit the index holds (None: the repository's current head).

        Returns:
            The history to judge with.
        """
        try:
            source = source_for_repo(repo, token=None, allow_local=self.allow_local)
            git_dir = RepoMirror(self.mirrors_dir).mirror_dir(source)
            if local_path(source) is None and not git_dir.exists():
                return RepositoryHistory.unavailable("history not read: this machine holds no mirror of the repository")
            return _mirror_history(open_history(git_dir, head_sha))
        except GitSourceError as error:
            return RepositoryHistory.unavailable(f"history not read: {error}")


def _mirror_history(repo: HistoryRepository) -> RepositoryHistory:
    """A repository's history; a blob-less mirror is read as a full one only once hydrated through the commit."""
    if not repo.partial:
        return RepositoryHistory(repo)
    if history_present(repo.git_dir, repo.head, env=repo.env, timeout=repo.timeout):
        # Every source blob the look-up reads is present; any other one it touched would fail, not fetch.
        return RepositoryHistory(dataclasses.replace(repo, partial=False))
    return RepositoryHistory(repo, note=last_hydration_note(repo.git_dir) or PARTIAL_CLONE_NOTE)
