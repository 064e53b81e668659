"""One contract every DenseEmbedder keeps, run against the local model and each hosted provider."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from sextant.embedding import DenseEmbedder, LocalMiniLM


@pytest.fixture(
    params=[
        pytest.param("local", marks=pytest.mark.model),
        "openai",
        "cohere",
        "ollama",
    ]
)
def embedder(request: pytest.FixtureRequest, hosted_embedder: Callable[..., Any]) -> DenseEmbedder:
    if request.param == "local":
        minilm: LocalMiniLM = request.getfixturevalue("minilm")
        return LocalMiniLM(batch_size=2, max_chars=minilm.max_chars)
    built: DenseEmbedder = hosted_embedder(request.param, batch_size=2)
    return built


async def test_one_vector_per_text_in_order(embedder: DenseEmbedder) -> None:
    texts = ["def a(): pass", "b", "class C:\n    pass\n", "dd", "a longer sentence about code"]
    vectors = await embedder.embed(texts)
    assert len(vectors) == len(texts)
    assert all(len(vector) == embedder.dimension for vector in vectors)
    singles = [await embedder.embed([text]) for text in texts]
    for single, vector in zip(singles, vectors, strict=True):
        assert single[0] == pytest.approx(vector, abs=1e-5)


async def test_calls_count_batches(embedder: DenseEmbedder) -> None:
    before = embedder.calls
    await embedder.embed(["one", "two", "three"])
    assert embedder.calls - before == 2
    await embedder.embed([])
    assert embedder.calls - before == 2


async def test_query_vectors_have_the_same_dimension(embedder: DenseEmbedder) -> None:
    assert len(await embedder.embed_query("where do we retry failed requests?")) == embedder.dimension


def test_settings_are_positive(embedder: DenseEmbedder) -> None:
    assert embedder.model_id
    assert embedder.dimension > 0
    assert embedder.max_chars > 0
    assert embedder.batch_size > 0
