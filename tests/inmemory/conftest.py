"""The in-memory tier borrows the PR bot's local GitHub (a fake of a hosted API, on real uvicorn)."""

from ..pr_bot.conftest import github  # noqa: F401 — the fixture, re-exported
