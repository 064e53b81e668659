"""Hosted providers against a local server speaking their wire format: bodies, auth, retries, errors."""

from __future__ import annotations

import socket
import time
import traceback
from typing import Any

import pytest

from sextant.embedding import EmbeddingError, RetryPolicy

from ..support.provider_server import Reply

PROVIDERS = ["openai", "cohere", "ollama"]
PATHS = {"openai": "/v1/embeddings", "cohere": "/v2/embed", "ollama": "/api/embed"}


def _texts_sent(provider: str, body: Any) -> list[str]:
    if provider == "cohere":
        return list(body["texts"])
    return [text.removeprefix("search_document: ") for text in body["input"]]


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_batches_keep_order_and_send_the_real_request(
    provider: str, provider_server: Any, hosted_embedder: Any, vector_for: Any, secret_key: str
) -> None:
    embedder = hosted_embedder(provider)
    texts = ["def a(): pass", "x", "class Long:\n    value = 1\n", "yy", "zzz"]

    vectors = await embedder.embed(texts)

    prefix = "search_document: " if provider == "ollama" else ""  # nomic-embed-text's task prefix
    assert vectors == [vector_for(prefix + text) for text in texts]
    assert embedder.calls == 3  # batch_size 2
    assert len(provider_server.requests) == 3
    sent: list[str] = []
    for request in provider_server.requests:
        assert request.path == PATHS[provider]
        assert request.headers["authorization"] == f"Bearer {secret_key}"
        assert request.headers["content-type"] == "application/json"
        assert secret_key not in request.path
        sent.extend(_texts_sent(provider, request.body))
    assert sorted(sent) == sorted(texts)
    first = provider_server.requests[0].body
    if provider == "openai":
        assert first == {
            "model": "text-embedding-3-small",
            "input": first["input"],
            "encoding_format": "float",
        }
    elif provider == "cohere":
        assert first["model"] == "embed-v4.0"
        assert first["input_type"] == "search_document"
        assert first["embedding_types"] == ["float"]
    else:
        assert first["model"] == "nomic-embed-text"
        assert all(text.startswith("search_document: ") for text in first["input"])
    await embedder.aclose()


async def test_batches_are_sorted_by_length(provider_server: Any, hosted_embedder: Any) -> None:
    embedder = hosted_embedder("openai", batch_size=2)
    await embedder.embed(["aaaa", "b", "ccc", "dd"])
    assert [request.body["input"] for request in provider_server.requests] == [["b", "dd"], ["ccc", "aaaa"]]
    await embedder.aclose()


@pytest.mark.parametrize(
    ("provider", "expected"),
    [
        ("openai", {"model": "text-embedding-3-small", "input": ["find user"], "encoding_format": "float"}),
        ("cohere", {"input_type": "search_query", "texts": ["find user"]}),
        ("ollama", {"input": ["search_query: find user"]}),
    ],
)
async def test_embed_query_uses_the_query_form(
    provider: str, expected: dict[str, Any], provider_server: Any, hosted_embedder: Any
) -> None:
    embedder = hosted_embedder(provider)
    vector = await embedder.embed_query("find user")
    assert len(vector) == 4
    body = provider_server.requests[0].body
    assert {key: body[key] for key in expected} == expected
    await embedder.aclose()


async def test_empty_input_makes_no_call(provider_server: Any, hosted_embedder: Any) -> None:
    embedder = hosted_embedder("cohere")
    assert await embedder.embed([]) == []
    assert embedder.calls == 0
    assert provider_server.requests == []


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_429_with_retry_after_waits_then_succeeds(
    provider: str, provider_server: Any, hosted_embedder: Any
) -> None:
    embedder = hosted_embedder(provider)
    provider_server.script(Reply(status=429, body={"message": "slow down"}, headers={"Retry-After": "1"}))

    started = time.monotonic()
    vectors = await embedder.embed(["hello"])

    assert time.monotonic() - started >= 0.95
    assert len(vectors) == 1
    assert len(provider_server.requests) == 2
    assert (embedder.calls, embedder.retries) == (1, 1)
    await embedder.aclose()


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_500_then_success(provider: str, provider_server: Any, hosted_embedder: Any) -> None:
    embedder = hosted_embedder(provider)
    provider_server.script(Reply(status=500, body={"error": "internal"}), Reply(status=503, body=b"down"))
    assert len(await embedder.embed(["hello", "world"])) == 2
    assert len(provider_server.requests) == 3
    assert embedder.retries == 2
    await embedder.aclose()


