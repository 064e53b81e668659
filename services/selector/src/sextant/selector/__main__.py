"""``python -m sextant.selector``: run this service alone against the NATS server NATS_URL names."""

import os

from sextant.bootstrap import run_declared_service
from sextant.selector.app import SERVICE

run_declared_service(SERVICE, os.environ)
