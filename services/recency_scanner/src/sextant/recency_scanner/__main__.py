"""``python -m sextant.recency_scanner``: run the scanner alone against NATS_URL."""

import os

from sextant.bus import run_service
from sextant.recency_scanner.app import SERVICE_NAME, router_factory

run_service(SERVICE_NAME, router_factory(os.environ), os.environ)
