"""The one error a provider call ends with when it fails for good."""

from __future__ import annotations


class ProviderHTTPError(Exception):
    """A provider call that failed for good; ``reason`` is redacted and safe to log and to show."""

    def __init__(self, provider: str, reason: str, *, status: int | None, transient: bool, attempts: int) -> None:
        """Create the error.

        Args:
            provider: Provider name.
            reason: What went wrong, with every secret scrubbed.
            status: The last HTTP status, if an answer came.
            transient: True when the same request may pass later (rate limit, outage, timeout, garbled
                reply), False when it cannot without a change (bad key, bad request, redirect).
            attempts: Requests sent.
        """
        super().__init__(f"{provider}: {reason}")
        self.provider = provider
        self.reason = reason
        self.status = status
        self.transient = transient
        self.attempts = attempts
