"""Analyzer test fixtures: realistic payloads from real parsing, the real embedded store, selections
made by the real selection rules, and a local HTTP server speaking the model providers' wire formats."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from sextant.chunkstore import ChunkPayload, ChunkPoint, SparseVector, point_id
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.contracts import (
    ChunksSelected,
    Purpose,
    RepoRef,
)
from sextant.indexer.chunk_points import FileVersion, chunk_payload
from sextant.parsing import build_chunks
from sextant.selection import select_from_payloads

from ..support.embedders import FakeEmbedder
from ..support.events import chunks_selected
from ..support.provider_server import ProviderServer, Reply

DIMENSION = 4
REPO = RepoRef.for_url("https://example.com/acme/shop.git")


def payloads_for(files: dict[str, tuple[str, str | None]], repo_key: str = REPO.repo_key) -> list[ChunkPayload]:
    """Chunk payloads exactly as the indexer builds them: path → (text, last commit date or None)."""
    payloads: list[ChunkPayload] = []
    for path, (text, date) in files.items():
        chunks = build_chunks(path, text, max_chars=1200)
        version = FileVersion(
            repo_key=repo_key,
            blob_sha="0" * 40,
            chunk_count=len(chunks),
            run_id="run-0",
            added=True,
            stamp=date,
            indexed_at="2026-06-01T00:00:00Z",
        )
        payloads.extend(chunk_payload(chunk, version) for chunk in chunks)
    return payloads


def selection_event(
    payloads: list[ChunkPayload], purpose: Purpose = "analysis", limit: int = 80, run_id: str = "run-1"
) -> ChunksSelected:
    """The ChunksSelected the selector would publish for these payloads."""
    selection = select_from_payloads(payloads, limit)
    chunks = list(selection.chunks)
    return chunks_selected(
        REPO,
        purpose,
        limit,
        run_id,
        chunks=chunks,
        median_code=selection.median_code,
        counts=selection.counts(),
        head_sha="c0ffee" * 6 + "abcd",
    )


def store_payloads(store: EdgeChunkStore, payloads: list[ChunkPayload]) -> None:
    """Write payloads into the real embedded store (vectors are irrelevant to the analyzer)."""
    points = [
        ChunkPoint(
            id=point_id(p.repo_key, p.path, p.symbol, p.start_line, p.window),
            dense=[1.0, 0.0, 0.0, 0.0],
            sparse=SparseVector(indices=[], values=[]),
            payload=p,
        )
        for p in payloads
    ]
    store.upsert(points)


SHOP_FILES: dict[str, tuple[str, str | None]] = {
    "README.md": (
        "# Shop\n\n[![build](https://ci.example.com/badge.svg)](https://ci.example.com)\n\n"
        "Shop is a small **order service** that takes [orders](docs/orders.md) and bills customers.\n"
        "It runs as one process.\n\n## Usage\n\nCall `create_order()` from `shop/orders.py`.\n",
        "2026-05-20T10:00:00+00:00",
    ),
    "docs/design.md": (
        "# Design\n\nOrders are stored by `OrderRepository.save_legacy()` in `shop/storage.py`.\n"
        "Set `SHOP_DB_URL` to choose the database.\n",
        "2024-08-12T09:00:00+00:00",
    ),
    "pyproject.toml": (
        '[project]\nname = "shop"\nversion = "1.0.0"\ndescription = "Order service for the shop."\n'
        'dependencies = ["httpx>=0.27", "msgspec", "PyYAML>=6; python_version >= \'3.11\'"]\n\n'
        '[project.optional-dependencies]\npostgres = ["psycopg[binary]>=3.1"]\n\n'
        '[dependency-groups]\ndev = ["pytest>=8"]\n',
        "2026-05-01T12:00:00+00:00",
    ),
    "shop/__init__.py": ('"""Shop package."""\n', "2026-04-01T12:00:00+00:00"),
    "shop/orders.py": (
        '"""Orders."""\n\nimport os\n\nfrom shop.storage import OrderRepository\n\n\n'
        "def create_order(customer_id: str, total: int) -> dict[str, object]:\n"
        '    """Create an order and store it."""\n'
        '    order = {"customer": customer_id, "total": total}\n'
        '    OrderRepository(os.environ["SHOP_DB_URL"]).save(order)\n'
        "    return order\n\n\n"
        "def apply_discount(expression: str) -> int:\n"
        "    return eval(expression)\n",
        "2026-05-28T08:00:00+00:00",
    ),
    "shop/storage.py": (
        '"""Storage."""\n\nimport pickle\n\n\nclass OrderRepository:\n'
        '    """Keeps orders."""\n\n'
        "    def __init__(self, url: str) -> None:\n        self.url = url\n"
        '        self.password = "hunter22"\n\n'
        "    def save(self, order: dict[str, object]) -> None:\n"
        "        with open(self.url, 'ab') as handle:\n            pickle.dump(order, handle)\n\n"
        "    def load(self, raw: bytes) -> object:\n        return pickle.loads(raw)\n",
        "2026-05-10T08:00:00+00:00",
    ),
    "shop/billing.py": (
        "import subprocess\n\nfrom shop.orders import create_order\n\n\n"
        "def bill(customer_id: str) -> None:\n"
        "    create_order(customer_id, 10)\n"
        "    subprocess.run(f'notify {customer_id}', shell=True, check=True)\n",
        "2026-03-02T08:00:00+00:00",
    ),
    "tests/test_orders.py": (
        "from shop.orders import create_order\n\n\ndef test_create_order() -> None:\n"
        "    assert create_order('c1', 5)['total'] == 5\n",
        "2026-05-28T08:00:00+00:00",
    ),
    "web/package.json": (
        '{"name": "shop-web", "description": "Shop front end", '
        '"dependencies": {"react": "^18.2.0", "left-pad": "*"}, "devDependencies": {"vite": "^5.0.0"}}\n',
        "2026-02-01T08:00:00+00:00",
    ),
    ".env": ("SHOP_DB_URL=postgres://localhost/shop\n", "2026-01-01T08:00:00+00:00"),
}


@pytest.fixture
def shop_payloads() -> list[ChunkPayload]:
    """A small but realistic repository: code, tests, a fresh README, a stale design doc, manifests."""
    return payloads_for(SHOP_FILES)


@pytest.fixture
def edge_store(tmp_path: Path) -> Iterator[EdgeChunkStore]:
    """The real embedded Qdrant engine in a temp folder."""
    store = EdgeChunkStore(tmp_path / "qdrant", "test-analyzer", DIMENSION)
    try:
        yield store
    finally:
        store.close()


@pytest.fixture
def shop_store(edge_store: EdgeChunkStore, shop_payloads: list[ChunkPayload]) -> EdgeChunkStore:
    """The embedded store holding the shop repository."""
    store_payloads(edge_store, shop_payloads)
    return edge_store


class FakeProvider(ProviderServer):
    """The shared scripted provider server, scripted here as ``replies = [(status, body), ...]``."""

    @property
    def replies(self) -> list[tuple[int, Any]]:
        raise AttributeError("replies is write-only: read `requests` to see what was asked")

    @replies.setter
    def replies(self, pairs: list[tuple[int, Any]]) -> None:
        self.script(*(Reply(status=status, body=body) for status, body in pairs))


@pytest.fixture
def provider() -> Iterator[FakeProvider]:
    """A started fake provider server; the last scripted reply repeats."""
    with FakeProvider() as server:
        yield server


@pytest.fixture
def make_selection() -> Callable[..., ChunksSelected]:
    """selection_event as a fixture (test files share helpers only through fixtures)."""
    return selection_event


@pytest.fixture
def make_payloads() -> Callable[..., list[ChunkPayload]]:
    """payloads_for as a fixture."""
    return payloads_for


@pytest.fixture
def put_payloads() -> Callable[[EdgeChunkStore, list[ChunkPayload]], None]:
    """store_payloads as a fixture."""
    return store_payloads


@pytest.fixture
def letter_embedder() -> FakeEmbedder:
    """The instant test embedder (letter frequencies)."""
    return FakeEmbedder.letters()


@pytest.fixture(scope="session")
def slack_responder() -> Any:
    """The example module examples/slack_responder/slack_responder.py, loaded from its file."""
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "examples" / "slack_responder" / "slack_responder.py"
    spec = importlib.util.spec_from_file_location("slack_responder_example", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
