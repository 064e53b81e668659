"""Search the index for people and agents: what matches a query, where a symbol is defined and used, how old.

Every hit carries its location (``path:Lx-Ly``), its age and the same stale-doc framing the review
context uses, so a reader — or an agent — knows what to trust. Search is hybrid (dense + sparse, RRF)
once a repository's dense vectors are complete and sparse-only until then, and says which. Symbol
definitions go through the store's symbol payload index (exact, then prefix); usages are found by
identifier match (the sparse side ranks candidates, an exact whole-token check keeps real uses).
"""

from sextant.search.ages import AGE_UNKNOWN, age_words
from sextant.search.code_search import DEFAULT_RESULT_LIMIT, CodeSearcher, SearchRequest
from sextant.search.dense_coverage import points_missing_dense
from sextant.search.hits import SearchHit, SearchMode, SearchOutcome
from sextant.search.symbols import SymbolFinder, SymbolReport

__all__ = [
    "AGE_UNKNOWN",
    "DEFAULT_RESULT_LIMIT",
    "CodeSearcher",
    "SearchHit",
    "SearchMode",
    "SearchOutcome",
    "SearchRequest",
    "SymbolFinder",
    "SymbolReport",
    "age_words",
    "points_missing_dense",
]
