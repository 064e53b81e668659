"""The language-model port: one completion call, its result and its error."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Completion:
    """The text a model wrote, with what it cost and why it stopped."""

    text: str
    """The assistant's text (text blocks joined; reasoning blocks left out)."""
    model: str
    """The model that answered, as the provider names it (may be more specific than requested)."""
    provider: str
    """"anthropic" or "openai-compatible"."""
    input_tokens: int
    """Prompt tokens billed (Anthropic: cache reads and writes included); 0 when not reported."""
    output_tokens: int
    """Completion tokens billed; 0 when not reported."""
    stop_reason: str | None
    """Why generation stopped ("end_turn", "max_tokens", "stop", "length", ...), as the provider says."""


class LanguageModel(Protocol):
    """A hosted or local model that turns a system prompt and a user prompt into text."""

    provider: str
    """Provider family, e.g. "anthropic" or "openai-compatible"."""
    model: str
    """Model name sent with each request."""

    async def complete(self, *, system: str, prompt: str, max_tokens: int) -> Completion:
        """Ask the model for one completion.

        Args:
            system: The system prompt (instructions the repository text must not override).
            prompt: The user message.
            max_tokens: Upper bound on the output tokens.

        Returns:
            The completion. Raises LanguageModelError when the call fails after bounded retries.
        """
        ...


class LanguageModelError(Exception):
    """A model call that failed for good; its message is safe to log (no keys, no prompt text)."""

    def __init__(self, provider: str, reason: str, *, status: int | None = None, attempts: int = 1) -> None:
        super().__init__(f"{provider}: {reason}")
        self.provider = provider
        """Provider family that failed."""
        self.reason = reason
        """What went wrong, already redacted."""
        self.status = status
        """The last HTTP status, or None when no response came back (timeout, connection error)."""
        self.attempts = attempts
        """How many requests were sent before giving up."""


class LanguageModelConfigError(ValueError):
    """The environment asks for a model but leaves out something it needs (e.g. the model name)."""
