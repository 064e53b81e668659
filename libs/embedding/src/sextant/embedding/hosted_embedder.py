"""What every hosted embedding provider shares: batching, a few batches in flight, retries, checks,
and masked texts (``provider_text``: no secret a repository holds is sent to a provider)."""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

import httpx

from sextant.embedding.batched_embedder import BatchedEmbedder
from sextant.embedding.errors import EmbeddingError
from sextant.embedding.provider_text import masked_for_provider
from sextant.provider_http import ProviderHTTPError, RetryPolicy, post_json

Purpose = Literal["document", "query"]
"""What a text is for: some providers encode stored documents and search queries differently."""


class HostedEmbedder(BatchedEmbedder, ABC):
    """Base of the HTTP providers; a subclass only states its URL, request body and response shape.

    The API key lives in one private attribute and goes out only in a request header: never in the URL,
    the repr, a log line or an error message.
    """

    provider: ClassVar[str]
    endpoint_path: ClassVar[str]
    """Path of the embeddings endpoint below `base_url`."""
    dimensions_field: ClassVar[str]
    """Request field that asks a resizable model for `dimension`-long vectors."""

    def __init__(
        self,
        *,
        model: str,
        dimension: int,
        max_chars: int,
        batch_size: int,
        base_url: str,
        api_key: str | None = None,
        retry: RetryPolicy | None = None,
        concurrency: int = 2,
        send_dimensions: bool = False,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        """Configure the provider; no connection is opened until the first request.

        Args:
            model: Provider's model name.
            dimension: Vector length the model returns (checked on every response).
            max_chars: Character budget for one embedding text.
            batch_size: Texts per request.
            base_url: API root, without a trailing path such as /embeddings.
            api_key: Secret sent in a header; None for servers that need none.
            retry: Retry bounds (default `RetryPolicy()`).
            concurrency: Requests of one `embed` call in flight at once.
            send_dimensions: Ask the model for `dimension`-long vectors (OpenAI text-embedding-3
                `dimensions`, Cohere embed-v4.0 `output_dimension`, Ollama `dimensions`); most other
                models reject the field, so it is off by default.
            transport: httpx transport override (tests, proxies).
        """
        if concurrency < 1:
            raise ValueError("concurrency must be positive")
        super().__init__(dimension=dimension, max_chars=max_chars, batch_size=batch_size)
        self._model = model
        self._base_url = base_url.rstrip("/")
        self._api_key = api_key
        self._retry = retry or RetryPolicy()
        self._concurrency = concurrency
        self._send_dimensions = send_dimensions
        self._transport = transport
        self._client: httpx.AsyncClient | None = None
        self._client_loop: asyncio.AbstractEventLoop | None = None
        self._retries = 0

    @property
    def model_id(self) -> str:
        """`<provider>/<model>`, so the same model name at two providers never shares a collection."""
        return f"{self.provider}/{self._model}"

    @property
    def retries(self) -> int:
        """Requests sent again after a transient failure."""
        return self._retries

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed documents.

        Args:
            texts: Embedding texts, each within `max_chars`.

        Returns:
            One vector per text, in the order given.

        Raises:
            EmbeddingError: When a batch finally fails; no partial result is returned.
        """
        return await self._embed_all(texts, "document")

    async def embed_query(self, text: str) -> list[float]:
        """Embed a search query.

        Args:
            text: The query.

        Returns:
            Its vector.
        """
        return (await self._embed_all([text], "query"))[0]

    async def aclose(self) -> None:
        """Close the HTTP connection pool."""
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    async def _embed_all(self, texts: Sequence[str], purpose: Purpose) -> list[list[float]]:
        async def embed_batch(batch: list[str]) -> list[list[float]]:
            return await self._embed_batch(batch, purpose)

        return await self._embed_in_batches(texts, embed_batch, self._concurrency)

    async def _embed_batch(self, batch: list[str], purpose: Purpose) -> list[list[float]]:
        try:
            result = await post_json(
                provider=self.provider,
                url=self._base_url + self.endpoint_path,
                headers=self._headers(),
                # Providers reject empty strings (OpenAI: "input cannot be an empty string").
                body=self._body([masked_for_provider(text) or " " for text in batch], purpose),
                policy=self._retry,
                secrets=(self._api_key,) if self._api_key else (),
                client=self._http_client(),
            )
        except ProviderHTTPError as error:
            # What outlives the retries is this batch's failure, permanent or not as the policy judged.
            raise EmbeddingError(f"{self.provider}: {error.reason}", transient=error.transient) from None
        self._retries += result.retries
        vectors = self._check_vectors(self._vectors_from(result.answer), len(batch))
        self._calls += 1
        return vectors

    def _check_vectors(self, vectors: list[list[float]], expected: int) -> list[list[float]]:
        if len(vectors) != expected:
            raise EmbeddingError(f"{self.provider}: got {len(vectors)} vectors for {expected} texts", transient=True)
        for vector in vectors:
            if len(vector) != self._dimension:
                raise EmbeddingError(
                    f"{self.provider}: model {self._model} returned {len(vector)}-d vectors, "
                    f"configured dimension is {self._dimension}",
                    transient=False,
                )
        return vectors

    def _http_client(self) -> httpx.AsyncClient:
        # A client's pool belongs to the loop that opened it; a new loop (tests, CLI runs) gets a new one.
        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop is not loop:
            self._client = httpx.AsyncClient(transport=self._transport, follow_redirects=False)
            self._client_loop = loop
        return self._client

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def _body(self, batch: list[str], purpose: Purpose) -> Mapping[str, Any]:
        body = dict(self._request_body(batch, purpose))
        if self._send_dimensions:
            body[self.dimensions_field] = self._dimension
        return body

    @abstractmethod
    def _request_body(self, batch: list[str], purpose: Purpose) -> Mapping[str, Any]:
        """The provider's JSON request for one batch."""

    @abstractmethod
    def _vectors_from(self, payload: Any) -> list[list[float]]:
        """The vectors in the provider's JSON response, in request order."""

    def __repr__(self) -> str:
        key = "set" if self._api_key else "none"
        return (
            f"{type(self).__name__}(model={self._model!r}, base_url={self._base_url!r}, "
            f"dimension={self._dimension}, batch_size={self._batch_size}, api_key={key})"
        )


def malformed(provider: str, what: str) -> EmbeddingError:
    """The error for a response that does not have the provider's documented shape.

    Args:
        provider: Provider name.
        what: What was missing or wrong.

    Returns:
        A transient error (a proxy or an outage page can produce it; the next try may be fine).
    """
    return EmbeddingError(f"{provider}: unexpected response ({what})", transient=True)


def float_rows(rows: Any, provider: str) -> list[list[float]]:
    """Validate a JSON list of number lists.

    Args:
        rows: Decoded JSON.
        provider: Provider name for the error.

    Returns:
        The rows as lists of floats.
    """
    if not isinstance(rows, list):
        raise malformed(provider, "vectors are not a list")
    result: list[list[float]] = []
    for row in rows:
        if not isinstance(row, list) or not all(
            isinstance(value, int | float) and not isinstance(value, bool) for value in row
        ):
            raise malformed(provider, "a vector is not a list of numbers")
        result.append([float(value) for value in row])
    return result
