"""``python -m sextant`` is the ``sextant`` command."""

from sextant.cli.main import run

run()
