"""Secrets a repository holds reach neither the hosted model nor the bus; the code around them does.

A real git repository with keys, tokens, a private key block and passwords of different kinds goes
through the whole chain on a real nats-server and the embedded store: recency scan, index, selection,
analysis and summary, then two reviews (one by refs, so the reviewer diffs with git; one carrying its
diff and a title with a token, as a publisher may send). The model is a local HTTP server speaking
OpenAI's chat format that quotes its whole prompt back in its answer, as a model quoting a key would.
Every byte published on any subject of the server (events, claim-checked bodies, buckets) and every
request body the model server received is searched for each secret value.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import nats

from sextant.analyzer import app as analyzer
from sextant.analyzer.report_shape.section_titles import SECTION_TITLES
from sextant.bootstrap import bootstrap, host_all
from sextant.bus import Bus, EmbeddedNats, build_broker, start_routers
from sextant.chunkstore import collection_name
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.contracts import RepoRef, ReviewCompleted, StageFailed
from sextant.indexer import app as indexer
from sextant.recency_scanner import app as recency_scanner
from sextant.reviewer import app as reviewer
from sextant.selector import app as selector

from ..support.events import repo_updated, review_requested
from ..support.planted_repository import (
    DIFF_TOKEN,
    KEPT_CODE,
    SECRETS,
    SENT_DIFF,
    TITLE_TOKEN,
    build_planted_repository,
)
from ..support.provider_server import ProviderServer
from ..support.runs import analysis_outputs
from ..support.wire_formats import openai_chat_completion


def _answer(request: dict[str, Any]) -> dict[str, Any]:
    """A model that quotes its prompt back: an analysis and summary, or a review finding."""
    messages = request["messages"]
    prompt = messages[-1]["content"]
    if "reviewing a change" in messages[0]["content"]:
        text = json.dumps([{"path": "app/rotated.py", "line": 1, "severity": "warning", "message": prompt}])
    else:
        sections = "\n\n".join(f"## {title}\n\n{prompt}" for title in SECTION_TITLES)
        text = f"{sections}\n\n## Purpose\n\n{prompt}\n\n## Summary\n\n{prompt}"
    return openai_chat_completion(text, model="gpt-test", prompt_tokens=1000, completion_tokens=500)


async def _reviews(bus: Bus, run_ids: set[str]) -> list[ReviewCompleted]:
    found: dict[str, ReviewCompleted] = {}
    async for _, event, _ in bus.read("sextant.>", follow=True):
        if event is None or event.run_id not in run_ids:
            continue
        assert not isinstance(event, StageFailed), f"{event.stage} failed: {event.reason}"
        if isinstance(event, ReviewCompleted):
            found[event.run_id] = event
        if set(found) == run_ids:
            return list(found.values())
    raise AssertionError("the stream ended before the reviews")


async def test_no_secret_reaches_the_model_or_the_bus(git_repo: Any, tmp_path: Path, letter_embedder: Any) -> None:
    first, second = build_planted_repository(git_repo)
    env = {
        "INDEX_FILE_RECENCY": "true",
        "SEXTANT_HOME": str(tmp_path / "home"),
        "SEXTANT_ALLOW_LOCAL_REPOS": "true",
        "LLM_PROVIDER": "openai",
        "LLM_MODEL": "gpt-test",
    }
    store = EdgeChunkStore(
        tmp_path / "qdrant", collection_name(letter_embedder.model_id, letter_embedder.dimension), 26
    )
    published: list[bytes] = []
    with ProviderServer(answer=_answer) as model_server:
        env["LLM_BASE_URL"] = f"{model_server.url}/v1"
        adapters = bootstrap(env, store=store, embedder=letter_embedder)
        services = host_all(
            [recency_scanner.SERVICE, indexer.SERVICE, selector.SERVICE, analyzer.SERVICE, reviewer.SERVICE],
            adapters,
            env,
        )
        repo = RepoRef.for_url(git_repo.url, branch="main")
        try:
            with EmbeddedNats(tmp_path / "nats") as server:
                watcher = await nats.connect(server.url)

                async def record(message: Any) -> None:
                    published.append(
                        message.subject.encode() + b" " + message.data + json.dumps(message.headers or {}).encode()
                    )

                await watcher.subscribe(">", cb=record)
                bus = Bus(build_broker(server.url))
                await start_routers(bus, services)
                try:
                    await bus.publish(repo_updated(repo, "run-1"))
                    analysis, summary = await asyncio.wait_for(analysis_outputs(bus, "run-1"), 180)
                    await bus.publish(
                        review_requested(repo, "review-refs", title="rotate", base_ref=first, head_ref=second)
                    )
                    await bus.publish(
                        review_requested(
                            repo, "review-diff", title=f"rotate {TITLE_TOKEN}", description=f"was {DIFF_TOKEN}",
                            diff=SENT_DIFF,
                        )
                    )  # fmt: skip
                    reviews = await asyncio.wait_for(_reviews(bus, {"review-refs", "review-diff"}), 180)
                    await watcher.flush()
                finally:
                    await bus.close()
                    await watcher.close()
        finally:
            store.close()
        requests = [json.dumps(request.body) for request in model_server.requests]

    assert len(requests) >= 4  # analysis, summary, two reviews
    wire = b"\n".join(published)
    leaked_to_model = [secret for secret in SECRETS if any(secret in body for body in requests)]
    leaked_to_bus = [secret for secret in SECRETS if secret.encode() in wire]
    assert (len(leaked_to_model), len(leaked_to_bus)) == (0, 0), (leaked_to_model, leaked_to_bus)
    # The code around the secrets still reaches the model and the events, masks saying what stood there.
    analysis_request = next(body for body in requests if "connect_database" in body)
    prompt = json.loads(analysis_request)["messages"][-1]["content"]
    assert [kept for kept in KEPT_CODE if kept not in prompt] == []
    assert "<redacted:aws-key>" in prompt
    assert "<redacted:private-key>" in prompt
    assert "DATABASE_HOST=db.internal" in prompt or ".env" not in prompt
    assert "connect_database" in analysis.markdown
    assert "connect_database" in analysis.prompt
    assert summary.summary
    review_prompts = [json.loads(body)["messages"][-1]["content"] for body in requests if "unified diff" in body]
    assert len(review_prompts) == 2
    assert all("rotate" in prompt and "GITHUB_TOKEN" in prompt for prompt in review_prompts)
    assert any('os.environ["GITHUB_TOKEN"]' in prompt for prompt in review_prompts)
    assert {review.run_id for review in reviews} == {"review-refs", "review-diff"}