async def test_a_timeout_is_retried(provider_server: Any, hosted_embedder: Any) -> None:
    # The held reply outlasts the attempt timeout by far; the immediate retry has a whole second,
    # which a loaded machine still answers within.
    policy = RetryPolicy(max_attempts=3, base_delay=0.01, timeout=1.0)
    embedder = hosted_embedder("ollama", retry=policy)
    provider_server.script(Reply(delay=2.5))
    assert len(await embedder.embed(["slow"])) == 1
    assert len(provider_server.requests) == 2
    await embedder.aclose()


async def test_retries_are_bounded_and_the_last_error_is_transient(provider_server: Any, hosted_embedder: Any) -> None:
    # Only the last attempt goes unanswered. A reply is chosen when the server reads a request, so an
    # attempt abandoned on a timeout may be read after the next one; the two earlier attempts end in
    # answers the client waits for, which keeps arrival order equal to attempt order. The deadline
    # is generous for a loopback answer, and the unanswered attempt is held until teardown.
    policy = RetryPolicy(max_attempts=3, base_delay=0.01, timeout=2.0)
    embedder = hosted_embedder("openai", retry=policy)
    provider_server.script(Reply(status=502, body={}), Reply(status=503, body={}), Reply(delay=600))

    with pytest.raises(EmbeddingError) as caught:
        await embedder.embed(["never"])

    assert caught.value.transient
    assert "timed out" in caught.value.reason  # the last attempt's failure, not an earlier 502 or 503
    assert "gave up after 3 attempts" in caught.value.reason
    await provider_server.requested(3)  # the held attempt is counted however late the server read it
    assert len(provider_server.requests) == 3
    assert embedder.calls == 0


async def test_a_retry_after_beyond_the_cap_fails_at_once(provider_server: Any, hosted_embedder: Any) -> None:
    embedder = hosted_embedder("cohere")
    provider_server.script(Reply(status=429, body={"message": "quota"}, headers={"Retry-After": "3600"}))
    with pytest.raises(EmbeddingError) as caught:
        await embedder.embed(["x"])
    assert caught.value.transient
    assert "3600" in caught.value.reason
    assert len(provider_server.requests) == 1


