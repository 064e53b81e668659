"""``python -m sextant.webhooks``: the webhook server, publishing to the NATS server NATS_URL names."""

import os
import sys

from sextant.config import env_str
from sextant.telemetry import configure_logging
from sextant.webhooks.app import serve

configure_logging(env_str(os.environ, "LOG_LEVEL", "INFO") or "INFO")
url = env_str(os.environ, "NATS_URL")
if url is None:
    sys.exit("sextant.webhooks: set NATS_URL to the NATS server the webhooks publish to (e.g. nats://nats:4222)")
serve(os.environ, url)
