"""Bodies in the hosted providers' real wire formats (success and error), and answers built on them.

The ``*_echo`` / ``*_scores`` functions are ``ProviderServer`` answers: they read the request a client
sent (in the provider's format) and answer as that provider would, so a contract test can check that
what it asked for reached the provider and what came back reached the caller.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def anthropic_message(
    text: str,
    *,
    model: str = "claude-sonnet-4-5-20250929",
    input_tokens: int = 0,
    output_tokens: int = 0,
    stop_reason: str = "end_turn",
) -> dict[str, Any]:
    """An Anthropic Messages API response with one text block."""
    return {
        "id": "msg_01",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": text}],
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
    }


def openai_chat_completion(
    text: str,
    *,
    model: str = "gpt-4.1-mini-2025-04-14",
    prompt_tokens: int = 0,
    completion_tokens: int = 0,
    finish_reason: str = "stop",
) -> dict[str, Any]:
    """An OpenAI Chat Completions response with one choice."""
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1_767_225_600,
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish_reason}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def cohere_rerank(scores: list[float]) -> dict[str, Any]:
    """A Cohere v2 rerank response for index-aligned scores (listed best first, as Cohere does)."""
    best_first = sorted(range(len(scores)), key=lambda index: -scores[index])
    return {
        "id": "07734bd2-2473-4f07-94e1-0d9f0e6843cf",
        "results": [{"index": index, "relevance_score": scores[index]} for index in best_first],
        "meta": {"api_version": {"version": "2"}, "billed_units": {"search_units": 1}},
    }


def openai_embeddings(vectors: Sequence[list[float]], *, model: str, tokens: int = 3) -> dict[str, Any]:
    """An OpenAI /v1/embeddings response, one item per input in order (each item names its ``index``)."""
    data = [{"object": "embedding", "index": index, "embedding": vector} for index, vector in enumerate(vectors)]
    return {"object": "list", "data": data, "model": model, "usage": {"prompt_tokens": tokens, "total_tokens": tokens}}


def openai_error(message: str, kind: str = "invalid_request_error") -> dict[str, Any]:
    """An OpenAI error body (what a 4xx or 5xx carries)."""
    return {"error": {"message": message, "type": kind}}


def cohere_embeddings(texts: Sequence[str], vectors: Sequence[list[float]]) -> dict[str, Any]:
    """A Cohere v2 /embed response with float embeddings."""
    return {
        "id": "5807ee2e-0cda-445a-9ec8-864c60a06606",
        "embeddings": {"float": list(vectors)},
        "texts": list(texts),
        "meta": {"api_version": {"version": "2"}, "billed_units": {"input_tokens": 3}},
        "response_type": "embeddings_by_type",
    }


def ollama_embeddings(vectors: Sequence[list[float]], *, model: str) -> dict[str, Any]:
    """An Ollama /api/embed response."""
    return {
        "model": model,
        "embeddings": list(vectors),
        "total_duration": 14143917,
        "load_duration": 1019500,
        "prompt_eval_count": 8,
    }


def echo_text(system: str, prompt: str) -> str:
    """What the echo models answer: both prompts, so a test sees that each arrived in its place."""
    return f"system={system}|prompt={prompt}"


def _word_count(text: str) -> int:
    return len(text.split())


def anthropic_echo(request: Any) -> dict[str, Any]:
    """Answer a Messages request with ``echo_text`` of its system and last user message."""
    prompt = request["messages"][-1]["content"]
    return anthropic_message(
        echo_text(request["system"], prompt),
        model=request["model"],
        input_tokens=_word_count(request["system"]) + _word_count(prompt),
        output_tokens=min(request["max_tokens"], 3),
        stop_reason="end_turn",
    )


def openai_echo(request: Any) -> dict[str, Any]:
    """Answer a Chat Completions request with ``echo_text`` of its system and user messages."""
    roles = {message["role"]: message["content"] for message in request["messages"]}
    limit = request.get("max_tokens", request.get("max_completion_tokens"))
    return openai_chat_completion(
        echo_text(roles["system"], roles["user"]),
        model=request["model"],
        prompt_tokens=_word_count(roles["system"]) + _word_count(roles["user"]),
        completion_tokens=min(limit, 3),
        finish_reason="stop",
    )


def word_overlap(query: str, document: str) -> float:
    """Share of the document's distinct words that the query also has: a relevance a reader can check."""
    words = set(document.lower().split())
    return len(words & set(query.lower().split())) / len(words) if words else 0.0


def cohere_scores(request: Any) -> dict[str, Any]:
    """Answer a rerank request by word overlap, honouring ``top_n``."""
    scores = [word_overlap(request["query"], document) for document in request["documents"]]
    answer = cohere_rerank(scores)
    answer["results"] = answer["results"][: request.get("top_n", len(scores))]
    return answer
