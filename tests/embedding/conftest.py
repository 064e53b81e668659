"""Fixtures for the embedding tests: the real local model (once per session) and a local HTTP server
that speaks the hosted providers' real request/response JSON."""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from sextant.embedding import (
    CohereEmbedder,
    HostedEmbedder,
    LocalMiniLM,
    OllamaEmbedder,
    OpenAICompatibleEmbedder,
    RetryPolicy,
)
from sextant.embedding.minilm_model import shared_minilm

FAKE_DIMENSION = 4
SECRET_KEY = "sk-test-SECRET-0123456789abcdef"


@pytest.fixture(scope="session")
def minilm() -> LocalMiniLM:
    """The real local model, loaded once for the whole session (LocalMiniLM shares the loaded copy)."""
    shared_minilm()
    return LocalMiniLM()


def fake_vector(text: str, dimension: int = FAKE_DIMENSION) -> list[float]:
    """A vector a test can trace back to its text: length, then the first characters' code points."""
    values = [float(len(text))] + [float(ord(character)) for character in text[: dimension - 1]]
    return values + [0.0] * (dimension - len(values))


@dataclass
class Reply:
    """One scripted answer; `body=None` means the provider's normal success answer for the request."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass
class RecordedRequest:
    """What the server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any


def _success_body(provider: str, request: Any, dimension: int) -> Any:
    if provider == "openai":
        texts = request["input"]
        data = [
            {"object": "embedding", "index": index, "embedding": fake_vector(text, dimension)}
            for index, text in enumerate(texts)
        ]
        # OpenAI documents `index`; return the items reversed so the client must use it.
        return {
            "object": "list",
            "data": list(reversed(data)),
            "model": request["model"],
            "usage": {"prompt_tokens": 3, "total_tokens": 3},
        }
    if provider == "cohere":
        texts = request["texts"]
        return {
            "id": "5807ee2e-0cda-445a-9ec8-864c60a06606",
            "embeddings": {"float": [fake_vector(text, dimension) for text in texts]},
            "texts": texts,
            "meta": {"api_version": {"version": "2"}, "billed_units": {"input_tokens": 3}},
            "response_type": "embeddings_by_type",
        }
    if provider == "ollama":
        texts = request["input"]
        return {
            "model": request["model"],
            "embeddings": [fake_vector(text, dimension) for text in texts],
            "total_duration": 14143917,
            "load_duration": 1019500,
            "prompt_eval_count": 8,
        }
    raise AssertionError(provider)


class FakeProviderServer:
    """A threaded HTTP server on 127.0.0.1 that records requests and plays scripted replies."""

    def __init__(self) -> None:
        self.provider = "openai"
        self.dimension = FAKE_DIMENSION
        self.requests: list[RecordedRequest] = []
        self.replies: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def script(self, *replies: Reply) -> None:
        """Queue replies; once they run out every request gets the success answer."""
        self.replies.extend(replies)

    def _next_reply(self) -> Reply:
        with self._lock:
            return self.replies.popleft() if self.replies else Reply()

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"null")
                with server._lock:
                    server.requests.append(
                        RecordedRequest("POST", self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                    )
                reply = server._next_reply()
                if reply.delay:
                    time.sleep(reply.delay)
                payload = reply.body
                if payload is None and reply.status == 200:
                    payload = _success_body(server.provider, body, server.dimension)
                data = json.dumps(payload).encode() if not isinstance(payload, bytes) else payload
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

            def log_message(self, format: str, *args: Any) -> None:
                return

        return Handler

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


@pytest.fixture
def provider_server() -> Iterator[FakeProviderServer]:
    """A fresh fake provider server per test."""
    server = FakeProviderServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def reply() -> Callable[..., Reply]:
    """Build a scripted reply (tests cannot import conftest classes directly)."""
    return Reply


@pytest.fixture
def secret_key() -> str:
    """The fake API key; tests assert it never leaks."""
    return SECRET_KEY


@pytest.fixture
def vector_for() -> Callable[[str], list[float]]:
    """The vector the fake server returns for a text."""
    return fake_vector


FAST_RETRY = RetryPolicy(max_attempts=4, base_delay=0.01, max_delay=5.0, timeout=2.0)
_EMBEDDER_CLASSES: dict[str, type[HostedEmbedder]] = {
    "openai": OpenAICompatibleEmbedder,
    "cohere": CohereEmbedder,
    "ollama": OllamaEmbedder,
}
_MODELS = {"openai": "text-embedding-3-small", "cohere": "embed-v4.0", "ollama": "nomic-embed-text"}


@pytest.fixture
def hosted_embedder(provider_server: FakeProviderServer) -> Callable[..., HostedEmbedder]:
    """Build a provider's embedder pointed at the fake server (fast retries, 4-d vectors, the fake key)."""

    def build(provider: str, **overrides: Any) -> HostedEmbedder:
        provider_server.provider = provider
        base_url = provider_server.url + ("/v1" if provider == "openai" else "")
        settings: dict[str, Any] = {
            "model": _MODELS[provider],
            "dimension": FAKE_DIMENSION,
            "max_chars": 1000,
            "batch_size": 2,
            "base_url": base_url,
            "api_key": SECRET_KEY,
            "retry": FAST_RETRY,
            "concurrency": 1,
        }
        settings.update(overrides)
        return _EMBEDDER_CLASSES[provider](**settings)

    return build
