"""The offline reranker: deterministic, and calibrated so that 0.6 means a specific shared identifier."""

from __future__ import annotations

import asyncio

from hypothesis import given
from hypothesis import strategies as st

from sextant.rerank import LocalReranker, Reranker

QUERY = """Rename parse_config to load_settings

diff --git a/src/config/loader.py b/src/config/loader.py
@@ -10,7 +10,7 @@ import yaml
-def parse_config(path: str) -> Settings:
+def load_settings(path: str) -> Settings:
     with open(path) as handle:
         return Settings(**yaml.safe_load(handle))
"""

DESIGN_DOC = """# Configuration design (2023)

Configuration is read once at start-up by `parse_config()` in `src/config/loader.py`, which returns
a frozen Settings object. Callers must never re-read the file.
"""

CAMEL_DOC = "The TypeScript client mirrors this: `loadSettings(path)` returns the same shape."

VOCABULARY_DOC = """# Getting started

This project reads its configuration from a settings file at start-up. Open the config, set the
path, and the loader returns settings for every run. Settings path config loader settings config.
"""

PROSE_DOC = "How the settings are loaded: we load settings from a YAML file and parse the config."

UNRELATED_DOC = "# Release process\n\nTag the commit, push the tag, and announce it in the channel."


async def test_sharing_an_identifier_from_the_diff_clears_the_seed_threshold() -> None:
    ranker: Reranker = LocalReranker()

    result = await ranker.rerank(QUERY, [DESIGN_DOC, CAMEL_DOC, VOCABULARY_DOC, PROSE_DOC, UNRELATED_DOC])

    assert result.scores is not None
    design, camel, vocabulary, prose, unrelated = result.scores
    assert design >= 0.6  # names parse_config: exactly the doc a reviewer must re-check
    assert camel >= 0.6  # loadSettings is load_settings in another spelling
    assert vocabulary < 0.6  # shares many words, but no identifier
    assert prose < 0.6  # even words of both identifiers, in prose, stay under the line
    assert unrelated < 0.1
    assert result.order[-1] == 4
    assert vocabulary > unrelated
    assert result.warning is None
    assert result.model == "local-term-overlap-v1"


async def test_more_shared_identifiers_score_higher() -> None:
    one = "Uses parse_config."
    two = "Uses parse_config and then load_settings."
    result = await LocalReranker().rerank(QUERY, [one, two])
    assert result.scores is not None
    assert 0.6 <= result.scores[0] < result.scores[1]
    assert result.order == (1, 0)


async def test_common_compound_names_do_not_count_as_shared_subjects() -> None:
    query = "def __init__(self):\n    raise ValueError('x')\n    logger = getLogger(__name__)"
    doc = "Our classes define __init__, raise ValueError and call getLogger."
    result = await LocalReranker().rerank(query, [doc])
    assert result.scores is not None
    assert result.scores[0] < 0.6


_QUERY_WORDS = ["parse", "config", "load", "settings", "loader", "yaml", "path", "handle", "rename"]


@given(st.lists(st.sampled_from([*_QUERY_WORDS, "the", "a", "and", "file", "\n", "."]), max_size=400))
def test_vocabulary_alone_never_reaches_the_threshold(words: list[str]) -> None:
    result = asyncio.run(LocalReranker().rerank(QUERY, [" ".join(words)]))
    assert result.scores is not None
    assert result.scores[0] < 0.6


async def test_scores_are_deterministic_and_independent_of_the_batch() -> None:
    ranker = LocalReranker()
    alone = await ranker.rerank(QUERY, [DESIGN_DOC])
    batch = await ranker.rerank(QUERY, [UNRELATED_DOC, DESIGN_DOC, VOCABULARY_DOC])
    again = await ranker.rerank(QUERY, [UNRELATED_DOC, DESIGN_DOC, VOCABULARY_DOC])
    assert alone.scores is not None
    assert batch.scores is not None
    assert alone.scores[0] == batch.scores[1]
    assert batch == again


async def test_edge_cases() -> None:
    ranker = LocalReranker()
    assert (await ranker.rerank(QUERY, [])).scores == ()
    empty = await ranker.rerank("", ["anything", ""])
    assert empty.scores == (0.0, 0.0)
    assert empty.order == (0, 1)


async def test_fifty_long_chunks_are_all_scored() -> None:
    # Its speed is measured in bench/review, not asserted here: a loaded machine must not fail a test.
    documents = [DESIGN_DOC * 4, VOCABULARY_DOC * 4, UNRELATED_DOC * 8] * 17
    ranker = LocalReranker()
    result = await ranker.rerank(QUERY * 10, documents[:50])
    assert result.scores is not None
    assert len(result.scores) == 50
    assert sorted(result.order) == list(range(50))
