"""``python -m sextant.analyzer``: run this service alone against the NATS server NATS_URL names."""

import os

from sextant.analyzer.app import SERVICE
from sextant.bootstrap import run_declared_service

run_declared_service(SERVICE, os.environ)
