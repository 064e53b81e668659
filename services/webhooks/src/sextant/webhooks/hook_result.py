"""What translating one hook gives: an event to publish, or the reason it is ignored."""

from __future__ import annotations

from dataclasses import dataclass

from sextant.contracts import RepoUpdated, ReviewRequested, stable_id

HookEvent = RepoUpdated | ReviewRequested


@dataclass(frozen=True)
class Ignored:
    """A hook acknowledged and deliberately not acted on."""

    reason: str


def run_id_for_delivery(provider: str, delivery_id: str) -> str:
    """The run a delivery starts: derived from the host's delivery id, so a redelivery is the same run
    and its event the same event (JetStream then stores it once).

    Args:
        provider: "github" or "gitlab".
        delivery_id: The host's id of this delivery.

    Returns:
        A stable run id.
    """
    return stable_id("webhook", provider, delivery_id)
