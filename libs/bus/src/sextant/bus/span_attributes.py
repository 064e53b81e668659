"""The span attributes every event contributes: what a user needs to find and read a run."""

from __future__ import annotations

from sextant.contracts import Event, event_name


def event_attributes(event: Event) -> dict[str, str | int | bool]:
    """Repo key, run id, branch, event type and id, and the head commit when the event has one.

    Never secrets, never repository text.
    """
    attributes: dict[str, str | int | bool] = {
        "sextant.repo_key": event.repo.repo_key,
        "sextant.run_id": event.run_id,
        "sextant.event.type": event_name(type(event)),
        "sextant.event.id": event.event_id,
        "sextant.branch": event.repo.branch or "(default)",
    }
    head_sha = getattr(event, "head_sha", None)
    if isinstance(head_sha, str):
        attributes["sextant.head_sha"] = head_sha
    return attributes
