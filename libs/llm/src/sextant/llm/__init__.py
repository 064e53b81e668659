"""Language-model clients (Anthropic, OpenAI-compatible), the traced call, and untrusted-text fencing."""

from sextant.llm.anthropic import AnthropicModel
from sextant.llm.completion import Completion, LanguageModel, LanguageModelConfigError, LanguageModelError
from sextant.llm.environment import model_from_env
from sextant.llm.http_retry import RetryPolicy
from sextant.llm.openai_compatible import OpenAICompatibleModel
from sextant.llm.traced_call import failure_reason, traced_completion
from sextant.llm.untrusted import UNTRUSTED_DATA_RULE, clean_untrusted_line, fence_untrusted, strip_invisible

__all__ = [
    "UNTRUSTED_DATA_RULE",
    "AnthropicModel",
    "Completion",
    "LanguageModel",
    "LanguageModelConfigError",
    "LanguageModelError",
    "OpenAICompatibleModel",
    "RetryPolicy",
    "clean_untrusted_line",
    "failure_reason",
    "fence_untrusted",
    "model_from_env",
    "strip_invisible",
    "traced_completion",
]
