"""The PR bot as declared: a durable consumer of ReviewCompleted on a real nats-server, posting to a local GitHub."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sextant.bootstrap import bootstrap, host
from sextant.bus import Bus, EmbeddedNats, build_broker, start_routers
from sextant.contracts import RepoRef
from sextant.pr_bot.app import SERVICE
from sextant.pr_bot.review_post import SUMMARY_MARKER

from ..support.events import review_completed
from .conftest import GITHUB_TOKEN, FakeHost


async def test_a_published_review_reaches_the_pull_request(github: FakeHost, tmp_path: Path) -> None:
    env = {"PR_BOT_GITHUB_TOKEN": GITHUB_TOKEN, "GITHUB_API_URL": github.url, "SEXTANT_HOME": str(tmp_path)}
    review = review_completed(
        RepoRef.for_url("https://github.com/octo/shop.git", provider="github"), "run-1", "req-1",
        pr_number=12, markdown="## Review\\n\\nFrom the bus.",
    )  # fmt: skip
    assert not SERVICE.embedded, "it needs write tokens: only its own process hosts it"
    with EmbeddedNats(tmp_path / "nats") as nats:
        bus = Bus(build_broker(nats.url))
        adapters = bootstrap(env)
        await start_routers(bus, [host(SERVICE, adapters, env)])
        await bus.publish(review)
        await asyncio.wait_for(github.commented.wait(), timeout=120)
        await bus.close()
        adapters.close()

    [comment] = github.comments.values()
    assert comment["body"].startswith(SUMMARY_MARKER)
    assert "From the bus." in comment["body"]
    assert ("POST", "/repos/octo/shop/issues/12/comments") in github.writes()
