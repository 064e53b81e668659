"""``python -m sextant.analyzer``: run the analyzer alone against NATS_URL and the configured store."""

import os

from sextant.analyzer.app import SERVICE_NAME, router_factory
from sextant.bus import run_service
from sextant.chunkstore.model_store import store_for_model
from sextant.embedding import embedder_from_env

store = store_for_model(os.environ, embedder_from_env(os.environ))
run_service(SERVICE_NAME, router_factory(os.environ, store=store), os.environ)
