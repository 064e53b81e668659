"""``python -m sextant.indexer``: run the indexer alone against NATS_URL."""

import os

from sextant.bus import run_service
from sextant.indexer.app import SERVICE_NAME, router_factory

run_service(SERVICE_NAME, router_factory(os.environ), os.environ)
