"""``python -m sextant.bootstrap NAME``: run any declared service alone (e.g. one that has no module of its own)."""

import os
import sys

from sextant.bootstrap.hosting import USAGE_EXIT_STATUS, run_declared_service
from sextant.bootstrap.registry import declared_services

by_name = {declaration.name: declaration for declaration in declared_services()}
if len(sys.argv) != 2 or sys.argv[1] not in by_name:
    print(f"usage: python -m sextant.bootstrap {{{','.join(by_name)}}}", file=sys.stderr)  # noqa: T201
    raise SystemExit(USAGE_EXIT_STATUS)
run_declared_service(by_name[sys.argv[1]], os.environ)
