"""``python -m sextant.reviewer``: run the reviewer alone against NATS_URL and QDRANT_URL."""

import os

from sextant.bus import run_service
from sextant.reviewer.app import SERVICE_NAME, router_factory

run_service(SERVICE_NAME, router_factory(os.environ), os.environ)
