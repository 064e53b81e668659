"""The one retry policy of every provider call, against a real local HTTP server playing each fault."""

from __future__ import annotations

from typing import Any

import pytest

from sextant.provider_http import ProviderHTTPError, RetryPolicy, post_json

FAST = RetryPolicy(max_attempts=3, base_delay=0.01, max_delay=0.02, max_retry_after=1.0, timeout=5.0)
KEY = "sk-test-0123456789abcdef"


async def call(server: Any, policy: RetryPolicy = FAST, **options: Any) -> Any:
    return await post_json(
        provider="test",
        url=f"{server.url}/v1/x",
        headers={"authorization": f"Bearer {KEY}"},
        body={"q": 1},
        policy=policy,
        secrets=(KEY,),
        **options,
    )


@pytest.mark.parametrize(
    "failure",
    [
        {"status": 429, "body": {"error": {"message": "slow down"}}, "headers": {"retry-after": "0"}},
        {"status": 500, "body": {}},
        {"status": 503, "raw": b"<html>down</html>"},
        {"status": 529, "body": {"type": "error", "error": {"type": "overloaded_error"}}},
        {"status": 408, "body": {}},
        {"status": 200, "raw": b"\xff\xfe not utf-8 \xc3\x28"},
        {"status": 200, "raw": b'{"data": [trunc'},
    ],
    ids=["429", "500", "503-html", "529", "408", "200-not-utf8", "200-truncated"],
)
async def test_a_transient_failure_is_retried_then_the_answer_returned(provider_server: Any, failure: Any) -> None:
    provider_server.script(failure, {"body": {"ok": True}})

    result = await call(provider_server)

    assert result.answer == {"ok": True}
    assert (result.retries, len(provider_server.requests)) == (1, 2)


@pytest.mark.parametrize(
    ("failure", "transient"),
    [
        ({"status": 400, "body": {"error": {"message": "bad input"}}}, False),
        ({"status": 404, "body": {}}, False),
        ({"status": 501, "body": {}}, False),
        ({"status": 500, "body": {}, "headers": {"x-should-retry": "false"}}, False),
        ({"status": 302, "body": {}, "headers": {"location": "http://elsewhere.invalid/"}}, False),
        ({"status": 429, "body": {}, "headers": {"retry-after": "3600"}}, True),
    ],
    ids=["400", "404", "501", "x-should-retry-false", "redirect", "retry-after-too-long"],
)
async def test_a_failure_that_would_not_pass_is_not_retried(
    provider_server: Any, failure: Any, transient: bool
) -> None:
    provider_server.script(failure)

    with pytest.raises(ProviderHTTPError) as caught:
        await call(provider_server)

    assert len(provider_server.requests) == 1
    assert caught.value.transient is transient
    assert caught.value.attempts == 1


async def test_x_should_retry_true_makes_a_4xx_retryable(provider_server: Any) -> None:
    provider_server.script({"status": 400, "body": {}, "headers": {"x-should-retry": "true"}}, {"body": {"ok": 1}})

    assert (await call(provider_server)).retries == 1


async def test_attempts_are_bounded_and_the_last_reason_is_kept(provider_server: Any) -> None:
    provider_server.script({"status": 502, "body": {"error": {"message": "bad gateway"}}})

    with pytest.raises(ProviderHTTPError) as caught:
        await call(provider_server)

    assert len(provider_server.requests) == 3
    assert (caught.value.attempts, caught.value.status, caught.value.transient) == (3, 502, True)
    assert "bad gateway" in caught.value.reason
    assert "gave up after 3 attempts" in caught.value.reason


async def test_a_timeout_is_retried(provider_server: Any) -> None:
    provider_server.script({"delay": 30.0, "body": {}}, {"body": {"ok": True}})

    # Two seconds: long enough that the prompt second answer never times out on a loaded machine.
    result = await call(provider_server, attempt_timeout=2.0)

    assert result.answer == {"ok": True}
    assert len(provider_server.requests) == 2


async def test_a_refused_connection_is_retried_then_reported() -> None:
    class Nowhere:
        url = "http://127.0.0.1:9"  # discard port on loopback: nothing listens

    with pytest.raises(ProviderHTTPError) as caught:
        await call(Nowhere())

    assert caught.value.attempts == 3
    assert "connection failed" in caught.value.reason


async def test_no_reason_ever_carries_the_key(provider_server: Any) -> None:
    echo = {"error": {"type": "authentication_error", "message": f"invalid key {KEY[:12]}... ({KEY})"}}
    provider_server.script({"status": 401, "body": echo})

    with pytest.raises(ProviderHTTPError) as caught:
        await call(provider_server)

    assert KEY not in str(caught.value)
    assert KEY[:12] not in str(caught.value)  # the message is dropped for auth failures, not just redacted
    assert "authentication_error" in caught.value.reason
    assert len(provider_server.requests) == 1


async def test_a_server_requested_wait_is_used(provider_server: Any) -> None:
    provider_server.script({"status": 429, "body": {}, "headers": {"retry-after-ms": "10"}}, {"body": {"ok": 1}})

    assert (await call(provider_server)).retries == 1
