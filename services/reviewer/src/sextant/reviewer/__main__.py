"""``python -m sextant.reviewer``: run this service alone against the NATS server NATS_URL names."""

import os

from sextant.bootstrap import run_declared_service
from sextant.reviewer.app import SERVICE

run_declared_service(SERVICE, os.environ)
