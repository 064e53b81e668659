"""store_from_env: embedded by default, a server when QDRANT_URL is set, the key only ever in a header."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from qdrant_client import QdrantClient, models

from sextant.chunkstore import collection_name, store_from_env
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.chunkstore.server_store import QdrantServerChunkStore

SECRET = "s3cr3t-api-key-value"
MODEL = "test/model"


def _collection_info_json(name: str) -> dict[str, Any]:
    # The real shape of GET /collections/{name}, produced by qdrant-client's own local engine.
    local = QdrantClient(":memory:")
    local.create_collection(
        name,
        vectors_config={"dense": models.VectorParams(size=8, distance=models.Distance.COSINE)},
        sparse_vectors_config={"sparse": models.SparseVectorParams(modifier=models.Modifier.IDF)},
    )
    info: dict[str, Any] = json.loads(local.get_collection(name).model_dump_json(exclude_none=True))
    local.close()
    return info


QDRANT_VERSION = "1.20.0"


class FakeQdrant(ThreadingHTTPServer):
    """A local HTTP server answering the few REST calls the adapter makes, recording each request."""

    def __init__(self, collection: str) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.collection_info = _collection_info_json(collection)
        self.requests: list[tuple[str, str, dict[str, str]]] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(BaseHTTPRequestHandler):
    server: FakeQdrant

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        return

    def _reply(self, result: Any) -> None:
        body = json.dumps({"result": result, "status": "ok", "time": 0.0}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        self.server.requests.append((self.command, self.path, dict(self.headers.items())))
        path = self.path.split("?")[0]
        if path == "/":  # the server's root answers with its version (qdrant-client checks compatibility)
            body = json.dumps({"title": "qdrant - vector search engine", "version": QDRANT_VERSION}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif path.endswith("/exists"):
            self._reply({"exists": True})
        elif path.endswith("/index"):
            self._reply({"operation_id": 1, "status": "completed"})
        elif path.endswith("/points/count"):
            self._reply({"count": 3})
        else:
            self._reply(self.server.collection_info)

    # http.server dispatches on these exact names.
    def do_GET(self) -> None:
        self._handle()

    def do_PUT(self) -> None:
        self._handle()

    def do_POST(self) -> None:
        self._handle()


@pytest.fixture
def fake_qdrant() -> Iterator[FakeQdrant]:
    server = FakeQdrant(collection_name(MODEL, 8))
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)  # shutdown() waits a poll
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_qdrant_url_selects_the_server_and_sends_the_key_as_a_header(
    fake_qdrant: FakeQdrant, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    caplog.set_level(logging.DEBUG)
    env = {"QDRANT_URL": fake_qdrant.url, "QDRANT_API_KEY": SECRET, "QDRANT_PATH": str(tmp_path / "unused")}

    with pytest.warns(UserWarning, match="insecure"):  # plain http in the test; qdrant-client says so
        store = store_from_env(env, model_id=MODEL, dimension=8, default_path=tmp_path)
    try:
        assert isinstance(store, QdrantServerChunkStore)
        assert store.collection == "sextant_chunks__test_model__8"
        assert store.count("r") == 3
    finally:
        store.close()

    assert fake_qdrant.requests
    for _method, path, headers in fake_qdrant.requests:
        assert headers.get("api-key") == SECRET
        assert SECRET not in path
    index_calls = [path for method, path, _h in fake_qdrant.requests if "/index" in path and method == "PUT"]
    assert len(index_calls) == 5  # repo_key, path, kind, last_modified_at, symbol
    assert SECRET not in caplog.text
    assert not (tmp_path / "unused").exists()


def test_credentials_in_the_url_are_refused_without_echoing_them(tmp_path: Path) -> None:
    env = {"QDRANT_URL": f"https://user:{SECRET}@qdrant.example:6333"}

    with pytest.raises(ValueError, match="QDRANT_API_KEY") as raised:
        store_from_env(env, model_id=MODEL, dimension=8, default_path=tmp_path)

    assert SECRET not in str(raised.value)


def test_no_url_means_the_embedded_store_under_qdrant_path(tmp_path: Path) -> None:
    store = store_from_env({"QDRANT_PATH": str(tmp_path / "q")}, model_id=MODEL, dimension=8, default_path=tmp_path)
    try:
        assert isinstance(store, EdgeChunkStore)
        assert store.directory == tmp_path / "q" / "sextant_chunks__test_model__8"
    finally:
        store.close()


def test_nothing_set_means_the_embedded_store_under_the_default_path(tmp_path: Path) -> None:
    store = store_from_env({"QDRANT_URL": " "}, model_id=MODEL, dimension=8, default_path=tmp_path / "d")
    try:
        assert isinstance(store, EdgeChunkStore)
        assert store.directory.parent == tmp_path / "d"
    finally:
        store.close()
