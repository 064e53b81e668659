"""A re-run whose inputs are unchanged makes no model call: counted at the local fake provider.

The whole chain runs on a real nats-server and the embedded store, with an OpenAI-compatible model
served by a local HTTP server. The first run asks it twice (analysis and summary); a second run on
the same commit asks it nothing and republishes both outputs, saying since when; a commit that
changes selected code asks it again.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from sextant.analyzer import app as analyzer
from sextant.analyzer.report_shape.section_titles import PROVENANCE_HEADING, SECTION_TITLES
from sextant.bootstrap import bootstrap, host_all
from sextant.bus import Bus, EmbeddedNats, build_broker, start_routers
from sextant.chunkstore import collection_name
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.contracts import (
    RepoRef,
    RepoUpdated,
)
from sextant.indexer import app as indexer
from sextant.recency_scanner import app as recency_scanner
from sextant.selector import app as selector

from ..support.events import repo_updated
from ..support.runs import analysis_outputs
from ..support.wire_formats import openai_chat_completion

ANALYSIS = "\n\n".join(f"## {title}\n\nText about {title.lower()}." for title in SECTION_TITLES)
SUMMARY = "## Purpose\n\nA tiny session library.\n\n## Summary\n\nOne module that opens sessions."


def reply(text: str) -> dict[str, Any]:
    return openai_chat_completion(text, model="gpt-test", prompt_tokens=1000, completion_tokens=500)


def build_repository(repo: Any) -> None:
    repo.write("app/sessions.py", 'def open_session(user: str) -> dict[str, str]:\n    return {"user": user}\n')
    repo.write("docs/usage.md", "# Usage\n\nCall `open_session()` from `app/sessions.py`.\n")
    repo.write("README.md", "# Sessions\n\nA tiny session library.\n")
    repo.commit("first", date="2026-05-01T12:00:00+00:00")


async def test_a_no_op_rerun_makes_no_model_call(
    git_repo: Any, tmp_path: Path, letter_embedder: Any, provider: Any
) -> None:
    build_repository(git_repo)
    # Analysis and summary may be handled in either order, so every call gets the same answer.
    provider.replies = [(200, reply(f"{ANALYSIS}\n\n{SUMMARY}"))]
    env = {
        "INDEX_FILE_RECENCY": "true",
        "SEXTANT_HOME": str(tmp_path / "home"),
        "LLM_PROVIDER": "openai",
        "LLM_BASE_URL": f"{provider.url}/v1",
        "LLM_MODEL": "gpt-test",
    }
    store = EdgeChunkStore(
        tmp_path / "qdrant", collection_name(letter_embedder.model_id, letter_embedder.dimension), 26
    )
    adapters = bootstrap(env, store=store, embedder=letter_embedder)
    services = host_all([recency_scanner.SERVICE, indexer.SERVICE, selector.SERVICE, analyzer.SERVICE], adapters, env)
    repo = RepoRef.for_url(git_repo.url, branch="main")

    def request(run_id: str) -> RepoUpdated:
        return repo_updated(repo, run_id)

    try:
        with EmbeddedNats(tmp_path / "nats") as server:
            bus = Bus(build_broker(server.url))
            await start_routers(bus, services)
            try:
                await bus.publish(request("run-1"))
                first, first_summary = await asyncio.wait_for(analysis_outputs(bus, "run-1"), 120)
                calls_after_first = len(provider.requests)

                await bus.publish(request("run-2"))
                again, again_summary = await asyncio.wait_for(analysis_outputs(bus, "run-2"), 120)
                calls_after_second = len(provider.requests)

                git_repo.write(
                    "app/sessions.py", "def open_session(user: str, ttl: int) -> dict[str, str]:\n    return {}\n"
                )
                git_repo.commit("ttl", date="2026-06-01T12:00:00+00:00")
                await bus.publish(request("run-3"))
                changed, _ = await asyncio.wait_for(analysis_outputs(bus, "run-3"), 120)
                calls_after_change = len(provider.requests)
            finally:
                await bus.close()
    finally:
        store.close()

    assert calls_after_first == 2
    assert first.fingerprint
    assert first.unchanged_since is None
    assert (first.usage.input_tokens, first.provenance.input_tokens) == (1000, 1000)

    assert calls_after_second == 2  # the no-op re-run: zero model requests
    assert again.fingerprint == first.fingerprint
    assert again.unchanged_since == first.occurred_at
    assert again_summary.unchanged_since == first_summary.occurred_at
    assert again.markdown == first.markdown
    assert again.usage.input_tokens == 0
    assert again.provenance.input_tokens == 1000  # what the standing text cost when written

    assert calls_after_change == 4
    assert changed.fingerprint != first.fingerprint
    assert changed.unchanged_since is None

    # Provenance: structured in the event and as the closing section of the Markdown.
    read = {(c.path, c.kind) for c in first.provenance.chunks}
    assert ("app/sessions.py", "code") in read
    assert ("docs/usage.md", "doc") in read
    assert first.provenance.dense_vectors is False
    assert first.provenance.claims_checked >= 1
    assert (first.provenance.model, first.provenance.provider) == ("gpt-test", "openai-compatible")
    assert first.markdown.rstrip().rsplit(f"## {PROVENANCE_HEADING}", 1)[1].count("- ") >= 4
    assert "dense vectors not used" in first.markdown
    assert f"## {PROVENANCE_HEADING}" in first_summary.markdown
    assert first_summary.purpose
