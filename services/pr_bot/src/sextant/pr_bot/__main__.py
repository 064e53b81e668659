"""``python -m sextant.pr_bot [--dry-run]``: post reviews from the NATS server NATS_URL names."""

import os
import sys

from sextant.bootstrap import run_declared_service
from sextant.pr_bot.app import SERVICE

env = dict(os.environ)
if "--dry-run" in sys.argv[1:]:
    env["PR_BOT_DRY_RUN"] = "true"
run_declared_service(SERVICE, env)
