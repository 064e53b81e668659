"""The doc-claim check end to end: syntax → claims → judging → report.

1. syntax: each markup (Markdown through a CommonMark parser, reStructuredText, AsciiDoc) yields
   mentions — inline code, links, roles, code-block lines — with their offsets.
2. claims: each mention, read with its sentence, becomes zero or more claims (a path, a symbol, an
   env var, a command, a flag, a config key), or is dropped as not a claim about this repository.
3. judging: claims meet the code's facts (and, when a repository is at hand, its history):
   verified, contradicted, outdated or unverifiable, with evidence.
4. report: findings with a summary per doc and totals.

Two doors: `check_docs` over index payloads (the analyzer), `check_repository` over a git commit
read in place (`sextant docs-check`, the corpus benchmark).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import msgspec

from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_claims.claims.extraction import extract_claims
from sextant.doc_claims.claims.history_docs import is_history_doc, is_non_prose, older_version_docs
from sextant.doc_claims.judging.checking import check_claims
from sextant.doc_claims.judging.code_facts import CodeFactsCollector
from sextant.doc_claims.judging.definition_changes import DocLines
from sextant.doc_claims.judging.env_files import ENV_SETTINGS_LANGUAGE, may_hold_env_settings
from sextant.doc_claims.judging.repository_history import RepositoryHistory
from sextant.doc_claims.report.summary import DocCheckReport, build_report
from sextant.doc_claims.sources.doc_texts import DocTextCollector
from sextant.doc_claims.sources.repository import read_snapshot
from sextant.doc_rules.kinds import chunk_kind
from sextant.gitsource.history_access import open_history
from sextant.parsing import language_for_path

HISTORY_OFF = "history not read: the check was asked to judge the head alone"
"""The history note when history is turned off on purpose (`use_history=False`, ANALYSIS_DOC_HISTORY=false)."""


def check_docs(
    payloads: Iterable[ChunkPayload],
    *,
    tree_paths: Iterable[str] | None = None,
    history: RepositoryHistory | None = None,
) -> DocCheckReport:
    """Check every doc among the payloads against all the code among them, in one pass.

    Args:
        payloads: Every chunk payload of one repository (docs and code, any order).
        tree_paths: Every path of the commit's git tree, when known: paths are then judged against
            the whole tree rather than only the indexed files.
        history: The repository's history, when it can be read (a local repository): names the code
            once defined are contradicted with evidence, names it never defined are not, and
            definitions changed since a doc line make it outdated. Without tree_paths, the
            history's head tree gives them.

    Returns:
        The findings, a summary per doc and totals.
    """
    readable = history is not None and history.repo is not None
    facts_collector, docs_collector = CodeFactsCollector(file_tokens=readable), DocTextCollector()
    for payload in payloads:
        facts_collector.add(_as_code_fact(payload))
        docs_collector.add(payload)
    if tree_paths is None and history is not None:
        tree_paths = history.tree_paths()
    if tree_paths is not None:
        facts_collector.add_tree(tree_paths)
    facts = facts_collector.build()
    docs = docs_collector.build()
    if history is not None:
        history.doc_texts = {doc.path: DocLines(doc.text, doc.first_line) for doc in docs}
    old_versions = older_version_docs(doc.path for doc in docs)
    skipped = [doc.path for doc in docs if is_history_doc(doc.path) or doc.path in old_versions]
    checked = [doc for doc in docs if doc.path not in set(skipped) and not is_non_prose(doc.path)]
    claims = [claim for doc in checked for claim in extract_claims(doc.path, doc.text, first_line=doc.first_line)]
    doc_dates = {doc.path: doc.last_modified_at for doc in checked}
    findings = check_claims(claims, facts, doc_dates=doc_dates, history=history)
    return build_report(
        findings,
        doc_dates,
        skipped_docs=skipped,
        history_note=history.note if history is not None else None,
    )


def _as_code_fact(payload: ChunkPayload) -> ChunkPayload:
    """The payload as the code's facts take it: a plain-text file the repository door never reads counts as a file only.

    The index keeps every text file of no known language as line windows (data such as `*.jsonl` or
    `*.csv` fixtures, extension-less changelogs such as `CHANGES` or `NEWS`). A name they mention is
    no evidence that the code has it: a changelog names what the code had when each entry was
    written, a data file names whatever its records hold. The repository door reads, besides docs and
    code of known languages, only files that may hold environment settings (and a changelog among
    those only for its settings), so both doors judge alike when the index door does the same.
    """
    path = payload.path
    plain_text = chunk_kind(path) == "code" and language_for_path(path) is None
    read_by_repository_door = may_hold_env_settings(path) and not is_history_doc(path)
    if plain_text and payload.language != ENV_SETTINGS_LANGUAGE and not read_by_repository_door:
        return msgspec.structs.replace(payload, text="")
    return payload


def check_repository(path: str | Path, commit: str | None = None, *, use_history: bool = True) -> DocCheckReport:
    """Check the docs of a local repository at one commit, reading git directly (no index, no embedding).

    Args:
        path: The repository folder (a work tree or a bare git directory), read in place.
        commit: The commit or ref to judge; None for HEAD.
        use_history: Judge with the repository's history (bounded; see docs/doc-claims.md). Without
            it, a name absent at the head is judged as when history cannot be read: a bare name is
            left unverifiable, since only history could tell a removed name from one never ours.

    Returns:
        The findings, a summary per doc and totals.
    """
    repo = open_history(Path(path), commit)
    snapshot = read_snapshot(repo)
    history = (
        RepositoryHistory(repo, snapshot.doc_commits) if use_history else RepositoryHistory.unavailable(HISTORY_OFF)
    )
    return check_docs(snapshot.payloads, tree_paths=snapshot.paths, history=history)
