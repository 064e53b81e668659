"""``python -m sextant.selector``: run the selector alone against NATS_URL and QDRANT_URL."""

import os

from sextant.bus import run_service
from sextant.chunkstore.model_store import store_for_model
from sextant.embedding import embedder_from_env
from sextant.selector.app import SERVICE_NAME, router_factory

store = store_for_model(os.environ, embedder_from_env(os.environ))
run_service(SERVICE_NAME, router_factory(os.environ, store=store), os.environ)
