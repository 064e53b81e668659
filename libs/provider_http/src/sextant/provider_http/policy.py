"""How hard one provider call is tried: attempts, backoff and the longest wait a server may ask for."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class RetryPolicy:
    """Bounds of one provider call (the same for embeddings, language models and rerank)."""

    max_attempts: int = 4
    """Requests sent at most, the first one included."""
    base_delay: float = 0.5
    """Backoff before the second attempt, in seconds (also the jitter added to each wait); it doubles
    with every attempt."""
    max_delay: float = 8.0
    """Cap on one computed backoff, in seconds."""
    max_retry_after: float = 60.0
    """Longest server-requested wait (``retry-after``) honoured; a longer one ends the call at once."""
    timeout: float = 60.0
    """Seconds for one attempt, from connecting to the last byte (callers may pass their own)."""

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        if min(self.base_delay, self.max_delay, self.max_retry_after) < 0 or self.timeout <= 0:
            raise ValueError("delays must not be negative and the timeout must be positive")