async def test_retry_after_as_an_http_date(provider_server: Any, hosted_embedder: Any) -> None:
    embedder = hosted_embedder("openai")
    provider_server.script(Reply(status=503, body={}, headers={"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}))
    assert len(await embedder.embed(["past date means no wait"])) == 1
    assert len(provider_server.requests) == 2


def _all_text(error: BaseException) -> str:
    return "".join([str(error), repr(error), *traceback.format_exception(error)])


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_401_is_not_retried_and_never_shows_the_key(
    provider: str, provider_server: Any, hosted_embedder: Any, secret_key: str
) -> None:
    embedder = hosted_embedder(provider)
    echo = {"error": {"message": f"Incorrect API key provided: {secret_key}", "code": "invalid_api_key"}}
    provider_server.script(Reply(status=401, body=echo))

    with pytest.raises(EmbeddingError) as caught:
        await embedder.embed(["x"])

    assert not caught.value.transient
    assert "401" in caught.value.reason
    assert len(provider_server.requests) == 1
    assert secret_key not in _all_text(caught.value)
    assert secret_key not in repr(embedder)
    await embedder.aclose()


async def test_a_bad_request_is_permanent_and_its_message_scrubbed(
    provider_server: Any, hosted_embedder: Any, secret_key: str
) -> None:
    embedder = hosted_embedder("openai")
    message = f"This model's maximum context length is 8192 tokens (key {secret_key})"
    provider_server.script(Reply(status=400, body={"error": {"message": message, "type": "invalid_request_error"}}))

    with pytest.raises(EmbeddingError) as caught:
        await embedder.embed(["x"])

    assert not caught.value.transient
    assert "maximum context length" in caught.value.reason
    assert secret_key not in _all_text(caught.value)
    assert len(provider_server.requests) == 1
    await embedder.aclose()


async def test_wrong_dimension_is_a_permanent_error(provider_server: Any, hosted_embedder: Any) -> None:
    provider_server.dimension = 3
    embedder = hosted_embedder("ollama")
    with pytest.raises(EmbeddingError) as caught:
        await embedder.embed(["x"])
    assert not caught.value.transient
    assert "3-d" in caught.value.reason
    await embedder.aclose()


async def test_a_malformed_answer_is_reported(provider_server: Any, hosted_embedder: Any) -> None:
    embedder = hosted_embedder("cohere", retry=RetryPolicy(max_attempts=1))
    provider_server.script(Reply(body={"embeddings": {"int8": [[1, 2, 3, 4]]}}))
    with pytest.raises(EmbeddingError, match="unexpected response"):
        await embedder.embed(["x"])
    await embedder.aclose()


async def test_an_unreachable_server_is_transient(hosted_embedder: Any) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    embedder = hosted_embedder(
        "ollama", base_url=f"http://127.0.0.1:{port}", retry=RetryPolicy(max_attempts=2, base_delay=0.01)
    )
    with pytest.raises(EmbeddingError) as caught:
        await embedder.embed(["x"])
    assert caught.value.transient
    assert "network error" in caught.value.reason


async def test_dimensions_are_requested_only_when_asked(provider_server: Any, hosted_embedder: Any) -> None:
    embedder = hosted_embedder("openai", send_dimensions=True)
    await embedder.embed(["x"])
    assert provider_server.requests[0].body["dimensions"] == 4
    cohere = hosted_embedder("cohere", send_dimensions=True)
    await cohere.embed(["x"])
    assert provider_server.requests[1].body["output_dimension"] == 4
    await embedder.aclose()
    await cohere.aclose()


async def test_concurrent_batches_all_land_in_place(
    provider_server: Any, hosted_embedder: Any, vector_for: Any
) -> None:
    embedder = hosted_embedder("openai", batch_size=1, concurrency=4)
    texts = [f"text number {'x' * index}" for index in range(12)]
    assert await embedder.embed(texts) == [vector_for(text) for text in texts]
    assert embedder.calls == 12
    await embedder.aclose()


def test_model_ids_name_the_provider(hosted_embedder: Any) -> None:
    assert hosted_embedder("openai").model_id == "openai/text-embedding-3-small"
    assert hosted_embedder("cohere").model_id == "cohere/embed-v4.0"
    assert hosted_embedder("ollama").model_id == "ollama/nomic-embed-text"


async def test_a_redirect_is_not_followed(provider_server: Any, hosted_embedder: Any) -> None:
    embedder = hosted_embedder("openai")
    provider_server.script(Reply(status=308, body={}, headers={"Location": "http://elsewhere.invalid/v1"}))
    with pytest.raises(EmbeddingError, match="redirect") as caught:
        await embedder.embed(["x"])
    assert not caught.value.transient
    assert len(provider_server.requests) == 1
    await embedder.aclose()


async def test_empty_texts_are_sent_as_a_space(provider_server: Any, hosted_embedder: Any) -> None:
    embedder = hosted_embedder("openai")
    vectors = await embedder.embed(["", "a"])
    assert provider_server.requests[0].body["input"] == [" ", "a"]
    assert len(vectors) == 2
    await embedder.aclose()


@pytest.mark.parametrize(
    "garbage",
    [b"\xff\xfe\x00not utf-8 \xc3\x28", b"<html>502 Bad Gateway</html>", b'{"data": [truncated'],
    ids=["not-utf8", "html", "truncated-json"],
)
@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_malformed_reply_is_retried_as_one_failed_batch(
    provider: str, garbage: bytes, provider_server: Any, hosted_embedder: Any
) -> None:
    embedder = hosted_embedder(provider)
    provider_server.script(Reply(body=garbage))

    vectors = await embedder.embed(["hello"])

    assert len(vectors) == 1
    assert len(provider_server.requests) == 2
    assert embedder.retries == 1
    await embedder.aclose()


async def test_a_reply_that_stays_malformed_fails_the_batch_as_transient(
    provider_server: Any, hosted_embedder: Any
) -> None:
    embedder = hosted_embedder("openai", retry=RetryPolicy(max_attempts=2, base_delay=0.01))
    provider_server.script(Reply(body=b"\xff\xfe garbage"), Reply(body=b"\xff\xfe garbage"))

    with pytest.raises(EmbeddingError) as caught:
        await embedder.embed(["x"])

    assert caught.value.transient  # an EmbeddingError, never a UnicodeDecodeError out of the run
    assert "malformed" in caught.value.reason
    assert len(provider_server.requests) == 2
    await embedder.aclose()
