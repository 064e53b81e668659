"""How search and symbol results are shown: one line per hit, repository text cleaned, ages and doc framing."""

from __future__ import annotations

from collections.abc import Sequence

from sextant.llm import clean_untrusted_line
from sextant.search import SearchHit, SearchOutcome, SymbolReport

MODE_WORDS = {
    "hybrid": "hybrid search (dense + sparse, RRF)",
    "sparse": "sparse-only search (BM25)",
    "dense": "dense-only search",
}


def hit_lines(hit: SearchHit, rank: int | None = None, *, show_repo: bool = False) -> list[str]:
    """The lines printed for one hit: a header line, then the indented snippet.

    Args:
        hit: The hit.
        rank: 1-based rank, or None for an unranked list (definitions).
        show_repo: Prefix the location with the repository key (several repositories searched).

    Returns:
        Printable lines; paths, symbols and snippets are repository text, cleaned to visible characters.
    """
    where = clean_untrusted_line(hit.location)
    if show_repo:
        where = f"{hit.repo_key}/{where}"
    symbol = f"  {clean_untrusted_line(hit.symbol)} ({hit.symbol_type})" if hit.symbol else ""
    head = f"{rank:>2}. " if rank is not None else "- "
    score = f"  score {hit.score:.3f}" if rank is not None else ""
    note = f"  {hit.trust_note}" if hit.trust_note else ""
    lines = [f"{head}{where}{symbol}  {hit.kind}  {hit.age}{score}{note}"]
    lines += [f"      {clean_untrusted_line(line)}" for line in hit.snippet.splitlines()]
    return lines


def outcome_lines(outcome: SearchOutcome, repo_count: int) -> list[str]:
    """Everything `sextant search` prints for one query.

    Args:
        outcome: The search outcome.
        repo_count: How many repositories were searched.

    Returns:
        Lines: the mode and notes first, then the hits.
    """
    lines = [f"{MODE_WORDS[outcome.mode]} over {repo_count} repositor{'y' if repo_count == 1 else 'ies'}: "
             f"{len(outcome.hits)} hits"]  # fmt: skip
    lines += [f"note: {note}" for note in outcome.notes]
    for rank, hit in enumerate(outcome.hits, start=1):
        lines += hit_lines(hit, rank, show_repo=repo_count > 1)
    return lines


def symbol_lines(report: SymbolReport, repo_count: int) -> list[str]:
    """Everything `sextant symbol` prints.

    Args:
        report: Definitions, prefix matches and (optionally) usages.
        repo_count: How many repositories were searched.

    Returns:
        Printable lines.
    """
    name = clean_untrusted_line(report.name)
    lines = [f"definitions of {name}: {len(report.definitions)}"]
    lines += _listed(report.definitions, repo_count)
    if report.prefix_matches:
        lines.append(f"symbols starting with {name}: {len(report.prefix_matches)}")
        lines += _listed(report.prefix_matches, repo_count)
    if report.usages is not None:
        lines.append(f"usages of {name}: {len(report.usages)}")
        lines += _listed(report.usages, repo_count)
    lines += [f"note: {note}" for note in report.notes]
    return lines


def _listed(hits: Sequence[SearchHit], repo_count: int) -> list[str]:
    return [line for hit in hits for line in hit_lines(hit, show_repo=repo_count > 1)]
