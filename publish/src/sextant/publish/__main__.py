"""``python -m sextant.publish`` is ``sextant-publish``."""

from sextant.publish.main import run

run()
