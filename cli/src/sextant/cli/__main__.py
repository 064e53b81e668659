"""``python -m sextant.cli`` is the ``sextant`` command."""

from sextant.cli.main import run

run()
